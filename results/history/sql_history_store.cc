// HistoryStore over an SqlConnection: the one implementation of the store's
// logic (migrations, adds, queries) for both SQLite and PostgreSQL.
#include <time.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "results/history/history_schema.h"
#include "results/history/history_store.h"
#include "results/history/sql_connection.h"
#include "results/results_json.h"

namespace kvbench::results {

namespace {

std::string UtcNow() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// A filter's condition: for a non-empty `value`, appends
// " AND <condition>$n<close>" to *sql and `value` as parameter n.
void AndIf(const std::string& value, const std::string& condition, const char* close,
           std::string* sql, std::vector<SqlValue>* params) {
  if (value.empty()) return;
  params->push_back(value);
  *sql += " AND " + condition + "$" + std::to_string(params->size()) + close;
}

// Rows of one table written many to a statement (multi-row VALUES), so a
// run of 10,000 figures is a few dozen statements, not 60,000.
class BatchInsert {
 public:
  BatchInsert(SqlConnection* conn, std::string table, std::vector<std::string> columns)
      : conn_(conn), table_(std::move(table)), columns_(std::move(columns)) {
    batch_rows_ =
        std::max<size_t>(1, std::min<size_t>(250, conn_->max_parameters() / columns_.size()));
  }

  Status Add(std::initializer_list<SqlValue> row) {
    params_.insert(params_.end(), row);
    return ++rows_ == batch_rows_ ? Flush() : Status::OK();
  }

  Status Flush() {
    if (rows_ == 0) return Status::OK();
    std::string& sql = statements_[rows_];
    if (sql.empty()) {
      sql = "INSERT INTO " + table_ + " (";
      for (size_t c = 0; c < columns_.size(); ++c) sql += (c ? ", " : "") + columns_[c];
      sql += ") VALUES ";
      size_t n = 1;
      for (size_t r = 0; r < rows_; ++r) {
        sql += r ? ", (" : "(";
        for (size_t c = 0; c < columns_.size(); ++c) sql += (c ? ", $" : "$") + std::to_string(n++);
        sql += ")";
      }
    }
    const Status s = conn_->Query(sql, params_, nullptr);
    params_.clear();
    rows_ = 0;
    return s;
  }

 private:
  SqlConnection* conn_;
  std::string table_;
  std::vector<std::string> columns_;
  size_t batch_rows_ = 1;
  size_t rows_ = 0;
  std::vector<SqlValue> params_;
  std::map<size_t, std::string> statements_;  // by row count
};

class SqlHistoryStore final : public HistoryStore {
 public:
  SqlHistoryStore(std::unique_ptr<SqlConnection> conn, std::string description)
      : conn_(std::move(conn)), description_(std::move(description)) {}

  const std::string& description() const override { return description_; }

  // Brings the schema to kHistorySchemaVersion (see history_schema.h).
  Status Migrate() {
    int version = 0;
    KVBENCH_RETURN_IF_ERROR(ReadVersion(&version));
    if (version == kHistorySchemaVersion) return Status::OK();
    KVBENCH_RETURN_IF_ERROR(conn_->BeginWrite());
    Status s = MigrateLocked();
    if (s.ok()) s = conn_->Commit();
    if (!s.ok()) conn_->Rollback();
    return s;
  }

  Status AddRuns(const std::vector<RunRecord>& runs, std::vector<AddOutcome>* outcomes,
                 const AddOptions& options) override {
    outcomes->clear();
    KVBENCH_RETURN_IF_ERROR(conn_->BeginWrite());
    const std::string added_at = UtcNow();
    Status s;
    for (const RunRecord& run : runs) {
      AddOutcome outcome = AddOutcome::kAlreadyStored;
      s = AddRun(run, added_at, options, &outcome);
      if (!s.ok()) break;
      outcomes->push_back(outcome);
    }
    if (s.ok()) s = conn_->Commit();
    if (!s.ok()) {
      conn_->Rollback();
      outcomes->clear();
    }
    return s;
  }

