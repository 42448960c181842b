// Test support: the fixed results files in reports/testdata and golden-file
// comparison. Set KVBENCH_UPDATE_GOLDEN=1 to rewrite the golden files from
// the current output instead of comparing (then review the diff).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "results/results_json.h"

namespace kvbench::reports::test {

inline std::string TestdataPath(const std::string& name) {
  return std::string(KVBENCH_REPORTS_TESTDATA) + "/" + name;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The golden results: five engines (one crashed, one cannot scan), cold and
// hot phases, a threads x target matrix, three repetitions.
inline results::RunResults LoadRunA() {
  results::RunResults r;
  const Status s = results::ReadResultsFile(TestdataPath("run_a.json"), &r);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return r;
}

// Compares `actual` with testdata/golden/<name> byte for byte, or rewrites the
// golden file when KVBENCH_UPDATE_GOLDEN is set.
inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = TestdataPath("golden/" + name);
  const char* update = std::getenv("KVBENCH_UPDATE_GOLDEN");
  if (update != nullptr && *update != '\0' && std::string(update) != "0") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  const std::string expected = ReadText(path);
  ASSERT_FALSE(expected.empty()) << path << " is missing: run with KVBENCH_UPDATE_GOLDEN=1";
  if (expected == actual) return;
  // Point at the first differing line rather than dumping two whole documents.
  size_t line = 1, i = 0;
  while (i < expected.size() && i < actual.size() && expected[i] == actual[i]) {
    if (expected[i++] == '\n') ++line;
  }
  auto line_at = [](const std::string& s, size_t pos) {
    const size_t start = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    const size_t from = start == std::string::npos ? 0 : start + 1;
    return s.substr(from, s.find('\n', from) - from);
  };
  ADD_FAILURE() << name << " differs from " << path << " at line " << line
                << ":\n  expected: " << line_at(expected, i)
                << "\n  actual:   " << line_at(actual, i)
                << "\n(KVBENCH_UPDATE_GOLDEN=1 rewrites the golden file if the change is meant)";
}

}  // namespace kvbench::reports::test
