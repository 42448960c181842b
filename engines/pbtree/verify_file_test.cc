// Runs a few thousand damaged files through VerifyFile (the open + check
// function behind the libFuzzer target), so that the fuzzing contract is
// tested in every build, also with gcc: pbtree answers every file with a
// Status, never crashes, and keeps its invariants on files that pass Check.
#include "engines/pbtree/verify_file.h"

#include <gtest/gtest.h>

#include <random>

#include "engines/pbtree/format.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ReadAll;
using testing::ScratchDir;
using testing::WriteAll;

// Seed files: empty, one leaf, and a few levels with overflow values and
// free pages.
std::vector<std::vector<uint8_t>> SeedFiles(const ScratchDir& dir) {
  std::vector<std::vector<uint8_t>> seeds;
  const int sizes[] = {0, 20, 3000};
  for (uint32_t page_size : {4096u, 8192u}) {
    for (int n : sizes) {
      const std::string path = dir.File("seed");
      std::remove(path.c_str());
      {
        Options options;
        options.page_size = page_size;
        std::unique_ptr<DB> db;
        EXPECT_TRUE(DB::Open(options, path, &db).ok());
        std::unique_ptr<WriteTxn> txn;
        EXPECT_TRUE(db->BeginWrite(&txn).ok());
        for (int i = 0; i < n; ++i) {
          std::string key = std::string("https://example.org/") + std::to_string(i % 7) + "/" +
                            std::to_string(i * 7919 % 10007);
          EXPECT_TRUE(txn->Put(key, std::string(i % 50 == 0 ? 3000 : 20, 'v')).ok());
        }
        EXPECT_TRUE(txn->Commit().ok());
        // A second commit leaves free pages behind.
        if (n > 0) {
          EXPECT_TRUE(db->Delete(std::string("https://example.org/0/0")).ok());
        }
      }
      seeds.push_back(ReadAll(path));
    }
  }
  return seeds;
}

void Mutate(std::mt19937_64& rng, uint32_t page_size, std::vector<uint8_t>* file) {
  const int kind = rng() % 7;
  if (file->empty()) return;
  switch (kind) {
    case 0:  // flip a few bits
      for (int i = 1 + rng() % 4; i > 0; --i) (*file)[rng() % file->size()] ^= 1 << (rng() % 8);
      break;
    case 1: {  // random bytes over a range
      size_t at = rng() % file->size();
      for (size_t n = 1 + rng() % 64; n > 0 && at < file->size(); --n) (*file)[at++] = rng();
      break;
    }
    case 2:  // truncate
      file->resize(rng() % file->size());
      break;
    case 3: {  // copy one page over another
      size_t pages = file->size() / page_size;
      if (pages < 2) break;
      size_t from = rng() % pages, to = rng() % pages;
      std::copy_n(file->begin() + from * page_size, page_size, file->begin() + to * page_size);
      break;
    }
    case 4: {  // set a header field of a random page to a random small value
      size_t pages = file->size() / page_size;
      if (pages == 0) break;
      size_t page = rng() % pages;
      size_t field = rng() % kPageHeaderSize;
      (*file)[page * page_size + field] = static_cast<uint8_t>(rng() % 8);
      break;
    }
    case 5:  // grow with garbage
      for (int i = rng() % 5000; i > 0; --i) file->push_back(rng());
      break;
    default: {  // a byte in the entry area of a page
      size_t pages = file->size() / page_size;
      if (pages == 0) break;
      size_t page = rng() % pages;
      (*file)[page * page_size + kPageHeaderSize + rng() % 200] = rng();
      break;
    }
  }
}

// Re-seals every page's checksum, so that damage reaches the structural
// checks behind the checksums.
void Reseal(uint32_t page_size, std::vector<uint8_t>* file) {
  for (size_t page = 0; (page + 1) * page_size <= file->size(); ++page) {
    uint8_t* p = file->data() + page * page_size;
    SealPage(p, page_size, static_cast<uint32_t>(page), GetPageTxn(p));
  }
}

TEST(VerifyFileTest, DamagedFilesGiveAStatusNeverACrash) {
  ScratchDir dir;
  const auto seeds = SeedFiles(dir);
  const std::string path = dir.File("victim");
  std::mt19937_64 rng(42);
  int opened = 0, checked = 0;
  const int iterations = 3000;
  for (int i = 0; i < iterations; ++i) {
    const size_t seed_index = rng() % seeds.size();
    std::vector<uint8_t> file = seeds[seed_index];
    const uint32_t page_size = seed_index < 3 ? 4096 : 8192;
    for (int m = 1 + rng() % 3; m > 0; --m) Mutate(rng, page_size, &file);
    const bool reseal = rng() % 2 == 0;
    if (reseal) Reseal(page_size, &file);
    WriteAll(path, file);
    const VerifyOutcome out = VerifyFile(path, /*verify_checksums=*/rng() % 4 != 0);
    ASSERT_TRUE(out.bug.empty()) << "iteration " << i << ": " << out.bug;
    if (!out.open.ok()) {
      EXPECT_TRUE(out.open.IsCorruption() || out.open.IsInvalidArgument())
          << "iteration " << i << ": " << out.open.ToString();
      EXPECT_FALSE(out.open.message().empty());
    }
    opened += out.open.ok();
    checked += out.open.ok() && out.check.ok();
  }
  // The mutations must leave some files openable and some fully valid, or
  // the deeper paths were never reached.
  EXPECT_GT(opened, iterations / 10);
  EXPECT_GT(checked, iterations / 50);
  RecordProperty("opened", opened);
  RecordProperty("checked", checked);
}

TEST(VerifyFileTest, RandomBytesAreNotAPbtree) {
  ScratchDir dir;
  const std::string path = dir.File("random");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::vector<uint8_t> file(rng() % 70000);
    for (auto& b : file) b = rng();
    if (file.empty()) file.push_back(1);
    WriteAll(path, file);
    const VerifyOutcome out = VerifyFile(path, true);
    EXPECT_TRUE(out.open.IsInvalidArgument()) << out.open.ToString();
  }
}

TEST(VerifyFileTest, ValidFilesPassEverything) {
  ScratchDir dir;
  const auto seeds = SeedFiles(dir);
  const std::string path = dir.File("valid");
  for (const auto& seed : seeds) {
    WriteAll(path, seed);
    const VerifyOutcome out = VerifyFile(path, true);
    ASSERT_TRUE(out.open.ok()) << out.open.ToString();
    EXPECT_TRUE(out.check.ok()) << out.check.ToString();
    EXPECT_TRUE(out.bug.empty()) << out.bug;
  }
}

}  // namespace
}  // namespace pbtree
