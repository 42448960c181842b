// nativedb: an in-memory store of records, in the spirit of WhiteDB.
//
// A database is one arena of memory (format.h) addressed by offsets, so it can
// be saved to a file and loaded back, or placed in POSIX shared memory where
// other processes attach to it. A record is a fixed number of fields, each one
// 64-bit word: NULL, an integer, a double, a string, bytes, or a reference to
// another record. Small integers and references live in the word itself;
// everything else beside the record. Indexes (B+trees, btree.h) on a field
// answer equality and range queries and are kept right as fields change.
//
//   nativedb::Options options;
//   options.size = 1 << 30;
//   std::unique_ptr<nativedb::Database> db;
//   Status s = nativedb::Database::Create(options, &db);
//   nativedb::Record r;
//   s = db->CreateRecord(5, &r);
//   s = db->SetNewField(r, 0, nativedb::Value::Int(42));
//
// LOCKING MODEL. The arena header holds one process-shared reader-writer lock
// (pthread rwlock, writers preferred). Many readers may hold it at once, or one
// writer. nativedb's calls never take it themselves (as WhiteDB's do not): the
// caller brackets a group of calls with a ReadLock or WriteLock (or
// LockRead/LockWrite), so a loop of a million inserts pays for the lock once.
//   - const methods (GetField, FindEqual, ScanEqual, cursors, Save...) need the
//     read lock or the write lock;
//   - non-const methods (CreateRecord, SetField, CreateIndex...) need the write
//     lock;
//   - a program that uses a database from one thread of one process may skip
//     locking altogether.
// The lock is not robust: a process that dies holding it leaves it held.
// Values and cursors read under a lock are valid only until it is released.
//
// Errors: every call that can fail returns a Status; none throws. Full when
// the arena has no room (private memory grows up to Options::max_size first);
// a failed call leaves the database as it was.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engines/native/arena.h"
#include "engines/native/field_codec.h"
#include "engines/native/format.h"
#include "engines/native/status.h"
#include "engines/native/value.h"

namespace nativedb {

// The smallest arena Create accepts (room for the header and a first segment).
inline constexpr uint64_t kMinArenaSize = uint64_t{64} << 10;

struct Options {
  // --- Behaviour ---
  // Empty: private memory of this process. Otherwise the name of a POSIX
  // shared-memory object ("/name") that Create makes and other processes
  // Attach to. Create fails with Busy when the name exists.
  std::string shm_name;
  // The creator removes the shared-memory name when its Database is destroyed.
  // Off by default: WhiteDB's shared databases outlive their creator.
  bool remove_shm_on_close = false;

  // --- Performance ---
  // Arena bytes available at creation (WhiteDB's tests use 1 GB).
  uint64_t size = uint64_t{1} << 30;
  // Private memory grows in place up to this many bytes (address space is
  // reserved, not used); 0 means no growth. Shared memory never grows.
  uint64_t max_size = 0;
  // Touch every page at creation, so creating costs time in proportion to the
  // size (as WhiteDB's does) and inserting later takes no page faults.
  bool prefault = true;
  // Transparent huge pages for private memory: fewer TLB misses in scans,
  // but where the kernel compacts memory for them on fault (THP defrag
  // "madvise") creating a large arena gets several times slower. Off by default.
  bool huge_pages = false;
};

struct Stats {
  uint64_t size;              // arena bytes available now
  uint64_t used;              // bytes handed out by the bump allocator
  uint64_t records;           // live records
  uint64_t data_bytes;        // bytes of side values, strings and index nodes in use
  uint64_t interned_strings;  // distinct long strings
  uint32_t indexes;
};

class Database;

// A position in one index, in key order (then record order for equal keys).
// Created by Database::NewCursor; valid only while the caller holds the lock
// and nothing is written.
class IndexCursor {
 public:
  IndexCursor() = default;

  bool Valid() const { return leaf_ != 0; }
  Record record() const;
  Value key() const;
  void Next();
  void Prev();
  void SeekToFirst();
  void SeekToLast();
  // The first entry with key >= `key`.
  void Seek(const Value& key);
  // The last entry with key <= `key`.
  void SeekForPrev(const Value& key);

