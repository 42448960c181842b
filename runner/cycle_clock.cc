#include "runner/cycle_clock.h"

#include <fstream>
#include <string>
#include <thread>

namespace kvbench::runner {

namespace {

bool CpuHasInvariantTsc() {
#ifdef KVBENCH_HAVE_TSC
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) == 0) {
      return line.find(" constant_tsc") != std::string::npos &&
             line.find(" nonstop_tsc") != std::string::npos;
    }
  }
#endif
  return false;
}

}  // namespace

const CycleClock& CycleClock::Get() {
  static const CycleClock clock;
  return clock;
}

CycleClock::CycleClock() {
  use_tsc_ = CpuHasInvariantTsc();
  if (!use_tsc_) return;
  using Steady = std::chrono::steady_clock;
  // One end of the window: a TSC read between two steady-clock reads. The
  // narrowest of up to 50 tries is kept (the first within 2 us ends it): a
  // preemption between the reads widens the bracket and is read again.
  struct End {
    double mid_ns = 0;    // steady clock, the bracket's middle
    double half_ns = 0;   // half its width
    uint64_t tsc = 0;
  };
  const auto read_end = [this] {
    End best;
    best.half_ns = 1e18;
    for (int i = 0; i < 50; ++i) {
      const auto a = Steady::now();
      const uint64_t c = Now();
      const auto b = Steady::now();
      const double a_ns = std::chrono::duration<double, std::nano>(a.time_since_epoch()).count();
      const double b_ns = std::chrono::duration<double, std::nano>(b.time_since_epoch()).count();
      const double half = (b_ns - a_ns) / 2;
      if (half < best.half_ns) best = {(a_ns + b_ns) / 2, half, c};
      if (best.half_ns <= 1000) break;
    }
    return best;
  };
  const End start = read_end();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const End end = read_end();
  const double ns = end.mid_ns - start.mid_ns;
  if (end.tsc <= start.tsc || ns <= 0) {
    use_tsc_ = false;
    return;
  }
  ns_per_tick_ = ns / static_cast<double>(end.tsc - start.tsc);
  ns_per_tick_q32_ = static_cast<uint64_t>(ns_per_tick_ * 4294967296.0);
  error_ppm_ = (start.half_ns + end.half_ns) / ns * 1e6;
}

}  // namespace kvbench::runner
