// File-level format tests: encoders, checksums, meta page alternation, and
// the errors for damaged, truncated and foreign files.
#include "engines/pbtree/format.h"

#include <gtest/gtest.h>

#include <cstring>

#include "engines/pbtree/crc32c.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ReadAll;
using testing::ScratchDir;
using testing::WriteAll;

TEST(CodingTest, FixedAndVarintRoundTrip) {
  uint8_t buf[8];
  EncodeFixed32(buf, 0x01020304);
  EXPECT_EQ(buf[0], 0x04);  // little-endian on every CPU
  EXPECT_EQ(DecodeFixed32(buf), 0x01020304u);
  EncodeFixed64(buf, 0x0102030405060708ull);
  EXPECT_EQ(DecodeFixed64(buf), 0x0102030405060708ull);
  const uint8_t le64[8] = {8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(std::memcmp(buf, le64, 8), 0);
  EncodeFixed16(buf, 0x0102);
  EXPECT_EQ(buf[0], 0x02);
  EXPECT_EQ(buf[1], 0x01);
  EXPECT_EQ(DecodeFixed16(buf), 0x0102u);
  // Unaligned places read and write the same bytes.
  uint8_t wide[16] = {};
  EncodeFixed32(wide + 3, 0xa1b2c3d4);
  EXPECT_EQ(wide[3], 0xd4);
  EXPECT_EQ(wide[6], 0xa1);
  EXPECT_EQ(DecodeFixed32(wide + 3), 0xa1b2c3d4u);
  for (uint32_t v : {0u, 1u, 127u, 128u, 300u, 16383u, 16384u, 0xffffffffu}) {
    uint8_t* end = EncodeVarint32(buf, v);
    EXPECT_EQ(end - buf, VarintLength(v));
    uint32_t got = 0;
    EXPECT_EQ(DecodeVarint32(buf, end, &got), end);
    EXPECT_EQ(got, v);
    EXPECT_EQ(DecodeVarint32Trusted(buf, &got), end);
    EXPECT_EQ(got, v);
    if (end - buf > 1) {
      EXPECT_EQ(DecodeVarint32(buf, end - 1, &got), nullptr) << "truncated";
    }
  }
  const uint8_t overlong[] = {0xff, 0xff, 0xff, 0xff, 0x7f};
  uint32_t got;
  EXPECT_EQ(DecodeVarint32(overlong, overlong + 5, &got), nullptr);
}

TEST(Crc32cTest, KnownValues) {
  const char* text = "123456789";
  EXPECT_EQ(crc32c::Value(reinterpret_cast<const uint8_t*>(text), 9), 0xe3069283u);
  std::vector<uint8_t> zeros(32, 0);
  EXPECT_EQ(crc32c::Value(zeros.data(), zeros.size()), 0x8a9136aau);
  // Extending in pieces equals one pass.
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  uint32_t whole = crc32c::Value(data.data(), data.size());
  uint32_t part = crc32c::Extend(crc32c::Value(data.data(), 333), data.data() + 333, 667);
  EXPECT_EQ(whole, part);
  // The hardware path (three interleaved chains) equals the table path at
  // every length and alignment around its stripe sizes.
  std::vector<uint8_t> big(40016);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 131 + (i >> 7));
  for (size_t n : {0u, 7u, 383u, 384u, 385u, 3071u, 3072u, 3073u, 4092u, 8188u, 32764u, 39999u}) {
    for (size_t off : {0u, 1u, 5u}) {
      EXPECT_EQ(crc32c::Extend(0x1234, big.data() + off, n),
                crc32c::ExtendPortableForTest(0x1234, big.data() + off, n))
          << n << "@" << off;
    }
  }
  // And at every length a log record has (the one chain's 32-byte steps and
  // its 8/4/2/1-byte tail).
  for (size_t n = 0; n <= 400; ++n) {
    for (size_t off : {0u, 3u}) {
      ASSERT_EQ(crc32c::Extend(0x5678, big.data() + off, n),
                crc32c::ExtendPortableForTest(0x5678, big.data() + off, n))
          << n << "@" << off;
    }
  }
}

