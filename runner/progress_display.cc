#include "runner/progress_display.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace kvbench::runner {

namespace {

std::string Duration(double s) {
  if (s < 0 || s > 1e7) return "?";
  const long t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}h{:02}m", t / 3600, t / 60 % 60)
                   : fmt::format("{}m{:02}s", t / 60, t % 60);
}

// The terminal's width, so a long line is cut rather than wrapped: the
// parent's reading when it gave one, else stderr's own when it is a terminal.
size_t TerminalWidth(const RunPosition& position) {
  if (position.terminal_width > 0) return static_cast<size_t>(position.terminal_width);
  winsize w{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

uint64_t PhaseWork(const PhaseSpec& p) {
  return std::max<uint64_t>(1, p.count) * static_cast<uint64_t>(std::max(1, p.repetitions)) *
         ExpandMatrix(p).size();
}

}  // namespace

uint64_t PlannedWork(const Workload& workload) {
  uint64_t total = 0;
  for (const PhaseSpec& p : workload.phases) total += PhaseWork(p);
  return total;
}

ProgressDisplay::ProgressDisplay(const Workload& workload, const RunPosition& position,
                                 std::string engine)
    : workload_(workload),
      position_(position),
      engine_(std::move(engine)),
      engine_work_(PlannedWork(workload)) {}

void ProgressDisplay::Begin(size_t phase_index, int repetition, uint64_t ops_total) {
  phase_ = phase_index;
  repetition_ = repetition;
  ops_total_ = std::max<uint64_t>(1, ops_total);
}

void ProgressDisplay::EndRepetition() { done_work_ += ops_total_; }

std::string ProgressDisplay::Line(uint64_t done, double seconds) const {
  done = std::min(done, ops_total_);
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  const double phase_eta = rate > 0 ? static_cast<double>(ops_total_ - done) / rate : -1;
  // The whole run: planned work of every engine, done so far: the engines
  // before this one, this engine's finished repetitions and the current one.
  const double run_elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - position_.run_start)
          .count();
  const double total = static_cast<double>(engine_work_) * position_.engine_count;
  const double finished = static_cast<double>(engine_work_) * position_.engine_index +
                          static_cast<double>(done_work_ + done);
  const double run_eta = finished > 0 ? run_elapsed * (total / finished - 1) : -1;
  const PhaseSpec& p = workload_.phases[phase_];
  return fmt::format(
      "engine {}/{} {} | phase {}/{} {} | rep {}/{} | {:5.1f}% {:>12} ops/s | {} left {} | run "
      "{} left {}",
      position_.engine_index + 1, position_.engine_count, engine_, phase_ + 1,
      workload_.phases.size(), p.name, repetition_ + 1, p.repetitions,
      100.0 * static_cast<double>(done) / static_cast<double>(ops_total_),
      fmt::format("{:.0f}", rate), Duration(seconds), Duration(phase_eta), Duration(run_elapsed),
      Duration(run_eta));
}

void ProgressDisplay::Draw(uint64_t done, double seconds) const {
  std::string line = Line(done, seconds);
  const size_t width = TerminalWidth(position_);
  if (line.size() >= width) line.resize(width > 1 ? width - 1 : 0);  // cut, never wrap
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void ProgressDisplay::PointDone(const results::PhaseRun& run) const {
  std::string line = fmt::format("  {:<12} {:<20}", run.engine, run.phase);
  if (run.threads > 1 || run.target_ops > 0 || !run.cache.empty()) {
    line += fmt::format(" [{} thr{}{}]", run.threads,
                        run.target_ops > 0 ? fmt::format(", {:.0f}/s", run.target_ops) : "",
                        run.cache.empty() ? "" : ", " + run.cache);
  }
  if (run.status != "ok" || run.repetitions.empty()) {
    line += " " + run.status + (run.reason.empty() ? "" : ": " + run.reason);
  } else {
    const results::Spread rate =
        results::SpreadOf(run, [](const results::Repetition& r) { return r.ops.at(0).ops_per_sec; });
    const results::Spread p99 = results::SpreadOf(run, [](const results::Repetition& r) {
      return static_cast<double>(r.ops.at(0).latency.p99_ns) / 1000;
    });
    line += fmt::format(" {:>12.0f} ops/s", rate.median);
    if (rate.ci) line += fmt::format(" [{:.0f}-{:.0f}]", rate.ci->low, rate.ci->high);
    line += fmt::format("  p99 {:.3g} us  (n={})", p99.median, rate.n);
  }
  const size_t width = TerminalWidth(position_);
  if (line.size() >= width) line.resize(width > 1 ? width - 1 : 0);
  std::fprintf(stderr, "\r\033[K%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace kvbench::runner
