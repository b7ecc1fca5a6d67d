#!/usr/bin/env bash
# Checks that the code's folders layer: reads every #include of our own headers under src/
# and fails when
#   - a layer includes one above it (src/mcp < src/engine < src/ui, src/cli; ui and cli
#     never include each other), or
#   - the folders inside src/mcp or src/engine include each other in a cycle (a folder
#     that includes another, directly or through others, and is included back by it).
# Quoted includes ("x.h") are looked up beside the including file, then under src/;
# <mcp/...>, <engine/...>, <ui/...>, <cli/...> under src/.
# Prints each offending include (file:line) and exits 1; prints a one-line summary and
# exits 0 when the folders layer. Needs only bash and coreutils (tsort finds the cycles).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A rank=([mcp]=0 [engine]=1 [ui]=2 [cli]=2)
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
status=0
files=0
includes=0

# The folder of a path under src/, as "mcp/transport" ("mcp" for src/mcp/x.h).
folder_of() {
    local dir=${1%/*}
    echo "${dir#src/}"
}

while IFS= read -r -d '' file; do
    files=$((files + 1))
    from=$(folder_of "$file")
    from_layer=${from%%/*}
    while IFS=: read -r lineno line; do
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*([\"\<])([^\"\>]+)[\"\>] ]] || continue
        kind=${BASH_REMATCH[1]}
        name=${BASH_REMATCH[2]}
        target=""
        if [ "$kind" = '"' ] && [ -f "${file%/*}/$name" ]; then
            target=$(realpath -m --relative-to=. "${file%/*}/$name")
        elif [ -f "src/$name" ]; then
            case "$name" in mcp/* | engine/* | ui/* | cli/*) target="src/$name" ;; esac
        fi
        [ -n "$target" ] || continue # Qt, the standard library, nlohmann, a generated file
        includes=$((includes + 1))
        to=$(folder_of "$target")
        to_layer=${to%%/*}
        if [ "${rank[$to_layer]}" -gt "${rank[$from_layer]}" ] \
            || { [ "$to_layer" != "$from_layer" ] && [ "${rank[$to_layer]}" -eq "${rank[$from_layer]}" ]; }; then
            echo "$file:$lineno: src/$from_layer includes src/$to_layer, a layer above it or beside it: $name"
            status=1
        fi
        if [ "$to" != "$from" ] && [ "$to_layer" = "$from_layer" ]; then
            echo "$from $to $file:$lineno" >>"$edges"
        fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$file" || true)
done < <(find src -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)

# A cycle among the folders: tsort names the folders on it.
if ! loop=$(cut -d' ' -f1,2 "$edges" | tsort 2>&1 >/dev/null); then
    # Each include between two folders of a cycle, so it can be found and moved.
    mapfile -t members < <(echo "$loop" | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' | sort -u)
    echo "the folders include each other in a cycle: ${members[*]}"
    for a in "${members[@]}"; do
        for b in "${members[@]}"; do
            [ "$a" != "$b" ] || continue
            awk -v a="$a" -v b="$b" '$1 == a && $2 == b { print "    " $3 ": " a " -> " b }' "$edges"
        done
    done | sort -u
    status=1
fi

folders=$(cut -d' ' -f1,2 "$edges" | tr ' ' '\n' | sort -u | wc -l)
pairs=$(cut -d' ' -f1,2 "$edges" | sort -u | wc -l)
if [ "$status" = 0 ]; then
    echo "check-includes: $files files, $includes includes of our headers, $pairs folder-to-folder pairs among $folders folders: no layer includes one above it, no cycle"
fi
exit "$status"
