#include "reports/phase_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "reports/text_format.h"
#include "results/statistics.h"

namespace kvbench::reports {

using results::PhaseRun;
using results::Spread;

namespace {

using OptSpread = std::optional<Spread>;

std::string Median(const OptSpread& s, const std::function<std::string(double)>& format) {
  return s ? format(s->median) : kUnmeasured;
}

// The confidence interval of the median: "1.2M–1.3M (94%)".
std::string Interval(const OptSpread& s, const std::function<std::string(double)>& format) {
  if (!s || !s->ci) return kUnmeasured;
  return fmt::format("{}–{} ({:.0f}%)", format(s->ci->low), format(s->ci->high),
                     s->ci->level * 100);
}

// Whether interval a lies entirely on the better side of interval b.
bool Clears(const Spread& a, const Spread& b, bool higher_is_better) {
  if (!a.ci || !b.ci) return false;  // one repetition: nothing to separate them by
  return higher_is_better ? a.ci->low > b.ci->high : a.ci->high < b.ci->low;
}

// Names the best of `column`: the engine with the best median, but only when
// its interval clears the runner-up's. Otherwise the leaders whose intervals
// the best's does not clear are marked tied. All equal: nothing (no news).
void MarkBest(std::vector<std::vector<Cell>>* rows, const std::vector<OptSpread>& values,
              size_t column, bool higher_is_better) {
  std::vector<size_t> order;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) order.push_back(i);
  }
  if (order.size() < 2) return;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return higher_is_better ? values[a]->median > values[b]->median
                            : values[a]->median < values[b]->median;
  });
  const Spread& best = *values[order.front()];
  if (best.median == values[order.back()]->median) return;
  if (Clears(best, *values[order[1]], higher_is_better)) {
    (*rows)[order.front()][column].best = true;
    return;
  }
  for (size_t i : order) {
    if (i == order.front() || !Clears(best, *values[i], higher_is_better)) {
      (*rows)[i][column].tied = true;
    }
  }
}

// The figure of a run only where it may be ranked.
OptSpread RankedIf(bool rank, const OptSpread& s) { return rank ? s : std::nullopt; }

void AddMatrixHeader(const VaryingDimensions& v, Table* t) {
  if (v.threads) t->header.push_back("threads"), t->numeric.push_back(true);
  if (v.target) t->header.push_back("target"), t->numeric.push_back(true);
  if (v.cache) t->header.push_back("cache"), t->numeric.push_back(false);
  if (v.host) t->header.push_back("host"), t->numeric.push_back(false);
}

void AddMatrixCells(const VaryingDimensions& v, const MatrixPoint& p, std::vector<Cell>* row) {
  if (v.threads) row->push_back({std::to_string(p.threads)});
  if (v.target) row->push_back({FormatTarget(p.target_ops)});
  if (v.cache) row->push_back({p.cache.empty() ? kUnmeasured : p.cache});
  if (v.host) row->push_back({p.host});
}

std::string Status(const PhaseRun& run) { return run.status; }

// Total CPU time and the system share of it: "53.2 ms (12% sys)".
std::string Cpu(const Figures& f) {
  if (!f.cpu_user_s || !f.cpu_sys_s) return kUnmeasured;
  const double total = f.cpu_user_s->median + f.cpu_sys_s->median;
  if (total <= 0) return "0 s";
  return fmt::format("{} ({:.0f}% sys)", FormatSeconds(total), 100 * f.cpu_sys_s->median / total);
}

// Optional columns, shown when some run of the phase has the figure.
struct Columns {
  bool range = false;     // more than one repetition: the interval column
  bool resident = false;  // page-cache residency measured (cold and hot phases)
  bool open = false;      // reopen time measured (cold phases)
  bool evicted = false;   // residency right after a cold eviction measured
  bool lateness = false;  // a target rate: the harness's own pacing lateness
};

