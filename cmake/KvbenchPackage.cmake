# `cpack -G DEB` (run in the build folder after building `all`: cpack packages
# what the build made and builds nothing itself): a Debian package of
# what `cmake --install` installs (cmake/KvbenchInstall.cmake: kvbench,
# kvbench-powerloss and the plugin SDK) plus the man page kvbench(1) and the
# bash completion (cmake/KvbenchCliDocs.cmake). Checked by ctest
# debian_package (tests/packaging_test.sh).
include(${CMAKE_CURRENT_LIST_DIR}/KvbenchCliDocs.cmake)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kvbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "kvbench")
# The Maintainer field names whoever builds and answers for the package, so
# it is theirs to give: -DKVBENCH_PACKAGE_MAINTAINER="Name <email>" when
# configuring. Unset, it comes from the variables Debian's own tools (dch,
# debmake) read, DEBEMAIL ("email" or "Name <email>") with DEBFULLNAME, when
# DEBEMAIL is set at the first configure; else from a name that claims no
# real address. The value is kept in the cache and printed below.
set(_kvbench_maintainer "kvbench developers <kvbench@localhost>")
set(_kvbench_maintainer_from "the default")
if(NOT "$ENV{DEBEMAIL}" STREQUAL "")
  set(_kvbench_maintainer_from "DEBEMAIL")
  if("$ENV{DEBEMAIL}" MATCHES "<")
    set(_kvbench_maintainer "$ENV{DEBEMAIL}")
  elseif(NOT "$ENV{DEBFULLNAME}" STREQUAL "")
    set(_kvbench_maintainer "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
    set(_kvbench_maintainer_from "DEBFULLNAME and DEBEMAIL")
  else()
    set(_kvbench_maintainer "kvbench packager <$ENV{DEBEMAIL}>")
  endif()
endif()
set(KVBENCH_PACKAGE_MAINTAINER "${_kvbench_maintainer}"
    CACHE STRING "The Debian package's Maintainer field: \"Name <email>\"")
# Build folders configured before this was configurable hold the old
# placeholder; it is replaced like an unset value.
if(KVBENCH_PACKAGE_MAINTAINER STREQUAL "kvbench maintainers <maintainers@kvbench.invalid>")
  set_property(CACHE KVBENCH_PACKAGE_MAINTAINER PROPERTY VALUE "${_kvbench_maintainer}")
elseif(NOT KVBENCH_PACKAGE_MAINTAINER STREQUAL _kvbench_maintainer)
  set(_kvbench_maintainer_from "KVBENCH_PACKAGE_MAINTAINER")
endif()
# Debian policy 5.6.2: a name, then an address in angle brackets.
if(NOT KVBENCH_PACKAGE_MAINTAINER MATCHES "^[^<>]*[^<> ][^<>]* <[^<> ]+@[^<> ]+>$")
  message(FATAL_ERROR "kvbench: KVBENCH_PACKAGE_MAINTAINER (from ${_kvbench_maintainer_from}): "
                      "'${KVBENCH_PACKAGE_MAINTAINER}' is not \"Name <email>\"")
endif()
message(STATUS "kvbench: Debian package Maintainer: ${KVBENCH_PACKAGE_MAINTAINER} "
               "(from ${_kvbench_maintainer_from}; -DKVBENCH_PACKAGE_MAINTAINER=\"Name <email>\" sets it)")
set(CPACK_PACKAGE_CONTACT "${KVBENCH_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${KVBENCH_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "comparative benchmarks of embedded key-value and record databases")
# The long description; CPack puts the summary above it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "kvbench runs one workload file against SQLite, Berkeley DB, Tokyo Cabinet,
LMDB, RocksDB, LevelDB, WiredTiger, Kyoto Cabinet, Tkrzw, GDBM, Redis and its
own engines through one adapter interface, measures throughput, latency
histograms, CPU, memory, I/O, file sizes and page-cache residency, and writes
reports in Markdown, self-contained HTML, JSON and CSV. It also measures
durability under power loss (kvbench crash).
.
The package includes the plugin SDK: the C plugin ABI header, its C++ helper
and a CMake package (find_package(kvbench), kvbench::plugin,
kvbench_add_plugin) for building an engine's adapter out of tree.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # kvbench_VERSION_ARCH.deb
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)

# Depends: the engines' and libraries' runtime packages, as dpkg-shlibdeps
# (dpkg-dev) reads them from the binaries' ELF headers. Without it the field
# would have to be kept by hand for every optional engine, so it is required.
find_program(KVBENCH_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(KVBENCH_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "kvbench: no dpkg-shlibdeps (dpkg-dev): `cpack -G DEB` would have no Depends")
endif()
# kvbench crash mounts its power-loss layer with fusermount3; the redis engine
# starts redis-server; a plugin is built with CMake and a compiler.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fuse3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-server, cmake, g++")

include(CPack)
