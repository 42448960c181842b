// The history store suite, run on both implementations: an SQLite file and a
// private PostgreSQL server (postgres_test_server.h).
#include "results/history/history_store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "results/history/sql_connection.h"
#include "tests/scratch_dir.h"
#include "tests/support/history_test_support.h"
#include "tests/support/postgres_test_server.h"

namespace kvbench::results {
namespace {

// Started on first use, stopped when the tests end.
PostgresTestServer* server = nullptr;
bool server_installed = true;
std::string server_problem;

class ServerEnvironment : public testing::Environment {
 public:
  void TearDown() override {
    delete server;
    server = nullptr;
  }
};
testing::Environment* const environment = testing::AddGlobalTestEnvironment(new ServerEnvironment);

struct SqliteBackend {
  static constexpr const char* kName = "sqlite";
  test::ScratchDir dir{"history"};
  int stores = 0;
  bool Ready(std::string*) { return true; }
  std::string NewStore() {
    return "sqlite:" + dir.path() + "/h" + std::to_string(++stores) + ".db";
  }
};

struct PostgresBackend {
  static constexpr const char* kName = "postgresql";
  bool Ready(std::string* why) {
    if (server == nullptr && server_problem.empty()) {
      server = new PostgresTestServer;
      if (!server->Start(&server_installed, &server_problem)) {
        delete server;
        server = nullptr;
      }
    }
    *why = server_problem;
    return server != nullptr;
  }
  // A fresh schema per store: the same database, nothing shared.
  std::string NewStore() {
    static int schemas = 0;
    const std::string schema =
        "store_" + std::to_string(getpid()) + "_" + std::to_string(++schemas);
    std::unique_ptr<SqlConnection> conn;
    const Status s = OpenPostgresConnection(server->Url(), "test server", &conn);
    if (!s.ok() || !conn->Execute("CREATE SCHEMA " + schema).ok()) ADD_FAILURE() << s.ToString();
    return server->Url(schema);
  }
};

template <typename Backend>
class HistoryStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!backend_.Ready(&why)) {
      if (!server_installed) GTEST_SKIP() << why;
      FAIL() << why;
    }
    spec_ = backend_.NewStore();
    ASSERT_TRUE(ParseStoreLocation(spec_, "", &where_).ok());
  }

  std::unique_ptr<HistoryStore> Open(OpenMode mode = OpenMode::kCreate) {
    std::unique_ptr<HistoryStore> store;
    const Status s = OpenHistoryStore(where_, mode, &store);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return store;
  }

  // The store's tables, for what the interface does not show.
  std::unique_ptr<SqlConnection> Raw() {
    std::unique_ptr<SqlConnection> conn;
    const Status s = where_.kind == StoreLocation::Kind::kSqlite
                         ? OpenSqliteConnection(where_.path, spec_, false, &conn)
                         : OpenPostgresConnection(where_.url, spec_, &conn);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return conn;
  }

  int64_t Count(const std::string& table, const std::string& run_id) {
    std::vector<SqlRow> rows;
    EXPECT_TRUE(
        Raw()->Query("SELECT COUNT(*) FROM " + table + " WHERE run_id = $1", {run_id}, &rows).ok());
    return rows.empty() ? -1 : SqlInt(rows[0][0]);
  }

  static RunRecord Record(const RunResults& results) {
    RunRecord r;
    EXPECT_TRUE(MakeRunRecord(results, "", "made-up.json", &r).ok());
    return r;
  }

  Status Add(HistoryStore& store, const RunResults& results, AddOutcome* outcome) {
    std::vector<AddOutcome> outcomes;
    KVBENCH_RETURN_IF_ERROR(store.AddRuns({Record(results)}, &outcomes));
    *outcome = outcomes.at(0);
    return Status::OK();
  }

  Backend backend_;
  std::string spec_;
  StoreLocation where_;
};

using Backends = testing::Types<SqliteBackend, PostgresBackend>;
struct BackendNames {
  template <typename T>
  static std::string GetName(int) {
    return T::kName;
  }
};
TYPED_TEST_SUITE(HistoryStoreTest, Backends, BackendNames);

