// `whitedb`: WhiteDB (Debian's libwgdb), the in-memory database of seeds 000
// and 002, as an engine. Nothing is written to disk and nothing survives
// Close(): the adapter uses neither WhiteDB's dump nor its journal.
//
// A database holds EITHER key-value pairs (whitedb_pairs.h: a record per pair,
// the key field T-tree indexed) OR one record table (whitedb_record_table.h:
// WhiteDB's own records, indexes and references), whichever the first use
// asks for; the other's calls return NotSupported (whitedb_database.h says
// why). Memory, segments and the size option: whitedb_database.h. Locking:
// whitedb_lock.h. WhiteDB's own stderr messages: whitedb_messages.h. What
// each call costs: README.md.
#include <memory>
#include <string>

#include "adapters/registry.h"
#include "adapters/support/option_parsing.h"
#include "adapters/whitedb/whitedb_database.h"
#include "adapters/whitedb/whitedb_lock.h"
#include "adapters/whitedb/whitedb_pairs.h"
#include "adapters/whitedb/whitedb_record_table.h"

namespace kvbench {
namespace {

class WhitedbSession final : public Session {
 public:
  explicit WhitedbSession(WhitedbDatabase* shared)
      : shared_(shared), lock_(shared->db()), pairs_(shared) {}

  Status Put(Slice key, Slice value) override {
    WhitedbCallLock lock(lock_, WhitedbCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    if (shared_->holds != WhitedbDatabase::Holds::kPairs) {
      if (shared_->holds == WhitedbDatabase::Holds::kTable) return HoldsTable();
      KVBENCH_RETURN_IF_ERROR(WhitedbPairs::Start(shared_));
    }
    return pairs_.Put(key, value);
  }

  Status Get(Slice key, std::string* value) override {
    WhitedbCallLock lock(lock_, WhitedbCallLock::kRead);
    if (!lock.ok()) return lock.status();
    if (shared_->holds != WhitedbDatabase::Holds::kPairs) return NoPairs();
    return pairs_.Get(key, value);
  }

  Status Delete(Slice key) override {
    WhitedbCallLock lock(lock_, WhitedbCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    if (shared_->holds != WhitedbDatabase::Holds::kPairs) return NoPairs();
    return pairs_.Delete(key);
  }

  Status BeginBatch() override { return lock_.BeginBatch(); }
  Status CommitBatch() override { return lock_.EndBatch(); }
  // WhiteDB has no undo.
  Status AbortBatch() override { return BatchState::AbortNotSupported("whitedb"); }

  Status Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
              size_t* visited) override {
    WhitedbCallLock lock(lock_, WhitedbCallLock::kRead);
    if (!lock.ok()) return lock.status();
    if (shared_->holds != WhitedbDatabase::Holds::kPairs) {
      if (visited != nullptr) *visited = 0;
      return shared_->holds == WhitedbDatabase::Holds::kTable ? HoldsTable() : Status::OK();
    }
    return pairs_.Scan(start, options, visitor, visited);
  }

  // The database's one record table: created by the first call, reopened by
  // later ones with the same name and field count.
  Status OpenRecordTable(const RecordTableSpec& spec,
                         std::unique_ptr<RecordTable>* table) override {
    if (spec.types.empty()) return Status::InvalidArgument("whitedb: a record needs a field");
    const auto fields = static_cast<uint32_t>(spec.types.size());
    WhitedbCallLock lock(lock_, WhitedbCallLock::kWrite);
    if (!lock.ok()) return lock.status();
    switch (shared_->holds) {
      case WhitedbDatabase::Holds::kPairs:
        return Status::NotSupported(
            "whitedb: this database holds key-value pairs; a record table needs a database of "
            "its own");
      case WhitedbDatabase::Holds::kNothing:
        shared_->holds = WhitedbDatabase::Holds::kTable;
        shared_->table_name = spec.name;
        shared_->table_fields = fields;
        break;
      case WhitedbDatabase::Holds::kTable:
        if (shared_->table_name != spec.name) {
          return Status::NotSupported("whitedb holds one record table per database: '" +
                                      shared_->table_name + "' exists, '" + spec.name +
                                      "' cannot be added");
        }
        if (shared_->table_fields != fields) {
          return Status::InvalidArgument("whitedb: table '" + spec.name + "' has " +
                                         std::to_string(shared_->table_fields) +
                                         " fields, the spec asks for " + std::to_string(fields));
        }
        break;
    }
    *table = std::make_unique<WhitedbRecordTable>(shared_, &lock_, fields);
    return Status::OK();
  }

 private:
  Status HoldsTable() const {
    return Status::NotSupported("whitedb: this database holds record table '" +
                                shared_->table_name +
                                "'; key-value pairs need a database of their own");
  }
  // Reads and deletes before the first Put find nothing.
  Status NoPairs() const {
    return shared_->holds == WhitedbDatabase::Holds::kTable ? HoldsTable()
                                                            : Status::NotFound("key");
  }

  WhitedbDatabase* const shared_;
  WhitedbSessionLock lock_;
  WhitedbPairs pairs_;
};

class WhitedbAdapter final : public Adapter {
 public:
  // Debian's libwgdb has no version call (wg_print_code_version prints);
  // the version pkg-config reported at build time.
  std::string LibraryVersion() const override { return "WhiteDB " KVBENCH_WHITEDB_VERSION; }

  std::vector<OptionSpec> OptionSpecs() const override {
    return {
        {"whitedb.size", "1000000000",
         "database bytes, fixed at creation (the seed's tests used 1,000,000,000; 10M records of "
         "5 integers fit); a write that needs more fails naming this option"},
        {"whitedb.shm_segment", "0",
         "0: private memory (wg_attach_local_database); N in 1-65535: a System V shared-memory "
         "segment with key 0x6B760000+N (the seed's setting), created at open (refused if it "
         "exists) and removed at close"},
    };
  }

  Status CheckOptions(const EngineOptions& options) const override {
    return CheckSettings(options, ParseWhitedbSettings);
  }

  DurabilityDeclaration DeclareDurability(const EngineOptions&) const override {
    return {.basis =
                "whitedb as the adapter runs it keeps everything in memory (no dump, no "
                "journal); a shared-memory segment is removed at close"};
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.ordered = true;  // the key T-tree; escaped keys keep unsigned byte order
    c.transactional = false;
    c.durable = false;
    c.concurrent_readers = true;  // WhiteDB's shared lock
    c.concurrent_writers = false;
    c.native_records = true;
    c.native_secondary_index = true;
    return c;
  }

  Status Open(const OpenRequest& request) override {
    if (database_ != nullptr) return Status::InvalidArgument("whitedb: already open");
    WhitedbSettings settings;
    KVBENCH_RETURN_IF_ERROR(ParseWhitedbSettings(request.options, &settings));
    return WhitedbDatabase::Attach(settings, &database_);
  }

  Status Close() override {
    database_.reset();
    return Status::OK();
  }

  Status NewSession(std::unique_ptr<Session>* session) override {
    if (database_ == nullptr) return Status::InvalidArgument("whitedb: not open");
    *session = std::make_unique<WhitedbSession>(database_.get());
    return Status::OK();
  }

  Status Sync() override { return Status::OK(); }

  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  std::unique_ptr<WhitedbDatabase> database_;
};

}  // namespace
}  // namespace kvbench

KVBENCH_REGISTER_ADAPTER(
    whitedb, "whitedb",
    "WhiteDB: in-memory records, T-tree indexes; pairs as records with a T-tree key index "
    "(ordered, not durable)",
    [] { return std::make_unique<kvbench::WhitedbAdapter>(); });
