// How a native Session holds the database's reader-writer lock (the LOCKING
// MODEL of engines/native/database.h: nativedb never locks by itself).
//
// Outside a batch every call takes the lock for its own duration: the read
// lock for reads, the write lock for writes, so sessions on many threads read
// in parallel and writers take turns. BeginBatch takes the write lock once and
// CommitBatch releases it: the calls of a batch (writes and reads alike, by
// the session that opened it) take no lock at all, which is what lets a batch
// of a million inserts run at memory speed. Other sessions wait until the
// commit, so they never see half a batch.
//
// A thread must not use a second session while one of its sessions holds a
// batch: glibc's rwlock refuses that (EDEADLK), and the call returns Busy.
#pragma once

#include "adapters/native/native_status.h"
#include "adapters/support/batch_state.h"
#include "common/status.h"
#include "engines/native/database.h"

namespace kvbench {

// One session's batch state. Not thread-safe (neither is a Session).
class NativeSessionLock {
 public:
  explicit NativeSessionLock(const nativedb::Database* db) : db_(db) {}
  // A session destroyed inside a batch releases the lock (the batch's writes
  // stay: native has no undo).
  ~NativeSessionLock() {
    if (batch_.open()) db_->UnlockWrite();
  }
  NativeSessionLock(const NativeSessionLock&) = delete;
  NativeSessionLock& operator=(const NativeSessionLock&) = delete;

  // Takes the write lock. Misuse is answered by BatchState.
  Status BeginBatch() {
    return batch_.Begin([&] { return FromNative(db_->LockWrite()); });
  }
  // Releases the write lock.
  Status CommitBatch() {
    KVBENCH_RETURN_IF_ERROR(batch_.Commit());
    db_->UnlockWrite();
    return Status::OK();
  }

  bool in_batch() const { return batch_.open(); }
  const nativedb::Database& db() const { return *db_; }

 private:
  const nativedb::Database* db_;
  BatchState batch_;
};

// Holds the lock for one call, unless the session's batch holds it already.
// Check ok() before touching the database; status() says why not. Costs one
// branch inside a batch (no kvbench::Status is built on the way).
class NativeCallLock {
 public:
  enum Mode { kRead, kWrite };

  NativeCallLock(const NativeSessionLock& session, Mode mode)
      : db_(session.in_batch() ? nullptr : &session.db()), mode_(mode) {
    if (db_ == nullptr) return;
    error_ = mode == kWrite ? db_->LockWrite() : db_->LockRead();
    if (!error_.ok()) db_ = nullptr;
  }
  ~NativeCallLock() {
    if (db_ == nullptr) return;
    if (mode_ == kWrite) {
      db_->UnlockWrite();
    } else {
      db_->UnlockRead();
    }
  }
  NativeCallLock(const NativeCallLock&) = delete;
  NativeCallLock& operator=(const NativeCallLock&) = delete;

  bool ok() const { return error_.ok(); }
  Status status() const { return FromNative(error_); }

 private:
  const nativedb::Database* db_;  // null: nothing to release
  Mode mode_;
  nativedb::Status error_;  // OK is a null pointer
};

}  // namespace kvbench
