// Ctrl-C in the middle of a run, typed into a real terminal: kvbench kills
// the engine's child (and the redis-server it started), keeps the phases that
// finished, writes results.json (the rest marked "interrupted") and the
// reports, removes the engines' data and exits 130.
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "results/results_json.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

// A quick load, then gets that run far longer than the test waits.
constexpr const char* kWorkload = R"(
name = "interrupt"
engines = ["redis", "lmdb"]
repetitions = 1
[dataset]
kind = "sequential"
count = 20000
[[phase]]
name = "load"
op = "insert"
count = 20000
batch = 1000
[[phase]]
name = "long-gets"
op = "get"
count = 100000000
)";

// Processes whose command line mentions `text` (a leftover redis-server).
int ProcessesMentioning(const std::string& text) {
  int found = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "cmdline");
    std::stringstream cmdline;
    cmdline << in.rdbuf();
    if (cmdline.str().find(text) != std::string::npos) ++found;
  }
  return found;
}

TEST(InterruptTest, CtrlCKeepsWhatFinishedAndLeavesNothingBehind) {
  test::ScratchDir dir("interrupt");
  const std::string workload = dir.path() + "/w.toml";
  const std::string out = dir.path() + "/out";
  std::ofstream(workload) << kWorkload;

  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    ::execl(KVBENCH_BINARY, KVBENCH_BINARY, "run", workload.c_str(), "--out", out.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  // Wait until the long phase is under way (the load finished), then type Ctrl-C.
  std::string screen;
  char buf[4096];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (screen.find("long-gets") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    screen.append(buf, static_cast<size_t>(n));
  }
  ASSERT_NE(screen.find("long-gets"), std::string::npos) << screen;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(::write(master, "\x03", 1), 1);
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    screen.append(buf, static_cast<size_t>(n));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  ASSERT_TRUE(WIFEXITED(status)) << screen;
  EXPECT_EQ(WEXITSTATUS(status), 130) << screen;

  results::RunResults r;
  ASSERT_TRUE(results::ReadResultsFile(out + "/results.json", &r).ok()) << screen;
  bool load_kept = false, interrupted = false;
  for (const results::PhaseRun& run : r.runs) {
    if (run.engine == "redis" && run.phase == "load" && run.status == "ok") load_kept = true;
    if (run.status == "interrupted") interrupted = true;
  }
  EXPECT_TRUE(load_kept) << "the finished load must be kept";
  EXPECT_TRUE(interrupted) << "the unfinished phases must say so";
  ASSERT_EQ(r.engines.size(), 2u);
  EXPECT_EQ(r.engines[0].status, "interrupted");
  EXPECT_EQ(r.engines[1].status, "interrupted");  // lmdb never started
  EXPECT_TRUE(fs::exists(out + "/report.md"));
  EXPECT_TRUE(fs::exists(out + "/report.html"));
  EXPECT_FALSE(fs::exists(out + "/data")) << "engine data must be removed";
  // redis-server died with the engine's child (PR_SET_PDEATHSIG); give the
  // kernel a moment to reap it.
  for (int i = 0; i < 50 && ProcessesMentioning(out) > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(ProcessesMentioning(out), 0) << "a process of the run is still alive";
}

}  // namespace
}  // namespace kvbench
