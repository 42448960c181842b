// The sqlite adapter's record tables (sqlite_record_table.h): field types, set
// modes, deletes, full-table scans, indexes, references, the stored schema
// across a reopen and its checks, batches. The model test, with several
// seeds, is the record conformance suite's.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/adapter_test_base.h"

namespace kvbench {
namespace {

using test::AdapterTestBase;

RecordTableSpec Spec(std::vector<FieldType> types, std::string name = "records",
                     std::vector<std::string> field_names = {}) {
  RecordTableSpec spec;
  spec.name = std::move(name);
  spec.types = std::move(types);
  spec.field_names = std::move(field_names);
  return spec;
}

std::vector<RecordId> Sorted(std::vector<RecordId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

template <typename Base>
class SqliteTableTestBase : public AdapterTestBase<Base> {
 protected:
  std::string Engine() const override { return "sqlite"; }

  void SetUp() override { ASSERT_TRUE(this->Open({}).ok()); }
  void TearDown() override {
    table_.reset();
    AdapterTestBase<Base>::TearDown();
  }

  void OpenTable(const RecordTableSpec& spec) {
    Status s = this->session_->OpenRecordTable(spec, &table_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void Reopen() {
    table_.reset();
    ASSERT_TRUE(this->Open({}).ok());
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

  // The first column of the first row of `sql`, read by a connection of our own.
  std::string Sql(const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open((this->dir_.path() + "/data.sqlite").c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    std::string out = "<no row>";
    if (sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(st, 0);
      out = text != nullptr ? reinterpret_cast<const char*>(text) : "<null>";
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }

  std::unique_ptr<RecordTable> table_;
};

using SqliteRecordTableTest = SqliteTableTestBase<::testing::Test>;

TEST_F(SqliteRecordTableTest, EveryFieldTypeRoundTripsInTypedColumns) {
  OpenTable(Spec({FieldType::kNull, FieldType::kInt64, FieldType::kInt64, FieldType::kDouble,
                  FieldType::kString, FieldType::kString, FieldType::kBytes, FieldType::kBytes,
                  FieldType::kReference}));
  EXPECT_EQ(Sql("SELECT sql FROM sqlite_master WHERE name = 'records'"),
            "CREATE TABLE \"records\" (id INTEGER PRIMARY KEY, \"f0\", \"f1\" INTEGER, \"f2\" "
            "INTEGER, \"f3\" REAL, \"f4\" TEXT, \"f5\" TEXT, \"f6\" BLOB, \"f7\" BLOB, \"f8\" "
            "INTEGER)");
  const RecordId target = Insert(std::vector<FieldValue>(9));
  const std::vector<FieldValue> fields = {
      FieldValue::Bytes("untyped"),
      FieldValue::Int(-42),
      FieldValue::Int(INT64_MIN),
      FieldValue::Double(-0.125),
      FieldValue::String(std::string("nul\0inside", 10)),
      FieldValue::String(""),
      FieldValue::Bytes(std::string("\0\xff\x80", 3)),
      FieldValue::Bytes(""),
      FieldValue::Reference(target),
  };
  const RecordId id = Insert(fields);
  for (uint32_t f = 0; f < fields.size(); ++f) {
    EXPECT_EQ(Field(id, f), fields[f]) << f << ": " << DescribeFieldValue(Field(id, f));
  }
  std::vector<FieldValue> got;
  ASSERT_TRUE(table_->GetRecord(id, &got).ok());
  EXPECT_EQ(got, fields);
  ASSERT_TRUE(table_->GetRecord(target, &got).ok());
  EXPECT_EQ(got, std::vector<FieldValue>(9)) << "an all-NULL record";
  EXPECT_TRUE(table_->InsertRecord({FieldValue::Int(1)}, &got.emplace_back().reference)
                  .IsInvalidArgument());
  FieldValue v;
  EXPECT_TRUE(table_->GetField(id, 9, &v).IsInvalidArgument());
  EXPECT_TRUE(table_->GetField(id + 100, 0, &v).IsNotFound());
}

TEST_F(SqliteRecordTableTest, SetNewAndChecked) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kString, FieldType::kDouble}));
  RecordId id = 0;
  ASSERT_TRUE(table_->CreateRecord(&id).ok());
  EXPECT_EQ(Field(id, 0), FieldValue::Null());
  ASSERT_TRUE(table_->SetField(id, 0, FieldValue::Int(7), SetMode::kNew).ok());
  ASSERT_TRUE(table_->SetField(id, 1, FieldValue::String("s"), SetMode::kNew).ok());
  ASSERT_TRUE(table_->SetField(id, 2, FieldValue::Double(2.5), SetMode::kNew).ok());
  ASSERT_TRUE(table_->SetField(id, 1, FieldValue::String("t"), SetMode::kChecked).ok());
  ASSERT_TRUE(table_->SetField(id, 2, FieldValue::Null(), SetMode::kChecked).ok());
  std::vector<FieldValue> got;
  ASSERT_TRUE(table_->GetRecord(id, &got).ok());
  EXPECT_EQ(got, (std::vector<FieldValue>{FieldValue::Int(7), FieldValue::String("t"),
                                          FieldValue::Null()}));
  EXPECT_TRUE(table_->SetField(id, 3, FieldValue::Int(1), SetMode::kChecked).IsInvalidArgument());
  EXPECT_TRUE(table_->SetField(id + 1, 0, FieldValue::Int(1), SetMode::kChecked).IsNotFound());
}

TEST_F(SqliteRecordTableTest, DeleteRemovesTheRecord) {
  OpenTable(Spec({FieldType::kInt64}));
  const RecordId a = Insert({FieldValue::Int(1)});
  const RecordId b = Insert({FieldValue::Int(1)});
  ASSERT_TRUE(table_->DeleteRecord(a).ok());
  FieldValue v;
  EXPECT_TRUE(table_->GetField(a, 0, &v).IsNotFound());
  EXPECT_TRUE(table_->DeleteRecord(a).IsNotFound());
  RecordId target;
  EXPECT_TRUE(table_->FollowReference(a, 0, &target).IsNotFound());
  EXPECT_EQ(Scan(0, FieldValue::Int(1)), std::vector<RecordId>{b});
}

TEST_F(SqliteRecordTableTest, ScanEqualIsAFullScanWithLimitAndExamined) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64}));
  std::vector<RecordId> ids;
  for (int i = 0; i < 100; ++i)
    ids.push_back(Insert({FieldValue::Int(i), FieldValue::Int(i % 10)}));
  uint64_t examined = 0;
  EXPECT_EQ(Scan(1, FieldValue::Int(3), 0, &examined).size(), 10u);
  EXPECT_EQ(examined, 100u);
  EXPECT_EQ(Scan(1, FieldValue::Int(3), 4, &examined),
            (std::vector<RecordId>{ids[3], ids[13], ids[23], ids[33]}));
  EXPECT_EQ(examined, 34u);
  // With an index on the field the scan still reads every row.
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  EXPECT_EQ(Scan(1, FieldValue::Int(3), 0, &examined).size(), 10u);
  EXPECT_EQ(examined, 100u);
  EXPECT_TRUE(Scan(1, FieldValue::Int(10), 0, &examined).empty());
  EXPECT_EQ(examined, 100u);
  ASSERT_TRUE(table_->SetField(ids[5], 1, FieldValue::Null(), SetMode::kChecked).ok());
  EXPECT_EQ(Scan(1, FieldValue::Null()), std::vector<RecordId>{ids[5]}) << "NULL matches NULL";
  EXPECT_TRUE(Scan(1, FieldValue::String("3")).empty()) << "no affinity match across types";
  EXPECT_TRUE(Scan(1, FieldValue::Double(3)).empty());
  std::vector<RecordId> out;
  EXPECT_TRUE(table_->ScanEqual(2, FieldValue::Int(3), 0, &out, nullptr).IsInvalidArgument());
}

