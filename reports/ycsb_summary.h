// YCSB 0.17's text output (its TextMeasurementsExporter), for `kvbench ycsb`
// and `kvbench run --ycsb-output`, so scripts that parse YCSB's output read
// kvbench's. One YCSB run is one repetition of one phase run:
//
//   [OVERALL], RunTime(ms), 1520
//   [OVERALL], Throughput(ops/sec), 65789.47368421052
//   [READ], Operations, 95012
//   [READ], AverageLatency(us), 12.5
//   [READ], MinLatency(us), 3
//   [READ], MaxLatency(us), 1890
//   [READ], 50thPercentileLatency(us), 11
//   [READ], 95thPercentileLatency(us), 21
//   [READ], 99thPercentileLatency(us), 40
//   [READ], Return=OK, 95005
//   [READ], Return=NOT_FOUND, 7      (NOT_FOUND and ERROR only when non-zero)
//   ...                              (every operation type, in results order)
//   [CLEANUP], Operations, 4         (closing each client's session, one per thread)
//   ...
//
// Operation names are the results' (YCSB phases: READ, UPDATE, INSERT,
// SCAN, READ-MODIFY-WRITE, whose read and update parts also count under
// READ and UPDATE; other phases upper-cased: GET, INSERT...). Every line is
// "[METRIC], MEASUREMENT, VALUE" with the value as YCSB's Java prints it:
// counts, RunTime and the Min/Max/percentile latencies as longs (µs rounded
// to the nearest), throughput and averages as Java doubles ("2000.0").
// The percentiles are hdrhistogram.percentiles' (default here 50, 95, 99;
// YCSB's default omits 50), named as YCSB names them ("50th", "99.9").
// With measurementtype=timeseries, each operation's block ends with one line
// per interval, "[READ], START_MS, MEAN_US", as YCSB's time series prints it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/results.h"

namespace kvbench::reports {

struct YcsbTextOptions {
  std::vector<double> percentiles = {50, 95, 99};
  bool timeseries = false;
};

// One YCSB run: one repetition of a phase run.
std::string RenderYcsbRun(const results::Repetition& rep, const YcsbTextOptions& options = {});

// Every run of `engine` in `results`, in run order, each block after
// "[KVBENCH], Engine, NAME" and "[KVBENCH], Phase, NAME" lines (and
// "[KVBENCH], Point, ..." / "[KVBENCH], Repetition, N" where a phase has
// several), so one stream of several runs stays splittable; a phase that did
// not run gives "[KVBENCH], Status, unsupported: REASON" instead.
std::string RenderYcsbSummary(const results::RunResults& results, const std::string& engine,
                              const YcsbTextOptions& options = {});

// One file per YCSB run, for `--ycsb-output DIR`: (file name, text). Names are
// "ENGINE-PHASE[-tTHREADS][-targetRATE][-cold|-hot][-repN].txt", the point
// and repetition parts only where the phase has several.
std::vector<std::pair<std::string, std::string>> YcsbRunFiles(const results::RunResults& results,
                                                              const YcsbTextOptions& options = {});

// Names a file after a run: letters, digits, '.', '_' and '-' kept, any
// other character '_' ("ENGINE-PHASE[-tN][-targetR][-cache][-repN]").
std::string RunFileStem(const results::RunResults& results, const results::PhaseRun& run,
                        size_t repetition);

}  // namespace kvbench::reports
