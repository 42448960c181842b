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
#include <regex>
#include <sstream>
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

// Runs with stdout and stderr into a pipe; `output` (when given) gets what
// came through it.
int RunPiped(const std::vector<std::string>& args, std::string* output = nullptr) {
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
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
    if (output != nullptr) output->append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

results::Spread RateSpread(const results::RunResults& r, const std::string& phase,
                           const std::string& engine) {
  for (const results::PhaseRun& run : r.runs) {
    if (run.phase == phase && run.engine == engine) {
      return results::SpreadOf(
          run, [](const results::Repetition& rep) { return rep.ops.at(0).ops_per_sec; });
    }
  }
  ADD_FAILURE() << "no run of " << phase << " on " << engine;
  return {};
}

// One run in a terminal and one piped; what differs more than the noise
// allows, or "" when nothing does.
std::string CompareTerminalAndPiped(const std::string& dir, const std::string& workload) {
  std::string screen;
  if (RunInTerminal(Args(workload, dir + "/tty"), &screen) != 0) return "terminal run: " + screen;
  if (RunPiped(Args(workload, dir + "/pipe")) != 0) return "piped run failed";
  results::RunResults tty, pipe;
  if (!results::ReadResultsFile(dir + "/tty/results.json", &tty).ok() ||
      !results::ReadResultsFile(dir + "/pipe/results.json", &pipe).ok()) {
    return "results.json unreadable";
  }
  std::string differences;
  for (const char* engine : {"lmdb", "stdmap"}) {
    for (const char* phase : {"load", "get"}) {
      const results::Spread in_terminal = RateSpread(tty, phase, engine);
      const results::Spread piped = RateSpread(pipe, phase, engine);
      if (piped.max <= 0 || in_terminal.max <= 0) return "no rate";
      // A harness wait inside the timed span slows every repetition 10-100x.
      // A machine busy with other work slows some repetitions, or a whole
      // run: these phases take ~5 ms, and one lost time slice (3-4 ms beside
      // CPU hogs) makes a repetition 2-4x slower. So the best repetitions,
      // which a wait in every span slows as much as the rest, are compared
      // with a factor of 3, and the medians with 10.
      const double best = in_terminal.max / piped.max;
      const double median = in_terminal.median / piped.median;
      if (best < 1.0 / 3 || best > 3 || median < 1.0 / 10 || median > 10) {
        differences += std::string(engine) + " " + phase + ": terminal best " +
                       std::to_string(in_terminal.max) + " median " +
                       std::to_string(in_terminal.median) + " ops/s, piped best " +
                       std::to_string(piped.max) + " median " + std::to_string(piped.median) + "\n";
      }
    }
  }
  return differences;
}

TEST(TerminalTimingTest, ATerminalRunMeasuresWhatAPipedRunMeasures) {
  test::ScratchDir dir("terminal-timing");
  const std::string workload = dir.path() + "/w.toml";
  std::ofstream(workload) << kWorkload;
  // Beside three CPU hogs one pair of runs in 30 differed by more than the
  // factors above (the piped run's best 3.1x below the terminal's): up to
  // three pairs are run, and a defect fails all three. False failures at
  // that rate: about (1/30)^3, 4 in 100,000 on a machine that busy.
  std::string differences;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    const std::string seen =
        CompareTerminalAndPiped(dir.path() + "/" + std::to_string(attempt), workload);
    if (seen.empty()) return;
    differences += "pair " + std::to_string(attempt) + ":\n" + seen;
  }
  ADD_FAILURE() << "a terminal run and a piped run measured different rates in 3 pairs:\n"
                << differences;
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

// The lines of a screen as a person reads them: progress redraws ("\r",
// "\033[K") split off, so each permanent line stands alone.
std::vector<std::string> ScreenLines(const std::string& screen) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < screen.size()) {
    size_t end = screen.find_first_of("\r\n", start);
    if (end == std::string::npos) end = screen.size();
    std::string segment = screen.substr(start, end - start);
    if (segment.rfind("\033[K", 0) == 0) segment.erase(0, 3);
    if (!segment.empty()) lines.push_back(segment);
    start = end + 1;
  }
  return lines;
}

