// Fixed word lists from which the `urls` and `paths` key generators build
// host names, directories and file names. They are part of the dataset's
// definition: changing a list changes every generated key, so treat an edit
// like a format change.
//
// Contract relied on by UrlKeyGenerator (url_keys.cc), checked by
// url_keys_test.cc: slug words are lower-case letters only, with at least one
// word of every length from 1 to kMaxSlugWordLength and none longer (file names
// are cut to length with whole words); no file extension contains a '.' or a
// digit; the present and absent extension lists share no entry.
#pragma once

#include <cstdint>
#include <string_view>

namespace kvbench::datasets::words {

inline constexpr size_t kMaxSlugWordLength = 12;

struct WordList {
  const std::string_view* words;
  uint32_t size;
  std::string_view operator[](uint32_t i) const { return words[i]; }
};

extern const WordList kHostNames;  // "riverstone", "maple"...
extern const WordList kTopLevelDomains;
extern const WordList kSubdomains;        // "www", "docs", "blog"...
extern const WordList kUrlSections;       // first directory of a site: "en", "products"...
extern const WordList kPathRoots;         // "/home/", "/srv/"... (with slashes)
extern const WordList kUserNames;         // second component under /home/ and such
extern const WordList kPathSections;      // "projects", "src", "photos"...
extern const WordList kTopics;            // general nouns for directories and file names
extern const WordList kSlugWords;         // verbs, adjectives and nouns for file names
extern const WordList kUrlExtensions;     // "html", "php"...
extern const WordList kPathExtensions;    // "cc", "txt", "jpg"...
extern const WordList kAbsentExtensions;  // "bak", "orig"...: never in the lists above

}  // namespace kvbench::datasets::words
