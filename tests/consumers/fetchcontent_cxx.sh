#!/bin/sh
# SPDX-License-Identifier: MIT
# fetchcontent_cxx.sh ROOT WORK - tests/consumers/cxx: a two-file C++17 program
# that gets stow with FetchContent from a local git clone, at one commit.
#
# The clone is of the tree as it is now (tracked files and new ones git does not
# ignore, as they are on disk), committed in a scratch repository under WORK, so
# that what is tested is what would be committed.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
B="$WORK/build"
REPO="$WORK/stow.git"

snapshot() (
    rm -rf "$REPO" &&
    mkdir -p "$REPO" &&
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$ROOT" && xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh) |
        (cd "$ROOT" && tar --null -T - -cf -) | tar -xf - -C "$REPO" &&
    cd "$REPO" && git init -q && git add -A &&
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
    git -c user.name=stow-test -c user.email=stow-test@localhost -c commit.gpgsign=false \
        commit -q -m snapshot &&
    git rev-parse HEAD
)

step "local clone of the working tree, committed" snapshot &&
TAG=$(git -C "$REPO" rev-parse HEAD) &&
step "cmake configure (FetchContent GIT_REPOSITORY <clone> GIT_TAG <commit>)" \
    cmake -S "$ROOT/tests/consumers/cxx" -B "$B" -DCMAKE_BUILD_TYPE=Release \
        -DSTOW_GIT_REPOSITORY="$REPO" -DSTOW_GIT_TAG="$TAG" &&
step "cmake --build (C++17, -Wold-style-cast -Wuseless-cast -Werror)" cmake --build "$B" -j2 &&
step "the program runs: options reached the library, its checks pass" counts_ok "$B/engine"
finish 4
