#include "app/ycsb_command_line.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "runner/workload.h"

namespace kvbench::app {

namespace {

bool PositiveInteger(const std::string& text) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' && errno == 0 && v >= 0;
}

}  // namespace

std::string YcsbEngineName(const std::string& db) {
  if (db == "basic" || db == "site.ycsb.BasicDB" || db == "com.yahoo.ycsb.BasicDB") return "null";
  if (db == "wiredtiger") return "wiredtiger-btree";
  return db;
}

std::string YcsbUsage() {
  return "Usage: kvbench ycsb load|run ENGINE [OPTION]...\n"
         "       kvbench ycsb [-load] [-run|-t] -db ENGINE [OPTION]...\n"
         "YCSB's command line: load ENGINE's directory, then run workloads against it.\n"
         "  -P FILE        property file (workload, database); repeatable, in order\n"
         "  -p NAME=VALUE  property; repeatable; overrides the files\n"
         "  -threads N     client threads (threadcount)\n"
         "  -target N      operations per second over all threads (target)\n"
         "  -s             status lines every status.interval seconds (10) on stderr\n"
         "  -l LABEL       label prefixed to the status lines\n"
         "  -load, -run, -t, -db ENGINE   YCSB's Client and YCSB-cpp's form\n"
         "  --out DIR      results.json and reports (default runs/ycsb-ENGINE-PHASES-TIME)\n"
         "  --timeout S    seconds allowed for the engine (default 86400)\n"
         "  -q, --quiet    no progress messages\n"
         "The engine's files live in -p kvbench.dir=DIR (default kvbench-ycsb/ENGINE);\n"
         "YCSB's output goes to stdout (or exportfile), kvbench's summary to stderr.\n"
         "docs/ycsb.md lists the properties kvbench reads, maps and ignores.\n";
}

Status ParseYcsbCommandLine(const std::vector<std::string>& args, YcsbCommandLine* out) {
  YcsbCommandLine c;
  size_t i = 0;
  if (i < args.size() && (args[i] == "load" || args[i] == "run")) {
    (args[i] == "load" ? c.load : c.run) = true;
    ++i;
    if (i >= args.size() || args[i].starts_with("-")) {
      return Status::InvalidArgument("ycsb " + args[i - 1] + ": name the engine (kvbench ycsb " +
                                     args[i - 1] + " ENGINE -P FILE...)");
    }
    c.engine = args[i++];
  } else if (i < args.size() && args[i] == "shell") {
    return Status::InvalidArgument("ycsb shell: not supported (kvbench runs workloads)");
  }
  const bool word_form = c.load || c.run;
  auto value = [&](const std::string& option) -> Status {
    if (i + 1 >= args.size()) {
      return Status::InvalidArgument("ycsb: missing value for " + option);
    }
    ++i;
    return Status::OK();
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      c.help = true;
    } else if (a == "-P") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      c.files.push_back(args[i]);
    } else if (a == "-p") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      if (args[i].find('=') == std::string::npos || args[i][0] == '=') {
        return Status::InvalidArgument("ycsb: -p " + args[i] +
                                       ": expected name=value (e.g. -p operationcount=99999)");
      }
      c.overrides.push_back(args[i]);
    } else if (a == "-threads" || a == "-target") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      if (!PositiveInteger(args[i])) {
        return Status::InvalidArgument("ycsb: " + a + " '" + args[i] + "': not a whole number");
      }
      c.overrides.push_back((a == "-threads" ? "threadcount=" : "target=") + args[i]);
    } else if (a == "-s") {
      c.overrides.push_back("status=true");
    } else if (a == "-l") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      c.overrides.push_back("label=" + args[i]);
    } else if (a == "-load" || a == "-run" || a == "-t") {
      if (word_form) {
        return Status::InvalidArgument("ycsb: " + a + " with `ycsb load|run ENGINE`: use one form");
      }
      (a == "-load" ? c.load : c.run) = true;
      c.cpp_form = true;
    } else if (a == "-db") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      if (word_form) {
        return Status::InvalidArgument("ycsb: -db with `ycsb load|run ENGINE`: use one form");
      }
      c.engine = args[i];
    } else if (a == "--out" || a == "--timeout") {
      KVBENCH_RETURN_IF_ERROR(value(a));
      if (a == "--out") {
        c.out = args[i];
      } else {
        char* end = nullptr;
        c.timeout_s = std::strtod(args[i].c_str(), &end);
        // inf and nan parse too; neither is a time limit (runner/workload.h).
        if (args[i].empty() || *end != '\0' || !std::isfinite(c.timeout_s) || !(c.timeout_s > 0) ||
            c.timeout_s > runner::kMaxTimeoutS) {
          return Status::InvalidArgument(
              "ycsb: --timeout '" + args[i] + "': not seconds above 0 and at most " +
              std::to_string(static_cast<int64_t>(runner::kMaxTimeoutS)));
        }
      }
    } else if (a.starts_with("--out=")) {
      c.out = a.substr(6);
    } else if (a == "-q" || a == "--quiet") {
      c.quiet = true;
    } else if (a.starts_with("-")) {
      return Status::InvalidArgument("ycsb: unknown option '" + a + "' (kvbench ycsb --help)");
    } else {
      return Status::InvalidArgument("ycsb: unexpected argument '" + a +
                                     "' (options come as -P FILE, -p NAME=VALUE...)");
    }
  }
  *out = std::move(c);
  return Status::OK();
}

}  // namespace kvbench::app
