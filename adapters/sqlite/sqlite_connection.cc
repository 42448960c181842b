#include "adapters/sqlite/sqlite_connection.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>

#include "common/strings.h"

namespace kvbench {
namespace {

bool IsOneOf(const std::string& value, std::initializer_list<std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

// PRAGMA names are interpolated into SQL text, so only identifiers pass.
bool IsIdentifier(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// A PRAGMA value as SQLite's grammar takes it after "=": a signed number, a
// name (on, full, memory...) or one single-quoted string ('' inside). So a
// value cannot carry a second statement or an expression; checked at plan
// time, without running SQL (some PRAGMAs change the whole process).
bool IsPragmaValue(std::string_view v) {
  if (v.empty()) return false;
  if (v.front() == '\'') {
    if (v.size() < 2 || v.back() != '\'') return false;
    const std::string_view inside = v.substr(1, v.size() - 2);
    for (size_t i = 0; i < inside.size(); ++i) {
      if (inside[i] != '\'') continue;
      if (i + 1 >= inside.size() || inside[i + 1] != '\'') return false;
      ++i;
    }
    return true;
  }
  if (IsIdentifier(v) && !std::isdigit(static_cast<unsigned char>(v.front()))) return true;
  size_t i = (v.front() == '-' || v.front() == '+') ? 1 : 0;
  const size_t digits_start = i;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  bool any = i > digits_start;
  if (i < v.size() && v[i] == '.') {
    ++i;
    const size_t fraction = i;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
    any = any || i > fraction;
  }
  return any && i == v.size();
}

// The PRAGMA names this SQLite knows (it ignores unknown ones without a
// word, so a misspelt option would silently do nothing).
const std::set<std::string>& KnownPragmas() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr) ==
        SQLITE_OK) {
      sqlite3_stmt* st = nullptr;
      if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_pragma_list", -1, &st, nullptr) ==
          SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
          out.emplace(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        }
      }
      sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
  }();
  return names;
}

Status Pragma(sqlite3* db, const std::string& name, const std::string& value,
              std::string_view option, std::string* result = nullptr) {
  Status s = ExecSqlite(db, "PRAGMA " + name + "=" + value, "PRAGMA " + name, result);
  if (s.ok()) return s;
  // A value SQLite refuses is the workload's mistake; name the option it came from.
  return Status::InvalidArgument("option '" + std::string(option) + "' = '" + value +
                                 "': " + s.message());
}

Status ApplySettings(sqlite3* db, const SqliteSettings& settings) {
  int rc = sqlite3_busy_timeout(db, static_cast<int>(settings.busy_timeout_ms));
  if (rc != SQLITE_OK) return SqliteError(db, rc, "set busy timeout");
  // page_size first: it cannot change once the file is in WAL mode.
  KVBENCH_RETURN_IF_ERROR(
      Pragma(db, "page_size", std::to_string(settings.page_size), "sqlite.page_size"));
  std::string mode;
  KVBENCH_RETURN_IF_ERROR(
      Pragma(db, "journal_mode", settings.journal_mode, "sqlite.journal_mode", &mode));
  // SQLite answers with the mode it kept (e.g. "delete" where WAL is impossible);
  // a run must not silently measure another mode than the one it reports.
  if (ToLower(mode) != settings.journal_mode) {
    return Status::InvalidArgument("option 'sqlite.journal_mode': asked for '" +
                                   settings.journal_mode + "', SQLite kept '" + mode + "'");
  }
  KVBENCH_RETURN_IF_ERROR(Pragma(db, "synchronous", settings.synchronous, "sqlite.synchronous"));
  KVBENCH_RETURN_IF_ERROR(
      Pragma(db, "cache_size", std::to_string(settings.cache_size), "sqlite.cache_size"));
  KVBENCH_RETURN_IF_ERROR(
      Pragma(db, "mmap_size", std::to_string(settings.mmap_size), "sqlite.mmap_size"));
  for (const auto& [name, value] : settings.extra_pragmas) {
    KVBENCH_RETURN_IF_ERROR(Pragma(db, name, value, "sqlite.pragma." + name));
  }
  return Status::OK();
}

}  // namespace

