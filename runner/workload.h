// A workload: one experiment, as read from a TOML file.
//
//   name = "quickstart"
//   description = "..."
//   engines = ["sqlite", "lmdb"]          # default: every engine that stores data
//   timeout = 600                         # seconds per engine process
//
//   [dataset]                             # datasets/ kind and parameters
//   kind = "urls"
//   count = 100000
//   seed = 42
//   [values]                              # value generator parameters
//   size = 40
//
//   [options.sqlite]                      # engine option overrides
//   "sqlite.cache_size" = "-1048576"
//
//   [[phase]]
//   name = "load"
//   op = "insert"                         # see PhaseSpec::op
//   count = 100000
//   batch = 65536
//
// Parameters given as lists (threads, target, cache) expand into a matrix.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "runner/phase_op.h"

namespace kvbench::runner {

// Stated upper bounds of workload values (docs/workloads.md quotes them). A
// value past one is a typo, not an experiment: it would overflow a count,
// make a run that never ends, or, for a duration, end after one operation.
inline constexpr uint64_t kMaxCount = 1'000'000'000'000;  // keys, operations, warm-up, skip
inline constexpr double kMaxDurationS = 7 * 86400.0;      // a phase's duration: a week
inline constexpr double kMaxTimeoutS = 30 * 86400.0;      // an engine's time limit: 30 days
inline constexpr uint64_t kMaxBatch = 10'000'000;         // writes per transaction
inline constexpr uint64_t kMaxScanLimit = 1'000'000'000;  // entries per scan
inline constexpr int kMaxRepetitions = 1'000'000;
inline constexpr int kMaxForks = 1000;
inline constexpr int kMaxWarmupRepetitions = 100;
inline constexpr double kMaxTargetOpsPerSec = 1e10;  // beyond any engine's rate
inline constexpr double kMaxProportion = 1e9;        // a mix's weights are relative
inline constexpr uint32_t kMaxRecordField = 65535;   // a record field's index
inline constexpr size_t kMaxNameBytes = 200;         // workload and phase names
// --scale multiplies counts: with kMaxCount the product stays far from 2^63.
inline constexpr double kMaxScale = 1e6;

// What a phase made from a YCSB property file adds (runner/ycsb/ycsb_properties.h):
// YCSB records (runner/ycsb_record.h), YCSB's operation names in results and
// YCSB's key chooser and scan lengths.
struct YcsbPhaseSpec {
  uint32_t field_count = 10;
  bool read_all_fields = true;
  bool write_all_fields = false;
  uint64_t min_scan_length = 1;
  uint64_t max_scan_length = 1000;
  std::string scan_length_distribution = "uniform";  // uniform | zipfian, over [min, max]
  // The request distribution's item count (CoreWorkload sizes its key chooser
  // from recordcount, insertcount and the expected inserts); 0 = the keys
  // present when the phase starts.
  uint64_t key_space = 0;
  // The phase's inserts take indexes first_insert, first_insert + 1... (YCSB:
  // insertstart for the load, recordcount for the transactions); unset = after
  // the keys present.
  std::optional<uint64_t> first_insert;
};

struct PhaseSpec {
  std::string name;
  // insert      new keys (the next `count` indexes after those already
  //             inserted; the first insert phase is the load)
  // update      overwrite present keys chosen by `distribution`
  // delete      delete present keys chosen by `distribution`
  // delete-absent  delete keys that are not there (the dataset's absent
  //             keys): the tombstones an LSM tree writes anyway
  // rmw         read-modify-write present keys
  // get         point reads; `keys` = present | absent | repeat (one key,
  //             `count` times)
  // scan        from a present key, `limit` entries, `direction`
  // range       from the key at fraction `from` to the key at fraction `to`
  //             of the key space (index order; numeric for sequential keys);
  //             backward from `to` down to `from`; `limit` stops it earlier
  // skip        from the edge (or, with `from` > 0, from the key at that
  //             fraction), skip `skip` entries then take `limit`
  // mix         a YCSB-style mix by `proportions` (read, update, insert,
  //             scan, rmw)
  // reorganize  the engine's compaction (sqlite VACUUM, pbtree reorganize)
  // reopen      close and reopen the engine (open time measured)
  // sync        the engine's Sync(): flush everything to stable storage, so
  //             the file sizes measured after it are what is on disk
  // recreate    `count` times: close the engine, delete its files, open it
  //             empty (seed 000's create-and-delete of a database)
  // memory-baseline  allocate `count` 8-byte integers and write each once:
  //             the plain baseline seed 000 compares inserts against
  // Record phases (adapters/record.h; one client thread; runner/record_phase.h):
  // record-create  `count` records of NULL fields (`delete_after`: each is
  //             deleted right after it is created)
  // record-insert  `count` records from `schema` (`set` = new | checked;
  //             `read_back`: read every field back after writing it)
  // record-get  whole records chosen by `distribution`
  // record-set  field `field` of records chosen by `distribution`, checked
  // record-delete  the oldest `count` live records
  // record-scan `count` scans of every record for `field` == `value`
  // record-index  build an index on `field`
  // record-query  `count` indexed queries for `field` == `value`, each
  //             collecting up to `limit` records
  // record-follow  `count` walks of the reference chain in `field` from the
  //             newest record to the first
  PhaseOp op = PhaseOp::kInsert;
  int line = 0;  // where the phase starts in the file, for messages

