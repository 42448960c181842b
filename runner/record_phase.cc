#include "runner/record_phase.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/strings.h"
#include "datasets/random.h"
#include "datasets/request_distribution.h"
#include "runner/cycle_clock.h"
#include "runner/latency_histogram.h"
#include "runner/op_figures.h"
#include "runner/record_source.h"

namespace kvbench::runner {

RecordState::RecordState() = default;
RecordState::~RecordState() = default;

void RecordState::Clear() {
  source.reset();
  ids.clear();
  deleted_upto = 0;
}

namespace {

constexpr size_t kMaxBlock = 256;
// Fields prepared per block at most (a block of 50,000-field records holds one).
constexpr size_t kMaxBlockFields = 1 << 16;

// The timed loop shared by every record operation: blocks of operations,
// prepared untimed, executed under one pair of clock reads, with the
// session's batches opened and committed inside the timed part.
class BlockRunner {
 public:
  // `adapter` is for sync = "commit": its Sync() after every commit (every
  // write when not batched), as seed 004's db_sync after each db_put.
  BlockRunner(const PhaseSpec& spec, Adapter* adapter, Session* session, size_t block)
      : spec_(spec), adapter_(adapter), session_(session), block_(block) {}

  // prepare(i, slot) fills slot `slot` for operation i (untimed);
  // execute(i, slot) does it and returns its status (timed). NotFound counts
  // as not_found; any other error stops the loop and is returned.
  template <class Prepare, class Execute>
  Status Run(uint64_t count, Prepare&& prepare, Execute&& execute) {
    const CycleClock& clock = CycleClock::Get();
    // Reads are batched too: on native a batch holds the lock once for all
    // its calls (WhiteDB's speed tests took no locks at all).
    const bool batched = spec_.batch > 1;
    const bool sync_each = InfoOf(spec_.op).writes && spec_.sync == CommitSync::kCommit;
    uint64_t in_batch = 0;
    for (uint64_t first = 0; first < count; first += block_) {
      const uint64_t n = std::min<uint64_t>(block_, count - first);
      for (uint64_t j = 0; j < n; ++j) {
        prepare(first + j, static_cast<size_t>(j));
        digest_ = datasets::Mix64(digest_ ^ (first + j));
      }
      Status error;
      const uint64_t t0 = clock.Now();
      uint64_t done = 0;
      for (; done < n; ++done) {
        if (batched && in_batch == 0) {
          error = session_->BeginBatch();
          if (!error.ok()) break;
        }
        const Status s = execute(first + done, static_cast<size_t>(done));
        if (s.IsNotFound()) {
          ++work_.not_found;
        } else if (!s.ok()) {
          error = s;
          break;
        }
        if (batched && ++in_batch == spec_.batch) {
          in_batch = 0;
          error = session_->CommitBatch();
          if (error.ok() && sync_each) error = adapter_->Sync();
          if (!error.ok()) break;
        } else if (!batched && sync_each) {
          error = adapter_->Sync();
          if (!error.ok()) break;
        }
      }
      if (error.ok() && batched && in_batch > 0 && first + n == count) {
        error = session_->CommitBatch();
        if (error.ok() && sync_each) error = adapter_->Sync();
      }
      const uint64_t t1 = clock.NowAfterPriorWork();
      const uint64_t ns = clock.ToNs(t1 > t0 ? t1 - t0 : 0);
      timed_ns_ += ns;
      if (done > 0) {
        for (uint64_t j = 0; j < done; ++j) latency_.Record(ns / done);
      }
      ops_ += done;
      if (!error.ok()) {
        ++work_.errors;
        return error;
      }
    }
    return Status::OK();
  }

  results::WorkCounts& work() { return work_; }
  const results::WorkCounts& work() const { return work_; }
  uint64_t ops() const { return ops_; }
  uint64_t timed_ns() const { return timed_ns_; }
  uint64_t digest() const { return digest_; }
  size_t block() const { return block_; }
  const LatencyHistogram& latency() const { return latency_; }

