// CanonicalCommandLine (cli.h): the command as run, for results.json; and the
// checked ranges of every option (ApplyInputBounds).
#include "app/cli.h"

#include <fmt/core.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "runner/workload.h"

namespace kvbench::app {

namespace {

// A range for one numeric option; `exclusive_min`: the value must exceed min.
struct NumberBound {
  const char* name;  // the option's long name ("--count")
  bool whole;        // digits only (an unsigned or counted option)
  double min, max;
  bool exclusive_min = false;
  const char* unit = "";  // for the message ("seconds")
};

// The stated bounds of every numeric option, by name across commands (the
// same name means the same quantity in every command). Upper bounds keep a
// run finite: a count or repetition beyond them is a typo, not a plan.
constexpr NumberBound kNumberBounds[] = {
    // gen: keys printed or counted; --stats holds them all, 10^9 is minutes.
    {"--count", true, 0, 1e9},
    {"--seed", true, 0, 18446744073709551615.0},
    {"--repeat", true, 1, runner::kMaxRepetitions},
    {"--forks", true, 1, runner::kMaxForks},
    {"--warmup-repetitions", true, 0, runner::kMaxWarmupRepetitions},
    {"--trials", true, 1, 1e6},
    {"--max-commits", true, 1, 1e8},
    // kvbench crash: threads committing at once, each with a session.
    {"--writers", true, 1, 64},
    // 0 passes here for `slurm`'s own "at least 1" (validate's CLI::Range says so too).
    {"--shards", true, 0, 1e5},
    {"--permutations", true, 1, 1e6},
    {"--min-segment", true, 1, 1e6},
    {"--last", true, 1, 1e6},
    // Every count is multiplied by it (runner/workload.h states both bounds).
    {"--scale", false, 0, runner::kMaxScale, true},
    {"--timeout", false, 0, runner::kMaxTimeoutS, true, " seconds"},
    {"--min-effect", false, 0, 100, false, " percent"},
    {"--confidence", false, 0, 1},
    {"--fail-on-regression", false, 0, 1e6, false, " percent"},
    {"--max-p", false, 0, 1},
};

// A control character in a value is never meant: in a path it hides what is
// written where, in a name it breaks the lines it is printed on.
std::string TextProblem(const std::string& text) {
  if (text.empty()) return "an empty value";
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      return fmt::format("the value holds a control character (byte 0x{:02x})", c);
    }
  }
  return "";
}

std::string FormatBound(double v) {
  if (v == 18446744073709551615.0) return "2^64-1";
  return fmt::format("{}", v);
}

CLI::Validator NumberValidator(const NumberBound& b) {
  return CLI::Validator(
      [b](std::string& text) -> std::string {
        if (std::string problem = TextProblem(text); !problem.empty()) return problem;
        const std::string range = fmt::format(
            fmt::runtime(b.exclusive_min ? "{} above {} and at most {}{}" : "{} from {} to {}{}"),
            b.whole ? "a whole number" : "a number", FormatBound(b.min), FormatBound(b.max),
            b.unit);
        const std::string bad = "'" + text + "' is not " + range;
        if (b.whole) {
          // No sign, no exponent: CLI11 would wrap "-1" to 2^64-1.
          if (text.empty() || text.size() > 20 ||
              text.find_first_not_of("0123456789") != std::string::npos) {
            return bad;
          }
          errno = 0;
          const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
          if (errno == ERANGE || static_cast<double>(v) < b.min ||
              static_cast<long double>(v) > static_cast<long double>(b.max)) {
            return bad;
          }
          return "";
        }
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v > b.max ||
            v < b.min || (b.exclusive_min && v == b.min)) {
          return bad;
        }
        return "";
      },
      "", "bounded number");
}

CLI::Validator TextValidator() {
  return CLI::Validator([](std::string& text) { return TextProblem(text); }, "", "text");
}

// --engines a,b: every item named, none twice (a repeated engine would run,
// and be ranked, twice).
CLI::Validator EngineListValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (std::string problem = TextProblem(text); !problem.empty()) return problem;
        std::set<std::string> seen;
        // Split by hand: CLI::detail::split drops a trailing empty item.
        std::vector<std::string> items(1);
        for (char ch : text) {
          if (ch == ',') {
            items.emplace_back();
          } else {
            items.back().push_back(ch);
          }
        }
        for (const std::string& item : items) {
          if (item.empty() || item.find_first_not_of(" \t") == std::string::npos) {
            return "'" + text + "' has an empty engine name";
          }
          if (!seen.insert(item).second) return "'" + text + "' names '" + item + "' twice";
        }
        return "";
      },
      "", "engine list");
}

