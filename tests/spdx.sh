#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx.sh DIR - every source, header, linker script, script, CMake file, Makefile
# and manifest in the tree says its license in its first comment line:
#     /* SPDX-License-Identifier: MIT */   C sources and headers, linker scripts
#     // SPDX-License-Identifier: MIT      C++ sources and headers
#     # SPDX-License-Identifier: MIT       Makefiles, board.mk, CMake, shell, Python,
#                                          gnuplot, YAML, Kconfig
# A script's "#!" line stays first, with the SPDX line right after it.
# Files: the tracked ones and new ones git does not ignore (git ls-files); where
# the tree is no git checkout, every file under it. Not checked: documentation
# (*.md, LICENSE), library.json (JSON has no comments: its "license" field says
# MIT, which tests/consumers/check_manifests.py checks), fuzz corpus inputs.
# One case per file; "N passed, N failed" last; exit status 1 on any failure.
dir=${1:-build/test/spdx}
mkdir -p "$dir"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list() { git ls-files --cached --others --exclude-standard; }
else
    list() { find . -path ./build -prune -o -type f -print | sed 's|^\./||'; }
fi
passed=0
failed=0
tab=$(printf '\t')
# Files named on the list that are missing on disk (deleted, not yet committed)
# are skipped.
list | sort -u >"$dir/files"
while IFS= read -r f; do
    [ -f "$f" ] || continue
    case "$f" in
    *.c | *.h | *.ld) want='/* SPDX-License-Identifier: MIT */' ;;
    *.cpp | *.hpp | *.cc | *.hh) want='// SPDX-License-Identifier: MIT' ;;
    *.sh | *.py | *.cmake | *.mk | *.gp | *.yml | *.yaml | Makefile | */Makefile | \
        CMakeLists.txt | */CMakeLists.txt | Kconfig | */Kconfig)
        want='# SPDX-License-Identifier: MIT' ;;
    *)
        # Other files are checked when they are scripts (a "#!" line).
        case "$(head -c 2 "$f")" in
        '#!') want='# SPDX-License-Identifier: MIT' ;;
        *) continue ;;
        esac ;;
    esac
    first=$(head -n 1 "$f" | tr -d '\r')
    case "$first" in
    '#!'*) line=$(sed -n 2p "$f" | tr -d '\r') ;;
    *) line=$first ;;
    esac
    if [ "$line" = "$want" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $f: the first comment line must be \"$want\"${tab}(it is \"$line\")"
        failed=$((failed + 1))
    fi
done <"$dir/files"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
