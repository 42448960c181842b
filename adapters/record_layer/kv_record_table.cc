// Placeholder until the shared record layer lands.
#include "adapters/adapter.h"

namespace kvbench {

Status OpenKvRecordTable(Session*, const RecordTableSpec&, std::unique_ptr<RecordTable>*) {
  return Status::NotSupported("records: the shared record layer is not built yet");
}

}  // namespace kvbench
