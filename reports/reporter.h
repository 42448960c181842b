// One reporter per output format behind one small interface (as Google
// Benchmark's reporters): each turns a RunResults into one document. Reporters
// read nothing but the RunResults, so any report can be rebuilt or merged from
// results.json files without re-running anything.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "results/results.h"

namespace kvbench::reports {

class Reporter {
 public:
  virtual ~Reporter() = default;

  // Format name as given to `kvbench report --format`: "md", "html", "csv".
  virtual std::string_view format() const = 0;
  // File name `kvbench run` writes the document to: "report.md", ...
  virtual std::string_view file_name() const = 0;
  // The whole document. A pure function of `results`: the same results give
  // the same bytes. Thread-safe.
  virtual std::string Render(const results::RunResults& results) const = 0;
};

std::unique_ptr<Reporter> MakeMarkdownReporter();
std::unique_ptr<Reporter> MakeHtmlReporter();
std::unique_ptr<Reporter> MakeCsvReporter();
// The reporter for a format name, or nullptr when there is none.
std::unique_ptr<Reporter> MakeReporter(std::string_view format);

}  // namespace kvbench::reports
