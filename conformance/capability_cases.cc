// The "adapter" suite's cases for capabilities that need more than one
// session or a maintenance call: concurrent readers beside a writer,
// concurrent writers, and Reorganize. Each runs only where the engine
// declares the capability (skipped, and shown as skipped, elsewhere): a
// declared capability is a claim the runner relies on, so it is exercised.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "conformance/adapter_fixture.h"

namespace kvbench::conformance {
namespace {

std::string Key(const char* prefix, int i) { return std::string(prefix) + std::to_string(i); }
std::string ValueOf(int i) { return "value-" + std::to_string(i * 31 % 1009); }

// Two sessions read keys written before they started while a third session
// writes new keys and overwrites others: every read sees a value some
// committed write stored, never an error, a torn value or a missing key.
KVB_CONFORMANCE_CASE(AdapterFixture, TwoReadersBesideAWriter) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.concurrent_readers) KVB_SKIP() << engine() << " does not declare concurrent_readers";
  constexpr int kStable = 2000, kWrites = 3000;
  for (int i = 0; i < kStable; ++i) Put(Key("stable/", i), ValueOf(i));
  std::unique_ptr<Session> readers[2], writer;
  for (auto& r : readers) {
    Status s = adapter_->NewSession(&r);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  }
  Status s = adapter_->NewSession(&writer);
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();

  std::atomic<bool> writer_done{false};
  std::atomic<int> bad_reads{0};
  std::thread writing([&] {
    for (int i = 0; i < kWrites; ++i) {
      Status w = writer->Put(Key("new/", i), ValueOf(i));
      // Overwrites of stable keys with the same value: a reader may see
      // either write, both the same bytes.
      if (w.ok()) w = writer->Put(Key("stable/", i % kStable), ValueOf(i % kStable));
      KVB_EXPECT_TRUE(w.ok()) << "writer: " << w.ToString();
      if (!w.ok()) break;
    }
    writer_done = true;
  });
  std::vector<std::thread> reading;
  for (int r = 0; r < 2; ++r) {
    reading.emplace_back([&, r] {
      std::string value;
      for (int round = 0; round < 3 || !writer_done; ++round) {
        for (int i = r; i < kStable; i += 7) {
          Status g = readers[r]->Get(Key("stable/", i), &value);
          if (!g.ok() || value != ValueOf(i)) {
            if (bad_reads++ < 3) {
              KVB_EXPECT_TRUE(g.ok() && value == ValueOf(i))
                  << "reader " << r << " key stable/" << i << ": " << g.ToString() << " "
                  << Show(value);
            }
          }
        }
        if (round > 200) break;  // a writer that never ends is the writer's failure
      }
    });
  }
  writing.join();
  for (auto& t : reading) t.join();
  KVB_EXPECT_EQ(bad_reads.load(), 0);
  for (int i = 0; i < kWrites; i += 97) KVB_EXPECT_EQ(Get(Key("new/", i)), ValueOf(i));
}

// Four sessions write disjoint keys at once; every write is there afterwards.
KVB_CONFORMANCE_CASE(AdapterFixture, FourWritersAtOnce) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.concurrent_writers) KVB_SKIP() << engine() << " does not declare concurrent_writers";
  constexpr int kWriters = 4, kEach = 1500;
  std::vector<std::unique_ptr<Session>> sessions(kWriters);
  for (auto& w : sessions) {
    Status s = adapter_->NewSession(&w);
    KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      const std::string prefix = "writer" + std::to_string(w) + "/";
      for (int i = 0; i < kEach; ++i) {
        // Every fifth write inside a small batch: batches of several sessions at once too.
        const bool batched = i % 5 == 0;
        Status s = batched ? sessions[w]->BeginBatch() : Status::OK();
        if (s.ok()) s = sessions[w]->Put(Key(prefix.c_str(), i), ValueOf(i));
        if (s.ok() && batched) s = sessions[w]->CommitBatch();
        if (!s.ok()) {
          KVB_EXPECT_TRUE(s.ok()) << "writer " << w << " key " << i << ": " << s.ToString();
          return;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int w = 0; w < kWriters; ++w) {
    const std::string prefix = "writer" + std::to_string(w) + "/";
    for (int i = 0; i < kEach; i += 13) KVB_EXPECT_EQ(Get(Key(prefix.c_str(), i)), ValueOf(i));
  }
}

// Reorganize after deleting most keys keeps every live key and returns OK;
// a durable engine keeps them over a reopen too.
KVB_CONFORMANCE_CASE(AdapterFixture, ReorganizeKeepsEveryLiveKey) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.reorganize) {
    // An engine that does not claim it may still have one; it must not fail.
    Status s = adapter_->Reorganize();
    KVB_EXPECT_TRUE(s.ok() || s.IsNotSupported()) << s.ToString();
    KVB_SKIP() << engine() << " does not declare reorganize";
  }
  for (int i = 0; i < 4000; ++i) Put(Key("reorg/", i), std::string(100, 'a' + i % 26));
  for (int i = 0; i < 4000; ++i) {
    if (i % 4 != 0) {
      Status s = session_->Delete(Key("reorg/", i));
      KVB_ASSERT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
    }
  }
  session_.reset();  // maintenance runs with no session open (adapter.h)
  Status s = adapter_->Reorganize();
  KVB_ASSERT_TRUE(s.ok()) << "reorganize: " << s.ToString();
  s = adapter_->NewSession(&session_);
  KVB_ASSERT_TRUE(s.ok()) << s.ToString();
  auto check = [&](const char* when) {
    for (int i = 0; i < 4000; i += 3) {
      KVB_EXPECT_EQ(Get(Key("reorg/", i)),
                    i % 4 == 0 ? std::string(100, 'a' + i % 26) : std::string("<absent>"))
          << when;
    }
  };
  check("after reorganize");
  Put("after-reorganize", "x");
  KVB_EXPECT_EQ(Get("after-reorganize"), "x");
  if (caps_.durable) {
    Reopen();
    if (!ready()) return;
    check("after reorganize and reopen");
  }
}

}  // namespace
}  // namespace kvbench::conformance
