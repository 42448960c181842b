#include "results/history/store_location.h"

#include <gtest/gtest.h>

namespace kvbench::results {
namespace {

TEST(StoreLocation, SqliteAndPostgresForms) {
  StoreLocation l;
  ASSERT_TRUE(ParseStoreLocation("sqlite:/tmp/h.db", "/home/u", &l).ok());
  EXPECT_EQ(l.kind, StoreLocation::Kind::kSqlite);
  EXPECT_EQ(l.path, "/tmp/h.db");
  ASSERT_TRUE(ParseStoreLocation("sqlite:~/h.db", "/home/u", &l).ok());
  EXPECT_EQ(l.path, "/home/u/h.db");
  ASSERT_TRUE(ParseStoreLocation("sqlite:relative/h.db", "/home/u", &l).ok());
  EXPECT_EQ(l.path, "relative/h.db");
  ASSERT_TRUE(
      ParseStoreLocation("postgresql://bench:s3cret@db.example:5433/perf?sslmode=require", "", &l)
          .ok());
  EXPECT_EQ(l.kind, StoreLocation::Kind::kPostgres);
  EXPECT_EQ(l.url, "postgresql://bench:s3cret@db.example:5433/perf?sslmode=require");
  EXPECT_EQ(l.display, "postgresql://bench:***@db.example:5433/perf?sslmode=require");
  ASSERT_TRUE(ParseStoreLocation("postgres:///perf?host=/run/pg&password=x&user=u", "", &l).ok());
  EXPECT_EQ(l.display, "postgres:///perf?host=/run/pg&password=***&user=u");
}

TEST(StoreLocation, AnythingElseIsRefused) {
  StoreLocation l;
  for (const char* bad : {"history.db", "sqlite:", "mysql://x/y", "postgresq://h/db", ""}) {
    const Status s = ParseStoreLocation(bad, "/home/u", &l);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
  }
  EXPECT_EQ(ParseStoreLocation("mysql://u:pw@h/db", "", &l).message().find("pw"),
            std::string::npos);
}

TEST(StoreLocation, DefaultPathFollowsXdg) {
  EXPECT_EQ(DefaultStorePath("", "/home/u"), "/home/u/.local/share/kvbench/history.db");
  EXPECT_EQ(DefaultStorePath("/data", "/home/u"), "/data/kvbench/history.db");
  EXPECT_EQ(DefaultStorePath("relative", "/home/u"), "/home/u/.local/share/kvbench/history.db");
}

}  // namespace
}  // namespace kvbench::results
