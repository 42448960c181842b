#include "adapters/whitedb/whitedb_record_table.h"

#include <whitedb/dbapi.h>
// indexapi.h declares C functions without extern "C" (and needs dbapi.h first).
extern "C" {
#include <whitedb/indexapi.h>
}

#include <string>

#include "adapters/whitedb/whitedb_encoding.h"
#include "adapters/whitedb/whitedb_messages.h"

namespace kvbench {
namespace {

// wg_set_new_field's answer for a field that holds data or a bad field number
// (its other errors come after the value is stored).
constexpr wg_int kRefusedBeforeStoring = -2;

bool IsReference(void* db, wg_int encoded) {
  return encoded != 0 && wg_get_encoded_type(db, encoded) == WG_RECORDTYPE;
}

}  // namespace

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::NoRecord(RecordId id) const {
  return Status::NotFound("whitedb: no record with id " + std::to_string(id));
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::BadField(uint32_t field) const {
  return Status::InvalidArgument("whitedb: field " + std::to_string(field) +
                                 " out of range for a table of " + std::to_string(field_count_) +
                                 " fields");
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::BadTarget(RecordId target) const {
  return Status::InvalidArgument("whitedb: a reference to " + std::to_string(target) +
                                 ", which is not a live record");
}

Status WhitedbRecordTable::CreateRecord(RecordId* id) {
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  void* record = wg_create_record(db_, field_count_);
  if (record == nullptr) return shared_->Full("a record");
  *id = shared_->IdOf(record);
  shared_->MarkLive(*id);
  return Status::OK();
}

// Inlined into both of InsertRecord's paths. Integers, the seed's fields, stay
// in this loop; the first field of another type hands the rest of the record
// to InsertFrom, so this loop keeps all it uses in registers.
[[gnu::always_inline]] inline Status WhitedbRecordTable::InsertLocked(const FieldValue* values,
                                                                      RecordId* id) {
  // Locals, not members: the loop's calls could change members as far as the
  // compiler knows, so members would be loaded again around every call.
  void* const db = db_;
  const uint32_t count = field_count_;
  void* const record = wg_create_raw_record(db, count);
  if (record == nullptr) [[unlikely]] {
    return shared_->Full("a record");
  }
  for (uint32_t f = 0; f < count; ++f) {
    if (values[f].type != FieldType::kInt64) [[unlikely]] {
      return InsertFrom(record, values, f, id);
    }
    const wg_int encoded = wg_encode_int(db, values[f].int_value);
    if (encoded == WG_ILLEGAL) [[unlikely]] {
      return IntFieldFailed(record, f);
    }
    const wg_int r = wg_set_new_field(db, record, f, encoded);
    if (r < 0) [[unlikely]] {
      return SetNewFieldFailed(record, f, encoded, r);
    }
  }
  const RecordId rid = shared_->IdOf(record);
  shared_->MarkLive(rid);
  *id = rid;
  return Status::OK();
}

Status WhitedbRecordTable::InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) {
  if (fields.size() != field_count_) [[unlikely]] {
    return WrongFieldCount(fields.size());
  }
  // In a batch (how the seed workloads insert) the batch holds the lock, and
  // the call takes the shortest path: no lock object at all.
  if (lock_->in_batch()) [[likely]] {
    return InsertLocked(fields.data(), id);
  }
  return InsertUnderCallLock(fields.data(), id);
}

[[gnu::noinline]] Status WhitedbRecordTable::InsertUnderCallLock(const FieldValue* values,
                                                                 RecordId* id) {
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  return InsertLocked(values, id);
}

[[gnu::noinline]] Status WhitedbRecordTable::InsertFrom(void* record, const FieldValue* values,
                                                        uint32_t from, RecordId* id) {
  for (uint32_t f = from; f < field_count_; ++f) {
    wg_int encoded;
    if (values[f].type == FieldType::kInt64) {
      encoded = wg_encode_int(db_, values[f].int_value);
      if (encoded == WG_ILLEGAL) return IntFieldFailed(record, f);
    } else {
      Status error;
      if (!EncodeOtherField(f, values[f], &encoded, &error)) continue;
      if (!error.ok()) return InsertFailed(record, f, std::move(error));
    }
    const wg_int r = wg_set_new_field(db_, record, f, encoded);
    if (r < 0) return SetNewFieldFailed(record, f, encoded, r);
  }
  *id = shared_->IdOf(record);
  shared_->MarkLive(*id);
  return Status::OK();
}

[[gnu::noinline]] bool WhitedbRecordTable::EncodeOtherField(uint32_t field, const FieldValue& v,
                                                            wg_int* encoded, Status* error) {
  if (v.type == FieldType::kNull) {
    if (!Indexed(field)) return false;  // a raw record's fields are NULL already
    *encoded = 0;
    return true;
  }
  if (v.type == FieldType::kReference && !shared_->IsLive(v.reference)) {
    *error = BadTarget(v.reference);
    return true;
  }
  *error = EncodeWhitedbValue(db_, v, encoded);
  if (error->ok() && *encoded == WG_ILLEGAL) *error = shared_->Full("a field value");
  return true;
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::WrongFieldCount(size_t given) const {
  return Status::InvalidArgument("whitedb: insert of " + std::to_string(given) +
                                 " fields into a table of " + std::to_string(field_count_));
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::IntFieldFailed(void* record,
                                                                       uint32_t field) {
  return InsertFailed(record, field, shared_->Full("a field value"));
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::SetNewFieldFailed(void* record,
                                                                          uint32_t field,
                                                                          wg_int encoded,
                                                                          wg_int result) {
  // Refused before storing: the value is not in the record, so it is freed
  // here and the field is still unset; otherwise the record holds it.
  if (result == kRefusedBeforeStoring) wg_free_encoded(db_, encoded);
  Status cause = shared_->Full("an index entry");
  return InsertFailed(record, result == kRefusedBeforeStoring ? field : field + 1,
                      std::move(cause));
}

[[gnu::cold, gnu::noinline]] Status WhitedbRecordTable::InsertFailed(void* record,
                                                                     uint32_t unset_from,
                                                                     Status cause) {
  // wg_delete_record takes every indexed field out of its index, so the
  // indexed fields not set yet enter theirs as NULL first (best effort: the
  // database may be full).
  for (uint32_t f = unset_from; f < field_count_; ++f) {
    if (Indexed(f)) wg_set_new_field(db_, record, f, 0);
  }
  wg_delete_record(db_, record);
  DiscardWhitedbMessages();  // the cause quotes what WhiteDB said about it
  return cause;
}

Status WhitedbRecordTable::SetField(RecordId id, uint32_t field, const FieldValue& value,
                                    SetMode mode) {
  if (field >= field_count_) return BadField(field);
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  if (!shared_->IsLive(id)) return NoRecord(id);
  if (value.type == FieldType::kReference && !shared_->IsLive(value.reference)) {
    return BadTarget(value.reference);
  }
  wg_int encoded;
  KVBENCH_RETURN_IF_ERROR(EncodeWhitedbValue(db_, value, &encoded));
  if (encoded == WG_ILLEGAL) return shared_->Full("a field value");
  void* record = Record(id);
  wg_int r;
  if (mode == SetMode::kNew && !Indexed(field)) {
    r = wg_set_new_field(db_, record, field, encoded);
  } else {
    // A replaced reference may have been the last one to a tombstone.
    const wg_int old = shared_->tombstones.empty() ? 0 : wg_get_field(db_, record, field);
    r = wg_set_field(db_, record, field, encoded);
    if (r >= 0 && IsReference(db_, old)) {
      targets_.assign(1, old);
      ReapTargets();
    }
  }
  if (r == kRefusedBeforeStoring) {
    wg_free_encoded(db_, encoded);
    DiscardWhitedbMessages();  // "wg_set_new_field called on field that contains data"
    return Status::InvalidArgument("whitedb: field " + std::to_string(field) +
                                   " set as new holds a value already");
  }
  if (r < 0) return shared_->Full("an index entry");
  return Status::OK();
}

Status WhitedbRecordTable::GetField(RecordId id, uint32_t field, FieldValue* value) {
  if (field >= field_count_) return BadField(field);
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!shared_->IsLive(id)) return NoRecord(id);
  return DecodeWhitedbValue(db_, wg_get_field(db_, Record(id), field), value);
}

Status WhitedbRecordTable::GetRecord(RecordId id, std::vector<FieldValue>* fields) {
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!shared_->IsLive(id)) return NoRecord(id);
  void* record = Record(id);
  fields->resize(field_count_);
  for (uint32_t f = 0; f < field_count_; ++f) {
    KVBENCH_RETURN_IF_ERROR(DecodeWhitedbValue(db_, wg_get_field(db_, record, f), &(*fields)[f]));
  }
  return Status::OK();
}

Status WhitedbRecordTable::DeleteRecord(RecordId id) {
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  if (!shared_->IsLive(id)) return NoRecord(id);
  void* record = Record(id);
  // The tombstones this record refers to may lose their last reference.
  targets_.clear();
  if (!shared_->tombstones.empty()) {
    for (uint32_t f = 0; f < field_count_; ++f) {
      const wg_int v = wg_get_field(db_, record, f);
      if (IsReference(db_, v) && v != static_cast<wg_int>(id)) targets_.push_back(v);
    }
  }
  wg_int r = wg_delete_record(db_, record);
  if (r == -1) {
    // Others refer to it (WhiteDB's backlinks). Clearing its fields drops
    // its own references (one may have been to itself) and its values.
    for (uint32_t f = 0; f < field_count_; ++f) {
      if (wg_get_field(db_, record, f) != 0 && wg_set_field(db_, record, f, 0) < 0) {
        return shared_->Full("an index entry");
      }
    }
    r = wg_delete_record(db_, record);
    if (r == -1) {
      shared_->MarkDead(id);
      shared_->tombstones.insert(id);
      ReapTargets();
      return Status::OK();
    }
  }
  if (r != 0) {
    return Status::Internal("whitedb: wg_delete_record failed (" + std::to_string(r) + ")" +
                            TakeWhitedbMessages());
  }
  shared_->MarkDead(id);
  ReapTargets();
  return Status::OK();
}

void WhitedbRecordTable::ReapTargets() {
  for (const wg_int target : targets_) {
    const auto it = shared_->tombstones.find(static_cast<RecordId>(target));
    if (it == shared_->tombstones.end()) continue;
    void* record = Record(*it);
    if (wg_get_first_parent(db_, record) != nullptr) continue;
    if (wg_delete_record(db_, record) == 0) shared_->tombstones.erase(it);
  }
}

Status WhitedbRecordTable::ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                                     std::vector<RecordId>* matches, uint64_t* examined) {
  if (field >= field_count_) return BadField(field);
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kRead);
  if (!lock.ok()) return lock.status();
  matches->clear();
  const WhitedbFieldProbe probe(db_, value);
  // Every record in the database is this table's (one table per database);
  // only tombstones are skipped.
  const bool skip_tombstones = !shared_->tombstones.empty();
  uint64_t seen = 0;
  for (void* record = wg_get_first_record(db_); record != nullptr;
       record = wg_get_next_record(db_, record)) {
    if (skip_tombstones && !shared_->IsLive(shared_->IdOf(record))) {
      continue;
    }
    ++seen;
    if (probe.Matches(wg_get_field(db_, record, field))) {
      matches->push_back(shared_->IdOf(record));
      if (limit != 0 && matches->size() == limit) break;
    }
  }
  if (examined != nullptr) *examined = seen;
  return Status::OK();
}

Status WhitedbRecordTable::CreateIndex(uint32_t field) {
  if (field >= field_count_) return BadField(field);
  if (field > kWhitedbMaxIndexedField) {
    return Status::InvalidArgument("whitedb: field " + std::to_string(field) +
                                   ": WhiteDB indexes fields 0-" +
                                   std::to_string(kWhitedbMaxIndexedField) + " only");
  }
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  if (shared_->indexed[field]) {
    return Status::InvalidArgument("whitedb: field " + std::to_string(field) + " has an index");
  }
  if (wg_create_index(db_, field, WG_INDEX_TYPE_TTREE, nullptr, 0) < 0) {
    return shared_->Full("the index on field " + std::to_string(field));
  }
  // WhiteDB announces every new index ("new index created on rec field N ...").
  DiscardWhitedbMessages();
  shared_->indexed[field] = true;
  shared_->any_index = true;
  return Status::OK();
}

Status WhitedbRecordTable::QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                                      std::vector<RecordId>* matches) {
  if (field >= field_count_) return BadField(field);
  // Declared before the parameter: a bytes parameter lives in the database
  // and is released under the lock.
  WhitedbCallLock lock(*lock_, WhitedbQueryParam::NeedsWriteLock(value) ? WhitedbCallLock::kWrite
                                                                        : WhitedbCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!Indexed(field)) {
    return Status::InvalidArgument("whitedb: field " + std::to_string(field) + " has no index");
  }
  matches->clear();
  const bool reference = value.type == FieldType::kReference;
  // WhiteDB compares records by content in its index; only a real record
  // may be compared, and only the same record counts as equal.
  if (reference && !shared_->IsLive(value.reference) &&
      shared_->tombstones.count(value.reference) == 0) {
    return Status::OK();
  }
  WhitedbQueryParam param(db_, value);
  Status s = param.Encode();
  if (s.IsNotFound()) return Status::OK();
  KVBENCH_RETURN_IF_ERROR(s);
  const bool filter = reference || !shared_->tombstones.empty();
  wg_query_arg arg{static_cast<wg_int>(field), WG_COND_EQUAL, param.encoded()};
  wg_query* query = wg_make_query_rc(db_, nullptr, 0, &arg, 1, filter ? 0 : limit);
  if (query == nullptr) {
    return Status::IOError("whitedb: wg_make_query failed" + TakeWhitedbMessages());
  }
  if (filter) {
    FetchFiltered(query, field, reference ? param.encoded() : 0, limit, matches);
  } else {
    FetchAll(query, matches);
  }
  wg_free_query(db_, query);
  return Status::OK();
}

