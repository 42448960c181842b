// What the history store (results/history/history_store.h) keeps and gives
// back, as plain data: the figures it stores per run, a stored run as
// listed, and one point of a series. Series and their change points are
// results/trend.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/statistics.h"

namespace kvbench::results {

// A figure the store keeps for every phase run (and, when per_op, for every
// operation type of it), over the run's repetitions.
struct FigureKind {
  const char* name;   // as stored: "ops_per_sec", "p99_ns", "file_bytes"...
  const char* label;  // for people: "throughput", "p99 latency"
  const char* unit;   // "ops/s", "ns", "s", "bytes"
  bool higher_is_better;
  bool per_op;  // one per operation type ("all", "get"...), else one per phase run (op "")
};

// Every stored figure, in the order they are stored.
const std::vector<FigureKind>& FigureKinds();

// By stored name or short alias ("p99" for p99_ns, "throughput" for
// ops_per_sec); nullptr when unknown.
const FigureKind* FindFigureKind(std::string_view name);

// What a figure's time divides or measures (its "time base"), as the store
// keeps it beside every figure. Only figures that depend on it carry one:
// ops_per_sec (operations over the time) and seconds (the time itself);
// every other figure has "" (latencies, sizes and CPU times mean the same
// under either base).

// The wall span of the timed part: everything kvbench writes since results
// schema 5, and before schema 4.
inline constexpr const char* kTimeBaseWallSpan = "wall_span";
// The time inside the engine's calls: unthrottled stream phases of results
// schema 4 (results::RateBase::kEngineCalls).
inline constexpr const char* kTimeBaseEngineCalls = "engine_calls";
// Stored before the store recorded time bases (history schema 1) by a run
// that may have been written under results schema 4: either of the two.
inline constexpr const char* kTimeBaseUnknown = "unknown";
// A figure whose repetitions disagree (a merge of shards of different schemas).
inline constexpr const char* kTimeBaseMixed = "mixed";
// True for the figures that carry a time base (ops_per_sec, seconds).
bool FigureHasTimeBase(std::string_view figure);

// One run in the store, as `kvbench history list` shows it.
struct StoredRunInfo {
  std::string run_id;
  std::string added_at;    // when it was added to the store (UTC, ISO 8601)
  std::string started_at;  // when the run started
  std::string workload_name;
  std::string workload_hash;
  std::string host_fingerprint;
  std::string hostname;
  std::string kvbench_revision;
  std::string source;  // the results file it was added from
  std::vector<std::string> engines;
  int64_t figures = 0;
};

// One figure of one run: a point of a series.
struct FigurePoint {
  // What was measured (a series is the points that agree on all of these).
  std::string workload_name;
  std::string workload_hash;
  std::string host_fingerprint;
  std::string engine;
  std::string phase;
  std::string phase_op;  // the phase's operation ("get", "ycsb"...)
  int threads = 1;
  double target_ops = 0;
  std::string cache;
  std::string op;  // operation type ("all", "get", "READ"...); "" for per-phase figures
  std::string figure;
  // The run it comes from.
  std::string run_id;
  std::string started_at;
  std::string hostname;
  std::string kvbench_revision;
  std::string library_version;  // of this engine in that run
  std::string kernel;
  std::string compiler;
  // Its time base (kTimeBase...; "" for figures without one). Series never
  // look for change points across a change of it (results/trend.h).
  std::string time_base;
  // The figure: median over n repetitions and the median's interval.
  int n = 0;
  double median = 0;
  std::optional<Interval> ci;
};

}  // namespace kvbench::results
