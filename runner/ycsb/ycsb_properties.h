// YCSB property files: a YCSB core-workload file (workloads/ycsb/workloada...)
// read as YCSB reads it and turned into a kvbench Workload.
//
// The file is a java.util.Properties file: `name=value` (or `name: value`,
// `name value`) lines, `#` and `!` comments, backslash line continuations and
// escapes. `-p name=value` overrides (repeatable) replace the file's values,
// as YCSB's -p does. CoreWorkload's properties and defaults apply:
//
//   recordcount, operationcount (0 needs maxexecutiontime), insertstart (0),
//   insertcount (recordcount - insertstart), fieldcount (10), fieldlength (100),
//   fieldlengthdistribution (constant | uniform | zipfian over [1, fieldlength]),
//   readproportion (0.95), updateproportion (0.05), insertproportion (0),
//   scanproportion (0), readmodifywriteproportion (0), requestdistribution
//   (uniform | zipfian | latest | hotspot | sequential | exponential),
//   hotspotdatafraction (0.2), hotspotopnfraction (0.8),
//   exponential.percentile (95), exponential.frac (0.8571428571),
//   minscanlength (1), maxscanlength (1000), scanlengthdistribution (uniform |
//   zipfian), insertorder (hashed | ordered), zeropadding (1), readallfields
//   (true), writeallfields (false), threadcount (1), target (0: unthrottled,
//   ops/s over all threads), maxexecutiontime (s), workload
//   (site.ycsb.workloads.CoreWorkload or com.yahoo.ycsb.workloads.CoreWorkload).
//
// The workload has two phases, as YCSB's load and transaction runs:
//   load  op insert: insertcount records from index insertstart, named INSERT
//   run   op mix: operationcount operations by the proportions, named READ,
//         UPDATE, INSERT, SCAN, READ-MODIFY-WRITE; inserts take indexes
//         recordcount, recordcount + 1... Threads interleave (thread t of T
//         takes recordcount + t, + t + T, ...) so no insert index is shared;
//         each thread publishes how many inserts it completed, and reads draw
//         from the keys below recordcount + T x the smallest of those counts:
//         YCSB's acknowledged insert counter, conservatively (a key is only
//         chosen once it and every key before it were written).
// Keys are the datasets' `ycsb` kind; records are runner/ycsb_record.h.
// The key chooser's item count follows CoreWorkload: insertcount for uniform,
// hotspot and sequential; insertcount + 2 x operationcount x insertproportion
// + 1 for zipfian; recordcount for latest and exponential (which, like YCSB's,
// also reach the keys the run inserted).
//
// Deviation: insertstart/insertcount split a load between YCSB clients; here
// they choose the indexes the load inserts, and the run phase draws from the
// indexes below those loaded or inserted so far (keys of another client's
// slice are misses, reported as NOT_FOUND).
//
// Several files (YCSB's -P, in order: a later file overrides an earlier one)
// and -p overrides resolve into one property set. Besides CoreWorkload's,
// YCSB's client properties (measurementtype, status.interval, exportfile...)
// and database properties (`lmdb.mapsize`, YCSB-cpp's `rocksdb.dbname`...)
// are read by runner/ycsb/ycsb_db_properties.h; any other property is an error
// naming it, except those docs/ycsb.md lists as ignored.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "runner/workload.h"

namespace kvbench::runner {

struct PropertyValue {
  std::string value;
  int line = 0;      // 0: given by -p
  std::string file;  // the file it came from; "" for -p
};
using Properties = std::map<std::string, PropertyValue>;

// Where a property came from, for messages: "FILE:LINE" or "-p NAME=VALUE"
// (`fallback` names the file when the property has none).
std::string OriginOf(const std::string& name, const PropertyValue& value,
                     const std::string& fallback = "");

// YCSB's sources of properties, in its order of precedence: -P files as
// given (a later one overrides an earlier one), then -p overrides.
struct PropertySources {
  std::vector<std::string> files;
  std::vector<std::string> overrides;  // "name=value"
};

// java.util.Properties' line format. Never fails: like Java, any line is a
// property or a comment.
Properties ParseProperties(const std::string& text);

// True for a workload file read as YCSB properties: any name not ending in
// ".toml".
bool IsYcsbPropertyFile(const std::string& path);

// "name=value" as given to -p; InvalidArgument without '=' or a name.
Status ParsePropertyOverride(const std::string& arg, std::string* name, std::string* value);

// Reads a YCSB property file, applies `overrides` ("name=value") and makes the
// workload. InvalidArgument "FILE:LINE: property 'NAME': ..." (or "FILE: -p
// NAME: ...") for a bad value; IOError for an unreadable file.
Status LoadYcsbWorkload(const std::string& path, const std::vector<std::string>& overrides,
                        Workload* out);
Status YcsbWorkloadFromText(const std::string& text, const std::string& path,
                            const std::vector<std::string>& overrides, Workload* out);
// Reads every file of `sources` (IOError "FILE: cannot be read") and makes
// the workload; it is named after the first file, and its source text is
// the files' texts, each after a "# -P FILE" line.
Status LoadYcsbWorkload(const PropertySources& sources, Workload* out);

}  // namespace kvbench::runner
