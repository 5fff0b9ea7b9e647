# cmake --install and CPack (a Debian package). Paths are Debian's: the programs in bin/, the
# desktop entry and the icon under share/, the Python package in lib/python3/dist-packages/gvflab
# (python/CMakeLists.txt: on Debian's sys.path for /usr).
include(GNUInstallDirs)

if(GVFLAB_BUILD_APP)
  install(FILES packaging/gvflab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES packaging/gvflab.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
# The Python package's install rules are in python/CMakeLists.txt.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gvflab)
set(CPACK_PACKAGE_VENDOR "gvflab")
set(CPACK_PACKAGE_CONTACT "gvflab developers <gvflab@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Real-time Gradient Vector Flow fields and active contours on OpenCL")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "An OpenCL engine for Gradient Vector Flow (Euler and multigrid) and GVF, traditional and\n"
    "region snakes, with a Qt 6 viewer that shows every iteration live, a headless CLI,\n"
    "gvflab-bench and, when built, a Python module.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gvflab_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Library dependencies come from dpkg-shlibdeps as Debian package names; what is loaded at run
# time rather than linked is named here: an OpenCL driver (PoCL runs on any CPU), Qt's
# platform plugins, the font the panels' Greek letters need, NumPy for the Python module.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(gvflab_deb_depends "pocl-opencl-icd | opencl-icd")
if(GVFLAB_BUILD_APP)
  string(APPEND gvflab_deb_depends ", qt6-qpa-plugins, fonts-dejavu-core")
endif()
if(TARGET gvflab_python)
  string(APPEND gvflab_deb_depends ", python3, python3-numpy")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/prerm)
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${gvflab_deb_depends}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-image-formats-plugins")
include(CPack)
