// UnsyncedState: what a simulated power cut would take away from a backing
// directory, and the cut itself.
//
// The fault model (docs/durability.md): every operation is passed through to
// the backing directory at once, so the running program reads what it wrote;
// what is NOT yet durable is remembered here as an undo record:
//   - file data: for each file (by inode) written since its last fsync or
//     fdatasync, the size it had then and the pre-image of every 4 KiB page
//     written or truncated away since. fsync/fdatasync of the file forgets
//     them (the data is now durable).
//   - names: every create, mkdir, link, symlink, unlink, rmdir and rename
//     since the last fsync of the directories it touched. Unlinked files and
//     replaced rename targets are kept in a trash directory until the
//     directory is synced, so a cut can bring them back. A file's own fsync
//     does not make its name durable (POSIX; stricter than ext4 in practice).
// Cut(kDiscard) undoes all of it: every unsynced page gets its pre-image
// back, every file its synced size, every unsynced name change is reversed
// (newest first). Cut(kTorn) models reordering and torn writes: each
// unsynced 4 KiB page independently survives with probability 1/2 (pages
// beyond the synced size that do not survive read back as zeros), each file
// keeps either its synced or its current size, and the name changes survive
// as a random prefix in the order they were made (a journaling file system
// commits metadata in order). Both are pure functions of the seed and the
// recorded state.
//
// Not thread-safe: the caller (the FUSE file system) serialises every call.
// Paths are relative to the backing root ("" is the root itself).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench::powerloss {

inline constexpr uint64_t kPageSize = 4096;

enum class CutMode { kDiscard, kTorn };

// What a cut did, for the driver's log and the tests.
struct CutStats {
  uint64_t files = 0;            // files with unsynced data
  uint64_t pages_dropped = 0;    // unsynced pages given their pre-image or zeros back
  uint64_t pages_kept = 0;       // unsynced pages that survived (torn only)
  uint64_t name_ops_undone = 0;  // creates, unlinks, renames reversed
  uint64_t name_ops_kept = 0;    // unsynced name changes that survived (torn only)
};

class UnsyncedState {
 public:
  // `root_fd`: an O_PATH/O_DIRECTORY descriptor of the backing root, owned by
  // the caller. `trash_dir`: an absolute path on the same file system (so a
  // rename can move files into it), empty, owned by this object from now on.
  UnsyncedState(int root_fd, std::string trash_dir);
  ~UnsyncedState();
  UnsyncedState(const UnsyncedState &) = delete;
  UnsyncedState &operator=(const UnsyncedState &) = delete;

  // File data. `fd` is an open descriptor of the backing file (any access
  // mode that allows reading). Call before the write or truncate reaches it.
  Status BeforeWrite(int fd, uint64_t offset, uint64_t length);
  Status BeforeTruncate(int fd, uint64_t new_size);
  // fsync or fdatasync of the file: its data so far is durable.
  void FileSynced(int fd);

  // Names. Each performs the operation on the backing directory itself (an
  // unlink becomes a move into the trash) and records its undo. Errors are
  // -errno, as FUSE wants them; 0 on success.
  void Created(const std::string &path);  // after a create/mknod/mkdir/symlink/link succeeded
  int Unlink(const std::string &path);
  int Rmdir(const std::string &path);
  int Rename(const std::string &from, const std::string &to, unsigned int flags);
  // fsync of a directory: the name changes inside it are durable.
  void DirectorySynced(const std::string &path);

  // Everything done so far is durable (the driver calls this once the engine
  // is set up, before the trial's commits begin).
  void Checkpoint();
  // The power cut (see the file comment). After it the state is empty.
  Status Cut(CutMode mode, uint64_t seed, CutStats *stats);

  // How many files have unsynced data and how many name changes are pending.
  size_t files_pending() const { return files_.size(); }
  size_t names_pending() const { return names_.size(); }

 private:
  struct FileUndo {
    int fd = -1;  // our own descriptor: valid across renames and unlinks
    uint64_t synced_size = 0;
    uint64_t size_now = 0;                       // the size after the writes and truncates seen
    std::map<uint64_t, std::string> pre_images;  // page index -> bytes it held when synced
    std::set<uint64_t> new_pages;                // pages written at or past synced_size
  };
  struct NameUndo {
    enum Kind { kCreated, kRemoved, kRenamed } kind = kCreated;
    std::string path;   // created or removed name; rename: the new name
    std::string from;   // rename: the old name
    std::string trash;  // removed file, or the rename target it replaced; "" if none
    std::set<std::string> unsynced_dirs;  // parents still to be fsynced
  };

  FileUndo *StateOf(int fd, Status *error);
  Status CapturePage(FileUndo *file, uint64_t page);
  std::string NewTrashPath();
  void Forget(const NameUndo &op);  // the op became durable: free its trash
  int UndoName(const NameUndo &op);
  Status UndoFile(FileUndo *file, CutMode mode, uint64_t *rng, CutStats *stats);

  int root_fd_;
  std::string trash_dir_;
  uint64_t trash_counter_ = 0;
  std::map<uint64_t, FileUndo> files_;  // by inode number
  std::vector<NameUndo> names_;         // oldest first
};

// "a/b/c" -> "a/b"; "c" -> "".
std::string ParentOf(const std::string &path);

}  // namespace kvbench::powerloss
