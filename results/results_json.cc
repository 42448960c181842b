#include "results/results_json.h"
#include "results/durability.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/input_file.h"
#include "results/time_series_json.h"

namespace kvbench::results {

using nlohmann::json;

namespace {

// ---- writing ----

template <typename T>
void PutOptional(json& j, const char* name, const std::optional<T>& v) {
  if (v) j[name] = *v;
}

json LatencyToJson(const LatencySummary& l) {
  const json buckets = BucketsToJson(l.buckets);
  json j = {{"count", l.count},   {"mean_ns", l.mean_ns}, {"min_ns", l.min_ns},
            {"p50_ns", l.p50_ns}, {"p90_ns", l.p90_ns},   {"p95_ns", l.p95_ns},
            {"p99_ns", l.p99_ns}, {"p999_ns", l.p999_ns}, {"max_ns", l.max_ns},
            {"buckets", buckets}};
  if (l.block_ops > 0) j["block_ops"] = l.block_ops;  // samples are block means
  return j;
}


json WorkToJson(const WorkCounts& w) {
  return {{"found", w.found},   {"not_found", w.not_found},       {"rows", w.rows},
          {"bytes_returned", w.bytes_returned}, {"errors", w.errors},
          {"stream_digest", w.stream_digest}};
}

json RepetitionToJson(const Repetition& r) {
  json ops = json::array();
  for (const OpFigures& o : r.ops) {
    ops.push_back({{"op", o.op},
                   {"ops", o.ops},
                   {"ops_per_sec", o.ops_per_sec},
                   {"latency", LatencyToJson(o.latency)},
                   {"work", WorkToJson(o.work)}});
  }
  json j = {{"seconds", r.seconds},
            {"ops", ops},
            {"cpu_user_s", r.cpu_user_s},
            {"cpu_sys_s", r.cpu_sys_s},
            {"peak_rss_bytes", r.peak_rss_bytes},
            {"file_bytes", r.file_bytes},
            {"allocated_bytes", r.allocated_bytes}};
  PutOptional(j, "bytes_read", r.bytes_read);
  PutOptional(j, "bytes_written", r.bytes_written);
  PutOptional(j, "cache_resident_before_pct", r.cache_resident_before_pct);
  PutOptional(j, "cache_resident_after_pct", r.cache_resident_after_pct);
  PutOptional(j, "open_seconds", r.open_seconds);
  PutOptional(j, "engine_seconds", r.engine_seconds);
  PutOptional(j, "op_buffer_bytes", r.op_buffer_bytes);
  PutOptional(j, "fork", r.fork);
  if (!r.cpu_probe_us.empty()) j["cpu_probe_us"] = r.cpu_probe_us;
  // Only rows read from a schema-4 file carry it (their ops_per_sec divide
  // by the time inside the engine's calls); absent means the wall span.
  if (r.rate_base == RateBase::kEngineCalls) j["rate_base"] = "engine_calls";
  j["sizes_after_sync"] = r.sizes_after_sync;
  PutOptional(j, "cache_resident_after_eviction_pct", r.cache_resident_after_eviction_pct);
  if (r.pacing_lateness) j["pacing_lateness"] = LatencyToJson(*r.pacing_lateness);
  if (r.time_series) j["time_series"] = TimeSeriesToJson(*r.time_series);
  if (r.session_cleanup) j["session_cleanup"] = LatencyToJson(*r.session_cleanup);
  return j;
}

json SpreadToJson(const Spread& s) {
  json j = {{"n", s.n}, {"median", s.median}, {"min", s.min}, {"max", s.max}};
  if (s.ci) {
    j["ci_low"] = s.ci->low;
    j["ci_high"] = s.ci->high;
    j["ci_level"] = s.ci->level;
  }
  return j;
}

// Every figure of a run over its repetitions, per operation type: derived
// from the repetitions (which stay the source of truth), written so that a
// program reading results.json gets n, median, min, max and the interval
// without doing statistics itself.
json SummaryToJson(const PhaseRun& pr) {
  json ops = json::object();
  std::vector<std::string> names;
  for (const Repetition& rep : pr.repetitions) {
    for (const OpFigures& f : rep.ops) {
      if (std::find(names.begin(), names.end(), f.op) == names.end()) names.push_back(f.op);
    }
  }
  for (const std::string& name : names) {
    std::vector<double> rate, p50, p99, max;
    for (const Repetition& rep : pr.repetitions) {
      for (const OpFigures& f : rep.ops) {
        if (f.op != name) continue;
        rate.push_back(f.ops_per_sec);
        p50.push_back(static_cast<double>(f.latency.p50_ns));
        p99.push_back(static_cast<double>(f.latency.p99_ns));
        max.push_back(static_cast<double>(f.latency.max_ns));
      }
    }
    ops[name] = {{"ops_per_sec", SpreadToJson(SpreadOfValues(rate))},
                 {"p50_ns", SpreadToJson(SpreadOfValues(p50))},
                 {"p99_ns", SpreadToJson(SpreadOfValues(p99))},
                 {"max_ns", SpreadToJson(SpreadOfValues(max))}};
  }
  json summary = {
      {"confidence_level", kConfidenceLevel},
      {"interval", "order statistics of the median (distribution-free)"},
      {"seconds", SpreadToJson(SpreadOf(pr, [](const Repetition& r) { return r.seconds; }))},
      {"file_bytes", SpreadToJson(SpreadOf(pr, [](const Repetition& r) {
         return static_cast<double>(r.file_bytes);
       }))},
      {"ops", ops}};
  // Only where every repetition measured it: a spread over some would
  // describe other repetitions than the throughput's.
  std::vector<double> engine, share;
  for (const Repetition& rep : pr.repetitions) {
    if (!rep.engine_seconds || !rep.HarnessShare()) break;
    engine.push_back(*rep.engine_seconds);
    share.push_back(*rep.HarnessShare());
  }
  if (!engine.empty() && engine.size() == pr.repetitions.size()) {
    summary["engine_seconds"] = SpreadToJson(SpreadOfValues(std::move(engine)));
    summary["harness_share"] = SpreadToJson(SpreadOfValues(std::move(share)));
  }
  return summary;
}

json EnvironmentToJson(const Environment& e) {
  json env = {{"hostname", e.hostname},
              {"cpu_model", e.cpu_model},
              {"cores", e.cores},
              {"memory_bytes", e.memory_bytes},
              {"kernel", e.kernel},
              {"filesystem", e.filesystem},
              {"data_directory", e.data_directory},
              {"compiler", e.compiler},
              {"cxx_flags", e.cxx_flags},
              {"build_type", e.build_type},
              {"kvbench_version", e.kvbench_version},
              {"kvbench_revision", e.kvbench_revision},
              {"libraries", e.libraries},
              {"cpu_governor", e.cpu_governor},
              {"turbo", e.turbo},
              {"transparent_hugepages", e.transparent_hugepages},
              {"data_device", e.data_device}};
  PutOptional(env, "load_average_1m", e.load_average_1m);
  if (!e.clock.empty()) env["clock"] = e.clock;
  PutOptional(env, "clock_ns_per_tick", e.clock_ns_per_tick);
  PutOptional(env, "clock_calibration_error_ppm", e.clock_calibration_error_ppm);
  return env;
}

json ShardToJson(const ShardInfo& sh) {
  json j = {{"index", sh.index},
            {"count", sh.count},
            {"plan_hash", sh.plan_hash},
            {"assignment_hash", sh.assignment_hash},
            {"rows", sh.rows},
            {"finished", sh.finished},
            {"setup_seconds", sh.setup_seconds},
            {"started_at", sh.started_at},
            {"finished_at", sh.finished_at},
            {"labels", sh.labels}};
  if (sh.environment) j["environment"] = EnvironmentToJson(*sh.environment);
  if (!sh.file.empty()) j["file"] = sh.file;
  return j;
}

// ---- reading: every accessor names the field it could not read ----

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  template <typename T>
  bool Get(const json& j, const char* name, T* out) {
    if (!ok()) return false;
    if (!j.is_object() || !j.contains(name)) return Fail(std::string("missing field '") + name + "'");
    try {
      *out = j.at(name).get<T>();
    } catch (const json::exception& e) {
      return Fail(std::string("field '") + name + "': " + e.what());
    }
    return true;
  }

