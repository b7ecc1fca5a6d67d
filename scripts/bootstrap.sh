#!/usr/bin/env bash
# Installs everything Switchboard needs on Debian 12 (bookworm): the apt packages for
# building, testing and packaging, and the pinned npm test peers from package-lock.json.
# Idempotent: installs only what is missing, so a second run takes a second or two.
# Prints one line per step; on failure says which step failed and shows the tail of its log.
#
#   scripts/bootstrap.sh            (from any folder; uses sudo only when not root)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The one list of apt packages the project needs (build, tests, GUI tests, fuzzing, .deb).
APT_PACKAGES=(
    # toolchain
    g++ cmake ninja-build
    clang libclang-rt-14-dev   # libclang-rt-14-dev ships libclang_rt.fuzzer and the sanitizer runtimes
    clang-format               # scripts/check-format.sh (a test.sh stage)
    # libraries
    qt6-base-dev qt6-httpserver-dev qt6-websockets-dev
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    nlohmann-json3-dev qtkeychain-qt6-dev libqscintilla2-qt6-dev libgl-dev
    qt6-svg-dev   # the SVG icon engine (the toolbar icons in resources/icons)
    libssl-dev    # libcrypto: the signatures of OAuth extensions (private_key_jwt, DPoP)
    # MCP Apps views (issue 32): Qt WebEngine, loaded only when the first view is shown
    qt6-webengine-dev qt6-webchannel-dev
    # MCP Bundles (.mcpb, issue 33): their zip read with QuaZip, never by hand
    libquazip1-qt6-dev
    # the diffs shown before a file is written (issue 34): dtl, header only
    libdtl-dev
    # GUI tests (Xvfb), the CJK font for the Simplified Chinese UI, and Qt's own strings in
    # Chinese (standard buttons and dialogs: qtbase_zh_CN.qm)
    xvfb xauth fonts-wqy-microhei qt6-translations-l10n
    # packaging: dpkg-shlibdeps (dpkg-dev) computes the .deb's Depends; file is used by CPack
    dpkg-dev file
    # npm needs the CA bundle for TLS (absent on a minimal Debian)
    ca-certificates
    # bwrap: the sandbox of MCP servers with "sandbox" and of the built-in bash (and its tests)
    bubblewrap
    # a real keychain for the tests (tests/keychain-session.sh): a private D-Bus session bus
    # with gnome-keyring's Secret Service; secret-tool looks at it from another process
    dbus gnome-keyring libsecret-tools
)
# Node.js and npm come from apt only when no `node`/`npm` is on PATH: a machine may already
# have a newer Node (e.g. 20) from elsewhere, and Debian's npm package would fight it.
NODE_APT_PACKAGES=(nodejs npm)

LOG=$(mktemp "${TMPDIR:-/tmp}/switchboard-bootstrap.XXXXXX.log")
CURRENT_STEP="start"

say() { printf 'bootstrap: %s\n' "$*"; }

on_error() {
    local rc=$?
    printf '\nbootstrap: FAILED during step "%s" (exit %s)\n' "$CURRENT_STEP" "$rc" >&2
    if [ -s "$LOG" ]; then
        printf 'bootstrap: last lines of %s:\n' "$LOG" >&2
        tail -n 40 "$LOG" | sed 's/^/    /' >&2
    fi
    exit "$rc"
}
trap on_error ERR
trap 'rm -f "$LOG"' EXIT

step() { CURRENT_STEP=$1; }

die() {
    printf 'bootstrap: ERROR: %s\n' "$*" >&2
    exit 1
}

# --- platform -----------------------------------------------------------------------------
step "check platform"
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    die "apt-get/dpkg-query not found: this script supports Debian 12 (bookworm) only"
fi
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    if [ "${VERSION_CODENAME:-}" != bookworm ]; then
        say "warning: tested on Debian 12 (bookworm), this is ${PRETTY_NAME:-unknown}"
    fi
fi

SUDO=()
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "not root and sudo is not installed: run as root or install sudo"
    SUDO=(sudo)
fi

# --- apt packages -------------------------------------------------------------------------
step "check apt packages"
is_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    is_installed "$pkg" || missing+=("$pkg")
done
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    for pkg in "${NODE_APT_PACKAGES[@]}"; do
        is_installed "$pkg" || missing+=("$pkg")
    done
