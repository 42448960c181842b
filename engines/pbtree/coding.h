// Byte-order-explicit encoders for everything pbtree writes to disk.
//
// Fixed-width integers are little-endian, so a file is the same on every
// machine. On a little-endian CPU they are copied as they are (one load or
// store); elsewhere they are written and read byte by byte. (GCC merges the
// byte-by-byte stores, but rebuilds the value a byte at a time to do so: ~50
// instructions for one EncodeFixed64.) Varints are LEB128 (7 bits a byte,
// low group first), at most 5 bytes for 32-bit values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pbtree {

namespace coding_internal {

inline constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

template <typename T>
inline void EncodeFixed(uint8_t* p, T v) {
  if constexpr (kLittleEndian) {
    std::memcpy(p, &v, sizeof(T));
  } else {
    for (size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

template <typename T>
inline T DecodeFixed(const uint8_t* p) {
  T v = 0;
  if constexpr (kLittleEndian) {
    std::memcpy(&v, p, sizeof(T));
  } else {
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
  }
  return v;
}

}  // namespace coding_internal

inline void EncodeFixed16(uint8_t* p, uint16_t v) { coding_internal::EncodeFixed(p, v); }
inline void EncodeFixed32(uint8_t* p, uint32_t v) { coding_internal::EncodeFixed(p, v); }
inline void EncodeFixed64(uint8_t* p, uint64_t v) { coding_internal::EncodeFixed(p, v); }
inline uint16_t DecodeFixed16(const uint8_t* p) {
  return coding_internal::DecodeFixed<uint16_t>(p);
}
inline uint32_t DecodeFixed32(const uint8_t* p) {
  return coding_internal::DecodeFixed<uint32_t>(p);
}
inline uint64_t DecodeFixed64(const uint8_t* p) {
  return coding_internal::DecodeFixed<uint64_t>(p);
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
