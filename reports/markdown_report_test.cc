#include <gtest/gtest.h>

#include <functional>

#include "reports/reporter.h"
#include "reports/run_facts.h"
#include "reports/verdict.h"
#include "results/results_json.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::reports {
namespace {

// Engines "a" and "b", `n` repetitions each of one insert phase, every one
// of 1,000 operations in a second; `fill(engine, i, rep)` sets the rest
// (rep->ops[0] is "all").
results::RunResults TwoEngines(const char* phase, int n,
                               const std::function<void(char, int, results::Repetition*)>& fill) {
  results::RunResults r;
  for (const char* name : {"a", "b"}) {
    results::EngineRun e;
    e.name = name;
    r.engines.push_back(e);
    results::PhaseRun run;
    run.phase = phase;
    run.op = "insert";
    run.engine = name;
    run.threads = 1;
    for (int i = 0; i < n; ++i) {
      results::Repetition rep;
      rep.seconds = 1;
      results::OpFigures all;
      all.op = "all";
      all.ops = 1000;
      rep.ops.push_back(all);
      fill(name[0], i, &rep);
      run.repetitions.push_back(rep);
    }
    r.runs.push_back(run);
  }
  return r;
}

bool Contains(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

std::string Markdown(const results::RunResults& r) { return MakeMarkdownReporter()->Render(r); }

void ForRuns(results::RunResults* r, const std::string& phase, const std::string& engine,
             const std::function<void(results::OpFigures&)>& change) {
  for (auto& run : r->runs) {
    if (run.phase != phase || run.engine != engine) continue;
    for (auto& rep : run.repetitions) {
      for (auto& op : rep.ops) change(op);
    }
  }
}

// Every repetition of every run given `share` of its wall span outside the
// engine's calls, but `engine`'s in phase `phase` given `engine_share`.
results::RunResults WithHarnessShare(double share, const std::string& phase,
                                     const std::string& engine, double engine_share) {
  results::RunResults r = test::LoadRunA();
  for (auto& run : r.runs) {
    const double s = run.phase == phase && run.engine == engine ? engine_share : share;
    for (auto& rep : run.repetitions) rep.engine_seconds = rep.seconds * (1 - s);
  }
  return r;
}

// Above 10% a row's ops/s is partly kvbench's own work: its cell, a warning
// in its phase, and the verdict line that ranks on it all say so.
TEST(MarkdownReportTest, AClientBoundRowIsFlaggedInItsTableAndInTheVerdict) {
  const std::string md = Markdown(WithHarnessShare(0.03, "load", "stdmap", 0.25));
  EXPECT_TRUE(Contains(md, "| 25% (client-bound) |")) << md;
  EXPECT_TRUE(Contains(md, "| 3% |"));
  EXPECT_TRUE(Contains(md, "> **WARNING:** client-bound: this figure is partly kvbench's own "
                           "work (harness share above 10%): stdmap."))
      << md;
  // load's verdict ranks stdmap first: the line says it rests on a client-bound row.
  EXPECT_TRUE(Contains(md, "- load: stdmap fastest"));
  const size_t load = md.find("- load: stdmap fastest");
  const std::string line = md.substr(load, md.find('\n', load) - load);
  EXPECT_TRUE(Contains(line, "client-bound: this figure is partly kvbench's own work (stdmap)"))
      << line;
  // Nothing else is: 3% is the engine's figure.
  const std::string calm = Markdown(WithHarnessShare(0.03, "", "", 0));
  EXPECT_FALSE(Contains(calm, "client-bound: this figure")) << calm;
  EXPECT_TRUE(Contains(calm, "ops/s = operations / wall span"));
}

TEST(MarkdownReportTest, EqualWorkGivesNoWarning) {
  const std::string md = Markdown(test::LoadRunA());
  EXPECT_FALSE(Contains(md, "WARNING"));
  EXPECT_TRUE(Contains(md, "identical for all 4 engines"));
}

TEST(MarkdownReportTest, WarnsWhenStreamDigestsDiffer) {
  results::RunResults r = test::LoadRunA();
  ForRuns(&r, "get_hot", "lmdb", [](auto& op) { op.work.stream_digest = "0000feedbeef0000"; });
  const std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md, "> **WARNING:** engines did different work: stream digests differ"))
      << md;
  EXPECT_TRUE(Contains(md, "lmdb 0000feedbeef0000"));
  // Only that phase is flagged.
  size_t warnings = 0;
  for (size_t p = md.find("WARNING"); p != std::string::npos; p = md.find("WARNING", p + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1u);
}

TEST(MarkdownReportTest, WarnsWhenFoundCountsDifferAtOneMatrixPoint) {
  results::RunResults r = test::LoadRunA();
  for (auto& run : r.runs) {
    if (run.phase == "ycsb_a" && run.engine == "sqlite" && run.threads == 4 &&
        run.target_ops == 0) {
      run.repetitions[1].ops[0].work.found -= 3;
    }
  }
  const std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md,
                       "engines did different work at 4 threads, unthrottled: found counts "
                       "differ (repetition 2): sqlite 9,997, lmdb 10,000"))
      << md;
}

