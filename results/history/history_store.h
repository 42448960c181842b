// The history store: every run added to it, with every figure and its
// repetitions, the run's environment, kvbench revision, engine library
// versions, workload hash and host fingerprint (docs/history.md).
//
// One small interface; OpenHistoryStore gives the implementation for a
// location: an SQLite file (the default) or a PostgreSQL database shared by a
// team. Both keep one schema (history_schema.h) and differ only in their
// connection (sql_connection.h).
//
// Thread-safety: a store object is used by one thread at a time. Any number
// of processes may use one store at once: each add is one transaction, and
// two adds at once both succeed (SQLite waits up to 60 s for the other
// writer; PostgreSQL locks rows).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/history/run_record.h"
#include "results/history/store_location.h"
#include "results/history_model.h"

namespace kvbench::results {

enum class AddOutcome {
  kAdded,
  kAlreadyStored,  // a run of this id is in the store; nothing was written for it
};

struct AddOptions {
  // Called after each batch of figures is written inside the transaction,
  // with the number written so far (tests use it to kill a writer
  // mid-transaction).
  std::function<void(size_t figures_written)> after_batch;
};

struct RunFilter {
  std::string engine;    // runs with this engine; "" = any
  std::string workload;  // runs of this workload name; "" = any
  std::string since;     // runs started at or after this ISO 8601 time or date; "" = any
};

struct FigureFilter {
  std::vector<std::string> figures;  // FigureKinds() names; at least one
  // Operation type of per-operation figures ("all", "get", "READ"...);
  // per-phase-run figures have none and always match.
  std::string op = "all";
  std::string engine, phase, workload, since;  // "" = any
};

class HistoryStore {
 public:
  virtual ~HistoryStore() = default;

  // The store for messages: "sqlite:/path" or its URL without a password.
  virtual const std::string& description() const = 0;

  // Adds `runs` in one transaction: either every run not yet stored is
  // stored with all its figures, or (on any error) nothing is. `outcomes`
  // gets one entry per run. A run whose id is stored already (also a second
  // copy within `runs`) is kAlreadyStored and left as it is.
  virtual Status AddRuns(const std::vector<RunRecord>& runs, std::vector<AddOutcome>* outcomes,
                         const AddOptions& options = {}) = 0;

  // Stored runs matching `filter`, oldest first.
  virtual Status ListRuns(const RunFilter& filter, std::vector<StoredRunInfo>* out) = 0;

  // Figures matching `filter`, ordered by run start, then as stored.
  virtual Status LoadFigures(const FigureFilter& filter, std::vector<FigurePoint>* out) = 0;
};

enum class OpenMode {
  kCreate,    // add: an SQLite file is created when missing
  kExisting,  // list, trend, check: a missing SQLite file is an error
};

// Opens the store at `where`, creating its tables in an empty database and
// migrating an older schema forward. Errors, each naming the store:
//   InvalidArgument: malformed URL; not a kvbench store; a store of a newer
//     schema than this kvbench reads; (kExisting) no such file;
//   IOError: cannot open the file, cannot reach or log in to the server;
//   NotSupported: this kvbench was built without PostgreSQL support.
Status OpenHistoryStore(const StoreLocation& where, OpenMode mode,
                        std::unique_ptr<HistoryStore>* out);

}  // namespace kvbench::results
