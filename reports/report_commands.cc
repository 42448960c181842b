#include "reports/report_commands.h"

#include "harness/cli.h"
#include "harness/results_json.h"
#include "reports/reporter.h"
#include "reports/reports.h"

namespace kvbench::reports {

int RunReportCommand(const std::vector<std::string>& files, const std::string& format,
                     const std::string& output_path, std::ostream& out, std::ostream& err) {
  const std::unique_ptr<Reporter> reporter = MakeReporter(format);
  if (reporter == nullptr) {
    err << "kvbench report: unknown format '" << format << "' (md, html or csv)\n";
    return harness::kExitBadInput;
  }
  if (files.empty()) {
    err << "kvbench report: no results file given\n";
    return harness::kExitBadInput;
  }
  std::vector<harness::RunResults> inputs(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (Status s = harness::ReadResultsFile(files[i], &inputs[i]); !s.ok()) {
      err << "kvbench report: " << s.message() << "\n";
      return harness::kExitBadInput;
    }
  }
  const std::string document = reporter->Render(MergeResults(inputs));
  if (output_path.empty()) {
    out << document;
    return harness::kExitOk;
  }
  if (Status s = harness::WriteFileAtomically(output_path, document); !s.ok()) {
    err << "kvbench report: " << s.message() << "\n";
    return harness::kExitFailure;
  }
  return harness::kExitOk;
}

int RunCompareCommand(const std::string& a_path, const std::string& b_path,
                      const CompareOptions& options, std::ostream& out, std::ostream& err) {
  harness::RunResults a, b;
  for (const auto& [path, results] : {std::pair{&a_path, &a}, std::pair{&b_path, &b}}) {
    if (Status s = harness::ReadResultsFile(*path, results); !s.ok()) {
      err << "kvbench compare: " << s.message() << "\n";
      return harness::kExitBadInput;
    }
  }
  if (options.threshold_pct < 0 ||
      (options.fail_on_regression_pct && *options.fail_on_regression_pct < 0)) {
    err << "kvbench compare: --threshold and --fail-on-regression take a percentage >= 0\n";
    return harness::kExitBadInput;
  }
  const Comparison c = CompareResults(a, b, options);
  out << RenderComparison(c, a, b, a_path, b_path);
  return c.has_regression ? harness::kExitFailure : harness::kExitOk;
}

}  // namespace kvbench::reports
