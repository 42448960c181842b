// The pbtree file format. format.cc writes every page header and the meta
// pages; node_page.cc writes the entries of leaf and internal pages and
// documents them in detail; free_map.cc writes the free-page bitmap.
//
// A pbtree database is one file of fixed-size pages: 4096 bytes by default,
// 8192, 16384 or 32768 by option when the file is created (the size is then
// read from the file). Page n lives at byte n * page_size. Every integer is
// little-endian and written by the explicit encoders in coding.h; no struct is
// ever dumped raw, so a file is the same on every CPU.
//
// Every page starts with a 24-byte header:
//
//   offset size  field
//   0      4     checksum: CRC32C of the page number (4 bytes, LE) followed by
//                bytes [4, page_size) of the page. Salting with the page number
//                also catches a page written to the wrong place.
//   4      1     page type: 1 meta, 2 leaf, 3 internal, 4 overflow, 5 free map
//   5      1     level: 0 for leaves, height above the leaves for internal pages
//   6      2     entry count (leaf, internal)
//   8      8     id of the transaction that wrote the page; never larger than
//                the transaction id of the meta page that reaches it
//   16     2     restart count (leaf, internal)
//   18     2     end of the entry area (leaf, internal)
//   20     4     next page of an overflow chain (0 ends it); index of a free-map
//                page within the map
//
// Pages 0 and 1 are the two meta pages. A commit writes the transaction id
// (ever increasing) and the state of the tree into meta page (txn_id % 2), so
// the previous commit's meta page stays intact: a torn or lost meta write
// leaves the other one, and opening picks the valid meta with the largest
// transaction id. Meta page body (after the header):
//
//   24     8     magic "pbtree\x01\n"
//   32     4     format version (1)
//   36     4     page size
//   40     8     transaction id
//   48     4     root page (0: the tree is empty)
//   52     4     depth in levels (0: empty; 1: the root is a leaf)
//   56     8     number of entries (keys) in the tree
//   64     4     page count: pages [0, page count) are in use or free; the file
//                may be longer after a crash (the tail is ignored), never shorter
//   68     4     number of free pages (cross-checked against the free map)
//   72     4     number of free-map pages n
//   76     4n    page numbers of the free-map pages, in map order
//
// The free-page list is kept as a bitmap ("free map", see free_map.h): bit p
// is 1 when page p is free. A bitmap rather than a linked list of page numbers
// because a commit then rewrites only the few map pages whose bits changed
// (one or two for a one-key transaction), its size is bounded by the file
// size, and allocation can hand out the lowest free pages first so that the
// pages of one commit are mostly contiguous and written with few pwritev calls.
//
// Leaf and internal pages: see node_page.h. Overflow pages hold values larger
// than a quarter page: the leaf entry keeps the value length and the first
// page of a chain; each overflow page carries page_size - 24 bytes of the value
// after its header and the next page number in the header.
//
// Copy-on-write: a committed page is never modified. A write transaction
// copies each page it changes to a free page, so the pages reachable from the
// previous meta page stay intact until the next commit is durable; that is
// what makes a commit atomic (see pager.h for the order of writes and syncs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/pbtree/coding.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/status.h"

namespace pbtree {

inline constexpr uint32_t kPageHeaderSize = 24;
inline constexpr uint32_t kMinPageSize = 4096;
inline constexpr uint32_t kMaxPageSize = 32768;
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr char kMagic[8] = {'p', 'b', 't', 'r', 'e', 'e', '\x01', '\n'};
inline constexpr uint32_t kMetaPage0 = 0;
inline constexpr uint32_t kMetaPage1 = 1;
inline constexpr uint32_t kFirstDataPage = 2;
// Deeper than any tree pbtree builds (fan-out >= 2 below 2^32 pages); a
// deeper claim in a file is corruption.
inline constexpr uint32_t kMaxDepth = 40;

enum class PageType : uint8_t {
  kMeta = 1,
  kLeaf = 2,
  kInternal = 3,
  kOverflow = 4,
  kFreeMap = 5,
};

// Header field offsets.
inline constexpr uint32_t kOffChecksum = 0;
inline constexpr uint32_t kOffType = 4;
inline constexpr uint32_t kOffLevel = 5;
inline constexpr uint32_t kOffCount = 6;
inline constexpr uint32_t kOffTxn = 8;
inline constexpr uint32_t kOffRestarts = 16;
inline constexpr uint32_t kOffDataEnd = 18;
inline constexpr uint32_t kOffNext = 20;

inline bool IsValidPageSize(uint32_t size) {
  return size == 4096 || size == 8192 || size == 16384 || size == 32768;
}

// Values longer than this go to overflow pages.
inline uint32_t MaxInlineValue(uint32_t page_size) { return page_size / 4; }

inline PageType GetPageType(const uint8_t* page) { return static_cast<PageType>(page[kOffType]); }
inline uint8_t GetLevel(const uint8_t* page) { return page[kOffLevel]; }
inline uint16_t GetCount(const uint8_t* page) { return DecodeFixed16(page + kOffCount); }
inline uint64_t GetPageTxn(const uint8_t* page) { return DecodeFixed64(page + kOffTxn); }
inline uint32_t GetNext(const uint8_t* page) { return DecodeFixed32(page + kOffNext); }

// Zeroes the page and writes a fresh header.
void InitPage(uint8_t* page, uint32_t page_size, PageType type, uint8_t level);
// Writes a fresh header only (the caller fills or zeroes the rest).
void InitHeader(uint8_t* page, PageType type, uint8_t level);

// Stamps the transaction id and the checksum; the last thing done to a page
// before it is written.
void SealPage(uint8_t* page, uint32_t page_size, uint32_t page_no, uint64_t txn_id);
// True when the stored checksum matches.
bool ChecksumMatches(const uint8_t* page, uint32_t page_size, uint32_t page_no);

// The decoded contents of a meta page.
struct Meta {
  uint64_t txn_id = 0;
  uint32_t page_size = 0;
  uint32_t root = 0;
  uint32_t depth = 0;
  uint64_t entries = 0;
  uint32_t page_count = kFirstDataPage;
  uint32_t free_pages = 0;
  std::vector<uint32_t> free_map_pages;
};

// How many free-map page numbers a meta page of this size can hold.
uint32_t MaxFreeMapPages(uint32_t page_size);

// Writes `meta` into a page buffer of meta.page_size bytes, sealed for page
// `page_no`. The caller made sure free_map_pages fits (MaxFreeMapPages).
void EncodeMeta(const Meta& meta, uint32_t page_no, uint8_t* page);

// Whether the first bytes of a page carry pbtree's magic (for telling "not a
// pbtree file" from "a damaged pbtree file").
bool HasMagic(const uint8_t* page, size_t available);
// The page size a meta page with the magic claims (0 without the magic).
uint32_t ClaimedPageSize(const uint8_t* page, size_t available);

// Decodes and validates a meta page read from slot `page_no` of a file whose
// page size is `page_size`. Corruption (with the reason) when the checksum,
// magic, version, page size or any field is inconsistent.
Status DecodeMeta(const uint8_t* page, uint32_t page_size, uint32_t page_no, Meta* meta);

}  // namespace pbtree
