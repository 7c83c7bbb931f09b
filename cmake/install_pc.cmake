# install_pc.cmake — run by `cmake --install` (cmake/install.cmake sets the ECOPT_PC_* variables first): writes
# ecopt.pc for the prefix of this installation and installs it into <libdir>/pkgconfig (DESTDIR is honoured).
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${ECOPT_PC_${kind}}")
    set(ECOPT_PC_${kind}_FULL "${ECOPT_PC_${kind}}")
  else()
    set(ECOPT_PC_${kind}_FULL "${CMAKE_INSTALL_PREFIX}/${ECOPT_PC_${kind}}")
  endif()
endforeach()
# The .pc names its directories relative to ${prefix} where they are under it, so pkg-config's --define-prefix works.
set(ECOPT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
if(NOT IS_ABSOLUTE "${ECOPT_PC_LIBDIR}")
  set(ECOPT_PC_LIBDIR "\${exec_prefix}/${ECOPT_PC_LIBDIR}")
endif()
if(NOT IS_ABSOLUTE "${ECOPT_PC_INCLUDEDIR}")
  set(ECOPT_PC_INCLUDEDIR "\${prefix}/${ECOPT_PC_INCLUDEDIR}")
endif()
configure_file("${ECOPT_PC_TEMPLATE}" "${ECOPT_PC_OUT}" @ONLY)
file(INSTALL "${ECOPT_PC_OUT}" DESTINATION "${ECOPT_PC_LIBDIR_FULL}/pkgconfig")
