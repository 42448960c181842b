// How every renderer reads a RunResults: phases in workload order, each with
// its matrix points (threads x target rate x cache), each with one PhaseRun per
// engine; and the median, min and max of every figure over repetitions.
//
// The views hold pointers into the RunResults they were built from: they live
// no longer than it does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/results.h"

namespace kvbench::reports {

struct MatrixPoint {
  int threads = 1;
  double target_ops = 0;  // 0 = unthrottled
  std::string cache;      // "cold" | "hot" | ""
  // The host that measured it, when the results come from shards on more
  // than one host (results/shard_merge.h); "" otherwise. Figures of different
  // hosts are never put side by side as one point: they are not comparable.
  std::string host;

  bool operator==(const MatrixPoint&) const = default;
};

// Which matrix dimensions take more than one value within a phase; only those
// need a column (the others are stated once, above the table).
struct VaryingDimensions {
  bool threads = false;
  bool target = false;
  bool cache = false;
  bool host = false;
  bool any() const { return threads || target || cache || host; }
};

// "4 threads, 2,000/s, cold": only the dimensions asked for, "" when none.
std::string PointLabel(const MatrixPoint& point, const VaryingDimensions& show);
// Shorter form for chart axes: "4 thr · 2,000/s · cold".
std::string ShortPointLabel(const MatrixPoint& point, const VaryingDimensions& show);

// The runs of one phase at one matrix point, one per engine, in engine order.
struct PointRuns {
  MatrixPoint point;
  std::vector<const results::PhaseRun*> runs;
};

struct PhaseView {
  std::string name;
  std::string op;                            // the phase operation of its first run
  const results::PhaseRun* first = nullptr;  // for params
  std::vector<PointRuns> points;             // in order of first appearance
  VaryingDimensions varying;
  // The values each dimension takes, in order of first appearance.
  std::vector<int> thread_counts;
  std::vector<double> targets;
  std::vector<std::string> caches;
  std::vector<std::string> hosts = {};
};

// Engine names: those of results.engines first, in their order, then any that
// only appear in runs.
std::vector<std::string> EngineOrder(const results::RunResults& results);
// Index of `engine` in `order` (its colour in charts); order.size() if absent.
size_t EngineIndex(const std::vector<std::string>& order, std::string_view engine);

std::vector<PhaseView> GroupByPhase(const results::RunResults& results);

// The operation types in a run's repetitions, "all" first, then in order of
// first appearance.
std::vector<std::string> OpNames(const results::PhaseRun& run);

// Every figure of one operation type of one run, as median/min/max over the
// repetitions that have it. A figure no repetition measured is empty; a run
// without repetitions (failed, unsupported, skipped) has every figure empty.
struct Figures {
  std::string op;
  int repetitions = 0;  // repetitions that have this operation type
  // seconds is the wall span ops/s divides by; engine_seconds the time
  // inside the engine's calls within it; harness_share = 1 - engine / wall
  // (results::Repetition::HarnessShare), per repetition.
  std::optional<results::Spread> ops, seconds, ops_per_sec, engine_seconds, harness_share;
  // Some repetition's ops_per_sec divide by the time inside the engine's
  // calls, not the wall span (rows read from a schema-4 file).
  bool rate_over_engine_calls = false;
  // Under a target rate: the time outside the calls is mostly the pacing's
  // waits, by design, so the harness share says nothing about kvbench.
  bool paced = false;
  std::optional<results::Spread> p50_us, p90_us, p99_us, p999_us, max_us;
  std::optional<results::Spread> cpu_user_s, cpu_sys_s, cpu_total_s, peak_rss_bytes;
  std::optional<results::Spread> file_bytes, allocated_bytes, bytes_read, bytes_written;
  std::optional<results::Spread> cache_resident_before_pct, cache_resident_after_pct;
  std::optional<results::Spread> open_seconds, cache_resident_after_eviction_pct;
  std::optional<results::Spread> pacing_lateness_p99_us;  // under a target rate
  // > 0: the latency figures (p50 ... max) are of block means, not of single
  // operations: the largest block of any repetition
  // (results::LatencySummary::block_ops). 0: one sample per operation.
  uint64_t block_ops = 0;
  // Every repetition measured its sizes after the engine's Sync() (schema 2).
  bool sizes_after_sync = false;
  std::optional<results::Spread> found, not_found, rows, bytes_returned, errors;
  std::string stream_digest;  // of the first repetition that has the op
};
Figures FiguresOf(const results::PhaseRun& run, std::string_view op = "all");

// The CPU probe (runner/cpu_probe.h, results::Repetition::cpu_probe_us): a
// repetition "ran slowed" when its slower probe took at least
// kProbeSlowRatio times the fastest probe of its point (every engine's
// repetitions of that phase and matrix point): the machine then gave the
// measuring thread less CPU than it gave the fastest. Repetitions without
// probes (older files) are never slowed.
inline constexpr double kProbeSlowRatio = 1.25;
// A repetition "ran at full speed" when both its probes stayed under
// kProbeFullSpeedRatio times that fastest: the machine at its fastest level.
// The probes spread continuously between the two lines (docs/reading-the-
// report.md), so a tie is ranked again only on repetitions at full speed.
inline constexpr double kProbeFullSpeedRatio = 1.10;
// The fastest probe among the runs' repetitions, 0 when none has one.
double FastestProbe(const std::vector<const results::PhaseRun*>& runs);
bool RanSlowed(const results::Repetition& rep, double fastest_probe);
bool RanAtFullSpeed(const results::Repetition& rep, double fastest_probe);
// How many of the run's repetitions RanSlowed.
int SlowedRepetitions(const results::PhaseRun& run, double fastest_probe);

// Above this harness share (results::Repetition::HarnessShare) a row's ops/s
// is "client-bound": partly kvbench's own work, not the engine's.
inline constexpr double kClientBoundShare = 0.10;
// The row's ops/s is partly kvbench's own work: its median harness share is
// above kClientBoundShare, unthrottled (a paced row waits between
// calls by design). Said wherever the figure is shown.
bool ClientBound(const Figures& f);
inline constexpr const char* kClientBoundNote =
    "client-bound: this figure is partly kvbench's own work";
// The harness share of a row for people: "3%", "14% (client-bound)",
// "n/a (paced)" under a target rate, or for a row whose ops/s divides by the
// in-call time (schema 4) a note that says so; `unmeasured` when not
// measured. ASCII but for `unmeasured`.
std::string HarnessShareText(const Figures& f, std::string_view unmeasured = "–");

// Record phases time blocks of operations under one pair of clock reads:
// the largest block of any run of `phase` whose latencies are block means
// (Figures::block_ops), 0 when every run's samples are single operations.
uint64_t LatencyBlockOps(const PhaseView& phase);
// Said wherever block-mean latencies are shown: what they are.
std::string BlockMeansNote(uint64_t block_ops);

// Engines whose data lives only in memory (declared not durable): cold cache
// and file sizes mean nothing for them, so they are shown, not ranked.
bool InMemory(const results::RunResults& results, std::string_view engine);

// (max - min) / median of a spread; 0 when the median is 0.
double RelativeSpread(const results::Spread& s);

// How the engines at one matrix point did different work: one sentence per
// difference ("stream digests differ: ..."), empty when they did the same.
// Compares op "all" of the runs with status "ok", repetition by repetition:
// the stream digest and the found / not found / rows counts.
std::vector<std::string> WorkDifferences(const PointRuns& point);

// A failed engine, or a phase an engine did not complete (status other than
// "ok"), with the reason.
struct Problem {
  std::string engine;
  std::string phase;  // "" for an engine-level failure
  std::string point;  // matrix point label, "" when the phase has one point
  std::string status;
  std::string reason;
};
std::vector<Problem> ProblemsOf(const results::RunResults& results);

}  // namespace kvbench::reports
