#include "adapters/lmdb/lmdb_environment.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include "adapters/engine_directory.h"

namespace kvbench {
namespace {

constexpr char kDataFile[] = "data.mdb";
constexpr char kCompactFile[] = "data.mdb.compact";

// Locks every registered reader for as long as it lives.
class ReadersQuiesced {
 public:
  explicit ReadersQuiesced(const std::set<LmdbReader*>& readers) {
    locks_.reserve(readers.size());
    for (LmdbReader* reader : readers) locks_.emplace_back(reader->mutex);
  }

 private:
  std::vector<std::unique_lock<std::mutex>> locks_;
};

}  // namespace

std::vector<OptionSpec> LmdbOptionSpecs() {
  return {
      {"lmdb.mapsize", "64GiB",
       "initial memory map size (address space, not disk: the file grows as data is written); "
       "doubled automatically whenever a write finds the map full. Large by default so batches "
       "need no replay log (see adapters/lmdb/lmdb_adapter.cc)"},
      {"lmdb.sync", "none",
       "none: MDB_NOSYNC, commits are not fsynced (data survives Close and a process crash, not "
       "a power loss; Sync() still forces it out); commit: fsync every commit"},
      {"lmdb.nometasync", "false", "MDB_NOMETASYNC: with lmdb.sync=commit, skip the meta fsync"},
      {"lmdb.writemap", "false",
       "MDB_WRITEMAP: write through a writable map (the file's apparent size becomes the map "
       "size)"},
      {"lmdb.nordahead", "false", "MDB_NORDAHEAD: no OS readahead, for databases larger than RAM"},
      {"lmdb.maxreaders", "126", "reader slots; every session holds one (LMDB's default count)"},
      {"lmdb.append", "false",
       "MDB_APPEND on every put: faster bulk load, but keys must arrive in ascending order"},
  };
}

Status ParseLmdbSettings(const EngineOptions& options, LmdbSettings* settings) {
  LmdbSettings parsed;
  KVBENCH_RETURN_IF_ERROR(options.GetBytes("lmdb.mapsize", &parsed.map_size));
  if (parsed.map_size == 0) return Status::InvalidArgument("option 'lmdb.mapsize': must be > 0");
  const std::string sync = options.GetString("lmdb.sync");
  if (sync == "none") {
    parsed.sync_on_commit = false;
  } else if (sync == "commit") {
    parsed.sync_on_commit = true;
  } else {
    return Status::InvalidArgument("option 'lmdb.sync': '" + sync + "' is not one of none/commit");
  }
  KVBENCH_RETURN_IF_ERROR(options.GetBool("lmdb.nometasync", &parsed.no_meta_sync));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("lmdb.writemap", &parsed.write_map));
  KVBENCH_RETURN_IF_ERROR(options.GetBool("lmdb.nordahead", &parsed.no_readahead));
  KVBENCH_RETURN_IF_ERROR(options.GetInt64("lmdb.maxreaders", &parsed.max_readers));
  if (parsed.max_readers < 1 || parsed.max_readers > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("option 'lmdb.maxreaders': must be at least 1");
  }
  KVBENCH_RETURN_IF_ERROR(options.GetBool("lmdb.append", &parsed.append));
  *settings = parsed;
  return Status::OK();
}

Status LmdbError(int rc, std::string_view operation) {
  std::string message(operation);
  message += ": ";
  message += mdb_strerror(rc);
  switch (rc) {
    case MDB_NOTFOUND:
      return Status::NotFound(std::move(message));
    case MDB_BAD_VALSIZE:
    case MDB_KEYEXIST:
    case MDB_INCOMPATIBLE:
    case EINVAL:
      return Status::InvalidArgument(std::move(message));
    case MDB_CORRUPTED:
    case MDB_PAGE_NOTFOUND:
    case MDB_INVALID:
    case MDB_VERSION_MISMATCH:
      return Status::Corruption(std::move(message));
    case MDB_READERS_FULL:
    case EAGAIN:
    case EBUSY:
      return Status::Busy(std::move(message));
    default:
      // Other positive codes are errno values from the file system.
      if (rc > 0) return Status::IOError(std::move(message));
      return Status::Internal(std::move(message));
  }
}

Status LmdbEnvironment::Open(const std::string& directory, const LmdbSettings& settings) {
  if (env_ != nullptr) return Status::InvalidArgument("open: lmdb is already open");
  settings_ = settings;
  directory_ = directory;
  // The map must be a whole number of OS pages.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  map_size_ = (settings.map_size + page - 1) / page * page;
  return OpenEnv();
}

