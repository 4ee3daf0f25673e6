/* SPDX-License-Identifier: MIT */
/* A budget list samples/hello_stow exceeds (its ui arena alone is 256 bytes), for
 * tests/consumers/zephyr_module.sh: the link must fail. */
STOW_BUDGET(radio, 1024)
STOW_BUDGET(ui, 64)