  template <typename T>
  void GetOptional(const json& j, const char* name, std::optional<T>* out) {
    if (!ok() || !j.contains(name)) return;
    T v{};
    if (Get(j, name, &v)) *out = v;
  }

  bool Fail(std::string msg) {
    if (error_.empty()) error_ = where_ + ": " + msg;
    return false;
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void set_where(std::string where) { where_ = std::move(where); }

 private:
  std::string where_;
  std::string error_;
};

void ReadLatency(Reader& r, const json& j, LatencySummary* l) {
  r.Get(j, "count", &l->count);
  r.Get(j, "mean_ns", &l->mean_ns);
  r.Get(j, "min_ns", &l->min_ns);
  r.Get(j, "p50_ns", &l->p50_ns);
  r.Get(j, "p90_ns", &l->p90_ns);
  r.Get(j, "p95_ns", &l->p95_ns);
  r.Get(j, "p99_ns", &l->p99_ns);
  r.Get(j, "p999_ns", &l->p999_ns);
  r.Get(j, "max_ns", &l->max_ns);
  if (j.is_object() && j.contains("block_ops")) r.Get(j, "block_ops", &l->block_ops);
  json buckets;
  if (r.Get(j, "buckets", &buckets)) {
    if (Status s = BucketsFromJson(buckets, &l->buckets); !s.ok()) r.Fail(s.message());
  }
}

void ReadWork(Reader& r, const json& j, WorkCounts* w) {
  r.Get(j, "found", &w->found);
  r.Get(j, "not_found", &w->not_found);
  r.Get(j, "rows", &w->rows);
  r.Get(j, "bytes_returned", &w->bytes_returned);
  r.Get(j, "errors", &w->errors);
  r.Get(j, "stream_digest", &w->stream_digest);
}

void ReadRepetition(Reader& r, const json& j, Repetition* rep) {
  r.Get(j, "seconds", &rep->seconds);
  json ops;
  if (r.Get(j, "ops", &ops)) {
    for (const json& o : ops) {
      OpFigures f;
      r.Get(o, "op", &f.op);
      r.Get(o, "ops", &f.ops);
      r.Get(o, "ops_per_sec", &f.ops_per_sec);
      json lat, work;
      if (r.Get(o, "latency", &lat)) ReadLatency(r, lat, &f.latency);
      if (r.Get(o, "work", &work)) ReadWork(r, work, &f.work);
      rep->ops.push_back(std::move(f));
    }
  }
  r.Get(j, "cpu_user_s", &rep->cpu_user_s);
  r.Get(j, "cpu_sys_s", &rep->cpu_sys_s);
  r.Get(j, "peak_rss_bytes", &rep->peak_rss_bytes);
  r.Get(j, "file_bytes", &rep->file_bytes);
  r.Get(j, "allocated_bytes", &rep->allocated_bytes);
  r.GetOptional(j, "bytes_read", &rep->bytes_read);
  r.GetOptional(j, "bytes_written", &rep->bytes_written);
  r.GetOptional(j, "cache_resident_before_pct", &rep->cache_resident_before_pct);
  r.GetOptional(j, "cache_resident_after_pct", &rep->cache_resident_after_pct);
  r.GetOptional(j, "open_seconds", &rep->open_seconds);
  r.GetOptional(j, "engine_seconds", &rep->engine_seconds);
  r.GetOptional(j, "op_buffer_bytes", &rep->op_buffer_bytes);
  r.GetOptional(j, "fork", &rep->fork);
  if (j.contains("cpu_probe_us")) r.Get(j, "cpu_probe_us", &rep->cpu_probe_us);
  if (j.contains("rate_base")) {
    std::string base;
    if (r.Get(j, "rate_base", &base)) {
      if (base == "engine_calls") {
        rep->rate_base = RateBase::kEngineCalls;
      } else if (base != "wall_span") {
        r.Fail("field 'rate_base': '" + base + "' is neither wall_span nor engine_calls");
      }
    }
  }
  // Schema 2 on; schema 1 files leave them unset.
  if (j.contains("sizes_after_sync")) r.Get(j, "sizes_after_sync", &rep->sizes_after_sync);
  r.GetOptional(j, "cache_resident_after_eviction_pct", &rep->cache_resident_after_eviction_pct);
  json lateness;
  if (j.contains("pacing_lateness") && r.Get(j, "pacing_lateness", &lateness)) {
    rep->pacing_lateness.emplace();
    ReadLatency(r, lateness, &*rep->pacing_lateness);
  }
  // Optional: absent in files written before they existed.
  json series, cleanup;
  if (j.contains("time_series") && r.Get(j, "time_series", &series)) {
    rep->time_series.emplace();
    if (Status s = TimeSeriesFromJson(series, &*rep->time_series); !s.ok()) r.Fail(s.message());
  }
  if (j.contains("session_cleanup") && r.Get(j, "session_cleanup", &cleanup)) {
    rep->session_cleanup.emplace();
    ReadLatency(r, cleanup, &*rep->session_cleanup);
  }
}

void ReadEnvironment(Reader& r, const json& env, Environment* out) {
  Environment& e = *out;
  r.Get(env, "hostname", &e.hostname);
  r.Get(env, "cpu_model", &e.cpu_model);
  r.Get(env, "cores", &e.cores);
  r.Get(env, "memory_bytes", &e.memory_bytes);
  r.Get(env, "kernel", &e.kernel);
  r.Get(env, "filesystem", &e.filesystem);
  r.Get(env, "data_directory", &e.data_directory);
  r.Get(env, "compiler", &e.compiler);
  r.Get(env, "cxx_flags", &e.cxx_flags);
  r.Get(env, "build_type", &e.build_type);
  r.Get(env, "kvbench_version", &e.kvbench_version);
  r.Get(env, "kvbench_revision", &e.kvbench_revision);
  r.Get(env, "libraries", &e.libraries);
  // Schema 2 on.
  for (auto [name, field] :
       {std::pair{"cpu_governor", &e.cpu_governor}, std::pair{"turbo", &e.turbo},
        std::pair{"transparent_hugepages", &e.transparent_hugepages},
        std::pair{"data_device", &e.data_device}}) {
    if (env.contains(name)) r.Get(env, name, field);
  }
  r.GetOptional(env, "load_average_1m", &e.load_average_1m);
  if (env.contains("clock")) r.Get(env, "clock", &e.clock);
  r.GetOptional(env, "clock_ns_per_tick", &e.clock_ns_per_tick);
  r.GetOptional(env, "clock_calibration_error_ppm", &e.clock_calibration_error_ppm);
}

void ReadShard(Reader& r, const json& j, ShardInfo* sh) {
  r.Get(j, "index", &sh->index);
  r.Get(j, "count", &sh->count);
  r.Get(j, "plan_hash", &sh->plan_hash);
  r.Get(j, "assignment_hash", &sh->assignment_hash);
  r.Get(j, "rows", &sh->rows);
  r.Get(j, "finished", &sh->finished);
  r.Get(j, "setup_seconds", &sh->setup_seconds);
  r.Get(j, "started_at", &sh->started_at);
  r.Get(j, "finished_at", &sh->finished_at);
  r.Get(j, "labels", &sh->labels);
  json env;
  if (j.contains("environment") && r.Get(j, "environment", &env)) {
    sh->environment.emplace();
    ReadEnvironment(r, env, &*sh->environment);
  }
  if (j.contains("file")) r.Get(j, "file", &sh->file);
}

void ReadEngineRun(Reader& r, const json& j, EngineRun* er) {
  r.Get(j, "name", &er->name);
  r.Get(j, "library_version", &er->library_version);
  r.Get(j, "options", &er->options);
  r.Get(j, "capabilities", &er->capabilities);
  r.Get(j, "status", &er->status);
  r.Get(j, "reason", &er->reason);
  r.Get(j, "wall_seconds", &er->wall_seconds);
  json plugin;
  if (j.contains("plugin") && r.Get(j, "plugin", &plugin)) {
    r.Get(plugin, "path", &er->plugin_path);
    r.Get(plugin, "sha256", &er->plugin_sha256);
    r.Get(plugin, "abi_version", &er->plugin_abi);
  }
}

// A schema-4 repetition of client threads carries wall_seconds, and its
// `seconds` was, unthrottled, the busiest thread's time inside the engine's
// calls (under a target rate the wall span again). Read as schema 5: seconds
// is the wall span, the in-call time is engine_seconds, and the figures the
// file holds are kept as written, marked as dividing by the in-call time.
void ReadSchema4Times(const json& j, const PhaseRun& pr, Repetition* rep) {
  if (!j.contains("wall_seconds") || !j["wall_seconds"].is_number()) return;
  const double wall = j["wall_seconds"].get<double>();
  if (pr.target_ops == 0) {
    rep->engine_seconds = rep->seconds;
    rep->rate_base = RateBase::kEngineCalls;
  }
  rep->seconds = wall;
}

void ReadPhaseRun(Reader& r, const json& j, PhaseRun* pr, int version) {
  r.Get(j, "phase", &pr->phase);
  r.Get(j, "op", &pr->op);
  r.Get(j, "engine", &pr->engine);
  r.Get(j, "threads", &pr->threads);
  r.Get(j, "target_ops", &pr->target_ops);
  r.Get(j, "cache", &pr->cache);
  r.Get(j, "params", &pr->params);
  r.Get(j, "status", &pr->status);
  r.Get(j, "reason", &pr->reason);
  json reps;
  if (r.Get(j, "repetitions", &reps)) {
    for (const json& rep : reps) {
      Repetition out_rep;
      ReadRepetition(r, rep, &out_rep);
      if (version == 4) ReadSchema4Times(rep, *pr, &out_rep);
      pr->repetitions.push_back(std::move(out_rep));
    }
  }
  json warmups;
  if (j.contains("warmup_repetitions") && r.Get(j, "warmup_repetitions", &warmups)) {
    for (const json& rep : warmups) {
      Repetition out_rep;
      ReadRepetition(r, rep, &out_rep);
      pr->warmup_repetitions.push_back(std::move(out_rep));
    }
  }
  r.GetOptional(j, "wall_seconds", &pr->wall_seconds);
  r.GetOptional(j, "row", &pr->row);
  r.GetOptional(j, "shard", &pr->shard);
  if (j.contains("writers_serialised")) r.Get(j, "writers_serialised", &pr->writers_serialised);
}

}  // namespace

json PhaseRunToJson(const PhaseRun& pr) {
  json reps = json::array();
  for (const Repetition& rep : pr.repetitions) reps.push_back(RepetitionToJson(rep));
  json j = {{"phase", pr.phase},           {"op", pr.op},
            {"engine", pr.engine},         {"threads", pr.threads},
            {"target_ops", pr.target_ops}, {"cache", pr.cache},
            {"params", pr.params},         {"status", pr.status},
            {"reason", pr.reason},         {"repetitions", reps},
            {"summary", SummaryToJson(pr)}};
  PutOptional(j, "wall_seconds", pr.wall_seconds);
  PutOptional(j, "row", pr.row);
  PutOptional(j, "shard", pr.shard);
  if (pr.writers_serialised) j["writers_serialised"] = true;
  if (!pr.warmup_repetitions.empty()) {
    json warmups = json::array();
    for (const Repetition& rep : pr.warmup_repetitions) warmups.push_back(RepetitionToJson(rep));
    j["warmup_repetitions"] = std::move(warmups);
  }
  return j;
}

json EngineRunToJson(const EngineRun& er) {
  json j = {{"name", er.name},
            {"library_version", er.library_version},
            {"options", er.options},
            {"capabilities", er.capabilities},
            {"status", er.status},
            {"reason", er.reason},
            {"wall_seconds", er.wall_seconds}};
  if (!er.plugin_path.empty()) {
    j["plugin"] = {
        {"path", er.plugin_path}, {"sha256", er.plugin_sha256}, {"abi_version", er.plugin_abi}};
  }
  return j;
}

json ResultsToJson(const RunResults& res) {
  const json env = EnvironmentToJson(res.environment);
  const WorkloadInfo& w = res.workload;
  json workload = {{"name", w.name},   {"description", w.description}, {"file", w.file},
                   {"source", w.source}, {"scale", w.scale},           {"dataset", w.dataset}};
  json engines = json::array();
  for (const EngineRun& er : res.engines) engines.push_back(EngineRunToJson(er));
  json runs = json::array();
  for (const PhaseRun& pr : res.runs) runs.push_back(PhaseRunToJson(pr));
  json doc = {{"schema", kResultsSchemaName},
              {"schema_version", res.schema_version},
              {"started_at", res.started_at},
              {"finished_at", res.finished_at},
              {"command_line", res.command_line},
              {"environment", env},
              {"workload", workload},
              {"engines", engines},
              {"runs", runs}};
  if (!res.run_id.empty()) doc["run_id"] = res.run_id;
  doc["complete"] = res.complete;
  if (!res.interrupted.empty()) doc["interrupted"] = res.interrupted;
  if (!res.durability.empty()) doc["durability"] = DurabilityToJson(res.durability);
  if (!res.shards.empty()) {
    json shards = json::array();
    for (const ShardInfo& sh : res.shards) shards.push_back(ShardToJson(sh));
    doc["shards"] = shards;
  }
  return doc;
}

Status ResultsFromJson(const json& doc, RunResults* out) {
  Reader r("results");
  std::string schema;
  if (!r.Get(doc, "schema", &schema)) return Status::InvalidArgument(r.error());
  if (schema != kResultsSchemaName) {
    return Status::InvalidArgument("not a kvbench results file (schema '" + schema + "')");
  }
  // Compared as the number the file holds: read into an int first,
  // 99999999999 became 1215752191 and 2.5 became 2.
  json version;
  if (!r.Get(doc, "schema_version", &version)) return Status::InvalidArgument(r.error());
  const bool is_integer =
      version.is_number_integer() &&
      !(version.is_number_unsigned() && version.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX));
  if (!is_integer || version.get<int64_t>() < kOldestReadableSchemaVersion ||
      version.get<int64_t>() > kResultsSchemaVersion) {
    return Status::InvalidArgument("schema_version " + version.dump() +
                                   " is not supported (this kvbench reads " +
                                   std::to_string(kOldestReadableSchemaVersion) + " to " +
                                   std::to_string(kResultsSchemaVersion) + ")");
  }
  RunResults res;
  // Read as what it is now: a schema 1 file is written back as schema 2.
  res.schema_version = kResultsSchemaVersion;
  r.Get(doc, "started_at", &res.started_at);
  r.Get(doc, "finished_at", &res.finished_at);
  r.Get(doc, "command_line", &res.command_line);
  // Optional: files written before run ids existed have none.
  if (doc.contains("run_id")) r.Get(doc, "run_id", &res.run_id);
  if (doc.contains("complete")) r.Get(doc, "complete", &res.complete);
  if (doc.contains("interrupted")) r.Get(doc, "interrupted", &res.interrupted);

