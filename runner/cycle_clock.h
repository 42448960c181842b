// CycleClock: the runner's clock for timing single operations.
//
// Reads the CPU's invariant time-stamp counter (a few ns) and converts ticks
// to nanoseconds with a factor calibrated once against CLOCK_MONOTONIC, so two
// reads around a 1 us operation cost a few percent of it instead of the
// ~20-40 ns two clock_gettime calls cost. On CPUs without an invariant TSC (or
// other architectures) it falls back to std::chrono::steady_clock.
//
// Calibration: once per process, on first use; kvbench's parent process
// calibrates before it forks the engines' children (which inherit it), so
// every engine of a run is timed with the same factor. Each end of the
// ~20 ms window reads the TSC between two steady-clock reads, and a pair
// whose bracket is wide (a preemption or an interrupt between the reads) is
// read again, so a busy machine cannot skew the factor unseen; what is left
// of the uncertainty is reported (calibration_error_ppm, in results.json).
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define KVBENCH_HAVE_TSC 1
#endif

namespace kvbench::runner {

class CycleClock {
 public:
  // Calibrates (about 20 ms) on first use; thread-safe.
  static const CycleClock& Get();

  // Raw ticks; only differences between two reads mean anything.
  uint64_t Now() const {
#ifdef KVBENCH_HAVE_TSC
    if (use_tsc_) return __rdtsc();
#endif
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
  }
  // The end of a timed span: the counter read once every earlier
  // instruction has completed (`rdtscp`), as the ordered read behind
  // clock_gettime does, so loads still in flight when an engine's call
  // returns fall inside the call's time. A plain `rdtsc` can execute before
  // them: on stdmap gets (1.4 us, ending with a copy from a cold node) it
  // moved 120-140 ns a get out of the call and into "kvbench's own work"
  // (harness share 12-17% against 3% read this way). About 15 ns dearer
  // than Now() on a 2-core EPYC VM (bench/runner_bench,
  // BM_ClockPairAndHistogramRecord). Starts stay Now(): what runs before a
  // start is kvbench's own, cheap and out of the way of the call.
  uint64_t NowAfterPriorWork() const {
#ifdef KVBENCH_HAVE_TSC
    if (use_tsc_) {
      unsigned aux;
      return __rdtscp(&aux);
    }
#endif
    return Now();
  }
  // Ticks to nanoseconds (rounded down).
  uint64_t ToNs(uint64_t ticks) const {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(ticks) * ns_per_tick_q32_) >> 32);
  }
  uint64_t FromNs(uint64_t ns) const {
    return static_cast<uint64_t>(static_cast<double>(ns) / ns_per_tick_);
  }
  double ns_per_tick() const { return ns_per_tick_; }
  bool uses_tsc() const { return use_tsc_; }
  // The calibration's worst-case relative error, in parts per million: the
  // two brackets' half-widths over the window (0 without a TSC).
  double calibration_error_ppm() const { return error_ppm_; }

 private:
  CycleClock();
  bool use_tsc_ = false;
  double ns_per_tick_ = 1.0;
  uint64_t ns_per_tick_q32_ = uint64_t{1} << 32;  // fixed point 32.32
  double error_ppm_ = 0;
};

}  // namespace kvbench::runner