TEST_F(SqliteRecordTableTest, EmptyTableScanExaminesNothing) {
  OpenTable(Spec({FieldType::kInt64}));
  uint64_t examined = 99;
  EXPECT_TRUE(Scan(0, FieldValue::Int(3), 0, &examined).empty());
  EXPECT_EQ(examined, 0u);
  Insert({FieldValue::Int(3)});
  EXPECT_EQ(Scan(0, FieldValue::Int(3), 0, &examined).size(), 1u);
  EXPECT_EQ(examined, 1u);
}

TEST_F(SqliteRecordTableTest, IndexIsBuiltQueriedAndMaintained) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kString}));
  std::vector<RecordId> ids;
  const char* names[] = {"s0", "s1", "s2"};
  for (int i = 0; i < 300; ++i) {
    ids.push_back(Insert({FieldValue::Int(i % 7), FieldValue::String(names[i % 3])}));
  }
  std::vector<RecordId> out;
  EXPECT_TRUE(table_->QueryEqual(0, FieldValue::Int(1), 0, &out).IsInvalidArgument());
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  EXPECT_EQ(Sql("SELECT tbl_name FROM sqlite_master WHERE name = 'records_f0'"), "records");
  EXPECT_TRUE(table_->CreateIndex(0).IsInvalidArgument());
  EXPECT_TRUE(table_->CreateIndex(2).IsInvalidArgument());
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  for (int k = 0; k < 7; ++k) {
    EXPECT_EQ(Query(0, FieldValue::Int(k)), Scan(0, FieldValue::Int(k))) << "both in rowid order";
  }
  EXPECT_EQ(Query(1, FieldValue::String("s2")).size(), 100u);
  EXPECT_EQ(Query(0, FieldValue::Int(3), 5).size(), 5u);
  ASSERT_TRUE(table_->SetField(ids[3], 0, FieldValue::Int(100), SetMode::kChecked).ok());
  RecordId fresh = 0;
  ASSERT_TRUE(table_->CreateRecord(&fresh).ok());
  ASSERT_TRUE(table_->SetField(fresh, 0, FieldValue::Int(100), SetMode::kNew).ok());
  ASSERT_TRUE(table_->DeleteRecord(ids[10]).ok());
  const RecordId late = Insert({FieldValue::Int(100), FieldValue::Null()});
  EXPECT_EQ(Sorted(Query(0, FieldValue::Int(100))), Sorted({ids[3], fresh, late}));
  EXPECT_EQ(Query(0, FieldValue::Int(3)).size(), 300u / 7 + 1 - 2);
  EXPECT_TRUE(Query(0, FieldValue::Null()).empty()) << "NULL matches nothing through an index";
  EXPECT_TRUE(Query(0, FieldValue::String("3")).empty()) << "no affinity match across types";
}