TEST(FormatTest, ChecksumCatchesEveryFlippedBitAndWrongPlace) {
  std::vector<uint8_t> page(4096);
  InitPage(page.data(), 4096, PageType::kOverflow, 0);
  std::memset(page.data() + kPageHeaderSize, 0x5a, 100);
  SealPage(page.data(), 4096, 42, 7);
  EXPECT_TRUE(ChecksumMatches(page.data(), 4096, 42));
  EXPECT_FALSE(ChecksumMatches(page.data(), 4096, 43)) << "page written at the wrong place";
  for (size_t byte : {4u, 8u, 30u, 2000u, 4095u}) {
    page[byte] ^= 0x10;
    EXPECT_FALSE(ChecksumMatches(page.data(), 4096, 42)) << byte;
    page[byte] ^= 0x10;
  }
}

TEST(FormatTest, MetaRoundTripAndValidation) {
  Meta meta;
  meta.page_size = 8192;
  meta.txn_id = 12;
  meta.root = 5;
  meta.depth = 2;
  meta.entries = 1000;
  meta.page_count = 40;
  meta.free_pages = 3;
  meta.free_map_pages = {9};
  std::vector<uint8_t> page(8192);
  EncodeMeta(meta, 0, page.data());
  Meta back;
  ASSERT_TRUE(DecodeMeta(page.data(), 8192, 0, &back).ok());
  EXPECT_EQ(back.txn_id, 12u);
  EXPECT_EQ(back.root, 5u);
  EXPECT_EQ(back.entries, 1000u);
  EXPECT_EQ(back.free_map_pages, std::vector<uint32_t>{9});
  EXPECT_TRUE(DecodeMeta(page.data(), 8192, 1, &back).IsCorruption()) << "slot salted";
  EXPECT_TRUE(DecodeMeta(page.data(), 4096, 0, &back).IsCorruption());
  page[60] ^= 1;
  Status s = DecodeMeta(page.data(), 8192, 0, &back);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("checksum"), std::string::npos) << s.ToString();
}

// Every commit writes its pages and a meta page (no log): the meta-page
// tests below count commits in the meta pages.
Options NoLog() {
  Options options;
  options.wal = false;
  return options;
}

// Creates a database with `commits` one-key transactions.
void MakeDb(const std::string& path, int commits, uint32_t page_size = 4096) {
  Options options = NoLog();
  options.page_size = page_size;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, path, &db).ok());
  for (int i = 0; i < commits; ++i) {
    ASSERT_TRUE(db->Put(std::string("key") + std::to_string(i), std::string("value") + std::to_string(i)).ok());
  }
}

uint64_t MetaTxn(const std::vector<uint8_t>& file, uint32_t slot, uint32_t page_size) {
  Meta meta;
  if (!DecodeMeta(file.data() + slot * page_size, page_size, slot, &meta).ok()) return UINT64_MAX;
  return meta.txn_id;
}

TEST(FormatTest, CommitsAlternateMetaPages) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 0);
  for (int commit = 1; commit <= 5; ++commit) {
    {
      std::unique_ptr<DB> db;
      ASSERT_TRUE(DB::Open(NoLog(), path, &db).ok());
      ASSERT_TRUE(db->Put(std::string("k") + std::to_string(commit), "v").ok());
    }
    std::vector<uint8_t> file = ReadAll(path);
    // Commit n goes to slot n % 2; the other slot keeps commit n - 1.
    EXPECT_EQ(MetaTxn(file, commit % 2, 4096), static_cast<uint64_t>(commit));
    EXPECT_EQ(MetaTxn(file, 1 - commit % 2, 4096), static_cast<uint64_t>(commit - 1));
  }
}

TEST(FormatTest, TornNewestMetaFallsBackToThePreviousCommit) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 3);  // commits 1..3; commit 3 in slot 1
  std::vector<uint8_t> file = ReadAll(path);
  ASSERT_EQ(MetaTxn(file, 1, 4096), 3u);
  file[4096 + 100] ^= 0xff;  // tear the newest meta
  WriteAll(path, file);
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(NoLog(), path, &db).ok());
  std::string value;
  EXPECT_TRUE(db->Get("key1", &value).ok());
  EXPECT_TRUE(db->Get("key2", &value).IsNotFound()) << "commit 3 is gone, commit 2 remains";
  Stats stats;
  ASSERT_TRUE(db->GetStats(&stats).ok());
  EXPECT_TRUE(stats.recovered_from_bad_meta);
  EXPECT_EQ(stats.txn_id, 2u);
  EXPECT_TRUE(db->Check().ok());
  // The next commit reuses the torn slot.
  ASSERT_TRUE(db->Put("again", "x").ok());
  EXPECT_TRUE(db->Check().ok());
}

