#include "adapters/record_layer/kv_record_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "adapters/record_layer/record_index.h"

namespace kvbench {

Status OpenKvRecordTable(Session* session, const RecordTableSpec& spec,
                         std::unique_ptr<RecordTable>* table) {
  return record_layer::KvRecordTable::Open(session, spec, table);
}

namespace record_layer {
namespace {

using record_codec::FieldView;
using record_codec::RecordHeader;

void AppendDecimal(uint64_t v, std::string* out) {
  char buf[20];
  out->append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr - buf);
}

// The id spelled by a record key's tail; 0 (never an id) when it is not one.
RecordId ParseId(Slice digits) {
  RecordId id = 0;
  if (digits.empty() || digits[0] == '0') return 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || end != digits.data() + digits.size()) return 0;
  return id;
}

// Forwards the records of one ordered Scan to a walk's callback.
template <typename Fn>
class RecordScanVisitor final : public ScanVisitor {
 public:
  RecordScanVisitor(Slice prefix, std::string* resume_key, Fn* fn)
      : prefix_(prefix), resume_key_(resume_key), fn_(fn) {}

  bool Visit(Slice key, Slice value) override {
    visited_any = true;
    if (!key.starts_with(prefix_)) return false;  // past the table's records
    const RecordId id = ParseId(key.substr(prefix_.size()));
    if (id == 0) {
      error = Status::Corruption("record layer: key '" + std::string(key) + "' is not a record id");
      return false;
    }
    if (value.empty()) return true;  // not a record (the codec never writes one)
    if ((*fn_)(id, value)) return true;
    paused = true;
    resume_key_->assign(key);
    resume_key_->push_back('\0');  // the smallest key after this one
    return false;
  }

  bool visited_any = false;
  bool paused = false;
  Status error;

 private:
  Slice prefix_;
  std::string* resume_key_;
  Fn* fn_;
};

}  // namespace

Status ValidateRecordTableSpec(const RecordTableSpec& spec) {
  bool name_ok = !spec.name.empty() && spec.name.size() <= 64;
  for (char c : spec.name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) name_ok = false;
  }
  if (!name_ok) {
    return Status::InvalidArgument("record table name '" + spec.name +
                                   "': use 1 to 64 letters, digits and '_'");
  }
  if (spec.types.empty()) {
    return Status::InvalidArgument("record table '" + spec.name + "': no fields");
  }
  if (!spec.field_names.empty() && spec.field_names.size() != spec.types.size()) {
    return Status::InvalidArgument(
        "record table '" + spec.name + "': " + std::to_string(spec.field_names.size()) +
        " field names for " + std::to_string(spec.types.size()) + " fields");
  }
  return Status::OK();
}

Status KvRecordTable::Open(Session* session, const RecordTableSpec& spec,
                           std::unique_ptr<RecordTable>* table) {
  KVBENCH_RETURN_IF_ERROR(ValidateRecordTableSpec(spec));
  std::unique_ptr<KvRecordTable> opened(new KvRecordTable(session, spec));
  KVBENCH_RETURN_IF_ERROR(opened->Load());
  *table = std::move(opened);
  return Status::OK();
}

KvRecordTable::KvRecordTable(Session* session, const RecordTableSpec& spec)
    : session_(session),
      spec_(spec),
      field_count_(static_cast<uint32_t>(spec.types.size())),
      record_prefix_("/" + spec.name + "/"),
      meta_key_("/" + spec.name + "#meta"),
      names_(spec_.field_names.empty() ? nullptr : spec_.field_names.data()) {}

KvRecordTable::~KvRecordTable() {
  if (loaded_) WriteMeta(/*clean=*/true);
}