  uint64_t count = 0;     // operations (0 with duration_s > 0: run for a time)
  double duration_s = 0;  // alternative to count
  uint64_t batch = 1;     // writes per transaction (1 = one per transaction);
                          // record phases: operations per transaction, reads too
  uint64_t warmup = 0;    // unmeasured operations before the measured ones
  int repetitions = 0;  // 0 until parsed: the workload's default_repetitions
  std::vector<int> threads = {1};
  std::vector<double> targets = {0};       // ops/s over all threads, 0 = unthrottled
  Pacing pacing = Pacing::kSleep;          // how workers wait under a target rate
  std::vector<CacheState> caches = {CacheState::kAsIs};
  KeyChoice keys = KeyChoice::kPresent;    // get
  std::string distribution = "uniform";    // uniform | zipfian | latest | hotspot | sequential ...
  std::map<std::string, std::string> distribution_params;
  CommitSync sync = CommitSync::kNone;     // kCommit: engine Sync() after each commit
  bool reopen = false;                     // reopen (not evicted) before the phase
  // Seed 003's "one table per thread": each thread's keys carry a prefix of
  // its own ("t<thread>/"), the portable stand-in for a table per writer.
  bool table_per_thread = false;
  // insert: "index" inserts indexes in increasing order (for urls keys that
  // is a directory walk's order: keys of one directory together); "shuffled"
  // inserts the same keys in a random order (db_bench's fillrandom).
  InsertOrder order = InsertOrder::kIndex;
  // scan / range / skip
  uint64_t limit = 100;
  bool limit_given = false;                // range: stop after `limit` too
  ScanWay direction = ScanWay::kForward;
  bool values = true;                      // scans read values too
  double from = 0, to = 1;
  uint64_t skip = 0;
  // mix
  std::map<std::string, double> proportions;  // read, update, insert, scan, rmw
  // A dataset of the phase's own (a `dataset = { kind = ..., count = ... }`
  // table in the phase) instead of the workload's, for workloads whose tests
  // use different keys (seed 003); it holds for the following phases too
  // until another phase names one. Give the phase `fresh = true` too unless
  // the keys of both datasets may mix. Empty kind: the workload's dataset.
  std::string dataset_kind;
  std::map<std::string, std::string> dataset_params;  // includes count
  // Start from an empty database: before the phase (untimed) the engine is
  // closed, its files deleted and it is opened again (seed 000 begins every
  // test with a new database).
  bool fresh = false;
  // record phases
  // The record generator: a typed schema (datasets/record_generator.h, e.g.
  // "int*5", "int,int,int,int%100000,int") or "named:F,K,V" for seed 004's
  // records of F named fields with K-byte names and V-byte values. Empty:
  // the record table the previous record phase used.
  std::string schema;
  std::string table = "records";
  uint32_t field = 0;
  int64_t value = 0;           // record-scan / record-query: the integer sought
  RecordSetMode set = RecordSetMode::kNew;  // record-insert: create + set as new, or checked
  bool read_back = false;      // record-insert
  bool delete_after = false;   // record-create
  // Fields the file gave explicitly (PhaseField bits), for the check that
  // each applies to the operation.
  uint32_t given_fields = 0;
  // Set for phases made from a YCSB property file.
  std::optional<YcsbPhaseSpec> ycsb;
};

// How latency is recorded beyond each phase's whole histogram: TOML
//   [measurement]
//   interval = 1.0        # seconds per time-series interval
//   hdrhistogram = true   # also HdrHistogram interval logs and percentile files
// or YCSB's timeseries.granularity and measurementtype=hdrhistogram.
struct Measurement {
  // Width of the latency-over-time intervals of every stream phase. Phases
  // shorter than 20 intervals get narrower ones (down to 1/64 of this) so
  // they still show 20, unless `interval_exact` (YCSB's granularity given).
  double interval_s = 1.0;
  bool interval_exact = false;
  // Keep each interval's histogram in results.json, from which `kvbench`
  // writes .hlog and .hgrm files (reports/hdr_histogram.h).
  bool hdrhistogram = false;
  // The memory for operations prepared ahead of the timed span, over all
  // client threads (runner/phase_worker.h: chunks). Unset: 1/16 of the
  // machine's memory, at most 1 GiB. 0: each operation is generated in the
  // timed loop, inside the wall span (the way before chunks, for comparison).
  std::optional<double> op_buffer_mib;
  // Forks (as JMH's): every engine's part of the run, all its phases and
  // repetitions, runs this many times, each time in a fresh process with an
  // empty data folder; the rows pool the forks' repetitions (each marked with
  // its fork), so their spread holds the differences between processes
  // (memory placement, the CPU a process lands on) that repetitions within
  // one process cannot show.
  int forks = 1;
  // Warm-up repetitions (as JMH's warm-up iterations): before a matrix
  // point's measured repetitions, this many of the same repetition run and
  // are discarded from its figures (results.json keeps them apart, as
  // PhaseRun::warmup_repetitions). Only where a repetition leaves nothing
  // later ones see (runner::WarmsUp: read-only phases, and phases that start
  // every repetition from an empty database); never in YCSB property files,
  // whose figures YCSB measures from the first operation.
  int warmup_repetitions = 1;
};

// YCSB's output settings, from a property file's properties.
struct YcsbOutput {
  std::vector<double> percentiles = {50, 95, 99};  // hdrhistogram.percentiles
  bool timeseries = false;     // measurementtype=timeseries: per-interval mean lines
  std::string hdr_path;        // hdrhistogram.output.path: prefix of the .hlog/.hgrm files
  std::string export_file;     // exportfile: the summary goes there, not to stdout
  bool status = false;         // status (-s): status lines on stderr while phases run
  double status_interval_s = 10;  // status.interval
  std::string label;           // label (-l): prefixed to status lines
};

struct Workload {
  std::string name;
  std::string description;
  std::string file;
  std::string source;
  std::vector<std::string> engines;  // empty: all that store data
  // Plugins whose engines the workload names (`plugins = [...]`): paths
  // (relative to the workload file's folder) or names looked up in
  // KVBENCH_PLUGIN_PATH; loaded by the plan (adapters/plugin/plugin_loader.h).
  std::vector<std::string> plugins;
  double timeout_s = 1800;
  // Repetitions of a phase that does not say (top-level `repetitions`): 5 so
  // that every figure has an interval; a workload of long phases may say less.
  int default_repetitions = 5;
  std::string dataset_kind = "urls";
  std::map<std::string, std::string> dataset_params;  // includes count and seed
  uint64_t dataset_count = 0;
  uint64_t seed = 42;
  std::map<std::string, std::string> value_params;
  std::map<std::string, std::map<std::string, std::string>> engine_options;
  std::vector<PhaseSpec> phases;
  // Where top-level fields start ("engines", "dataset", "options.sqlite",
  // "options.sqlite.sqlite.cache_size"), for messages about their values.
  std::map<std::string, int> field_lines;
  // YCSB property files: the properties as resolved (file, then -p overrides;
  // defaults included) and the ones kvbench does not use.
  std::map<std::string, std::string> ycsb_properties;
  // YCSB properties kvbench accepts and documents as ignored (docs/ycsb.md).
  std::vector<std::string> ycsb_ignored;
  YcsbOutput ycsb_output;
  // An engine's directory named by a YCSB-cpp database property
  // (lmdb.dbpath, rocksdb.dbname...): engine -> directory.
  std::map<std::string, std::string> ycsb_dirs;
  Measurement measurement;
  // The engine's directory already holds keys [0, preloaded) from an earlier
  // run (`kvbench ycsb run` after `kvbench ycsb load`); the phases start from
  // them instead of from an empty database.
  uint64_t preloaded = 0;
  // Where a field's value came from when not this file ("options.lmdb.lmdb.mapsize"
  // -> "lmdb.properties:3"), for messages about it.
  std::map<std::string, std::string> field_origins;

  // "FILE:LINE: " for a recorded field (its origin when it has one), "FILE: "
  // otherwise.
  std::string Where(const std::string& field) const;
};

// Reads and checks a workload file. Errors are InvalidArgument with one
// message "FILE:LINE:COL: field 'phase[2].count': must be >= 1" (or IOError
// for an unreadable file). The file must be a regular file of at most
// kMaxWorkloadFileBytes (common/input_file.h). Every number is finite and
// within the bounds above; names hold no control characters and phase names
// are unique.
Status LoadWorkloadFile(const std::string& path, Workload* out);
Status ParseWorkload(const std::string& text, const std::string& path, Workload* out);

// Multiplies the dataset size and every phase's count and warm-up by `scale`
// (rounded, at least 1 where it was at least 1).
void ScaleWorkload(double scale, Workload* workload);

}  // namespace kvbench::runner
