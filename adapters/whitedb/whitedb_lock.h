// How a whitedb Session holds WhiteDB's database lock (wg_start_read /
// wg_start_write: one shared/exclusive lock for the whole database; Debian
// builds it as the task-fair queued lock, about 43 ns a pair uncontended on
// the machine this was written on).
//
// WhiteDB's speed tests took no locks (one process, one thread). The adapter
// cannot know that a phase has one thread (sessions may be created while
// others run), so outside a batch every call takes the lock for its own
// duration: the read lock for reads, the write lock for writes; sessions on
// many threads read in parallel and writers take turns. BeginBatch takes the
// write lock once and CommitBatch releases it, so the calls of a batch take
// no lock, which is how the seed workloads (batches of 100,000, reads in one
// batch) run at the speed of the seed's lock-free loops.
//
// WhiteDB's lock is not re-entrant: a thread must not use a second session
// while one of its sessions holds a batch (it would wait for itself).
#pragma once

#include <whitedb/dbapi.h>

#include "adapters/support/batch_state.h"
#include "common/status.h"

namespace kvbench {

// One session's batch state. Not thread-safe (neither is a Session).
class WhitedbSessionLock {
 public:
  explicit WhitedbSessionLock(void* db) : db_(db) {}
  // A session destroyed inside a batch releases the lock (the batch's writes
  // stay: WhiteDB has no undo).
  ~WhitedbSessionLock() {
    if (batch_lock_ != 0) wg_end_write(db_, batch_lock_);
  }
  WhitedbSessionLock(const WhitedbSessionLock&) = delete;
  WhitedbSessionLock& operator=(const WhitedbSessionLock&) = delete;

  // Takes the write lock. InvalidArgument (BatchState's words) when a batch
  // is open already, Busy when WhiteDB cannot give the lock.
  Status BeginBatch() {
    return batch_.Begin([&] {
      batch_lock_ = wg_start_write(db_);
      return batch_lock_ != 0 ? Status::OK() : Status::Busy("whitedb: wg_start_write failed");
    });
  }
  // Releases the write lock. InvalidArgument (BatchState's words) when no
  // batch is open.
  Status EndBatch() {
    return batch_.Commit([&] {
      const wg_int lock = batch_lock_;
      batch_lock_ = 0;
      return wg_end_write(db_, lock) != 0 ? Status::OK()
                                          : Status::Internal("whitedb: wg_end_write failed");
    });
  }

  bool in_batch() const { return batch_lock_ != 0; }
  void* db() const { return db_; }

 private:
  void* const db_;
  BatchState batch_;
  wg_int batch_lock_ = 0;  // WhiteDB's lock id; 0 when no batch is open
};

// Holds the lock for one call, unless the session's batch holds it already.
// Check ok() before touching the database; status() says why not.
class WhitedbCallLock {
 public:
  enum Mode { kRead, kWrite };

  WhitedbCallLock(const WhitedbSessionLock& session, Mode mode)
      : db_(session.in_batch() ? nullptr : session.db()), mode_(mode) {
    if (db_ == nullptr) return;
    lock_ = mode == kWrite ? wg_start_write(db_) : wg_start_read(db_);
    if (lock_ == 0) db_ = nullptr;
    failed_ = lock_ == 0;
  }
  ~WhitedbCallLock() {
    if (db_ == nullptr) return;
    if (mode_ == kWrite) {
      wg_end_write(db_, lock_);
    } else {
      wg_end_read(db_, lock_);
    }
  }
  WhitedbCallLock(const WhitedbCallLock&) = delete;
  WhitedbCallLock& operator=(const WhitedbCallLock&) = delete;

  bool ok() const { return !failed_; }
  Status status() const {
    return Status::Busy(mode_ == kWrite ? "whitedb: wg_start_write failed"
                                        : "whitedb: wg_start_read failed");
  }

 private:
  void* db_;  // null: nothing to release
  Mode mode_;
  wg_int lock_ = 0;
  bool failed_ = false;
};

}  // namespace kvbench
