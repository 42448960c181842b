#include "engines/pbtree/verify_file.h"

#include <cstdio>
#include <memory>
#include <vector>

#include "engines/pbtree/pbtree.h"

namespace pbtree {
namespace {

// Bounds every walk: a damaged file can make an internal page name the same
// child many times, and such a tree is finite but may be very large.
constexpr uint64_t kMaxSteps = 20000;
constexpr size_t kSampleKeys = 32;

void ReadEverything(DB* db, bool consistent, VerifyOutcome* out, std::vector<std::string>* sample) {
  std::unique_ptr<Cursor> c = db->NewCursor();
  uint64_t n = 0;
  for (c->SeekToFirst(); c->Valid() && n < kMaxSteps; c->Next(), ++n) {
    if (sample->size() < kSampleKeys) sample->emplace_back(c->key());
    c->value();
  }
  out->keys_visited = n;
  if (consistent && c->status().ok() && n < kMaxSteps && n != db->Count()) {
    out->bug = "forward scan visited " + std::to_string(n) + " keys, Count() is " +
               std::to_string(db->Count());
  }
  if (consistent && !c->status().ok()) out->bug = "scan failed on a checked file: " + c->status().ToString();
  uint64_t back = 0;
  for (c->SeekToLast(); c->Valid() && back < kMaxSteps; c->Prev(), ++back) c->value();
  if (consistent && back < kMaxSteps && back != n && out->bug.empty()) {
    out->bug = "backward scan visited " + std::to_string(back) + " keys, forward " +
               std::to_string(n);
  }
  std::string value;
  for (const std::string& key : *sample) {
    Status s = db->Get(key, &value);
    if (consistent && !s.ok() && out->bug.empty()) out->bug = "Get of a scanned key: " + s.ToString();
    c->Seek(key);
    if (consistent && (!c->Valid() || c->key() != key) && out->bug.empty()) {
      out->bug = "Seek did not find a scanned key";
    }
    c->SeekForPrev(key);
    c->Skip(3);
    c->SkipBackward(5);
  }
  Stats stats;
  Status s = db->GetStats(&stats);
  if (consistent && !s.ok() && out->bug.empty()) out->bug = "GetStats: " + s.ToString();
}

void WriteAndRecheck(DB* db, const std::vector<std::string>& sample, VerifyOutcome* out) {
  std::unique_ptr<WriteTxn> txn;
  Status s = db->BeginWrite(&txn);
  if (!s.ok()) {
    out->bug = "BeginWrite: " + s.ToString();
    return;
  }
  uint64_t expected = db->Count();
  for (size_t i = 0; i < sample.size() && s.ok(); i += 2) {
    s = txn->Delete(sample[i]);
    --expected;
  }
  const size_t sizes[] = {0, 100, 5000, 70000};
  for (size_t i = 0; i < 8 && s.ok(); ++i) {
    std::string key = "\xff" "fuzz-" + std::to_string(i);
    std::string exists;
    if (txn->Get(key, &exists).IsNotFound()) ++expected;
    s = txn->Put(key, std::string(sizes[i % 4], static_cast<char>('a' + i)));
  }
  if (s.ok()) s = txn->Commit();
  if (!s.ok()) {
    out->bug = "writes to a checked file: " + s.ToString();
    return;
  }
  if (db->Count() != expected) out->bug = "Count() after writes is wrong";
  s = db->Check();
  if (!s.ok()) {
    out->bug = "Check after writes: " + s.ToString();
    return;
  }
  s = db->Reorganize();
  if (s.ok()) s = db->Check();
  if (!s.ok()) out->bug = "Reorganize: " + s.ToString();
  if (db->Count() != expected) out->bug = "Count() after Reorganize is wrong";
}

}  // namespace

VerifyOutcome VerifyFile(const std::string& path, bool verify_checksums) {
  VerifyOutcome out;
  Options options;
  options.create_if_missing = false;
  options.verify_checksums = verify_checksums;
  options.cache_bytes = 64 << 10;  // small, so that reads also evict
  // The input is the file alone: no log of an earlier input is replayed
  // onto it, and none is left behind.
  const std::string log = path + "-log";
  std::remove(log.c_str());
  std::unique_ptr<DB> db;
  out.open = DB::Open(options, path, &db);
  if (out.open.ok()) {
    out.check = db->Check();
    std::vector<std::string> sample;
    ReadEverything(db.get(), out.check.ok(), &out, &sample);
    if (out.check.ok() && out.bug.empty()) WriteAndRecheck(db.get(), sample, &out);
    db.reset();
  }
  std::remove(log.c_str());
  return out;
}

}  // namespace pbtree
