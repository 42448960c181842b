// The "options" suite: what the plan relies on before any engine runs.
// CheckOptions accepts the defaults and accepts only what Open accepts (so
// `kvbench validate` refuses every bad value `kvbench run` would refuse
// mid-run); DeclareDurability says why a durable engine's files survive;
// CheckIntegrity answers on a fresh database.
#include <memory>
#include <string>
#include <vector>

#include "conformance/adapter_fixture.h"

namespace kvbench::conformance {
namespace {

class OptionFixture : public CaseFixture {
 public:
  static constexpr const char* kSuite = "options";

  void SetUp() override {
    Status s = AdapterRegistry::Global().Create(engine(), &adapter_);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  }

 protected:
  EngineOptions Resolved(const std::map<std::string, std::string>& overrides) {
    EngineOptions options;
    Status s = ResolveEngineOptions(engine(), adapter_->OptionSpecs(), overrides, &options);
    KVB_EXPECT_TRUE(s.ok()) << s.ToString();
    return options;
  }

  std::unique_ptr<Adapter> adapter_;
};

KVB_CONFORMANCE_CASE(OptionFixture, DefaultsPassTheCheck) {
  Status s = adapter_->CheckOptions(Resolved({}));
  KVB_EXPECT_TRUE(s.ok()) << s.ToString();
}

// Values of the wrong type, out of range or out of any enumeration, one
// option at a time.
KVB_CONFORMANCE_CASE(OptionFixture, OpenRefusesNothingTheCheckAccepted) {
  const std::vector<std::string> suspicious = {"",  "bogus", "-1",
                                               "0", "1e99",  "99999999999999999999999"};
  for (const OptionSpec& spec : adapter_->OptionSpecs()) {
    if (spec.is_prefix) continue;
    for (const std::string& value : suspicious) {
      KVB_SCOPED_TRACE(spec.name + " = '" + value + "'");
      const EngineOptions options = Resolved({{spec.name, value}});
      const Status checked = adapter_->CheckOptions(options);
      if (!checked.ok()) {
        KVB_EXPECT_TRUE(checked.IsInvalidArgument()) << checked.ToString();
        KVB_EXPECT_NE(checked.message().find(spec.name), std::string::npos)
            << "the message must name the option: " << checked.ToString();
        continue;
      }
      ScratchDirectory dir("option-check");
      OpenRequest request;
      request.directory = dir.path();
      request.options = options;
      std::unique_ptr<Adapter> fresh;
      KVB_ASSERT_TRUE(AdapterRegistry::Global().Create(engine(), &fresh).ok());
      const Status opened = fresh->Open(request);
      KVB_EXPECT_FALSE(opened.IsInvalidArgument())
          << "CheckOptions accepted a value Open refuses: " << opened.ToString();
      if (opened.ok()) {
        KVB_EXPECT_TRUE(fresh->Close().ok());
      }
    }
  }
}

// A durable engine says why (basis); an engine that is not durable promises
// nothing against a power cut; atomic batches after a fault need atomic
// batches at all.
KVB_CONFORMANCE_CASE(OptionFixture, DurabilityDeclarationSaysWhy) {
  const EngineOptions options = Resolved({});
  KVB_ASSERT_TRUE(adapter_->CheckOptions(options).ok());
  const DurabilityDeclaration d = adapter_->DeclareDurability(options);
  const Capabilities caps = adapter_->capabilities();
  if (caps.durable) {
    KVB_EXPECT_FALSE(d.basis.empty()) << engine() << " declares nothing about durability";
  } else {
    KVB_EXPECT_TRUE(d.power_loss == FaultPromise::kNothing) << engine() << " keeps nothing";
  }
  if (d.atomic_batches) {
    KVB_EXPECT_TRUE(caps.transactional) << engine() << ": atomic batches need transactions";
  }
}

KVB_CONFORMANCE_CASE(OptionFixture, IntegrityCheckAnswersOnAFreshDatabase) {
  ScratchDirectory dir("integrity");
  Status s = OpenWithDefaults(engine(), dir.path(), &adapter_);
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  {
    std::unique_ptr<Session> session;
    KVB_ASSERT_TRUE(adapter_->NewSession(&session).ok());
    KVB_ASSERT_TRUE(session->Put("k", "v").ok());
  }
  s = adapter_->CheckIntegrity();
  KVB_EXPECT_TRUE(s.ok() || s.IsNotSupported()) << s.ToString();
  KVB_EXPECT_TRUE(adapter_->Close().ok());
}

}  // namespace
}  // namespace kvbench::conformance
