#include "runner/ycsb_record.h"

#include <gtest/gtest.h>

#include "datasets/value_generator.h"

namespace kvbench::runner {
namespace {

TEST(YcsbRecordTest, ConstantLengthFieldsSitAtFixedOffsets) {
  datasets::ValueOptions o;
  o.size = 100;
  datasets::ValueGenerator fields(o, 42);
  YcsbRecordLayout layout(&fields, 10);
  EXPECT_FALSE(layout.variable_lengths());
  std::string record, field;
  layout.Record(7, 0, &record);
  ASSERT_EQ(record.size(), 1000u);
  for (uint32_t f = 0; f < 10; ++f) {
    layout.Field(7, 0, f, &field);
    EXPECT_EQ(record.substr(100 * f, 100), field) << f;
  }
  // Updating one field changes exactly its bytes.
  std::string updated = record;
  layout.Field(7, 3, 4, &field);
  ASSERT_TRUE(layout.ReplaceField(4, field, &updated));
  EXPECT_EQ(updated.substr(400, 100), field);
  EXPECT_NE(updated.substr(400, 100), record.substr(400, 100));
  EXPECT_EQ(updated.substr(0, 400), record.substr(0, 400));
  EXPECT_EQ(updated.substr(500), record.substr(500));
  std::string foreign = "not a record";
  EXPECT_FALSE(layout.ReplaceField(1, field, &foreign));
  EXPECT_EQ(foreign, "not a record");
}

TEST(YcsbRecordTest, VariableLengthFieldsHaveALengthTable) {
  datasets::ValueOptions o;
  o.size_distribution = datasets::ValueOptions::SizeDistribution::kUniform;
  o.min_size = 1;
  o.max_size = 50;
  datasets::ValueGenerator fields(o, 42);
  YcsbRecordLayout layout(&fields, 5);
  EXPECT_TRUE(layout.variable_lengths());
  std::string record, field;
  layout.Record(3, 0, &record);
  size_t total = 20;
  for (uint32_t f = 0; f < 5; ++f) {
    layout.Field(3, 0, f, &field);
    size_t offset = 0, length = 0;
    ASSERT_TRUE(layout.Locate(record, f, &offset, &length));
    EXPECT_EQ(offset, total);
    EXPECT_EQ(record.substr(offset, length), field);
    total += field.size();
  }
  EXPECT_EQ(record.size(), total);
  for (uint64_t version = 1; version < 20; ++version) {
    layout.Field(3, version, 2, &field);
    ASSERT_TRUE(layout.ReplaceField(2, field, &record));
    size_t offset = 0, length = 0;
    ASSERT_TRUE(layout.Locate(record, 2, &offset, &length));
    EXPECT_EQ(record.substr(offset, length), field);
    ASSERT_TRUE(layout.Locate(record, 4, &offset, &length));
    EXPECT_EQ(offset + length, record.size());
  }
}

}  // namespace
}  // namespace kvbench::runner
