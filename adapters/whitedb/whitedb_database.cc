#include "adapters/whitedb/whitedb_database.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>
#include <whitedb/dbapi.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include "adapters/whitedb/whitedb_messages.h"

namespace kvbench {
namespace {

std::string SegmentName(uint32_t segment) {
  return std::to_string(kWhitedbKeyBase + static_cast<int>(segment));
}

// Open's answer for a segment that exists and is not one this process
// created: engine, option, reason, and what to do about it.
Status SegmentExists(uint32_t segment, int id) {
  const std::string name = SegmentName(segment);
  std::string owner;
  shmid_ds info;
  if (id >= 0 && shmctl(id, IPC_STAT, &info) == 0) {
    owner = " (created by pid " + std::to_string(info.shm_cpid) + ", " +
            std::to_string(info.shm_nattch) + " attached)";
  }
  return Status::IOError("whitedb: option 'whitedb.shm_segment' = " + std::to_string(segment) +
                         ": a shared-memory segment with key " + name + " exists" + owner +
                         "; kvbench uses only a segment it creates (if it is a crashed run's, "
                         "remove it with: ipcrm -M " +
                         name + ")");
}

}  // namespace

Status ParseWhitedbSettings(const EngineOptions& options, WhitedbSettings* out) {
  WhitedbSettings s;
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("whitedb.size", &s.size));
  if (s.size < kWhitedbMinSize) {
    return Status::InvalidArgument("option 'whitedb.size': " + std::to_string(s.size) +
                                   " is below the minimum of " + std::to_string(kWhitedbMinSize));
  }
  // WhiteDB takes the size as a signed wg_int.
  if (s.size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() / 2)) {
    return Status::InvalidArgument("option 'whitedb.size': too large");
  }
  int64_t segment = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("whitedb.shm_segment", &segment));
  if (segment < 0 || segment > kWhitedbMaxSegment) {
    return Status::InvalidArgument("option 'whitedb.shm_segment': " + std::to_string(segment) +
                                   " is not 0 (private memory) or a segment number 1-" +
                                   std::to_string(kWhitedbMaxSegment));
  }
  s.shm_segment = static_cast<uint32_t>(segment);
  *out = s;
  return Status::OK();
}

Status WhitedbDatabase::Attach(const WhitedbSettings& settings,
                               std::unique_ptr<WhitedbDatabase>* out) {
  const uint64_t words = settings.size / 512 + 1;
  auto* live = static_cast<uint64_t*>(std::calloc(words, sizeof(uint64_t)));
  if (live == nullptr) {
    return Status::IOError("whitedb: cannot reserve the record directory for whitedb.size = " +
                           std::to_string(settings.size));
  }
  // Before the first WhiteDB call: attaching prints when it fails.
  ContainWhitedbMessages();
  DiscardWhitedbMessages();
  void* db = nullptr;
  const auto size = static_cast<wg_int>(settings.size);
  if (settings.shm_segment == 0) {
    db = wg_attach_local_database(size);
    if (db == nullptr) {
      std::free(live);
      return Status::IOError("whitedb: cannot allocate " + std::to_string(settings.size) +
                             " bytes of private memory (option 'whitedb.size')" +
                             TakeWhitedbMessages());
    }
  } else {
    const std::string name = SegmentName(settings.shm_segment);
    const key_t key = kWhitedbKeyBase + static_cast<int>(settings.shm_segment);
    // wg_attach_database would attach to an existing segment and use
    // whatever database it holds.
    const int existing = shmget(key, 0, 0);
    if (existing >= 0 || errno == EACCES) {
      std::free(live);
      return SegmentExists(settings.shm_segment, existing);
    }
    db = wg_attach_database(name.c_str(), size);
    if (db == nullptr) {
      std::free(live);
      return Status::IOError("whitedb: cannot create shared-memory segment " + name + " of " +
                             std::to_string(settings.size) +
                             " bytes (options 'whitedb.shm_segment', 'whitedb.size'; see "
                             "/proc/sys/kernel/shmmax and shmall)" +
                             TakeWhitedbMessages());
    }
    // A segment someone else created between the check and the attach:
    // WhiteDB attached to it. Leave it as it was.
    const int created = shmget(key, 0, 0);
    shmid_ds info;
    if (created < 0 || shmctl(created, IPC_STAT, &info) != 0 || info.shm_cpid != getpid()) {
      wg_detach_database(db);
      std::free(live);
      DiscardWhitedbMessages();
      return SegmentExists(settings.shm_segment, created);
    }
  }
  // IdOf and RecordAt stand for wg_encode_record and wg_decode_record: the
  // encoding of a record must be its offset from here.
  auto* base = static_cast<char*>(wg_decode_record(db, 0));
  // Owns the database from here: an early return frees it (or removes the segment).
  std::unique_ptr<WhitedbDatabase> attached(new WhitedbDatabase(settings, db, base, live));
  constexpr wg_int kProbe = 64;
  if (base == nullptr || wg_encode_record(db, base + kProbe) != kProbe) {
    return Status::Internal(
        "whitedb: this libwgdb does not encode a record as its offset in the database (the "
        "adapter's record ids assume it)");
  }
  *out = std::move(attached);
  return Status::OK();
}

WhitedbDatabase::~WhitedbDatabase() {
  if (settings_.shm_segment == 0) {
    wg_delete_local_database(db_);
  } else {
    wg_detach_database(db_);
    wg_delete_database(SegmentName(settings_.shm_segment).c_str());
  }
  std::free(live_);
  DiscardWhitedbMessages();
}

Status WhitedbDatabase::Full(std::string_view what) const {
  return Status::IOError("whitedb: database full: " + std::string(what) + " (" +
                         std::to_string(wg_database_freesize(db_)) + " of " +
                         std::to_string(settings_.size) +
                         " bytes free); raise option 'whitedb.size'" + TakeWhitedbMessages());
}

}  // namespace kvbench
