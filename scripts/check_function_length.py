#!/usr/bin/env python3
"""Function-length check: no function in app/, runner/, results/, reports/ over 100 lines.

A function past a screen and a half mixes steps that have names of their own
(parse vs check, plan vs order, run vs report); issue 32 split them, and this
check keeps them split.

Rules:
  1. Every function defined in a product source (*.cc, *.h) under the folders
     of FOLDERS, their subfolders included, is at most LIMIT lines long,
     counted from the line of the opening brace of its body to the line of
     its closing brace, both included. Lambdas and local classes inside a
     function count toward it; a lambda at namespace scope
     (`auto f = [] {...};`) counts as a function of its own.
  2. Test code is not checked: *_test.cc and the like, and anything under a
     tests/, bench/ or testdata/ folder (the same rule as check_includes.py).
  3. An offender named in the allow-list (--allow, default
     scripts/function_length_allow.txt) as "file:function" passes. An entry
     that names no offender any more fails, so the list only shrinks.

The reader is a brace matcher, not a compiler: it blanks comments, string and
character literals (raw strings included) and preprocessor lines, then
classifies each brace at namespace or class scope by the text before it.

Usage: scripts/check_function_length.py [--root DIR] [--allow FILE] [--limit N]
Exit: 0 no function too long; 1 functions too long or stale allow-list entries
(listed on stderr as file:line name length); 2 bad usage or a file it cannot read.
"""

import argparse
import os
import re
import sys

LIMIT = 100
FOLDERS = ("app", "runner", "results", "reports")
SOURCE_EXTENSIONS = (".cc", ".h")
TEST_FOLDERS = {"tests", "bench", "testdata"}
TEST_NAME = re.compile(r"(_test|_tests|_bench)(_[A-Za-z0-9_]+)?\.[a-z]+$|^test_")
# Heads that open a scope whose braces hold further definitions.
SCOPE_HEAD = re.compile(r"^(?:inline\s+)?(?:namespace|class|struct|union|extern)\b")
# Heads that open a block holding no definitions (an enum's list, an initializer).
DATA_HEAD = re.compile(r"^(?:enum)\b|=\s*$|^$")
NOT_A_NAME = {"decltype", "alignas", "__attribute__", "noexcept", "requires", "sizeof",
              "alignof", "static_assert", "if", "for", "while", "switch", "catch", "return"}
# R"delim( ... )delim", with an optional encoding prefix before the R.
RAW_PREFIX = re.compile(r"(?<![A-Za-z0-9_])(?:u8|u|U|L)?R\Z")
RAW_STRING = re.compile(r'"([^ ()\\\t\n]{0,16})\(')
# A constructor's initializer list: `) :` (not `::`), maybe after noexcept.
INIT_LIST = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")
# Words that may follow a function's parameter list.
QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "mutable", "requires",
              "try", "throw"}
IDENT = re.compile(r"[A-Za-z_~][A-Za-z_0-9]*(?:\s*::\s*~?[A-Za-z_][A-Za-z_0-9]*)*$")


def is_test_code(rel):
  parts = rel.split("/")
  return any(p in TEST_FOLDERS for p in parts[:-1]) or bool(TEST_NAME.search(parts[-1]))


def blank(text):
  """text with comments, literals and preprocessor lines turned into spaces.

  Newlines are kept, so offsets map to the same lines as the original."""
  out = list(text)
  i, n = 0, len(text)
  line_start = True

  def wipe(a, b):
    for k in range(a, b):
      if out[k] != "\n":
        out[k] = " "

  while i < n:
    c = text[i]
    if line_start and c == "#":
      j = i
      while j < n and text[j] != "\n":
        if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
          j += 2
          continue
        if text.startswith("/*", j):  # a block comment may run past the directive
          end = text.find("*/", j + 2)
          j = n if end < 0 else end + 2
          continue
        j += 1
      wipe(i, j)
      i = j
      continue
    if c == "\n":
      line_start = True
      i += 1
      continue
    if c in " \t\r\f\v":
      i += 1
      continue
    line_start = False
    if text.startswith("//", i):
      j = text.find("\n", i)
      j = n if j < 0 else j
      wipe(i, j)
      i = j
    elif text.startswith("/*", i):
      j = text.find("*/", i + 2)
      j = n if j < 0 else j + 2
      wipe(i, j)
      i = j
    elif c == '"' or c == "'":
      raw = RAW_STRING.match(text, i) if c == '"' and RAW_PREFIX.search(text, max(0, i - 3), i) else None
      if raw:
        close = ")" + raw.group(1) + '"'
        j = text.find(close, raw.end())
        j = n if j < 0 else j + len(close)
        wipe(i, j)
        i = j
        continue
      if c == "'" and i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_") and \
          i + 1 < n and text[i + 1].isalnum():
        i += 1  # a digit separator (1'000'000)
        continue
      j = i + 1
      while j < n and text[j] != c and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
      wipe(i + 1, min(j, n))
      i = j + 1
    else:
      i += 1
  return "".join(out)


