#include "conformance/adapter_fixture.h"

namespace kvbench::conformance {

Status OpenWithDefaults(const std::string& engine, const std::string& directory,
                        std::unique_ptr<Adapter>* adapter) {
  KVBENCH_RETURN_IF_ERROR(AdapterRegistry::Global().Create(engine, adapter));
  OpenRequest request;
  request.directory = directory;
  KVBENCH_RETURN_IF_ERROR(
      ResolveEngineOptions(engine, (*adapter)->OptionSpecs(), {}, &request.options));
  return (*adapter)->Open(request);
}

}  // namespace kvbench::conformance
