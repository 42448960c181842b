#include "reports/verdict.h"

#include <fmt/format.h>

#include <algorithm>

#include "reports/report_model.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

bool Overlap(const results::Spread& a, const results::Spread& b) {
  if (!a.ci || !b.ci) return true;  // without intervals nothing is separated
  return a.ci->low <= b.ci->high && b.ci->low <= a.ci->high;
}

std::string Interval(const results::Spread& s) {
  if (!s.ci) return FormatRate(s.median);
  return FormatRate(s.ci->low) + "–" + FormatRate(s.ci->high);
}

// "; 75% intervals: 3 repetitions" where a named row has too few repetitions
// for a 95% interval of its median (5 or fewer: the widest interval, from the
// lowest to the highest, then holds the median with 94% or less), so the
// line does not pass a weaker interval off as the heading's 95%.
std::string LevelNote(const std::vector<const results::Spread*>& spreads) {
  const results::Spread* lowest = nullptr;
  for (const results::Spread* s : spreads) {
    if (s->ci && (lowest == nullptr || s->ci->level < lowest->ci->level)) lowest = s;
  }
  if (lowest == nullptr || lowest->ci->level >= 0.95) return "";
  return fmt::format("; {:.0f}% intervals: {} repetitions", lowest->ci->level * 100, lowest->n);
}

using Ranking = std::vector<std::pair<std::string, results::Spread>>;

// By median ops/s, highest first.
void SortRanking(Ranking* ranked) {
  std::stable_sort(ranked->begin(), ranked->end(),
                   [](const auto& a, const auto& b) { return a.second.median > b.second.median; });
}

// The tied engines ranked again on their repetitions at full speed alone
// (RanAtFullSpeed), when each kept kMinFullSpeedReps. The fastest probe is
// that of every engine at the point.
void RankAtFullSpeed(const std::vector<const results::PhaseRun*>& runs, PointVerdict* v) {
  const double fastest_probe = FastestProbe(runs);
  std::vector<std::string> tied = v->tied_with;
  tied.push_back(v->fastest);
  Ranking ranked;
  for (const results::PhaseRun* run : runs) {
    if (std::find(tied.begin(), tied.end(), run->engine) == tied.end()) continue;
    results::PhaseRun normal = *run;
    normal.repetitions.clear();
    for (const results::Repetition& rep : run->repetitions) {
      if (RanAtFullSpeed(rep, fastest_probe)) normal.repetitions.push_back(rep);
    }
    const Figures f = FiguresOf(normal);
    if (static_cast<int>(normal.repetitions.size()) < kMinFullSpeedReps || !f.ops_per_sec ||
        f.ops_per_sec->median <= 0) {
      v->too_few_at_full_speed = true;
      return;
    }
    ranked.emplace_back(run->engine, *f.ops_per_sec);
  }
  SortRanking(&ranked);
  PointVerdict::FullSpeed n;
  n.fastest = ranked[0].first;
  n.fastest_rate = ranked[0].second;
  n.runner_up = ranked[1].first;
  n.runner_up_rate = ranked[1].second;
  n.margin = n.fastest_rate.median / n.runner_up_rate.median;
  n.separated = true;
  for (size_t i = 1; i < ranked.size(); ++i) {
    if (Overlap(ranked[0].second, ranked[i].second)) n.separated = false;
  }
  v->at_full_speed = n;
}

// The named engines' repetitions that ran slowed; with some, and a tie, the
// ranking at full speed.
void NoteCpuProbe(const std::vector<const results::PhaseRun*>& runs,
                  const std::vector<std::string>& named, PointVerdict* v) {
  const double fastest_probe = FastestProbe(runs);
  for (const results::PhaseRun* run : runs) {
    if (std::find(named.begin(), named.end(), run->engine) == named.end()) continue;
    const PointVerdict::SlowedReps s{run->engine, SlowedRepetitions(*run, fastest_probe),
                                     static_cast<int>(run->repetitions.size())};
    if (s.slowed > 0) v->slowed.push_back(s);
  }
  if (v->tied && !v->slowed.empty()) RankAtFullSpeed(runs, v);
}

}  // namespace

