// Results of a run, as plain data. The runner fills these; results_json.cc
// turns them into results.json (and back); reports/ renders them. Nothing here
// formats text for people.
//
// Every figure in these structs was measured; a figure that was not measured
// is absent (std::optional empty), never zero-filled, so a report can say "-"
// instead of printing a number nobody measured.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/statistics.h"

namespace kvbench::results {

inline constexpr const char* kResultsSchemaName = "kvbench-results";
// 2: every run carries a "summary" of its figures with n, median, min, max
// and the median's confidence interval; repetitions carry
// sizes_after_sync, cache_resident_after_eviction_pct and pacing_lateness.
// Files of schema 1 still load (their summaries are computed on reading).
// 3: a run carries its run_id; durability verdicts (crash trials); sharded
// runs carry shards, and each row its shard and wall_seconds; repetitions
// may carry time_series (latency per interval) and session_cleanup.
// Files of schema 1 and 2 still load (the new fields are all optional).
// 4: a repetition of a phase run by client threads carries wall_seconds, and
// its `seconds` (what ops_per_sec divides by) is the time inside the
// engine's calls when unthrottled. Files of schema 1 to 3 still load; their
// `seconds` was the wall span (a repetition without wall_seconds is one).
// 5: ops/s = operations / wall span again, as YCSB and db_bench define it: a
// repetition's `seconds` is the wall span of its timed part, and the time
// inside the engine's calls is kept beside it as engine_seconds (the harness
// share is derived from the two); wall_seconds is gone. Schema-4 files load
// with seconds := their wall_seconds and engine_seconds := their seconds,
// their ops_per_sec left as written and marked rate_base "engine_calls"
// (`kvbench compare` refuses to set such rows against wall-span rows).
inline constexpr int kResultsSchemaVersion = 5;
inline constexpr int kOldestReadableSchemaVersion = 1;
// The confidence level of every interval kvbench writes.
inline constexpr double kConfidenceLevel = 0.95;

// Latency distribution of one operation type, in nanoseconds.
struct LatencySummary {
  uint64_t count = 0;
  double mean_ns = 0;
  uint64_t min_ns = 0;
  uint64_t p50_ns = 0;
  uint64_t p90_ns = 0;
  uint64_t p95_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  uint64_t max_ns = 0;
  // 0: every sample is one operation's latency. N > 0: every sample is the
  // mean latency of a block of up to N operations timed under one pair of
  // clock reads (record phases), so the percentiles and max are of block
  // means, not of single operations; reports say so. Absent in JSON when 0.
  uint64_t block_ops = 0;
  // Non-empty buckets of the merged histogram: (bucket upper bound ns, count).
  std::vector<std::pair<uint64_t, uint64_t>> buckets;
};

// What an engine was given and gave back: the proof that engines did equal
// work. `stream_digest` hashes the operation stream (operation kinds and keys)
// the runner generated, so it is identical across engines for the same phase
// and matrix point; the counts are what the engine answered.
struct WorkCounts {
  uint64_t found = 0;           // gets / reads that returned a value
  uint64_t not_found = 0;       // gets that returned NotFound
  uint64_t rows = 0;            // entries visited by scans
  uint64_t bytes_returned = 0;  // value bytes returned by gets and scans
  uint64_t errors = 0;          // operations that returned an error status
  std::string stream_digest;    // hex digest of the operation stream
};

// Figures of one operation type within a measured repetition ("all" is the
// whole phase).
struct OpFigures {
  std::string op;  // "all", "insert", "get", "READ", "UPDATE", ...
  uint64_t ops = 0;
  double ops_per_sec = 0;
  LatencySummary latency;
  WorkCounts work;
};

// One operation type over time within a repetition (OpFigures::op names it).
// Element i of every vector is interval i; in an interval where no such
// operation ended, count is 0 and the other figures are 0 (absent in JSON).
struct OpTimeSeries {
  std::string op;
  std::vector<uint64_t> count;      // operations that ended in the interval
  std::vector<double> ops_per_sec;  // count / the interval's length
  std::vector<double> mean_ns;
  std::vector<uint64_t> p50_ns;
  std::vector<uint64_t> p99_ns;
  std::vector<uint64_t> max_ns;
  // Each interval's histogram (non-empty buckets: upper bound ns, count), kept
  // only when HdrHistogram interval logs were asked for; empty otherwise.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> buckets;
};

// Latency over time of a repetition's timed span: interval i covers
// [i * interval_s, (i + 1) * interval_s) from the span's start; the last one
// ends with the wall span (Repetition::seconds), so it may be shorter. An
// operation belongs to the interval in which it ended.
struct TimeSeries {
  double interval_s = 0;
  double start_unix_s = 0;         // wall clock at the span's start (seconds since the epoch)
  std::vector<OpTimeSeries> ops;   // ops[0] is "all"; then as Repetition::ops
  size_t intervals() const { return ops.empty() ? 0 : ops.front().count.size(); }
};

// What a repetition's ops_per_sec figures divide by.
enum class RateBase {
  // The wall span of the timed part (Repetition::seconds): the rate the run
  // achieved. Everything kvbench writes since schema 5, and before schema 4.
  kWallSpan,
  // The busiest client thread's time inside the engine's calls: unthrottled
  // stream phases of schema-4 files, as read (never written by this kvbench).
  kEngineCalls,
};

// One measured execution of a phase at one matrix point on one engine.
struct Repetition {
  // The wall span of the timed part: what ops_per_sec divides by (ops/s =
  // operations / seconds, as YCSB and db_bench). Phases of client threads:
  // from the common start to the last operation's end, the driver's work
  // between calls included. Record phases: the sum of their timed blocks
  // (each block's operations are prepared before its clock starts).
  double seconds = 0;
  // The time inside the engine's calls (operations, batch begins, commits,
  // syncs) within `seconds`; with several client threads the mean over
  // threads of each thread's in-call time, so an engine that serialises
  // calls shows engine_seconds close to seconds. Absent where it was not
  // measured (files before schema 4).
  std::optional<double> engine_seconds;
  // Schema-4 files only (see RateBase); kWallSpan otherwise.
  RateBase rate_base = RateBase::kWallSpan;
  // The share of the wall span spent outside the engine's calls, in kvbench's
  // own work (generating keys, recording latencies) or idle:
  // 1 - engine_seconds / seconds. Absent without engine_seconds.
  std::optional<double> HarnessShare() const {
    if (!engine_seconds || seconds <= 0) return std::nullopt;
    return std::clamp(1.0 - *engine_seconds / seconds, 0.0, 1.0);
  }
  std::vector<OpFigures> ops;  // ops[0] is "all"
  double cpu_user_s = 0;
  double cpu_sys_s = 0;
  // The process's peak resident memory during the phase, less the memory of
  // the operations kvbench prepared ahead (op_buffer_bytes): the engine's
  // and the rest of the process's, not the harness's buffers.
  uint64_t peak_rss_bytes = 0;
  // Phases of client threads whose operations were prepared before the
  // timed span (runner/phase_worker.h): the memory those buffers took at
  // their largest, over all threads. Absent when each operation was made
  // inside the timed loop (and in files from before it existed).
  std::optional<uint64_t> op_buffer_bytes;
  std::optional<uint64_t> bytes_read;     // /proc/self/io read_bytes delta
  std::optional<uint64_t> bytes_written;  // /proc/self/io write_bytes delta
  uint64_t file_bytes = 0;       // apparent size of the engine's files after the phase
  uint64_t allocated_bytes = 0;  // allocated blocks of those files
  // True when the file sizes (and bytes_written) were measured after the
  // engine's Sync() (untimed, after every writing phase), so they are what
  // reached the files; only such sizes are compared between engines.
  bool sizes_after_sync = false;
  // Page-cache residency of the engine's files (mincore), in percent: at the
  // phase's start (after a cold phase's reopen, which may read the engine's
  // own files) and at its end.
  std::optional<double> cache_resident_before_pct;
  std::optional<double> cache_resident_after_pct;
  // Cold phases: residency right after the eviction, before the reopen; a
  // high figure here means the eviction failed, a low one with a high
  // cache_resident_before_pct means the engine reads its files when it opens.
  std::optional<double> cache_resident_after_eviction_pct;
  std::optional<double> open_seconds;  // reopen time of a cold phase, measured alone
  // Under a target rate: how late the harness itself started operations
  // after their intended start (its own pacing error, kept apart from the
  // engine's latency).
  std::optional<LatencySummary> pacing_lateness;
  // Operations over time (phases run by worker threads); absent in files
  // written before it existed.
  std::optional<TimeSeries> time_series;
  // Closing each client's session after the timed span (YCSB's [CLEANUP]):
  // one value per client thread, timed apart from the span.
  std::optional<LatencySummary> session_cleanup;
  // The CPU probe (runner/cpu_probe.h), in microseconds, timed just before
  // and just after the timed span: {before, after}. Empty in files written
  // before it existed and for repetitions that failed before the span.
  std::vector<double> cpu_probe_us;
  // Runs with forks (Measurement::forks > 1): the 0-based fork, a fresh
  // engine process, that measured this repetition; absent with one process.
  std::optional<int> fork;
};

// One figure over repetitions: n, median, min, max and the confidence
// interval of the median (results/statistics.h; empty below 2 repetitions).
struct Spread {
  int n = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  std::optional<Interval> ci;
  // The repetitions' values, for tests between runs (compare).
  std::vector<double> values;
};

// One phase x matrix point x engine.
struct PhaseRun {
  std::string phase;    // phase name from the workload
  std::string op;       // phase operation ("insert", "get", "ycsb", ...)
  std::string engine;
  int threads = 1;
  double target_ops = 0;     // ops/s, 0 = unthrottled
  std::string cache;         // "hot" | "cold" | "" (not applicable)
  std::map<std::string, std::string> params;  // resolved phase parameters
  // "ok", "unsupported" (the engine cannot do it; reason says why),
  // "failed" (an error or crash; reason says which), "skipped".
  std::string status = "ok";
  std::string reason;
  std::vector<Repetition> repetitions;
  // Warm-up repetitions (runner::WarmupRepetitions): run before the measured
  // ones, unthrottled, and left out of every figure; kept to show what the
  // warm-up took (summary figures only: no histogram buckets, no time series). JSON "warmup_repetitions" (schema 5), written only when
  // there are some; files written before warm-ups read as none.
  std::vector<Repetition> warmup_repetitions;
  // Wall time of the whole matrix point: every repetition with its untimed
  // preparation (fresh start, cold eviction, reopen) and the sync after a
  // writing phase. What the point costs to run, for shard planning
  // (`--costs`); absent in files written before it was recorded.
  std::optional<double> wall_seconds;
  // Sharded runs only: the row's position in the whole plan's run order
  // (engine, phase, matrix point; runner/shard/shard_plan.h), and the shard that
  // measured it (ShardInfo::index, also the row's entry in RunResults::shards
  // of merged results).
  std::optional<int> row;
  std::optional<int> shard;
  // Several client threads wrote on an engine that declares no concurrent
  // writers (Capabilities::concurrent_writers false): its adapter let one
  // writer in at a time (a plugin engine's, the plugin host), so the row
  // measures `threads` clients sharing one writer, not parallel writes
  // (runner::WritersSerialised). Written only when true; files from before
  // it was recorded read as false.
  bool writers_serialised = false;
};

struct EngineRun {
  std::string name;
  std::string library_version;
  std::map<std::string, std::string> options;       // every resolved option
  std::map<std::string, bool> capabilities;
  // "ok"; "partial" (a phase failed: reason names it); "failed" (the engine
  // could not run, or its process died: reason says why, with the last lines
  // it wrote on stderr); "interrupted".
  std::string status = "ok";
  std::string reason;
  double wall_seconds = 0;
  // An engine loaded from a plugin (include/kvbench/plugin.h): the shared
  // object's canonical path, the SHA-256 of its bytes as loaded (64 hex
  // digits) and the plugin ABI version it was built for ("1.1"). All empty
  // for a built-in engine; JSON writes "plugin" only when the path is set,
  // and files without it (built-in engines, schema 1-5 files) read as empty.
  std::string plugin_path;
  std::string plugin_sha256;
  std::string plugin_abi;
};

struct Environment {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;
  uint64_t memory_bytes = 0;
  std::string kernel;
  std::string filesystem;  // of the data directory
  std::string data_directory;
  std::string compiler;
  std::string cxx_flags;
  std::string build_type;
  std::string kvbench_version;
  std::string kvbench_revision;
  std::map<std::string, std::string> libraries;  // engine -> library version
  // Conditions that decide whether a figure is trustworthy (schema 2; empty
  // or absent where they could not be read).
  std::string cpu_governor;           // cpufreq scaling governor of CPU 0
  std::string turbo;                  // "on" | "off" (boost / intel_pstate no_turbo)
  std::string transparent_hugepages;  // the selected THP mode: always | madvise | never
  std::string data_device;            // the device (mount source) of the data directory
  std::optional<double> load_average_1m;  // at the start of the run
  // The clock that timed every operation (runner/cycle_clock.h): "tsc"
  // (calibrated once, in the parent, before the engines' processes were
  // forked) or "steady"; for the TSC its factor and the calibration's
  // worst-case error. Absent in files from before they were recorded.
  std::string clock;
  std::optional<double> clock_ns_per_tick;
  std::optional<double> clock_calibration_error_ppm;
};

struct WorkloadInfo {
  std::string name;
  std::string description;
  std::string file;    // path as given
  std::string source;  // the file's text
  double scale = 1.0;
  std::map<std::string, std::string> dataset;  // resolved dataset parameters
};

// `kvbench crash`: one engine x option set under one fault (optional section
// "durability"; absent in runs without it). The trials' timings never mix
// with the phases' (the throughput beside it comes from a normal run).
struct DurabilityRun {
  std::string engine;  // as the workload names it ("sqlite@full")
  std::string fault;   // "power-loss" | "torn" | "kill"
  // "ok"; "not-testable" (reason says why: in-memory engine...); "failed"
  // (the harness could not run the trials: reason); "interrupted" (the run
  // was cut short: the trials counted are those that finished).
  std::string status = "ok";
  std::string reason;
  std::map<std::string, std::string> options;  // every resolved option
  // The adapter's declaration for this fault: "durable" | "consistent" | "nothing".
  std::string declared;
  bool declared_atomic = false;  // batches all-or-nothing
  std::string basis;             // the adapter's one line on why
  uint64_t seed = 0;
  int writers = 1;  // threads committing at once in each trial (kvbench crash --writers)
  int trials = 0;
  int trials_losing_acked = 0;       // trials where an acknowledged commit was missing
  uint64_t most_commits_lost = 0;    // the most acknowledged commits one trial lost
  uint64_t commits_acked = 0;        // over all trials
  uint64_t commits_lost = 0;         // over all trials
  int atomicity_violations = 0;      // trials with a batch partly there
  int reordered = 0;                 // trials where a later commit survived a lost earlier one
  int corrupt = 0;                   // trials with a bad value, extra entries or a failed check
  int unopenable = 0;                // trials where the engine could not open its files
  int integrity_checked = 0;         // trials where the engine's own check ran (and passed or not)
  std::vector<double> recovery_s;    // reopen time of each trial that opened
  // What the trials showed: "durable" (nothing lost), "consistent" (acked
  // commits lost, files fine), "nothing" (corrupt or unopenable); empty when
  // no trial ran.
  std::string measured;
  // The declaration promised more than was measured (or atomic batches that
  // were seen partial): reported loudly.
  bool finding = false;
  std::vector<std::string> problems;  // the first few, one line each ("trial 3: ...")
};

// One shard of a sharded run (`kvbench run --shard K/N`, docs/scale-out.md).
// A shard's own results hold one; merged results (`kvbench merge`) hold every
// shard's, each with the environment of the host that ran it.
struct ShardInfo {
  int index = 0;  // K of K/N, from 0
  int count = 1;  // N
  // The resolved plan (runner::PlanHash): only shards of one plan merge.
  std::string plan_hash;
  // Which unit runs on which shard (unit costs decide it, `--costs`): only
  // shards of one assignment merge, else units would be missing or doubled.
  std::string assignment_hash;
  int rows = 0;  // rows (engine x phase x matrix point) assigned to this shard
  // The shard's run ended (every engine attempted or the run interrupted);
  // false in the results.json it rewrites while it runs, so a shard killed
  // midway is known as such.
  bool finished = false;
  // Time spent replaying, untimed, the earlier phases the shard's units
  // start from (runner/shard/shard_plan.h): the price of sharding.
  double setup_seconds = 0;
  std::string started_at;
  std::string finished_at;
  // `--label KEY=VALUE` (the Slurm script records slurm.job_id,
  // slurm.array_job_id, slurm.array_task_id and slurm.node).
  std::map<std::string, std::string> labels;
  // Merged results: the shard's host and build, and the file it was read from.
  std::optional<Environment> environment;
  std::string file;
};

struct RunResults {
  int schema_version = kResultsSchemaVersion;
  // A unique id given to the run when it starts (NewRunId), so a results file
  // added to a history store twice is stored once. Empty in files written
  // before it existed (optional in the schema); the history store then
  // derives an id from the file's content.
  std::string run_id;
  std::string started_at;   // ISO 8601 UTC
  std::string finished_at;
  // False from the run's first write of results.json until it ends: a file
  // left by a run that was killed, or interrupted, says so. Files written
  // before it existed (absent) are taken as complete.
  bool complete = true;
  // The signal that interrupted the run ("Interrupt", "Terminated"); empty
  // when it was not interrupted.
  std::string interrupted;
  std::string command_line;
  Environment environment;
  WorkloadInfo workload;
  std::vector<EngineRun> engines;
  std::vector<PhaseRun> runs;
  std::vector<DurabilityRun> durability;  // `kvbench crash` only
  // Sharded runs only (absent otherwise): this shard, or every merged shard
  // in index order.
  std::vector<ShardInfo> shards;
};

// A fresh random run id: 32 lower-case hex digits (128 bits from the
// system's random device).
std::string NewRunId();

// n/median/min/max/CI of a set of values.
Spread SpreadOfValues(std::vector<double> values, double level = kConfidenceLevel);

// n/median/min/max/CI of `figure` over a run's repetitions.
template <typename F>
Spread SpreadOf(const PhaseRun& run, F figure) {
  std::vector<double> v;
  for (const Repetition& r : run.repetitions) v.push_back(figure(r));
  return SpreadOfValues(std::move(v));
}

}  // namespace kvbench::results
