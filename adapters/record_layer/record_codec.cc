#include "adapters/record_layer/record_codec.h"

#include <bit>
#include <cstring>
#include <string_view>

#include "adapters/record_layer/varint.h"

namespace kvbench::record_codec {
namespace {

inline char* PutFixed64(char* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, 8);
  } else {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
  }
  return p + 8;
}

inline uint64_t GetFixed64(const char* p) {
  uint64_t v;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, 8);
  } else {
    v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return v;
}

inline size_t PayloadSize(FieldType type, size_t bytes_size) {
  switch (type) {
    case FieldType::kInt64:
    case FieldType::kDouble:
    case FieldType::kReference:
      return 8;
    case FieldType::kString:
    case FieldType::kBytes:
      return VarintLength(bytes_size) + bytes_size;
    case FieldType::kNull:
      break;
  }
  return 0;
}

// The tag for a type; an out-of-range enum value is written as null.
inline uint8_t TagOf(FieldType type) {
  switch (type) {
    case FieldType::kInt64:
      return kTagInt64;
    case FieldType::kDouble:
      return kTagDouble;
    case FieldType::kString:
      return kTagString;
    case FieldType::kBytes:
      return kTagBytes;
    case FieldType::kReference:
      return kTagReference;
    case FieldType::kNull:
      break;
  }
  return kTagNull;
}

// Writes tag and payload of a field given as its parts; `p` has room for
// 1 + PayloadSize(type, bytes.size()).
inline char* PutField(char* p, FieldType type, int64_t i, double d, RecordId ref, Slice bytes) {
  const uint8_t tag = TagOf(type);
  *p++ = static_cast<char>(tag);
  switch (tag) {
    case kTagInt64:
      return PutFixed64(p, static_cast<uint64_t>(i));
    case kTagDouble:
      return PutFixed64(p, std::bit_cast<uint64_t>(d));
    case kTagReference:
      return PutFixed64(p, ref);
    case kTagString:
    case kTagBytes:
      p = PutVarint(p, bytes.size());
      if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
      return p + bytes.size();
    default:
      return p;
  }
}

// A bounds-checked cursor over an encoded record.
class Reader {
 public:
  Reader(Slice input, size_t pos) : data_(input.data()), size_(input.size()), pos_(pos) {}

  size_t pos() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  Status Varint(uint64_t* v, const char* what) {
    const char* p = data_ + pos_;
    if (!ParseVarint(&p, data_ + size_, v)) return Error("truncated or overlong varint", what);
    pos_ = p - data_;
    return Status::OK();
  }

  // A varint length followed by that many bytes.
  Status LengthPrefixed(Slice* out, const char* what) {
    uint64_t length = 0;
    KVBENCH_RETURN_IF_ERROR(Varint(&length, what));
    if (length > remaining()) {
      return Error("length " + std::to_string(length) + " exceeds the " +
                       std::to_string(remaining()) + " remaining bytes",
                   what);
    }
    *out = Slice(data_ + pos_, length);
    pos_ += length;
    return Status::OK();
  }

  Status Field(FieldView* view) {
    view->begin = pos_;
    if (pos_ >= size_) return Error("truncated before the type tag", "field");
    const uint8_t tag = static_cast<uint8_t>(data_[pos_++]);
    switch (tag) {
      case kTagNull:
        view->type = FieldType::kNull;
        break;
      case kTagInt64:
      case kTagDouble:
      case kTagReference: {
        if (remaining() < 8) return Error("truncated 8-byte payload", "field");
        const uint64_t bits = GetFixed64(data_ + pos_);
        pos_ += 8;
        if (tag == kTagInt64) {
          view->type = FieldType::kInt64;
          view->int_value = static_cast<int64_t>(bits);
        } else if (tag == kTagDouble) {
          view->type = FieldType::kDouble;
          view->double_value = std::bit_cast<double>(bits);
        } else {
          view->type = FieldType::kReference;
          view->reference = bits;
        }
        break;
      }
      case kTagString:
      case kTagBytes:
        view->type = tag == kTagString ? FieldType::kString : FieldType::kBytes;
        KVBENCH_RETURN_IF_ERROR(LengthPrefixed(&view->bytes, "string/bytes payload"));
        break;
      default:
        --pos_;
        return Error("unknown type tag " + std::to_string(tag), "field");
    }
    view->end = pos_;
    return Status::OK();
  }

  // Moves past one field's tag and payload.
  Status SkipField() {
    if (pos_ >= size_) return Error("truncated before the type tag", "field");
    const uint8_t tag = static_cast<uint8_t>(data_[pos_++]);
    switch (tag) {
      case kTagNull:
        return Status::OK();
      case kTagInt64:
      case kTagDouble:
      case kTagReference:
        if (remaining() < 8) return Error("truncated 8-byte payload", "field");
        pos_ += 8;
        return Status::OK();
      case kTagString:
      case kTagBytes: {
        Slice ignored;
        return LengthPrefixed(&ignored, "string/bytes payload");
      }
      default:
        --pos_;
        return Error("unknown type tag " + std::to_string(tag), "field");
    }
  }

  Status Error(const std::string& problem, const char* what) const {
    return Status::Corruption("record codec: " + problem + " in " + what + " at byte " +
                              std::to_string(pos_) + " of " + std::to_string(size_));
  }

 private:
  const char* data_;
  size_t size_;
  size_t pos_;
};

}  // namespace

