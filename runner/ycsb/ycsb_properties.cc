#include "runner/ycsb/ycsb_properties.h"

#include "common/input_file.h"
#include "common/strings.h"
#include "runner/ycsb/ycsb_db_properties.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace kvbench::runner {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// Undoes Properties escapes (\t \n \r \f \uXXXX for ASCII, \x = x).
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    const char c = s[++i];
    switch (c) {
      case 't': out.push_back('\t'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 'f': out.push_back('\f'); break;
      case 'u':
        if (i + 4 < s.size()) {
          const unsigned long code = std::strtoul(s.substr(i + 1, 4).c_str(), nullptr, 16);
          if (code < 0x80) out.push_back(static_cast<char>(code));
          i += 4;
        }
        break;
      default: out.push_back(c);
    }
  }
  return out;
}

// Ends in an odd number of backslashes: continues on the next line.
bool Continues(const std::string& line) {
  size_t n = 0;
  for (size_t i = line.size(); i > 0 && line[i - 1] == '\\'; --i) ++n;
  return n % 2 == 1;
}

const std::set<std::string> kKnown = {
    "workload", "recordcount", "operationcount", "insertstart", "insertcount", "fieldcount",
    "fieldlength", "fieldlengthdistribution", "readproportion", "updateproportion",
    "insertproportion", "scanproportion", "readmodifywriteproportion", "requestdistribution",
    "hotspotdatafraction", "hotspotopnfraction", "exponential.percentile", "exponential.frac",
    "minscanlength", "maxscanlength", "scanlengthdistribution", "insertorder", "zeropadding",
    "readallfields", "writeallfields", "threadcount", "target", "maxexecutiontime"};

// CoreWorkload's defaults (insertcount's depends on recordcount and insertstart).
const std::map<std::string, std::string> kDefaults = {
    {"workload", "site.ycsb.workloads.CoreWorkload"},
    {"recordcount", "0"}, {"operationcount", "0"}, {"insertstart", "0"},
    {"fieldcount", "10"}, {"fieldlength", "100"}, {"fieldlengthdistribution", "constant"},
    {"readproportion", "0.95"}, {"updateproportion", "0.05"}, {"insertproportion", "0"},
    {"scanproportion", "0"}, {"readmodifywriteproportion", "0"},
    {"requestdistribution", "uniform"}, {"hotspotdatafraction", "0.2"},
    {"hotspotopnfraction", "0.8"}, {"exponential.percentile", "95"},
    {"exponential.frac", "0.8571428571"}, {"minscanlength", "1"}, {"maxscanlength", "1000"},
    {"scanlengthdistribution", "uniform"}, {"insertorder", "hashed"}, {"zeropadding", "1"},
    {"readallfields", "true"}, {"writeallfields", "false"}, {"threadcount", "1"},
    {"target", "0"}, {"maxexecutiontime", "0"}};

// Typed reads of the resolved properties; the first error wins.
class Reader {
 public:
  Reader(const std::string& path, const Properties& props) : path_(path), props_(props) {}

  const std::string& Text(const std::string& name) {
    static const std::string kEmpty;
    const auto it = props_.find(name);
    if (it != props_.end()) return it->second.value;
    const auto d = kDefaults.find(name);
    return d == kDefaults.end() ? kEmpty : d->second;
  }

  bool Fail(const std::string& name, const std::string& msg) {
    if (!error_.empty()) return false;
    const auto it = props_.find(name);
    const std::string where = it == props_.end() ? path_ : OriginOf(name, it->second, path_);
    error_ = where + ": property '" + name + "': " + msg;
    return false;
  }

  // Java's Long.parseLong, and >= min.
  uint64_t Count(const std::string& name, int64_t min = 0) {
    const std::string& s = Text(name);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0 || IsBlank(s[0])) {
      Fail(name, "'" + s + "' is not an integer");
      return 0;
    }
    if (v < min) {
      Fail(name, "must be >= " + std::to_string(min) + " (is " + s + ")");
      return 0;
    }
    return static_cast<uint64_t>(v);
  }

  // Java's Double.parseDouble (finite), within [min, max].
  double Number(const std::string& name, double min = 0, double max = HUGE_VAL) {
    const std::string& s = Text(name);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || IsBlank(s[0])) {
      Fail(name, "'" + s + "' is not a number");
      return 0;
    }
    if (v < min || v > max) {
      Fail(name, "must be " + (max == HUGE_VAL ? ">= " + Format(min)
                                               : "from " + Format(min) + " to " + Format(max)) +
                     " (is " + s + ")");
      return 0;
    }
    return v;
  }

  // Java's Boolean.parseBoolean: "true" in any case, anything else false.
  bool Bool(const std::string& name) {
    return ToLower(Text(name)) == "true";
  }

  std::string Choice(const std::string& name, const std::vector<std::string>& known) {
    const std::string& s = Text(name);
    for (const std::string& k : known) {
      if (s == k) return s;
    }
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    Fail(name, "unknown value '" + s + "' (known: " + list + ")");
    return known[0];
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  static std::string Format(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

 private:
  const std::string& path_;
  const Properties& props_;
  std::string error_;
};

std::string Num(double v) { return Reader::Format(v); }

}  // namespace