std::string CpuProbeNote(const PointVerdict& v) {
  std::string counts;
  for (const PointVerdict::SlowedReps& s : v.slowed) {
    counts += fmt::format("{}{} {} of {}", counts.empty() ? "" : ", ", s.engine, s.slowed, s.n);
  }
  std::string note = fmt::format("CPU probe {} its fastest or slower in {} repetitions",
                                 FormatRatio(kProbeSlowRatio), counts);
  if (v.too_few_at_full_speed) {
    note +=
        fmt::format("; too few at full speed to rank the tie again (fewer than {} for an engine)",
                    kMinFullSpeedReps);
  } else if (v.at_full_speed) {
    const PointVerdict::FullSpeed& n = *v.at_full_speed;
    note += n.separated ? fmt::format("; at full speed alone: {} fastest, {} {} ({} vs {} ops/s{})",
                                      n.fastest, FormatRatio(n.margin), n.runner_up,
                                      Interval(n.fastest_rate), Interval(n.runner_up_rate),
                                      LevelNote({&n.fastest_rate, &n.runner_up_rate}))
                        : fmt::format("; at full speed alone: still tied ({} leads by {})",
                                      n.fastest, FormatRatio(n.margin));
  }
  return note;
}

std::vector<PointVerdict> Verdicts(const results::RunResults& results) {
  std::vector<PointVerdict> out;
  for (const PhaseView& phase : GroupByPhase(results)) {
    for (const PointRuns& pr : phase.points) {
      Ranking ranked;
      std::vector<const results::PhaseRun*> ranked_runs;
      std::vector<std::string> client_bound, engine_calls;
      for (const results::PhaseRun* run : pr.runs) {
        if (run->status != "ok" || run->repetitions.empty()) continue;
        if (pr.point.cache == "cold" && InMemory(results, run->engine)) continue;
        const Figures f = FiguresOf(*run);
        if (f.ops_per_sec && f.ops_per_sec->median > 0) {
          ranked.emplace_back(run->engine, *f.ops_per_sec);
          ranked_runs.push_back(run);
          if (ClientBound(f)) client_bound.push_back(run->engine);
          if (f.rate_over_engine_calls) engine_calls.push_back(run->engine);
        }
      }
      if (ranked.empty()) continue;
      SortRanking(&ranked);
      PointVerdict v;
      v.phase = phase.name;
      v.point = PointLabel(pr.point, phase.varying);
      v.fastest = ranked[0].first;
      v.fastest_rate = ranked[0].second;
      if (ranked.size() > 1) {
        v.runner_up = ranked[1].first;
        v.runner_up_rate = ranked[1].second;
        v.margin = v.fastest_rate.median / v.runner_up_rate.median;
        for (size_t i = 1; i < ranked.size(); ++i) {
          if (Overlap(ranked[0].second, ranked[i].second)) v.tied_with.push_back(ranked[i].first);
        }
        v.tied = !v.tied_with.empty();
      }
      // Only the engines the line names: a client-bound engine far behind
      // does not change who leads.
      std::vector<std::string> named = {v.fastest};
      if (!v.runner_up.empty()) named.push_back(v.runner_up);
      named.insert(named.end(), v.tied_with.begin(), v.tied_with.end());
      for (const std::string& e : named) {
        const auto has = [&e](const std::vector<std::string>& list) {
          return std::find(list.begin(), list.end(), e) != list.end();
        };
        if (has(client_bound) && !has(v.client_bound)) v.client_bound.push_back(e);
        if (has(engine_calls) && !has(v.engine_call_rates)) v.engine_call_rates.push_back(e);
      }
      NoteCpuProbe(ranked_runs, named, &v);
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::string RenderVerdict(const results::RunResults& results) {
  std::string out;
  const auto join = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  for (const PointVerdict& v : Verdicts(results)) {
    out += "  " + v.phase + (v.point.empty() ? "" : " (" + v.point + ")") + ": ";
    if (v.runner_up.empty()) {
      out += v.fastest + " alone (" + Interval(v.fastest_rate) + " ops/s" +
             LevelNote({&v.fastest_rate}) + ")";
    } else if (v.tied) {
      std::string names = v.fastest;
      for (const std::string& e : v.tied_with) names += ", " + e;
      out += fmt::format("tied: {} (intervals overlap; {} leads by {})", names, v.fastest,
                         FormatRatio(v.margin));
    } else {
      out += fmt::format("{} fastest, {} {} ({} vs {} ops/s{})", v.fastest, FormatRatio(v.margin),
                         v.runner_up, Interval(v.fastest_rate), Interval(v.runner_up_rate),
                         LevelNote({&v.fastest_rate, &v.runner_up_rate}));
    }
    if (!v.client_bound.empty()) {
      out += fmt::format(" [{} ({})]", kClientBoundNote, join(v.client_bound));
    }
    if (!v.slowed.empty()) out += " [" + CpuProbeNote(v) + "]";
    if (!v.engine_call_rates.empty()) {
      out += fmt::format(" [ops/s over the time inside the engine's calls (schema 4), not the "
                         "wall span: {}]",
                         join(v.engine_call_rates));
    }
    out += "\n";
  }
  return out;
}

}  // namespace kvbench::reports
