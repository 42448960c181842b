#include "app/history_commands.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "app/cli.h"
#include "common/atomic_file.h"
#include "reports/history_text.h"
#include "reports/trend_page.h"
#include "results/history/run_record.h"
#include "results/trend.h"

namespace kvbench::app {

namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// Opens the store named by `spec`; on failure one line "kvbench history
// <command>: <why>" on `err`.
bool OpenStore(const std::string& command, const std::string& spec, results::OpenMode mode,
               std::unique_ptr<results::HistoryStore>* store, std::ostream& err) {
  results::StoreLocation where;
  Status s = results::ParseStoreLocation(spec, Env("HOME"), &where);
  if (s.ok() && where.kind == results::StoreLocation::Kind::kSqlite &&
      mode == results::OpenMode::kCreate) {
    // The default store's directory (~/.local/share/kvbench) may not exist yet.
    const std::filesystem::path parent = std::filesystem::path(where.path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  }
  if (s.ok()) s = results::OpenHistoryStore(where, mode, store);
  if (!s.ok()) err << "kvbench " << command << ": " << s.message() << "\n";
  return s.ok();
}

std::string AddedLine(const results::RunRecord& r, results::AddOutcome outcome,
                      const std::string& store) {
  if (outcome == results::AddOutcome::kAlreadyStored) {
    return fmt::format("{}: run {} is already in {} (nothing added)\n", r.source, r.run_id, store);
  }
  return fmt::format("{}: added run {} ({}, {} figures) to {}\n", r.source, r.run_id,
                     r.header.workload.name, r.figures.size(), store);
}

bool CheckDetection(const std::string& command, const results::ChangePointOptions& o,
                    std::ostream& err) {
  const std::string bad = results::CheckChangePointOptions(o);
  if (!bad.empty()) err << "kvbench " << command << ": " << bad << "\n";
  return bad.empty();
}

// Loads the figures of `filter` and builds their series.
bool LoadSeries(const std::string& command, const std::string& spec,
                const results::FigureFilter& filter, const results::ChangePointOptions& detection,
                std::vector<results::Series>* series, std::string* store_name, std::ostream& err) {
  for (const std::string& figure : filter.figures) {
    if (results::FindFigureKind(figure) == nullptr) {
      std::string known;
      for (const results::FigureKind& k : results::FigureKinds()) {
        known += (known.empty() ? "" : ", ") + std::string(k.name);
      }
      err << "kvbench " << command << ": unknown figure '" << figure << "' (" << known << ")\n";
      return false;
    }
  }
  if (!CheckDetection(command, detection, err)) return false;
  std::unique_ptr<results::HistoryStore> store;
  if (!OpenStore(command, spec, results::OpenMode::kExisting, &store, err)) return false;
  std::vector<results::FigurePoint> points;
  if (Status s = store->LoadFigures(filter, &points); !s.ok()) {
    err << "kvbench " << command << ": " << s.message() << "\n";
    return false;
  }
  *store_name = store->description();
  *series = results::BuildSeries(std::move(points), detection);
  return true;
}

// Stored figure names for what the user typed ("p99" -> "p99_ns").
results::FigureFilter Canonical(results::FigureFilter filter) {
  for (std::string& f : filter.figures) {
    if (const results::FigureKind* kind = results::FindFigureKind(f)) f = kind->name;
  }
  return filter;
}

}  // namespace

std::string ResolveStoreSpec(const std::string& given, const std::string& env_store,
                             const std::string& xdg_data_home, const std::string& home) {
  if (!given.empty()) return given;
  if (!env_store.empty()) return env_store;
  return "sqlite:" + results::DefaultStorePath(xdg_data_home, home);
}

std::string ResolveStoreSpec(const std::string& given) {
  return ResolveStoreSpec(given, Env("KVBENCH_STORE"), Env("XDG_DATA_HOME"), Env("HOME"));
}

int RunHistoryAdd(const std::vector<std::string>& files, const std::string& store_spec,
                  std::ostream& out, std::ostream& err, bool allow_incomplete) {
  if (files.empty()) {
    err << "kvbench history add: no results file given\n";
    return kExitBadInput;
  }
  // Every file is read before the store is touched: a bad one adds nothing.
  std::vector<results::RunRecord> records(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (Status s = results::ReadRunRecord(files[i], &records[i]); !s.ok()) {
      err << "kvbench history add: " << s.message() << "\n";
      return kExitBadInput;
    }
    // A run cut short looks like a complete run of fewer engines: its
    // figures would enter every trend as if they were the whole run's.
    if (!records[i].header.complete && !allow_incomplete) {
      err << "kvbench history add: " << files[i] << ": the run did not finish (complete: false"
          << (records[i].header.interrupted.empty() ? ""
                                                    : ", interrupted by " +
                                                          records[i].header.interrupted)
          << "); add it anyway with --allow-incomplete\n";
      return kExitBadInput;
    }
  }
  std::unique_ptr<results::HistoryStore> store;
  if (!OpenStore("history add", store_spec, results::OpenMode::kCreate, &store, err)) {
    return kExitBadInput;
  }
  std::vector<results::AddOutcome> outcomes;
  if (Status s = store->AddRuns(records, &outcomes); !s.ok()) {
    err << "kvbench history add: " << s.message() << " (nothing was added)\n";
    return kExitBadInput;
  }
  for (size_t i = 0; i < records.size(); ++i) {
    out << AddedLine(records[i], outcomes[i], store->description());
  }
  return kExitOk;
}

int RunHistoryList(const std::string& store_spec, const results::RunFilter& filter,
                   std::ostream& out, std::ostream& err) {
  std::unique_ptr<results::HistoryStore> store;
  if (!OpenStore("history list", store_spec, results::OpenMode::kExisting, &store, err)) {
    return kExitBadInput;
  }
  std::vector<results::StoredRunInfo> runs;
  if (Status s = store->ListRuns(filter, &runs); !s.ok()) {
    err << "kvbench history list: " << s.message() << "\n";
    return kExitBadInput;
  }
  out << reports::RenderRunList(runs);
  return kExitOk;
}

int RunHistoryTrend(const std::string& store_spec, const TrendArgs& args, std::ostream& out,
                    std::ostream& err) {
  reports::TrendPageInput page;
  const results::FigureFilter filter = Canonical(args.filter);
  if (!LoadSeries("history trend", store_spec, filter, args.detection, &page.series, &page.store,
                  err)) {
    return kExitBadInput;
  }
  page.options = args.detection;
  std::vector<std::string> asked;
  for (const std::string& f : filter.figures) asked.push_back("figure " + f);
  if (!filter.op.empty()) asked.push_back("operation " + filter.op);
  for (const auto& [name, value] : {std::pair{"engine", &filter.engine},
                                    {"phase", &filter.phase},
                                    {"workload", &filter.workload},
                                    {"since", &filter.since}}) {
    if (!value->empty()) asked.push_back(std::string(name) + " " + *value);
  }
  for (const std::string& a : asked) page.filters += (page.filters.empty() ? "" : ", ") + a;
  if (Status s = WriteFileAtomically(args.output, reports::RenderTrendPage(page)); !s.ok()) {
    err << "kvbench history trend: " << s.message() << "\n";
    return kExitBadInput;
  }
  size_t changes = 0, time_base_changes = 0;
  for (const results::Series& s : page.series) {
    changes += s.changes.size();
    time_base_changes += s.time_base_changes.size();
  }
  out << fmt::format(
      "trend: {} ({} series, {} change points{})\n", args.output, page.series.size(), changes,
      time_base_changes == 0 ? ""
                             : fmt::format(", {} time-base change{}", time_base_changes,
                                           time_base_changes == 1 ? "" : "s"));
  out << reports::RenderTimeBaseChanges(page.series, 0);
  return kExitOk;
}

int RunHistoryCheck(const std::string& store_spec, const CheckArgs& args, std::ostream& out,
                    std::ostream& err) {
  if (args.last_runs < 1 || !(args.fail_pct >= 0)) {
    err << "kvbench history check: --last must be at least 1 and --fail-on-regression at least "
           "0\n";
    return kExitBadInput;
  }
  std::vector<results::Series> series;
  std::string store_name;
  if (!LoadSeries("history check", store_spec, Canonical(args.filter), args.detection, &series,
                  &store_name, err)) {
    return kExitBadInput;
  }
  const results::CheckOutcome outcome =
      results::CheckNewestRuns(series, args.last_runs, args.fail_pct);
  out << reports::RenderCheckReport(outcome, series, args.last_runs, args.fail_pct);
  return outcome.regressions.empty() ? kExitOk : kExitFailure;
}

int CheckHistoryStoreOpens(const std::string& store_spec, std::ostream& err) {
  // A missing SQLite store is not created here: a run that then stops on bad
  // input must leave nothing behind. It is enough that the file could be
  // made: its nearest existing folder is one we may write in. The store is
  // created when the run's results are added.
  results::StoreLocation where;
  if (results::ParseStoreLocation(store_spec, Env("HOME"), &where).ok() &&
      where.kind == results::StoreLocation::Kind::kSqlite) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(where.path, ec) && !fs::is_symlink(where.path, ec)) {
      fs::path folder = fs::absolute(fs::path(where.path), ec).parent_path();
      while (!fs::exists(folder, ec) && folder.has_parent_path() &&
             folder != folder.parent_path()) {
        folder = folder.parent_path();
      }
      if (!fs::is_directory(folder, ec) || access(folder.c_str(), W_OK | X_OK) != 0) {
        err << "kvbench run --history: store '" << where.display << "' cannot be created: '"
            << folder.string() << "' is not a folder kvbench may write in\n";
        return kExitBadInput;
      }
      return kExitOk;
    }
    std::unique_ptr<results::HistoryStore> store;
    return OpenStore("run --history", store_spec, results::OpenMode::kExisting, &store, err)
               ? kExitOk
               : kExitBadInput;
  }
  std::unique_ptr<results::HistoryStore> store;
  return OpenStore("run --history", store_spec, results::OpenMode::kCreate, &store, err)
             ? kExitOk
             : kExitBadInput;
}

}  // namespace kvbench::app
