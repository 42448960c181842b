// Secondary index entries of the shared record layer, as plain keys and
// values so that they work on unordered engines (no Scan needed): one key per
// (index, field value) whose value is the posting list of the record ids
// holding that value. docs/record-codec.md describes the layout.
//
// Index key := index prefix ("/<table>#i<field>.<generation>#") + value part.
// The value part is the field's canonical encoding (record_codec's tag and
// payload, with -0.0 written as +0.0 and every NaN as one quiet NaN) when it is
// at most kMaxInlineValue bytes, so that keys stay under LMDB's 511-byte limit.
// A longer value's part is 'H' (never a type tag) + 8 bytes of a 64-bit hash,
// and its posting list keeps the full value next to each id list, so a hash
// collision never mixes two values' records.
//
// Posting lists:
//   inline key:  id varint, repeated (insertion order, no duplicates)
//   hashed key:  group, repeated; group := value_length:varint value
//                ids_length:varint (ids_length bytes of id varints)
// Varints are unsigned LEB128, as in record_codec.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/record.h"
#include "adapters/record_layer/record_codec.h"
#include "common/status.h"

namespace kvbench::record_index {

inline constexpr size_t kMaxInlineValue = 256;
inline constexpr char kHashedMarker = 'H';

// Replaces *out with the canonical encoding of a value.
void CanonicalValue(const FieldValue& value, std::string* out);
void CanonicalValue(const record_codec::FieldView& value, std::string* out);

// Appends the value part of the index key for `canonical` to *key; returns
// true when the value was hashed (its posting list is grouped).
bool AppendValuePart(Slice canonical, std::string* key);

// Adds `count` ids to a posting list (empty string: no list yet). For a
// hashed key `canonical` names the group; `scratch` is reused working space.
void PostingAdd(bool hashed, Slice canonical, const RecordId* ids, size_t count,
                std::string* posting, std::string* scratch);
// Removes `id`; *removed says whether it was there. Corruption for a
// malformed list.
Status PostingRemove(bool hashed, Slice canonical, RecordId id, std::string* posting,
                     std::string* scratch, bool* removed);
// Appends at most `limit` ids (0: no limit) of `canonical`'s records to *ids.
Status PostingRead(bool hashed, Slice canonical, Slice posting, size_t limit,
                   std::vector<RecordId>* ids);

}  // namespace kvbench::record_index
