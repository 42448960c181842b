#include "runner/crash/crash_trials.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "adapters/registry.h"
#include "results/durability.h"
#include "runner/crash/crash_commits.h"
#include "runner/crash/power_loss_mount.h"
#include "runner/engine_process.h"
#include "runner/interrupt.h"

namespace kvbench::runner {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr size_t kProblemsKept = 5;

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

const char* PromiseName(FaultPromise p) {
  switch (p) {
    case FaultPromise::kNothing:
      return results::kPromiseNothing;
    case FaultPromise::kConsistent:
      return results::kPromiseConsistent;
    case FaultPromise::kDurable:
      return results::kPromiseDurable;
  }
  return results::kPromiseNothing;
}

Status OpenEngine(const results::EngineRun& engine, const std::string& dir,
                  std::unique_ptr<Adapter>* adapter) {
  KVBENCH_RETURN_IF_ERROR(AdapterRegistry::Global().Create(engine.name, adapter));
  OpenRequest request;
  request.directory = dir;
  request.options = EngineOptions(engine.options);
  return (*adapter)->Open(request);
}

// The writer child: open, one session per writer, sync, "ready", wait for
// the go byte, then each writer commits its stream until killed, writing
// "ack W" after each of its commits that returned OK (one write() of a line
// shorter than PIPE_BUF: the writers' lines never interleave). With
// `kill_at_ack` above 0 the child SIGKILLs itself right after writing that
// many acknowledgements (of all writers): a cut no later commit's sync can
// cover, as the parent's own kill, a pipe read and a wake-up later, may.
[[noreturn]] void WriterChild(const results::EngineRun& engine, const std::string& dir,
                              uint64_t stream_seed, int writers, uint64_t kill_at_ack,
                              int to_parent, int from_parent) {
  auto fail = [&](const std::string& what, const Status& s) {
    WriteLine(to_parent, "error " + what + ": " + s.ToString());
    ::_exit(3);
  };
  std::unique_ptr<Adapter> adapter;
  Status s = OpenEngine(engine, dir, &adapter);
  if (!s.ok()) fail("open", s);
  std::vector<std::unique_ptr<Session>> sessions(static_cast<size_t>(writers));
  for (auto& session : sessions) {
    if (s = adapter->NewSession(&session); !s.ok()) fail("session", s);
  }
  if (s = adapter->Sync(); !s.ok()) fail("sync", s);
  if (!WriteLine(to_parent, "ready")) ::_exit(4);
  char go = 0;
  if (::read(from_parent, &go, 1) != 1) ::_exit(4);
  std::atomic<uint64_t> acks{0};
  const auto commit_until_killed = [&](int w) {
    CrashCommitStream stream(stream_seed, w);
    const std::string ack = fmt::format("ack {}", w);
    for (uint64_t i = 0;; ++i) {
      if (Status c = ApplyCrashCommit(sessions[w].get(), stream.Next(), i); !c.ok()) {
        fail(fmt::format("writer {} commit {}", w, i), c);
      }
      if (!WriteLine(to_parent, ack)) ::_exit(4);
      if (acks.fetch_add(1) + 1 == kill_at_ack) ::kill(::getpid(), SIGKILL);
    }
  };
  std::vector<std::thread> others;
  for (int w = 1; w < writers; ++w) others.emplace_back(commit_until_killed, w);
  commit_until_killed(0);
  ::_exit(5);  // not reached: the parent kills the child
}

// What the writer said so far.
struct WriterLines {
  std::string pending;  // bytes after the last complete line
  uint64_t acks = 0;    // over all writers
  std::vector<uint64_t> acks_by_writer;
  bool ready = false;
  std::string error;
};

// Reads the writer's lines until `done()` holds, the writer reports an error
// or closes the pipe (all true), or the deadline passes or the run is
// interrupted (false).
bool ReadWriter(int fd, Clock::time_point deadline, WriterLines* w,
                const std::function<bool()>& done) {
  char buf[4096];
  for (;;) {
    size_t nl;
    while ((nl = w->pending.find('\n')) != std::string::npos) {
      const std::string line = w->pending.substr(0, nl);
      w->pending.erase(0, nl + 1);
      if (line.rfind("ack ", 0) == 0) {
        const size_t writer = std::strtoul(line.c_str() + 4, nullptr, 10);
        if (writer < w->acks_by_writer.size()) {
          ++w->acks_by_writer[writer];
          ++w->acks;
        }
      } else if (line == "ready") {
        w->ready = true;
      } else if (line.rfind("error ", 0) == 0) {
        w->error = line.substr(6);
      }
      if (!w->error.empty() || done()) return true;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || InterruptCount() > 0) return false;
    pollfd pfd{fd, POLLIN, 0};
    const int rc = ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 100)));
    if (rc <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;  // EOF: the writer is gone
    w->pending.append(buf, static_cast<size_t>(n));
  }
}

