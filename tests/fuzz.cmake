# libFuzzer targets for every parser, the measurement and probe importers and the PDF and Markdown/HTML
# report renderers, built with
# clang in their own folder and run for a bounded time (GF_FUZZ_SECONDS per target, default 10: 13
# targets, about 2.5 minutes plus the build).
# Skipped (CTest exit 77) where clang/libFuzzer is missing. See tests/fuzz/run_fuzzers.sh.
set(GF_FUZZ_SECONDS 10 CACHE STRING "Seconds each fuzz target runs in the test suite")
add_test(NAME fuzz_parsers
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzzers.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/fuzz ${GF_FUZZ_SECONDS})
set_tests_properties(fuzz_parsers PROPERTIES LABELS "fuzz" TIMEOUT 900 SKIP_RETURN_CODE 77)