TEST(MarkdownReportTest, MarksTheBestAndListsFailuresWithReasons) {
  const std::string md = Markdown(test::LoadRunA());
  EXPECT_TRUE(Contains(md, "| stdmap | **"));  // fastest at load
  EXPECT_TRUE(Contains(md, "| tc-btree | get_cold | – | failed | killed by signal 11 (SIGSEGV)"));
  EXPECT_TRUE(Contains(md, "| bdb-hash | scan | – | unsupported | bdb-hash is not ordered"));
  EXPECT_TRUE(Contains(md, "| threads | target | engine |"));  // matrix columns in ycsb_a
}

TEST(MarkdownReportTest, UnmeasuredFiguresAreDashesNeverZero) {
  results::RunResults r = test::LoadRunA();
  r.runs.resize(1);  // load, sqlite
  r.runs[0].repetitions.resize(1);
  r.runs[0].repetitions[0].bytes_written.reset();
  const std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md, " | – | ok |")) << md;
  EXPECT_TRUE(Contains(md, "One repetition: no interval, so no engine is called best."));
}

// Two leaders whose intervals overlap are "tied"; with one clear of the
// other, the best is bold.
TEST(MarkdownReportTest, BestOnlyWhereTheIntervalsSeparate) {
  results::RunResults r = test::LoadRunA();
  std::vector<results::PhaseRun> load;
  for (const results::PhaseRun& run : r.runs) {
    if (run.phase == "load" && (run.engine == "sqlite" || run.engine == "lmdb")) load.push_back(run);
  }
  ASSERT_EQ(load.size(), 2u);
  auto with_rates = [](results::PhaseRun run, std::vector<double> rates) {
    const results::Repetition first = run.repetitions.at(0);
    run.repetitions.clear();
    for (double rate : rates) {
      results::Repetition rep = first;
      for (auto& op : rep.ops) op.ops_per_sec = rate;
      run.repetitions.push_back(rep);
    }
    return run;
  };
  r.runs = {with_rates(load[0], {100, 104, 108, 112, 116}),
            with_rates(load[1], {102, 106, 110, 114, 118})};
  std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md, "110 (tied)")) << md;
  EXPECT_TRUE(Contains(md, "108 (tied)")) << md;
  EXPECT_FALSE(Contains(md, "**110**")) << md;
  r.runs[1] = with_rates(load[1], {202, 206, 210, 214, 218});
  md = Markdown(r);
  EXPECT_TRUE(Contains(md, "**210**")) << md;
  EXPECT_FALSE(Contains(md, "(tied)")) << md;
}

// Issue 31: rows whose writing client threads ran one writer at a time
// (results::PhaseRun::writers_serialised) are named under their phase's
// table, engines and thread counts; no other phase says so.
TEST(MarkdownReportTest, SerialisedWritersAreNamedUnderTheirPhasesTable) {
  results::RunResults r = test::LoadRunA();
  EXPECT_FALSE(Contains(Markdown(r), "Serialised writers")) << "run_a serialises nothing";
  for (auto& run : r.runs) {
    run.writers_serialised = run.phase == "ycsb_a" && run.threads == 4 &&
                             (run.engine == "sqlite" || run.engine == "lmdb");
  }
  const std::string md = Markdown(r);
  const std::string note =
      "> **Serialised writers:** sqlite (4 threads) and lmdb (4 threads) declare no concurrent "
      "writers (capabilities.concurrent_writers = false): their writing client threads ran "
      "one writer at a time, so those rows measure the threads sharing one writer, not parallel "
      "writes.";
  ASSERT_TRUE(Contains(md, note)) << md;
  EXPECT_EQ(md.find("Serialised writers"), md.rfind("Serialised writers"));
  // Under ycsb_a's table, before the next section.
  const size_t at = md.find(note);
  EXPECT_LT(md.rfind("### `ycsb_a`", at), at);
  EXPECT_EQ(md.rfind("### ", at), md.rfind("### `ycsb_a`", at));

  // One engine: its own thread counts, in the singular.
  for (auto& run : r.runs) {
    run.writers_serialised = run.phase == "ycsb_a" && run.engine == "lmdb";
  }
  EXPECT_TRUE(Contains(Markdown(r), "> **Serialised writers:** lmdb (1 and 4 threads) declares "
                                    "no concurrent writers"))
      << Markdown(r);
}