struct WriterOutcome {
  uint64_t acked = 0;  // over all writers
  std::vector<uint64_t> acked_by_writer;
  std::string setup_error;  // before the first commit: the engine cannot run here
  std::string error;        // a commit failed, or the harness gave up
};

// Steps 2-3 of the file comment for one trial; `before_go` runs between the
// writer's "ready" and its first commit (the layer's checkpoint).
// The cut: after `after` acknowledgements, either the writer kills itself
// at once (at_ack) or the parent kills it `delay_us` later.
struct CutPoint {
  uint64_t after = 1;
  bool at_ack = false;
  int delay_us = 0;
};

WriterOutcome RunWriter(const results::EngineRun& engine, const std::string& dir,
                        uint64_t stream_seed, int writers, const CutPoint& cut, double timeout_s,
                        const std::function<Status()>& before_go) {
  WriterOutcome out;
  int up[2], down[2];
  if (::pipe2(up, O_CLOEXEC) != 0 || ::pipe2(down, O_CLOEXEC) != 0) {
    out.error = std::string("pipe: ") + std::strerror(errno);
    return out;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    out.error = std::string("fork: ") + std::strerror(errno);
    return out;
  }
  if (pid == 0) {
    ::signal(SIGINT, SIG_IGN);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::close(up[0]);
    ::close(down[1]);
    WriterChild(engine, dir, stream_seed, writers, cut.at_ack ? cut.after : 0, up[1], down[0]);
  }
  ::close(up[1]);
  ::close(down[0]);
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(timeout_s));
  WriterLines lines;
  lines.acks_by_writer.assign(static_cast<size_t>(writers), 0);
  ReadWriter(up[0], deadline, &lines, [&] { return lines.ready; });
  if (!lines.ready) {
    out.setup_error = !lines.error.empty()   ? lines.error
                      : InterruptCount() > 0 ? "interrupted"
                                             : "the engine did not open in time";
  } else if (Status s = before_go(); !s.ok()) {
    out.error = s.ToString();
  } else {
    const char go = 'g';
    (void)!::write(down[1], &go, 1);
    if (!ReadWriter(up[0], deadline, &lines, [&] { return lines.acks >= cut.after; })) {
      out.error = InterruptCount() > 0 ? "interrupted"
                                       : fmt::format("no progress: {} commits in {} s", lines.acks,
                                                     static_cast<int>(timeout_s));
    } else if (!lines.error.empty()) {
      out.error = "writer: " + lines.error;
    } else if (!cut.at_ack && cut.delay_us > 0) {
      ::usleep(static_cast<useconds_t>(cut.delay_us));
    }
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // Acks written before the kill are acknowledged commits too.
  ReadWriter(up[0], Clock::now() + std::chrono::seconds(5), &lines, [] { return false; });
  if (out.error.empty() && out.setup_error.empty() && !lines.error.empty()) {
    out.error = "writer: " + lines.error;
  }
  ::close(up[0]);
  ::close(down[1]);
  out.acked = lines.acks;
  out.acked_by_writer = lines.acks_by_writer;
  return out;
}

// What the checker child found.
struct CheckOutcome {
  bool opened = false;
  std::string problem;  // open error, check error, or the first inconsistency
  double open_s = 0;
  bool integrity_ran = false;
  bool integrity_failed = false;
  CrashCheck check;
  bool checked = false;
};

