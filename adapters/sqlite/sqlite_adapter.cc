// `sqlite`: one table `kv(k BLOB PRIMARY KEY, v BLOB)` in `data.sqlite`, as in
// seed 001 (keys and values bound as blobs, so NUL bytes survive and keys order
// by memcmp). Defaults are the seed's: WAL, synchronous=OFF, a large cache.
// Record tables are tables of their own beside it (sqlite_record_table.h).
//
// Each Session owns its own connection with every statement prepared once, so
// sessions on different threads share nothing in the process: WAL lets their
// reads run in parallel, and writers queue on SQLite's lock for up to
// sqlite.busy_timeout_ms. The adapter keeps one more connection to create the
// table, sync and vacuum.
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "adapters/engine_directory.h"
#include "adapters/registry.h"
#include "adapters/sqlite/sqlite_connection.h"
#include "adapters/sqlite/sqlite_record_table.h"
#include "adapters/support/batch_state.h"
#include "adapters/support/option_parsing.h"

namespace kvbench {
namespace {

constexpr char kDatabaseFile[] = "data.sqlite";

// The scan statements, indexed by ScanIndex(): direction x start x columns.
// Every one takes the limit as ?2 (-1 = none); the keyed ones the start as ?1.
constexpr std::array<const char*, 8> kScanSql = {
    "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k ASC LIMIT ?2",
    "SELECT k FROM kv WHERE k >= ?1 ORDER BY k ASC LIMIT ?2",
    "SELECT k, v FROM kv ORDER BY k ASC LIMIT ?2",
    "SELECT k FROM kv ORDER BY k ASC LIMIT ?2",
    "SELECT k, v FROM kv WHERE k <= ?1 ORDER BY k DESC LIMIT ?2",
    "SELECT k FROM kv WHERE k <= ?1 ORDER BY k DESC LIMIT ?2",
    "SELECT k, v FROM kv ORDER BY k DESC LIMIT ?2",
    "SELECT k FROM kv ORDER BY k DESC LIMIT ?2",
};

size_t ScanIndex(const ScanOptions& options) {
  return (options.direction == ScanDirection::kBackward ? 4 : 0) + (options.from_edge ? 2 : 0) +
         (options.keys_only ? 1 : 0);
}

class SqliteSession final : public Session {
 public:
  // Takes ownership of `db`.
  explicit SqliteSession(sqlite3* db) : db_(db) {}

  ~SqliteSession() override {
    // Statements first: sqlite3_close_v2 would otherwise defer the close.
    put_.reset();
    get_.reset();
    delete_.reset();
    begin_.reset();
    commit_.reset();
    rollback_.reset();
    for (auto& scan : scans_) scan.reset();
    sqlite3_close_v2(db_);  // rolls back an open batch
  }

