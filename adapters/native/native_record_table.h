// The native adapter's record table: nativedb's own records, indexes and
// references behind the RecordTable contract (adapters/record.h).
//
// Mapping:
//   RecordId         the nativedb Record's arena offset (never 0), so a
//                    reference field maps 1:1 to a RecordId;
//   CreateRecord     Database::CreateRecord with the table's field count;
//   InsertRecord     CreateRecord, then SetNewField per field;
//   SetField         kNew -> SetNewField, kChecked -> SetField;
//   ScanEqual        Database::ScanEqual (a walk of every record, no index);
//   CreateIndex      Database::CreateIndex; QueryEqual -> FindEqual (ids in
//                    record order; NULL matches nothing, NULLs are not indexed).
// Declared field types and field names are not stored: any field holds any
// type, and a value reads back with the type it was written with.
//
// One table per database: nativedb's indexes are per field number across all
// records, so the adapter gives a database either key-value pairs or one
// record table (native_adapter.cc), never both. Every record in the database
// is then this table's, which is what makes ScanEqual's count of records
// examined exact and lets an index serve only this table.
//
// Ids from the caller are checked where it is cheap (a few loads, no walk):
// inside the arena's allocated space, 8-byte aligned, at a record chunk
// header with this table's field count. That catches 0, garbage, ids past the
// end and deleted records (their chunk is marked free) with NotFound instead
// of a crash. It cannot tell a header from a word inside
// another object that happens to look like one; and a deleted record's id
// names whatever record later reuses its space. Reference values are stored
// unchecked (checking the target would cost a cache miss per write); they are
// checked when used as an id.
//
// Locking: each call locks per NativeCallLock (native_session_lock.h): not at
// all inside the owning session's batch, otherwise the read or write lock for
// the call. Calls allocate nothing once the table's scratch vector and the
// caller's FieldValue strings have grown.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "adapters/native/native_session_lock.h"
#include "adapters/record.h"
#include "engines/native/database.h"
#include "engines/native/format.h"

namespace kvbench {

class NativeRecordTable final : public RecordTable {
 public:
  // `db` and `lock` (the owning session's) outlive the table.
  NativeRecordTable(nativedb::Database* db, const NativeSessionLock* lock, uint32_t field_count)
      : db_(db),
        lock_(lock),
        field_count_(field_count),
        record_bytes_(nativedb::format::RecordWords(field_count) * 8) {}

  Status CreateRecord(RecordId* id) override;
  Status InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) override;
  Status SetField(RecordId id, uint32_t field, const FieldValue& value, SetMode mode) override;
  Status GetField(RecordId id, uint32_t field, FieldValue* value) override;
  Status GetRecord(RecordId id, std::vector<FieldValue>* fields) override;
  Status DeleteRecord(RecordId id) override;
  Status ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                   std::vector<RecordId>* matches, uint64_t* examined) override;
  Status CreateIndex(uint32_t field) override;
  Status QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                    std::vector<RecordId>* matches) override;
  Status FollowReference(RecordId id, uint32_t field, RecordId* target) override;

 private:
  // True when `id` passes the checks in the file comment. Inline: it is on
  // every per-record call.
  bool IsRecord(RecordId id) const {
    namespace format = nativedb::format;
    // The arena header sits at the arena's start (format.h); bump is the end
    // of the space handed out, so every word below it is mapped.
    const char* base = static_cast<const char*>(db_->arena_address());
    const uint64_t bump = reinterpret_cast<const format::ArenaHeader*>(base)->bump;
    if (id < format::kHeaderBytes || (id & 7) != 0 || id > bump || bump - id < record_bytes_) {
      return false;
    }
    const uint64_t header = *reinterpret_cast<const uint64_t*>(base + id);
    return format::ChunkKindOf(header) == format::kChunkRecord &&
           format::ChunkFieldsOf(header) == field_count_;
  }
  // Undoes a half-inserted record (out of line: keeps InsertRecord small).
  Status InsertFailed(nativedb::Record r, const nativedb::Status& s);
  // The statuses for a failed check (out of line: built only on errors).
  Status NoRecord(RecordId id) const;
  Status BadField(uint32_t field) const;
  Status NotAReference(uint32_t field, nativedb::FieldType type) const;
  // *matches = found_, as ids.
  void CopyFound(std::vector<RecordId>* matches) const;

  nativedb::Database* db_;
  const NativeSessionLock* lock_;
  const uint32_t field_count_;
  const uint64_t record_bytes_;          // a record's chunk, header included
  std::vector<nativedb::Record> found_;  // ScanEqual's and QueryEqual's scratch
};

}  // namespace kvbench
