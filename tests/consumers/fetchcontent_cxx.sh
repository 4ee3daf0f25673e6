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

step "local clone of the working tree, committed" snapshot_repo "$REPO" &&
TAG=$(git -C "$REPO" rev-parse HEAD) &&
step "cmake configure (FetchContent GIT_REPOSITORY <clone> GIT_TAG <commit>)" \
    cmake -S "$ROOT/tests/consumers/cxx" -B "$B" -DCMAKE_BUILD_TYPE=Release \
        -DSTOW_GIT_REPOSITORY="$REPO" -DSTOW_GIT_TAG="$TAG" &&
step "cmake --build (C++17, -Wold-style-cast -Wuseless-cast -Werror)" cmake --build "$B" -j2 &&
step "the program runs: options reached the library, its checks pass" counts_ok "$B/engine"
finish 4
