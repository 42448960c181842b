// What the conformance suite cannot see in the sqlite adapter: that its options
// reach SQLite, that bad ones are refused with the option's name, that VACUUM
// shrinks the file, and that sessions on two threads write without failing.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

class SqliteAdapterTest : public ::testing::Test {
 protected:
  Status Open(const std::map<std::string, std::string>& overrides) {
    Status s = AdapterRegistry::Global().Create("sqlite", &adapter_);
    if (!s.ok()) return s;
    OpenRequest request;
    request.directory = dir_.path();
    s = ResolveEngineOptions("sqlite", adapter_->OptionSpecs(), overrides, &request.options);
    if (!s.ok()) return s;
    return adapter_->Open(request);
  }

  // The first column of the first row of `sql`, read with a connection of our
  // own after the adapter has closed.
  std::string Query(const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open((dir_.path() + "/data.sqlite").c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    std::string out;
    if (sqlite3_step(st) == SQLITE_ROW) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }

  uint64_t DirectoryBytes() {
    uint64_t total = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
      if (e.is_regular_file()) total += e.file_size();
    }
    return total;
  }

  test::ScratchDir dir_{"sqlite"};
  std::unique_ptr<Adapter> adapter_;
};

TEST_F(SqliteAdapterTest, DefaultsAreSeedOnesAndTableHasRowid) {
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(adapter_->Close().ok());
  EXPECT_EQ(Query("PRAGMA journal_mode"), "wal");
  const std::string ddl = Query("SELECT sql FROM sqlite_master WHERE name = 'kv'");
  EXPECT_NE(ddl.find("k BLOB PRIMARY KEY"), std::string::npos) << ddl;
  EXPECT_EQ(ddl.find("WITHOUT ROWID"), std::string::npos) << ddl;
}

TEST_F(SqliteAdapterTest, WithoutRowidAndPragmaOptionsReachSqlite) {
  Status s = Open({{"sqlite.without_rowid", "true"},
                   {"sqlite.page_size", "8192"},
                   {"sqlite.pragma.user_version", "42"}});
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter_->NewSession(&session).ok());
  ASSERT_TRUE(session->Put("k", "v").ok());
  session.reset();
  ASSERT_TRUE(adapter_->Close().ok());
  EXPECT_NE(Query("SELECT sql FROM sqlite_master WHERE name = 'kv'").find("WITHOUT ROWID"),
            std::string::npos);
  EXPECT_EQ(Query("PRAGMA user_version"), "42");
  EXPECT_EQ(Query("PRAGMA page_size"), "8192");
}

