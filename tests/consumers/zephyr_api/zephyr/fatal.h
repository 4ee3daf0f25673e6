/* SPDX-License-Identifier: MIT */
/* See kernel.h: stand-in declarations for a compile check, not Zephyr. */
#ifndef STOW_TEST_ZEPHYR_FATAL_H
#define STOW_TEST_ZEPHYR_FATAL_H
enum k_fatal_error_reason {
    K_ERR_CPU_EXCEPTION,
    K_ERR_SPURIOUS_IRQ,
    K_ERR_STACK_CHK_FAIL,
    K_ERR_KERNEL_OOPS,
    K_ERR_KERNEL_PANIC
};
__attribute__((noreturn)) void k_fatal_halt(unsigned int reason);
#endif
