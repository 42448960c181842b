#include "runner/chunk_barrier.h"

#include <gtest/gtest.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace kvbench::runner {
namespace {

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Every generation: `between` runs once, after every thread has arrived;
// `start` runs once, after `between`; no thread leaves before `start` ran.
// Some threads sleep before arriving, so waiters take both ways (yielding and
// sleeping in the futex).
TEST(ChunkBarrier, BetweenAndStartRunOncePerGenerationWithEveryoneWaiting) {
  constexpr int kThreads = 6;
  constexpr int kGenerations = 400;
  ChunkBarrier barrier(kThreads);
  std::atomic<int> arrived_total{0};
  int betweens = 0, starts = 0;
  std::atomic<int> bad_between{0}, bad_start{0}, left_early{0};
  const auto client = [&](int t) {
    for (int g = 0; g < kGenerations; ++g) {
      if ((g + t) % 50 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300 + 100 * t));
      arrived_total.fetch_add(1);
      barrier.ArriveAndWait(
          [&] {
            if (arrived_total.load() != kThreads * (g + 1) || betweens != g) bad_between.fetch_add(1);
            ++betweens;
          },
          [&] {
            if (betweens != g + 1 || starts != g) bad_start.fetch_add(1);
            ++starts;
          });
      if (starts != g + 1) left_early.fetch_add(1);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) pool.emplace_back(client, t);
  for (auto& th : pool) th.join();
  EXPECT_EQ(betweens, kGenerations);
  EXPECT_EQ(starts, kGenerations);
  EXPECT_EQ(bad_between.load(), 0);
  EXPECT_EQ(bad_start.load(), 0);
  EXPECT_EQ(left_early.load(), 0);
}

// Threads that wait long sleep instead of yielding: while one thread takes
// 400 ms to arrive, four waiting threads use almost no CPU time. Yielding
// for the whole wait (the barrier before) took 0.80 s of CPU in those 0.4 s
// on two idle cores; now a waiter costs kYieldNs plus the futex calls.
// Other processes can only lower the waiters' CPU time, so a busy machine
// cannot fail this.
TEST(ChunkBarrier, LongWaitsSleep) {
  constexpr int kThreads = 5;
  ChunkBarrier barrier(kThreads);
  std::atomic<int> waiting{0};
  const auto waiter = [&] {
    waiting.fetch_add(1);
    barrier.ArriveAndWait([] {}, [] {});
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads - 1; ++t) pool.emplace_back(waiter);
  while (waiting.load() < kThreads - 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // Past the waiters' yielding (they are in ArriveAndWait or about to be).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double cpu_before = ProcessCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const double cpu_during = ProcessCpuSeconds() - cpu_before;
  barrier.ArriveAndWait([] {}, [] {});
  for (auto& th : pool) th.join();
  EXPECT_LT(cpu_during, 0.04) << "waiting threads used " << cpu_during << " s of CPU in 0.4 s";
}

}  // namespace
}  // namespace kvbench::runner
