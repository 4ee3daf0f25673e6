/* SPDX-License-Identifier: MIT */
/* stow/version.h - which stow this is.
 *
 * Semantic versioning: MAJOR changes break source compatibility, MINOR adds
 * without breaking, PATCH only fixes. Before 1.0, a MINOR step may still change
 * the contract; CHANGELOG.md says what each release changed.
 *
 *     #if STOW_VERSION_AT_LEAST(0, 2, 0)
 *     ... use stow/heap.h ...
 *     #endif
 */
#ifndef STOW_VERSION_H
#define STOW_VERSION_H

#define STOW_VERSION_MAJOR 0
#define STOW_VERSION_MINOR 3
#define STOW_VERSION_PATCH 0
#define STOW_VERSION_STRING "0.3.0"

/* One number for comparisons: 0x00MMmmpp. */
#define STOW_VERSION_NUMBER \
    ((STOW_VERSION_MAJOR << 16) | (STOW_VERSION_MINOR << 8) | STOW_VERSION_PATCH)
#define STOW_VERSION_AT_LEAST(major, minor, patch) \
    (STOW_VERSION_NUMBER >= (((major) << 16) | ((minor) << 8) | (patch)))

#endif /* STOW_VERSION_H */
