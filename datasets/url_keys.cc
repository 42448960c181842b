// The `urls` and `paths` kinds: long, hierarchical keys like seed 001's.
//
// Key i is built top-down from a hierarchy of fixed fan-out, so every level is
// found from i by division and its words by hashing (seed, level, number):
//
//   i -> leaf directory d = i / files_per_dir
//     -> parent: d and up to 3 siblings of its directory group share one
//     -> directory group m = d / dirs_per_group  (shares a section directory)
//     -> host (or path root) h = m / groups_per_host
//
//   https://docs.riverstone-labs.com/products/wireless-router/setup/guest/  <- host..dir
//     configure-guest-network-access-48213.html                             <- key i
//
// Lengths: each directory d draws a target length T_d from a triangular
// distribution on [0.6, 1.4] x avg_length (mean avg_length); its directory part
// grows to about shared_fraction x T_d, and each key's file name is cut to make
// the key T_d + jitter_i bytes long (jitter uniform in +-0.1 x avg_length, mean
// 0) with whole words: the last word is one of exactly the length left.
// So the average key length is avg_length, and as the files_per_dir keys of a
// directory repeat its directory part, sorting and front-coding the keys shrinks
// them to about 1.02 - shared_fraction of their bytes (measured: 0.395 at the
// default 0.62, 0.28 at 0.75, 0.50 at 0.5). Below 0.5 the host and the minimum
// of directories keep the ratio near 0.6.
//
// Distinct keys: the file name ends in "<sep or '/'><decimal i>.<ext>", where
// the extension holds no '.' and the character before the digits is not a
// digit. The digits before the last '.' therefore spell i, so two keys are
// equal only if their indexes are. AbsentKey(j) is Key(j) with an extension
// from words::kAbsentExtensions, a list no present key uses: never present.
#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "datasets/key_kinds.h"
#include "datasets/random.h"
#include "datasets/word_lists.h"

namespace kvbench::datasets::internal {

namespace {

enum HashTag : uint64_t { kTagHost = 1, kTagGroup, kTagParent, kTagDir, kTagFile, kTagCount };

constexpr uint64_t kMinAvgLength = 80;  // below, the host and directories alone exceed it
constexpr uint64_t kMaxAvgLength = 1024;

// A word in a fixed 16-byte slot, so that appending it is one unconditional
// 16-byte copy (the key buffer keeps 16 bytes of slack) instead of a
// variable-length memcpy: the difference between 3 and 6 million keys/s.
struct SlotWord {
  char bytes[16];
  uint32_t size;
};

class SlotWordList {
 public:
  SlotWordList() = default;
  explicit SlotWordList(const words::WordList& list) {
    for (uint32_t i = 0; i < list.size; ++i) Add(list[i]);
  }
  void Add(std::string_view word) {
    SlotWord slot{};
    std::memcpy(slot.bytes, word.data(), std::min(word.size(), sizeof(slot.bytes)));
    slot.size = static_cast<uint32_t>(word.size());
    words_.push_back(slot);
  }
  uint32_t PickIndex(uint64_t random_bits) const {
    return FastRange32(random_bits, static_cast<uint32_t>(words_.size()));
  }
  const SlotWord& Pick(uint64_t random_bits) const { return words_[PickIndex(random_bits)]; }
  const SlotWord& operator[](uint32_t i) const { return words_[i]; }
  size_t size() const { return words_.size(); }

 private:
  std::vector<SlotWord> words_;
};

// Every list in slot form, built once per process.
struct UrlWordTables {
  UrlWordTables()
      : host_names(words::kHostNames),
        top_level_domains(words::kTopLevelDomains),
        subdomains(words::kSubdomains),
        url_sections(words::kUrlSections),
        path_roots(words::kPathRoots),
        user_names(words::kUserNames),
        path_sections(words::kPathSections),
        topics(words::kTopics),
        slug_words(words::kSlugWords),
        url_extensions(words::kUrlExtensions),
        path_extensions(words::kPathExtensions),
        absent_extensions(words::kAbsentExtensions) {
    for (uint32_t i = 0; i < words::kSlugWords.size; ++i) {
      const std::string_view w = words::kSlugWords[i];
      if (w.size() <= words::kMaxSlugWordLength) slug_words_by_length[w.size()].Add(w);
    }
    for (uint32_t i = 0; i < words::kPathRoots.size; ++i) {
      const std::string_view root = words::kPathRoots[i];
      root_is_per_user.push_back(root == "/home/" || root == "/Users/" || root == "/export/home/");
    }
  }

