#include "adapters/record_layer/record_index.h"

#include <bit>
#include <cmath>
#include <limits>

#include "adapters/record_layer/varint.h"

namespace kvbench::record_index {
namespace {

using record_codec::AppendVarint;
using record_codec::ParseVarint;
using record_codec::VarintLength;

Status Malformed() { return Status::Corruption("record index: malformed posting list"); }

// 64-bit FNV-1a: simple to reimplement from the spec; collisions are harmless
// (grouped posting lists), so speed and simplicity win over strength.
uint64_t Fnv1a64(Slice bytes) {
  uint64_t h = 14695981039346656037ull;
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// -0.0 equals +0.0 and NaN equals nothing, so both get one spelling each.
double CanonicalDouble(double d) {
  if (d == 0) return 0.0;
  if (std::isnan(d)) return std::numeric_limits<double>::quiet_NaN();
  return d;
}

// One group of a hashed key's posting list, as offsets into it.
struct Group {
  Slice value;
  size_t start = 0;          // the group's first byte
  size_t ids_length_at = 0;  // the ids length varint
  size_t ids_begin = 0;      // first id byte
  size_t ids_end = 0;        // one past the last id byte (and the group)
};

// Parses the group at *pos. False for a malformed list.
bool ParseGroup(Slice posting, size_t* pos, Group* group) {
  const char* const base = posting.data();
  const char* const end = base + posting.size();
  const char* p = base + *pos;
  group->start = *pos;
  uint64_t length;
  if (!ParseVarint(&p, end, &length) || length > static_cast<uint64_t>(end - p)) return false;
  group->value = Slice(p, length);
  p += length;
  group->ids_length_at = p - base;
  if (!ParseVarint(&p, end, &length) || length > static_cast<uint64_t>(end - p)) return false;
  group->ids_begin = p - base;
  group->ids_end = group->ids_begin + length;
  *pos = group->ids_end;
  return true;
}

// Finds the group holding `canonical`; *found false when there is none.
Status FindGroup(Slice posting, Slice canonical, Group* group, bool* found) {
  *found = false;
  size_t pos = 0;
  while (pos < posting.size()) {
    if (!ParseGroup(posting, &pos, group)) return Malformed();
    if (group->value == canonical) {
      *found = true;
      return Status::OK();
    }
  }
  return Status::OK();
}

// Finds `id` among the varints of posting[begin, end); *at..*after is its
// encoding, *at == npos when absent.
Status FindId(Slice posting, size_t begin, size_t end, RecordId id, size_t* at, size_t* after) {
  const char* const base = posting.data();
  const char* p = base + begin;
  *at = std::string::npos;
  while (p < base + end) {
    const char* start = p;
    uint64_t v;
    if (!ParseVarint(&p, base + end, &v)) return Malformed();
    if (v == id) {
      *at = start - base;
      *after = p - base;
      return Status::OK();
    }
  }
  return Status::OK();
}

void AppendIds(const RecordId* ids, size_t n, std::string* out) {
  for (size_t i = 0; i < n; ++i) AppendVarint(ids[i], out);
}

size_t IdsLength(const RecordId* ids, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) total += VarintLength(ids[i]);
  return total;
}

}  // namespace

void PostingAdd(bool hashed, Slice canonical, const RecordId* ids, size_t n, std::string* posting,
                std::string* scratch) {
  if (!hashed) {
    AppendIds(ids, n, posting);
    return;
  }
  Group group;
  bool found = false;
  // A malformed list is rebuilt from this value's group alone.
  if (!FindGroup(*posting, canonical, &group, &found).ok()) posting->clear();
  if (!found) {
    AppendVarint(canonical.size(), posting);
    posting->append(canonical);
    AppendVarint(IdsLength(ids, n), posting);
    AppendIds(ids, n, posting);
    return;
  }
  // Rewrite the group's ids length (its varint may grow) and append the ids.
  scratch->assign(*posting, 0, group.ids_length_at);
  AppendVarint(group.ids_end - group.ids_begin + IdsLength(ids, n), scratch);
  scratch->append(*posting, group.ids_begin, group.ids_end - group.ids_begin);
  AppendIds(ids, n, scratch);
  scratch->append(*posting, group.ids_end, std::string::npos);
  posting->swap(*scratch);
}

void CanonicalValue(const FieldValue& value, std::string* out) {
  out->clear();
  if (value.type == FieldType::kDouble) {
    record_codec::EncodeField(FieldValue::Double(CanonicalDouble(value.double_value)), out);
  } else {
    record_codec::EncodeField(value, out);
  }
}

void CanonicalValue(const record_codec::FieldView& value, std::string* out) {
  out->clear();
  if (value.type == FieldType::kDouble) {
    record_codec::EncodeField(FieldValue::Double(CanonicalDouble(value.double_value)), out);
  } else {
    record_codec::EncodeField(value, out);
  }
}

bool AppendValuePart(Slice canonical, std::string* key) {
  if (canonical.size() <= kMaxInlineValue) {
    key->append(canonical);
    return false;
  }
  const uint64_t h = Fnv1a64(canonical);
  key->push_back(kHashedMarker);
  for (int i = 0; i < 8; ++i) key->push_back(static_cast<char>(h >> (8 * i)));
  return true;
}

Status PostingRemove(bool hashed, Slice canonical, RecordId id, std::string* posting,
                     std::string* scratch, bool* removed) {
  *removed = false;
  size_t at, after;
  if (!hashed) {
    KVBENCH_RETURN_IF_ERROR(FindId(*posting, 0, posting->size(), id, &at, &after));
    if (at == std::string::npos) return Status::OK();
    posting->erase(at, after - at);
    *removed = true;
    return Status::OK();
  }
  Group group;
  bool found;
  KVBENCH_RETURN_IF_ERROR(FindGroup(*posting, canonical, &group, &found));
  if (!found) return Status::OK();
  KVBENCH_RETURN_IF_ERROR(FindId(*posting, group.ids_begin, group.ids_end, id, &at, &after));
  if (at == std::string::npos) return Status::OK();
  const size_t remaining_ids = group.ids_end - group.ids_begin - (after - at);
  scratch->assign(*posting, 0, group.start);
  if (remaining_ids > 0) {  // keep the group, without this id
    scratch->append(*posting, group.start, group.ids_length_at - group.start);
    AppendVarint(remaining_ids, scratch);
    scratch->append(*posting, group.ids_begin, at - group.ids_begin);
    scratch->append(*posting, after, group.ids_end - after);
  }
  scratch->append(*posting, group.ids_end, std::string::npos);
  posting->swap(*scratch);
  *removed = true;
  return Status::OK();
}

Status PostingRead(bool hashed, Slice canonical, Slice posting, size_t limit,
                   std::vector<RecordId>* ids) {
  size_t begin = 0, end = posting.size();
  if (hashed) {
    Group group;
    bool found;
    KVBENCH_RETURN_IF_ERROR(FindGroup(posting, canonical, &group, &found));
    if (!found) return Status::OK();
    begin = group.ids_begin;
    end = group.ids_end;
  }
  const char* p = posting.data() + begin;
  const char* const stop = posting.data() + end;
  size_t taken = 0;
  while (p < stop && (limit == 0 || taken < limit)) {
    uint64_t id;
    if (!ParseVarint(&p, stop, &id)) return Malformed();
    ids->push_back(id);
    ++taken;
  }
  return Status::OK();
}

}  // namespace kvbench::record_index
