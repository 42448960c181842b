// YCSB-style summary lines (`kvbench run --ycsb-output`), for scripts that
// parse YCSB's output:
//
//   [OVERALL], RunTime(ms), 1520
//   [OVERALL], Throughput(ops/sec), 65789.47368421052
//   [READ], Operations, 95012
//   [READ], AverageLatency(us), 12.5
//   [READ], MinLatency(us), 3
//   [READ], MaxLatency(us), 1890
//   [READ], 95thPercentileLatency(us), 21
//   [READ], 99thPercentileLatency(us), 40
//   [READ], Return=OK, 95012
//   [READ], Return=NOT_FOUND, 7      (only when non-zero; also Return=ERROR)
//
// One block per phase run (YCSB's load run prints [INSERT], its transaction
// run [READ], [UPDATE]...), each preceded by `[KVBENCH], Engine, NAME` and
// `[KVBENCH], Phase, NAME` lines so several blocks stay apart; a phase that
// did not run prints `[KVBENCH], Status, unsupported: REASON` instead of
// figures. Operation names are the results' (YCSB phases use YCSB's names;
// others are upper-cased: GET, INSERT...). Latencies are microseconds,
// rounded to the nearest; the average keeps its fraction, as YCSB prints it.
#pragma once

#include <string>

#include "results/results.h"

namespace kvbench::reports {

// The lines for every phase run of `engine` in `results`, in run order.
std::string RenderYcsbSummary(const results::RunResults& results, const std::string& engine);

}  // namespace kvbench::reports
