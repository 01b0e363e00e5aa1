# Checks of the resource tools (label unit): the validation folds that resources/tools/fit_projection.py
# ships in resources/benchmarks/model_v2.json are fitted without the held-out GPU.
find_program(GF_PYTHON3 python3)
if(GF_PYTHON3)
    add_test(NAME unit_fit_folds COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_fit_folds.py
                                         ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_fit_folds PROPERTIES LABELS unit TIMEOUT 300)
endif()
# The data rules of build_transfer_rows.py and the default bytes per FLOP of fit_typical_stack.py.
if(GF_PYTHON3)
    add_test(NAME unit_transfer_rules COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_transfer_rules.py
                                              ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_transfer_rules PROPERTIES LABELS unit TIMEOUT 120)
endif()
# The MLI-TFMR-2024 transfer rows: rebuilt from the shared file (a fixture copy), the conversion, the source.
if(GF_PYTHON3)
    add_test(NAME unit_mli_rows COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_mli_rows.py
                                        ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_mli_rows PROPERTIES LABELS unit TIMEOUT 120)
endif()
# The LAMBDA-TF-2021 transfer rows (Lambda's TensorFlow CNN suite): rebuilt from a fixture, rule H, scored only.
if(GF_PYTHON3)
    add_test(NAME unit_tf_rows COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_tf_rows.py
                                       ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_tf_rows PROPERTIES LABELS unit TIMEOUT 120)
endif()
# The input pipeline's check (Lambda's TensorFlow real-data runs): rebuilt from a fixture, rule K, rule K3's range.
if(GF_PYTHON3)
    add_test(NAME unit_input_pipeline_runs COMMAND ${GF_PYTHON3}
             ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_input_pipeline_runs.py ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_input_pipeline_runs PROPERTIES LABELS unit TIMEOUT 120)
endif()
# The per-step floor's data (the H100 micro-batch sweep of 2026-11-28): rebuilt from its raw output, rule Q2.
if(GF_PYTHON3)
    add_test(NAME unit_step_floor_sweep COMMAND ${GF_PYTHON3}
             ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_step_floor_sweep.py ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_step_floor_sweep PROPERTIES LABELS unit TIMEOUT 120)
endif()
# probes/batch_sweep.sh without a GPU: each point says why it has no figure; exit status 1.
if(GF_PYTHON3)
    add_test(NAME unit_batch_sweep_nogpu COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_batch_sweep.sh
                                                 ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_batch_sweep_nogpu PROPERTIES LABELS unit TIMEOUT 120)
endif()
# Rule S3 (section 3.22): the H200 busy sweep of 2026-11-28 (how busy the GPU was at each micro-batch), the rule's
# figures recomputed from it, and gf_measure.py's busy arithmetic.
if(GF_PYTHON3)
    add_test(NAME unit_busy_sweep COMMAND ${GF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_busy_sweep.py
                                          ${PROJECT_SOURCE_DIR})
    set_tests_properties(unit_busy_sweep PROPERTIES LABELS unit TIMEOUT 120)
endif()
