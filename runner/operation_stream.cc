#include "runner/operation_stream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "datasets/index_permutation.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "datasets/request_distribution.h"
#include "datasets/value_generator.h"
#include "datasets/zipfian.h"
#include "runner/ycsb_record.h"

namespace kvbench::runner {

const char* OpKindName(OpKind kind) {
  switch (kind) {
    case OpKind::kInsert: return "insert";
    case OpKind::kUpdate: return "update";
    case OpKind::kDelete: return "delete";
    case OpKind::kRmw: return "rmw";
    case OpKind::kGet: return "get";
    case OpKind::kScan: return "scan";
    case OpKind::kCommit: return "commit";
    case OpKind::kRmwRead: return "rmw-read";
    case OpKind::kRmwUpdate: return "rmw-update";
    case OpKind::kCount: break;
  }
  return "?";
}

const char* OpName(OpKind kind, const PhaseSpec& spec) {
  if (!spec.ycsb) return OpKindName(kind);
  switch (kind) {
    case OpKind::kInsert: return "INSERT";
    case OpKind::kUpdate: return "UPDATE";
    case OpKind::kRmw: return "READ-MODIFY-WRITE";
    case OpKind::kGet: return "READ";
    case OpKind::kScan: return "SCAN";
    case OpKind::kRmwRead: return "READ";
    case OpKind::kRmwUpdate: return "UPDATE";
    default: return OpKindName(kind);
  }
}

std::vector<ReportedOp> ReportedOps(const PhaseSpec& spec) {
  auto bit = [](OpKind k) { return 1u << static_cast<unsigned>(k); };
  std::vector<ReportedOp> ops;
  uint32_t all = 0;
  for (size_t k = 0; k < kOpKinds; ++k) all |= 1u << k;
  ops.push_back({"all", all & ~(bit(OpKind::kCommit) | bit(OpKind::kRmwRead) |
                                bit(OpKind::kRmwUpdate))});
  for (size_t k = 0; k < kOpKinds; ++k) {
    const auto kind = static_cast<OpKind>(k);
    if (kind == OpKind::kRmwRead || kind == OpKind::kRmwUpdate) continue;
    uint32_t kinds = bit(kind);
    if (spec.ycsb && kind == OpKind::kGet) kinds |= bit(OpKind::kRmwRead);
    if (spec.ycsb && kind == OpKind::kUpdate) kinds |= bit(OpKind::kRmwUpdate);
    ops.push_back({OpName(kind, spec), kinds});
  }
  return ops;
}

void AddWork(const results::WorkCounts& from, results::WorkCounts* into) {
  into->found += from.found;
  into->not_found += from.not_found;
  into->rows += from.rows;
  into->bytes_returned += from.bytes_returned;
  into->errors += from.errors;
}

namespace {

// "t<thread>/". (Not "t" + std::to_string(): GCC 12 warns falsely there.)
std::string TablePrefix(int thread) {
  char buf[16];
  const int n = std::snprintf(buf, sizeof buf, "t%d/", thread);
  return std::string(buf, static_cast<size_t>(n));
}

// Word-at-a-time hash of the operation stream (kinds and keys).
inline uint64_t MixStream(uint64_t h, int kind, Slice key) {
  h = datasets::Mix64(h ^ (static_cast<uint64_t>(kind) + 0x9e37));
  size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, key.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  uint64_t tail = key.size();
  for (; i < key.size(); ++i) tail = (tail << 8) | static_cast<uint8_t>(key[i]);
  return datasets::Mix64(h ^ tail);
}

// Memory for a chunk's bytes: blocks that are kept and reused from chunk to
// chunk, so an operation's bytes never move once written (no reallocation
// copies while a chunk grows) and the second chunk faults in nothing new.
class ByteArena {
 public:
  static constexpr size_t kBlockBytes = size_t{1} << 20;
  // Room for n bytes, contiguous.
  char* Allocate(size_t n) {
    if (current_ < blocks_.size() && used_ + n <= blocks_[current_].size) {
      char* p = blocks_[current_].data.get() + used_;
      used_ += n;
      return p;
    }
    // The next block that fits (a value larger than a block gets its own);
    // the blocks passed over count as in use.
    if (current_ < blocks_.size()) before_ += blocks_[current_].size;
    ++current_;
    while (current_ < blocks_.size() && blocks_[current_].size < n) {
      before_ += blocks_[current_].size;
      ++current_;
    }
    if (current_ >= blocks_.size()) {
      const size_t size = std::max(kBlockBytes, n);
      blocks_.push_back({std::make_unique_for_overwrite<char[]>(size), size});
      current_ = blocks_.size() - 1;
    }
    used_ = n;
    return blocks_[current_].data.get();
  }
  // Starts over in the first block, keeping every block.
  void Reset() {
    current_ = 0;
    used_ = 0;
    before_ = 0;
  }
  // Bytes of the blocks in use now.
  size_t in_use() const { return before_ + used_; }