// The flag is written only when true, and a row without it (every file
// from before it was recorded) reads as not serialised.
TEST(MarkdownReportTest, SerialisedWritersSurviveResultsJsonAndOldRowsReadFalse) {
  results::PhaseRun run = test::LoadRunA().runs.at(0);
  EXPECT_FALSE(results::PhaseRunToJson(run).contains("writers_serialised"));
  run.writers_serialised = true;
  const nlohmann::json j = results::PhaseRunToJson(run);
  EXPECT_EQ(j.at("writers_serialised"), true);
  results::PhaseRun back;
  ASSERT_TRUE(results::PhaseRunFromJson(j, &back).ok());
  EXPECT_TRUE(back.writers_serialised);
  nlohmann::json old = j;
  old.erase("writers_serialised");
  results::PhaseRun old_back;
  ASSERT_TRUE(results::PhaseRunFromJson(old, &old_back).ok());
  EXPECT_FALSE(old_back.writers_serialised);
}

// Five repetitions of load on stdmap, ops/s in the given order.
results::RunResults WithLoadRates(const std::vector<double>& rates) {
  results::RunResults r = test::LoadRunA();
  for (auto& run : r.runs) {
    if (run.phase != "load" || run.engine != "stdmap") continue;
    const results::Repetition first = run.repetitions.at(0);
    run.repetitions.assign(rates.size(), first);
    for (size_t i = 0; i < rates.size(); ++i) run.repetitions[i].ops.at(0).ops_per_sec = rates[i];
  }
  return r;
}

// A steady rise over the measured repetitions is named under the phase's
// table with its p-value; the same rates out of order are not.
TEST(MarkdownReportTest, ARowWhoseRepetitionsDriftIsNamedUnderItsTable) {
  const std::string rising = Markdown(WithLoadRates({100e3, 110e3, 120e3, 130e3, 140e3}));
  EXPECT_TRUE(Contains(rising, "ops/s drifted over the repetitions")) << rising;
  EXPECT_TRUE(Contains(rising, "stdmap rising (p = 0.017)")) << rising;
  const std::string falling = Markdown(WithLoadRates({140e3, 130e3, 120e3, 110e3, 100e3}));
  EXPECT_TRUE(Contains(falling, "stdmap falling (p = 0.017)")) << falling;
  const std::string shuffled = Markdown(WithLoadRates({120e3, 140e3, 100e3, 130e3, 110e3}));
  EXPECT_FALSE(Contains(shuffled, "stdmap rising")) << shuffled;
  EXPECT_FALSE(Contains(shuffled, "stdmap falling")) << shuffled;
}