// LMDB reads its pages through the map and trusts the meta page: a data file
// cut shorter than the pages the meta page names makes the first read past
// its end a SIGBUS. Checked once at open, before any page is touched (the meta
// pages themselves were read with pread and are within the file).
Status LmdbEnvironment::CheckNotTruncated(MDB_env* env) const {
  MDB_envinfo info;
  MDB_stat stat;
  mdb_filehandle_t fd = -1;
  if (mdb_env_info(env, &info) != MDB_SUCCESS || mdb_env_stat(env, &stat) != MDB_SUCCESS ||
      mdb_env_get_fd(env, &fd) != MDB_SUCCESS) {
    return Status::IOError("lmdb: open '" + directory_ + "': cannot read the environment's info");
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    return Status::IOError("lmdb: open '" + directory_ + "': fstat: " + std::strerror(errno));
  }
  const uint64_t needed = (static_cast<uint64_t>(info.me_last_pgno) + 1) * stat.ms_psize;
  if (static_cast<uint64_t>(st.st_size) < needed) {
    return Status::Corruption("lmdb: '" + directory_ + "/data.mdb' is truncated: " +
                              std::to_string(st.st_size) + " bytes, but its meta page names " +
                              std::to_string(info.me_last_pgno + 1) + " pages of " +
                              std::to_string(stat.ms_psize) + " bytes");
  }
  return Status::OK();
}

Status LmdbEnvironment::OpenEnv() {
  MDB_env* env = nullptr;
  int rc = mdb_env_create(&env);
  if (rc != MDB_SUCCESS) return LmdbError(rc, "open: mdb_env_create");
  // MDB_NOTLS ties a read slot to its transaction, not to the thread: a
  // session's reader may move between threads, and one thread may run several
  // sessions.
  unsigned flags = MDB_NOTLS;
  if (!settings_.sync_on_commit) flags |= MDB_NOSYNC;
  if (settings_.no_meta_sync) flags |= MDB_NOMETASYNC;
  if (settings_.write_map) flags |= MDB_WRITEMAP;
  if (settings_.no_readahead) flags |= MDB_NORDAHEAD;
  rc = mdb_env_set_mapsize(env, map_size_);
  if (rc == MDB_SUCCESS) {
    rc = mdb_env_set_maxreaders(env, static_cast<unsigned>(settings_.max_readers));
  }
  if (rc == MDB_SUCCESS) rc = mdb_env_open(env, directory_.c_str(), flags, 0644);
  if (rc != MDB_SUCCESS) {
    mdb_env_close(env);
    return LmdbError(rc, "open '" + directory_ + "'");
  }
  if (Status s = CheckNotTruncated(env); !s.ok()) {
    mdb_env_close(env);
    return s;
  }
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(env, nullptr, 0, &txn);
  if (rc == MDB_SUCCESS) {
    rc = mdb_dbi_open(txn, nullptr, 0, &dbi_);
    if (rc == MDB_SUCCESS) {
      rc = mdb_txn_commit(txn);
    } else {
      mdb_txn_abort(txn);
    }
  }
  if (rc != MDB_SUCCESS) {
    mdb_env_close(env);
    return LmdbError(rc, "open: mdb_dbi_open");
  }
  // An existing file may have been opened with a larger map than asked for.
  MDB_envinfo info;
  mdb_env_info(env, &info);
  map_size_ = info.me_mapsize;
  max_key_size_ = static_cast<size_t>(mdb_env_get_maxkeysize(env));
  env_ = env;
  return Status::OK();
}

void LmdbEnvironment::Close() {
  std::lock_guard lock(readers_mutex_);
  for (LmdbReader* reader : readers_) FreeReaderHandles(reader);
  if (env_ != nullptr) mdb_env_close(env_);
  env_ = nullptr;
}

Status LmdbEnvironment::CreateReaderHandles(LmdbReader* reader) {
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
  if (rc != MDB_SUCCESS) return LmdbError(rc, "new session: begin read transaction");
  MDB_cursor* cursor = nullptr;
  rc = mdb_cursor_open(txn, dbi_, &cursor);
  if (rc != MDB_SUCCESS) {
    mdb_txn_abort(txn);
    return LmdbError(rc, "new session: open cursor");
  }
  mdb_txn_reset(txn);
  reader->txn = txn;
  reader->cursor = cursor;
  return Status::OK();
}