 private:
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size;
  };
  std::vector<Block> blocks_;
  size_t current_ = 0;
  size_t used_ = 0;
  size_t before_ = 0;  // the blocks before current_
};

// One prepared operation: what the timed loop reads to apply it, kept
// small (24 bytes) because the loop streams through a chunk of them.
struct PreparedOp {
  const char* bytes;  // the key, the end key, the value, back to back
  uint32_t key_len;
  uint32_t end_len;
  uint32_t value_len;
  OpKind kind;
  bool has_end;
};
// What YCSB operations need besides (kept apart, filled for YCSB phases only).
struct PreparedYcsb {
  uint64_t value_index;  // the record a missing record is rewritten from
  uint64_t value_version;
  uint64_t scan_limit;
  uint32_t field;
};

// Counts rows and value bytes; for `skip` phases, passes over the first
// `skip` entries; for `range` phases, stops at the end key.
class CountingVisitor final : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    if (has_end_ && (backward_ ? key < end_ : key >= end_)) return false;
    ++rows_;
    bytes_ += value.size();
    return true;
  }
  // Forward scans stop before `end`; backward scans stop below it.
  void Reset(Slice end, bool has_end, bool backward) {
    end_ = end;
    has_end_ = has_end;
    backward_ = backward;
    rows_ = bytes_ = 0;
  }
  uint64_t rows() const { return rows_; }
  uint64_t bytes() const { return bytes_; }

 private:
  Slice end_;
  bool has_end_ = false;
  bool backward_ = false;
  uint64_t rows_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace

class OperationStream::Impl {
 public:
  Impl(const WorkerPlan& plan, int thread_index)
      : plan_(plan),
        spec_(*plan.spec),
        thread_(thread_index),
        rng_(datasets::HashOf(plan.seed, 0x6d6978, static_cast<uint64_t>(thread_index))),
        aux_rng_(datasets::HashOf(plan.seed, 0x617578, static_cast<uint64_t>(thread_index))),
        table_prefix_(TablePrefix(thread_index)),
        fixed_kind_(FixedKind(spec_.op)),
        is_mix_(spec_.op == PhaseOp::kMix),
        key_choice_(spec_.keys),
        scan_shape_(spec_.op == PhaseOp::kRange  ? ScanShape::kRange
                    : spec_.op == PhaseOp::kSkip ? ScanShape::kSkip
                                                 : ScanShape::kFromKey) {
    const uint64_t thread_seed = datasets::HashOf(plan.seed, 0x63686f, static_cast<uint64_t>(thread_index));
    present_ = plan.present == 0 ? 1 : plan.present;
    const uint64_t item_count = spec_.ycsb && spec_.ycsb->key_space > 0 ? spec_.ycsb->key_space
                                                                        : present_;
    // Checked by PlanRun before any engine ran, so this cannot fail here.
    datasets::NewRequestDistribution({spec_.distribution, spec_.distribution_params}, item_count,
                                     thread_seed, static_cast<uint32_t>(thread_index),
                                     static_cast<uint32_t>(plan.threads), &chooser_);
    if (spec_.ycsb) {
      layout_.emplace(plan.values, spec_.ycsb->field_count);
      if (spec_.ycsb->scan_length_distribution == "zipfian") {
        scan_lengths_.emplace(spec_.ycsb->min_scan_length, spec_.ycsb->max_scan_length);
      }
    }
    key_.reserve(plan.keys->max_length());
    end_key_.reserve(plan.keys->max_length());
    if (is_mix_) {
      double total = 0;
      for (const auto& [name, share] : spec_.proportions) total += share;
      double acc = 0;
      for (const auto& [name, share] : spec_.proportions) {
        acc += share / total;
        mix_.push_back({acc, name == "read" ? OpKind::kGet
                             : name == "update" ? OpKind::kUpdate
                             : name == "insert" ? OpKind::kInsert
                             : name == "scan" ? OpKind::kScan
                                              : OpKind::kRmw});
      }
      mix_.back().first = 1.0;
    }
    // A range runs to its end key unless the file gave it a limit too.
    scan_options_.limit = spec_.op == PhaseOp::kRange && !spec_.limit_given ? 0 : spec_.limit;
    scan_options_.direction =
        spec_.direction == ScanWay::kBackward ? ScanDirection::kBackward : ScanDirection::kForward;
    scan_options_.keys_only = !spec_.values;
    if (scan_shape_ == ScanShape::kSkip) {
      // From the edge, or with `from` > 0 from the key at that fraction.
      scan_options_.from_edge = spec_.from <= 0;
      scan_options_.limit = spec_.skip + spec_.limit;
    }
    if (key_choice_ == KeyChoice::kRepeat) repeat_index_ = NextPresent();
    if (spec_.order == InsertOrder::kShuffled && plan.phase_ops > 0) {
      insert_order_.emplace(plan.phase_ops, plan.seed);  // same order on every thread
    }
  }

