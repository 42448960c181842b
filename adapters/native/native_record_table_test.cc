// The native adapter's record table (native_record_table.h): field types,
// set modes, deletes, scans, indexes, references, bad ids, the one-table rule
// and the batch lock. The model test, with several seeds, is the record
// conformance suite's.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/adapter_test_base.h"

namespace kvbench {
namespace {

using test::AdapterTestBase;

RecordTableSpec Spec(std::vector<FieldType> types, std::string name = "records") {
  RecordTableSpec spec;
  spec.name = std::move(name);
  spec.types = std::move(types);
  return spec;
}

std::vector<RecordId> Sorted(std::vector<RecordId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

template <typename Base>
class NativeTableTestBase : public AdapterTestBase<Base> {
 protected:
  std::string Engine() const override { return "native"; }

  void SetUp() override {
    ASSERT_TRUE(this->Open({{"native.size", "8M"}, {"native.max_size", "1G"}}).ok());
  }
  void TearDown() override {
    table_.reset();
    AdapterTestBase<Base>::TearDown();
  }

  void OpenTable(const RecordTableSpec& spec) {
    Status s = this->session_->OpenRecordTable(spec, &table_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  RecordId Insert(const std::vector<FieldValue>& fields) {
    RecordId id = 0;
    Status s = table_->InsertRecord(fields, &id);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_NE(id, 0u);
    return id;
  }

  FieldValue Field(RecordId id, uint32_t field) {
    FieldValue v;
    Status s = table_->GetField(id, field, &v);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return v;
  }

  std::vector<RecordId> Scan(uint32_t field, const FieldValue& value, size_t limit = 0,
                             uint64_t* examined = nullptr) {
    std::vector<RecordId> ids = {12345};  // must be cleared
    Status s = table_->ScanEqual(field, value, limit, &ids, examined);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return ids;
  }

  std::vector<RecordId> Query(uint32_t field, const FieldValue& value, size_t limit = 0) {
    std::vector<RecordId> ids = {12345};
    Status s = table_->QueryEqual(field, value, limit, &ids);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return ids;
  }

  std::unique_ptr<RecordTable> table_;
};

using NativeRecordTableTest = NativeTableTestBase<::testing::Test>;

TEST_F(NativeRecordTableTest, EveryFieldTypeRoundTrips) {
  OpenTable(
      Spec({FieldType::kNull, FieldType::kInt64, FieldType::kInt64, FieldType::kDouble,
            FieldType::kString, FieldType::kString, FieldType::kBytes, FieldType::kReference}));
  const RecordId target = Insert(std::vector<FieldValue>(8));
  const std::vector<FieldValue> fields = {
      FieldValue::Null(),
      FieldValue::Int(-42),
      FieldValue::Int(INT64_MIN),  // outside nativedb's small-integer range
      FieldValue::Double(-0.125),
      FieldValue::String(std::string("nul\0inside", 10)),
      FieldValue::String(std::string(100, 'L')),  // long: interned
      FieldValue::Bytes(std::string("\0\xff\x80", 3)),
      FieldValue::Reference(target),
  };
  const RecordId id = Insert(fields);
  for (uint32_t f = 0; f < fields.size(); ++f) {
    EXPECT_EQ(Field(id, f), fields[f]) << f << ": " << DescribeFieldValue(Field(id, f));
  }
  std::vector<FieldValue> got;
  ASSERT_TRUE(table_->GetRecord(id, &got).ok());
  EXPECT_EQ(got, fields);
  // Empty strings and bytes are not NULL, and reused FieldValues lose old bytes.
  FieldValue reused = FieldValue::String("old contents");
  ASSERT_TRUE(table_->SetField(id, 4, FieldValue::String(""), SetMode::kChecked).ok());
  ASSERT_TRUE(table_->GetField(id, 4, &reused).ok());
  EXPECT_EQ(reused, FieldValue::String(""));
  EXPECT_TRUE(table_->InsertRecord({FieldValue::Int(1)}, &got.emplace_back().reference)
                  .IsInvalidArgument());
  FieldValue v;
  EXPECT_TRUE(table_->GetField(id, 8, &v).IsInvalidArgument());
}

TEST_F(NativeRecordTableTest, SetNewAndChecked) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kString, FieldType::kDouble}));
  RecordId id = 0;
  ASSERT_TRUE(table_->CreateRecord(&id).ok());
  EXPECT_EQ(Field(id, 0), FieldValue::Null());
  EXPECT_EQ(Field(id, 2), FieldValue::Null());
  ASSERT_TRUE(table_->SetField(id, 0, FieldValue::Int(7), SetMode::kNew).ok());
  ASSERT_TRUE(
      table_->SetField(id, 1, FieldValue::String(std::string(40, 's')), SetMode::kNew).ok());
  ASSERT_TRUE(table_->SetField(id, 2, FieldValue::Double(2.5), SetMode::kNew).ok());
  EXPECT_EQ(Field(id, 0), FieldValue::Int(7));
  EXPECT_EQ(Field(id, 1), FieldValue::String(std::string(40, 's')));
  // Checked replaces any value, with any type.
  ASSERT_TRUE(table_->SetField(id, 1, FieldValue::Int(9), SetMode::kChecked).ok());
  ASSERT_TRUE(table_->SetField(id, 2, FieldValue::Null(), SetMode::kChecked).ok());
  EXPECT_EQ(Field(id, 1), FieldValue::Int(9));
  EXPECT_EQ(Field(id, 2), FieldValue::Null());
  EXPECT_TRUE(table_->SetField(id, 3, FieldValue::Int(1), SetMode::kChecked).IsInvalidArgument());
  EXPECT_TRUE(
      table_->SetField(id, 0, FieldValue::Reference(0), SetMode::kChecked).IsInvalidArgument());
}

TEST_F(NativeRecordTableTest, DeleteRemovesTheRecord) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kString}));
  const RecordId a = Insert({FieldValue::Int(1), FieldValue::String(std::string(50, 'a'))});
  const RecordId b = Insert({FieldValue::Int(1), FieldValue::String("b")});
  ASSERT_TRUE(table_->DeleteRecord(a).ok());
  FieldValue v;
  EXPECT_TRUE(table_->GetField(a, 0, &v).IsNotFound());
  EXPECT_TRUE(table_->DeleteRecord(a).IsNotFound());
  EXPECT_EQ(Scan(0, FieldValue::Int(1)), std::vector<RecordId>{b});
  EXPECT_EQ(Field(b, 1), FieldValue::String("b"));
}

