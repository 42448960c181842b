#!/usr/bin/env python3
"""scripts/check_includes.py can fail: small trees with planted wrong includes.

Each case writes a few files into a temporary folder laid out like the
project, runs the check on it (--root) and expects its exit code and the
file:line and arrow it names. Usage: include_direction_test.py CHECK_INCLUDES_PY
"""

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None


def load_script():
  spec = importlib.util.spec_from_file_location("check_includes", SCRIPT)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


# A clean tree: one file per room on the usual arrows.
CLEAN = {
    "common/status.h": "#pragma once\n",
    "engines/pbtree/pbtree.h": '#pragma once\n#include "engines/pbtree/page.h"\n',
    "engines/pbtree/page.h": "#pragma once\n",
    "adapters/adapter.h": '#pragma once\n#include "common/status.h"\n',
    "adapters/pbtree/pbtree_adapter.cc":
        '#include "adapters/adapter.h"\n#include "engines/pbtree/pbtree.h"\n#include "local.h"\n',
    "adapters/pbtree/local.h": "#pragma once\n",
    "results/results.h": '#pragma once\n#include "common/status.h"\n',
    "runner/clock.h": "#pragma once\ninline int Now() { return 0; }\n",
    "runner/plan.cc": '#include "runner/clock.h"\n#include "results/results.h"\n',
    "reports/report.h": '#pragma once\n#include "results/results.h"\n',
    # Test code is a leaf: a suite beside reports/ may use app/ and tests/.
    "reports/report_test.cc":
        '#include <gtest/gtest.h>\n#include "app/main.h"\n#include "tests/support/golden.h"\n',
    "tests/support/golden.h": '#pragma once\n#include "reports/report.h"\n',
    "app/main.h": '#pragma once\n#include "runner/clock.h"\n#include "reports/report.h"\n',
    "app/generated.cc": '#include "version_generated.h"\n',  # not in the tree: not checked
}


class CheckIncludesTest(unittest.TestCase):

  def run_check(self, extra=None, remove=()):
    with tempfile.TemporaryDirectory() as root:
      files = dict(CLEAN)
      files.update(extra or {})
      for name in remove:
        del files[name]
      for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
          f.write(text)
      p = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True,
                         text=True, timeout=60)
      return p.returncode, p.stderr

  def test_a_clean_tree_passes(self):
    code, err = self.run_check()
    self.assertEqual(code, 0, err)

  def test_a_header_only_include_against_the_arrows_fails(self):
    # runner/clock.h is header-only: this links fine, and is still wrong.
    code, err = self.run_check({"common/strings.h": '#pragma once\n\n#include "runner/clock.h"\n'})
    self.assertEqual(code, 1, err)
    self.assertIn('common/strings.h:3: forbidden include "runner/clock.h": common -> runner', err)

  def test_an_engine_uses_nothing_of_ours(self):
    code, err = self.run_check(
        {"engines/pbtree/page.h": '#pragma once\n#include "common/status.h"\n'})
    self.assertEqual(code, 1, err)
    self.assertIn("engines/pbtree/page.h:2: forbidden include", err)
    self.assertIn("engines/pbtree -> common", err)

  def test_one_adapter_does_not_include_another(self):
    code, err = self.run_check({
        "adapters/lmdb/lmdb_adapter.cc": '#include "../pbtree/local.h"\n',
    })
    self.assertEqual(code, 1, err)
    self.assertIn("adapters/lmdb/lmdb_adapter.cc:1: forbidden include", err)
    self.assertIn("adapters/lmdb -> adapters/pbtree", err)

  def test_product_code_does_not_include_test_code_or_gtest(self):
    code, err = self.run_check({
        "reports/summary.h": '#pragma once\n#include "tests/support/golden.h"\n',
        "results/check.h": "#pragma once\n#include <gtest/gtest.h>\n",
    })
    self.assertEqual(code, 1, err)
    self.assertIn('reports/summary.h:2: product code includes test code "tests/support/golden.h"',
                  err)
    self.assertIn("results/check.h:2: product code includes a test framework", err)

  def test_a_cycle_between_rooms_is_named_with_its_includes(self):
    code, err = self.run_check({"results/results.h": '#pragma once\n#include "reports/report.h"\n'})
    self.assertEqual(code, 1, err)
    self.assertIn("results/results.h:2: forbidden include", err)
    self.assertIn("cycle between rooms: reports -> results -> reports", err)
    self.assertIn("results -> reports at results/results.h:2", err)

  def test_a_folder_in_no_room_fails(self):
    code, err = self.run_check({"newroom/thing.cc": '#include "common/status.h"\n'})
    self.assertEqual(code, 1, err)
    self.assertIn("newroom/thing.cc: folder newroom is in no room", err)

  def test_a_subfolder_belongs_to_its_room(self):
    # runner/timing/ (made up) has no row of its own: it is runner/, with runner's arrows.
    code, err = self.run_check({"runner/timing/pair.cc": '#include "runner/clock.h"\n'})
    self.assertEqual(code, 0, err)
    code, err = self.run_check({"runner/timing/pair.cc": '#include "app/main.h"\n'})
    self.assertEqual(code, 1, err)
    self.assertIn("runner/timing/pair.cc:1: forbidden include \"app/main.h\": runner -> app", err)

  def test_the_runner_core_does_not_include_its_rooms(self):
    # runner/crash/ has a row of its own: it may use the core, the core not it.
    trials = {"runner/crash/trials.h": '#pragma once\n#include "runner/clock.h"\n'}
    code, err = self.run_check(trials)
    self.assertEqual(code, 0, err)
    code, err = self.run_check(dict(trials, **{
        "runner/plan.cc": '#include "runner/clock.h"\n#include "runner/crash/trials.h"\n'}))
    self.assertEqual(code, 1, err)
    self.assertIn('runner/plan.cc:2: forbidden include "runner/crash/trials.h": '
                  "runner -> runner/crash", err)
    self.assertIn("cycle between rooms", err)

  def test_a_cyclic_table_is_refused(self):
    module = load_script()
    self.assertIsNone(module.find_cycle(module.table_graph(module.ROOMS)))
    rooms = dict(module.ROOMS)
    rooms["results"] = ["common", "reports"]
    cycle = module.find_cycle(module.table_graph(rooms))
    self.assertEqual(sorted(cycle[:-1]), ["reports", "results"])
    self.assertEqual(cycle[0], cycle[-1])
    module.ROOMS = rooms
    with tempfile.TemporaryDirectory() as root:
      self.assertEqual(module.main(["--root", root]), 2)


if __name__ == "__main__":
  SCRIPT = os.path.abspath(sys.argv.pop(1))
  unittest.main()