void WhitedbRecordTable::FetchAll(wg_query* query, std::vector<RecordId>* matches) {
  // WhiteDB stops at the query's row limit itself. The ids go through a block
  // on the stack, so each match costs a store, not a push_back's checks;
  // `base` is IdOf's base, held in a register across the calls.
  void* const db = db_;
  const char* const base = static_cast<const char*>(shared_->RecordAt(0));
  constexpr size_t kBlock = 128;
  RecordId block[kBlock];
  size_t n = 0;
  while (void* record = wg_fetch(db, query)) {
    block[n++] = static_cast<RecordId>(static_cast<const char*>(record) - base);
    if (n == kBlock) [[unlikely]] {
      matches->insert(matches->end(), block, block + n);
      n = 0;
    }
  }
  matches->insert(matches->end(), block, block + n);
}

[[gnu::noinline]] void WhitedbRecordTable::FetchFiltered(wg_query* query, uint32_t field,
                                                         wg_int reference, size_t limit,
                                                         std::vector<RecordId>* matches) {
  while (void* record = wg_fetch(db_, query)) {
    const RecordId id = shared_->IdOf(record);
    if (!shared_->IsLive(id) || (reference != 0 && wg_get_field(db_, record, field) != reference)) {
      continue;
    }
    matches->push_back(id);
    if (limit != 0 && matches->size() == limit) break;
  }
}

Status WhitedbRecordTable::FollowReference(RecordId id, uint32_t field, RecordId* target) {
  if (field >= field_count_) return BadField(field);
  WhitedbCallLock lock(*lock_, WhitedbCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!shared_->IsLive(id)) return NoRecord(id);
  const wg_int v = wg_get_field(db_, Record(id), field);
  if (IsReference(db_, v)) {
    *target = static_cast<RecordId>(v);
    return Status::OK();
  }
  if (v == 0) return Status::NotFound("whitedb: reference field is NULL");
  return Status::InvalidArgument("whitedb: field " + std::to_string(field) +
                                 " holds WhiteDB type " +
                                 std::to_string(wg_get_encoded_type(db_, v)) + ", not a reference");
}

}  // namespace kvbench
