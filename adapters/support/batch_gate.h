// BatchGate: keeps every other session of an engine out while one session's batch is open, for
// engines whose transaction belongs to the database handle rather than to a thread or a session
// (Tokyo Cabinet, QDBM's Villa, Kyoto Cabinet...).
//
// Why it exists: on such an engine every operation issued while the transaction is open, from
// any thread, joins it: another session's autocommit write would be rolled back by this
// session's abort, and its reads would see uncommitted data. So an ordinary operation passes the
// gate in shared mode (many at once), and a batch holds it exclusively from BeginBatch to
// CommitBatch/AbortBatch.
//
// Unlike std::shared_mutex, the exclusive side may be released by a different thread than the
// one that took it: a session may move between threads between calls, and a batch spans calls.
// Uncontended, each side costs one atomic read-modify-write to enter and one to leave.
// Thread-safe. Used by adapters/tokyocabinet and the template (adapters/template).
#pragma once

#include <atomic>
#include <cstdint>

namespace kvbench {

class BatchGate {
 public:
  // Blocks while a batch holds the gate.
  void EnterShared() {
    uint32_t state = state_.load(std::memory_order_relaxed);
    for (;;) {
      if (state & kBatchOpen) {
        state_.wait(state, std::memory_order_relaxed);
        state = state_.load(std::memory_order_relaxed);
      } else if (state_.compare_exchange_weak(state, state + 1, std::memory_order_acquire,
                                              std::memory_order_relaxed)) {
        return;
      }
    }
  }

  void ExitShared() {
    // The last operation to leave wakes a batch waiting for the database to drain.
    if (state_.fetch_sub(1, std::memory_order_release) == kBatchOpen + 1) state_.notify_all();
  }

  // Blocks while another batch holds the gate, then until every shared user has left.
  void EnterExclusive() {
    uint32_t state = state_.load(std::memory_order_relaxed);
    for (;;) {
      if (state & kBatchOpen) {
        state_.wait(state, std::memory_order_relaxed);
        state = state_.load(std::memory_order_relaxed);
      } else if (state_.compare_exchange_weak(state, state | kBatchOpen, std::memory_order_acquire,
                                              std::memory_order_relaxed)) {
        break;
      }
    }
    // New shared users are held off by the flag; wait for those already inside.
    while ((state = state_.load(std::memory_order_acquire)) != kBatchOpen) state_.wait(state);
  }

  void ExitExclusive() {
    state_.fetch_and(~kBatchOpen, std::memory_order_release);
    state_.notify_all();
  }

  // One operation's pass through the gate: shared, except for the session whose batch holds
  // the gate (it is the one allowed in, and entering shared would wait for itself).
  class Use {
   public:
    Use(BatchGate* gate, bool holds_batch) : gate_(holds_batch ? nullptr : gate) {
      if (gate_ != nullptr) gate_->EnterShared();
    }
    ~Use() {
      if (gate_ != nullptr) gate_->ExitShared();
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    BatchGate* gate_;
  };

 private:
  static constexpr uint32_t kBatchOpen = 1u << 31;
  // kBatchOpen | number of shared users inside.
  std::atomic<uint32_t> state_{0};
};

}  // namespace kvbench
