#include "engines/pbtree/format.h"

#include <cstring>

#include "engines/pbtree/crc32c.h"

namespace pbtree {
namespace {

constexpr uint32_t kOffMagic = 24;
constexpr uint32_t kOffVersion = 32;
constexpr uint32_t kOffPageSize = 36;
constexpr uint32_t kOffMetaTxn = 40;
constexpr uint32_t kOffRoot = 48;
constexpr uint32_t kOffDepth = 52;
constexpr uint32_t kOffEntries = 56;
constexpr uint32_t kOffPageCount = 64;
constexpr uint32_t kOffFreePages = 68;
constexpr uint32_t kOffFreeMapCount = 72;
constexpr uint32_t kOffFreeMapList = 76;

uint32_t PageChecksum(const uint8_t* page, uint32_t page_size, uint32_t page_no) {
  uint8_t salt[4];
  EncodeFixed32(salt, page_no);
  uint32_t crc = crc32c::Value(salt, sizeof(salt));
  return crc32c::Extend(crc, page + 4, page_size - 4);
}

Status MetaError(uint32_t page_no, const std::string& what) {
  return Status::Corruption("meta page " + std::to_string(page_no) + ": " + what);
}

}  // namespace

void InitPage(uint8_t* page, uint32_t page_size, PageType type, uint8_t level) {
  std::memset(page + kPageHeaderSize, 0, page_size - kPageHeaderSize);
  InitHeader(page, type, level);
}

void InitHeader(uint8_t* page, PageType type, uint8_t level) {
  std::memset(page, 0, kPageHeaderSize);
  page[kOffType] = static_cast<uint8_t>(type);
  page[kOffLevel] = level;
  EncodeFixed16(page + kOffDataEnd, static_cast<uint16_t>(kPageHeaderSize));
}

void SealPage(uint8_t* page, uint32_t page_size, uint32_t page_no, uint64_t txn_id) {
  EncodeFixed64(page + kOffTxn, txn_id);
  EncodeFixed32(page + kOffChecksum, PageChecksum(page, page_size, page_no));
}

bool ChecksumMatches(const uint8_t* page, uint32_t page_size, uint32_t page_no) {
  return DecodeFixed32(page + kOffChecksum) == PageChecksum(page, page_size, page_no);
}

uint32_t MaxFreeMapPages(uint32_t page_size) { return (page_size - kOffFreeMapList) / 4; }

void EncodeMeta(const Meta& meta, uint32_t page_no, uint8_t* page) {
  InitPage(page, meta.page_size, PageType::kMeta, 0);
  std::memcpy(page + kOffMagic, kMagic, sizeof(kMagic));
  EncodeFixed32(page + kOffVersion, kFormatVersion);
  EncodeFixed32(page + kOffPageSize, meta.page_size);
  EncodeFixed64(page + kOffMetaTxn, meta.txn_id);
  EncodeFixed32(page + kOffRoot, meta.root);
  EncodeFixed32(page + kOffDepth, meta.depth);
  EncodeFixed64(page + kOffEntries, meta.entries);
  EncodeFixed32(page + kOffPageCount, meta.page_count);
  EncodeFixed32(page + kOffFreePages, meta.free_pages);
  EncodeFixed32(page + kOffFreeMapCount, static_cast<uint32_t>(meta.free_map_pages.size()));
  uint8_t* p = page + kOffFreeMapList;
  for (uint32_t pg : meta.free_map_pages) {
    EncodeFixed32(p, pg);
    p += 4;
  }
  SealPage(page, meta.page_size, page_no, meta.txn_id);
}

bool HasMagic(const uint8_t* page, size_t available) {
  return available >= kOffMagic + sizeof(kMagic) &&
         std::memcmp(page + kOffMagic, kMagic, sizeof(kMagic)) == 0;
}

uint32_t ClaimedPageSize(const uint8_t* page, size_t available) {
  if (!HasMagic(page, available) || available < kOffPageSize + 4) return 0;
  return DecodeFixed32(page + kOffPageSize);
}

Status DecodeMeta(const uint8_t* page, uint32_t page_size, uint32_t page_no, Meta* meta) {
  if (!HasMagic(page, page_size)) return MetaError(page_no, "no pbtree magic");
  if (DecodeFixed32(page + kOffPageSize) != page_size) {
    return MetaError(page_no, "page size field does not match");
  }
  if (!ChecksumMatches(page, page_size, page_no)) return MetaError(page_no, "checksum mismatch");
  if (GetPageType(page) != PageType::kMeta) return MetaError(page_no, "wrong page type");
  uint32_t version = DecodeFixed32(page + kOffVersion);
  if (version != kFormatVersion) {
    return MetaError(page_no, "unsupported format version " + std::to_string(version));
  }
  Meta m;
  m.page_size = page_size;
  m.txn_id = DecodeFixed64(page + kOffMetaTxn);
  m.root = DecodeFixed32(page + kOffRoot);
  m.depth = DecodeFixed32(page + kOffDepth);
  m.entries = DecodeFixed64(page + kOffEntries);
  m.page_count = DecodeFixed32(page + kOffPageCount);
  m.free_pages = DecodeFixed32(page + kOffFreePages);
  uint32_t nmap = DecodeFixed32(page + kOffFreeMapCount);
  if (GetPageTxn(page) != m.txn_id) return MetaError(page_no, "header and body txn ids differ");
  if (m.page_count < kFirstDataPage) return MetaError(page_no, "page count below 2");
  if (m.depth > kMaxDepth) return MetaError(page_no, "depth " + std::to_string(m.depth));
  bool empty = m.root == 0;
  if (empty != (m.depth == 0) || empty != (m.entries == 0)) {
    return MetaError(page_no, "root, depth and entry count disagree");
  }
  if (!empty && (m.root < kFirstDataPage || m.root >= m.page_count)) {
    return MetaError(page_no, "root page out of range");
  }
  if (nmap > MaxFreeMapPages(page_size)) return MetaError(page_no, "free map list too long");
  if (m.free_pages > m.page_count) return MetaError(page_no, "free page count out of range");
  m.free_map_pages.resize(nmap);
  for (uint32_t i = 0; i < nmap; ++i) {
    uint32_t pg = DecodeFixed32(page + kOffFreeMapList + 4 * i);
    if (pg < kFirstDataPage || pg >= m.page_count) {
      return MetaError(page_no, "free map page out of range");
    }
    m.free_map_pages[i] = pg;
  }
  *meta = std::move(m);
  return Status::OK();
}

}  // namespace pbtree