void AddEngineRows(const results::RunResults& results, const PhaseView& phase,
                   const PointRuns& pr, const Columns& columns, Table* t) {
  const auto bytes = [](double v) { return FormatBytes(v); };
  const auto micros = [](double v) { return FormatMicros(v); };
  const auto rate = [](double v) { return FormatRate(v); };
  const bool cold = pr.point.cache == "cold";
  std::vector<std::vector<Cell>> rows;
  std::vector<OptSpread> ops, p50, p99, p999, cpu, rss, file, written;
  double fastest = 0;
  std::vector<Figures> figures;
  for (const PhaseRun* run : pr.runs) {
    figures.push_back(FiguresOf(*run));
    if (figures.back().ops_per_sec) fastest = std::max(fastest, figures.back().ops_per_sec->median);
  }
  for (size_t i = 0; i < pr.runs.size(); ++i) {
    const Figures& f = figures[i];
    const bool in_memory = InMemory(results, pr.runs[i]->engine);
    // Cold means nothing for an engine without files: shown, not ranked.
    const bool rank_speed = !(cold && in_memory);
    // Sizes and bytes written compare only when measured after the engine's
    // Sync() (else an engine holding its writes in memory looks small).
    const bool rank_size = !in_memory && f.sizes_after_sync;
    std::vector<Cell> row;
    AddMatrixCells(phase.varying, pr.point, &row);
    row.push_back({pr.runs[i]->engine});
    row.push_back({Median(f.ops_per_sec, rate) + (rank_speed ? "" : " (in memory: not cold)")});
    if (columns.range) {
      row.push_back({f.repetitions > 1 ? Interval(f.ops_per_sec, rate) : kUnmeasured});
    }
    row.push_back({f.ops_per_sec && fastest > 0 ? FormatRatio(f.ops_per_sec->median / fastest)
                                                : kUnmeasured});
    row.push_back({HarnessShareText(f)});
    row.push_back({Median(f.p50_us, micros)});
    row.push_back({Median(f.p99_us, micros)});
    row.push_back({Median(f.p999_us, micros)});
    row.push_back({Cpu(f)});
    row.push_back({Median(f.peak_rss_bytes, bytes)});
    if (in_memory) {
      row.push_back({"n/a (in memory)"});
      row.push_back({"n/a (in memory)"});
    } else {
      const std::string unsynced = f.sizes_after_sync ? "" : " (before sync)";
      row.push_back({Median(f.file_bytes, bytes) + (f.file_bytes ? unsynced : "")});
      row.push_back({Median(f.bytes_written, bytes) + (f.bytes_written ? unsynced : "")});
    }
    const auto pct = [](double v) { return FormatSignificant(v, 2) + "%"; };
    if (columns.evicted) row.push_back({Median(f.cache_resident_after_eviction_pct, pct)});
    if (columns.resident) row.push_back({Median(f.cache_resident_before_pct, pct)});
    if (columns.lateness) {
      row.push_back({Median(f.pacing_lateness_p99_us, [](double v) { return FormatMicros(v); })});
    }
    if (columns.open) row.push_back({Median(f.open_seconds, FormatSeconds)});
    row.push_back({Status(*pr.runs[i])});
    rows.push_back(std::move(row));
    ops.push_back(RankedIf(rank_speed, f.ops_per_sec));
    p50.push_back(RankedIf(rank_speed, f.p50_us));
    p99.push_back(RankedIf(rank_speed, f.p99_us));
    p999.push_back(RankedIf(rank_speed, f.p999_us));
    cpu.push_back(RankedIf(rank_speed, f.cpu_total_s));
    rss.push_back(f.peak_rss_bytes);
    file.push_back(RankedIf(rank_size && f.file_bytes && f.file_bytes->median > 0, f.file_bytes));
    written.push_back(RankedIf(rank_size, f.bytes_written));
  }
  size_t c = (phase.varying.threads ? 1 : 0) + (phase.varying.target ? 1 : 0) +
             (phase.varying.cache ? 1 : 0) + (phase.varying.host ? 1 : 0) + 1;
  MarkBest(&rows, ops, c++, true);
  if (columns.range) ++c;
  ++c;  // ratio
  ++c;  // harness share
  MarkBest(&rows, p50, c++, false);
  MarkBest(&rows, p99, c++, false);
  MarkBest(&rows, p999, c++, false);
  MarkBest(&rows, cpu, c++, false);
  MarkBest(&rows, rss, c++, false);
  MarkBest(&rows, file, c++, false);
  MarkBest(&rows, written, c++, false);
  for (auto& row : rows) t->rows.push_back(std::move(row));
}