  Status Prepare() {
    // An upsert updates the row in place; INSERT OR REPLACE would delete and
    // re-insert it (and give it a new rowid) on every overwrite.
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(
        db_, "INSERT INTO kv(k, v) VALUES(?1, ?2) ON CONFLICT(k) DO UPDATE SET v = excluded.v",
        "prepare put", &put_));
    KVBENCH_RETURN_IF_ERROR(
        PrepareSqlite(db_, "SELECT v FROM kv WHERE k = ?1", "prepare get", &get_));
    KVBENCH_RETURN_IF_ERROR(
        PrepareSqlite(db_, "DELETE FROM kv WHERE k = ?1", "prepare delete", &delete_));
    // IMMEDIATE takes the write lock at once, so a batch never fails half-way
    // because another connection started writing first.
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "BEGIN IMMEDIATE", "prepare begin", &begin_));
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "COMMIT", "prepare commit", &commit_));
    KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, "ROLLBACK", "prepare rollback", &rollback_));
    for (size_t i = 0; i < kScanSql.size(); ++i) {
      KVBENCH_RETURN_IF_ERROR(PrepareSqlite(db_, kScanSql[i], "prepare scan", &scans_[i]));
    }
    return Status::OK();
  }

  Status Put(Slice key, Slice value) override {
    sqlite3_stmt* st = put_.get();
    SqliteResetOnExit reset(st);
    int rc = BindBlob(st, 1, key);
    if (rc == SQLITE_OK) rc = BindBlob(st, 2, value);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, "put");
    return Status::OK();
  }

  Status Get(Slice key, std::string* value) override {
    sqlite3_stmt* st = get_.get();
    SqliteResetOnExit reset(st);
    int rc = BindBlob(st, 1, key);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return Status::NotFound();
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "get");
    const Slice stored = SqliteColumnBlob(st, 0);
    value->assign(stored.data(), stored.size());
    return Status::OK();
  }

  Status Delete(Slice key) override {
    sqlite3_stmt* st = delete_.get();
    SqliteResetOnExit reset(st);
    int rc = BindBlob(st, 1, key);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, "delete");
    return sqlite3_changes(db_) == 0 ? Status::NotFound() : Status::OK();
  }

  Status BeginBatch() override {
    return batch_.Begin([&] { return Step(begin_.get(), "begin batch"); });
  }

  Status CommitBatch() override {
    return batch_.Commit([&] {
      Status s = Step(commit_.get(), "commit batch");
      // A failed COMMIT can leave the transaction open; end it so the session
      // is usable again, and report the commit's error.
      if (!s.ok() && !sqlite3_get_autocommit(db_)) Step(rollback_.get(), "rollback");
      return s;
    });
  }

  Status AbortBatch() override {
    return batch_.Abort([&] {
      // SQLite may already have rolled back after an error inside the batch.
      if (sqlite3_get_autocommit(db_)) return Status::OK();
      return Step(rollback_.get(), "abort batch");
    });
  }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    if (visited != nullptr) *visited = 0;
    sqlite3_stmt* st = scans_[ScanIndex(options)].get();
    SqliteResetOnExit reset(st);
    int rc = options.from_edge ? SQLITE_OK : BindBlob(st, 1, start);
    if (rc == SQLITE_OK) {
      const int64_t limit = options.limit == 0 ? -1 : static_cast<int64_t>(options.limit);
      rc = sqlite3_bind_int64(st, 2, limit);
    }
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "scan");
    size_t n = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      ++n;
      const Slice value = options.keys_only ? Slice() : SqliteColumnBlob(st, 1);
      if (!visitor->Visit(SqliteColumnBlob(st, 0), value)) {
        rc = SQLITE_DONE;
        break;
      }
    }
    if (visited != nullptr) *visited = n;
    if (rc != SQLITE_DONE) return SqliteError(db_, rc, "scan");
    return Status::OK();
  }

  // A real table per spec on this session's connection (sqlite_record_table.h).
  Status OpenRecordTable(const RecordTableSpec& spec,
                         std::unique_ptr<RecordTable>* table) override {
    return OpenSqliteRecordTable(db_, spec, table);
  }

 private:
  // The bytes must outlive the step: they do, since every call steps and
  // resets its statement before returning.
  static int BindBlob(sqlite3_stmt* st, int index, Slice bytes) {
    return sqlite3_bind_blob64(st, index, SqliteBindData(bytes), bytes.size(), SQLITE_STATIC);
  }

  Status Step(sqlite3_stmt* st, std::string_view operation) {
    return StepSqliteDone(db_, st, operation);
  }

  sqlite3* db_;
  BatchState batch_;
  SqliteStatement put_, get_, delete_, begin_, commit_, rollback_;
  std::array<SqliteStatement, kScanSql.size()> scans_;
};

Status FsyncFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("sync: open '" + path + "': " + std::strerror(errno));
  Status s;
  if (fsync(fd) != 0) s = Status::IOError("sync: fsync '" + path + "': " + std::strerror(errno));
  close(fd);
  return s;
}

class SqliteAdapter final : public Adapter {
 public:
  ~SqliteAdapter() override { Close(); }

