# The man page kvbench(1) and the bash completion, written at build time from
# the built kvbench's own command line (`kvbench help --json`: commands,
# options, defaults, choices, exit codes, engines) by scripts/kvbench_cli_docs.py,
# so they say what this binary does. Installed with the rest (cmake --install,
# and so the Debian package: cmake/KvbenchPackage.cmake).
include(GNUInstallDirs)  # KVBENCH_CMAKE_DIR comes from cmake/KvbenchInstall.cmake
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "kvbench: no python3, so no man page or bash completion (install python3)")
  return()
endif()

set(KVBENCH_CLI_DOCS_DIR ${CMAKE_BINARY_DIR}/cli-docs)
set(_kvbench_cli_docs ${PROJECT_SOURCE_DIR}/scripts/kvbench_cli_docs.py)
add_custom_command(
  OUTPUT ${KVBENCH_CLI_DOCS_DIR}/kvbench.1.gz ${KVBENCH_CLI_DOCS_DIR}/kvbench.bash
  COMMAND ${CMAKE_COMMAND} -E make_directory ${KVBENCH_CLI_DOCS_DIR}
  COMMAND ${Python3_EXECUTABLE} ${_kvbench_cli_docs} --kvbench $<TARGET_FILE:kvbench>
          --man ${KVBENCH_CLI_DOCS_DIR}/kvbench.1.gz --bash ${KVBENCH_CLI_DOCS_DIR}/kvbench.bash
          --include-dir ${CMAKE_INSTALL_INCLUDEDIR} --cmake-dir ${KVBENCH_CMAKE_DIR}
  DEPENDS kvbench ${_kvbench_cli_docs}
  COMMENT "Writing the man page kvbench(1) and the bash completion from `kvbench help --json`"
  VERBATIM)
add_custom_target(kvbench_cli_docs ALL
                  DEPENDS ${KVBENCH_CLI_DOCS_DIR}/kvbench.1.gz ${KVBENCH_CLI_DOCS_DIR}/kvbench.bash)

# OPTIONAL: a build of the kvbench target alone (no `all`) still installs.
# The package needs both: ctest debian_package fails without them.
install(FILES ${KVBENCH_CLI_DOCS_DIR}/kvbench.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        OPTIONAL)
install(FILES ${KVBENCH_CLI_DOCS_DIR}/kvbench.bash
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions
        RENAME kvbench OPTIONAL)