void AddOpRows(const PhaseView& phase, const PointRuns& pr, Table* t) {
  const auto micros = [](double v) { return FormatMicros(v); };
  for (const PhaseRun* run : pr.runs) {
    for (const std::string& op : OpNames(*run)) {
      if (op == "all") continue;
      const Figures f = FiguresOf(*run, op);
      std::vector<Cell> row;
      AddMatrixCells(phase.varying, pr.point, &row);
      row.push_back({run->engine});
      row.push_back({op});
      row.push_back({Median(f.ops, [](double v) { return FormatCount(v); })});
      row.push_back({Median(f.ops_per_sec, [](double v) { return FormatRate(v); })});
      row.push_back({Median(f.p50_us, micros)});
      row.push_back({Median(f.p90_us, micros)});
      row.push_back({Median(f.p99_us, micros)});
      row.push_back({Median(f.p999_us, micros)});
      row.push_back({Median(f.found, [](double v) { return FormatCount(v); })});
      row.push_back({Median(f.not_found, [](double v) { return FormatCount(v); })});
      t->rows.push_back(std::move(row));
    }
  }
}

std::string WorkSentence(const PhaseView& phase, const PointRuns& pr, bool differ) {
  const std::string where =
      phase.points.size() > 1 ? PointLabel(pr.point, phase.varying) + ": " : "";
  std::vector<const PhaseRun*> ok;
  for (const PhaseRun* run : pr.runs) {
    if (run->status == "ok" && !run->repetitions.empty()) ok.push_back(run);
  }
  if (ok.empty()) return where + "no engine completed this phase.";
  const Figures f = FiguresOf(*ok.front());
  auto count = [](const OptSpread& s) { return s ? FormatCount(s->median) : kUnmeasured; };
  std::string s = fmt::format("{}{} found, {} not found, {} rows", where, count(f.found),
                              count(f.not_found), count(f.rows));
  if (differ) {
    s += fmt::format(" ({}; engines differ, see the warning)", ok.front()->engine);
  } else {
    s += fmt::format("; stream digest {}", f.stream_digest.empty() ? "(none)" : f.stream_digest);
    s += ok.size() > 1 ? fmt::format(", identical for all {} engines", ok.size()) : "";
  }
  std::string errors;
  for (const PhaseRun* run : ok) {
    const Figures e = FiguresOf(*run);
    if (e.errors && e.errors->max > 0) {
      errors += (errors.empty() ? "" : ", ") + run->engine + " " + FormatCount(e.errors->max);
    }
  }
  if (!errors.empty()) s += "; operations that returned an error: " + errors;
  return s + ".";
}

