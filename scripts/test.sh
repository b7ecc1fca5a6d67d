#!/usr/bin/env bash
# README command 2 (and what .ci/run runs): every test, stage by stage, stopping at the
# first failure.
#   1. bootstrap      scripts/bootstrap.sh (apt packages, pinned npm test peers)
#      checks         scripts/check-format.sh (clang-format of src/ and tests/) and
#                     scripts/check-includes.sh (layers and folders include downwards only)
#   2. build          build/       Ninja, RelWithDebInfo
#   3. test           ctest in build/
#   4. asan build     build-asan/  -DSWITCHBOARD_SANITIZE=ON (ASan + UBSan), Debug, no bench/
#   5. asan test      ctest in build-asan/ with leak detection, aborting on any report
#   6. fuzz build     build-fuzz/  clang, -DSWITCHBOARD_FUZZ=ON -DSWITCHBOARD_TESTS=OFF
#   7. fuzz           every fuzz_* executable for FUZZ_SECONDS over its seed corpus
#                     tests/fuzz/corpus/<name without fuzz_>/ (and <name>.dict) if present
#   8. package        cpack -G DEB in build/, then checks on the .deb (contents, Depends,
#                     the extracted binary runs on its own)
#
# Knobs (environment):
#   SKIP_ASAN=1        skip stages 4-5      SKIP_FUZZ=1   skip stages 6-7   (local only;
#                                                          CI never sets them)
#   FUZZ_SECONDS=20    time per fuzzer      TEST_TIMEOUT=300  per-test timeout, seconds
#                                           (the ASan run gets twice as much)
#   ASAN_BUILD_TYPE=Debug
#   SWITCHBOARD_REQUIRE_SANDBOX=1   sandbox tests fail instead of skipping where bubblewrap
#                                   cannot make its namespaces (.ci/run sets it)
#   PRUNE_ASAN=1       remove build-asan/ once its tests passed (.ci/run sets it: the disk of
#                      a CI machine may not hold all three builds)
#
# Every build here has line tables only for debug info (SWITCHBOARD_DEBUG_LINES_ONLY): file
# and line in every trace, at a fifth of the disk. Each banner says how much disk is free.
# -E: the ERR trap (banner of the failing stage + summary) also fires inside functions.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

SKIP_ASAN=${SKIP_ASAN:-0}
SKIP_FUZZ=${SKIP_FUZZ:-0}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
ASAN_BUILD_TYPE=${ASAN_BUILD_TYPE:-Debug}
JOBS=2

SCRIPT_START=$SECONDS
STAGE=""
STAGE_START=$SECONDS
SUMMARY=()
TOTAL_PASSED=0
TOTAL_FAILED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-test.XXXXXX")
XVFB_PID=""

