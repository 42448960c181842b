#include "adapters/tkrzw/tkrzw_common.h"

namespace kvbench::tkrzw_adapter {

OptionSpec SyncOptionSpec() {
  return {"tkrzw.sync", "none",
          "none: the file is synchronised by Sync() only; commit: a hard (fsync) "
          "synchronisation after every commit"};
}

Status ParseSyncOnCommit(const EngineOptions &options, bool *sync_on_commit) {
  const std::string sync = options.GetString("tkrzw.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'tkrzw.sync': '" + sync + "' is not none or commit");
  }
  *sync_on_commit = sync == "commit";
  return Status::OK();
}

Status FromTkrzw(const tkrzw::Status &s, const char *operation) {
  if (s == tkrzw::Status::SUCCESS) return Status::OK();
  if (s == tkrzw::Status::NOT_FOUND_ERROR) return Status::NotFound();
  const std::string message = std::string(operation) + ": " + s.GetMessage() + " (" +
                              tkrzw::Status::CodeName(s.GetCode()) + ")";
  if (s == tkrzw::Status::BROKEN_DATA_ERROR) return Status::Corruption(message);
  if (s == tkrzw::Status::INVALID_ARGUMENT_ERROR) return Status::InvalidArgument(message);
  return Status::IOError(message);
}

TkrzwCursor::TkrzwCursor(tkrzw::DBM *dbm, Slice start, const ScanOptions &options)
    : it_(dbm->MakeIterator()), keys_only_(options.keys_only) {
  if (options.direction == ScanDirection::kForward) {
    Load(options.from_edge ? it_->First() : it_->Jump(start));
  } else {
    Load(options.from_edge ? it_->Last() : it_->JumpLower(start, /*inclusive=*/true));
  }
}

void TkrzwCursor::Load(const tkrzw::Status &moved) {
  tkrzw::Status s = moved;
  if (s == tkrzw::Status::SUCCESS) s = it_->Get(&key_, keys_only_ ? nullptr : &value_);
  valid_ = s == tkrzw::Status::SUCCESS;
  if (!valid_ && s != tkrzw::Status::NOT_FOUND_ERROR && status_.ok()) {
    status_ = FromTkrzw(s, "scan");
  }
}

}  // namespace kvbench::tkrzw_adapter
