// Internal to datasets/: the constructors of each key kind, called by
// NewKeyGenerator (key_generator.cc) once the spec's options are resolved
// against the kind's ParamSpecs. Each returns InvalidArgument naming the
// option when a value is out of range.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "datasets/key_generator.h"

namespace kvbench::datasets::internal {

std::vector<ParamSpec> UrlKeyParams(bool with_url_fraction);
Status NewUrlKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                          bool paths_only, std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> SequentialKeyParams();
Status NewSequentialKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                 std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> TimestampKeyParams();
Status NewTimestampKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> RandomIntKeyParams();
Status NewRandomIntKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                                std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> YcsbKeyParams();
Status NewYcsbKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                           std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> NumberedKeyParams();
Status NewNumberedKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                               std::unique_ptr<KeyGenerator>* out);

std::vector<ParamSpec> FileKeyParams();
// `count` 0 means every line.
Status NewFileKeyGenerator(const DatasetSpec& spec, uint64_t count, DatasetParams params,
                           std::unique_ptr<KeyGenerator>* out);

// Appends the decimal digits of v to *p and advances it; returns the digit count.
int AppendDecimal(uint64_t v, char** p);

}  // namespace kvbench::datasets::internal
