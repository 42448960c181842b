// Workload file parser: TOML to Workload, with one precise message per error.
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "common/input_file.h"
#include "runner/workload.h"

namespace kvbench::runner {

namespace {

// Collects the first error with its position; later checks become no-ops.
class Checker {
 public:
  explicit Checker(std::string file) : file_(std::move(file)) {}

  bool Fail(const toml::source_region& where, const std::string& field, const std::string& msg) {
    if (!error_.empty()) return false;
    error_ = file_ + ":" + std::to_string(where.begin.line) + ":" +
             std::to_string(where.begin.column) + ": field '" + field + "': " + msg;
    return false;
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // Every key of `table` must be in `known`.
  void OnlyKnownKeys(const toml::table& table, const std::string& prefix,
                     const std::set<std::string>& known) {
    for (const auto& [key, node] : table) {
      if (!known.contains(std::string(key.str()))) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        Fail(key.source(), prefix + std::string(key.str()), "unknown key (known: " + list + ")");
        return;
      }
    }
  }

  bool String(const toml::table& t, const std::string& prefix, const char* key, std::string* out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return false;
    if (!n->is_string()) return Fail(n->source(), prefix + key, "must be a string");
    *out = n->as_string()->get();
    return true;
  }

  // An integer in [min, max]; every caller states its max (workload.h).
  bool Integer(const toml::table& t, const std::string& prefix, const char* key, int64_t min,
               int64_t max, int64_t* out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return false;
    if (!n->is_integer()) return Fail(n->source(), prefix + key, "must be an integer");
    const int64_t v = n->as_integer()->get();
    if (v < min || v > max) {
      return Fail(n->source(), prefix + key,
                  "must be from " + std::to_string(min) + " to " + std::to_string(max));
    }
    *out = v;
    return true;
  }

  // A finite number in [min, max] (TOML allows nan and inf; neither is a
  // count, a time or a rate).
  bool Number(const toml::table& t, const std::string& prefix, const char* key, double min,
              double max, double* out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return false;
    if (!n->is_number()) return Fail(n->source(), prefix + key, "must be a number");
    const double v = n->is_integer() ? static_cast<double>(n->as_integer()->get())
                                     : n->as_floating_point()->get();
    if (!std::isfinite(v) || v < min || v > max) {
      return Fail(n->source(), prefix + key,
                  "must be a number from " + Format(min) + " to " + Format(max));
    }
    *out = v;
    return true;
  }

  // A name printed in reports and used for files: 1 to kMaxNameBytes bytes,
  // no control character (a newline would end the line it is printed on, or
  // a line of a generated script).
  bool Name(const toml::table& t, const std::string& prefix, const char* key, std::string* out) {
    std::string v;
    if (!String(t, prefix, key, &v)) return false;
    const toml::source_region& where = t.get(key)->source();
    if (v.empty() || v.size() > kMaxNameBytes) {
      return Fail(where, prefix + key,
                  "must be 1 to " + std::to_string(kMaxNameBytes) + " bytes long");
    }
    for (size_t i = 0; i < v.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(v[i]);
      if (c < 0x20 || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", c);
        return Fail(where, prefix + key,
                    "holds a control character (byte " + std::string(hex) + " at offset " +
                        std::to_string(i) + ")");
      }
    }
    *out = std::move(v);
    return true;
  }

  bool Bool(const toml::table& t, const std::string& prefix, const char* key, bool* out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return false;
    if (!n->is_boolean()) return Fail(n->source(), prefix + key, "must be true or false");
    *out = n->as_boolean()->get();
    return true;
  }

  // A scalar or a list of scalars, each checked by `one`.
  template <typename T, typename One>
  bool ScalarOrList(const toml::table& t, const std::string& prefix, const char* key,
                    std::vector<T>* out, One one) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return false;
    std::vector<T> values;
    if (const toml::array* arr = n->as_array()) {
      if (arr->empty()) return Fail(n->source(), prefix + key, "must not be an empty list");
      for (const toml::node& item : *arr) {
        T v;
        if (!one(item, &v)) return false;
        values.push_back(v);
      }
    } else {
      T v;
      if (!one(*n, &v)) return false;
      values.push_back(v);
    }
    *out = std::move(values);
    return true;
  }

