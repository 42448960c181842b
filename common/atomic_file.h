// Writing files so that a reader (or a crash, or Ctrl-C) sees either the old
// contents or the new, never a half-written file, and so that nothing planted
// beside the target (a symbolic link at a predictable temporary name) is
// followed: temporary files get unique names made with O_EXCL (mkstemp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace kvbench {

// Writes `contents` to a uniquely named temporary file in `path`'s directory,
// fsyncs it, renames it over `path` and fsyncs the directory. IOError naming
// the file on any failure; the temporary file is removed then and `path` is
// untouched.
Status WriteFileAtomically(const std::string& path, const std::string& contents);

// Publishes several files as one set: every file is first written and
// fsynced under a temporary name, and only when all of them were is each
// renamed over its target. On a failure before the renames nothing of the
// set replaced anything (the previous files stay) and the error names the
// file; a rename failing afterwards is reported the same way.
Status WriteFileSetAtomically(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace kvbench
