#include "harness/cli.h"
namespace kvbench::harness {
void AddGenCommand(CLI::App&, int*) {}
}  // namespace kvbench::harness
