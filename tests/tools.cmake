# Checks of the resource tools (label unit).
find_program(GF_PYTHON3 python3)
# One check: tests/tools/SCRIPT run with the repository root, label unit (skipped without python3).
function(gf_add_tool_check name script timeout)
    if(GF_PYTHON3)
        add_test(NAME ${name} COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/${script} ${PROJECT_SOURCE_DIR})
        set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT ${timeout})
    endif()
endfunction()
# The validation folds that resources/tools/fit_projection.py ships in resources/benchmarks/model_v2.json are
# fitted without the held-out GPU.
gf_add_tool_check(unit_fit_folds check_fit_folds.py 300)
# The data rules of build_transfer_rows.py and the default bytes per FLOP of fit_typical_stack.py.
gf_add_tool_check(unit_transfer_rules check_transfer_rules.py 120)
# The MLI-TFMR-2024 transfer rows: rebuilt from the shared file (a fixture copy), the conversion, the source.
gf_add_tool_check(unit_mli_rows check_mli_rows.py 120)
# The LAMBDA-TF-2021 transfer rows (Lambda's TensorFlow CNN suite): rebuilt from a fixture, rule H, scored only.
gf_add_tool_check(unit_tf_rows check_tf_rows.py 120)
# The input pipeline's check (Lambda's TensorFlow real-data runs): rebuilt from a fixture, rule K, rule K3's range.
gf_add_tool_check(unit_input_pipeline_runs check_input_pipeline_runs.py 120)
# The per-step floor's data (the H100 micro-batch sweep of 2026-11-28): rebuilt from its raw output, rule Q2.
gf_add_tool_check(unit_step_floor_sweep check_step_floor_sweep.py 120)
# Rule Z (section 3.26): fit_typical_stack.py picks the reference rows the app picks (unit_transfervalidation).
gf_add_tool_check(unit_reference_rows check_reference_rows.py 120)
# probes/batch_sweep.sh without a GPU: each point says why it has no figure; exit status 1.
if(GF_PYTHON3)
    add_test(NAME unit_batch_sweep_nogpu COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_batch_sweep.sh
                                                 ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_batch_sweep_nogpu PROPERTIES LABELS unit TIMEOUT 120)
endif()
# Rule S3 (section 3.22): the H200 busy sweep of 2026-11-28 (how busy the GPU was at each micro-batch), the rule's
# figures recomputed from it, and gf_measure.py's busy arithmetic.
gf_add_tool_check(unit_busy_sweep check_busy_sweep.py 120)
# Rule X (section 3.25): the H200 run of ryujaehun's eager loop against RYU-PT-2025, scored with the app's CLI:
# rule S3 across GPUs and hosts, rule W's floor.
if(GF_PYTHON3)
    add_test(NAME unit_ryu_h200 COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_ryu_h200.py
                                        ${PROJECT_SOURCE_DIR} $<TARGET_FILE:gpufrontier-cli>)
    set_tests_properties(unit_ryu_h200 PROPERTIES LABELS unit TIMEOUT 300)
endif()
# Rule AA (section 3.28, rejected): score_batch_terms.py's forms on constructed pairs, and its figures on the app's
# validate pairs (the rejection).
if(GF_PYTHON3)
    add_test(NAME unit_batch_terms COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_batch_terms.py
                                           ${PROJECT_SOURCE_DIR} $<TARGET_FILE:gpufrontier-cli>)
    set_tests_properties(unit_batch_terms PROPERTIES LABELS unit TIMEOUT 300)
endif()
# Protocol AB and rule AC (section 3.29): score_mlperf_extra.py on a fixture of MLPerf's other workloads, through the
# app (the tuned stack's custom workloads), and its figures on the shared files where they are.
if(GF_PYTHON3)
    add_test(NAME unit_mlperf_extra COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_mlperf_extra.py
                                            ${PROJECT_SOURCE_DIR} $<TARGET_FILE:gpufrontier-cli>)
    set_tests_properties(unit_mlperf_extra PROPERTIES LABELS unit TIMEOUT 300)
endif()
