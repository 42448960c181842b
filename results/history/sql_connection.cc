#include "results/history/sql_connection.h"

#include <cstdlib>

namespace kvbench::results {

bool SqlIsNull(const SqlValue& v) { return std::holds_alternative<std::monostate>(v); }

int64_t SqlInt(const SqlValue& v) {
  if (std::holds_alternative<int64_t>(v)) return std::get<int64_t>(v);
  if (std::holds_alternative<double>(v)) return static_cast<int64_t>(std::get<double>(v));
  if (std::holds_alternative<std::string>(v)) {
    return std::strtoll(std::get<std::string>(v).c_str(), nullptr, 10);
  }
  return 0;
}

double SqlDouble(const SqlValue& v) {
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<int64_t>(v)) return static_cast<double>(std::get<int64_t>(v));
  if (std::holds_alternative<std::string>(v)) {
    return std::strtod(std::get<std::string>(v).c_str(), nullptr);
  }
  return 0;
}

std::string SqlText(const SqlValue& v) {
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  if (std::holds_alternative<int64_t>(v)) return std::to_string(std::get<int64_t>(v));
  if (std::holds_alternative<double>(v)) return std::to_string(std::get<double>(v));
  return "";
}

}  // namespace kvbench::results