  Status ListRuns(const RunFilter& filter, std::vector<StoredRunInfo>* out) override {
    std::string sql =
        "SELECT r.run_id, r.added_at, r.started_at, r.workload_name, r.workload_hash,"
        " r.host_fingerprint, r.hostname, r.kvbench_revision, r.source,"
        " (SELECT COUNT(*) FROM kvbench_figures f WHERE f.run_id = r.run_id)"
        " FROM kvbench_runs r WHERE 1 = 1";
    std::vector<SqlValue> params;
    AndIf(filter.workload, "r.workload_name = ", "", &sql, &params);
    AndIf(filter.since, "r.started_at >= ", "", &sql, &params);
    AndIf(filter.engine,
          "EXISTS (SELECT 1 FROM kvbench_engines e WHERE e.run_id = r.run_id AND e.engine = ", ")",
          &sql, &params);
    sql += " ORDER BY r.started_at, r.run_id";
    std::vector<SqlRow> rows, engines;
    KVBENCH_RETURN_IF_ERROR(conn_->Query(sql, params, &rows));
    KVBENCH_RETURN_IF_ERROR(conn_->Query(
        "SELECT run_id, engine FROM kvbench_engines ORDER BY run_id, engine", {}, &engines));
    std::map<std::string, std::vector<std::string>> engines_of;
    for (const SqlRow& e : engines) engines_of[SqlText(e[0])].push_back(SqlText(e[1]));
    out->clear();
    for (const SqlRow& r : rows) {
      StoredRunInfo info;
      info.run_id = SqlText(r[0]);
      info.added_at = SqlText(r[1]);
      info.started_at = SqlText(r[2]);
      info.workload_name = SqlText(r[3]);
      info.workload_hash = SqlText(r[4]);
      info.host_fingerprint = SqlText(r[5]);
      info.hostname = SqlText(r[6]);
      info.kvbench_revision = SqlText(r[7]);
      info.source = SqlText(r[8]);
      info.figures = SqlInt(r[9]);
      info.engines = engines_of[info.run_id];
      out->push_back(std::move(info));
    }
    return Status::OK();
  }

  Status LoadFigures(const FigureFilter& filter, std::vector<FigurePoint>* out) override {
    std::string sql =
        "SELECT r.workload_name, r.workload_hash, r.host_fingerprint, f.engine, f.phase,"
        " f.phase_op, f.threads, f.target_ops, f.cache, f.op, f.figure, r.run_id, r.started_at,"
        " r.hostname, r.kvbench_revision, e.library_version, r.kernel, r.compiler, f.n,"
        " f.median, f.ci_low, f.ci_high, f.ci_level, f.time_base"
        " FROM kvbench_figures f JOIN kvbench_runs r ON r.run_id = f.run_id"
        " LEFT JOIN kvbench_engines e ON e.run_id = f.run_id AND e.engine = f.engine"
        " WHERE f.figure IN (";
    std::vector<SqlValue> params;
    for (const std::string& figure : filter.figures) {
      params.push_back(figure);
      sql += (params.size() > 1 ? ", $" : "$") + std::to_string(params.size());
    }
    sql += ")";
    AndIf(filter.op, "(f.op = '' OR f.op = ", ")", &sql, &params);
    AndIf(filter.engine, "f.engine = ", "", &sql, &params);
    AndIf(filter.phase, "f.phase = ", "", &sql, &params);
    AndIf(filter.workload, "r.workload_name = ", "", &sql, &params);
    AndIf(filter.since, "r.started_at >= ", "", &sql, &params);
    sql += " ORDER BY r.started_at, r.run_id, f.figure_no";
    std::vector<SqlRow> rows;
    KVBENCH_RETURN_IF_ERROR(conn_->Query(sql, params, &rows));
    out->clear();
    out->reserve(rows.size());
    for (const SqlRow& r : rows) {
      FigurePoint p;
      p.workload_name = SqlText(r[0]);
      p.workload_hash = SqlText(r[1]);
      p.host_fingerprint = SqlText(r[2]);
      p.engine = SqlText(r[3]);
      p.phase = SqlText(r[4]);
      p.phase_op = SqlText(r[5]);
      p.threads = static_cast<int>(SqlInt(r[6]));
      p.target_ops = SqlDouble(r[7]);
      p.cache = SqlText(r[8]);
      p.op = SqlText(r[9]);
      p.figure = SqlText(r[10]);
      p.run_id = SqlText(r[11]);
      p.started_at = SqlText(r[12]);
      p.hostname = SqlText(r[13]);
      p.kvbench_revision = SqlText(r[14]);
      p.library_version = SqlText(r[15]);
      p.kernel = SqlText(r[16]);
      p.compiler = SqlText(r[17]);
      p.n = static_cast<int>(SqlInt(r[18]));
      p.median = SqlDouble(r[19]);
      if (!SqlIsNull(r[20])) p.ci = Interval{SqlDouble(r[20]), SqlDouble(r[21]), SqlDouble(r[22])};
      p.time_base = SqlText(r[23]);
      out->push_back(std::move(p));
    }
    return Status::OK();
  }

