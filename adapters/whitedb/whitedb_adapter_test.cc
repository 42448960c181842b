// The `whitedb` adapter on its own: options, a full database reported naming
// its option, WhiteDB's own stderr messages kept off stderr, shared-memory
// segments (created, removed, a foreign one left alone), key order with NUL
// and 0x01 bytes, tombstones of referenced records, queries on bytes and
// reference fields, threads under WhiteDB's lock, and record ids computed as
// WhiteDB encodes them.
// (The shared conformance suites in tests/ cover the contracts.)
#include <gtest/gtest.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "adapters/registry.h"
#include "adapters/whitedb/whitedb_database.h"
#include "adapters/whitedb/whitedb_messages.h"

namespace kvbench {
namespace {

// What the process writes on file descriptor 2 from construction to Finish().
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    dup2(fileno(file_), STDERR_FILENO);
  }
  ~StderrCapture() {
    if (saved_ >= 0) Finish();
    std::fclose(file_);
  }
  std::string Finish() {
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
    std::string text;
    std::rewind(file_);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) text.append(buf, n);
    return text;
  }

 private:
  FILE* file_;
  int saved_ = -1;
};

// A status the runner can print as one line naming the engine and the option.
void ExpectOneLineNaming(const Status& s, const std::string& option) {
  EXPECT_EQ(s.message().rfind("whitedb", 0), 0u) << s.ToString();
  EXPECT_NE(s.message().find("'" + option + "'"), std::string::npos) << s.ToString();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.ToString();
}

class Collecting : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    entries.emplace_back(std::string(key), std::string(value));
    return true;
  }
  std::vector<std::pair<std::string, std::string>> entries;
};