fi

if [ "${#missing[@]}" -eq 0 ]; then
    say "apt packages: all ${#APT_PACKAGES[@]} present"
else
    step "apt-get update"
    say "apt packages: ${#missing[@]} missing (${missing[*]}), running apt-get update"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >>"$LOG" 2>&1

    step "apt-get install"
    say "apt packages: installing ${missing[*]}"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}" >>"$LOG" 2>&1

    step "verify apt packages"
    still=()
    for pkg in "${missing[@]}"; do
        is_installed "$pkg" || still+=("$pkg")
    done
    [ "${#still[@]}" -eq 0 ] || die "apt-get finished but these are still not installed: ${still[*]}"
    say "apt packages: installed ${#missing[@]}"
fi

# --- localhost ----------------------------------------------------------------------------
# The conformance suite's servers and the OAuth tests are reached as http://localhost:PORT.
# Debian's installer writes /etc/hosts; a bare debootstrap (the newcomer's check) has none, and
# `localhost` then goes to DNS, which may not answer it.
step "check localhost"
if ! getent hosts localhost >/dev/null 2>&1; then
    say "localhost does not resolve (no /etc/hosts entry): adding it to /etc/hosts"
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
        | "${SUDO[@]}" tee -a /etc/hosts >/dev/null
    getent hosts localhost >/dev/null 2>&1 || die "localhost still does not resolve after adding it to /etc/hosts"
fi

# --- node / npm ---------------------------------------------------------------------------
step "check node and npm"
command -v node >/dev/null 2>&1 || die "node not found after installing nodejs"
command -v npm >/dev/null 2>&1 || die "npm not found after installing npm"
node_version=$(node --version)
node_major=${node_version#v}
node_major=${node_major%%.*}
# This Node only runs npm; the peers run on the one the lockfile pins (checked below).
if [ "$node_major" -lt 18 ]; then
    die "Node.js $node_version is too old: npm needs Node.js >= 18 to install the test peers"
fi
say "npm $(npm --version) on node $node_version (installs the peers; they run on the pinned Node)"

# --- npm test peers -----------------------------------------------------------------------
step "npm ci"
[ -f package-lock.json ] || die "package-lock.json is missing at the repository root"
# npm writes node_modules/.package-lock.json on every install: it is our "installed at" stamp.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "npm test peers: running npm ci"
    npm ci --no-audit --no-fund >>"$LOG" 2>&1
    touch node_modules/.package-lock.json
    say "npm test peers: installed from package-lock.json"
else
    say "npm test peers: node_modules is up to date"
fi

step "check npm test peers"
[ -f node_modules/@modelcontextprotocol/server-everything/dist/index.js ] \
    || die "node_modules/@modelcontextprotocol/server-everything is incomplete: delete node_modules and re-run"
[ -f node_modules/@a2a-js/sdk/package.json ] && [ -f node_modules/express/package.json ] \
    || die "node_modules/@a2a-js/sdk or express is missing: delete node_modules and re-run"
[ -x node_modules/.bin/conformance ] \
    || die "node_modules/@modelcontextprotocol/conformance is missing: delete node_modules and re-run"
# Every npm peer (the example's servers, the A2A SDK peers, the conformance suite, which needs
# Node >= 22) runs on the Node the lockfile pins: npm's `node` package brings its own binary.
# Never the `node` on PATH: Debian 12's Node 18 lacks the global `crypto` the peers use.
step "check the pinned Node"
pinned_node=$(node -p 'require("./package-lock.json").packages["node_modules/node"].version' 2>/dev/null || true)
[ -n "$pinned_node" ] && [ "$pinned_node" != undefined ] || die "package-lock.json pins no node package"
peer_node=$(node_modules/node/bin/node --version 2>/dev/null || true)
[ "$peer_node" = "v$pinned_node" ] \
    || die "node_modules/node/bin/node is '$peer_node', the lockfile pins v$pinned_node: delete node_modules and re-run"
say "npm test peers run on node $peer_node (node_modules/node/bin/node, pinned by package-lock.json)"

say "done"
