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
  // Calibrate over ~20 ms; the error of two clock reads (~50 ns) is ~3 ppm.
  using Steady = std::chrono::steady_clock;
  const auto t0 = Steady::now();
  const uint64_t c0 = Now();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto t1 = Steady::now();
  const uint64_t c1 = Now();
  const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
  if (c1 <= c0 || ns <= 0) {
    use_tsc_ = false;
    return;
  }
  ns_per_tick_ = ns / static_cast<double>(c1 - c0);
  ns_per_tick_q32_ = static_cast<uint64_t>(ns_per_tick_ * 4294967296.0);
}

}  // namespace kvbench::runner
