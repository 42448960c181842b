// Engine options are checked in the plan (Adapter::CheckOptions), before any
// engine starts. This suite holds every registered adapter to the contract
// that makes that check worth having: a value CheckOptions accepts is one
// Open() accepts too, so `kvbench validate` refuses every bad value that
// `kvbench run` would refuse mid-run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

class OptionCheckTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(AdapterRegistry::Global().Create(GetParam(), &adapter_).ok());
  }
  std::unique_ptr<Adapter> adapter_;
};

TEST_P(OptionCheckTest, DefaultsPassTheCheck) {
  EngineOptions options;
  ASSERT_TRUE(ResolveEngineOptions(GetParam(), adapter_->OptionSpecs(), {}, &options).ok());
  Status s = adapter_->CheckOptions(options);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// Values of the wrong type, out of range or out of any enumeration, one
// option at a time.
TEST_P(OptionCheckTest, OpenRefusesNothingTheCheckAccepted) {
  const std::vector<std::string> suspicious = {"", "bogus", "-1", "0", "1e99",
                                               "99999999999999999999999"};
  for (const OptionSpec& spec : adapter_->OptionSpecs()) {
    if (spec.is_prefix) continue;
    for (const std::string& value : suspicious) {
      SCOPED_TRACE(spec.name + " = '" + value + "'");
      EngineOptions options;
      ASSERT_TRUE(
          ResolveEngineOptions(GetParam(), adapter_->OptionSpecs(), {{spec.name, value}}, &options)
              .ok());
      const Status checked = adapter_->CheckOptions(options);
      if (!checked.ok()) {
        EXPECT_TRUE(checked.IsInvalidArgument()) << checked.ToString();
        EXPECT_NE(checked.message().find(spec.name), std::string::npos)
            << "the message must name the option: " << checked.ToString();
        continue;
      }
      test::ScratchDir dir("option-check");
      OpenRequest request;
      request.directory = dir.path();
      request.options = options;
      std::unique_ptr<Adapter> fresh;
      ASSERT_TRUE(AdapterRegistry::Global().Create(GetParam(), &fresh).ok());
      const Status opened = fresh->Open(request);
      EXPECT_FALSE(opened.IsInvalidArgument())
          << "CheckOptions accepted a value Open refuses: " << opened.ToString();
      if (opened.ok()) EXPECT_TRUE(fresh->Close().ok());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllAdapters, OptionCheckTest,
                         ::testing::ValuesIn(AdapterRegistry::Global().Names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace kvbench