TEST_F(SqliteRecordTableTest, ReferenceChain) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kReference}));
  RecordId prev = Insert({FieldValue::Int(0), FieldValue::Null()});
  const RecordId head = prev;
  for (int i = 1; i < 1000; ++i) prev = Insert({FieldValue::Int(i), FieldValue::Reference(prev)});
  EXPECT_EQ(Field(prev, 1).type, FieldType::kReference);
  int steps = 0;
  RecordId at = prev;
  Status s;
  while ((s = table_->FollowReference(at, 1, &at)).ok()) ++steps;
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(steps, 999);
  EXPECT_EQ(at, head);
  EXPECT_TRUE(table_->FollowReference(prev, 0, &at).IsInvalidArgument()) << "an int column";
  ASSERT_TRUE(table_->SetField(head, 1, FieldValue::String("x"), SetMode::kChecked).ok());
  EXPECT_TRUE(table_->FollowReference(head, 1, &at).IsInvalidArgument());
}

TEST_F(SqliteRecordTableTest, ReopenKeepsTableRecordsAndIndexes) {
  const RecordTableSpec named =
      Spec({FieldType::kInt64, FieldType::kString}, "people", {"age", "Name \"quoted\""});
  OpenTable(named);
  const RecordId a = Insert({FieldValue::Int(30), FieldValue::String("ann")});
  const RecordId b = Insert({FieldValue::Int(30), FieldValue::String("bob")});
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  Reopen();
  OpenTable(Spec({FieldType::kInt64, FieldType::kString}, "people"));  // names adopted
  EXPECT_EQ(Query(0, FieldValue::Int(30)), (std::vector<RecordId>{a, b}));
  EXPECT_TRUE(table_->CreateIndex(0).IsInvalidArgument()) << "the index survived";
  EXPECT_EQ(Field(b, 1), FieldValue::String("bob"));
  table_.reset();
  OpenTable(named);
  EXPECT_EQ(Query(0, FieldValue::Int(30)).size(), 2u);
}

