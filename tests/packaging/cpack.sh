#!/usr/bin/env bash
# Builds a package with CPack into a scratch folder and checks it.
#   cpack.sh TGZ|DEB CPACK BUILD_DIR VERSION APP_ID "ICON SIZES" HAVE_CPUPROBE HAVE_CUDAPROBE
source "$(dirname "$0")/common.sh"
gen=$1 cpack=$2 build_dir=$3 version=$4 app_id=$5 sizes=$6 have_cpuprobe=$7 have_cudaprobe=$8
need python3 python3
make_scratch
"$cpack" --config "$build_dir/CPackConfig.cmake" -G "$gen" -B "$SCRATCH/out" >"$SCRATCH/cpack.log" 2>&1 \
    || { cat "$SCRATCH/cpack.log" >&2; fail "cpack -G $gen"; }
root="$SCRATCH/root"
mkdir -p "$root"

case "$gen" in
TGZ)
    tarball=$(ls "$SCRATCH"/out/gpufrontier-"$version"-*.tar.gz) || fail "no gpufrontier-$version-*.tar.gz made"
    ok "cpack -G TGZ made $(basename "$tarball") ($(du -h "$tarball" | cut -f1))"
    tar -tzf "$tarball" >"$SCRATCH/list"
    top=$(basename "$tarball" .tar.gz)
    expected=(bin/gpufrontier bin/gpufrontier-cli "share/applications/$app_id.desktop"
              "share/metainfo/$app_id.metainfo.xml" share/doc/gpufrontier/LICENSE)
    [ "$have_cpuprobe" = "ON" ] && expected+=(libexec/gpufrontier/gpufrontier-cpuprobe)
    for f in "${expected[@]}"; do
        grep -qx "$top/$f" "$SCRATCH/list" || fail "$(basename "$tarball") lacks $top/$f"
    done
    ok "the tarball lists ${expected[*]}"
    tar -xzf "$tarball" -C "$root"
    prefix="$root/$top"
    ;;
DEB)
    need dpkg-deb dpkg
    deb="$SCRATCH/out/gpufrontier_${version}_$(dpkg --print-architecture).deb"
    [ -f "$deb" ] || { ls "$SCRATCH/out" >&2; fail "cpack -G DEB did not make $(basename "$deb")"; }
    ok "cpack -G DEB made $(basename "$deb") ($(du -h "$deb" | cut -f1))"
    dpkg-deb --info "$deb"
    field() { dpkg-deb --field "$deb" "$1"; }
    [ "$(field Package)" = gpufrontier ] || fail "Package is '$(field Package)'"
    [ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
    for f in Section Maintainer Homepage Description; do
        [ -n "$(field "$f")" ] || fail "the control file has no $f"
    done
    depends=$(field Depends)
    for p in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6sql6 libqt6sql6-sqlite libcurl4 qt6-qpa-plugins libc6; do
        echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep -qx "$p" || fail "Depends lacks $p: $depends"
    done
    ok "Depends: $depends"
    # Every dependency is a real Debian package name: this machine has them all installed.
    if command -v dpkg-query >/dev/null 2>&1; then
        for p in $(echo "$depends" | tr ',|' '\n\n' | sed 's/^ *//; s/[ (].*//' | sort -u); do
            dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' \
                || fail "Depends names $p, which is not installed here (a wrong package name?)"
        done
        ok "every package in Depends is installed on this machine"
    fi
    dpkg-deb --contents "$deb" >"$SCRATCH/list"
    expected=(usr/bin/gpufrontier usr/bin/gpufrontier-cli "usr/share/applications/$app_id.desktop"
              "usr/share/metainfo/$app_id.metainfo.xml" "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
              usr/share/doc/gpufrontier/copyright usr/share/doc/gpufrontier/changelog.gz
              usr/share/man/man1/gpufrontier.1.gz usr/share/man/man1/gpufrontier-cli.1.gz)
    for s in $sizes; do expected+=("usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png"); done
    [ "$have_cpuprobe" = "ON" ] && expected+=(usr/libexec/gpufrontier/gpufrontier-cpuprobe)
    for f in "${expected[@]}"; do
        awk '{print $6}' "$SCRATCH/list" | grep -qx "./$f" || fail "$(basename "$deb") lacks /$f"
    done
    if awk '{print $1, $2}' "$SCRATCH/list" | grep -v ' root/root$' | grep -q .; then
        fail "files in the .deb not owned by root/root"
    fi
    ok "the .deb holds ${#expected[@]} expected files, owned by root"
    # Debian's package checker, where installed (not on CI): no errors.
    # The CUDA probe keeps a RUNPATH to the CUDA toolkit's libraries (cuBLASLt is no Debian 12
    # package; probes/CMakeLists.txt), which lintian flags: expected when that probe is built.
    if command -v lintian >/dev/null 2>&1; then
        suppress=()
        [ "$have_cudaprobe" = "ON" ] && suppress=(--suppress-tags custom-library-search-path)
        lintian --fail-on error "${suppress[@]}" "$deb" || fail "lintian reports errors on $(basename "$deb")"
        ok "lintian: no errors"
    fi
    # Unpack it (without installing it into the system) and run the programs from there.
    dpkg-deb -x "$deb" "$root"
    prefix="$root/usr"
    ;;
*) fail "unknown generator $gen" ;;
esac

check_installed_data "$prefix" "$app_id" "$sizes"
# The unpacked .deb also runs the CPU probe (the tarball has the same tree as cmake --install).
run_probe=""
[ "$gen" = DEB ] && run_probe=run-probe
check_installed_programs "$prefix" "$version" "$have_cpuprobe" "$have_cudaprobe" "$build_dir" "$run_probe"
