#include "adapters/record_layer/table_meta.h"

#include "adapters/record_layer/record_codec.h"
#include "adapters/record_layer/varint.h"

namespace kvbench::record_layer {
namespace {

constexpr char kMagic[] = "kvbench.record_table";
constexpr int64_t kMetaVersion = 1;
constexpr size_t kFixedFields = 8;

Status Bad(const std::string& what) {
  return Status::Corruption("record layer: table metadata: " + what);
}

bool IsInt(const FieldValue& f) { return f.type == FieldType::kInt64 && f.int_value >= 0; }

}  // namespace

void EncodeTableMeta(const TableMeta& meta, std::string* out) {
  std::vector<FieldValue> fields;
  fields.reserve(kFixedFields + meta.names.size());
  fields.push_back(FieldValue::String(kMagic));
  fields.push_back(FieldValue::Int(kMetaVersion));
  fields.push_back(FieldValue::Int(meta.field_count));
  fields.push_back(FieldValue::Int(static_cast<int64_t>(meta.next_id)));
  fields.push_back(FieldValue::Int(meta.clean ? 1 : 0));
  fields.push_back(FieldValue::Int(static_cast<int64_t>(meta.next_generation)));
  std::string types;
  for (FieldType t : meta.types) types.push_back(static_cast<char>(t));
  fields.push_back(FieldValue::Bytes(std::move(types)));
  std::string indexes;
  for (const auto& index : meta.indexes) {
    record_codec::AppendVarint(index.field, &indexes);
    record_codec::AppendVarint(index.generation, &indexes);
  }
  fields.push_back(FieldValue::Bytes(std::move(indexes)));
  for (const auto& name : meta.names) fields.push_back(FieldValue::String(name));
  out->clear();
  record_codec::EncodeRecord(fields, {}, out);
}

Status DecodeTableMeta(Slice encoded, TableMeta* meta) {
  std::vector<FieldValue> f;
  KVBENCH_RETURN_IF_ERROR(record_codec::DecodeRecord(encoded, &f).WithContext("table metadata"));
  if (f.size() < kFixedFields || f[0] != FieldValue::String(kMagic)) return Bad("bad magic");
  if (f[1] != FieldValue::Int(kMetaVersion)) return Bad("unsupported version");
  for (size_t i = 2; i <= 5; ++i) {
    if (!IsInt(f[i])) return Bad("field " + std::to_string(i) + " is not a count");
  }
  if (f[6].type != FieldType::kBytes || f[7].type != FieldType::kBytes) {
    return Bad("types or indexes are not bytes");
  }
  const uint64_t count = static_cast<uint64_t>(f[2].int_value);
  if (count == 0 || count > UINT32_MAX || f[6].bytes.size() != count) {
    return Bad("field count " + std::to_string(count) + " with " +
               std::to_string(f[6].bytes.size()) + " types");
  }
  if (f.size() != kFixedFields && f.size() != kFixedFields + count) {
    return Bad(std::to_string(f.size() - kFixedFields) + " names for " + std::to_string(count) +
               " fields");
  }
  meta->field_count = static_cast<uint32_t>(count);
  meta->next_id = static_cast<RecordId>(f[3].int_value);
  meta->clean = f[4].int_value == 1;
  meta->next_generation = static_cast<uint64_t>(f[5].int_value);
  meta->types.clear();
  for (char c : f[6].bytes) {
    if (static_cast<uint8_t>(c) > static_cast<uint8_t>(FieldType::kReference)) {
      return Bad("unknown field type " + std::to_string(static_cast<uint8_t>(c)));
    }
    meta->types.push_back(static_cast<FieldType>(c));
  }
  meta->indexes.clear();
  const std::string& idx = f[7].bytes;
  const char* p = idx.data();
  const char* const end = p + idx.size();
  while (p < end) {
    uint64_t field, generation;
    if (!record_codec::ParseVarint(&p, end, &field) ||
        !record_codec::ParseVarint(&p, end, &generation) || field >= count) {
      return Bad("malformed index list");
    }
    meta->indexes.push_back({static_cast<uint32_t>(field), generation});
  }
  meta->names.clear();
  for (size_t i = kFixedFields; i < f.size(); ++i) {
    if (f[i].type != FieldType::kString) return Bad("a field name is not a string");
    meta->names.push_back(std::move(f[i].bytes));
  }
  return Status::OK();
}

}  // namespace kvbench::record_layer
