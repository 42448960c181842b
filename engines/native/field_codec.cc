#include "engines/native/field_codec.h"

namespace nativedb {

const char* FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kNull:
      return "null";
    case FieldType::kInt:
      return "int";
    case FieldType::kDouble:
      return "double";
    case FieldType::kString:
      return "string";
    case FieldType::kBytes:
      return "bytes";
    case FieldType::kRecord:
      return "record";
  }
  return "unknown";
}

namespace internal {

using namespace format;

namespace {

// A one-word cell holding `bits` (a wide integer or a double).
Status StoreCell(Arena& arena, Tag tag, uint64_t bits, uint64_t* word) {
  const uint64_t at = arena.AllocData(8);
  if (at == 0) return arena.FullError("value");
  *arena.Words(at) = bits;
  *word = MakeWord(tag, at);
  return Status::OK();
}

}  // namespace

Status EncodeValue(Arena& arena, const Value& v, uint64_t* word) {
  if (EncodeInline(v, word)) return Status::OK();
  switch (v.type()) {
    case FieldType::kInt:
      return StoreCell(arena, kTagInt, static_cast<uint64_t>(v.int_value()), word);
    case FieldType::kDouble: {
      uint64_t bits;
      const double d = v.double_value();
      std::memcpy(&bits, &d, sizeof bits);
      return StoreCell(arena, kTagDouble, bits, word);
    }
    case FieldType::kString: {
      const std::string_view s = v.string_value();
      if (s.size() <= kShortStringMax) {
        const uint64_t at = arena.AllocData(kShortStringChunkBytes);
        if (at == 0) return arena.FullError("string");
        char* chunk = arena.Bytes(at);
        chunk[0] = static_cast<char>(s.size());
        if (!s.empty()) std::memcpy(chunk + 1, s.data(), s.size());
        *word = MakeWord(kTagShortString, at);
        return Status::OK();
      }
      const uint64_t at = InternString(arena, s);
      if (at == 0) return arena.FullError("string");
      *word = MakeWord(kTagLongString, at);
      return Status::OK();
    }
    case FieldType::kBytes: {
      const std::string_view s = v.string_value();
      const uint64_t at = arena.AllocData(8 + s.size());
      if (at == 0) return arena.FullError("bytes");
      *arena.Words(at) = s.size();
      if (!s.empty()) std::memcpy(arena.Bytes(at) + 8, s.data(), s.size());
      *word = MakeWord(kTagBytes, at);
      return Status::OK();
    }
    case FieldType::kRecord:
      return Status::InvalidArgument("reference to no record (offset " +
                                     std::to_string(v.record_value().offset) + ")");
    case FieldType::kNull:
      break;
  }
  return Status::InvalidArgument("unknown field type");
}

void ReleaseWord(Arena& arena, uint64_t word) {
  if (OwnsNoStorage(word)) return;
  const uint64_t off = OffsetOf(word);
  switch (TagOf(word)) {
    case kTagInt:
    case kTagDouble:
      arena.FreeData(off, 8);
      break;
    case kTagShortString:
      arena.FreeData(off, kShortStringChunkBytes);
      break;
    case kTagLongString:
      ReleaseString(arena, off);
      break;
    case kTagBytes:
      arena.FreeData(off, 8 + *arena.Words(off));
      break;
    default:
      break;
  }
}

}  // namespace internal
}  // namespace nativedb
