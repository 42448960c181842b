// A trend page's input made up for tests: two hosts' series of one figure
// (so one is split), the first with a 12% slowdown after run 20 of 30.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "reports/trend_page.h"
#include "results/trend.h"

namespace kvbench::reports::test {

inline TrendPageInput MadeUpTrend() {
  std::vector<results::FigurePoint> points;
  for (int host = 0; host < 2; ++host) {
    for (int i = 0; i < 30; ++i) {
      results::FigurePoint p;
      p.workload_name = "quickstart";
      p.workload_hash = "0123456789abcdef";
      p.host_fingerprint = host == 0 ? "aaaaaaaaaaaaaaaa" : "bbbbbbbbbbbbbbbb";
      p.hostname = host == 0 ? "bench-<01>" : "bench-02";
      p.engine = "lmdb";
      p.phase = "get";
      p.phase_op = "get";
      p.op = "all";
      p.figure = "ops_per_sec";
      char stamp[32];
      std::snprintf(stamp, sizeof stamp, "2026-%02d-%02dT%02d:00:00Z", 10 + host, 1 + i / 24,
                    i % 24);
      p.started_at = stamp;
      p.run_id = "run" + std::to_string(host) + "-" + std::to_string(100 + i);
      p.kvbench_revision = "v0.1-" + std::to_string(i);
      p.library_version = i < 20 ? "LMDB 0.9.24" : "LMDB 0.9.31";
      p.kernel = "6.1.0";
      p.n = 5;
      const double level = host == 0 && i >= 20 ? 880000 : 1000000;
      p.median = level * (1 + 0.01 * ((i * 7) % 5 - 2));
      p.ci = results::Interval{p.median * 0.98, p.median * 1.02, 0.9375};
      points.push_back(p);
    }
  }
  TrendPageInput in;
  in.store = "sqlite:/tmp/history.db";
  in.filters = "figure ops_per_sec";
  in.series = results::BuildSeries(points, in.options);
  return in;
}

}  // namespace kvbench::reports::test
