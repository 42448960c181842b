// BatchState: whether a session has a batch open, with the contract's answers
// to misuse (adapters/adapter.h): a second BeginBatch, or a CommitBatch or
// AbortBatch without one, is InvalidArgument naming the call, and the state
// is unchanged. Every adapter keeps this flag; this keeps the messages one.
// Not thread-safe: one per Session, used by its one thread.
//
//   Status BeginBatch() override {
//     KVBENCH_RETURN_IF_ERROR(batch_.Begin());
//     ... start the engine's transaction; on failure batch_.End() ...
//   }
//   Status CommitBatch() override {
//     KVBENCH_RETURN_IF_ERROR(batch_.End("commit batch"));
//     ... commit ...
//   }
#pragma once

#include <string>

#include "common/status.h"

namespace kvbench {

class BatchState {
 public:
  bool open() const { return open_; }

  // Opens the batch; InvalidArgument when one is open already.
  Status Begin() {
    if (open_) return Status::InvalidArgument("begin batch: a batch is already open");
    open_ = true;
    return Status::OK();
  }

  // Closes the batch for `call` ("commit batch", "abort batch");
  // InvalidArgument "<call>: no batch open" when none is.
  Status End(const char* call) {
    if (!open_) return Status::InvalidArgument(std::string(call) + ": no batch open");
    open_ = false;
    return Status::OK();
  }

 private:
  bool open_ = false;
};

}  // namespace kvbench
