#!/usr/bin/env bash
# README command 1: set up, build, and run Switchboard on the bundled example workspace.
#   1. scripts/bootstrap.sh  (apt packages + pinned npm test peers; fast when nothing is missing)
#   2. configure + build build/ (Ninja, RelWithDebInfo, 2 jobs): only the window and the CLI
#      (scripts/test.sh builds the rest: the tests, the benchmarks)
#   3. trust the example workspace's servers (switchboard-cli trust), start its HTTP server
#      (server-everything in streamableHttp mode on the pinned Node, stopped when the window
#      closes), then run the main job on examples/workspace; extra arguments are passed to it.
#
#   ./scripts/run.sh              # from a fresh clone, any folder
#   ./scripts/run.sh --json       # extra arguments go to the main job
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
WORKSPACE=examples/workspace

# The main job: the window on the example workspace. Without a display (ssh, CI, a container)
# it runs on a virtual X server and saves a screenshot instead, so the command still shows
# something: build/switchboard.png.
MAIN_JOB=("$BUILD_DIR/src/ui/switchboard" --workspace "$WORKSPACE")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    MAIN_JOB=(xvfb-run -a "${MAIN_JOB[@]}" --screenshot "$BUILD_DIR/switchboard.png")
    echo "run.sh: no display; the window opens on a virtual one and is saved as $BUILD_DIR/switchboard.png" >&2
fi

banner() { printf '\n==== %s ====\n' "$*"; }

banner "bootstrap"
bash scripts/bootstrap.sh

banner "build $BUILD_DIR/ ($BUILD_TYPE)"
configure_args=(-S . -B "$BUILD_DIR" "-DCMAKE_BUILD_TYPE=$BUILD_TYPE")
# Choose the generator only on first configure (an existing cache keeps its own).
[ -f "$BUILD_DIR/CMakeCache.txt" ] || configure_args+=(-G Ninja)
if command -v ccache >/dev/null 2>&1; then
    configure_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake "${configure_args[@]}"
# What this command runs, and nothing else: the example's servers are npm packages.
cmake --build "$BUILD_DIR" -j2 --target switchboard switchboard-cli

# The example workspace is this repository's own: trust its servers explicitly, as a user
# would after reading examples/workspace/.mcp.json (any other folder's servers wait for the
# user's yes in the window, or `switchboard-cli --workspace DIR trust`).
banner "trust the example workspace's servers"
"$BUILD_DIR/src/cli/switchboard-cli" --workspace "$WORKSPACE" trust

# The example's remote server: server-everything in its Streamable HTTP mode on 127.0.0.1,
# for as long as the window runs (EVERYTHING_PORT, default 3001, is where the config looks).
banner "start the example's HTTP server (everything-http)"
export EVERYTHING_PORT=${EVERYTHING_PORT:-3001}
HTTP_LOG=$(mktemp "${TMPDIR:-/tmp}/switchboard-everything-http.XXXXXX.log")
# On the Node package-lock.json pins (npm's `node` package), as every npm peer: never on the
# first `node` on PATH (Debian 12's Node 18 lacks the global `crypto` this server needs).
PEER_NODE=node_modules/node/bin/node
PORT=$EVERYTHING_PORT "$PEER_NODE" node_modules/@modelcontextprotocol/server-everything/dist/index.js \
    streamableHttp >"$HTTP_LOG" 2>&1 &
HTTP_PID=$!
trap 'kill "$HTTP_PID" 2>/dev/null || true; rm -f "$HTTP_LOG"' EXIT
for _ in $(seq 1 100); do
    grep -q "listening on port" "$HTTP_LOG" && break
    kill -0 "$HTTP_PID" 2>/dev/null || break
    sleep 0.1
done
if grep -q "listening on port" "$HTTP_LOG"; then
    echo "run.sh: everything-http listens on http://127.0.0.1:$EVERYTHING_PORT/mcp"
else
    echo "run.sh: the HTTP server did not start (set EVERYTHING_PORT to a free port); its log:" >&2
    sed 's/^/    /' "$HTTP_LOG" >&2
fi

banner "run: ${MAIN_JOB[*]} $*"
[ -x "$BUILD_DIR/src/ui/switchboard" ] || { echo "run.sh: $BUILD_DIR/src/ui/switchboard was not built" >&2; exit 1; }
"${MAIN_JOB[@]}" "$@"
