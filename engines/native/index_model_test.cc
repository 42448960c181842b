// Indexes checked against a plain model under random creates, sets and
// deletes: equality and range queries (with limits) must return exactly what
// a filter over the model returns, an index built over existing data must
// equal one maintained from the start, and Verify must hold throughout.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "engines/native/database.h"
#include "engines/native/test_model.h"

namespace nativedb {
namespace {

using testing_model::OwnedValue;
using testing_model::ValueGenerator;

using Model = std::map<uint64_t, std::vector<OwnedValue>>;

// The documented index order (key_order.h), written independently: kind
// first (int < double < string < bytes < record), then content.
int Rank(FieldType t) {
  switch (t) {
    case FieldType::kInt:
      return 1;
    case FieldType::kDouble:
      return 2;
    case FieldType::kString:
      return 3;
    case FieldType::kBytes:
      return 4;
    case FieldType::kRecord:
      return 5;
    case FieldType::kNull:
      return 0;
  }
  return 0;
}

int Compare(const OwnedValue& a, const OwnedValue& b) {
  if (Rank(a.type) != Rank(b.type)) return Rank(a.type) < Rank(b.type) ? -1 : 1;
  const Value va = a.view(), vb = b.view();
  switch (a.type) {
    case FieldType::kInt:
      return va.int_value() < vb.int_value() ? -1 : va.int_value() > vb.int_value();
    case FieldType::kDouble:
      return va.double_value() < vb.double_value() ? -1 : va.double_value() > vb.double_value();
    case FieldType::kString:
    case FieldType::kBytes: {
      const int c = a.bytes.compare(b.bytes);
      return c < 0 ? -1 : c > 0;
    }
    case FieldType::kRecord:
      return a.bits < b.bits ? -1 : a.bits > b.bits;
    case FieldType::kNull:
      return 0;
  }
  return 0;
}

std::vector<Record> ModelEqual(const Model& model, uint32_t field, const OwnedValue& key,
                               size_t limit) {
  std::vector<Record> out;
  if (key.type == FieldType::kNull) return out;
  for (const auto& [offset, fields] : model) {  // address order = record order
    if (field < fields.size() && fields[field].type != FieldType::kNull &&
        Compare(fields[field], key) == 0) {
      out.push_back(Record{offset});
      if (out.size() == limit) break;
    }
  }
  return out;
}

std::vector<Record> ModelRange(const Model& model, uint32_t field, const OwnedValue& low,
                               const OwnedValue& high, size_t limit) {
  std::vector<std::pair<const OwnedValue*, uint64_t>> hits;
  for (const auto& [offset, fields] : model) {
    if (field < fields.size() && fields[field].type != FieldType::kNull &&
        Compare(fields[field], low) >= 0 && Compare(fields[field], high) <= 0) {
      hits.emplace_back(&fields[field], offset);
    }
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const auto& a, const auto& b) { return Compare(*a.first, *b.first) < 0; });
  std::vector<Record> out;
  for (const auto& h : hits) {
    if (limit != 0 && out.size() == limit) break;
    out.push_back(Record{h.second});
  }
  return out;
}

class IndexModelTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  void SetUp() override {
    Options options;
    options.size = uint64_t{64} << 20;
    ASSERT_TRUE(Database::Create(options, &db_).ok());
  }

  // A value for `field`: field 0 holds few distinct small ints (long runs of
  // equal keys), the others anything.
  OwnedValue ValueFor(uint32_t field, ValueGenerator& gen) {
    if (field == 0 && gen.Uniform(10) != 0) {
      return OwnedValue::Of(Value::Int(static_cast<int64_t>(gen.Uniform(12))));
    }
    Record ref = model_.empty() ? Record{} : Record{model_.begin()->first};
    return gen.Next(ref);
  }

