// What the conformance suite cannot see in the redis adapter: the server it
// starts and always stops, ports that never collide, external servers,
// pipelined MULTI/EXEC batches, and errors (a missing binary, a server that
// never answers, dies or hangs) that come back as clear statuses instead of
// crashes or hangs. Every wait is bounded by redis.timeout_ms or
// redis.start_timeout_ms, set low here.
#include "adapters/redis/redis_adapter.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <cerrno>
#include <fstream>
#include <thread>

#include "adapters/redis/redis_connection.h"
#include "adapters/redis/redis_server_process.h"
#include "tests/adapter_test_base.h"

namespace kvbench {
namespace {

bool ProcessExists(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH); }

// "t<thread>-<i>", built by appending (GCC 12 warns falsely on "t" + to_string).
std::string ThreadKey(int thread, int i) {
  std::string key = "t";
  key.append(std::to_string(thread)).append("-").append(std::to_string(i));
  return key;
}

class RedisAdapterTest : public test::AdapterTestBase<::testing::Test> {
 protected:
  std::string Engine() const override { return "redis"; }

  // Opens with short timeouts so that no failure can hang the test.
  Status OpenRedis(std::map<std::string, std::string> overrides = {}) {
    overrides.emplace("redis.timeout_ms", "5000");
    overrides.emplace("redis.start_timeout_ms", "5000");
    return Open(overrides);
  }

  RedisAdapter* redis() const { return dynamic_cast<RedisAdapter*>(adapter_.get()); }

  // A server of the test's own, for external mode.
  Status StartExternal(RedisServerProcess* server) {
    RedisServerSettings settings;
    settings.directory = external_dir_.path();
    settings.start_timeout_ms = 5000;
    settings.require_password = false;  // a user's server, reached without one
    return server->Start(settings);
  }

  test::ScratchDir external_dir_{"redis-external"};
};

TEST_F(RedisAdapterTest, StartedServerIsStoppedByClose) {
  ASSERT_TRUE(OpenRedis().ok());
  const pid_t pid = redis()->server_pid();
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(ProcessExists(pid));
  ASSERT_TRUE(session_->Put("k", "v").ok());
  EXPECT_EQ(Get("k"), "v");
  EXPECT_NE(adapter_->LibraryVersion().find("hiredis 0."), std::string::npos);
  EXPECT_NE(adapter_->LibraryVersion().find(", redis-server "), std::string::npos)
      << adapter_->LibraryVersion();

  // Its log is the only file in the directory, and it is listed.
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].find(RedisServerProcess::kLogFile), std::string::npos);

  session_.reset();
  Status s = adapter_->Close();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(ProcessExists(pid));
  EXPECT_EQ(redis()->server_pid(), -1);

  // Reopening starts a new, empty server (nothing was saved).
  ASSERT_TRUE(OpenRedis().ok());
  EXPECT_EQ(Get("k"), "<absent>");
  std::ifstream log(files[0]);
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("DB saved"), std::string::npos) << "snapshots must be off";
}