Status KvRecordTable::Load() {
  Status s = session_->Get(meta_key_, &record_);
  if (s.ok() && !record_.empty()) {
    KVBENCH_RETURN_IF_ERROR(DecodeTableMeta(record_, &meta_).WithContext(meta_key_));
    if (meta_.field_count != field_count_) {
      return Status::InvalidArgument("record table '" + spec_.name + "' has " +
                                     std::to_string(meta_.field_count) + " fields; the spec has " +
                                     std::to_string(field_count_));
    }
    if (meta_.names != spec_.field_names) {
      return Status::InvalidArgument("record table '" + spec_.name +
                                     "' was created with other field names than the spec's");
    }
    KVBENCH_RETURN_IF_ERROR(ProbeNextId(meta_.clean));
  } else if (s.ok() || s.IsNotFound()) {  // an empty value: the null engine keeps nothing
    meta_ = TableMeta();
    meta_.field_count = field_count_;
    meta_.types = spec_.types;
    meta_.names = spec_.field_names;
    next_id_ = 1;
  } else {
    return s.WithContext("record table '" + spec_.name + "': reading " + meta_key_);
  }
  // While a table object is open its stored metadata is never clean: a crash
  // then makes the next open probe.
  reserved_ = next_id_ + kIdReservation;
  KVBENCH_RETURN_IF_ERROR(WriteMeta(/*clean=*/false));
  const std::vector<FieldValue> nulls(field_count_);
  record_codec::EncodeRecord(nulls.data(), nulls.size(), names_, &null_record_);
  loaded_ = true;
  return Status::OK();
}

Status KvRecordTable::ProbeNextId(bool clean) {
  next_id_ = std::max<RecordId>(meta_.next_id, 1);
  bool exists = false;
  if (!clean) {
    // Ids at or past the stored next id exist only when a reservation's write
    // was lost (an aborted batch); they lie within one reservation of it.
    const RecordId window_end = next_id_ + kIdReservation;
    for (RecordId id = next_id_; id < window_end; ++id) {
      KVBENCH_RETURN_IF_ERROR(Exists(id, &exists));
      if (exists) next_id_ = id + 1;
    }
  }
  for (;;) {
    KVBENCH_RETURN_IF_ERROR(Exists(next_id_, &exists));
    if (!exists) return Status::OK();
    ++next_id_;
  }
}

Status KvRecordTable::WriteMeta(bool clean) {
  meta_.next_id = clean ? next_id_ : std::max(reserved_, next_id_);
  meta_.clean = clean;
  EncodeTableMeta(meta_, &encoded_);
  return session_->Put(meta_key_, encoded_);
}

Status KvRecordTable::AllocateId(RecordId* id) {
  if (next_id_ >= reserved_) {
    const RecordId previous = reserved_;
    reserved_ = next_id_ + kIdReservation;
    Status s = WriteMeta(/*clean=*/false);
    if (!s.ok()) {
      reserved_ = previous;
      return s;
    }
  }
  *id = next_id_++;
  return Status::OK();
}

Status KvRecordTable::CheckField(uint32_t field) const {
  if (field < field_count_) return Status::OK();
  return Status::InvalidArgument("record table '" + spec_.name + "': field " +
                                 std::to_string(field) + " out of range (" +
                                 std::to_string(field_count_) + " fields)");
}

const TableMeta::Index* KvRecordTable::FindIndex(uint32_t field) const {
  for (const auto& index : meta_.indexes) {
    if (index.field == field) return &index;
  }
  return nullptr;
}

void KvRecordTable::MakeRecordKey(RecordId id, std::string* key) const {
  key->assign(record_prefix_);
  AppendDecimal(id, key);
}

Status KvRecordTable::ReadHeader(Slice record, RecordHeader* header) const {
  KVBENCH_RETURN_IF_ERROR(record_codec::ReadHeader(record, header));
  if (header->field_count == field_count_) return Status::OK();
  return Status::Corruption("record layer: a record of table '" + spec_.name + "' has " +
                            std::to_string(header->field_count) + " fields; the table has " +
                            std::to_string(field_count_));
}

Status KvRecordTable::ReadRecord(RecordId id) {
  MakeRecordKey(id, &key_);
  Status s = session_->Get(key_, &record_);
  if (!s.ok()) return s;
  if (record_.empty()) return Status::NotFound();
  return ReadHeader(record_, &header_).WithContext(key_);
}

Status KvRecordTable::Exists(RecordId id, bool* exists) {
  MakeRecordKey(id, &key_);
  Status s = session_->Get(key_, &record_);
  *exists = s.ok() && !record_.empty();
  return s.ok() || s.IsNotFound() ? Status::OK() : s;
}

