// IndexCursor: seeking and stepping over runs of equal keys, at both edges,
// across leaf boundaries.
#include <gtest/gtest.h>

#include <vector>

#include "engines/native/database.h"

namespace nativedb {
namespace {

class IndexCursorTest : public ::testing::Test {
 protected:
  // Keys 0, 10, 20, ..., 990, each on `copies` records (runs longer than a leaf).
  void SetUp() override {
    Options options;
    options.size = uint64_t{32} << 20;
    ASSERT_TRUE(Database::Create(options, &db_).ok());
    for (int copy = 0; copy < kCopies; ++copy) {
      for (int k = 0; k < 100; ++k) {
        Record r;
        ASSERT_TRUE(db_->CreateRecord(1, &r).ok());
        ASSERT_TRUE(db_->SetNewField(r, 0, Value::Int(k * 10)).ok());
      }
    }
    ASSERT_TRUE(db_->CreateIndex(0).ok());
    ASSERT_TRUE(db_->NewCursor(0, &cursor_).ok());
  }

  static constexpr int kCopies = 300;
  std::unique_ptr<Database> db_;
  IndexCursor cursor_;
};

TEST_F(IndexCursorTest, SeekLandsOnFirstOfRun) {
  cursor_.Seek(Value::Int(500));
  ASSERT_TRUE(cursor_.Valid());
  EXPECT_EQ(cursor_.key(), Value::Int(500));
  Record first = cursor_.record();
  cursor_.Prev();
  ASSERT_TRUE(cursor_.Valid());
  EXPECT_EQ(cursor_.key(), Value::Int(490));
  cursor_.Next();
  EXPECT_EQ(cursor_.record(), first);

  cursor_.Seek(Value::Int(505));  // absent: the next key up
  ASSERT_TRUE(cursor_.Valid());
  EXPECT_EQ(cursor_.key(), Value::Int(510));
  cursor_.Seek(Value::Int(991));  // past the end
  EXPECT_FALSE(cursor_.Valid());
  cursor_.Seek(Value::Int(-5));
  EXPECT_EQ(cursor_.key(), Value::Int(0));
}

TEST_F(IndexCursorTest, SeekForPrevLandsOnLastOfRun) {
  cursor_.SeekForPrev(Value::Int(500));
  ASSERT_TRUE(cursor_.Valid());
  EXPECT_EQ(cursor_.key(), Value::Int(500));
  cursor_.Next();
  ASSERT_TRUE(cursor_.Valid());
  EXPECT_EQ(cursor_.key(), Value::Int(510));

  cursor_.SeekForPrev(Value::Int(505));
  EXPECT_EQ(cursor_.key(), Value::Int(500));
  cursor_.SeekForPrev(Value::Int(5000));
  EXPECT_EQ(cursor_.key(), Value::Int(990));
  cursor_.SeekForPrev(Value::Int(-1));
  EXPECT_FALSE(cursor_.Valid());
}

TEST_F(IndexCursorTest, FullWalksBothWays) {
  int forward = 0;
  Value last = Value::Int(-1);
  for (cursor_.SeekToFirst(); cursor_.Valid(); cursor_.Next(), ++forward) {
    ASSERT_GE(cursor_.key().int_value(), last.int_value());
    last = cursor_.key();
  }
  EXPECT_EQ(forward, 100 * kCopies);
  int backward = 0;
  for (cursor_.SeekToLast(); cursor_.Valid(); cursor_.Prev()) ++backward;
  EXPECT_EQ(backward, 100 * kCopies);
}

TEST_F(IndexCursorTest, EqualRunIsInRecordOrder) {
  std::vector<Record> out;
  ASSERT_TRUE(db_->FindEqual(0, Value::Int(70), 0, &out).ok());
  ASSERT_EQ(out.size(), static_cast<size_t>(kCopies));
  for (size_t i = 1; i < out.size(); ++i) EXPECT_LT(out[i - 1], out[i]);
  ASSERT_TRUE(db_->FindEqual(0, Value::Int(70), 100, &out).ok());
  EXPECT_EQ(out.size(), 100u) << "row limit";
  ASSERT_TRUE(db_->FindEqual(0, Value::Double(70), 0, &out).ok());
  EXPECT_TRUE(out.empty()) << "a double never equals an int";
}

TEST_F(IndexCursorTest, RangeWithOpenEnds) {
  std::vector<Record> out;
  ASSERT_TRUE(db_->FindRange(0, Value::Null(), Value::Int(15), 0, &out).ok());
  EXPECT_EQ(out.size(), 2u * kCopies);
  ASSERT_TRUE(db_->FindRange(0, Value::Int(985), Value::Null(), 0, &out).ok());
  EXPECT_EQ(out.size(), 1u * kCopies);
  ASSERT_TRUE(db_->FindRange(0, Value::Int(11), Value::Int(19), 0, &out).ok());
  EXPECT_TRUE(out.empty());
}

TEST(IndexCursorEmptyTest, EmptyIndexIsNeverValid) {
  Options options;
  options.size = uint64_t{1} << 20;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  ASSERT_TRUE(db->CreateIndex(0).ok());
  IndexCursor c;
  ASSERT_TRUE(db->NewCursor(0, &c).ok());
  c.SeekToFirst();
  EXPECT_FALSE(c.Valid());
  c.SeekToLast();
  EXPECT_FALSE(c.Valid());
  c.Seek(Value::Int(1));
  EXPECT_FALSE(c.Valid());
  c.SeekForPrev(Value::Int(1));
  EXPECT_FALSE(c.Valid());
}

}  // namespace
}  // namespace nativedb
