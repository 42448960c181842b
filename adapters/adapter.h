// The adapter contract: how kvbench talks to every storage engine.
//
// An engine is wrapped by one Adapter (the opened database) and hands out
// Sessions (one per client thread) that carry the data operations. The runner
// times every call from outside; adapters never read clocks, print, or
// allocate per call more than their engine needs.
//
// Keys and values are binary-safe byte strings (NUL bytes allowed). Every
// adapter accepts keys up to at least 2 KiB and values up to at least 1 MiB.
// Empty values are allowed; empty keys are not required to be.
//
// Errors come back as a Status, never as an exception or a crash. NotFound is a
// normal answer. NotSupported means the engine cannot do the operation at all
// (the runner reports it as "unsupported", not as a failure).
//
// Lifetimes: the Adapter outlives every Session it created; Close() is only
// called after all Sessions are destroyed. Slices passed into a call are valid
// for that call only; Slices passed to a ScanVisitor are valid only inside
// Visit().
//
// Thread-safety: Adapter methods (Open, Close, Sync, ListFiles, Reorganize,
// NewSession) are called from one thread at a time, never concurrently with
// session calls except NewSession. Each Session is used by one thread at a
// time. Sessions of one Adapter may run on different threads at once; an
// engine that cannot serve that safely serialises inside the adapter and says
// so by leaving concurrent_readers / concurrent_writers false.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "adapters/engine_options.h"
#include "adapters/record.h"
#include "common/status.h"

namespace kvbench {

// What an engine can do. The runner reads these instead of guessing: it skips
// scans on unordered engines and aborts only on transactional ones. Writing
// client threads on an engine without concurrent_writers do run at once: the
// adapter lets one writer in at a time (a plugin engine's, the plugin host,
// adapters/plugin/plugin_adapter.cc), and the plan says so for every such
// phase (runner/run_plan.cc), so those rows are read as clients sharing one
// writer, not as parallel writes.
struct Capabilities {
  bool stores_data = true;     // false only for `null`: it keeps nothing
  bool ordered = false;        // Scan works, in unsigned byte order of keys
  bool transactional = false;  // a batch commits atomically and AbortBatch discards it;
                               // false: batches are grouping only ("emulated")
  bool durable = false;        // committed data survives Close() and a reopen
  bool concurrent_readers = false;  // sessions on several threads read in parallel
  bool concurrent_writers = false;  // sessions on several threads write in parallel
  bool native_records = false;      // the engine stores typed records itself
  bool native_secondary_index = false;  // the engine maintains secondary indexes itself
  bool reorganize = false;          // Reorganize() compacts the files
  // Longest key the engine can store, in bytes; 0 means at least 2 KiB (the
  // contract's floor). LMDB as Debian builds it stores at most 511. Puts of
  // longer keys return InvalidArgument; the runner checks a dataset's longest
  // key against this before a run and reports the engine as unsupported.
  size_t max_key_size = 0;
};

// What an acknowledged commit (Put/Delete outside a batch, or CommitBatch,
// returned OK) is promised to survive, by the engine's own documentation under
// the options given. `kvbench crash` measures the same faults and reports any
// disagreement; a declaration that promises more than was measured is a
// finding, so declare only what the engine's documentation promises.
enum class FaultPromise {
  kNothing,     // no promise: acknowledged commits may be lost, the files may not open
  kConsistent,  // the files open and hold the state after some earlier commit; recent
                // acknowledged commits may be missing
  kDurable,     // every acknowledged commit is there
};

struct DurabilityDeclaration {
  // The process is killed (SIGKILL): the operating system's page cache
  // survives, the engine's own memory does not.
  FaultPromise process_crash = FaultPromise::kNothing;
  // The power is cut: only what was fsynced (fdatasync, msync, directory
  // fsync for names) survives.
  FaultPromise power_loss = FaultPromise::kNothing;
  // After either fault a batch is all there or not at all.
  bool atomic_batches = false;
  // One line for the report: the option values that decide it and the
  // documentation's words for it ("sqlite.synchronous=off: no fsync at commit").
  // Empty only in the contract's default (nothing declared).
  std::string basis;
};

enum class ScanDirection { kForward, kBackward };

struct ScanOptions {
  ScanDirection direction = ScanDirection::kForward;
  // At most this many entries are visited; 0 means no limit.
  size_t limit = 0;
  // Ignore the start key: begin at the first key (forward) or the last key
  // (backward).
  bool from_edge = false;
  // The visitor does not need values; an engine may then skip reading them and
  // pass empty Slices.
  bool keys_only = false;
};

class ScanVisitor {
 public:
  virtual ~ScanVisitor() = default;
  // Called once per entry in scan order. `key` and `value` are valid only for
  // the duration of the call. Return false to stop the scan early.
  virtual bool Visit(Slice key, Slice value) = 0;
};

// One client's view of an opened engine. Not thread-safe: one thread at a time.
//
// Outside a batch each write is its own transaction (autocommit). Between
// BeginBatch and CommitBatch writes are grouped: on a transactional engine they
// become visible together at commit and AbortBatch discards them; on other
// engines the adapter emulates the grouping (Capabilities::transactional is
// false) and AbortBatch returns NotSupported. Reads inside a batch are allowed;
// whether they see the batch's own writes is engine-defined.
//
// Misuse of batches is InvalidArgument, worded alike by every engine and
// leaving the session as it was: "begin batch: a batch is already open",
// "commit batch: no batch open", "abort batch: no batch open" (a
// transactional engine's AbortBatch). adapters/support/batch_state.h gives
// these answers; the conformance suite asserts the words.
class Session {
 public:
  virtual ~Session() = default;

