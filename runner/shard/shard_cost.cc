#include "runner/shard/shard_cost.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "runner/operation_stream.h"
#include "runner/phase_executor.h"

namespace kvbench::runner {

namespace {

// The fixed model's round figures (shard_cost.h says what they stand for).
constexpr double kGetSeconds = 2e-6;
constexpr double kBatchedWriteSeconds = 3e-6;
constexpr double kOwnTransactionWriteSeconds = 20e-6;
constexpr double kCommitSyncSeconds = 2e-3;
constexpr double kScannedRowSeconds = 0.2e-6;
constexpr double kRecordSeconds = 2e-6;
constexpr double kRecordWalkSeconds = 1e-3;  // record-scan / record-follow over a table
constexpr double kRecordIndexSeconds = 1;
constexpr double kMemoryWordSeconds = 5e-9;
constexpr double kReorganizePerKeySeconds = 1e-6;
constexpr double kSyncCallSeconds = 0.05;
constexpr double kReopenSeconds = 0.05;
constexpr double kRecreateSeconds = 5e-3;
// Per repetition, around the timed part.
constexpr double kColdSeconds = 0.1;  // sync, close, evict, reopen
constexpr double kFreshSeconds = 0.02;
constexpr double kSyncAfterWritesSeconds = 0.02;

double WriteSeconds(const PhaseSpec& s) {
  const double batch = static_cast<double>(std::max<uint64_t>(1, s.batch));
  double w = s.batch <= 1 ? kOwnTransactionWriteSeconds : kBatchedWriteSeconds;
  if (s.sync == CommitSync::kCommit) w += kCommitSyncSeconds / batch;
  return w;
}

double ScanSeconds(double rows) { return kGetSeconds + rows * kScannedRowSeconds; }

// Seconds of one stream operation of `kind` in phase `s` (a scan reads s.limit
// rows), whether the phase is made of it alone or of a mix.
double OpKindSeconds(OpKind kind, const PhaseSpec& s) {
  switch (kind) {
    case OpKind::kInsert:
    case OpKind::kUpdate:
    case OpKind::kDelete:
      return WriteSeconds(s);
    case OpKind::kRmw:
      return kGetSeconds + WriteSeconds(s);
    case OpKind::kGet:
      return kGetSeconds;
    case OpKind::kScan:
      return ScanSeconds(static_cast<double>(s.limit));
    case OpKind::kCommit:  // parts of the above, never chosen on their own
    case OpKind::kRmwRead:
    case OpKind::kRmwUpdate:
    case OpKind::kCount:
      break;
  }
  return 0;
}

// The kind a mix's proportion stands for. PhaseSpec::proportions keeps the
// workload file's words (the parser admits only these five); the stream's
// choice (OperationStream's mix table) reads them the same way.
OpKind MixKindOf(const std::string& proportion) {
  if (proportion == "read") return OpKind::kGet;
  if (proportion == "update") return OpKind::kUpdate;
  if (proportion == "insert") return OpKind::kInsert;
  if (proportion == "scan") return OpKind::kScan;
  return OpKind::kRmw;
}

// Seconds per operation of a counted phase.
double PerOpSeconds(const PhaseSpec& s, uint64_t dataset_count) {
  const double limit = static_cast<double>(s.limit);
  switch (s.op) {
    case PhaseOp::kInsert:
      return OpKindSeconds(OpKind::kInsert, s);
    case PhaseOp::kUpdate:
      return OpKindSeconds(OpKind::kUpdate, s);
    case PhaseOp::kDelete:
    case PhaseOp::kDeleteAbsent:
      return OpKindSeconds(OpKind::kDelete, s);
    case PhaseOp::kRmw:
      return OpKindSeconds(OpKind::kRmw, s);
    case PhaseOp::kGet:
      return OpKindSeconds(OpKind::kGet, s);
    case PhaseOp::kScan:
      return OpKindSeconds(OpKind::kScan, s);
    case PhaseOp::kRange: {
      const double span = std::max(0.0, s.to - s.from) * static_cast<double>(dataset_count);
      return ScanSeconds(s.limit_given ? std::min(span, limit) : span);
    }
    case PhaseOp::kSkip:
      return ScanSeconds(static_cast<double>(s.skip) + limit);
    case PhaseOp::kMix: {
      double sum = 0, weighted = 0;
      for (const auto& [proportion, share] : s.proportions) {
        sum += share;
        weighted += share * OpKindSeconds(MixKindOf(proportion), s);
      }
      return sum > 0 ? weighted / sum : kGetSeconds;
    }
    case PhaseOp::kRecordScan:
    case PhaseOp::kRecordFollow:
      return kRecordWalkSeconds;
    case PhaseOp::kRecordQuery:
      return kRecordSeconds * std::max(1.0, limit);
    case PhaseOp::kMemoryBaseline:
      return kMemoryWordSeconds;
    case PhaseOp::kRecreate:
      return kRecreateSeconds;
    default:  // the other record operations
      return kRecordSeconds +
             (s.sync == CommitSync::kCommit
                  ? kCommitSyncSeconds / static_cast<double>(std::max<uint64_t>(1, s.batch))
                  : 0);
  }
}

}  // namespace

ShardCostModel::ShardCostModel(const RunPlan& plan, const results::RunResults* measured)
    : plan_(plan) {
  if (measured == nullptr) return;
  if (const auto it = measured->workload.dataset.find("count");
      it != measured->workload.dataset.end()) {
    const double count = std::strtod(it->second.c_str(), nullptr);
    if (count > 0) dataset_ratio_ = static_cast<double>(plan.workload.dataset_count) / count;
  }
  for (const results::PhaseRun& run : measured->runs) {
    if (run.status != "ok" || run.repetitions.empty()) continue;
    MeasuredRow row;
    const double reps = static_cast<double>(run.repetitions.size());
    if (run.wall_seconds) {
      row.rep_seconds = *run.wall_seconds / reps;
    } else {
      for (const results::Repetition& r : run.repetitions) {
        row.rep_seconds += (r.seconds + r.open_seconds.value_or(0)) / reps;
      }
    }
    if (const auto it = run.params.find("count"); it != run.params.end()) {
      row.count = std::strtod(it->second.c_str(), nullptr);
    }
    measured_[{run.engine, run.phase, run.threads, run.target_ops, run.cache}] = row;
  }
  for (const RowPlace& place : PlanRows(plan)) {
    const PhaseSpec& spec = plan.workload.phases[place.phase];
    const MatrixPoint point = ExpandMatrix(spec)[place.point];
    if (MeasuredRepSeconds(place.engine, place.phase, point) >= 0) ++measured_rows_;
  }
}

double ShardCostModel::MeasuredRepSeconds(size_t engine, size_t phase,
                                          const MatrixPoint& point) const {
  const PhaseSpec& spec = plan_.workload.phases[phase];
  const auto it = measured_.find(
      {plan_.engines[engine].name, spec.name, point.threads, point.target, NameOf(point.cache)});
  if (it == measured_.end()) return -1;
  const MeasuredRow& row = it->second;
  if (row.count > 0 && spec.count > 0) {
    // n paced operations take (n - 1) / target: a few measured ones scaled
    // up fall short of count / target, which bounds the point from below.
    const double scaled = row.rep_seconds * static_cast<double>(spec.count) / row.count;
    return point.target > 0 ? std::max(scaled, static_cast<double>(spec.count) / point.target)
                            : scaled;
  }
  // A phase without a count (sync, reorganize, an index build) works on the
  // whole dataset.
  return row.rep_seconds * dataset_ratio_;
}

double ShardCostModel::ModelRepSeconds(size_t engine, size_t phase, size_t point_index,
                                       bool paced) const {
  const Workload& w = plan_.workload;
  const PhaseSpec& spec = w.phases[phase];
  const results::EngineRun& er = plan_.engines[engine];
  const Capabilities caps = CapabilitiesOf(er);
  if (!UnsupportedReason(spec, caps).empty()) return 0;
  const MatrixPoint point = ExpandMatrix(spec)[point_index];
  double t = 0;
  switch (spec.op) {
    case PhaseOp::kReorganize:
      t = kReorganizePerKeySeconds * static_cast<double>(w.dataset_count);
      break;
    case PhaseOp::kSync:
      t = kSyncCallSeconds;
      break;
    case PhaseOp::kReopen:
      t = kReopenSeconds;
      break;
    case PhaseOp::kRecordIndex:
      t = kRecordIndexSeconds;
      break;
    default: {
      const double per_op = PerOpSeconds(spec, w.dataset_count);
      const double count = static_cast<double>(spec.count);
      t = spec.count == 0 && spec.duration_s > 0 ? spec.duration_s : count * per_op;
      if (paced && point.target > 0) t = std::max(t, count / point.target);
      t += static_cast<double>(spec.warmup) * per_op;
    }
  }
  if (point.cache == CacheState::kCold && caps.durable) t += kColdSeconds;
  if (spec.fresh) t += kFreshSeconds;
  if (InfoOf(spec.op).writes) t += kSyncAfterWritesSeconds;
  return t;
}

double ShardCostModel::MeasureSeconds(size_t engine, size_t phase, size_t point) const {
  const PhaseSpec& spec = plan_.workload.phases[phase];
  const double measured = MeasuredRepSeconds(engine, phase, ExpandMatrix(spec)[point]);
  const double rep = measured >= 0 ? measured : ModelRepSeconds(engine, phase, point, true);
  return rep * static_cast<double>(std::max(1, spec.repetitions));
}

double ShardCostModel::ReplaySeconds(size_t engine, size_t phase, size_t point) const {
  const PhaseSpec& spec = plan_.workload.phases[phase];
  MatrixPoint unthrottled = ExpandMatrix(spec)[point];
  unthrottled.target = 0;
  const double measured = MeasuredRepSeconds(engine, phase, unthrottled);
  return measured >= 0 ? measured : ModelRepSeconds(engine, phase, point, false);
}

double ShardCostModel::StepSeconds(size_t engine, const EngineStep& step) const {
  switch (step.kind) {
    case EngineStep::kMeasure:
      return MeasureSeconds(engine, step.phase, step.point);
    case EngineStep::kReplay:
      return ReplaySeconds(engine, step.phase, step.point);
    case EngineStep::kColdSync:
      return kColdSeconds;
    case EngineStep::kRecreate:
      return kFreshSeconds;
  }
  return 0;
}

}  // namespace kvbench::runner