CLI::Validator DateValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (IsIsoDateTime(text)) return "";
        if (std::string problem = TextProblem(text); !problem.empty()) return problem;
        return "'" + text + "' is not a date (YYYY-MM-DD, optionally THH:MM[:SS][Z])";
      },
      "", "date");
}

// Text options whose values have a shape of their own.
const std::map<std::string, CLI::Validator (*)()> kTextShapes = {
    {"--engines", EngineListValidator},
    {"--since", DateValidator},
};

void ApplyTo(CLI::App& app, const std::string& path, std::vector<std::string>* unbounded) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_items_expected_max() == 0) continue;  // a flag
    const std::string name = option->get_name();
    if (name == "--help" || name == "--version") continue;
    const std::string type = option->get_type_name();
    const std::string base = type.substr(0, type.find(':'));
    if (base == "INT" || base == "UINT" || base == "FLOAT") {
      const NumberBound* bound = nullptr;
      for (const NumberBound& b : kNumberBounds) {
        if (name == b.name) bound = &b;
      }
      if (bound == nullptr) {
        unbounded->push_back(path + " " + name);
      } else {
        option->check(NumberValidator(*bound));
      }
      continue;
    }
    const auto shape = kTextShapes.find(name);
    option->check(shape != kTextShapes.end() ? shape->second() : TextValidator());
  }
  for (CLI::App* sub : app.get_subcommands({})) {
    ApplyTo(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), unbounded);
  }
}

bool LeapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Reads exactly `n` digits at text[*at].
bool Digits(const std::string& text, size_t* at, size_t n, int* out) {
  if (*at + n > text.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = text[*at + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *at += n;
  *out = v;
  return true;
}

}  // namespace

std::vector<std::string> ApplyInputBounds(CLI::App& app) {
  std::vector<std::string> unbounded;
  ApplyTo(app, "", &unbounded);
  return unbounded;
}

bool IsIsoDateTime(const std::string& text) {
  size_t at = 0;
  int year = 0, month = 0, day = 0;
  if (!Digits(text, &at, 4, &year) || at >= text.size() || text[at++] != '-' ||
      !Digits(text, &at, 2, &month) || at >= text.size() || text[at++] != '-' ||
      !Digits(text, &at, 2, &day)) {
    return false;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return false;
  const int days = kDays[month - 1] + (month == 2 && LeapYear(year) ? 1 : 0);
  if (day < 1 || day > days) return false;
  if (at == text.size()) return true;
  if (text[at] != 'T' && text[at] != ' ') return false;
  ++at;
  int hour = 0, minute = 0, second = 0;
  if (!Digits(text, &at, 2, &hour) || hour > 23 || at >= text.size() || text[at++] != ':' ||
      !Digits(text, &at, 2, &minute) || minute > 59) {
    return false;
  }
  if (at < text.size() && text[at] == ':') {
    ++at;
    if (!Digits(text, &at, 2, &second) || second > 60) return false;  // 60: a leap second
    if (at < text.size() && text[at] == '.') {
      const size_t start = ++at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
      if (at == start) return false;
    }
  }
  if (at == text.size()) return true;
  if (text[at] == 'Z') return at + 1 == text.size();
  if (text[at] != '+' && text[at] != '-') return false;
  ++at;
  int oh = 0, om = 0;
  return Digits(text, &at, 2, &oh) && oh <= 23 && at < text.size() && text[at++] == ':' &&
         Digits(text, &at, 2, &om) && om <= 59 && at == text.size();
}

std::string CanonicalCommandLine(const CLI::App& cmd, const std::string& positional) {
  std::string line = "kvbench " + cmd.get_name();
  for (const std::string& p : cmd.get_option(positional)->results()) line += " " + p;
  for (const CLI::Option* option : cmd.get_options()) {
    if (option->get_name() == positional || option->count() == 0) continue;
    if (option->get_items_expected_max() == 0) {  // a flag
      line += " " + option->get_name();
      continue;
    }
    // An option whose value may be omitted (run's --history) shows bare.
    if (option->results().empty()) line += " " + option->get_name();
    for (const std::string& v : option->results()) {
      line += " " + option->get_name() + (v.empty() ? "" : " " + v);
    }
  }
  return line;
}

}  // namespace kvbench::app
