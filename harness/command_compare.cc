#include "harness/cli.h"
namespace kvbench::harness {
void AddCompareCommand(CLI::App&, int*) {}
}  // namespace kvbench::harness