def strip_template_prefix(head):
  """head without leading `template <...>` clauses and [[attributes]]."""
  while True:
    head = head.lstrip()
    if head.startswith("[["):
      end = head.find("]]")
      if end < 0:
        return head
      head = head[end + 2:]
      continue
    m = re.match(r"template\s*<", head)
    if not m:
      return head
    depth, k = 0, m.end() - 1
    while k < len(head):
      if head[k] == "<":
        depth += 1
      elif head[k] == ">":
        depth -= 1
        if depth == 0:
          break
      k += 1
    head = head[k + 1:]


def strip_leading_macro(head):
  """head without a leading MACRO(...) that has no semicolon after it (a
  NLOHMANN_DEFINE_TYPE_... before the next function)."""
  m = re.match(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*\s*\(", head)
  if not m:
    return head
  depth = 0
  for k in range(m.end() - 1, len(head)):
    if head[k] == "(":
      depth += 1
    elif head[k] == ")":
      depth -= 1
      if depth == 0:
        rest = head[k + 1:].lstrip()
        word = re.match(r"[A-Za-z_][A-Za-z_0-9]*", rest)
        starts_a_head = word and word.group(0) not in QUALIFIERS and "(" in rest
        return rest if starts_a_head else head
  return head


def function_name(head):
  """The name a function head declares (`Class::Name`, `operator==`), or None.

  The name is the identifier before the first parenthesis outside template
  arguments, skipping decltype(...) and the like."""
  m = re.search(r"\boperator\b\s*(\(\)|[^(\s]*)\s*\(", head)
  if m:
    before = re.search(r"(?:[A-Za-z_][A-Za-z_0-9]*\s*::\s*)*$", head[:m.start()]).group(0)
    return re.sub(r"\s+", "", before) + "operator" + m.group(1)
  angle = paren = 0
  for k, ch in enumerate(head):
    if ch == "(":
      if paren == 0 and angle == 0:
        m = IDENT.search(head[:k].rstrip())
        if m and m.group(0).split("::")[-1].strip() not in NOT_A_NAME:
          return re.sub(r"\s+", "", m.group(0))
      paren += 1
    elif ch == ")":
      paren = max(0, paren - 1)
    elif paren == 0 and ch == "<":
      angle += 1
    elif paren == 0 and ch == ">" and angle > 0:
      angle -= 1
  return None


def lambda_name(head):
  """`kName` for a namespace-scope `auto kName = [...](...) ... {`, or None."""
  m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\s*=\s*\[[^\[\]]*\][^=\[\]]*$", head)
  return m.group(1) if m else None


def functions(text):
  """(name, name_line, brace_line, close_line) of every function defined in text.

  Raises ValueError on unbalanced braces."""
  code = blank(text)
  line_of = []
  line = 1
  for ch in code:
    line_of.append(line)
    if ch == "\n":
      line += 1
  found = []

  def match(open_at):
    depth = 0
    for k in range(open_at, len(code)):
      if code[k] == "{":
        depth += 1
      elif code[k] == "}":
        depth -= 1
        if depth == 0:
          return k
    raise ValueError(f"line {line_of[open_at]}: '{{' without its '}}'")

  def scope(begin, end):
    """Reads the definitions between begin and end (a namespace or class body)."""
    head_start = begin
    paren = 0  # braces inside parentheses (a default `= {}`, a lambda in an
               # initializer list) belong to the head, not to a body
    k = begin
    while k < end:
      ch = code[k]
      if ch == "(":
        paren += 1
      elif ch == ")":
        paren = max(0, paren - 1)
      elif ch == "{" and paren > 0:
        k = match(k)
      elif ch == ";":
        head_start = k + 1
      elif ch == "{":
        close = match(k)
        raw_head = code[head_start:k]
        # An access specifier belongs to the class, not to the declaration after it.
        head = re.sub(r"^\s*(?:public|protected|private)\s*:(?!:)", "", raw_head)
        head = strip_leading_macro(strip_template_prefix(" ".join(head.split())))
        before = code[head_start:k].rstrip()[-1:]
        if SCOPE_HEAD.match(head) and "(" not in head.split("{")[0].split(":")[0]:
          scope(k + 1, close)
        elif INIT_LIST.search(head) and (before.isalnum() or before in ("_", ">")):
          # `y_{x}` in a constructor's initializer list: part of the head.
          k = close + 1
          continue
        elif lambda_name(head):
          name_at = head_start + len(raw_head) - len(raw_head.lstrip())
          found.append((lambda_name(head), line_of[name_at], line_of[k], line_of[close]))
        elif not DATA_HEAD.search(head) and "(" in head:
          name = function_name(head)
          if name:
            short = name.split("::")[-1]
            at = raw_head.find(short)
            name_at = head_start + (at if at >= 0 else 0)
            found.append((name, line_of[name_at], line_of[k], line_of[close]))
        k = close
        head_start = close + 1
      elif ch == "}":
        raise ValueError(f"line {line_of[k]}: '}}' without its '{{'")
      k += 1

  scope(0, len(code))
  return found


def source_files(root):
  for folder in FOLDERS:
    top = os.path.join(root, folder)
    for here, dirs, files in os.walk(top):
      dirs[:] = sorted(d for d in dirs if not d.startswith("."))
      for name in sorted(files):
        if name.endswith(SOURCE_EXTENSIONS):
          rel = os.path.relpath(os.path.join(here, name), root).replace(os.sep, "/")
          if not is_test_code(rel):
            yield rel


def read_allow_list(path):
  """{"file:function": line number in the allow-list}; a missing file allows nothing."""
  allowed = {}
  if path is None or not os.path.exists(path):
    return allowed
  with open(path, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
      entry = line.split("#", 1)[0].strip()
      if entry:
        allowed[entry] = number
  return allowed


def main(argv):
  here = os.path.dirname(os.path.abspath(__file__))
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--root", default=os.path.join(here, ".."),
                      help="the project's top folder (default: this script's parent)")
  parser.add_argument("--allow", default=None,
                      help="allow-list, one file:function a line (default: "
                           "ROOT/scripts/function_length_allow.txt)")
  parser.add_argument("--limit", type=int, default=LIMIT,
                      help=f"longest function allowed, in lines (default {LIMIT})")
  args = parser.parse_args(argv)
  root = os.path.abspath(args.root)
  if not os.path.isdir(root):
    print(f"check_function_length: {root}: not a folder", file=sys.stderr)
    return 2
  allow_path = args.allow or os.path.join(root, "scripts", "function_length_allow.txt")
  allowed = read_allow_list(allow_path)
  offenders, used, checked = [], set(), 0
  for rel in source_files(root):
    try:
      with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        found = functions(f.read())
    except (OSError, ValueError) as e:
      print(f"check_function_length: {rel}: {e}", file=sys.stderr)
      return 2
    for name, name_line, brace_line, close_line in found:
      checked += 1
      length = close_line - brace_line + 1
      if length <= args.limit:
        continue
      key = f"{rel}:{name}"
      if key in allowed:
        used.add(key)
        continue
      offenders.append(f"{rel}:{name_line} {name} {length}")
  stale = [f"{allow_path}:{number}: {entry} is not over {args.limit} lines any more "
           f"(remove it from the allow-list)"
           for entry, number in sorted(allowed.items(), key=lambda e: e[1]) if entry not in used]
  for line in offenders + stale:
    print(line, file=sys.stderr)
  if offenders or stale:
    print(f"check_function_length: {len(offenders)} function(s) over {args.limit} lines, "
          f"{len(stale)} stale allow-list entr{'y' if len(stale) == 1 else 'ies'}; split along "
          f"natural seams (parse vs check, plan vs order, run vs report)", file=sys.stderr)
    return 1
  print(f"check_function_length: {checked} functions in {', '.join(FOLDERS)}, none over "
        f"{args.limit} lines ({len(used)} allowed by {os.path.basename(allow_path)})")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
