#include "adapters/record_layer/record_codec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace kvbench::record_codec {
namespace {

using Fields = std::vector<FieldValue>;

// operator== with NaN equal to NaN of the same bits: a round trip keeps bits.
bool SameBits(const FieldValue& a, const FieldValue& b) {
  if (a.type == FieldType::kDouble && b.type == FieldType::kDouble) {
    return std::bit_cast<uint64_t>(a.double_value) == std::bit_cast<uint64_t>(b.double_value);
  }
  return a == b;
}

std::string Encode(const Fields& fields, const std::vector<std::string>& names = {}) {
  std::string out;
  EncodeRecord(fields, names, &out);
  return out;
}

void ExpectRoundTrip(const Fields& fields, const std::vector<std::string>& names = {}) {
  const std::string encoded = Encode(fields, names);
  Fields decoded;
  std::vector<Slice> decoded_names;
  Status s = DecodeRecord(encoded, &decoded, &decoded_names);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(decoded.size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_TRUE(SameBits(decoded[i], fields[i]))
        << "field " << i << ": " << DescribeFieldValue(decoded[i]) << " vs "
        << DescribeFieldValue(fields[i]);
    EXPECT_EQ(decoded_names[i], names.empty() ? Slice() : Slice(names[i])) << i;
    FieldView view;
    ASSERT_TRUE(FindField(encoded, static_cast<uint32_t>(i), &view).ok()) << i;
    FieldValue copied;
    CopyField(view, &copied);
    EXPECT_TRUE(SameBits(copied, fields[i])) << i;
    if (!(fields[i].type == FieldType::kDouble && std::isnan(fields[i].double_value))) {
      EXPECT_TRUE(FieldEquals(view, fields[i])) << i;
    }
  }
}

// Every type, with the edge values of each.
Fields EveryType() {
  std::string all_bytes;
  for (int c = 0; c < 256; ++c) all_bytes.push_back(static_cast<char>(c));
  return {FieldValue::Null(),
          FieldValue::Int(0),
          FieldValue::Int(-1),
          FieldValue::Int(std::numeric_limits<int64_t>::min()),
          FieldValue::Int(std::numeric_limits<int64_t>::max()),
          FieldValue::Double(0.0),
          FieldValue::Double(-0.0),
          FieldValue::Double(3.25),
          FieldValue::Double(std::numeric_limits<double>::infinity()),
          FieldValue::Double(-std::numeric_limits<double>::infinity()),
          FieldValue::Double(std::numeric_limits<double>::quiet_NaN()),
          FieldValue::Double(std::numeric_limits<double>::denorm_min()),
          FieldValue::String(""),
          FieldValue::String("hello"),
          FieldValue::String(std::string("a\0b\0", 4)),
          FieldValue::String(std::string(300, 'x')),  // a two-byte length varint
          FieldValue::Bytes(""),
          FieldValue::Bytes(all_bytes),
          FieldValue::Reference(1),
          FieldValue::Reference(std::numeric_limits<uint64_t>::max())};
}

TEST(RecordCodecTest, EveryTypeRoundTrips) { ExpectRoundTrip(EveryType()); }

TEST(RecordCodecTest, NamedRecordsRoundTripWithTheirNames) {
  Fields fields = EveryType();
  std::vector<std::string> names;
  for (size_t i = 0; i < fields.size(); ++i) names.push_back("field_" + std::to_string(i));
  names[1] = "";                       // an empty name
  names[2] = std::string("n\0ul", 4);  // a NUL byte in a name
  names[3] = std::string(200, 'k');    // a long one
  ExpectRoundTrip(fields, names);
}

TEST(RecordCodecTest, EmptyRecordRoundTrips) { ExpectRoundTrip({}); }

// The bytes are the specification (docs/record-codec.md): pin them.
TEST(RecordCodecTest, UnnamedBytesAreAsSpecified) {
  const std::string got = Encode({FieldValue::Int(-2), FieldValue::String("ab"), FieldValue::Null(),
                                  FieldValue::Double(1.0), FieldValue::Reference(0x0102)});
  const std::string want(
      "\x01\x00\x05"                          // version 1, unnamed, 5 fields
      "\x01\xfe\xff\xff\xff\xff\xff\xff\xff"  // int64 -2, little-endian
      "\x03\x02"
      "ab"                                     // string, length 2
      "\x00"                                   // null
      "\x02\x00\x00\x00\x00\x00\x00\xf0\x3f"   // double 1.0 = 0x3ff0000000000000
      "\x05\x02\x01\x00\x00\x00\x00\x00\x00",  // reference 0x0102
      3 + 9 + 4 + 1 + 9 + 9);
  EXPECT_EQ(got, want);
}

TEST(RecordCodecTest, NamedBytesAreAsSpecified) {
  const std::string got = Encode({FieldValue::Bytes(std::string(130, 'v'))}, {"id"});
  std::string want(
      "\x01\x01\x01"  // version 1, named, 1 field
      "\x02"
      "id"             // name length 2
      "\x04\x82\x01",  // bytes, length 130 as a two-byte varint
      9);
  want.append(130, 'v');
  EXPECT_EQ(got, want);
}

TEST(RecordCodecTest, EncodeAppendsAndDecodesInPlace) {
  std::string out = "prefix";
  EncodeRecord({FieldValue::Int(7)}, {}, &out);
  ASSERT_EQ(out.substr(0, 6), "prefix");
  Fields decoded;
  ASSERT_TRUE(DecodeRecord(Slice(out).substr(6), &decoded).ok());
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(decoded[0], FieldValue::Int(7));
}

// "No allocation once warm": the caller's buffers keep their storage.
TEST(RecordCodecTest, WarmBuffersAreReused) {
  const Fields fields = {FieldValue::String(std::string(100, 's')), FieldValue::Int(1),
                         FieldValue::Bytes(std::string(50, 'b'))};
  std::string out;
  EncodeRecord(fields, {}, &out);
  const char* data = out.data();
  Fields decoded;
  ASSERT_TRUE(DecodeRecord(out, &decoded).ok());
  const char* string_data = decoded[0].bytes.data();
  for (int i = 0; i < 10; ++i) {
    out.clear();
    EncodeRecord(fields, {}, &out);
    EXPECT_EQ(out.data(), data);
    ASSERT_TRUE(DecodeRecord(out, &decoded).ok());
    EXPECT_EQ(decoded[0].bytes.data(), string_data);
  }
}

TEST(RecordCodecTest, FindFieldGivesSpliceableRanges) {
  const Fields fields = {FieldValue::Int(1), FieldValue::String("old"), FieldValue::Double(2)};
  const std::vector<std::string> names = {"a", "b", "c"};
  const std::string encoded = Encode(fields, names);
  FieldView view;
  ASSERT_TRUE(FindField(encoded, 1, &view).ok());
  EXPECT_EQ(view.name, "b");
  EXPECT_EQ(view.bytes, "old");
  std::string spliced = encoded.substr(0, view.begin);
  EncodeField(FieldValue::String("a much longer new value"), &spliced);
  spliced += encoded.substr(view.end);
  Fields expected = fields;
  expected[1] = FieldValue::String("a much longer new value");
  EXPECT_EQ(spliced, Encode(expected, names));

  Status s = FindField(encoded, 3, &view);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST(RecordCodecTest, FieldEqualsFollowsOperatorEquals) {
  const Fields values = {FieldValue::Null(),      FieldValue::Int(1),
                         FieldValue::Double(1),   FieldValue::Double(-0.0),
                         FieldValue::Double(0.0), FieldValue::String("1"),
                         FieldValue::Bytes("1"),  FieldValue::Reference(1),
                         FieldValue::String(""),  FieldValue::Bytes("")};
  const std::string encoded = Encode(values);
  for (uint32_t i = 0; i < values.size(); ++i) {
    FieldView view;
    ASSERT_TRUE(FindField(encoded, i, &view).ok());
    for (const FieldValue& other : values) {
      EXPECT_EQ(FieldEquals(view, other), values[i] == other)
          << DescribeFieldValue(values[i]) << " vs " << DescribeFieldValue(other);
    }
  }
}

TEST(RecordCodecTest, EveryTruncationIsCorruption) {
  std::vector<std::string> names;
  const Fields fields = EveryType();
  for (size_t i = 0; i < fields.size(); ++i) names.push_back("name" + std::to_string(i));
  for (const std::string& encoded : {Encode(fields), Encode(fields, names)}) {
    const uint32_t last = static_cast<uint32_t>(fields.size() - 1);
    for (size_t n = 0; n < encoded.size(); ++n) {
      const Slice truncated = Slice(encoded).substr(0, n);
      Fields decoded;
      Status s = DecodeRecord(truncated, &decoded);
      ASSERT_EQ(s.code(), Status::Code::kCorruption) << n << ": " << s.ToString();
      EXPECT_NE(s.message().find("byte"), std::string::npos) << s.ToString();
      FieldView view;
      s = FindField(truncated, last, &view);
      ASSERT_EQ(s.code(), Status::Code::kCorruption) << n << ": " << s.ToString();
    }
  }
}

TEST(RecordCodecTest, MalformedInputIsCorruption) {
  const std::string good = Encode({FieldValue::Int(5), FieldValue::String("x")});
  auto expect_corrupt = [](const std::string& bytes, const char* why) {
    Fields decoded;
    Status s = DecodeRecord(bytes, &decoded);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << why << ": " << s.ToString();
  };
  expect_corrupt(good + "z", "trailing byte");
  std::string bad = good;
  bad[0] = 2;
  expect_corrupt(bad, "unknown version");
  bad = good;
  bad[1] = 2;
  expect_corrupt(bad, "unknown flag");
  bad = good;
  bad[3] = 9;
  expect_corrupt(bad, "unknown tag");
  expect_corrupt(std::string("\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 12),
                 "count overflows 64 bits");
  expect_corrupt(std::string("\x01\x00\xff\xff\xff\xff\x0f", 7), "huge count");
  expect_corrupt(std::string("\x01\x00\x01\x03\xff\xff\xff\xff\x0f"
                             "abc",
                             12),
                 "huge string length");
  expect_corrupt(std::string("\x01\x01\x01\x7f"
                             "ab\x00",
                             7),
                 "name longer than the record");
}

// Random bytes and mutated encodings: any status, never a crash or an
// out-of-bounds read (run under -fsanitize=address to see the latter).
TEST(RecordCodecTest, GarbageNeverCrashes) {
  std::mt19937_64 rng(42);
  std::vector<std::string> names;
  const Fields fields = EveryType();
  for (size_t i = 0; i < fields.size(); ++i) names.push_back(std::to_string(i) + "n");
  const std::string valid = Encode(fields, names);
  Fields decoded;
  FieldView view;
  int ok = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string input;
    if (round % 2 == 0) {
      input.resize(rng() % 48);
      for (char& c : input) c = static_cast<char>(rng());
      if (input.size() >= 2 && rng() % 2) input[0] = 1, input[1] = static_cast<char>(rng() % 2);
    } else {
      input = valid;
      for (int flips = 1 + rng() % 4; flips > 0; --flips) {
        input[rng() % input.size()] ^= static_cast<char>(1u << (rng() % 8));
      }
    }
    Status s = DecodeRecord(input, &decoded);
    ASSERT_TRUE(s.ok() || s.code() == Status::Code::kCorruption) << s.ToString();
    if (s.ok()) ++ok;
    for (uint32_t i : {0u, 3u, 19u}) {
      s = FindField(input, i, &view);
      ASSERT_TRUE(s.ok() || s.code() == Status::Code::kCorruption || s.IsInvalidArgument())
          << s.ToString();
    }
  }
  EXPECT_GT(ok, 0) << "some bit flips (in payload bytes) still decode";
}

}  // namespace
}  // namespace kvbench::record_codec
