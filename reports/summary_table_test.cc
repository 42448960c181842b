#include <gtest/gtest.h>

#include "reports/compare.h"
#include "reports/reporter.h"
#include "reports/reports.h"
#include "results/results_json.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::reports {
namespace {

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(SummaryTableTest, MatrixColumnsOnlyWhenTheyVary) {
  results::RunResults r = test::LoadRunA();
  EXPECT_EQ(FirstLine(RenderSummaryTable(r)),
            "phase     engine    threads       target  cache      ops/s  harness  p50 us  p99 us  "
            "status");
  std::erase_if(r.runs, [](const results::PhaseRun& run) {
    return run.phase == "ycsb_a" || !run.cache.empty();
  });
  EXPECT_EQ(FirstLine(RenderSummaryTable(r)),
            "phase  engine        ops/s  harness  p50 us  p99 us  status");
}

TEST(SummaryTableTest, OneLinePerRunWithStatusAndReason) {
  const results::RunResults r = test::LoadRunA();
  const std::string table = RenderSummaryTable(r);
  EXPECT_EQ(static_cast<size_t>(std::count(table.begin(), table.end(), '\n')), r.runs.size() + 1);
  EXPECT_NE(table.find("failed: killed by signal 11 (SIGSEGV) after 1873 operations\n"),
            std::string::npos);
  for (char c : table) EXPECT_TRUE(static_cast<unsigned char>(c) < 128) << "non-ASCII output";
}

// run_a with a record phase added: a copy of its first run whose latency
// samples are means of blocks of 256 operations, as runner/record_phase.cc
// records them.
results::RunResults WithRecordPhase() {
  results::RunResults r = test::LoadRunA();
  results::PhaseRun records = r.runs.front();
  records.phase = "records";
  records.op = "record-insert";
  for (results::Repetition& rep : records.repetitions) {
    for (results::OpFigures& o : rep.ops) o.latency.block_ops = 256;
  }
  r.runs.push_back(records);
  return r;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Issue 29: record phases' p50/p99/max are of block means; every report a
// person reads says so, only for those rows, and results.json keeps it.
TEST(BlockMeansTest, RecordPhaseLatenciesAreMarkedInEveryReport) {
  const results::RunResults plain = test::LoadRunA();
  const results::RunResults r = WithRecordPhase();

  // results.json: written, read back, and absent (0) in files without it.
  results::RunResults read;
  ASSERT_TRUE(results::ResultsFromJson(results::ResultsToJson(r), &read).ok());
  EXPECT_EQ(read.runs.back().repetitions.front().ops.front().latency.block_ops, 256u);
  EXPECT_EQ(plain.runs.front().repetitions.front().ops.front().latency.block_ops, 0u);
  EXPECT_FALSE(results::ResultsToJson(plain).dump().find("block_ops") != std::string::npos);

  // The terminal summary: the record row's latencies carry "*", one note below.
  const std::string table = RenderSummaryTable(r);
  std::string records_row;
  for (size_t at = 0, end; at < table.size(); at = end + 1) {
    end = table.find('\n', at);
    const std::string line = table.substr(at, end - at);
    if (line.rfind("records ", 0) == 0) records_row = line;
    if (line.rfind("records ", 0) != 0 && line.rfind("* ", 0) != 0) {
      EXPECT_EQ(line.find('*'), std::string::npos) << line;
    }
  }
  EXPECT_EQ(Count(records_row, "*"), 2u) << records_row;  // p50 and p99
  EXPECT_EQ(Count(table, "\n* Latencies of block means: record phases time blocks of up to 256 "),
            1u)
      << table;
  EXPECT_EQ(RenderSummaryTable(plain).find("block means"), std::string::npos);

  // Markdown and HTML: the record phase's latency headers and its note.
  for (const char* format : {"md", "html"}) {
    const std::string text = MakeReporter(format)->Render(r);
    EXPECT_EQ(Count(text, "p99 µs (block means)"), 1u) << format;
    EXPECT_EQ(Count(text, "p50 µs (block means)"), 1u) << format;
    EXPECT_GE(Count(text, "up to 256 operations"), 1u) << format;
    EXPECT_EQ(MakeReporter(format)->Render(plain).find("block means"), std::string::npos) << format;
  }
  EXPECT_NE(MakeHtmlReporter()->Render(r).find("latency of block means (µs)"), std::string::npos);

  // CSV: latency_block_ops is 256 on the record row, empty elsewhere.
  const std::string csv = MakeCsvReporter()->Render(r);
  const std::string header = csv.substr(0, csv.find("\r\n"));
  EXPECT_NE(header.find(",latency_block_ops,reason"), std::string::npos) << header;
  EXPECT_EQ(Count(csv, "\r\nrecords,"), 1u);
  EXPECT_NE(csv.find(",256,"), std::string::npos);
  EXPECT_EQ(Count(MakeCsvReporter()->Render(plain), ",256,"), 0u);

  // kvbench compare: the p99 cells of the record row.
  const std::string compared = RenderComparison(CompareResults(r, r, {}), r, r, "a", "b");
  EXPECT_GE(Count(compared, " (block means)"), 2u) << compared;
  EXPECT_NE(compared.find("Latencies of block means"), std::string::npos);
}

}  // namespace
}  // namespace kvbench::reports
