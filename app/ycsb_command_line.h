// `kvbench ycsb`'s arguments: YCSB's own command shapes, parsed as YCSB and
// YCSB-cpp parse them (single-dash long options, which CLI11 would read as
// groups of short flags, so the subcommand hands its arguments here
// unparsed):
//
//   kvbench ycsb load|run ENGINE [OPTION]...            YCSB 0.17's bin/ycsb
//   kvbench ycsb [-load] [-run|-t] -db ENGINE [OPTION]... YCSB's Client, YCSB-cpp
//
//   -P FILE         property file; repeatable, read in order (a later file wins)
//   -p NAME=VALUE   property; repeatable; overrides the files
//   -threads N      threadcount=N          -target N   target=N (ops/s)
//   -s              status lines on stderr (status=true)
//   -l LABEL        label prefixed to the status lines
//   kvbench's own:  --out DIR, --timeout SECONDS, -q|--quiet, -h|--help
//
// Options set properties in the order given, as YCSB does: `-threads 4 -p
// threadcount=8` runs 8 threads. With neither load nor run asked for (by
// word, flag or the doload/dotransactions properties) it runs, as YCSB does.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench::app {

struct YcsbCommandLine {
  bool load = false;
  bool run = false;
  bool cpp_form = false;  // -load/-run given: YCSB-cpp's summary lines too
  std::string engine;     // as given; empty: the db/dbname property's
  std::vector<std::string> files;
  std::vector<std::string> overrides;  // "name=value", in order
  std::string out;
  double timeout_s = 0;
  bool quiet = false;
  bool help = false;
};

// InvalidArgument naming the argument for anything YCSB would refuse too.
Status ParseYcsbCommandLine(const std::vector<std::string>& args, YcsbCommandLine* out);

// kvbench's engine for a YCSB -db name: "basic" (and site.ycsb.BasicDB) is
// `null`, "wiredtiger" is `wiredtiger-btree`; other names are kvbench's.
std::string YcsbEngineName(const std::string& db);

// The usage text (`kvbench ycsb --help`).
std::string YcsbUsage();

}  // namespace kvbench::app
