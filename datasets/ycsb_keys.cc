// The `ycsb` kind: YCSB CoreWorkload.buildKeyName(keynum, zeropadding,
// orderedinserts) with keynum = index.
//
//   hashed (default): keynum = Utils.fnvhash64(keynum)
//   value = Long.toString(keynum); "user" + ('0' x (zeropadding - len)) + value
//
// fnvhash64 ends in Java's Math.abs, so its result is non-negative except for
// Long.MIN_VALUE, which YCSB would print with a minus sign; so does this.
// FNV-64 over 8 bytes can collide, so hashed keys are not guaranteed distinct
// (YCSB's own keys have the same rare collisions).
//
// Absent keys are Key(j) + "x": present keys end in a digit.
#include <algorithm>

#include "datasets/fnv.h"
#include "datasets/key_kinds.h"

namespace kvbench::datasets::internal {

namespace {

class YcsbKeyGenerator final : public KeyGenerator {
 public:
  YcsbKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params, bool hashed,
                   int zeropadding)
      : KeyGenerator(spec, count, std::move(params)), hashed_(hashed), zeropadding_(zeropadding) {}

  void Key(uint64_t index, std::string* out) const override {
    int64_t keynum = static_cast<int64_t>(index);
    if (hashed_) keynum = YcsbFnvHash64(keynum);
    char digits[24];
    char* p = digits;
    if (keynum < 0) *p++ = '-';
    // |INT64_MIN| does not fit an int64_t; its magnitude does fit a uint64_t.
    const uint64_t magnitude =
        keynum < 0 ? ~static_cast<uint64_t>(keynum) + 1 : static_cast<uint64_t>(keynum);
    AppendDecimal(magnitude, &p);
    const int length = static_cast<int>(p - digits);
    out->assign("user");
    if (length < zeropadding_) out->append(static_cast<size_t>(zeropadding_ - length), '0');
    out->append(digits, static_cast<size_t>(length));
  }
  void AbsentKey(uint64_t index, std::string* out) const override {
    Key(index, out);
    out->push_back('x');
  }
  uint64_t capacity() const override { return static_cast<uint64_t>(INT64_MAX); }
  bool distinct() const override { return !hashed_; }
  size_t max_length() const override {
    return 4 + static_cast<size_t>(std::max(zeropadding_, 20)) + 1;
  }

 private:
  bool hashed_;
  int zeropadding_;
};

}  // namespace

std::vector<ParamSpec> YcsbKeyParams() {
  return {{"insertorder", "hashed", "hashed (user + FNV-64 of i) or ordered (user + i), as YCSB"},
          {"zeropadding", "1", "digits the number is left-padded with zeros to, as YCSB"}};
}

Status NewYcsbKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                           std::unique_ptr<KeyGenerator>* out) {
  size_t order = 0;
  uint64_t zeropadding = 0;
  KVBENCH_RETURN_IF_ERROR(params.GetChoice("insertorder", {"hashed", "ordered"}, &order));
  KVBENCH_RETURN_IF_ERROR(params.GetUint64("zeropadding", 1, 64, &zeropadding));
  *out = std::make_unique<YcsbKeyGenerator>(spec, count, std::move(params), order == 0,
                                            static_cast<int>(zeropadding));
  return Status::OK();
}

}  // namespace kvbench::datasets::internal
