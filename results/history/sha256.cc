#include "results/history/sha256.h"

#include <openssl/evp.h>

#include "common/strings.h"

namespace kvbench::results {

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest fails only when out of memory; an empty id is then refused by
  // the store as malformed rather than colliding with another run's.
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    return {};
  }
  std::string out;
  AppendHex(std::string_view(reinterpret_cast<const char*>(digest), length), &out);
  return out;
}

}  // namespace kvbench::results