 private:
  // The phase's shape, decoded once from its strings so the timed loop
  // compares no text.
  enum class ScanShape { kFromKey, kRange, kSkip };

  static OpKind FixedKind(PhaseOp op) {
    switch (op) {
      case PhaseOp::kGet: return OpKind::kGet;
      case PhaseOp::kInsert: return OpKind::kInsert;
      case PhaseOp::kUpdate: return OpKind::kUpdate;
      case PhaseOp::kDelete: return OpKind::kDelete;
      case PhaseOp::kDeleteAbsent: return OpKind::kDelete;
      case PhaseOp::kRmw: return OpKind::kRmw;
      default: return OpKind::kScan;  // scan, range, skip (mix draws per operation)
    }
  }

 public:
  // Live: operation i into key_, end_key_ and value_, current.
  OpKind Next(uint64_t i) {
    const OpKind kind = Generate(i);
    digest_ = MixStream(digest_, static_cast<int>(kind), key_);
    cur_key_ = key_;
    cur_end_ = end_key_;
    cur_value_ = value_;
    return kind;
  }

  bool CanPrepare() const { return plan_.insert_counts == nullptr; }

  uint64_t PrepareChunk(uint64_t first_i, uint64_t max_ops, size_t max_bytes, uint64_t multiple) {
    chunk_.clear();
    ycsb_chunk_.clear();
    arena_.Reset();
    if (multiple == 0) multiple = 1;
    // Room for the descriptors at once (no copies as the chunk grows); a
    // page not written is not resident, so over-reserving costs nothing.
    chunk_.reserve(static_cast<size_t>(std::min<uint64_t>(max_ops, max_bytes / OpBytes() + 1)));
    if (layout_) ycsb_chunk_.reserve(chunk_.capacity());
    for (uint64_t j = 0; j < max_ops; ++j) {
      const OpKind kind = Generate(first_i + j);
      const bool value = WritesValue(kind);
      const size_t end_len = kind == OpKind::kScan && has_end_ ? end_key_.size() : 0;
      const size_t value_len = value ? value_.size() : 0;
      char* p = arena_.Allocate(key_.size() + end_len + value_len);
      std::memcpy(p, key_.data(), key_.size());
      if (end_len > 0) std::memcpy(p + key_.size(), end_key_.data(), end_len);
      if (value_len > 0) std::memcpy(p + key_.size() + end_len, value_.data(), value_len);
      chunk_.push_back({p, static_cast<uint32_t>(key_.size()), static_cast<uint32_t>(end_len),
                        static_cast<uint32_t>(value_len), kind, has_end_});
      if (layout_) ycsb_chunk_.push_back({value_index_, value_version_, scan_options_.limit, field_});
      if ((j + 1) % multiple == 0 &&
          arena_.in_use() + chunk_.size() * OpBytes() >= max_bytes) {
        break;
      }
    }
    buffer_peak_ = std::max(buffer_peak_, arena_.in_use() + chunk_.size() * OpBytes());
    return chunk_.size();
  }

