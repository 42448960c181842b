// The table of interned long strings (format.h: tag 4): one copy of each
// distinct string of 32 bytes or more, reference-counted, in a chained hash
// table that lives in the arena. Interning makes string equality a comparison
// of field words, at the price of hashing on every store.
//
// Not thread-safe: InternString and ReleaseString need the write lock,
// FindInterned the read lock.
#pragma once

#include <cstdint>
#include <string_view>

#include "engines/native/arena.h"

namespace nativedb::internal {

uint64_t HashBytes(std::string_view bytes);

// The offset of the interned copy of `s` with one more reference; 0 when the
// arena is full.
uint64_t InternString(Arena& arena, std::string_view s);
// Drops one reference; the last one frees the string.
void ReleaseString(Arena& arena, uint64_t offset);
// The offset of the interned copy of `s`, or 0 when no field holds it.
uint64_t FindInterned(const Arena& arena, std::string_view s);

inline std::string_view LongStringBytes(const char* base, uint64_t offset) {
  const auto* s = reinterpret_cast<const format::LongString*>(base + offset);
  return std::string_view(reinterpret_cast<const char*>(s + 1), s->length);
}

}  // namespace nativedb::internal