// "lmdb (4 threads) declares ..." for the rows of `phase` whose writers ran
// one at a time; "" when none did.
std::string SerialisedWritersNote(const PhaseView& phase) {
  std::vector<std::pair<std::string, std::set<int>>> engines;  // in engine order
  for (const PointRuns& pr : phase.points) {
    for (const PhaseRun* run : pr.runs) {
      if (!run->writers_serialised) continue;
      auto it = std::find_if(engines.begin(), engines.end(),
                             [&](const auto& e) { return e.first == run->engine; });
      if (it == engines.end()) it = engines.insert(engines.end(), {run->engine, {}});
      it->second.insert(run->threads);
    }
  }
  if (engines.empty()) return {};
  const auto and_list = [](const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    }
    return out;
  };
  std::vector<std::string> named;
  for (const auto& [engine, threads] : engines) {
    std::vector<std::string> counts;
    for (int t : threads) counts.push_back(std::to_string(t));
    named.push_back(fmt::format("{} ({} threads)", engine, and_list(counts)));
  }
  const bool one = engines.size() == 1;
  return fmt::format(
      "{} {} no concurrent writers (capabilities.concurrent_writers = false): {} writing client "
      "threads ran one writer at a time, so those rows measure the threads sharing one writer, "
      "not parallel writes.",
      and_list(named), one ? "declares" : "declare", one ? "its" : "their");
}