  OpKind Load(uint64_t j) {
    const PreparedOp& op = chunk_[j];
    cur_key_ = Slice(op.bytes, op.key_len);
    cur_end_ = Slice(op.bytes + op.key_len, op.end_len);
    cur_value_ = Slice(op.bytes + op.key_len + op.end_len, op.value_len);
    has_end_ = op.has_end;
    if (layout_) {
      const PreparedYcsb& y = ycsb_chunk_[j];
      value_index_ = y.value_index;
      value_version_ = y.value_version;
      scan_options_.limit = y.scan_limit;
      field_ = y.field;
    }
    return op.kind;
  }

  // After the chunk's timed span: the stream digest over the operations of
  // it that ran (hashing them is kvbench's work, so it is done here, not
  // between the calls).
  void EndChunk(uint64_t ran) {
    for (uint64_t j = 0; j < ran && j < chunk_.size(); ++j) {
      const PreparedOp& op = chunk_[j];
      digest_ = MixStream(digest_, static_cast<int>(op.kind), Slice(op.bytes, op.key_len));
    }
  }

  uint64_t digest() const { return digest_; }
  size_t buffer_bytes() const { return buffer_peak_; }

  Status Apply(OpKind kind, Session* session) { return Execute(kind, session); }

  bool Count(OpKind kind, const Status& s, WorkerResult* out) {
    if (kind == OpKind::kInsert && plan_.insert_counts != nullptr) {
      plan_.insert_counts[thread_].value.store(inserts_, std::memory_order_release);
    }
    if (kind == OpKind::kRmw && layout_) {
      // YCSB counts the read and the update of a READ-MODIFY-WRITE under
      // READ and UPDATE too.
      if (!Account(OpKind::kRmwRead, rmw_read_, out)) return Account(kind, s, out);
      if (rmw_wrote_ && !Account(OpKind::kRmwUpdate, s, out)) return Account(kind, s, out);
    }
    return Account(kind, s, out);
  }

  bool SplitsRmw() const { return layout_.has_value(); }

  // The modify and write of a YCSB READ-MODIFY-WRITE whose read (Apply)
  // returned `read`.
  Status ApplyRmwWrite(const Status& read, Session* session) {
    rmw_read_ = read;
    rmw_wrote_ = read.ok() || read.IsNotFound();
    if (!rmw_wrote_) return read;
    return WriteYcsbUpdate(read, session);
  }
  bool RmwWrote() const { return rmw_wrote_; }

  // Operation i into key_, end_key_ and value_ (and the digest).
  OpKind Generate(uint64_t i) {
    const OpKind kind = NextKind();
    PrepareKeys(kind, i);
    if (spec_.table_per_thread) key_.insert(0, table_prefix_);
    return kind;
  }

  // Whether an operation of this kind carries bytes to write (a whole
  // value, or a YCSB field's new bytes).
  static bool WritesValue(OpKind kind) {
    return kind == OpKind::kInsert || kind == OpKind::kUpdate || kind == OpKind::kRmw;
  }

  bool IsWrite() const {
    return is_mix_ || fixed_kind_ == OpKind::kInsert || fixed_kind_ == OpKind::kUpdate ||
           fixed_kind_ == OpKind::kDelete || fixed_kind_ == OpKind::kRmw;
  }

  OpKind NextKind() {
    if (!is_mix_) return fixed_kind_;
    const double u = rng_.NextDouble();
    for (const auto& [edge, kind] : mix_) {
      if (u < edge) return kind;
    }
    return mix_.back().second;
  }

