# Tests of the probe binaries themselves (probes/). Included by tests/CMakeLists.txt.
set(GF_PROBE_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/probe/check_probe.cmake)

if(TARGET gpufrontier-cpuprobe)
    add_test(NAME probe_cpuprobe_quick
             COMMAND ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-cpuprobe> -DARGS=--quick
                     -DEXPECT_RC=0 -DEXPECT_KIND=cpu -P ${GF_PROBE_CHECK})
    set_tests_properties(probe_cpuprobe_quick PROPERTIES LABELS unit TIMEOUT 300)
    add_test(NAME probe_cpuprobe_usage
             COMMAND ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-cpuprobe> -DARGS=--no-such-option
                     -DEXPECT_RC=1 -P ${GF_PROBE_CHECK})
    set_tests_properties(probe_cpuprobe_usage PROPERTIES LABELS unit TIMEOUT 60)
endif()

if(TARGET gpufrontier-probe)
    # The no-device path: CI and build machines have the CUDA toolkit but no GPU and no driver;
    # on a GPU machine an empty CUDA_VISIBLE_DEVICES hides every device. Exit 2 + error document.
    add_test(NAME probe_cuda_nodevice
             COMMAND ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=
                     ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-probe> -DARGS=--quick
                     -DEXPECT_RC=2 -DEXPECT_KIND=cuda -DEXPECT_ERROR=no_device -P ${GF_PROBE_CHECK})
    set_tests_properties(probe_cuda_nodevice PROPERTIES LABELS unit TIMEOUT 120)
    add_test(NAME probe_cuda_usage
             COMMAND ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-probe> -DARGS=--device=x
                     -DEXPECT_RC=1 -P ${GF_PROBE_CHECK})
    set_tests_properties(probe_cuda_usage PROPERTIES LABELS unit TIMEOUT 60)
    # Needs a GPU (CI runs ctest -LE gpu); without one they are reported as skipped, not failed.
    add_test(NAME probe_cuda_quick
             COMMAND ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-probe> -DARGS=--quick
                     -DEXPECT_RC=0 -DEXPECT_KIND=cuda -DSKIP_WITHOUT_DEVICE=ON -P ${GF_PROBE_CHECK})
    add_test(NAME probe_cuda_full
             COMMAND ${CMAKE_COMMAND} -DPROBE=$<TARGET_FILE:gpufrontier-probe>
                     -DEXPECT_RC=0 -DEXPECT_KIND=cuda -DSKIP_WITHOUT_DEVICE=ON -P ${GF_PROBE_CHECK})
    set_tests_properties(probe_cuda_quick probe_cuda_full PROPERTIES LABELS gpu TIMEOUT 300 RUN_SERIAL TRUE
                         SKIP_REGULAR_EXPRESSION "SKIP: no usable CUDA device")
endif()
