#include <random>
#include <string>

#include "common/strings.h"
#include "results/results.h"

namespace kvbench::results {

std::string NewRunId() {
  // std::random_device reads the kernel's entropy (getrandom on Linux), so
  // two runs started at the same instant on two machines still differ.
  std::random_device device;
  auto word = [&device] { return (static_cast<uint64_t>(device()) << 32) | device(); };
  return HexU64(word()) + HexU64(word());
}

}  // namespace kvbench::results