class WhitedbAdapterTest : public ::testing::Test {
 protected:
  void TearDown() override {
    table_.reset();
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  Status Open(const std::map<std::string, std::string>& overrides) {
    table_.reset();
    session_.reset();
    if (adapter_) KVBENCH_RETURN_IF_ERROR(adapter_->Close());
    KVBENCH_RETURN_IF_ERROR(AdapterRegistry::Global().Create("whitedb", &adapter_));
    OpenRequest request;
    request.directory = "/tmp";
    KVBENCH_RETURN_IF_ERROR(
        ResolveEngineOptions("whitedb", adapter_->OptionSpecs(), overrides, &request.options));
    KVBENCH_RETURN_IF_ERROR(adapter_->CheckOptions(request.options));
    KVBENCH_RETURN_IF_ERROR(adapter_->Open(request));
    return adapter_->NewSession(&session_);
  }

  void OpenTable(std::vector<FieldType> types) {
    RecordTableSpec spec;
    spec.name = "t";
    spec.types = std::move(types);
    Status s = session_->OpenRecordTable(spec, &table_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::vector<std::pair<std::string, std::string>> Scan(const std::string& start,
                                                        ScanOptions options) {
    Collecting visitor;
    size_t visited = 0;
    Status s = session_->Scan(start, options, &visitor, &visited);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(visited, visitor.entries.size());
    return visitor.entries;
  }

  // A segment number of this process's own, so parallel test runs differ.
  static uint32_t OwnSegment() { return 1 + static_cast<uint32_t>(getpid()) % 65535; }
  static key_t KeyOf(uint32_t segment) { return 0x6B760000 + static_cast<key_t>(segment); }

  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<RecordTable> table_;
};

TEST_F(WhitedbAdapterTest, CapabilitiesAndVersion) {
  ASSERT_TRUE(AdapterRegistry::Global().Create("whitedb", &adapter_).ok());
  const Capabilities c = adapter_->capabilities();
  EXPECT_TRUE(c.stores_data && c.ordered && c.native_records && c.native_secondary_index);
  EXPECT_TRUE(c.concurrent_readers);
  EXPECT_FALSE(c.transactional || c.durable || c.concurrent_writers || c.reorganize);
  EXPECT_EQ(adapter_->LibraryVersion().rfind("WhiteDB 0.", 0), 0u) << adapter_->LibraryVersion();
  adapter_.reset();
}

TEST_F(WhitedbAdapterTest, BadOptionsNameTheOption) {
  Status s = Open({{"whitedb.size", "4096"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("whitedb.size"), std::string::npos) << s.ToString();
  s = Open({{"whitedb.shm_segment", "70000"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("whitedb.shm_segment"), std::string::npos) << s.ToString();
  s = Open({{"whitedb.shm_segment", "-1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

// Record ids are computed as offsets in the database instead of calling
// wg_encode_record / wg_decode_record per record: they must be the same values,
// in private memory and in a shared-memory segment.
TEST(WhitedbDatabaseTest, RecordIdsAreWhiteDBsEncoding) {
  for (const uint32_t segment : {0u, 1 + static_cast<uint32_t>(getpid()) % 65535}) {
    std::unique_ptr<WhitedbDatabase> database;
    ASSERT_TRUE(WhitedbDatabase::Attach({.size = 1 << 20, .shm_segment = segment}, &database).ok());
    void* db = database->db();
    for (int i = 0; i < 100; ++i) {
      void* record = wg_create_raw_record(db, 1 + i % 7);
      ASSERT_NE(record, nullptr);
      const RecordId id = database->IdOf(record);
      EXPECT_EQ(id, static_cast<RecordId>(wg_encode_record(db, record))) << segment;
      EXPECT_EQ(database->RecordAt(id), wg_decode_record(db, static_cast<wg_int>(id))) << segment;
      EXPECT_EQ(database->RecordAt(id), record);
    }
  }
}

// Pairs of 200 bytes into 1 MiB, until the database is full: one IOError
// naming whitedb.size and quoting WhiteDB, nothing printed by WhiteDB, the
// earlier pairs intact.
TEST_F(WhitedbAdapterTest, FullDatabaseIsAnErrorNamingTheSizeOption) {
  ASSERT_TRUE(ContainWhitedbMessages()) << "libwgdb's stderr slot was not found";
  {
    StderrCapture capture;
    ASSERT_TRUE(Open({{"whitedb.size", "1MiB"}}).ok());
    Status s;
    int stored = 0;
    for (; stored < 100000; ++stored) {
      s = session_->Put("key" + std::to_string(stored),
                        std::string(200, 'a' + stored % 26) + std::to_string(stored));
      if (!s.ok()) break;
    }
    ASSERT_FALSE(s.ok()) << "1 MiB cannot hold 100,000 pairs of 200 bytes";
    EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
    ExpectOneLineNaming(s, "whitedb.size");
    EXPECT_NE(s.message().find("database full"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("(WhiteDB: "), std::string::npos) << s.ToString();
    std::string value;
    ASSERT_TRUE(session_->Get("key0", &value).ok()) << "earlier pairs survive";
    EXPECT_EQ(value, std::string(200, 'a') + "0");
    ASSERT_TRUE(session_->Get("key" + std::to_string(stored - 1), &value).ok());
    // Full again at once; a read still works after it.
    s = session_->Put("another key", std::string(4000, 'z'));
    EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
    ExpectOneLineNaming(s, "whitedb.size");
    ASSERT_TRUE(session_->Get("key1", &value).ok());
    EXPECT_EQ(capture.Finish(), "") << "WhiteDB's own messages reached stderr";
  }

  // Records too, on a database of their own.
  StderrCapture capture;
  ASSERT_TRUE(Open({{"whitedb.size", "1MiB"}}).ok());
  OpenTable({FieldType::kInt64, FieldType::kString});
  RecordId id = 0;
  Status s;
  for (int i = 0; i < 100000; ++i) {
    s = table_->InsertRecord(
        {FieldValue::Int(i), FieldValue::String(std::string(100, 's') + std::to_string(i))}, &id);
    if (!s.ok()) break;
  }
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  ExpectOneLineNaming(s, "whitedb.size");
  EXPECT_EQ(capture.Finish(), "") << "WhiteDB's own messages reached stderr";
}

// What WhiteDB prints in normal operation (a new index, a field set as new
// twice, a failed lookup, a refused query) stays off stderr.
TEST_F(WhitedbAdapterTest, WhiteDBPrintsNothingOnStderr) {
  StderrCapture capture;
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());  // the key index
  std::string value;
  EXPECT_TRUE(session_->Get("absent", &value).IsNotFound());
  EXPECT_TRUE(session_->Delete("absent").IsNotFound());
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kInt64, FieldType::kString, FieldType::kInt64});
  RecordId id = 0;
  ASSERT_TRUE(
      table_->InsertRecord({FieldValue::Int(1), FieldValue::String("a"), FieldValue::Int(5)}, &id)
          .ok());
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  // Field 2 is not indexed, so kNew is wg_set_new_field, which prints.
  EXPECT_TRUE(table_->SetField(id, 2, FieldValue::Int(6), SetMode::kNew).IsInvalidArgument());
  std::vector<RecordId> matches;
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Int(2), 0, &matches).ok());
  EXPECT_TRUE(matches.empty());
  FieldValue field;
  EXPECT_TRUE(table_->GetField(id + 8, 0, &field).IsNotFound());
  EXPECT_EQ(capture.Finish(), "");
  EXPECT_EQ(TakeWhitedbMessages(), "") << "messages of calls that succeeded are not kept";
}

// An index on a field the table's records do not have: refused naming the
// field, and a query on it too.
TEST_F(WhitedbAdapterTest, IndexOnAMissingFieldIsRefused) {
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kInt64, FieldType::kInt64});
  Status s = table_->CreateIndex(2);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.message().rfind("whitedb", 0), 0u) << s.ToString();
  EXPECT_NE(s.message().find("field 2"), std::string::npos) << s.ToString();
  std::vector<RecordId> matches;
  EXPECT_TRUE(table_->QueryEqual(2, FieldValue::Int(0), 0, &matches).IsInvalidArgument());
  EXPECT_TRUE(table_->QueryEqual(1, FieldValue::Int(0), 0, &matches).IsInvalidArgument())
      << "field 1 exists but has no index";
}

TEST_F(WhitedbAdapterTest, SharedSegmentIsCreatedAndRemovedAtClose) {
  const uint32_t segment = OwnSegment();
  ASSERT_LT(shmget(KeyOf(segment), 0, 0), 0) << "a segment is left over from another test";
  Status s = Open({{"whitedb.size", "16MiB"}, {"whitedb.shm_segment", std::to_string(segment)}});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_GE(shmget(KeyOf(segment), 0, 0), 0) << "the segment exists while open";
  ASSERT_TRUE(session_->Put("k", "v").ok());
  std::string value;
  ASSERT_TRUE(session_->Get("k", &value).ok());
  EXPECT_EQ(value, "v");
  session_.reset();
  ASSERT_TRUE(adapter_->Close().ok());
  adapter_.reset();
  EXPECT_LT(shmget(KeyOf(segment), 0, 0), 0) << "Close removes the segment";
}

TEST_F(WhitedbAdapterTest, ExistingSegmentIsRefusedAndLeftAlone) {
  const uint32_t segment = OwnSegment();
  const int foreign = shmget(KeyOf(segment), 4096, IPC_CREAT | IPC_EXCL | 0600);
  ASSERT_GE(foreign, 0) << "cannot make the foreign segment";
  StderrCapture capture;
  Status s = Open({{"whitedb.size", "16MiB"}, {"whitedb.shm_segment", std::to_string(segment)}});
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  ExpectOneLineNaming(s, "whitedb.shm_segment");
  EXPECT_NE(s.message().find("exists"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("created by pid " + std::to_string(getpid())), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.message().find("ipcrm -M"), std::string::npos) << s.ToString();
  EXPECT_EQ(capture.Finish(), "");
  EXPECT_EQ(shmget(KeyOf(segment), 0, 0), foreign) << "the foreign segment is untouched";
  shmid_ds info;
  ASSERT_EQ(shmctl(foreign, IPC_STAT, &info), 0);
  EXPECT_EQ(info.shm_nattch, 0u) << "and not attached";
  shmctl(foreign, IPC_RMID, nullptr);
  adapter_.reset();
}

// Keys made of 0x00, 0x01, 0x02 and 0xff bytes: the escape must keep
// unsigned byte order, prefixes first, in both directions and from the edges.
TEST_F(WhitedbAdapterTest, ScansKeepByteOrderThroughTheKeyEscape) {
  ASSERT_TRUE(Open({}).ok());
  const char alphabet[] = {'\0', '\x01', '\x02', 'a', '\xff'};
  std::mt19937_64 rng(30);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 2000; ++i) {
    std::string key(rng() % 6, '\0');
    for (char& c : key) c = alphabet[rng() % sizeof(alphabet)];
    model[key] = std::to_string(i);
    ASSERT_TRUE(session_->Put(key, model[key]).ok());
  }
  ScanOptions all;
  all.from_edge = true;
  EXPECT_EQ(Scan("", all),
            (std::vector<std::pair<std::string, std::string>>(model.begin(), model.end())));
  all.direction = ScanDirection::kBackward;
  EXPECT_EQ(Scan("", all),
            (std::vector<std::pair<std::string, std::string>>(model.rbegin(), model.rend())));
  for (int probe = 0; probe < 200; ++probe) {
    std::string start(rng() % 6, '\0');
    for (char& c : start) c = alphabet[rng() % sizeof(alphabet)];
    ScanOptions options;
    options.limit = 1 + rng() % 50;
    options.direction = probe % 2 ? ScanDirection::kForward : ScanDirection::kBackward;
    std::vector<std::pair<std::string, std::string>> want;
    if (options.direction == ScanDirection::kForward) {
      for (auto it = model.lower_bound(start); it != model.end() && want.size() < options.limit;
           ++it) {
        want.emplace_back(*it);
      }
    } else {
      for (auto it = model.upper_bound(start);
           it != model.begin() && want.size() < options.limit;) {
        want.emplace_back(*--it);
      }
    }
    ASSERT_EQ(Scan(start, options), want) << "probe " << probe;
  }
}

// A forward scan without a limit reads pages of rows; keys-only scans pass
// empty values.
TEST_F(WhitedbAdapterTest, UnlimitedScansCrossPages) {
  ASSERT_TRUE(Open({}).ok());
  for (int i = 0; i < 3000; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "k%06d", i);
    ASSERT_TRUE(session_->Put(key, "v").ok());
  }
  ScanOptions options;
  options.keys_only = true;
  const auto got = Scan("k000100", options);
  ASSERT_EQ(got.size(), 2900u);
  EXPECT_EQ(got.front().first, "k000100");
  EXPECT_EQ(got.back().first, "k002999");
  for (size_t i = 1; i < got.size(); ++i) ASSERT_LT(got[i - 1].first, got[i].first);
}

TEST_F(WhitedbAdapterTest, PairsAndATableDoNotShareADatabase) {
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  RecordTableSpec spec;
  spec.types = {FieldType::kInt64};
  std::unique_ptr<RecordTable> table;
  EXPECT_TRUE(session_->OpenRecordTable(spec, &table).IsNotSupported());
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kInt64});
  EXPECT_TRUE(session_->Put("k", "v").IsNotSupported());
}

TEST_F(WhitedbAdapterTest, StringsWithNulAreRefusedBytesAreNot) {
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kString, FieldType::kBytes});
  RecordId id = 0;
  const std::string nul("a\0b", 3);
  EXPECT_TRUE(
      table_->InsertRecord({FieldValue::String(nul), FieldValue::Null()}, &id).IsInvalidArgument());
  ASSERT_TRUE(table_->InsertRecord({FieldValue::String("a"), FieldValue::Bytes(nul)}, &id).ok());
  std::vector<FieldValue> fields;
  ASSERT_TRUE(table_->GetRecord(id, &fields).ok());
  EXPECT_EQ(fields[1], FieldValue::Bytes(nul));
  std::vector<RecordId> matches;
  uint64_t examined = 0;
  ASSERT_TRUE(table_->ScanEqual(0, FieldValue::String(nul), 0, &matches, &examined).ok());
  EXPECT_TRUE(matches.empty());
  EXPECT_EQ(examined, 1u) << "the refused insert left no record";
}