  // Fills key_ (and end_key_ for ranges) for operation i.
  void PrepareKeys(OpKind kind, uint64_t i) {
    switch (kind) {
      case OpKind::kInsert: {
        // Thread t takes indexes base + t, base + t + threads, ... so the
        // phase inserts exactly [base, base + count) whatever the thread count.
        // With order = "shuffled" the same set is inserted in a random order.
        const uint64_t k = static_cast<uint64_t>(thread_) +
                           inserts_++ * static_cast<uint64_t>(plan_.threads);
        const uint64_t idx =
            plan_.insert_base + (insert_order_ && k < plan_.phase_ops ? (*insert_order_)(k) : k);
        plan_.keys->Key(idx, &key_);
        value_index_ = idx;
        value_version_ = 0;
        PrepareValue(kind);
        return;
      }
      case OpKind::kGet:
        if (key_choice_ == KeyChoice::kAbsent) {
          plan_.keys->AbsentKey(NextPresent(), &key_);
        } else {
          plan_.keys->Key(key_choice_ == KeyChoice::kRepeat ? repeat_index_ : NextPresent(), &key_);
        }
        return;
      case OpKind::kScan:
        if (scan_shape_ == ScanShape::kRange) {
          // Keys [from, to) of the key space in index order: forward from the
          // key at `from` up to the one at `to`; backward from the last key
          // before `to` down to the one at `from`.
          const uint64_t n = plan_.present;
          const uint64_t begin = static_cast<uint64_t>(spec_.from * static_cast<double>(n));
          const uint64_t end = static_cast<uint64_t>(spec_.to * static_cast<double>(n));
          if (scan_options_.direction == ScanDirection::kForward) {
            plan_.keys->Key(begin, &key_);
            has_end_ = end < n;
            if (has_end_) plan_.keys->Key(end, &end_key_);
          } else {
            plan_.keys->Key(end > begin ? end - 1 : begin, &key_);
            has_end_ = begin > 0;
            if (has_end_) plan_.keys->Key(begin, &end_key_);
          }
        } else if (scan_shape_ == ScanShape::kSkip) {
          key_.clear();
          if (!scan_options_.from_edge) {
            plan_.keys->Key(static_cast<uint64_t>(spec_.from * static_cast<double>(plan_.present)), &key_);
          }
        } else {
          plan_.keys->Key(NextPresent(), &key_);
        }
        if (spec_.ycsb) scan_options_.limit = NextScanLength();
        return;
      default: {  // update, delete, rmw: present keys (delete-absent: absent ones)
        const uint64_t idx = NextPresent();
        if (spec_.op == PhaseOp::kDeleteAbsent) {
          plan_.keys->AbsentKey(idx, &key_);
        } else {
          plan_.keys->Key(idx, &key_);
        }
        value_index_ = idx;
        // A version no other operation of this phase writes: a new value.
        value_version_ = 1 + i * static_cast<uint64_t>(plan_.threads) + static_cast<uint64_t>(thread_);
        if (spec_.ycsb) field_ = static_cast<uint32_t>(aux_rng_.Uniform(spec_.ycsb->field_count));
        PrepareValue(kind);
        return;
      }
    }
  }

  // The value a write will put, made before the timed call (generating it
  // is the harness's work, not the engine's). A read-modify-write reads into
  // read_, so the prepared value survives its read.
  void PrepareValue(OpKind kind) {
    if (layout_) {
      if (kind == OpKind::kInsert) {
        layout_->Record(value_index_, 0, &value_);
      } else if (kind == OpKind::kUpdate && spec_.ycsb->write_all_fields) {
        layout_->Record(value_index_, value_version_, &value_);
      } else if (kind == OpKind::kUpdate || kind == OpKind::kRmw) {
        layout_->Field(value_index_, value_version_, field_, &value_);
      }
      return;
    }
    if (kind == OpKind::kInsert || kind == OpKind::kUpdate || kind == OpKind::kRmw) {
      plan_.values->Value(value_index_, value_version_, &value_);
    }
  }

