// Group commit's queue; see commit_queue.h.
#include "engines/pbtree/commit_queue.h"

namespace pbtree {

size_t CommitQueue::GroupSize() const {
  size_t n = 0, bytes = 0;
  for (const QueuedWrite* q : queue_) {
    const size_t b = q->key.size() + q->value.size();
    if (n > 0 && bytes + b > kMaxGroupBytes) break;
    bytes += b;
    ++n;
  }
  return n;
}

void CommitQueue::Finish(QueuedWrite* leader, size_t n) {
  if (n > 1) {
    ++groups_;
    grouped_writes_ += n;
  }
  for (size_t i = 0; i < n; ++i) {
    QueuedWrite* q = queue_.front();
    queue_.pop_front();
    if (q == leader) continue;
    // Its caller cannot return before this lock is released.
    q->done = true;
    q->wake.notify_one();
  }
  if (!queue_.empty()) queue_.front()->wake.notify_one();
}

size_t CommitQueue::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

uint64_t CommitQueue::groups() const {
  std::lock_guard<std::mutex> lock(mu_);
  return groups_;
}

uint64_t CommitQueue::grouped_writes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return grouped_writes_;
}

}  // namespace pbtree