TYPED_TEST(HistoryStoreTest, StoresEveryFigureWithItsRepetitionsAndRunFacts) {
  auto store = this->Open();
  ASSERT_NE(store, nullptr);
  const RunResults run =
      MadeUpRun("0123456789abcdef0123456789abcdef", "2026-11-01T10:00:00Z", 4, 5);
  AddOutcome outcome;
  ASSERT_TRUE(this->Add(*store, run, &outcome).ok());
  EXPECT_EQ(outcome, AddOutcome::kAdded);

  std::vector<StoredRunInfo> runs;
  ASSERT_TRUE(store->ListRuns({}, &runs).ok());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, run.run_id);
  EXPECT_EQ(runs[0].workload_name, "made-up");
  EXPECT_EQ(runs[0].hostname, "bench-01");
  EXPECT_EQ(runs[0].kvbench_revision, "rev-012345");
  EXPECT_EQ(runs[0].engines, std::vector<std::string>{"lmdb"});
  const int64_t per_phase = static_cast<int64_t>(FigureKinds().size());
  EXPECT_EQ(runs[0].figures, 4 * per_phase);
  EXPECT_EQ(this->Count("kvbench_repetitions", run.run_id), 4 * per_phase * 5);

  FigureFilter filter;
  filter.figures = {"ops_per_sec"};
  std::vector<FigurePoint> points;
  ASSERT_TRUE(store->LoadFigures(filter, &points).ok());
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].phase, "phase-0");
  EXPECT_EQ(points[1].threads, 2);
  EXPECT_EQ(points[0].library_version, "LMDB 0.9.24");
  EXPECT_EQ(points[0].kernel, "6.1.0");
  EXPECT_EQ(points[0].n, 5);
  EXPECT_DOUBLE_EQ(points[0].median, 1000 * 1.002);  // exact through either database
  ASSERT_TRUE(points[0].ci.has_value());
  EXPECT_DOUBLE_EQ(points[0].ci->low, 1000.0);
  EXPECT_EQ(points[0].workload_hash.size(), 16u);
  EXPECT_EQ(points[0].host_fingerprint.size(), 16u);

  filter.figures = {"open_seconds"};  // a per-phase figure, op ""
  ASSERT_TRUE(store->LoadFigures(filter, &points).ok());
  EXPECT_EQ(points.size(), 4u);
  filter.phase = "phase-2";
  ASSERT_TRUE(store->LoadFigures(filter, &points).ok());
  EXPECT_EQ(points.size(), 1u);
}

TYPED_TEST(HistoryStoreTest, AddingTheSameRunTwiceIsANoOp) {
  auto store = this->Open();
  const RunResults run = MadeUpRun("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "2026-11-01T10:00:00Z", 3);
  AddOutcome outcome;
  ASSERT_TRUE(this->Add(*store, run, &outcome).ok());
  ASSERT_TRUE(this->Add(*store, run, &outcome).ok());
  EXPECT_EQ(outcome, AddOutcome::kAlreadyStored);
  // Twice in one add: once stored.
  const RunResults other = MadeUpRun("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2026-11-02T10:00:00Z", 3);
  std::vector<AddOutcome> outcomes;
  ASSERT_TRUE(store->AddRuns({this->Record(other), this->Record(other)}, &outcomes).ok());
  EXPECT_EQ(outcomes, (std::vector<AddOutcome>{AddOutcome::kAdded, AddOutcome::kAlreadyStored}));
  std::vector<StoredRunInfo> runs;
  ASSERT_TRUE(store->ListRuns({}, &runs).ok());
  EXPECT_EQ(runs.size(), 2u);
  EXPECT_EQ(this->Count("kvbench_figures", run.run_id),
            3 * static_cast<int64_t>(FigureKinds().size()));
  // Filters.
  RunFilter since;
  since.since = "2026-11-02";
  ASSERT_TRUE(store->ListRuns(since, &runs).ok());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, other.run_id);
  RunFilter engine;
  engine.engine = "sqlite";
  ASSERT_TRUE(store->ListRuns(engine, &runs).ok());
  EXPECT_TRUE(runs.empty());
}

// Forks a process that opens the store and adds `runs`; its exit status.
template <typename F>
pid_t InChild(F body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body() ? 0 : 1);
  return pid;
}