// Warm-up repetitions: the phase's note and the Workload section say they
// ran (and how fast the first went against the row's median); they survive
// results.json; a file without them reads as none and says nothing.
TEST(MarkdownReportTest, WarmUpRepetitionsAreSaidAndKeptApart) {
  results::RunResults r = test::LoadRunA();
  EXPECT_FALSE(Contains(Markdown(r), "warm-up"));
  for (auto& run : r.runs) {
    if (run.phase != "load" || run.repetitions.empty()) continue;
    results::Repetition warm = run.repetitions.front();
    const results::Spread median = results::SpreadOf(
        run, [](const results::Repetition& rep) { return rep.ops.at(0).ops_per_sec; });
    warm.ops.at(0).ops_per_sec = median.median / 2;
    run.warmup_repetitions = {warm};
  }
  const std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md, "Before them, up to 1 warm-up repetition per row, run unthrottled and "
                           "discarded"))
      << md;
  EXPECT_TRUE(Contains(md, "the first warm-up ran at 0.50x its row's measured median ops/s")) << md;
  results::PhaseRun run = r.runs.at(0);
  ASSERT_FALSE(run.warmup_repetitions.empty());
  const nlohmann::json j = results::PhaseRunToJson(run);
  ASSERT_TRUE(j.contains("warmup_repetitions"));
  results::PhaseRun back;
  ASSERT_TRUE(results::PhaseRunFromJson(j, &back).ok());
  ASSERT_EQ(back.warmup_repetitions.size(), 1u);
  EXPECT_EQ(back.warmup_repetitions[0].ops.at(0).ops_per_sec,
            run.warmup_repetitions[0].ops.at(0).ops_per_sec);
  EXPECT_EQ(back.repetitions.size(), run.repetitions.size());
  nlohmann::json old = j;
  old.erase("warmup_repetitions");
  results::PhaseRun old_back;
  ASSERT_TRUE(results::PhaseRunFromJson(old, &old_back).ok());
  EXPECT_TRUE(old_back.warmup_repetitions.empty());
}

TEST(MarkdownReportTest, EscapesNamesThatLookLikeMarkup) {
  results::RunResults r = test::LoadRunA();
  for (auto& run : r.runs) {
    if (run.engine == "stdmap") run.engine = "std|map<b>";
  }
  const std::string md = Markdown(r);
  EXPECT_TRUE(Contains(md, "| std\\|map&lt;b&gt; |"));
  EXPECT_FALSE(Contains(md, "<b>"));
}

// Engines "a" and "b", ten repetitions each. b's run at 1500-1509 ops/s with
// a quiet probe (2000 us); of a's, the first `a_slowed` ran slowed (probe
// 3400 us: 1.7x) at 1000-1009 ops/s and the rest at 2000-2009.
results::RunResults HalfSlowed(int a_slowed) {
  return TwoEngines("insert-one", 10, [a_slowed](char engine, int i, results::Repetition* rep) {
    const bool slowed = engine == 'a' && i < a_slowed;
    rep->cpu_probe_us = {2000, slowed ? 3400.0 : 2010.0};
    rep->ops[0].ops_per_sec = (engine == 'b' ? 1500 : slowed ? 1000 : 2000) + i;
  });
}

TEST(VerdictTest, ATieWhoseRepetitionsRanSlowedIsRankedAgainAtFullSpeed) {
  // Five of a's ten repetitions ran slowed: on all ten, a and b are tied;
  // on the others, a's five (2005-2009) clear b's ten (1500-1509).
  const std::string line = RenderVerdict(HalfSlowed(5));
  EXPECT_TRUE(Contains(line, "tied: ")) << line;
  EXPECT_TRUE(Contains(line,
                       "[CPU probe 1.25× its fastest or slower in a 5 of 10 repetitions; "
                       "at full speed alone: a fastest, 1.33× b (2,005–2,009 vs "
                       "1,501–1,508 ops/s; 94% intervals: 5 repetitions)]"))
      << line;
  const std::string md = Markdown(HalfSlowed(5));
  EXPECT_TRUE(Contains(md, "\"CPU probe\" where some")) << md;
  EXPECT_TRUE(Contains(md,
                       "the CPU probe took 1.25× its fastest or longer (up to 1.70×) around 5 "
                       "of 20 repetitions"))
      << md;
  // A third engine far behind, every repetition slowed, is not in the tie:
  // it does not stop the tie's ranking.
  results::RunResults three = HalfSlowed(5);
  results::PhaseRun c = three.runs.at(1);
  c.engine = "c";
  for (size_t i = 0; i < c.repetitions.size(); ++i) {
    c.repetitions[i].ops[0].ops_per_sec = 100 + static_cast<double>(i);
    c.repetitions[i].cpu_probe_us = {3400, 3400};
  }
  three.runs.push_back(c);
  results::EngineRun engine_c;
  engine_c.name = "c";
  three.engines.push_back(engine_c);
  EXPECT_TRUE(Contains(RenderVerdict(three), "at full speed alone: a fastest, 1.33× b"))
      << RenderVerdict(three);
  // Eight slowed leave two at full speed: too few to rank again.
  const std::string few = RenderVerdict(HalfSlowed(8));
  EXPECT_TRUE(Contains(few, "in a 8 of 10 repetitions; too few at full speed")) << few;
  // None slowed: no note (the probes differ by 0.5%).
  const std::string none = RenderVerdict(HalfSlowed(0));
  EXPECT_FALSE(Contains(none, "CPU probe")) << none;
  EXPECT_FALSE(Contains(Markdown(HalfSlowed(0)), "CPU probe took"));
  // Files from before the probe carry none: never "slowed".
  results::RunResults old = HalfSlowed(5);
  for (results::PhaseRun& run : old.runs) {
    for (results::Repetition& rep : run.repetitions) rep.cpu_probe_us.clear();
  }
  EXPECT_FALSE(Contains(RenderVerdict(old), "CPU probe")) << RenderVerdict(old);
}