// The started server listens on loopback, where every local user can reach
// it: a client without the run's password gets nothing but NOAUTH (no key
// read or written, no shutdown), a wrong password is refused, and the
// password is not on the server's command line, which ps shows to everyone.
TEST_F(RedisAdapterTest, StartedServerRefusesClientsWithoutThePassword) {
  ASSERT_TRUE(OpenRedis().ok());
  ASSERT_TRUE(session_->Put("secret", "v").ok());
  const pid_t pid = redis()->server_pid();

  RedisConnection stranger;
  ASSERT_TRUE(stranger.Connect("127.0.0.1", redis()->port(), 5000).ok());
  RedisReply reply;
  ASSERT_TRUE(stranger.Call({"GET", "secret"}, "get", &reply).ok());
  ASSERT_EQ(reply->type, REDIS_REPLY_ERROR);
  EXPECT_NE(std::string(reply->str, reply->len).find("NOAUTH"), std::string::npos);
  ASSERT_TRUE(stranger.Call({"SET", "secret", "stolen"}, "set", &reply).ok());
  EXPECT_EQ(reply->type, REDIS_REPLY_ERROR);
  ASSERT_TRUE(stranger.Call({"SHUTDOWN", "NOSAVE"}, "shutdown", &reply).ok());
  EXPECT_EQ(reply->type, REDIS_REPLY_ERROR);
  EXPECT_TRUE(ProcessExists(pid));

  RedisConnection guesser;
  const Status s = guesser.Connect("127.0.0.1", redis()->port(), 5000, "guess");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.message().find("guess"), std::string::npos) << "no password in messages";

  std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  const std::string args((std::istreambuf_iterator<char>(cmdline)),
                         std::istreambuf_iterator<char>());
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args.find("requirepass"), std::string::npos);
  EXPECT_EQ(Get("secret"), "v");  // untouched
}

TEST_F(RedisAdapterTest, DestroyingAnUnclosedAdapterKillsItsServer) {
  ASSERT_TRUE(OpenRedis().ok());
  const pid_t pid = redis()->server_pid();
  ASSERT_TRUE(ProcessExists(pid));
  session_.reset();
  adapter_.reset();  // no Close
  EXPECT_FALSE(ProcessExists(pid));
}

TEST_F(RedisAdapterTest, TwoAdaptersAtOnceGetTheirOwnServers) {
  ASSERT_TRUE(OpenRedis().ok());
  test::ScratchDir other_dir("redis-other");
  RedisAdapter other;
  OpenRequest request;
  request.directory = other_dir.path();
  ASSERT_TRUE(ResolveEngineOptions("redis", other.OptionSpecs(), {}, &request.options).ok());
  ASSERT_TRUE(other.Open(request).ok());
  EXPECT_NE(other.port(), redis()->port());
  EXPECT_NE(other.server_pid(), redis()->server_pid());

  std::unique_ptr<Session> other_session;
  ASSERT_TRUE(other.NewSession(&other_session).ok());
  ASSERT_TRUE(session_->Put("mine", "1").ok());
  std::string value;
  EXPECT_TRUE(other_session->Get("mine", &value).IsNotFound());
  other_session.reset();
  const pid_t other_pid = other.server_pid();
  EXPECT_TRUE(other.Close().ok());
  EXPECT_FALSE(ProcessExists(other_pid));
  EXPECT_EQ(Get("mine"), "1");
}

TEST_F(RedisAdapterTest, ExternalServerIsUsedKeptAndFlushedOnlyWhenAsked) {
  RedisServerProcess server;
  ASSERT_TRUE(StartExternal(&server).ok());
  const std::string port = std::to_string(server.port());
  ASSERT_TRUE(OpenRedis({{"redis.host", "127.0.0.1"}, {"redis.port", port}}).ok());
  EXPECT_EQ(redis()->server_pid(), -1);  // started nothing
  EXPECT_EQ(redis()->port(), server.port());
  ASSERT_TRUE(session_->Put("kept", "yes").ok());
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  EXPECT_TRUE(files.empty());

  ASSERT_TRUE(OpenRedis({{"redis.host", "127.0.0.1"}, {"redis.port", port}}).ok());  // closes first
  EXPECT_TRUE(ProcessExists(server.pid()));
  EXPECT_EQ(Get("kept"), "yes");

  ASSERT_TRUE(
      OpenRedis({{"redis.host", "127.0.0.1"}, {"redis.port", port}, {"redis.flush", "true"}}).ok());
  EXPECT_EQ(Get("kept"), "<absent>");
  session_.reset();
  ASSERT_TRUE(adapter_->Close().ok());
  adapter_.reset();
  Status s = server.Stop();
  EXPECT_TRUE(s.ok()) << s.ToString();

  // Nothing listens there now: a clear IOError naming the address.
  s = OpenRedis({{"redis.host", "127.0.0.1"}, {"redis.port", port}});
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("127.0.0.1:" + port), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("refused"), std::string::npos) << s.ToString();
}