  json env;
  r.set_where("results.environment");
  if (r.Get(doc, "environment", &env)) {
    ReadEnvironment(r, env, &res.environment);
  }
  json workload;
  r.set_where("results.workload");
  if (r.Get(doc, "workload", &workload)) {
    WorkloadInfo& w = res.workload;
    r.Get(workload, "name", &w.name);
    r.Get(workload, "description", &w.description);
    r.Get(workload, "file", &w.file);
    r.Get(workload, "source", &w.source);
    r.Get(workload, "scale", &w.scale);
    r.Get(workload, "dataset", &w.dataset);
  }
  json engines;
  r.set_where("results");
  if (r.Get(doc, "engines", &engines)) {
    for (size_t i = 0; i < engines.size(); ++i) {
      r.set_where("results.engines[" + std::to_string(i) + "]");
      EngineRun er;
      ReadEngineRun(r, engines[i], &er);
      res.engines.push_back(std::move(er));
    }
  }
  json runs;
  r.set_where("results");
  if (r.Get(doc, "runs", &runs)) {
    for (size_t i = 0; i < runs.size(); ++i) {
      r.set_where("results.runs[" + std::to_string(i) + "]");
      PhaseRun pr;
      ReadPhaseRun(r, runs[i], &pr, version);
      res.runs.push_back(std::move(pr));
    }
  }
  json shards;
  if (doc.contains("shards") && r.Get(doc, "shards", &shards)) {
    for (size_t i = 0; i < shards.size(); ++i) {
      r.set_where("results.shards[" + std::to_string(i) + "]");
      ShardInfo sh;
      ReadShard(r, shards[i], &sh);
      res.shards.push_back(std::move(sh));
    }
  }
  if (!r.ok()) return Status::InvalidArgument(r.error());
  if (doc.contains("durability")) {
    KVBENCH_RETURN_IF_ERROR(DurabilityFromJson(doc["durability"], &res.durability));
  }
  *out = std::move(res);
  return Status::OK();
}