  // The current operation: cur_key_, cur_end_ and cur_value_ point into the
  // prepared chunk (or at key_, end_key_ and value_ when live); what the
  // engine returns goes to read_.
  Status Execute(OpKind kind, Session* session) {
    if (layout_) return ExecuteYcsb(kind, session);
    switch (kind) {
      case OpKind::kInsert:
      case OpKind::kUpdate:
        return session->Put(cur_key_, cur_value_);
      case OpKind::kDelete:
        return session->Delete(cur_key_);
      case OpKind::kGet:
        return session->Get(cur_key_, &read_);
      case OpKind::kRmw: {
        Status s = session->Get(cur_key_, &read_);
        if (!s.ok() && !s.IsNotFound()) return s;
        read_bytes_ = s.ok() ? read_.size() : 0;
        return session->Put(cur_key_, cur_value_);
      }
      case OpKind::kScan:
        visitor_.Reset(cur_end_, scan_shape_ == ScanShape::kRange && has_end_,
                       scan_options_.direction == ScanDirection::kBackward);
        return session->Scan(cur_key_, scan_options_, &visitor_, nullptr);
      default:
        return Status::OK();
    }
  }

  // YCSB operations on records (ycsb_record.h). READ gets the whole value
  // whether or not readallfields asks for one field: a key-value engine
  // stores the record as one value. UPDATE with writeallfields=false (and
  // READ-MODIFY-WRITE's write) replaces one field's bytes: Get, replace, Put;
  // with writeallfields=true it is a blind Put of a new record.
  Status ExecuteYcsb(OpKind kind, Session* session) {
    switch (kind) {
      case OpKind::kInsert:
        return session->Put(cur_key_, cur_value_);
      case OpKind::kGet:
        return session->Get(cur_key_, &read_);
      case OpKind::kUpdate: {
        if (spec_.ycsb->write_all_fields) return session->Put(cur_key_, cur_value_);
        const Status s = ReadYcsbRecord(session);
        if (!s.ok() && !s.IsNotFound()) return s;
        return WriteYcsbUpdate(s, session);
      }
      case OpKind::kRmw:  // its read; ApplyRmwWrite does the rest
        return ReadYcsbRecord(session);
      case OpKind::kScan:
        visitor_.Reset(cur_end_, false, false);
        return session->Scan(cur_key_, scan_options_, &visitor_, nullptr);
      default:
        return Status::OK();
    }
  }

  Status ReadYcsbRecord(Session* session) {
    const Status s = session->Get(cur_key_, &read_);
    read_bytes_ = s.ok() ? read_.size() : 0;
    return s;
  }

  // The write of an UPDATE or READ-MODIFY-WRITE after its read returned
  // `read` (OK or NotFound).
  Status WriteYcsbUpdate(const Status& read, Session* session) {
    bool replaced = false;
    if (read.ok() && !spec_.ycsb->write_all_fields) {
      // The field's new bytes (cur_value_) were made before the call;
      // replacing them in the record just read is the "modify" of this
      // operation.
      replaced = layout_->ReplaceField(field_, cur_value_, &read_);
    }
    // A missing record, or writeallfields: the whole record.
    if (!replaced) layout_->Record(value_index_, value_version_, &read_);
    return session->Put(cur_key_, read_);
  }

  uint64_t NextScanLength() {
    const YcsbPhaseSpec& y = *spec_.ycsb;
    if (scan_lengths_) return scan_lengths_->Next(&aux_rng_);
    return y.min_scan_length + aux_rng_.Uniform(y.max_scan_length - y.min_scan_length + 1);
  }

  // Updates counters; false when the worker must stop (an error).
  bool Account(OpKind kind, const Status& s, WorkerResult* out) {
    results::WorkCounts& w = out->work[static_cast<size_t>(kind)];
    if (s.ok()) {
      if (kind == OpKind::kGet || kind == OpKind::kRmw || kind == OpKind::kRmwRead) {
        ++w.found;
        w.bytes_returned += kind == OpKind::kGet ? read_.size() : read_bytes_;
      } else if (kind == OpKind::kScan) {
        w.rows += scan_shape_ == ScanShape::kSkip ? (visitor_.rows() > spec_.skip ? visitor_.rows() - spec_.skip : 0)
                                     : visitor_.rows();
        w.bytes_returned += visitor_.bytes();
      }
      return true;
    }
    if (s.IsNotFound()) {
      ++w.not_found;
      return true;
    }
    if (s.IsNotSupported()) out->unsupported = true;
    ++w.errors;
    if (out->first_error.ok()) out->first_error = s.WithContext(OpKindName(kind));
    return false;
  }

