#!/usr/bin/env python3
"""Writes kvbench's man page kvbench(1) and its bash completion from the
command line of a built kvbench (`kvbench help --json`: every command, option,
default, choice, exit code and built-in engine), so both say what that binary
does. Run at build time by cmake/KvbenchCliDocs.cmake; the Debian package
(cmake/KvbenchPackage.cmake) ships what it writes.

Usage: kvbench_cli_docs.py --kvbench BUILD/kvbench --man OUT.1.gz --bash OUT
"""

import argparse
import gzip
import json
import os
import subprocess
import sys

# Prose that the command line cannot say. Paths are relative to the install
# prefix (/usr for the Debian package).
DESCRIPTION = (
    "kvbench runs one workload file, an experiment described once, against every "
    "selected embedded key-value or record database through one adapter interface, "
    "measures it (throughput, per-operation latency histograms, CPU, memory, I/O, "
    "file sizes, page-cache residency) and writes a run directory: results.json "
    "(versioned schema), report.md, report.html (self-contained, with charts) and "
    "results.csv. Workload files are kvbench's TOML format or YCSB core-workload "
    "property files. Each engine runs in its own child process with a time limit, "
    "so a crash or hang in one engine is reported and the others' results are kept."
)
ENVIRONMENT = [
    ("KVBENCH_PLUGIN_PATH",
     "A colon-separated list of directories: every libkvbench-*.so in them is loaded as a "
     "plugin before any command runs, as if given with --plugin. A bad plugin is exit 2."),
    ("KVBENCH_STORE",
     "The default history store of \\fBkvbench history\\fR and \\fBkvbench run --history\\fR: "
     "sqlite:PATH or a postgresql:// URL."),
    ("XDG_DATA_HOME",
     "Where the default SQLite history store lives when KVBENCH_STORE is unset: "
     "$XDG_DATA_HOME/kvbench/history.db, else ~/.local/share/kvbench/history.db."),
]
FILES = [  # {include} and {cmake}: the install's folders, relative to PREFIX
    ("OUT/results.json, OUT/report.md, OUT/report.html, OUT/results.csv",
     "What \\fBkvbench run\\fR writes into its output directory (\\-\\-out, default "
     "runs/WORKLOAD\\-TIME); the directory carries a marker, and kvbench only ever "
     "replaces or removes directories it made."),
    ("~/.local/share/kvbench/history.db", "The default history store."),
    ("PREFIX/{include}/kvbench/plugin.h, PREFIX/{include}/kvbench/plugin_cpp.h",
     "The plugin SDK: the C plugin ABI and its header-only C++ helper."),
    ("PREFIX/{cmake}/",
     "The CMake package: find_package(kvbench) gives the target kvbench::plugin and the "
     "function kvbench_add_plugin(NAME SOURCES ...). PREFIX is /usr for the Debian package."),
]
SEE_ALSO = ("\\fBkvbench help\\fR \\fICOMMAND\\fR; README.md and docs/ in kvbench's source, "
            "docs/adding-an-adapter.md for the plugin SDK.")

# What a value is completed with, by option name; any other TEXT value is a path.
VALUE_KINDS = {
    "--engines": "engine-list", "--engine": "engine", "--plugin": "plugin",
    "--out": "dir", "--data-dir": "dir", "--ycsb-output": "dir", "--layer-binary": "file",
    "--kvbench": "file", "--costs": "file", "--output": "file", "--store": "none",
    "--since": "none", "--label": "none", "--shard": "none", "--param": "none", "-p": "none",
    "--case": "none", "--suite": "none", "--phase": "none", "--workload": "none",
    "--figure": "none", "--op": "none", "--fault": "none", "--partition": "none",
    "--time": "none", "--sbatch-arg": "none", "--history": "none",
}
# And positionals, by name.
POSITIONAL_KINDS = {"engine": "engine", "command": "command", "dataset": "dataset",
                    "files": "workload", "workload": "workload"}


