#include "runner/ycsb_record.h"

#include <cstring>

#include "datasets/value_generator.h"

namespace kvbench::runner {

namespace {

// Field bytes of (index, version, field) are value (index, version x 2^16 +
// field): distinct for every field of every version while versions stay
// below 2^48.
constexpr uint64_t kFieldVersionShift = 16;

uint32_t LoadLength(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

void StoreLength(uint32_t v, char* p) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

}  // namespace

YcsbRecordLayout::YcsbRecordLayout(const datasets::ValueGenerator* fields, uint32_t field_count)
    : fields_(fields),
      field_count_(field_count),
      variable_(fields->options().size_distribution !=
                datasets::ValueOptions::SizeDistribution::kFixed),
      fixed_length_(fields->options().size) {}

void YcsbRecordLayout::Field(uint64_t index, uint64_t version, uint32_t field,
                             std::string* out) const {
  fields_->Value(index, (version << kFieldVersionShift) + field, out);
}

void YcsbRecordLayout::Record(uint64_t index, uint64_t version, std::string* out) const {
  out->clear();
  const size_t header = variable_ ? 4 * static_cast<size_t>(field_count_) : 0;
  out->resize(header);
  std::string field;
  field.reserve(fields_->max_size());
  for (uint32_t f = 0; f < field_count_; ++f) {
    Field(index, version, f, &field);
    if (variable_) StoreLength(static_cast<uint32_t>(field.size()), out->data() + 4 * f);
    out->append(field);
  }
}

bool YcsbRecordLayout::Locate(Slice record, uint32_t field, size_t* offset,
                              size_t* length) const {
  if (field >= field_count_) return false;
  if (!variable_) {
    if (record.size() != fixed_length_ * field_count_) return false;
    *offset = fixed_length_ * field;
    *length = fixed_length_;
    return true;
  }
  const size_t header = 4 * static_cast<size_t>(field_count_);
  if (record.size() < header) return false;
  size_t at = header;
  size_t total = header;
  for (uint32_t f = 0; f < field_count_; ++f) {
    const uint32_t len = LoadLength(record.data() + 4 * f);
    if (f < field) at += len;
    total += len;
  }
  if (total != record.size()) return false;
  *offset = at;
  *length = LoadLength(record.data() + 4 * field);
  return true;
}

bool YcsbRecordLayout::ReplaceField(uint32_t field, Slice bytes, std::string* record) const {
  size_t offset = 0, length = 0;
  if (!Locate(*record, field, &offset, &length)) return false;
  if (!variable_) {
    if (bytes.size() != length) return false;
    std::memcpy(record->data() + offset, bytes.data(), length);
    return true;
  }
  record->replace(offset, length, bytes.data(), bytes.size());
  StoreLength(static_cast<uint32_t>(bytes.size()), record->data() + 4 * field);
  return true;
}

}  // namespace kvbench::runner
