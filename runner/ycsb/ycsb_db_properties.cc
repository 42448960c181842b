#include "runner/ycsb/ycsb_db_properties.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "adapters/registry.h"
#include "common/strings.h"

namespace kvbench::runner {

namespace {

// Accepted and ignored, with the reason docs/ycsb.md gives.
const std::set<std::string> kIgnored = {
    "measurement.interval",  // kvbench measures from the intended start under a target
    "measurement.trackjvm",  // no JVM
    "measurement.histogram.verbose",
    "histogram.buckets",  // only for measurementtype=histogram
    "reportlatencyforeacherror",
    "latencytrackederrors",                 // errors are counted, never timed apart
    "table",                                // one key space per engine
    "fieldnameprefix",                      // a record stores its fields' bytes, not their names
    "core_workload_insertion_retry_limit",  // an insert error stops the phase
    "core_workload_insertion_retry_interval",
    "field_len_dist",
    "limit.ops",  // YCSB-cpp's names, read as CoreWorkload's
};

// Read by `kvbench ycsb` (app/command_ycsb.cc) from Workload::ycsb_properties.
const std::set<std::string> kCommandProperties = {
    "db", "dbname", "doload", "dotransactions", "dotransaction", "kvbench.dir"};

// Accepted only at these values: kvbench does what they mean, nothing else.
const std::map<std::string, std::set<std::string>> kOnlyValues = {
    {"dataintegrity", {"false"}},
    {"sleepafterload", {"0"}},
    {"limit.file", {""}},
    {"exporter", {"site.ycsb.measurements.exporter.TextMeasurementsExporter"}},
};

// A YCSB-cpp binding setting and what it is in kvbench.
struct DbProperty {
  const char* name;    // YCSB-cpp's property
  const char* option;  // kvbench option; "@dir" = the engine's directory; "" = none
  // Value translations (YCSB-cpp -> kvbench); empty = as given.
  std::vector<std::pair<const char*, const char*>> values;
  // Values meaning "the engine's default" (YCSB-cpp's 0 / -1, or the
  // library's own default): the option is left as kvbench has it. For a
  // setting without a kvbench option, the only values accepted.
  std::set<std::string> defaults;
  bool lower = false;  // compare and pass the value in lower case
};

// YCSB-cpp's bindings (lmdb, leveldb, rocksdb, sqlite, wiredtiger). Names
// that are kvbench options already (lmdb.writemap, sqlite.cache_size,
// wiredtiger.cache_size...) need no row.
const std::vector<DbProperty> kDbProperties = {
    {"lmdb.dbpath", "@dir", {}, {}},
    {"lmdb.mapsize", "lmdb.mapsize", {}, {"-1", "0"}},
    {"lmdb.nosync", "lmdb.sync", {{"true", "none"}, {"false", "commit"}}, {}, true},
    {"lmdb.noreadahead", "lmdb.nordahead", {}, {}},
    {"lmdb.mapasync", "", {}, {"false"}, true},
    {"leveldb.dbname", "@dir", {}, {}},
    {"leveldb.format", "", {}, {"single"}},
    {"leveldb.destroy", "", {}, {"true", "false"}, true},
    {"leveldb.write_buffer_size", "leveldb.write_buffer", {}, {"0"}},
    {"leveldb.max_file_size", "", {}, {"0", "2097152"}},
    {"leveldb.max_open_files", "", {}, {"0", "1000"}},
    {"leveldb.compression", "leveldb.compression", {{"no", "none"}}, {}, true},
    {"leveldb.cache_size", "leveldb.block_cache", {}, {"0"}},
    {"leveldb.filter_bits", "leveldb.bloom_bits", {}, {}},
    {"leveldb.block_size", "", {}, {"0", "4096"}},
    {"leveldb.block_restart_interval", "", {}, {"0", "16"}},
    {"rocksdb.dbname", "@dir", {}, {}},
    {"rocksdb.format", "", {}, {"single"}},
    {"rocksdb.destroy", "", {}, {"true", "false"}, true},
    {"rocksdb.sync", "rocksdb.sync", {{"true", "commit"}, {"false", "none"}}, {}, true},
    {"rocksdb.optionsfile", "", {}, {""}},
    {"rocksdb.mergeupdate", "", {}, {"false"}, true},
    {"rocksdb.compression", "rocksdb.compression", {{"no", "none"}}, {}, true},
    {"rocksdb.max_background_jobs", "rocksdb.max_background_jobs", {}, {"0"}},
    {"rocksdb.target_file_size_base", "", {}, {"0", "67108864"}},
    {"rocksdb.target_file_size_multiplier", "", {}, {"0", "1"}},
    {"rocksdb.max_bytes_for_level_base", "", {}, {"0", "268435456"}},
    {"rocksdb.write_buffer_size", "rocksdb.write_buffer", {}, {"0"}},
    {"rocksdb.max_write_buffer_number", "", {}, {"0", "2"}},
    {"rocksdb.max_open_files", "", {}, {"-1"}},
    {"rocksdb.compaction_pri", "", {}, {"-1"}},
    {"rocksdb.level0_file_num_compaction_trigger", "", {}, {"0", "4"}},
    {"rocksdb.level0_slowdown_writes_trigger", "", {}, {"0", "20"}},
    {"rocksdb.level0_stop_writes_trigger", "", {}, {"0", "36"}},
    {"rocksdb.use_direct_io_for_flush_compaction", "", {}, {"false"}, true},
    {"rocksdb.use_direct_reads", "rocksdb.direct_reads", {}, {}, true},
    {"rocksdb.allow_mmap_writes", "", {}, {"false"}, true},
    {"rocksdb.allow_mmap_reads", "", {}, {"false"}, true},
    {"rocksdb.cache_size", "rocksdb.block_cache", {}, {"0"}},
    {"rocksdb.compressed_cache_size", "", {}, {"0"}},
    {"rocksdb.bloom_bits", "rocksdb.bloom_bits", {}, {}},
    {"rocksdb.increase_parallelism", "", {}, {"false"}, true},
    {"rocksdb.optimize_level_style_compaction", "", {}, {"false"}, true},
    {"sqlite.dbpath", "@dir", {}, {}},
    {"sqlite.create_table", "", {}, {"true"}, true},
    {"wiredtiger.home", "@dir", {}, {}},
    {"wiredtiger.format", "", {}, {"single"}},
    {"wiredtiger.direct_io", "", {}, {"[]"}},
    {"wiredtiger.in_memory", "", {}, {"false"}, true},
    {"wiredtiger.lsm_mgr.merge", "", {}, {"true"}, true},
    {"wiredtiger.lsm_mgr.max_workers", "", {}, {"4"}},
    {"wiredtiger.blk_mgr.allocation_size", "", {}, {"4KB", "4096"}},
    {"wiredtiger.blk_mgr.bloom_bit_count", "", {}, {"16"}},
    {"wiredtiger.blk_mgr.bloom_hash_count", "", {}, {"8"}},
    {"wiredtiger.blk_mgr.chunk_max", "", {}, {"5GB"}},
    {"wiredtiger.blk_mgr.chunk_size", "", {}, {"10MB"}},
    {"wiredtiger.blk_mgr.compressor", "", {}, {"", "none"}, true},
    {"wiredtiger.blk_mgr.btree.internal_page_max", "", {}, {"4KB", "4096"}},
    {"wiredtiger.blk_mgr.btree.leaf_key_max", "", {}, {"0"}},
    {"wiredtiger.blk_mgr.btree.leaf_value_max", "", {}, {"0"}},
    {"wiredtiger.blk_mgr.btree.leaf_page_max", "", {}, {"32KB", "32768"}},
};

std::string List(const std::set<std::string>& values) {
  std::string out;
  for (const std::string& v : values)
    out += (out.empty() ? "" : ", ") + (v.empty() ? "(empty)" : v);
  return out;
}

// The registered engines' option names, by the namespace before the first dot.
struct EngineCatalog {
  // option namespace ("lmdb", "wiredtiger") -> engines using it
  std::map<std::string, std::vector<std::string>> engines_of;
  // engine -> its option specs
  std::map<std::string, std::vector<OptionSpec>> specs;

