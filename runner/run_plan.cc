#include "runner/run_plan.h"

#include "runner/engine_schedule.h"
#include "runner/record_source.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"
#include "common/input_file.h"
#include "datasets/key_generator.h"
#include "datasets/request_distribution.h"
#include "datasets/value_generator.h"

namespace kvbench::runner {

namespace {

// Capability names as results.json writes them, read back by CapabilitiesOf.
constexpr std::pair<const char*, bool Capabilities::*> kCapabilityNames[] = {
    {"stores_data", &Capabilities::stores_data},
    {"ordered", &Capabilities::ordered},
    {"transactional", &Capabilities::transactional},
    {"durable", &Capabilities::durable},
    {"concurrent_readers", &Capabilities::concurrent_readers},
    {"concurrent_writers", &Capabilities::concurrent_writers},
    {"native_records", &Capabilities::native_records},
    {"native_secondary_index", &Capabilities::native_secondary_index},
    {"reorganize", &Capabilities::reorganize}};

std::map<std::string, bool> CapabilityMap(const Capabilities& c) {
  std::map<std::string, bool> out;
  for (const auto& [name, member] : kCapabilityNames) out[name] = c.*member;
  out["keys_up_to_2KiB"] = c.max_key_size == 0;
  return out;
}

// The command line's overrides (the CLI checks them too; `kvbench ycsb` and
// tests call the planner directly).
Status CheckOverrides(const RunOverrides& o) {
  if (!std::isfinite(o.scale) || o.scale <= 0 || o.scale > kMaxScale) {
    return Status::InvalidArgument(
        fmt::format("--scale: {} is not a number above 0 and at most {}", o.scale, kMaxScale));
  }
  if (!std::isfinite(o.timeout_s) || o.timeout_s < 0 || o.timeout_s > kMaxTimeoutS) {
    return Status::InvalidArgument(
        fmt::format("--timeout: {} is not a number of seconds above 0 and at most {}", o.timeout_s,
                    kMaxTimeoutS));
  }
  if (o.repeat < 0 || o.repeat > kMaxRepetitions) {
    return Status::InvalidArgument(
        fmt::format("--repeat: {} is not from 1 to {}", o.repeat, kMaxRepetitions));
  }
  if (o.forks < 0 || o.forks > kMaxForks) {
    return Status::InvalidArgument(fmt::format("--forks: {} is not from 1 to {}", o.forks, kMaxForks));
  }
  if (o.warmup_repetitions < -1 || o.warmup_repetitions > kMaxWarmupRepetitions) {
    return Status::InvalidArgument(fmt::format("--warmup-repetitions: {} is not from 0 to {}",
                                               o.warmup_repetitions, kMaxWarmupRepetitions));
  }
  for (const std::string& e : o.engines) {
    if (e.empty()) return Status::InvalidArgument("--engines: an empty engine name");
  }
  return Status::OK();
}

// Counts after --scale and from YCSB property files stay within the bounds
// a TOML file is held to (workload.h), so no count overflows and no run is
// endless by accident.
Status CheckWorkloadBounds(const Workload& w, double scale) {
  const std::string cause =
      scale != 1.0 ? fmt::format(" (after --scale {})", scale) : std::string();
  if (w.dataset_count > kMaxCount) {
    return Status::InvalidArgument(
        fmt::format("{}field 'dataset.count': {} is over the limit of {}{}", w.Where("dataset"),
                    w.dataset_count, kMaxCount, cause));
  }
  for (const PhaseSpec& p : w.phases) {
    const std::string where = fmt::format("{}: phase '{}': ", w.file, p.name);
    for (const auto& [field, value] :
         {std::pair{"count", p.count}, {"warmup", p.warmup}, {"skip", p.skip}}) {
      if (value > kMaxCount) {
        return Status::InvalidArgument(fmt::format("{}field '{}': {} is over the limit of {}{}",
                                                   where, field, value, kMaxCount, cause));
      }
    }
    if (!std::isfinite(p.duration_s) || p.duration_s < 0 || p.duration_s > kMaxDurationS) {
      return Status::InvalidArgument(fmt::format("{}field 'duration': {} s is not from 0 to {} s{}",
                                                 where, p.duration_s, kMaxDurationS, cause));
    }
    for (double target : p.targets) {
      if (!std::isfinite(target) || target < 0 || target > kMaxTargetOpsPerSec) {
        return Status::InvalidArgument(fmt::format("{}field 'target': {} ops/s is not from 0 to {}",
                                                   where, target, kMaxTargetOpsPerSec));
      }
    }
    if (p.ycsb && p.ycsb->max_scan_length > kMaxScanLimit) {
      return Status::InvalidArgument(
          fmt::format("{}property 'maxscanlength': {} is over the limit of {}", where,
                      p.ycsb->max_scan_length, kMaxScanLimit));
    }
    if (p.batch < 1 || p.batch > kMaxBatch) {
      return Status::InvalidArgument(
          fmt::format("{}field 'batch': {} is not from 1 to {}", where, p.batch, kMaxBatch));
    }
  }
  if (!std::isfinite(w.timeout_s) || w.timeout_s <= 0 || w.timeout_s > kMaxTimeoutS) {
    return Status::InvalidArgument(
        fmt::format("{}field 'timeout': {} s is not above 0 and at most {} s", w.Where("timeout"),
                    w.timeout_s, kMaxTimeoutS));
  }
  return Status::OK();
}

// Whether a phase's client threads write: the write operations, and a mix
// with any share that is not a read or a scan.
bool ClientThreadsWrite(const PhaseSpec& phase) {
  const PhaseOpInfo& info = InfoOf(phase.op);
  if (info.shape != PhaseShape::kStream || !info.writes) return false;
  if (phase.op != PhaseOp::kMix) return true;
  for (const auto& [name, share] : phase.proportions) {
    if (share > 0 && name != "read" && name != "scan") return true;
  }
  return false;
}

// Several writing client threads on engines that declare no concurrent
// writers. Such a phase is not refused: shipped workloads measure exactly
// that (seed 002's YCSB mixes at 1-8 threads on lmdb, sqlite, native and
// whitedb; seed 003's 100 inserting threads), and adapters/adapter.h has
// such an engine let one writer in at a time (the built-in adapters inside,
// a plugin engine's by the plugin host, adapters/plugin/plugin_adapter.cc).
// The plan says so once, so nobody reads those figures as parallel writes:
// "" when nothing is serialised.
std::string SerialisedWritersNote(const std::string& where, const PhaseSpec& phase,
                                  const std::vector<results::EngineRun>& engines) {
  int threads = 1;
  for (int t : phase.threads) threads = std::max(threads, t);
  std::string names;
  for (const results::EngineRun& e : engines) {
    if (WritersSerialised(phase, threads, CapabilitiesOf(e))) {
      names += (names.empty() ? "'" : ", '") + e.name + "'";
    }
  }
  if (names.empty()) return {};
  return fmt::format(
      "{}: up to {} writing client threads on {}, which declare no concurrent writers "
      "(capabilities.concurrent_writers = false): their writes are serialised, one writer at a "
      "time, so those rows measure {} clients sharing one writer, not parallel writes",
      where, threads, names, threads);
}

}  // namespace

bool WritersSerialised(const PhaseSpec& phase, int threads, const Capabilities& capabilities) {
  return threads >= 2 && !capabilities.concurrent_writers && ClientThreadsWrite(phase);
}

Capabilities CapabilitiesOf(const results::EngineRun& engine) {
  Capabilities c;
  for (const auto& [name, member] : kCapabilityNames) {
    const auto it = engine.capabilities.find(name);
    if (it != engine.capabilities.end()) c.*member = it->second;
  }
  return c;
}

datasets::DatasetSpec DatasetSpecOf(const Workload& w) {
  datasets::DatasetSpec spec;
  spec.kind = w.dataset_kind;
  spec.count = w.dataset_count;
  spec.seed = w.seed;
  for (const auto& [k, v] : w.dataset_params) {
    if (k != "count" && k != "seed") spec.params[k] = v;
  }
  return spec;
}

datasets::DatasetSpec DatasetSpecOf(const Workload& w, const PhaseSpec& phase) {
  if (phase.dataset_kind.empty()) return DatasetSpecOf(w);
  datasets::DatasetSpec spec;
  spec.kind = phase.dataset_kind;
  spec.seed = w.seed;
  for (const auto& [k, v] : phase.dataset_params) {
    if (k == "count") {
      spec.count = std::stoull(v);
    } else if (k == "seed") {
      spec.seed = std::stoull(v);
    } else {
      spec.params[k] = v;
    }
  }
  return spec;
}

std::map<std::string, std::string> PhaseParameters(const PhaseSpec& spec) {
  const uint32_t fields = InfoOf(spec.op).fields;
  std::map<std::string, std::string> out;
  auto uses = [fields](uint32_t bit) { return (fields & bit) != 0; };
  out["repetitions"] = std::to_string(spec.repetitions);
  if (uses(kFieldCount)) {
    out["count"] = std::to_string(spec.count);
    if (spec.duration_s > 0) out["duration_s"] = fmt::format("{}", spec.duration_s);
  }
  if (uses(kFieldBatch)) out["batch"] = std::to_string(spec.batch);
  if (uses(kFieldWarmup)) out["warmup"] = std::to_string(spec.warmup);
  if (uses(kFieldKeys)) out["keys"] = NameOf(spec.keys);
  if (uses(kFieldDistribution)) {
    out["distribution"] = spec.distribution;
    for (const auto& [k, v] : spec.distribution_params) out["distribution." + k] = v;
  }
  if (uses(kFieldSync)) out["sync"] = NameOf(spec.sync);
  if (uses(kFieldOrder)) out["order"] = NameOf(spec.order);
  if (uses(kFieldLimit)) out["limit"] = std::to_string(spec.limit);
  if (uses(kFieldDirection)) {
    out["direction"] = NameOf(spec.direction);
    out["values"] = spec.values ? "true" : "false";
  }
  if (uses(kFieldFromTo)) {
    out["from"] = fmt::format("{}", spec.from);
    out["to"] = fmt::format("{}", spec.to);
  }
  if (uses(kFieldSkip)) out["skip"] = std::to_string(spec.skip);
  if (uses(kFieldProportions)) {
    for (const auto& [k, v] : spec.proportions) out["proportion." + k] = fmt::format("{}", v);
  }
  if (uses(kFieldThreads) && spec.table_per_thread) out["table_per_thread"] = "true";
  if (uses(kFieldThreads) && spec.pacing != Pacing::kSleep) out["pacing"] = NameOf(spec.pacing);
  if (uses(kFieldRecord)) {
    if (!spec.schema.empty()) out["schema"] = spec.schema;
    out["table"] = spec.table;
  }
  if (uses(kFieldField)) out["field"] = std::to_string(spec.field);
  if (uses(kFieldValue)) out["value"] = std::to_string(spec.value);
  if (uses(kFieldSet)) {
    out["set"] = NameOf(spec.set);
    out["read_back"] = spec.read_back ? "true" : "false";
  }
  if (uses(kFieldDeleteAfter)) out["delete_after"] = spec.delete_after ? "true" : "false";
  if (InfoOf(spec.op).shape == PhaseShape::kRecord) {
    out["timing"] = "blocks of up to 256 operations, generation excluded";
  }
  if (spec.reopen) out["reopen"] = "true";
  if (spec.fresh) out["fresh"] = "true";
  if (!spec.dataset_kind.empty()) {
    out["dataset.kind"] = spec.dataset_kind;
    for (const auto& [k, v] : spec.dataset_params) out["dataset." + k] = v;
  }
  if (spec.ycsb) {
    out["ycsb.fieldcount"] = std::to_string(spec.ycsb->field_count);
    out["ycsb.readallfields"] = spec.ycsb->read_all_fields ? "true" : "false";
    out["ycsb.writeallfields"] = spec.ycsb->write_all_fields ? "true" : "false";
    out["ycsb.key_space"] = std::to_string(spec.ycsb->key_space);
    if (spec.proportions.contains("scan")) {
      out["ycsb.scanlength"] = fmt::format("{} [{}, {}]", spec.ycsb->scan_length_distribution,
                                           spec.ycsb->min_scan_length, spec.ycsb->max_scan_length);
    }
  }
  return out;
}

std::vector<MatrixPoint> ExpandMatrix(const PhaseSpec& spec) {
  std::vector<MatrixPoint> points;
  for (int threads : spec.threads) {
    for (double target : spec.targets) {
      for (CacheState cache : spec.caches) points.push_back({threads, target, cache});
    }
  }
  return points;
}

namespace {

// The command line's overrides applied to the workload (counts scaled and
// held to their bounds, seeds, repetitions, forks, timeout, engines).
Status ApplyOverrides(const RunOverrides& overrides, Workload* workload) {
  Workload& w = *workload;
  if (overrides.scale != 1.0 && !w.ycsb_properties.empty()) {
    return Status::InvalidArgument("--scale: not for YCSB property files (use -p recordcount=N "
                                   "-p operationcount=N)");
  }
  if (overrides.scale != 1.0) ScaleWorkload(overrides.scale, &w);
  // YCSB property files and --scale make counts the TOML parser never saw.
  KVBENCH_RETURN_IF_ERROR(CheckWorkloadBounds(w, overrides.scale));
  if (overrides.seed) {
    // --seed: every dataset's seed, the phases' own datasets too.
    w.seed = *overrides.seed;
    for (PhaseSpec& phase : w.phases) {
      if (!phase.dataset_kind.empty()) phase.dataset_params["seed"] = std::to_string(w.seed);
    }
  }
  w.dataset_params["count"] = std::to_string(w.dataset_count);
  w.dataset_params["seed"] = std::to_string(w.seed);
  if (overrides.repeat > 0) {
    for (PhaseSpec& phase : w.phases) phase.repetitions = overrides.repeat;
  }
  if (overrides.forks > 0) w.measurement.forks = overrides.forks;
  if (overrides.warmup_repetitions >= 0) {
    w.measurement.warmup_repetitions = overrides.warmup_repetitions;
  }
  // A repetition of a phase that changes state for good would measure other
  // work (phase_op.h): once, whatever the workload or --repeat say.
  for (PhaseSpec& phase : w.phases) {
    if (InfoOf(phase.op).single_run) phase.repetitions = 1;
  }
  if (overrides.timeout_s > 0) w.timeout_s = overrides.timeout_s;
  if (!overrides.engines.empty()) w.engines = overrides.engines;
  // An engine listed twice would run, and be ranked, twice.
  for (size_t i = 0; i < w.engines.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (w.engines[i] == w.engines[j]) {
        const std::string where = overrides.engines.empty()
                                      ? w.Where("engines") + "field 'engines': "
                                      : std::string("--engines: ");
        return Status::InvalidArgument(where + "engine '" + w.engines[i] + "' is listed twice");
      }
    }
  }

