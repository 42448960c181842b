// Helpers for adapters whose engine keeps all its files in the directory the
// runner gave it (OpenRequest::directory): listing them, and joining names.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench {

// Every regular file below `directory` (recursively), as absolute paths, sorted.
// An adapter whose engine owns its whole directory implements ListFiles with
// this, so files the engine creates on its own (WAL, lock and log files) are
// never missed. An empty `directory` (an adapter never opened) lists nothing.
Status ListRegularFiles(const std::string& directory, std::vector<std::string>* paths);

// fsync(2) of the directory itself, so names created, renamed or removed in
// it survive a power cut (an engine that replaces its file by rename needs it
// after the rename). IOError naming the directory on failure.
Status FsyncDirectory(const std::string& directory);

// directory + "/" + name.
std::string JoinPath(const std::string& directory, const std::string& name);

}  // namespace kvbench
