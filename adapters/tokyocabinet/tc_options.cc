#include "adapters/tokyocabinet/tc_options.h"

#include <tcbdb.h>
#include <tchdb.h>

#include <algorithm>
#include <iterator>
#include <string>

namespace kvbench {
namespace {

// Reads an optional integer option in [low, high]; empty text leaves *out unchanged.
Status GetOptionalInt(const EngineOptions& options, const std::string& name, int64_t low,
                      int64_t high, int64_t* out) {
  if (!options.Has(name) || options.GetString(name).empty()) return Status::OK();
  int64_t v = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64(name, &v));
  if (v < low || v > high) {
    return Status::InvalidArgument("option '" + name + "': " + std::to_string(v) + " is outside [" +
                                   std::to_string(low) + ", " + std::to_string(high) + "]");
  }
  *out = v;
  return Status::OK();
}

struct NamedFlag {
  const char* name;
  uint8_t bit;
};
// The HDBT* values; TCBDB's BDBT* flags have the same values (BDBTLARGE == HDBTLARGE...).
constexpr NamedFlag kFlags[] = {
    {"large", HDBTLARGE}, {"deflate", HDBTDEFLATE}, {"bzip", HDBTBZIP}, {"tcbs", HDBTTCBS}};

static_assert(int{BDBTLARGE} == int{HDBTLARGE} && int{BDBTDEFLATE} == int{HDBTDEFLATE} &&
              int{BDBTBZIP} == int{HDBTBZIP} && int{BDBTTCBS} == int{HDBTTCBS});

// "large,deflate" (or separated by '|' or spaces) into TC's tuning flags.
Status ParseOpts(const std::string& text, uint8_t* out) {
  uint8_t opts = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find_first_of(",| ", pos), text.size());
    const std::string word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word.empty()) continue;
    const auto flag = std::find_if(std::begin(kFlags), std::end(kFlags),
                                   [&](const NamedFlag& f) { return word == f.name; });
    if (flag == std::end(kFlags)) {
      return Status::InvalidArgument("option 'tc.opts': unknown flag '" + word +
                                     "' (known: large, deflate, bzip, tcbs)");
    }
    opts |= flag->bit;
  }
  *out = opts;
  return Status::OK();
}

}  // namespace

std::vector<OptionSpec> TcOptionSpecs(bool btree) {
  std::vector<OptionSpec> specs = {
      {"tc.sync", "none",
       "none: the OS writes back; commit: fsync at each batch commit (TSYNC) and autocommit write"},
      {"tc.opts", "",
       "tuning flags, comma-separated: large (files over 2 GB), deflate, bzip, tcbs"},
      {"tc.apow", "", "record alignment, power of 2; empty: TC's default"},
      {"tc.fpow", "", "free block pool size, power of 2; empty: TC's default (10)"},
      {"tc.xmsiz", "", "extra mapped memory in bytes; empty: TC's default"},
      {"tc.dfunit", "", "auto-defragmentation step; empty: off (TC's default)"},
  };
  if (btree) {
    specs.push_back({"tc.bnum", "131071",
                     "bucket array size; TC advises 1-4x the pages (TC's default 32749 suits ~2M "
                     "records, this ~8M)"});
    specs.push_back({"tc.lmemb", "", "records per leaf page; empty: TC's default (128)"});
    specs.push_back({"tc.nmemb", "", "keys per non-leaf page; empty: TC's default (256)"});
    specs.push_back({"tc.lcnum", "", "leaf pages cached; empty: TC's default (1024)"});
    specs.push_back({"tc.ncnum", "", "non-leaf pages cached; empty: TC's default (512)"});
  } else {
    specs.push_back({"tc.bnum", "1000000",
                     "bucket array size; TC advises 0.5-4x the records (TC's default 131071 suits "
                     "only ~0.5M records, this ~4M)"});
    specs.push_back(
        {"tc.rcnum", "", "records cached in memory; empty: no record cache (TC's default)"});
  }
  return specs;
}

Status ParseTcSettings(const EngineOptions& options, TcSettings* out) {
  TcSettings s;
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.bnum", 0, INT64_MAX, &s.bnum));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.apow", -1, 16, &s.apow));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.fpow", -1, 20, &s.fpow));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.xmsiz", -1, INT64_MAX, &s.xmsiz));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.dfunit", 0, INT32_MAX, &s.dfunit));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.rcnum", 0, INT32_MAX, &s.rcnum));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.lmemb", 0, INT32_MAX, &s.lmemb));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.nmemb", 0, INT32_MAX, &s.nmemb));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.lcnum", 0, INT32_MAX, &s.lcnum));
  KVBENCH_RETURN_IF_ERROR(GetOptionalInt(options, "tc.ncnum", 0, INT32_MAX, &s.ncnum));
  KVBENCH_RETURN_IF_ERROR(ParseOpts(options.GetString("tc.opts"), &s.opts));
  const std::string sync = options.GetString("tc.sync");
  if (sync != "none" && sync != "commit") {
    return Status::InvalidArgument("option 'tc.sync': '" + sync + "' is not none or commit");
  }
  s.sync_on_commit = sync == "commit";
  *out = s;
  return Status::OK();
}

}  // namespace kvbench
