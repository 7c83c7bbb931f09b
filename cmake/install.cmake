# install.cmake — what `cmake --install B [--prefix P]` (and `make install PREFIX=P`) puts under the prefix, in the
# GNUInstallDirs layout:
#   include/ecopt/*.h                       the public headers (and nothing of src/)
#   lib/libecopt.a, lib/libecopt.so*        the libraries (libecopt.so.<ABI> -> libecopt.so.<version>)
#   lib/pkgconfig/ecopt.pc                  pkg-config --cflags --libs ecopt (--static adds libcrypto, pthreads)
#   lib/cmake/ecopt/                        find_package(ecopt): imported targets ecopt::ecopt, ecopt::ecopt_static,
#                                           ecopt::ecopt_shared (cmake/ecoptConfig.cmake.in)
#   bin/ecopt                               the command, when ECOPT_BUILD_TOOLS is on
#   lib/ossl-modules/ecopt.so               the OpenSSL 3 provider module, when built (docs/provider.md)
#   share/doc/ecopt/LICENSE
include(CMakePackageConfigHelpers)
set(ECOPT_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ecopt)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ecopt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(TARGETS ${ECOPT_LIBRARIES} EXPORT ecoptTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT ecoptTargets NAMESPACE ecopt:: DESTINATION ${ECOPT_CMAKE_INSTALL_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ecoptConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ecoptConfig.cmake INSTALL_DESTINATION ${ECOPT_CMAKE_INSTALL_DIR})
# 0.x: a new minor version may change the API, so only the same major.minor satisfies a request.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ecoptConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ecoptConfig.cmake ${PROJECT_BINARY_DIR}/ecoptConfigVersion.cmake
        DESTINATION ${ECOPT_CMAKE_INSTALL_DIR})

# ecopt.pc is written at install time: `cmake --install --prefix P` chooses the prefix after configuring, and the
# file names it.
install(CODE "set(ECOPT_PC_TEMPLATE \"${PROJECT_SOURCE_DIR}/cmake/ecopt.pc.in\")
set(ECOPT_PC_OUT \"${PROJECT_BINARY_DIR}/ecopt.pc\")
set(ECOPT_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
set(ECOPT_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
set(ECOPT_PC_VERSION \"${PROJECT_VERSION}\")
set(ECOPT_PC_DESCRIPTION \"${PROJECT_DESCRIPTION}\")
set(ECOPT_PC_LICENSE \"${ECOPT_LICENSE}\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/install_pc.cmake)

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(TARGET ecopt_cli)
  install(TARGETS ecopt_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET ecopt_provider)
  install(TARGETS ecopt_provider LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/ossl-modules)
endif()

# `cmake --build B --target ecopt_installed`: what the rules above install, without the tests (make install uses it).
add_custom_target(ecopt_installed)
add_dependencies(ecopt_installed ${ECOPT_LIBRARIES})
if(TARGET ecopt_cli)
  add_dependencies(ecopt_installed ecopt_cli)
endif()
if(TARGET ecopt_provider)
  add_dependencies(ecopt_installed ecopt_provider)
endif()
