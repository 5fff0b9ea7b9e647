#!/usr/bin/env bash
# Builds the asan preset (AddressSanitizer + UBSan, build-asan/) and runs tests under it.
#   scripts/sanitize.sh unit   engine and file-reader unit tests (what CI runs)
#   scripts/sanitize.sh cl     the OpenCL tests on PoCL
#   scripts/sanitize.sh cli    the headless CLI cases, the crafted-input corpus and the input
#                              gate, and the recording test (builds gvflab; Xvfb)
#   scripts/sanitize.sh all    all three (the default)
# Only the targets the chosen tests need are built. Any report from our own code fails the run;
# the suppression files in tests/sanitizers/ name only third-party libraries, each with a reason.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

unit_tests=(test_unit test_region_unit test_app)
cl_tests=(test_cl test_multigrid_cl test_pipeline_cl test_region_cl)
# cli.<case>: one per case of tests/cli/cli_test.cmake; the crafted-input corpus in four shards
# (malformed_inputs.py, with corpus_dicom.py, corpus_tiff.py, ...) and the input gate's cases.
cli_tests=("cli\\..*" "cli_malformed_inputs_[1-4]" cli_input_gate test_recording)

tests=()
case "${1:-all}" in
  unit) tests=("${unit_tests[@]}") ;;
  cl) tests=("${cl_tests[@]}") ;;
  cli) tests=("${cli_tests[@]}") ;;
  all) tests=("${unit_tests[@]}" "${cl_tests[@]}" "${cli_tests[@]}") ;;
  *) echo "usage: scripts/sanitize.sh unit|cl|cli|all" >&2; exit 2 ;;
esac

targets=()
for t in "${tests[@]}"; do
  case "$t" in
    cli\\.* | cli_*) targets+=(gvflab) ;;
    *) targets+=("$t") ;;
  esac
done

cmake --preset asan >/dev/null
cmake --build build-asan -j"$(nproc)" --target "${targets[@]}"

supp=$root/tests/sanitizers
# detect_leaks stays on: third-party leaks are suppressed by name in lsan.supp, ours fail.
# check_initialization_order and strict_init_order: static-initialisation-order bugs.
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1:\
detect_stack_use_after_return=1:suppressions=$supp/asan.supp:halt_on_error=1:exitcode=23"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"

regex="^($(IFS='|'; echo "${tests[*]}"))\$"
run=(ctest --test-dir build-asan --output-on-failure --timeout 1800 -R "$regex")
if [ -n "${DISPLAY:-}" ]; then "${run[@]}"; else xvfb-run -a -s "-screen 0 1600x1000x24" "${run[@]}"; fi
