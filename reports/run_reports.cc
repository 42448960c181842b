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

Status WriteRunReports(const results::RunResults& results, const std::string& out_dir) {
  Status first_error;
  for (const char* format : {"md", "html", "csv"}) {
    const std::unique_ptr<Reporter> reporter = MakeReporter(format);
    const std::string path = out_dir + "/" + std::string(reporter->file_name());
    Status s = WriteFileAtomically(path, reporter->Render(results));
    if (!s.ok() && first_error.ok()) first_error = s;
  }
  return first_error;
}

}  // namespace kvbench::reports
