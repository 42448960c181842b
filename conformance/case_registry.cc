#include "conformance/case_registry.h"

namespace kvbench::conformance {

CaseRegistry& CaseRegistry::Global() {
  static CaseRegistry registry;
  return registry;
}

bool CaseRegistry::Add(Case c) {
  cases_.push_back(std::move(c));
  return true;
}

std::vector<const Case*> CaseRegistry::Suite(const std::string& suite) const {
  std::vector<const Case*> out;
  for (const Case& c : cases_) {
    if (c.suite == suite) out.push_back(&c);
  }
  return out;
}

}  // namespace kvbench::conformance
