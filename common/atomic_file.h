// Writing a file so that a reader (or a crash, or Ctrl-C) sees either the old
// contents or the new, never a half-written file.
#pragma once

#include <string>

#include "common/status.h"

namespace kvbench {

// Writes `contents` to a temporary file in the same directory, fsyncs it and
// renames it over `path`. IOError naming the file on any failure; the
// temporary file is removed then and `path` is untouched.
Status WriteFileAtomically(const std::string& path, const std::string& contents);

}  // namespace kvbench
