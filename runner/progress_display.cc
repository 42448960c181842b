#include "runner/progress_display.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "common/number_format.h"
#include "runner/engine_schedule.h"

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

// A number column holds up to 999,999,999 ops/s (11 characters); a wider
// figure still prints, its line out of step.
constexpr size_t kRateWidth = 11;
constexpr size_t kMicrosWidth = 7;  // up to 999,999 us; a slower p99 pushes the interval out

// Operations of every repetition of the phase, its warm-ups included.
uint64_t PhaseWork(const Workload& w, size_t index) {
  const PhaseSpec& p = w.phases[index];
  const int runs = std::max(1, p.repetitions) + WarmupRepetitions(w, p, index);
  return std::max<uint64_t>(1, p.count) * static_cast<uint64_t>(runs) * ExpandMatrix(p).size();
}

}  // namespace

std::string LivePointLabel(const std::string& phase, int threads, double target_ops,
                           const std::string& cache) {
  if (threads <= 1 && target_ops <= 0 && cache.empty()) return phase;
  return fmt::format("{} [{} thr{}{}]", phase, threads,
                     target_ops > 0 ? ", " + FormatRate(target_ops) + "/s" : "",
                     cache.empty() ? "" : ", " + cache);
}

LiveColumns MeasureLiveColumns(const Workload& workload, const std::vector<std::string>& engines) {
  LiveColumns columns;
  columns.engine = 0;
  columns.label = 0;
  for (const std::string& e : engines) columns.engine = std::max(columns.engine, e.size());
  for (const PhaseSpec& p : workload.phases) {
    for (const MatrixPoint& m : ExpandMatrix(p)) {
      columns.label = std::max(columns.label,
                               LivePointLabel(p.name, m.threads, m.target, NameOf(m.cache)).size());
    }
  }
  return columns;
}

std::string PointDoneLine(const results::PhaseRun& run, const LiveColumns& columns) {
  std::string line = fmt::format(
      "  {:<{}}  {:<{}}", run.engine, columns.engine,
      LivePointLabel(run.phase, run.threads, run.target_ops, run.cache), columns.label);
  if (run.status != "ok" || run.repetitions.empty()) {
    return line + "  " + run.status + (run.reason.empty() ? "" : ": " + run.reason);
  }
  const results::Spread rate =
      results::SpreadOf(run, [](const results::Repetition& r) { return r.ops.at(0).ops_per_sec; });
  const results::Spread p99 = results::SpreadOf(run, [](const results::Repetition& r) {
    return static_cast<double>(r.ops.at(0).latency.p99_ns) / 1000;
  });
  // Fixed-width figures first, the interval (its width varies) last, so a
  // narrow terminal cuts only the interval.
  line += fmt::format("  {:>{}} ops/s  p99 {:>{}} us  n={:<2}", FormatRate(rate.median),
                      kRateWidth, FormatMicros(p99.median), kMicrosWidth, rate.n);
  // Record phases time blocks of operations: their p99 is of block means.
  if (run.repetitions.front().ops.at(0).latency.block_ops > 0) line += "  (p99 of block means)";
  if (rate.ci) line += "  [" + FormatRate(rate.ci->low) + "-" + FormatRate(rate.ci->high) + "]";
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

uint64_t PlannedWork(const Workload& workload) {
  uint64_t total = 0;
  for (size_t i = 0; i < workload.phases.size(); ++i) total += PhaseWork(workload, i);
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
  // The whole run: planned work of every engine once per fork, done so far:
  // the processes before this one (every engine's earlier forks, then this
  // fork of the engines before this one: the engines take turns), this
  // process's finished repetitions and the current one.
  const double run_elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - position_.run_start)
          .count();
  const double work = static_cast<double>(engine_work_);
  const double total = work * position_.fork_count * position_.engine_count;
  const double finished =
      work * (position_.fork * position_.engine_count + position_.engine_index) +
      static_cast<double>(done_work_ + done);
  const double run_eta = finished > 0 ? run_elapsed * (total / finished - 1) : -1;
  const PhaseSpec& p = workload_.phases[phase_];
  const std::string fork =
      position_.fork_count > 1
          ? fmt::format(" | fork {}/{}", position_.fork + 1, position_.fork_count)
          : std::string();
  return fmt::format(
      "engine {}/{} {}{} | phase {}/{} {} | {} | {:5.1f}% {:>12} ops/s | {} left {} | run "
      "{} left {}",
      position_.engine_index + 1, position_.engine_count, engine_, fork, phase_ + 1,
      workload_.phases.size(), p.name,
      repetition_ < 0 ? std::string("warm-up")
                      : fmt::format("rep {}/{}", repetition_ + 1, p.repetitions),
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
  if (position_.in_memory && run.cache == "cold") return;
  std::string line = PointDoneLine(run, position_.columns);
  const size_t width = TerminalWidth(position_);
  if (line.size() >= width) line.resize(width > 1 ? width - 1 : 0);
  std::fprintf(stderr, "\r\033[K%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace kvbench::runner
