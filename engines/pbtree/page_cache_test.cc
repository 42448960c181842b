// PageCache::AdoptMemory: a Reorganize's new cache takes the old cache's
// slabs, already faulted in, for its next frames instead of mapping new ones.
#include "engines/pbtree/page_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "engines/pbtree/reader_table.h"

namespace pbtree {
namespace {

constexpr uint32_t kPageSize = 4096;

TEST(PageCacheTest, AdoptedMemoryServesTheNextFramesAndOutlivesTheOldCache) {
  ReaderTable readers;
  auto old = std::make_unique<PageCache>(kPageSize, 1024, 1u << 20, &readers);
  std::vector<uint8_t*> old_frames;
  for (uint32_t p = 2; p < 12; ++p) {
    uint8_t* data = old->AddDirty(p)->data();
    std::memset(data, 0xab, kPageSize);
    old_frames.push_back(data);
  }
  PageCache fresh(kPageSize, 1024, 1u << 20, &readers);
  fresh.AdoptMemory(old.get());
  old.reset();  // must not unmap what `fresh` took
  // The adopted slab's frames come first, from its start: where the old
  // cache's first frames were.
  for (size_t i = 0; i < old_frames.size(); ++i) {
    uint8_t* data = fresh.AddDirty(static_cast<uint32_t>(100 + i))->data();
    EXPECT_EQ(data, old_frames[i]) << i;
    std::memset(data, 0xcd, kPageSize);  // still mapped, writable
    EXPECT_EQ(fresh.Find(static_cast<uint32_t>(100 + i)), data);
  }
}

}  // namespace
}  // namespace pbtree