 private:
  // 0 for a database without kvbench's tables. Refuses a store of another
  // format or a newer schema.
  Status ReadVersion(int* version) {
    bool exists = false;
    KVBENCH_RETURN_IF_ERROR(conn_->HasTable("kvbench_store", &exists));
    *version = 0;
    if (!exists) return Status::OK();
    std::vector<SqlRow> rows;
    KVBENCH_RETURN_IF_ERROR(conn_->Query("SELECT name, value FROM kvbench_store", {}, &rows));
    std::string format;
    for (const SqlRow& r : rows) {
      if (SqlText(r[0]) == "format") format = SqlText(r[1]);
      if (SqlText(r[0]) == "schema_version") *version = static_cast<int>(SqlInt(r[1]));
    }
    if (format != kHistoryFormat || *version < 1) {
      return Status::InvalidArgument("store " + description_ +
                                     ": not a kvbench history store (kvbench_store says format '" +
                                     format + "')");
    }
    if (*version > kHistorySchemaVersion) {
      return Status::InvalidArgument(
          "store " + description_ + " has schema version " + std::to_string(*version) +
          ", newer than this kvbench reads (" + std::to_string(kHistorySchemaVersion) +
          "): use a newer kvbench");
    }
    return Status::OK();
  }

  Status MigrateLocked() {
    KVBENCH_RETURN_IF_ERROR(conn_->LockSchema());
    int version = 0;
    KVBENCH_RETURN_IF_ERROR(ReadVersion(&version));  // another process may have migrated it
    for (int to = version + 1; to <= kHistorySchemaVersion; ++to) {
      for (const std::string& statement : HistoryMigration(to)) {
        KVBENCH_RETURN_IF_ERROR(conn_->Execute(statement));
      }
      if (to == 1) {
        KVBENCH_RETURN_IF_ERROR(conn_->Query(
            "INSERT INTO kvbench_store (name, value) VALUES ('format', $1), ('created_at', $2),"
            " ('schema_version', '1')",
            {std::string(kHistoryFormat), UtcNow()}, nullptr));
      } else {
        KVBENCH_RETURN_IF_ERROR(
            conn_->Query("UPDATE kvbench_store SET value = $1 WHERE name = 'schema_version'",
                         {std::to_string(to)}, nullptr));
      }
    }
    return Status::OK();
  }

