// CycleClock: the runner's clock for timing single operations.
//
// Reads the CPU's invariant time-stamp counter (a few ns) and converts ticks
// to nanoseconds with a factor calibrated once against CLOCK_MONOTONIC, so two
// reads around a 1 us operation cost a few percent of it instead of the
// ~20-40 ns two clock_gettime calls cost. On CPUs without an invariant TSC (or
// other architectures) it falls back to std::chrono::steady_clock.
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
  // Ticks to nanoseconds (rounded down).
  uint64_t ToNs(uint64_t ticks) const {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(ticks) * ns_per_tick_q32_) >> 32);
  }
  uint64_t FromNs(uint64_t ns) const {
    return static_cast<uint64_t>(static_cast<double>(ns) / ns_per_tick_);
  }
  double ns_per_tick() const { return ns_per_tick_; }
  bool uses_tsc() const { return use_tsc_; }

 private:
  CycleClock();
  bool use_tsc_ = false;
  double ns_per_tick_ = 1.0;
  uint64_t ns_per_tick_q32_ = uint64_t{1} << 32;  // fixed point 32.32
};

}  // namespace kvbench::runner
