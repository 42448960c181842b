// The adapter shared by the LSM engines whose C++ APIs are the same shape
// (LevelDB and RocksDB, which began as a fork of it): one implementation of the
// contract over an `Engine` binding (leveldb_binding.cc, rocksdb_binding.cc)
// that names the library's types and supplies its options, open and version.
//
// Writes outside a batch are single Puts/Deletes with the engine's
// WriteOptions (sync per commit when `<engine>.sync = commit`). A batch is the
// engine's own atomic WriteBatch, written at CommitBatch and dropped by
// AbortBatch, so the adapter is transactional. Reads inside a batch see the
// batch's own writes (the shared record layer keeps indexes in the same
// batch): the session keeps the batch's writes in an ordered map as well and
// merges them into Gets and Scans.
//
// The DB object is thread-safe: every session reads and writes in parallel.
// Files: everything in the engine's directory (tables, logs, manifests),
// listed afresh each time (compactions create and delete files).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/batch_overlay.h"
#include "adapters/engine_directory.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench::lsm {

// Turns an engine Status (leveldb::Status, rocksdb::Status: same methods)
// into ours.
template <typename EngineStatus>
Status FromEngine(const EngineStatus& s, const char* operation) {
  if (s.ok()) return Status::OK();
  if (s.IsNotFound()) return Status::NotFound();
  const std::string message = std::string(operation) + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(message);
  if (s.IsIOError()) return Status::IOError(message);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(message);
  return Status::Internal(message);
}

template <typename Engine>
struct Shared {
  std::unique_ptr<typename Engine::DB> db;
  typename Engine::Handles handles;  // what must outlive the DB (caches, filter policies)
  typename Engine::Settings settings;
};

// An engine iterator as BatchOverlay::MergeScan's cursor.
template <typename Iterator>
struct LsmCursor {
  Iterator* it;
  bool Valid() const { return it->Valid(); }
  std::string_view key() const { return {it->key().data(), it->key().size()}; }
  std::string_view value() const { return {it->value().data(), it->value().size()}; }
  void Next() { it->Next(); }
  void Prev() { it->Prev(); }
};

template <typename Engine>
class LsmSession final : public Session {
 public:
  using Slice_ = typename Engine::Slice;
  explicit LsmSession(Shared<Engine>* shared) : shared_(shared) {}

  Status Put(Slice key, Slice value) override {
    if (batch_.open()) {
      write_batch_.Put(Slice_(key.data(), key.size()), Slice_(value.data(), value.size()));
      pending_.Put(key, value);
      return Status::OK();
    }
    return FromEngine(shared_->db->Put(WriteOptions(), Slice_(key.data(), key.size()),
                                       Slice_(value.data(), value.size())),
                      "put");
  }

  Status Get(Slice key, std::string* value) override {
    if (batch_.open()) {
      if (std::optional<Status> s = pending_.Get(key, value)) return *s;
    }
    return FromEngine(shared_->db->Get(typename Engine::ReadOptions(),
                                       Slice_(key.data(), key.size()), value),
                      "get");
  }

  Status Delete(Slice key) override {
    if (batch_.open()) {
      write_batch_.Delete(Slice_(key.data(), key.size()));
      pending_.Delete(key);
      return Status::OK();
    }
    return FromEngine(shared_->db->Delete(WriteOptions(), Slice_(key.data(), key.size())),
                      "delete");
  }

  Status BeginBatch() override { return batch_.Begin(); }

  Status CommitBatch() override {
    return batch_.Commit([&] {
      Status s = FromEngine(shared_->db->Write(WriteOptions(), &write_batch_), "commit batch");
      ClearBatch();
      return s;
    });
  }

  Status AbortBatch() override {
    return batch_.Abort([&] {
      ClearBatch();
      return Status::OK();
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (visited != nullptr) *visited = 0;
    std::unique_ptr<typename Engine::Iterator> it(
        shared_->db->NewIterator(typename Engine::ReadOptions()));
    const Slice_ from(start.data(), start.size());
    if (options.direction == ScanDirection::kForward) {
      options.from_edge ? it->SeekToFirst() : it->Seek(from);
    } else if (options.from_edge) {
      it->SeekToLast();
    } else {
      // The last key <= start: seek to the first >= start, step back unless equal.
      it->Seek(from);
      if (!it->Valid()) {
        it->SeekToLast();
      } else if (it->key().compare(from) > 0) {
        it->Prev();
      }
    }
    LsmCursor<typename Engine::Iterator> cursor{it.get()};
    const size_t n = pending_.MergeScan(cursor, start, options, visitor);
    if (visited != nullptr) *visited = n;
    return FromEngine(it->status(), "scan");
  }

 private:
  typename Engine::WriteOptions WriteOptions() const {
    return Engine::MakeWriteOptions(shared_->settings);
  }
  void ClearBatch() {
    write_batch_.Clear();
    pending_.Clear();
  }

  Shared<Engine>* shared_;
  BatchState batch_;
  typename Engine::WriteBatch write_batch_;
  // The batch's writes again, in key order, so reads inside it see them.
  BatchOverlay pending_;
};

template <typename Engine>
class LsmAdapter final : public Adapter {
 public:
  std::string LibraryVersion() const override { return Engine::Version(); }
  std::vector<OptionSpec> OptionSpecs() const override { return Engine::OptionSpecs(); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, Engine::ParseSettings);
  }
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    return Engine::DeclareDurability(AcceptedSettings(options, Engine::ParseSettings));
  }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    c.transactional = true;  // WriteBatch: atomic; abort drops it before it is written
    c.durable = true;        // committed data survives Close and a reopen
    c.concurrent_readers = true;
    c.concurrent_writers = true;
    c.reorganize = true;  // a full manual compaction
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (shared_.db) return Status::InvalidArgument(std::string(Engine::kName) + ": already open");
    KVBENCH_RETURN_IF_ERROR(Engine::ParseSettings(request.options, &shared_.settings));
    directory_ = request.directory;
    return Engine::Open(shared_.settings, directory_, &shared_.db, &shared_.handles);
  }

  Status Close() override {
    shared_.db.reset();
    shared_.handles = {};
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (!shared_.db) return Status::InvalidArgument(std::string(Engine::kName) + ": not open");
    *session = std::make_unique<LsmSession<Engine>>(&shared_);
    return Status::OK();
  }

  Status Sync() override {
    if (!shared_.db) return Status::OK();
    return Engine::Sync(shared_.db.get(), shared_.settings);
  }

  Status ListFiles(std::vector<std::string>* paths) const override {
    return ListRegularFiles(directory_, paths);
  }

  Status Reorganize() override {
    if (!shared_.db) return Status::InvalidArgument(std::string(Engine::kName) + ": not open");
    return Engine::CompactAll(shared_.db.get());
  }

 private:
  std::string directory_;
  Shared<Engine> shared_;
};

}  // namespace kvbench::lsm
