// Record handles and field values: what nativedb's API takes and returns.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace nativedb {

// A record's handle: its byte offset in the arena, valid in every process that
// maps the arena and across Save/Load. 0 is "no record". A handle dangles once
// its record is deleted (the space is reused); nativedb keeps no back-links.
struct Record {
  uint64_t offset = 0;

  explicit operator bool() const { return offset != 0; }
  friend bool operator==(Record a, Record b) { return a.offset == b.offset; }
  friend bool operator!=(Record a, Record b) { return a.offset != b.offset; }
  friend bool operator<(Record a, Record b) { return a.offset < b.offset; }
};

enum class FieldType : uint8_t {
  kNull = 0,
  kInt,     // int64
  kDouble,  // IEEE double
  kString,  // text; stored interned when 32 bytes or longer
  kBytes,   // binary, never interned
  kRecord,  // reference to another record
};

const char* FieldTypeName(FieldType type);

// One field's value. String and bytes values are views: a Value passed in is
// copied into the arena; a Value returned views arena bytes and stays valid
// until the field is changed or its record deleted (and only while the caller
// holds the lock it read it under).
class Value {
 public:
  constexpr Value() = default;

  static constexpr Value Null() { return Value(); }
  static constexpr Value Int(int64_t v) { return Value(FieldType::kInt, static_cast<uint64_t>(v)); }
  static Value Double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return Value(FieldType::kDouble, bits);
  }
  static constexpr Value String(std::string_view s) { return Value(FieldType::kString, s); }
  static constexpr Value Bytes(std::string_view s) { return Value(FieldType::kBytes, s); }
  static constexpr Value Ref(Record r) { return Value(FieldType::kRecord, r.offset); }

  constexpr FieldType type() const { return type_; }
  constexpr bool is_null() const { return type_ == FieldType::kNull; }
  // Each accessor is meaningful only for its type.
  constexpr int64_t int_value() const { return static_cast<int64_t>(bits_); }
  double double_value() const {
    double d;
    std::memcpy(&d, &bits_, sizeof d);
    return d;
  }
  constexpr std::string_view string_value() const { return std::string_view(data_, size_); }
  constexpr Record record_value() const { return Record{bits_}; }

  // Same type and same content (doubles compare by bit pattern).
  friend bool operator==(const Value& a, const Value& b) {
    if (a.type_ != b.type_) return false;
    if (a.type_ == FieldType::kString || a.type_ == FieldType::kBytes) {
      return a.string_value() == b.string_value();
    }
    return a.bits_ == b.bits_;
  }

 private:
  constexpr Value(FieldType type, uint64_t bits) : type_(type), bits_(bits) {}
  constexpr Value(FieldType type, std::string_view s)
      : type_(type), data_(s.data()), size_(s.size()) {}

  FieldType type_ = FieldType::kNull;
  uint64_t bits_ = 0;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace nativedb
