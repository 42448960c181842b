#include "adapters/registry.h"

#include <algorithm>

namespace kvbench {

AdapterRegistry& AdapterRegistry::Global() {
  static AdapterRegistry registry;
  return registry;
}

bool AdapterRegistry::Register(AdapterInfo info) {
  if (info.name.empty() || !info.create) {
    errors_.push_back("adapter registered without a name or factory");
    return false;
  }
  if (Find(info.name) != nullptr) {
    errors_.push_back("adapter name '" + info.name + "' registered twice; the second was refused");
    return false;
  }
  adapters_.push_back(std::move(info));
  return true;
}

const AdapterInfo* AdapterRegistry::Find(std::string_view name) const {
  name = name.substr(0, name.find('@'));  // "sqlite@full": sqlite under a second option set
  for (const AdapterInfo& info : adapters_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::vector<const AdapterInfo*> AdapterRegistry::All() const {
  std::vector<const AdapterInfo*> out;
  for (const AdapterInfo& info : adapters_) out.push_back(&info);
  std::sort(out.begin(), out.end(),
            [](const AdapterInfo* a, const AdapterInfo* b) { return a->name < b->name; });
  return out;
}

std::vector<std::string> AdapterRegistry::Names() const {
  std::vector<std::string> out;
  for (const AdapterInfo* info : All()) out.push_back(info->name);
  return out;
}

Status AdapterRegistry::Create(std::string_view name, std::unique_ptr<Adapter>* out) const {
  const AdapterInfo* info = Find(name);
  if (info == nullptr) {
    std::string known;
    for (const std::string& n : Names()) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown engine '" + std::string(name) + "' (known: " + known +
                                   ")");
  }
  *out = info->create();
  return Status::OK();
}

}  // namespace kvbench