void KvRecordTable::MakeIndexKey(const TableMeta::Index& index, Slice canonical, std::string* key,
                                 bool* hashed) const {
  key->assign(meta_key_, 0, spec_.name.size() + 1);  // "/<table>"
  key->append("#i");
  AppendDecimal(index.field, key);
  key->push_back('.');
  AppendDecimal(index.generation, key);
  key->push_back('#');
  *hashed = record_index::AppendValuePart(canonical, key);
}

Status KvRecordTable::IndexAdd(const TableMeta::Index& index, Slice canonical, const RecordId* ids,
                               size_t count) {
  bool hashed;
  MakeIndexKey(index, canonical, &index_key_, &hashed);
  Status s = session_->Get(index_key_, &posting_);
  if (s.IsNotFound()) {
    posting_.clear();
  } else if (!s.ok()) {
    return s;
  }
  record_index::PostingAdd(hashed, canonical, ids, count, &posting_, &posting_scratch_);
  return session_->Put(index_key_, posting_);
}

Status KvRecordTable::IndexRemove(const TableMeta::Index& index, Slice canonical, RecordId id) {
  bool hashed;
  MakeIndexKey(index, canonical, &index_key_, &hashed);
  Status s = session_->Get(index_key_, &posting_);
  if (s.IsNotFound()) return Status::OK();  // nothing to remove (an interrupted write)
  if (!s.ok()) return s;
  bool removed;
  KVBENCH_RETURN_IF_ERROR(
      record_index::PostingRemove(hashed, canonical, id, &posting_, &posting_scratch_, &removed)
          .WithContext(index_key_));
  if (!removed) return Status::OK();
  if (!posting_.empty()) return session_->Put(index_key_, posting_);
  s = session_->Delete(index_key_);
  return s.IsNotFound() ? Status::OK() : s;
}

Status KvRecordTable::CreateRecord(RecordId* id) {
  RecordId new_id;
  KVBENCH_RETURN_IF_ERROR(AllocateId(&new_id));
  MakeRecordKey(new_id, &key_);
  KVBENCH_RETURN_IF_ERROR(session_->Put(key_, null_record_));
  if (!meta_.indexes.empty()) {
    record_index::CanonicalValue(FieldValue::Null(), &new_canonical_);
    for (const auto& index : meta_.indexes) {
      KVBENCH_RETURN_IF_ERROR(IndexAdd(index, new_canonical_, &new_id, 1));
    }
  }
  *id = new_id;
  return Status::OK();
}

Status KvRecordTable::InsertRecord(const std::vector<FieldValue>& fields, RecordId* id) {
  if (fields.size() != field_count_) {
    return Status::InvalidArgument("record table '" + spec_.name +
                                   "': " + std::to_string(fields.size()) +
                                   " fields given; it has " + std::to_string(field_count_));
  }
  RecordId new_id;
  KVBENCH_RETURN_IF_ERROR(AllocateId(&new_id));
  encoded_.clear();
  record_codec::EncodeRecord(fields.data(), fields.size(), names_, &encoded_);
  MakeRecordKey(new_id, &key_);
  KVBENCH_RETURN_IF_ERROR(session_->Put(key_, encoded_));
  for (const auto& index : meta_.indexes) {
    record_index::CanonicalValue(fields[index.field], &new_canonical_);
    KVBENCH_RETURN_IF_ERROR(IndexAdd(index, new_canonical_, &new_id, 1));
  }
  *id = new_id;
  return Status::OK();
}

