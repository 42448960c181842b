#include "datasets/record_generator.h"

#include <fmt/core.h>

#include <charconv>

#include "datasets/random.h"

namespace kvbench::datasets {

namespace {

constexpr uint64_t kTagFieldRecord = 0x666965ULL;  // "fie"
constexpr uint64_t kTagTypedRecord = 0x747970ULL;  // "typ"
constexpr uint32_t kMaxFieldBytes = 1 << 20;

// Fills [begin, end) with random letters from `first` ('A' or 'a'): 13 base-26
// digits per 64-bit draw (26^13 < 2^64), a sixth of the draws of one per letter.
void FillLetters(char first, HashStream* stream, char* begin, char* end) {
  uint64_t r = 0;
  int left = 0;
  for (char* p = begin; p != end; ++p) {
    if (left == 0) {
      r = stream->Next();
      left = 13;
    }
    *p = static_cast<char>(first + r % 26);
    r /= 26;
    --left;
  }
}

// "key" / "val" and then letters, cut to `length` like Perl's loop (which
// never shortens the 3-letter prefix; we do, for lengths below 3).
void FillPrefixedLetters(std::string_view prefix, uint32_t length, uint64_t random_seed,
                         std::string* out) {
  out->resize(length);
  const size_t kept = std::min<size_t>(prefix.size(), length);
  std::copy(prefix.begin(), prefix.begin() + kept, out->begin());
  HashStream stream(random_seed);
  FillLetters('A', &stream, out->data() + kept, out->data() + length);
}

// Letters needed to spell `count` different names in base 26.
uint32_t LettersFor(uint64_t count) {
  uint32_t letters = 0;
  for (uint64_t combos = 1; combos < count; combos *= 26) ++letters;
  return letters;
}

}  // namespace

std::vector<ParamSpec> FieldRecordParams() {
  return {{"fields", "50", "fields per record, the first being order_id (seed 004: 50 or 5)"},
          {"name_length", "50", "bytes per field name (seed 004: 50 or 5)"},
          {"value_length", "50", "bytes per field value (seed 004: 50 or 5)"}};
}

Status ParseFieldRecordOptions(const ParamMap& params, FieldRecordOptions* out) {
  DatasetParams p;
  KVBENCH_RETURN_IF_ERROR(DatasetParams::Resolve("records", FieldRecordParams(), params, &p));
  uint64_t fields = 0, name_length = 0, value_length = 0;
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("fields", 1, 1 << 20, &fields));
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("name_length", 1, kMaxFieldBytes, &name_length));
  KVBENCH_RETURN_IF_ERROR(p.GetUint64("value_length", 0, kMaxFieldBytes, &value_length));
  const uint32_t needed = 3 + LettersFor(fields - 1);
  if (fields > 1 && name_length < needed) {
    return Status::InvalidArgument(fmt::format(
        "records: option 'name_length': {} fields need names of at least {} bytes to differ",
        fields, needed));
  }
  out->fields = static_cast<uint32_t>(fields);
  out->name_length = static_cast<uint32_t>(name_length);
  out->value_length = static_cast<uint32_t>(value_length);
  return Status::OK();
}

FieldRecordGenerator::FieldRecordGenerator(const FieldRecordOptions& options, uint64_t seed)
    : options_(options), keyed_seed_(KeyedSeed(seed, kTagFieldRecord)) {
  names_.resize(options_.fields);
  names_[0] = "order_id";
  // Random letters after "key", with the field number spelt in base 26 in the
  // last letters so the names are distinct.
  const uint32_t unique_letters = LettersFor(options_.fields - 1);
  for (uint32_t f = 1; f < options_.fields; ++f) {
    std::string& name = names_[f];
    FillPrefixedLetters("key", options_.name_length, HashOf(seed, kTagFieldRecord, f), &name);
    uint32_t n = f - 1;
    for (uint32_t k = 0; k < unique_letters; ++k) {
      name[name.size() - 1 - k] = static_cast<char>('A' + n % 26);
      n /= 26;
    }
  }
}

void FieldRecordGenerator::Fill(uint64_t index, std::vector<std::string>* values) const {
  values->resize(options_.fields);
  std::string& order_id = (*values)[0];
  order_id.resize(20);
  auto [end, ec] = std::to_chars(order_id.data(), order_id.data() + 20, index + 1);
  order_id.resize(static_cast<size_t>(end - order_id.data()));
  const uint64_t record_seed = HashKeyed(keyed_seed_, index);
  for (uint32_t f = 1; f < options_.fields; ++f) {
    FillPrefixedLetters("val", options_.value_length, record_seed + f * kGolden64, &(*values)[f]);
  }
}

