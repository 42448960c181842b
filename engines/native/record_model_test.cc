// Random record operations checked against a plain model: creates of many
// lengths, sets of every type (checked and "as new"), deletes, with the
// arena's own consistency check along the way; then everything deleted must
// give all storage back, and a second round must reuse it.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "engines/native/database.h"
#include "engines/native/test_model.h"

namespace nativedb {
namespace {

using testing_model::OwnedValue;
using testing_model::ValueGenerator;

using Model = std::map<uint64_t, std::vector<OwnedValue>>;

void ExpectMatches(const Database& db, const Model& model) {
  ASSERT_EQ(db.RecordCount(), model.size());
  auto it = model.begin();
  db.ForEachRecord([&](Record r) {
    ASSERT_NE(it, model.end());
    ASSERT_EQ(r.offset, it->first) << "walk order is address order";
    ASSERT_EQ(db.FieldCount(r), it->second.size());
    for (uint32_t f = 0; f < it->second.size(); ++f) {
      ASSERT_EQ(db.GetField(r, f), it->second[f].view()) << "record " << r.offset << " field " << f;
    }
    ++it;
  });
  ASSERT_EQ(it, model.end());
}

Record RandomRecord(const Model& model, ValueGenerator& gen) {
  if (model.empty()) return Record{};
  auto it = model.begin();
  std::advance(it, gen.Uniform(model.size()));
  return Record{it->first};
}

// Runs `ops` random operations; returns the arena bytes used at the end.
void RunRound(Database* db, Model* model, uint64_t seed, int ops) {
  ValueGenerator gen(seed);
  for (int op = 0; op < ops; ++op) {
    const uint64_t dice = gen.Uniform(100);
    if (dice < 30 || model->empty()) {
      const uint32_t fields = gen.Uniform(10) == 0 ? 60 + gen.Uniform(60) : gen.Uniform(12);
      Record r;
      ASSERT_TRUE(db->CreateRecord(fields, &r).ok());
      ASSERT_EQ(model->count(r.offset), 0u);
      (*model)[r.offset].assign(fields, OwnedValue());
    } else if (dice < 85) {
      const Record r = RandomRecord(*model, gen);
      auto& fields = (*model)[r.offset];
      if (fields.empty()) continue;
      const uint32_t f = gen.Uniform(fields.size());
      const OwnedValue v = gen.Next(RandomRecord(*model, gen));
      // "As new" only where it is legitimate: the field holds nothing.
      const bool as_new = fields[f].type == FieldType::kNull && gen.Uniform(2) == 0;
      const Status st = as_new ? db->SetNewField(r, f, v.view()) : db->SetField(r, f, v.view());
      ASSERT_TRUE(st.ok()) << st.ToString();
      fields[f] = v;
    } else {
      const Record r = RandomRecord(*model, gen);
      ASSERT_TRUE(db->DeleteRecord(r).ok());
      model->erase(r.offset);
    }
    if (op % 500 == 0) {
      ASSERT_NO_FATAL_FAILURE(ExpectMatches(*db, *model));
      const Status st = db->Verify();
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
  }
  ASSERT_NO_FATAL_FAILURE(ExpectMatches(*db, *model));
}

void DeleteAll(Database* db, Model* model) {
  for (const auto& [offset, fields] : *model) ASSERT_TRUE(db->DeleteRecord(Record{offset}).ok());
  model->clear();
  EXPECT_EQ(db->RecordCount(), 0u);
  EXPECT_EQ(db->GetStats().data_bytes, 0u) << "every value freed";
  EXPECT_EQ(db->GetStats().interned_strings, 0u);
  EXPECT_TRUE(db->Verify().ok());
}

class RecordModelTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RecordModelTest, MatchesModelAndReusesSpace) {
  Options options;
  options.size = uint64_t{64} << 20;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  Model model;
  ASSERT_NO_FATAL_FAILURE(RunRound(db.get(), &model, GetParam(), 6000));
  ASSERT_NO_FATAL_FAILURE(DeleteAll(db.get(), &model));
  const uint64_t used_first = db->GetStats().used;
  ASSERT_NO_FATAL_FAILURE(RunRound(db.get(), &model, GetParam(), 6000));
  ASSERT_NO_FATAL_FAILURE(DeleteAll(db.get(), &model));
  const uint64_t used_second = db->GetStats().used;
  EXPECT_LE(used_second, used_first + used_first / 4)
      << "the second round should mostly reuse the first round's space";
}

INSTANTIATE_TEST_SUITE_P(Seeds, RecordModelTest, ::testing::Values(1, 2, 3, 42, 2024));

}  // namespace
}  // namespace nativedb
