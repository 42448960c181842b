// Parsers of option and workload values, shared by EngineOptions
// (adapters/engine_options.h), the workload parser and the command line. Each
// returns false, leaving *out untouched, when the whole text does not parse.
#pragma once

#include <cstdint>
#include <string_view>

namespace kvbench {

// A decimal integer, optionally negative; nothing else may follow.
bool ParseInt64(std::string_view text, int64_t* out);
// true/false/on/off/1/0/yes/no, any case.
bool ParseBool(std::string_view text, bool* out);
// A byte size: a plain integer or one with a suffix K, M, G, T (KiB, MiB...
// are the same, powers of 1024), e.g. "64MiB", "1G". Overflow is refused.
bool ParseBytes(std::string_view text, uint64_t* out);

}  // namespace kvbench
