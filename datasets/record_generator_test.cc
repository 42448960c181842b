#include "datasets/record_generator.h"

#include <gtest/gtest.h>

#include <set>

namespace kvbench::datasets {
namespace {

FieldRecordOptions ParseFields(const std::string& fields, const std::string& length) {
  FieldRecordOptions o;
  const Status s = ParseFieldRecordOptions(
      {{"fields", fields}, {"name_length", length}, {"value_length", length}}, &o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return o;
}

TEST(FieldRecordGeneratorTest, Seed004ShapesHaveDistinctNamesAndExactLengths) {
  // Seed 004's four cases: 50/50, 50/05, 05/50 and 05/05 (fields/bytes).
  for (const auto& [fields, length] : std::vector<std::pair<std::string, std::string>>{
           {"50", "50"}, {"50", "5"}, {"5", "50"}, {"5", "5"}}) {
    SCOPED_TRACE(fields + "/" + length);
    const FieldRecordOptions o = ParseFields(fields, length);
    FieldRecordGenerator g(o, 1);
    const auto& names = g.field_names();
    ASSERT_EQ(names.size(), o.fields);
    EXPECT_EQ(names[0], "order_id");
    std::set<std::string> distinct(names.begin(), names.end());
    EXPECT_EQ(distinct.size(), names.size());
    for (size_t f = 1; f < names.size(); ++f) {
      EXPECT_EQ(names[f].size(), o.name_length);
      EXPECT_EQ(names[f].substr(0, 3), "key");
    }
    std::vector<std::string> values;
    g.Fill(41, &values);
    ASSERT_EQ(values.size(), o.fields);
    EXPECT_EQ(values[0], "42");
    for (size_t f = 1; f < values.size(); ++f) {
      EXPECT_EQ(values[f].size(), o.value_length);
      EXPECT_EQ(values[f].substr(0, 3), "val");
      for (char c : values[f].substr(3)) ASSERT_TRUE(c >= 'A' && c <= 'Z');
    }
  }
}

TEST(FieldRecordGeneratorTest, ValuesArePerRecordAndDeterministic) {
  FieldRecordGenerator g(FieldRecordOptions{}, 1);
  FieldRecordGenerator same(FieldRecordOptions{}, 1);
  std::vector<std::string> a, b;
  g.Fill(7, &a);
  same.Fill(7, &b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(g.field_names(), same.field_names());
  g.Fill(8, &b);
  EXPECT_NE(a[1], b[1]);
}

TEST(FieldRecordGeneratorTest, NamesTooShortToDifferAreRejected) {
  FieldRecordOptions o;
  const Status s = ParseFieldRecordOptions({{"fields", "50"}, {"name_length", "4"}}, &o);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("name_length"), std::string::npos) << s.message();
}

TEST(TypedRecordGeneratorTest, DefaultSchemaIsSeed000Mix) {
  std::vector<TypedFieldSpec> schema;
  ASSERT_TRUE(ParseRecordSchema(kDefaultRecordSchema, &schema).ok());
  TypedRecordGenerator g(schema, 1);
  ASSERT_EQ(g.field_count(), 5u);
  std::vector<FieldValue> fields;
  g.Fill(10, &fields);
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0].type, FieldType::kInt64);
  EXPECT_EQ(fields[0].int_value, 10);
  EXPECT_EQ(fields[1].type, FieldType::kDouble);
  EXPECT_GE(fields[1].double_value, 0.0);
  EXPECT_LT(fields[1].double_value, 1e6);
  EXPECT_EQ(fields[2].type, FieldType::kString);
  EXPECT_EQ(fields[2].bytes.size(), 30u);
  EXPECT_EQ(fields[3].bytes.size(), 100u);
  EXPECT_EQ(fields[4].type, FieldType::kReference);
  EXPECT_EQ(fields[4].reference, 9u);
  g.Fill(0, &fields);
  EXPECT_EQ(fields[4].type, FieldType::kNull);  // the chain's first record points nowhere
}

TEST(TypedRecordGeneratorTest, SchemaSourcesBehaveAsDocumented) {
  std::vector<TypedFieldSpec> schema;
  ASSERT_TRUE(ParseRecordSchema("null,int%100000*2,conststr:100,bytes:8,randint", &schema).ok());
  ASSERT_EQ(schema.size(), 6u);
  TypedRecordGenerator g(schema, 1);
  std::vector<FieldValue> a, b;
  g.Fill(1234567, &a);
  g.Fill(7654321, &b);
  EXPECT_EQ(a[0].type, FieldType::kNull);
  EXPECT_EQ(a[1].int_value, 34567);
  EXPECT_EQ(a[2].int_value, 34567);
  EXPECT_EQ(a[3].bytes, b[3].bytes);  // one shared string
  EXPECT_EQ(a[3].bytes.size(), 100u);
  EXPECT_EQ(a[4].type, FieldType::kBytes);
  EXPECT_NE(a[4].bytes, b[4].bytes);
  EXPECT_NE(a[5].int_value, b[5].int_value);
  std::vector<FieldValue> again;
  g.Fill(1234567, &again);
  EXPECT_EQ(again[5].int_value, a[5].int_value);
  EXPECT_EQ(again[4].bytes, a[4].bytes);
}

TEST(TypedRecordGeneratorTest, BadSchemaNamesTheEntry) {
  std::vector<TypedFieldSpec> schema;
  for (const char* bad : {"int,float", "str", "int%0", "int*0", "int,", "null:3"}) {
    const Status s = ParseRecordSchema(bad, &schema);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
  }
  const Status s = ParseRecordSchema("int,float", &schema);
  EXPECT_NE(s.message().find("'float'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace kvbench::datasets
