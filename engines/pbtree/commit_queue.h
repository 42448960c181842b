// Group commit. With Options::sync == kCommit a commit waits for one
// fdatasync (~100 us or more), and while it waits no other thread can write.
// So DB::Put and DB::Delete calls made on several threads at once queue here:
// the first in line (the leader) takes every write queued behind it, up to
// kMaxGroupBytes of keys and values, commits them as one transaction (one log
// record, one fdatasync), and hands each caller its own status. A caller
// returns only once the commit holding its write is durable; the writes of a
// group are applied in the order they queued. LevelDB's DBImpl::Write queue
// works the same way.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "engines/pbtree/status.h"

namespace pbtree {

// One caller's write, on its stack while it waits.
struct QueuedWrite {
  QueuedWrite(Slice k, Slice v, bool del) : key(k), value(v), is_delete(del) {}
  const Slice key;
  const Slice value;
  const bool is_delete;
  Status status;  // set by the leader that committed it
  bool done = false;
  std::condition_variable wake;
};

class CommitQueue {
 public:
  static constexpr size_t kMaxGroupBytes = 1 << 20;

  // Queues `w` and waits until another thread committed it or it is first
  // in line; then `commit(writes, n)` commits the group that starts with it
  // and sets every write's status. Returns w's status.
  template <class CommitGroup>
  Status Submit(QueuedWrite* w, CommitGroup&& commit);

  // Writes queued (the leader's among them) and not yet committed.
  size_t queued() const;
  // Commits that held more than one caller's write, and those writes.
  uint64_t groups() const;
  uint64_t grouped_writes() const;

 private:
  // The group of the first `n` queued writes, up to kMaxGroupBytes (at least one).
  size_t GroupSize() const;
  // Pops the group's `n` writes, wakes their callers and the next leader.
  void Finish(QueuedWrite* leader, size_t n);

  mutable std::mutex mu_;
  std::deque<QueuedWrite*> queue_;   // under mu_; front() is the leader
  std::vector<QueuedWrite*> group_;  // the leader's, used without mu_
  uint64_t groups_ = 0;              // under mu_
  uint64_t grouped_writes_ = 0;      // under mu_
};

template <class CommitGroup>
Status CommitQueue::Submit(QueuedWrite* w, CommitGroup&& commit) {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(w);
  w->wake.wait(lock, [&] { return w->done || queue_.front() == w; });
  if (w->done) return w->status;
  // Only the leader pops, and only pushes happen meanwhile: the group stays
  // the queue's first writes while the lock is released.
  const size_t n = GroupSize();
  group_.assign(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  lock.unlock();
  commit(static_cast<QueuedWrite* const*>(group_.data()), n);
  lock.lock();
  Finish(w, n);
  return w->status;
}

}  // namespace pbtree
