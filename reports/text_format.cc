#include "reports/text_format.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace kvbench::reports {

std::string FormatBytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024 && unit < 5) {
    v /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{:.0f} B", v);
  // 1023.9 KiB would print as "1,024 KiB": show it in the next unit instead.
  std::string num = FormatSignificant(v, 3);
  if (num == "1024" && unit < 5) return fmt::format("1.00 {}", kUnits[unit + 1]);
  return num + " " + kUnits[unit];
}

std::string FormatSeconds(double seconds) {
  const double a = std::fabs(seconds);
  if (a == 0) return "0 s";
  if (a >= 1) return FormatSignificant(seconds, 3) + " s";
  if (a >= 1e-3) return FormatSignificant(seconds * 1e3, 3) + " ms";
  return FormatSignificant(seconds * 1e6, 3) + " µs";
}

std::string FormatRatio(double ratio) { return FormatSignificant(ratio, 3) + "×"; }

std::string FormatChange(double ratio) {
  const double pct = (ratio - 1) * 100;
  return fmt::format("{}{:.1f}%", pct >= 0 ? "+" : "", pct);
}

std::string FormatExact(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return fmt::format("{:.0f}", v);
  }
  return fmt::format("{}", v);
}

std::string FormatTarget(double target_ops) {
  if (target_ops <= 0) return "unthrottled";
  return FormatRate(target_ops) + "/s";
}

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string MarkdownEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto is_word = [&](size_t i) {
    return i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\\':
      case '|':
      case '*':
      case '`':
      case '[':
      case ']':
        out += '\\';
        out += c;
        break;
      case '#':  // only a line-leading # makes a heading
        out += i == 0 ? "\\#" : "#";
        break;
      case '_':
        // GitHub leaves intraword underscores alone ("get_cold"); only an
        // underscore at a word edge can open or close emphasis.
        if (i > 0 && is_word(i - 1) && is_word(i + 1)) {
          out += c;
        } else {
          out += "\\_";
        }
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\r':
        break;
      case '\n':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string MarkdownCode(std::string_view text) {
  // The fence must be longer than the longest run of backticks inside.
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string clean;
  for (char c : text) clean += (c == '\n' || c == '\r' || c == '|') ? ' ' : c;
  const std::string fence(longest + 1, '`');
  const bool pad = !clean.empty() && (clean.front() == '`' || clean.back() == '`');
  return fence + (pad ? " " : "") + clean + (pad ? " " : "") + fence;
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvTextField(std::string_view text) {
  // OWASP's list: a formula starts with one of these; tab and CR too, as
  // some spreadsheets skip them before looking.
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) {
    return CsvField("'" + std::string(text));
  }
  return CsvField(text);
}

}  // namespace kvbench::reports
