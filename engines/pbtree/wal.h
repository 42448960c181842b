// WriteAheadLog: the commit log beside the database file ("<path>-log").
//
// A small commit (one whose writes fit in a record of at most
// kMaxLogPayload bytes) does not write its pages: it appends one record
// naming its puts and deletes to the log (and with sync=commit fdatasyncs
// the log, one sync per commit), keeps its pages in memory, and publishes
// them to readers at once. A checkpoint (a commit of the old kind, which
// writes every page changed since the last checkpoint and a meta page; see
// pager.h) makes the log's records redundant, and the log starts again at
// its beginning. Opening replays the records that follow the last
// checkpoint.
//
// Record layout, at any byte offset (records follow each other):
//   fixed32 crc32c of bytes [4, 24 + length)
//   fixed32 length of the payload
//   fixed64 transaction id
//   fixed64 kLogMagic
//   payload: operations, each
//     byte 1 (put): varint32 key length, varint32 value length, key, value
//     byte 2 (delete): varint32 key length, key
//
// Recovery takes the records from offset 0 whose ids continue the last
// checkpoint's (checkpoint + 1, + 2, ...) and whose checksums match, and
// stops at the first that does not: a torn or unwritten tail, or a record of
// an earlier round of the log (ids at most the checkpoint's), which the log
// overwrites from its start after each checkpoint. Replaying is idempotent:
// nothing is written to the database file until the checkpoint after it.
//
// Not thread-safe: used by the writer (and Open) only. Its zeroing thread
// (LogZeroer) only writes past what the writer may store into.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engines/pbtree/status.h"

namespace pbtree {

inline constexpr size_t kLogHeaderSize = 24;
inline constexpr uint64_t kLogMagic = 0x31474f4c45455254ull;  // "TREELOG1"
// A transaction whose record would be longer commits by checkpoint instead.
inline constexpr size_t kMaxLogPayload = 1u << 20;
inline constexpr uint8_t kLogPut = 1;
inline constexpr uint8_t kLogDelete = 2;

// Builds a record: kLogHeaderSize bytes of room for the header, then the
// operations. Append fills in the header.
class LogRecord {
 public:
  LogRecord() { Clear(); }
  void Clear() {
    size_ = kLogHeaderSize;
    too_large_ = false;
  }
  void Put(Slice key, Slice value);
  void Delete(Slice key);
  bool empty() const { return size_ == kLogHeaderSize; }
  // More than kMaxLogPayload bytes of operations were added: the transaction
  // commits by checkpoint and the record is dropped.
  bool too_large() const { return too_large_; }
  // The record: its header's room (not yet filled in), then the operations.
  uint8_t* data() { return bytes_.get(); }
  size_t size() const { return size_; }

 private:
  // Where `most` more bytes go, or nullptr when they would make the payload
  // too large (too_large_ is set then). Writes go straight into the buffer:
  // a string's appends cost a one-key commit ~100 instructions. The buffer
  // never holds more than a whole record, so one test covers both limits.
  uint8_t* Room(size_t most) {
    return size_ + most <= capacity_ ? bytes_.get() + size_ : Grow(most);
  }
  uint8_t* Grow(size_t most);
  std::unique_ptr<uint8_t[]> bytes_;
  size_t capacity_ = 0;
  size_t size_ = kLogHeaderSize;
  bool too_large_ = false;
};

// Decodes one record's operations. Corruption when they do not parse.
Status ForEachLogOp(Slice payload,
                    const std::function<Status(uint8_t op, Slice key, Slice value)>& fn);

class LogZeroer;

class WriteAheadLog {
 public:
  // Opens (creates unless read_only) the log. A read-only open of a missing
  // log is an empty log.
  // Without sync, records are copied into a shared writable mapping of the
  // file (sized for `max_bytes` of log), which puts them in the OS page
  // cache as a write() would, without a system call. With sync (see wal.cc
  // for why), past the mapping or when mmap fails, they are written with
  // pwrite.
  static Status Open(const std::string& path, bool read_only, bool sync, uint64_t max_bytes,
                     std::unique_ptr<WriteAheadLog>* log);
  ~WriteAheadLog();
  WriteAheadLog(const WriteAheadLog&) = delete;
  WriteAheadLog& operator=(const WriteAheadLog&) = delete;

  // Reads the records that follow `checkpoint_txn` (see above), calling
  // `apply` with each id and payload; appends then go after the last one.
  Status Recover(uint64_t checkpoint_txn,
                 const std::function<Status(uint64_t txn_id, Slice payload)>& apply);
  // Writes the record (header filled in here) at the end of the log; with
  // sync, fdatasyncs it.
  Status Append(uint64_t txn_id, LogRecord* record);
  // Makes room for a record of `bytes` at the end. *cannot_fail: Append of a
  // record that long then cannot fail either (no sync, and it goes into the
  // mapping, which the file now covers).
  Status Reserve(size_t bytes, bool* cannot_fail);
  // The records so far are covered by a checkpoint: the next goes to offset 0.
  void Reset() { offset_ = 0; }
  // Shrinks the file to nothing (after a checkpoint, on close and before a
  // reorganize) and, with sync, makes that durable.
  Status Truncate();
  Status Sync();
  uint64_t bytes() const { return offset_; }
  const std::string& path() const { return path_; }
  // This Open made the file: with sync, its name is durable only once its
  // directory is synced (Pager::Open does it).
  bool created() const { return created_; }

 private:
  WriteAheadLog(std::string path, int fd, bool sync, uint64_t file_size);
  // The file is extended ahead of the appends, so that an append neither
  // grows the file (a mapped store past its end would fault) nor, with sync,
  // makes fdatasync write the file's size and block map (only the commits
  // that extend it do; with sync the file doubles, from 64 KiB to steps of
  // 4 MiB, so they are few). The extension is written zeros: with sync a
  // block at a time, without in steps of 256 KiB (kUnsyncedStepBytes).
  // (Extending it with ftruncate or fallocate instead, a hole or unwritten
  // extents, made appends slower: a store into either faults through the
  // file system, where the zeros' pages are in the page cache already. And
  // a full disk would be a SIGBUS at a store into a hole, not an error.)
  // Inline, so that an append with room (almost every one) makes no call.
  // Mapped, without sync, a thread of the log's own writes the zeros ahead
  // of the appends (LogZeroer, GrowAhead).
  Status Preallocate(uint64_t end) { return end <= file_size_ ? Status::OK() : Grow(end); }
  Status Grow(uint64_t end);
  Status GrowAhead(uint64_t end);
  void Map(uint64_t max_bytes);

  std::string path_;
  int fd_ = -1;
  bool sync_ = false;
  bool created_ = false;
  uint64_t offset_ = 0;     // where the next record goes
  uint64_t file_size_ = 0;  // bytes in the file
  uint8_t* map_ = nullptr;  // shared writable mapping of the file's first map_bytes_
  size_t map_bytes_ = 0;
  std::unique_ptr<LogZeroer> zeroer_;  // started by the first GrowAhead
};

}  // namespace pbtree
