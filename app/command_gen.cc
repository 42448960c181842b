// `kvbench gen DATASET [--count N] [--seed S] [--param k=v ...] [--stats]`:
// prints a dataset's keys, or its statistics, so a user can see what a
// workload will store before running it.
//
// Keys print one a line, shown by what they encode:
//   text kinds (urls, paths, ycsb, numbered, file): the bytes, with a
//     backslash written "\\" and any byte outside printable ASCII as "\xHH";
//   sequential, random-int: the unsigned integer in decimal;
//   timestamp: the UTC time, ISO 8601 ("1970-01-01T00:00:07Z").
// Absent binary keys (one extra 0x00 byte) print escaped, and --hex prints
// every key as plain hex bytes.
//
// --stats prints "name: value" lines: count, distinct, average/min/max
// length and the front-coded ratio as datasets/key_stats.h defines it.
//
// Bad input (unknown dataset or option, unreadable key file) prints one line
// on stderr and exits with kExitBadInput.
#include <fmt/core.h>

#include <cstdio>
#include <ctime>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "common/strings.h"
#include "datasets/key_generator.h"
#include "datasets/key_stats.h"
#include "app/cli.h"

namespace kvbench::app {

namespace {

struct GenOptions {
  std::string dataset;
  uint64_t count = 0;
  uint64_t seed = 1;
  std::vector<std::string> params;
  bool stats = false;
  bool absent = false;
  bool hex = false;
  bool list = false;
};

void AppendEscaped(std::string_view key, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned char c : key) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c >= 0x20 && c < 0x7f) {
      out->push_back(static_cast<char>(c));
    } else {
      out->append("\\x");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    }
  }
}

// `absent`: absent binary keys carry an extra 0x00 byte and print escaped.
void AppendForDisplay(datasets::KeyEncoding encoding, bool absent, std::string_view key,
                      std::string* out) {
  using datasets::KeyEncoding;
  if (encoding == KeyEncoding::kText || absent || key.size() > 8 || key.empty()) {
    AppendEscaped(key, out);
    return;
  }
  uint64_t v = 0;
  for (unsigned char c : key) v = (v << 8) | c;
  if (encoding == KeyEncoding::kBigEndianUnsigned) {
    fmt::format_to(std::back_inserter(*out), "{}", v);
    return;
  }
  // kEpochSeconds: years beyond gmtime's range fall back to the number.
  const std::time_t t = static_cast<std::time_t>(v);
  std::tm tm{};
  char text[64];
  if (v <= 253402300799ULL && gmtime_r(&t, &tm) != nullptr &&
      std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0) {
    out->append(text);
  } else {
    fmt::format_to(std::back_inserter(*out), "{}", v);
  }
}

int ListDatasets() {
  for (const datasets::DatasetKind& kind : datasets::DatasetKinds()) {
    fmt::print("{:<11} {}\n", kind.name, kind.description);
    for (const datasets::ParamSpec& p : kind.params) {
      fmt::print("    {:<26} {}\n", p.name + "=" + p.default_value, p.help);
    }
  }
  return kExitOk;
}

int PrintKeys(const datasets::KeyGenerator& generator, uint64_t count, const GenOptions& o) {
  std::string key, buffer;
  key.reserve(generator.max_length());
  for (uint64_t i = 0; i < count; ++i) {
    if (o.absent) {
      generator.AbsentKey(i, &key);
    } else {
      generator.Key(i, &key);
    }
    if (o.hex) {
      AppendHex(key, &buffer);
    } else {
      AppendForDisplay(generator.encoding(), o.absent, key, &buffer);
    }
    buffer.push_back('\n');
    if (buffer.size() >= (1 << 16) || i + 1 == count) {
      if (std::fwrite(buffer.data(), 1, buffer.size(), stdout) != buffer.size()) {
        return kExitFailure;  // stdout closed (e.g. piped into head): stop quietly
      }
      buffer.clear();
    }
  }
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

int PrintStats(const datasets::KeyGenerator& generator, uint64_t count, const GenOptions& o) {
  const datasets::KeySetStats s = datasets::ComputeKeySetStats(generator, count, o.absent);
  fmt::print("dataset: {}\n", generator.kind());
  fmt::print("seed: {}\n", generator.seed());
  for (const auto& [name, value] : generator.params().values()) {
    fmt::print("param.{}: {}\n", name, value);
  }
  fmt::print("count: {}\n", s.count);
  fmt::print("distinct: {}\n", s.distinct);
  fmt::print("average_length: {:.2f}\n", s.average_length);
  fmt::print("min_length: {}\n", s.min_length);
  fmt::print("max_length: {}\n", s.max_length);
  fmt::print("front_coded_ratio: {:.4f}\n", s.front_coded_ratio);
  return kExitOk;
}

int RunGen(const GenOptions& o) {
  if (o.list) return ListDatasets();
  if (o.dataset.empty()) {
    fmt::print(stderr, "kvbench gen: name a dataset (kvbench gen --list shows them)\n");
    return kExitBadInput;
  }
  datasets::DatasetSpec spec;
  spec.kind = o.dataset;
  spec.count = o.count;
  spec.seed = o.seed;
  for (const std::string& assignment : o.params) {
    std::string name, value;
    const Status s = datasets::ParseParamAssignment(assignment, &name, &value);
    if (!s.ok()) {
      fmt::print(stderr, "kvbench gen: {}\n", s.message());
      return kExitBadInput;
    }
    spec.params[name] = value;
  }
  std::unique_ptr<datasets::KeyGenerator> generator;
  const Status s = datasets::NewKeyGenerator(spec, &generator);
  if (!s.ok()) {
    fmt::print(stderr, "kvbench gen: {}\n", s.message());
    return kExitBadInput;
  }
  const uint64_t count = generator->count();
  return o.stats ? PrintStats(*generator, count, o) : PrintKeys(*generator, count, o);
}

}  // namespace

void AddGenCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<GenOptions>();
  auto* cmd = app.add_subcommand(
      "gen", "Print a dataset's keys (one a line) or, with --stats, its statistics");
  cmd->footer("Example: kvbench gen urls --count 1000000 --stats");
  cmd->add_option("dataset", o->dataset,
                  "urls, paths, sequential, timestamp, random-int, ycsb, numbered or file");
  cmd->add_option("-n,--count", o->count,
                  "Keys to make (default: the dataset's 1,000,000; every line for file)");
  cmd->add_option("-s,--seed", o->seed, "Seed (default 1): the same seed gives the same keys");
  cmd->add_option("-p,--param", o->params, "Dataset option as name=value (repeatable)");
  cmd->add_flag("--stats", o->stats,
                "Print count, distinct count, lengths and front-coded ratio instead of keys");
  cmd->add_flag("--absent", o->absent, "Use the dataset's absent keys (guaranteed misses)");
  cmd->add_flag("--hex", o->hex, "Print every key as hex bytes");
  cmd->add_flag("--list", o->list, "List the datasets and their options");
  cmd->callback([exit_code, o] { *exit_code = RunGen(*o); });
}

}  // namespace kvbench::app