 private:
  friend class Database;
  Arena* arena_ = nullptr;
  format::IndexMeta* meta_ = nullptr;
  uint64_t leaf_ = 0;
  uint32_t pos_ = 0;
};

class Database {
 public:
  // Creates an empty database. IOError when the memory cannot be had, Busy
  // when `options.shm_name` exists already, InvalidArgument for a size below
  // 64 KiB.
  static Status Create(const Options& options, std::unique_ptr<Database>* db);
  // Attaches to a shared-memory database another process created. NotFound
  // when there is none, Busy while it is still being created, Corruption when
  // it is not a nativedb arena of this version and byte order.
  static Status Attach(const std::string& shm_name, std::unique_ptr<Database>* db);
  // Removes a shared-memory database's name (attached processes keep their
  // mapping until they destroy their Database). NotFound when there is none.
  static Status RemoveShared(const std::string& shm_name);
  // Creates a database (as Create, with `options`) holding a snapshot written
  // by Save. The arena is at least as large as the snapshot needs.
  // IOError/Corruption for an unreadable or damaged file.
  static Status Load(const std::string& path, const Options& options,
                     std::unique_ptr<Database>* db);

  // Unmaps the arena (a private database is gone; see remove_shm_on_close).
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Writes a snapshot (the arena image, snapshot.cc) to `path` atomically
  // (temporary file, fsync, rename). Needs the read lock. IOError on failure.
  Status Save(const std::string& path) const;

  // ---- Locking (see LOCKING MODEL above) ----
  Status LockRead() const;
  void UnlockRead() const;
  Status LockWrite() const;
  void UnlockWrite() const;

  // ---- Records ----

  // A record of `field_count` NULL fields. Full when there is no room.
  inline Status CreateRecord(uint32_t field_count, Record* record);
  // Deletes the record: its values are freed, its index entries removed, its
  // space reused by later records. References to it dangle.
  Status DeleteRecord(Record record);
  inline uint32_t FieldCount(Record record) const;

  // Sets a field that holds nothing yet (NULL, as in a fresh record): the fast
  // path, WhiteDB's wg_set_new_field. The old value is not looked at, so using
  // it on a field that holds a string, bytes, a double or a wide integer leaks
  // that value's storage. Indexes stay right either way (an indexed field
  // takes the checked path). InvalidArgument for a field out of range.
  inline Status SetNewField(Record record, uint32_t field, const Value& value);
  // Sets any field: frees the old value and moves the index entry.
  inline Status SetField(Record record, uint32_t field, const Value& value);
  // The field's value (Null for a field out of range). Strings and bytes view
  // the arena (see Value).
  inline Value GetField(Record record, uint32_t field) const;
  inline FieldType GetFieldType(Record record, uint32_t field) const;

  uint64_t RecordCount() const { return header_->record_count; }
  // Records in address order; Record{} at the end.
  Record FirstRecord() const;
  Record NextRecord(Record record) const;
  // Calls visit(Record) for every record in address order; when visit returns
  // bool, false stops the walk.
  template <class Visit>
  void ForEachRecord(Visit&& visit) const;

  // Records whose `field` equals `value`, by scanning all records (no index),
  // appended to *out (may be null: count only). Stops after `limit` matches
  // (0: no limit). Returns the number of matches.
  size_t ScanEqual(uint32_t field, const Value& value, size_t limit,
                   std::vector<Record>* out) const;

  // ---- Indexes (database_index.cc) ----

  // Builds an index on `field` over the existing records. Records whose field
  // is NULL (or that have no such field) are not in it. InvalidArgument when
  // the field has an index already or all index slots are taken; Full when
  // there is no room.
  Status CreateIndex(uint32_t field);
  // NotFound when the field has no index.
  Status DropIndex(uint32_t field);
  bool HasIndex(uint32_t field) const;
  // Replaces *out with the records whose `field` equals `key`, in record
  // order, at most `limit` (0: no limit). NotFound when the field has no index.
  Status FindEqual(uint32_t field, const Value& key, size_t limit, std::vector<Record>* out) const;
  // Replaces *out with the records with low <= field <= high (key_order.h),
  // in key order, at most `limit` (0: no limit).
  Status FindRange(uint32_t field, const Value& low, const Value& high, size_t limit,
                   std::vector<Record>* out) const;
  // A cursor over the field's index (not yet positioned). NotFound when the
  // field has no index.
  Status NewCursor(uint32_t field, IndexCursor* cursor) const;

  // ---- Inspection ----

  // Checks the record area, the free lists and every index against the
  // records. Corruption naming the first fault. For tests; walks everything.
  Status Verify() const;
  Stats GetStats() const;
  bool shared() const { return arena_.region().shared(); }
  // Where this process mapped the arena (differs between processes).
  const void* arena_address() const { return base_; }

 private:
  Database(Arena arena, const Options& options, bool creator);