TEST_F(NativeRecordTableTest, BadIdsAreNotFoundNotACrash) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64}));
  const RecordId id = Insert({FieldValue::Int(1), FieldValue::Int(2)});
  FieldValue v;
  RecordId target;
  for (RecordId bad :
       {RecordId{0}, RecordId{8}, id + 1, id + 8, id + (uint64_t{1} << 40), ~RecordId{0} - 7}) {
    EXPECT_TRUE(table_->GetField(bad, 0, &v).IsNotFound()) << bad;
    EXPECT_TRUE(table_->SetField(bad, 0, v, SetMode::kChecked).IsNotFound()) << bad;
    EXPECT_TRUE(table_->DeleteRecord(bad).IsNotFound()) << bad;
    EXPECT_TRUE(table_->FollowReference(bad, 0, &target).IsNotFound()) << bad;
  }
  EXPECT_EQ(Field(id, 1), FieldValue::Int(2));
}

TEST_F(NativeRecordTableTest, ScanEqualHonoursTheLimitAndCountsExamined) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64}));
  std::vector<RecordId> ids;
  for (int i = 0; i < 100; ++i)
    ids.push_back(Insert({FieldValue::Int(i), FieldValue::Int(i % 10)}));
  uint64_t examined = 0;
  std::vector<RecordId> all = Scan(1, FieldValue::Int(3), 0, &examined);
  EXPECT_EQ(all.size(), 10u);
  EXPECT_EQ(examined, 100u);
  for (RecordId id : all) EXPECT_EQ(Field(id, 1), FieldValue::Int(3));
  // Records are walked in address order, which is insertion order here.
  std::vector<RecordId> first = Scan(1, FieldValue::Int(3), 4, &examined);
  EXPECT_EQ(first, (std::vector<RecordId>{ids[3], ids[13], ids[23], ids[33]}));
  EXPECT_EQ(examined, 34u);
  EXPECT_TRUE(Scan(1, FieldValue::String("3")).empty()) << "types differ";
  std::vector<RecordId> out;
  EXPECT_TRUE(table_->ScanEqual(2, FieldValue::Int(3), 0, &out, nullptr).IsInvalidArgument());
}