  return Status::OK();
}

// One engine of the plan: created, its options resolved and checked by the
// adapter's own parser (a bad value for the last engine fails the plan, not
// the run), its version, capabilities and plugin origin recorded.
Status PlanEngine(const Workload& w, const std::string& name, bool engines_overridden,
                  results::EngineRun* out) {
  const AdapterRegistry& registry = AdapterRegistry::Global();
  std::unique_ptr<Adapter> adapter;
  Status created = registry.Create(name, &adapter);
  if (!created.ok()) {
    return Status::InvalidArgument(
        (!engines_overridden ? w.Where("engines") + "field 'engines': " : "--engines: ") +
        created.message());
  }
  EngineOptions resolved;
  const auto it = w.engine_options.find(name);
  const std::map<std::string, std::string> none;
  const auto& given = it == w.engine_options.end() ? none : it->second;
  // The workload field of the first option an error message names.
  auto field_of = [&](const Status& error) {
    std::string field = "options." + name;
    for (const auto& [key, value] : given) {
      if (error.message().find("'" + key + "'") != std::string::npos) return field + "." + key;
    }
    return field;
  };
  Status resolved_ok = ResolveEngineOptions(name, adapter->OptionSpecs(), given, &resolved);
  if (!resolved_ok.ok()) {
    const std::string field = field_of(resolved_ok);
    return Status::InvalidArgument(w.Where(field) + "field '" + field + "': " +
                                   resolved_ok.message());
  }
  // Values are checked here, before any engine starts, by the adapter's
  // own parser: a bad value for the last engine fails the plan, not the run.
  if (Status checked = adapter->CheckOptions(resolved); !checked.ok()) {
    return Status::InvalidArgument(w.Where(field_of(checked)) + "engine '" + name + "': " +
                                   checked.message());
  }
  results::EngineRun er;
  er.name = name;
  er.library_version = adapter->LibraryVersion();
  er.options = resolved.values();
  er.capabilities = CapabilityMap(adapter->capabilities());
  if (const plugin_host::PluginOrigin* origin = plugin_host::PluginOriginOf(name)) {
    er.plugin_path = origin->path;
    er.plugin_sha256 = origin->sha256;
    er.plugin_abi = origin->abi_version;
  }
  *out = std::move(er);
  return Status::OK();
}

// The dataset and values must be constructible here, not in a child later.
Status PlanDataset(const Workload& w, RunPlan* p) {
  const datasets::DatasetSpec spec = DatasetSpecOf(w);
  std::unique_ptr<datasets::KeyGenerator> keys;
  Status made = datasets::NewKeyGenerator(spec, &keys);
  if (!made.ok()) {
    return Status(made).WithContext(w.Where("dataset") + "field 'dataset'");
  }
  p->dataset = keys->params().values();
  p->dataset["kind"] = w.dataset_kind;
  p->dataset["count"] = std::to_string(w.dataset_count);
  p->dataset["seed"] = std::to_string(w.seed);
  datasets::DatasetParams value_params;
  KVBENCH_RETURN_IF_ERROR(
      datasets::DatasetParams::Resolve("values", datasets::ValueParams(), w.value_params, &value_params)
          .WithContext(w.Where("values") + "field 'values'"));
  datasets::ValueOptions value_options;
  KVBENCH_RETURN_IF_ERROR(datasets::ParseValueOptions(w.value_params, &value_options)
                              .WithContext(w.Where("values") + "field 'values'"));
  p->values = value_params.values();

  return Status::OK();
}

// Every phase's own dataset, distribution, record schema and sync mode
// checked; a warning for writers the runner will serialise.
Status CheckPhases(const Workload& w, RunPlan* p) {
  const std::string& path = w.file;
  bool has_record_table = false;
  for (size_t i = 0; i < w.phases.size(); ++i) {
    const PhaseSpec& phase = w.phases[i];
    const std::string where = phase.ycsb ? fmt::format("{}: phase '{}'", path, phase.name)
                                         : fmt::format("{}:{}: phase '{}'", path, phase.line,
                                                       phase.name);
    if (!phase.dataset_kind.empty()) {
      std::unique_ptr<datasets::KeyGenerator> phase_keys;
      KVBENCH_RETURN_IF_ERROR(datasets::NewKeyGenerator(DatasetSpecOf(w, phase), &phase_keys)
                                  .WithContext(where + ": field 'dataset'"));
    }
    std::unique_ptr<datasets::RequestDistribution> distribution;
    const uint64_t item_count =
        phase.ycsb && phase.ycsb->key_space > 0 ? phase.ycsb->key_space : w.dataset_count;
    KVBENCH_RETURN_IF_ERROR(datasets::NewRequestDistribution(
                                {phase.distribution, phase.distribution_params},
                                item_count, 1, 0, 1, &distribution)
                                .WithContext(where));
    // Record phases: the schema must parse, and the first record phase
    // needs one (the later ones reuse its table).
    if (!phase.schema.empty()) {
      std::unique_ptr<RecordSource> source;
      KVBENCH_RETURN_IF_ERROR(
          RecordSource::Parse(phase.schema, phase.table, 1, &source).WithContext(where + ": field 'schema'"));
      // Record inserts and creates write every field; the others name one.
      if (phase.field >= source->field_count() && (InfoOf(phase.op).fields & kFieldField)) {
        return Status::InvalidArgument(fmt::format("{}: field 'field': {} is out of range (the schema has {} fields)",
                                                   where, phase.field, source->field_count()));
      }
      has_record_table = true;
    } else if (InfoOf(phase.op).needs_record_table && !has_record_table) {
      return Status::InvalidArgument(where + ": field 'schema': missing (the first record phase "
                                     "names the records' schema, e.g. schema = \"int*5\")");
    }
    if (phase.fresh) has_record_table = !phase.schema.empty();
    if (phase.sync == CommitSync::kCommit) {
      for (int t : phase.threads) {
        if (t > 1) {
          return Status::InvalidArgument(where + ": sync = \"commit\" needs threads = 1");
        }
      }
    }
    if (std::string note = SerialisedWritersNote(where, phase, p->engines); !note.empty()) {
      p->warnings.push_back(std::move(note));
    }
  }
  return Status::OK();
}

}  // namespace