  Status AddRun(const RunRecord& run, const std::string& added_at, const AddOptions& options,
                AddOutcome* outcome) {
    const RunResults& h = run.header;
    const Environment& e = h.environment;
    const nlohmann::json doc = ResultsToJson(h);
    std::vector<SqlRow> inserted;
    KVBENCH_RETURN_IF_ERROR(conn_->Query(
        "INSERT INTO kvbench_runs (run_id, run_id_source, content_sha256, source, added_at,"
        " started_at, finished_at, command_line, workload_name, workload_file, workload_hash,"
        " workload_scale, host_fingerprint, hostname, cpu_model, cores, memory_bytes, kernel,"
        " compiler, build_type, kvbench_version, kvbench_revision, environment_json,"
        " workload_json) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
        " $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)"
        " ON CONFLICT (run_id) DO NOTHING RETURNING run_id",
        {run.run_id,
         run.run_id_source,
         run.content_sha256,
         run.source,
         added_at,
         h.started_at,
         h.finished_at,
         h.command_line,
         h.workload.name,
         h.workload.file,
         run.workload_hash,
         h.workload.scale,
         run.host_fingerprint,
         e.hostname,
         e.cpu_model,
         static_cast<int64_t>(e.cores),
         static_cast<int64_t>(e.memory_bytes),
         e.kernel,
         e.compiler,
         e.build_type,
         e.kvbench_version,
         e.kvbench_revision,
         doc["environment"].dump(),
         doc["workload"].dump()},
        &inserted));
    if (inserted.empty()) {
      *outcome = AddOutcome::kAlreadyStored;
      return Status::OK();
    }
    BatchInsert engines(
        conn_.get(), "kvbench_engines",
        {"run_id", "engine", "library_version", "status", "reason", "options_json"});
    for (const EngineRun& er : h.engines) {
      KVBENCH_RETURN_IF_ERROR(engines.Add({run.run_id, er.name, er.library_version, er.status,
                                           er.reason, nlohmann::json(er.options).dump()}));
    }
    KVBENCH_RETURN_IF_ERROR(engines.Flush());
    BatchInsert figures(conn_.get(), "kvbench_figures",
                        {"run_id", "figure_no", "engine", "phase", "phase_op", "threads",
                         "target_ops", "cache", "op", "figure", "n", "median", "min_value",
                         "max_value", "ci_low", "ci_high", "ci_level", "time_base"});
    BatchInsert repetitions(conn_.get(), "kvbench_repetitions",
                            {"run_id", "figure_no", "repetition", "value"});
    // Figures first, then their repetitions (which reference them).
    constexpr size_t kProgressEvery = 1000;
    for (size_t i = 0; i < run.figures.size(); ++i) {
      const StoredFigure& f = run.figures[i];
      const Spread& s = f.spread;
      auto ci = [&s](double Interval::*field) {
        return s.ci ? SqlValue((*s.ci).*field) : SqlValue(std::monostate{});
      };
      KVBENCH_RETURN_IF_ERROR(
          figures.Add({run.run_id, static_cast<int64_t>(i), f.engine, f.phase, f.phase_op,
                       static_cast<int64_t>(f.threads), f.target_ops, f.cache, f.op, f.figure,
                       static_cast<int64_t>(s.n), s.median, s.min, s.max, ci(&Interval::low),
                       ci(&Interval::high), ci(&Interval::level), f.time_base}));
      if ((i + 1) % kProgressEvery == 0 || i + 1 == run.figures.size()) {
        KVBENCH_RETURN_IF_ERROR(figures.Flush());
        if (options.after_batch) options.after_batch(i + 1);
      }
    }
    for (size_t i = 0; i < run.figures.size(); ++i) {
      const std::vector<double>& values = run.figures[i].values;
      for (size_t r = 0; r < values.size(); ++r) {
        KVBENCH_RETURN_IF_ERROR(repetitions.Add(
            {run.run_id, static_cast<int64_t>(i), static_cast<int64_t>(r), values[r]}));
      }
    }
    KVBENCH_RETURN_IF_ERROR(repetitions.Flush());
    *outcome = AddOutcome::kAdded;
    return Status::OK();
  }

  std::unique_ptr<SqlConnection> conn_;
  std::string description_;
};

}  // namespace

Status OpenHistoryStore(const StoreLocation& where, OpenMode mode,
                        std::unique_ptr<HistoryStore>* out) {
  std::unique_ptr<SqlConnection> conn;
  if (where.kind == StoreLocation::Kind::kSqlite) {
    KVBENCH_RETURN_IF_ERROR(
        OpenSqliteConnection(where.path, where.display, mode == OpenMode::kCreate, &conn));
  } else {
#ifdef KVBENCH_HAVE_LIBPQ
    KVBENCH_RETURN_IF_ERROR(OpenPostgresConnection(where.url, where.display, &conn));
#else
    return Status::NotSupported("store " + where.display +
                                ": this kvbench was built without PostgreSQL support (libpq-dev)");
#endif
  }
  auto store = std::make_unique<SqlHistoryStore>(std::move(conn), where.display);
  KVBENCH_RETURN_IF_ERROR(store->Migrate());
  *out = std::move(store);
  return Status::OK();
}

}  // namespace kvbench::results
