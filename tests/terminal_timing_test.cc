// The same run in a terminal and piped must measure the same thing. A
// terminal run once took another code path (a progress display whose
// 250 ms sleep landed inside every timed span) and reported an lmdb get phase
// 100x slower than a piped run; piped runs, which every other test uses, could
// not see it. This test runs the real binary under a pseudo-terminal and
// piped and compares the phases' medians.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "results/results_json.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

// Short phases: a harness wait of 250 ms inside the timed span would make
// them 10-100x slower.
constexpr const char* kWorkload = R"(
name = "terminal-timing"
engines = ["lmdb", "stdmap"]
repetitions = 5
[dataset]
kind = "sequential"
count = 20000
[[phase]]
name = "load"
op = "insert"
count = 20000
batch = 1000
[[phase]]
name = "get"
op = "get"
count = 20000
)";

std::vector<std::string> Args(const std::string& workload, const std::string& out) {
  return {KVBENCH_BINARY, "run", workload, "--out", out};
}

void Exec(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// Runs under a pseudo-terminal (stdin, stdout and stderr are the terminal);
// returns the exit status and what the terminal showed.
int RunInTerminal(const std::vector<std::string>& args, std::string* screen,
                  unsigned short columns = 120) {
  int master = -1;
  struct winsize size = {40, columns, 0, 0};
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  if (pid == 0) Exec(args);
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO once the child closed the terminal
    screen->append(buf, static_cast<size_t>(n));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// Runs with stdout and stderr into a pipe.
int RunPiped(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) return 128;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    Exec(args);
  }
  ::close(fds[1]);
  char buf[4096];
  while (::read(fds[0], buf, sizeof buf) > 0) {
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

double MedianRate(const results::RunResults& r, const std::string& phase,
                  const std::string& engine) {
  for (const results::PhaseRun& run : r.runs) {
    if (run.phase == phase && run.engine == engine) {
      return results::SpreadOf(run, [](const results::Repetition& rep) {
               return rep.ops.at(0).ops_per_sec;
             }).median;
    }
  }
  ADD_FAILURE() << "no run of " << phase << " on " << engine;
  return 0;
}

TEST(TerminalTimingTest, ATerminalRunMeasuresWhatAPipedRunMeasures) {
  test::ScratchDir dir("terminal-timing");
  const std::string workload = dir.path() + "/w.toml";
  std::ofstream(workload) << kWorkload;

  std::string screen;
  ASSERT_EQ(RunInTerminal(Args(workload, dir.path() + "/tty"), &screen), 0) << screen;
  ASSERT_EQ(RunPiped(Args(workload, dir.path() + "/pipe")), 0);

  results::RunResults tty, pipe;
  ASSERT_TRUE(results::ReadResultsFile(dir.path() + "/tty/results.json", &tty).ok());
  ASSERT_TRUE(results::ReadResultsFile(dir.path() + "/pipe/results.json", &pipe).ok());
  for (const char* engine : {"lmdb", "stdmap"}) {
    for (const char* phase : {"load", "get"}) {
      const double in_terminal = MedianRate(tty, phase, engine);
      const double piped = MedianRate(pipe, phase, engine);
      ASSERT_GT(piped, 0);
      // Two runs on a shared machine differ; a harness wait inside the timed
      // span differs by 10-100x. A factor of 3 either way tells them apart.
      EXPECT_GT(in_terminal / piped, 1.0 / 3) << engine << " " << phase << ": terminal "
                                              << in_terminal << " ops/s, piped " << piped;
      EXPECT_LT(in_terminal / piped, 3.0) << engine << " " << phase;
    }
  }
}

// A terminal narrower than the progress line: the line is cut to fit, never
// wrapped into garbage, and still shows the whole run's position.
TEST(TerminalTimingTest, TheProgressLineFitsANarrowTerminal) {
  test::ScratchDir dir("narrow-terminal");
  const std::string workload = dir.path() + "/w.toml";
  std::ofstream(workload) << std::string(kWorkload) + R"(
[[phase]]
name = "long-get"
op = "get"
count = 3000000
repetitions = 1
)";
  std::string screen;
  ASSERT_EQ(RunInTerminal(Args(workload, dir.path() + "/out"), &screen, 50), 0) << screen;
  size_t progress_lines = 0;
  size_t start = 0;
  while (start < screen.size()) {
    size_t end = screen.find_first_of("\r\n", start);
    if (end == std::string::npos) end = screen.size();
    std::string segment = screen.substr(start, end - start);
    if (segment.rfind("\033[K", 0) == 0) segment.erase(0, 3);
    if (segment.rfind("engine ", 0) == 0) {
      ++progress_lines;
      EXPECT_LT(segment.size(), 50u) << segment;
    }
    start = end + 1;
  }
  EXPECT_GT(progress_lines, 0u) << "no progress line was drawn in the terminal:\n" << screen;
}

}  // namespace
}  // namespace kvbench
