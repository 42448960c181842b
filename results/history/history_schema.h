// The history store's schema, one text for SQLite and PostgreSQL (only
// types and constructs both accept: TEXT, INTEGER, BIGINT, DOUBLE PRECISION,
// composite primary keys), and its versioned migrations.
//
//   kvbench_store        name -> value: format = "kvbench-history", schema_version, created_by
//   kvbench_runs         one row per run: run_id (primary key), where it came from, when it
//                        ran, workload name/file/hash/scale, host fingerprint and facts, kvbench
//                        version and revision, compiler, the whole environment and workload as
//                        JSON
//   kvbench_engines      (run_id, engine): library version, status, reason, options as JSON
//   kvbench_figures      (run_id, figure_no): engine, phase, phase_op, threads, target_ops,
//                        cache, op, figure, n, median, min, max, ci_low, ci_high, ci_level
//   kvbench_repetitions  (run_id, figure_no, repetition): value
//
// A store records its schema_version; a kvbench reads stores up to its own
// version (migrating older ones forward, in one transaction) and refuses
// newer ones.
#pragma once

#include <string>
#include <vector>

namespace kvbench::results {

inline constexpr const char* kHistoryFormat = "kvbench-history";
inline constexpr int kHistorySchemaVersion = 1;

// The statements that take a store from version `to - 1` to `to`
// (1 <= to <= kHistorySchemaVersion); version 0 is an empty database.
const std::vector<std::string>& HistoryMigration(int to);

}  // namespace kvbench::results