TEST_F(NativeRecordTableTest, IndexIsBuiltQueriedAndMaintained) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kString}));
  std::vector<RecordId> ids;
  for (int i = 0; i < 300; ++i) {
    const char* names[] = {"s0", "s1", "s2"};
    ids.push_back(Insert({FieldValue::Int(i % 7), FieldValue::String(names[i % 3])}));
  }
  std::vector<RecordId> out;
  EXPECT_TRUE(table_->QueryEqual(0, FieldValue::Int(1), 0, &out).IsInvalidArgument())
      << "no index yet";
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  EXPECT_TRUE(table_->CreateIndex(0).IsInvalidArgument());
  EXPECT_TRUE(table_->CreateIndex(2).IsInvalidArgument());
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  for (int k = 0; k < 7; ++k) {
    EXPECT_EQ(Sorted(Query(0, FieldValue::Int(k))), Sorted(Scan(0, FieldValue::Int(k)))) << k;
  }
  EXPECT_EQ(Query(1, FieldValue::String("s2")).size(), 100u);
  EXPECT_EQ(Query(0, FieldValue::Int(3), 5).size(), 5u);
  // Maintenance: set (both modes), delete, insert after the index exists.
  ASSERT_TRUE(table_->SetField(ids[3], 0, FieldValue::Int(100), SetMode::kChecked).ok());
  RecordId fresh = 0;
  ASSERT_TRUE(table_->CreateRecord(&fresh).ok());
  ASSERT_TRUE(table_->SetField(fresh, 0, FieldValue::Int(100), SetMode::kNew).ok());
  ASSERT_TRUE(table_->DeleteRecord(ids[10]).ok());  // 10 % 7 == 3
  const RecordId late = Insert({FieldValue::Int(100), FieldValue::Null()});
  EXPECT_EQ(Sorted(Query(0, FieldValue::Int(100))), Sorted({ids[3], fresh, late}));
  EXPECT_EQ(Sorted(Query(0, FieldValue::Int(3))), Sorted(Scan(0, FieldValue::Int(3))));
  EXPECT_EQ(Query(0, FieldValue::Int(3)).size(), 300u / 7 + 1 - 2);
  EXPECT_TRUE(Query(0, FieldValue::Null()).empty()) << "NULLs are not indexed";
}

TEST_F(NativeRecordTableTest, ReferenceChain) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kReference}));
  RecordId prev = Insert({FieldValue::Int(0), FieldValue::Null()});
  const RecordId head = prev;
  for (int i = 1; i < 1000; ++i) prev = Insert({FieldValue::Int(i), FieldValue::Reference(prev)});
  int steps = 0;
  RecordId at = prev;
  Status s;
  while ((s = table_->FollowReference(at, 1, &at)).ok()) ++steps;
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(steps, 999);
  EXPECT_EQ(at, head);
  EXPECT_EQ(Field(at, 0), FieldValue::Int(0));
  EXPECT_TRUE(table_->FollowReference(prev, 0, &at).IsInvalidArgument()) << "an int field";
}

