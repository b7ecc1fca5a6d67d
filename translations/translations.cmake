# Translations of the whole product (src/ui, src/engine, src/mcp, src/cli) into one .ts per
# language. Included at the end of src/ui/CMakeLists.txt: the .qm files are compiled by
# lrelease at build time and embedded into switchboard_ui as Qt resources under /i18n
# (":/i18n/switchboard_zh_CN.qm", loaded by src/ui/main.cpp).
#
#   cmake --build build --target update_translations   # lupdate: refresh the .ts files
#   cmake --build build --target release_translations  # lrelease only
#
# The .ts files are edited with Qt Linguist (or by hand) and committed; the .qm files are
# build products and never committed.
find_package(Qt6 6.4 REQUIRED COMPONENTS LinguistTools)

set(SWITCHBOARD_TS_FILES
    ${PROJECT_SOURCE_DIR}/translations/switchboard_zh_CN.ts)

# lupdate scans every layer, not only the sources of switchboard_ui: engine and MCP messages
# (tool errors, server states) reach the window, and the CLI shares the same catalogue.
# Headers are listed too so lupdate sees Q_OBJECT / Q_DECLARE_TR_FUNCTIONS contexts.
set(SWITCHBOARD_TR_SOURCES)
foreach(layer ui engine mcp cli)
    file(GLOB_RECURSE layer_sources CONFIGURE_DEPENDS
        ${PROJECT_SOURCE_DIR}/src/${layer}/*.cpp
        ${PROJECT_SOURCE_DIR}/src/${layer}/*.h)
    list(APPEND SWITCHBOARD_TR_SOURCES ${layer_sources})
endforeach()
list(SORT SWITCHBOARD_TR_SOURCES)

qt_add_translations(switchboard_ui
    TS_FILES ${SWITCHBOARD_TS_FILES}
    SOURCES ${SWITCHBOARD_TR_SOURCES}
    INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/src
    RESOURCE_PREFIX /i18n
    LUPDATE_OPTIONS -no-obsolete -locations relative)

# switchboard_ui is a static library: qt_add_translations puts the resource into an object
# library (switchboard_ui_resources_1) whose object file is propagated to everything that
# links switchboard_ui (the switchboard executable, the UI tests), so its static initializer
# registers ":/i18n" without Q_INIT_RESOURCE. If switchboard_ui is ever installed/exported,
# pass OUTPUT_TARGETS and install those targets with it.

# English needs a catalogue only for plurals: the source says "%n tool(s)" once, English
# wants "1 tool" / "2 tools". switchboard_en.ts holds just the messages with %n (lupdate
# -pluralonly); main.cpp loads it whenever the interface is not Chinese. Its lupdate and
# lrelease hang off the `switchboard` target (switchboard_ui's names are taken above); the
# .qm is embedded into switchboard_ui like the Chinese one, as ":/i18n/switchboard_en.qm".
set(SWITCHBOARD_TS_EN ${PROJECT_SOURCE_DIR}/translations/switchboard_en.ts)
qt_add_lupdate(switchboard
    TS_FILES ${SWITCHBOARD_TS_EN}
    SOURCES ${SWITCHBOARD_TR_SOURCES}
    INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/src
    OPTIONS -pluralonly -no-obsolete -locations relative)
qt_add_lrelease(switchboard
    TS_FILES ${SWITCHBOARD_TS_EN}
    QM_FILES_OUTPUT_VARIABLE SWITCHBOARD_QM_EN)
qt_add_resources(switchboard_ui "i18n_en"
    PREFIX /i18n
    BASE ${CMAKE_CURRENT_BINARY_DIR}
    FILES ${SWITCHBOARD_QM_EN})
