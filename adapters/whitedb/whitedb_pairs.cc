#include "adapters/whitedb/whitedb_pairs.h"

#include <whitedb/dbapi.h>
// indexapi.h declares C functions without extern "C" (and needs dbapi.h first).
extern "C" {
#include <whitedb/indexapi.h>
}

#include <algorithm>

#include "adapters/whitedb/whitedb_encoding.h"
#include "adapters/whitedb/whitedb_messages.h"

namespace kvbench {
namespace {

constexpr wg_int kKeyField = 0;
constexpr wg_int kValueField = 1;

// A string query parameter, built outside the database and freed on scope exit.
class StringParam {
 public:
  StringParam(void* db, const std::string& s)
      : db_(db), value_(wg_encode_query_param_str(db, s.c_str(), nullptr)) {}
  ~StringParam() {
    if (value_ != WG_ILLEGAL) wg_free_query_param(db_, value_);
  }
  StringParam(const StringParam&) = delete;
  StringParam& operator=(const StringParam&) = delete;
  bool ok() const { return value_ != WG_ILLEGAL; }
  wg_int value() const { return value_; }

 private:
  void* db_;
  wg_int value_;
};

// A query freed on scope exit.
class Query {
 public:
  Query(void* db, wg_query_arg* args, wg_int argc, size_t rowlimit)
      : db_(db), query_(wg_make_query_rc(db, nullptr, 0, args, argc, rowlimit)) {}
  ~Query() {
    if (query_ != nullptr) wg_free_query(db_, query_);
  }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  bool ok() const { return query_ != nullptr; }
  void* Next() { return wg_fetch(db_, query_); }

