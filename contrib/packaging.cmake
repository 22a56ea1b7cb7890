# Installation layout and the Debian package (included at the end of the
# top-level CMakeLists.txt; the apps' install() rules are in apps/CMakeLists.txt).
#
#   bin/cuzk-daemon, bin/cuzk, bin/cuzk-bench
#   lib/systemd/system/cuzk-daemon.service   ExecStart = <prefix>/bin/cuzk-daemon
#   share/cuzk/cuzk.toml.example             the service configuration (contrib/cuzk.toml)
#   share/doc/cuzk/                          README.md, docs/*.md, the example again
#
# `cmake --install build [--prefix DIR]`; `scripts/package-deb.sh` builds the
# .deb (`cpack -G DEB` in build-pkg/), installed under /usr.

set(CUZK_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
    "where the systemd unit is installed, relative to the prefix (systemd also reads /usr/local/lib/systemd/system)")

# The unit names /usr/bin/cuzk-daemon; at install time (when the prefix is
# final, --prefix included) a copy pointing at the installed binary is made.
set(cuzk_unit_src ${CMAKE_CURRENT_LIST_DIR}/systemd/cuzk-daemon.service)
set(cuzk_unit_out ${CMAKE_BINARY_DIR}/contrib/cuzk-daemon.service)
install(CODE "
  file(READ \"${cuzk_unit_src}\" cuzk_unit)
  string(REPLACE \"ExecStart=/usr/bin/cuzk-daemon \"
                 \"ExecStart=\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/cuzk-daemon \" cuzk_unit \"\${cuzk_unit}\")
  file(WRITE \"${cuzk_unit_out}\" \"\${cuzk_unit}\")")
install(FILES ${cuzk_unit_out} DESTINATION ${CUZK_SYSTEMD_UNIT_DIR})

install(FILES ${CMAKE_CURRENT_LIST_DIR}/cuzk.toml DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk
        RENAME cuzk.toml.example)
file(GLOB cuzk_doc_files ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${cuzk_doc_files} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_CURRENT_LIST_DIR}/cuzk.toml DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME cuzk.toml.example)

# ---- CPack: cpack -G DEB → cuzk_<version>_<arch>.deb -------------------------
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VENDOR "cuzk")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 proving daemon for Filecoin storage providers (Curio's cuzk)")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "cuzk-daemon proves Filecoin PoRep C2, WinningPoSt, WindowPoSt and SnapDeals\n"
  "SNARKs for Curio over gRPC (cuzk.v1.ProvingEngine) on a unix socket or TCP,\n"
  "keeping parameters loaded between proofs. With the cuzk CLI, cuzk-bench\n"
  "(client, benchmarks, TIMELINE analysis) and a hardened systemd unit that\n"
  "runs the daemon as the cuzk system user.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # cuzk_<version>_<arch>.deb
set(CUZK_DEB_MAINTAINER "cuzk developers <cuzk@localhost>" CACHE STRING "Maintainer field of the .deb")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CUZK_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Library dependencies come from dpkg-shlibdeps on the installed binaries
# (libgrpc++, libprotobuf, libtbb, libssl, libpq, libspdlog, libfmt, libtomlplusplus,
# abseil, libstdc++ ...); the maintainer scripts need adduser.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
# libcrypto is opened at run time (src/platform/libcrypto.hpp), where
# dpkg-shlibdeps cannot see it: its package (libssl3 on Debian 12) is named here.
get_filename_component(cuzk_libcrypto_file "${OPENSSL_CRYPTO_LIBRARY}" REALPATH)
execute_process(COMMAND dpkg-query -S "${cuzk_libcrypto_file}" OUTPUT_VARIABLE cuzk_libcrypto_owner
                ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(cuzk_libcrypto_owner MATCHES "^([^:,]+)")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${CMAKE_MATCH_1}")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "systemd")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/postinst ${CMAKE_CURRENT_LIST_DIR}/debian/prerm
    ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
