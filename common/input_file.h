// Reading a file a user named as input (a workload, a key file, a results
// file) without trusting what is behind the name.
//
// A name may point at a directory, a FIFO that never delivers, /dev/zero, or
// a file larger than memory: reading such a "file" to its end hangs or
// exhausts memory before any parser can object. So an input must be a
// regular file (after following symbolic links) no larger than a limit the
// caller states, and it is read through one descriptor whose fstat is the
// one checked (no window between the check and the read).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace kvbench {

// Upper bounds of the inputs kvbench reads whole, stated once here and quoted
// in docs and messages.
inline constexpr uint64_t kMaxWorkloadFileBytes = uint64_t{16} << 20;  // 16 MiB of TOML/properties
inline constexpr uint64_t kMaxResultsFileBytes = uint64_t{2} << 30;    // 2 GiB of results.json
inline constexpr uint64_t kMaxKeyFileBytes = uint64_t{16} << 30;       // 16 GiB of keys

// Reads all of `path` into *contents. `what` names the input in messages
// ("workload file", "key file"). Errors, each naming `what` and the path:
//   IOError: missing or unreadable (with strerror);
//   InvalidArgument: not a regular file (a directory, device, FIFO, socket),
//     or larger than `max_bytes` (also when it grows past it while read).
Status ReadInputFile(const std::string& path, uint64_t max_bytes, std::string_view what,
                     std::string* contents);

// The same checks without reading: for inputs a library opens by name.
Status CheckInputFile(const std::string& path, uint64_t max_bytes, std::string_view what);

}  // namespace kvbench
