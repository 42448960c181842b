// Database: indexes. An index is a B+tree (btree.h) of (field word, record)
// entries; building one over existing records sorts the entries once and
// bulk-loads the tree, which is much faster than inserting them one by one.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "engines/native/btree.h"
#include "engines/native/database.h"
#include "engines/native/key_order.h"
#include "engines/native/string_table.h"

namespace nativedb {

using namespace format;
using internal::BTree;
using internal::IndexEntry;
using internal::KeyView;
using internal::TreePosition;

namespace {

std::string NoIndex(uint32_t field) { return "field " + std::to_string(field) + " has no index"; }

// LSD radix sort of small-integer entries by key, 11 bits a pass. Stable, so
// entries collected in record order come out in (key, record) order. Passes in
// which every key has the same digit are skipped: keys below 2^22 take two.
void RadixSortSmallInts(std::vector<IndexEntry>* entries) {
  constexpr int kBits = 11;
  constexpr int kPasses = (64 + kBits - 1) / kBits;
  constexpr size_t kBuckets = size_t{1} << kBits;
  const size_t n = entries->size();
  std::vector<size_t> counts(kPasses * kBuckets, 0);
  for (IndexEntry& e : *entries) {
    e.word = internal::OrderedInt(DecodeSmallInt(e.word));
    for (int p = 0; p < kPasses; ++p) {
      ++counts[p * kBuckets + ((e.word >> (p * kBits)) & (kBuckets - 1))];
    }
  }
  // Left uninitialised: every pass writes all of it before reading.
  std::unique_ptr<IndexEntry[]> scratch(new IndexEntry[n]);
  IndexEntry* src = entries->data();
  IndexEntry* dst = scratch.get();
  for (int p = 0; p < kPasses; ++p) {
    size_t* count = &counts[p * kBuckets];
    if (std::find(count, count + kBuckets, n) != count + kBuckets) continue;  // one digit
    size_t sum = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      const size_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    const int shift = p * kBits;
    for (size_t i = 0; i < n; ++i) dst[count[(src[i].word >> shift) & (kBuckets - 1)]++] = src[i];
    std::swap(src, dst);
  }
  if (src != entries->data()) std::copy(src, src + n, entries->data());
  for (IndexEntry& e : *entries) e.word = EncodeSmallInt(internal::IntFromOrdered(e.word));
}

}  // namespace

IndexMeta* Database::FindIndex(uint64_t field) const {
  for (IndexMeta& meta : header_->indexes) {
    if (meta.field == field) return &meta;
  }
  return nullptr;
}

bool Database::HasIndex(uint32_t field) const { return FindIndex(field) != nullptr; }

Status Database::IndexErase(IndexMeta* meta, uint64_t word, uint64_t rec) {
  if (!BTree(&arena_, meta).Erase(word, rec)) {
    return Status::Corruption("index on field " + std::to_string(meta->field) +
                              " has no entry for record " + std::to_string(rec));
  }
  return Status::OK();
}

Status Database::CreateIndex(uint32_t field) {
  if (FindIndex(field) != nullptr) {
    return Status::InvalidArgument("field " + std::to_string(field) + " has an index already");
  }
  IndexMeta* slot = FindIndex(kNoField);
  if (slot == nullptr) {
    return Status::InvalidArgument("all " + std::to_string(kMaxIndexes) +
                                   " index slots are in use");
  }
  std::vector<IndexEntry> entries;
  try {
    entries.reserve(header_->record_count);
    bool all_small_ints = true;
    ForEachRecord([&](Record r) {
      const uint64_t* words = arena_.Words(r.offset);
      if (field >= ChunkFieldsOf(words[0]) || words[1 + field] == kNullWord) return;
      all_small_ints &= IsSmallInt(words[1 + field]);
      entries.push_back(IndexEntry{words[1 + field], r.offset});
    });
    const char* base = base_;
    auto less = [base](const IndexEntry& a, const IndexEntry& b) {
      return internal::CompareEntry(base, a.word, a.rec, internal::KeyOfWord(base, b.word), b.rec) <
             0;
    };
    if (all_small_ints) RadixSortSmallInts(&entries);
    // The radix sort relies on the walk visiting records in address order;
    // one linear check keeps that an optimisation, not an assumption.
    if (!all_small_ints || !std::is_sorted(entries.begin(), entries.end(), less)) {
      std::sort(entries.begin(), entries.end(), less);
    }
  } catch (const std::bad_alloc&) {
    return Status::Full("out of process memory sorting " + std::to_string(entries.size()) +
                        " index entries");
  }
  *slot = IndexMeta{field, 0, 0, 0, 0, 0};
  Status st = BTree(&arena_, slot).BulkLoad(entries.data(), entries.size());
  if (!st.ok()) {
    slot->field = kNoField;
    return st;
  }
  header_->indexed_mask |= IndexMaskBit(field);
  return Status::OK();
}

Status Database::DropIndex(uint32_t field) {
  IndexMeta* meta = FindIndex(field);
  if (meta == nullptr) return Status::NotFound(NoIndex(field));
  BTree(&arena_, meta).Clear();
  meta->field = kNoField;
  // Recompute the mask: fields >= 63 share one bit.
  header_->indexed_mask = 0;
  for (const IndexMeta& m : header_->indexes) {
    if (m.field != kNoField) header_->indexed_mask |= IndexMaskBit(m.field);
  }
  return Status::OK();
}

Status Database::FindEqual(uint32_t field, const Value& key, size_t limit,
                           std::vector<Record>* out) const {
  IndexMeta* meta = FindIndex(field);
  if (meta == nullptr) return Status::NotFound(NoIndex(field));
  out->clear();
  if (key.is_null()) return Status::OK();  // NULLs are not indexed
  uint64_t probe;
  bool by_word = internal::EncodeInline(key, &probe);
  if (!by_word && key.type() == FieldType::kString && key.string_value().size() > kShortStringMax) {
    const uint64_t at = internal::FindInterned(arena_, key.string_value());
    if (at == 0) return Status::OK();  // no field holds the string
    probe = MakeWord(kTagLongString, at);
    by_word = true;
  }
  const KeyView k = internal::KeyOfValue(key);
  BTree tree(&arena_, meta);
  TreePosition p = tree.LowerBound(k, 0);
  // The matches are one run of the leaf chain: read it leaf by leaf.
  for (uint32_t pos = p.pos; p.leaf != 0; p.leaf = *tree.LeafNext(p.leaf), pos = 0) {
    const uint64_t* keys = tree.LeafKeys(p.leaf);
    const uint64_t* recs = tree.LeafRecs(p.leaf);
    const uint32_t count = tree.Header(p.leaf)->count;
    for (; pos < count; ++pos) {
      const bool equal =
          by_word ? keys[pos] == probe : internal::CompareWordToKey(base_, keys[pos], k) == 0;
      if (!equal) return Status::OK();
      out->push_back(Record{recs[pos]});
      if (out->size() == limit) return Status::OK();
    }
  }
  return Status::OK();
}

Status Database::FindRange(uint32_t field, const Value& low, const Value& high, size_t limit,
                           std::vector<Record>* out) const {
  IndexMeta* meta = FindIndex(field);
  if (meta == nullptr) return Status::NotFound(NoIndex(field));
  out->clear();
  const KeyView lo = internal::KeyOfValue(low);
  const KeyView hi = internal::KeyOfValue(high);
  BTree tree(&arena_, meta);
  TreePosition p = low.is_null() ? tree.First() : tree.LowerBound(lo, 0);
  for (; p.leaf != 0; tree.Next(&p)) {
    if (!high.is_null() && internal::CompareWordToKey(base_, tree.WordAt(p), hi) > 0) break;
    out->push_back(Record{tree.RecAt(p)});
    if (out->size() == limit) break;
  }
  return Status::OK();
}

Status Database::NewCursor(uint32_t field, IndexCursor* cursor) const {
  IndexMeta* meta = FindIndex(field);
  if (meta == nullptr) return Status::NotFound(NoIndex(field));
  *cursor = IndexCursor();
  cursor->arena_ = &arena_;
  cursor->meta_ = meta;
  return Status::OK();
}

// ---- IndexCursor ----------------------------------------------------------------

Record IndexCursor::record() const { return Record{BTree(arena_, meta_).RecAt({leaf_, pos_})}; }

Value IndexCursor::key() const {
  return internal::DecodeWord(arena_->base(), BTree(arena_, meta_).WordAt({leaf_, pos_}));
}

void IndexCursor::Next() {
  TreePosition p{leaf_, pos_};
  BTree(arena_, meta_).Next(&p);
  leaf_ = p.leaf;
  pos_ = p.pos;
}

void IndexCursor::Prev() {
  TreePosition p{leaf_, pos_};
  BTree(arena_, meta_).Prev(&p);
  leaf_ = p.leaf;
  pos_ = p.pos;
}

void IndexCursor::SeekToFirst() {
  const TreePosition p = BTree(arena_, meta_).First();
  leaf_ = p.leaf;
  pos_ = p.pos;
}

void IndexCursor::SeekToLast() {
  const TreePosition p = BTree(arena_, meta_).Last();
  leaf_ = p.leaf;
  pos_ = p.pos;
}

void IndexCursor::Seek(const Value& key) {
  const TreePosition p = BTree(arena_, meta_).LowerBound(internal::KeyOfValue(key), 0);
  leaf_ = p.leaf;
  pos_ = p.pos;
}

void IndexCursor::SeekForPrev(const Value& key) {
  BTree tree(arena_, meta_);
  // One before the first entry whose key is greater.
  TreePosition p = tree.LowerBound(internal::KeyOfValue(key), ~uint64_t{0});
  if (p.leaf == 0) {
    p = tree.Last();
  } else {
    tree.Prev(&p);
  }
  leaf_ = p.leaf;
  pos_ = p.pos;
}

}  // namespace nativedb