TEST(VerdictTest, CpuProbeTimesSurviveResultsJson) {
  const results::PhaseRun run = HalfSlowed(5).runs.at(0);
  const nlohmann::json j = results::PhaseRunToJson(run);
  EXPECT_EQ(j.at("repetitions").at(0).at("cpu_probe_us"), nlohmann::json::array({2000, 3400}));
  results::PhaseRun back;
  ASSERT_TRUE(results::PhaseRunFromJson(j, &back).ok());
  EXPECT_EQ(back.repetitions.at(0).cpu_probe_us, (std::vector<double>{2000, 3400}));
  EXPECT_EQ(back.repetitions.at(9).cpu_probe_us, (std::vector<double>{2000, 2010}));
}

}  // namespace
}  // namespace kvbench::reports

namespace kvbench::reports {
namespace {

TEST(MeasurementWarningsTest, EachSpoilingConditionGetsOneLine) {
  results::RunResults r = test::LoadRunA();  // has cold phases
  r.environment.build_type = "Release";
  r.environment.cpu_governor = "performance";
  r.environment.filesystem = "ext2/3/4";
  r.environment.cores = 2;
  r.environment.load_average_1m = 0.1;
  EXPECT_TRUE(MeasurementWarnings(r).empty());
  r.environment.build_type = "Debug";
  r.environment.cpu_governor = "powersave";
  r.environment.filesystem = "tmpfs";
  r.environment.load_average_1m = 1.9;
  const std::vector<std::string> w = MeasurementWarnings(r);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_NE(w[0].find("Debug"), std::string::npos);
  EXPECT_NE(w[1].find("powersave"), std::string::npos);
  EXPECT_NE(w[2].find("tmpfs"), std::string::npos);
  EXPECT_NE(w[3].find("load average 1.90"), std::string::npos);
  EXPECT_NE(Markdown(r).find("> **WARNING:** CPU governor is 'powersave'"), std::string::npos);
}

}  // namespace
}  // namespace kvbench::reports

namespace kvbench::reports {
namespace {

// Two engines, one phase, `n` repetitions each, a's all above b's.
results::RunResults TwoEnginesApart(int n) {
  return TwoEngines("load", n, [](char engine, int i, results::Repetition* rep) {
    rep->ops[0].ops_per_sec = (engine == 'a' ? 2000 : 1000) + 10.0 * i;
  });
}

TEST(VerdictTest, ALineGivesItsIntervalsLevelWhereTooFewRepetitionsAllow95Percent) {
  // Six repetitions reach 97% from the lowest to the highest; five only 94%,
  // three 75%: the line says so instead of passing them off as 95%.
  EXPECT_TRUE(Contains(RenderVerdict(TwoEnginesApart(3)), "ops/s; 75% intervals: 3 repetitions)"))
      << RenderVerdict(TwoEnginesApart(3));
  EXPECT_TRUE(Contains(RenderVerdict(TwoEnginesApart(5)), "ops/s; 94% intervals: 5 repetitions)"))
      << RenderVerdict(TwoEnginesApart(5));
  const std::string six = RenderVerdict(TwoEnginesApart(6));
  EXPECT_TRUE(Contains(six, "a fastest, 1.98× b (")) << six;
  EXPECT_FALSE(Contains(six, "intervals:")) << six;
  EXPECT_TRUE(Contains(Markdown(TwoEnginesApart(3)), "or the lower level a line gives"));
}

}  // namespace
}  // namespace kvbench::reports
