# Runs the kvbench binary and checks its exit code and that a failure says
# so in exactly one line on stderr, as app/cli.h promises.
#   cmake -DKVBENCH=<path> -DARGS="report;file.json" -DEXPECTED=<code> -P cli_exit_code_test.cmake
execute_process(COMMAND ${KVBENCH} ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECTED)
  message(FATAL_ERROR "kvbench ${ARGS}: exit code ${rc}, expected ${EXPECTED}\n${err}")
endif()
if(EXPECTED EQUAL 2)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines n)
  if(NOT n EQUAL 1 OR NOT out STREQUAL "")
    message(FATAL_ERROR "kvbench ${ARGS}: expected one line on stderr and nothing on stdout, "
                        "got stderr:\n${err}\nstdout:\n${out}")
  endif()
elseif(out STREQUAL "")
  message(FATAL_ERROR "kvbench ${ARGS}: printed nothing")
endif()