  static const UrlWordTables& Get() {
    static const UrlWordTables tables;
    return tables;
  }

  SlotWordList host_names, top_level_domains, subdomains, url_sections, path_roots, user_names,
      path_sections, topics, slug_words, url_extensions, path_extensions, absent_extensions;
  SlotWordList slug_words_by_length[words::kMaxSlugWordLength + 1];
  std::vector<bool> root_is_per_user;  // per path root: followed by a user name
};

// Division by a fan-out fixed at construction: a shift for powers of two (the
// defaults), else a plain division. Three 64-bit divisions per key cost a
// fifth of the key's time.
class Divider {
 public:
  explicit Divider(uint64_t divisor) : divisor_(divisor) {
    if ((divisor & (divisor - 1)) == 0) {
      shift_ = 0;
      while ((uint64_t{1} << shift_) < divisor) ++shift_;
    }
  }
  uint64_t Divide(uint64_t n) const { return shift_ >= 0 ? n >> shift_ : n / divisor_; }

 private:
  uint64_t divisor_;
  int shift_ = -1;
};

// 32-bit draws from a HashStream, two per 64-bit word.
class HalfDraws {
 public:
  explicit HalfDraws(HashStream* stream) : stream_(stream) {}
  uint64_t Next() {
    if (have_high_) {
      have_high_ = false;
      return word_ >> 32;
    }
    word_ = stream_->Next();
    have_high_ = true;
    return word_ & 0xffffffffULL;
  }

 private:
  HashStream* stream_;
  uint64_t word_ = 0;
  bool have_high_ = false;
};

// Appends words to a key under construction, in a buffer of max_length() + 16
// bytes: max_length() bounds every key and the 16 bytes absorb slot copies.
class KeyWriter {
 public:
  explicit KeyWriter(char* buffer) : begin_(buffer), p_(buffer) {}
  void Put(const SlotWord& w) {
    std::memcpy(p_, w.bytes, sizeof(w.bytes));
    p_ += w.size;
  }
  void Put(std::string_view s) {
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  void Put(char c) { *p_++ = c; }
  size_t size() const { return static_cast<size_t>(p_ - begin_); }
  char** cursor() { return &p_; }

 private:
  char* begin_;
  char* p_;
};

class UrlKeyGenerator final : public KeyGenerator {
 public:
  struct Shape {
    uint64_t avg_length;
    double shared_fraction;
    uint64_t files_per_dir;
    uint64_t dirs_per_group;
    uint64_t groups_per_host;
    double url_fraction;
  };

  UrlKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params, Shape shape)
      : KeyGenerator(spec, count, std::move(params)),
        shape_(shape),
        files_per_dir_(shape.files_per_dir),
        dirs_per_group_(shape.dirs_per_group),
        groups_per_host_(shape.groups_per_host),
        tables_(UrlWordTables::Get()) {
    for (uint64_t tag = 0; tag < kTagCount; ++tag) keyed_seeds_[tag] = KeyedSeed(spec.seed, tag);
  }

  void Key(uint64_t index, std::string* out) const override { Build(index, false, out); }
  void AbsentKey(uint64_t index, std::string* out) const override { Build(index, true, out); }
  uint64_t capacity() const override { return UINT64_MAX; }
  bool distinct() const override { return true; }
  size_t max_length() const override { return MaxLength(shape_.avg_length); }

  static constexpr size_t MaxLength(uint64_t avg_length) {
    // A key aims at most 1.5 x avg_length bytes. The directory part can pass
    // its aim by a host, a group, a date and a segment (< 160 bytes together)
    // and a file name needs at most 20 digits, a dot and an extension.
    return static_cast<size_t>(avg_length * 3 / 2) + 200;
  }

 private:
  uint64_t Hash(HashTag tag, uint64_t n) const { return HashKeyed(keyed_seeds_[tag], n); }
  void Build(uint64_t index, bool absent, std::string* out) const;
  // Writes the host or path root of host number h; returns whether it is a URL.
  bool WriteHost(uint64_t h, KeyWriter* w) const;
  void WriteGroup(uint64_t m, bool url, KeyWriter* w) const;
  // One directory name of 1 to 3 topic words.
  void WriteSegment(uint64_t r, char sep, KeyWriter* w) const;
  void WriteSlug(HashStream* fs, size_t length, char sep, KeyWriter* w) const;

