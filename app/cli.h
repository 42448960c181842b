// The kvbench command line. Each subcommand lives in its own command_*.cc
// file and adds itself to the CLI11 app here; its callback stores the process
// exit code in *exit_code.
//
// Exit codes: 0 success; 1 a run or engine failed; 2 bad input (unknown
// engine, option or dataset, malformed workload file, unreadable file).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

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
// `kvbench help [COMMAND]`: the same text as --help.
void AddHelpCommand(CLI::App& app, int* exit_code);

// "kvbench <name> <positionals> --option value..." as CLI11 parsed `cmd`
// (options in their canonical form, flags without a value), for results.json.
// `positional` names the option that holds the positionals.
std::string CanonicalCommandLine(const CLI::App& cmd, const std::string& positional);

// kvbench's version, revision, build type, compiler and every engine
// library's version, for --version.
std::string VersionText();

}  // namespace kvbench::app
