#include "results/durability.h"

namespace kvbench::results {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DurabilityRun, engine, fault, status, reason,
                                                options, declared, declared_atomic, basis, seed,
                                                writers, trials, trials_losing_acked,
                                                most_commits_lost, commits_acked, commits_lost,
                                                atomicity_violations, reordered, corrupt,
                                                unopenable, integrity_checked, recovery_s, measured,
                                                finding, problems)

std::string FaultLabel(const DurabilityRun& run) {
  if (run.writers <= 1) return run.fault;
  return run.fault + ", " + std::to_string(run.writers) + " writers";
}

int PromiseRank(const std::string& level) {
  if (level == kPromiseNothing) return 0;
  if (level == kPromiseConsistent) return 1;
  if (level == kPromiseDurable) return 2;
  return -1;
}

void ClassifyDurability(DurabilityRun* run) {
  run->measured.clear();
  run->finding = false;
  if (run->trials == 0) return;
  if (run->corrupt > 0 || run->unopenable > 0) {
    run->measured = kPromiseNothing;
  } else if (run->trials_losing_acked > 0) {
    run->measured = kPromiseConsistent;
  } else {
    run->measured = kPromiseDurable;
  }
  // Atomic batches are promised only where the fault leaves a consistent state at all.
  const int declared = PromiseRank(run->declared);
  run->finding = declared > PromiseRank(run->measured) ||
                 (run->declared_atomic && declared >= 1 && run->atomicity_violations > 0);
}

nlohmann::json DurabilityToJson(const std::vector<DurabilityRun>& runs) {
  return nlohmann::json(runs);
}

Status DurabilityFromJson(const nlohmann::json& doc, std::vector<DurabilityRun>* out) {
  if (!doc.is_array()) return Status::InvalidArgument("results.durability: not an array");
  std::vector<DurabilityRun> runs;
  for (size_t i = 0; i < doc.size(); ++i) {
    try {
      runs.push_back(doc[i].get<DurabilityRun>());
    } catch (const nlohmann::json::exception& e) {
      return Status::InvalidArgument("results.durability[" + std::to_string(i) + "]: " + e.what());
    }
  }
  *out = std::move(runs);
  return Status::OK();
}

}  // namespace kvbench::results
