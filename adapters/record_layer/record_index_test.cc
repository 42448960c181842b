#include "adapters/record_layer/record_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

namespace kvbench::record_index {
namespace {

std::string Canonical(const FieldValue& v) {
  std::string out;
  CanonicalValue(v, &out);
  return out;
}

std::vector<RecordId> Read(bool hashed, Slice canonical, Slice posting, size_t limit = 0) {
  std::vector<RecordId> ids;
  Status s = PostingRead(hashed, canonical, posting, limit, &ids);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return ids;
}

TEST(RecordIndexTest, CanonicalValuesMatchFieldEquality) {
  EXPECT_EQ(Canonical(FieldValue::Double(-0.0)), Canonical(FieldValue::Double(0.0)));
  EXPECT_EQ(Canonical(FieldValue::Double(std::nan("1"))),
            Canonical(FieldValue::Double(-std::numeric_limits<double>::quiet_NaN())));
  EXPECT_NE(Canonical(FieldValue::Int(1)), Canonical(FieldValue::Double(1)));
  EXPECT_NE(Canonical(FieldValue::String("a")), Canonical(FieldValue::Bytes("a")));
  EXPECT_NE(Canonical(FieldValue::Null()), Canonical(FieldValue::String("")));
  EXPECT_NE(Canonical(FieldValue::Int(1)), Canonical(FieldValue::Reference(1)));
}

TEST(RecordIndexTest, LongValuesAreHashedIntoShortKeys) {
  const std::string short_value = Canonical(FieldValue::String(std::string(200, 'a')));
  std::string key = "prefix#";
  EXPECT_FALSE(AppendValuePart(short_value, &key));
  EXPECT_EQ(key, "prefix#" + short_value);

  const std::string long_a = Canonical(FieldValue::String(std::string(5000, 'a')));
  std::string long_b_value(5000, 'a');
  long_b_value.back() = 'b';
  const std::string long_b = Canonical(FieldValue::String(long_b_value));
  std::string key_a, key_b;
  EXPECT_TRUE(AppendValuePart(long_a, &key_a));
  EXPECT_TRUE(AppendValuePart(long_b, &key_b));
  EXPECT_EQ(key_a.size(), 9u);
  EXPECT_EQ(key_a[0], kHashedMarker);
  EXPECT_NE(key_a, key_b);
}

TEST(RecordIndexTest, PlainPostingListAddRemoveRead) {
  std::string posting, scratch;
  const std::string v = Canonical(FieldValue::Int(3));
  for (RecordId id : {5u, 1u, 300u, 1u << 30}) PostingAdd(false, v, &id, 1, &posting, &scratch);
  EXPECT_EQ(Read(false, v, posting), (std::vector<RecordId>{5, 1, 300, 1u << 30}));
  EXPECT_EQ(Read(false, v, posting, 2), (std::vector<RecordId>{5, 1}));
  bool removed;
  ASSERT_TRUE(PostingRemove(false, v, 300, &posting, &scratch, &removed).ok());
  EXPECT_TRUE(removed);
  ASSERT_TRUE(PostingRemove(false, v, 300, &posting, &scratch, &removed).ok());
  EXPECT_FALSE(removed);
  EXPECT_EQ(Read(false, v, posting), (std::vector<RecordId>{5, 1, 1u << 30}));
  const RecordId more[] = {7, 8};
  PostingAdd(false, v, more, 2, &posting, &scratch);
  EXPECT_EQ(Read(false, v, posting), (std::vector<RecordId>{5, 1, 1u << 30, 7, 8}));
}

// Two values whose hashed keys collide share one posting list, in groups.
TEST(RecordIndexTest, GroupedPostingListKeepsValuesApart) {
  const std::string a = Canonical(FieldValue::String(std::string(400, 'a')));
  const std::string b = Canonical(FieldValue::String(std::string(400, 'b')));
  std::string posting, scratch;
  std::set<RecordId> ids_a, ids_b;
  // Enough ids that a group's ids length varint grows past one byte.
  for (RecordId id = 1; id <= 200; ++id) {
    const bool to_a = id % 3 != 0;
    const RecordId scaled = id * 1000;
    PostingAdd(true, to_a ? a : b, &scaled, 1, &posting, &scratch);
    (to_a ? ids_a : ids_b).insert(id * 1000);
  }
  auto as_set = [](const std::vector<RecordId>& v) {
    return std::set<RecordId>(v.begin(), v.end());
  };
  EXPECT_EQ(as_set(Read(true, a, posting)), ids_a);
  EXPECT_EQ(as_set(Read(true, b, posting)), ids_b);
  EXPECT_EQ(Read(true, a, posting, 5).size(), 5u);
  EXPECT_TRUE(Read(true, Canonical(FieldValue::String("c")), posting).empty());

  std::mt19937_64 rng(3);
  std::vector<RecordId> order(ids_b.begin(), ids_b.end());
  std::shuffle(order.begin(), order.end(), rng);
  for (RecordId id : order) {  // empty b's group entirely
    bool removed;
    ASSERT_TRUE(PostingRemove(true, b, id, &posting, &scratch, &removed).ok());
    ASSERT_TRUE(removed) << id;
    ids_b.erase(id);
    ASSERT_EQ(as_set(Read(true, b, posting)), ids_b);
    ASSERT_EQ(as_set(Read(true, a, posting)), ids_a);
  }
  bool removed;
  ASSERT_TRUE(PostingRemove(true, b, 3000, &posting, &scratch, &removed).ok());
  EXPECT_FALSE(removed);
  const RecordId two[] = {1, 2};
  PostingAdd(true, b, two, 2, &posting, &scratch);
  EXPECT_EQ(Read(true, b, posting), (std::vector<RecordId>{1, 2}));
  EXPECT_EQ(as_set(Read(true, a, posting)), ids_a);
}

TEST(RecordIndexTest, MalformedPostingListsAreCorruption) {
  std::vector<RecordId> ids;
  const std::string v = Canonical(FieldValue::Int(1));
  EXPECT_EQ(PostingRead(false, v, "\x81", 0, &ids).code(), Status::Code::kCorruption);
  EXPECT_EQ(PostingRead(true, v,
                        "\x05"
                        "ab",
                        0, &ids)
                .code(),
            Status::Code::kCorruption);
  std::string posting = "\x81";
  std::string scratch;
  bool removed;
  EXPECT_EQ(PostingRemove(false, v, 1, &posting, &scratch, &removed).code(),
            Status::Code::kCorruption);
}

}  // namespace
}  // namespace kvbench::record_index