// Indexed bytes (no query parameter in WhiteDB's API) and references
// (WhiteDB's index compares records by content): only equal values match.
TEST_F(WhitedbAdapterTest, QueriesOnBytesAndReferenceFields) {
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kBytes, FieldType::kReference, FieldType::kInt64});
  RecordId a = 0, b = 0, c = 0, d = 0;
  ASSERT_TRUE(
      table_->InsertRecord({FieldValue::Bytes("x"), FieldValue::Null(), FieldValue::Int(1)}, &a)
          .ok());
  // b and c hold equal content, so WhiteDB's comparison calls them equal.
  ASSERT_TRUE(table_
                  ->InsertRecord({FieldValue::Bytes(std::string("\0y", 2)),
                                  FieldValue::Reference(a), FieldValue::Int(2)},
                                 &b)
                  .ok());
  ASSERT_TRUE(table_
                  ->InsertRecord({FieldValue::Bytes(std::string("\0y", 2)),
                                  FieldValue::Reference(a), FieldValue::Int(2)},
                                 &c)
                  .ok());
  ASSERT_TRUE(
      table_
          ->InsertRecord({FieldValue::Bytes("x"), FieldValue::Reference(b), FieldValue::Int(3)}, &d)
          .ok());
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  ASSERT_TRUE(table_->CreateIndex(1).ok());
  std::vector<RecordId> matches;
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Bytes(std::string("\0y", 2)), 0, &matches).ok());
  EXPECT_EQ(std::set<RecordId>(matches.begin(), matches.end()), (std::set<RecordId>{b, c}));
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Bytes("z"), 0, &matches).ok());
  EXPECT_TRUE(matches.empty()) << "an absent blob is not left in the database";
  ASSERT_TRUE(table_->QueryEqual(1, FieldValue::Reference(b), 0, &matches).ok());
  EXPECT_EQ(matches, std::vector<RecordId>{d}) << "c has b's content but is not b";
  ASSERT_TRUE(table_->QueryEqual(1, FieldValue::Reference(a), 0, &matches).ok());
  EXPECT_EQ(std::set<RecordId>(matches.begin(), matches.end()), (std::set<RecordId>{b, c}));
}

