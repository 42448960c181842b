// The adapter conformance suite ("adapter"): round trips, overwrite, delete,
// NotFound, NUL bytes, 2 KiB keys, empty and 1 MiB values, committed and
// aborted batches, the words of batch misuse, reopen, ordered scans both
// ways, the listed files, and 100,000 random operations checked against
// std::map. Cases that need a capability the engine does not claim are
// skipped (and shown as skipped), never silently passed. The capabilities
// that need several sessions or Reorganize are in capability_cases.cc.
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "conformance/adapter_fixture.h"

namespace kvbench::conformance {
namespace {

namespace fs = std::filesystem;

KVB_CONFORMANCE_CASE(AdapterFixture, PutGetRoundTrip) {
  SKIP_UNLESS_STORES_DATA();
  Put("alpha", "one");
  Put("beta", "two");
  KVB_EXPECT_EQ(Get("alpha"), "one");
  KVB_EXPECT_EQ(Get("beta"), "two");
}

KVB_CONFORMANCE_CASE(AdapterFixture, OverwriteReplacesValue) {
  SKIP_UNLESS_STORES_DATA();
  Put("key", "first value, longer than the second");
  Put("key", "second");
  KVB_EXPECT_EQ(Get("key"), "second");
}

KVB_CONFORMANCE_CASE(AdapterFixture, DeleteRemovesKey) {
  SKIP_UNLESS_STORES_DATA();
  Put("doomed", "x");
  Put("kept", "y");
  Status s = session_->Delete("doomed");
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  KVB_EXPECT_EQ(Get("doomed"), "<absent>");
  KVB_EXPECT_EQ(Get("kept"), "y");
  s = session_->Delete("never-there");
  KVB_EXPECT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
}

KVB_CONFORMANCE_CASE(AdapterFixture, MissingKeyIsNotFound) {
  SKIP_UNLESS_STORES_DATA();
  Put("present", "1");
  std::string v = "unchanged";
  Status s = session_->Get("absent", &v);
  KVB_EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

KVB_CONFORMANCE_CASE(AdapterFixture, KeysAndValuesWithNulBytes) {
  SKIP_UNLESS_STORES_DATA();
  const std::string k1("a\0b", 3), k2("a\0c", 3), k3("a", 1);
  const std::string v1("\0\0value\0", 8);
  Put(k1, v1);
  Put(k2, "second");
  Put(k3, "short");
  KVB_EXPECT_EQ(Get(k1), v1);
  KVB_EXPECT_EQ(Get(k2), "second");
  KVB_EXPECT_EQ(Get(k3), "short");
  KVB_EXPECT_EQ(Get(std::string("a\0", 2)), "<absent>");
}

KVB_CONFORMANCE_CASE(AdapterFixture, TwoKiBKeys) {
  SKIP_UNLESS_STORES_DATA();
  if (caps_.max_key_size != 0) {
    // An engine with a smaller limit says so: the longest key it claims works,
    // one byte more is refused with InvalidArgument, never stored truncated.
    KVB_ASSERT_LT(caps_.max_key_size, 2048u);
    std::string longest(caps_.max_key_size, 'k');
    Put(longest, "max");
    KVB_EXPECT_EQ(Get(longest), "max");
    Status s = session_->Put(longest + "k", "too long");
    KVB_EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    KVB_EXPECT_EQ(Get(longest + "k"), "<absent>");
    return;
  }
  std::string a(2048, 'k'), b(2048, 'k');
  b.back() = 'z';
  Put(a, "a");
  Put(b, "b");
  KVB_EXPECT_EQ(Get(a), "a");
  KVB_EXPECT_EQ(Get(b), "b");
}

KVB_CONFORMANCE_CASE(AdapterFixture, EmptyValue) {
  SKIP_UNLESS_STORES_DATA();
  Put("empty", "");
  std::string v = "not empty";
  Status s = session_->Get("empty", &v);
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  KVB_EXPECT_EQ(v, "");
}

KVB_CONFORMANCE_CASE(AdapterFixture, OneMiBValue) {
  SKIP_UNLESS_STORES_DATA();
  std::string big(1 << 20, '\0');
  std::mt19937_64 rng(7);
  for (char& c : big) c = static_cast<char>(rng());
  Put("big", big);
  Put("after", "small");
  KVB_EXPECT_EQ(Get("big"), big);
  KVB_EXPECT_EQ(Get("after"), "small");
}

KVB_CONFORMANCE_CASE(AdapterFixture, CommittedBatchIsVisible) {
  SKIP_UNLESS_STORES_DATA();
  KVB_ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 100; ++i) Put("batch" + std::to_string(i), std::to_string(i));
  KVB_ASSERT_TRUE(session_->Delete("batch7").ok());
  Status s = session_->CommitBatch();
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  KVB_EXPECT_EQ(Get("batch0"), "0");
  KVB_EXPECT_EQ(Get("batch99"), "99");
  KVB_EXPECT_EQ(Get("batch7"), "<absent>");
}

KVB_CONFORMANCE_CASE(AdapterFixture, AbortedBatchIsGone) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.transactional) KVB_SKIP() << engine() << " emulates batches";
  Put("before", "kept");
  KVB_ASSERT_TRUE(session_->BeginBatch().ok());
  Put("inside", "dropped");
  Put("before", "overwritten");
  Status s = session_->AbortBatch();
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  KVB_EXPECT_EQ(Get("inside"), "<absent>");
  KVB_EXPECT_EQ(Get("before"), "kept");
}