  // Inserts or overwrites. Returns OK, or an error status.
  virtual Status Put(Slice key, Slice value) = 0;
  // Copies the value into *value (replacing its contents; the caller reuses the
  // string so no allocation happens after warm-up). NotFound when absent.
  virtual Status Get(Slice key, std::string* value) = 0;
  // Removes the key. Deleting an absent key returns OK or NotFound, both of
  // which the runner treats as success.
  virtual Status Delete(Slice key) = 0;

  virtual Status BeginBatch() = 0;
  virtual Status CommitBatch() = 0;
  virtual Status AbortBatch() = 0;

  // Ordered engines: visits entries from `start` (keys >= start forward,
  // keys <= start backward) in byte order. Unordered engines return
  // NotSupported. `*visited` (optional) receives the number of Visit calls.
  virtual Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
                      size_t* visited) {
    return Status::NotSupported("scan: engine is not ordered");
  }

  // Opens the record table `spec.name` (adapters/record.h), creating it when
  // absent. InvalidArgument when the stored table's field count differs from
  // the spec's. The default is the shared record layer over this Session's
  // Put/Get/Delete/Scan; engines with records of their own (native, sqlite)
  // override it.
  virtual Status OpenRecordTable(const RecordTableSpec& spec, std::unique_ptr<RecordTable>* table) {
    return OpenKvRecordTable(this, spec, table);
  }
};

struct OpenRequest {
  // A directory that belongs to this engine alone; it exists when Open is
  // called. The engine keeps every file it writes inside it.
  std::string directory;
  // Resolved options: every OptionSpec's default plus the workload's overrides.
  EngineOptions options;
};

// One opened engine instance.
class Adapter {
 public:
  virtual ~Adapter() = default;

  // The engine library's own version string (e.g. sqlite3_libversion()).
  virtual std::string LibraryVersion() const = 0;
  // Options this adapter understands, with defaults (the seeds' settings).
  virtual std::vector<OptionSpec> OptionSpecs() const = 0;
  // Valid before Open (reporting the defaults) and after it (reflecting the
  // options it was opened with).
  virtual Capabilities capabilities() const = 0;

  // Checks resolved option values (types, ranges, enumerations, conflicts
  // between options) without touching any file, so `kvbench validate` and
  // `kvbench run` refuse a bad value before any engine starts. Must accept
  // exactly what Open() accepts: implement both with one parser of the
  // adapter's settings. InvalidArgument "option 'x': ..." naming the option.
  virtual Status CheckOptions(const EngineOptions& options) const = 0;

  // Opens or creates the database in request.directory. InvalidArgument for an
  // option value the engine rejects (the message names the option).
  virtual Status Open(const OpenRequest& request) = 0;
  // Flushes and closes. Safe to call when not open. All Sessions must be gone.
  virtual Status Close() = 0;

  // A new client session; may be called from any thread while others run.
  virtual Status NewSession(std::unique_ptr<Session>* session) = 0;

  // Forces committed data to stable storage (fsync or the engine's
  // equivalent), whatever the sync options say. In-memory engines return OK.
  virtual Status Sync() = 0;

  // Absolute paths of every file the engine owns now (for file sizes and page
  // cache eviction). In-memory engines return an empty list.
  virtual Status ListFiles(std::vector<std::string>* paths) const = 0;

  // Rewrites the files compactly (sqlite VACUUM, pbtree reorganize...).
  // NotSupported when the engine has no such operation.
  virtual Status Reorganize() { return Status::NotSupported("reorganize"); }

  // What a commit survives under `options` (resolved, and accepted by
  // CheckOptions). Valid before Open; touches no file. Every adapter whose
  // capabilities say durable overrides it (the conformance suite checks that
  // `basis` is filled in); the default promises nothing.
  virtual DurabilityDeclaration DeclareDurability(const EngineOptions& options) const { return {}; }

  // The engine's own consistency check of the open database (sqlite
  // integrity_check, pbtree's Check): OK, Corruption naming the first
  // problem, or NotSupported when the engine has none. May read every page.
  virtual Status CheckIntegrity() { return Status::NotSupported("integrity check"); }
};

}  // namespace kvbench
