#include "runner/cpu_probe.h"

#include <time.h>

#include <cstdint>

namespace kvbench::runner {

namespace {

double ThreadCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

}  // namespace

double CpuProbeMicros() {
  constexpr int kRounds = 2'000'000;
  uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
  const double start = ThreadCpuMicros();
  for (int i = 0; i < kRounds; ++i) {
    a += static_cast<uint64_t>(i);
    b ^= a;
    c += b >> 1;
    d ^= static_cast<uint64_t>(i);
    e += d;
    f ^= e >> 2;
    g += f;
    h ^= g;
    // Keeps the chains in registers and the loop as written: the compiler
    // may neither vectorise it nor fold it into a closed form.
    asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
  }
  const double end = ThreadCpuMicros();
  asm volatile("" : : "r"(a + b + c + d + e + f + g + h));
  return end - start;
}

}  // namespace kvbench::runner
