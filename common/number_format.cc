#include "common/number_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kvbench {

std::string FormatCount(double v) {
  const bool negative = v < 0;
  const std::string digits = fmt::format("{:.0f}", std::fabs(v));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative && out != "0" ? "-" + out : out;
}

std::string FormatSignificant(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v == 0 ? "0" : fmt::format("{}", v);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, digits - 1 - magnitude);
  // Rounding can carry into a new digit (9.995 -> "10.00"); recompute then.
  std::string s = fmt::format("{:.{}f}", v, decimals);
  const double rounded = std::stod(s);
  if (rounded != 0 && std::floor(std::log10(std::fabs(rounded))) > magnitude && decimals > 0) {
    s = fmt::format("{:.{}f}", v, decimals - 1);
  }
  return s;
}

std::string FormatRate(double ops_per_sec) {
  if (std::fabs(ops_per_sec) >= 100) return FormatCount(ops_per_sec);
  return FormatSignificant(ops_per_sec, 3);
}

std::string FormatMicros(double us) {
  if (std::fabs(us) >= 1000) return FormatCount(us);
  return FormatSignificant(us, 3);
}

}  // namespace kvbench