TEST_F(SqliteRecordTableTest, ContradictingAndBadSpecsAreRefused) {
  OpenTable(Spec({FieldType::kInt64, FieldType::kInt64, FieldType::kInt64}));
  std::unique_ptr<RecordTable> other;
  EXPECT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64}), &other).IsInvalidArgument());
  EXPECT_TRUE(session_
                  ->OpenRecordTable(Spec({FieldType::kInt64, FieldType::kInt64, FieldType::kInt64},
                                         "records", {"a", "b", "c"}),
                                    &other)
                  .IsInvalidArgument())
      << "other column names";
  Reopen();
  EXPECT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64, FieldType::kInt64}), &other)
                  .IsInvalidArgument());
  EXPECT_TRUE(
      session_->OpenRecordTable(Spec({FieldType::kBytes}, "kv"), &other).IsInvalidArgument())
      << "the KV table is no record table";
  for (const char* bad : {"", "two words", "x\";drop", "sqlite_master"}) {
    EXPECT_TRUE(
        session_->OpenRecordTable(Spec({FieldType::kInt64}, bad), &other).IsInvalidArgument())
        << bad;
  }
  EXPECT_TRUE(session_->OpenRecordTable(Spec({}, "empty"), &other).IsInvalidArgument());
  EXPECT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64}, "t", {"ID"}), &other)
                  .IsInvalidArgument());
  EXPECT_TRUE(
      session_
          ->OpenRecordTable(Spec({FieldType::kInt64, FieldType::kInt64}, "t", {"a", "A"}), &other)
          .IsInvalidArgument());
  // A second table of its own name is fine.
  ASSERT_TRUE(session_->OpenRecordTable(Spec({FieldType::kInt64}, "second"), &other).ok());
  RecordId id;
  EXPECT_TRUE(other->InsertRecord({FieldValue::Int(1)}, &id).ok());
}

TEST_F(SqliteRecordTableTest, BatchesAreTheSessionsTransactions) {
  OpenTable(Spec({FieldType::kInt64}));
  const RecordId kept = Insert({FieldValue::Int(1)});
  ASSERT_TRUE(session_->BeginBatch().ok());
  const RecordId dropped = Insert({FieldValue::Int(2)});
  ASSERT_TRUE(table_->SetField(kept, 0, FieldValue::Int(3), SetMode::kChecked).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  EXPECT_EQ(Field(dropped, 0), FieldValue::Int(2)) << "the batch reads its own writes";
  ASSERT_TRUE(session_->AbortBatch().ok());
  FieldValue v;
  EXPECT_TRUE(table_->GetField(dropped, 0, &v).IsNotFound());
  EXPECT_EQ(Field(kept, 0), FieldValue::Int(1));
  EXPECT_EQ(Get("k"), "<absent>");

  ASSERT_TRUE(session_->BeginBatch().ok());
  const RecordId committed = Insert({FieldValue::Int(4)});
  ASSERT_TRUE(session_->CommitBatch().ok());
  std::unique_ptr<Session> other;
  ASSERT_TRUE(adapter_->NewSession(&other).ok());
  std::unique_ptr<RecordTable> other_table;
  ASSERT_TRUE(other->OpenRecordTable(Spec({FieldType::kInt64}), &other_table).ok());
  ASSERT_TRUE(other_table->GetField(committed, 0, &v).ok());
  EXPECT_EQ(v, FieldValue::Int(4));
  // An index made by another session is found by this one.
  ASSERT_TRUE(other_table->CreateIndex(0).ok());
  EXPECT_EQ(Query(0, FieldValue::Int(4)), std::vector<RecordId>{committed});
  other_table.reset();
}

}  // namespace
}  // namespace kvbench
