#include "runner/engine_schedule.h"

#include <algorithm>

#include "runner/phase_executor.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

size_t RowsPerEngine(const Workload& workload) {
  size_t n = 0;
  for (const PhaseSpec& p : workload.phases) n += ExpandMatrix(p).size();
  return n;
}

bool ChangesState(const PhaseSpec& s) {
  switch (s.op) {
    case PhaseOp::kGet:
    case PhaseOp::kScan:
    case PhaseOp::kRange:
    case PhaseOp::kSkip:
    case PhaseOp::kReopen:
    case PhaseOp::kMemoryBaseline:
      return false;
    case PhaseOp::kRecordGet:
    case PhaseOp::kRecordScan:
    case PhaseOp::kRecordQuery:
    case PhaseOp::kRecordFollow:
      return !s.schema.empty();  // a schema of its own starts a new record table
    case PhaseOp::kMix:
      return std::any_of(s.proportions.begin(), s.proportions.end(), [](const auto& kv) {
        return kv.second > 0 && kv.first != "read" && kv.first != "scan";
      });
    default:
      return true;
  }
}

bool ResetsBefore(const Workload& w, const PhaseSpec& s, size_t phase, int run) {
  return s.fresh || (phase == 0 && run > 0 && w.preloaded == 0 && ChangesState(s));
}

int WarmupRepetitions(const Workload& w, const PhaseSpec& s, size_t phase) {
  const PhaseOpInfo& info = InfoOf(s.op);
  if (info.single_run) return 0;
  if (info.shape != PhaseShape::kStream && info.shape != PhaseShape::kRecord) return 0;
  const bool starts_empty = s.fresh || (phase == 0 && w.preloaded == 0);
  if (ChangesState(s) && !starts_empty) return 0;
  return w.measurement.warmup_repetitions;
}

void WalkEngineSchedule(const Workload& w, const std::vector<bool>& measured,
                        const Capabilities& caps, int first_row,
                        const std::function<void(const EngineStep&)>& emit) {
  const auto last = std::find(measured.rbegin(), measured.rend(), true);
  if (last == measured.rend()) return;
  const size_t end = static_cast<size_t>(measured.rend() - last);  // one past the last measured
  std::vector<EngineStep> pending;
  size_t r = 0;
  for (size_t p = 0; p < w.phases.size() && r < end; ++p) {
    const PhaseSpec& spec = w.phases[p];
    const bool supported = UnsupportedReason(spec, caps).empty();
    const std::vector<MatrixPoint> points = ExpandMatrix(spec);
    for (size_t m = 0; m < points.size() && r < end; ++m, ++r) {
      if (measured[r]) {
        // A phase that starts from an empty engine needs nothing before it.
        if (supported && (spec.fresh || spec.op == PhaseOp::kRecreate)) pending.clear();
        for (const EngineStep& s : pending) emit(s);
        pending.clear();
        emit({EngineStep::kMeasure, p, m, 0, first_row + static_cast<int>(r)});
        continue;
      }
      if (!supported) continue;  // the executor does not run it at all
      if (spec.op == PhaseOp::kRecreate) {
        pending = {{EngineStep::kRecreate, p, m, 0, 0}};
        continue;
      }
      for (int rep = 0; rep < std::max(1, spec.repetitions); ++rep) {
        const bool reset = ResetsBefore(w, spec, p, rep);
        if (reset) pending.clear();
        if (ChangesState(spec)) {
          pending.push_back({EngineStep::kReplay, p, m, rep, 0});
          continue;
        }
        if (reset) pending.push_back({EngineStep::kRecreate, p, m, 0, 0});
        if (points[m].cache == CacheState::kCold && caps.durable &&
            (pending.empty() || pending.back().kind != EngineStep::kColdSync)) {
          pending.push_back({EngineStep::kColdSync, p, m, 0, 0});
        }
      }
    }
  }
}

std::vector<EngineStep> EngineSchedule(const Workload& workload, const std::vector<bool>& measured,
                                       const Capabilities& caps, int first_row) {
  std::vector<EngineStep> steps;
  WalkEngineSchedule(workload, measured, caps, first_row,
                     [&](const EngineStep& s) { steps.push_back(s); });
  return steps;
}

}  // namespace kvbench::runner
