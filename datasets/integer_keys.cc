// Fixed-width binary integer keys (`sequential`, `timestamp`, `random-int`)
// and `numbered` text keys.
//
// Binary keys are big-endian unsigned integers of `width` bytes, so unsigned
// byte order (every ordered engine's order) is numeric order. Absent keys are
// Key(j) followed by one 0x00 byte: one byte longer than any present key, so
// never present, and sorted right after Key(j).
#include <fmt/core.h>

#include "datasets/key_kinds.h"
#include "datasets/random.h"

namespace kvbench::datasets::internal {

namespace {

enum HashTag : uint64_t { kTagRandomInt = 11 };

void PutBigEndian(uint64_t v, int width, std::string* out) {
  char bytes[8];
  for (int i = width - 1; i >= 0; --i) {
    bytes[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  out->assign(bytes, static_cast<size_t>(width));
}

uint64_t MaxForWidth(uint64_t width) { return width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1; }

// The common shape: value(i) written as a `width`-byte big-endian integer.
class BinaryIntegerKeyGenerator : public KeyGenerator {
 public:
  BinaryIntegerKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                            int width)
      : KeyGenerator(spec, count, std::move(params)), width_(width) {}

  void Key(uint64_t index, std::string* out) const final {
    PutBigEndian(Value(index), width_, out);
  }
  void AbsentKey(uint64_t index, std::string* out) const final {
    Key(index, out);
    out->push_back('\0');
  }
  size_t max_length() const final { return static_cast<size_t>(width_) + 1; }

 protected:
  virtual uint64_t Value(uint64_t index) const = 0;
  int width_;
};

class SequentialKeyGenerator final : public BinaryIntegerKeyGenerator {
 public:
  SequentialKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params, int width,
                         uint64_t start)
      : BinaryIntegerKeyGenerator(spec, count, std::move(params), width), start_(start) {}
  uint64_t capacity() const override {
    const uint64_t room = MaxForWidth(width_) - start_;
    return room == UINT64_MAX ? room : room + 1;
  }
  bool distinct() const override { return true; }
  KeyEncoding encoding() const override { return KeyEncoding::kBigEndianUnsigned; }

 private:
  uint64_t Value(uint64_t index) const override { return start_ + index; }
  uint64_t start_;
};

class TimestampKeyGenerator final : public BinaryIntegerKeyGenerator {
 public:
  TimestampKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                        uint64_t start, uint64_t step)
      : BinaryIntegerKeyGenerator(spec, count, std::move(params), 8), start_(start), step_(step) {}
  uint64_t capacity() const override { return (UINT64_MAX - start_) / step_; }
  bool distinct() const override { return true; }
  KeyEncoding encoding() const override { return KeyEncoding::kEpochSeconds; }

 private:
  uint64_t Value(uint64_t index) const override { return start_ + index * step_; }
  uint64_t start_;
  uint64_t step_;
};

class RandomIntKeyGenerator final : public BinaryIntegerKeyGenerator {
 public:
  RandomIntKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params, int width,
                        uint64_t min, uint64_t max)
      : BinaryIntegerKeyGenerator(spec, count, std::move(params), width),
        seed_(spec.seed),
        min_(min),
        span_(max - min) {}
  uint64_t capacity() const override { return UINT64_MAX; }
  bool distinct() const override { return false; }
  KeyEncoding encoding() const override { return KeyEncoding::kBigEndianUnsigned; }

 private:
  uint64_t Value(uint64_t index) const override {
    const uint64_t r = HashOf(seed_, kTagRandomInt, index);
    if (span_ == UINT64_MAX) return r;
    // Uniform in [min, max] by 128-bit multiply-shift (bias < 2^-64 x span).
    return min_ + static_cast<uint64_t>((static_cast<unsigned __int128>(r) * (span_ + 1)) >> 64);
  }
  uint64_t seed_;
  uint64_t min_;
  uint64_t span_;
};

