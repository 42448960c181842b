#include <gtest/gtest.h>

#include "reports/reporter.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::reports {
namespace {

// A strict RFC 4180 reader: records end in CRLF; quoted fields may hold
// commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    std::string& field = records.back().back();
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().emplace_back();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      records.emplace_back(1);
    } else {
      field += c;
    }
  }
  if (records.back().size() == 1 && records.back()[0].empty()) records.pop_back();
  return records;
}

size_t Column(const std::vector<std::string>& header, const std::string& name) {
  return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

TEST(CsvReportTest, HeaderStartsWithTheFixedColumns) {
  const auto rows = ParseCsv(MakeCsvReporter()->Render(test::LoadRunA()));
  const std::vector<std::string> fixed = {"phase",         "op",
                                          "cache",         "engine",
                                          "threads",       "target_ops",
                                          "repetitions",   "ops",
                                          "seconds",       "ops_per_sec",
                                          "p50_us",        "p90_us",
                                          "p99_us",        "p999_us",
                                          "max_us",        "cpu_user_s",
                                          "cpu_sys_s",     "peak_rss_bytes",
                                          "file_bytes",    "allocated_bytes",
                                          "bytes_written", "cache_resident_pct",
                                          "found",         "not_found",
                                          "status"};
  ASSERT_GE(rows.at(0).size(), fixed.size());
  EXPECT_EQ(std::vector<std::string>(rows[0].begin(), rows[0].begin() + 25), fixed);
  EXPECT_EQ(rows[0].back(), "reason");
}

TEST(CsvReportTest, OneRowPerRunAndOpTypeWithEmptyCellsForUnmeasured) {
  const results::RunResults r = test::LoadRunA();
  const auto rows = ParseCsv(MakeCsvReporter()->Render(r));
  size_t expected = 1;  // header
  for (const auto& run : r.runs) {
    expected += run.repetitions.empty() ? 1 : run.repetitions[0].ops.size();
  }
  ASSERT_EQ(rows.size(), expected);
  const auto& h = rows[0];
  size_t mixed_rows = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    ASSERT_EQ(row.size(), h.size()) << "row " << i;
    const std::string engine = row[Column(h, "engine")];
    const std::string status = row[Column(h, "status")];
    if (status != "ok") {
      EXPECT_EQ(row[Column(h, "ops_per_sec")], "") << "row " << i;
      EXPECT_EQ(row[Column(h, "p99_us")], "");
      EXPECT_FALSE(row[Column(h, "reason")].empty());
    }
    if (engine == "stdmap" && status == "ok") {
      // An in-memory engine: no I/O counters and no page-cache residency.
      EXPECT_EQ(row[Column(h, "bytes_written")], "");
      EXPECT_EQ(row[Column(h, "cache_resident_pct")], "");
      EXPECT_EQ(row[Column(h, "file_bytes")], "0");
    }
    if (row[Column(h, "phase")] == "ycsb_a" && engine == "sqlite") ++mixed_rows;
    if (row[Column(h, "phase")] == "get_cold" && engine == "lmdb") {
      EXPECT_EQ(row[Column(h, "repetitions")], "3");
      EXPECT_EQ(row[Column(h, "found")], "4096");
      EXPECT_EQ(row[Column(h, "cache")], "cold");
      EXPECT_FALSE(row[Column(h, "cache_resident_pct")].empty());
    }
  }
  EXPECT_EQ(mixed_rows, 4u * 3u);  // 4 matrix points x (all, READ, UPDATE)
}

TEST(CsvReportTest, QuotesFieldsPerRfc4180) {
  results::RunResults r = test::LoadRunA();
  r.runs[0].status = "failed";
  r.runs[0].reason = "error \"disk full\", after 10 ops\nsee log";
  r.runs[0].repetitions.clear();
  const std::string csv = MakeCsvReporter()->Render(r);
  EXPECT_NE(csv.find(",\"error \"\"disk full\"\", after 10 ops\nsee log\"\r\n"), std::string::npos);
  const auto rows = ParseCsv(csv);
  EXPECT_EQ(rows[1].back(), "error \"disk full\", after 10 ops\nsee log");
}

// OWASP's CSV injection: text that a spreadsheet would run as a formula is
// written behind a single quote; numbers keep their sign and digits.
TEST(CsvReportTest, TextCellsThatWouldRunAsFormulasAreQuotedNumbersAreNot) {
  results::RunResults r = test::LoadRunA();
  for (results::PhaseRun& run : r.runs) {
    if (run.phase != r.runs[0].phase) continue;
    run.phase = "=HYPERLINK(\"http://x\",\"y\")";
    run.engine = "@" + run.engine;
    run.reason = "-1+2";
    run.cache = "+cold";
  }
  const auto rows = ParseCsv(MakeCsvReporter()->Render(r));
  const std::vector<std::string>& h = rows.at(0);
  size_t seen = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (row[Column(h, "phase")].rfind("'=", 0) != 0) {
      EXPECT_NE(row[Column(h, "phase")].front(), '=');
      continue;
    }
    ++seen;
    EXPECT_EQ(row[Column(h, "phase")], "'=HYPERLINK(\"http://x\",\"y\")");
    EXPECT_EQ(row[Column(h, "engine")].substr(0, 2), "'@");
    EXPECT_EQ(row[Column(h, "cache")], "'+cold");
    EXPECT_EQ(row.back(), "'-1+2");
    for (const char* number : {"threads", "target_ops", "ops", "seconds", "ops_per_sec"}) {
      const std::string& cell = row[Column(h, number)];
      EXPECT_TRUE(cell.empty() || cell.front() != '\'') << number << ": " << cell;
    }
  }
  EXPECT_GT(seen, 0u);
}

TEST(CsvReportTest, WallEngineSecondsAndHarnessShareColumns) {
  results::RunResults r = test::LoadRunA();
  for (results::PhaseRun& run : r.runs) {
    for (results::Repetition& rep : run.repetitions) rep.engine_seconds = rep.seconds * 0.75;
  }
  const auto rows = ParseCsv(MakeCsvReporter()->Render(r));
  const std::vector<std::string>& h = rows.at(0);
  ASSERT_LT(Column(h, "harness_share"), h.size());
  EXPECT_EQ(h.back(), "reason");
  size_t checked = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    ASSERT_EQ(row.size(), h.size());
    if (row[Column(h, "seconds")].empty()) continue;
    EXPECT_EQ(row[Column(h, "wall_seconds")], row[Column(h, "seconds")]);
    EXPECT_NEAR(std::stod(row[Column(h, "harness_share")]), 0.25, 1e-9);
    EXPECT_NEAR(std::stod(row[Column(h, "engine_seconds")]),
                0.75 * std::stod(row[Column(h, "seconds")]),
                1e-9 * std::stod(row[Column(h, "seconds")]));
    EXPECT_EQ(row[Column(h, "rate_base")], "wall_span");
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace kvbench::reports
