// The one thing the history store's two implementations differ in: a
// connection to SQLite (sqlite_connection.cc) or to PostgreSQL through libpq
// (postgres_connection.cc). The store itself (sql_history_store.cc) is
// written once against this interface, with one schema and one set of SQL
// statements that both dialects accept.
//
// SQL given here uses $1, $2... for parameters (PostgreSQL's form; the
// SQLite connection rewrites them to ?1, ?2...). A connection is used by one
// thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"

namespace kvbench::results {

using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;
using SqlRow = std::vector<SqlValue>;

// Typed reads of a result cell: a NULL reads as 0 or "", a number as text
// reads as a number (PostgreSQL answers in text).
int64_t SqlInt(const SqlValue& v);
double SqlDouble(const SqlValue& v);
std::string SqlText(const SqlValue& v);
bool SqlIsNull(const SqlValue& v);

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Runs one statement without parameters and ignores any rows (DDL,
  // PRAGMA, COMMIT).
  virtual Status Execute(const std::string& sql) = 0;
  // Runs one statement with parameters $1..$n; its rows, if any, replace *rows.
  virtual Status Query(const std::string& sql, const std::vector<SqlValue>& params,
                       std::vector<SqlRow>* rows) = 0;
  // Begins a transaction that will write. SQLite takes the database's write
  // lock now (BEGIN IMMEDIATE), waiting up to its busy timeout, so two
  // writers queue instead of failing; PostgreSQL begins an ordinary
  // transaction (rows lock as they are written).
  virtual Status BeginWrite() = 0;
  // Inside a write transaction: serialises schema changes between processes
  // (PostgreSQL: a transaction-scoped advisory lock; SQLite: already held).
  virtual Status LockSchema() = 0;
  virtual Status Commit() = 0;
  // Never fails in a way the caller could act on; rolls back if a
  // transaction is open.
  virtual void Rollback() = 0;
  // Whether a table of that name is visible.
  virtual Status HasTable(const std::string& name, bool* exists) = 0;
  // The largest number of parameters one statement may carry.
  virtual size_t max_parameters() const = 0;
};

// Opens (or, when `create`, creates) the SQLite file at `path` in WAL mode
// with a busy timeout. `display` names the store in messages. Refuses a
// file that is not an SQLite database, or one holding tables that are not a
// kvbench store's, before changing anything in it.
Status OpenSqliteConnection(const std::string& path, const std::string& display, bool create,
                            std::unique_ptr<SqlConnection>* out);

// Connects to the PostgreSQL server named by `url` (a libpq connection URI;
// a connect_timeout of 10 s applies unless the URL gives one). A malformed
// URL is InvalidArgument; a server that cannot be reached or refuses is
// IOError. `display` names the store in messages (no password).
Status OpenPostgresConnection(const std::string& url, const std::string& display,
                              std::unique_ptr<SqlConnection>* out);

}  // namespace kvbench::results