  EngineCatalog() {
    for (const AdapterInfo* info : AdapterRegistry::Global().All()) {
      std::vector<OptionSpec> options = info->create()->OptionSpecs();
      std::set<std::string> spaces;
      for (const OptionSpec& o : options) spaces.insert(o.name.substr(0, o.name.find('.')));
      for (const std::string& space : spaces) engines_of[space].push_back(info->name);
      specs[info->name] = std::move(options);
    }
  }

  // Engines that have option `name`.
  std::vector<std::string> EnginesWith(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& [engine, options] : specs) {
      for (const OptionSpec& o : options) {
        if (o.is_prefix ? name.starts_with(o.name) && name.size() > o.name.size()
                        : name == o.name) {
          out.push_back(engine);
          break;
        }
      }
    }
    return out;
  }
};

class OtherProperties {
 public:
  OtherProperties(const std::string& path, Workload* w) : path_(path), w_(w) {}

  Status Apply(const Properties& props) {
    for (const auto& [name, value] : props) {
      KVBENCH_RETURN_IF_ERROR(One(name, value));
    }
    Finish();
    return Status::OK();
  }

 private:
  Status Fail(const std::string& name, const PropertyValue& v, const std::string& msg) const {
    return Status::InvalidArgument(OriginOf(name, v, path_) + ": property '" + name + "': " + msg);
  }

