// Adapter::DeclareDurability for every registered adapter: a durable adapter
// says why (basis), and the sync options decide what it promises.
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

TEST(DurabilityDeclaration, EveryDurableAdapterSaysWhy) {
  for (const std::string& name : AdapterRegistry::Global().Names()) {
    std::unique_ptr<Adapter> adapter;
    ASSERT_TRUE(AdapterRegistry::Global().Create(name, &adapter).ok());
    const DurabilityDeclaration d = Declare(name, {});
    if (adapter->capabilities().durable) {
      EXPECT_FALSE(d.basis.empty()) << name << " declares nothing about durability";
    } else {
      EXPECT_EQ(d.power_loss, FaultPromise::kNothing) << name << " keeps nothing";
    }
    // Atomic batches after a fault need atomic batches at all.
    if (d.atomic_batches) EXPECT_TRUE(adapter->capabilities().transactional) << name;
  }
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

TEST(DurabilityDeclaration, IntegrityChecksRunOnAFreshDatabase) {
  for (const std::string& name : {"sqlite", "pbtree"}) {
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
