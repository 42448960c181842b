#include "adapters/record_layer/table_meta.h"

#include <gtest/gtest.h>

#include "adapters/record_layer/record_codec.h"

namespace kvbench::record_layer {
namespace {

TableMeta Sample(bool named) {
  TableMeta meta;
  meta.field_count = 3;
  meta.types = {FieldType::kInt64, FieldType::kNull, FieldType::kReference};
  if (named) meta.names = {"order_id", "", std::string("a\0b", 3)};
  meta.next_id = RecordId{1} << 40;
  meta.clean = named;
  meta.next_generation = 300;
  meta.indexes = {{2, 299}, {0, 1}};
  return meta;
}

void ExpectSame(const TableMeta& a, const TableMeta& b) {
  EXPECT_EQ(a.field_count, b.field_count);
  EXPECT_EQ(a.types, b.types);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.next_id, b.next_id);
  EXPECT_EQ(a.clean, b.clean);
  EXPECT_EQ(a.next_generation, b.next_generation);
  ASSERT_EQ(a.indexes.size(), b.indexes.size());
  for (size_t i = 0; i < a.indexes.size(); ++i) {
    EXPECT_EQ(a.indexes[i].field, b.indexes[i].field);
    EXPECT_EQ(a.indexes[i].generation, b.indexes[i].generation);
  }
}

TEST(TableMetaTest, RoundTrips) {
  for (bool named : {false, true}) {
    std::string encoded;
    EncodeTableMeta(Sample(named), &encoded);
    TableMeta decoded;
    Status s = DecodeTableMeta(encoded, &decoded);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ExpectSame(decoded, Sample(named));
  }
}

TEST(TableMetaTest, AnythingElseIsCorruption) {
  std::string encoded;
  EncodeTableMeta(Sample(true), &encoded);
  TableMeta decoded;
  for (size_t n = 0; n < encoded.size(); ++n) {
    EXPECT_EQ(DecodeTableMeta(Slice(encoded).substr(0, n), &decoded).code(),
              Status::Code::kCorruption)
        << n;
  }
  // A valid record that is not metadata: an ordinary user record.
  std::string record;
  record_codec::EncodeRecord({FieldValue::Int(1), FieldValue::String("x")}, {}, &record);
  EXPECT_EQ(DecodeTableMeta(record, &decoded).code(), Status::Code::kCorruption);
  // An index on a field the table does not have.
  TableMeta bad = Sample(false);
  bad.indexes = {{3, 1}};
  EncodeTableMeta(bad, &encoded);
  EXPECT_EQ(DecodeTableMeta(encoded, &decoded).code(), Status::Code::kCorruption);
  // Two names for three fields.
  bad = Sample(true);
  bad.names.pop_back();
  EncodeTableMeta(bad, &encoded);
  EXPECT_EQ(DecodeTableMeta(encoded, &decoded).code(), Status::Code::kCorruption);
}

}  // namespace
}  // namespace kvbench::record_layer