 private:
  const PhaseSpec& spec_;
  Adapter* adapter_;
  Session* session_;
  const size_t block_;
  LatencyHistogram latency_;
  results::WorkCounts work_;
  uint64_t ops_ = 0;
  uint64_t timed_ns_ = 0;
  uint64_t digest_ = 0x7265636f7264ULL;
};

// Throughput over the timed blocks only (record generation excluded): the
// timed part's span is the sum of the blocks' spans, so ops / ops_per_sec
// is `seconds` as for every other phase. A block holds only the adapter's
// calls (and a loop counter), so its time is all in-call time.
void FillFigures(const BlockRunner& runner, results::Repetition* out) {
  out->seconds = static_cast<double>(runner.timed_ns()) / 1e9;
  out->engine_seconds = out->seconds;
  results::OpFigures f = MakeOpFigures("all", runner.ops(), out->seconds, runner.latency(),
                                       runner.work());
  f.work.stream_digest = HexU64(runner.digest());
  // Each sample is a block's mean: said in results.json and every report.
  if (runner.block() > 1) f.latency.block_ops = runner.block();
  out->ops.push_back(std::move(f));
}

// Seed 000's baseline: allocate `count` 8-byte integers and write each once.
Status RunMemoryBaseline(uint64_t count, results::Repetition* out) {
  const CycleClock& clock = CycleClock::Get();
  const uint64_t t0 = clock.Now();
  auto* words = static_cast<uint64_t*>(std::malloc(count * sizeof(uint64_t)));
  if (words == nullptr) return Status::IOError("memory-baseline: cannot allocate");
  for (uint64_t i = 0; i < count; ++i) words[i] = i;
  // Read one word back through a volatile so the writes cannot be elided.
  volatile uint64_t sink = words[count / 2];
  (void)sink;
  const uint64_t t1 = clock.NowAfterPriorWork();
  std::free(words);
  const uint64_t ns = clock.ToNs(t1 - t0);
  LatencyHistogram h;
  h.Record(ns);
  out->seconds = static_cast<double>(ns) / 1e9;
  out->engine_seconds = out->seconds;  // no engine: the timed part is the work itself
  out->ops.push_back(MakeOpFigures("all", count, out->seconds, h));
  return Status::OK();
}

// Executes one record phase on `table`.
class RecordPhase {
 public:
  RecordPhase(const PhaseSpec& spec, uint64_t seed, Adapter* adapter, Session* session,
              RecordTable* table, RecordState* state)
      : spec_(spec), seed_(seed), adapter_(adapter), session_(session), table_(table), state_(state) {}

  Status Run(results::Repetition* out) {
    const size_t fields = std::max<size_t>(1, state_->source->field_count());
    const size_t block = std::max<size_t>(1, std::min(kMaxBlock, kMaxBlockFields / fields));
    BlockRunner runner(spec_, adapter_, session_, block);
    Status s = Dispatch(&runner, block);
    FillFigures(runner, out);
    return s.WithContext(NameOf(spec_.op));
  }

 private:
  Status Dispatch(BlockRunner* runner, size_t block) {
    const PhaseOp op = spec_.op;
    std::vector<RecordId>& ids = state_->ids;
    if (op == PhaseOp::kRecordCreate) {
      return runner->Run(
          spec_.count, [](uint64_t, size_t) {},
          [&](uint64_t, size_t) {
            RecordId id = 0;
            KVBENCH_RETURN_IF_ERROR(table_->CreateRecord(&id));
            if (spec_.delete_after) return table_->DeleteRecord(id);
            ids.push_back(id);
            return Status::OK();
          });
    }
    if (op == PhaseOp::kRecordInsert) return Insert(runner, block);
    if (op == PhaseOp::kRecordIndex) {
      return runner->Run(1, [](uint64_t, size_t) {},
                         [&](uint64_t, size_t) { return table_->CreateIndex(spec_.field); });
    }
    if (ids.empty()) return Status::InvalidArgument("no records: run a record-insert phase first");
    if (op == PhaseOp::kRecordGet) return Get(runner, block);
    if (op == PhaseOp::kRecordSet) return Set(runner, block);
    if (op == PhaseOp::kRecordDelete) return Delete(runner);
    const FieldValue sought = FieldValue::Int(spec_.value);
    if (op == PhaseOp::kRecordScan) {
      return runner->Run(spec_.count, [](uint64_t, size_t) {}, [&](uint64_t, size_t) {
        uint64_t examined = 0;
        KVBENCH_RETURN_IF_ERROR(table_->ScanEqual(spec_.field, sought, 0, &matches_, &examined));
        runner->work().rows += examined;
        runner->work().found += matches_.size();
        return Status::OK();
      });
    }
    if (op == PhaseOp::kRecordQuery) {
      return runner->Run(spec_.count, [](uint64_t, size_t) {}, [&](uint64_t, size_t) {
        KVBENCH_RETURN_IF_ERROR(table_->QueryEqual(spec_.field, sought, spec_.limit, &matches_));
        runner->work().rows += matches_.size();
        if (!matches_.empty()) ++runner->work().found;
        return Status::OK();
      });
    }
    if (op == PhaseOp::kRecordFollow) return Follow(runner);
    return Status::InvalidArgument(std::string("not a record operation: ") + NameOf(op));
  }