def load_command_line(kvbench):
    env = dict(os.environ)
    env.pop("KVBENCH_PLUGIN_PATH", None)  # the built-in command line only
    out = subprocess.run([kvbench, "help", "--json"], env=env, check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


# ---------------------------------------------------------------- man page

def roff(text):
    """Text for a roff line: backslashes escaped, no line read as a request."""
    text = text.replace("\\", "\\e")
    return "\n".join(("\\&" + line if line[:1] in (".", "'") else line)
                     for line in text.split("\n"))


def roff_name(name):
    return name.replace("-", "\\-")


def usage(path, cmd):
    parts = ["kvbench"] + path
    if any(o["names"] != ["-h", "--help"] for o in cmd["options"]):
        parts.append("[OPTIONS]")
    for p in cmd["positionals"]:
        word = p["name"] + ("..." if p["repeatable"] else "")
        parts.append(word if p["required"] else "[" + word + "]")
    if cmd["commands"]:
        parts.append("COMMAND")
    return " ".join(parts)


def option_entry(o):
    names = ", ".join("\\fB" + roff_name(n) + "\\fR" for n in o.get("names", [o.get("name", "")]))
    if "names" not in o:  # a positional
        names = "\\fI" + roff_name(o["name"]) + "\\fR" + ("..." if o["repeatable"] else "")
    elif not o["flag"]:
        value = "\\fI" + o.get("type", "VALUE") + "\\fR"
        names += " [" + value + "]" if o["value_optional"] else " " + value
    notes = []
    if o.get("choices"):
        notes.append("one of: " + ", ".join(o["choices"]))
    if o.get("default") and "default" not in o["description"].lower():
        notes.append("default: " + o["default"])
    if o.get("required") and "names" in o:
        notes.append("required")
    text = o["description"] + ("" if not notes else " (" + "; ".join(notes) + ")")
    return [".TP", names, roff(text)]


def footer_lines(footer):
    if not footer.strip():
        return []
    return [".PP", ".nf", roff(footer.strip("\n")), ".fi"]


def command_section(path, cmd, parent_footer=""):
    lines = [".SS \"" + roff(usage(path, cmd)) + "\"", roff(cmd["description"])]
    for p in cmd["positionals"]:
        lines += option_entry(p)
    for o in cmd["options"]:
        if o.get("names") != ["-h", "--help"]:
            lines += option_entry(o)
    if cmd["commands"]:
        lines += [".PP", "Commands: " + ", ".join("\\fB" + s["name"] + "\\fR"
                                                  for s in cmd["commands"]) + "."]
    if cmd["footer"] != parent_footer:  # CLI11 gives subcommands their parent's footer
        lines += footer_lines(cmd["footer"])
    for sub in cmd["commands"]:
        lines += command_section(path + [sub["name"]], sub, cmd["footer"])
    return lines


def man_page(cli, include_dir, cmake_dir):
    summary = cli["description"].split(": ", 1)[-1]
    lines = [
        ".\\\" Generated by scripts/kvbench_cli_docs.py from `kvbench help --json`; do not edit.",
        ".TH KVBENCH 1 \"\" \"kvbench " + cli["version"] + "\" \"User Commands\"",
        ".SH NAME", "kvbench \\- " + roff(summary),
        ".SH SYNOPSIS",
        ".B kvbench", ".I COMMAND", "[\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]", ".br",
        ".B kvbench help", "[\\fICOMMAND\\fR]", ".br",
        ".B kvbench \\-\\-version",
        ".SH DESCRIPTION", roff(DESCRIPTION),
    ]
    lines += footer_lines(cli["footer"])
    lines.append(".SH OPTIONS")
    for o in cli["options"]:
        lines += option_entry(o)
    lines.append(".SH COMMANDS")
    for cmd in cli["commands"]:
        lines += [".TP", "\\fB" + cmd["name"] + "\\fR", roff(cmd["description"])]
    for cmd in cli["commands"]:
        lines += command_section([cmd["name"]], cmd)
    lines += [".SH ENGINES",
              "The engines built into this kvbench (\\fBkvbench engines \\-v\\fR lists their "
              "versions, capabilities and options; plugins add more):",
              ".PP", roff(", ".join(cli["engines"])) + "."]
    lines.append(".SH ENVIRONMENT")
    for name, text in ENVIRONMENT:
        lines += [".TP", "\\fB" + name + "\\fR", text]
    lines.append(".SH FILES")
    for name, text in FILES:
        name = name.format(include=include_dir, cmake=cmake_dir)
        lines += [".TP", "\\fI" + roff_name(name) + "\\fR", text]
    lines.append(".SH EXIT STATUS")
    for e in cli["exit_codes"]:
        lines += [".TP", "\\fB" + str(e["code"]) + "\\fR", roff(e["meaning"])]
    lines += [".SH SEE ALSO", SEE_ALSO]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------- bash completion

def value_kind(o):
    if o.get("choices"):
        return "choices:" + " ".join(o["choices"])
    if o.get("type") in ("INT", "UINT", "FLOAT"):
        return "none"
    for name in reversed(o["names"]):
        if name in VALUE_KINDS:
            return VALUE_KINDS[name]
    return "file"


def shell_word(text):
    return "'" + text.replace("'", "'\\''") + "'"


def completion(cli):
    subcommands, options, values, positionals = {}, {}, {}, {}

    def walk(path, cmd):  # path starts with "kvbench": bash has no empty array subscript
        key = " ".join(path)
        subcommands[key] = " ".join(s["name"] for s in cmd["commands"])
        options[key] = " ".join(n for o in cmd["options"] for n in o["names"])
        for o in cmd["options"]:
            if not o["flag"]:
                for n in o["names"]:
                    values[key + " " + n] = value_kind(o)
        if cmd["positionals"]:
            positionals[key] = POSITIONAL_KINDS.get(cmd["positionals"][0]["name"], "file")
        for sub in cmd["commands"]:
            walk(path + [sub["name"]], sub)

    walk(["kvbench"], cli)

    def table(name, items):
        rows = "".join("  [%s]=%s\n" % (shell_word(k), shell_word(v))
                       for k, v in sorted(items.items()))
        return "_kvbench_%s=(\n%s)\n" % (name, rows)

    tables = "".join(table(n, t) for n, t in (("subcommands", subcommands),
                                               ("options", options),
                                               ("values", values),
                                               ("positionals", positionals)))
    return BASH_TEMPLATE.format(version=cli["version"], tables=tables,
                                engines=" ".join(cli["engines"]))


BASH_TEMPLATE = r"""# bash completion for kvbench {version}  -*- shell-script -*-
# Generated by scripts/kvbench_cli_docs.py from `kvbench help --json`; do not edit.
# Completes commands, their options, choices, engine names (from `kvbench engines`
# at completion time, plugins included), datasets and workload files.

declare -gA _kvbench_subcommands _kvbench_options _kvbench_values _kvbench_positionals
{tables}
# The engines built into kvbench {version}: used when `kvbench engines` cannot run.
_kvbench_builtin_engines='{engines}'

# Engine names from the kvbench being completed, with the line's --plugin files.
_kvbench_engine_names() {{
  local bin=${{COMP_WORDS[0]}} plugins=() i
  for ((i = 1; i < ${{#COMP_WORDS[@]}} - 1; i++)); do
    [[ ${{COMP_WORDS[i]}} == --plugin ]] && plugins+=(--plugin "${{COMP_WORDS[i + 1]}}")
  done
  local names
  names=$("$bin" engines "${{plugins[@]}}" 2>/dev/null | awk '/^[^ \t]/ {{ print $1 }}')
  printf '%s\n' "${{names:-$_kvbench_builtin_engines}}"
}}

_kvbench_dataset_names() {{
  "${{COMP_WORDS[0]}}" gen --list 2>/dev/null | awk '/^[^ \t]/ {{ print $1 }}'
}}

# Sets COMPREPLY to the words of $1 that start with $2.
_kvbench_words() {{
  local IFS=$' \t\n'
  COMPREPLY=($(compgen -W "$1" -- "$2"))
}}

_kvbench_files() {{  # kind cur
  compopt -o filenames 2>/dev/null
  local IFS=$'\n'
  case $1 in
    dir) COMPREPLY=($(compgen -d -- "$2")) ;;
    plugin) COMPREPLY=($(compgen -d -- "$2") $(compgen -f -X '!*.so' -- "$2")) ;;
    workload)
      # TOML workload files first; a YCSB property file may have any name.
      COMPREPLY=($(compgen -d -- "$2") $(compgen -f -X '!*.toml' -- "$2"))
      [[ ${{#COMPREPLY[@]}} -eq 0 ]] && COMPREPLY=($(compgen -f -- "$2")) ;;
    *) COMPREPLY=($(compgen -f -- "$2")) ;;
  esac
}}

_kvbench_complete_value() {{  # kind cur command
  local kind=$1 cur=$2
  case $kind in
    none) COMPREPLY=() ;;
    choices:*) _kvbench_words "${{kind#choices:}}" "$cur" ;;
    engine) _kvbench_words "$(_kvbench_engine_names)" "$cur" ;;
    engine-list)  # a comma-separated list: complete its last item
      local done_part=${{cur%,*}} last=${{cur##*,}}
      [[ $cur == *,* ]] || done_part=""
      _kvbench_words "$(_kvbench_engine_names)" "$last"
      if [[ -n $done_part ]]; then COMPREPLY=("${{COMPREPLY[@]/#/$done_part,}}"); fi
      compopt -o nospace 2>/dev/null ;;
    command) _kvbench_words "${{_kvbench_subcommands[kvbench]}}" "$cur" ;;
    dataset) _kvbench_words "$(_kvbench_dataset_names)" "$cur" ;;
    *) _kvbench_files "$kind" "$cur" ;;
  esac
}}

_kvbench() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} path=kvbench i word
  COMPREPLY=()
  # The command path (`history trend`): words that name a subcommand, skipping
  # options and the values of those that take one.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${{COMP_WORDS[i]}}
    if [[ $word == -* ]]; then
      [[ -n ${{_kvbench_values["$path $word"]+set}} && $word != *=* ]] && ((i++))
      continue
    fi
    if [[ " ${{_kvbench_subcommands["$path"]}} " == *" $word "* ]]; then
      path="$path $word"
    fi
  done
  # The value of the option before the cursor.
  if ((COMP_CWORD > 1)); then
    local prev=${{COMP_WORDS[COMP_CWORD - 1]}}
    local kind=${{_kvbench_values["$path $prev"]-}}
    if [[ -n $kind && $prev == -* ]]; then
      _kvbench_complete_value "$kind" "$cur"
      return 0
    fi
  fi
  if [[ $cur == -* ]]; then
    _kvbench_words "${{_kvbench_options["$path"]}}" "$cur"
  elif [[ -n ${{_kvbench_subcommands["$path"]}} ]]; then
    _kvbench_words "${{_kvbench_subcommands["$path"]}}" "$cur"
  elif [[ -n ${{_kvbench_positionals["$path"]+set}} ]]; then
    _kvbench_complete_value "${{_kvbench_positionals["$path"]}}" "$cur"
  fi
  return 0
}}
complete -F _kvbench kvbench
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kvbench", required=True, help="the built kvbench binary")
    parser.add_argument("--man", help="write the man page here (gzip-compressed if .gz)")
    parser.add_argument("--bash", help="write the bash completion here")
    parser.add_argument("--include-dir", default="include",
                        help="where the SDK's headers install, relative to the prefix")
    parser.add_argument("--cmake-dir", default="lib/cmake/kvbench",
                        help="where the SDK's CMake package installs, relative to the prefix")
    args = parser.parse_args()
    try:
        cli = load_command_line(args.kvbench)
    except (OSError, subprocess.CalledProcessError, json.JSONDecodeError) as e:
        sys.exit("kvbench_cli_docs: %s help --json: %s" % (args.kvbench, e))
    if args.man:
        page = man_page(cli, args.include_dir, args.cmake_dir).encode()
        if args.man.endswith(".gz"):
            # mtime 0 and no file name: the same page gives the same bytes.
            with open(args.man, "wb") as raw, gzip.GzipFile(
                    filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as out:
                out.write(page)
        else:
            with open(args.man, "wb") as out:
                out.write(page)
    if args.bash:
        with open(args.bash, "w") as out:
            out.write(completion(cli))


if __name__ == "__main__":
    main()
