# SPDX-License-Identifier: MIT
# common.sh - sourced by the consumer checks (tests/consumers/*.sh).
#
# A check is a fixed list of steps. Each step prints "ok <what>" or "FAIL <what>"
# (then the end of its log); a step whose prerequisite failed is not run and
# counts as failed, so a check reports the same total every run. The last line is
# "N passed, N failed", which tests/run.sh turns into the result file.
set -u

consumer_passed=0
consumer_steps=0

# step WHAT COMMAND...: runs COMMAND, its output in $WORK/logs/<n>.log. Returns its status.
step() {
    consumer_what=$1
    shift
    consumer_steps=$((consumer_steps + 1))
    mkdir -p "$WORK/logs"
    consumer_log="$WORK/logs/$consumer_steps.log"
    if "$@" >"$consumer_log" 2>&1; then
        echo "ok $consumer_what"
        consumer_passed=$((consumer_passed + 1))
        return 0
    else
        consumer_status=$?
        echo "FAIL $consumer_what (exit status $consumer_status, $consumer_log)"
        tail -n 15 "$consumer_log" | sed 's/^/    /'
        return 1
    fi
}

# finish PLANNED: prints the count line; steps not run count as failed.
finish() {
    consumer_failed=$(($1 - consumer_passed))
    echo "$consumer_passed passed, $consumer_failed failed"
    [ "$consumer_failed" -eq 0 ]
}

# A program whose last output line must be "N passed, 0 failed" with N > 0.
# Usage: counts_ok COMMAND...
counts_ok() {
    consumer_out=$("$@" 2>&1)
    consumer_rc=$?
    printf '%s\n' "$consumer_out"
    [ "$consumer_rc" -eq 0 ] || return 1
    printf '%s\n' "$consumer_out" | tail -n 1 | tr -d '\r' | grep -Eq '^[1-9][0-9]* passed, 0 failed$'
}

# The generator for CMake builds: Ninja where installed, else Make.
if command -v ninja >/dev/null 2>&1; then
    CMAKE_GENERATOR=Ninja
else
    CMAKE_GENERATOR="Unix Makefiles"
fi
export CMAKE_GENERATOR
QEMU_RUN="-nographic -monitor none -serial none -semihosting-config enable=on,target=native"

# stow_make TARGET... : stow's own make in ROOT, as a separate make (not a part of
# the caller's jobserver), with the build directory make test uses (STOW_BUILD),
# so that libraries the caller's make built already are not built again.
stow_make() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$ROOT" --no-print-directory -j2 \
        BUILD="${STOW_BUILD:-build}" "$@"
}

# snapshot_repo DIR: a git repository in DIR holding the working tree as it is now
# (tracked files and new ones git does not ignore, as they are on disk), in one
# commit, whose hash it prints: what a FetchContent of stow would get once the
# tree is committed.
snapshot_repo() (
    rm -rf "$1" &&
    mkdir -p "$1" &&
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$ROOT" && xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
        (cd "$ROOT" && tar --null -T - -cf -) | tar -xf - -C "$1" &&
    cd "$1" && git init -q && git add -A &&
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
    git -c user.name=stow-test -c user.email=stow-test@localhost -c commit.gpgsign=false \
        commit -q -m snapshot &&
    git rev-parse HEAD
)

# must_fail LOG PATTERN COMMAND...: COMMAND fails, and its output (kept in LOG)
# matches the extended regular expression PATTERN.
must_fail() {
    consumer_mf_log=$1
    consumer_mf_pattern=$2
    shift 2
    if "$@" >"$consumer_mf_log" 2>&1; then
        echo "succeeded, but must fail: $*"
        tail -n 5 "$consumer_mf_log"
        return 1
    fi
    grep -E "$consumer_mf_pattern" "$consumer_mf_log" || {
        echo "failed without the expected message /$consumer_mf_pattern/:"
        tail -n 20 "$consumer_mf_log"
        return 1
    }
}
