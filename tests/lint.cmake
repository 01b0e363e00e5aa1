# Source checks (label lint): the code follows .clang-format.
add_test(NAME lint_format COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lint/check_format.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(lint_format PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 300)

# Layering (ARCHITECTURE.md): every #include under models/, ui/ and app/ is allowed by the table;
# and a copy with deliberate bad includes fails, naming each.
add_test(NAME lint_layers COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lint/layers.sh ${PROJECT_SOURCE_DIR})
add_test(NAME lint_layers_detects_bad_includes
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lint/layers.sh ${PROJECT_SOURCE_DIR} --bad)
set_tests_properties(lint_layers lint_layers_detects_bad_includes PROPERTIES LABELS lint TIMEOUT 120)
