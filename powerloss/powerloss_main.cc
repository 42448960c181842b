// kvbench-powerloss: the power-loss layer as a process of its own. A FUSE
// daemon must not live in the process whose writes it serves (a request from
// that process would wait on itself), so the crash driver (runner/) starts
// this binary, one per trial.
//
//   kvbench-powerloss --backing DIR --trash DIR --mount DIR [--direct-io]
//
// --direct-io bypasses the page cache; it exists to check what the kernel
// allows then (docs/durability.md), kvbench never passes it.
//
// Control protocol: one command a line on stdin, one answer a line on stdout.
//   (at start)          -> "ready" once mounted, or "error MESSAGE" and exit 2
//   checkpoint          -> "ok": everything so far is durable
//   stats               -> "ok files=N names=M"
//   cut discard|torn S  -> "ok files=.. dropped=.. kept=.. names_undone=..
//   names_kept=.."
//                          (or "error MESSAGE"), then unmounts and exits
//   unmount, or EOF     -> unmounts and exits (no cut)
// SIGINT, SIGTERM and SIGHUP unmount and exit too; so does the death of the
// parent when it set PR_SET_PDEATHSIG. Exit code 0 after a clean unmount.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "powerloss/powerloss_fs.h"

namespace {

using kvbench::powerloss::CutMode;
using kvbench::powerloss::CutStats;
using kvbench::powerloss::FsConfig;
using kvbench::powerloss::PowerLossFs;

void Answer(const std::string &line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

void ServeControl(PowerLossFs *fs) {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string command;
    words >> command;
    if (command == "checkpoint") {
      fs->Checkpoint();
      Answer("ok");
    } else if (command == "stats") {
      Answer("ok " + fs->Stats());
    } else if (command == "cut") {
      std::string mode;
      uint64_t seed = 0;
      words >> mode >> seed;
      if (mode != "discard" && mode != "torn") {
        Answer("error unknown cut mode '" + mode + "'");
        continue;
      }
      CutStats st;
      const kvbench::Status s =
          fs->Cut(mode == "torn" ? CutMode::kTorn : CutMode::kDiscard, seed, &st);
      if (s.ok()) {
        Answer("ok files=" + std::to_string(st.files) + " dropped=" +
               std::to_string(st.pages_dropped) + " kept=" + std::to_string(st.pages_kept) +
               " names_undone=" + std::to_string(st.name_ops_undone) +
               " names_kept=" + std::to_string(st.name_ops_kept));
      } else {
        Answer("error " + s.ToString());
      }
      break;
    } else if (command == "unmount") {
      break;
    } else {
      Answer("error unknown command '" + command + "'");
    }
  }
  fs->RequestUnmount();
}

}  // namespace

int main(int argc, char **argv) {
  FsConfig config;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--direct-io") {
      config.direct_io = true;
      --i;
    } else if (i + 1 == argc) {
      break;
    } else if (flag == "--backing") {
      config.backing = argv[i + 1];
    } else if (flag == "--trash") {
      config.trash = argv[i + 1];
    } else if (flag == "--mount") {
      config.mountpoint = argv[i + 1];
    }
  }
  if (config.backing.empty() || config.trash.empty() || config.mountpoint.empty()) {
    Answer("error usage: kvbench-powerloss --backing DIR --trash DIR --mount DIR");
    return 2;
  }
  PowerLossFs fs;
  if (kvbench::Status s = fs.Mount(config); !s.ok()) {
    Answer("error " + s.message());
    return 2;
  }
  fs.InstallSignalHandlers();
  Answer("ready");
  std::thread control(ServeControl, &fs);
  control.detach();  // it may sit in getline after a signal ended the loop
  const int rc = fs.Loop();
  // The control thread may be using `fs` right now (stdin closed as a signal
  // ended the loop): returning would destroy it under that thread (the
  // SIGSEGV/SIGABRT at shutdown of issue 28). The mount is gone already, so
  // end the process without running destructors.
  std::fflush(stdout);
  ::_exit(rc == 0 ? 0 : 1);
}
