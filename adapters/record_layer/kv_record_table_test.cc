// The shared record layer over an ordered engine (stdmap: Scan) and an
// unordered, durable one (bdb-hash: Get by id, reopen from disk). What every
// RecordTable promises is in tests/record_conformance_test.cc; this file
// checks the layer's own promises: key layout, ids, metadata, crash recovery.
#include "adapters/record_layer/kv_record_table.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "adapters/record_layer/record_codec.h"
#include "tests/adapter_test_base.h"

namespace kvbench::record_layer {
namespace {

using Fields = std::vector<FieldValue>;

// FieldValue equality that also holds for a NaN compared with itself.
bool Same(const FieldValue& a, const FieldValue& b) {
  if (a.type == FieldType::kDouble && b.type == FieldType::kDouble) {
    return std::bit_cast<uint64_t>(a.double_value) == std::bit_cast<uint64_t>(b.double_value);
  }
  return a == b;
}

class KvRecordTableTest : public test::AdapterTestBase<::testing::TestWithParam<std::string>> {
 protected:
  std::string Engine() const override { return GetParam(); }
  void SetUp() override {
    Status s = Open({});
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void TearDown() override {
    table_.reset();  // before the session it writes through
    AdapterTestBase::TearDown();
  }

  void OpenTable(const RecordTableSpec& spec) {
    table_.reset();
    Status s = session_->OpenRecordTable(spec, &table_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_NE(dynamic_cast<KvRecordTable*>(table_.get()), nullptr) << "the shared layer";
  }
  // Closes the table and, on a durable engine, the adapter, then opens both.
  void ReopenEverything(const RecordTableSpec& spec) {
    table_.reset();
    if (adapter_->capabilities().durable) {
      Status s = Open({});
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    OpenTable(spec);
  }
  RecordId Insert(const Fields& fields) {
    RecordId id = 0;
    Status s = table_->InsertRecord(fields, &id);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return id;
  }
  std::set<RecordId> Query(uint32_t field, const FieldValue& value) {
    std::vector<RecordId> ids;
    Status s = table_->QueryEqual(field, value, 0, &ids);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return {ids.begin(), ids.end()};
  }

  std::unique_ptr<RecordTable> table_;
};

RecordTableSpec IntTable(const std::string& name, size_t fields) {
  RecordTableSpec spec;
  spec.name = name;
  spec.types.assign(fields, FieldType::kInt64);
  return spec;
}

TEST_P(KvRecordTableTest, Seed004KeysHoldSelfDescribingRecords) {
  RecordTableSpec spec;
  spec.name = "order";
  spec.types = {FieldType::kInt64, FieldType::kString, FieldType::kString};
  spec.field_names = {"order_id", "keyABC", "keyXYZ"};
  OpenTable(spec);
  const Fields first = {FieldValue::Int(1), FieldValue::String("valQ"), FieldValue::String("valR")};
  EXPECT_EQ(Insert(first), 1u);
  EXPECT_EQ(Insert(first), 2u);

  const std::string stored = Get("/order/1");
  Fields decoded;
  std::vector<Slice> names;
  Status s = record_codec::DecodeRecord(stored, &decoded, &names);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(decoded, first);
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "order_id");
  EXPECT_EQ(names[2], "keyXYZ");
  EXPECT_NE(Get("/order/2"), "<absent>");
  EXPECT_NE(Get("/order#meta"), "<absent>");
  EXPECT_EQ(Get("/order/3"), "<absent>");
}

TEST_P(KvRecordTableTest, SpecsThatContradictTheStoredTableAreRefused) {
  OpenTable(IntTable("t", 3));
  Insert({FieldValue::Int(1), FieldValue::Int(2), FieldValue::Int(3)});
  table_.reset();
  std::unique_ptr<RecordTable> other;
  Status s = session_->OpenRecordTable(IntTable("t", 4), &other);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("3 fields"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("has 4"), std::string::npos) << s.message();

  RecordTableSpec named = IntTable("t", 3);
  named.field_names = {"a", "b", "c"};
  s = session_->OpenRecordTable(named, &other);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A refused open changed nothing: the table still opens and holds its record.
  OpenTable(IntTable("t", 3));
  Fields fields;
  ASSERT_TRUE(table_->GetRecord(1, &fields).ok());
  EXPECT_EQ(fields[2], FieldValue::Int(3));
}

TEST_P(KvRecordTableTest, BadSpecsAreInvalidArgument) {
  std::unique_ptr<RecordTable> table;
  for (const std::string& name :
       {std::string(), std::string("a/b"), std::string("a#b"), std::string(65, 'n')}) {
    EXPECT_TRUE(session_->OpenRecordTable(IntTable(name, 1), &table).IsInvalidArgument()) << name;
  }
  EXPECT_TRUE(session_->OpenRecordTable(IntTable("none", 0), &table).IsInvalidArgument());
  RecordTableSpec spec = IntTable("names", 2);
  spec.field_names = {"only_one"};
  EXPECT_TRUE(session_->OpenRecordTable(spec, &table).IsInvalidArgument());
  EXPECT_TRUE(session_->OpenRecordTable(IntTable(std::string(64, 'n'), 1), &table).ok());
}

TEST_P(KvRecordTableTest, ReopenKeepsRecordsIdsAndIndexes) {
  if (!adapter_->capabilities().durable) GTEST_SKIP() << GetParam() << " is not durable";
  const RecordTableSpec spec = IntTable("durable", 2);
  OpenTable(spec);
  std::set<RecordId> ids;
  for (int i = 0; i < 100; ++i) ids.insert(Insert({FieldValue::Int(i), FieldValue::Int(i % 7)}));
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  ASSERT_TRUE(table_->DeleteRecord(*ids.rbegin()).ok());  // the highest id: never reused
  const RecordId highest = *ids.rbegin();
  ids.erase(highest);
  ReopenEverything(spec);
  Fields fields;
  ASSERT_TRUE(table_->GetRecord(*ids.begin(), &fields).ok());
  EXPECT_EQ(fields[0], FieldValue::Int(0));
  EXPECT_EQ(Query(1, FieldValue::Int(3)).size(), 14u);
  EXPECT_TRUE(table_->CreateIndex(1).IsInvalidArgument()) << "the index survived";
  const RecordId next = Insert({FieldValue::Int(100), FieldValue::Int(3)});
  EXPECT_EQ(next, highest + 1) << "a clean close stores the exact next id";
  EXPECT_EQ(Query(1, FieldValue::Int(3)).size(), 15u);
}

// A table object that is never destroyed stands for a crash: its metadata was
// last written at open (or at a reservation), never cleanly.
TEST_P(KvRecordTableTest, CrashLeavesAGapNeverAReusedId) {
  const RecordTableSpec spec = IntTable("crash", 1);
  std::set<RecordId> ids;
  for (int life = 0; life < 3; ++life) {
    OpenTable(spec);
    for (int i = 0; i < 1500; ++i) {  // past one reservation
      const RecordId id = Insert({FieldValue::Int(i)});
      ASSERT_TRUE(ids.insert(id).second) << "id " << id << " reused after a crash";
    }
    table_.release();  // NOLINT: deliberately leaked, its destructor must not run
  }
  OpenTable(spec);
  uint64_t examined = 0;
  std::vector<RecordId> matches;
  ASSERT_TRUE(table_->ScanEqual(0, FieldValue::Int(7), 0, &matches, &examined).ok());
  EXPECT_EQ(examined, ids.size());
  EXPECT_EQ(matches.size(), 3u);
}

// An aborted batch can discard a reservation's metadata write while the ids
// after it are used outside the batch; the next open after a crash probes.
TEST_P(KvRecordTableTest, AbortedReservationIsProbedAfterACrash) {
  if (!adapter_->capabilities().transactional) GTEST_SKIP() << GetParam() << " cannot abort";
  const RecordTableSpec spec = IntTable("aborted", 1);
  OpenTable(spec);
  std::set<RecordId> ids;
  for (RecordId i = 0; i < kIdReservation; ++i) ids.insert(Insert({FieldValue::Int(1)}));
  ASSERT_TRUE(session_->BeginBatch().ok());
  Insert({FieldValue::Int(2)});  // takes the next reservation inside the batch
  ASSERT_TRUE(session_->AbortBatch().ok());
  for (int i = 0; i < 10; ++i) ids.insert(Insert({FieldValue::Int(3)}));
  table_.release();  // NOLINT: a crash
  OpenTable(spec);
  for (int i = 0; i < 20; ++i) {
    const RecordId id = Insert({FieldValue::Int(4)});
    ASSERT_TRUE(ids.insert(id).second) << "id " << id << " reused";
  }
}

TEST_P(KvRecordTableTest, IndexBuildResumesAcrossChunks) {
  OpenTable(IntTable("chunks", 2));
  std::map<int64_t, std::set<RecordId>> by_value;
  for (int i = 0; i < 200; ++i) {
    const RecordId id = Insert({FieldValue::Int(i), FieldValue::Int(i % 9)});
    if (i % 3 == 0) {
      ASSERT_TRUE(table_->DeleteRecord(id).ok());  // holes for the walk to skip
    } else {
      by_value[i % 9].insert(id);
    }
  }
  dynamic_cast<KvRecordTable*>(table_.get())->set_index_build_chunk(7);
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  for (int64_t v = 0; v < 9; ++v) EXPECT_EQ(Query(1, FieldValue::Int(v)), by_value[v]) << v;
}

// Random operations checked against a std::map of the records, with indexes
// on an int field (made before the inserts or midway) and on a string field
// whose values are partly long enough to be hashed in index keys.
TEST_P(KvRecordTableTest, RandomOperationsMatchAModel) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    RecordTableSpec spec;
    spec.name = "model" + std::to_string(seed);
    spec.types = {FieldType::kInt64, FieldType::kInt64, FieldType::kString, FieldType::kDouble,
                  FieldType::kReference};
    if (seed % 2) spec.field_names = {"serial", "small", "text", "real", "next"};
    OpenTable(spec);
    if (seed == 1) {
      ASSERT_TRUE(table_->CreateIndex(1).ok());
    }

    std::vector<std::string> texts = {"", "a", "b", std::string("nul\0byte", 8)};
    for (int i = 0; i < 4; ++i) texts.push_back(std::string(300 + i, 'L') + char('0' + i));
    const std::vector<double> reals = {0.0, -0.0, 1.5, -2.25, INFINITY, NAN};
    std::map<RecordId, Fields> model;
    std::set<RecordId> deleted;
    auto pick_id = [&]() -> RecordId {
      if (model.empty() || rng() % 10 == 0) return deleted.empty() ? 999999 : *deleted.begin();
      auto it = model.begin();
      std::advance(it, rng() % model.size());
      return it->first;
    };
    auto random_value = [&](uint32_t field) -> FieldValue {
      if (rng() % 8 == 0) return FieldValue::Null();
      switch (field) {
        case 0:
          return FieldValue::Int(static_cast<int64_t>(rng()));
        case 1:
          return rng() % 10 == 0 ? FieldValue::String("odd") : FieldValue::Int(rng() % 6);
        case 2:
          return FieldValue::String(texts[rng() % texts.size()]);
        case 3:
          return FieldValue::Double(reals[rng() % reals.size()]);
        default:
          return model.empty() ? FieldValue::Null() : FieldValue::Reference(pick_id());
      }
    };
    auto expected_matches = [&](uint32_t field, const FieldValue& v) {
      std::set<RecordId> out;
      for (const auto& [id, fields] : model) {
        if (fields[field] == v) out.insert(id);
      }
      return out;
    };
    std::set<uint32_t> indexed = seed == 1 ? std::set<uint32_t>{1} : std::set<uint32_t>{};

    for (int op = 0; op < 3000; ++op) {
      SCOPED_TRACE("op " + std::to_string(op));
      if (op == 700) {
        ASSERT_TRUE(table_->CreateIndex(2).ok());
        indexed.insert(2);
        if (!indexed.count(1)) {
          ASSERT_TRUE(table_->CreateIndex(1).ok());
          indexed.insert(1);
        }
      }
      if (op == 1500) ReopenEverything(spec);  // stdmap: the table object only
      const int dice = static_cast<int>(rng() % 100);
      RecordId id = 0;
      if (dice < 30) {
        Fields fields;
        for (uint32_t f = 0; f < 5; ++f) fields.push_back(random_value(f));
        ASSERT_TRUE(table_->InsertRecord(fields, &id).ok());
        ASSERT_EQ(model.count(id) + deleted.count(id), 0u) << "id " << id << " reused";
        model[id] = fields;
      } else if (dice < 34) {
        ASSERT_TRUE(table_->CreateRecord(&id).ok());
        ASSERT_EQ(model.count(id) + deleted.count(id), 0u);
        model[id] = Fields(5);
      } else if (dice < 58) {
        id = pick_id();
        const uint32_t field = rng() % 5;
        const FieldValue v = random_value(field);
        const bool exists = model.count(id) > 0;
        const SetMode mode = exists && model[id][field].type == FieldType::kNull && rng() % 2
                                 ? SetMode::kNew
                                 : SetMode::kChecked;
        Status s = table_->SetField(id, field, v, mode);
        if (!exists) {
          ASSERT_TRUE(s.IsNotFound()) << s.ToString();
        } else {
          ASSERT_TRUE(s.ok()) << s.ToString();
          model[id][field] = v;
        }
      } else if (dice < 66) {
        id = pick_id();
        Status s = table_->DeleteRecord(id);
        if (model.erase(id)) {
          ASSERT_TRUE(s.ok()) << s.ToString();
          deleted.insert(id);
        } else {
          ASSERT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
        }
      } else if (dice < 78) {
        id = pick_id();
        Fields fields;
        Status s = table_->GetRecord(id, &fields);
        if (!model.count(id)) {
          ASSERT_TRUE(s.IsNotFound()) << s.ToString();
          continue;
        }
        ASSERT_TRUE(s.ok()) << s.ToString();
        for (uint32_t f = 0; f < 5; ++f) {
          ASSERT_TRUE(Same(fields[f], model[id][f])) << f << ": " << DescribeFieldValue(fields[f]);
        }
        FieldValue one;
        const uint32_t field = rng() % 5;
        ASSERT_TRUE(table_->GetField(id, field, &one).ok());
        ASSERT_TRUE(Same(one, model[id][field]));
        RecordId target = 0;
        s = table_->FollowReference(id, 4, &target);
        if (model[id][4].type == FieldType::kNull) {
          ASSERT_TRUE(s.IsNotFound()) << s.ToString();
        } else {
          ASSERT_TRUE(s.ok()) << s.ToString();
          ASSERT_EQ(target, model[id][4].reference);
        }
      } else if (dice < 86) {
        const uint32_t field = 1 + rng() % 3;
        const FieldValue v = random_value(field);
        std::vector<RecordId> matches;
        uint64_t examined = 0;
        const size_t limit = rng() % 3 == 0 ? 1 + rng() % 4 : 0;
        ASSERT_TRUE(table_->ScanEqual(field, v, limit, &matches, &examined).ok());
        const std::set<RecordId> want = expected_matches(field, v);
        const std::set<RecordId> got(matches.begin(), matches.end());
        ASSERT_EQ(got.size(), matches.size()) << "no duplicates";
        if (limit == 0) {
          ASSERT_EQ(got, want) << DescribeFieldValue(v);
          ASSERT_EQ(examined, model.size());
        } else {
          ASSERT_EQ(got.size(), std::min(limit, want.size()));
          ASSERT_TRUE(std::includes(want.begin(), want.end(), got.begin(), got.end()));
          ASSERT_LE(examined, model.size());
        }
      } else {
        if (indexed.empty()) continue;
        const uint32_t field = rng() % 2 ? 1 : 2;
        const FieldValue v = random_value(field);
        std::vector<RecordId> matches;
        Status s = table_->QueryEqual(field, v, 0, &matches);
        if (!indexed.count(field)) {
          ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
          continue;
        }
        ASSERT_TRUE(s.ok()) << s.ToString();
        ASSERT_EQ(std::set<RecordId>(matches.begin(), matches.end()), expected_matches(field, v))
            << DescribeFieldValue(v);
        ASSERT_EQ(std::set<RecordId>(matches.begin(), matches.end()).size(), matches.size());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, KvRecordTableTest, ::testing::Values("stdmap", "bdb-hash"),
                         [](const auto& info) {
                           return info.param == "stdmap" ? std::string("stdmap")
                                                         : std::string("bdb_hash");
                         });

}  // namespace
}  // namespace kvbench::record_layer