// Batch misuse (adapters/adapter.h, Session) is InvalidArgument in the same
// words on every engine, and leaves the session as it was. Every engine has
// batches (null too), so none is skipped; AbortBatch is a mistake to word
// only where it exists: on an engine that emulates batches it may be
// NotSupported with or without a batch open. A plugin engine's messages reach
// us through the plugin host, which puts the engine's name before each one.
KVB_CONFORMANCE_CASE(AdapterFixture, BatchMisuseIsWordedAlike) {
  const AdapterInfo* info = AdapterRegistry::Global().Find(engine());
  const std::string prefix =
      info != nullptr && !info->plugin_path.empty() ? engine() + ": " : std::string();
  const auto expect_misuse = [&](const Status& s, const std::string& words, const char* when) {
    KVB_EXPECT_TRUE(s.IsInvalidArgument()) << when << ": " << s.ToString();
    KVB_EXPECT_EQ(s.message(), prefix + words) << when;
  };

  expect_misuse(session_->CommitBatch(), "commit batch: no batch open", "commit, none open");
  Status s = session_->AbortBatch();
  if (caps_.transactional || !s.IsNotSupported()) {
    expect_misuse(s, "abort batch: no batch open", "abort, none open");
  }

  s = session_->BeginBatch();
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  if (caps_.stores_data) Put("in the batch", "kept");
  expect_misuse(session_->BeginBatch(), "begin batch: a batch is already open",
                "begin, one open");
  // The refused begin left the first batch open, with its writes.
  s = session_->CommitBatch();
  KVB_ASSERT_TRUE(s.ok()) << "commit after a refused begin: " << s.ToString();
  if (caps_.stores_data) {
    KVB_EXPECT_EQ(Get("in the batch"), "kept");
  }

  // And once a batch has come and gone, the same answers as before any.
  expect_misuse(session_->CommitBatch(), "commit batch: no batch open", "commit after a commit");
  if (caps_.transactional) {
    expect_misuse(session_->AbortBatch(), "abort batch: no batch open", "abort after a commit");
  }
}

KVB_CONFORMANCE_CASE(AdapterFixture, ReopenKeepsCommittedData) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.durable) KVB_SKIP() << engine() << " is not durable";
  Put("single", "autocommitted");
  KVB_ASSERT_TRUE(session_->BeginBatch().ok());
  Put("batched", "committed");
  KVB_ASSERT_TRUE(session_->CommitBatch().ok());
  KVB_ASSERT_TRUE(session_->Delete("single").ok());
  Reopen();
  if (!ready()) return;
  KVB_EXPECT_EQ(Get("batched"), "committed");
  KVB_EXPECT_EQ(Get("single"), "<absent>");
}

