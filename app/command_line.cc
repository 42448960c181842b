// CanonicalCommandLine (cli.h): the command as run, for results.json.
#include "app/cli.h"

namespace kvbench::app {

std::string CanonicalCommandLine(const CLI::App& cmd, const std::string& positional) {
  std::string line = "kvbench " + cmd.get_name();
  for (const std::string& p : cmd.get_option(positional)->results()) line += " " + p;
  for (const CLI::Option* option : cmd.get_options()) {
    if (option->get_name() == positional || option->count() == 0) continue;
    if (option->get_items_expected_max() == 0) {  // a flag
      line += " " + option->get_name();
      continue;
    }
    // An option whose value may be omitted (run's --history) shows bare.
    if (option->results().empty()) line += " " + option->get_name();
    for (const std::string& v : option->results()) {
      line += " " + option->get_name() + (v.empty() ? "" : " " + v);
    }
  }
  return line;
}

}  // namespace kvbench::app
