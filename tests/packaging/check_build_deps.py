#!/usr/bin/env python3
"""Checks that every package the build found comes from a Debian package that .ci/install-deps
installs, directly or through its dependencies.

Usage: check_build_deps.py BUILD_DIR INSTALL_DEPS_SCRIPT

What "the build uses" means, for a configured build folder:
  - every <Package>_DIR entry of CMakeCache.txt under /usr (find_package in config mode): the
    *Config.cmake / *-config.cmake file in that folder;
  - every program a FILEPATH cache entry points to under /usr (pkg-config, dpkg-shlibdeps, ...);
  - every library under /usr that a link line in build.ninja (or a Makefile link.txt) names.
Libraries that a find module found but no target links (optional OpenGL parts, say) are not
counted: a fresh machine without them builds all the same.
The owning Debian package of each file is looked up with `dpkg -S`. The packages that install-deps
provides are its package list plus their Depends/Pre-Depends closure, read from the dpkg status
of the installed packages (offline and deterministic: install-deps uses --no-install-recommends,
so Recommends are not followed). A found file whose package lies outside that closure means a
fresh Debian machine that runs install-deps cannot configure the build: the check fails and names
the CMake entry, the file and the package to add.

Exit status: 0 all covered, 1 something is not covered, 2 usage or environment error.
"""

import os
import re
import subprocess
import sys


def die(message, code=2):
    print(f"check_build_deps: {message}", file=sys.stderr)
    sys.exit(code)


def install_deps_packages(script):
    """The package list of install-deps: the words inside `packages=( ... )`."""
    try:
        text = open(script, encoding="utf-8").read()
    except OSError as e:
        die(f"cannot read {script}: {e.strerror}")
    m = re.search(r"^packages=\((.*?)^\)", text, re.S | re.M)
    if not m:
        die(f"{script}: no packages=( ... ) list found")
    words = []
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0]
        words += line.split()
    if not words:
        die(f"{script}: the packages list is empty")
    return words


def dpkg_status():
    """Installed packages: name -> (depends alternatives, provides)."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Depends}\t${Pre-Depends}\t${Provides}\n"],
        capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        die("dpkg-query failed: " + out.stderr.strip())
    packages = {}
    provided_by = {}
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) != 5:
            continue
        name, status, depends, predepends, provides = parts
        if "install ok installed" not in status:
            continue
        alternatives = []
        for field in (depends, predepends):
            for clause in field.split(","):
                clause = clause.strip()
                if not clause:
                    continue
                alts = [re.sub(r"\s*\(.*?\)", "", a).strip().split(":")[0] for a in clause.split("|")]
                alternatives.append([a for a in alts if a])
        packages[name] = alternatives
        for p in provides.split(","):
            p = re.sub(r"\s*\(.*?\)", "", p).strip()
            if p:
                provided_by.setdefault(p, set()).add(name)
    return packages, provided_by


def closure(roots, packages, provided_by):
    """Packages reachable from roots through Depends/Pre-Depends among the installed ones."""
    seen = set()
    missing_roots = []
    stack = []
    for r in roots:
        if r in packages:
            stack.append(r)
        elif r in provided_by:
            stack.extend(provided_by[r])
        else:
            missing_roots.append(r)
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        for alts in packages.get(p, []):
            for a in alts:
                # Every installed alternative may be the one in use; follow all of them.
                if a in packages:
                    stack.append(a)
                for q in provided_by.get(a, ()):
                    stack.append(q)
    return seen, missing_roots


def used_files(build_dir):
    """(what, file) pairs: the files under /usr that the configured build uses."""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    try:
        lines = open(cache, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as e:
        die(f"cannot read {cache}: {e.strerror}")
    result = []
    for line in lines:
        m = re.match(r"^([A-Za-z0-9_.+-]+):(PATH|FILEPATH|UNINITIALIZED|STRING)=(/usr/.*)$", line)
        if not m:
            continue
        name, kind, value = m.groups()
        if name.startswith("CMAKE_"):
            continue  # the compiler, linker, ar, ... (build-essential and cmake themselves)
        if name.endswith("_DIR") and os.path.isdir(value):
            pkg = name[:-4]
            names = [f"{pkg}Config.cmake", f"{pkg.lower()}-config.cmake"]
            names += sorted(f for f in os.listdir(value) if f.endswith(("Config.cmake", "-config.cmake")))
            for n in names:
                if os.path.isfile(os.path.join(value, n)):
                    result.append((f"{name} (find_package)", os.path.join(value, n)))
                    break
        elif kind == "FILEPATH" and os.path.isfile(value) and os.access(value, os.X_OK) \
                and ".so" not in os.path.basename(value):
            result.append((f"{name} (program)", value))
    link_files = []
    ninja = os.path.join(build_dir, "build.ninja")
    if os.path.isfile(ninja):
        link_files.append(ninja)
    else:
        for root, _dirs, files in os.walk(build_dir):
            link_files += [os.path.join(root, f) for f in files if f == "link.txt"]
    libs = set()
    for f in link_files:
        text = open(f, encoding="utf-8", errors="replace").read()
        libs.update(re.findall(r"(/usr/[^\s;\"$]+\.(?:so|a)(?:\.[0-9.]+)?)", text))
    for lib in sorted(libs):
        if lib.startswith("/usr/local/") or not os.path.exists(lib):
            continue
        result.append(("linked library", lib))
    return result


def owner(path, cache):
    """The Debian package that owns path (following a symlink to its target), or None."""
    for candidate in (path, os.path.realpath(path)):
        if candidate in cache:
            return cache[candidate]
        out = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout:
            first = out.stdout.splitlines()[0]
            pkgs = first.split(": ", 1)[0]
            # "diversion by" lines and "pkg1, pkg2: path" both exist; take the first package.
            if not first.startswith("diversion"):
                result = pkgs.split(",")[0].strip().split(":")[0]
                cache[candidate] = result
                return result
    return None


def main():
    if len(sys.argv) != 3:
        die("usage: check_build_deps.py BUILD_DIR INSTALL_DEPS_SCRIPT")
    build_dir, script = sys.argv[1], sys.argv[2]
    roots = install_deps_packages(script)
    packages, provided_by = dpkg_status()
    if not packages:
        die("dpkg-query listed no installed packages (is this Debian?)")
    covered, missing_roots = closure(roots, packages, provided_by)
    if missing_roots:
        print("note: not installed here, so their dependencies are not followed: " + " ".join(missing_roots))

    owners = {}
    problems = []
    checked = 0
    for name, f in used_files(build_dir):
        pkg = owner(f, owners)
        if pkg is None:
            continue  # not from a Debian package (e.g. a file the build made)
        checked += 1
        if pkg not in covered:
            problems.append((name, f, pkg))

    if checked == 0:
        die(f"{build_dir}: no CMake package or library under /usr was found; is this a configured build?")
    if problems:
        for name, f, pkg in problems:
            print(f"NOT COVERED: {name} uses {f} from the Debian package '{pkg}', which {script} "
                  f"neither lists nor pulls in as a dependency; add '{pkg}' to its packages list")
        print(f"{len(problems)} of {checked} files the build found come from packages a fresh machine lacks")
        return 1
    print(f"ok: all {checked} files the build found under /usr come from packages that "
          f"{os.path.basename(script)} installs ({len(roots)} listed, {len(covered)} with dependencies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