class NumberedKeyGenerator final : public KeyGenerator {
 public:
  NumberedKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                       std::string prefix, uint64_t start, uint64_t zeropadding)
      : KeyGenerator(spec, count, std::move(params)),
        prefix_(std::move(prefix)),
        start_(start),
        zeropadding_(static_cast<int>(zeropadding)) {}

  void Key(uint64_t index, std::string* out) const override {
    char digits[24];
    char* p = digits;
    const int n = AppendDecimal(start_ + index, &p);
    out->assign(prefix_);
    if (n < zeropadding_) out->append(static_cast<size_t>(zeropadding_ - n), '0');
    out->append(digits, static_cast<size_t>(n));
  }
  void AbsentKey(uint64_t index, std::string* out) const override {
    Key(index, out);
    out->push_back('x');
  }
  uint64_t capacity() const override { return UINT64_MAX - start_; }
  bool distinct() const override { return true; }
  size_t max_length() const override {
    return prefix_.size() + static_cast<size_t>(std::max(zeropadding_, 20)) + 1;
  }

 private:
  std::string prefix_;
  uint64_t start_;
  int zeropadding_;
};

Status GetWidth(const DatasetParams& params, uint64_t* width) {
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("width", 1, 8, width));
  if (*width != 4 && *width != 8) {
    return Status::InvalidArgument("option 'width': only 4 or 8 bytes are supported");
  }
  return Status::OK();
}

}  // namespace

std::vector<ParamSpec> SequentialKeyParams() {
  return {{"start", "0", "first integer (seed 003's identity keys start at 1)"},
          {"width", "8", "bytes per key: 4 or 8"}};
}

Status NewSequentialKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                 std::unique_ptr<KeyGenerator>* out) {
  uint64_t width = 0, start = 0;
  KVBENCH_RETURN_IF_ERROR(GetWidth(params, &width));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("start", 0, MaxForWidth(width), &start));
  *out = std::make_unique<SequentialKeyGenerator>(spec, count, std::move(params),
                                                  static_cast<int>(width), start);
  return Status::OK();
}

std::vector<ParamSpec> TimestampKeyParams() {
  return {{"start", "0", "first timestamp, seconds since 1970-01-01T00:00:00Z"},
          {"step", "7", "seconds between consecutive keys (seed 003: 7)"}};
}

Status NewTimestampKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                std::unique_ptr<KeyGenerator>* out) {
  uint64_t start = 0, step = 0;
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("start", 0, UINT64_MAX / 2, &start));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("step", 1, UINT64_MAX / 2, &step));
  *out = std::make_unique<TimestampKeyGenerator>(spec, count, std::move(params), start, step);
  return Status::OK();
}

std::vector<ParamSpec> RandomIntKeyParams() {
  return {{"min", "0", "smallest integer"},
          {"max", "999999", "largest integer (seed 003 Test 7: rnd.Next(1000000))"},
          {"width", "4", "bytes per key: 4 or 8 (seed 003: 4-byte keys)"}};
}

Status NewRandomIntKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                std::unique_ptr<KeyGenerator>* out) {
  uint64_t width = 0, min = 0, max = 0;
  KVBENCH_RETURN_IF_ERROR(GetWidth(params, &width));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("min", 0, MaxForWidth(width), &min));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("max", min, MaxForWidth(width), &max));
  *out = std::make_unique<RandomIntKeyGenerator>(spec, count, std::move(params),
                                                 static_cast<int>(width), min, max);
  return Status::OK();
}

std::vector<ParamSpec> NumberedKeyParams() {
  return {{"prefix", "/order/", "text before the number (seed 004: /order/)"},
          {"start", "1", "first number"},
          {"zeropadding", "1", "digits the number is left-padded with zeros to"}};
}

Status NewNumberedKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                               std::unique_ptr<KeyGenerator>* out) {
  uint64_t start = 0, zeropadding = 0;
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("start", 0, UINT64_MAX / 2, &start));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("zeropadding", 1, 64, &zeropadding));
  std::string prefix = params.GetString("prefix");
  *out = std::make_unique<NumberedKeyGenerator>(spec, count, std::move(params), std::move(prefix),
                                                start, zeropadding);
  return Status::OK();
}

}  // namespace kvbench::datasets::internal
