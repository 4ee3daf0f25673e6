/* SPDX-License-Identifier: MIT */
/* See ../kernel.h: stand-in declarations for a compile check, not Zephyr. */
#ifndef STOW_TEST_ZEPHYR_PRINTK_H
#define STOW_TEST_ZEPHYR_PRINTK_H
#include <stddef.h>
__attribute__((format(printf, 1, 2))) void printk(const char *fmt, ...);
__attribute__((format(printf, 3, 4))) int snprintk(char *str, size_t size, const char *fmt, ...);
#endif