Status PlanWorkload(Workload workload, const RunOverrides& overrides, RunPlan* plan) {
  RunPlan p;
  p.workload = std::move(workload);
  const std::string path = p.workload.file;
  if (!p.workload.ycsb_ignored.empty()) {
    std::string list;
    for (const std::string& k : p.workload.ycsb_ignored) list += (list.empty() ? "" : ", ") + k;
    p.warnings.push_back(path + ": YCSB properties kvbench ignores (docs/ycsb.md says why): " +
                         list);
  }
  Workload& w = p.workload;
  KVBENCH_RETURN_IF_ERROR(CheckOverrides(overrides));
  KVBENCH_RETURN_IF_ERROR(ApplyOverrides(overrides, &w));
  // The workload's plugins register their engines before any name is looked up.
  if (Status loaded = plugin_host::LoadPlugins(
          w.plugins, std::filesystem::path(path).parent_path().string());
      !loaded.ok()) {
    return Status::InvalidArgument(w.Where("plugins") + "field 'plugins': " + loaded.message());
  }
  const AdapterRegistry& registry = AdapterRegistry::Global();
  if (w.engines.empty()) {
    for (const AdapterInfo* info : registry.All()) {
      if (info->create()->capabilities().stores_data) w.engines.push_back(info->name);
    }
  }
  for (const auto& [engine, options] : w.engine_options) {
    if (registry.Find(engine) == nullptr) {
      return Status::InvalidArgument(w.Where("options." + engine) + "field 'options." + engine +
                                     "': unknown engine '" + engine + "'");
    }
  }
  for (const std::string& name : w.engines) {
    results::EngineRun er;
    KVBENCH_RETURN_IF_ERROR(PlanEngine(w, name, !overrides.engines.empty(), &er));
    p.engines.push_back(std::move(er));
  }
  KVBENCH_RETURN_IF_ERROR(PlanDataset(w, &p));
  KVBENCH_RETURN_IF_ERROR(CheckPhases(w, &p));
  *plan = std::move(p);
  return Status::OK();
}