// InsertRecord's integer path (in a batch and outside one, integers WhiteDB
// keeps in the field and ones it allocates) and its path for other types, and
// QueryEqual's unfiltered fetch (ids gathered in blocks of 128) with and
// without a limit.
TEST_F(WhitedbAdapterTest, IntegerInsertsAndQueriesAcrossFetchBlocks) {
  ASSERT_TRUE(Open({}).ok());
  OpenTable({FieldType::kInt64, FieldType::kInt64, FieldType::kString});
  ASSERT_TRUE(table_->CreateIndex(0).ok());
  std::set<RecordId> even;
  std::map<RecordId, int64_t> big;
  for (int i = 0; i < 600; ++i) {
    if (i == 300) {
      ASSERT_TRUE(session_->BeginBatch().ok());
    }
    const int64_t large = (int64_t{1} << 40) + i;  // not kept in the field
    std::vector<FieldValue> fields = {FieldValue::Int(i % 2), FieldValue::Int(large),
                                      FieldValue::Null()};
    if (i % 3 == 0) fields[2] = FieldValue::String("s" + std::to_string(i));
    RecordId id = 0;
    ASSERT_TRUE(table_->InsertRecord(fields, &id).ok());
    if (i % 2 == 0) even.insert(id);
    big[id] = large;
  }
  ASSERT_TRUE(session_->CommitBatch().ok());
  for (const auto& [id, large] : big) {
    std::vector<FieldValue> fields;
    ASSERT_TRUE(table_->GetRecord(id, &fields).ok());
    EXPECT_EQ(fields[1].int_value, large);
  }
  std::vector<RecordId> matches = {1, 2, 3};  // cleared by the query
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Int(0), 0, &matches).ok());
  EXPECT_EQ(matches.size(), 300u);
  EXPECT_EQ(std::set<RecordId>(matches.begin(), matches.end()), even);
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Int(0), 200, &matches).ok());
  EXPECT_EQ(matches.size(), 200u);
  for (const RecordId id : matches) {
    EXPECT_EQ(even.count(id), 1u);
  }
  ASSERT_TRUE(table_->QueryEqual(0, FieldValue::Int(7), 5, &matches).ok());
  EXPECT_TRUE(matches.empty());
}

