// Unsigned LEB128 varints, the length and count encoding of the record codec
// and of the record layer's posting lists: 7 bits a byte, least significant
// group first, the high bit set on every byte but the last, at most 10 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kvbench::record_codec {

inline constexpr size_t kMaxVarintLength = 10;

inline size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Writes the shortest encoding of `v` at `p` (room for VarintLength(v) bytes)
// and returns the byte after it.
inline char* PutVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void AppendVarint(uint64_t v, std::string* out) {
  char buf[kMaxVarintLength];
  out->append(buf, PutVarint(buf, v) - buf);
}

// Parses a varint from [*p, end) and advances *p past it. False when the input
// ends inside the varint or it does not fit 64 bits; *p is then unspecified.
inline bool ParseVarint(const char** p, const char* end, uint64_t* v) {
  uint64_t result = 0;
  const char* q = *p;
  for (int shift = 0; shift < 64 && q < end; shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(*q++);
    if (shift == 63 && byte > 1) return false;  // the 10th byte carries only bit 63
    result |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *p = q;
      *v = result;
      return true;
    }
  }
  return false;
}

}  // namespace kvbench::record_codec
