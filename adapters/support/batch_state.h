// BatchState: whether a session has a batch open, with the contract's answers
// to misuse (adapters/adapter.h, Session): a second BeginBatch is
// InvalidArgument "begin batch: a batch is already open", a CommitBatch or
// AbortBatch without one is InvalidArgument "commit batch: no batch open" /
// "abort batch: no batch open", and the state is unchanged. Every adapter
// keeps its flag here, so every engine words the same mistake the same way
// (the conformance case BatchMisuseIsWordedAlike asserts the text).
// Not thread-safe: one per Session, used by its one thread.
//
// The engine's own work goes in the callable, which runs only when the call
// is not a mistake:
//
//   Status BeginBatch() override {   // open only if the engine's begin succeeds
//     return batch_.Begin([&] { return FromEngine(txn_begin(...)); });
//   }
//   Status CommitBatch() override {  // closed whatever the engine's commit returns
//     return batch_.Commit([&] { return FromEngine(txn_commit(...)); });
//   }
//   Status AbortBatch() override {   // an engine without transactions:
//     return BatchState::AbortNotSupported("my-engine");
//   }
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace kvbench {

class BatchState {
 public:
  bool open() const { return open_; }

  // Opens the batch; InvalidArgument when one is open already.
  Status Begin() {
    return Begin([] { return Status::OK(); });
  }
  // Begin() that first runs `start_engine` (the engine's own begin, returning
  // a Status): the batch is open only when it returns OK, and its error is
  // returned as is.
  template <typename StartEngine>
  Status Begin(StartEngine&& start_engine) {
    if (open_) return Status::InvalidArgument("begin batch: a batch is already open");
    KVBENCH_RETURN_IF_ERROR(start_engine());
    open_ = true;
    return Status::OK();
  }

  // Closes the batch for CommitBatch; InvalidArgument when none is open.
  Status Commit() {
    return Commit([] { return Status::OK(); });
  }
  // Commit() that then runs `finish_engine` (the engine's commit) and returns
  // its Status. The batch is closed before it runs, so a commit that fails
  // leaves no batch open: `finish_engine` must leave the engine so (roll back
  // what a failed commit left open).
  template <typename FinishEngine>
  Status Commit(FinishEngine&& finish_engine) {
    return End("commit batch: no batch open", finish_engine);
  }

  // The same for AbortBatch: "abort batch: no batch open".
  Status Abort() {
    return Abort([] { return Status::OK(); });
  }
  template <typename FinishEngine>
  Status Abort(FinishEngine&& finish_engine) {
    return End("abort batch: no batch open", finish_engine);
  }

  // Closes without a check, for a session ending with its batch open (after
  // the engine's batch is rolled back or released).
  void Reset() { open_ = false; }

  // AbortBatch's answer on an engine whose batches only group writes
  // (Capabilities::transactional false), batch open or not: NotSupported
  // "abort batch: not supported by <engine>: a batch only groups writes".
  // An open batch stays open until CommitBatch. `engine` may name the
  // setting that decides it ("bdb-hash with bdb.transactional=false").
  static Status AbortNotSupported(std::string_view engine) {
    return Status::NotSupported("abort batch: not supported by " + std::string(engine) +
                                ": a batch only groups writes");
  }

 private:
  template <typename FinishEngine>
  Status End(const char* none_open, FinishEngine& finish_engine) {
    if (!open_) return Status::InvalidArgument(none_open);
    open_ = false;
    return finish_engine();
  }

  bool open_ = false;
};

}  // namespace kvbench
