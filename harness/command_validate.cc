#include "harness/cli.h"
namespace kvbench::harness {
void AddValidateCommand(CLI::App&, int*) {}
}  // namespace kvbench::harness
