# kvbench_add_plugin(<name> SOURCES <files...> [LIBRARIES <targets...>])
#
# Builds a kvbench plugin (include/kvbench/plugin.h) as a MODULE library
# named libkvbench-<name>.so: the file name KVBENCH_PLUGIN_PATH discovery
# looks for, and the name `--plugin <name>` resolves to. Only the entry point
# is exported (hidden visibility), so two plugins never clash over symbols.
# The target is kvbench-<name>. Installed with the SDK (find_package(kvbench))
# and used in the tree alike.
function(kvbench_add_plugin name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT P_SOURCES)
    message(FATAL_ERROR "kvbench_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(kvbench-${name} MODULE ${P_SOURCES})
  target_link_libraries(kvbench-${name} PRIVATE kvbench::plugin ${P_LIBRARIES})
  set_target_properties(kvbench-${name} PROPERTIES
    PREFIX "lib"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
