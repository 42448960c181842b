#include "adapters/native/native_record_table.h"

#include <string>

namespace kvbench {
namespace {

using nativedb::Record;
using nativedb::Value;

// Views the caller's bytes: nativedb copies them into the arena.
inline Value ToNative(const FieldValue& v) {
  switch (v.type) {
    case FieldType::kNull:
      return Value::Null();
    case FieldType::kInt64:
      return Value::Int(v.int_value);
    case FieldType::kDouble:
      return Value::Double(v.double_value);
    case FieldType::kString:
      return Value::String(v.bytes);
    case FieldType::kBytes:
      return Value::Bytes(v.bytes);
    case FieldType::kReference:
      return Value::Ref(Record{v.reference});
  }
  return Value::Null();
}

// Copies, so *out stays valid after the lock is released; reuses out->bytes.
inline void FromNativeValue(const Value& v, FieldValue* out) {
  switch (v.type()) {
    case nativedb::FieldType::kNull:
      out->type = FieldType::kNull;
      return;
    case nativedb::FieldType::kInt:
      out->type = FieldType::kInt64;
      out->int_value = v.int_value();
      return;
    case nativedb::FieldType::kDouble:
      out->type = FieldType::kDouble;
      out->double_value = v.double_value();
      return;
    case nativedb::FieldType::kString:
      out->type = FieldType::kString;
      out->bytes.assign(v.string_value());
      return;
    case nativedb::FieldType::kBytes:
      out->type = FieldType::kBytes;
      out->bytes.assign(v.string_value());
      return;
    case nativedb::FieldType::kRecord:
      out->type = FieldType::kReference;
      out->reference = v.record_value().offset;
      return;
  }
  out->type = FieldType::kNull;
}

}  // namespace

// The error paths are cold and never inlined, so the per-record calls keep
// small frames.
[[gnu::cold, gnu::noinline]] Status NativeRecordTable::NoRecord(RecordId id) const {
  return Status::NotFound("native: no record with id " + std::to_string(id));
}

[[gnu::cold, gnu::noinline]] Status NativeRecordTable::BadField(uint32_t field) const {
  return Status::InvalidArgument("native: field " + std::to_string(field) +
                                 " out of range for a table of " + std::to_string(field_count_) +
                                 " fields");
}

void NativeRecordTable::CopyFound(std::vector<RecordId>* matches) const {
  matches->resize(found_.size());
  for (size_t i = 0; i < found_.size(); ++i) (*matches)[i] = found_[i].offset;
}

Status NativeRecordTable::CreateRecord(RecordId* id) {
  NativeCallLock lock(*lock_, NativeCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  Record r;
  const nativedb::Status s = db_->CreateRecord(field_count_, &r);
  if (!s.ok()) return FromNative(s);
  *id = r.offset;
  return Status::OK();
}

Status NativeRecordTable::InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) {
  if (fields.size() != field_count_) {
    return Status::InvalidArgument("native: insert of " + std::to_string(fields.size()) +
                                   " fields into a table of " + std::to_string(field_count_));
  }
  NativeCallLock lock(*lock_, NativeCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  Record r;
  nativedb::Status s = db_->CreateRecord(field_count_, &r);
  if (!s.ok()) return FromNative(s);
  for (uint32_t f = 0; f < field_count_; ++f) {
    const FieldValue& v = fields[f];
    // Integers first: the common field, one branch instead of a jump table.
    s = v.type == FieldType::kInt64 ? db_->SetNewField(r, f, Value::Int(v.int_value))
                                    : db_->SetNewField(r, f, ToNative(v));
    if (!s.ok()) return InsertFailed(r, s);
  }
  *id = r.offset;
  return Status::OK();
}

[[gnu::cold, gnu::noinline]] Status NativeRecordTable::InsertFailed(nativedb::Record r,
                                                                    const nativedb::Status& s) {
  db_->DeleteRecord(r);  // frees the fields set so far: the table is as before
  return FromNative(s);
}

Status NativeRecordTable::SetField(RecordId id, uint32_t field, const FieldValue& value,
                                   SetMode mode) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  if (!IsRecord(id)) return NoRecord(id);
  const nativedb::Status s = mode == SetMode::kNew
                                 ? db_->SetNewField(Record{id}, field, ToNative(value))
                                 : db_->SetField(Record{id}, field, ToNative(value));
  return s.ok() ? Status::OK() : FromNative(s);
}

Status NativeRecordTable::GetField(RecordId id, uint32_t field, FieldValue* value) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!IsRecord(id)) return NoRecord(id);
  FromNativeValue(db_->GetField(Record{id}, field), value);
  return Status::OK();
}