  // Probes every indexed field with values that are present and absent.
  void CheckQueries(ValueGenerator& gen) {
    for (uint32_t field = 0; field < 4; ++field) {
      if (!db_->HasIndex(field)) continue;
      for (int probe = 0; probe < 20; ++probe) {
        OwnedValue key = ValueFor(field, gen);
        const size_t limit = gen.Uniform(3) == 0 ? 1 + gen.Uniform(5) : 0;
        std::vector<Record> got;
        ASSERT_TRUE(db_->FindEqual(field, key.view(), limit, &got).ok());
        ASSERT_EQ(got, ModelEqual(model_, field, key, limit)) << "field " << field;

        OwnedValue low = ValueFor(field, gen), high = ValueFor(field, gen);
        if (Compare(high, low) < 0) std::swap(low, high);
        if (low.type == FieldType::kNull || high.type == FieldType::kNull) continue;
        ASSERT_TRUE(db_->FindRange(field, low.view(), high.view(), limit, &got).ok());
        ASSERT_EQ(got, ModelRange(model_, field, low, high, limit)) << "range on " << field;
      }
    }
    const Status st = db_->Verify();
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  void RandomOps(ValueGenerator& gen, int ops) {
    for (int op = 0; op < ops; ++op) {
      const uint64_t dice = gen.Uniform(100);
      if (dice < 25 || model_.empty()) {
        const uint32_t fields = 1 + gen.Uniform(5);  // some records lack the indexed fields
        Record r;
        ASSERT_TRUE(db_->CreateRecord(fields, &r).ok());
        model_[r.offset].assign(fields, OwnedValue());
        for (uint32_t f = 0; f < fields; ++f) {
          if (gen.Uniform(4) == 0) continue;  // leave some NULL
          const OwnedValue v = ValueFor(f, gen);
          ASSERT_TRUE(db_->SetNewField(r, f, v.view()).ok());
          model_[r.offset][f] = v;
        }
      } else if (dice < 85) {
        auto it = model_.begin();
        std::advance(it, gen.Uniform(model_.size()));
        const uint32_t f = gen.Uniform(it->second.size());
        const OwnedValue v = ValueFor(f, gen);
        ASSERT_TRUE(db_->SetField(Record{it->first}, f, v.view()).ok());
        it->second[f] = v;
      } else {
        auto it = model_.begin();
        std::advance(it, gen.Uniform(model_.size()));
        ASSERT_TRUE(db_->DeleteRecord(Record{it->first}).ok());
        model_.erase(it);
      }
    }
  }

  std::unique_ptr<Database> db_;
  Model model_;
};

TEST_P(IndexModelTest, QueriesMatchModel) {
  ValueGenerator gen(GetParam());
  ASSERT_TRUE(db_->CreateIndex(0).ok());  // maintained from the start
  ASSERT_TRUE(db_->CreateIndex(1).ok());
  for (int round = 0; round < 6; ++round) {
    ASSERT_NO_FATAL_FAILURE(RandomOps(gen, 800));
    ASSERT_NO_FATAL_FAILURE(CheckQueries(gen));
    if (round == 1) {
      ASSERT_TRUE(db_->CreateIndex(2).ok());  // built over existing data
    }
    if (round == 3) {
      ASSERT_TRUE(db_->DropIndex(1).ok());
      ASSERT_TRUE(db_->CreateIndex(1).ok());  // rebuilt
      ASSERT_TRUE(db_->CreateIndex(3).ok());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, IndexModelTest, ::testing::Values(7, 8, 9, 1234, 99991));

TEST(IndexTest, BuiltEqualsMaintained) {
  Options options;
  options.size = uint64_t{64} << 20;
  std::unique_ptr<Database> built, kept;
  ASSERT_TRUE(Database::Create(options, &built).ok());
  ASSERT_TRUE(Database::Create(options, &kept).ok());
  ASSERT_TRUE(kept->CreateIndex(0).ok());
  ValueGenerator gen(5);
  for (int i = 0; i < 3000; ++i) {
    const OwnedValue v = gen.Next(Record{});
    for (Database* db : {built.get(), kept.get()}) {
      Record r;
      ASSERT_TRUE(db->CreateRecord(1, &r).ok());
      ASSERT_TRUE(db->SetField(r, 0, v.view()).ok());
    }
  }
  ASSERT_TRUE(built->CreateIndex(0).ok());
  IndexCursor a, b;
  ASSERT_TRUE(built->NewCursor(0, &a).ok());
  ASSERT_TRUE(kept->NewCursor(0, &b).ok());
  size_t n = 0;
  for (a.SeekToFirst(), b.SeekToFirst(); a.Valid() && b.Valid(); a.Next(), b.Next(), ++n) {
    ASSERT_EQ(a.key(), b.key());
    ASSERT_EQ(a.record(), b.record()) << "same records, same addresses, same order";
  }
  EXPECT_FALSE(a.Valid() || b.Valid());
  EXPECT_GT(n, 2000u);
}

// Enough entries for a three-level tree: splits up to a new root, then mass
// deletes that empty leaves and collapse levels.
TEST(IndexTest, LargeIndexGrowsAndShrinks) {
  Options options;
  options.size = uint64_t{64} << 20;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  ASSERT_TRUE(db->CreateIndex(1).ok());
  std::vector<Record> records(40000);
  std::mt19937_64 rng(11);
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE(db->CreateRecord(2, &records[i]).ok());
    ASSERT_TRUE(db->SetNewField(records[i], 0, Value::Int(static_cast<int64_t>(i))).ok());
    ASSERT_TRUE(
        db->SetNewField(records[i], 1, Value::Int(static_cast<int64_t>(rng() % 1000))).ok());
  }
  ASSERT_TRUE(db->Verify().ok());
  ASSERT_TRUE(db->CreateIndex(0).ok());  // bulk-loaded, unique keys
  std::vector<Record> out;
  ASSERT_TRUE(db->FindEqual(0, Value::Int(31337), 0, &out).ok());
  EXPECT_EQ(out, std::vector<Record>{records[31337]});
  ASSERT_TRUE(db->FindRange(0, Value::Int(100), Value::Int(199), 0, &out).ok());
  EXPECT_EQ(out, std::vector<Record>(records.begin() + 100, records.begin() + 200));

  std::shuffle(records.begin(), records.end(), rng);
  for (size_t i = 0; i < records.size() - 50; ++i) {
    ASSERT_TRUE(db->DeleteRecord(records[i]).ok());
    if (i % 10000 == 0) {
      ASSERT_TRUE(db->Verify().ok());
    }
  }
  const Status st = db->Verify();
  ASSERT_TRUE(st.ok()) << st.ToString();
  size_t total = 0;
  for (int64_t k = 0; k < 1000; ++k) {
    ASSERT_TRUE(db->FindEqual(1, Value::Int(k), 0, &out).ok());
    total += out.size();
  }
  EXPECT_EQ(total, 50u);
  for (size_t i = records.size() - 50; i < records.size(); ++i) {
    ASSERT_TRUE(db->DeleteRecord(records[i]).ok());
  }
  EXPECT_TRUE(db->Verify().ok());
  EXPECT_EQ(db->GetStats().data_bytes, 0u) << "every index node freed";
}

TEST(IndexTest, Errors) {
  Options options;
  options.size = uint64_t{1} << 20;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  std::vector<Record> out;
  EXPECT_TRUE(db->FindEqual(0, Value::Int(1), 0, &out).IsNotFound());
  EXPECT_TRUE(db->DropIndex(0).IsNotFound());
  ASSERT_TRUE(db->CreateIndex(0).ok());
  EXPECT_TRUE(db->CreateIndex(0).IsInvalidArgument());
  for (uint32_t f = 1; f < format::kMaxIndexes; ++f) ASSERT_TRUE(db->CreateIndex(f).ok());
  EXPECT_TRUE(db->CreateIndex(999).IsInvalidArgument()) << "slots exhausted";
  // A field >= 63 shares the mask bit; dropping one must keep the other right.
  ASSERT_TRUE(db->DropIndex(31).ok());
  ASSERT_TRUE(db->CreateIndex(70).ok());
  Record r;
  ASSERT_TRUE(db->CreateRecord(80, &r).ok());
  ASSERT_TRUE(db->SetField(r, 70, Value::Int(5)).ok());
  ASSERT_TRUE(db->SetField(r, 75, Value::Int(5)).ok());
  ASSERT_TRUE(db->FindEqual(70, Value::Int(5), 0, &out).ok());
  EXPECT_EQ(out, std::vector<Record>{r});
  EXPECT_TRUE(db->Verify().ok());
}

}  // namespace
}  // namespace nativedb
