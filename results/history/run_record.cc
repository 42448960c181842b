#include "results/history/run_record.h"

#include <fmt/format.h>

#include <algorithm>

#include "results/history/sha256.h"
#include "results/history_model.h"
#include "results/results_json.h"

namespace kvbench::results {

namespace {

// The value of a per-operation figure of one repetition.
double OpFigure(const OpFigures& f, const std::string& name) {
  const LatencySummary& l = f.latency;
  if (name == "ops_per_sec") return f.ops_per_sec;
  if (name == "p50_ns") return static_cast<double>(l.p50_ns);
  if (name == "p90_ns") return static_cast<double>(l.p90_ns);
  if (name == "p99_ns") return static_cast<double>(l.p99_ns);
  if (name == "p999_ns") return static_cast<double>(l.p999_ns);
  if (name == "max_ns") return static_cast<double>(l.max_ns);
  return l.mean_ns;  // mean_ns
}

// The value of a per-phase-run figure of one repetition, if measured.
std::optional<double> RunFigure(const Repetition& r, const std::string& name) {
  auto opt = [](const auto& v) -> std::optional<double> {
    if (!v) return std::nullopt;
    return static_cast<double>(*v);
  };
  if (name == "seconds") return r.seconds;
  if (name == "cpu_user_s") return r.cpu_user_s;
  if (name == "cpu_sys_s") return r.cpu_sys_s;
  if (name == "peak_rss_bytes") return static_cast<double>(r.peak_rss_bytes);
  if (name == "file_bytes") return static_cast<double>(r.file_bytes);
  if (name == "allocated_bytes") return static_cast<double>(r.allocated_bytes);
  if (name == "bytes_read") return opt(r.bytes_read);
  if (name == "bytes_written") return opt(r.bytes_written);
  return opt(r.open_seconds);  // open_seconds
}

// What `figure` of these repetitions divides by or measures. `seconds` is
// the wall span whatever the file's schema (a schema-4 file is read with its
// wall span there); ops_per_sec follows each repetition's rate base.
std::string TimeBaseOf(const std::vector<const Repetition*>& reps, const std::string& figure) {
  if (!FigureHasTimeBase(figure)) return "";
  if (figure != "ops_per_sec") return kTimeBaseWallSpan;
  std::string base;
  for (const Repetition* rep : reps) {
    const char* name =
        rep->rate_base == RateBase::kEngineCalls ? kTimeBaseEngineCalls : kTimeBaseWallSpan;
    if (base.empty()) {
      base = name;
    } else if (base != name) {
      return kTimeBaseMixed;
    }
  }
  return base.empty() ? kTimeBaseWallSpan : base;
}

StoredFigure FigureOf(const PhaseRun& pr, const std::string& op, const std::string& figure,
                      std::vector<double> values, std::string time_base) {
  StoredFigure f;
  f.engine = pr.engine;
  f.phase = pr.phase;
  f.phase_op = pr.op;
  f.threads = pr.threads;
  f.target_ops = pr.target_ops;
  f.cache = pr.cache;
  f.op = op;
  f.figure = figure;
  f.time_base = std::move(time_base);
  f.spread = SpreadOfValues(values);
  f.values = std::move(values);
  return f;
}

void AddFigures(const PhaseRun& pr, std::vector<StoredFigure>* out) {
  std::vector<std::string> ops;
  for (const Repetition& rep : pr.repetitions) {
    for (const OpFigures& f : rep.ops) {
      if (std::find(ops.begin(), ops.end(), f.op) == ops.end()) ops.push_back(f.op);
    }
  }
  for (const std::string& op : ops) {
    for (const FigureKind& kind : FigureKinds()) {
      if (!kind.per_op) continue;
      std::vector<double> values;
      std::vector<const Repetition*> reps;
      for (const Repetition& rep : pr.repetitions) {
        for (const OpFigures& f : rep.ops) {
          if (f.op != op) continue;
          values.push_back(OpFigure(f, kind.name));
          reps.push_back(&rep);
        }
      }
      out->push_back(FigureOf(pr, op, kind.name, std::move(values), TimeBaseOf(reps, kind.name)));
    }
  }
  for (const FigureKind& kind : FigureKinds()) {
    if (kind.per_op) continue;
    std::vector<double> values;
    std::vector<const Repetition*> reps;
    for (const Repetition& rep : pr.repetitions) {
      if (const std::optional<double> v = RunFigure(rep, kind.name)) {
        values.push_back(*v);
        reps.push_back(&rep);
      }
    }
    if (!values.empty()) {
      out->push_back(FigureOf(pr, "", kind.name, std::move(values), TimeBaseOf(reps, kind.name)));
    }
  }
}

}  // namespace

std::string WorkloadHash(const WorkloadInfo& w) {
  std::string text = w.source;
  text += fmt::format("\n\x1fscale={}\n", w.scale);
  for (const auto& [k, v] : w.dataset) text += k + "=" + v + "\n";
  return Sha256Hex(text).substr(0, 16);
}

std::string HostFingerprint(const Environment& e) {
  const uint64_t gib = (e.memory_bytes + (1ULL << 29)) >> 30;
  return Sha256Hex(fmt::format("{}\n{}\n{}\n{}\n", e.hostname, e.cpu_model, e.cores, gib))
      .substr(0, 16);
}

Status MakeRunRecord(const RunResults& results, std::string_view file_bytes,
                     const std::string& source, RunRecord* out) {
  if (results.started_at.empty()) {
    return Status::InvalidArgument("'" + source + "': the results have no started_at");
  }
  RunRecord r;
  r.content_sha256 = Sha256Hex(file_bytes);
  if (!results.run_id.empty()) {
    r.run_id = results.run_id;
    r.run_id_source = "results";
  } else {
    // 32 hex digits like a written id; the same bytes always give the same id.
    r.run_id = r.content_sha256.substr(0, 32);
    r.run_id_source = "content";
  }
  r.source = source;
  r.workload_hash = WorkloadHash(results.workload);
  r.host_fingerprint = HostFingerprint(results.environment);
  r.header = results;
  r.header.runs.clear();
  for (const PhaseRun& pr : results.runs) {
    if (pr.status == "ok" && !pr.repetitions.empty()) AddFigures(pr, &r.figures);
  }
  *out = std::move(r);
  return Status::OK();
}

Status ReadRunRecord(const std::string& path, RunRecord* out) {
  RunResults results;
  std::string bytes;
  KVBENCH_RETURN_IF_ERROR(ReadResultsFile(path, &results, &bytes));
  return MakeRunRecord(results, bytes, path, out);
}

}  // namespace kvbench::results
