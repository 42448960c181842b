// `kvbench report RESULTS.json... [--format md|html|csv] [-o FILE]`: rebuilds
// a report from results files, merging several into one.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/report_commands.h"

namespace kvbench::app {

void AddReportCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::vector<std::string> files;
    std::string format = "md";
    std::string output;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "report", "Render results.json files (merged when several) as Markdown, HTML or CSV");
  cmd->footer("Example: kvbench report runs/a/results.json runs/b/results.json --format html -o both.html");
  cmd->add_option("results", args->files, "results.json files")->required();
  cmd->add_option("--format", args->format, "md (default), html or csv")
      ->check(CLI::IsMember({"md", "html", "csv"}));
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of standard output");
  cmd->callback([exit_code, args] {
    *exit_code =
        RunReportCommand(args->files, args->format, args->output, std::cout, std::cerr);
  });
}

}  // namespace kvbench::app