  // Any scalar as text (for dataset, value and engine options).
  bool ScalarText(const toml::node& n, const std::string& field, std::string* out) {
    if (n.is_string()) *out = n.as_string()->get();
    else if (n.is_integer()) *out = std::to_string(n.as_integer()->get());
    else if (n.is_floating_point()) *out = Format(n.as_floating_point()->get());
    else if (n.is_boolean()) *out = n.as_boolean()->get() ? "true" : "false";
    else return Fail(n.source(), field, "must be a string, number or boolean");
    return true;
  }

  static std::string Format(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

 private:
  std::string file_;
  std::string error_;
};

// Which PhaseField bit each phase key belongs to (keys not listed apply to
// every operation: name, op, repetitions, cache, reopen, dataset, fresh).
const std::map<std::string, uint32_t> kFieldOfKey = {
    {"count", kFieldCount},        {"duration", kFieldCount},
    {"batch", kFieldBatch},        {"warmup", kFieldWarmup},
    {"keys", kFieldKeys},          {"distribution", kFieldDistribution},
    {"distribution_params", kFieldDistribution},
    {"sync", kFieldSync},          {"order", kFieldOrder},
    {"limit", kFieldLimit},        {"direction", kFieldDirection},
    {"values", kFieldDirection},   {"from", kFieldFromTo},
    {"to", kFieldFromTo},          {"skip", kFieldSkip},
    {"proportions", kFieldProportions},
    {"threads", kFieldThreads},    {"target", kFieldThreads},
    {"table_per_thread", kFieldThreads},  {"pacing", kFieldThreads},
    {"schema", kFieldRecord},      {"table", kFieldRecord},
    {"field", kFieldField},        {"value", kFieldValue},
    {"set", kFieldSet},            {"read_back", kFieldSet},
    {"delete_after", kFieldDeleteAfter}};

// Reads an optional string field naming one of an enum's values.
template <typename E>
void Choice(Checker& c, const toml::table& t, const std::string& prefix, const char* key,
            const char* expected, E* out) {
  std::string text;
  if (c.String(t, prefix, key, &text) && !Parse(text, out)) {
    c.Fail(t.get(key)->source(), prefix + key, std::string("must be ") + expected);
  }
}

// Reads `op` and checks the phase's keys against it: every key known, and
// each op-specific one taken by this op. False when the phase can be read no
// further (the error is in c).
bool ReadPhaseOp(Checker& c, const toml::table& t, const std::string& prefix, PhaseSpec* p,
                 std::string* op_name) {
  c.OnlyKnownKeys(t, prefix,
                  {"name", "op", "count", "duration", "batch", "warmup", "repetitions", "threads",
                   "target", "cache", "keys", "distribution", "distribution_params", "sync",
                   "reopen", "table_per_thread", "pacing", "order", "limit", "direction", "values", "from", "to", "skip",
                   "proportions", "dataset", "fresh", "schema", "table", "field", "value", "set", "read_back",
                   "delete_after"});
  if (!c.String(t, prefix, "op", op_name) && c.ok()) {
    c.Fail(t.source(), prefix + "op", "missing (one of " + PhaseOpNames() + ")");
  }
  if (c.ok() && !ParsePhaseOp(*op_name, &p->op)) {
    c.Fail(t.get("op")->source(), prefix + "op",
           "unknown operation '" + *op_name + "' (known: " + PhaseOpNames() + ")");
  }
  if (!c.ok()) return false;
  const PhaseOpInfo& info = InfoOf(p->op);
  for (const auto& [key, node] : t) {
    const auto it = kFieldOfKey.find(std::string(key.str()));
    if (it == kFieldOfKey.end()) continue;
    p->given_fields |= it->second;
    if ((info.fields & it->second) == 0) {
      c.Fail(node.source(), prefix + std::string(key.str()),
             "does not apply to op '" + *op_name + "'");
      return false;
    }
  }
  return true;
}

// The phase's name: `name`, else op-index.
void ReadPhaseName(Checker& c, const toml::table& t, const std::string& prefix, size_t index,
                   const std::string& op_name, const Workload& w, PhaseSpec* p) {
  p->name = op_name + "-" + std::to_string(index);
  c.Name(t, prefix, "name", &p->name);
  // Results, reports and history key figures by phase name: two phases of
  // one name would overwrite each other's rows and files.
  for (const PhaseSpec& earlier : w.phases) {
    if (c.ok() && earlier.name == p->name) {
      const toml::node* n = t.get("name");
      c.Fail(n != nullptr ? n->source() : t.source(), prefix + "name",
             "'" + p->name + "' is already the name of the phase at line " +
                 std::to_string(earlier.line));
    }
  }
}

// The lists the phase's matrix expands: threads, target rates, cache states.
void ReadPhaseMatrix(Checker& c, const toml::table& t, const std::string& prefix, PhaseSpec* p) {
  c.ScalarOrList<int>(t, prefix, "threads", &p->threads, [&](const toml::node& n, int* out) {
    if (!n.is_integer() || n.as_integer()->get() < 1 || n.as_integer()->get() > 1024) {
      return c.Fail(n.source(), prefix + "threads", "must be an integer from 1 to 1024");
    }
    *out = static_cast<int>(n.as_integer()->get());
    return true;
  });
  c.ScalarOrList<double>(t, prefix, "target", &p->targets, [&](const toml::node& n, double* out) {
    const double v = n.is_integer() ? static_cast<double>(n.as_integer()->get())
                     : n.is_floating_point() ? n.as_floating_point()->get() : -1;
    if (!n.is_number() || !std::isfinite(v) || v < 0 || v > kMaxTargetOpsPerSec) {
      return c.Fail(n.source(), prefix + "target",
                    "must be a number of ops/s from 0 to " + Checker::Format(kMaxTargetOpsPerSec) +
                        " (0 = unthrottled)");
    }
    *out = v;
    return true;
  });
  c.ScalarOrList<CacheState>(t, prefix, "cache", &p->caches,
                             [&](const toml::node& n, CacheState* out) {
    if (!n.is_string() || !Parse(n.as_string()->get(), out) || *out == CacheState::kAsIs) {
      return c.Fail(n.source(), prefix + "cache", "must be \"cold\" or \"hot\"");
    }
    return true;
  });
}

// A mix's `proportions = { read = 0.5, update = 0.5 }` (node n).
void ReadProportions(Checker& c, const toml::node& n, const std::string& prefix, PhaseSpec* p) {
  const toml::table* pt = n.as_table();
  if (pt == nullptr) {
    c.Fail(n.source(), prefix + "proportions", "must be a table like { read = 0.5, update = 0.5 }");
    return;
  }
  c.OnlyKnownKeys(*pt, prefix + "proportions.", {"read", "update", "insert", "scan", "rmw"});
  for (const auto& [k, v] : *pt) {
    double d = 0;
    const std::string key(k.str());
    if (!v.is_number()) {
      c.Fail(v.source(), prefix + "proportions." + key, "must be a number");
      break;
    }
    d = v.is_integer() ? static_cast<double>(v.as_integer()->get()) : v.as_floating_point()->get();
    if (!std::isfinite(d) || d < 0 || d > kMaxProportion) {
      c.Fail(v.source(), prefix + "proportions." + key,
             "must be a number from 0 to " + Checker::Format(kMaxProportion));
    }
    p->proportions[key] = d;
  }
}

// The phase's own dataset, `dataset = { kind = "timestamp", count = 1000 }` (node n).
void ReadPhaseDataset(Checker& c, const toml::node& n, const std::string& prefix, PhaseSpec* p) {
  const toml::table* d = n.as_table();
  if (d == nullptr) {
    c.Fail(n.source(), prefix + "dataset", "must be a table like { kind = \"timestamp\", count = 1000 }");
    return;
  }
  if (!c.String(*d, prefix + "dataset.", "kind", &p->dataset_kind) && c.ok()) {
    c.Fail(n.source(), prefix + "dataset.kind", "missing");
  }
  for (const auto& [k, v] : *d) {
    std::string text;
    if (k.str() != "kind" && c.ScalarText(v, prefix + "dataset." + std::string(k.str()), &text)) {
      p->dataset_params[std::string(k.str())] = text;
    }
  }
  int64_t count = 0;
  if (!c.Integer(*d, prefix + "dataset.", "count", 1, static_cast<int64_t>(kMaxCount), &count) &&
      c.ok()) {
    c.Fail(n.source(), prefix + "dataset.count", "missing (number of keys)");
  }
}

// The record phases' keys: schema, table, field, value, set, read_back, delete_after.
void ReadRecordFields(Checker& c, const toml::table& t, const std::string& prefix, PhaseSpec* p) {
  c.String(t, prefix, "schema", &p->schema);
  if (c.String(t, prefix, "table", &p->table)) {
    const bool valid = !p->table.empty() && p->table.size() <= 64 &&
                       p->table.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                           std::string::npos;
    if (!valid) c.Fail(t.get("table")->source(), prefix + "table", "must be 1-64 letters, digits or _");
  }
  int64_t i64 = 0;
  if (c.Integer(t, prefix, "field", 0, kMaxRecordField, &i64)) p->field = static_cast<uint32_t>(i64);
  if (const toml::node* n = t.get("value")) {
    if (!n->is_integer()) c.Fail(n->source(), prefix + "value", "must be an integer");
    else p->value = n->as_integer()->get();
  }
  Choice(c, t, prefix, "set", "new or checked", &p->set);
  c.Bool(t, prefix, "read_back", &p->read_back);
  c.Bool(t, prefix, "delete_after", &p->delete_after);
}

// Checks between fields, once every field has been read.
void CheckPhaseFields(Checker& c, const toml::table& t, const std::string& prefix,
                      const PhaseSpec& p) {
  const PhaseOpInfo& info = InfoOf(p.op);
  const bool counted = (info.fields & kFieldCount) != 0;
  if (info.shape == PhaseShape::kRecord && p.duration_s > 0) {
    c.Fail(t.get("duration")->source(), prefix + "duration", "record phases take a count");
  }
  if (counted && p.count == 0 && p.duration_s <= 0) {
    c.Fail(t.source(), prefix + "count", "give count >= 1 (or a duration in seconds)");
  }
  if (p.op == PhaseOp::kMix) {
    double sum = 0;
    for (const auto& [k, v] : p.proportions) sum += v;
    if (sum <= 0) c.Fail(t.source(), prefix + "proportions", "a mix needs proportions summing to > 0");
  }
  if (p.op == PhaseOp::kRange && !(p.from < p.to && p.to <= 1)) {
    c.Fail(t.source(), prefix + "from", "range needs 0 <= from < to <= 1");
  }
}

void ParsePhase(Checker& c, const toml::table& t, size_t index, Workload* w) {
  PhaseSpec p;
  const std::string prefix = "phase[" + std::to_string(index) + "].";
  p.line = static_cast<int>(t.source().begin.line);
  std::string op_name;
  if (!ReadPhaseOp(c, t, prefix, &p, &op_name)) return;
  ReadPhaseName(c, t, prefix, index, op_name, *w, &p);

  constexpr auto kCount = static_cast<int64_t>(kMaxCount);
  int64_t i64 = 0;
  if (c.Integer(t, prefix, "count", 0, kCount, &i64)) p.count = static_cast<uint64_t>(i64);
  c.Number(t, prefix, "duration", 0, kMaxDurationS, &p.duration_s);
  if (c.Integer(t, prefix, "batch", 1, static_cast<int64_t>(kMaxBatch), &i64)) {
    p.batch = static_cast<uint64_t>(i64);
  }
  if (c.Integer(t, prefix, "warmup", 0, kCount, &i64)) p.warmup = static_cast<uint64_t>(i64);
  if (c.Integer(t, prefix, "repetitions", 1, kMaxRepetitions, &i64)) {
    p.repetitions = static_cast<int>(i64);
  }
  if (p.repetitions == 0) p.repetitions = w->default_repetitions;
  ReadPhaseMatrix(c, t, prefix, &p);
  Choice(c, t, prefix, "keys", "present, absent or repeat", &p.keys);
  c.String(t, prefix, "distribution", &p.distribution);
  if (const toml::table* dp = t.get_as<toml::table>("distribution_params")) {
    for (const auto& [k, v] : *dp) {
      std::string text;
      if (c.ScalarText(v, prefix + "distribution_params." + std::string(k.str()), &text)) {
        p.distribution_params[std::string(k.str())] = text;
      }
    }
  }
  Choice(c, t, prefix, "sync", "none or commit", &p.sync);
  c.Bool(t, prefix, "reopen", &p.reopen);
  c.Bool(t, prefix, "table_per_thread", &p.table_per_thread);
  Choice(c, t, prefix, "pacing", "sleep or spin", &p.pacing);
  Choice(c, t, prefix, "order", "index or shuffled", &p.order);
  if (c.Integer(t, prefix, "limit", 1, static_cast<int64_t>(kMaxScanLimit), &i64)) {
    p.limit = static_cast<uint64_t>(i64);
    p.limit_given = true;
  }
  Choice(c, t, prefix, "direction", "forward or backward", &p.direction);
  c.Bool(t, prefix, "values", &p.values);
  // Fractions of the key space.
  c.Number(t, prefix, "from", 0, 1, &p.from);
  c.Number(t, prefix, "to", 0, 1, &p.to);
  if (c.Integer(t, prefix, "skip", 0, kCount, &i64)) p.skip = static_cast<uint64_t>(i64);
  if (const toml::node* n = t.get("proportions")) ReadProportions(c, *n, prefix, &p);
  if (const toml::node* n = t.get("dataset")) ReadPhaseDataset(c, *n, prefix, &p);
  c.Bool(t, prefix, "fresh", &p.fresh);
  ReadRecordFields(c, t, prefix, &p);
  if (!c.ok()) return;
  CheckPhaseFields(c, t, prefix, p);
  w->phases.push_back(std::move(p));
}

// Where a top-level field starts, for messages about its value.
void NoteLine(Workload* w, const std::string& field, const toml::node& n) {
  w->field_lines[field] = static_cast<int>(n.source().begin.line);
}

// [measurement]: intervals, HdrHistogram logs, the operation buffer, forks,
// warm-up repetitions.
void ReadMeasurement(Checker& c, const toml::table& root, Workload* out) {
  Workload& w = *out;
  if (const toml::node* n = root.get("measurement")) {
    if (const toml::table* m = n->as_table()) {
      c.OnlyKnownKeys(*m, "measurement.", {"interval", "hdrhistogram", "op_buffer_mib", "forks",
                                           "warmup_repetitions"});
      c.Number(*m, "measurement.", "interval", 0.001, 3600, &w.measurement.interval_s);
      c.Bool(*m, "measurement.", "hdrhistogram", &w.measurement.hdrhistogram);
      double mib = 0;
      if (c.Number(*m, "measurement.", "op_buffer_mib", 0, 1 << 20, &mib)) {
        w.measurement.op_buffer_mib = mib;
      }
      int64_t forks = 0;
      if (c.Integer(*m, "measurement.", "forks", 1, kMaxForks, &forks)) {
        w.measurement.forks = static_cast<int>(forks);
      }
      int64_t warmups = 0;
      if (c.Integer(*m, "measurement.", "warmup_repetitions", 0, kMaxWarmupRepetitions, &warmups)) {
        w.measurement.warmup_repetitions = static_cast<int>(warmups);
      }
    } else {
      c.Fail(n->source(), "measurement", "must be a table");
    }
  }
}

// [dataset]: its kind, count, seed and the kind's own parameters.
void ReadDataset(Checker& c, const toml::table& root, Workload* out) {
  Workload& w = *out;
  if (const toml::node* n = root.get("dataset")) {
    if (const toml::table* d = n->as_table()) {
      c.String(*d, "dataset.", "kind", &w.dataset_kind);
      for (const auto& [k, v] : *d) {
        const std::string key(k.str());
        if (key == "kind") continue;
        std::string value;
        if (c.ScalarText(v, "dataset." + key, &value)) w.dataset_params[key] = value;
      }
      int64_t i64 = 0;
      if (c.Integer(*d, "dataset.", "count", 1, static_cast<int64_t>(kMaxCount), &i64)) {
        w.dataset_count = static_cast<uint64_t>(i64);
      }
      if (c.Integer(*d, "dataset.", "seed", 0, std::numeric_limits<int64_t>::max(), &i64)) {
        w.seed = static_cast<uint64_t>(i64);
      }
    } else {
      c.Fail(n->source(), "dataset", "must be a table");
    }
  }
}

// [values] and [options.ENGINE]: kept as text, checked by the planner.
void ReadValuesAndOptions(Checker& c, const toml::table& root, Workload* out) {
  Workload& w = *out;
  if (const toml::node* n = root.get("values")) {
    if (const toml::table* v = n->as_table()) {
      for (const auto& [k, node] : *v) {
        std::string value;
        if (c.ScalarText(node, "values." + std::string(k.str()), &value)) {
          w.value_params[std::string(k.str())] = value;
        }
      }
    } else {
      c.Fail(n->source(), "values", "must be a table");
    }
  }
  if (const toml::node* n = root.get("options")) {
    if (const toml::table* o = n->as_table()) {
      for (const auto& [engine, node] : *o) {
        NoteLine(&w, "options." + std::string(engine.str()), node);
        const toml::table* opts = node.as_table();
        if (opts == nullptr) {
          c.Fail(node.source(), "options." + std::string(engine.str()), "must be a table of options");
          continue;
        }
        for (const auto& [k, v] : *opts) {
          std::string value;
          NoteLine(&w, "options." + std::string(engine.str()) + "." + std::string(k.str()), v);
          if (c.ScalarText(v, "options." + std::string(engine.str()) + "." + std::string(k.str()),
                           &value)) {
            w.engine_options[std::string(engine.str())][std::string(k.str())] = value;
          }
        }
      }
    } else {
      c.Fail(n->source(), "options", "must be a table");
    }
  }
}

}  // namespace

Status ParseWorkload(const std::string& text, const std::string& path, Workload* out) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return Status::InvalidArgument(path + ":" + std::to_string(where.line) + ":" +
                                   std::to_string(where.column) + ": " +
                                   std::string(e.description()));
  }
  Checker c(path);
  Workload w;
  w.file = path;
  w.source = text;
  c.OnlyKnownKeys(root, "", {"name", "description", "engines", "plugins", "timeout", "repetitions",
                             "dataset", "values", "options", "phase", "measurement"});
  ReadMeasurement(c, root, &w);
  int64_t default_repetitions = 0;
  if (c.Integer(root, "", "repetitions", 1, kMaxRepetitions, &default_repetitions)) {
    w.default_repetitions = static_cast<int>(default_repetitions);
  }
  c.Name(root, "", "name", &w.name);
  c.String(root, "", "description", &w.description);
  c.Number(root, "", "timeout", 1, kMaxTimeoutS, &w.timeout_s);
  if (const toml::node* n = root.get("engines")) NoteLine(&w, "engines", *n);
  if (const toml::node* n = root.get("plugins")) NoteLine(&w, "plugins", *n);
  if (const toml::node* n = root.get("dataset")) NoteLine(&w, "dataset", *n);
  if (const toml::node* n = root.get("values")) NoteLine(&w, "values", *n);
  c.ScalarOrList<std::string>(root, "", "plugins", &w.plugins,
                              [&](const toml::node& n, std::string* s) {
    if (!n.is_string() || n.as_string()->get().empty()) {
      return c.Fail(n.source(), "plugins", "must be plugin paths or names");
    }
    *s = n.as_string()->get();
    return true;
  });
  c.ScalarOrList<std::string>(root, "", "engines", &w.engines,
                              [&](const toml::node& n, std::string* s) {
    if (!n.is_string()) return c.Fail(n.source(), "engines", "must be engine names");
    *s = n.as_string()->get();
    return true;
  });
  ReadDataset(c, root, &w);
  ReadValuesAndOptions(c, root, &w);
  if (const toml::node* n = root.get("phase")) {
    const toml::array* phases = n->as_array();
    if (phases == nullptr || !phases->is_array_of_tables()) {
      c.Fail(n->source(), "phase", "must be a list of [[phase]] tables");
    } else {
      for (size_t i = 0; i < phases->size() && c.ok(); ++i) {
        ParsePhase(c, *phases->at(i).as_table(), i, &w);
      }
    }
  }
  if (c.ok() && w.phases.empty()) c.Fail(root.source(), "phase", "a workload needs at least one [[phase]]");
  // A phase's dataset holds for the phases after it until another names one.
  for (size_t i = 1; i < w.phases.size(); ++i) {
    PhaseSpec& p = w.phases[i];
    if (p.dataset_kind.empty()) {
      p.dataset_kind = w.phases[i - 1].dataset_kind;
      p.dataset_params = w.phases[i - 1].dataset_params;
    }
  }
  if (c.ok() && w.dataset_count == 0) c.Fail(root.source(), "dataset.count", "missing (number of keys)");
  if (c.ok() && w.name.empty()) c.Fail(root.source(), "name", "missing");
  if (!c.ok()) return Status::InvalidArgument(c.error());
  *out = std::move(w);
  return Status::OK();
}

