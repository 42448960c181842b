// The conformance cases (conformance/) as GoogleTest tests: one test per case
// and registered engine, named <Suite>/<Fixture>.Case/<engine>_<CaseName>
// with every character of the engine name that is not a letter or a digit
// made '_' (gtest allows no other), so `--gtest_filter='*tc_btree_*'` selects
// tc-btree's cases. Each case runs in a child process of its own through the
// same code `kvbench conformance` uses, so the two can never disagree.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "adapters/registry.h"
#include "conformance/case_runner.h"

namespace kvbench::test {

struct ConformanceParam {
  const conformance::Case* c;
  std::string engine;
};

// How gtest shows a parameter: "tc-btree adapter/PutGetRoundTrip".
inline void PrintTo(const ConformanceParam& p, std::ostream* out) {
  *out << p.engine << " " << p.c->full_name();
}

// Every case of `suite` for every registered engine.
inline std::vector<ConformanceParam> ConformanceParams(const std::string& suite) {
  std::vector<ConformanceParam> out;
  for (const std::string& engine : AdapterRegistry::Global().Names()) {
    for (const conformance::Case* c : conformance::CaseRegistry::Global().Suite(suite)) {
      out.push_back({c, engine});
    }
  }
  return out;
}

inline std::string ConformanceParamName(const ::testing::TestParamInfo<ConformanceParam>& info) {
  std::string out;
  for (char c : info.param.engine + "_" + info.param.c->name) {
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  }
  return out;
}

inline void RunConformanceCase(const ConformanceParam& p) {
  ASSERT_TRUE(AdapterRegistry::Global().errors().empty());
  const conformance::CaseResult r = conformance::RunCaseInChild(*p.c, p.engine, 600);
  for (const std::string& failure : r.failures) ADD_FAILURE() << failure;
  if (r.verdict == conformance::Verdict::kSkipped) GTEST_SKIP() << r.skip_reason;
}

}  // namespace kvbench::test

// One parameterised test running every case of `suite` on every engine.
#define KVBENCH_CONFORMANCE_SUITE(Fixture, suite)                                          \
  class Fixture : public ::testing::TestWithParam<::kvbench::test::ConformanceParam> {};   \
  TEST_P(Fixture, Case) { ::kvbench::test::RunConformanceCase(GetParam()); }               \
  INSTANTIATE_TEST_SUITE_P(AllAdapters, Fixture,                                           \
                           ::testing::ValuesIn(::kvbench::test::ConformanceParams(suite)), \
                           ::kvbench::test::ConformanceParamName)
