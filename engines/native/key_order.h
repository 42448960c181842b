// The order of index keys: how two field values compare inside an index.
//
// Values sort first by kind, then by content:
//   int < double < string < bytes < record reference
// Integers compare numerically (small and wide alike), doubles by a total
// order (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), strings and
// bytes by unsigned bytes and then length (short and interned strings alike),
// references by offset. An int never equals a double: an index query for 5
// does not find 5.0. NULL fields are not indexed.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "engines/native/field_codec.h"
#include "engines/native/format.h"
#include "engines/native/value.h"

namespace nativedb::internal {

enum KeyRank : uint8_t {
  kRankNull = 0,
  kRankInt = 1,
  kRankDouble = 2,
  kRankString = 3,
  kRankBytes = 4,
  kRankRecord = 5,
};

// A value reduced to what ordering needs: its rank, then either an unsigned
// number whose order is the value's order, or its bytes.
struct KeyView {
  uint8_t rank = kRankNull;
  uint64_t ordered = 0;
  std::string_view bytes;
};

inline uint64_t OrderedInt(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }
inline int64_t IntFromOrdered(uint64_t u) { return static_cast<int64_t>(u ^ (uint64_t{1} << 63)); }
inline uint64_t OrderedDouble(uint64_t bits) {
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

inline KeyView KeyOfValue(const Value& v) {
  KeyView k;
  switch (v.type()) {
    case FieldType::kNull:
      break;
    case FieldType::kInt:
      k.rank = kRankInt;
      k.ordered = OrderedInt(v.int_value());
      break;
    case FieldType::kDouble: {
      const double d = v.double_value();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      k.rank = kRankDouble;
      k.ordered = OrderedDouble(bits);
      break;
    }
    case FieldType::kString:
      k.rank = kRankString;
      k.bytes = v.string_value();
      break;
    case FieldType::kBytes:
      k.rank = kRankBytes;
      k.bytes = v.string_value();
      break;
    case FieldType::kRecord:
      k.rank = kRankRecord;
      k.ordered = v.record_value().offset;
      break;
  }
  return k;
}

inline KeyView KeyOfWord(const char* base, uint64_t w) {
  if (format::IsSmallInt(w)) return KeyView{kRankInt, OrderedInt(format::DecodeSmallInt(w)), {}};
  return KeyOfValue(DecodeWord(base, w));
}

inline int CompareKeys(const KeyView& a, const KeyView& b) {
  if (a.rank != b.rank) return a.rank < b.rank ? -1 : 1;
  if (a.rank == kRankString || a.rank == kRankBytes) {
    const size_t n = a.bytes.size() < b.bytes.size() ? a.bytes.size() : b.bytes.size();
    const int c = n == 0 ? 0 : std::memcmp(a.bytes.data(), b.bytes.data(), n);
    if (c != 0) return c < 0 ? -1 : 1;
    if (a.bytes.size() != b.bytes.size()) return a.bytes.size() < b.bytes.size() ? -1 : 1;
    return 0;
  }
  if (a.ordered != b.ordered) return a.ordered < b.ordered ? -1 : 1;
  return 0;
}

// Compares a stored field word with a key; small integers never decode.
inline int CompareWordToKey(const char* base, uint64_t w, const KeyView& k) {
  if (format::IsSmallInt(w) && k.rank == kRankInt) {
    const uint64_t a = OrderedInt(format::DecodeSmallInt(w));
    return a < k.ordered ? -1 : (a > k.ordered ? 1 : 0);
  }
  return CompareKeys(KeyOfWord(base, w), k);
}

// Index entries are (field word, record offset) pairs ordered by key, then by
// record offset, so every entry is unique and can be found exactly.
inline int CompareEntry(const char* base, uint64_t word, uint64_t rec, const KeyView& key,
                        uint64_t key_rec) {
  const int c = CompareWordToKey(base, word, key);
  if (c != 0) return c;
  return rec < key_rec ? -1 : (rec > key_rec ? 1 : 0);
}

}  // namespace nativedb::internal
