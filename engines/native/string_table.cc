#include "engines/native/string_table.h"

#include <cstring>

namespace nativedb::internal {

using format::ArenaHeader;
using format::LongString;

namespace {

constexpr uint64_t kInitialBuckets = 1024;

uint64_t ObjectBytes(uint64_t length) { return sizeof(LongString) + length; }

// Doubles the bucket array when the table is fuller than one string per
// bucket. Failing to grow only lengthens the chains, so it is not an error.
void MaybeGrow(Arena& arena) {
  ArenaHeader* h = arena.header();
  if (h->intern_count <= h->intern_bucket_count) return;
  const uint64_t new_count = h->intern_bucket_count * 2;
  const uint64_t fresh = arena.AllocData(new_count * 8);
  if (fresh == 0) return;
  uint64_t* buckets = arena.Words(fresh);
  std::memset(buckets, 0, new_count * 8);
  const uint64_t* old = arena.Words(h->intern_buckets);
  for (uint64_t b = 0; b < h->intern_bucket_count; ++b) {
    for (uint64_t at = old[b]; at != 0;) {
      auto* s = reinterpret_cast<LongString*>(arena.Bytes(at));
      const uint64_t next = s->next;
      uint64_t& head = buckets[s->hash & (new_count - 1)];
      s->next = head;
      head = at;
      at = next;
    }
  }
  arena.FreeData(h->intern_buckets, h->intern_bucket_count * 8);
  h->intern_buckets = fresh;
  h->intern_bucket_count = new_count;
}

}  // namespace

uint64_t HashBytes(std::string_view bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  h = (h ^ tail) * 0x94d049bb133111ebULL;
  h ^= h >> 29;
  return h;
}

uint64_t FindInterned(const Arena& arena, std::string_view s) {
  const ArenaHeader* h = arena.header();
  if (h->intern_bucket_count == 0) return 0;
  const uint64_t hash = HashBytes(s);
  const uint64_t* buckets = arena.Words(h->intern_buckets);
  for (uint64_t at = buckets[hash & (h->intern_bucket_count - 1)]; at != 0;) {
    const auto* obj = reinterpret_cast<const LongString*>(arena.Bytes(at));
    if (obj->hash == hash && LongStringBytes(arena.base(), at) == s) return at;
    at = obj->next;
  }
  return 0;
}

uint64_t InternString(Arena& arena, std::string_view s) {
  ArenaHeader* h = arena.header();
  if (h->intern_bucket_count == 0) {
    const uint64_t buckets = arena.AllocData(kInitialBuckets * 8);
    if (buckets == 0) return 0;
    std::memset(arena.Words(buckets), 0, kInitialBuckets * 8);
    h->intern_buckets = buckets;
    h->intern_bucket_count = kInitialBuckets;
  }
  const uint64_t found = FindInterned(arena, s);
  if (found != 0) {
    ++reinterpret_cast<LongString*>(arena.Bytes(found))->refcount;
    return found;
  }
  const uint64_t at = arena.AllocData(ObjectBytes(s.size()));
  if (at == 0) return 0;
  const uint64_t hash = HashBytes(s);
  auto* obj = reinterpret_cast<LongString*>(arena.Bytes(at));
  obj->refcount = 1;
  obj->hash = hash;
  obj->length = s.size();
  std::memcpy(obj + 1, s.data(), s.size());
  uint64_t& head = arena.Words(h->intern_buckets)[hash & (h->intern_bucket_count - 1)];
  obj->next = head;
  head = at;
  ++h->intern_count;
  MaybeGrow(arena);
  return at;
}

void ReleaseString(Arena& arena, uint64_t offset) {
  auto* obj = reinterpret_cast<LongString*>(arena.Bytes(offset));
  if (--obj->refcount != 0) return;
  ArenaHeader* h = arena.header();
  uint64_t* link = &arena.Words(h->intern_buckets)[obj->hash & (h->intern_bucket_count - 1)];
  while (*link != offset) link = &reinterpret_cast<LongString*>(arena.Bytes(*link))->next;
  *link = obj->next;
  arena.FreeData(offset, ObjectBytes(obj->length));
  if (--h->intern_count == 0) {
    // The last long string is gone: give the table back too, so an arena
    // emptied of values holds no data at all.
    arena.FreeData(h->intern_buckets, h->intern_bucket_count * 8);
    h->intern_buckets = 0;
    h->intern_bucket_count = 0;
  }
}

}  // namespace nativedb::internal
