#!/bin/sh
# Runs a command with a real keychain: a private D-Bus session bus and, on it, gnome-keyring's
# Secret Service with a fresh keyring, unlocked. HOME and the XDG folders point into a temporary
# folder, so nothing of the user's own keyring is read or written; all of it is removed after.
#
#   tests/keychain-session.sh COMMAND [ARGS...]
#
# Needs dbus-run-session (Debian dbus) and gnome-keyring-daemon (gnome-keyring); secret-tool
# (libsecret-tools) lets a test look at the keyring from another process. Exits with the
# command's status; 77 with one line on stderr when a piece is missing.
set -eu

for tool in dbus-run-session gnome-keyring-daemon; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "keychain-session: $tool is not installed (scripts/bootstrap.sh installs it)" >&2
        exit 77
    fi
done

home=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-keychain.XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
mkdir -p "$home/.local/share" "$home/.cache" "$home/.config" "$home/run"
chmod 700 "$home/run"

status=0
HOME=$home XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache \
XDG_CONFIG_HOME=$home/.config XDG_RUNTIME_DIR=$home/run \
    dbus-run-session -- sh -c '
        # The password only unlocks this throwaway keyring.
        printf "switchboard-test" | gnome-keyring-daemon --unlock --components=secrets \
            >/dev/null || { echo "keychain-session: gnome-keyring-daemon did not start" >&2; exit 1; }
        # The daemon takes its name on the bus a moment after it answers. A call before that
        # makes D-Bus start a second daemon for the name, which can hang for D-Bus'"'"'s 25 s
        # timeout (a keychain read or write lost, a test failing one run in a few under load).
        tries=0
        until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
                | grep -q "boolean true"; do
            tries=$((tries + 1))
            if [ "$tries" -gt 100 ]; then
                echo "keychain-session: the Secret Service did not appear on the bus" >&2
                exit 1
            fi
            sleep 0.1
        done
        SWITCHBOARD_REQUIRE_KEYCHAIN=1 exec "$@"
    ' keychain-session "$@" || status=$?
exit "$status"
