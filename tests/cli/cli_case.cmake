# Runs one case of cli_test.cmake (CTest cli.<case>): the lines above its first "# @case"
# marker (set-up and helpers), then those from "# @case CASE" to the next marker. One case per
# CTest: a failing case hides no other, and ctest -j runs them side by side, each in its own
# WORK folder.
# Run with -DCASE=<name> -DGVFLAB=<path to gvflab> -DWORK=<scratch folder>.
file(READ ${CMAKE_CURRENT_LIST_DIR}/cli_test.cmake text)
set(marker "\n# @case ")
string(FIND "${text}" "${marker}" first)
string(FIND "${text}" "${marker}${CASE}\n" start)
if(first EQUAL -1 OR start EQUAL -1)
  message(FATAL_ERROR "cli_test.cmake has no case '${CASE}'")
endif()
string(SUBSTRING "${text}" 0 ${first} prologue)
string(SUBSTRING "${text}" ${start} -1 body)
string(LENGTH "${marker}${CASE}\n" skip)
string(SUBSTRING "${body}" ${skip} -1 body)
string(FIND "${body}" "${marker}" end)
if(NOT end EQUAL -1)
  string(SUBSTRING "${body}" 0 ${end} body)
endif()
# Every case: failed runs leave nothing behind (their outputs are named bad*).
string(APPEND body [=[

file(GLOB leftovers ${WORK}/bad* ${WORK}/.*tmp*)
if(leftovers)
  message(FATAL_ERROR "failed runs left files behind: ${leftovers}")
endif()
]=])
set(script ${WORK}.cmake)  # beside WORK: the prologue empties WORK
file(WRITE ${script} "${prologue}\n${body}")
include(${script})
message(STATUS "cli case ${CASE} passed")