  const WorkerPlan& plan_;
  const PhaseSpec& spec_;
  const int thread_;
  datasets::Rng rng_;
  datasets::Rng aux_rng_;  // YCSB's field and scan length choices
  const std::string table_prefix_;
  const OpKind fixed_kind_;
  const bool is_mix_;
  const KeyChoice key_choice_;
  const ScanShape scan_shape_;
  std::optional<datasets::IndexPermutation> insert_order_;

  uint64_t NextPresent() {
    if (plan_.insert_counts != nullptr) {
      // YCSB reads reach the keys every thread has inserted so far (YCSB's
      // acknowledged insert counter), not one a slower thread has yet to write.
      uint64_t done = UINT64_MAX;
      for (int t = 0; t < plan_.threads; ++t) {
        done = std::min(done, plan_.insert_counts[t].value.load(std::memory_order_acquire));
      }
      if (done > 0) {
        present_ = std::max(present_,
                            plan_.insert_base + done * static_cast<uint64_t>(plan_.threads));
      }
    }
    return chooser_->Next(present_);
  }

  std::unique_ptr<datasets::RequestDistribution> chooser_;
  // YCSB phases: records and scan lengths.
  std::optional<YcsbRecordLayout> layout_;
  std::optional<datasets::ZipfianGenerator> scan_lengths_;
  uint32_t field_ = 0;
  size_t read_bytes_ = 0;
  Status rmw_read_;         // a split READ-MODIFY-WRITE's read
  bool rmw_wrote_ = false;  // ... and whether its write ran
  uint64_t present_ = 1;
  std::vector<std::pair<double, OpKind>> mix_;
  ScanOptions scan_options_;
  CountingVisitor visitor_;
  // Live generation's output (and the generator's scratch when preparing).
  std::string key_, end_key_, value_;
  // The current operation (see Execute).
  Slice cur_key_, cur_end_, cur_value_;
  std::string read_;  // what a get (or a read-modify-write's read) returned
  bool has_end_ = false;
  size_t OpBytes() const { return sizeof(PreparedOp) + (layout_ ? sizeof(PreparedYcsb) : 0); }
  std::vector<PreparedOp> chunk_;
  std::vector<PreparedYcsb> ycsb_chunk_;
  ByteArena arena_;
  size_t buffer_peak_ = 0;
  uint64_t digest_ = 0;  // over the operations run so far
  uint64_t value_index_ = 0;
  uint64_t value_version_ = 0;
  uint64_t inserts_ = 0;
  uint64_t repeat_index_ = 0;
};


OperationStream::OperationStream(const WorkerPlan& plan, int thread_index)
    : impl_(std::make_unique<Impl>(plan, thread_index)) {}
OperationStream::~OperationStream() = default;
OpKind OperationStream::Next(uint64_t i) { return impl_->Next(i); }
bool OperationStream::CanPrepare() const { return impl_->CanPrepare(); }
uint64_t OperationStream::PrepareChunk(uint64_t first_i, uint64_t max_ops, size_t max_bytes,
                                       uint64_t multiple) {
  return impl_->PrepareChunk(first_i, max_ops, max_bytes, multiple);
}
OpKind OperationStream::Load(uint64_t j) { return impl_->Load(j); }
void OperationStream::EndChunk(uint64_t ran) { impl_->EndChunk(ran); }
uint64_t OperationStream::digest() const { return impl_->digest(); }
size_t OperationStream::buffer_bytes() const { return impl_->buffer_bytes(); }
Status OperationStream::Apply(OpKind kind, Session* session) { return impl_->Apply(kind, session); }
bool OperationStream::Count(OpKind kind, const Status& s, WorkerResult* out) {
  return impl_->Count(kind, s, out);
}
bool OperationStream::writes() const { return impl_->IsWrite(); }
bool OperationStream::SplitsRmw() const { return impl_->SplitsRmw(); }
Status OperationStream::ApplyRmwWrite(const Status& read, Session* session) {
  return impl_->ApplyRmwWrite(read, session);
}
bool OperationStream::RmwWrote() const { return impl_->RmwWrote(); }

}  // namespace kvbench::runner