CheckOutcome RunChecker(const results::EngineRun& engine, const std::string& dir,
                        uint64_t stream_seed, const std::vector<uint64_t>& acked,
                        double timeout_s) {
  CheckOutcome out;
  nlohmann::json doc;
  const ChildOutcome child = RunInChildProcess(
      [&](int fd) {
        nlohmann::json j;
        std::unique_ptr<Adapter> adapter;
        Status s = AdapterRegistry::Global().Create(engine.name, &adapter);
        OpenRequest request;
        request.directory = dir;
        request.options = EngineOptions(engine.options);
        const auto start = Clock::now();
        if (s.ok()) s = adapter->Open(request);  // the recovery: timed alone
        const double open_s = std::chrono::duration<double>(Clock::now() - start).count();
        if (!s.ok()) {
          j["open_error"] = s.ToString();
          return WriteLine(fd, j.dump()) ? 0 : 4;
        }
        j["open_s"] = open_s;
        Status integrity = adapter->CheckIntegrity();
        if (!integrity.IsNotSupported())
          j["integrity"] = integrity.ok() ? "ok" : integrity.ToString();
        std::unique_ptr<Session> session;
        CrashCheck c;
        s = adapter->NewSession(&session);
        if (s.ok()) {
          s = CheckCrashState(session.get(), adapter->capabilities().ordered, stream_seed, acked,
                              &c);
        }
        if (!s.ok()) {
          j["check_error"] = s.ToString();
        } else {
          j["lost"] = c.commits_lost;
          j["partial"] = c.partial_batches;
          j["bad"] = c.bad_values;
          j["extra"] = c.extra_keys;
          j["reordered"] = c.reordered;
          j["first_problem"] = c.first_problem;
        }
        session.reset();
        (void)adapter->Close();
        return WriteLine(fd, j.dump()) ? 0 : 4;
      },
      timeout_s,
      [&](const std::string& line) { doc = nlohmann::json::parse(line, nullptr, false); });
  if (!child.ok && (doc.is_null() || doc.is_discarded())) {
    out.problem = "the check crashed: " + child.failure;
    return out;
  }
  if (doc.contains("open_error")) {
    out.problem = "reopen failed: " + doc["open_error"].get<std::string>();
    return out;
  }
  out.opened = true;
  out.open_s = doc.value("open_s", 0.0);
  if (doc.contains("integrity")) {
    out.integrity_ran = true;
    const std::string integrity = doc["integrity"].get<std::string>();
    if (integrity != "ok") {
      out.integrity_failed = true;
      out.problem = "the engine's own check: " + integrity;
    }
  }
  if (doc.contains("check_error")) {
    out.problem = "reading the database back: " + doc["check_error"].get<std::string>();
    return out;
  }
  if (!child.ok) {
    out.problem = "the check crashed: " + child.failure;
    return out;
  }
  out.checked = true;
  out.check.commits_lost = doc.value("lost", uint64_t{0});
  out.check.partial_batches = doc.value("partial", uint64_t{0});
  out.check.bad_values = doc.value("bad", uint64_t{0});
  out.check.extra_keys = doc.value("extra", uint64_t{0});
  out.check.reordered = doc.value("reordered", false);
  out.check.first_problem = doc.value("first_problem", std::string());
  if (out.problem.empty()) out.problem = out.check.first_problem;
  return out;
}

Status ResetDirectory(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create '" + dir + "': " + ec.message());
  return Status::OK();
}

// Keeps the first kProblemsKept problems of the trials.
void AddProblem(int trial, const std::string& problem, results::DurabilityRun* run) {
  if (run->problems.size() < kProblemsKept) {
    run->problems.push_back(fmt::format("trial {}: {}", trial, problem));
  }
}

// Empties the folders of one trial under options.scratch: the writer writes
// into *write_dir and the checker reopens *check_dir. Under a power fault
// *write_dir is on the power-loss layer (mounted on `mount`) and *check_dir
// is its backing store: what survived the cut.
Status PrepareTrialDirs(const CrashOptions& options, bool power, PowerLossMount* mount,
                        std::string* write_dir, std::string* check_dir) {
  const std::string backing = options.scratch + "/backing";
  const std::string trash = options.scratch + "/trash";
  const std::string mountpoint = options.scratch + "/mnt";
  const std::string plain = options.scratch + "/plain";
  Status s;
  if (power) {
    s = ResetDirectory(backing);
    if (s.ok()) s = ResetDirectory(trash);
    if (s.ok()) s = ResetDirectory(mountpoint);
    if (s.ok()) {
      s = mount->Mount({options.layer_binary, backing, trash, mountpoint, options.timeout_s});
    }
    *write_dir = mountpoint + "/db";
    *check_dir = backing + "/db";
  } else {
    s = ResetDirectory(plain);
    *write_dir = *check_dir = plain + "/db";
  }
  if (s.ok() && ::mkdir(write_dir->c_str(), 0755) != 0) {
    s = Status::IOError("mkdir '" + *write_dir + "': " + std::strerror(errno));
  }
  return s;
}