TEST_F(SqliteAdapterTest, BadOptionsNameTheOption) {
  Status s = Open({{"sqlite.journal_mode", "sideways"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("sqlite.journal_mode"), std::string::npos) << s.ToString();

  s = Open({{"sqlite.page_size", "1000"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  // A value is one expression, not a way to run more SQL.
  s = Open({{"sqlite.pragma.user_version", "1; DROP TABLE kv"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("sqlite.pragma.user_version"), std::string::npos) << s.ToString();

  s = Open({{"sqlite.pragma.bad-name", "1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

// PRAGMA options are checked at plan time (CheckOptions, no SQL run): a
// misspelt name, which SQLite would ignore without a word, and a value that
// is not one number, name or quoted string are refused naming the option;
// what SQLite's grammar takes passes and reaches the database.
TEST_F(SqliteAdapterTest, PragmaOptionsAreCheckedBeforeAnyEngineStarts) {
  std::unique_ptr<Adapter> adapter;
  ASSERT_TRUE(AdapterRegistry::Global().Create("sqlite", &adapter).ok());
  auto check = [&](const std::string& name, const std::string& value) {
    EngineOptions options;
    Status s = ResolveEngineOptions("sqlite", adapter->OptionSpecs(),
                                    {{"sqlite.pragma." + name, value}}, &options);
    return s.ok() ? adapter->CheckOptions(options) : s;
  };
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"nosuchpragma", "1"},
                                                        {"user_version", "1; DROP TABLE kv"},
                                                        {"user_version", "(SELECT 1)"},
                                                        {"cache_size", "1 OR 1"},
                                                        {"temp_store", "'open"},
                                                        {"temp_store", "a b"},
                                                        {"application_id", "'a'b'"},
                                                        {"cache_size", "--1"}}) {
    const Status s = check(name, value);
    EXPECT_TRUE(s.IsInvalidArgument()) << name << " = " << value << ": " << s.ToString();
    EXPECT_NE(s.message().find("sqlite.pragma." + name), std::string::npos) << s.message();
  }
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"user_version", "-42"},
                                                        {"temp_store", "memory"},
                                                        {"cache_size", "+2000"},
                                                        {"analysis_limit", "1.5"},
                                                        {"encoding", "'UTF-8'"},
                                                        {"application_id", "'it''s'"},
                                                        {"TEMP_STORE", "2"}}) {
    const Status s = check(name, value);
    EXPECT_TRUE(s.ok()) << name << " = " << value << ": " << s.ToString();
  }
}

TEST_F(SqliteAdapterTest, ReorganizeShrinksTheFiles) {
  ASSERT_TRUE(Open({}).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter_->NewSession(&session).ok());
  ASSERT_TRUE(session->BeginBatch().ok());
  for (int i = 0; i < 4000; ++i) {
    ASSERT_TRUE(session->Put("key" + std::to_string(i), std::string(1000, 'v')).ok());
  }
  ASSERT_TRUE(session->CommitBatch().ok());
  ASSERT_TRUE(session->BeginBatch().ok());
  for (int i = 0; i < 4000; ++i) {
    if (i % 10 == 0) continue;
    ASSERT_TRUE(session->Delete("key" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(session->CommitBatch().ok());
  ASSERT_TRUE(adapter_->Sync().ok());
  const uint64_t before = DirectoryBytes();
  Status s = adapter_->Reorganize();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const uint64_t after = DirectoryBytes();
  EXPECT_LT(after * 3, before) << "before " << before << " after " << after;
  std::string value;
  ASSERT_TRUE(session->Get("key10", &value).ok());
  EXPECT_EQ(value.size(), 1000u);
  EXPECT_TRUE(session->Get("key11", &value).IsNotFound());
}

// Two sessions write batches from two threads at once: the second waits on
// SQLite's lock (busy timeout) instead of failing with SQLITE_BUSY.
TEST_F(SqliteAdapterTest, SessionsOnTwoThreadsBothCommit) {
  ASSERT_TRUE(Open({}).ok());
  std::unique_ptr<Session> a, b;
  ASSERT_TRUE(adapter_->NewSession(&a).ok());
  ASSERT_TRUE(adapter_->NewSession(&b).ok());
  auto writer = [](Session* session, std::string prefix, Status* result) {
    for (int batch = 0; batch < 20 && result->ok(); ++batch) {
      *result = session->BeginBatch();
      for (int i = 0; i < 50 && result->ok(); ++i) {
        *result = session->Put(prefix + std::to_string(batch * 50 + i), "v");
      }
      if (result->ok()) *result = session->CommitBatch();
      std::string v;
      if (result->ok()) *result = session->Get(prefix + "0", &v);
    }
  };
  Status sa, sb;
  std::thread ta(writer, a.get(), "a", &sa), tb(writer, b.get(), "b", &sb);
  ta.join();
  tb.join();
  EXPECT_TRUE(sa.ok()) << sa.ToString();
  EXPECT_TRUE(sb.ok()) << sb.ToString();
  std::string v;
  EXPECT_TRUE(a->Get("b999", &v).ok());
  EXPECT_TRUE(b->Get("a999", &v).ok());
}

}  // namespace
}  // namespace kvbench
