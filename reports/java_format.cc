#include "reports/java_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kvbench::reports {

namespace {

// The shortest round-trip digits of |v| > 0 and its decimal exponent:
// |v| = d0.d1d2... x 10^exponent.
void ShortestDigits(double v, std::string* digits, int* exponent) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  const std::string text(buf, r.ptr);  // "1.2345e+07" or "5e-04"
  const size_t e = text.find('e');
  digits->clear();
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits->push_back(text[i]);
  }
  *exponent = std::atoi(text.c_str() + e + 1);
}

}  // namespace

std::string JavaDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + "0.0";
  std::string digits;
  int exponent = 0;
  ShortestDigits(v, &digits, &exponent);
  const double a = std::fabs(v);
  if (a >= 1e-3 && a < 1e7) {
    std::string out;
    if (exponent < 0) {
      out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else {
      const size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= int_digits) {
        out = digits + std::string(int_digits - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, int_digits) + "." + digits.substr(int_digits);
      }
    }
    return sign + out;
  }
  const std::string fraction = digits.size() > 1 ? digits.substr(1) : "0";
  return sign + digits.substr(0, 1) + "." + fraction + "E" + std::to_string(exponent);
}

std::string JavaFixed(double v, int decimals) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  const bool negative = std::signbit(v) && v != 0;
  std::string digits;
  int exponent = 0;
  if (v == 0) {
    digits = "0";
  } else {
    ShortestDigits(v, &digits, &exponent);
  }
  // The decimal digits of |v| aligned so the point sits after `point` of them.
  int point = exponent + 1;
  if (point <= 0) {
    digits.insert(0, static_cast<size_t>(1 - point), '0');
    point = 1;
  }
  const size_t keep = static_cast<size_t>(point + decimals);
  if (digits.size() < keep) digits.append(keep - digits.size(), '0');
  if (digits.size() > keep) {
    const bool up = digits[keep] >= '5';
    digits.resize(keep);
    for (size_t i = keep; up && i-- > 0;) {
      if (digits[i] == '9') {
        digits[i] = '0';
        if (i == 0) {
          digits = std::string(1, '1') + digits;
          ++point;
        }
      } else {
        ++digits[i];
        break;
      }
    }
  }
  std::string out = negative ? "-" : "";
  out.append(digits, 0, static_cast<size_t>(point));
  if (decimals > 0) {
    out.push_back('.');
    out.append(digits, static_cast<size_t>(point));
  }
  return out;
}

std::string JavaFixed(double v, int decimals, int width) {
  std::string s = JavaFixed(v, decimals);
  if (static_cast<int>(s.size()) < width) s.insert(0, static_cast<size_t>(width) - s.size(), ' ');
  return s;
}

}  // namespace kvbench::reports
