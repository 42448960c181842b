#include "runner/record_source.h"

#include <string_view>

namespace kvbench::runner {

namespace {

FieldType DeclaredType(const datasets::TypedFieldSpec& f) {
  using Source = datasets::TypedFieldSpec::Source;
  switch (f.source) {
    case Source::kNull: return FieldType::kNull;
    case Source::kIndex:
    case Source::kIndexModulo:
    case Source::kRandomInt: return FieldType::kInt64;
    case Source::kRandomDouble: return FieldType::kDouble;
    case Source::kRandomString:
    case Source::kConstantString: return FieldType::kString;
    case Source::kRandomBytes: return FieldType::kBytes;
    case Source::kPreviousRecord: return FieldType::kReference;
  }
  return FieldType::kNull;
}

// "F,K,V" into the three numbers.
Status ParseNamed(std::string_view text, datasets::FieldRecordOptions* out) {
  datasets::ParamMap params;
  const char* names[] = {"fields", "name_length", "value_length"};
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',');
    if ((comma == std::string_view::npos) != (i == 2)) {
      return Status::InvalidArgument("schema 'named:" + std::string(text) +
                                     "': expected named:FIELDS,NAME_LENGTH,VALUE_LENGTH");
    }
    params[names[i]] = std::string(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return datasets::ParseFieldRecordOptions(params, out);
}

}  // namespace

Status RecordSource::Parse(const std::string& schema, const std::string& table, uint64_t seed,
                           std::unique_ptr<RecordSource>* out) {
  std::unique_ptr<RecordSource> source(new RecordSource());
  source->schema_ = schema;
  source->spec_.name = table;
  constexpr std::string_view kNamed = "named:";
  if (schema.starts_with(kNamed)) {
    datasets::FieldRecordOptions options;
    KVBENCH_RETURN_IF_ERROR(ParseNamed(std::string_view(schema).substr(kNamed.size()), &options));
    source->named_.emplace(options, seed);
    source->spec_.field_names = source->named_->field_names();
    source->spec_.types.assign(options.fields, FieldType::kString);
  } else {
    std::vector<datasets::TypedFieldSpec> fields;
    KVBENCH_RETURN_IF_ERROR(datasets::ParseRecordSchema(schema, &fields));
    for (const auto& f : fields) source->spec_.types.push_back(DeclaredType(f));
    source->typed_.emplace(std::move(fields), seed);
  }
  *out = std::move(source);
  return Status::OK();
}

void RecordSource::Fill(uint64_t index, std::vector<FieldValue>* fields) const {
  if (typed_) {
    typed_->Fill(index, fields);
    return;
  }
  // Named records: string fields; the generator fills the strings in place.
  thread_local std::vector<std::string> values;
  named_->Fill(index, &values);
  fields->resize(values.size());
  for (size_t f = 0; f < values.size(); ++f) {
    (*fields)[f].type = FieldType::kString;
    (*fields)[f].bytes.swap(values[f]);
  }
}

}  // namespace kvbench::runner
