// SHA-256 (OpenSSL's libcrypto) of a byte string, for content ids: the run id of a
// results file written before run ids existed, the workload hash and the
// host fingerprint. Not for secrets: nothing here is constant-time.
#pragma once

#include <string>
#include <string_view>

namespace kvbench::results {

// 64 lower-case hex digits.
std::string Sha256Hex(std::string_view bytes);

}  // namespace kvbench::results
