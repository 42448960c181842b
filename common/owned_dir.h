// The one door through which kvbench makes, claims, locks and removes the
// directories it writes into (the output folder, the engines' data folders,
// scratch folders), and turns names from workload files into file names.
//
// Rules it enforces, so they live in one place:
// - kvbench removes only what it created: every directory it makes (or adopts
//   while empty) carries a marker file, and removal refuses anything unmarked.
// - A non-empty directory kvbench did not mark is refused, never emptied.
// - A symbolic link where a directory is expected is refused, never followed.
// - A name becomes a path component only through SlugOf(), which cannot
//   produce '/', "..", a leading '.', control characters or an unbounded name.
// - One run at a time per output directory: DirectoryLock (flock).
//
// Marker format (`.kvbench-owned`, plain text, one line):
//   "kvbench created <owner>\n"  kvbench made the directory: removal removes it
//   "kvbench adopted <owner>\n"  it was there, empty: removal empties it and
//                                leaves the (now empty) directory in place
// <owner> is the run id (or another id) of whoever claimed it.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace kvbench {

inline constexpr char kOwnerMarkerName[] = ".kvbench-owned";
inline constexpr char kLockFileName[] = ".kvbench-lock";

// A file-name-safe form of `name`: ASCII letters, digits, '-', '_' and '.'
// kept, every other byte (and '/' ) becomes '_', leading dots are dropped, and
// at most 64 characters are kept. When that changed anything, a '-' and 8 hex
// digits of a hash of the whole name follow, so two different names never
// share a slug by accident ("a/b" and "a_b" differ). "" becomes "unnamed".
// Pure function, thread-safe.
std::string SlugOf(std::string_view name);

// True when `text` holds an ASCII control character (newline, tab, ESC...),
// which no name, path or value bound for a script or a file name may hold.
bool HasControlCharacter(std::string_view text);

enum class ClaimMode {
  // The directory may hold a previous claim of kvbench's (its marker): it is
  // taken as it is. A non-empty unmarked directory is refused.
  kReuseOwned,
  // As kReuseOwned, but a marked directory that is not empty is refused too
  // (an output folder holding an earlier run's results).
  kEmptyOrNew,
};

// Makes `dir` (and missing parents) or takes an existing empty one, and marks
// it as kvbench's with `owner`. Errors (InvalidArgument, naming the path and
// the reason): `dir` is a symbolic link or not a directory; it is not empty
// and not marked; with kEmptyOrNew, it is marked but not empty. IOError when
// it cannot be made or marked. Parents made on the way are not marked (and so
// are never removed).
Status ClaimDirectory(const std::string& dir, const std::string& owner, ClaimMode mode);

// True when `dir` is a real directory (not a link) carrying kvbench's marker.
bool IsOwnedDirectory(const std::string& dir);

// True when `dir` holds nothing but kvbench's marker and lock files (or does
// not exist).
bool IsEmptyButForMarker(const std::string& dir);

// Removes a directory kvbench claimed: the whole tree when kvbench created it,
// the contents (marker last) when it adopted it. Does nothing and returns OK
// when `dir` does not exist; InvalidArgument when it is not marked or is a
// link. Links inside are removed as links, never followed.
Status RemoveOwnedDirectory(const std::string& dir);

// Removes everything in a directory kvbench claimed except its marker and
// lock (an engine's "recreate"). InvalidArgument when it is not marked.
Status EmptyOwnedDirectory(const std::string& dir);

// An advisory lock (flock, LOCK_EX) on `dir`/.kvbench-lock, held until the
// object is destroyed or moved from. The lock file holds the holder's pid so
// a second run can name it. Not thread-safe; one per process per directory.
class DirectoryLock {
 public:
  DirectoryLock() = default;
  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock& operator=(DirectoryLock&& other) noexcept;
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  ~DirectoryLock();

  // Takes the lock without waiting. InvalidArgument naming the directory and
  // the holder's pid when another process holds it; IOError when the lock
  // file cannot be opened (a symlink planted there is refused, not followed).
  static Status Acquire(const std::string& dir, DirectoryLock* lock);

  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace kvbench
