// YCSB's status lines (`kvbench ycsb ... -s`): while a phase runs, every
// `period` seconds, one line on stderr in the shape of YCSB 0.17's
// StatusThread with its hdrhistogram measurement:
//
//   2026-05-01 12:00:10:123 10 sec: 123456 operations; 12345.67 current ops/sec;
//   est completion in 1 minute [READ: Count=61728, Max=1234.5, Min=3.1, Avg=12.34,
//   90=20.1, 99=45.2, 99.9=120, 99.99=500] [UPDATE: ...]
//
// (one line). "operations" counts every operation since the phase started;
// "current ops/sec", Count and the latencies (µs, up to two decimals) are of
// the operations since the previous line, as YCSB's interval histograms
// print them. A final line follows when the phase ends.
//
// Workers publish what they did once per closed interval (StatusFeed, a
// mutex held while that interval's buckets are merged, never per
// operation); the reporter runs on a thread of its own and never inside a
// timed span: the span is the workers' own clock readings.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runner/interval_recorder.h"
#include "runner/latency_histogram.h"
#include "runner/operation_stream.h"

namespace kvbench::runner {

// One worker's closed intervals on their way to the status reporter.
class StatusFeed {
 public:
  // Worker side: the cells of `recorder` from index `first` were just closed.
  void Publish(const IntervalRecorder& recorder, size_t first);
  // Reporter side: moves everything published since the last call into
  // `into` (one histogram per OpKind).
  void Take(std::array<LatencyHistogram, kOpKinds>* into);

 private:
  std::mutex mutex_;
  std::array<LatencyHistogram, kOpKinds> pending_;
};

struct StatusOptions {
  double period_s = 10;  // YCSB's status.interval
  std::string label;     // YCSB's -l: prefixed to every line
};

class StatusReporter {
 public:
  // Starts the reporter's thread; `planned_ops` (0 = unknown: a timed phase)
  // gives the estimated completion.
  StatusReporter(const StatusOptions& options, std::vector<StatusFeed*> feeds,
                 std::vector<ReportedOp> ops, uint64_t planned_ops);
  // Stop() if not yet stopped.
  ~StatusReporter();
  // Ends the thread and prints the final line (call after the workers ended).
  void Stop();

  // The line for `total` operations after `elapsed_s`, `window_ops` of them
  // in the last `window_s`, with the window's histograms. Exposed for tests.
  static std::string Line(const std::string& label, std::chrono::system_clock::time_point now,
                          double elapsed_s, uint64_t total, uint64_t window_ops, double window_s,
                          uint64_t planned_ops, const std::vector<ReportedOp>& ops,
                          const std::array<LatencyHistogram, kOpKinds>& window);

 private:
  void Report();

  StatusOptions options_;
  std::vector<StatusFeed*> feeds_;
  std::vector<ReportedOp> ops_;
  uint64_t planned_ops_;
  uint64_t total_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  std::array<LatencyHistogram, kOpKinds> window_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kvbench::runner
