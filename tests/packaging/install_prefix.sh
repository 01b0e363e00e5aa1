#!/usr/bin/env bash
# Installs the build into a temporary prefix outside the build tree (cmake --install) and runs the
# installed programs from /: the installed app must need nothing from the build tree.
#   install_prefix.sh CMAKE BUILD_DIR VERSION APP_ID "ICON SIZES" HAVE_CPUPROBE HAVE_CUDAPROBE
source "$(dirname "$0")/common.sh"
cmake=$1 build_dir=$2 version=$3 app_id=$4 sizes=$5 have_cpuprobe=$6 have_cudaprobe=$7
need python3 python3
make_scratch
prefix="$SCRATCH/prefix with space"
"$cmake" --install "$build_dir" --prefix "$prefix" >"$SCRATCH/install.log" 2>&1 \
    || { cat "$SCRATCH/install.log" >&2; fail "cmake --install $build_dir --prefix $prefix"; }
ok "cmake --install --prefix $prefix ($(grep -c 'Installing:' "$SCRATCH/install.log") files)"
check_installed_data "$prefix" "$app_id" "$sizes"
check_installed_programs "$prefix" "$version" "$have_cpuprobe" "$have_cudaprobe" "$build_dir" run-probe

# The desktop file, metainfo and icons together, as a software centre reads them.
if command -v appstreamcli >/dev/null 2>&1; then
    appstreamcli validate-tree --no-net "$prefix" || fail "appstreamcli validate-tree --no-net $prefix"
    ok "appstreamcli validate-tree --no-net on the installed tree"
fi
