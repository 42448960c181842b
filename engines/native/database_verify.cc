// Database::Verify: walks the whole arena and checks that it is consistent.
// Used by the tests after every batch of random operations; never on a hot path.
#include <string>
#include <vector>

#include "engines/native/btree.h"
#include "engines/native/database.h"

namespace nativedb {

using namespace format;

namespace {

std::string At(uint64_t offset) { return " at offset " + std::to_string(offset); }

// A field word must point inside the allocated part of the arena.
bool WordInBounds(uint64_t word, uint64_t bump) {
  if (internal::OwnsNoStorage(word) && !IsRecordRef(word)) return true;
  const uint64_t off = OffsetOf(word);
  return off >= kHeaderBytes && off < bump && off % 8 == 0 && TagOf(word) <= kTagBytes;
}

}  // namespace

Status Database::VerifyRecords() const {
  const ArenaHeader* h = header_;
  uint64_t records = 0;
  uint64_t free_exact = 0;
  uint64_t free_large = 0;
  uint64_t at = h->first_segment;
  while (at != 0 && at != h->rec_bump) {
    if (at < kHeaderBytes || at >= h->bump || at % 8 != 0) {
      return Status::Corruption("record walk left the arena" + At(at));
    }
    const uint64_t* chunk = arena_.Words(at);
    const uint64_t words = ChunkWordsOf(chunk[0]);
    if (ChunkKindOf(chunk[0]) == kChunkLink) {
      if (chunk[1] <= at) return Status::Corruption("segment link goes backwards" + At(at));
      at = chunk[1];
      continue;
    }
    if (words < kMinChunkWords || at + words * 8 > h->bump) {
      return Status::Corruption("bad chunk size" + At(at));
    }
    if (ChunkKindOf(chunk[0]) == kChunkRecord) {
      const uint64_t fields = ChunkFieldsOf(chunk[0]);
      if (fields + 1 > words) return Status::Corruption("record overflows its chunk" + At(at));
      for (uint64_t f = 0; f < fields; ++f) {
        if (!WordInBounds(chunk[1 + f], h->bump)) {
          return Status::Corruption("field " + std::to_string(f) + " points outside" + At(at));
        }
      }
      ++records;
    } else if (ChunkKindOf(chunk[0]) == kChunkFree) {
      ++(words <= kRecordExactWords ? free_exact : free_large);
    } else {
      return Status::Corruption("unknown chunk kind" + At(at));
    }
    at += words * 8;
  }
  if (records != h->record_count) {
    return Status::Corruption("walk found " + std::to_string(records) + " records, header says " +
                              std::to_string(h->record_count));
  }
  // Every free chunk is on the list of its size, and nothing else is.
  uint64_t listed_exact = 0;
  for (uint64_t w = kMinChunkWords; w <= kRecordExactWords; ++w) {
    for (uint64_t c = h->rec_free[w]; c != 0; c = arena_.Words(c)[1]) {
      const uint64_t head = *arena_.Words(c);
      if (ChunkKindOf(head) != kChunkFree || ChunkWordsOf(head) != w) {
        return Status::Corruption("free list of " + std::to_string(w) + " words is wrong" + At(c));
      }
      if (++listed_exact > free_exact) return Status::Corruption("free list has a cycle");
    }
  }
  uint64_t listed_large = 0;
  for (uint64_t c = h->rec_free_large; c != 0; c = arena_.Words(c)[1]) {
    const uint64_t head = *arena_.Words(c);
    if (ChunkKindOf(head) != kChunkFree || ChunkWordsOf(head) <= kRecordExactWords) {
      return Status::Corruption("large free list is wrong" + At(c));
    }
    if (++listed_large > free_large) return Status::Corruption("large free list has a cycle");
  }
  if (listed_exact != free_exact || listed_large != free_large) {
    return Status::Corruption("free chunks and free lists disagree");
  }
  return Status::OK();
}

Status Database::Verify() const {
  const ArenaHeader* h = header_;
  if (h->magic != kMagic) return Status::Corruption("bad magic");
  if (h->bump > h->size || h->bump < kHeaderBytes) return Status::Corruption("bump out of range");
  NATIVEDB_RETURN_IF_ERROR(VerifyRecords());

  uint64_t mask = 0;
  for (IndexMeta& meta : header_->indexes) {
    if (meta.field == kNoField) continue;
    mask |= IndexMaskBit(meta.field);
    const std::string which = "index on field " + std::to_string(meta.field) + ": ";
    internal::BTree tree(&arena_, &meta);
    Status st = tree.Verify();
    if (!st.ok()) return Status::Corruption(which + std::string(st.message()));
    // Exactly the records whose field is not NULL, each under its field word.
    uint64_t expected = 0;
    ForEachRecord([&](Record r) {
      const uint64_t* words = arena_.Words(r.offset);
      if (meta.field < ChunkFieldsOf(words[0]) && words[1 + meta.field] != kNullWord) ++expected;
    });
    if (expected != meta.entries) {
      return Status::Corruption(which + std::to_string(meta.entries) + " entries for " +
                                std::to_string(expected) + " non-NULL fields");
    }
    for (internal::TreePosition p = tree.First(); p.leaf != 0; tree.Next(&p)) {
      const uint64_t rec = tree.RecAt(p);
      const uint64_t* words = arena_.Words(rec);
      if (ChunkKindOf(words[0]) != kChunkRecord || meta.field >= ChunkFieldsOf(words[0]) ||
          words[1 + meta.field] != tree.WordAt(p)) {
        return Status::Corruption(which + "entry does not match its record" + At(rec));
      }
    }
  }
  if (mask != h->indexed_mask) return Status::Corruption("indexed-field mask is stale");
  return Status::OK();
}

}  // namespace nativedb