// Issue 33: phase names of different lengths, matrix labels ("get [2 thr,
// cold]") and a record phase, on an on-disk engine and two in-memory ones.
constexpr const char* kColumnsWorkload = R"(
name = "live-columns"
engines = ["lmdb", "stdmap", "native"]
repetitions = 2
[dataset]
kind = "sequential"
count = 4000
[[phase]]
name = "load"
op = "insert"
count = 4000
batch = 500
[[phase]]
name = "get-with-a-long-name"
op = "get"
count = 4000
threads = [1, 2]
cache = ["cold", "hot"]
[[phase]]
name = "records"
op = "record-insert"
fresh = true
table = "t"
schema = "named:3,8,8"
count = 2000
)";

// The permanent line of each finished matrix point lines up with every other
// line of the run whatever its label, writes its figures as the final table
// does (thousands separators), and skips the cold rows of in-memory engines,
// which a note explains once. Piped, there are no live lines and no note.
TEST(TerminalTimingTest, LiveLinesLineUpAndSkipInMemoryColdRows) {
  test::ScratchDir dir("live-columns");
  const std::string workload = dir.path() + "/w.toml";
  std::ofstream(workload) << kColumnsWorkload;
  std::string screen;
  ASSERT_EQ(RunInTerminal(Args(workload, dir.path() + "/tty"), &screen, 200), 0) << screen;

  const std::string note = "cold-cache rows of in-memory engines";
  size_t notes = 0;
  std::vector<std::string> rows;
  for (const std::string& line : ScreenLines(screen)) {
    if (line.find(note) != std::string::npos) ++notes;
    if (line.find(" ops/s  p99 ") != std::string::npos) rows.push_back(line);
  }
  EXPECT_EQ(notes, 1u) << screen;
  // lmdb: load, 4 get points, records; stdmap and native: load, 2 hot gets, records.
  ASSERT_EQ(rows.size(), 6u + 4u + 4u) << screen;
  const size_t ops_at = rows.front().find(" ops/s");
  const size_t p99_at = rows.front().find(" p99 ");
  const std::regex separated("^\\d{1,3}(,\\d{3})*$|^\\d{1,2}(\\.\\d+)?$");
  for (const std::string& row : rows) {
    EXPECT_EQ(row.find(" ops/s"), ops_at) << "out of column:\n" << row << "\n" << rows.front();
    EXPECT_EQ(row.find(" p99 "), p99_at) << "out of column:\n" << row << "\n" << rows.front();
    std::istringstream words(row.substr(0, ops_at));
    std::string word, rate;
    while (words >> word) rate = word;
    EXPECT_TRUE(std::regex_match(rate, separated)) << "rate '" << rate << "' in: " << row;
    const bool cold = row.find(", cold]") != std::string::npos;
    const bool in_memory = row.find("  stdmap  ") == 0 || row.find("  native  ") == 0;
    EXPECT_FALSE(cold && in_memory) << "an in-memory engine's cold row: " << row;
    const bool record = row.find(" records ") != std::string::npos;
    EXPECT_EQ(row.find("(p99 of block means)") != std::string::npos, record) << row;
  }
  EXPECT_NE(screen.find("get-with-a-long-name [2 thr, cold]"), std::string::npos) << screen;

  const std::string piped_out = dir.path() + "/pipe";
  std::string piped_text;
  ASSERT_EQ(RunPiped(Args(workload, piped_out), &piped_text), 0) << piped_text;
  EXPECT_EQ(piped_text.find(note), std::string::npos) << piped_text;
  EXPECT_EQ(piped_text.find(" ops/s  p99 "), std::string::npos) << piped_text;
  results::RunResults piped;
  ASSERT_TRUE(results::ReadResultsFile(piped_out + "/results.json", &piped).ok());
  EXPECT_EQ(piped.runs.size(), 3u * (1 + 4 + 1));  // every row measured, none printed live
}

}  // namespace
}  // namespace kvbench
