// The one function through which every value kvbench writes into a shell or
// sbatch script passes.
#pragma once

#include <string>
#include <string_view>

namespace kvbench {

// `text` as one word for a POSIX shell, in single quotes: nothing inside is
// expanded ($(...), backticks, $VAR, globs), and a single quote is written as
// '\''. A newline stays inside the quotes (one word), so the result is safe on
// a command line; a caller writing a line the shell does not parse as words
// (an #SBATCH line, a comment) must refuse control characters first
// (HasControlCharacter in common/owned_dir.h).
std::string ShellQuote(std::string_view text);

}  // namespace kvbench
