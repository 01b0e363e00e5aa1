#!/usr/bin/env python3
"""Checks that every #include "..." under models/, ui/ and app/ respects the layering of
ARCHITECTURE.md.

Usage: check_layers.py SOURCE_DIR [--rules]

A subsystem may include its own headers and those of the subsystems it may use (the table below,
the same as ARCHITECTURE.md). ui/ uses viewmodels and everything below it except store/ (the GUI
reads and writes the database only through viewmodels/catalogservice.h); app/ may use anything,
except that the CLI (app/cli*) includes nothing from viewmodels/; nothing includes app/. An include that names no subsystem inside models/ ("offer.h") is an error
too: includes name the subsystem. Exit 0 when all includes are allowed, 1 otherwise (each bad
include named with file and line), 2 on a usage error.
"""

import os
import re
import sys

# What each models/ subsystem may include (besides itself). Transitively closed by hand so the
# table reads as the rule: "domain may use util" etc.
ALLOWED = {
    "util": set(),
    "domain": {"util"},
    "projection": {"domain", "util"},
    "providers": {"domain", "util"},
    "store": {"domain", "util"},
    "probe": {"projection", "domain", "util"},
    "refresh": {"providers", "store", "domain", "util"},
    "report": {"projection", "domain", "util"},
    "launch": {"projection", "domain", "util"},
    "viewmodels": {"util", "domain", "projection", "providers", "store", "probe", "refresh", "report",
                   "launch"},
}
SUBSYSTEMS = set(ALLOWED)
UI_ALLOWED = {"viewmodels", "util", "domain", "projection", "providers", "probe", "refresh", "report", "launch",
              "ui"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(root, path):
    """('models', sub) / ('ui', None) / ('app', None) for a file under root."""
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[0] == "models" and len(rel) > 2:
        return "models", rel[1]
    return rel[0], None


def target_of(root, including_file, header):
    """What an include names: ('models', sub), ('ui', None), ('app', None), ('local', None)
    or ('system', None) for headers outside the tree (Qt, libcurl...)."""
    first = header.split("/", 1)[0]
    if "/" in header and first in SUBSYSTEMS:
        return "models", first
    if "/" in header and first in ("ui", "app"):
        return first, None
    here = os.path.dirname(including_file)
    if os.path.exists(os.path.join(here, header)):
        kind, sub = layer_of(root, os.path.join(here, header))
        return ("local", None) if kind == "models" and sub == layer_of(root, including_file)[1] else (kind, sub)
    for top in ("ui", "app"):
        if os.path.exists(os.path.join(root, top, header)):
            return top, None
    if os.path.exists(os.path.join(root, "models", header)) or any(
            os.path.exists(os.path.join(root, "models", s, header)) for s in SUBSYSTEMS):
        return "models-unqualified", None
    return "system", None


def check(root):
    problems = []
    checked = 0
    for top in ("models", "ui", "app"):
        for dirpath, _dirs, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                kind, sub = layer_of(root, path)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header = m.group(1)
                        tkind, tsub = target_of(root, path, header)
                        checked += 1
                        where = f"{os.path.relpath(path, root)}:{lineno}"
                        if tkind == "models-unqualified":
                            problems.append(f'{where}: #include "{header}" must name its subsystem '
                                            f'("<subsystem>/{os.path.basename(header)}")')
                        elif tkind == "app" and kind != "app":
                            problems.append(f'{where}: #include "{header}": nothing outside app/ includes app/')
                        elif kind == "models" and tkind == "ui":
                            problems.append(f'{where}: #include "{header}": models/ never includes ui/')
                        elif kind == "models" and tkind == "models" and tsub != sub \
                                and tsub not in ALLOWED.get(sub, set()):
                            allowed = ", ".join(sorted(ALLOWED.get(sub, set()))) or "nothing else"
                            problems.append(f'{where}: #include "{header}": {sub}/ may not use {tsub}/ '
                                            f'(it may use {allowed})')
                        elif kind == "app" and os.path.basename(path).startswith("cli") and tkind == "models" \
                                and tsub == "viewmodels":
                            problems.append(f'{where}: #include "{header}": the CLI (app/cli*) may not use '
                                            f'viewmodels/ (the GUI\'s models; the CLI projects through '
                                            f'projection/catalogprojection.h)')
                        elif kind == "ui" and tkind == "models" and tsub not in UI_ALLOWED:
                            problems.append(f'{where}: #include "{header}": ui/ may not use {tsub}/ '
                                            f'(the GUI reaches the database through viewmodels/catalogservice.h)')
    return checked, problems


def main():
    if len(sys.argv) < 2:
        print("usage: check_layers.py SOURCE_DIR", file=sys.stderr)
        return 2
    if "--rules" in sys.argv:
        for sub, allowed in ALLOWED.items():
            print(f"{sub}: {', '.join(sorted(allowed)) or '-'}")
        return 0
    checked, problems = check(sys.argv[1])
    if checked == 0:
        print(f"no includes found under {sys.argv[1]}: wrong folder?", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} of {checked} includes break the layering of ARCHITECTURE.md")
        return 1
    print(f"ok: {checked} includes under models/, ui/ and app/ follow the layering of ARCHITECTURE.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
