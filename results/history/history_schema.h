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
//                        cache, op, figure, n, median, min, max, ci_low, ci_high, ci_level,
//                        time_base (schema 2: what the figure's time is, see
//                        history_model.h: "wall_span", "engine_calls", "unknown",
//                        "mixed", or "" for figures without one)
//   kvbench_repetitions  (run_id, figure_no, repetition): value
//
// A store records its schema_version; a kvbench reads stores up to its own
// version (migrating older ones forward, in one transaction) and refuses
// newer ones.
//
// Versions: 1, the first schema. 2, kvbench_figures.time_base. Results files
// do not say which time base their figures used before results schema 5,
// and the store did not keep their schema, so the rows a version-1 store
// holds get it from when their run started: a run that started before
// results schema 4 existed (kResultsSchema4Began) wrote schema 3 or older,
// whose figures divide by the wall span; a later one may have been written
// under schema 4 or 5, and its ops_per_sec and seconds become "unknown".
#pragma once

#include <string>
#include <vector>

namespace kvbench::results {

inline constexpr const char* kHistoryFormat = "kvbench-history";
inline constexpr int kHistorySchemaVersion = 2;
// When kvbench's results schema 4 (ops/s over the time inside the engine's
// calls) was first committed: no run that started before it can have used it.
inline constexpr const char* kResultsSchema4Began = "2026-11-25T11:44:17Z";

// The statements that take a store from version `to - 1` to `to`
// (1 <= to <= kHistorySchemaVersion); version 0 is an empty database.
const std::vector<std::string>& HistoryMigration(int to);

}  // namespace kvbench::results