  // Reads whole records, chosen by the phase's distribution.
  Status Get(BlockRunner* runner, size_t block) {
    std::vector<RecordId>& ids = state_->ids;
    std::vector<uint64_t> chosen(block);
    std::unique_ptr<datasets::RequestDistribution> chooser;
    KVBENCH_RETURN_IF_ERROR(datasets::NewRequestDistribution(
        {spec_.distribution, spec_.distribution_params}, ids.size(), seed_, 0, 1, &chooser));
    return runner->Run(
        spec_.count, [&](uint64_t, size_t slot) { chosen[slot] = chooser->Next(ids.size()); },
        [&](uint64_t, size_t slot) {
          Status s = table_->GetRecord(ids[chosen[slot]], &fields_);
          if (s.ok()) ++runner->work().found;
          return s;
        });
  }

  // Sets one field of records chosen by the phase's distribution.
  Status Set(BlockRunner* runner, size_t block) {
    std::vector<RecordId>& ids = state_->ids;
    if (spec_.field >= state_->source->field_count()) {
      return Status::InvalidArgument("field " + std::to_string(spec_.field) + " is out of range");
    }
    std::vector<uint64_t> chosen(block);
    std::vector<FieldValue> values(block);
    std::unique_ptr<datasets::RequestDistribution> chooser;
    KVBENCH_RETURN_IF_ERROR(datasets::NewRequestDistribution(
        {spec_.distribution, spec_.distribution_params}, ids.size(), seed_, 0, 1, &chooser));
    return runner->Run(
        spec_.count,
        [&](uint64_t i, size_t slot) {
          chosen[slot] = chooser->Next(ids.size());
          // The value the generator gives the same field of a record not yet written.
          state_->source->Fill(ids.size() + i, &fields_);
          values[slot] = fields_[spec_.field];
          if (values[slot].type == FieldType::kReference) {
            values[slot].reference = ids[values[slot].reference % ids.size()];
          }
        },
        [&](uint64_t, size_t slot) {
          return table_->SetField(ids[chosen[slot]], spec_.field, values[slot], SetMode::kChecked);
        });
  }

  // Deletes the oldest live records, one per operation.
  Status Delete(BlockRunner* runner) {
    std::vector<RecordId>& ids = state_->ids;
    return runner->Run(
        spec_.count, [](uint64_t, size_t) {},
        [&](uint64_t, size_t) {
          while (state_->deleted_upto < ids.size() && ids[state_->deleted_upto] == 0) {
            ++state_->deleted_upto;
          }
          if (state_->deleted_upto == ids.size()) return Status::NotFound("no live record left");
          RecordId& id = ids[state_->deleted_upto++];
          const Status s = table_->DeleteRecord(id);
          id = 0;
          return s;
        });
  }

