#!/usr/bin/env bash
# Fails when a C++ file under src/ or tests/ differs from what clang-format makes of it
# (.clang-format at the root; Debian 12's clang-format 14, which bootstrap installs).
# Prints each such file with the command that fixes it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v clang-format >/dev/null 2>&1 || { echo "check-format: clang-format is not installed (scripts/bootstrap.sh installs it)" >&2; exit 1; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h')
else
    mapfile -t files < <(find src tests -type f \( -name '*.cpp' -o -name '*.h' \) | sort)
fi
bad=()
for file in "${files[@]}"; do
    [ -f "$file" ] || continue
    clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done
if [ "${#bad[@]}" -gt 0 ]; then
    echo "check-format: ${#bad[@]} of ${#files[@]} files are not as clang-format writes them:"
    printf '    %s\n' "${bad[@]}"
    echo "fix with: clang-format -i ${bad[*]}"
    exit 1
fi
echo "check-format: ${#files[@]} files in src/ and tests/ as clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -n 1) writes them"
