# Shared helpers of the packaging tests (sourced).
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# A tool the test needs is missing: skip (exit 77) on a developer machine, fail on CI (CI=true),
# where .ci/install-deps installs every tool.
need() {
    local tool=$1 package=$2
    command -v "$tool" >/dev/null 2>&1 && return 0
    if [ "${CI:-}" = "true" ]; then
        fail "$tool not found (Debian package $package; .ci/install-deps installs it)"
    fi
    echo "SKIP: $tool not found (install the Debian package $package)"
    exit 77
}

# A scratch folder outside the build tree, removed on exit.
make_scratch() {
    SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/gpufrontier-packaging.XXXXXX")
    trap 'rm -rf "$SCRATCH"' EXIT
}

# Runs the installed programs under PREFIX the way a user would: from /, without the build
# tree's environment, with a fresh HOME. Checks the CLI's JSON offers, the GUI's --version,
# the probe helper(s) and the libraries the binaries load.
#   check_installed_programs PREFIX VERSION HAVE_CPUPROBE HAVE_CUDAPROBE BUILD_DIR [run-probe]
check_installed_programs() {
    local prefix=$1 version=$2 have_cpuprobe=$3 have_cudaprobe=$4 build_dir=$5 run_probe=${6:-}
    local home="$SCRATCH/home"
    mkdir -p "$home"
    local -a clean_env=(env -u GPUFRONTIER_PROBE_DIR -u GPUFRONTIER_DB -u LD_LIBRARY_PATH -u QT_PLUGIN_PATH
                        HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share"
                        XDG_CACHE_HOME="$home/.cache" LC_ALL=C.UTF-8)

    for exe in bin/gpufrontier bin/gpufrontier-cli; do
        [ -x "$prefix/$exe" ] || fail "$prefix/$exe is missing or not executable"
    done

    # Nothing may point back into the build tree (RUNPATH) or be unresolved.
    local bins=("$prefix/bin/gpufrontier" "$prefix/bin/gpufrontier-cli")
    [ -e "$prefix/libexec/gpufrontier/gpufrontier-cpuprobe" ] && bins+=("$prefix/libexec/gpufrontier/gpufrontier-cpuprobe")
    for b in "${bins[@]}"; do
        if command -v readelf >/dev/null 2>&1; then
            if readelf -d "$b" | grep -E 'R(UN)?PATH' | grep -qF "$build_dir"; then
                fail "$b has an RPATH into the build tree: $(readelf -d "$b" | grep -E 'R(UN)?PATH')"
            fi
        fi
        if ldd "$b" | grep -q 'not found'; then
            fail "$b: unresolved libraries: $(ldd "$b" | grep 'not found')"
        fi
    done
    ok "no RPATH into the build tree, every library resolves"

    local json="$SCRATCH/offers.json" err="$SCRATCH/offers.err"
    (cd / && "${clean_env[@]}" "$prefix/bin/gpufrontier-cli" --db "$SCRATCH/db.sqlite" offers --format json \
        >"$json" 2>"$err") || { cat "$err" >&2; fail "gpufrontier-cli offers --format json failed"; }
    python3 - "$json" <<'PY' || fail "gpufrontier-cli offers --format json: not a non-empty JSON array of offers"
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    offers = json.load(f)
assert isinstance(offers, list) and offers, "empty or not an array"
assert all(isinstance(o, dict) and o.get("provider") and o.get("instance_type") for o in offers), "bad offer objects"
print(f"ok: installed gpufrontier-cli lists {len(offers)} offers "
      f"from {len({o['provider'] for o in offers})} providers")
PY

    local out
    out=$(cd / && "${clean_env[@]}" QT_QPA_PLATFORM=offscreen "$prefix/bin/gpufrontier" --version 2>"$err") \
        || { cat "$err" >&2; fail "gpufrontier --version failed"; }
    case "$out" in
        *"$version"*) ok "installed gpufrontier --version: $out" ;;
        *) fail "gpufrontier --version printed '$out', expected version $version" ;;
    esac

    # The app looks for its helpers in ../libexec/gpufrontier relative to its own binary.
    if [ "$have_cpuprobe" = "ON" ]; then
        local probe="$prefix/libexec/gpufrontier/gpufrontier-cpuprobe"
        [ -x "$probe" ] || fail "$probe is missing or not executable"
        out=$(cd / && "${clean_env[@]}" "$probe" --version 2>"$err") \
            || { cat "$err" >&2; fail "gpufrontier-cpuprobe --version failed"; }
        ok "installed libexec/gpufrontier/gpufrontier-cpuprobe --version: $out"
    else
        echo "note: no gpufrontier-cpuprobe target in this build, not checked"
    fi
    # The installed CLI runs the installed CPU probe (a quick run, ~10 s); with the helper moved out
    # of libexec/gpufrontier it must fail: the app finds it there, not in the build tree.
    if [ "$have_cpuprobe" = "ON" ] && [ "$run_probe" = "run-probe" ]; then
        local probe_json="$SCRATCH/probe.json"
        (cd / && "${clean_env[@]}" "$prefix/bin/gpufrontier-cli" --db "$SCRATCH/db.sqlite" probe --run --cpu --quick \
            --timeout 120 --format json >"$probe_json" 2>"$err") \
            || { cat "$err" >&2; fail "installed gpufrontier-cli probe --run --cpu --quick failed"; }
        python3 - "$probe_json" <<'PY' || fail "gpufrontier-cli probe --run --cpu: unexpected output"
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    run = json.load(f)
assert run.get("kind") == "cpu", run.get("kind")
print(f"ok: installed gpufrontier-cli ran the installed CPU probe (run #{run.get('id')}, {run.get('device_name')})")
PY
        mv "$prefix/libexec/gpufrontier/gpufrontier-cpuprobe" "$SCRATCH/cpuprobe.away"
        if (cd / && "${clean_env[@]}" "$prefix/bin/gpufrontier-cli" --db "$SCRATCH/db.sqlite" probe --run --cpu --quick \
                --timeout 120 >/dev/null 2>&1); then
            fail "gpufrontier-cli probe --run --cpu succeeded without libexec/gpufrontier/gpufrontier-cpuprobe: it uses another copy"
        fi
        mv "$SCRATCH/cpuprobe.away" "$prefix/libexec/gpufrontier/gpufrontier-cpuprobe"
        ok "without libexec/gpufrontier/gpufrontier-cpuprobe the probe run fails, as it should"
    fi
    if [ "$have_cudaprobe" = "ON" ]; then
        [ -x "$prefix/libexec/gpufrontier/gpufrontier-probe" ] || fail "libexec/gpufrontier/gpufrontier-probe is missing"
        ok "installed libexec/gpufrontier/gpufrontier-probe exists"
    fi
}

# The desktop integration files under PREFIX/share.
#   check_installed_data PREFIX APP_ID "ICON SIZES"
check_installed_data() {
    local prefix=$1 app_id=$2 sizes=$3
    local -a files=("share/applications/$app_id.desktop" "share/metainfo/$app_id.metainfo.xml"
                    "share/icons/hicolor/scalable/apps/$app_id.svg" "share/doc/gpufrontier/LICENSE")
    for s in $sizes; do files+=("share/icons/hicolor/${s}x${s}/apps/$app_id.png"); done
    for f in "${files[@]}"; do
        [ -s "$prefix/$f" ] || fail "$prefix/$f is missing"
    done
    ok "desktop file, metainfo, LICENSE and $((${#files[@]} - 3)) icons installed"
}
