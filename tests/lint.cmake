# Source checks (label lint): the code follows .clang-format.
add_test(NAME lint_format COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lint/check_format.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(lint_format PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 300)
