#include "runner/shard/shard_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>
#include <numeric>

#include "common/strings.h"
#include "runner/engine_schedule.h"
#include "runner/phase_executor.h"
#include "runner/shard/shard_cost.h"

namespace kvbench::runner {

namespace {

// Bumped whenever units, setup or assignment change: shards of builds with
// different rules must not merge.
constexpr int kShardingRulesVersion = 1;

// A writing phase bounded by time: how many operations it does is not known
// in advance, so no replay can repeat it.
bool TimeBoundedWriter(const PhaseSpec& s) {
  return ChangesState(s) && s.count == 0 && s.duration_s > 0;
}

std::string FormatSeconds(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{:.1f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

std::string UnitLabel(const RunPlan& plan, size_t engine, const std::vector<RowPlace>& places,
                      const std::vector<int>& rows) {
  std::string out = plan.engines[engine].name + ":";
  size_t last_phase = std::numeric_limits<size_t>::max();
  for (int row : rows) {
    const RowPlace& place = places[static_cast<size_t>(row)];
    const PhaseSpec& spec = plan.workload.phases[place.phase];
    const MatrixPoint m = ExpandMatrix(spec)[place.point];
    if (place.phase != last_phase) {
      out += fmt::format("{} {}", last_phase == std::numeric_limits<size_t>::max() ? "" : ";",
                         spec.name);
      if (spec.threads.size() > 1) out += fmt::format(" {}thr", m.threads);
      if (spec.targets.size() > 1) {
        out += m.target > 0 ? fmt::format(" {}/s", m.target) : std::string(" max");
      }
      last_phase = place.phase;
    }
    if (m.cache != CacheState::kAsIs) out += fmt::format(" {}", NameOf(m.cache));
  }
  return out;
}

// The units of one plan, in plan order (shard_plan.h: "Units").
std::vector<ShardUnit> BuildUnits(const RunPlan& plan, const std::vector<RowPlace>& places) {
  std::vector<ShardUnit> units;
  // The last unit holds a time-bounded writer: later rows join it up to the
  // engine's next fresh start.
  bool absorbing = false;
  size_t unit_phase = 0;
  MatrixPoint unit_point{};
  for (size_t row = 0; row < places.size(); ++row) {
    const RowPlace& place = places[row];
    const PhaseSpec& spec = plan.workload.phases[place.phase];
    const MatrixPoint m = ExpandMatrix(spec)[place.point];
    const bool new_engine = units.empty() || units.back().engine != place.engine;
    if (new_engine || spec.fresh || spec.op == PhaseOp::kRecreate) absorbing = false;
    const bool same_pair = !new_engine && place.phase == unit_phase &&
                           m.threads == unit_point.threads && m.target == unit_point.target;
    if (absorbing || same_pair) {
      units.back().rows.push_back(static_cast<int>(row));
    } else {
      units.push_back({place.engine, {static_cast<int>(row)}, 0, 0, ""});
      unit_phase = place.phase;
      unit_point = m;
    }
    if (TimeBoundedWriter(spec) &&
        UnsupportedReason(spec, CapabilitiesOf(plan.engines[place.engine])).empty()) {
      absorbing = true;
    }
  }
  return units;
}

// Estimates schedules of one plan quickly: every row's measured and replayed
// cost computed once.
class ScheduleCoster {
 public:
  ScheduleCoster(const RunPlan& plan, const ShardCostModel& model)
      : plan_(plan), model_(model), rows_per_engine_(RowsPerEngine(plan.workload)) {
    for (size_t e = 0; e < plan.engines.size(); ++e) {
      caps_.push_back(CapabilitiesOf(plan.engines[e]));
      std::vector<double> measure, replay;
      for (size_t p = 0; p < plan.workload.phases.size(); ++p) {
        for (size_t m = 0; m < ExpandMatrix(plan.workload.phases[p]).size(); ++m) {
          measure.push_back(model.MeasureSeconds(e, p, m));
          replay.push_back(model.ReplaySeconds(e, p, m));
        }
      }
      measure_.push_back(std::move(measure));
      replay_.push_back(std::move(replay));
    }
    size_t first = 0;
    for (const PhaseSpec& p : plan.workload.phases) {
      first_local_row_.push_back(first);
      first += ExpandMatrix(p).size();
    }
  }

  // Total and setup seconds of engine `e` measuring `measured` (one flag per
  // row of the engine).
  std::pair<double, double> Cost(size_t e, const std::vector<bool>& measured) const {
    double total = 0, setup = 0;
    WalkEngineSchedule(plan_.workload, measured, caps_[e], 0, [&](const EngineStep& s) {
      const size_t local = first_local_row_[s.phase] + s.point;
      const double t = s.kind == EngineStep::kMeasure  ? measure_[e][local]
                       : s.kind == EngineStep::kReplay ? replay_[e][local]
                                                       : model_.StepSeconds(e, s);
      total += t;
      if (s.kind != EngineStep::kMeasure) setup += t;
    });
    return {total, setup};
  }
  size_t rows_per_engine() const { return rows_per_engine_; }

 private:
  const RunPlan& plan_;
  const ShardCostModel& model_;
  size_t rows_per_engine_;
  std::vector<Capabilities> caps_;
  std::vector<std::vector<double>> measure_, replay_;  // [engine][row of the engine]
  std::vector<size_t> first_local_row_;                // [phase]
};

}  // namespace

Status ParseShardSpec(std::string_view text, ShardSpec* out) {
  const std::string given(text);
  const size_t slash = text.find('/');
  auto number = [](std::string_view s, int* v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  ShardSpec spec;
  if (slash == std::string_view::npos || !number(text.substr(0, slash), &spec.index) ||
      !number(text.substr(slash + 1), &spec.count)) {
    return Status::InvalidArgument("--shard '" + given +
                                   "': expected K/N, shard K of N counted from 0 (e.g. 0/4)");
  }
  if (spec.count < 1) {
    return Status::InvalidArgument("--shard '" + given + "': N must be at least 1");
  }
  if (spec.index < 0 || spec.index >= spec.count) {
    return Status::InvalidArgument(fmt::format(
        "--shard '{}': K must be from 0 to {} (shards are counted from 0)", given, spec.count - 1));
  }
  *out = spec;
  return Status::OK();
}

std::vector<RowPlace> PlanRows(const RunPlan& plan) {
  std::vector<RowPlace> rows;
  for (size_t e = 0; e < plan.engines.size(); ++e) {
    for (size_t p = 0; p < plan.workload.phases.size(); ++p) {
      const size_t points = ExpandMatrix(plan.workload.phases[p]).size();
      for (size_t m = 0; m < points; ++m) rows.push_back({e, p, m});
    }
  }
  return rows;
}

std::vector<bool> ShardAssignment::RowsOf(int index, size_t total_rows) const {
  std::vector<bool> rows(total_rows, false);
  for (size_t u = 0; u < units.size(); ++u) {
    if (shard_of_unit[u] != index) continue;
    for (int r : units[u].rows) rows[static_cast<size_t>(r)] = true;
  }
  return rows;
}

std::string PlanHash(const RunPlan& plan) {
  const Workload& w = plan.workload;
  std::string text =
      fmt::format("kvbench shard plan {}\nworkload {}\n", kShardingRulesVersion, w.name);
  for (const auto& [k, v] : plan.dataset) text += fmt::format("dataset {}={}\n", k, v);
  for (const auto& [k, v] : plan.values) text += fmt::format("values {}={}\n", k, v);
  for (const results::EngineRun& e : plan.engines) {
    text += fmt::format("engine {} {}\n", e.name, e.library_version);
    for (const auto& [k, v] : e.options) text += fmt::format("  {}={}\n", k, v);
  }
  for (const PhaseSpec& p : w.phases) {
    text += fmt::format("phase {} {}\n", p.name, NameOf(p.op));
    for (const auto& [k, v] : PhaseParameters(p)) text += fmt::format("  {}={}\n", k, v);
    for (const MatrixPoint& m : ExpandMatrix(p)) {
      text += fmt::format("  point {} {} {}\n", m.threads, m.target, NameOf(m.cache));
    }
  }
  return HexU64(Fnv1a64(text));
}

ShardAssignment AssignShards(const RunPlan& plan, int count, const results::RunResults* measured,
                             const std::string& measured_name) {
  ShardAssignment a;
  a.count = count;
  const std::vector<RowPlace> places = PlanRows(plan);
  a.units = BuildUnits(plan, places);
  const ShardCostModel model(plan, measured);
  const ScheduleCoster coster(plan, model);
  const size_t per_engine = coster.rows_per_engine();
  auto local_flags = [&](const ShardUnit& u) {
    std::vector<bool> flags(per_engine, false);
    for (int r : u.rows) flags[static_cast<size_t>(r) % per_engine] = true;
    return flags;
  };
  for (ShardUnit& u : a.units) {
    u.label = UnitLabel(plan, u.engine, places, u.rows);
    const std::vector<bool> flags = local_flags(u);
    const auto [total, setup] = coster.Cost(u.engine, flags);
    u.alone_seconds = total;
    u.own_seconds = total - setup;
    a.unsharded_seconds += u.own_seconds;
  }
  a.cost_source = measured == nullptr
                      ? "the model's estimates (runner/shard/shard_cost.h)"
                      : fmt::format(
                            "measured in {} for {} of the plan's {} rows, the model's "
                            "for the rest",
                            measured_name, model.measured_rows(), places.size());

  // Longest first, each on the shard whose total grows to the least.
  std::vector<size_t> order(a.units.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return a.units[x].alone_seconds > a.units[y].alone_seconds;
  });
  const size_t engines = plan.engines.size();
  const size_t shards = static_cast<size_t>(count);
  std::vector<std::vector<std::vector<bool>>> chosen(
      shards, std::vector<std::vector<bool>>(engines, std::vector<bool>(per_engine, false)));
  std::vector<std::vector<std::pair<double, double>>> engine_cost(
      shards, std::vector<std::pair<double, double>>(engines, {0, 0}));
  std::vector<double> total(shards, 0);
  a.shard_of_unit.assign(a.units.size(), 0);
  for (size_t u : order) {
    const ShardUnit& unit = a.units[u];
    size_t best = 0;
    double best_total = std::numeric_limits<double>::infinity();
    std::pair<double, double> best_cost;
    for (size_t k = 0; k < shards; ++k) {
      std::vector<bool> flags = chosen[k][unit.engine];
      for (int r : unit.rows) flags[static_cast<size_t>(r) % per_engine] = true;
      const std::pair<double, double> cost = coster.Cost(unit.engine, flags);
      const double t = total[k] - engine_cost[k][unit.engine].first + cost.first;
      if (t < best_total * (1 - 1e-12)) {
        best = k;
        best_total = t;
        best_cost = cost;
      }
    }
    for (int r : unit.rows) chosen[best][unit.engine][static_cast<size_t>(r) % per_engine] = true;
    total[best] = best_total;
    engine_cost[best][unit.engine] = best_cost;
    a.shard_of_unit[u] = static_cast<int>(best);
  }
  a.shard_seconds = total;
  a.shard_setup_seconds.assign(shards, 0);
  a.shard_rows.assign(shards, 0);
  for (size_t k = 0; k < shards; ++k) {
    for (size_t e = 0; e < engines; ++e) a.shard_setup_seconds[k] += engine_cost[k][e].second;
  }
  a.plan_hash = PlanHash(plan);
  std::string identity = fmt::format("{} {}\n", a.plan_hash, count);
  for (size_t u = 0; u < a.units.size(); ++u) {
    a.shard_rows[static_cast<size_t>(a.shard_of_unit[u])] +=
        static_cast<int>(a.units[u].rows.size());
    identity += fmt::format("{}:", a.shard_of_unit[u]);
    for (int r : a.units[u].rows) identity += fmt::format(" {}", r);
    identity += "\n";
  }
  a.assignment_hash = HexU64(Fnv1a64(identity));
  return a;
}

std::string DescribeShards(const RunPlan& plan, const ShardAssignment& a) {
  const size_t rows = PlanRows(plan).size();
  std::string out =
      fmt::format("shards: {} of {} units ({} rows); plan hash {}, assignment {}\nunit costs: {}\n",
                  a.count, a.units.size(), rows, a.plan_hash, a.assignment_hash, a.cost_source);
  for (int k = 0; k < a.count; ++k) {
    const size_t ku = static_cast<size_t>(k);
    const int units =
        static_cast<int>(std::count(a.shard_of_unit.begin(), a.shard_of_unit.end(), k));
    out += fmt::format("shard {}/{}: ~{} (setup ~{}), {} units, {} rows\n", k, a.count,
                       FormatSeconds(a.shard_seconds[ku]), FormatSeconds(a.shard_setup_seconds[ku]),
                       units, a.shard_rows[ku]);
    for (size_t u = 0; u < a.units.size(); ++u) {
      if (a.shard_of_unit[u] != k) continue;
      out += fmt::format("  {} (~{})\n", a.units[u].label, FormatSeconds(a.units[u].own_seconds));
    }
  }
  const auto longest_shard = std::max_element(a.shard_seconds.begin(), a.shard_seconds.end());
  const auto longest_unit = std::max_element(
      a.units.begin(), a.units.end(),
      [](const ShardUnit& x, const ShardUnit& y) { return x.alone_seconds < y.alone_seconds; });
  const double setup =
      std::accumulate(a.shard_setup_seconds.begin(), a.shard_setup_seconds.end(), 0.0);
  const double wall = longest_shard == a.shard_seconds.end() ? 0 : *longest_shard;
  out += fmt::format(
      "estimated wall time on {} node{}: {} (shard {}/{}); on 1 node unsharded: {}; speed-up "
      "{:.1f}x\n",
      a.count, a.count == 1 ? "" : "s", FormatSeconds(wall),
      longest_shard - a.shard_seconds.begin(), a.count, FormatSeconds(a.unsharded_seconds),
      wall > 0 ? a.unsharded_seconds / wall : 1.0);
  if (longest_unit != a.units.end()) {
    out += fmt::format(
        "longest unit: {} (~{} with its setup): no number of nodes brings the wall time below "
        "it; setup replays add {} over all shards\n",
        longest_unit->label, FormatSeconds(longest_unit->alone_seconds), FormatSeconds(setup));
  }
  return out;
}

}  // namespace kvbench::runner