std::string Constants(const PhaseView& phase) {
  std::vector<std::string> parts;
  const MatrixPoint& p = phase.points.front().point;
  if (!phase.varying.threads) parts.push_back(PointLabel(p, {true, false, false}));
  if (!phase.varying.target) parts.push_back(PointLabel(p, {false, true, false}));
  if (!phase.varying.cache && !p.cache.empty()) parts.push_back("cache " + p.cache);
  if (!phase.varying.host && !p.host.empty()) parts.push_back("measured on host " + p.host);
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// What a phase's runs hold, which decides its optional columns and its note.
struct PhaseContents {
  int max_reps = 0;
  int max_warmups = 0;  // warm-up repetitions of any row (discarded)
  bool mixed = false;             // some run has more than one kind of operation
  bool any_engine_calls = false;  // some row's ops/s is over in-call time (schema 4)
  std::set<std::string> client_bound;  // engines with a client-bound row
  Columns columns;
};

PhaseContents SurveyPhase(const PhaseView& phase) {
  PhaseContents c;
  for (const PointRuns& pr : phase.points) {
    for (const PhaseRun* run : pr.runs) {
      c.max_reps = std::max(c.max_reps, static_cast<int>(run->repetitions.size()));
      c.max_warmups = std::max(c.max_warmups, static_cast<int>(run->warmup_repetitions.size()));
      c.mixed = c.mixed || OpNames(*run).size() > 1;
    }
  }
  Columns& columns = c.columns;
  columns.range = c.max_reps > 1;
  for (const PointRuns& pr : phase.points) {
    for (const PhaseRun* run : pr.runs) {
      const Figures f = FiguresOf(*run);
      columns.resident = columns.resident || f.cache_resident_before_pct.has_value();
      columns.open = columns.open || f.open_seconds.has_value();
      columns.evicted = columns.evicted || f.cache_resident_after_eviction_pct.has_value();
      columns.lateness = columns.lateness || f.pacing_lateness_p99_us.has_value();
      c.any_engine_calls = c.any_engine_calls || f.rate_over_engine_calls;
      if (ClientBound(f)) c.client_bound.insert(run->engine);
    }
  }
  return c;
}

// Rows whose measured ops/s rose or fell steadily over their repetitions
// (results::MannKendall, p < kTrendP, within each process: a fork's
// repetitions are tested apart, as processes differ by level, not trend):
// "lmdb rising (p = 0.017)", with the matrix point where the phase has more.
constexpr double kTrendP = 0.05;
std::vector<std::string> TrendingRows(const PhaseView& phase) {
  std::vector<std::string> out;
  for (const PointRuns& pr : phase.points) {
    for (const PhaseRun* run : pr.runs) {
      if (run->status != "ok") continue;
      std::map<int, std::vector<double>> by_fork;
      for (const results::Repetition& r : run->repetitions) {
        if (!r.ops.empty()) by_fork[r.fork.value_or(0)].push_back(r.ops.front().ops_per_sec);
      }
      std::optional<results::Trend> worst;
      for (const auto& [fork, rates] : by_fork) {
        const std::optional<results::Trend> t = results::MannKendall(rates);
        if (t && t->p < kTrendP && (!worst || t->p < worst->p)) worst = t;
      }
      if (!worst) continue;
      out.push_back(fmt::format("{}{} {} (p = {:.3f})", run->engine,
                                phase.points.size() > 1 ? " at " + PointLabel(pr.point, phase.varying)
                                                        : "",
                                worst->s > 0 ? "rising" : "falling", worst->p));
    }
  }
  return out;
}

std::string TrendWarning(const PhaseView& phase) {
  const std::vector<std::string> rows = TrendingRows(phase);
  if (rows.empty()) return "";
  std::string names;
  for (const std::string& r : rows) names += (names.empty() ? "" : "; ") + r;
  return fmt::format(
      "ops/s drifted over the repetitions, in the order they ran (Mann-Kendall trend test, "
      "p < {:.2f}; with 5 repetitions only a steady rise or fall, which a row without a trend "
      "shows by chance 1.7% of the time): {}. Rising: the engine or the machine was still "
      "warming up after the warm-up; falling: work piling up (compaction, a growing file). "
      "The interval assumes no trend, so it understates the uncertainty of these rows.",
      kTrendP, names);
}

// The note under a phase's tables: what its figures mean, column by column
// for the optional columns it has.
std::string PhaseNote(const PhaseContents& contents, uint64_t block_ops) {
  const Columns& columns = contents.columns;
  std::string note = columns.range ? fmt::format(
                                         "Medians of up to {} repetitions; interval = confidence "
                                         "interval of the median ops/s (its achieved level in "
                                         "brackets).",
                                         contents.max_reps)
                                   : "One repetition: no interval, so no engine is called best.";
  if (contents.max_warmups > 0) {
    note += fmt::format(
        " Before them, up to {} warm-up repetition{} per row, run unthrottled and discarded "
        "(results.json keeps {}).",
        contents.max_warmups, contents.max_warmups == 1 ? "" : "s",
        contents.max_warmups == 1 ? "it" : "them");
  }
  // What every ops/s figure divides by, and the rows it does not describe
  // the engine alone: said where the figures are.
  note +=
      " ops/s = operations / wall span of the timed part (as YCSB and db_bench); harness "
      "share = the part of that span outside the engine's calls (kvbench's own work, or "
      "idle), over 10% marked \"client-bound\": that figure is partly kvbench's own work "
      "(not under a target rate, where the time between calls is the pacing's).";
  if (contents.any_engine_calls) {
    note +=
        " \"ops/s over in-call time (schema 4)\": a row read from a results schema 4 file, "
        "whose ops/s divide by the busiest thread's time inside the engine's calls instead.";
  }
  note +=
      " Bold: best at its matrix point, its interval clear of the runner-up's; \"tied\": "
      "the leaders' intervals overlap, so the data cannot name a best. vs best = median "
      "ops/s relative to the fastest median. Sizes and bytes written are measured after "
      "the engine's sync; in-memory engines are shown but not ranked where cold cache or "
      "sizes mean nothing for them.";
  if (columns.resident) {
    note +=
        " cached at start = share of the engine's files in the page cache when the phase "
        "began.";
  }
  if (columns.evicted) {
    note +=
        " after eviction = share of the files in the page cache right after the cold eviction, "
        "before the reopen (high: the eviction failed; low here but high at start: the engine "
        "reads its files when it opens).";
  }
  if (columns.lateness) {
    note +=
        " pacing p99 = how late kvbench itself started operations after their intended start "
        "under the target rate (its own error, p99 over the phase); latencies are measured "
        "from the intended start, so this lateness is inside them.";
  }
  if (columns.open) note += " reopen = time to reopen the engine, measured on its own.";
  if (block_ops > 0) note += " " + BlockMeansNote(block_ops);
  return note;
}

// The engine table's columns after the matrix's: the optional ones only when
// measured; latencies marked when each sample is a block's mean.
void AddEngineHeader(const Columns& columns, uint64_t block_ops, Table* t) {
  const std::vector<std::string> header = {
      "engine",   "ops/s",     "ops/s interval", "vs best", "harness share",  "p50 µs",
      "p99 µs",   "p99.9 µs",  "CPU",            "peak RSS", "file size",     "written",
      "after eviction", "cached at start", "pacing p99 µs", "reopen", "status"};
  const std::vector<bool> numeric = {false, true, true, true, true, true, true, true, true,
                                     true,  true, true, true, true, true, true, false};
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "ops/s interval" && !columns.range) continue;
    if (header[i] == "cached at start" && !columns.resident) continue;
    if (header[i] == "after eviction" && !columns.evicted) continue;
    if (header[i] == "pacing p99 µs" && !columns.lateness) continue;
    if (header[i] == "reopen" && !columns.open) continue;
    const bool latency = header[i] == "p50 µs" || header[i] == "p99 µs" || header[i] == "p99.9 µs";
    t->header.push_back(block_ops > 0 && latency ? header[i] + " (block means)" : header[i]);
    t->numeric.push_back(numeric[i]);
  }
}

