#include "engines/native/kv_store.h"

namespace nativedb {

Status KvStore::Open(Database* db, std::unique_ptr<KvStore>* store) {
  if (!db->HasIndex(kKeyField)) NATIVEDB_RETURN_IF_ERROR(db->CreateIndex(kKeyField));
  store->reset(new KvStore(db));
  return Status::OK();
}

Record KvStore::Find(std::string_view key) const {
  IndexCursor cursor;
  if (!db_->NewCursor(kKeyField, &cursor).ok()) return Record{};
  const Value probe = Value::Bytes(key);
  cursor.Seek(probe);
  if (cursor.Valid() && cursor.key() == probe) return cursor.record();
  return Record{};
}

Status KvStore::Put(std::string_view key, std::string_view value) {
  const Record found = Find(key);
  if (found) return db_->SetField(found, kValueField, Value::Bytes(value));
  Record r;
  NATIVEDB_RETURN_IF_ERROR(db_->CreateRecord(2, &r));
  Status st = db_->SetField(r, kValueField, Value::Bytes(value));
  if (st.ok()) st = db_->SetField(r, kKeyField, Value::Bytes(key));
  if (!st.ok()) db_->DeleteRecord(r);  // frees what was set; the store is as before
  return st;
}

Status KvStore::Get(std::string_view key, std::string* value) const {
  const Record found = Find(key);
  if (!found) return Status::NotFound("key");
  const std::string_view bytes = db_->GetField(found, kValueField).string_value();
  value->assign(bytes.data(), bytes.size());
  return Status::OK();
}

Status KvStore::Delete(std::string_view key) {
  const Record found = Find(key);
  if (!found) return Status::NotFound("key");
  return db_->DeleteRecord(found);
}

Status KvStore::Scan(std::string_view start, const KvScanOptions& options, KvVisitor* visitor,
                     size_t* visited) const {
  IndexCursor cursor;
  NATIVEDB_RETURN_IF_ERROR(db_->NewCursor(kKeyField, &cursor));
  if (options.forward) {
    options.from_edge ? cursor.SeekToFirst() : cursor.Seek(Value::Bytes(start));
  } else {
    options.from_edge ? cursor.SeekToLast() : cursor.SeekForPrev(Value::Bytes(start));
  }
  size_t n = 0;
  while (cursor.Valid() && (options.limit == 0 || n < options.limit)) {
    const Record r = cursor.record();
    ++n;
    if (!visitor->Visit(cursor.key().string_value(),
                        db_->GetField(r, kValueField).string_value())) {
      break;
    }
    options.forward ? cursor.Next() : cursor.Prev();
  }
  if (visited != nullptr) *visited = n;
  return Status::OK();
}

}  // namespace nativedb
