// VerifyFile: opens arbitrary bytes as a pbtree file and drives every read
// path over it, then, when the file passes Check(), writes to it and checks
// again. Shared by the libFuzzer target (pbtree_open_fuzz.cc) and the
// GoogleTest that runs mutated files in CI (verify_file_test.cc).
//
// Whatever the bytes, pbtree must answer with a Status and never crash, hang
// or read out of bounds; on a file that passed Check it must also keep its own
// invariants (every key found, counts agree, still valid after writes). A
// broken invariant is reported in `bug`, never by aborting.
#pragma once

#include <cstdint>
#include <string>

#include "engines/pbtree/status.h"

namespace pbtree {

struct VerifyOutcome {
  Status open;   // DB::Open
  Status check;  // DB::Check, when the open succeeded
  uint64_t keys_visited = 0;
  std::string bug;  // non-empty: pbtree broke one of its invariants on this file
};

// `path` is modified when it holds a valid database (writes, Reorganize).
// Its log (`path` + "-log") is removed before and after: the input is the
// file alone.
VerifyOutcome VerifyFile(const std::string& path, bool verify_checksums);

}  // namespace pbtree
