// The commits a crash trial writes, and the check of what an engine holds
// after the fault.
//
// Commit i is a pure function of (seed, i): a batch of 2..8 writes with
// probability 1/2, else one write; each write inserts a new key (70%) or
// overwrites an earlier one. The value names its commit and key
// ("0000000042|0000000007|" then filler bytes that depend on both), so the
// check can tell, for every key, which commit's value it holds, and that the
// bytes are exactly what that commit wrote.
//
// "Acknowledged": commit i returned OK to the writer and the writer then told
// the parent so. With `acked` commits acknowledged (0 .. acked-1), commit
// `acked` may have been in flight: it may be there or not, nothing later may.
//
// Several writers (`kvbench crash --writers N`): writer w commits a stream of
// its own at the same time as the others, on a thread and session of its
// own: writer 0's is the single writer's, writer w's has its own seed and
// keys ("crash/w<w>/..."), so the check holds each writer to its own acked
// count: each writer's commits are in order, the writers' are not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"

namespace kvbench::runner {

struct CrashCommit {
  std::vector<uint64_t> keys;  // distinct key ids, in write order
  bool batch = false;          // written between BeginBatch and CommitBatch
  int writer = 0;              // whose stream: the keys' and values' namespace
};

class CrashCommitStream {
 public:
  // Writer `writer`'s stream of the trial of `seed`.
  explicit CrashCommitStream(uint64_t seed, int writer = 0);
  // Commit `index`; commits must be asked for in order 0, 1, 2... (the key
  // ids a commit inserts depend on the ones before).
  CrashCommit Next();
  uint64_t keys_used() const { return next_key_; }

 private:
  uint64_t seed_;
  int writer_;
  uint64_t index_ = 0;
  uint64_t next_key_ = 0;
};

std::string CrashKey(uint64_t key, int writer = 0);
std::string CrashValue(uint64_t key, uint64_t commit, int writer = 0);

// Writes commit `commit` of writer c.writer's stream through `session` (a
// batch, or a single Put).
Status ApplyCrashCommit(Session* session, const CrashCommit& c, uint64_t commit);

// What the check found in the recovered database.
struct CrashCheck {
  uint64_t commits_lost = 0;     // acknowledged commits with a write missing
  uint64_t partial_batches = 0;  // batches with some writes there and some missing
  uint64_t bad_values = 0;       // values that no commit wrote (or from a commit not yet made)
  uint64_t extra_keys = 0;       // ordered engines: entries the scan found beyond the written keys
  bool reordered = false;        // a later commit is there while an earlier acked one is lost
  std::string first_problem;     // one line about the first problem seen, for the report
};

// Reads every key ever written by commits 0..acked[w] of each writer w's
// stream of `seed` through `session` (and, when `ordered`, scans
// everything) and compares. Counts are summed over the writers; a problem
// line names its writer when there are several.
Status CheckCrashState(Session* session, bool ordered, uint64_t seed,
                       const std::vector<uint64_t>& acked, CrashCheck* out);
// One writer.
Status CheckCrashState(Session* session, bool ordered, uint64_t seed, uint64_t acked,
                       CrashCheck* out);

}  // namespace kvbench::runner