 private:
  void* db_;
  wg_query* query_;
};

Status ParamFailed() {
  return Status::IOError("whitedb: cannot build a query parameter" + TakeWhitedbMessages());
}
Status QueryFailed() {
  return Status::IOError("whitedb: wg_make_query failed" + TakeWhitedbMessages());
}

}  // namespace

Status WhitedbPairs::Start(WhitedbDatabase* shared) {
  if (wg_create_index(shared->db(), kKeyField, WG_INDEX_TYPE_TTREE, nullptr, 0) < 0) {
    return shared->Full("the key index");
  }
  // WhiteDB announces every new index ("new index created on rec field 0 ...").
  DiscardWhitedbMessages();
  shared->holds = WhitedbDatabase::Holds::kPairs;
  return Status::OK();
}

Status WhitedbPairs::Find(Slice key, void** record) {
  EscapeWhitedbKey(key, &key_);
  StringParam param(db_, key_);
  if (!param.ok()) return ParamFailed();
  *record = wg_find_record(db_, kKeyField, WG_COND_EQUAL, param.value(), nullptr);
  return Status::OK();
}

Status WhitedbPairs::Put(Slice key, Slice value) {
  void* record = nullptr;
  KVBENCH_RETURN_IF_ERROR(Find(key, &record));
  const wg_int encoded_value =
      wg_encode_blob(db_, value.data(), nullptr, static_cast<wg_int>(value.size()));
  if (encoded_value == WG_ILLEGAL) return shared_->Full("a value");
  if (record != nullptr) {
    // The value field is not indexed: the set frees the old value and
    // allocates nothing.
    if (wg_set_field(db_, record, kValueField, encoded_value) < 0) {
      wg_free_encoded(db_, encoded_value);
      return Status::Internal("whitedb: wg_set_field failed on a pair's value" +
                              TakeWhitedbMessages());
    }
    return Status::OK();
  }
  const wg_int encoded_key = wg_encode_str(db_, key_.c_str(), nullptr);
  if (encoded_key == WG_ILLEGAL) {
    wg_free_encoded(db_, encoded_value);
    return shared_->Full("a key");
  }
  record = wg_create_raw_record(db_, 2);
  if (record == nullptr) {
    wg_free_encoded(db_, encoded_key);
    wg_free_encoded(db_, encoded_value);
    return shared_->Full("a record");
  }
  // Fields of a raw record are fresh: set as new, the value first (it cannot
  // fail), then the key, which enters the index. If the index cannot grow the
  // record stays outside it, unreachable: the database is full by then.
  wg_set_new_field(db_, record, kValueField, encoded_value);
  if (wg_set_new_field(db_, record, kKeyField, encoded_key) < 0) {
    return shared_->Full("the key index");
  }
  return Status::OK();
}

Status WhitedbPairs::Get(Slice key, std::string* value) {
  void* record = nullptr;
  KVBENCH_RETURN_IF_ERROR(Find(key, &record));
  if (record == nullptr) return Status::NotFound("key");
  const wg_int v = wg_get_field(db_, record, kValueField);
  value->assign(wg_decode_blob(db_, v), static_cast<size_t>(wg_decode_blob_len(db_, v)));
  return Status::OK();
}

Status WhitedbPairs::Delete(Slice key) {
  void* record = nullptr;
  KVBENCH_RETURN_IF_ERROR(Find(key, &record));
  if (record == nullptr) return Status::NotFound("key");
  if (wg_delete_record(db_, record) != 0) {
    return Status::Internal("whitedb: wg_delete_record failed" + TakeWhitedbMessages());
  }
  return Status::OK();
}

bool WhitedbPairs::Visit(void* record, bool keys_only, ScanVisitor* visitor) {
  const wg_int k = wg_get_field(db_, record, kKeyField);
  UnescapeWhitedbKey(wg_decode_str(db_, k), static_cast<size_t>(wg_decode_str_len(db_, k)),
                     &visit_key_);
  if (keys_only) return visitor->Visit(visit_key_, Slice());
  const wg_int v = wg_get_field(db_, record, kValueField);
  return visitor->Visit(
      visit_key_, Slice(wg_decode_blob(db_, v), static_cast<size_t>(wg_decode_blob_len(db_, v))));
}

Status WhitedbPairs::Scan(Slice start, const ScanOptions& options, ScanVisitor* visitor,
                          size_t* visited) {
  size_t count = 0;
  if (visited == nullptr) visited = &count;
  *visited = 0;
  if (options.from_edge) {
    bound_.clear();
  } else {
    EscapeWhitedbKey(start, &bound_);
  }
  return options.direction == ScanDirection::kForward ? ScanForward(options, visitor, visited)
                                                      : ScanBackward(options, visitor, visited);
}

Status WhitedbPairs::ScanForward(const ScanOptions& options, ScanVisitor* visitor,
                                 size_t* visited) {
  // Every key is a string >= "", so "key >= bound_" walks the index from the
  // bound (or the first key) in order.
  wg_int cond = WG_COND_GTEQUAL;
  for (;;) {
    const size_t rows = options.limit != 0 ? options.limit - *visited : kScanPage;
    StringParam param(db_, bound_);
    if (!param.ok()) return ParamFailed();
    wg_query_arg arg{kKeyField, cond, param.value()};
    Query query(db_, &arg, 1, rows);
    if (!query.ok()) return QueryFailed();
    size_t fetched = 0;
    void* last = nullptr;
    while (void* record = query.Next()) {
      ++fetched;
      ++*visited;
      last = record;
      if (!Visit(record, options.keys_only, visitor)) return Status::OK();
    }
    if (options.limit != 0 || fetched < rows) return Status::OK();
    // The next page starts after the last key of this one.
    const wg_int k = wg_get_field(db_, last, kKeyField);
    bound_.assign(wg_decode_str(db_, k), static_cast<size_t>(wg_decode_str_len(db_, k)));
    cond = WG_COND_GREATER;
  }
}

// A backward scan from U (the start key, or the greatest key from the edge)
// reads ascending windows [L1, U], [L2, L1), [L3, L2) ... whose lower bounds
// are prefixes of U, each dropping twice as many bytes as the last (lengths
// n-1, n-3, n-7, ..., 0, where "" bounds nothing), and visits each window in
// reverse, until the limit or the first key. A window holds the keys sharing its prefix with U,
// so its size grows with the shared prefix's shortening: the scan reads at
// most the keys down to the shortest prefix of U that covers the limit.
Status WhitedbPairs::ScanBackward(const ScanOptions& options, ScanVisitor* visitor,
                                  size_t* visited) {
  std::string upper;
  if (options.from_edge) {
    bool found = false;
    KVBENCH_RETURN_IF_ERROR(LastKey(&upper, &found));
    if (!found) return Status::OK();
  } else {
    upper = bound_;
  }
  bool inclusive = true;
  size_t drop = 1;
  for (;;) {
    const std::string lower = upper.substr(0, upper.size() > drop ? upper.size() - drop : 0);
    KVBENCH_RETURN_IF_ERROR(FetchWindow(lower, upper, inclusive));
    for (auto it = rows_.rbegin(); it != rows_.rend(); ++it) {
      ++*visited;
      if (!Visit(*it, options.keys_only, visitor)) return Status::OK();
      if (options.limit != 0 && *visited == options.limit) return Status::OK();
    }
    if (lower.empty()) return Status::OK();
    upper = lower;
    inclusive = false;
    drop *= 2;
  }
}

Status WhitedbPairs::FetchWindow(const std::string& lower, const std::string& upper,
                                 bool upper_inclusive) {
  rows_.clear();
  StringParam low(db_, lower);
  StringParam high(db_, upper);
  if (!low.ok() || !high.ok()) return ParamFailed();
  wg_query_arg args[2] = {
      {kKeyField, WG_COND_GTEQUAL, low.value()},
      {kKeyField, upper_inclusive ? WG_COND_LTEQUAL : WG_COND_LESSTHAN, high.value()}};
  Query query(db_, args, 2, 0);
  if (!query.ok()) return QueryFailed();
  while (void* record = query.Next()) rows_.push_back(record);
  return Status::OK();
}

Status WhitedbPairs::FirstAtOrAfter(const std::string& escaped, void** record) {
  StringParam param(db_, escaped);
  if (!param.ok()) return ParamFailed();
  *record = wg_find_record(db_, kKeyField, WG_COND_GTEQUAL, param.value(), nullptr);
  return Status::OK();
}

// The greatest key, a byte at a time: it starts with `prefix`, so some key is
// >= prefix + b exactly for the bytes b up to its next byte; a binary search
// over b = 1..255 (escaped keys hold no 0) finds that byte with 8 lookups.
Status WhitedbPairs::LastKey(std::string* escaped, bool* found) {
  escaped->clear();
  void* record = nullptr;
  KVBENCH_RETURN_IF_ERROR(FirstAtOrAfter(*escaped, &record));
  *found = record != nullptr;
  if (!*found) return Status::OK();
  std::string probe;
  for (;;) {
    int low = 0, high = 255;  // some key is >= prefix + low (0: the prefix itself)
    while (low < high) {
      const int mid = (low + high + 1) / 2;
      probe = *escaped;
      probe.push_back(static_cast<char>(mid));
      KVBENCH_RETURN_IF_ERROR(FirstAtOrAfter(probe, &record));
      if (record != nullptr) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    if (low == 0) return Status::OK();  // nothing extends the prefix: it is the key
    escaped->push_back(static_cast<char>(low));
  }
}

}  // namespace kvbench
