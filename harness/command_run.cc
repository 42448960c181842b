#include "harness/cli.h"
namespace kvbench::harness {
void AddRunCommand(CLI::App&, int*) {}
}  // namespace kvbench::harness
