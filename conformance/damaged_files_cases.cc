// The "damaged-files" suite: every durable engine, opened on a directory
// that holds another engine's files, or on its own files cut short or
// overwritten with garbage, answers with a Status (OK or an error) and never
// crashes or hangs. A crash inside an engine would end only that engine's
// child process in a run, but the user would read "killed by signal 11"
// where "corrupt file" was the honest answer.
//
// Each attempt runs in a forked child of the case's process (fill, damage
// and reopen all happen there, so no engine thread exists when it forks),
// so a crash is observed and reported naming the attempt and the signal.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "conformance/adapter_fixture.h"
#include "runner/engine_process.h"

namespace kvbench::conformance {
namespace {

namespace fs = std::filesystem;

constexpr int kKeys = 3000;

std::string KeyOf(int i) { return "key/" + std::to_string(i * 7919 % 100003); }
std::string ValueOf(int i) { return std::string(64 + i % 64, static_cast<char>('a' + i % 26)); }

// Writes kKeys keys in batches of 500 and closes; the engine's files on
// return. Aborts the child on failure (the fill is not what is tested).
std::vector<std::string> Fill(const std::string& engine, const std::string& dir) {
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<Session> session;
  Status s = OpenWithDefaults(engine, dir, &adapter);
  if (s.ok()) s = adapter->NewSession(&session);
  for (int i = 0; s.ok() && i < kKeys; ++i) {
    if (i % 500 == 0) s = session->BeginBatch();
    if (s.ok()) s = session->Put(KeyOf(i), ValueOf(i));
    if (s.ok() && (i % 500 == 499 || i == kKeys - 1)) s = session->CommitBatch();
  }
  std::vector<std::string> files;
  if (s.ok()) s = adapter->Sync();
  if (s.ok()) s = adapter->ListFiles(&files);
  session.reset();
  if (s.ok()) s = adapter->Close();
  if (!s.ok()) {
    std::fprintf(stderr, "fill %s: %s\n", engine.c_str(), s.ToString().c_str());
    _exit(3);
  }
  return files;
}

// Opens `engine` on `dir` and, if that works, reads every key and scans
// (ordered engines); any Status is an answer.
void OpenAndRead(const std::string& engine, const std::string& dir) {
  std::unique_ptr<Adapter> adapter;
  Status s = OpenWithDefaults(engine, dir, &adapter);
  std::unique_ptr<Session> session;
  if (s.ok()) s = adapter->NewSession(&session);
  if (s.ok()) {
    std::string value;
    for (int i = 0; i < kKeys; ++i) (void)session->Get(KeyOf(i), &value);
    if (adapter->capabilities().ordered) {
      struct Counting : ScanVisitor {
        bool Visit(Slice, Slice) override { return true; }
      } visitor;
      size_t visited = 0;
      (void)session->Scan("", ScanOptions{.from_edge = true}, &visitor, &visited);
    }
    (void)session->Put("after-damage", "x");
  }
  session.reset();
  if (adapter) (void)adapter->Close();
}

// Runs `body` in a forked child; "" when it exited 0, else how it ended.
template <typename Body>
std::string InChild(Body body) {
  const runner::ChildOutcome outcome = runner::RunInChildProcess(
      [&](int) {
        body();
        return 0;
      },
      60, [](const std::string&) {});
  return outcome.ok ? "" : outcome.failure;
}

void Truncate(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (!ec) fs::resize_file(path, size / 2, ec);
}

// Overwrites 4 KiB (or the whole file when smaller) in the middle of `path`
// with seeded random bytes.
void Scribble(const std::string& path, uint32_t seed) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size == 0) return;
  const uint64_t length = std::min<uint64_t>(4096, size);
  std::mt19937 rng(seed);
  std::string garbage(length, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>((size - length) / 2));
  f.write(garbage.data(), static_cast<std::streamsize>(length));
}

bool Durable(const std::string& engine) {
  std::unique_ptr<Adapter> adapter;
  if (!AdapterRegistry::Global().Create(engine, &adapter).ok()) return false;
  const Capabilities caps = adapter->capabilities();
  return caps.stores_data && caps.durable;
}

std::vector<std::string> DurableEngines() {
  std::vector<std::string> out;
  for (const std::string& name : AdapterRegistry::Global().Names()) {
    if (Durable(name)) out.push_back(name);
  }
  return out;
}

class DamagedFilesFixture : public CaseFixture {
 public:
  static constexpr const char* kSuite = "damaged-files";

  void SetUp() override {
    if (!Durable(engine())) KVB_SKIP() << engine() << " keeps no files across a reopen";
  }
};

KVB_CONFORMANCE_CASE(DamagedFilesFixture, OpensOnEveryOtherEnginesFilesWithoutCrashing) {
  for (const std::string& donor : DurableEngines()) {
    if (donor == engine()) continue;
    ScratchDirectory dir("foreign");
    const std::string outcome = InChild([&] {
      Fill(donor, dir.path());
      OpenAndRead(engine(), dir.path());
    });
    KVB_EXPECT_TRUE(outcome.empty())
        << engine() << " on a directory holding " << donor << "'s files: " << outcome;
  }
}

KVB_CONFORMANCE_CASE(DamagedFilesFixture, OpensItsFilesCutInHalfWithoutCrashing) {
  ScratchDirectory dir("truncated");
  const std::string outcome = InChild([&] {
    for (const std::string& f : Fill(engine(), dir.path())) Truncate(f);
    OpenAndRead(engine(), dir.path());
  });
  KVB_EXPECT_TRUE(outcome.empty())
      << engine() << " with every file cut to half its size: " << outcome;
}

KVB_CONFORMANCE_CASE(DamagedFilesFixture, OpensItsFilesWithGarbageInsideWithoutCrashing) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    ScratchDirectory dir("garbage");
    const std::string outcome = InChild([&] {
      for (const std::string& f : Fill(engine(), dir.path())) Scribble(f, seed);
      OpenAndRead(engine(), dir.path());
    });
    KVB_EXPECT_TRUE(outcome.empty())
        << engine() << " with 4 KiB of garbage in each file (seed " << seed << "): " << outcome;
  }
}

}  // namespace
}  // namespace kvbench::conformance
