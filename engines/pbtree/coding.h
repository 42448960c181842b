// Byte-order-explicit encoders for everything pbtree writes to disk.
//
// Fixed-width integers are little-endian, written and read byte by byte (the
// compiler turns these into single loads and stores on little-endian CPUs), so
// a file is the same on every machine. Varints are LEB128 (7 bits a byte, low
// group first), at most 5 bytes for 32-bit values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pbtree {

inline void EncodeFixed16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
inline void EncodeFixed32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void EncodeFixed64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint16_t DecodeFixed16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
inline uint32_t DecodeFixed32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
inline uint64_t DecodeFixed64(const uint8_t* p) {
  return static_cast<uint64_t>(DecodeFixed32(p)) |
         (static_cast<uint64_t>(DecodeFixed32(p + 4)) << 32);
}

inline constexpr int kMaxVarint32Bytes = 5;

inline int VarintLength(uint32_t v) {
  int len = 1;
  while (v >= 128) {
    v >>= 7;
    ++len;
  }
  return len;
}

// Writes v at dst and returns one past the last byte written.
inline uint8_t* EncodeVarint32(uint8_t* dst, uint32_t v) {
  while (v >= 128) {
    *dst++ = static_cast<uint8_t>(v | 128);
    v >>= 7;
  }
  *dst++ = static_cast<uint8_t>(v);
  return dst;
}

// Reads a varint from [p, limit). Returns one past its last byte, or nullptr
// when the bytes run out or the value does not fit 32 bits (untrusted input).
inline const uint8_t* DecodeVarint32(const uint8_t* p, const uint8_t* limit, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && p < limit; shift += 7) {
    uint32_t byte = *p++;
    if (shift == 28 && byte > 15) return nullptr;
    result |= (byte & 127) << shift;
    if (byte < 128) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}

// The same for bytes already validated (pages in the cache): no bounds.
inline const uint8_t* DecodeVarint32Trusted(const uint8_t* p, uint32_t* v) {
  uint32_t byte = *p;
  if (byte < 128) {
    *v = byte;
    return p + 1;
  }
  uint32_t result = byte & 127;
  for (int shift = 7;; shift += 7) {
    byte = *++p;
    result |= (byte & 127) << shift;
    if (byte < 128) break;
  }
  *v = result;
  return p + 1;
}

}  // namespace pbtree
