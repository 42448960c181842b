#include "harness/cli.h"
namespace kvbench::harness {
void AddReportCommand(CLI::App&, int*) {}
}  // namespace kvbench::harness