std::vector<OptionSpec> SqliteOptionSpecs() {
  return {
      {"sqlite.journal_mode", "wal",
       "PRAGMA journal_mode (delete/truncate/persist/memory/wal/off); WAL as in seed 001, "
       "readers run beside the writer"},
      {"sqlite.synchronous", "off",
       "PRAGMA synchronous (off/normal/full/extra); off as in seed 001: no fsync per commit, "
       "Sync() still forces data out"},
      {"sqlite.cache_size", "1048576",
       "PRAGMA cache_size per connection, in pages (negative: KiB); seed 001's 'plenty of cache'"},
      {"sqlite.page_size", "4096",
       "PRAGMA page_size in bytes; takes effect only when the database file is created"},
      {"sqlite.without_rowid", "false",
       "create the table WITHOUT ROWID, so each key is stored once (a rowid table with a PRIMARY "
       "KEY stores it twice, as seed 001 notes); takes effect when the table is created"},
      {"sqlite.mmap_size", "0",
       "PRAGMA mmap_size in bytes; 0 reads through read(), SQLite's default"},
      {"sqlite.busy_timeout_ms", "60000",
       "how long a connection waits for another connection's write lock before returning Busy"},
      {"sqlite.pragma.", "",
       "any PRAGMA, e.g. sqlite.pragma.temp_store = \"memory\"; applied on every connection, in "
       "name order, after the options above",
       /*is_prefix=*/true},
  };
}

Status ParseSqliteSettings(const EngineOptions& options, SqliteSettings* settings) {
  SqliteSettings parsed;
  parsed.journal_mode = ToLower(options.GetString("sqlite.journal_mode"));
  if (!IsOneOf(parsed.journal_mode, {"delete", "truncate", "persist", "memory", "wal", "off"})) {
    return Status::InvalidArgument("option 'sqlite.journal_mode': '" + parsed.journal_mode +
                                   "' is not one of delete/truncate/persist/memory/wal/off");
  }
  parsed.synchronous = ToLower(options.GetString("sqlite.synchronous"));
  if (!IsOneOf(parsed.synchronous, {"off", "normal", "full", "extra", "0", "1", "2", "3"})) {
    return Status::InvalidArgument("option 'sqlite.synchronous': '" + parsed.synchronous +
                                   "' is not one of off/normal/full/extra");
  }
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("sqlite.cache_size", &parsed.cache_size));
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("sqlite.page_size", &parsed.page_size));
  // SQLite ignores any other page size without a word.
  if (parsed.page_size < 512 || parsed.page_size > 65536 ||
      (parsed.page_size & (parsed.page_size - 1)) != 0) {
    return Status::InvalidArgument(
        "option 'sqlite.page_size': " + std::to_string(parsed.page_size) +
        " is not a power of two from 512 to 65536");
  }
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("sqlite.mmap_size", &parsed.mmap_size));
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("sqlite.busy_timeout_ms", &parsed.busy_timeout_ms));
  if (parsed.busy_timeout_ms < 0 || parsed.busy_timeout_ms > INT32_MAX) {
    return Status::InvalidArgument("option 'sqlite.busy_timeout_ms': out of range");
  }
  KVBENCH_RETURN_IF_ERROR(options.GetBool("sqlite.without_rowid", &parsed.without_rowid));
  for (auto& [name, value] : options.WithPrefix("sqlite.pragma.")) {
    if (!IsIdentifier(name)) {
      return Status::InvalidArgument("option 'sqlite.pragma." + name + "': '" + name +
                                     "' is not a PRAGMA name");
    }
    if (value.empty()) {
      return Status::InvalidArgument("option 'sqlite.pragma." + name + "': empty value");
    }
    // Without introspection (an SQLite built without pragma_list) the name
    // is left to SQLite.
    const std::set<std::string>& known = KnownPragmas();
    if (!known.empty() && !known.contains(ToLower(name))) {
      return Status::InvalidArgument("option 'sqlite.pragma." + name + "': '" + name +
                                     "' is not a PRAGMA this SQLite (" + sqlite3_libversion() +
                                     ") knows");
    }
    if (!IsPragmaValue(value)) {
      return Status::InvalidArgument("option 'sqlite.pragma." + name + "': '" + value +
                                     "' is not a PRAGMA value (a number, a name such as on or "
                                     "memory, or one 'quoted string')");
    }
    parsed.extra_pragmas.emplace(name, value);
  }
  *settings = std::move(parsed);
  return Status::OK();
}

