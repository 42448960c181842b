// How well FindChangePoints does on generated series with a known answer:
// the acceptance the history feature is held to (issue 19), measured by the
// test suite on a moderate number of series and by
// bench/change_point_rates.sh on 1,000.
//
// A step series has `length` points around 1000 with Gaussian noise of
// `noise` (relative standard deviation) and a relative step of `step` (a
// slowdown: the level drops) starting at an index drawn uniformly from
// [length / 5, length - length / 5]. A flat series has the same noise and no
// step. Noise comes from a Box-Muller transform over std::mt19937_64, so a
// seed gives the same series on every platform.
#pragma once

#include <cstdint>
#include <vector>

#include "results/change_points.h"

namespace kvbench::results {

struct SyntheticSeriesSpec {
  int length = 50;
  double noise = 0.03;
  double step = 0.10;
  uint64_t seed = 42;
};

struct AcceptanceRates {
  int series = 0;
  int steps_found = 0;       // step series with a change within `tolerance` points of the step
  int steps_with_extra = 0;  // step series with a change farther away as well
  int flat_with_change = 0;  // flat series with any change
  double found_rate() const { return series ? double(steps_found) / series : 0; }
  double false_rate() const { return series ? double(flat_with_change) / series : 0; }
};

// One generated series; `*step_at` is the step's first index (0 when flat).
std::vector<double> MakeSyntheticSeries(const SyntheticSeriesSpec& spec, bool with_step,
                                        uint64_t index, size_t* step_at);

// Runs `count` step series and `count` flat series through FindChangePoints.
AcceptanceRates MeasureAcceptance(int count, const SyntheticSeriesSpec& spec, int tolerance,
                                  const ChangePointOptions& options);

}  // namespace kvbench::results