  // Follows the chain of references from the newest live record to its end.
  Status Follow(BlockRunner* runner) {
    std::vector<RecordId>& ids = state_->ids;
    RecordId head = 0;
    for (auto it = ids.rbegin(); it != ids.rend() && head == 0; ++it) head = *it;
    return runner->Run(spec_.count, [](uint64_t, size_t) {}, [&](uint64_t, size_t) {
      RecordId at = head;
      uint64_t visited = 1;
      for (;;) {
        RecordId next = 0;
        const Status s = table_->FollowReference(at, spec_.field, &next);
        if (s.IsNotFound()) break;
        KVBENCH_RETURN_IF_ERROR(s);
        at = next;
        ++visited;
      }
      runner->work().rows += visited;
      return Status::OK();
    });
  }

  Status Insert(BlockRunner* runner, size_t block) {
    std::vector<RecordId>& ids = state_->ids;
    std::vector<std::vector<FieldValue>> records(block);
    const uint64_t base = ids.size();
    const bool checked = spec_.set == RecordSetMode::kChecked;
    const std::vector<FieldType>& types = state_->source->spec().types;
    const bool has_references =
        std::find(types.begin(), types.end(), FieldType::kReference) != types.end();
    return runner->Run(
        spec_.count,
        [&](uint64_t i, size_t slot) { state_->source->Fill(base + i, &records[slot]); },
        [&](uint64_t, size_t slot) {
          std::vector<FieldValue>& record = records[slot];
          // A generated reference names a record index (an earlier record,
          // maybe of this block): its id is known only now.
          if (has_references) {
            for (FieldValue& f : record) {
              if (f.type != FieldType::kReference) continue;
              f.reference = f.reference < ids.size() ? ids[f.reference] : 0;
              if (f.reference == 0) f.type = FieldType::kNull;
            }
          }
          RecordId id = 0;
          if (checked) {
            KVBENCH_RETURN_IF_ERROR(table_->CreateRecord(&id));
            for (uint32_t f = 0; f < record.size(); ++f) {
              KVBENCH_RETURN_IF_ERROR(table_->SetField(id, f, record[f], SetMode::kChecked));
            }
          } else {
            KVBENCH_RETURN_IF_ERROR(table_->InsertRecord(record, &id));
          }
          ids.push_back(id);
          if (spec_.read_back) {
            for (uint32_t f = 0; f < record.size(); ++f) {
              KVBENCH_RETURN_IF_ERROR(table_->GetField(id, f, &field_));
              read_sum_ += static_cast<uint64_t>(field_.int_value);
            }
            runner->work().found += 1;
          }
          return Status::OK();
        });
  }

  const PhaseSpec& spec_;
  const uint64_t seed_;
  Adapter* adapter_;
  Session* session_;
  RecordTable* table_;
  RecordState* state_;
  std::vector<FieldValue> fields_;
  std::vector<RecordId> matches_;
  FieldValue field_;
  uint64_t read_sum_ = 0;  // speed5's read-back adds the values up, as the seed's did
};

}  // namespace

Status RunRecordPhase(const PhaseSpec& spec, uint64_t seed, Adapter* adapter, RecordState* state,
                      results::Repetition* out, bool* unsupported) {
  if (spec.op == PhaseOp::kMemoryBaseline) return RunMemoryBaseline(spec.count, out);
  if (!spec.schema.empty() &&
      (!state->source || state->source->schema() != spec.schema ||
       state->source->spec().name != spec.table)) {
    // A new record table: the generator's records start at index 0 again.
    KVBENCH_RETURN_IF_ERROR(RecordSource::Parse(spec.schema, spec.table, seed, &state->source));
    state->ids.clear();
    state->deleted_upto = 0;
  }
  if (!state->source) {
    return Status::InvalidArgument("no record table yet: give this phase a schema");
  }
  std::unique_ptr<Session> session;
  KVBENCH_RETURN_IF_ERROR(adapter->NewSession(&session));
  std::unique_ptr<RecordTable> table;
  Status s = session->OpenRecordTable(state->source->spec(), &table);
  if (s.ok()) {
    RecordPhase phase(spec, seed, adapter, session.get(), table.get(), state);
    s = phase.Run(out);
  }
  if (s.IsNotSupported()) *unsupported = true;
  return s;
}

}  // namespace kvbench::runner