Status NativeRecordTable::GetRecord(RecordId id, std::vector<FieldValue>* fields) {
  NativeCallLock lock(*lock_, NativeCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!IsRecord(id)) return NoRecord(id);
  fields->resize(field_count_);
  for (uint32_t f = 0; f < field_count_; ++f) {
    FromNativeValue(db_->GetField(Record{id}, f), &(*fields)[f]);
  }
  return Status::OK();
}

Status NativeRecordTable::DeleteRecord(RecordId id) {
  NativeCallLock lock(*lock_, NativeCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  if (!IsRecord(id)) return NoRecord(id);
  return FromNative(db_->DeleteRecord(Record{id}));
}

Status NativeRecordTable::ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                                    std::vector<RecordId>* matches, uint64_t* examined) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kRead);
  if (!lock.ok()) return lock.status();
  found_.clear();
  const size_t n = db_->ScanEqual(field, ToNative(value), limit, &found_);
  CopyFound(matches);
  if (examined != nullptr) {
    if (limit == 0 || n < limit) {
      // The walk saw every record, and every record is this table's.
      *examined = db_->RecordCount();
    } else {
      // Stopped at the limit-th match: count the records up to it (the same
      // address-order walk, reading only chunk headers).
      const uint64_t last = found_.back().offset;
      uint64_t seen = 0;
      db_->ForEachRecord([&seen, last](Record r) {
        ++seen;
        return r.offset != last;
      });
      *examined = seen;
    }
  }
  return Status::OK();
}

Status NativeRecordTable::CreateIndex(uint32_t field) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kWrite);
  if (!lock.ok()) return lock.status();
  return FromNative(db_->CreateIndex(field));
}

Status NativeRecordTable::QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                                     std::vector<RecordId>* matches) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kRead);
  if (!lock.ok()) return lock.status();
  const nativedb::Status s = db_->FindEqual(field, ToNative(value), limit, &found_);
  if (s.IsNotFound()) {
    return Status::InvalidArgument("native: field " + std::to_string(field) + " has no index");
  }
  if (!s.ok()) return FromNative(s);
  CopyFound(matches);
  return Status::OK();
}

Status NativeRecordTable::FollowReference(RecordId id, uint32_t field, RecordId* target) {
  if (field >= field_count_) return BadField(field);
  NativeCallLock lock(*lock_, NativeCallLock::kRead);
  if (!lock.ok()) return lock.status();
  if (!IsRecord(id)) return NoRecord(id);
  const Value v = db_->GetField(Record{id}, field);
  if (v.type() == nativedb::FieldType::kRecord) {
    *target = v.record_value().offset;
    return Status::OK();
  }
  return NotAReference(field, v.type());
}

[[gnu::cold, gnu::noinline]] Status NativeRecordTable::NotAReference(
    uint32_t field, nativedb::FieldType type) const {
  if (type == nativedb::FieldType::kNull) {
    return Status::NotFound("native: reference field is NULL");
  }
  return Status::InvalidArgument("native: field " + std::to_string(field) + " holds a " +
                                 nativedb::FieldTypeName(type) + ", not a reference");
}

}  // namespace kvbench
