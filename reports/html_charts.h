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
// same in every chart of a run: the palette colour of the engine's place in
// the run's engine list (EngineOrder), never its place among one chart's
// series, so an engine missing from one phase shifts no other's colour.
//
// A chart with more than kMaxEnginesPerChart engines is drawn as small
// multiples: one panel per engine family (EngineFamily), in kFamilies order,
// all sharing one value axis. Eight, because past about eight hues side by
// side a reader can no longer match a bar to its legend swatch at a glance
// (even with colours 20 Delta E apart), and a group of more than eight bars
// is too thin to hover: the quickstart's 19 engines made bars 3 px wide.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "results/results.h"
#include "reports/report_model.h"

namespace kvbench::reports {

struct ChartFigure {
  std::string kind;     // one of the names above; the figure's class is "chart chart-<kind>"
  std::string caption;  // plain text
  std::string svg;      // the <svg> element, or one <svg class="panel"> per family
};

inline constexpr size_t kMaxEnginesPerChart = 8;

// The families small multiples are split into, in panel order; "other" holds
// every engine the table in EngineFamily does not know (plugins, null).
inline constexpr const char* kFamilies[] = {"B-trees", "LSM trees", "hash tables",
                                            "in memory", "servers", "other"};

// The family of an engine, from its name ("sqlite@wal" is sqlite's). The
// capabilities a run records cannot tell a B-tree from an LSM tree (both
// ordered, durable, transactional), so a table of the built-in adapters
// decides; an engine it does not name is "other".
std::string_view EngineFamily(std::string_view engine);

// The engines of a run as every chart of it sees them: `order` fixes each
// engine's colour (its index there), `families` (parallel) its panel.
struct ChartEngines {
  std::vector<std::string> order;
  std::vector<std::string> families;
};
ChartEngines ChartEnginesOf(const results::RunResults& results);

// Charts about the whole run: throughput, file size, cold vs hot.
std::vector<ChartFigure> RunCharts(const std::vector<PhaseView>& phases,
                                   const ChartEngines& engines);
// Charts of one phase: latency, latency vs throughput, throughput vs
// threads, throughput and p99 over time.
std::vector<ChartFigure> PhaseCharts(const PhaseView& phase, const ChartEngines& engines);

}  // namespace kvbench::reports
