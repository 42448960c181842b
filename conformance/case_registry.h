// The conformance cases: what every engine, built in or from a plugin, must
// do to be run by kvbench. Each case registers itself in its file, like a
// gtest TEST_F:
//
//   KVB_CONFORMANCE_CASE(AdapterFixture, PutGetRoundTrip) {
//     Put("alpha", "one");
//     KVB_EXPECT_EQ(Get("alpha"), "one");
//   }
//
// A fixture derives from CaseFixture; the case's class derives from the
// fixture, so the body uses its members. Suites are the fixtures' names as
// they say (kSuite): "adapter", "record", "options", "damaged-files".
// `kvbench conformance` and the ctest suites (tests/conformance_gtest.h) run
// the same list (case_runner.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kvbench::conformance {

// One case's state for one engine. SetUp, then Body unless SetUp failed or
// skipped, then TearDown, on one fresh object.
class CaseFixture {
 public:
  virtual ~CaseFixture() = default;
  virtual void SetUp() {}
  virtual void Body() = 0;
  virtual void TearDown() {}

  const std::string& engine() const { return engine_; }
  void set_engine(std::string engine) { engine_ = std::move(engine); }

 private:
  std::string engine_;
};

struct Case {
  std::string suite;  // "adapter", "record", ...
  std::string name;   // "PutGetRoundTrip"
  std::function<std::unique_ptr<CaseFixture>()> make;

  std::string full_name() const { return suite + "/" + name; }
};

class CaseRegistry {
 public:
  static CaseRegistry& Global();
  bool Add(Case c);
  // In registration order within a suite, suites in the order first seen.
  const std::vector<Case>& cases() const { return cases_; }
  std::vector<const Case*> Suite(const std::string& suite) const;

 private:
  std::vector<Case> cases_;
};

}  // namespace kvbench::conformance

#define KVB_CONFORMANCE_CASE(Fixture, Name)                                              \
  class Fixture##_##Name final : public Fixture {                                        \
   public:                                                                               \
    void Body() override;                                                                \
  };                                                                                     \
  [[maybe_unused]] static const bool kvb_case_registered_##Fixture##_##Name =            \
      ::kvbench::conformance::CaseRegistry::Global().Add(::kvbench::conformance::Case{   \
          Fixture::kSuite, #Name, [] { return std::make_unique<Fixture##_##Name>(); }}); \
  void Fixture##_##Name::Body()
