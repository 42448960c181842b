#include "runner/status_reporter.h"

#include <fmt/format.h>
#include <time.h>

#include <cmath>
#include <cstdio>
#include <ctime>

namespace kvbench::runner {

namespace {

// Java's DecimalFormat("#.##"): at most two decimals, no trailing zeros.
std::string TwoDecimals(double v) {
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string Micros(uint64_t ns) { return TwoDecimals(static_cast<double>(ns) / 1000.0); }

// YCSB's RemainingFormatter: days, hours, minutes; seconds only when less
// than a minute remains.
std::string Remaining(uint64_t seconds) {
  std::string out;
  const uint64_t days = seconds / 86400;
  if (days > 0) out += fmt::format("{} {} ", days, days == 1 ? "day" : "days");
  seconds -= days * 86400;
  const uint64_t hours = seconds / 3600;
  if (hours > 0) out += fmt::format("{} {} ", hours, hours == 1 ? "hour" : "hours");
  seconds -= hours * 3600;
  if (days < 1) {
    const uint64_t minutes = seconds / 60;
    if (minutes > 0) out += fmt::format("{} {} ", minutes, minutes == 1 ? "minute" : "minutes");
  }
  if (out.empty()) out = fmt::format("{} seconds ", seconds);
  return out;
}

// "yyyy-MM-dd HH:mm:ss:SSS" in local time, as YCSB stamps its lines.
std::string Timestamp(std::chrono::system_clock::time_point now) {
  const auto since = now.time_since_epoch();
  const time_t secs = std::chrono::duration_cast<std::chrono::seconds>(since).count();
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
  tm local{};
  localtime_r(&secs, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &local);
  return fmt::format("{}:{:03}", buf, millis);
}

}  // namespace

void StatusFeed::Publish(const IntervalRecorder& recorder, size_t first) {
  const std::vector<IntervalCell>& cells = recorder.cells();
  const std::vector<BucketCount>& buckets = recorder.buckets();
  std::lock_guard lock(mutex_);
  for (size_t i = first; i < cells.size(); ++i) {
    AddCell(cells[i], buckets, &pending_[static_cast<size_t>(cells[i].kind)]);
  }
}

void StatusFeed::Take(std::array<LatencyHistogram, kOpKinds>* into) {
  std::lock_guard lock(mutex_);
  for (size_t k = 0; k < kOpKinds; ++k) pending_[k].DrainInto(&(*into)[k], [](size_t, uint64_t) {});
}

StatusReporter::StatusReporter(const StatusOptions& options, std::vector<StatusFeed*> feeds,
                               std::vector<ReportedOp> ops, uint64_t planned_ops)
    : options_(options),
      feeds_(std::move(feeds)),
      ops_(std::move(ops)),
      planned_ops_(planned_ops),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {
  const auto period = std::chrono::duration<double>(std::max(0.001, options_.period_s));
  thread_ = std::thread([this, period] {
    std::unique_lock lock(mutex_);
    while (!cv_.wait_for(lock, period, [this] { return stop_; })) Report();
  });
}

StatusReporter::~StatusReporter() { Stop(); }

void StatusReporter::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  Report();
}

void StatusReporter::Report() {
  for (StatusFeed* feed : feeds_) feed->Take(&window_);
  uint64_t window_ops = 0;
  for (size_t k = 0; k < kOpKinds; ++k) {
    if (ops_.front().kinds & (1u << k)) window_ops += window_[k].count();
  }
  total_ += window_ops;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double window = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  const std::string line = Line(options_.label, std::chrono::system_clock::now(), elapsed, total_,
                                window_ops, window, planned_ops_, ops_, window_);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  for (LatencyHistogram& h : window_) h.ClearRecorded();
}

std::string StatusReporter::Line(const std::string& label,
                                 std::chrono::system_clock::time_point now, double elapsed_s,
                                 uint64_t total, uint64_t window_ops, double window_s,
                                 uint64_t planned_ops, const std::vector<ReportedOp>& ops,
                                 const std::array<LatencyHistogram, kOpKinds>& window) {
  std::string line = fmt::format("{}{} {} sec: {} operations; ", label, Timestamp(now),
                                 static_cast<uint64_t>(elapsed_s), total);
  if (total != 0) {
    line += TwoDecimals(window_s > 0 ? static_cast<double>(window_ops) / window_s : 0) +
            " current ops/sec; ";
  }
  if (planned_ops > total && total > 0 && elapsed_s > 0) {
    const double rate = static_cast<double>(total) / elapsed_s;
    line += "est completion in " + Remaining(static_cast<uint64_t>(
                                       std::ceil(static_cast<double>(planned_ops - total) / rate)));
  }
  for (size_t o = 1; o < ops.size(); ++o) {
    LatencyHistogram h;
    for (size_t k = 0; k < kOpKinds; ++k) {
      if (ops[o].kinds & (1u << k)) h.Merge(window[k]);
    }
    if (h.count() == 0) continue;
    line += fmt::format("[{}: Count={}, Max={}, Min={}, Avg={}, 90={}, 99={}, 99.9={}, 99.99={}] ",
                        ops[o].name, h.count(), Micros(h.max()), Micros(h.min()),
                        TwoDecimals(h.mean() / 1000.0), Micros(h.ValueAtQuantile(0.90)),
                        Micros(h.ValueAtQuantile(0.99)), Micros(h.ValueAtQuantile(0.999)),
                        Micros(h.ValueAtQuantile(0.9999)));
  }
  return line;
}

}  // namespace kvbench::runner
