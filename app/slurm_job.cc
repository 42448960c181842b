#include "app/slurm_job.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "common/owned_dir.h"
#include "common/shell_quote.h"

extern char** environ;

namespace kvbench::app {

namespace {

bool HasSpaceOrNewline(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// The #SBATCH lines both jobs share after their own.
std::string CommonSbatchLines(const SlurmJobSpec& spec) {
  std::string out = "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n";
  if (!spec.partition.empty()) out += "#SBATCH --partition=" + spec.partition + "\n";
  if (!spec.time_limit.empty()) out += "#SBATCH --time=" + spec.time_limit + "\n";
  for (const std::string& a : spec.sbatch_args) out += "#SBATCH " + a + "\n";
  return out;
}

// Reads `fd` to its end.
std::string ReadAll(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

std::string FirstLine(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  const size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);  // sbatch's last line says why
}

}  // namespace

std::string ArrayScriptPath(const SlurmJobSpec& s) { return s.out + "/kvbench-array.sbatch"; }
std::string MergeScriptPath(const SlurmJobSpec& s) { return s.out + "/kvbench-merge.sbatch"; }
std::string SubmitScriptPath(const SlurmJobSpec& s) { return s.out + "/submit.sh"; }
std::string MergedDir(const SlurmJobSpec& s) { return s.out + "/merged"; }
std::string ShardDir(const SlurmJobSpec& s, int shard) {
  return fmt::format("{}/shard-{}", s.out, shard);
}
std::string LogDir(const SlurmJobSpec& s) { return s.out + "/logs"; }

Status CheckSlurmJobSpec(const SlurmJobSpec& spec) {
  // Comments and #SBATCH lines are lines, not shell words: a newline in any
  // value would end one and start a command.
  for (const auto& [what, value] :
       {std::pair{"the job name", &spec.name}, std::pair{"the workload path", &spec.workload},
        std::pair{"--kvbench", &spec.kvbench}, std::pair{"--out", &spec.out},
        std::pair{"--data-dir", &spec.data_dir}, std::pair{"--partition", &spec.partition},
        std::pair{"--time", &spec.time_limit}}) {
    if (HasControlCharacter(*value)) {
      return Status::InvalidArgument(std::string(what) +
                                     " holds a control character (a newline?): it cannot go "
                                     "into a job script");
    }
  }
  for (const std::string& o : spec.run_options) {
    if (HasControlCharacter(o)) {
      return Status::InvalidArgument("option '" + o + "' holds a control character");
    }
  }
  if (HasSpaceOrNewline(spec.out)) {
    return Status::InvalidArgument("--out '" + spec.out +
                                   "': #SBATCH lines cannot hold a path with spaces");
  }
  for (const std::string& a : spec.sbatch_args) {
    if (a.empty() || a.find('\n') != std::string::npos || a[0] != '-') {
      return Status::InvalidArgument("--sbatch-arg '" + a +
                                     "': expected one sbatch option, e.g. --sbatch-arg qos=long");
    }
  }
  for (const auto& [what, value] :
       {std::pair{"--partition", &spec.partition}, std::pair{"--time", &spec.time_limit}}) {
    if (HasSpaceOrNewline(*value)) {
      return Status::InvalidArgument(std::string(what) + " '" + *value + "': no spaces allowed");
    }
  }
  return Status::OK();
}

std::string ArrayScript(const SlurmJobSpec& spec) {
  std::string s = "#!/bin/bash\n";
  s += fmt::format(
      "# Written by `kvbench slurm` (docs/scale-out.md). Array task K runs shard K/{} of\n"
      "# {}\n# into {}/shard-K, its engines' files in a directory of its own on the node.\n",
      spec.shards, spec.workload, spec.out);
  s += fmt::format("#SBATCH --job-name={}\n#SBATCH --array=0-{}\n", spec.name, spec.shards - 1);
  if (spec.exclusive) s += "#SBATCH --exclusive\n";
  s += fmt::format("#SBATCH --output={}/shard-%a.log\n", LogDir(spec));
  s += CommonSbatchLines(spec);
  s += "set -u\n";
  s += "shard=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}\n";
  s += fmt::format("out={}/shard-$shard\n", ShellQuote(spec.out));
  // mktemp -d: a fresh folder of this task's own, never one planted at a
  // predictable name in a shared /tmp.
  s += fmt::format(
      "data=$(mktemp -d {}/kvbench-\"$SLURM_ARRAY_JOB_ID-$shard\".XXXXXX) || exit 1\n",
      spec.data_dir.empty() ? std::string("\"${TMPDIR:-/tmp}\"") : ShellQuote(spec.data_dir));
  s += "# A resubmitted task replaces its earlier output (--overwrite replaces only what kvbench\n"
       "# wrote there), so results of an earlier task never pass for its own.\n";
  s += fmt::format(
      "{} run {} --shard \"$shard/{}\" --out \"$out\" --overwrite --data-dir \"$data\" "
      "--quiet \\\n",
      ShellQuote(spec.kvbench), ShellQuote(spec.workload), spec.shards);
  s += "  --label slurm.job_id=\"$SLURM_JOB_ID\" \\\n"
       "  --label slurm.array_job_id=\"$SLURM_ARRAY_JOB_ID\" \\\n"
       "  --label slurm.array_task_id=\"$SLURM_ARRAY_TASK_ID\" \\\n"
       "  --label slurm.node=\"${SLURMD_NODENAME:-$(hostname)}\"";
  for (const std::string& o : spec.run_options) s += " " + ShellQuote(o);
  s += "\nrc=$?\nrm -rf \"$data\"\nexit $rc\n";
  return s;
}

std::string MergeScript(const SlurmJobSpec& spec) {
  std::string s = "#!/bin/bash\n";
  s += fmt::format(
      "# Written by `kvbench slurm` (docs/scale-out.md): joins the {} shards in {}.\n"
      "# Submitted with --dependency=afterany:<array job>, so it runs once every array task\n"
      "# has ended, failed ones too: then `kvbench merge` names the missing shard (exit 2)\n"
      "# and the other shards' results stay as they are. With afterok it would never run.\n",
      spec.shards, spec.out);
  s += fmt::format("#SBATCH --job-name={}-merge\n#SBATCH --output={}/merge.log\n", spec.name,
                   LogDir(spec));
  s += CommonSbatchLines(spec);
  s += fmt::format("set -u\nexec {} merge", ShellQuote(spec.kvbench));
  for (int k = 0; k < spec.shards; ++k) s += " " + ShellQuote(ShardDir(spec, k));
  s += " -o " + ShellQuote(MergedDir(spec)) + " --overwrite\n";
  return s;
}

std::string SubmitScript(const SlurmJobSpec& spec) {
  return fmt::format(
      "#!/bin/bash\n"
      "# Written by `kvbench slurm`: submits the job array, then the merge job after it.\n"
      "set -euo pipefail\n"
      "array=$(sbatch --parsable {0})\narray=${{array%%;*}}\n"
      "merge=$(sbatch --parsable --dependency=afterany:$array {1})\nmerge=${{merge%%;*}}\n"
      "report={3}\n"
      "echo \"array job $array ({2} tasks), merge job $merge; report: $report\"\n",
      ShellQuote(ArrayScriptPath(spec)), ShellQuote(MergeScriptPath(spec)), spec.shards,
      ShellQuote(MergedDir(spec) + "/report.html"));
}

Status SubmitWithSbatch(const std::vector<std::string>& args, const std::string& script,
                        std::string* job_id) {
  std::vector<std::string> words = {"sbatch", "--parsable"};
  words.insert(words.end(), args.begin(), args.end());
  words.push_back(script);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    return Status::InvalidArgument(std::string("sbatch: cannot make a pipe: ") +
                                   std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "sbatch", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return Status::InvalidArgument(
        spawned == ENOENT
            ? "sbatch not found on PATH: run on a machine with Slurm's client commands, or "
              "submit the scripts there (bash " +
                  script.substr(0, script.rfind('/')) + "/submit.sh)"
            : std::string("sbatch cannot be started: ") + std::strerror(spawned));
  }
  // sbatch prints a line or two: reading one pipe to its end before the
  // other cannot fill a pipe buffer.
  const std::string out = ReadAll(out_pipe[0]);
  const std::string err = ReadAll(err_pipe[0]);
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::InvalidArgument(
        fmt::format("sbatch {} failed ({}): {}", script,
                    WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status)) : "killed",
                    err.empty() ? std::string("no message") : FirstLine(err)));
  }
  // --parsable prints "JOBID" or "JOBID;CLUSTER".
  std::string id = out.substr(0, out.find_first_of(";\n"));
  if (id.empty() ||
      !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Status::InvalidArgument("sbatch " + script + " printed no job id: '" + FirstLine(out) +
                                   "'");
  }
  *job_id = id;
  return Status::OK();
}

}  // namespace kvbench::app
