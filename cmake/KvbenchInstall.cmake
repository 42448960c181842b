# `cmake --install build --prefix P`: the kvbench and kvbench-powerloss
# binaries, the plugin SDK's headers and a CMake package, so a plugin project
# does find_package(kvbench) and links kvbench::plugin
# (examples/plugin-c-memory, examples/plugin-qdbm). `cpack -G DEB` packages
# the same files with a man page and bash completion (cmake/KvbenchPackage.cmake).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS kvbench kvbench-powerloss EXPORT kvbenchTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kvbench_plugin_sdk EXPORT kvbenchTargets)
install(FILES ${PROJECT_SOURCE_DIR}/include/kvbench/plugin.h
              ${PROJECT_SOURCE_DIR}/include/kvbench/plugin_cpp.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kvbench)

set(KVBENCH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kvbench)
install(EXPORT kvbenchTargets NAMESPACE kvbench:: DESTINATION ${KVBENCH_CMAKE_DIR})
file(STRINGS ${PROJECT_SOURCE_DIR}/include/kvbench/plugin.h _abi_line
     REGEX "^#define KVBENCH_PLUGIN_ABI_MAJOR ")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" KVBENCH_PLUGIN_ABI_MAJOR "${_abi_line}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/kvbenchConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/kvbenchConfig.cmake
                              INSTALL_DESTINATION ${KVBENCH_CMAKE_DIR})
# A plugin built for SDK 0.1 loads into any kvbench of the same plugin ABI
# major version; the package version is kvbench's.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/kvbenchConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/kvbenchConfig.cmake
              ${CMAKE_BINARY_DIR}/kvbenchConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/KvbenchPlugin.cmake
        DESTINATION ${KVBENCH_CMAKE_DIR})