// A referenced record deleted becomes a tombstone: gone for the caller, the
// references kept as written, and freed once nothing refers to it. A
// database of 1 MiB fills after some ten thousand records, so 100,000 rounds
// pass only if tombstones are freed.
TEST_F(WhitedbAdapterTest, TombstonesOfReferencedRecordsAreFreed) {
  ASSERT_TRUE(Open({{"whitedb.size", "1MiB"}}).ok());
  OpenTable({FieldType::kInt64, FieldType::kReference});
  RecordId a = 0, b = 0, next = 0;
  for (int round = 0; round < 100000; ++round) {
    ASSERT_TRUE(table_->InsertRecord({FieldValue::Int(round), FieldValue::Null()}, &a).ok())
        << "round " << round;
    ASSERT_TRUE(table_->InsertRecord({FieldValue::Int(-round), FieldValue::Reference(a)}, &b).ok());
    ASSERT_TRUE(table_->DeleteRecord(a).ok());
    if (round == 0) {
      std::vector<FieldValue> fields;
      EXPECT_TRUE(table_->GetRecord(a, &fields).IsNotFound());
      ASSERT_TRUE(table_->GetRecord(b, &fields).ok());
      EXPECT_EQ(fields[1], FieldValue::Reference(a)) << "the reference is kept as written";
      ASSERT_TRUE(table_->FollowReference(b, 1, &next).ok());
      EXPECT_EQ(next, a);
      EXPECT_TRUE(table_->FollowReference(a, 1, &next).IsNotFound()) << "the walk ends there";
      std::vector<RecordId> matches;
      uint64_t examined = 0;
      ASSERT_TRUE(table_->ScanEqual(0, FieldValue::Int(0), 0, &matches, &examined).ok());
      EXPECT_EQ(matches, std::vector<RecordId>{b});
      EXPECT_EQ(examined, 1u) << "the tombstone is not a record any more";
      EXPECT_TRUE(table_->DeleteRecord(a).IsNotFound());
    }
    ASSERT_TRUE(table_->DeleteRecord(b).ok());
  }
}