Status SqliteError(sqlite3* db, int rc, std::string_view operation) {
  std::string message(operation);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Busy(std::move(message));
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return Status::IOError(std::move(message));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(std::move(message));
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
      return Status::InvalidArgument(std::move(message));
    default:
      return Status::Internal(std::move(message));
  }
}

Status PrepareSqlite(sqlite3* db, std::string_view sql, std::string_view operation,
                     SqliteStatement* statement) {
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &raw, &tail);
  SqliteStatement prepared(raw);
  if (rc != SQLITE_OK) return SqliteError(db, rc, operation);
  const char* end = sql.data() + sql.size();
  if (tail != nullptr &&
      std::any_of(tail, end, [](char c) { return !std::isspace(static_cast<unsigned char>(c)); })) {
    return Status::InvalidArgument(std::string(operation) + ": more than one SQL statement");
  }
  if (prepared == nullptr) {
    return Status::InvalidArgument(std::string(operation) + ": empty SQL statement");
  }
  *statement = std::move(prepared);
  return Status::OK();
}

Status StepSqliteDone(sqlite3* db, sqlite3_stmt* statement, std::string_view operation) {
  SqliteResetOnExit reset(statement);
  const int rc = sqlite3_step(statement);
  if (rc != SQLITE_DONE) return SqliteError(db, rc, operation);
  return Status::OK();
}

Status ExecSqlite(sqlite3* db, std::string_view sql, std::string_view operation,
                  std::string* first_value) {
  SqliteStatement statement;
  KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db, sql, operation, &statement));
  if (first_value != nullptr) first_value->clear();
  bool first_row = true;
  int rc;
  while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW) {
    if (first_row && first_value != nullptr && sqlite3_column_count(statement.get()) > 0) {
      const unsigned char* text = sqlite3_column_text(statement.get(), 0);
      if (text != nullptr) first_value->assign(reinterpret_cast<const char*>(text));
    }
    first_row = false;
  }
  if (rc != SQLITE_DONE) return SqliteError(db, rc, operation);
  return Status::OK();
}

// SQLite's memory statistics take a global mutex on every allocation (about
// 5x the mutex calls of a bare loop in a load's profile); kvbench never reads
// them. Must be set before SQLite initialises; if another part of the process
// initialised it first, the call is refused and the default stays.
void DisableMemoryStatistics() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

Status OpenSqliteConnection(const std::string& path, const SqliteSettings& settings,
                            bool create_table, sqlite3** db) {
  DisableMemoryStatistics();
  *db = nullptr;
  sqlite3* opened = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &opened, flags, nullptr);
  Status s = rc == SQLITE_OK ? Status::OK() : SqliteError(opened, rc, "open '" + path + "'");
  if (s.ok()) s = ApplySettings(opened, settings);
  if (s.ok() && create_table) {
    // BLOB columns have no affinity: keys compare with memcmp (shorter first on
    // a tie), which is the byte order the contract asks scans to follow.
    s = ExecSqlite(opened,
                   std::string("CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB)") +
                       (settings.without_rowid ? " WITHOUT ROWID" : ""),
                   "create table kv");
  }
  if (!s.ok()) {
    sqlite3_close_v2(opened);
    return s;
  }
  *db = opened;
  return Status::OK();
}

}  // namespace kvbench