KVB_CONFORMANCE_CASE(AdapterFixture, OrderedScansInByteOrder) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.ordered) {
    CollectingVisitor visitor;
    KVB_EXPECT_TRUE(session_->Scan("", ScanOptions{}, &visitor, nullptr).IsNotSupported());
    return;
  }
  // Byte order, not signed-char order: 0x80 sorts after 'z'.
  const std::vector<std::string> keys = {"b", "ba", "bb", "c", "d", "z", "\x80", "\xff"};
  for (const auto& k : keys) Put(k, "v" + k);

  ScanOptions fwd;
  fwd.limit = 3;
  auto got = Scan("b", fwd);
  KVB_ASSERT_EQ(got.size(), 3u);
  KVB_EXPECT_EQ(got[0].first, "b");
  KVB_EXPECT_EQ(got[1].first, "ba");
  KVB_EXPECT_EQ(got[2].first, "bb");
  KVB_EXPECT_EQ(got[0].second, "vb");

  got = Scan("bc", fwd);  // between keys: starts at the next one
  KVB_ASSERT_EQ(got.size(), 3u);
  KVB_EXPECT_EQ(got[0].first, "c");

  ScanOptions all;
  got = Scan("\x81", all);
  KVB_ASSERT_EQ(got.size(), 1u);
  KVB_EXPECT_EQ(got[0].first, "\xff");

  ScanOptions back;
  back.direction = ScanDirection::kBackward;
  back.limit = 2;
  got = Scan("bz", back);  // between keys: starts at the previous one
  KVB_ASSERT_EQ(got.size(), 2u);
  KVB_EXPECT_EQ(got[0].first, "bb");
  KVB_EXPECT_EQ(got[1].first, "ba");

  back.limit = 0;
  got = Scan("c", back);
  KVB_ASSERT_EQ(got.size(), 4u);
  KVB_EXPECT_EQ(got[0].first, "c");
  KVB_EXPECT_EQ(got[3].first, "b");

  ScanOptions edge;
  edge.from_edge = true;
  edge.direction = ScanDirection::kBackward;
  edge.limit = 1;
  got = Scan("", edge);
  KVB_ASSERT_EQ(got.size(), 1u);
  KVB_EXPECT_EQ(got[0].first, "\xff");
  edge.direction = ScanDirection::kForward;
  got = Scan("zzz", edge);
  KVB_ASSERT_EQ(got.size(), 1u);
  KVB_EXPECT_EQ(got[0].first, "b");

  // A visitor that stops early.
  struct StopAfterTwo : ScanVisitor {
    int seen = 0;
    bool Visit(Slice, Slice) override { return ++seen < 2; }
  } stopper;
  size_t visited = 0;
  KVB_ASSERT_TRUE(session_->Scan("", edge, &stopper, &visited).ok());
  KVB_EXPECT_LE(stopper.seen, 2);
}

KVB_CONFORMANCE_CASE(AdapterFixture, ListedFilesExistAndAccountForTheDirectory) {
  SKIP_UNLESS_STORES_DATA();
  for (int i = 0; i < 1000; ++i) Put("file-key-" + std::to_string(i), std::string(100, 'v'));
  KVB_ASSERT_TRUE(adapter_->Sync().ok());
  std::vector<std::string> files;
  KVB_ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  uint64_t listed = 0;
  for (const auto& f : files) {
    KVB_ASSERT_TRUE(fs::is_regular_file(f)) << f;
    listed += fs::file_size(f);
  }
  uint64_t on_disk = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_.path())) {
    if (entry.is_regular_file()) on_disk += entry.file_size();
  }
  // Every byte in the engine's directory belongs to a listed file.
  KVB_EXPECT_EQ(listed, on_disk);
  if (caps_.durable) {
    KVB_EXPECT_GT(listed, 1000u * 100u / 4) << "data of a durable engine is on disk";
  }
}