void LmdbEnvironment::FreeReaderHandles(LmdbReader* reader) {
  if (reader->cursor != nullptr) mdb_cursor_close(reader->cursor);
  if (reader->txn != nullptr) mdb_txn_abort(reader->txn);
  reader->cursor = nullptr;
  reader->txn = nullptr;
}

Status LmdbEnvironment::AttachReader(LmdbReader* reader) {
  std::lock_guard lock(readers_mutex_);
  if (env_ == nullptr) return Status::InvalidArgument("new session: lmdb is not open");
  KVBENCH_RETURN_IF_ERROR(CreateReaderHandles(reader));
  readers_.insert(reader);
  return Status::OK();
}

void LmdbEnvironment::DetachReader(LmdbReader* reader) {
  std::lock_guard lock(readers_mutex_);
  FreeReaderHandles(reader);
  readers_.erase(reader);
}

Status LmdbEnvironment::GrowMap(std::string_view operation) {
  std::lock_guard lock(readers_mutex_);
  if (env_ == nullptr) return Status::Internal(std::string(operation) + ": lmdb is closed");
  ReadersQuiesced quiesced(readers_);
  MDB_envinfo info;
  mdb_env_info(env_, &info);
  if (info.me_mapsize > std::numeric_limits<size_t>::max() / 2) {
    return Status::IOError(std::string(operation) + ": the LMDB map cannot grow any further");
  }
  const size_t grown = info.me_mapsize * 2;
  const int rc = mdb_env_set_mapsize(env_, grown);
  if (rc != MDB_SUCCESS) {
    return LmdbError(rc, std::string(operation) + ": grow map to " + std::to_string(grown));
  }
  map_size_ = grown;
  return Status::OK();
}

uint64_t LmdbEnvironment::FreeMapBytes() const {
  if (env_ == nullptr) return 0;
  MDB_envinfo info;
  MDB_stat stat;
  mdb_env_info(env_, &info);
  mdb_env_stat(env_, &stat);
  const uint64_t used = (static_cast<uint64_t>(info.me_last_pgno) + 1) * stat.ms_psize;
  return info.me_mapsize > used ? info.me_mapsize - used : 0;
}

Status LmdbEnvironment::Compact() {
  if (env_ == nullptr) return Status::InvalidArgument("reorganize: lmdb is not open");
  if (batch_open_) return Status::Busy("reorganize: a session has a write batch open");
  std::lock_guard writer(writer_mutex_);
  std::lock_guard lock(readers_mutex_);
  ReadersQuiesced quiesced(readers_);

  const std::string data_path = JoinPath(directory_, kDataFile);
  const std::string compact_path = JoinPath(directory_, kCompactFile);
  const int fd = open(compact_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::IOError("reorganize: create '" + compact_path + "': " + std::strerror(errno));
  }
  const int rc = mdb_env_copyfd2(env_, fd, MDB_CP_COMPACT);
  Status s = rc == MDB_SUCCESS ? Status::OK() : LmdbError(rc, "reorganize: mdb_env_copyfd2");
  if (s.ok() && fsync(fd) != 0) {
    s = Status::IOError("reorganize: fsync '" + compact_path + "': " + std::strerror(errno));
  }
  close(fd);
  if (!s.ok()) {
    std::remove(compact_path.c_str());
    return s;
  }

  // The copy is complete and stable: swap it in under a closed environment.
  for (LmdbReader* reader : readers_) FreeReaderHandles(reader);
  mdb_env_close(env_);
  env_ = nullptr;
  if (std::rename(compact_path.c_str(), data_path.c_str()) != 0) {
    s = Status::IOError("reorganize: rename '" + compact_path + "': " + std::strerror(errno));
    std::remove(compact_path.c_str());
  }
  if (s.ok()) s = FsyncDirectory(directory_).WithContext("reorganize");
  // Reopen even after a failure, so the sessions keep working on the old file.
  Status reopened = OpenEnv();
  for (LmdbReader* reader : readers_) {
    if (reopened.ok()) reopened = CreateReaderHandles(reader);
  }
  return s.ok() ? reopened.WithContext("reorganize: reopen") : s;
}

Status LmdbEnvironment::Sync() {
  if (env_ == nullptr) return Status::InvalidArgument("sync: lmdb is not open");
  const int rc = mdb_env_sync(env_, 1);
  if (rc != MDB_SUCCESS) return LmdbError(rc, "sync: mdb_env_sync");
  return Status::OK();
}

}  // namespace kvbench