std::string Workload::Where(const std::string& field) const {
  if (const auto origin = field_origins.find(field); origin != field_origins.end()) {
    return origin->second + ": ";
  }
  const auto it = field_lines.find(field);
  if (it == field_lines.end()) return file + ": ";
  return file + ":" + std::to_string(it->second) + ": ";
}

Status LoadWorkloadFile(const std::string& path, Workload* out) {
  std::string text;
  KVBENCH_RETURN_IF_ERROR(ReadInputFile(path, kMaxWorkloadFileBytes, "workload file", &text));
  return ParseWorkload(text, path, out);
}

void ScaleWorkload(double scale, Workload* w) {
  auto scaled = [scale](uint64_t v) -> uint64_t {
    if (v == 0) return 0;
    const auto s = static_cast<uint64_t>(std::llround(static_cast<double>(v) * scale));
    return s < 1 ? 1 : s;
  };
  w->dataset_count = scaled(w->dataset_count);
  w->dataset_params["count"] = std::to_string(w->dataset_count);
  for (PhaseSpec& p : w->phases) {
    p.count = scaled(p.count);
    p.warmup = scaled(p.warmup);
    p.skip = p.skip == 0 ? 0 : scaled(p.skip);
    if (!p.dataset_kind.empty()) {
      p.dataset_params["count"] = std::to_string(scaled(std::stoull(p.dataset_params["count"])));
    }
    if (p.duration_s > 0) p.duration_s *= scale;
  }
}

}  // namespace kvbench::runner
