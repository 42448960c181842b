// Shared memory: a second process attaches to a database the first created,
// at a different address, reads what the first wrote (records, strings,
// references, an index) and writes back under the shared lock.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "engines/native/database.h"

namespace nativedb {
namespace {

std::string ShmName(const char* what) {
  return "/nativedb_test_" + std::string(what) + "_" + std::to_string(getpid());
}

// Runs `child` in a forked process; returns its exit code (0 = all checks held).
template <class Body>
int RunInChild(Body child) {
  const pid_t pid = fork();
  if (pid == 0) _exit(child());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST(SharedMemoryTest, SecondProcessReadsAndWrites) {
  const std::string name = ShmName("rw");
  Options options;
  options.shm_name = name;
  options.size = uint64_t{8} << 20;
  options.remove_shm_on_close = true;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  ASSERT_TRUE(db->shared());
  Record first{}, prev{};
  {
    WriteLock lock(*db);
    ASSERT_TRUE(db->CreateIndex(0).ok());
    for (int i = 0; i < 1000; ++i) {
      Record r;
      ASSERT_TRUE(db->CreateRecord(3, &r).ok());
      ASSERT_TRUE(db->SetField(r, 0, Value::Int(i % 10)).ok());
      ASSERT_TRUE(
          db->SetField(r, 1, Value::String("value " + std::to_string(i) + std::string(40, '.')))
              .ok());
      if (prev) {
        ASSERT_TRUE(db->SetField(r, 2, Value::Ref(prev)).ok());
      }
      if (!first) first = r;
      prev = r;
    }
  }
  const void* parent_address = db->arena_address();
  const Record last = prev;

  const int code = RunInChild([&]() -> int {
    std::unique_ptr<Database> other;
    if (!Database::Attach(name, &other).ok()) return 1;
    // The parent's mapping is inherited, so this one lands elsewhere: the
    // reads below work through offsets alone.
    if (other->arena_address() == parent_address) return 2;
    {
      ReadLock lock(*other);
      if (!lock.status().ok()) return 3;
      if (other->RecordCount() != 1000) return 4;
      std::vector<Record> found;
      if (!other->FindEqual(0, Value::Int(3), 0, &found).ok() || found.size() != 100) return 5;
      int chain = 0;
      for (Record r = last; r; r = other->GetField(r, 2).record_value()) ++chain;
      if (chain != 1000) return 6;
      if (other->GetField(first, 1).string_value() != "value 0" + std::string(40, '.')) return 7;
      if (!other->Verify().ok()) return 8;
    }
    WriteLock lock(*other);
    Record r;
    if (!other->CreateRecord(1, &r).ok()) return 9;
    if (!other->SetField(r, 0, Value::Int(424242)).ok()) return 10;
    return 0;
  });
  ASSERT_EQ(code, 0);

  ReadLock lock(*db);
  std::vector<Record> found;
  ASSERT_TRUE(db->FindEqual(0, Value::Int(424242), 0, &found).ok());
  EXPECT_EQ(found.size(), 1u) << "the child's write is visible here";
  EXPECT_EQ(db->RecordCount(), 1001u);
  EXPECT_TRUE(db->Verify().ok());
}

TEST(SharedMemoryTest, NamesAndSizes) {
  const std::string name = ShmName("names");
  std::unique_ptr<Database> db, again, attached;
  EXPECT_TRUE(Database::Attach(name, &attached).IsNotFound());
  Options options;
  options.shm_name = name;
  options.size = uint64_t{1} << 20;
  ASSERT_TRUE(Database::Create(options, &db).ok());
  EXPECT_EQ(Database::Create(options, &again).code(), Status::Code::kBusy);
  // Shared memory does not grow: filling it gives Full naming the cause.
  Status st;
  while (st.ok()) {
    Record r;
    st = db->CreateRecord(100, &r);
  }
  EXPECT_TRUE(st.IsFull());
  EXPECT_NE(st.message().find("shared memory cannot grow"), std::string_view::npos);
  db.reset();
  ASSERT_TRUE(Database::Attach(name, &attached).ok()) << "outlives its creator by default";
  EXPECT_GT(attached->RecordCount(), 0u);
  ASSERT_TRUE(Database::RemoveShared(name).ok());
  EXPECT_TRUE(Database::RemoveShared(name).IsNotFound());
}

}  // namespace
}  // namespace nativedb
