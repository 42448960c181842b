// The kvbench command line. Each subcommand lives in its own command_*.cc
// file and adds itself to the CLI11 app here; its callback stores the process
// exit code in *exit_code.
//
// Exit codes: 0 success; 1 a run or engine failed; 2 bad input (unknown
// engine, option or dataset, malformed workload file, unreadable file).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kvbench::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInterrupted = 130;  // Ctrl-C or SIGTERM, as a shell reports SIGINT

void AddEnginesCommand(CLI::App& app, int* exit_code);
void AddGenCommand(CLI::App& app, int* exit_code);
void AddValidateCommand(CLI::App& app, int* exit_code);
void AddRunCommand(CLI::App& app, int* exit_code);
void AddReportCommand(CLI::App& app, int* exit_code);
void AddCompareCommand(CLI::App& app, int* exit_code);
// `kvbench history add|list|trend|check` (app/command_history.cc).
void AddHistoryCommand(CLI::App& app, int* exit_code);
void AddCrashCommand(CLI::App& app, int* exit_code);
void AddMergeCommand(CLI::App& app, int* exit_code);
void AddSlurmCommand(CLI::App& app, int* exit_code);
void AddYcsbCommand(CLI::App& app, int* exit_code);
// `kvbench conformance ENGINE`: the conformance cases (app/command_conformance.cc).
void AddConformanceCommand(CLI::App& app, int* exit_code);
// `kvbench help [COMMAND]`: the same text as --help.
void AddHelpCommand(CLI::App& app, int* exit_code);

// "kvbench <name> <positionals> --option value..." as CLI11 parsed `cmd`
// (options in their canonical form, flags without a value), for results.json.
// `positional` names the option that holds the positionals.
std::string CanonicalCommandLine(const CLI::App& cmd, const std::string& positional);

// kvbench's version, revision, build type, compiler and every engine
// library's version, for --version.
std::string VersionText();

// Gives every option of `app` and its subcommands that takes a value a
// checked range (app/command_line.cc): CLI11 by itself wraps "-1" into an
// unsigned option and accepts "nan" and "inf" for a double, and an empty or
// repeated list item means nothing. A value outside its range is a
// CLI::ValidationError naming the option (exit 2). Returns the options that
// take a number but have no stated range, "COMMAND --option" each: main
// refuses to start with any, so a new numeric option cannot go unchecked.
std::vector<std::string> ApplyInputBounds(CLI::App& app);

// Whether `text` is a date or time `--since` can compare with stored start
// times: YYYY-MM-DD, optionally followed by THH:MM, :SS, a fraction and Z or
// an offset; the date must exist in the calendar.
bool IsIsoDateTime(const std::string& text);

}  // namespace kvbench::app
