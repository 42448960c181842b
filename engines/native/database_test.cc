// Database basics: creating, records and their fields, deletes with space
// reuse, iteration, scans, a full arena, growth, and the reader-writer lock.
#include "engines/native/database.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace nativedb {
namespace {

std::unique_ptr<Database> NewDb(uint64_t size = uint64_t{16} << 20, uint64_t max_size = 0) {
  Options options;
  options.size = size;
  options.max_size = max_size;
  std::unique_ptr<Database> db;
  Status st = Database::Create(options, &db);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return db;
}

TEST(DatabaseTest, RejectsTinyArena) {
  Options options;
  options.size = 4096;
  std::unique_ptr<Database> db;
  EXPECT_TRUE(Database::Create(options, &db).IsInvalidArgument());
}

TEST(DatabaseTest, FreshRecordHasNullFields) {
  auto db = NewDb();
  Record r;
  ASSERT_TRUE(db->CreateRecord(5, &r).ok());
  EXPECT_TRUE(r);
  EXPECT_EQ(db->FieldCount(r), 5u);
  for (uint32_t f = 0; f < 5; ++f) EXPECT_TRUE(db->GetField(r, f).is_null());
  EXPECT_EQ(db->RecordCount(), 1u);
}

TEST(DatabaseTest, SetNewFieldAndSetFieldRoundTrip) {
  auto db = NewDb();
  Record r;
  ASSERT_TRUE(db->CreateRecord(3, &r).ok());
  ASSERT_TRUE(db->SetNewField(r, 0, Value::Int(7)).ok());
  ASSERT_TRUE(db->SetField(r, 1, Value::String("seven")).ok());
  ASSERT_TRUE(db->SetField(r, 2, Value::Double(7.5)).ok());
  EXPECT_EQ(db->GetField(r, 0), Value::Int(7));
  EXPECT_EQ(db->GetField(r, 1), Value::String("seven"));
  EXPECT_EQ(db->GetField(r, 2), Value::Double(7.5));
  ASSERT_TRUE(db->SetField(r, 1, Value::Int(8)).ok());
  EXPECT_EQ(db->GetField(r, 1), Value::Int(8));
  EXPECT_EQ(db->GetStats().data_bytes, 8u) << "the string chunk was freed, the double remains";
  EXPECT_TRUE(db->Verify().ok());
}

TEST(DatabaseTest, FieldOutOfRange) {
  auto db = NewDb();
  Record r;
  ASSERT_TRUE(db->CreateRecord(2, &r).ok());
  EXPECT_TRUE(db->SetNewField(r, 2, Value::Int(1)).IsInvalidArgument());
  EXPECT_TRUE(db->SetField(r, 9, Value::String("x")).IsInvalidArgument());
  EXPECT_TRUE(db->GetField(r, 2).is_null());
}

TEST(DatabaseTest, ZeroFieldRecord) {
  auto db = NewDb();
  Record r;
  ASSERT_TRUE(db->CreateRecord(0, &r).ok());
  EXPECT_EQ(db->FieldCount(r), 0u);
  EXPECT_EQ(db->FirstRecord(), r);
  ASSERT_TRUE(db->DeleteRecord(r).ok());
  EXPECT_EQ(db->RecordCount(), 0u);
}

TEST(DatabaseTest, DeletedSpaceIsReused) {
  auto db = NewDb();
  std::vector<Record> records(100);
  for (Record& r : records) ASSERT_TRUE(db->CreateRecord(5, &r).ok());
  const uint64_t used = db->GetStats().used;
  for (int i = 0; i < 100; i += 2) ASSERT_TRUE(db->DeleteRecord(records[i]).ok());
  EXPECT_EQ(db->RecordCount(), 50u);
  for (int i = 0; i < 50; ++i) {
    Record r;
    ASSERT_TRUE(db->CreateRecord(5, &r).ok());
    for (uint32_t f = 0; f < 5; ++f) EXPECT_TRUE(db->GetField(r, f).is_null());
  }
  EXPECT_EQ(db->GetStats().used, used) << "new records must fill the freed chunks";
  EXPECT_TRUE(db->Verify().ok());
}

TEST(DatabaseTest, BigRecordChunksAreSplitForReuse) {
  auto db = NewDb();
  Record big;
  ASSERT_TRUE(db->CreateRecord(1000, &big).ok());
  ASSERT_TRUE(db->SetField(big, 999, Value::Int(1)).ok());
  ASSERT_TRUE(db->DeleteRecord(big).ok());
  const uint64_t used = db->GetStats().used;
  Record a, b;
  ASSERT_TRUE(db->CreateRecord(400, &a).ok());
  ASSERT_TRUE(db->CreateRecord(500, &b).ok());
  EXPECT_EQ(db->GetStats().used, used);
  EXPECT_TRUE(db->GetField(a, 399).is_null());
  EXPECT_TRUE(db->GetField(b, 499).is_null());
  EXPECT_TRUE(db->Verify().ok());
}

TEST(DatabaseTest, DeleteRejectsNonRecords) {
  auto db = NewDb();
  Record r;
  ASSERT_TRUE(db->CreateRecord(1, &r).ok());
  ASSERT_TRUE(db->DeleteRecord(r).ok());
  EXPECT_TRUE(db->DeleteRecord(r).IsInvalidArgument()) << "double delete";
  EXPECT_TRUE(db->DeleteRecord(Record{3}).IsInvalidArgument());
}

TEST(DatabaseTest, IterationVisitsLiveRecordsInAddressOrder) {
  auto db = NewDb(uint64_t{1} << 20);
  std::vector<Record> live;
  for (int i = 0; i < 5000; ++i) {  // several segments
    Record r;
    ASSERT_TRUE(db->CreateRecord(1 + i % 7, &r).ok());
    ASSERT_TRUE(db->SetNewField(r, 0, Value::Int(i)).ok());
    if (i % 3 == 0) {
      ASSERT_TRUE(db->SetField(r, 0, Value::String("interleaved data")).ok());  // between segments
    }
    live.push_back(r);
  }
  for (size_t i = 0; i < live.size(); i += 4) ASSERT_TRUE(db->DeleteRecord(live[i]).ok());
  std::vector<Record> expected;
  for (size_t i = 0; i < live.size(); ++i) {
    if (i % 4 != 0) expected.push_back(live[i]);
  }
  std::vector<Record> walked;
  for (Record r = db->FirstRecord(); r; r = db->NextRecord(r)) walked.push_back(r);
  EXPECT_EQ(walked, expected);
  std::vector<Record> visited;
  db->ForEachRecord([&](Record r) { visited.push_back(r); });
  EXPECT_EQ(visited, expected);
  size_t stopped = 0;
  db->ForEachRecord([&](Record) { return ++stopped < 10; });
  EXPECT_EQ(stopped, 10u);
  EXPECT_TRUE(db->Verify().ok());
}

TEST(DatabaseTest, ScanEqualFindsEveryType) {
  auto db = NewDb();
  const std::string long_string(100, 'L');
  std::vector<Record> records(300);
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(db->CreateRecord(4, &records[i]).ok());
    ASSERT_TRUE(db->SetField(records[i], 3, Value::Int(i % 100)).ok());
    ASSERT_TRUE(db->SetField(records[i], 1, Value::String(i % 2 ? "odd" : long_string)).ok());
    ASSERT_TRUE(db->SetField(records[i], 2, Value::Double(i % 3)).ok());
  }
  std::vector<Record> out;
  EXPECT_EQ(db->ScanEqual(3, Value::Int(42), 0, &out), 3u);
  EXPECT_EQ(out, (std::vector<Record>{records[42], records[142], records[242]}));
  EXPECT_EQ(db->ScanEqual(1, Value::String("odd"), 0, nullptr), 150u);
  EXPECT_EQ(db->ScanEqual(1, Value::String(long_string), 0, nullptr), 150u);
  EXPECT_EQ(db->ScanEqual(1, Value::String(std::string(100, 'M')), 0, nullptr), 0u);
  EXPECT_EQ(db->ScanEqual(2, Value::Double(2), 0, nullptr), 100u);
  EXPECT_EQ(db->ScanEqual(2, Value::Int(2), 0, nullptr), 0u) << "int 2 is not double 2";
  EXPECT_EQ(db->ScanEqual(0, Value::Null(), 0, nullptr), 300u);
  EXPECT_EQ(db->ScanEqual(3, Value::Int(1), 2, nullptr), 2u) << "limit";
  EXPECT_EQ(db->ScanEqual(9, Value::Int(1), 0, nullptr), 0u) << "no such field";
}