cleanup() {
    if [ -n "$XVFB_PID" ]; then
        kill "$XVFB_PID" 2>/dev/null || true
        wait "$XVFB_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

on_error() {
    local rc=$?
    printf '\n==== FAILED: stage "%s" (exit %s) after %ss in total ====\n' "$STAGE" "$rc" "$((SECONDS - SCRIPT_START))" >&2
    print_summary >&2
    exit "$rc"
}
trap on_error ERR

banner() {
    STAGE=$1
    STAGE_START=$SECONDS
    printf '\n==== [%s] %s (%s free on disk) ====\n' "$(date +%H:%M:%S)" "$1" \
        "$(df -h --output=avail . | tail -n 1 | tr -d ' ')"
}
stage_done() {  # stage_done "what happened"
    SUMMARY+=("$(printf '%-12s %-6s %4ss  %s' "$STAGE" ok "$((SECONDS - STAGE_START))" "${1:-}")")
}
skipped() {
    SUMMARY+=("$(printf '%-12s %-6s %4s   %s' "$1" skipped "-" "${2:-}")")
}
print_summary() {
    printf '\n==== summary ====\n'
    local line
    for line in "${SUMMARY[@]}"; do printf '  %s\n' "$line"; done
}
fail() {
    printf 'test.sh: %s\n' "$*" >&2
    return 1
}

cmake_configure() {  # cmake_configure DIR [cmake args...]
    local dir=$1
    shift
    # Warnings are errors here and in CI (a plain `cmake` leaves them warnings).
    local args=(-S . -B "$dir" -DSWITCHBOARD_WERROR="${SWITCHBOARD_WERROR:-ON}"
                -DSWITCHBOARD_DEBUG_LINES_ONLY=ON "$@")
    # Choose the generator only on first configure (an existing cache keeps its own).
    [ -f "$dir/CMakeCache.txt" ] || args+=(-G Ninja)
    if command -v ccache >/dev/null 2>&1; then
        args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake "${args[@]}"
}

# run_ctest DIR TIMEOUT: ctest with its output left as it is (its closing line included);
# adds the counts to the totals.
run_ctest() {
    local dir=$1 timeout=$2 log
    log="$TMP/ctest-$(basename "$dir").log"
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$JOBS" --timeout "$timeout" \
        2>&1 | tee "$log"
    # "100% tests passed, 0 tests failed out of 12"
    local line failed total
    line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
    failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
    TOTAL_PASSED=$((TOTAL_PASSED + total - failed))
    TOTAL_FAILED=$((TOTAL_FAILED + failed))
    CTEST_RESULT="$((total - failed)) passed, $failed failed"
    # Sandbox tests skip where bubblewrap cannot make its namespaces (tests/sandboxtest.h);
    # ctest's log of every test's output says so once, here.
    local why
    why=$(grep -ho 'the sandbox cannot run on this machine: .*' "$dir/Testing/Temporary/LastTest.log" 2>/dev/null | head -n 1 || true)
    if [ -n "$why" ]; then
        echo "sandbox tests skipped: $why (SWITCHBOARD_REQUIRE_SANDBOX=1 makes that a failure)"
        CTEST_RESULT+=", sandbox tests skipped"
    fi
}

# A virtual X server for the GUI tests that want a real display (others use offscreen).
start_xvfb() {
    if [ -n "${DISPLAY:-}" ] || ! command -v Xvfb >/dev/null 2>&1; then
        return 0
    fi
    Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$TMP/display" >"$TMP/xvfb.log" 2>&1 &
    XVFB_PID=$!
    local tries=50
    while [ ! -s "$TMP/display" ] && [ "$tries" -gt 0 ]; do
        sleep 0.1
        tries=$((tries - 1))
    done
    if [ ! -s "$TMP/display" ]; then
        cat "$TMP/xvfb.log" >&2
        fail "Xvfb did not start"
    fi
    DISPLAY=":$(tr -d '[:space:]' <"$TMP/display")"
    export DISPLAY
    echo "Xvfb running on $DISPLAY (pid $XVFB_PID)"
}

# ------------------------------------------------------------------------------------------
banner "bootstrap"
bash scripts/bootstrap.sh
stage_done "apt packages and npm test peers present"

banner "checks"
bash scripts/check-format.sh
bash scripts/check-includes.sh
stage_done "clang-format clean; includes point down the layers and folders"

banner "build"
cmake_configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$JOBS"
stage_done "build/ (RelWithDebInfo)"

banner "test"
start_xvfb
run_ctest build "$TEST_TIMEOUT"
stage_done "ctest build/: $CTEST_RESULT"

# ------------------------------------------------------------------------------------------
if [ "$SKIP_ASAN" = 1 ]; then
    skipped "asan" "SKIP_ASAN=1"
else
    banner "asan build"
    # The benchmarks are measured in build/ (bench/run.sh), never under the sanitizers.
    # Without the MCP Apps view plugin: Chromium is not ours to sanitize, and tst_appviews
    # checks here what a build without Qt WebEngine shows (the card says why, the text stays).
    cmake_configure build-asan -DCMAKE_BUILD_TYPE="$ASAN_BUILD_TYPE" -DSWITCHBOARD_SANITIZE=ON \
        -DSWITCHBOARD_BENCH=OFF -DSWITCHBOARD_APPVIEW=OFF
    cmake --build build-asan -j "$JOBS"
    stage_done "build-asan/ ($ASAN_BUILD_TYPE, ASan+UBSan)"

    banner "asan test"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    # Leak suppressions for third-party code (Qt, fontconfig, ...) if the tests ship any.
    if [ -f tests/lsan.supp ]; then
        export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0"
    fi
    run_ctest build-asan "$((TEST_TIMEOUT * 2))"
    unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
    stage_done "ctest build-asan/: $CTEST_RESULT"
    if [ "${PRUNE_ASAN:-0}" = 1 ]; then
        rm -rf build-asan
    fi
fi

# ------------------------------------------------------------------------------------------
if [ "$SKIP_FUZZ" = 1 ]; then
    skipped "fuzz" "SKIP_FUZZ=1"
else
    banner "fuzz build"
    export CC=clang CXX=clang++
    cmake_configure build-fuzz -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWITCHBOARD_FUZZ=ON -DSWITCHBOARD_TESTS=OFF
    # The fuzz targets and what they link, not the window or the CLI (build/ and build-asan/
    # have those).
    cmake --build build-fuzz -j "$JOBS" --target switchboard_fuzzers
    stage_done "build-fuzz/ (clang, libFuzzer)"

    banner "fuzz"
    echo "${FUZZ_SECONDS}s per fuzzer (FUZZ_SECONDS)"
    mapfile -t fuzzers < <(find build-fuzz -type f -name 'fuzz_*' -perm -u+x -not -path '*/CMakeFiles/*' | sort)
    [ "${#fuzzers[@]}" -gt 0 ] || fail "SWITCHBOARD_FUZZ=ON built no fuzz_* executable in build-fuzz/"
    mkdir -p build-fuzz/artifacts
    for fuzzer in "${fuzzers[@]}"; do
        name=$(basename "$fuzzer")
        seeds="tests/fuzz/corpus/${name#fuzz_}"
        # New inputs go to a scratch corpus (listed first); the seed corpus in the repo is
        # only read. Crashes are written to build-fuzz/artifacts/.
        work="$TMP/corpus-$name"
        mkdir -p "$work"
        corpus=("$work")
        seed_note=", no seed corpus"
        if [ -d "$seeds" ]; then
            corpus+=("$seeds")
            seed_note=", seeds from $seeds"
        fi
        # A libFuzzer dictionary tests/fuzz/<name without fuzz_>.dict is used when present.
        dict_opt=()
        if [ -f "tests/fuzz/${name#fuzz_}.dict" ]; then
            dict_opt=("-dict=tests/fuzz/${name#fuzz_}.dict")
            seed_note+=", dictionary"
        fi
        log="build-fuzz/artifacts/$name.log"
        printf '%-28s ' "$name"
        if "$fuzzer" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
                -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$name-" \
                "${dict_opt[@]}" "${corpus[@]}" >"$log" 2>&1; then
            runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
            echo "ok (${runs:-?} runs$seed_note)"
        else
            echo "FAILED"
            tail -n 60 "$log" >&2
            fail "$name found a problem; the input is in build-fuzz/artifacts/ (full log: $log)"
        fi
    done
    unset CC CXX
    stage_done "${#fuzzers[@]} fuzzers x ${FUZZ_SECONDS}s, no crash"
fi

# ------------------------------------------------------------------------------------------
banner "package"
rm -f build/switchboard_*.deb
(cd build && cpack -G DEB)
deb=$(find build -maxdepth 1 -name 'switchboard_*.deb' | head -n 1)
[ -n "$deb" ] || fail "cpack made no build/switchboard_*.deb"
echo "checking $deb"
dpkg-deb --info "$deb"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = switchboard ] || fail "Package: is '$(field Package)', expected switchboard"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] \
    || fail "Architecture: is '$(field Architecture)', expected $(dpkg --print-architecture)"

