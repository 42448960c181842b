#include <sqlite3.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>
#include <unordered_map>

#include "results/history/sql_connection.h"

namespace kvbench::results {

namespace {

// How long a writer waits for another to finish: long enough for any add
// (a 10,000-figure run takes well under a second).
constexpr int kBusyTimeoutMs = 60000;
// Between attempts to switch a store to WAL while another connection holds it.
constexpr int kWalRetryMs = 5;

// "$12" -> "?12": SQLite binds ?NNN to parameter NNN, as PostgreSQL binds $NNN.
std::string ToSqliteParameters(const std::string& sql) {
  std::string out = sql;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '$' && out[i + 1] >= '0' && out[i + 1] <= '9') out[i] = '?';
  }
  return out;
}

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string display) : db_(db), display_(std::move(display)) {}
  ~SqliteConnection() override {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  Status Execute(const std::string& sql) override {
    char* error = nullptr;
    if (const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error); rc != SQLITE_OK) {
      const Status s = Error(error != nullptr ? error : sqlite3_errmsg(db_), rc);
      sqlite3_free(error);
      return s;
    }
    return Status::OK();
  }

  Status Query(const std::string& sql, const std::vector<SqlValue>& params,
               std::vector<SqlRow>* rows) override {
    sqlite3_stmt* stmt = nullptr;
    KVBENCH_RETURN_IF_ERROR(Prepare(sql, &stmt));
    for (size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i + 1);
      const SqlValue& v = params[i];
      if (std::holds_alternative<int64_t>(v)) {
        sqlite3_bind_int64(stmt, index, std::get<int64_t>(v));
      } else if (std::holds_alternative<double>(v)) {
        sqlite3_bind_double(stmt, index, std::get<double>(v));
      } else if (std::holds_alternative<std::string>(v)) {
        const std::string& text = std::get<std::string>(v);
        sqlite3_bind_text(stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
      } else {
        sqlite3_bind_null(stmt, index);
      }
    }
    if (rows != nullptr) rows->clear();
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (rows == nullptr) continue;
      SqlRow row(static_cast<size_t>(sqlite3_column_count(stmt)));
      for (int c = 0; c < static_cast<int>(row.size()); ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER:
            row[c] = static_cast<int64_t>(sqlite3_column_int64(stmt, c));
            break;
          case SQLITE_FLOAT:
            row[c] = sqlite3_column_double(stmt, c);
            break;
          case SQLITE_NULL:
            break;
          default:
            row[c] = std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                                 static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
        }
      }
      rows->push_back(std::move(row));
    }
    const Status s = rc == SQLITE_DONE ? Status::OK() : Error(sqlite3_errmsg(db_), rc);
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return s;
  }

  Status BeginWrite() override { return Execute("BEGIN IMMEDIATE"); }
  Status LockSchema() override { return Status::OK(); }
  Status Commit() override { return Execute("COMMIT"); }
  void Rollback() override {
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }

  Status HasTable(const std::string& name, bool* exists) override {
    std::vector<SqlRow> rows;
    KVBENCH_RETURN_IF_ERROR(
        Query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1", {name}, &rows));
    *exists = !rows.empty();
    return Status::OK();
  }

  size_t max_parameters() const override {
    return static_cast<size_t>(sqlite3_limit(db_, SQLITE_LIMIT_VARIABLE_NUMBER, -1));
  }

  Status Error(const std::string& what, int rc = SQLITE_ERROR) const {
    if (rc == SQLITE_BUSY) {
      return Status::Busy("store " + display_ + ": busy: another writer held it for more than " +
                          std::to_string(kBusyTimeoutMs / 1000) + " s (" + what + ")");
    }
    return Status::IOError("store " + display_ + ": " + what);
  }

 private:
  Status Prepare(const std::string& sql, sqlite3_stmt** out) {
    if (auto it = statements_.find(sql); it != statements_.end()) {
      *out = it->second;
      return Status::OK();
    }
    const std::string text = ToSqliteParameters(sql);
    if (sqlite3_prepare_v2(db_, text.c_str(), static_cast<int>(text.size()), out, nullptr) !=
        SQLITE_OK) {
      return Error(sqlite3_errmsg(db_), sqlite3_errcode(db_));
    }
    statements_.emplace(sql, *out);
    return Status::OK();
  }

  sqlite3* db_;
  std::string display_;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
};

}  // namespace

Status OpenSqliteConnection(const std::string& path, const std::string& display, bool create,
                            std::unique_ptr<SqlConnection>* out) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (!create) {
      return Status::InvalidArgument("store " + display +
                                     ": no such file (kvbench history add creates it)");
    }
  } else if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("store " + display + ": not a regular file");
  }
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Status::IOError("store " + display + ": cannot open: " + message);
  }
  auto conn = std::make_unique<SqliteConnection>(db, display);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // Read the schema before changing anything: a file that is not an SQLite
  // database, or is someone else's, is refused untouched.
  std::vector<SqlRow> tables;
  if (Status s = conn->Query("SELECT name FROM sqlite_master WHERE type = 'table'", {}, &tables);
      !s.ok()) {
    if (sqlite3_errcode(db) == SQLITE_NOTADB) {
      return Status::InvalidArgument("store " + display +
                                     ": not a kvbench history store (not an SQLite database)");
    }
    return s;
  }
  bool ours = tables.empty();
  for (const SqlRow& t : tables) ours = ours || SqlText(t[0]) == "kvbench_store";
  if (!ours) {
    return Status::InvalidArgument("store " + display +
                                   ": not a kvbench history store (an SQLite database with "
                                   "other tables and no kvbench_store table)");
  }
  // WAL: readers never block the writer, and a writer killed mid-transaction
  // leaves the last committed state. Foreign keys keep figures with runs.
  // Switching to WAL needs the database to itself, and SQLite answers BUSY at
  // once rather than call the busy handler when another connection holds it
  // (two processes creating a store together): wait and retry, as the busy
  // timeout would. A store already in WAL mode stays there without a switch.
  std::vector<SqlRow> mode;
  KVBENCH_RETURN_IF_ERROR(conn->Query("PRAGMA journal_mode", {}, &mode));
  if (mode.empty() || SqlText(mode[0][0]) != "wal") {
    for (int waited_ms = 0;; waited_ms += kWalRetryMs) {
      const Status s = conn->Execute("PRAGMA journal_mode = WAL");
      if (s.ok()) break;
      if (s.code() != Status::Code::kBusy || waited_ms >= kBusyTimeoutMs) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(kWalRetryMs));
    }
  }
  KVBENCH_RETURN_IF_ERROR(conn->Execute("PRAGMA foreign_keys = ON"));
  *out = std::move(conn);
  return Status::OK();
}

}  // namespace kvbench::results
