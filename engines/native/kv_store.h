// KvStore: nativedb as a key-value store. Each pair is one record of two
// fields, key and value, both stored as bytes, with an index on the key, so a
// lookup is one B+tree descent and a scan walks the index in unsigned byte
// order of keys (the order kvbench's ordered scans need).
//
// A KvStore owns its Database's records: mixing other records into the same
// database puts them into scans. Locking follows the Database's model (the
// caller holds the read lock for Get and Scan, the write lock for Put and
// Delete; database.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engines/native/database.h"
#include "engines/native/status.h"

namespace nativedb {

class KvVisitor {
 public:
  virtual ~KvVisitor() = default;
  // Called once per pair in scan order; the views are valid only during the
  // call. Return false to stop.
  virtual bool Visit(std::string_view key, std::string_view value) = 0;
};

struct KvScanOptions {
  bool forward = true;     // forward: keys >= start; backward: keys <= start
  bool from_edge = false;  // ignore start: begin at the first (or last) key
  size_t limit = 0;        // at most this many pairs; 0: no limit
};

class KvStore {
 public:
  static constexpr uint32_t kKeyField = 0;
  static constexpr uint32_t kValueField = 1;

  // A KV view of `db`, which must outlive it. Creates the key index when the
  // database has none (so the caller holds the write lock).
  static Status Open(Database* db, std::unique_ptr<KvStore>* store);

  // Inserts or overwrites. Full when the arena has no room (the store is
  // unchanged then).
  Status Put(std::string_view key, std::string_view value);
  // Replaces *value with the key's value; NotFound when absent.
  Status Get(std::string_view key, std::string* value) const;
  // NotFound when absent.
  Status Delete(std::string_view key);
  // Visits pairs in key order from `start`. *visited (optional) receives the
  // number of Visit calls.
  Status Scan(std::string_view start, const KvScanOptions& options, KvVisitor* visitor,
              size_t* visited) const;

  uint64_t Count() const { return db_->RecordCount(); }
  Database* database() const { return db_; }

 private:
  explicit KvStore(Database* db) : db_(db) {}
  // The record holding `key`, or Record{} when absent.
  Record Find(std::string_view key) const;

  Database* db_;
};

}  // namespace nativedb
