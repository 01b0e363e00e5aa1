# Packaging tests (scripts in tests/packaging/, label unit): the desktop entry and AppStream
# metainfo validate; the build installs into a temporary prefix and runs from there; CPack makes a
# working .tar.gz and .deb. A missing tool skips a test (exit 77), except on CI (CI=true).

set(_gf_pkg_dir ${PROJECT_SOURCE_DIR}/packaging)
set(_gf_pkg_tests ${CMAKE_CURRENT_SOURCE_DIR}/packaging)
# The probe targets are defined by probes/ (added before tests/).
set(_gf_have_cpuprobe OFF)
if(TARGET gpufrontier-cpuprobe)
    set(_gf_have_cpuprobe ON)
endif()
set(_gf_have_cudaprobe OFF)
if(TARGET gpufrontier-probe)
    set(_gf_have_cudaprobe ON)
endif()
string(REPLACE ";" " " _gf_pkg_sizes "${GPUFRONTIER_ICON_SIZES}")
set(_gf_pkg_args "${PROJECT_BINARY_DIR}" "${PROJECT_VERSION}" "${GPUFRONTIER_APP_ID}" "${_gf_pkg_sizes}"
    ${_gf_have_cpuprobe} ${_gf_have_cudaprobe})

add_test(NAME packaging_desktop_file
         COMMAND bash ${_gf_pkg_tests}/validate.sh desktop ${_gf_pkg_dir}/${GPUFRONTIER_APP_ID}.desktop)
add_test(NAME packaging_metainfo
         COMMAND bash ${_gf_pkg_tests}/validate.sh metainfo ${_gf_pkg_dir}/${GPUFRONTIER_APP_ID}.metainfo.xml)
add_test(NAME packaging_install_prefix
         COMMAND bash ${_gf_pkg_tests}/install_prefix.sh ${CMAKE_COMMAND} ${_gf_pkg_args})
add_test(NAME packaging_cpack_tgz
         COMMAND bash ${_gf_pkg_tests}/cpack.sh TGZ ${CMAKE_CPACK_COMMAND} ${_gf_pkg_args})
add_test(NAME packaging_cpack_deb
         COMMAND bash ${_gf_pkg_tests}/cpack.sh DEB ${CMAKE_CPACK_COMMAND} ${_gf_pkg_args})

set_tests_properties(packaging_desktop_file packaging_metainfo packaging_install_prefix
                     packaging_cpack_tgz packaging_cpack_deb
                     PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 180)
# cmake --install and cpack write install_manifest.txt into the build folder: one at a time.
set_tests_properties(packaging_install_prefix packaging_cpack_tgz packaging_cpack_deb
                     PROPERTIES RESOURCE_LOCK gpufrontier_install)

# Every CMake package, program and library the build uses comes from a Debian package that
# .ci/install-deps installs (directly or as a dependency); and the check fails when one is dropped.
add_test(NAME packaging_build_deps
         COMMAND bash ${_gf_pkg_tests}/build_deps.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME packaging_build_deps_detects_missing
         COMMAND bash ${_gf_pkg_tests}/build_deps.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} libqt6opengl6-dev)
set_tests_properties(packaging_build_deps packaging_build_deps_detects_missing
                     PROPERTIES LABELS packaging SKIP_RETURN_CODE 77 TIMEOUT 120)

add_test(NAME packaging_gui_nodisplay
         COMMAND bash ${_gf_pkg_tests}/gui_nodisplay.sh $<TARGET_FILE:gpufrontier> ${PROJECT_VERSION})
set_tests_properties(packaging_gui_nodisplay PROPERTIES LABELS packaging TIMEOUT 60)