std::string OriginOf(const std::string& name, const PropertyValue& value,
                     const std::string& fallback) {
  const std::string& file = value.file.empty() ? fallback : value.file;
  if (value.line > 0) return file + ":" + std::to_string(value.line);
  return (file.empty() ? "" : file + ": ") + "-p " + name + "=" + value.value;
}

Properties ParseProperties(const std::string& text) {
  Properties out;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const int first_line = line_no;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    size_t start = 0;
    while (start < raw.size() && IsBlank(raw[start])) ++start;
    if (start == raw.size() || raw[start] == '#' || raw[start] == '!') continue;
    std::string logical = raw.substr(start);
    while (Continues(logical)) {
      logical.pop_back();
      std::string next;
      if (!std::getline(in, next)) break;
      ++line_no;
      if (!next.empty() && next.back() == '\r') next.pop_back();
      size_t s = 0;
      while (s < next.size() && IsBlank(next[s])) ++s;
      logical += next.substr(s);
    }
    // The key ends at the first unescaped '=', ':' or blank.
    size_t k = 0;
    while (k < logical.size()) {
      if (logical[k] == '\\') {
        k += 2;
        continue;
      }
      if (logical[k] == '=' || logical[k] == ':' || IsBlank(logical[k])) break;
      ++k;
    }
    const std::string key = Unescape(logical.substr(0, std::min(k, logical.size())));
    size_t v = k;
    while (v < logical.size() && IsBlank(logical[v])) ++v;
    if (v < logical.size() && (logical[v] == '=' || logical[v] == ':')) ++v;
    while (v < logical.size() && IsBlank(logical[v])) ++v;
    out[key] = {Unescape(v < logical.size() ? logical.substr(v) : ""), first_line, ""};
  }
  return out;
}

bool IsYcsbPropertyFile(const std::string& path) {
  return !(path.size() >= 5 && path.compare(path.size() - 5, 5, ".toml") == 0);
}

Status ParsePropertyOverride(const std::string& arg, std::string* name, std::string* value) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::InvalidArgument("-p " + arg + ": expected name=value");
  }
  *name = arg.substr(0, eq);
  *value = arg.substr(eq + 1);
  return Status::OK();
}

namespace {

// Bounded and regular only (common/input_file.h): -P /dev/zero was read
// until memory ran out, and a directory read as an empty file.
Status ReadFile(const std::string& path, std::string* text) {
  return ReadInputFile(path, kMaxWorkloadFileBytes, "property file", text);
}

Status WorkloadFromProperties(Properties props, const std::string& path, const std::string& text,
                              Workload* out);

}  // namespace

Status LoadYcsbWorkload(const std::string& path, const std::vector<std::string>& overrides,
                        Workload* out) {
  return LoadYcsbWorkload(PropertySources{{path}, overrides}, out);
}

Status LoadYcsbWorkload(const PropertySources& sources, Workload* out) {
  if (sources.files.empty()) return Status::InvalidArgument("no property file (-P FILE)");
  Properties props;
  std::string source;
  for (const std::string& file : sources.files) {
    std::string text;
    KVBENCH_RETURN_IF_ERROR(ReadFile(file, &text));
    for (auto& [name, value] : ParseProperties(text)) {
      value.file = file;
      props[name] = std::move(value);
    }
    source += sources.files.size() > 1 ? "# -P " + file + "\n" + text : text;
  }
  for (const std::string& arg : sources.overrides) {
    std::string name, value;
    KVBENCH_RETURN_IF_ERROR(ParsePropertyOverride(arg, &name, &value));
    props[name] = {value, 0, ""};
  }
  return WorkloadFromProperties(std::move(props), sources.files.front(), source, out);
}

Status YcsbWorkloadFromText(const std::string& text, const std::string& path,
                            const std::vector<std::string>& overrides, Workload* out) {
  Properties props = ParseProperties(text);
  for (auto& [name, value] : props) value.file = path;
  for (const std::string& arg : overrides) {
    std::string name, value;
    KVBENCH_RETURN_IF_ERROR(ParsePropertyOverride(arg, &name, &value));
    props[name] = {value, 0, ""};
  }
  return WorkloadFromProperties(std::move(props), path, text, out);
}

