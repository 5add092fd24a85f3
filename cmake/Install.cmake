# cmake --install: the programs, the presets, the Python module, the desktop entry with its icon and the MIME type
# of presets, and man pages generated from --help (README.md "Install"; tests/install/check_install.sh checks it).
#
#   bin/                                   lodestone-run, lodestone-capture, lodestone-sw-curves, lodestone (app)
#   share/lodestone/presets/               the presets, found by the installed programs from their own location
#                                          (engine/scene/preset_locations.hpp), never from the source tree
#   share/lodestone/thumbnails/            the scene gallery's pictures of them (the app, ui/gallery.hpp)
#   lib/python3/dist-packages/             the module `lodestone` (Debian's path for python3 modules; under /usr
#                                          or /usr/local it is on python3's path, elsewhere set PYTHONPATH)
#   share/applications/lodestone.desktop   the app's menu entry
#   share/icons/hicolor/scalable/apps/     lodestone.svg
#   share/mime/packages/lodestone.xml      application/x-lodestone-preset (assets/desktop/lodestone-preset.xml)
#   share/man/man1/                        PROGRAM.1 from help2man, written at install time when help2man is found
include(GNUInstallDirs)

set(LODESTONE_PYTHON_INSTALL_DIR "lib/python3/dist-packages"
    CACHE STRING "Where cmake --install puts the Python module, relative to the prefix")

set(_programs lodestone-run lodestone-capture lodestone-sw-curves)
if(NOT LODESTONE_ENGINE_ONLY)
  list(APPEND _programs lodestone)
endif()
install(TARGETS ${_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The licence and how to cite it travel with the programs (share/doc/lodestone).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CITATION.cff ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/lodestone)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/lodestone/presets
        FILES_MATCHING PATTERN "*.json")
if(LODESTONE_BUILD_PYTHON)
  install(TARGETS lodestone_python LIBRARY DESTINATION ${LODESTONE_PYTHON_INSTALL_DIR})
  # Its type stubs beside it (PEP 561: a module's stubs next to it are found by mypy and pyright).
  install(FILES ${PROJECT_SOURCE_DIR}/python/lodestone.pyi DESTINATION ${LODESTONE_PYTHON_INSTALL_DIR})
endif()
if(NOT LODESTONE_ENGINE_ONLY)
  # The scene gallery's thumbnails (scripts/make_thumbnails.py), found beside the presets (ui/ui_state.cpp).
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/thumbnails/ DESTINATION ${CMAKE_INSTALL_DATADIR}/lodestone/thumbnails
          FILES_MATCHING PATTERN "*.png")
  install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/lodestone.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/lodestone.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/lodestone-preset.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME lodestone.xml)
endif()

# Man pages: help2man runs each built program's --help and --version (Debian's help2man, scripts/install-deps.sh).
# At install time, so that a build of a few targets needs no man pages; without help2man they are left out, said so.
find_program(HELP2MAN_EXECUTABLE help2man)
set(_man_lodestone-run "run a Lodestone preset headless")
set(_man_lodestone-capture "two-body capture experiment of magnetic particles")
set(_man_lodestone-sw-curves "Stoner-Wohlfarth torque curves from Lodestone's solver")
set(_man_lodestone "interactive simulator of magnetic granular matter")
foreach(program ${_programs})
  install(CODE "
    set(_man_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1\")
    if(\"${HELP2MAN_EXECUTABLE}\" STREQUAL \"\" OR \"${HELP2MAN_EXECUTABLE}\" MATCHES \"NOTFOUND\")
      message(STATUS \"help2man not found: no man page for ${program}\")
    else()
      file(MAKE_DIRECTORY \"\${_man_dir}\")
      message(STATUS \"Installing: \${_man_dir}/${program}.1 (help2man)\")
      execute_process(COMMAND \"${HELP2MAN_EXECUTABLE}\" --no-info --no-discard-stderr
                              \"--name=${_man_${program}}\" \"--output=\${_man_dir}/${program}.1\"
                              \"$<TARGET_FILE:${program}>\"
                      RESULT_VARIABLE _result)
      if(NOT _result EQUAL 0)
        message(FATAL_ERROR \"help2man failed for ${program}\")
      endif()
    endif()")
endforeach()
