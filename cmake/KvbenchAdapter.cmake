# kvbench_adapter(NAME <name> SOURCES <files...> [LIBRARIES <targets...>]
#                 [REQUIRES <found-variable...>])
#
# Adds one adapter to the kvbench_adapters object library. When any REQUIRES
# variable is false (the engine's library was not found) the adapter is left
# out with a configure message instead of failing the build.
set_property(GLOBAL PROPERTY KVBENCH_ADAPTERS "")

function(kvbench_adapter)
  cmake_parse_arguments(A "" "NAME" "SOURCES;LIBRARIES;REQUIRES" ${ARGN})
  foreach(req IN LISTS A_REQUIRES)
    if(NOT ${req})
      message(STATUS "kvbench: adapter '${A_NAME}' left out: ${req} not found")
      return()
    endif()
  endforeach()
  foreach(src IN LISTS A_SOURCES)
    target_sources(kvbench_adapters PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/${src})
  endforeach()
  if(A_LIBRARIES)
    target_link_libraries(kvbench_adapters PUBLIC ${A_LIBRARIES})
  endif()
  set_property(GLOBAL APPEND PROPERTY KVBENCH_ADAPTERS ${A_NAME})
  message(STATUS "kvbench: adapter '${A_NAME}' included")
endfunction()

# kvbench_test(NAME <name> SOURCES <files...> LIBRARIES <targets...>)
#
# One GoogleTest executable whose cases ctest discovers one by one, so ctest's
# summary counts every case.
function(kvbench_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT KVBENCH_BUILD_TESTS)
    return()
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBRARIES} GTest::gtest GTest::gtest_main)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  # Where the tests find the repository's workloads and test data.
  target_compile_definitions(${T_NAME} PRIVATE KVBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  gtest_discover_tests(${T_NAME} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endfunction()
