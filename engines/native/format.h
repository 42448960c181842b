// The layout of a nativedb arena: one block of memory addressed by byte
// offsets from its start, never by pointers, so the same bytes work wherever
// they are mapped (a second process attaching to shared memory, a snapshot
// loaded back into a fresh block).
//
// Arena:
//   [0, kHeaderBytes)    ArenaHeader (below): allocator state, string table,
//                        index directory, the reader-writer lock.
//   [kHeaderBytes, bump) Allocated space, handed out by one global bump
//                        pointer in two kinds of pieces:
//     - record segments: records laid out back to back, each behind a one-word
//       chunk header, so all records can be walked in address order;
//     - data objects (side values, interned strings, index nodes) of a size
//       class, with no header: whoever frees one knows its size.
//   [bump, size)         Zero memory not yet handed out.
//
// Every word is a native-endian uint64_t: the arena (and a snapshot, which is
// its image) is only readable on a 64-bit machine of the same byte order. The
// header's byte-order mark lets Attach and Load refuse anything else.
//
// Field words (one per record field). Arena offsets are multiples of 8, so the
// low bit is free to mark a small integer; other kinds carry a tag in the top
// byte and an offset in the low 56 bits:
//   0                    NULL (a fresh record's fields are NULL)
//   v << 1 | 1           small integer v, -2^62 <= v < 2^62 (no storage)
//   tag 0, offset > 0    reference to the record at `offset` (a bare offset, so
//                        following a reference is one load)
//   tag 1                int64 outside the small range, in a 1-word cell
//   tag 2                double, in a 1-word cell
//   tag 3                short string (< 32 bytes) in a 32-byte chunk:
//                        byte 0 = length, bytes 1..31 = the bytes
//   tag 4                long string (>= 32 bytes), interned: one copy per
//                        distinct string, so equal strings have equal words
//                        (LongString layout below)
//   tag 5                bytes: word 0 = length, then the bytes (never interned)
//
// Record chunk header word (in record segments):
//   bits 0-1   kind: 1 record, 2 free chunk, 3 segment link
//   bits 2-33  chunk size in words, header included (>= 2)
//   bits 34-63 field count (records)
// A free chunk keeps the offset of the next free chunk of its list in word 1.
// A segment link's word 1 is the offset of the next record segment; every
// segment keeps two words spare at its end for that link.
#pragma once

#include <pthread.h>

#include <cstdint>

namespace nativedb::format {

constexpr uint64_t kMagic = 0x314244564954414eULL;  // "NATIVDB1" in little-endian bytes
constexpr uint32_t kVersion = 1;
constexpr uint32_t kByteOrderMark = 0x01020304;
constexpr uint64_t kHeaderBytes = 8192;

// ---- Field words ----------------------------------------------------------

constexpr uint64_t kNullWord = 0;
constexpr int kTagShift = 56;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kTagShift) - 1;
constexpr int64_t kSmallIntMin = -(int64_t{1} << 62);
constexpr int64_t kSmallIntMax = (int64_t{1} << 62) - 1;

enum Tag : uint64_t {
  kTagRecord = 0,
  kTagInt = 1,
  kTagDouble = 2,
  kTagShortString = 3,
  kTagLongString = 4,
  kTagBytes = 5,
};

// Strings shorter than this live in a fixed chunk; longer ones are interned.
constexpr uint64_t kShortStringChunkBytes = 32;
constexpr uint64_t kShortStringMax = kShortStringChunkBytes - 1;

inline constexpr bool IsSmallInt(uint64_t w) { return (w & 1) != 0; }
inline constexpr bool FitsSmallInt(int64_t v) { return v >= kSmallIntMin && v <= kSmallIntMax; }
inline constexpr uint64_t EncodeSmallInt(int64_t v) { return (static_cast<uint64_t>(v) << 1) | 1; }
inline constexpr int64_t DecodeSmallInt(uint64_t w) { return static_cast<int64_t>(w) >> 1; }
inline constexpr uint64_t TagOf(uint64_t w) { return w >> kTagShift; }
inline constexpr uint64_t OffsetOf(uint64_t w) { return w & kOffsetMask; }
inline constexpr uint64_t MakeWord(Tag tag, uint64_t offset) {
  return (static_cast<uint64_t>(tag) << kTagShift) | offset;
}
// A reference word: nonzero, low bit clear, tag 0.
inline constexpr bool IsRecordRef(uint64_t w) { return w != 0 && (w & 1) == 0 && TagOf(w) == 0; }

// An interned long string: refcount, hash, next in its hash chain, length, bytes.
struct LongString {
  uint64_t refcount;
  uint64_t hash;
  uint64_t next;
  uint64_t length;
  // followed by `length` bytes, padded to a word
};
constexpr uint64_t kLongStringHeaderWords = 4;

// ---- Record chunks --------------------------------------------------------

