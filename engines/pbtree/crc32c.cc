#include "engines/pbtree/crc32c.h"

#include <array>
#include <cstring>

#include "engines/pbtree/hot.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace pbtree::crc32c {
namespace {

constexpr uint32_t kPolyReflected = 0x82f63b78u;

struct Tables {
  std::array<std::array<uint32_t, 256>, 8> t{};
  Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolyReflected : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    }
  }
};

uint32_t ExtendPortable(uint32_t crc, const uint8_t* p, size_t n) {
  static const Tables tables;
  const auto& t = tables.t;
  while (n >= 8) {
    uint32_t lo = (static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
                   (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24)) ^
                  crc;
    crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
          t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xff];
  return crc;
}

#if defined(__x86_64__)
// Register after feeding n zero bytes, as a linear map on the 32-bit register
// (column i = image of bit i), used to join CRCs computed in parallel: the
// register of A||B is Shift_|B|(register of A) ^ (register of B from zero).
struct ZerosOperator {
  std::array<std::array<uint32_t, 256>, 4> table{};  // by byte of the register
  explicit ZerosOperator(size_t n) {
    // One zero byte, then square-and-multiply up to n bytes.
    std::array<uint32_t, 32> byte_op{}, result{}, power{};
    for (int i = 0; i < 32; ++i) {
      uint32_t c = uint32_t{1} << i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolyReflected : c >> 1;
      byte_op[i] = c;
      result[i] = uint32_t{1} << i;  // identity
    }
    power = byte_op;
    for (; n > 0; n >>= 1) {
      if (n & 1) result = Compose(power, result);
      power = Compose(power, power);
    }
    for (int k = 0; k < 4; ++k) {
      for (uint32_t b = 0; b < 256; ++b) table[k][b] = Apply(result, b << (8 * k));
    }
  }
  static uint32_t Apply(const std::array<uint32_t, 32>& op, uint32_t v) {
    uint32_t out = 0;
    for (int i = 0; v != 0; ++i, v >>= 1) {
      if (v & 1) out ^= op[i];
    }
    return out;
  }
  // a after b.
  static std::array<uint32_t, 32> Compose(const std::array<uint32_t, 32>& a,
                                          const std::array<uint32_t, 32>& b) {
    std::array<uint32_t, 32> out{};
    for (int i = 0; i < 32; ++i) out[i] = Apply(a, b[i]);
    return out;
  }
  uint32_t Shift(uint32_t crc) const {
    return table[0][crc & 0xff] ^ table[1][(crc >> 8) & 0xff] ^ table[2][(crc >> 16) & 0xff] ^
           table[3][crc >> 24];
  }
};

// Three independent crc32 chains over three consecutive stripes of `kStripe`
// bytes, joined with ZerosOperator: the instruction's latency is three
// cycles, so one chain uses a third of its throughput.
template <size_t kStripe>
__attribute__((target("sse4.2"))) uint64_t ThreeWay(uint64_t c0, const uint8_t*& p, size_t& n) {
  static const ZerosOperator shift(kStripe);
  while (n >= 3 * kStripe) {
    uint64_t c1 = 0, c2 = 0;
    for (size_t i = 0; i < kStripe; i += 8) {
      uint64_t w0, w1, w2;
      std::memcpy(&w0, p + i, 8);
      std::memcpy(&w1, p + kStripe + i, 8);
      std::memcpy(&w2, p + 2 * kStripe + i, 8);
      c0 = _mm_crc32_u64(c0, w0);
      c1 = _mm_crc32_u64(c1, w1);
      c2 = _mm_crc32_u64(c2, w2);
    }
    c0 = shift.Shift(static_cast<uint32_t>(c0)) ^ c1;
    c0 = shift.Shift(static_cast<uint32_t>(c0)) ^ c2;
    p += 3 * kStripe;
    n -= 3 * kStripe;
  }
  return c0;
}

PBTREE_HOT __attribute__((target("sse4.2"))) uint32_t ExtendHardware(uint32_t crc, const uint8_t* p,
                                                                     size_t n) {
  uint64_t c = crc;
  c = ThreeWay<1024>(c, p, n);
  c = ThreeWay<128>(c, p, n);
  // One chain over what is left (a log record is a few hundred bytes): four
  // words a step, then the tail in 8/4/2/1-byte steps.
  // (x86 is little-endian, as the CRC expects.)
  while (n >= 32) {
    uint64_t w[4];
    std::memcpy(w, p, 32);
    c = _mm_crc32_u64(c, w[0]);
    c = _mm_crc32_u64(c, w[1]);
    c = _mm_crc32_u64(c, w[2]);
    c = _mm_crc32_u64(c, w[3]);
    p += 32;
    n -= 32;
  }
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  if (n >= 4) {
    uint32_t word;
    std::memcpy(&word, p, 4);
    c32 = _mm_crc32_u32(c32, word);
    p += 4;
    n -= 4;
  }
  if (n >= 2) {
    uint16_t word;
    std::memcpy(&word, p, 2);
    c32 = _mm_crc32_u16(c32, word);
    p += 2;
    n -= 2;
  }
  if (n > 0) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}

bool CpuHasSse42() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
}
#endif

}  // namespace

uint32_t ExtendPortableForTest(uint32_t init, const uint8_t* data, size_t n) {
  return ~ExtendPortable(~init, data, n);
}

PBTREE_HOT uint32_t Extend(uint32_t init, const uint8_t* data, size_t n) {
  uint32_t crc = ~init;
#if defined(__x86_64__)
  static const bool hardware = CpuHasSse42();
  crc = hardware ? ExtendHardware(crc, data, n) : ExtendPortable(crc, data, n);
#else
  crc = ExtendPortable(crc, data, n);
#endif
  return ~crc;
}

}  // namespace pbtree::crc32c