TEST_F(RedisAdapterTest, BatchesCommitOrDiscardAtOnce) {
  ASSERT_TRUE(OpenRedis().ok());
  ASSERT_TRUE(session_->Put("old", "1").ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  EXPECT_TRUE(session_->BeginBatch().IsInvalidArgument());
  // Larger than the client's flush threshold: part is sent before EXEC.
  const std::string value(1000, 'v');
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(session_->Put(Numbered("b", i), value).ok());
  ASSERT_TRUE(session_->Delete("old").ok());
  // Reads inside a batch see committed data, not the batch's queued writes.
  EXPECT_EQ(Get("b0"), "<absent>");
  EXPECT_EQ(Get("old"), "1");
  Status s = session_->CommitBatch();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("b0"), value);
  EXPECT_EQ(Get("b2999"), value);
  EXPECT_EQ(Get("old"), "<absent>");

  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(session_->Put(Numbered("x", i), value).ok());
  ASSERT_TRUE(session_->Delete("b1").ok());
  s = session_->AbortBatch();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("x0"), "<absent>");
  EXPECT_EQ(Get("x2999"), "<absent>");
  EXPECT_EQ(Get("b1"), value);
  EXPECT_TRUE(session_->CommitBatch().IsInvalidArgument());
  EXPECT_TRUE(session_->AbortBatch().IsInvalidArgument());

  // Outside a batch, deleting nothing is NotFound (allowed by the contract).
  EXPECT_TRUE(session_->Delete("never").IsNotFound());
}