TEST_F(NativeRecordTableTest, OneTablePerDatabaseAndNoKvBeside) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64}));
  const RecordId id = Insert({FieldValue::Int(1), FieldValue::Int(2)});
  std::unique_ptr<RecordTable> other;
  Status s = session_->OpenRecordTable(Spec({FieldType::kInt64}, "other"), &other);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64}), &other).IsInvalidArgument());
  ASSERT_TRUE(session_->OpenRecordTable(Spec({FieldType::kNull, FieldType::kNull}), &other).ok());
  FieldValue v;
  ASSERT_TRUE(other->GetField(id, 1, &v).ok());
  EXPECT_EQ(v, FieldValue::Int(2));
  other.reset();
  EXPECT_TRUE(session_->Put("k", "v").IsNotSupported());
  std::string value;
  EXPECT_TRUE(session_->Get("k", &value).IsNotSupported());

  // And the other way round: a database with pairs refuses a table.
  table_.reset();
  ASSERT_TRUE(Open({{"native.size", "1M"}}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  EXPECT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64}), &other).IsNotSupported());
  EXPECT_EQ(Get("k"), "v");
}

TEST_F(NativeRecordTableTest, BatchHoldsTheLockAndReadsInsideIt) {
  OpenTable(Spec({FieldType::kInt64}));
  const RecordId before = Insert({FieldValue::Int(1)});
  std::unique_ptr<Session> reader;
  ASSERT_TRUE(adapter_->NewSession(&reader).ok());
  std::unique_ptr<RecordTable> reader_table;
  ASSERT_TRUE(reader->OpenRecordTable(Spec({FieldType::kInt64}), &reader_table).ok());

  ASSERT_TRUE(session_->BeginBatch().ok());
  const RecordId inside = Insert({FieldValue::Int(2)});
  EXPECT_EQ(Field(inside, 0), FieldValue::Int(2)) << "the batch's own session reads";
  EXPECT_EQ(Scan(0, FieldValue::Int(1)), std::vector<RecordId>{before});
  std::atomic<bool> read_done{false};
  std::thread other([&] {
    FieldValue v;
    EXPECT_TRUE(reader_table->GetField(inside, 0, &v).ok());
    EXPECT_EQ(v, FieldValue::Int(2));
    read_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(read_done) << "another session's read waits for the commit";
  ASSERT_TRUE(session_->CommitBatch().ok());
  other.join();
  EXPECT_TRUE(read_done);
  EXPECT_TRUE(session_->CommitBatch().IsInvalidArgument());
  reader_table.reset();
}

TEST_F(NativeRecordTableTest, WriterAndReaderSessionsOnTwoThreads) {
  constexpr int kBatches = 50, kBatchSize = 200;
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64}));
  std::unique_ptr<Session> reader;
  ASSERT_TRUE(adapter_->NewSession(&reader).ok());
  std::unique_ptr<RecordTable> reader_table;
  ASSERT_TRUE(
      reader->OpenRecordTable(Spec({FieldType::kInt64, FieldType::kInt64}), &reader_table).ok());
  std::atomic<bool> writer_done{false};
  std::thread writer([&] {
    for (int b = 0; b < kBatches; ++b) {
      ASSERT_TRUE(session_->BeginBatch().ok());
      for (int i = 0; i < kBatchSize; ++i) Insert({FieldValue::Int(b), FieldValue::Int(i)});
      ASSERT_TRUE(session_->CommitBatch().ok());
    }
    writer_done = true;
  });
  std::thread read([&] {
    std::vector<RecordId> ids;
    uint64_t examined = 0;
    int reads = 0;
    while (!writer_done || reads == 0) {
      ASSERT_TRUE(reader_table->ScanEqual(1, FieldValue::Int(0), 0, &ids, &examined).ok());
      // Whole batches only: the writer holds the lock from begin to commit.
      ASSERT_EQ(examined % kBatchSize, 0u) << examined;
      ASSERT_EQ(ids.size() * kBatchSize, examined);
      ++reads;
    }
  });
  writer.join();
  read.join();
  uint64_t examined = 0;
  EXPECT_EQ(Scan(1, FieldValue::Int(7), 0, &examined).size(), size_t{kBatches});
  EXPECT_EQ(examined, uint64_t{kBatches} * kBatchSize);
  reader_table.reset();
}

}  // namespace
}  // namespace kvbench
