#!/usr/bin/env python3
"""scripts/check_function_length.py can fail: small trees with planted long functions.

Each case writes a few files into a temporary folder laid out like the
project, runs the check on it (--root, and --allow when it needs an
allow-list) and expects its exit code and the file:line name length it
prints. Usage: function_length_test.py CHECK_FUNCTION_LENGTH_PY
"""

import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None


def body(lines, indent="  "):
  """`lines` statements, one a line."""
  return "".join(f"{indent}x += {i};\n" for i in range(lines))


def function(name, length, head=None):
  """A definition `length` lines long, counted from its `{` to its `}`."""
  return f"{head or 'int ' + name + '(int x)'} {{\n{body(length - 3)}  return x;\n}}\n"


# A clean tree: short functions of every shape the reader has to get right.
CLEAN = {
    "runner/plan.cc": (
        '#include "runner/plan.h"\n'
        "namespace kvbench::runner {\nnamespace {\n"
        + function("Short", 100) +  # exactly the limit: passes
        "}  // namespace\n"
        "struct Point : Base {\n"
        "  Point(int a = {}) : x_([this] { return 1; }()) { y(); }\n"
        " public:\n"
        "  int Get() const { return x_; }\n"
        "  int x_{0};\n"
        "};\n"
        'const char* kBraces = "}}}{{{";\n'
        "const char kOpen = '{';\n"
        'const char* kRaw = R"x(}{ " })x";\n'
        "// a comment } {\n"
        "/* a block } comment { */\n"
        "}  // namespace kvbench::runner\n"),
    "runner/plan.h": "#pragma once\n#define OPEN {\nint Plan();\n",
    # Test code and folders outside the four are not checked.
    "runner/plan_test.cc": function("LongTest", 300),
    "tests/support/golden.h": function("LongSupport", 300),
    "reports/testdata/make.cc": function("LongData", 300),
    "common/strings.cc": function("LongCommon", 300),
    "app/main.cc": function("main", 20, "int main(int argc, char** argv)"),
}


class CheckFunctionLengthTest(unittest.TestCase):

  def run_check(self, extra=None, allow=None):
    with tempfile.TemporaryDirectory() as root:
      files = dict(CLEAN)
      files.update(extra or {})
      for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
          f.write(text)
      args = [sys.executable, SCRIPT, "--root", root]
      if allow is not None:
        allow_path = os.path.join(root, "allow.txt")
        with open(allow_path, "w") as f:
          f.write(allow)
        args += ["--allow", allow_path]
      p = subprocess.run(args, capture_output=True, text=True, timeout=60)
      return p.returncode, p.stderr

  def test_a_clean_tree_passes(self):
    code, err = self.run_check()
    self.assertEqual(code, 0, err)

  def test_a_function_over_the_limit_fails(self):
    code, err = self.run_check({"app/command_run.cc": "// run\n\n" + function("RunIt", 101)})
    self.assertEqual(code, 1, err)
    self.assertIn("app/command_run.cc:3 RunIt 101", err)

  def test_each_folder_and_its_subfolders_are_checked(self):
    code, err = self.run_check({
        "runner/crash/trials.cc": function("Trials", 150),
        "results/history/store.cc": function("Store::Add", 120, "Status Store::Add(int x)"),
        "reports/page.h": "#pragma once\n" + function("Page", 102, "inline int Page(int x)"),
    })
    self.assertEqual(code, 1, err)
    self.assertIn("runner/crash/trials.cc:1 Trials 150", err)
    self.assertIn("results/history/store.cc:1 Store::Add 120", err)
    self.assertIn("reports/page.h:2 Page 102", err)

  def test_lambdas_and_blocks_count_toward_their_function(self):
    inner = "".join(f"    x += {i};\n" for i in range(60))
    text = ("void Outer(int x) {\n"
            "  auto each = [&](int y) {\n" + inner + "  };\n"
            "  if (x > 0) {\n" + inner + "  }\n"
            "}\n")
    code, err = self.run_check({"runner/outer.cc": text})
    self.assertEqual(code, 1, err)
    self.assertIn("runner/outer.cc:1 Outer 126", err)
    self.assertNotIn(" each ", err)

  def test_members_constructors_and_templates_are_found(self):
    long_body = body(110, "    ")
    text = ("namespace a {\n"
            "class Impl {\n"
            " public:\n"
            "  Impl(int x)\n      : x_(x),\n        y_{x} {\n" + long_body + "  }\n"
            "  int x_, y_;\n"
            "};\n"
            "template <typename T>\nstd::function<void(int)> Make(T x) {\n" + body(110) + "}\n"
            "}  // namespace a\n")
    code, err = self.run_check({"reports/impl.cc": text})
    self.assertEqual(code, 1, err)
    self.assertIn("reports/impl.cc:4 Impl 112", err)
    self.assertIn("Make 112", err)

  def test_braces_in_strings_and_comments_do_not_end_a_function(self):
    text = ("int Quoted(int x) {\n"
            '  const char* s = "}";\n'
            "  char c = '}';\n"
            '  const char* r = R"css(li{color:red})css";\n'
            "  // }\n"
            "  /* } */\n" + body(100) + "  return x;\n}\n")
    code, err = self.run_check({"app/quoted.cc": text})
    self.assertEqual(code, 1, err)
    self.assertIn("app/quoted.cc:1 Quoted 108", err)

  def test_the_allow_list_passes_its_functions_and_only_those(self):
    extra = {"app/command_run.cc": function("RunIt", 150),
             "runner/plan2.cc": function("PlanIt", 150)}
    code, err = self.run_check(extra, allow="# being split\napp/command_run.cc:RunIt\n")
    self.assertEqual(code, 1, err)
    self.assertNotIn("RunIt", err)
    self.assertIn("runner/plan2.cc:1 PlanIt 150", err)
    code, err = self.run_check(
        extra, allow="app/command_run.cc:RunIt  # being split\nrunner/plan2.cc:PlanIt\n")
    self.assertEqual(code, 0, err)

  def test_a_stale_allow_list_entry_fails(self):
    code, err = self.run_check(allow="app/command_run.cc:RunIt\n")
    self.assertEqual(code, 1, err)
    self.assertIn("allow.txt:1: app/command_run.cc:RunIt is not over 100 lines any more", err)

  def test_unbalanced_braces_are_refused(self):
    code, err = self.run_check({"runner/broken.cc": "int Broken() {\n  return 0;\n"})
    self.assertEqual(code, 2, err)
    self.assertIn("runner/broken.cc", err)


if __name__ == "__main__":
  SCRIPT = os.path.abspath(sys.argv.pop(1))
  unittest.main()