namespace {

// CoreWorkload's properties, read and checked (its defaults where not given).
struct CoreWorkloadProperties {
  uint64_t recordcount = 0;
  uint64_t operationcount = 0;
  uint64_t insertstart = 0;
  uint64_t insertcount = 0;
  uint64_t fieldcount = 0;
  uint64_t fieldlength = 0;
  std::string length_dist;
  std::map<std::string, double> proportions;  // read, update, insert, scan, rmw
  std::string distribution;
  double hot_data = 0;
  double hot_opn = 0;
  double percentile = 0;
  double frac = 0;
  uint64_t min_scan = 0;
  uint64_t max_scan = 0;
  std::string scan_dist;
  std::string insertorder;
  uint64_t zeropadding = 0;
  bool read_all = false;
  bool write_all = false;
  uint64_t threads = 0;
  double target = 0;
  double max_seconds = 0;
};

// Reads and checks CoreWorkload's properties; insertcount's default (it
// depends on recordcount and insertstart) is added to *props. The first error
// wins.
Status ReadCoreWorkload(const std::string& path, Properties* props, CoreWorkloadProperties* c) {
  // YCSB-cpp's spellings of CoreWorkload's properties, read as YCSB's when
  // YCSB's own is not given.
  for (const auto& [alias, name] : {std::pair{"field_len_dist", "fieldlengthdistribution"},
                                    std::pair{"limit.ops", "target"}}) {
    if (props->contains(alias) && !props->contains(name)) (*props)[name] = (*props)[alias];
  }
  Reader r(path, *props);
  const std::string& cls = r.Text("workload");
  if (cls != "site.ycsb.workloads.CoreWorkload" && cls != "com.yahoo.ycsb.workloads.CoreWorkload") {
    r.Fail("workload", "'" + cls + "' is not supported (kvbench runs site.ycsb.workloads."
                       "CoreWorkload, also spelt com.yahoo.ycsb.workloads.CoreWorkload)");
  }
  c->recordcount = r.Count("recordcount", 1);
  c->operationcount = r.Count("operationcount");
  c->insertstart = r.Count("insertstart");
  if (r.ok() && !props->contains("insertcount")) {
    if (c->insertstart > c->recordcount) r.Fail("insertstart", "is beyond recordcount");
    (*props)["insertcount"] = {std::to_string(c->recordcount - c->insertstart), -1, ""};
  }
  c->insertcount = r.Count("insertcount");
  c->fieldcount = r.Count("fieldcount", 1);
  if (c->fieldcount > 65535) r.Fail("fieldcount", "must be <= 65535");
  c->fieldlength = r.Count("fieldlength", 1);
  c->length_dist = r.Choice("fieldlengthdistribution", {"constant", "uniform", "zipfian"});
  c->proportions = {{"read", r.Number("readproportion")},
                    {"update", r.Number("updateproportion")},
                    {"insert", r.Number("insertproportion")},
                    {"scan", r.Number("scanproportion")},
                    {"rmw", r.Number("readmodifywriteproportion")}};
  c->distribution =
      r.Choice("requestdistribution",
               {"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"});
  c->hot_data = r.Number("hotspotdatafraction", 0, 1);
  c->hot_opn = r.Number("hotspotopnfraction", 0, 1);
  c->percentile = r.Number("exponential.percentile", 0, 100);
  c->frac = r.Number("exponential.frac", 0);
  c->min_scan = r.Count("minscanlength", 1);
  c->max_scan = r.Count("maxscanlength", 1);
  if (r.ok() && c->min_scan > c->max_scan) r.Fail("minscanlength", "is above maxscanlength");
  c->scan_dist = r.Choice("scanlengthdistribution", {"uniform", "zipfian"});
  c->insertorder = r.Choice("insertorder", {"hashed", "ordered"});
  c->zeropadding = r.Count("zeropadding", 1);
  c->read_all = r.Bool("readallfields");
  c->write_all = r.Bool("writeallfields");
  c->threads = r.Count("threadcount", 1);
  if (c->threads > 1024) r.Fail("threadcount", "must be <= 1024");
  c->target = r.Number("target");
  c->max_seconds = r.Number("maxexecutiontime");
  if (r.ok() && c->operationcount == 0 && c->max_seconds <= 0) {
    r.Fail("operationcount", "give operationcount >= 1 (or maxexecutiontime in seconds)");
  }
  double sum = 0;
  for (const auto& [k, v] : c->proportions) sum += v;
  if (r.ok() && sum <= 0) r.Fail("readproportion", "the operation proportions sum to 0");
  if (!r.ok()) return Status::InvalidArgument(r.error());
  return Status::OK();
}

// CoreWorkload's transaction phase: its operation mix, request distribution
// and key space.
PhaseSpec TransactionPhase(const CoreWorkloadProperties& c, const YcsbPhaseSpec& y) {
  PhaseSpec run;
  run.name = "run";
  run.op = PhaseOp::kMix;
  // One run, as YCSB does (its output is one run's); --repeat overrides.
  run.repetitions = 1;
  run.count = c.operationcount;
  if (c.operationcount == 0) run.duration_s = c.max_seconds;
  run.threads = {static_cast<int>(c.threads)};
  run.targets = {c.target};
  for (const auto& [k, v] : c.proportions) {
    if (v > 0) run.proportions[k] = v;
  }
  run.distribution = c.distribution;
  if (c.distribution == "hotspot") {
    run.distribution_params = {{"hotsetfraction", Num(c.hot_data)},
                               {"hotopnfraction", Num(c.hot_opn)}};
  } else if (c.distribution == "exponential") {
    run.distribution_params = {{"percentile", Num(c.percentile)}, {"frac", Num(c.frac)}};
  }
  run.ycsb = y;
  run.ycsb->first_insert = c.recordcount;
  if (c.distribution == "zipfian") {
    const auto expected_new_keys = static_cast<uint64_t>(
        static_cast<double>(c.operationcount) * c.proportions.at("insert") * 2.0);
    run.ycsb->key_space = c.insertcount + expected_new_keys + 1;
  } else if (c.distribution == "latest" || c.distribution == "exponential") {
    run.ycsb->key_space = c.recordcount;
  } else {
    run.ycsb->key_space = c.insertcount == 0 ? c.recordcount : c.insertcount;
  }
  return run;
}

// The workload CoreWorkload runs: YCSB's keys and field values, a load phase
// (when insertcount > 0), then the transaction phase.
Workload CoreWorkloadToWorkload(const CoreWorkloadProperties& c, const std::string& path,
                                const std::string& text) {
  Workload w;
  w.file = path;
  w.source = text;
  w.name = std::filesystem::path(path).filename().string();
  w.description = "YCSB core workload " + w.name;
  w.dataset_kind = "ycsb";
  w.dataset_count = c.recordcount;
  w.dataset_params = {{"insertorder", c.insertorder},
                      {"zeropadding", std::to_string(c.zeropadding)}};
  // One value is one field; runner/ycsb_record.h lays fieldcount of them out
  // as a record. YCSB's field bytes are random: nothing compresses.
  w.value_params = {{"compressibility", "0"}};
  if (c.length_dist == "constant") {
    w.value_params["size"] = std::to_string(c.fieldlength);
  } else {
    w.value_params["size_distribution"] = c.length_dist;
    w.value_params["min_size"] = "1";
    w.value_params["max_size"] = std::to_string(c.fieldlength);
  }

  YcsbPhaseSpec y;
  y.field_count = static_cast<uint32_t>(c.fieldcount);
  y.read_all_fields = c.read_all;
  y.write_all_fields = c.write_all;
  y.min_scan_length = c.min_scan;
  y.max_scan_length = c.max_scan;
  y.scan_length_distribution = c.scan_dist;

  if (c.insertcount > 0) {
    PhaseSpec load;
    load.name = "load";
    load.op = PhaseOp::kInsert;
    load.repetitions = 1;  // YCSB loads once; --repeat overrides
    load.count = c.insertcount;
    load.threads = {static_cast<int>(c.threads)};
    load.targets = {c.target};
    load.ycsb = y;
    load.ycsb->first_insert = c.insertstart;
    w.phases.push_back(std::move(load));
  }
  w.phases.push_back(TransactionPhase(c, y));
  return w;
}

Status WorkloadFromProperties(Properties props, const std::string& path, const std::string& text,
                              Workload* out) {
  CoreWorkloadProperties core;
  KVBENCH_RETURN_IF_ERROR(ReadCoreWorkload(path, &props, &core));
  Workload w = CoreWorkloadToWorkload(core, path, text);
  // YCSB measures from the first operation: no warm-up repetition, so the
  // figures are the ones YCSB prints for the same run.
  w.measurement.warmup_repetitions = 0;

  for (const auto& [k, v] : kDefaults) w.ycsb_properties[k] = v;
  Properties others;
  for (const auto& [k, v] : props) {
    if (kKnown.contains(k)) {
      w.ycsb_properties[k] = v.value;
    } else if (v.line >= 0) {  // not derived here (insertcount's default)
      others[k] = v;
    }
  }
  KVBENCH_RETURN_IF_ERROR(ApplyYcsbOtherProperties(others, path, &w));
  *out = std::move(w);
  return Status::OK();
}

}  // namespace

}  // namespace kvbench::runner
