/* SPDX-License-Identifier: MIT */
/* See ../kernel.h: stand-in declarations for a compile check, not Zephyr. */
#ifndef STOW_TEST_ZEPHYR_PRINTK_H
#define STOW_TEST_ZEPHYR_PRINTK_H
__attribute__((format(printf, 1, 2))) void printk(const char *fmt, ...);
#endif