void EncodeRecord(const FieldValue* fields, size_t count, const std::string* names,
                  std::string* out) {
  size_t size = 2 + VarintLength(count) + count;  // header, plus one tag per field
  for (size_t i = 0; i < count; ++i) {
    size += PayloadSize(fields[i].type, fields[i].bytes.size());
    if (names != nullptr) size += VarintLength(names[i].size()) + names[i].size();
  }
  const size_t start = out->size();
  out->resize(start + size);
  char* p = out->data() + start;
  *p++ = static_cast<char>(kFormatVersion);
  *p++ = static_cast<char>(names != nullptr ? kFlagNamed : 0);
  p = PutVarint(p, count);
  for (size_t i = 0; i < count; ++i) {
    if (names != nullptr) {
      p = PutVarint(p, names[i].size());
      if (!names[i].empty()) std::memcpy(p, names[i].data(), names[i].size());
      p += names[i].size();
    }
    const FieldValue& f = fields[i];
    p = PutField(p, f.type, f.int_value, f.double_value, f.reference, f.bytes);
  }
}

void EncodeField(const FieldValue& value, std::string* out) {
  const size_t start = out->size();
  out->resize(start + 1 + PayloadSize(value.type, value.bytes.size()));
  PutField(out->data() + start, value.type, value.int_value, value.double_value, value.reference,
           value.bytes);
}

void EncodeField(const FieldView& value, std::string* out) {
  const size_t start = out->size();
  out->resize(start + 1 + PayloadSize(value.type, value.bytes.size()));
  PutField(out->data() + start, value.type, value.int_value, value.double_value, value.reference,
           value.bytes);
}

Status ReadHeader(Slice record, RecordHeader* header) {
  Reader reader(record, 0);
  if (record.size() < 2) return reader.Error("truncated header", "record");
  const uint8_t version = static_cast<uint8_t>(record[0]);
  if (version != kFormatVersion) {
    return reader.Error("unsupported format version " + std::to_string(version), "record");
  }
  const uint8_t flags = static_cast<uint8_t>(record[1]);
  if ((flags & ~kFlagNamed) != 0) {
    return reader.Error("unknown flags " + std::to_string(flags), "record");
  }
  reader = Reader(record, 2);
  uint64_t count = 0;
  KVBENCH_RETURN_IF_ERROR(reader.Varint(&count, "field count"));
  // Every field takes at least one byte, so a larger count is garbage (and
  // must not make a decoder reserve room for it).
  if (count > reader.remaining()) {
    return reader.Error("field count " + std::to_string(count) + " exceeds the " +
                            std::to_string(reader.remaining()) + " remaining bytes",
                        "record");
  }
  header->named = (flags & kFlagNamed) != 0;
  header->field_count = static_cast<uint32_t>(count);
  header->fields_offset = reader.pos();
  return Status::OK();
}

Status DecodeRecord(Slice record, std::vector<FieldValue>* fields, std::vector<Slice>* names) {
  RecordHeader header;
  KVBENCH_RETURN_IF_ERROR(ReadHeader(record, &header));
  fields->resize(header.field_count);
  if (names != nullptr) names->assign(header.field_count, Slice());
  Reader reader(record, header.fields_offset);
  FieldView view;
  for (uint32_t i = 0; i < header.field_count; ++i) {
    if (header.named) {
      Slice name;
      KVBENCH_RETURN_IF_ERROR(reader.LengthPrefixed(&name, "field name"));
      if (names != nullptr) (*names)[i] = name;
    }
    KVBENCH_RETURN_IF_ERROR(reader.Field(&view));
    CopyField(view, &(*fields)[i]);
  }
  if (reader.remaining() != 0) return reader.Error("trailing bytes", "record");
  return Status::OK();
}

Status FindField(Slice record, const RecordHeader& header, uint32_t index, FieldView* view) {
  if (index >= header.field_count) {
    return Status::InvalidArgument("record codec: field " + std::to_string(index) + " of a " +
                                   std::to_string(header.field_count) + "-field record");
  }
  Reader reader(record, header.fields_offset);
  Slice name;
  for (uint32_t i = 0; i < index; ++i) {
    if (header.named) KVBENCH_RETURN_IF_ERROR(reader.LengthPrefixed(&name, "field name"));
    KVBENCH_RETURN_IF_ERROR(reader.SkipField());
  }
  name = Slice();
  if (header.named) KVBENCH_RETURN_IF_ERROR(reader.LengthPrefixed(&name, "field name"));
  view->name = name;
  return reader.Field(view);
}

Status FindField(Slice record, uint32_t index, FieldView* view) {
  RecordHeader header;
  KVBENCH_RETURN_IF_ERROR(ReadHeader(record, &header));
  return FindField(record, header, index, view);
}

void CopyField(const FieldView& view, FieldValue* value) {
  value->type = view.type;
  switch (view.type) {
    case FieldType::kInt64:
      value->int_value = view.int_value;
      break;
    case FieldType::kDouble:
      value->double_value = view.double_value;
      break;
    case FieldType::kReference:
      value->reference = view.reference;
      break;
    case FieldType::kString:
    case FieldType::kBytes:
      value->bytes.assign(view.bytes.data(), view.bytes.size());
      break;
    case FieldType::kNull:
      break;
  }
}

bool FieldEquals(const FieldView& view, const FieldValue& value) {
  if (view.type != value.type) return false;
  switch (view.type) {
    case FieldType::kNull:
      return true;
    case FieldType::kInt64:
      return view.int_value == value.int_value;
    case FieldType::kDouble:
      return view.double_value == value.double_value;
    case FieldType::kReference:
      return view.reference == value.reference;
    case FieldType::kString:
    case FieldType::kBytes:
      return view.bytes == Slice(value.bytes);
  }
  return false;
}

}  // namespace kvbench::record_codec
