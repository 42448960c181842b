// A results file made ready for the history store: its run id, the two
// hashes that decide which series its figures join, and every figure with
// its repetitions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "results/results.h"

namespace kvbench::results {

struct StoredFigure {
  std::string engine;
  std::string phase;
  std::string phase_op;
  int threads = 1;
  double target_ops = 0;
  std::string cache;
  std::string op;              // operation type; "" for a per-phase-run figure
  std::string figure;          // a FigureKinds() name
  std::string time_base;       // kTimeBase... of history_model.h; "" for figures without one
  std::vector<double> values;  // one per repetition, in repetition order
  Spread spread;               // n, median, min, max, interval of `values`
};

struct RunRecord {
  std::string run_id;
  // "results": the id the run wrote; "content": derived from the file's
  // SHA-256 because the file has none (written before run ids existed).
  std::string run_id_source;
  std::string content_sha256;    // of the results file's bytes
  std::string source;            // the file it was read from
  std::string workload_hash;     // WorkloadHash()
  std::string host_fingerprint;  // HostFingerprint()
  RunResults header;             // the results without `runs` (those are `figures`)
  std::vector<StoredFigure> figures;
};

// 16 hex digits of the SHA-256 of the workload's text, scale and resolved
// dataset: runs with equal hashes ran the same experiment.
std::string WorkloadHash(const WorkloadInfo& workload);
// 16 hex digits of the SHA-256 of the host name, CPU model, core count and
// memory (in whole GiB, so a kernel that reserves a little more is the same
// host): runs with equal fingerprints ran on the same machine. Kernel,
// compiler and library versions are left out on purpose: they are what a
// trend is meant to show the effect of.
std::string HostFingerprint(const Environment& environment);

// Builds the record of `results`, whose file held `file_bytes` (read from
// `source`). Phase runs whose status is not "ok" contribute no figures.
// InvalidArgument when the results have no start time (nothing to order by).
Status MakeRunRecord(const RunResults& results, std::string_view file_bytes,
                     const std::string& source, RunRecord* out);

// Reads and parses a results file and builds its record; the file is only
// read. The messages are ReadResultsFile's.
Status ReadRunRecord(const std::string& path, RunRecord* out);

}  // namespace kvbench::results
