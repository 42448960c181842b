#include "common/parse.h"

#include <charconv>
#include <limits>

#include "common/strings.h"

namespace kvbench {

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return false;
  *out = v;
  return true;
}

bool ParseBool(std::string_view text, bool* out) {
  const std::string t = ToLower(text);
  if (t == "true" || t == "on" || t == "1" || t == "yes") {
    *out = true;
    return true;
  }
  if (t == "false" || t == "off" || t == "0" || t == "no") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseBytes(std::string_view text, uint64_t* out) {
  if (text.empty()) return false;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr == text.data()) return false;
  std::string suffix = ToLower(std::string_view(ptr, text.data() + text.size() - ptr));
  if (!suffix.empty() && suffix.back() == 'b') suffix.pop_back();   // "MiB", "MB", "B"
  if (!suffix.empty() && suffix.back() == 'i') suffix.pop_back();   // "Mi"
  int shift = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "k") shift = 10;
  else if (suffix == "m") shift = 20;
  else if (suffix == "g") shift = 30;
  else if (suffix == "t") shift = 40;
  else return false;
  if (shift > 0 && v > (std::numeric_limits<uint64_t>::max() >> shift)) return false;
  *out = v << shift;
  return true;
}

}  // namespace kvbench