  // Creates the memory the options ask for (private or shared), unformatted.
  static Status CreateRegion(const Options& options, MemoryRegion* region);
  Status CreateRecordFailed(uint32_t field_count);
  Status SetFieldSlow(Record record, uint32_t field, const Value& value, bool check_old);
  format::IndexMeta* FindIndex(uint64_t field) const;
  Status IndexErase(format::IndexMeta* meta, uint64_t word, uint64_t rec);
  Status VerifyRecords() const;

  mutable Arena arena_;
  char* base_;
  format::ArenaHeader* header_;
  Options options_;
  bool creator_;
};

// Holds the read lock for its lifetime. Check status() when locking can fail
// (a process-shared lock returns errors instead of deadlocking).
class ReadLock {
 public:
  explicit ReadLock(const Database& db) : db_(db), status_(db.LockRead()) {}
  ~ReadLock() {
    if (status_.ok()) db_.UnlockRead();
  }
  ReadLock(const ReadLock&) = delete;
  ReadLock& operator=(const ReadLock&) = delete;
  const Status& status() const { return status_; }

 private:
  const Database& db_;
  Status status_;
};

class WriteLock {
 public:
  explicit WriteLock(const Database& db) : db_(db), status_(db.LockWrite()) {}
  ~WriteLock() {
    if (status_.ok()) db_.UnlockWrite();
  }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;
  const Status& status() const { return status_; }

 private:
  const Database& db_;
  Status status_;
};

// ---- Inline hot paths -------------------------------------------------------

inline Status Database::CreateRecord(uint32_t field_count, Record* record) {
  const uint64_t at = field_count <= format::kMaxFieldCount ? arena_.AllocRecord(field_count) : 0;
  if (at == 0) return CreateRecordFailed(field_count);
  ++header_->record_count;
  record->offset = at;
  return Status::OK();
}

inline uint32_t Database::FieldCount(Record record) const {
  return static_cast<uint32_t>(
      format::ChunkFieldsOf(*reinterpret_cast<const uint64_t*>(base_ + record.offset)));
}

inline Status Database::SetNewField(Record record, uint32_t field, const Value& value) {
  uint64_t* words = reinterpret_cast<uint64_t*>(base_ + record.offset);
  uint64_t word;
  if (field < format::ChunkFieldsOf(words[0]) &&
      (header_->indexed_mask & format::IndexMaskBit(field)) == 0 &&
      internal::EncodeInline(value, &word)) {
    words[1 + field] = word;
    return Status::OK();
  }
  return SetFieldSlow(record, field, value, /*check_old=*/false);
}

inline Status Database::SetField(Record record, uint32_t field, const Value& value) {
  uint64_t* words = reinterpret_cast<uint64_t*>(base_ + record.offset);
  uint64_t word;
  if (field < format::ChunkFieldsOf(words[0]) &&
      (header_->indexed_mask & format::IndexMaskBit(field)) == 0 &&
      internal::OwnsNoStorage(words[1 + field]) && internal::EncodeInline(value, &word)) {
    words[1 + field] = word;
    return Status::OK();
  }
  return SetFieldSlow(record, field, value, /*check_old=*/true);
}

inline Value Database::GetField(Record record, uint32_t field) const {
  const uint64_t* words = reinterpret_cast<const uint64_t*>(base_ + record.offset);
  if (field >= format::ChunkFieldsOf(words[0])) return Value();
  return internal::DecodeWord(base_, words[1 + field]);
}

inline FieldType Database::GetFieldType(Record record, uint32_t field) const {
  const uint64_t* words = reinterpret_cast<const uint64_t*>(base_ + record.offset);
  if (field >= format::ChunkFieldsOf(words[0])) return FieldType::kNull;
  return internal::TypeOfWord(words[1 + field]);
}

template <class Visit>
void Database::ForEachRecord(Visit&& visit) const {
  uint64_t at = header_->first_segment;
  if (at == 0) return;
  const uint64_t end = header_->rec_bump;
  while (at != end) {
    const uint64_t* chunk = reinterpret_cast<const uint64_t*>(base_ + at);
    const uint64_t h = chunk[0];
    switch (format::ChunkKindOf(h)) {
      case format::kChunkRecord:
        if constexpr (std::is_same_v<decltype(visit(Record{})), bool>) {
          if (!visit(Record{at})) return;
        } else {
          visit(Record{at});
        }
        at += format::ChunkWordsOf(h) * 8;
        break;
      case format::kChunkLink:
        at = chunk[1];
        break;
      default:
        at += format::ChunkWordsOf(h) * 8;
        break;
    }
  }
}

}  // namespace nativedb