  std::string LibraryVersion() const override { return sqlite3_libversion(); }
  std::vector<OptionSpec> OptionSpecs() const override { return SqliteOptionSpecs(); }
  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseSqliteSettings);
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;
    // With journal_mode=off SQLite cannot roll back (ROLLBACK is undefined).
    c.transactional = settings_.journal_mode != "off";
    c.durable = true;  // committed data survives Close(); synchronous=off risks only power loss
    c.concurrent_readers = true;
    c.concurrent_writers = false;     // one writer at a time; others wait on the lock
    c.native_records = true;          // record tables are SQL tables with typed columns
    c.native_secondary_index = true;  // CREATE INDEX
    c.reorganize = true;
    return c;
  }

  // From SQLite's documentation of PRAGMA synchronous and journal_mode.
  DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
    const SqliteSettings s = AcceptedSettings(options, ParseSqliteSettings);
    static const char* const kLevels[] = {"off", "normal", "full", "extra"};
    std::string sync = s.synchronous;
    if (sync.size() == 1 && sync[0] >= '0' && sync[0] <= '3') sync = kLevels[sync[0] - '0'];
    const std::string mode = s.journal_mode;
    const std::string basis = "sqlite.journal_mode=" + mode + ", sqlite.synchronous=" + sync + ": ";
    DurabilityDeclaration d;
    d.atomic_batches = mode != "off" && mode != "memory";
    if (!d.atomic_batches) {
      d.basis = basis + "no on-disk journal: a crash in a transaction can corrupt the database";
      return d;
    }
    d.process_crash = FaultPromise::kDurable;  // a commit is in the OS's buffers when it returns
    if (sync == "off") {
      d.basis = basis + "no fsync at all: a power loss can lose commits or corrupt the database";
    } else if (sync == "normal") {
      d.power_loss = mode == "wal" ? FaultPromise::kConsistent : FaultPromise::kNothing;
      d.basis = basis + (mode == "wal" ? "WAL synced at checkpoints only: recent commits may roll "
                                         "back, the database stays consistent"
                                       : "rollback journal synced less often: a power loss can "
                                         "corrupt the database (rare)");
    } else if (sync == "full" && mode == "delete") {
      d.power_loss = FaultPromise::kConsistent;
      d.basis = basis +
                "the commit is the journal's unlink, whose directory is not synced "
                "(EXTRA does): the last commit may roll back";
    } else {
      d.power_loss = FaultPromise::kDurable;
      d.basis = basis + "every commit is fsynced";
    }
    return d;
  }

  Status CheckIntegrity() override {
    if (db_ == nullptr) return Status::InvalidArgument("integrity check: sqlite is not open");
    std::string result;
    KVBENCH_RETURN_IF_ERROR(ExecSqlite(db_, "PRAGMA integrity_check", "integrity check", &result));
    return result == "ok" ? Status::OK() : Status::Corruption("integrity_check: " + result);
  }

  Status Open(const OpenRequest& request) override {
    if (db_ != nullptr) return Status::InvalidArgument("open: sqlite is already open");
    SqliteSettings settings;
    KVBENCH_RETURN_IF_ERROR(ParseSqliteSettings(request.options, &settings));
    const std::string path = JoinPath(request.directory, kDatabaseFile);
    KVBENCH_RETURN_IF_ERROR(OpenSqliteConnection(path, settings, /*create_table=*/true, &db_));
    settings_ = std::move(settings);
    directory_ = request.directory;
    path_ = path;
    return Status::OK();
  }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    const int rc = sqlite3_close(db_);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "close");
    db_ = nullptr;
    return Status::OK();
  }

  // Opens a new connection; safe beside running sessions, since it touches
  // only the adapter's settings, which are read-only while open.
  Status NewSession(std::unique_ptr<Session>* session) override {
    if (db_ == nullptr) return Status::InvalidArgument("new session: sqlite is not open");
    sqlite3* db = nullptr;
    KVBENCH_RETURN_IF_ERROR(OpenSqliteConnection(path_, settings_, /*create_table=*/false, &db));
    auto created = std::make_unique<SqliteSession>(db);
    KVBENCH_RETURN_IF_ERROR(created->Prepare());
    *session = std::move(created);
    return Status::OK();
  }

  // A FULL checkpoint copies every committed page from the WAL into the main
  // file (waiting for writers); the fsyncs then make all files stable whatever
  // sqlite.synchronous says.
  Status Sync() override {
    if (db_ == nullptr) return Status::InvalidArgument("sync: sqlite is not open");
    if (settings_.journal_mode == "wal") {
      std::string busy;
      KVBENCH_RETURN_IF_ERROR(
          ExecSqlite(db_, "PRAGMA wal_checkpoint(FULL)", "sync: wal_checkpoint", &busy));
      if (busy != "0") return Status::Busy("sync: wal_checkpoint(FULL) was blocked");
    }
    std::vector<std::string> files;
    KVBENCH_RETURN_IF_ERROR(ListFiles(&files));
    for (const std::string& file : files) KVBENCH_RETURN_IF_ERROR(FsyncFile(file));
    return FsyncFile(directory_);
  }

  // The whole directory: data.sqlite and, while open, its -wal and -shm files.
  Status ListFiles(std::vector<std::string>* paths) const override {
    if (directory_.empty()) return Status::InvalidArgument("list files: sqlite never opened");
    return ListRegularFiles(directory_, paths);
  }

  // VACUUM rewrites the table and its index in key order; in WAL mode the new
  // pages land in the WAL, so a TRUNCATE checkpoint then moves them into the
  // main file and empties the WAL, leaving the files compact.
  Status Reorganize() override {
    if (db_ == nullptr) return Status::InvalidArgument("reorganize: sqlite is not open");
    KVBENCH_RETURN_IF_ERROR(ExecSqlite(db_, "VACUUM", "reorganize: VACUUM"));
    if (settings_.journal_mode != "wal") return Status::OK();
    std::string busy;
    KVBENCH_RETURN_IF_ERROR(
        ExecSqlite(db_, "PRAGMA wal_checkpoint(TRUNCATE)", "reorganize: wal_checkpoint", &busy));
    if (busy != "0") return Status::Busy("reorganize: wal_checkpoint(TRUNCATE) was blocked");
    return Status::OK();
  }

 private:
  SqliteSettings settings_;
  std::string directory_;
  std::string path_;
  sqlite3* db_ = nullptr;  // the control connection
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(sqlite, "sqlite", "SQLite table with the key as PRIMARY KEY (seed 001)",
                         [] { return std::make_unique<kvbench::SqliteAdapter>(); });
