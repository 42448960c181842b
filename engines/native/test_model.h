// Test support: a plain in-memory model of field values (owning copies), and
// a random value generator, shared by the model tests.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "engines/native/value.h"

namespace nativedb::testing_model {

// A Value that owns its bytes.
struct OwnedValue {
  FieldType type = FieldType::kNull;
  uint64_t bits = 0;  // int, double bits or record offset
  std::string bytes;

  static OwnedValue Of(const Value& v) {
    OwnedValue o;
    o.type = v.type();
    switch (v.type()) {
      case FieldType::kInt:
        o.bits = static_cast<uint64_t>(v.int_value());
        break;
      case FieldType::kDouble: {
        const double d = v.double_value();
        std::memcpy(&o.bits, &d, sizeof d);
        break;
      }
      case FieldType::kString:
      case FieldType::kBytes:
        o.bytes = std::string(v.string_value());
        break;
      case FieldType::kRecord:
        o.bits = v.record_value().offset;
        break;
      case FieldType::kNull:
        break;
    }
    return o;
  }

  Value view() const {
    switch (type) {
      case FieldType::kInt:
        return Value::Int(static_cast<int64_t>(bits));
      case FieldType::kDouble: {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return Value::Double(d);
      }
      case FieldType::kString:
        return Value::String(bytes);
      case FieldType::kBytes:
        return Value::Bytes(bytes);
      case FieldType::kRecord:
        return Value::Ref(Record{bits});
      case FieldType::kNull:
        break;
    }
    return Value();
  }
};

// Random values of every type. Long strings come partly from a small pool so
// interned copies get shared; `ref` supplies a record to point at (or none).
class ValueGenerator {
 public:
  explicit ValueGenerator(uint64_t seed) : rng_(seed) {}

  OwnedValue Next(Record ref) {
    OwnedValue o;
    switch (Uniform(8)) {
      case 0:
        break;  // NULL
      case 1:
        o = OwnedValue::Of(Value::Int(static_cast<int64_t>(Uniform(50)) - 10));
        break;
      case 2:
        o = OwnedValue::Of(Value::Int(static_cast<int64_t>(rng_())));
        break;
      case 3:
        o = OwnedValue::Of(Value::Double(static_cast<double>(Uniform(20)) / 4));
        break;
      case 4:
        o = OwnedValue::Of(Value::String(Text(Uniform(32))));
        break;
      case 5: {
        const std::string s = Uniform(2) ? "pooled-long-string-" + std::string(20, 'a' + Uniform(5))
                                         : Text(32 + Uniform(200));
        o = OwnedValue::Of(Value::String(s));
        break;
      }
      case 6:
        o = OwnedValue::Of(Value::Bytes(Text(Uniform(300))));
        break;
      case 7:
        if (ref) o = OwnedValue::Of(Value::Ref(ref));
        break;
    }
    return o;
  }

  uint64_t Uniform(uint64_t n) { return rng_() % n; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::string Text(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(Uniform(4) == 0 ? 0 : 'a' + Uniform(26));
    return s;
  }

  std::mt19937_64 rng_;
};

}  // namespace nativedb::testing_model
