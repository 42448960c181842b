#include "runner/crash/crash_commits.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

namespace kvbench::runner {

namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr size_t kHeaderSize = 22;  // "%010u|%010u|"
constexpr char kKeyPrefix[] = "crash/";

class CountingScan final : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice) override {
    if (key.size() >= sizeof kKeyPrefix - 1 &&
        std::string_view(key.data(), sizeof kKeyPrefix - 1) == kKeyPrefix) {
      ++count;
    } else {
      ++foreign;
    }
    return true;
  }
  uint64_t count = 0;
  uint64_t foreign = 0;
};

}  // namespace

// Writer 0 keeps the single writer's seed, so one writer's trials are what
// they were before there could be several.
CrashCommitStream::CrashCommitStream(uint64_t seed, int writer)
    : seed_(writer == 0 ? seed
                        : Mix(seed ^ Mix(0x777269746572ull + static_cast<uint64_t>(writer)))),
      writer_(writer) {}

CrashCommit CrashCommitStream::Next() {
  uint64_t r = Mix(seed_ ^ Mix(index_++));
  CrashCommit c;
  c.writer = writer_;
  c.batch = (r & 1) != 0;
  const size_t writes = c.batch ? 2 + (r >> 1) % 7 : 1;
  r = Mix(r);
  std::set<uint64_t> seen;
  for (size_t i = 0; i < writes; ++i) {
    r = Mix(r);
    uint64_t key;
    if (next_key_ == 0 || r % 10 < 7) {
      key = next_key_++;
    } else {
      key = (r >> 8) % next_key_;
      if (!seen.insert(key).second) key = next_key_++;  // one write per key in a commit
    }
    seen.insert(key);
    c.keys.push_back(key);
  }
  return c;
}

std::string CrashKey(uint64_t key, int writer) {
  if (writer == 0) return fmt::format("{}{:010}", kKeyPrefix, key);
  return fmt::format("{}w{}/{:010}", kKeyPrefix, writer, key);
}

std::string CrashValue(uint64_t key, uint64_t commit, int writer) {
  std::string v = fmt::format("{:010}|{:010}|", commit, key);
  const uint64_t h = Mix(key * 1000003 + commit + (static_cast<uint64_t>(writer) << 48));
  const size_t filler = 40 + h % 260;
  for (size_t i = 0; i < filler; ++i) v.push_back(static_cast<char>('a' + (h >> (i % 56)) % 26));
  return v;
}

Status ApplyCrashCommit(Session* session, const CrashCommit& c, uint64_t commit) {
  if (c.batch) KVBENCH_RETURN_IF_ERROR(session->BeginBatch());
  for (uint64_t key : c.keys) {
    KVBENCH_RETURN_IF_ERROR(
        session->Put(CrashKey(key, c.writer), CrashValue(key, commit, c.writer)));
  }
  if (c.batch) KVBENCH_RETURN_IF_ERROR(session->CommitBatch());
  return Status::OK();
}

namespace {

// Writer `writer`'s stream up to commit acked (which may have been in
// flight): adds its counts to *out and the keys it found to *found.
Status CheckStream(Session* session, uint64_t seed, int writer, uint64_t acked, bool name_writer,
                   CrashCheck* out, uint64_t* found) {
  CrashCommitStream stream(seed, writer);
  std::vector<CrashCommit> commits;
  std::map<uint64_t, std::vector<uint64_t>> writers;  // key -> commits writing it, ascending
  for (uint64_t i = 0; i <= acked; ++i) {
    commits.push_back(stream.Next());
    for (uint64_t key : commits.back().keys) writers[key].push_back(i);
  }
  auto note = [&](const std::string& problem) {
    if (out->first_problem.empty()) {
      out->first_problem = name_writer ? fmt::format("writer {}: {}", writer, problem) : problem;
    }
  };

  // What each key holds: the commit whose value it is, or -1 when absent.
  std::map<uint64_t, int64_t> holds;
  std::string value;
  for (const auto& [key, by] : writers) {
    const std::string name = CrashKey(key, writer);
    Status s = session->Get(name, &value);
    if (s.IsNotFound()) {
      holds[key] = -1;
      continue;
    }
    if (!s.ok()) return s.WithContext("get " + name);
    ++*found;
    uint64_t commit = 0;
    const bool parsed = value.size() > kHeaderSize &&
                        std::all_of(value.begin(), value.begin() + 10, ::isdigit) &&
                        (commit = std::stoull(value.substr(0, 10)), true);
    if (!parsed || std::find(by.begin(), by.end(), commit) == by.end() ||
        value != CrashValue(key, commit, writer)) {
      ++out->bad_values;
      note(fmt::format("{} holds a value no commit up to {} wrote", name, acked));
      holds[key] = -1;  // counted as corrupt, not as lost
      continue;
    }
    holds[key] = static_cast<int64_t>(commit);
  }

  // Acknowledged commits (0 .. acked-1) with a write missing.
  std::set<uint64_t> lost;
  uint64_t newest_present = 0;
  for (const auto& [key, by] : writers) {
    const int64_t held = holds[key];
    if (held >= 0) newest_present = std::max(newest_present, static_cast<uint64_t>(held));
    for (uint64_t c : by) {
      if (c<acked&& static_cast<int64_t>(c)> held) lost.insert(c);
    }
  }
  out->commits_lost += lost.size();
  if (!lost.empty()) {
    note(fmt::format("acknowledged commit {} (of {}) is missing", *lost.begin(), acked));
    out->reordered = out->reordered || newest_present > *lost.begin();
  }

  // Batches that are partly there.
  for (uint64_t i = 0; i < commits.size(); ++i) {
    if (!commits[i].batch) continue;
    bool some_there = false, some_missing = false;
    for (uint64_t key : commits[i].keys) {
      const int64_t held = holds[key];
      if (held == static_cast<int64_t>(i)) some_there = true;
      if (held < static_cast<int64_t>(i)) some_missing = true;
    }
    if (some_there && some_missing) {
      ++out->partial_batches;
      note(fmt::format("batch commit {} is only partly there", i));
    }
  }
  return Status::OK();
}

}  // namespace

Status CheckCrashState(Session* session, bool ordered, uint64_t seed,
                       const std::vector<uint64_t>& acked, CrashCheck* out) {
  *out = CrashCheck{};
  uint64_t found = 0;
  for (size_t w = 0; w < acked.size(); ++w) {
    KVBENCH_RETURN_IF_ERROR(
        CheckStream(session, seed, static_cast<int>(w), acked[w], acked.size() > 1, out, &found));
  }
  if (ordered) {
    CountingScan scan;
    size_t visited = 0;
    ScanOptions all;
    all.from_edge = true;
    all.keys_only = true;
    Status s = session->Scan(Slice(), all, &scan, &visited);
    if (!s.ok()) return s.WithContext("full scan");
    if (scan.count != found || scan.foreign != 0) {
      out->extra_keys = scan.count + scan.foreign > found ? scan.count + scan.foreign - found : 0;
      if (out->first_problem.empty()) {
        out->first_problem = fmt::format("the full scan saw {} entries, the gets found {}",
                                         scan.count + scan.foreign, found);
      }
      if (out->extra_keys == 0) out->extra_keys = 1;  // fewer: the scan misses entries
    }
  }
  return Status::OK();
}

Status CheckCrashState(Session* session, bool ordered, uint64_t seed, uint64_t acked,
                       CrashCheck* out) {
  return CheckCrashState(session, ordered, seed, std::vector<uint64_t>{acked}, out);
}

}  // namespace kvbench::runner
