// Snapshots: Save then Load gives back the same records at the same offsets,
// working indexes and interned strings, and a database that can keep being
// written; damaged or missing files are refused with a status.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engines/native/database.h"

namespace nativedb {
namespace {

// Small arenas: Load enlarges them to fit the image, and creating the default
// 1 GiB (every page touched) would only slow the test down.
Options SmallOptions() {
  Options options;
  options.size = uint64_t{1} << 20;
  return options;
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/nativedb_" + std::to_string(getpid()) + "_" + name;
}

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    Options options;
    options.size = uint64_t{8} << 20;
    ASSERT_TRUE(Database::Create(options, &db_).ok());
    ASSERT_TRUE(db_->CreateIndex(0).ok());
    Record prev{};
    for (int i = 0; i < 2000; ++i) {
      Record r;
      ASSERT_TRUE(db_->CreateRecord(5, &r).ok());
      ASSERT_TRUE(db_->SetField(r, 0, Value::Int(i % 50)).ok());
      ASSERT_TRUE(db_->SetField(r, 1, Value::String(i % 2 ? "short" : std::string(64, 'L'))).ok());
      ASSERT_TRUE(db_->SetField(r, 2, Value::Double(i * 0.5)).ok());
      ASSERT_TRUE(db_->SetField(r, 3, Value::Bytes(std::string(i % 17, '\0'))).ok());
      if (prev) {
        ASSERT_TRUE(db_->SetField(r, 4, Value::Ref(prev)).ok());
      }
      prev = r;
      if (i % 7 == 0) {
        ASSERT_TRUE(db_->DeleteRecord(r).ok());
        prev = Record{};
      }
    }
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::string path_;
  std::unique_ptr<Database> db_;
};

void ExpectSameRecords(const Database& a, const Database& b) {
  ASSERT_EQ(a.RecordCount(), b.RecordCount());
  Record rb = b.FirstRecord();
  for (Record ra = a.FirstRecord(); ra; ra = a.NextRecord(ra), rb = b.NextRecord(rb)) {
    ASSERT_EQ(ra, rb) << "offsets survive a snapshot";
    for (uint32_t f = 0; f < a.FieldCount(ra); ++f) ASSERT_EQ(a.GetField(ra, f), b.GetField(rb, f));
  }
  EXPECT_FALSE(rb);
}

TEST_F(SnapshotTest, RoundTrip) {
  ASSERT_TRUE(db_->Save(path_).ok());
  std::unique_ptr<Database> loaded;
  Options options;
  options.size = uint64_t{1} << 20;  // smaller than the image: Load enlarges it
  const Status st = Database::Load(path_, options, &loaded);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_NO_FATAL_FAILURE(ExpectSameRecords(*db_, *loaded));
  EXPECT_TRUE(loaded->Verify().ok());
  EXPECT_EQ(loaded->GetStats().interned_strings, 1u);
  std::vector<Record> a, b;
  ASSERT_TRUE(db_->FindEqual(0, Value::Int(7), 0, &a).ok());
  ASSERT_TRUE(loaded->FindEqual(0, Value::Int(7), 0, &b).ok());
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());

  // The loaded database keeps working: writes, index upkeep, string sharing.
  Record r;
  ASSERT_TRUE(loaded->CreateRecord(2, &r).ok());
  ASSERT_TRUE(loaded->SetField(r, 0, Value::Int(7)).ok());
  ASSERT_TRUE(loaded->SetField(r, 1, Value::String(std::string(64, 'L'))).ok());
  EXPECT_EQ(loaded->GetStats().interned_strings, 1u);
  ASSERT_TRUE(loaded->FindEqual(0, Value::Int(7), 0, &b).ok());
  EXPECT_EQ(b.size(), a.size() + 1);
  WriteLock lock(*loaded);
  EXPECT_TRUE(lock.status().ok()) << "the loaded lock is usable";
  EXPECT_TRUE(loaded->Verify().ok());
}

TEST_F(SnapshotTest, CorruptionIsDetected) {
  ASSERT_TRUE(db_->Save(path_).ok());
  {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64 + 20000);
    char c;
    f.read(&c, 1);
    c ^= 0x40;
    f.seekp(64 + 20000);
    f.write(&c, 1);
  }
  std::unique_ptr<Database> loaded;
  Status st = Database::Load(path_, SmallOptions(), &loaded);
  EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
  EXPECT_EQ(loaded, nullptr);
}

TEST_F(SnapshotTest, TruncatedAndMissingFiles) {
  ASSERT_TRUE(db_->Save(path_).ok());
  ASSERT_EQ(truncate(path_.c_str(), 5000), 0);
  std::unique_ptr<Database> loaded;
  EXPECT_EQ(Database::Load(path_, SmallOptions(), &loaded).code(), Status::Code::kCorruption);
  EXPECT_EQ(Database::Load(path_ + ".missing", SmallOptions(), &loaded).code(),
            Status::Code::kIOError);
  {
    std::ofstream f(path_, std::ios::trunc);
    f << "not a snapshot at all, but long enough to have a header of sixty-four bytes......";
  }
  EXPECT_EQ(Database::Load(path_, SmallOptions(), &loaded).code(), Status::Code::kCorruption);
}

TEST_F(SnapshotTest, LoadIntoSharedMemory) {
  ASSERT_TRUE(db_->Save(path_).ok());
  Options options;
  options.size = uint64_t{16} << 20;
  options.shm_name = "/nativedb_snapshot_test_" + std::to_string(getpid());
  options.remove_shm_on_close = true;
  std::unique_ptr<Database> loaded;
  ASSERT_TRUE(Database::Load(path_, options, &loaded).ok());
  std::unique_ptr<Database> attached;
  ASSERT_TRUE(Database::Attach(options.shm_name, &attached).ok());
  ASSERT_NO_FATAL_FAILURE(ExpectSameRecords(*db_, *attached));
  attached.reset();
  loaded.reset();
  EXPECT_TRUE(Database::Attach(options.shm_name, &attached).IsNotFound()) << "removed on close";
}

}  // namespace
}  // namespace nativedb
