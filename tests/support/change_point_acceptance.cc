#include "tests/support/change_point_acceptance.h"

#include <cmath>
#include <cstdlib>
#include <random>

namespace kvbench::results {

namespace {

double Uniform01(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;  // (0, 1)
}

double StandardNormal(std::mt19937_64& rng) {
  const double u = Uniform01(rng), v = Uniform01(rng);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

}  // namespace

std::vector<double> MakeSyntheticSeries(const SyntheticSeriesSpec& spec, bool with_step,
                                        uint64_t index, size_t* step_at) {
  std::mt19937_64 rng(spec.seed * 1000003 + index * 2 + (with_step ? 1 : 0));
  const int margin = spec.length / 5;
  *step_at = 0;
  if (with_step) {
    *step_at = static_cast<size_t>(margin) +
               static_cast<size_t>(rng() % static_cast<uint64_t>(spec.length - 2 * margin + 1));
  }
  std::vector<double> series(static_cast<size_t>(spec.length));
  for (size_t i = 0; i < series.size(); ++i) {
    const double level = with_step && i >= *step_at ? 1000 * (1 - spec.step) : 1000;
    series[i] = level * (1 + spec.noise * StandardNormal(rng));
  }
  return series;
}

AcceptanceRates MeasureAcceptance(int count, const SyntheticSeriesSpec& spec, int tolerance,
                                  const ChangePointOptions& options) {
  AcceptanceRates rates;
  rates.series = count;
  for (int i = 0; i < count; ++i) {
    size_t step_at = 0;
    const std::vector<double> stepped = MakeSyntheticSeries(spec, true, i, &step_at);
    bool found = false, extra = false;
    for (const ChangePoint& cp : FindChangePoints(stepped, options)) {
      const long distance = std::labs(static_cast<long>(cp.index) - static_cast<long>(step_at));
      (distance <= tolerance ? found : extra) = true;
    }
    rates.steps_found += found;
    rates.steps_with_extra += extra;
    const std::vector<double> flat = MakeSyntheticSeries(spec, false, i, &step_at);
    rates.flat_with_change += !FindChangePoints(flat, options).empty();
  }
  return rates;
}

}  // namespace kvbench::results