// Both modes read the record: the value is rewritten whole anyway, and the old
// field then costs nothing to look at, so indexes stay right even when a
// kNew field was not NULL.
Status KvRecordTable::SetField(RecordId id, uint32_t field, const FieldValue& value, SetMode) {
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  KVBENCH_RETURN_IF_ERROR(ReadRecord(id));
  FieldView old;
  KVBENCH_RETURN_IF_ERROR(record_codec::FindField(record_, header_, field, &old).WithContext(key_));
  const TableMeta::Index* index = FindIndex(field);
  if (index != nullptr) record_index::CanonicalValue(old, &old_canonical_);
  encoded_.assign(record_, 0, old.begin);
  record_codec::EncodeField(value, &encoded_);
  encoded_.append(record_, old.end, std::string::npos);
  KVBENCH_RETURN_IF_ERROR(session_->Put(key_, encoded_));  // key_: set by ReadRecord
  if (index == nullptr) return Status::OK();
  record_index::CanonicalValue(value, &new_canonical_);
  if (new_canonical_ == old_canonical_) return Status::OK();
  KVBENCH_RETURN_IF_ERROR(IndexRemove(*index, old_canonical_, id));
  return IndexAdd(*index, new_canonical_, &id, 1);
}

Status KvRecordTable::GetField(RecordId id, uint32_t field, FieldValue* value) {
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  KVBENCH_RETURN_IF_ERROR(ReadRecord(id));
  FieldView view;
  KVBENCH_RETURN_IF_ERROR(
      record_codec::FindField(record_, header_, field, &view).WithContext(key_));
  record_codec::CopyField(view, value);
  return Status::OK();
}

Status KvRecordTable::GetRecord(RecordId id, std::vector<FieldValue>* fields) {
  KVBENCH_RETURN_IF_ERROR(ReadRecord(id));
  return record_codec::DecodeRecord(record_, fields).WithContext(key_);
}

Status KvRecordTable::DeleteRecord(RecordId id) {
  if (meta_.indexes.empty()) {  // nothing to unindex: no need to read it
    MakeRecordKey(id, &key_);
    return session_->Delete(key_);
  }
  KVBENCH_RETURN_IF_ERROR(ReadRecord(id));
  FieldView view;
  for (const auto& index : meta_.indexes) {
    KVBENCH_RETURN_IF_ERROR(
        record_codec::FindField(record_, header_, index.field, &view).WithContext(key_));
    record_index::CanonicalValue(view, &old_canonical_);
    KVBENCH_RETURN_IF_ERROR(IndexRemove(index, old_canonical_, id));
  }
  Status s = session_->Delete(key_);  // key_: set by ReadRecord
  return s.IsNotFound() ? Status::OK() : s;
}

template <typename Fn>
Status KvRecordTable::Walk(RecordWalk* walk, Fn&& fn) {
  if (walk->done) return Status::OK();
  if (walk->use_scan) {
    const Slice start = walk->resumed ? Slice(walk_from_) : Slice(record_prefix_);
    RecordScanVisitor<std::remove_reference_t<Fn>> visitor(record_prefix_, &walk_pause_, &fn);
    Status s = session_->Scan(start, ScanOptions(), &visitor, nullptr);
    if (!(s.IsNotSupported() && !visitor.visited_any)) {
      KVBENCH_RETURN_IF_ERROR(s);
      KVBENCH_RETURN_IF_ERROR(visitor.error);
      walk->done = !visitor.paused;
      if (visitor.paused) {
        walk_from_.swap(walk_pause_);
        walk->resumed = true;
      }
      return Status::OK();
    }
    walk->use_scan = false;  // an unordered engine: look up every id ever assigned
  }
  while (walk->next_id < next_id_) {
    const RecordId id = walk->next_id++;
    MakeRecordKey(id, &key_);
    Status s = session_->Get(key_, &record_);
    if (s.IsNotFound() || (s.ok() && record_.empty())) continue;
    KVBENCH_RETURN_IF_ERROR(s);
    if (!fn(id, Slice(record_))) return Status::OK();
  }
  walk->done = true;
  return Status::OK();
}

Status KvRecordTable::ScanEqual(uint32_t field, const FieldValue& value, size_t limit,
                                std::vector<RecordId>* matches, uint64_t* examined) {
  matches->clear();
  if (examined != nullptr) *examined = 0;
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  uint64_t looked_at = 0;
  Status error;
  RecordHeader header;
  FieldView view;
  auto visit = [&](RecordId id, Slice record) {
    ++looked_at;
    error = ReadHeader(record, &header);
    if (error.ok()) error = record_codec::FindField(record, header, field, &view);
    if (!error.ok()) return false;
    if (!record_codec::FieldEquals(view, value)) return true;
    matches->push_back(id);
    return limit == 0 || matches->size() < limit;
  };
  RecordWalk walk;
  KVBENCH_RETURN_IF_ERROR(Walk(&walk, visit));
  KVBENCH_RETURN_IF_ERROR(error.WithContext("record table '" + spec_.name + "'"));
  if (examined != nullptr) *examined = looked_at;
  return Status::OK();
}