# Contents: the CLI at usr/bin/switchboard-cli.
dpkg-deb --contents "$deb" >"$TMP/contents"
for f in usr/bin/switchboard-cli usr/bin/switchboard usr/lib/switchboard/switchboard_appview.so \
         usr/share/applications/switchboard.desktop \
         usr/share/metainfo/io.github.switchboard.Switchboard.metainfo.xml \
         usr/share/mime/packages/switchboard-mcpb.xml \
         usr/share/icons/hicolor/scalable/apps/switchboard.svg; do
    grep -Eq "[[:space:]]\./$f\$" "$TMP/contents" \
        || { cat "$TMP/contents" >&2; fail ".deb has no $f"; }
done

# Depends (from dpkg-shlibdeps): present, names the C and Qt runtime libraries, no -dev
# packages, and every package it names is a real, installed Debian package.
depends=$(field Depends)
echo "Depends: $depends"
[ -n "$depends" ] || fail "Depends: is empty (is dpkg-shlibdeps from dpkg-dev installed?)"
mapfile -t dep_names < <(tr ',|' '\n' <<<"$depends" | sed -E 's/\(.*\)//; s/:any//; s/[[:space:]]//g' | grep -v '^$' | sort -u)
# libqt6webenginewidgets6: the MCP Apps view plugin (usr/lib/switchboard), seen by
# dpkg-shlibdeps like the programs.
for required in libc6 libstdc++6 libqt6core6 bubblewrap libqt6webenginewidgets6; do
    [[ " ${dep_names[*]} " == *" $required "* ]] || fail "Depends: lacks $required"
