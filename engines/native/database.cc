// Database: creating and attaching, locks, records and fields. Indexes are in
// database_index.cc, snapshots in snapshot.cc, consistency checks in
// database_verify.cc.
#include "engines/native/database.h"

#include <atomic>
#include <cstring>
#include <string>

#include "engines/native/btree.h"
#include "engines/native/string_table.h"

namespace nativedb {

using namespace format;

namespace {

std::string FieldRangeError(uint32_t field, uint64_t count) {
  return "field " + std::to_string(field) + " out of range for a record of " +
         std::to_string(count) + " fields";
}

}  // namespace

Database::Database(Arena arena, const Options& options, bool creator)
    : arena_(std::move(arena)),
      base_(arena_.base()),
      header_(arena_.header()),
      options_(options),
      creator_(creator) {}

Database::~Database() {
  if (creator_ && arena_.region().shared() && options_.remove_shm_on_close) {
    MemoryRegion::UnlinkShared(arena_.region().name());
  }
}

Status Database::CreateRegion(const Options& options, MemoryRegion* region) {
  if (options.size < kMinArenaSize) {
    return Status::InvalidArgument("size " + std::to_string(options.size) +
                                   " is below the minimum of " + std::to_string(kMinArenaSize));
  }
  RegionOptions region_options;
  region_options.prefault = options.prefault;
  region_options.huge_pages = options.huge_pages;
  if (options.shm_name.empty()) {
    const uint64_t max = options.max_size > options.size ? options.max_size : options.size;
    return MemoryRegion::CreatePrivate(options.size, max, region_options, region);
  }
  return MemoryRegion::CreateShared(options.shm_name, options.size, region_options, region);
}

Status Database::Create(const Options& options, std::unique_ptr<Database>* db) {
  MemoryRegion region;
  NATIVEDB_RETURN_IF_ERROR(CreateRegion(options, &region));
  Arena::Format(region);
  Arena arena(std::move(region));
  arena.Publish();
  db->reset(new Database(std::move(arena), options, /*creator=*/true));
  return Status::OK();
}

Status Database::Attach(const std::string& shm_name, std::unique_ptr<Database>* db) {
  MemoryRegion region;
  NATIVEDB_RETURN_IF_ERROR(MemoryRegion::AttachShared(shm_name, &region));
  if (region.size() < kHeaderBytes) {
    return Status::Corruption("shared memory '" + region.name() + "' is too small for a header");
  }
  const auto* h = reinterpret_cast<const ArenaHeader*>(region.base());
  const uint64_t magic =
      reinterpret_cast<const std::atomic<uint64_t>*>(&h->magic)->load(std::memory_order_acquire);
  if (magic == 0) return Status::Busy("shared memory '" + region.name() + "' is being created");
  if (magic != kMagic || h->byte_order != kByteOrderMark) {
    return Status::Corruption("shared memory '" + region.name() + "' is not a nativedb arena");
  }
  if (h->version != kVersion) {
    return Status::Corruption("arena format version " + std::to_string(h->version) +
                              ", this build reads " + std::to_string(kVersion));
  }
  if (h->size > region.size()) {
    return Status::Corruption("arena claims more bytes than its shared memory has");
  }
  Options options;
  options.shm_name = region.name();
  options.size = h->size;
  db->reset(new Database(Arena(std::move(region)), options, /*creator=*/false));
  return Status::OK();
}

Status Database::RemoveShared(const std::string& shm_name) {
  return MemoryRegion::UnlinkShared(shm_name);
}

// ---- Locks --------------------------------------------------------------------

Status Database::LockRead() const {
  const int rc = pthread_rwlock_rdlock(&header_->lock);
  if (rc != 0) return Status::Busy(std::string("read lock: ") + std::strerror(rc));
  return Status::OK();
}

void Database::UnlockRead() const { pthread_rwlock_unlock(&header_->lock); }

Status Database::LockWrite() const {
  const int rc = pthread_rwlock_wrlock(&header_->lock);
  if (rc != 0) return Status::Busy(std::string("write lock: ") + std::strerror(rc));
  return Status::OK();
}

void Database::UnlockWrite() const { pthread_rwlock_unlock(&header_->lock); }

// ---- Records --------------------------------------------------------------------

Status Database::CreateRecordFailed(uint32_t field_count) {
  if (field_count > kMaxFieldCount) {
    return Status::InvalidArgument("a record has at most " + std::to_string(kMaxFieldCount) +
                                   " fields");
  }
  return arena_.FullError("record");
}

Status Database::SetFieldSlow(Record record, uint32_t field, const Value& value, bool check_old) {
  uint64_t* words = arena_.Words(record.offset);
  const uint64_t count = ChunkFieldsOf(words[0]);
  if (field >= count) return Status::InvalidArgument(FieldRangeError(field, count));
  IndexMeta* meta = (header_->indexed_mask & IndexMaskBit(field)) != 0 ? FindIndex(field) : nullptr;
  uint64_t word;
  NATIVEDB_RETURN_IF_ERROR(internal::EncodeValue(arena_, value, &word));
  const uint64_t old = words[1 + field];
  if (meta != nullptr) {
    if (word != kNullWord && !internal::BTree(&arena_, meta).ReserveForInsert()) {
      internal::ReleaseWord(arena_, word);
      return arena_.FullError("index");
    }
    if (old != kNullWord) {
      Status st = IndexErase(meta, old, record.offset);
      if (!st.ok()) {
        internal::ReleaseWord(arena_, word);
        return st;
      }
    }
  }
  if (check_old) internal::ReleaseWord(arena_, old);
  words[1 + field] = word;
  if (meta != nullptr && word != kNullWord) {
    internal::BTree(&arena_, meta).Insert(word, record.offset);
  }
  return Status::OK();
}

Status Database::DeleteRecord(Record record) {
  if (record.offset < kHeaderBytes || record.offset >= header_->bump || (record.offset & 7) != 0 ||
      ChunkKindOf(*arena_.Words(record.offset)) != kChunkRecord) {
    return Status::InvalidArgument("no record at offset " + std::to_string(record.offset));
  }
  uint64_t* words = arena_.Words(record.offset);
  const uint64_t count = ChunkFieldsOf(words[0]);
  if (header_->indexed_mask != 0) {
    for (IndexMeta& meta : header_->indexes) {
      if (meta.field == kNoField || meta.field >= count || words[1 + meta.field] == kNullWord) {
        continue;
      }
      NATIVEDB_RETURN_IF_ERROR(IndexErase(&meta, words[1 + meta.field], record.offset));
    }
  }
  for (uint64_t f = 0; f < count; ++f) internal::ReleaseWord(arena_, words[1 + f]);
  arena_.FreeRecord(record.offset);
  --header_->record_count;
  return Status::OK();
}

namespace {

// The first record at or after `at` in the walk order (0 at the end).
uint64_t RecordFrom(const char* base, const ArenaHeader* h, uint64_t at) {
  while (at != 0 && at != h->rec_bump) {
    const uint64_t* chunk = reinterpret_cast<const uint64_t*>(base + at);
    switch (ChunkKindOf(chunk[0])) {
      case kChunkRecord:
        return at;
      case kChunkLink:
        at = chunk[1];
        break;
      default:
        at += ChunkWordsOf(chunk[0]) * 8;
        break;
    }
  }
  return 0;
}

}  // namespace

Record Database::FirstRecord() const {
  return Record{RecordFrom(base_, header_, header_->first_segment)};
}

Record Database::NextRecord(Record record) const {
  const uint64_t h = *arena_.Words(record.offset);
  return Record{RecordFrom(base_, header_, record.offset + ChunkWordsOf(h) * 8)};
}

namespace {

// The record walk of ForEachRecord, specialised for one field: reads only the
// chunk header and the field, so a scan runs at memory speed.
template <class Match>
size_t ScanField(const char* base, const ArenaHeader* h, uint32_t field, size_t limit,
                 std::vector<Record>* out, Match match) {
  size_t found = 0;
  uint64_t at = h->first_segment;
  if (at == 0) return 0;
  const uint64_t end = h->rec_bump;
  while (at != end) {
    const uint64_t* chunk = reinterpret_cast<const uint64_t*>(base + at);
    const uint64_t header = chunk[0];
    if (ChunkKindOf(header) == kChunkRecord) {
      if (field < ChunkFieldsOf(header) && match(chunk[1 + field])) {
        if (out != nullptr) out->push_back(Record{at});
        if (++found == limit) break;
      }
    } else if (ChunkKindOf(header) == kChunkLink) {
      at = chunk[1];
      continue;
    }
    at += ChunkWordsOf(header) * 8;
  }
  return found;
}

}  // namespace

size_t Database::ScanEqual(uint32_t field, const Value& value, size_t limit,
                           std::vector<Record>* out) const {
  uint64_t probe;
  bool by_word = internal::EncodeInline(value, &probe);
  if (!by_word && value.type() == FieldType::kString &&
      value.string_value().size() > kShortStringMax) {
    // Interned: equal strings have equal words, and an absent string matches nothing.
    const uint64_t at = internal::FindInterned(arena_, value.string_value());
    if (at == 0) return 0;
    probe = MakeWord(kTagLongString, at);
    by_word = true;
  }
  if (by_word) {
    return ScanField(base_, header_, field, limit, out, [probe](uint64_t w) { return w == probe; });
  }
  const char* base = base_;
  return ScanField(base_, header_, field, limit, out, [base, &value](uint64_t w) {
    return !internal::OwnsNoStorage(w) && internal::DecodeWord(base, w) == value;
  });
}

Stats Database::GetStats() const {
  Stats s;
  s.size = header_->size;
  s.used = header_->bump;
  s.records = header_->record_count;
  s.data_bytes = header_->data_bytes_live;
  s.interned_strings = header_->intern_count;
  s.indexes = 0;
  for (const IndexMeta& meta : header_->indexes) s.indexes += meta.field != kNoField ? 1 : 0;
  return s;
}

}  // namespace nativedb
