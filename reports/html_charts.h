// Which charts report.html shows, and their data, chosen from the results:
//   throughput             ops/s per phase per engine (grouped bars)
//   file-size              apparent and allocated size after phases that changed it
//   cold-hot               phases run with a cold and a hot cache, side by side
//   latency                p50/p90/p99/p99.9 per engine, per phase (unthrottled points)
//   latency-vs-throughput  p99 vs achieved ops/s, one line per engine (target-rate sweeps)
//   throughput-vs-threads  ops/s vs threads, one line per engine (thread sweeps)
//   throughput-over-time   ops/s per interval of a phase, one line per engine
//   p99-over-time          p99 per interval of a phase, one line per engine
// A chart with nothing measured to show is left out. Engine colours are the
// same in every chart: the palette colour of the engine's EngineOrder index.
#pragma once

#include <string>
#include <vector>

#include "results/results.h"
#include "reports/report_model.h"

namespace kvbench::reports {

struct ChartFigure {
  std::string kind;     // one of the names above; the figure's class is "chart chart-<kind>"
  std::string caption;  // plain text
  std::string svg;      // the <svg> element
};

// Charts about the whole run: throughput, file size, cold vs hot.
std::vector<ChartFigure> RunCharts(const std::vector<PhaseView>& phases,
                                   const std::vector<std::string>& engines);
// Charts of one phase: latency, latency vs throughput, throughput vs
// threads, throughput and p99 over time.
std::vector<ChartFigure> PhaseCharts(const PhaseView& phase,
                                     const std::vector<std::string>& engines);

}  // namespace kvbench::reports
