// Arena: the process-local handle on an arena's memory, and its allocators.
//
// Three allocators share one global bump pointer (format.h has the layout):
//   - AllocRaw: bytes off the bump, for segments and data objects;
//   - AllocData/FreeData: data objects in size classes with one free list each
//     (side values, strings, index nodes); O(1) both ways;
//   - AllocRecord/FreeRecord: record chunks in record segments, reused through
//     exact-size free lists (first fit for big records). The common case,
//     a fresh record with no free chunk of its size, is a bump in the open
//     segment: no per-record malloc, fields already zero.
//
// Memory past the bump is always zero (fresh mmap, never written), which is
// why a bump-allocated record needs no clearing.
//
// Not thread-safe: callers hold the database's write lock to allocate or free.
#pragma once

#include <cstdint>

#include "engines/native/format.h"
#include "engines/native/memory_region.h"
#include "engines/native/status.h"

namespace nativedb {

class Arena {
 public:
  Arena() = default;
  // Takes over `region`; `region.base()` holds an initialised ArenaHeader.
  explicit Arena(MemoryRegion region)
      : region_(static_cast<MemoryRegion&&>(region)),
        base_(region_.base()),
        header_(reinterpret_cast<format::ArenaHeader*>(region_.base())) {}

  // Writes a fresh header (everything empty) into `region` and initialises the
  // lock. The header's magic is written last: see Publish().
  static void Format(const MemoryRegion& region);
  // (Re)initialises the header's process-shared reader-writer lock.
  static void InitLock(format::ArenaHeader* header);
  // Makes a formatted arena visible to attaching processes.
  void Publish();

  char* base() const { return base_; }
  format::ArenaHeader* header() const { return header_; }
  MemoryRegion& region() { return region_; }
  const MemoryRegion& region() const { return region_; }

  uint64_t* Words(uint64_t offset) const { return reinterpret_cast<uint64_t*>(base_ + offset); }
  char* Bytes(uint64_t offset) const { return base_ + offset; }

  // `bytes` (a multiple of 8) off the global bump; 0 when the arena is full
  // and cannot grow.
  uint64_t AllocRaw(uint64_t bytes);
  // True when `bytes` can be bump-allocated now (growing the arena if needed):
  // lets a multi-step change check for room before it modifies anything.
  bool Reserve(uint64_t bytes);

  // A data object of at least `bytes` (rounded up to its class); contents
  // undefined. 0 when full.
  uint64_t AllocData(uint64_t bytes);
  // Frees a data object allocated with the same `bytes`.
  void FreeData(uint64_t offset, uint64_t bytes);

  // A record chunk with `fields` NULL fields and its header written; 0 when full.
  inline uint64_t AllocRecord(uint64_t fields);
  // Marks the chunk free and puts it on its free list.
  void FreeRecord(uint64_t offset);

  // "arena full: ..." with the sizes, for callers whose allocation failed.
  Status FullError(const char* what) const;

 private:
  uint64_t AllocRecordSlow(uint64_t words, uint64_t fields);
  bool OpenSegment(uint64_t bytes);

  MemoryRegion region_;
  char* base_ = nullptr;
  format::ArenaHeader* header_ = nullptr;
};

inline uint64_t Arena::AllocRecord(uint64_t fields) {
  const uint64_t words = format::RecordWords(fields);
  if (words <= format::kRecordExactWords && header_->rec_free[words] == 0) {
    const uint64_t at = header_->rec_bump;
    const uint64_t end = at + words * 8;
    if (end <= header_->rec_limit) {
      header_->rec_bump = end;
      *Words(at) = format::ChunkHeader(format::kChunkRecord, words, fields);
      return at;
    }
  }
  return AllocRecordSlow(words, fields);
}

}  // namespace nativedb
