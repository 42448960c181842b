#include "engines/native/arena.h"

#include <atomic>
#include <cstring>
#include <string>

namespace nativedb {

using namespace format;

void Arena::Format(const MemoryRegion& region) {
  auto* h = reinterpret_cast<ArenaHeader*>(region.base());
  std::memset(static_cast<void*>(h), 0, kHeaderBytes);
  h->version = kVersion;
  h->byte_order = kByteOrderMark;
  h->header_bytes = kHeaderBytes;
  h->shared = region.shared() ? 1 : 0;
  h->size = region.size();
  h->bump = kHeaderBytes;
  // Small arenas (tests) get small segments; big ones stop at 4 MiB, enough to
  // make the per-segment link a rounding error.
  uint64_t seg = region.size() / 64;
  if (seg < (uint64_t{64} << 10)) seg = uint64_t{64} << 10;
  if (seg > (uint64_t{4} << 20)) seg = uint64_t{4} << 20;
  h->segment_bytes = seg;
  for (auto& meta : h->indexes) meta.field = kNoField;
  InitLock(h);
}

void Arena::InitLock(ArenaHeader* h) {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
  // One writer must not starve behind a stream of readers.
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&h->lock, &attr);
  pthread_rwlockattr_destroy(&attr);
}

void Arena::Publish() {
  std::atomic_thread_fence(std::memory_order_release);
  reinterpret_cast<std::atomic<uint64_t>*>(&header_->magic)
      ->store(kMagic, std::memory_order_release);
}

uint64_t Arena::AllocRaw(uint64_t bytes) {
  bytes = (bytes + 7) & ~uint64_t{7};
  if (!Reserve(bytes)) return 0;
  const uint64_t at = header_->bump;
  header_->bump = at + bytes;
  return at;
}

bool Arena::Reserve(uint64_t bytes) {
  const uint64_t need = header_->bump + bytes;
  if (need <= header_->size) return true;
  if (!region_.Grow(need).ok()) return false;
  header_->size = region_.size();
  return true;
}

uint64_t Arena::AllocData(uint64_t bytes) {
  const uint64_t words = bytes == 0 ? 1 : (bytes + 7) / 8;
  const uint32_t cls = DataClassOf(words);
  const uint64_t class_bytes = DataClassWords(cls) * 8;
  uint64_t at = header_->data_free[cls];
  if (at != 0) {
    header_->data_free[cls] = *Words(at);
  } else {
    at = AllocRaw(class_bytes);
    if (at == 0) return 0;
  }
  header_->data_bytes_live += class_bytes;
  return at;
}

void Arena::FreeData(uint64_t offset, uint64_t bytes) {
  const uint64_t words = bytes == 0 ? 1 : (bytes + 7) / 8;
  const uint32_t cls = DataClassOf(words);
  *Words(offset) = header_->data_free[cls];
  header_->data_free[cls] = offset;
  header_->data_bytes_live -= DataClassWords(cls) * 8;
}

bool Arena::OpenSegment(uint64_t bytes) {
  const uint64_t need = bytes + kSegmentSpareBytes;
  uint64_t seg = header_->segment_bytes < need ? need : header_->segment_bytes;
  if (!Reserve(seg)) {
    // Near the end of a fixed arena: a smaller segment still holds the record.
    seg = (header_->size - header_->bump) & ~uint64_t{7};
    if (seg < need) return false;
  }
  const uint64_t at = AllocRaw(seg);
  if (at == 0) return false;
  // Records are about to fill the segment: take its pages in one call rather
  // than a fault every 4 KiB in the middle of inserts (a no-op when the arena
  // was prefaulted).
  MemoryRegion::Populate(Bytes(at), seg);
  if (header_->first_segment == 0) {
    header_->first_segment = at;
    header_->rec_bump = at;
  } else if (at == header_->rec_limit + kSegmentSpareBytes) {
    // Nothing else was allocated since the open segment: extend it, so records
    // stay contiguous and a scan never follows a link.
  } else {
    uint64_t* link = Words(header_->rec_bump);
    link[0] = ChunkHeader(kChunkLink, 2, 0);
    link[1] = at;
    header_->rec_bump = at;
  }
  header_->rec_limit = at + seg - kSegmentSpareBytes;
  return true;
}

uint64_t Arena::AllocRecordSlow(uint64_t words, uint64_t fields) {
  uint64_t at = 0;
  uint64_t chunk_words = words;
  if (words <= kRecordExactWords && header_->rec_free[words] != 0) {
    at = header_->rec_free[words];
    header_->rec_free[words] = Words(at)[1];
  } else if (words > kRecordExactWords) {
    // First fit; split off the rest when it can stand as a free chunk.
    uint64_t* link = &header_->rec_free_large;
    while (*link != 0) {
      const uint64_t cand = *link;
      const uint64_t cand_words = ChunkWordsOf(*Words(cand));
      if (cand_words >= words) {
        *link = Words(cand)[1];
        at = cand;
        chunk_words = cand_words;
        if (cand_words - words >= kMinChunkWords) {
          const uint64_t rest = cand + words * 8;
          *Words(rest) = ChunkHeader(kChunkRecord, cand_words - words, 0);
          FreeRecord(rest);
          chunk_words = words;
        }
        break;
      }
      link = &Words(cand)[1];
    }
  }
  if (at != 0) {
    std::memset(Words(at) + 1, 0, (chunk_words - 1) * 8);
    *Words(at) = ChunkHeader(kChunkRecord, chunk_words, fields);
    return at;
  }
  const uint64_t bytes = words * 8;
  if (header_->rec_bump + bytes > header_->rec_limit || header_->first_segment == 0) {
    if (!OpenSegment(bytes)) return 0;
  }
  at = header_->rec_bump;
  header_->rec_bump = at + bytes;
  *Words(at) = ChunkHeader(kChunkRecord, words, fields);
  return at;
}

void Arena::FreeRecord(uint64_t offset) {
  uint64_t* chunk = Words(offset);
  const uint64_t words = ChunkWordsOf(chunk[0]);
  chunk[0] = ChunkHeader(kChunkFree, words, 0);
  uint64_t* head =
      words <= kRecordExactWords ? &header_->rec_free[words] : &header_->rec_free_large;
  chunk[1] = *head;
  *head = offset;
}

Status Arena::FullError(const char* what) const {
  std::string msg = std::string("arena full (") + what + "): " + std::to_string(header_->bump) +
                    " of " + std::to_string(header_->size) + " bytes used";
  if (region_.shared()) {
    msg += "; shared memory cannot grow, create it with a larger size";
  } else {
    msg += ", growth limit " + std::to_string(region_.max_size()) + " bytes; raise the size";
  }
  return Status::Full(msg);
}

}  // namespace nativedb
