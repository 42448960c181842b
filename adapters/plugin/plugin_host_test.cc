// The plugin host (plugin_loader.h, plugin_adapter.h) against the test
// plugins of testdata/abi_test_plugin.c: ABI 1.0 plugins still load and
// work through get, 1.1's get_ref is used when present, results can name the
// plugin (path, SHA-256, ABI), an engine without concurrent writers never
// sees two writers at once, the host answers a batch misuse itself, and a
// breach on a call that reports success still fails the engine.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <map>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"
#include "kvbench/plugin.h"

namespace kvbench::plugin_host {
namespace {

namespace fs = std::filesystem;

// A symbol the already loaded test plugin exports beside its entry point.
template <typename Fn>
Fn TestSymbol(const char* path, const char* name) {
  void* handle = dlopen(fs::canonical(path).c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

struct Opened {
  std::unique_ptr<Adapter> adapter;
  std::string directory;
};

Opened Open(const std::string& engine) {
  Opened o;
  EXPECT_TRUE(AdapterRegistry::Global().Create(engine, &o.adapter).ok()) << engine;
  if (!o.adapter) return o;
  o.directory = (fs::temp_directory_path() /
                 ("kvbench-plugin-host-" + engine + "-" + std::to_string(::getpid())))
                    .string();
  fs::create_directories(o.directory);
  OpenRequest request;
  request.directory = o.directory;
  std::vector<OptionSpec> specs = o.adapter->OptionSpecs();
  std::map<std::string, std::string> given;
  EXPECT_TRUE(ResolveEngineOptions(engine, specs, given, &request.options).ok());
  Status s = o.adapter->Open(request);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return o;
}

void Close(Opened& o) {
  if (o.adapter) {
    EXPECT_TRUE(o.adapter->Close().ok());
  }
  std::error_code ec;
  fs::remove_all(o.directory, ec);
}

TEST(PluginHost, Abi10PluginWithTwoEnginesLoadsAndReadsThroughGet) {
  std::vector<std::string> engines;
  Status s = LoadPlugin(KVBENCH_ABI10_TEST_PLUGIN, "", {}, &engines);
  ASSERT_TRUE(s.ok()) << s.ToString();
  // The second engine is only found when the array is stepped by 1.0's size.
  ASSERT_EQ(engines, (std::vector<std::string>{"abi10-a", "abi10-b"}));
  for (const std::string& engine : engines) {
    Opened o = Open(engine);
    ASSERT_TRUE(o.adapter);
    std::unique_ptr<Session> session;
    ASSERT_TRUE(o.adapter->NewSession(&session).ok());
    ASSERT_TRUE(session->Put("key", std::string("v\0alue", 6)).ok());
    std::string value;
    ASSERT_TRUE(session->Get("key", &value).ok());
    EXPECT_EQ(value, std::string("v\0alue", 6));
    EXPECT_TRUE(session->Get("absent", &value).IsNotFound());
    session.reset();
    Close(o);
  }
  // The table's get_ref lies past 1.0's struct_size: never called.
  auto calls = TestSymbol<long (*)()>(KVBENCH_ABI10_TEST_PLUGIN, "abi_test_get_ref_calls");
  ASSERT_NE(calls, nullptr);
  EXPECT_EQ(calls(), 0);
  const PluginOrigin* origin = PluginOriginOf("abi10-b");
  ASSERT_NE(origin, nullptr);
  EXPECT_EQ(origin->abi_version, "1.0");
  EXPECT_EQ(origin->path, fs::canonical(KVBENCH_ABI10_TEST_PLUGIN).string());
  EXPECT_EQ(origin->sha256.size(), 64u);
  EXPECT_EQ(origin->sha256.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(PluginOriginOf("stdmap-not-a-plugin"), nullptr);
}

TEST(PluginHost, Abi11GetRefIsUsedAndCopiesTheValue) {
  Status s = LoadPlugin(KVBENCH_ABI_TEST_PLUGIN, "", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto calls = TestSymbol<long (*)()>(KVBENCH_ABI_TEST_PLUGIN, "abi_test_get_ref_calls");
  ASSERT_NE(calls, nullptr);
  const long before = calls();
  Opened o = Open("abi-ref");
  ASSERT_TRUE(o.adapter);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(o.adapter->NewSession(&session).ok());
  const std::string big(100000, 'b');
  ASSERT_TRUE(session->Put("a", "first").ok());
  ASSERT_TRUE(session->Put("b", big).ok());
  ASSERT_TRUE(session->Put("e", "").ok());
  std::string a, b, e = "not empty";
  ASSERT_TRUE(session->Get("a", &a).ok());
  ASSERT_TRUE(session->Get("b", &b).ok());
  ASSERT_TRUE(session->Get("e", &e).ok());
  // Each value was copied out before the next call reused the session's buffer.
  EXPECT_EQ(a, "first");
  EXPECT_EQ(b, big);
  EXPECT_EQ(e, "");
  EXPECT_TRUE(session->Get("absent", &a).IsNotFound());
  EXPECT_EQ(calls() - before, 4);
  EXPECT_EQ(PluginOriginOf("abi-ref")->abi_version,
            std::to_string(KVBENCH_PLUGIN_ABI_MAJOR) + "." +
                std::to_string(KVBENCH_PLUGIN_ABI_MINOR));
  session.reset();
  Close(o);
}

TEST(PluginHost, WritersOfAnEngineWithoutConcurrentWritersRunOneAtATime) {
  Status s = LoadPlugin(KVBENCH_ABI_TEST_PLUGIN, "", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto most = TestSymbol<int (*)()>(KVBENCH_ABI_TEST_PLUGIN, "abi_test_most_writers_inside");
  ASSERT_NE(most, nullptr);
  Opened o = Open("abi-serial");
  ASSERT_TRUE(o.adapter);
  ASSERT_FALSE(o.adapter->capabilities().concurrent_writers);
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; ++t) {
    writers.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      if (!o.adapter->NewSession(&session).ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < 20000; ++i) {
        const std::string key = std::to_string(t) + ":" + std::to_string(i % 500);
        // Every fourth write inside a batch of its own: the gate spans begin..commit.
        const bool batch = i % 4 == 0;
        if (batch && !session->BeginBatch().ok()) ++failures;
        if (!session->Put(key, "value").ok()) ++failures;
        if (batch && !session->CommitBatch().ok()) ++failures;
      }
    });
  }
  for (std::thread& w : writers) w.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(most(), 1) << "two writers were inside the plugin's put at once";
  Close(o);
}

TEST(PluginHost, BatchMisuseIsAnsweredByTheHostInEveryAdaptersWords) {
  Status s = LoadPlugin(KVBENCH_ABI_TEST_PLUGIN, "", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto calls = TestSymbol<long (*)()>(KVBENCH_ABI_TEST_PLUGIN, "abi_test_batch_calls");
  ASSERT_NE(calls, nullptr);
  Opened o = Open("abi-batch");
  ASSERT_TRUE(o.adapter);
  ASSERT_FALSE(o.adapter->capabilities().transactional);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(o.adapter->NewSession(&session).ok());
  const long before = calls();
  auto expect_misuse = [](const Status& st, const std::string& words) {
    EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
    EXPECT_EQ(st.message(), "abi-batch: " + words);
  };
  expect_misuse(session->CommitBatch(), "commit batch: no batch open");
  expect_misuse(session->AbortBatch(), "abort batch: no batch open");
  EXPECT_EQ(calls() - before, 0) << "a misuse reached the plugin";

  ASSERT_TRUE(session->BeginBatch().ok());
  ASSERT_TRUE(session->Put("k", "v").ok());
  expect_misuse(session->BeginBatch(), "begin batch: a batch is already open");
  // Not transactional: the abort is the plugin's NotSupported, and the batch stays open.
  EXPECT_TRUE(session->AbortBatch().IsNotSupported());
  expect_misuse(session->BeginBatch(), "begin batch: a batch is already open");
  ASSERT_TRUE(session->CommitBatch().ok());
  expect_misuse(session->CommitBatch(), "commit batch: no batch open");
  EXPECT_EQ(calls() - before, 3) << "begin, abort and commit, each once";
  std::string value;
  ASSERT_TRUE(session->Get("k", &value).ok());
  EXPECT_EQ(value, "v");
  session.reset();
  Close(o);
}

// Each breach on a fresh engine: after it, every call on that engine fails with it.
TEST(PluginHost, BreachesOnASuccessfulCallFailTheEngine) {
  Status s = LoadPlugin(KVBENCH_ABI_TEST_PLUGIN, "", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::map<std::string, std::string> breaches = {
      {"nobytes", "get_ref returned OK with no bytes for a 5-byte value"},
      {"overflow", "get_ref wrote past the end of its 512-byte message buffer"},
      {"status", "get_ref returned 42, which is not a kvbench_status"},
      {"negative", "get_ref returned -1, which is not a kvbench_status"},
  };
  for (const auto& [key, reason] : breaches) {
    Opened o = Open("abi-breach");
    ASSERT_TRUE(o.adapter);
    std::unique_ptr<Session> session;
    ASSERT_TRUE(o.adapter->NewSession(&session).ok());
    ASSERT_TRUE(session->Put("fine", "value").ok());
    std::string value;
    ASSERT_TRUE(session->Get("fine", &value).ok()) << key;
    Status breach = session->Get(key, &value);
    EXPECT_EQ(breach.code(), Status::Code::kInternal) << key << ": " << breach.ToString();
    EXPECT_NE(breach.message().find("plugin engine 'abi-breach'"), std::string::npos)
        << breach.message();
    EXPECT_NE(breach.message().find(reason), std::string::npos) << breach.message();
    // The engine stays failed, with the first breach, for every call.
    Status later = session->Get("fine", &value);
    EXPECT_EQ(later.message(), breach.message()) << key;
    EXPECT_EQ(session->Put("other", "v").message(), breach.message()) << key;
    EXPECT_EQ(session->BeginBatch().message(), breach.message()) << key;
    session.reset();
    EXPECT_EQ(o.adapter->Close().message(), breach.message()) << key;
    o.adapter.reset();
    std::error_code ec;
    fs::remove_all(o.directory, ec);
  }
}

// Each session keeps its own copy of the engine's breach flag: a breach on
// one session fails every other session of the engine, those made before it
// and those asked for after it, with the first breach's reason.
TEST(PluginHost, ABreachOnOneSessionFailsEveryOtherSessionOfTheEngine) {
  Status s = LoadPlugin(KVBENCH_ABI_TEST_PLUGIN, "", {});
  ASSERT_TRUE(s.ok()) << s.ToString();
  Opened o = Open("abi-breach");
  ASSERT_TRUE(o.adapter);
  std::unique_ptr<Session> first, second;
  ASSERT_TRUE(o.adapter->NewSession(&first).ok());
  ASSERT_TRUE(o.adapter->NewSession(&second).ok());
  ASSERT_TRUE(second->Put("fine", "value").ok());
  std::string value;
  ASSERT_TRUE(second->Get("fine", &value).ok());
  // One write past the end of the message buffer, on a call that returns OK.
  Status breach = first->Get("overflow", &value);
  EXPECT_EQ(breach.code(), Status::Code::kInternal) << breach.ToString();
  EXPECT_NE(breach.message().find("get_ref wrote past the end of its 512-byte message buffer"),
            std::string::npos)
      << breach.message();
  EXPECT_EQ(second->Get("fine", &value).message(), breach.message());
  EXPECT_EQ(second->Put("other", "v").message(), breach.message());
  EXPECT_EQ(second->Delete("fine").message(), breach.message());
  std::unique_ptr<Session> third;
  EXPECT_EQ(o.adapter->NewSession(&third).message(), breach.message());
  // Sessions end after the breach as before it (each leaves the engine's list).
  first.reset();
  second.reset();
  EXPECT_EQ(o.adapter->Close().message(), breach.message());
  o.adapter.reset();
  std::error_code ec;
  fs::remove_all(o.directory, ec);
}

}  // namespace
}  // namespace kvbench::plugin_host