enum ChunkKind : uint64_t { kChunkRecord = 1, kChunkFree = 2, kChunkLink = 3 };
constexpr uint64_t kMaxChunkWords = (uint64_t{1} << 32) - 1;
constexpr uint64_t kMaxFieldCount = (uint64_t{1} << 30) - 1;
constexpr uint64_t kMinChunkWords = 2;
constexpr uint64_t kSegmentSpareBytes = 16;

inline constexpr uint64_t ChunkHeader(ChunkKind kind, uint64_t words, uint64_t fields) {
  return static_cast<uint64_t>(kind) | (words << 2) | (fields << 34);
}
inline constexpr uint64_t ChunkKindOf(uint64_t h) { return h & 3; }
inline constexpr uint64_t ChunkWordsOf(uint64_t h) { return (h >> 2) & kMaxChunkWords; }
inline constexpr uint64_t ChunkFieldsOf(uint64_t h) { return h >> 34; }
// Words a record of `fields` fields occupies.
inline constexpr uint64_t RecordWords(uint64_t fields) {
  return fields + 1 < kMinChunkWords ? kMinChunkWords : fields + 1;
}

// Free record chunks of up to this many words have one exact-size list each;
// bigger ones share a first-fit list.
constexpr uint64_t kRecordExactWords = 64;

// ---- Data size classes ----------------------------------------------------
// Classes 0..31 hold 1..32 words exactly. Above that each doubling has four
// classes (5/4, 6/4, 7/4 and 8/4 of the power of two below), so rounding a big
// value up to its class wastes at most a quarter.

constexpr uint32_t kExactDataClasses = 32;
constexpr uint32_t kDataClasses = kExactDataClasses + 4 * 40;

inline constexpr uint32_t BitWidth(uint64_t v) {
  uint32_t width = 0;
  for (; v != 0; v >>= 1) ++width;
  return width;
}
inline constexpr uint32_t DataClassOf(uint64_t words) {
  if (words <= kExactDataClasses) return static_cast<uint32_t>(words == 0 ? 0 : words - 1);
  const uint32_t width = BitWidth(words - 1);  // >= 6
  const uint64_t base = uint64_t{1} << (width - 1);
  const uint64_t step = base / 4;
  const uint64_t k = (words - base + step - 1) / step - 1;
  return kExactDataClasses + 4 * (width - 6) + static_cast<uint32_t>(k);
}
inline constexpr uint64_t DataClassWords(uint32_t cls) {
  if (cls < kExactDataClasses) return cls + 1;
  const uint32_t group = (cls - kExactDataClasses) / 4;
  const uint64_t k = (cls - kExactDataClasses) % 4;
  const uint64_t base = uint64_t{32} << group;
  return base + (k + 1) * (base / 4);
}

// ---- Header ---------------------------------------------------------------

constexpr uint32_t kMaxIndexes = 32;
constexpr uint64_t kNoField = ~uint64_t{0};

// One index: a B+tree over (field word, record offset) pairs (btree.h).
struct IndexMeta {
  uint64_t field;   // kNoField when the slot is unused
  uint64_t root;    // offset of the root node; 0 when the index is empty
  uint64_t height;  // 0: the root is a leaf
  uint64_t entries;
  uint64_t first_leaf;
  uint64_t last_leaf;
};

struct ArenaHeader {
  uint64_t magic;  // written last at creation: an attacher sees 0 until ready
  uint32_t version;
  uint32_t byte_order;
  uint64_t header_bytes;
  uint64_t shared;  // 1 in a POSIX shared-memory object
  uint64_t size;    // bytes usable now; grows for private memory only
  uint64_t bump;    // next unallocated byte

  // Record area.
  uint64_t segment_bytes;  // default size of a new record segment
  uint64_t first_segment;  // 0 before the first record
  uint64_t rec_bump;       // next record position in the open segment
  uint64_t rec_limit;      // end of the open segment minus its spare link words
  uint64_t record_count;
  uint64_t rec_free[kRecordExactWords + 1];  // by chunk words; [0], [1] unused
  uint64_t rec_free_large;

  // Data objects.
  uint64_t data_free[kDataClasses];
  uint64_t data_bytes_live;  // bytes of data objects in use (by class size)

  // Interned long strings: a chained hash table.
  uint64_t intern_buckets;  // offset of an array of bucket heads
  uint64_t intern_bucket_count;
  uint64_t intern_count;

  // Indexes. Bit f of indexed_mask is set when field f (f < 63) has an index;
  // bit 63 stands for any field >= 63. Lets SetField skip the directory.
  uint64_t indexed_mask;
  IndexMeta indexes[kMaxIndexes];

  alignas(64) pthread_rwlock_t lock;
};

static_assert(sizeof(ArenaHeader) <= kHeaderBytes, "header must fit its reserved space");

inline constexpr uint64_t IndexMaskBit(uint64_t field) {
  return uint64_t{1} << (field < 63 ? field : 63);
}

}  // namespace nativedb::format