int ExitCode(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TYPED_TEST(HistoryStoreTest, TwoWritersAtOnceBothSucceed) {
  this->Open();  // the schema exists before the race (and see below: also without)
  const RunResults a = MadeUpRun("1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "2026-11-01T10:00:00Z", 300);
  const RunResults b = MadeUpRun("2bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2026-11-01T11:00:00Z", 300);
  const RunResults same = MadeUpRun("3ccccccccccccccccccccccccccccccc", "2026-11-01T12:00:00Z", 50);
  auto writer = [&](const RunResults& mine) {
    return InChild([&] {
      std::unique_ptr<HistoryStore> store;
      if (!OpenHistoryStore(this->where_, OpenMode::kCreate, &store).ok()) return false;
      std::vector<AddOutcome> outcomes;
      for (int i = 0; i < 3; ++i) {  // several transactions each, interleaving
        const Status s = store->AddRuns({this->Record(mine), this->Record(same)}, &outcomes);
        if (!s.ok()) {
          fprintf(stderr, "%s\n", s.ToString().c_str());
          return false;
        }
      }
      return true;
    });
  };
  const pid_t first = writer(a), second = writer(b);
  EXPECT_EQ(ExitCode(first), 0);
  EXPECT_EQ(ExitCode(second), 0);
  auto store = this->Open(OpenMode::kExisting);
  std::vector<StoredRunInfo> runs;
  ASSERT_TRUE(store->ListRuns({}, &runs).ok());
  EXPECT_EQ(runs.size(), 3u);
  const int64_t per_phase = static_cast<int64_t>(FigureKinds().size());
  EXPECT_EQ(this->Count("kvbench_figures", a.run_id), 300 * per_phase);
  EXPECT_EQ(this->Count("kvbench_figures", b.run_id), 300 * per_phase);
  EXPECT_EQ(this->Count("kvbench_figures", same.run_id), 50 * per_phase);
}

TYPED_TEST(HistoryStoreTest, TwoWritersCreatingTheStoreAtOnceBothSucceed) {
  auto writer = [&](const std::string& id) {
    return InChild([&] {
      std::unique_ptr<HistoryStore> store;
      std::vector<AddOutcome> outcomes;
      Status s = OpenHistoryStore(this->where_, OpenMode::kCreate, &store);
      if (s.ok()) {
        s = store->AddRuns({this->Record(MadeUpRun(id, "2026-11-01T10:00:00Z", 5))}, &outcomes);
      }
      if (!s.ok()) std::fprintf(stderr, "writer %s: %s\n", id.c_str(), s.ToString().c_str());
      return s.ok();
    });
  };
  const pid_t first = writer("4ddddddddddddddddddddddddddddddd");
  const pid_t second = writer("5eeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
  EXPECT_EQ(ExitCode(first), 0);
  EXPECT_EQ(ExitCode(second), 0);
  std::vector<StoredRunInfo> runs;
  ASSERT_TRUE(this->Open()->ListRuns({}, &runs).ok());
  EXPECT_EQ(runs.size(), 2u);
}

TYPED_TEST(HistoryStoreTest, AWriterKilledMidTransactionStoresNothingOfItsRun) {
  this->Open();
  const RunResults run = MadeUpRun("6fffffffffffffffffffffffffffffff", "2026-11-01T10:00:00Z", 500);
  const pid_t pid = InChild([&] {
    std::unique_ptr<HistoryStore> store;
    if (!OpenHistoryStore(this->where_, OpenMode::kCreate, &store).ok()) return false;
    AddOptions options;
    // Killed with figures written and the transaction open.
    options.after_batch = [](size_t written) {
      if (written >= 1000) raise(SIGKILL);
    };
    std::vector<AddOutcome> outcomes;
    store->AddRuns({this->Record(run)}, &outcomes, options);
    return true;  // not reached
  });
  EXPECT_EQ(ExitCode(pid), 128 + SIGKILL);
  auto store = this->Open(OpenMode::kExisting);
  std::vector<StoredRunInfo> runs;
  ASSERT_TRUE(store->ListRuns({}, &runs).ok());
  EXPECT_TRUE(runs.empty());
  EXPECT_EQ(this->Count("kvbench_figures", run.run_id), 0);
  // The id is free: the run can be added whole now.
  AddOutcome outcome;
  ASSERT_TRUE(this->Add(*store, run, &outcome).ok());
  EXPECT_EQ(outcome, AddOutcome::kAdded);
  EXPECT_EQ(this->Count("kvbench_figures", run.run_id),
            500 * static_cast<int64_t>(FigureKinds().size()));
}

TYPED_TEST(HistoryStoreTest, AStoreOfANewerSchemaIsRefused) {
  this->Open();
  ASSERT_TRUE(this->Raw()
                  ->Execute("UPDATE kvbench_store SET value = '99' WHERE name = 'schema_version'")
                  .ok());
  std::unique_ptr<HistoryStore> store;
  const Status s = OpenHistoryStore(this->where_, OpenMode::kExisting, &store);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("schema version 99, newer than this kvbench reads (2)"),
            std::string::npos)
      << s.message();
}

// The time base of `figure` of phase "phase-0" (op "all" or none), by run id.
std::map<std::string, std::string> TimeBases(HistoryStore& store,
                                             const std::string& figure = "ops_per_sec") {
  FigureFilter filter;
  filter.figures = {figure};
  filter.phase = "phase-0";
  std::vector<FigurePoint> points;
  EXPECT_TRUE(store.LoadFigures(filter, &points).ok());
  std::map<std::string, std::string> out;
  for (const FigurePoint& p : points) out[p.run_id] = p.time_base;
  return out;
}

TYPED_TEST(HistoryStoreTest, EachFigureKeepsItsTimeBase) {
  auto store = this->Open();
  RunResults schema4 = MadeUpRun("7aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "2026-11-25T12:00:00Z", 1);
  for (Repetition& rep : schema4.runs[0].repetitions) rep.rate_base = RateBase::kEngineCalls;
  const RunResults schema5 =
      MadeUpRun("7bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2026-11-26T12:00:00Z", 1);
  AddOutcome outcome;
  ASSERT_TRUE(this->Add(*store, schema4, &outcome).ok());
  ASSERT_TRUE(this->Add(*store, schema5, &outcome).ok());
  EXPECT_EQ(TimeBases(*store),
            (std::map<std::string, std::string>{{schema4.run_id, kTimeBaseEngineCalls},
                                                {schema5.run_id, kTimeBaseWallSpan}}));
  EXPECT_EQ(TimeBases(*store, "seconds"),
            (std::map<std::string, std::string>{{schema4.run_id, kTimeBaseWallSpan},
                                                {schema5.run_id, kTimeBaseWallSpan}}));
  EXPECT_EQ(TimeBases(*store, "p99_ns"),
            (std::map<std::string, std::string>{{schema4.run_id, ""}, {schema5.run_id, ""}}));
}

TYPED_TEST(HistoryStoreTest, AStoreWithoutTimeBasesOpensAndGetsThemFromWhenItsRunsStarted) {
  const RunResults before4 =
      MadeUpRun("8aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "2026-11-20T10:00:00Z", 1);
  const RunResults after4 =
      MadeUpRun("8bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "2026-11-25T12:00:00Z", 1);
  {
    auto store = this->Open();
    AddOutcome outcome;
    ASSERT_TRUE(this->Add(*store, before4, &outcome).ok());
    ASSERT_TRUE(this->Add(*store, after4, &outcome).ok());
  }
  // Back to what a store of schema version 1 holds: kvbench_figures without
  // the column (it was added last, so the tables are as version 1 made them).
  ASSERT_TRUE(this->Raw()->Execute("ALTER TABLE kvbench_figures DROP COLUMN time_base").ok());
  ASSERT_TRUE(this->Raw()
                  ->Execute("UPDATE kvbench_store SET value = '1' WHERE name = 'schema_version'")
                  .ok());

  auto store = this->Open(OpenMode::kExisting);
  ASSERT_NE(store, nullptr);
  std::vector<SqlRow> rows;
  ASSERT_TRUE(
      this->Raw()
          ->Query("SELECT value FROM kvbench_store WHERE name = 'schema_version'", {}, &rows)
          .ok());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(SqlText(rows[0][0]), "2");
  // A run that started before results schema 4 existed divided by the wall
  // span; a later one may have been schema 4: unknown.
  EXPECT_EQ(TimeBases(*store),
            (std::map<std::string, std::string>{{before4.run_id, kTimeBaseWallSpan},
                                                {after4.run_id, kTimeBaseUnknown}}));
  EXPECT_EQ(TimeBases(*store, "seconds")[after4.run_id], kTimeBaseUnknown);
  EXPECT_EQ(TimeBases(*store, "p99_ns")[after4.run_id], "");
  // New runs are stored with theirs.
  const RunResults later = MadeUpRun("8ccccccccccccccccccccccccccccccc", "2026-11-27T10:00:00Z", 1);
  AddOutcome outcome;
  ASSERT_TRUE(this->Add(*store, later, &outcome).ok());
  EXPECT_EQ(outcome, AddOutcome::kAdded);
  EXPECT_EQ(TimeBases(*store)[later.run_id], kTimeBaseWallSpan);
}

TYPED_TEST(HistoryStoreTest, AStoreOfAnotherFormatIsRefused) {
  this->Open();
  ASSERT_TRUE(
      this->Raw()->Execute("UPDATE kvbench_store SET value = 'other' WHERE name = 'format'").ok());
  std::unique_ptr<HistoryStore> store;
  const Status s = OpenHistoryStore(this->where_, OpenMode::kCreate, &store);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("not a kvbench history store"), std::string::npos);
}

// ---- SQLite only: files that are not stores, missing files ----

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(SqliteHistoryStore, AFileThatIsNotAStoreIsRefusedUntouched) {
  test::ScratchDir dir("history");
  const std::string text = dir.path() + "/results.json";
  std::ofstream(text) << "{\"schema\": \"kvbench-results\"}\n";
  // An SQLite database of someone else's.
  const std::string other = dir.path() + "/other.db";
  {
    std::unique_ptr<SqlConnection> conn;
    ASSERT_TRUE(OpenSqliteConnection(other, "other", true, &conn).ok());
    ASSERT_TRUE(conn->Execute("CREATE TABLE accounts (id INTEGER)").ok());
  }
  for (const std::string& path : {text, other}) {
    const std::string before = FileBytes(path);
    StoreLocation where;
    ASSERT_TRUE(ParseStoreLocation("sqlite:" + path, "", &where).ok());
    std::unique_ptr<HistoryStore> store;
    const Status s = OpenHistoryStore(where, OpenMode::kCreate, &store);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("not a kvbench history store"), std::string::npos) << s.message();
    EXPECT_EQ(FileBytes(path), before) << path;
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
  }
}

TEST(SqliteHistoryStore, ReadingAMissingStoreCreatesNothing) {
  test::ScratchDir dir("history");
  StoreLocation where;
  ASSERT_TRUE(ParseStoreLocation("sqlite:" + dir.path() + "/none.db", "", &where).ok());
  std::unique_ptr<HistoryStore> store;
  const Status s = OpenHistoryStore(where, OpenMode::kExisting, &store);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/none.db"));
}

// ---- PostgreSQL only: servers that cannot be reached, URLs that do not parse ----

TEST(PostgresHistoryStore, AnUnreachableServerIsAClearError) {
  StoreLocation where;
  ASSERT_TRUE(
      ParseStoreLocation("postgresql://kvbench:secret@127.0.0.1:1/history", "", &where).ok());
  std::unique_ptr<HistoryStore> store;
  const Status s = OpenHistoryStore(where, OpenMode::kExisting, &store);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("cannot connect to PostgreSQL"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("secret"), std::string::npos) << "password shown: " << s.message();
}

TEST(PostgresHistoryStore, AMalformedUrlIsRefusedBeforeConnecting) {
  StoreLocation where;
  ASSERT_TRUE(ParseStoreLocation("postgresql://host/db?no_such_parameter=1", "", &where).ok());
  std::unique_ptr<HistoryStore> store;
  const Status s = OpenHistoryStore(where, OpenMode::kExisting, &store);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("malformed PostgreSQL URL"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace kvbench::results
