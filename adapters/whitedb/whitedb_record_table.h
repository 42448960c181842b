// The whitedb adapter's record table: WhiteDB's own records, T-tree indexes,
// queries and record references behind the RecordTable contract
// (adapters/record.h), doing what the seed's speed tests do:
//
//   RecordId       the encoded record (wg_encode_record), which is the record's
//                  offset in the database: never 0, and a reference field maps
//                  1:1 to a RecordId (computed as the offset, WhitedbDatabase::IdOf);
//   CreateRecord   wg_create_record (fields NULL, and indexed as NULL);
//   InsertRecord   wg_create_raw_record, then wg_set_new_field per field (speed5);
//                  a NULL field is left as created unless the field is indexed;
//   SetField       kNew -> wg_set_new_field, except on an indexed field, whose
//                  NULL is in the index and must leave it (wg_set_field);
//                  kChecked -> wg_set_field;
//   ScanEqual      wg_get_first_record / wg_get_next_record over every record
//                  (speed11), comparing encoded words where WhiteDB keeps the
//                  value in the field (whitedb_encoding.h);
//   CreateIndex    wg_create_index(WG_INDEX_TYPE_TTREE) (speed12); fields 0-127;
//   QueryEqual     wg_make_query_rc / wg_fetch / wg_free_query (speed13);
//   FollowReference  wg_get_field + the encoded record (speed16).
// Declared field types and field names are not stored: a field holds any type
// and reads back with the type it was written with.
//
// Ids from the caller are checked against the database's live record directory
// (whitedb_database.h), so 0, garbage and deleted ids are NotFound, never a
// read of freed memory. A reference value is checked too (InvalidArgument for
// a record that is not live): WhiteDB writes a backlink into the target.
//
// Deleting a record others refer to leaves a tombstone (whitedb_database.h):
// its fields are set to NULL and it drops out of scans and queries; it is
// deleted for real when the last record referring to it is deleted or its
// reference overwritten.
//
// Locking: per WhitedbCallLock (whitedb_lock.h). A table belongs to one
// session and its thread.
#pragma once

#include <whitedb/dbapi.h>

#include <cstdint>
#include <vector>

#include "adapters/record.h"
#include "adapters/whitedb/whitedb_database.h"
#include "adapters/whitedb/whitedb_lock.h"

namespace kvbench {

class WhitedbRecordTable final : public RecordTable {
 public:
  // `shared` and `lock` (the owning session's) outlive the table.
  WhitedbRecordTable(WhitedbDatabase* shared, const WhitedbSessionLock* lock, uint32_t field_count)
      : shared_(shared), db_(shared->db()), lock_(lock), field_count_(field_count) {}

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
  void* Record(RecordId id) const { return shared_->RecordAt(id); }
  bool Indexed(uint32_t field) const {
    return field <= kWhitedbMaxIndexedField && shared_->indexed[field];
  }
  // Deletes tombstones among targets_ that nothing refers to any more.
  void ReapTargets();
  // InsertRecord once the lock is held (or the batch holds it).
  Status InsertLocked(const FieldValue* values, RecordId* id);
  // InsertRecord outside a batch: InsertLocked under a lock of its own.
  Status InsertUnderCallLock(const FieldValue* values, RecordId* id);
  // The rest of InsertLocked's record from field `from`, any types.
  Status InsertFrom(void* record, const FieldValue* values, uint32_t from, RecordId* id);
  // QueryEqual's rows: every row of `query` (made with the caller's limit)
  // appended to *matches.
  void FetchAll(wg_query* query, std::vector<RecordId>* matches);
  // QueryEqual's rows when tombstones or a reference value need checking:
  // live rows only and, for a `reference` (its encoding, else 0), the rows
  // holding that very record, up to `limit` (0: all).
  void FetchFiltered(wg_query* query, uint32_t field, wg_int reference, size_t limit,
                     std::vector<RecordId>* matches);
  // InsertRecord's field of a type other than int64: false for a NULL left
  // as the raw record holds it; else its encoding in *encoded, or *error.
  bool EncodeOtherField(uint32_t field, const FieldValue& v, wg_int* encoded, Status* error);
  // Undoes a half-inserted record (out of line: keeps InsertRecord small).
  Status InsertFailed(void* record, uint32_t unset_from, Status cause);
  // wg_encode_int's failure (the database is full) on `field`.
  Status IntFieldFailed(void* record, uint32_t field);
  // wg_set_new_field's failure `result` on `field` of a half-inserted record.
  Status SetNewFieldFailed(void* record, uint32_t field, wg_int encoded, wg_int result);
  // The statuses for failed checks (out of line: built only on errors).
  Status NoRecord(RecordId id) const;
  Status WrongFieldCount(size_t given) const;
  Status BadField(uint32_t field) const;
  Status BadTarget(RecordId target) const;

  WhitedbDatabase* const shared_;
  void* const db_;
  const WhitedbSessionLock* const lock_;
  const uint32_t field_count_;
  std::vector<wg_int> targets_;  // DeleteRecord's and SetField's scratch
};

}  // namespace kvbench
