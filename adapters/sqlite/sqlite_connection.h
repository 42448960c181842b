// How the sqlite adapter opens and configures a connection: its options, the
// PRAGMAs they become, and the translation of SQLite result codes into Status.
//
// The adapter opens one connection to control the database (create the table,
// sync, vacuum) and one more per Session, so every connection is configured by
// the same function here and sees the same settings.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/engine_options.h"
#include "common/status.h"

namespace kvbench {

// The options of the sqlite adapter, parsed and validated.
struct SqliteSettings {
  // Filled only by the adapter's parser from resolved options: the defaults
  // live once, in the OptionSpecs (`kvbench engines -v` shows them).
  // Performance (the defaults are seed 001's: WAL, no syncing, a large cache).
  std::string journal_mode;     // one of delete/truncate/persist/memory/wal/off
  std::string synchronous;      // one of off/normal/full/extra
  int64_t cache_size = 0;       // PRAGMA cache_size: pages, or -KiB when negative
  uint64_t page_size = 0;       // bytes; takes effect when the database is created
  uint64_t mmap_size = 0;       // bytes of the file read through mmap; 0 = read()
  int64_t busy_timeout_ms = 0;  // how long a connection waits for another's lock
  // Behaviour.
  bool without_rowid = false;  // the table is clustered on the key (one b-tree, not two)
  // Every "sqlite.pragma.<name>" option, by name; applied after the named ones.
  std::map<std::string, std::string> extra_pragmas;
};

// The option specs (names, defaults, help) the adapter publishes.
std::vector<OptionSpec> SqliteOptionSpecs();

// Parses resolved options. InvalidArgument naming the option when a value is
// not one SQLite accepts.
Status ParseSqliteSettings(const EngineOptions& options, SqliteSettings* settings);

// A Status for SQLite result code `rc` on connection `db` (may be null), whose
// message is "<operation>: <sqlite3_errmsg>".
Status SqliteError(sqlite3* db, int rc, std::string_view operation);

struct SqliteStatementFinalizer {
  void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
// A prepared statement, finalized when it goes out of scope.
using SqliteStatement = std::unique_ptr<sqlite3_stmt, SqliteStatementFinalizer>;

// Prepares one SQL statement that will be reused (SQLITE_PREPARE_PERSISTENT).
// InvalidArgument when `sql` holds more than one statement.
Status PrepareSqlite(sqlite3* db, std::string_view sql, std::string_view operation,
                     SqliteStatement* statement);

// Resets a statement when the call that stepped it returns, so no session
// keeps a read snapshot open between calls (that would pin the WAL).
class SqliteResetOnExit {
 public:
  explicit SqliteResetOnExit(sqlite3_stmt* statement) : statement_(statement) {}
  ~SqliteResetOnExit() { sqlite3_reset(statement_); }
  SqliteResetOnExit(const SqliteResetOnExit&) = delete;
  SqliteResetOnExit& operator=(const SqliteResetOnExit&) = delete;

 private:
  sqlite3_stmt* statement_;
};

// sqlite3_bind_blob/_text bind NULL for a null pointer, even with length 0; an
// empty byte string must stay an empty blob or text.
inline const char* SqliteBindData(std::string_view bytes) {
  return bytes.data() != nullptr ? bytes.data() : "";
}

// Column `column` of the current row as bytes (empty for NULL), valid until
// the statement steps or resets.
inline std::string_view SqliteColumnBlob(sqlite3_stmt* statement, int column) {
  const void* data = sqlite3_column_blob(statement, column);
  const int size = sqlite3_column_bytes(statement, column);
  if (data == nullptr) return std::string_view();
  return std::string_view(static_cast<const char*>(data), static_cast<size_t>(size));
}

// Steps a bound statement once, expecting no row (SQLITE_DONE), and resets it.
Status StepSqliteDone(sqlite3* db, sqlite3_stmt* statement, std::string_view operation);

// Runs one statement to completion. When `first_value` is given it receives the
// text of the first column of the first row (empty when there is none).
Status ExecSqlite(sqlite3* db, std::string_view sql, std::string_view operation,
                  std::string* first_value = nullptr);

// Opens `path` (created when absent) as a connection usable from any one thread
// at a time (SQLITE_OPEN_NOMUTEX), and applies the settings: busy timeout,
// page_size, journal_mode (checked: InvalidArgument when SQLite keeps another
// mode), synchronous, cache_size, mmap_size, then the extra PRAGMAs in name
// order. `create_table` also creates the kv table when it does not exist. On
// failure *db is null and nothing is left open.
Status OpenSqliteConnection(const std::string& path, const SqliteSettings& settings,
                            bool create_table, sqlite3** db);

}  // namespace kvbench