done
for dep in "${dep_names[@]}"; do
    case "$dep" in *-dev) fail "Depends: names a development package: $dep" ;; esac
    [ "$(dpkg-query -W -f='${Status}' "$dep" 2>/dev/null || true)" = "install ok installed" ] \
        || fail "Depends: names $dep, which is not an installed package here"
done
# Recommends: Qt's own strings in the user's language (standard buttons in the Chinese UI).
recommends=$(field Recommends)
echo "Recommends: $recommends"
[[ "$recommends" == *qt6-translations-l10n* ]] || fail "Recommends: lacks qt6-translations-l10n"

# The packaged binary runs on its own, outside the build tree.
dpkg-deb -x "$deb" "$TMP/root"
cli="$TMP/root/usr/bin/switchboard-cli"
[ -x "$cli" ] || fail "extracted usr/bin/switchboard-cli is not executable"
rpath=$(readelf -d "$cli" | grep -E 'R(UN)?PATH' || true)
case "$rpath" in
    *"$ROOT"*) fail "the packaged switchboard-cli has an RPATH into the build tree: $rpath" ;;
esac
set +e
QT_QPA_PLATFORM=offscreen "$cli" --help >"$TMP/help.out" 2>&1
help_rc=$?
set -e
head -n 40 "$TMP/help.out" | sed 's/^/    /'
# switchboard-cli --help prints its usage and exits 0 (exit 1 is for a wrong command line).
# A crash or a missing shared library (127) shows up here.
[ "$help_rc" = 0 ] || fail "packaged switchboard-cli --help exited $help_rc (expected 0)"
grep -qi 'usage' "$TMP/help.out" || fail "packaged switchboard-cli --help printed no usage text"
stage_done "$(basename "$deb"): usr/bin/switchboard-cli, Depends ok, --help exit $help_rc"

# ------------------------------------------------------------------------------------------
print_summary
printf '  %-12s %4ss\n' "total time" "$((SECONDS - SCRIPT_START))"
echo
echo "ctest: $TOTAL_PASSED passed, $TOTAL_FAILED failed"
