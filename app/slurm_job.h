// The Slurm jobs of one sharded run (`kvbench slurm`, docs/scale-out.md): a
// job array whose task K runs `kvbench run --shard K/N` into OUT/shard-K, and
// a merge job that runs `kvbench merge` once every task has ended.
//
// The merge job depends on the array with afterany, not afterok: with afterok
// a failed task leaves the merge job pending forever (its dependency can never
// be met) and nothing says which shard failed; with afterany it runs, joins
// nothing if a shard is missing, and its log and exit code (2) name the
// missing shard while the other shards' results stay where they are.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace kvbench::app {

struct SlurmJobSpec {
  std::string name;      // job name: kvbench-<workload>
  std::string kvbench;   // absolute path of the kvbench binary the nodes run
  std::string workload;  // absolute path of the workload file
  // Options every `kvbench run` gets (--engines, --scale, --repeat, --seed,
  // --timeout, -p, --costs), already split into words.
  std::vector<std::string> run_options;
  int shards = 1;
  std::string out;         // absolute output directory, shared by the nodes
  std::string partition;   // empty: the cluster's default partition
  std::string time_limit;  // each job's --time; empty: the partition's default
  // Whole nodes for the array tasks (benchmarks must not share a node).
  bool exclusive = true;
  // Where each task's engines keep their files, on the node; empty:
  // ${TMPDIR:-/tmp}. Each task uses its own directory below it.
  std::string data_dir;
  std::vector<std::string> sbatch_args;  // more #SBATCH options, for both jobs
};

// InvalidArgument when a path or an sbatch option cannot go into an #SBATCH
// line (whitespace or a newline in it; sbatch splits those lines itself), or
// any value holds a control character. Every value the scripts hold as a
// shell word passes through ShellQuote (common/shell_quote.h).
Status CheckSlurmJobSpec(const SlurmJobSpec& spec);

std::string ArrayScript(const SlurmJobSpec& spec);
std::string MergeScript(const SlurmJobSpec& spec);
// A shell script that submits both with sbatch, for submitting by hand.
std::string SubmitScript(const SlurmJobSpec& spec);

// Paths inside spec.out.
std::string ArrayScriptPath(const SlurmJobSpec& spec);
std::string MergeScriptPath(const SlurmJobSpec& spec);
std::string SubmitScriptPath(const SlurmJobSpec& spec);
std::string MergedDir(const SlurmJobSpec& spec);
std::string ShardDir(const SlurmJobSpec& spec, int shard);
std::string LogDir(const SlurmJobSpec& spec);


// Runs `sbatch --parsable ARGS... SCRIPT` and returns the job id it printed.
// InvalidArgument with one sentence when sbatch is not on PATH, cannot run,
// or fails (its own message quoted).
Status SubmitWithSbatch(const std::vector<std::string>& args, const std::string& script,
                        std::string* job_id);

}  // namespace kvbench::app
