// The reporter registry by format name, and the files `kvbench run` writes.
#include "results/results_json.h"
#include "reports/reporter.h"
#include "reports/reports.h"

namespace kvbench::reports {

std::unique_ptr<Reporter> MakeReporter(std::string_view format) {
  if (format == "md") return MakeMarkdownReporter();
  if (format == "html") return MakeHtmlReporter();
  if (format == "csv") return MakeCsvReporter();
  return nullptr;
}

Status WriteRunReports(const results::RunResults& results, const std::string& out_dir,
                       bool pretty_json) {
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back(out_dir + "/results.json", results::ResultsFileText(results, pretty_json));
  for (const char* format : {"md", "html", "csv"}) {
    const std::unique_ptr<Reporter> reporter = MakeReporter(format);
    files.emplace_back(out_dir + "/" + std::string(reporter->file_name()),
                       reporter->Render(results));
  }
  return WriteFileSetAtomically(files);
}

}  // namespace kvbench::reports
