// Small string helpers used across folders (one definition each).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kvbench {

// ASCII lower case of `s`.
std::string ToLower(std::string_view s);

// `v` as 16 lower-case hex digits (digests in results).
std::string HexU64(uint64_t v);

// FNV-1a, 64 bits, of `text`: a stable, cheap identity hash (plan hashes,
// slugs), never a security one.
uint64_t Fnv1a64(std::string_view text);

// Appends `bytes` as two lower-case hex digits a byte.
void AppendHex(std::string_view bytes, std::string* out);

}  // namespace kvbench