// Readers on three threads while a writer adds pairs: every read sees a
// whole value, and the writer's pairs are all there at the end.
TEST_F(WhitedbAdapterTest, ThreadsShareTheDatabaseUnderWhiteDBsLock) {
  ASSERT_TRUE(Open({}).ok());
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(session_->Put("pre" + std::to_string(i), std::string(50, 'a' + i % 26)).ok());
  }
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> s;
      if (!adapter_->NewSession(&s).ok()) {
        ++bad;
        return;
      }
      std::string value;
      for (int i = 0; i < 20000; ++i) {
        const int k = (i * 7 + t) % 1000;
        if (!s->Get("pre" + std::to_string(k), &value).ok() ||
            value != std::string(50, 'a' + k % 26)) {
          ++bad;
        }
      }
    });
  }
  threads.emplace_back([&] {
    std::unique_ptr<Session> s;
    if (!adapter_->NewSession(&s).ok()) {
      ++bad;
      return;
    }
    for (int i = 0; i < 5000; ++i) {
      if (!s->Put("new" + std::to_string(i), std::to_string(i)).ok()) ++bad;
    }
  });
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  std::string value;
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(session_->Get("new" + std::to_string(i), &value).ok());
    ASSERT_EQ(value, std::to_string(i));
  }
}

}  // namespace
}  // namespace kvbench