TEST(DatabaseTest, FullArenaFailsCleanly) {
  auto db = NewDb(uint64_t{64} << 10);
  Status st;
  int created = 0;
  while (true) {
    Record r;
    st = db->CreateRecord(5, &r);
    if (!st.ok()) break;
    ++created;
  }
  EXPECT_TRUE(st.IsFull()) << st.ToString();
  EXPECT_NE(st.message().find("arena full"), std::string_view::npos);
  EXPECT_GT(created, 500);
  EXPECT_EQ(db->RecordCount(), static_cast<uint64_t>(created));
  Record r = db->FirstRecord();
  EXPECT_TRUE(db->SetField(r, 0, Value::String(std::string(5000, 'x'))).IsFull());
  EXPECT_TRUE(db->GetField(r, 0).is_null()) << "a failed set leaves the field as it was";
  EXPECT_TRUE(db->Verify().ok());
}

TEST(DatabaseTest, PrivateArenaGrowsUpToMaxSize) {
  auto db = NewDb(uint64_t{64} << 10, uint64_t{64} << 20);
  for (int i = 0; i < 100000; ++i) {
    Record r;
    ASSERT_TRUE(db->CreateRecord(5, &r).ok()) << i;
    ASSERT_TRUE(db->SetNewField(r, 4, Value::Int(i)).ok());
  }
  EXPECT_GT(db->GetStats().size, uint64_t{64} << 10);
  EXPECT_EQ(db->ScanEqual(4, Value::Int(99999), 0, nullptr), 1u);
  EXPECT_TRUE(db->Verify().ok());
}

// One writer keeps every record's two fields equal; readers under the read
// lock must never see them differ.
TEST(DatabaseTest, ReadersNeverSeeAHalfWrittenRecord) {
  auto db = NewDb();
  std::vector<Record> records(64);
  for (Record& r : records) {
    ASSERT_TRUE(db->CreateRecord(2, &r).ok());
    ASSERT_TRUE(db->SetField(r, 0, Value::Int(0)).ok());
    ASSERT_TRUE(db->SetField(r, 1, Value::Int(0)).ok());
  }
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        ReadLock lock(*db);
        ASSERT_TRUE(lock.status().ok());
        for (Record r : records) {
          if (!(db->GetField(r, 0) == db->GetField(r, 1))) ++torn;
        }
      }
    });
  }
  for (int round = 1; round <= 2000; ++round) {
    WriteLock lock(*db);
    ASSERT_TRUE(lock.status().ok());
    for (Record r : records) {
      ASSERT_TRUE(db->SetField(r, 0, Value::String(std::to_string(round))).ok());
      ASSERT_TRUE(db->SetField(r, 1, Value::String(std::to_string(round))).ok());
    }
  }
  done = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(torn.load(), 0);
}

}  // namespace
}  // namespace nativedb
