// `kvbench history add|list|trend|check`: the results history store
// (docs/history.md). Every subcommand takes --store STORE: sqlite:PATH or a
// PostgreSQL URL; without it, $KVBENCH_STORE, else
// sqlite:~/.local/share/kvbench/history.db ($XDG_DATA_HOME/kvbench/history.db
// when that is set).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/history_commands.h"

namespace kvbench::app {

namespace {

constexpr const char* kStoreHelp =
    "sqlite:PATH or postgresql://user@host/db (default: $KVBENCH_STORE, else "
    "sqlite:~/.local/share/kvbench/history.db)";

void AddDetectionOptions(CLI::App* cmd, results::ChangePointOptions* o) {
  cmd->add_option("--max-p", o->max_p_value,
                  "Largest permutation p-value of a change point that is kept")
      ->capture_default_str();
  cmd->add_option("--permutations", o->permutations, "Permutations per significance test")
      ->capture_default_str();
  cmd->add_option("--min-segment", o->min_segment, "Fewest runs on each side of a change point")
      ->capture_default_str();
}

void AddFigureFilterOptions(CLI::App* cmd, results::FigureFilter* f) {
  cmd->add_option("--engine", f->engine, "Only this engine");
  cmd->add_option("--phase", f->phase, "Only this phase (by name)");
  cmd->add_option("--workload", f->workload, "Only runs of this workload (by name)");
  cmd->add_option("--since", f->since, "Only runs started at or after this date (2026-11-01)");
  cmd->add_option("--op", f->op,
                  "Operation type of latency and throughput figures (all, get, READ...)")
      ->capture_default_str();
}

}  // namespace

void AddHistoryCommand(CLI::App& app, int* exit_code) {
  auto* history = app.add_subcommand(
      "history", "Keep runs in a history store; draw trends; find changes across revisions");
  history->require_subcommand(1);
  history->footer(
      "Examples:\n  kvbench history add runs/*/results.json\n  kvbench history trend --engine "
      "lmdb --figure p99 -o trend.html\n  kvbench history check --last 10 "
      "--fail-on-regression 5\nStore: --store sqlite:PATH | postgresql://...; default "
      "$KVBENCH_STORE, else sqlite:~/.local/share/kvbench/history.db");
  auto store = std::make_shared<std::string>();

  auto files = std::make_shared<std::vector<std::string>>();
  auto* add = history->add_subcommand(
      "add", "Add results.json files (a run already stored is left as it is)");
  add->add_option("results", *files, "results.json files")->required();
  add->add_option("--store", *store, kStoreHelp);
  auto allow_incomplete = std::make_shared<bool>(false);
  add->add_flag("--allow-incomplete", *allow_incomplete,
                "Add runs that did not finish (interrupted or killed: complete: false) too");
  add->callback([=] {
    *exit_code = RunHistoryAdd(*files, ResolveStoreSpec(*store), std::cout, std::cerr,
                               *allow_incomplete);
  });

  auto filter = std::make_shared<results::RunFilter>();
  auto* list = history->add_subcommand("list", "List the stored runs, oldest first");
  list->add_option("--engine", filter->engine, "Only runs with this engine");
  list->add_option("--workload", filter->workload, "Only runs of this workload (by name)");
  list->add_option("--since", filter->since, "Only runs started at or after this date");
  list->add_option("--store", *store, kStoreHelp);
  list->callback([=] {
    *exit_code = RunHistoryList(ResolveStoreSpec(*store), *filter, std::cout, std::cerr);
  });

  auto trend = std::make_shared<TrendArgs>();
  auto figure = std::make_shared<std::string>("ops_per_sec");
  auto* trend_cmd = history->add_subcommand(
      "trend", "Write an HTML page: one chart per series, change points marked and listed");
  AddFigureFilterOptions(trend_cmd, &trend->filter);
  trend_cmd
      ->add_option("--figure", *figure,
                   "ops_per_sec (throughput), p50, p90, p99, p999, max, mean, seconds, "
                   "file_bytes, peak_rss_bytes...")
      ->capture_default_str();
  trend_cmd->add_option("-o,--output", trend->output, "The HTML file to write")->required();
  trend_cmd->add_option("--store", *store, kStoreHelp);
  AddDetectionOptions(trend_cmd, &trend->detection);
  trend_cmd->callback([=] {
    trend->filter.figures = {*figure};
    *exit_code = RunHistoryTrend(ResolveStoreSpec(*store), *trend, std::cout, std::cerr);
  });

  auto check = std::make_shared<CheckArgs>();
  auto check_figures = std::make_shared<std::vector<std::string>>();
  auto* check_cmd = history->add_subcommand(
      "check", "For CI: exit 1 when the newest runs sit after a significant slowdown");
  AddFigureFilterOptions(check_cmd, &check->filter);
  check_cmd->add_option("--figure", *check_figures,
                        "Figures to check (repeatable; default ops_per_sec and p99)");
  check_cmd
      ->add_option("--last", check->last_runs,
                   "Look for change points among each series' newest N runs")
      ->capture_default_str();
  check_cmd
      ->add_option("--fail-on-regression", check->fail_pct,
                   "Exit 1 when such a slowdown (throughput down, or latency, time or size "
                   "up) is larger than PCT percent")
      ->capture_default_str();
  check_cmd->add_option("--store", *store, kStoreHelp);
  AddDetectionOptions(check_cmd, &check->detection);
  check_cmd->callback([=] {
    check->filter.figures =
        check_figures->empty() ? std::vector<std::string>{"ops_per_sec", "p99_ns"} : *check_figures;
    *exit_code = RunHistoryCheck(ResolveStoreSpec(*store), *check, std::cout, std::cerr);
  });
}

}  // namespace kvbench::app