Status PhaseRunFromJson(const json& j, PhaseRun* out) {
  Reader r("run");
  // The child's messages to the parent: always this kvbench's schema.
  ReadPhaseRun(r, j, out, kResultsSchemaVersion);
  return r.ok() ? Status::OK() : Status::InvalidArgument(r.error());
}

Status EngineRunFromJson(const json& j, EngineRun* out) {
  Reader r("engine");
  ReadEngineRun(r, j, out);
  return r.ok() ? Status::OK() : Status::InvalidArgument(r.error());
}

std::string ResultsFileText(const RunResults& results, bool pretty) {
  return ResultsToJson(results).dump(pretty ? 1 : -1) + "\n";
}

Status WriteResultsFile(const RunResults& results, const std::string& path, bool pretty) {
  return WriteFileAtomically(path, ResultsFileText(results, pretty));
}

Status ReadResultsFile(const std::string& path, RunResults* out, std::string* bytes) {
  // Bounded and regular only: /dev/zero was read until memory ran out.
  std::string text;
  KVBENCH_RETURN_IF_ERROR(ReadInputFile(path, kMaxResultsFileBytes, "results file", &text));
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    return Status::InvalidArgument("'" + path + "': not valid JSON (truncated?) at byte " +
                                   std::to_string(e.byte));
  }
  if (bytes != nullptr) *bytes = std::move(text);
  return ResultsFromJson(doc, out).WithContext("'" + path + "'");
}

}  // namespace kvbench::results