TEST_F(RedisAdapterTest, EveryByteValueSurvivesInKeysAndValues) {
  ASSERT_TRUE(OpenRedis().ok());
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  const std::string nul_key("\0k\0", 3), nul_value("\0\0v\0", 4);
  ASSERT_TRUE(session_->Put(all, nul_value).ok());
  ASSERT_TRUE(session_->Put(nul_key, all).ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put(std::string("\0", 1), std::string("\r\n$-1\r\n", 7)).ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  EXPECT_EQ(Get(all), nul_value);
  EXPECT_EQ(Get(nul_key), all);
  EXPECT_EQ(Get(std::string("\0", 1)), std::string("\r\n$-1\r\n", 7));
  EXPECT_EQ(Get(std::string("\0k", 2)), "<absent>");
}

TEST_F(RedisAdapterTest, SessionsOnSeveralThreadsWriteInParallel) {
  ASSERT_TRUE(OpenRedis().ok());
  std::vector<std::thread> threads;
  std::vector<Status> results(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      Status& s = results[static_cast<size_t>(t)];
      s = adapter_->NewSession(&session);
      for (int i = 0; i < 500 && s.ok(); ++i) {
        if (i % 100 == 0) s = session->BeginBatch();
        if (s.ok()) s = session->Put(ThreadKey(t, i), "v");
        if (s.ok() && i % 100 == 99) s = session->CommitBatch();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const Status& s : results) EXPECT_TRUE(s.ok()) << s.ToString();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(Get(ThreadKey(t, 499)), "v");
}

TEST_F(RedisAdapterTest, MissingOrBrokenServerBinaryIsAClearError) {
  Status s = OpenRedis({{"redis.server", "/nonexistent/redis-server"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("redis.server"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("/nonexistent/redis-server"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("No such file"), std::string::npos) << s.ToString();

  // A binary that exits at once: the error carries the exit code and the log.
  const std::string script = dir_.path() + "/fails.sh";
  std::ofstream(script) << "#!/bin/sh\necho 'fatal: cannot start' >&2\nexit 3\n";
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  s = OpenRedis({{"redis.server", script}});
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("exit code 3"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("fatal: cannot start"), std::string::npos) << s.ToString();

  // One that never answers is killed after redis.start_timeout_ms.
  const std::string silent = dir_.path() + "/silent.sh";
  std::ofstream(silent) << "#!/bin/sh\necho 'waiting forever'\nexec sleep 60\n";
  ASSERT_EQ(chmod(silent.c_str(), 0755), 0);
  s = OpenRedis({{"redis.server", silent}, {"redis.start_timeout_ms", "300"}});
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("did not answer within 300 ms"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("waiting forever"), std::string::npos) << s.ToString();
  adapter_.reset();
}

TEST_F(RedisAdapterTest, ServerDyingMidRunIsAnIOErrorNotACrash) {
  ASSERT_TRUE(OpenRedis().ok());
  const pid_t pid = redis()->server_pid();
  const std::string where = "127.0.0.1:" + std::to_string(redis()->port());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  // The first call may still write into the socket; none may crash (SIGPIPE).
  for (int i = 0; i < 3; ++i) {
    Status s = session_->Put("k", std::string(100000, 'v'));
    EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
    EXPECT_NE(s.message().find(where), std::string::npos) << s.ToString();
  }
  std::string value;
  EXPECT_EQ(session_->Get("k", &value).code(), Status::Code::kIOError);
  EXPECT_EQ(session_->BeginBatch().code(), Status::Code::kIOError);
  session_.reset();
  Status s = adapter_->Close();
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("killed by signal 9"), std::string::npos) << s.ToString();
  adapter_.reset();
}

TEST_F(RedisAdapterTest, HungServerTimesOutInsteadOfHanging) {
  ASSERT_TRUE(OpenRedis({{"redis.timeout_ms", "300"}}).ok());
  const pid_t pid = redis()->server_pid();
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  std::string value;
  Status s = session_->Get("k", &value);
  ASSERT_EQ(kill(pid, SIGCONT), 0);
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("redis.timeout_ms"), std::string::npos) << s.ToString();
}

TEST_F(RedisAdapterTest, OptionsAreChecked) {
  Status s = OpenRedis({{"redis.port", "7000"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("redis.port"), std::string::npos) << s.ToString();
  s = OpenRedis({{"redis.host", "127.0.0.1"}, {"redis.port", "70000"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = OpenRedis({{"redis.timeout_ms", "-1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("redis.timeout_ms"), std::string::npos) << s.ToString();
  adapter_.reset();

  RedisAdapter fresh;  // capabilities hold before Open
  const Capabilities caps = fresh.capabilities();
  EXPECT_TRUE(caps.transactional);
  EXPECT_FALSE(caps.durable);
  EXPECT_FALSE(caps.ordered);
  EXPECT_TRUE(caps.concurrent_writers);
  EXPECT_EQ(fresh.LibraryVersion().find("redis-server"), std::string::npos);
}

}  // namespace
}  // namespace kvbench

namespace kvbench {
namespace {

// Regression: redis-server chdirs to --dir before opening --logfile, so a
// relative engine directory (kvbench run --out runs/x) made it exit at start.
TEST(RedisRelativeDirectoryTest, AServerStartsInARelativeDirectory) {
  test::ScratchDir dir{"redis-relative"};
  const std::filesystem::path old_cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::filesystem::create_directories("runs/data/redis");
  std::unique_ptr<Adapter> adapter;
  ASSERT_TRUE(AdapterRegistry::Global().Create("redis", &adapter).ok());
  OpenRequest request;
  request.directory = "runs/data/redis";
  ASSERT_TRUE(ResolveEngineOptions("redis", adapter->OptionSpecs(),
                                   {{"redis.start_timeout_ms", "5000"}}, &request.options)
                  .ok());
  const Status opened = adapter->Open(request);
  std::filesystem::current_path(old_cwd);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter->NewSession(&session).ok());
  EXPECT_TRUE(session->Put("k", "v").ok());
  session.reset();
  EXPECT_TRUE(adapter->Close().ok());
}

}  // namespace
}  // namespace kvbench
