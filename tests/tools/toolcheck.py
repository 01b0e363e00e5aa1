"""Shared by the resource-tool checks (tests/tools/check_*.py): the repository root from argv, the tools'
folder on the import path, and a check() that records failures."""
import os
import sys

repo = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
sys.path.insert(0, os.path.join(repo, "resources", "tools"))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def finish():
    if failures:
        sys.exit(1)
    print("ok")
