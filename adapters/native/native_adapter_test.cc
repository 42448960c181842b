// The `native` adapter on its own: option handling, capabilities, a full
// arena reported as an error naming the cause, and shared memory by option.
// (The shared conformance suite in tests/ covers the KV contract.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>

#include "adapters/registry.h"

namespace kvbench {
namespace {

std::unique_ptr<Adapter> OpenNative(const std::map<std::string, std::string>& overrides,
                                    Status* status) {
  std::unique_ptr<Adapter> adapter;
  EXPECT_TRUE(AdapterRegistry::Global().Create("native", &adapter).ok());
  OpenRequest request;
  request.directory = "/tmp";
  *status = ResolveEngineOptions("native", adapter->OptionSpecs(), overrides, &request.options);
  if (status->ok()) *status = adapter->Open(request);
  return adapter;
}

TEST(NativeAdapterTest, CapabilitiesAreHonest) {
  std::unique_ptr<Adapter> adapter;
  ASSERT_TRUE(AdapterRegistry::Global().Create("native", &adapter).ok());
  const Capabilities c = adapter->capabilities();
  EXPECT_TRUE(c.stores_data && c.ordered && c.native_records && c.native_secondary_index);
  EXPECT_FALSE(c.transactional || c.durable || c.concurrent_writers);
  EXPECT_TRUE(c.concurrent_readers);
}

TEST(NativeAdapterTest, FullArenaIsAnErrorNamingTheCause) {
  Status st;
  auto adapter = OpenNative({{"native.size", "256K"}, {"native.max_size", "256K"}}, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter->NewSession(&session).ok());
  int stored = 0;
  for (; stored < 100000; ++stored) {
    st = session->Put("key" + std::to_string(stored), std::string(200, 'v'));
    if (!st.ok()) break;
  }
  EXPECT_EQ(st.code(), Status::Code::kIOError);
  EXPECT_NE(st.message().find("arena full"), std::string::npos) << st.ToString();
  std::string value;
  EXPECT_TRUE(session->Get("key0", &value).ok()) << "earlier pairs survive";
  session.reset();
  EXPECT_TRUE(adapter->Close().ok());
}

TEST(NativeAdapterTest, GrowsPastInitialSize) {
  Status st;
  auto adapter = OpenNative({{"native.size", "256K"}, {"native.max_size", "64M"}}, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter->NewSession(&session).ok());
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(session->Put("key" + std::to_string(i), std::string(200, 'v')).ok()) << i;
  }
}

TEST(NativeAdapterTest, BadOptionsAreRejected) {
  Status st;
  OpenNative({{"native.size", "lots"}}, &st);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  OpenNative({{"native.size", "1K"}}, &st);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  // A name outside kvbench's own prefix would let a workload remove any
  // shared-memory object the user may delete.
  for (const char* name : {"/other", "kvbench-x", "/kvbench-", "/kvbench-a/b", "/kvbench-a b"}) {
    OpenNative({{"native.size", "4M"}, {"native.shm_name", name}}, &st);
    EXPECT_TRUE(st.IsInvalidArgument()) << name << ": " << st.ToString();
    EXPECT_NE(st.message().find("native.shm_name"), std::string::npos) << st.message();
  }
}

TEST(NativeAdapterTest, SharedMemoryByOption) {
  const std::string name = "/kvbench-native-adapter-" + std::to_string(getpid());
  Status st;
  auto adapter = OpenNative({{"native.size", "4M"}, {"native.shm_name", name}}, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter->NewSession(&session).ok());
  ASSERT_TRUE(session->Put("k", "v").ok());
  EXPECT_EQ(access(("/dev/shm" + name).c_str(), F_OK), 0);
  session.reset();
  ASSERT_TRUE(adapter->Close().ok());
  EXPECT_NE(access(("/dev/shm" + name).c_str(), F_OK), 0) << "removed at close";
}

}  // namespace
}  // namespace kvbench