// Adds what the check of trial `trial` found to the run's counts.
void CountTrial(int trial, const WriterOutcome& w, const CheckOutcome& c,
                const std::string& cut_summary, results::DurabilityRun* run) {
  ++run->trials;
  run->commits_acked += w.acked;
  if (!c.opened) {
    ++run->unopenable;
    AddProblem(trial, c.problem, run);
    return;
  }
  run->recovery_s.push_back(c.open_s);
  if (c.integrity_ran) ++run->integrity_checked;
  const bool corrupt =
      c.integrity_failed || !c.checked || c.check.bad_values > 0 || c.check.extra_keys > 0;
  if (corrupt) ++run->corrupt;
  if (c.check.commits_lost > 0) ++run->trials_losing_acked;
  run->commits_lost += c.check.commits_lost;
  run->most_commits_lost = std::max(run->most_commits_lost, c.check.commits_lost);
  if (c.check.partial_batches > 0) ++run->atomicity_violations;
  if (c.check.reordered) ++run->reordered;
  if (!c.problem.empty()) {
    AddProblem(trial,
               fmt::format("{} ({} acknowledged{})", c.problem, w.acked,
                           cut_summary.empty() ? "" : "; cut: " + cut_summary),
               run);
  }
}

}  // namespace

void RunCrashTrials(const results::EngineRun& engine, const CrashOptions& options,
                    results::DurabilityRun* run) {
  run->engine = engine.name;
  run->fault = options.fault;
  run->options = engine.options;
  run->seed = options.seed;
  run->writers = options.writers;
  std::unique_ptr<Adapter> adapter;
  if (Status s = AdapterRegistry::Global().Create(engine.name, &adapter); !s.ok()) {
    run->status = "failed";
    run->reason = s.ToString();
    return;
  }
  const EngineOptions engine_options(engine.options);
  const DurabilityDeclaration declared = adapter->DeclareDurability(engine_options);
  const bool power = options.fault != "kill";
  run->declared = PromiseName(power ? declared.power_loss : declared.process_crash);
  run->declared_atomic = declared.atomic_batches;
  run->basis = declared.basis;
  if (!adapter->capabilities().durable) {
    run->status = "not-testable";
    run->reason = "not durable: " + (declared.basis.empty() ? "keeps nothing" : declared.basis);
    return;
  }

  for (int t = 0; t < options.trials && InterruptCount() == 0; ++t) {
    const uint64_t trial_seed = Mix(options.seed * 1000003 + static_cast<uint64_t>(t));
    // A quarter of the trials cut right at an acknowledgement, the others
    // inside a commit (a random delay under 2 ms after one).
    CutPoint cut;
    cut.after = 1 + trial_seed % options.max_commits;
    cut.at_ack = (trial_seed >> 40) % 4 == 0;
    cut.delay_us = static_cast<int>((trial_seed >> 24) % 2000);
    PowerLossMount mount;
    std::string write_dir, check_dir;
    Status s = PrepareTrialDirs(options, power, &mount, &write_dir, &check_dir);
    if (!s.ok()) {
      run->status = "failed";
      run->reason = s.ToString();
      return;
    }
    const WriterOutcome w =
        RunWriter(engine, write_dir, trial_seed, options.writers, cut, options.timeout_s,
                  [&] { return power ? mount.Checkpoint() : Status::OK(); });
    std::string cut_summary;
    if (power) {
      s = w.setup_error.empty() && w.error.empty()
              ? mount.Cut(options.fault == "torn" ? "torn" : "discard", Mix(trial_seed),
                          &cut_summary)
              : mount.Unmount();
    }
    // Interrupted: the trials done so far stand; this one is not counted.
    if (InterruptCount() > 0) break;
    // The layer failed under the writer (its watchdog killed a stopped or
    // overdue daemon): the harness failed, not the engine's setup.
    if (!s.ok() && !w.setup_error.empty()) {
      run->status = "failed";
      run->reason = fmt::format("trial {}: {} (writer: {})", t, s.ToString(), w.setup_error);
      return;
    }
    if (!w.setup_error.empty()) {
      run->status = "not-testable";
      run->reason =
          (power ? "cannot run on the power-loss layer: " : "cannot run: ") + w.setup_error;
      return;
    }
    if (!w.error.empty() || !s.ok()) {
      if (InterruptCount() > 0) break;
      run->status = "failed";
      // The layer's own failure (its watchdog fired) explains the writer's.
      run->reason = fmt::format("trial {}: {}", t,
                                s.ok()             ? w.error
                                : w.error.empty() ? s.ToString()
                                                   : s.ToString() + " (writer: " + w.error + ")");
      return;
    }
    const CheckOutcome c =
        RunChecker(engine, check_dir, trial_seed, w.acked_by_writer, options.timeout_s);
    if (InterruptCount() > 0) break;
    CountTrial(t, w, c, cut_summary, run);
    if (options.on_trial) options.on_trial(t + 1, options.trials);
  }
  if (InterruptCount() > 0) {
    // A property of this run, not of the engine: never "not-testable".
    run->status = "interrupted";
    run->reason = fmt::format("interrupted after {} of {} trials", run->trials, options.trials);
  }
  results::ClassifyDurability(run);
}

}  // namespace kvbench::runner