  Status One(const std::string& name, const PropertyValue& v) {
    if (kIgnored.contains(name)) {
      w_->ycsb_ignored.push_back(name);
      return Status::OK();
    }
    if (kCommandProperties.contains(name)) {
      w_->ycsb_properties[name] = v.value;
      return Status::OK();
    }
    if (const auto only = kOnlyValues.find(name); only != kOnlyValues.end()) {
      if (!only->second.contains(v.value)) {
        return Fail(name, v,
                    "'" + v.value + "' is not supported (kvbench accepts only " +
                        List(only->second) + "; docs/ycsb.md says why)");
      }
      return Status::OK();
    }
    if (Status s = Client(name, v); !s.IsNotFound()) return s;
    return Database(name, v);
  }

  // YCSB's client properties; NotFound when `name` is none of them.
  Status Client(const std::string& name, const PropertyValue& v) {
    YcsbOutput& out = w_->ycsb_output;
    if (name == "measurementtype") {
      if (v.value == "hdrhistogram") {
        // YCSB's default: an explicit one asks for the files (see Finish).
        explicit_hdr_ = true;
      } else if (v.value == "timeseries") {
        out.timeseries = true;
      } else if (v.value != "basic") {
        return Fail(name, v,
                    "'" + v.value +
                        "' is not supported (known: hdrhistogram, timeseries, "
                        "basic; kvbench keeps log-linear histograms, whose full distribution "
                        "measurementtype=hdrhistogram writes as .hgrm files)");
      }
    } else if (name == "hdrhistogram.fileoutput") {
      file_output_ = ToLower(v.value) == "true";
    } else if (name == "hdrhistogram.output.path") {
      out.hdr_path = v.value;
    } else if (name == "hdrhistogram.percentiles") {
      out.percentiles.clear();
      for (const std::string& p : SplitComma(v.value)) {
        char* end = nullptr;
        const double q = std::strtod(p.c_str(), &end);
        if (p.empty() || *end != '\0' || !(q > 0 && q < 100)) {
          return Fail(name, v, "'" + p + "' is not a percentile between 0 and 100");
        }
        out.percentiles.push_back(q);
      }
    } else if (name == "timeseries.granularity") {
      const double ms = Number(v.value);
      if (!(ms >= 1)) return Fail(name, v, "'" + v.value + "' is not a number of ms >= 1");
      w_->measurement.interval_s = ms / 1000.0;
      w_->measurement.interval_exact = true;
    } else if (name == "exportfile") {
      out.export_file = v.value;
    } else if (name == "status") {
      out.status = ToLower(v.value) == "true";
    } else if (name == "status.interval") {
      const double s = Number(v.value);
      if (!(s > 0)) return Fail(name, v, "'" + v.value + "' is not a number of seconds > 0");
      out.status_interval_s = s;
    } else if (name == "label") {
      out.label = v.value;
    } else {
      return Status::NotFound(name);
    }
    return Status::OK();
  }

