// CRC32C (Castagnoli polynomial), the checksum on every pbtree page.
//
// Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at run
// time) and a slicing-by-8 table otherwise; both give identical values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pbtree::crc32c {

// Returns the CRC32C of data[0, n) continuing from a previous Value() `init`
// (0 to start).
uint32_t Extend(uint32_t init, const uint8_t* data, size_t n);

inline uint32_t Value(const uint8_t* data, size_t n) { return Extend(0, data, n); }

// The table-driven implementation alone, for tests comparing the two.
uint32_t ExtendPortableForTest(uint32_t init, const uint8_t* data, size_t n);

}  // namespace pbtree::crc32c
