// Where a phase's client threads meet between chunks (phase_worker.h): the
// last to arrive runs `between` while every other thread waits, wakes them,
// runs `start` (where the next chunk's clock is read), and all go on.
//
// A waiting thread yields for a short while (kYieldNs), so a chunk that
// starts soon starts without a sleeper's wake-up in it, and then sleeps in
// a futex (std::atomic::wait). It used to yield for as long as it waited:
// with more clients than cores (seed 003's 100 threads on two) or beside
// other busy processes, the threads that had finished their chunk kept
// taking the cores from the ones still running theirs (seed 003's thread
// rows moved by up to 38x without it: docs/reproductions.md, "Client threads
// that wait").
//
// The sleepers are woken before `start`, so the wake-up call is not in the
// chunk's span; they then wait for `start` to finish (yielding: it is one
// clock read away).
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

#include "runner/cycle_clock.h"

namespace kvbench::runner {

class ChunkBarrier {
 public:
  // How long a waiting thread yields before it sleeps.
  static constexpr uint64_t kYieldNs = 200'000;

  explicit ChunkBarrier(int threads) : threads_(threads) {}
  ChunkBarrier(const ChunkBarrier&) = delete;
  ChunkBarrier& operator=(const ChunkBarrier&) = delete;

  template <typename Between, typename Start>
  void ArriveAndWait(Between between, Start start) {
    const uint32_t generation = released_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      between();
      arrived_.store(0, std::memory_order_relaxed);
      released_.store(generation + 1, std::memory_order_release);
      released_.notify_all();
      start();
      started_.store(generation + 1, std::memory_order_release);
      return;
    }
    YieldThenSleep(generation);
    while (started_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

 private:
  // Returns once released_ has moved past `generation`.
  void YieldThenSleep(uint32_t generation) {
    const CycleClock& clock = CycleClock::Get();
    const uint64_t give_up = clock.Now() + clock.FromNs(kYieldNs);
    while (released_.load(std::memory_order_acquire) == generation) {
      if (clock.Now() >= give_up) {
        released_.wait(generation, std::memory_order_acquire);
      } else {
        std::this_thread::yield();
      }
    }
  }

  const int threads_;
  std::atomic<int> arrived_{0};
  // Generations (counting modulo 2^32) whose `between` and `start` have
  // run; 32 bits so that the wait is a futex on the variable itself.
  std::atomic<uint32_t> released_{0};
  std::atomic<uint32_t> started_{0};
};

}  // namespace kvbench::runner
