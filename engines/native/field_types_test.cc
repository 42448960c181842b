// Every field type through the arena and back: encoding edges (small and wide
// integers, NaN, short and long strings, NUL bytes), interning, references,
// and that overwriting and deleting give every byte back.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "engines/native/database.h"

namespace nativedb {
namespace {

class FieldTypesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.size = uint64_t{32} << 20;
    ASSERT_TRUE(Database::Create(options, &db_).ok());
    ASSERT_TRUE(db_->CreateRecord(4, &rec_).ok());
  }

  // Stores `v` in a field, reads it back, and checks type and value.
  void RoundTrip(const Value& v) {
    ASSERT_TRUE(db_->SetField(rec_, 1, v).ok());
    const Value back = db_->GetField(rec_, 1);
    EXPECT_EQ(back.type(), v.type());
    EXPECT_EQ(back, v);
    EXPECT_EQ(db_->GetFieldType(rec_, 1), v.type());
  }

  std::unique_ptr<Database> db_;
  Record rec_;
};

TEST_F(FieldTypesTest, Integers) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, format::kSmallIntMax, format::kSmallIntMin,
                    format::kSmallIntMax + 1, format::kSmallIntMin - 1,
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    SCOPED_TRACE(v);
    RoundTrip(Value::Int(v));
  }
  ASSERT_TRUE(db_->SetField(rec_, 1, Value::Int(5)).ok());
  EXPECT_EQ(db_->GetStats().data_bytes, 0u) << "small integers live in the field word";
  ASSERT_TRUE(db_->SetField(rec_, 1, Value::Int(std::numeric_limits<int64_t>::max())).ok());
  EXPECT_EQ(db_->GetStats().data_bytes, 8u) << "wide integers take a cell";
}

TEST_F(FieldTypesTest, Doubles) {
  for (double d : {0.0, -0.0, 1.5, -2.25e300, std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::min()}) {
    SCOPED_TRACE(d);
    RoundTrip(Value::Double(d));
  }
  ASSERT_TRUE(db_->SetField(rec_, 1, Value::Double(std::nan(""))).ok());
  EXPECT_TRUE(std::isnan(db_->GetField(rec_, 1).double_value()));
}

TEST_F(FieldTypesTest, ShortStringsKeepNulBytesAndLength) {
  RoundTrip(Value::String(""));
  RoundTrip(Value::String("a"));
  RoundTrip(Value::String(std::string("a\0b\0", 4)));
  RoundTrip(Value::String(std::string(31, 'z')));
  EXPECT_EQ(db_->GetStats().data_bytes, 32u) << "one 32-byte chunk";
  EXPECT_EQ(db_->GetStats().interned_strings, 0u);
}

TEST_F(FieldTypesTest, LongStringsAreInternedOnce) {
  const std::string s(32, 'q');
  RoundTrip(Value::String(s));
  EXPECT_EQ(db_->GetStats().interned_strings, 1u);
  Record other;
  ASSERT_TRUE(db_->CreateRecord(1, &other).ok());
  ASSERT_TRUE(db_->SetField(other, 0, Value::String(s)).ok());
  EXPECT_EQ(db_->GetStats().interned_strings, 1u) << "the same string is stored once";
  EXPECT_EQ(db_->GetField(rec_, 1).string_value().data(),
            db_->GetField(other, 0).string_value().data());
  ASSERT_TRUE(db_->DeleteRecord(other).ok());
  EXPECT_EQ(db_->GetField(rec_, 1), Value::String(s)) << "still referenced by rec_";
  ASSERT_TRUE(db_->SetField(rec_, 1, Value::Null()).ok());
  EXPECT_EQ(db_->GetStats().interned_strings, 0u);
}

TEST_F(FieldTypesTest, ManyDistinctLongStringsSurviveTableGrowth) {
  std::vector<Record> records(5000);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(db_->CreateRecord(1, &records[i]).ok());
    ASSERT_TRUE(
        db_->SetField(records[i], 0, Value::String(std::string(40, 'p') + std::to_string(i))).ok());
  }
  EXPECT_EQ(db_->GetStats().interned_strings, 5000u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(db_->GetField(records[i], 0).string_value(),
              std::string(40, 'p') + std::to_string(i));
  }
  for (Record r : records) ASSERT_TRUE(db_->DeleteRecord(r).ok());
  EXPECT_EQ(db_->GetStats().interned_strings, 0u);
}

TEST_F(FieldTypesTest, BytesAreBinaryAndNotInterned) {
  RoundTrip(Value::Bytes(""));
  RoundTrip(Value::Bytes(std::string("\0\xff\x01", 3)));
  std::string big(1 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131);
  RoundTrip(Value::Bytes(big));
  EXPECT_EQ(db_->GetStats().interned_strings, 0u);
  EXPECT_FALSE(Value::Bytes("x") == Value::String("x")) << "bytes and strings are distinct types";
}

TEST_F(FieldTypesTest, References) {
  Record target;
  ASSERT_TRUE(db_->CreateRecord(1, &target).ok());
  ASSERT_TRUE(db_->SetField(target, 0, Value::Int(99)).ok());
  RoundTrip(Value::Ref(target));
  const Record back = db_->GetField(rec_, 1).record_value();
  EXPECT_EQ(db_->GetField(back, 0), Value::Int(99));
  EXPECT_TRUE(db_->SetField(rec_, 2, Value::Ref(Record{})).IsInvalidArgument());
  EXPECT_TRUE(db_->GetField(rec_, 2).is_null());
}

TEST_F(FieldTypesTest, OverwritingEveryTypeReturnsAllStorage) {
  const Value values[] = {Value::Int(3),
                          Value::Int(std::numeric_limits<int64_t>::min()),
                          Value::Double(2.5),
                          Value::String("short"),
                          Value::String(std::string(200, 'l')),
                          Value::Bytes(std::string(3000, 'b')),
                          Value::Ref(rec_),
                          Value::Null()};
  for (int round = 0; round < 3; ++round) {
    for (const Value& v : values) {
      for (uint32_t f = 0; f < 4; ++f) ASSERT_TRUE(db_->SetField(rec_, f, v).ok());
      for (uint32_t f = 0; f < 4; ++f) ASSERT_EQ(db_->GetField(rec_, f), v);
    }
  }
  EXPECT_EQ(db_->GetStats().data_bytes, 0u) << "ended on NULL: nothing may stay allocated";
  EXPECT_EQ(db_->GetStats().interned_strings, 0u);
  for (uint32_t f = 0; f < 4; ++f) ASSERT_TRUE(db_->SetField(rec_, f, values[f % 7]).ok());
  ASSERT_TRUE(db_->DeleteRecord(rec_).ok());
  EXPECT_EQ(db_->GetStats().data_bytes, 0u) << "deleting a record frees its values";
  EXPECT_TRUE(db_->Verify().ok());
}

}  // namespace
}  // namespace nativedb
