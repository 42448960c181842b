#include "app/report_commands.h"

#include "app/cli.h"
#include "results/results_json.h"
#include "reports/reporter.h"
#include "reports/reports.h"

namespace kvbench::app {

int RunReportCommand(const std::vector<std::string>& files, const std::string& format,
                     const std::string& output_path, std::ostream& out, std::ostream& err) {
  const std::unique_ptr<reports::Reporter> reporter = reports::MakeReporter(format);
  if (reporter == nullptr) {
    err << "kvbench report: unknown format '" << format << "' (md, html or csv)\n";
    return kExitBadInput;
  }
  if (files.empty()) {
    err << "kvbench report: no results file given\n";
    return kExitBadInput;
  }
  std::vector<results::RunResults> inputs(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (Status s = results::ReadResultsFile(files[i], &inputs[i]); !s.ok()) {
      err << "kvbench report: " << s.message() << "\n";
      return kExitBadInput;
    }
  }
  const std::string document = reporter->Render(reports::MergeResults(inputs));
  if (output_path.empty()) {
    out << document;
    return kExitOk;
  }
  if (Status s = WriteFileAtomically(output_path, document); !s.ok()) {
    err << "kvbench report: " << s.message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

int RunCompareCommand(const std::string& a_path, const std::string& b_path,
                      const reports::CompareOptions& options, std::ostream& out, std::ostream& err) {
  results::RunResults a, b;
  for (const auto& [path, results] : {std::pair{&a_path, &a}, std::pair{&b_path, &b}}) {
    if (Status s = results::ReadResultsFile(*path, results); !s.ok()) {
      err << "kvbench compare: " << s.message() << "\n";
      return kExitBadInput;
    }
  }
  if (const std::string bad = reports::CheckCompareOptions(options); !bad.empty()) {
    err << "kvbench compare: " << bad << "\n";
    return kExitBadInput;
  }
  // Figures of different experiments are not comparable.
  if (a.workload.name != b.workload.name) {
    err << "kvbench compare: '" << a_path << "' ran workload '" << a.workload.name << "' and '"
        << b_path << "' ran workload '" << b.workload.name
        << "': only runs of one workload compare\n";
    return kExitBadInput;
  }
  const reports::Comparison c = CompareResults(a, b, options);
  if (const std::string refusal = reports::MixedTimeBaseRefusal(c); !refusal.empty()) {
    err << "kvbench compare: '" << a_path << "' vs '" << b_path << "': " << refusal << "\n";
    return kExitBadInput;
  }
  // A run cut short compares only what it finished: said before the table.
  for (const auto& [path, results] : {std::pair{&a_path, &a}, std::pair{&b_path, &b}}) {
    if (!results->complete) {
      err << "kvbench compare: note: '" << *path << "' is an incomplete run ("
          << (results->interrupted.empty() ? "it did not finish"
                                           : "interrupted by " + results->interrupted)
          << "): rows it did not measure are missing, not unchanged\n";
    }
  }
  out << reports::RenderComparison(c, a, b, a_path, b_path);
  return c.has_regression ? kExitFailure : kExitOk;
}

}  // namespace kvbench::app