KVB_CONFORMANCE_CASE(AdapterFixture, NullEngineAcceptsEverything) {
  if (caps_.stores_data) KVB_SKIP() << engine() << " stores data";
  KVB_EXPECT_TRUE(session_->Put("k", "v").ok());
  std::string v = "x";
  KVB_EXPECT_TRUE(session_->Get("k", &v).ok());
  KVB_EXPECT_TRUE(v.empty());
  KVB_EXPECT_TRUE(session_->Delete("k").ok());
}

// 100,000 random operations (puts, overwrites, deletes, gets, batches and, on
// ordered engines, scans) cross-checked against std::map with a fixed seed.
KVB_CONFORMANCE_CASE(AdapterFixture, RandomOperationsMatchStdMap) {
  SKIP_UNLESS_STORES_DATA();
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(20261122);
  auto random_key = [&] {
    // A small key space so that overwrites, deletes and hits are common.
    const uint64_t n = rng() % 5000;
    std::string k = std::string("k").append(std::to_string(n * 7919 % 5000));
    if (n % 11 == 0) k.push_back('\0');
    return k;
  };
  bool in_batch = false;
  std::map<std::string, std::optional<std::string>> pending;
  std::string value;
  for (int op = 0; op < 100000; ++op) {
    const int dice = static_cast<int>(rng() % 100);
    if (dice < 40) {
      const std::string k = random_key();
      const std::string v = std::string(rng() % 64, 'a' + static_cast<char>(rng() % 26));
      KVB_ASSERT_TRUE(session_->Put(k, v).ok());
      if (in_batch)
        pending[k] = v;
      else
        model[k] = v;
    } else if (dice < 55) {
      const std::string k = random_key();
      Status s = session_->Delete(k);
      KVB_ASSERT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
      if (in_batch)
        pending[k] = std::nullopt;
      else
        model.erase(k);
    } else if (dice < 90) {
      if (in_batch) continue;  // reads inside a batch are engine-defined
      const std::string k = random_key();
      Status s = session_->Get(k, &value);
      auto it = model.find(k);
      if (it == model.end()) {
        KVB_ASSERT_TRUE(s.IsNotFound()) << "op " << op << " key " << k << ": " << s.ToString();
      } else {
        KVB_ASSERT_TRUE(s.ok()) << "op " << op << " key " << k << ": " << s.ToString();
        KVB_ASSERT_EQ(value, it->second) << "op " << op;
      }
    } else if (dice < 95) {
      if (!caps_.ordered || in_batch) continue;
      const std::string start = random_key();
      ScanOptions options;
      options.limit = 1 + rng() % 20;
      options.direction = rng() % 2 ? ScanDirection::kForward : ScanDirection::kBackward;
      auto got = Scan(start, options);
      std::vector<std::pair<std::string, std::string>> expected;
      if (options.direction == ScanDirection::kForward) {
        for (auto it = model.lower_bound(start);
             it != model.end() && expected.size() < options.limit; ++it)
          expected.emplace_back(*it);
      } else {
        for (auto it = model.upper_bound(start);
             it != model.begin() && expected.size() < options.limit;) {
          --it;
          expected.emplace_back(*it);
        }
      }
      KVB_ASSERT_EQ(got, expected) << "op " << op;
    } else {
      if (!in_batch) {
        KVB_ASSERT_TRUE(session_->BeginBatch().ok());
        in_batch = true;
      } else if (caps_.transactional && rng() % 4 == 0) {
        KVB_ASSERT_TRUE(session_->AbortBatch().ok());
        pending.clear();
        in_batch = false;
      } else {
        KVB_ASSERT_TRUE(session_->CommitBatch().ok());
        for (auto& [k, v] : pending) {
          if (v)
            model[k] = *v;
          else
            model.erase(k);
        }
        pending.clear();
        in_batch = false;
      }
    }
  }
  if (in_batch) {
    KVB_ASSERT_TRUE(session_->CommitBatch().ok());
    for (auto& [k, v] : pending) {
      if (v)
        model[k] = *v;
      else
        model.erase(k);
    }
  }
  for (const auto& [k, v] : model) KVB_ASSERT_EQ(Get(k), v) << k;
}

}  // namespace
}  // namespace kvbench::conformance