// The per-operation table's columns after the matrix's (a phase that mixes operations).
void AddOpHeader(uint64_t block_ops, Table* t) {
  for (const char* h : {"engine", "op", "ops", "ops/s", "p50 µs", "p90 µs", "p99 µs",
                        "p99.9 µs", "found", "not found"}) {
    const bool latency = std::string_view(h).find("µs") != std::string_view::npos;
    t->header.push_back(block_ops > 0 && latency ? std::string(h) + " (block means)" : h);
    t->numeric.push_back(std::string(h) != "engine" && std::string(h) != "op");
  }
}

}  // namespace

std::vector<PhaseSection> BuildPhaseSections(const results::RunResults& results) {
  std::vector<PhaseSection> sections;
  for (const PhaseView& phase : GroupByPhase(results)) {
    PhaseSection s;
    s.name = phase.name;
    s.op = phase.op;
    for (const auto& [k, v] : phase.first->params)
      s.params += (s.params.empty() ? "" : ", ") + k + "=" + v;
    s.constants = Constants(phase);

    const PhaseContents contents = SurveyPhase(phase);
    const Columns& columns = contents.columns;
    const uint64_t block_ops = LatencyBlockOps(phase);
    s.note = PhaseNote(contents, block_ops);

    Table& t = s.engines;
    AddMatrixHeader(phase.varying, &t);
    AddEngineHeader(columns, block_ops, &t);
    if (contents.mixed) {
      AddMatrixHeader(phase.varying, &s.per_op);
      AddOpHeader(block_ops, &s.per_op);
    }
    if (!contents.client_bound.empty()) {
      std::string names;
      for (const std::string& e : contents.client_bound) names += (names.empty() ? "" : ", ") + e;
      s.warnings.push_back(fmt::format(
          "{} (harness share above {:.0f}%): {}. Its ops/s is what the run achieved, but not "
          "the engine's alone.",
          kClientBoundNote, 100 * kClientBoundShare, names));
    }
    if (const std::string trend = TrendWarning(phase); !trend.empty()) s.warnings.push_back(trend);
    s.serialised_writers = SerialisedWritersNote(phase);
    for (const PointRuns& pr : phase.points) {
      AddEngineRows(results, phase, pr, columns, &t);
      if (contents.mixed) AddOpRows(phase, pr, &s.per_op);
      const std::vector<std::string> differences = WorkDifferences(pr);
      s.work.push_back(WorkSentence(phase, pr, !differences.empty()));
      for (const std::string& d : differences) {
        s.warnings.push_back(
            "engines did different work" +
            (phase.points.size() > 1 ? " at " + PointLabel(pr.point, phase.varying) : "") + ": " +
            d + ".");
      }
    }
    sections.push_back(std::move(s));
  }
  return sections;
}

}  // namespace kvbench::reports