Status ParseRecordSchema(std::string_view schema, std::vector<TypedFieldSpec>* out) {
  using Source = TypedFieldSpec::Source;
  std::vector<TypedFieldSpec> fields;
  auto bad = [&](std::string_view entry, std::string_view why) {
    return Status::InvalidArgument(
        fmt::format("record schema '{}': entry '{}': {}", schema, entry, why));
  };
  auto parse_number = [](std::string_view text, uint64_t* v) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *v);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
  };
  size_t start = 0;
  while (start <= schema.size()) {
    const size_t comma = std::min(schema.find(',', start), schema.size());
    std::string_view entry = schema.substr(start, comma - start);
    start = comma + 1;
    uint64_t repeat = 1;
    const std::string_view whole = entry;
    if (const size_t star = entry.find('*'); star != std::string_view::npos) {
      if (!parse_number(entry.substr(star + 1), &repeat) || repeat == 0 || repeat > (1 << 20)) {
        return bad(whole, "the repeat count after '*' must be 1..1048576");
      }
      entry = entry.substr(0, star);
    }
    TypedFieldSpec spec;
    uint64_t n = 0;
    const size_t colon = entry.find(':');
    const std::string_view type = entry.substr(0, colon);
    const std::string_view arg =
        colon == std::string_view::npos ? std::string_view() : entry.substr(colon + 1);
    if (type.starts_with("int%")) {
      if (!parse_number(type.substr(4), &n) || n == 0 || colon != std::string_view::npos) {
        return bad(whole, "int%M needs a modulus M >= 1");
      }
      spec.source = Source::kIndexModulo;
      spec.modulus = n;
    } else if (type == "str" || type == "conststr" || type == "bytes") {
      if (!parse_number(arg, &n) || n > kMaxFieldBytes) {
        return bad(whole, fmt::format("{}:N needs a length N of 0..{}", type, kMaxFieldBytes));
      }
      spec.source = type == "str"        ? Source::kRandomString
                    : type == "conststr" ? Source::kConstantString
                                         : Source::kRandomBytes;
      spec.length = static_cast<uint32_t>(n);
    } else if (!arg.empty() || colon != std::string_view::npos) {
      return bad(whole, "only str, conststr and bytes take a length");
    } else if (type == "null") {
      spec.source = Source::kNull;
    } else if (type == "int") {
      spec.source = Source::kIndex;
    } else if (type == "randint") {
      spec.source = Source::kRandomInt;
    } else if (type == "double") {
      spec.source = Source::kRandomDouble;
    } else if (type == "ref") {
      spec.source = Source::kPreviousRecord;
    } else {
      return bad(whole,
                 "unknown type (known: null, int, int%M, randint, double, str:N, conststr:N, "
                 "bytes:N, ref)");
    }
    fields.insert(fields.end(), repeat, spec);
  }
  *out = std::move(fields);
  return Status::OK();
}

TypedRecordGenerator::TypedRecordGenerator(std::vector<TypedFieldSpec> schema, uint64_t seed)
    : schema_(std::move(schema)), keyed_seed_(KeyedSeed(seed, kTagTypedRecord)) {
  constant_strings_.resize(schema_.size());
  for (size_t f = 0; f < schema_.size(); ++f) {
    if (schema_[f].source != TypedFieldSpec::Source::kConstantString) continue;
    HashStream stream(HashOf(seed, kTagTypedRecord, f));
    constant_strings_[f].resize(schema_[f].length);
    FillLetters('a', &stream, constant_strings_[f].data(),
                constant_strings_[f].data() + schema_[f].length);
  }
}

void TypedRecordGenerator::Fill(uint64_t index, std::vector<FieldValue>* fields) const {
  using Source = TypedFieldSpec::Source;
  fields->resize(schema_.size());
  HashStream stream(HashKeyed(keyed_seed_, index));
  for (size_t f = 0; f < schema_.size(); ++f) {
    const TypedFieldSpec& spec = schema_[f];
    FieldValue& v = (*fields)[f];
    v.bytes.clear();
    switch (spec.source) {
      case Source::kNull:
        v.type = FieldType::kNull;
        break;
      case Source::kIndex:
        v.type = FieldType::kInt64;
        v.int_value = static_cast<int64_t>(index);
        break;
      case Source::kIndexModulo:
        v.type = FieldType::kInt64;
        v.int_value = static_cast<int64_t>(index % spec.modulus);
        break;
      case Source::kRandomInt:
        v.type = FieldType::kInt64;
        v.int_value = static_cast<int64_t>(stream.Next());
        break;
      case Source::kRandomDouble:
        v.type = FieldType::kDouble;
        v.double_value = UnitDouble(stream.Next()) * 1e6;
        break;
      case Source::kRandomString:
        v.type = FieldType::kString;
        v.bytes.resize(spec.length);
        FillLetters('a', &stream, v.bytes.data(), v.bytes.data() + spec.length);
        break;
      case Source::kConstantString:
        v.type = FieldType::kString;
        v.bytes.assign(constant_strings_[f]);
        break;
      case Source::kRandomBytes:
        v.type = FieldType::kBytes;
        v.bytes.resize(spec.length);
        for (char& c : v.bytes) c = static_cast<char>(stream.Next() & 0xff);
        break;
      case Source::kPreviousRecord:
        v.type = index == 0 ? FieldType::kNull : FieldType::kReference;
        v.reference = index == 0 ? 0 : index - 1;
        break;
    }
  }
}

}  // namespace kvbench::datasets
