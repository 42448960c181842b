// Prints how often FindChangePoints finds a known step and how often it
// reports a change in a flat series (tests/support/change_point_acceptance.h), for
// the series lengths, steps and noise given. bench/change_point_rates.sh runs
// it with the acceptance: 1,000 series, a 10% step in 3% noise.
//
// Usage: change_point_rates [SERIES] [LENGTH] [STEP] [NOISE] [SEED]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "tests/support/change_point_acceptance.h"

int main(int argc, char** argv) {
  using namespace kvbench::results;
  const int series = argc > 1 ? std::atoi(argv[1]) : 1000;
  SyntheticSeriesSpec spec;
  if (argc > 2) spec.length = std::atoi(argv[2]);
  if (argc > 3) spec.step = std::atof(argv[3]);
  if (argc > 4) spec.noise = std::atof(argv[4]);
  if (argc > 5) spec.seed = std::strtoull(argv[5], nullptr, 10);
  const ChangePointOptions options;
  const auto start = std::chrono::steady_clock::now();
  const AcceptanceRates r = MeasureAcceptance(series, spec, /*tolerance=*/2, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "series: %d step + %d flat, %d points each, step %.0f%% at a uniform index in [%d, %d], "
      "noise %.1f%% (Gaussian), seed %llu\n",
      series, series, spec.length, spec.step * 100, spec.length / 5, spec.length - spec.length / 5,
      spec.noise * 100, static_cast<unsigned long long>(spec.seed));
  std::printf("detector: E-divisive with means, %d permutations, p <= %g, min segment %d\n",
              options.permutations, options.max_p_value, options.min_segment);
  std::printf("step found within 2 points: %d of %d (%.1f%%)\n", r.steps_found, series,
              100 * r.found_rate());
  std::printf("step series with a further change elsewhere: %d of %d (%.1f%%)\n",
              r.steps_with_extra, series, 100.0 * r.steps_with_extra / series);
  std::printf("flat series with a change: %d of %d (%.1f%%)\n", r.flat_with_change, series,
              100 * r.false_rate());
  std::printf("time: %.2f s for %d series\n", seconds, 2 * series);
  const bool pass = r.found_rate() >= 0.95 && r.false_rate() <= 0.05;
  std::printf("acceptance (found >= 95%%, false <= 5%%): %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
