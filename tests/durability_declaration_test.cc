// Adapter::DeclareDurability of the adapters with sync options: the options
// decide what they promise. (That every durable adapter says why is a
// conformance case: conformance/option_cases.cc.)
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

DurabilityDeclaration Declare(const std::string& engine,
                              const std::map<std::string, std::string>& overrides) {
  std::unique_ptr<Adapter> adapter;
  EXPECT_TRUE(AdapterRegistry::Global().Create(engine, &adapter).ok());
  EngineOptions options;
  EXPECT_TRUE(ResolveEngineOptions(engine, adapter->OptionSpecs(), overrides, &options).ok());
  EXPECT_TRUE(adapter->CheckOptions(options).ok());
  return adapter->DeclareDurability(options);
}

TEST(DurabilityDeclaration, SyncOptionsDecideThePowerLossPromise) {
  EXPECT_EQ(Declare("sqlite", {{"sqlite.synchronous", "full"}}).power_loss, FaultPromise::kDurable);
  EXPECT_EQ(Declare("sqlite", {{"sqlite.synchronous", "2"}}).power_loss, FaultPromise::kDurable);
  EXPECT_EQ(Declare("sqlite", {{"sqlite.synchronous", "normal"}}).power_loss,
            FaultPromise::kConsistent);
  EXPECT_EQ(Declare("sqlite", {{"sqlite.synchronous", "off"}}).power_loss, FaultPromise::kNothing);
  // SQLite documents that DELETE mode needs EXTRA to sync the journal's unlink.
  EXPECT_EQ(Declare("sqlite", {{"sqlite.journal_mode", "delete"}, {"sqlite.synchronous", "full"}})
                .power_loss,
            FaultPromise::kConsistent);
  EXPECT_EQ(Declare("lmdb", {{"lmdb.sync", "commit"}}).power_loss, FaultPromise::kDurable);
  EXPECT_EQ(Declare("lmdb", {{"lmdb.sync", "commit"}, {"lmdb.nometasync", "true"}}).power_loss,
            FaultPromise::kConsistent);
  EXPECT_EQ(Declare("lmdb", {}).power_loss, FaultPromise::kNothing);  // MDB_NOSYNC by default
  EXPECT_EQ(Declare("lmdb", {}).process_crash, FaultPromise::kDurable);
  EXPECT_EQ(Declare("pbtree", {{"pbtree.sync", "commit"}}).power_loss, FaultPromise::kDurable);
  EXPECT_EQ(Declare("pbtree", {{"pbtree.sync", "none"}}).power_loss, FaultPromise::kNothing);
}

TEST(DurabilityDeclaration, LabelledEngineIsTheSameAdapter) {
  ASSERT_NE(AdapterRegistry::Global().Find("sqlite@full"), nullptr);
  EXPECT_EQ(AdapterRegistry::Global().Find("sqlite@full")->name, "sqlite");
  std::unique_ptr<Adapter> adapter;
  EXPECT_FALSE(AdapterRegistry::Global().Create("nosuch@full", &adapter).ok());
}

// Every adapter's declaration says why (basis) and its integrity check
// answers: conformance/option_cases.cc, run by option_check_test and by
// `kvbench conformance`. These are the engines whose checks must pass.
TEST(DurabilityDeclaration, IntegrityChecksPassOnAFreshDatabase) {
  for (const char* name : {"sqlite", "pbtree"}) {
    test::ScratchDir dir("integrity");
    std::unique_ptr<Adapter> adapter;
    ASSERT_TRUE(AdapterRegistry::Global().Create(name, &adapter).ok());
    OpenRequest request;
    request.directory = dir.path();
    ASSERT_TRUE(ResolveEngineOptions(name, adapter->OptionSpecs(), {}, &request.options).ok());
    ASSERT_TRUE(adapter->Open(request).ok());
    {
      std::unique_ptr<Session> session;
      ASSERT_TRUE(adapter->NewSession(&session).ok());
      ASSERT_TRUE(session->Put("k", "v").ok());
    }
    EXPECT_TRUE(adapter->CheckIntegrity().ok()) << name;
    EXPECT_TRUE(adapter->Close().ok());
  }
  std::unique_ptr<Adapter> stdmap;
  ASSERT_TRUE(AdapterRegistry::Global().Create("stdmap", &stdmap).ok());
  EXPECT_TRUE(stdmap->CheckIntegrity().IsNotSupported());
}

}  // namespace
}  // namespace kvbench
