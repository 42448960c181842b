// The history trend page (`kvbench history trend -o FILE.html`): one
// self-contained HTML file (the report's style sheet, inline SVG, no script,
// nothing fetched) with one chart per series, each point a run's median with
// its confidence interval, change points marked on the chart and listed with
// the revisions on both sides, the ratio and its p-value.
#pragma once

#include <string>
#include <vector>

#include "results/change_points.h"
#include "results/trend.h"

namespace kvbench::reports {

struct TrendPageInput {
  std::string store;    // the store, as HistoryStore::description()
  std::string filters;  // what was asked for, for people: "engine lmdb, figure ops_per_sec"
  std::vector<results::Series> series;
  results::ChangePointOptions options;  // as used to find the changes
};

std::string RenderTrendPage(const TrendPageInput& input);

}  // namespace kvbench::reports
