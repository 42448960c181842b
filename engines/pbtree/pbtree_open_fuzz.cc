// libFuzzer target: opens arbitrary bytes as a pbtree file (see
// verify_file.h for what is exercised). Built only with clang and
// -DKVBENCH_FUZZ=ON; how to run it is in README.md.
//
// The first input byte chooses whether page checksums are verified (odd) or
// skipped (even, so that mutations reach the structural checks); the rest is
// the file.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "engines/pbtree/verify_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/tmp/pbtree-fuzz-" + std::to_string(getpid()) + ".db";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);
  const pbtree::VerifyOutcome out = pbtree::VerifyFile(path, (data[0] & 1) != 0);
  std::remove(path.c_str());
  if (!out.bug.empty()) {
    std::fprintf(stderr, "pbtree invariant broken: %s\n", out.bug.c_str());
    __builtin_trap();
  }
  return 0;
}
