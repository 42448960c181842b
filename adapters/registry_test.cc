#include "adapters/registry.h"

#include <gtest/gtest.h>

namespace kvbench {
namespace {

std::unique_ptr<Adapter> NoAdapter() { return nullptr; }

TEST(AdapterRegistryTest, RefusesDuplicateNamesAndKeepsTheFirst) {
  AdapterRegistry registry;
  EXPECT_TRUE(registry.Register({"one", "first", NoAdapter, ""}));
  EXPECT_FALSE(registry.Register({"one", "second", NoAdapter, ""}));
  ASSERT_NE(registry.Find("one"), nullptr);
  EXPECT_EQ(registry.Find("one")->description, "first");
  ASSERT_EQ(registry.errors().size(), 1u);
  EXPECT_NE(registry.errors()[0].find("'one' registered twice"), std::string::npos);
}

TEST(AdapterRegistryTest, UnknownEngineNamesTheKnownOnes) {
  AdapterRegistry registry;
  registry.Register({"beta", "", NoAdapter, ""});
  registry.Register({"alpha", "", NoAdapter, ""});
  std::unique_ptr<Adapter> adapter;
  Status s = registry.Create("gamma", &adapter);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "unknown engine 'gamma' (known: alpha, beta)");
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"alpha", "beta"}));
}

TEST(AdapterRegistryTest, GlobalRegistryHasTheBuiltInAdaptersWithoutConflicts) {
  const AdapterRegistry& global = AdapterRegistry::Global();
  EXPECT_TRUE(global.errors().empty());
  EXPECT_NE(global.Find("null"), nullptr);
  EXPECT_NE(global.Find("stdmap"), nullptr);
}

}  // namespace
}  // namespace kvbench
