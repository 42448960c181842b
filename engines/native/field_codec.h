// Field words <-> Values (the encoding is described in format.h).
//
// EncodeInline and DecodeWord are header-inline because they sit on the hot
// paths (setting a field, reading one back, following a reference); storing a
// value beside the record (EncodeValue) and freeing it (ReleaseWord) are not.
#pragma once

#include <cstdint>
#include <cstring>

#include "engines/native/arena.h"
#include "engines/native/format.h"
#include "engines/native/status.h"
#include "engines/native/string_table.h"
#include "engines/native/value.h"

namespace nativedb::internal {

// Encodes the values that need no storage (NULL, small integers, references).
// False for everything else, and for a reference that is not a record offset.
inline bool EncodeInline(const Value& v, uint64_t* word) {
  switch (v.type()) {
    case FieldType::kNull:
      *word = format::kNullWord;
      return true;
    case FieldType::kInt:
      if (!format::FitsSmallInt(v.int_value())) return false;
      *word = format::EncodeSmallInt(v.int_value());
      return true;
    case FieldType::kRecord: {
      const uint64_t off = v.record_value().offset;
      if (off == 0 || (off & 7) != 0 || off > format::kOffsetMask) return false;
      *word = off;
      return true;
    }
    default:
      return false;
  }
}

// True when the word owns no storage beside the record (freeing it is a no-op).
inline bool OwnsNoStorage(uint64_t word) {
  return format::IsSmallInt(word) || format::TagOf(word) == format::kTagRecord;
}

// Encodes `v`, storing what does not fit the word in the arena (an interned
// long string gains a reference). Full when there is no room; InvalidArgument
// for a reference to no record.
Status EncodeValue(Arena& arena, const Value& v, uint64_t* word);

// Frees what `word` owns beside the record.
void ReleaseWord(Arena& arena, uint64_t word);

inline Value DecodeWord(const char* base, uint64_t w) {
  if (format::IsSmallInt(w)) return Value::Int(format::DecodeSmallInt(w));
  if (w == format::kNullWord) return Value();
  const uint64_t off = format::OffsetOf(w);
  switch (format::TagOf(w)) {
    case format::kTagRecord:
      return Value::Ref(Record{w});
    case format::kTagInt: {
      int64_t v;
      std::memcpy(&v, base + off, sizeof v);
      return Value::Int(v);
    }
    case format::kTagDouble: {
      double d;
      std::memcpy(&d, base + off, sizeof d);
      return Value::Double(d);
    }
    case format::kTagShortString:
      return Value::String(std::string_view(base + off + 1, static_cast<unsigned char>(base[off])));
    case format::kTagLongString:
      return Value::String(LongStringBytes(base, off));
    case format::kTagBytes: {
      uint64_t len;
      std::memcpy(&len, base + off, sizeof len);
      return Value::Bytes(std::string_view(base + off + 8, len));
    }
    default:
      return Value();
  }
}

inline FieldType TypeOfWord(uint64_t w) {
  if (format::IsSmallInt(w)) return FieldType::kInt;
  if (w == format::kNullWord) return FieldType::kNull;
  switch (format::TagOf(w)) {
    case format::kTagRecord:
      return FieldType::kRecord;
    case format::kTagInt:
      return FieldType::kInt;
    case format::kTagDouble:
      return FieldType::kDouble;
    case format::kTagShortString:
    case format::kTagLongString:
      return FieldType::kString;
    case format::kTagBytes:
      return FieldType::kBytes;
    default:
      return FieldType::kNull;
  }
}

}  // namespace nativedb::internal