std::string DescribePlan(const RunPlan& plan) {
  const Workload& w = plan.workload;
  std::string out = fmt::format("workload {} ({})\n", w.name, w.file);
  if (!w.description.empty()) out += fmt::format("  {}\n", w.description);
  out += "dataset:";
  for (const auto& [k, v] : plan.dataset) out += fmt::format(" {}={}", k, v);
  out += "\nvalues:";
  for (const auto& [k, v] : plan.values) out += fmt::format(" {}={}", k, v);
  out += fmt::format("\ntimeout per engine: {} s\n", w.timeout_s);
  if (w.measurement.forks > 1) {
    out += fmt::format("forks: {} (every engine's phases run in {} fresh processes, one after "
                       "another; each row pools their repetitions)\n",
                       w.measurement.forks, w.measurement.forks);
  }
  out += "engines:\n";
  for (const results::EngineRun& e : plan.engines) {
    out += fmt::format("  {} ({})\n", e.name, e.library_version);
    for (const auto& [k, v] : e.options) out += fmt::format("    {} = {}\n", k, v.empty() ? "(unset)" : v);
  }
  if (!w.ycsb_properties.empty()) {
    out += "YCSB properties:";
    for (const auto& [k, v] : w.ycsb_properties) out += fmt::format(" {}={}", k, v);
    out += "\n";
  }
  out += "phases:\n";
  for (const PhaseSpec& p : w.phases) {
    out += p.ycsb ? fmt::format("  {}: op={}", p.name, NameOf(p.op))
                  : fmt::format("  {} (line {}): op={}", p.name, p.line, NameOf(p.op));
    for (const auto& [k, v] : PhaseParameters(p)) out += fmt::format(" {}={}", k, v);
    out += "\n";
    const int warmups = WarmupRepetitions(w, p, static_cast<size_t>(&p - w.phases.data()));
    if (warmups > 0) {
      out += fmt::format("    warm-up: {} repetition{} before the measured ones, discarded\n",
                         warmups, warmups == 1 ? "" : "s");
    } else if (w.measurement.warmup_repetitions > 0) {
      out += "    warm-up: none (a repetition changes what later ones see)\n";
    }
    for (const MatrixPoint& m : ExpandMatrix(p)) {
      out += fmt::format("    threads={} target={} cache={}\n", m.threads,
                         m.target > 0 ? fmt::format("{} ops/s", m.target) : "unthrottled",
                         m.cache == CacheState::kAsIs ? "as-is" : NameOf(m.cache));
    }
  }
  return out;
}

}  // namespace kvbench::runner
