#include "reports/durability_section.h"

#include <fmt/core.h>

#include <algorithm>

#include "reports/text_format.h"
#include "results/durability.h"
#include "results/statistics.h"

namespace kvbench::reports {

namespace {

// "commit-1 1.2k/s, commit-8 30.1k/s": the median ops/s of every phase the
// engine ran normally; "-" when the run had none.
std::string ThroughputOf(const results::RunResults& results, const std::string& engine) {
  std::string out;
  for (const results::PhaseRun& run : results.runs) {
    if (run.engine != engine || run.status != "ok" || run.repetitions.empty()) continue;
    const results::Spread rate = results::SpreadOf(run, [](const results::Repetition& r) {
      return r.ops.empty() ? 0.0 : r.ops[0].ops_per_sec;
    });
    out += (out.empty() ? "" : ", ") + run.phase + " " + FormatRate(rate.median) + "/s";
  }
  return out.empty() ? "-" : out;
}

std::string Median(std::vector<double> v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return FormatSeconds(n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

std::string Max(const std::vector<double>& v) {
  return v.empty() ? "-" : FormatSeconds(*std::max_element(v.begin(), v.end()));
}

}  // namespace

std::string DurabilityNote() {
  return "Each trial writes single-key commits and 2..8-key batches, cuts at a random moment "
         "(power-loss: every write not fsynced is lost; torn: a random subset of the unsynced "
         "4 KiB pages survives; kill: SIGKILL, the page cache survives), reopens and checks "
         "every acknowledged commit; with several writers (--writers N), N threads each "
         "commit keys of their own at once, each held to its own acknowledgements. Declared: what "
         "the adapter says its options promise; "
         "measured: durable (no acknowledged commit lost), consistent (commits lost, files "
         "fine), nothing (corrupt or unopenable). Recovery is the reopen time after the fault. "
         "Throughput comes from this run's normal phases on a plain directory, never from the "
         "trials (which run through the layer).";
}

Table DurabilityTable(const results::RunResults& results) {
  Table t;
  t.header = {"engine",
              "fault",
              "declared",
              "measured",
              "trials",
              "lost acked (trials)",
              "most lost",
              "partial batches",
              "corrupt",
              "unopenable",
              "recovery median",
              "recovery max",
              "throughput (normal run)",
              "declared because"};
  t.numeric = {false, false, false, false, true, true,  true,
               true,  true,  true,  true,  true, false, false};
  for (const results::DurabilityRun& d : results.durability) {
    std::vector<Cell> row;
    auto add = [&row](std::string text) { row.push_back(Cell{std::move(text)}); };
    add(d.engine);
    add(results::FaultLabel(d));
    add(d.declared + (d.declared_atomic ? ", atomic batches" : ""));
    if (d.status != "ok") {
      add(d.status + ": " + d.reason);
    } else {
      add(d.finding ? d.measured + " (FINDING)" : d.measured);
    }
    add(std::to_string(d.trials));
    add(std::to_string(d.trials_losing_acked));
    add(std::to_string(d.most_commits_lost));
    add(std::to_string(d.atomicity_violations));
    add(std::to_string(d.corrupt));
    add(std::to_string(d.unopenable));
    add(Median(d.recovery_s));
    add(Max(d.recovery_s));
    add(ThroughputOf(results, d.engine));
    add(d.basis);
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<std::string> DurabilityFindings(const results::RunResults& results) {
  std::vector<std::string> out;
  for (const results::DurabilityRun& d : results.durability) {
    if (!d.finding) continue;
    std::string what;
    if (d.corrupt + d.unopenable > 0) {
      what = fmt::format("left corrupt or unopenable files in {} of {} trials",
                         d.corrupt + d.unopenable, d.trials);
    } else if (d.trials_losing_acked > 0) {
      what = fmt::format("lost acknowledged commits in {} of {} trials (at most {} in one)",
                         d.trials_losing_acked, d.trials, d.most_commits_lost);
    }
    if (d.declared_atomic && d.atomicity_violations > 0) {
      what += fmt::format("{}showed a partial batch in {} of {} trials",
                          what.empty() ? "" : " and ", d.atomicity_violations, d.trials);
    }
    out.push_back(fmt::format("{} declares \"{}\"{} under {} but {}", d.engine, d.declared,
                              d.declared_atomic ? " with atomic batches" : "",
                              results::FaultLabel(d), what));
  }
  return out;
}

std::vector<std::string> DurabilityProblems(const results::RunResults& results) {
  std::vector<std::string> out;
  for (const results::DurabilityRun& d : results.durability) {
    for (const std::string& p : d.problems) {
      out.push_back(d.engine + " (" + results::FaultLabel(d) + "): " + p);
    }
  }
  return out;
}

}  // namespace kvbench::reports
