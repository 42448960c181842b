#include "results/history/history_schema.h"

#include <string>

namespace kvbench::results {

const std::vector<std::string>& HistoryMigration(int to) {
  static const std::vector<std::vector<std::string>> migrations = {
      // 1: the first schema.
      {
          "CREATE TABLE kvbench_store (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
          "CREATE TABLE kvbench_runs ("
          " run_id TEXT PRIMARY KEY,"
          " run_id_source TEXT NOT NULL,"
          " content_sha256 TEXT NOT NULL,"
          " source TEXT NOT NULL,"
          " added_at TEXT NOT NULL,"
          " started_at TEXT NOT NULL,"
          " finished_at TEXT NOT NULL,"
          " command_line TEXT NOT NULL,"
          " workload_name TEXT NOT NULL,"
          " workload_file TEXT NOT NULL,"
          " workload_hash TEXT NOT NULL,"
          " workload_scale DOUBLE PRECISION NOT NULL,"
          " host_fingerprint TEXT NOT NULL,"
          " hostname TEXT NOT NULL,"
          " cpu_model TEXT NOT NULL,"
          " cores INTEGER NOT NULL,"
          " memory_bytes BIGINT NOT NULL,"
          " kernel TEXT NOT NULL,"
          " compiler TEXT NOT NULL,"
          " build_type TEXT NOT NULL,"
          " kvbench_version TEXT NOT NULL,"
          " kvbench_revision TEXT NOT NULL,"
          " environment_json TEXT NOT NULL,"
          " workload_json TEXT NOT NULL)",
          "CREATE INDEX kvbench_runs_by_start ON kvbench_runs (started_at)",
          "CREATE TABLE kvbench_engines ("
          " run_id TEXT NOT NULL REFERENCES kvbench_runs (run_id) ON DELETE CASCADE,"
          " engine TEXT NOT NULL,"
          " library_version TEXT NOT NULL,"
          " status TEXT NOT NULL,"
          " reason TEXT NOT NULL,"
          " options_json TEXT NOT NULL,"
          " PRIMARY KEY (run_id, engine))",
          "CREATE TABLE kvbench_figures ("
          " run_id TEXT NOT NULL REFERENCES kvbench_runs (run_id) ON DELETE CASCADE,"
          " figure_no INTEGER NOT NULL,"
          " engine TEXT NOT NULL,"
          " phase TEXT NOT NULL,"
          " phase_op TEXT NOT NULL,"
          " threads INTEGER NOT NULL,"
          " target_ops DOUBLE PRECISION NOT NULL,"
          " cache TEXT NOT NULL,"
          " op TEXT NOT NULL,"
          " figure TEXT NOT NULL,"
          " n INTEGER NOT NULL,"
          " median DOUBLE PRECISION NOT NULL,"
          " min_value DOUBLE PRECISION NOT NULL,"
          " max_value DOUBLE PRECISION NOT NULL,"
          " ci_low DOUBLE PRECISION,"
          " ci_high DOUBLE PRECISION,"
          " ci_level DOUBLE PRECISION,"
          " PRIMARY KEY (run_id, figure_no))",
          "CREATE INDEX kvbench_figures_by_figure ON kvbench_figures (figure, engine, phase)",
          "CREATE TABLE kvbench_repetitions ("
          " run_id TEXT NOT NULL,"
          " figure_no INTEGER NOT NULL,"
          " repetition INTEGER NOT NULL,"
          " value DOUBLE PRECISION NOT NULL,"
          " PRIMARY KEY (run_id, figure_no, repetition),"
          " FOREIGN KEY (run_id, figure_no) REFERENCES kvbench_figures (run_id, figure_no)"
          " ON DELETE CASCADE)",
      },
      // 2: each figure's time base (see the top of history_schema.h for the
      // rows stored before it).
      {
          "ALTER TABLE kvbench_figures ADD COLUMN time_base TEXT NOT NULL DEFAULT ''",
          std::string("UPDATE kvbench_figures SET time_base = CASE WHEN (SELECT r.started_at"
                      " FROM kvbench_runs r WHERE r.run_id = kvbench_figures.run_id) < '") +
              kResultsSchema4Began +
              "' THEN 'wall_span' ELSE 'unknown' END"
              " WHERE figure IN ('ops_per_sec', 'seconds')",
      },
  };
  return migrations.at(static_cast<size_t>(to - 1));
}

}  // namespace kvbench::results
