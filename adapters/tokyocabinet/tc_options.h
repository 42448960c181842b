// The engine options of tc-hash and tc-btree: their specs (names, defaults, help) and the tuning
// parsed from resolved values.
//
// Defaults are Tokyo Cabinet's own except tc.bnum, the bucket count, which TC sizes for small
// databases: TC's advice is 0.5-4x the records (hash) or 1-4x the pages (B+ tree), so kvbench's
// defaults suit loads of a few million records. A file over 2 GB needs tc.opts=large.
#pragma once

#include <cstdint>
#include <vector>

#include "adapters/engine_options.h"

namespace kvbench {

// Tuning read from the engine options; -1 (or 0 where TC says so) means "TC's default".
struct TcSettings {
  int64_t bnum = 0, xmsiz = -1;
  int64_t apow = -1, fpow = -1;
  int64_t rcnum = 0, dfunit = 0;                       // hash record cache; defragmentation step
  int64_t lmemb = 0, nmemb = 0, lcnum = 0, ncnum = 0;  // B+ tree pages and page caches
  uint8_t opts = 0;                                    // HDBT* / BDBT* flags (same values)
  bool sync_on_commit = false;                         // tc.sync=commit
};

// Specs for tc-btree (`btree`) or tc-hash.
std::vector<OptionSpec> TcOptionSpecs(bool btree);

// Parses resolved options; options of the other database type are absent and ignored.
// InvalidArgument names the option.
Status ParseTcSettings(const EngineOptions& options, TcSettings* out);

}  // namespace kvbench
