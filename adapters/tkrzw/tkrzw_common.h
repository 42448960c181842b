// What the Tkrzw adapters (tkrzw_adapter.cc: HashDBM and TreeDBM;
// tkrzw_skip_adapter.cc: SkipDBM) share: the sync option, status
// translation and an iterator as a scan cursor.
#pragma once

#include <tkrzw_dbm.h>

#include <memory>
#include <string>
#include <string_view>

#include "adapters/adapter.h"
#include "adapters/engine_options.h"

namespace kvbench::tkrzw_adapter {

// `tkrzw.sync`: none | commit (a hard synchronisation after each commit).
OptionSpec SyncOptionSpec();
Status ParseSyncOnCommit(const EngineOptions &options, bool *sync_on_commit);

Status FromTkrzw(const tkrzw::Status &s, const char *operation);

// A Tkrzw iterator as BatchOverlay::MergeScan's cursor, positioned at the
// first entry in scan order for `start` and `options` on construction.
class TkrzwCursor {
 public:
  TkrzwCursor(tkrzw::DBM *dbm, Slice start, const ScanOptions &options);
  bool Valid() const { return valid_; }
  std::string_view key() const { return key_; }
  std::string_view value() const { return value_; }
  void Next() { Load(it_->Next()); }
  void Prev() { Load(it_->Previous()); }
  // The first error met (NOT_FOUND ends a scan and is not one).
  Status status() const { return status_; }

 private:
  void Load(const tkrzw::Status &moved);

  std::unique_ptr<tkrzw::DBM::Iterator> it_;
  bool keys_only_;
  bool valid_ = false;
  std::string key_, value_;
  Status status_;
};

}  // namespace kvbench::tkrzw_adapter
