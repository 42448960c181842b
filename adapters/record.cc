#include "adapters/record.h"

#include <cstdio>

namespace kvbench {

const char* FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kNull: return "null";
    case FieldType::kInt64: return "int";
    case FieldType::kDouble: return "double";
    case FieldType::kString: return "string";
    case FieldType::kBytes: return "bytes";
    case FieldType::kReference: return "ref";
  }
  return "?";
}

bool operator==(const FieldValue& a, const FieldValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case FieldType::kNull: return true;
    case FieldType::kInt64: return a.int_value == b.int_value;
    case FieldType::kDouble: return a.double_value == b.double_value;
    case FieldType::kString:
    case FieldType::kBytes: return a.bytes == b.bytes;
    case FieldType::kReference: return a.reference == b.reference;
  }
  return false;
}

std::string DescribeFieldValue(const FieldValue& v) {
  char buf[64];
  switch (v.type) {
    case FieldType::kNull: return "null";
    case FieldType::kInt64:
      std::snprintf(buf, sizeof buf, "int %lld", static_cast<long long>(v.int_value));
      return buf;
    case FieldType::kDouble:
      std::snprintf(buf, sizeof buf, "double %.17g", v.double_value);
      return buf;
    case FieldType::kReference:
      std::snprintf(buf, sizeof buf, "ref %llu", static_cast<unsigned long long>(v.reference));
      return buf;
    case FieldType::kString:
    case FieldType::kBytes: {
      std::string out = FieldTypeName(v.type);
      out += " \"";
      for (char c : v.bytes.substr(0, 40)) {
        if (c >= 0x20 && c < 0x7f) {
          out += c;
        } else {
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        }
      }
      if (v.bytes.size() > 40) out += "...";
      out += "\" (" + std::to_string(v.bytes.size()) + " bytes)";
      return out;
    }
  }
  return "?";
}

}  // namespace kvbench