  Shape shape_;
  Divider files_per_dir_;
  Divider dirs_per_group_;
  Divider groups_per_host_;
  const UrlWordTables& tables_;
  uint64_t keyed_seeds_[kTagCount];
};

bool UrlKeyGenerator::WriteHost(uint64_t h, KeyWriter* w) const {
  HashStream hs(Hash(kTagHost, h));
  const bool url = UnitDouble(hs.Next()) < shape_.url_fraction;
  const uint64_t r = hs.Next();
  const uint64_t r2 = hs.Next();
  if (url) {
    w->Put((r & 7) == 0 ? std::string_view("http://") : std::string_view("https://"));
    w->Put(tables_.subdomains.Pick(r >> 32));
    w->Put('.');
    w->Put(tables_.host_names.Pick(r2));
    if ((r >> 3) & 1) {
      w->Put((r >> 4) & 1 ? '-' : '.');
      w->Put(tables_.host_names.Pick(r2 >> 32));
    }
    w->Put('.');
    w->Put(tables_.top_level_domains.Pick(r >> 8));
    w->Put('/');
  } else {
    const uint32_t root = tables_.path_roots.PickIndex(r);
    w->Put(tables_.path_roots[root]);
    w->Put(tables_.root_is_per_user[root] ? tables_.user_names.Pick(r >> 32)
                                          : tables_.host_names.Pick(r2));
    w->Put('/');
  }
  return url;
}

void UrlKeyGenerator::WriteGroup(uint64_t m, bool url, KeyWriter* w) const {
  const uint64_t r = Hash(kTagGroup, m);
  w->Put(url ? tables_.url_sections.Pick(r) : tables_.path_sections.Pick(r));
  w->Put('/');
  // Paths get a project-like name under their section ("src/riverstone/").
  if (!url) {
    w->Put(tables_.host_names.Pick(r >> 32));
    w->Put('/');
  }
}

void UrlKeyGenerator::WriteSegment(uint64_t r, char sep, KeyWriter* w) const {
  w->Put(tables_.topics.Pick(r));
  const uint64_t shape = r >> 60;  // 1 word 9/16, 2 words 6/16, 3 words 1/16
  if (shape >= 9) {
    const uint64_t r2 = Mix64(r);
    w->Put(sep);
    w->Put(tables_.topics.Pick(r2));
    if (shape == 15) {
      w->Put(sep);
      w->Put(tables_.topics.Pick(r2 >> 32));
    }
  }
  w->Put('/');
}

// Exactly `length` bytes of slug words joined by `sep`, whole words only: when
// the next word would not fit (or would leave a single byte, too little for a
// separator and a word) a word of exactly the length left ends the slug.
void UrlKeyGenerator::WriteSlug(HashStream* fs, size_t length, char sep, KeyWriter* w) const {
  HalfDraws draws(fs);
  size_t remaining = length;
  bool first = true;
  while (remaining > 0) {
    const uint64_t r = draws.Next();
    const size_t separator = first ? 0 : 1;
    const SlotWord* word = &tables_.slug_words.Pick(r);
    const size_t needed = word->size + separator;
    if (needed > remaining || remaining - needed == 1) {
      // Fill exactly when a word of the length left exists, else take one byte
      // less than this word and leave two bytes for a separator and a word.
      const size_t fill = remaining - separator;
      const size_t size = fill <= words::kMaxSlugWordLength ? fill : word->size - 1;
      word = &tables_.slug_words_by_length[size].Pick(draws.Next());
    }
    if (!first) w->Put(sep);
    w->Put(*word);
    remaining -= word->size + separator;
    first = false;
  }
}

void UrlKeyGenerator::Build(uint64_t index, bool absent, std::string* out) const {
  char buffer[MaxLength(kMaxAvgLength) + sizeof(SlotWord::bytes)];
  KeyWriter w(buffer);
  const double avg = static_cast<double>(shape_.avg_length);

  const uint64_t d = files_per_dir_.Divide(index);
  const uint64_t m = dirs_per_group_.Divide(d);
  const uint64_t h = groups_per_host_.Divide(m);
  const bool url = WriteHost(h, &w);
  WriteGroup(m, url, &w);
  const char sep = url ? '-' : '_';

  // A parent directory shared by up to 4 sibling leaf directories of the group.
  const uint64_t sibling = (d - m * shape_.dirs_per_group) % 4;
  const uint64_t rp = Hash(kTagParent, d - sibling);
  if (url && (rp & 7) == 0) {  // a dated directory, as blogs and news sites have
    internal::AppendDecimal(1995 + (rp >> 3) % 30, w.cursor());
    w.Put('/');
    const uint64_t month = 1 + (rp >> 8) % 12;
    w.Put(static_cast<char>('0' + month / 10));
    w.Put(static_cast<char>('0' + month % 10));
    w.Put('/');
  } else {
    WriteSegment(Mix64(rp), sep, &w);
  }

  // The leaf directory: segments until the directory part reaches about
  // shared_fraction of this directory's target length (at least one segment).
  HashStream ds(Hash(kTagDir, d));
  const uint64_t rd = ds.Next();
  const double dir_target_length = avg * (0.6 + 0.4 * (UnitDouble(rd) + UnitDouble(Mix64(rd))));
  const double dir_part_target = shape_.shared_fraction * dir_target_length;
  constexpr double kTypicalSegmentLength = 9.0;
  constexpr int kMaxSegments = 64;  // bounds the loop; long avg_length needs many
  for (int segment = 0; segment < kMaxSegments; ++segment) {
    if (segment > 0 &&
        static_cast<double>(w.size()) + kTypicalSegmentLength / 2 > dir_part_target) {
      break;
    }
    WriteSegment(ds.Next(), sep, &w);
  }

  // The file name: slug words cut to length, then the index and the extension.
  HashStream fs(Hash(kTagFile, index));
  const uint64_t rf = fs.Next();
  const double jitter = avg * 0.2 * (UnitDouble(rf) - 0.5);
  const int64_t key_target = static_cast<int64_t>(dir_target_length + jitter + 0.5);
  const SlotWord& extension =
      absent ? tables_.absent_extensions.Pick(rf >> 11)
             : (url ? tables_.url_extensions : tables_.path_extensions).Pick(rf >> 11);
  int digits = 1;
  for (uint64_t v = index; v >= 10; v /= 10) ++digits;
  const int64_t slug_length = key_target - static_cast<int64_t>(w.size()) - digits - 1 -
                              static_cast<int64_t>(extension.size) - 1;
  if (slug_length >= 1) {
    WriteSlug(&fs, static_cast<size_t>(slug_length), sep, &w);
    w.Put(sep);
  }
  internal::AppendDecimal(index, w.cursor());
  w.Put('.');
  w.Put(extension);
  out->assign(buffer, w.size());
}

}  // namespace

std::vector<ParamSpec> UrlKeyParams(bool with_url_fraction) {
  std::vector<ParamSpec> specs = {
      {"avg_length", "142", "mean key length in bytes (seed 001: 142), 80..1024"},
      {"shared_fraction", "0.62",
       "share of a key's length in its directory part (repeated by its directory's keys); "
       "front-coded ratio ~ 1.02 - shared_fraction at 142 bytes, at most ~0.63"},
      {"files_per_dir", "16", "keys per leaf directory"},
      {"dirs_per_group", "16", "leaf directories under one group of upper directories"},
      {"groups_per_host", "16", "directory groups per host or path root"},
  };
  if (with_url_fraction) {
    specs.push_back({"url_fraction", "0.5", "share of hosts that are URLs rather than paths"});
  }
  return specs;
}

Status NewUrlKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                          bool paths_only, std::unique_ptr<KeyGenerator>* out) {
  UrlKeyGenerator::Shape shape;
  KVBENCH_RETURN_IF_ERROR(
      params.GetUint64("avg_length", kMinAvgLength, kMaxAvgLength, &shape.avg_length));
  KVBENCH_RETURN_IF_ERROR(params.GetDouble("shared_fraction", 0.0, 0.85, &shape.shared_fraction));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("files_per_dir", 1, 1 << 20, &shape.files_per_dir));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("dirs_per_group", 1, 1 << 20, &shape.dirs_per_group));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("groups_per_host", 1, 1 << 20, &shape.groups_per_host));
  shape.url_fraction = 0.0;
  if (!paths_only) {
    KVBENCH_RETURN_IF_ERROR(params.GetDouble("url_fraction", 0.0, 1.0, &shape.url_fraction));
  }
  *out = std::make_unique<UrlKeyGenerator>(spec, count, std::move(params), shape);
  return Status::OK();
}

}  // namespace kvbench::datasets::internal