  // Engine options and YCSB-cpp's binding settings.
  Status Database(const std::string& name, const PropertyValue& v) {
    const std::vector<std::string> engines = catalog_.EnginesWith(name);
    // A kvbench option YCSB-cpp also names (rocksdb.sync) takes YCSB-cpp's
    // values too (true/false), and its own as they are.
    if (!engines.empty() && !HasYcsbCppValue(name, v.value)) {
      for (const std::string& e : engines) SetOption(e, name, v.value, name, v);
      return Status::OK();
    }
    const std::string space = name.substr(0, name.find('.'));
    const auto users = catalog_.engines_of.find(space);
    for (const DbProperty& row : kDbProperties) {
      if (name != row.name) continue;
      if (users == catalog_.engines_of.end()) return Status::OK();  // engine not built here
      const std::string value = row.lower ? ToLower(v.value) : v.value;
      const std::string option = row.option;
      if (option == "@dir") {
        for (const std::string& e : users->second) w_->ycsb_dirs[e] = v.value;
        return Status::OK();
      }
      if (row.defaults.contains(value)) return Status::OK();
      if (option.empty()) {
        return Fail(name, v,
                    "kvbench's " + space +
                        " adapter has no such setting; accepted only "
                        "at what it does: " +
                        List(row.defaults));
      }
      std::string mapped = value;
      if (!row.values.empty()) {
        bool found = false;
        std::set<std::string> known;
        for (const auto& [from, to] : row.values) {
          known.insert(from);
          if (value == from) mapped = to, found = true;
        }
        if (!found) return Fail(name, v, "'" + v.value + "' is not one of " + List(known));
      }
      for (const std::string& e : users->second) SetOption(e, option, mapped, name, v);
      return Status::OK();
    }
    if (users != catalog_.engines_of.end()) {
      std::set<std::string> known;
      for (const OptionSpec& o : catalog_.specs.at(users->second.front())) known.insert(o.name);
      return Fail(name, v,
                  "no such option for " + users->second.front() + " (its options: " + List(known) +
                      "; `kvbench engines -v` explains them)");
    }
    return Fail(name, v,
                "unknown property (kvbench reads CoreWorkload's properties, the engines' "
                "options and the YCSB client properties docs/ycsb.md lists)");
  }

  static bool HasYcsbCppValue(const std::string& name, const std::string& value) {
    for (const DbProperty& row : kDbProperties) {
      if (name != row.name) continue;
      const std::string v = row.lower ? ToLower(value) : value;
      if (row.defaults.contains(v)) return true;
      for (const auto& [from, to] : row.values) {
        if (v == from) return true;
      }
    }
    return false;
  }

  void SetOption(const std::string& engine, const std::string& option, const std::string& value,
                 const std::string& property, const PropertyValue& v) {
    w_->engine_options[engine][option] = value;
    w_->field_origins["options." + engine] = OriginOf(property, v, path_);
    w_->field_origins["options." + engine + "." + option] = OriginOf(property, v, path_);
  }

  void Finish() {
    // YCSB writes HdrHistogram logs only with hdrhistogram.fileoutput=true;
    // kvbench also when measurementtype=hdrhistogram is asked for by name.
    w_->measurement.hdrhistogram = file_output_.value_or(explicit_hdr_);
  }

  static double Number(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    return s.empty() || *end != '\0' || !std::isfinite(v) ? NAN : v;
  }

  static std::vector<std::string> SplitComma(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t comma = s.find(',');; comma = s.find(',', start)) {
      std::string part =
          s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      while (!part.empty() && part.front() == ' ') part.erase(part.begin());
      while (!part.empty() && part.back() == ' ') part.pop_back();
      out.push_back(part);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  }

  const std::string& path_;
  Workload* w_;
  EngineCatalog catalog_;
  bool explicit_hdr_ = false;
  std::optional<bool> file_output_;
};

}  // namespace

Status ApplyYcsbOtherProperties(const Properties& props, const std::string& path, Workload* w) {
  return OtherProperties(path, w).Apply(props);
}

}  // namespace kvbench::runner