Status KvRecordTable::BuildIndex(const TableMeta::Index& index) {
  std::unordered_map<std::string, std::vector<RecordId>> pending;
  size_t pending_ids = 0;
  Status error;
  RecordHeader header;
  FieldView view;
  auto collect = [&](RecordId id, Slice record) {
    error = ReadHeader(record, &header);
    if (error.ok()) error = record_codec::FindField(record, header, index.field, &view);
    if (!error.ok()) return false;
    record_index::CanonicalValue(view, &new_canonical_);
    pending[new_canonical_].push_back(id);
    return ++pending_ids < index_build_chunk_;
  };
  // Writes happen between walk steps, never inside an engine's Scan.
  RecordWalk walk;
  while (!walk.done) {
    KVBENCH_RETURN_IF_ERROR(Walk(&walk, collect));
    KVBENCH_RETURN_IF_ERROR(error.WithContext("record table '" + spec_.name + "'"));
    for (const auto& [canonical, ids] : pending) {
      KVBENCH_RETURN_IF_ERROR(IndexAdd(index, canonical, ids.data(), ids.size()));
    }
    pending.clear();
    pending_ids = 0;
  }
  return Status::OK();
}

Status KvRecordTable::CreateIndex(uint32_t field) {
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  if (FindIndex(field) != nullptr) {
    return Status::InvalidArgument("record table '" + spec_.name + "': field " +
                                   std::to_string(field) + " already has an index");
  }
  // The generation is stored as used before the build, so keys left by a
  // build that a crash interrupted are never read as this index's.
  const TableMeta::Index index{field, meta_.next_generation++};
  KVBENCH_RETURN_IF_ERROR(WriteMeta(/*clean=*/false));
  KVBENCH_RETURN_IF_ERROR(BuildIndex(index));
  meta_.indexes.push_back(index);
  Status s = WriteMeta(/*clean=*/false);
  if (!s.ok()) meta_.indexes.pop_back();
  return s;
}

Status KvRecordTable::QueryEqual(uint32_t field, const FieldValue& value, size_t limit,
                                 std::vector<RecordId>* matches) {
  matches->clear();
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  const TableMeta::Index* index = FindIndex(field);
  if (index == nullptr) {
    return Status::InvalidArgument("record table '" + spec_.name + "': field " +
                                   std::to_string(field) + " has no index");
  }
  if (value.type == FieldType::kDouble && std::isnan(value.double_value)) {
    return Status::OK();  // NaN equals nothing (as in ScanEqual)
  }
  record_index::CanonicalValue(value, &new_canonical_);
  bool hashed;
  MakeIndexKey(*index, new_canonical_, &index_key_, &hashed);
  Status s = session_->Get(index_key_, &posting_);
  if (s.IsNotFound()) return Status::OK();
  KVBENCH_RETURN_IF_ERROR(s);
  return record_index::PostingRead(hashed, new_canonical_, posting_, limit, matches)
      .WithContext(index_key_);
}

Status KvRecordTable::FollowReference(RecordId id, uint32_t field, RecordId* target) {
  KVBENCH_RETURN_IF_ERROR(CheckField(field));
  KVBENCH_RETURN_IF_ERROR(ReadRecord(id));
  FieldView view;
  KVBENCH_RETURN_IF_ERROR(
      record_codec::FindField(record_, header_, field, &view).WithContext(key_));
  if (view.type == FieldType::kNull) return Status::NotFound();
  if (view.type != FieldType::kReference) {
    return Status::InvalidArgument("record table '" + spec_.name + "': field " +
                                   std::to_string(field) + " holds " + FieldTypeName(view.type) +
                                   ", not a reference");
  }
  *target = view.reference;
  return Status::OK();
}

}  // namespace record_layer
}  // namespace kvbench