TEST(FormatTest, BothMetasBadIsCorruption) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 2);
  std::vector<uint8_t> file = ReadAll(path);
  file[100] ^= 1;
  file[4096 + 100] ^= 1;
  WriteAll(path, file);
  std::unique_ptr<DB> db;
  Status s = DB::Open(Options(), path, &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("checksum"), std::string::npos) << s.ToString();
}

TEST(FormatTest, DamagedDataPageIsReportedNotReturned) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 50);
  std::vector<uint8_t> file = ReadAll(path);
  Meta meta;
  const uint32_t slot = MetaTxn(file, 0, 4096) > MetaTxn(file, 1, 4096) ? 0 : 1;
  ASSERT_TRUE(DecodeMeta(file.data() + slot * 4096, 4096, slot, &meta).ok());
  file[static_cast<size_t>(meta.root) * 4096 + 200] ^= 0x01;  // one bit in the root leaf
  WriteAll(path, file);
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(Options(), path, &db).ok());
  std::string value;
  Status s = db->Get("key10", &value);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("checksum"), std::string::npos);
  EXPECT_TRUE(db->Check().IsCorruption());
  std::unique_ptr<Cursor> c = db->NewCursor();
  c->SeekToFirst();
  EXPECT_FALSE(c->Valid());
  EXPECT_TRUE(c->status().IsCorruption());
}

TEST(FormatTest, TruncatedFileIsReported) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 200);
  std::vector<uint8_t> file = ReadAll(path);
  ASSERT_GT(file.size(), 3 * 4096u);
  for (size_t keep : {file.size() - 4096, size_t{3 * 4096}, size_t{4096 + 10}, size_t{5000},
                      size_t{100}}) {
    WriteAll(path, file.data(), keep);
    std::unique_ptr<DB> db;
    Status s = DB::Open(Options(), path, &db);
    EXPECT_TRUE(s.IsCorruption()) << keep << ": " << s.ToString();
    EXPECT_NE(s.message().find("truncated"), std::string::npos) << keep << ": " << s.ToString();
  }
}

TEST(FormatTest, ForeignFileIsNotAPbtree) {
  ScratchDir dir;
  const std::string path = dir.File("other");
  for (size_t size : {size_t{10}, size_t{4096}, size_t{100000}}) {
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 31 + 7);
    std::memcpy(bytes.data(), "SQLite format 3", std::min<size_t>(size, 16));
    WriteAll(path, bytes);
    std::unique_ptr<DB> db;
    Status s = DB::Open(Options(), path, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("not a pbtree file"), std::string::npos) << s.ToString();
  }
}

TEST(FormatTest, OpenErrors) {
  ScratchDir dir;
  Options options;
  options.create_if_missing = false;
  std::unique_ptr<DB> db;
  EXPECT_TRUE(DB::Open(options, dir.File("missing"), &db).IsNotFound());
  options.create_if_missing = true;
  options.page_size = 5000;
  EXPECT_TRUE(DB::Open(options, dir.File("x"), &db).IsInvalidArgument());
  options.page_size = 4096;
  ASSERT_TRUE(DB::Open(options, dir.File("x"), &db).ok());
  std::unique_ptr<DB> second;
  EXPECT_TRUE(DB::Open(options, dir.File("x"), &second).IsBusy()) << "file lock";
}

TEST(FormatTest, ExistingFileKeepsItsPageSize) {
  ScratchDir dir;
  const std::string path = dir.File("db");
  MakeDb(path, 10, 16384);
  Options options;
  options.page_size = 4096;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, path, &db).ok());
  Stats stats;
  ASSERT_TRUE(db->GetStats(&stats).ok());
  EXPECT_EQ(stats.page_size, 16384u);
  std::string value;
  EXPECT_TRUE(db->Get("key9", &value).ok());
  EXPECT_EQ(value, "value9");
}

}  // namespace
}  // namespace pbtree
