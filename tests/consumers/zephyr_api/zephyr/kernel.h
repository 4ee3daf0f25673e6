/* SPDX-License-Identifier: MIT */
/* Declarations of the parts of Zephyr's API that port/zephyr/port.c uses, with
 * Zephyr's signatures, so that tests/consumers/check_manifests.py can compile
 * the port where no Zephyr tree is installed. Written for this check; not Zephyr. */
#ifndef STOW_TEST_ZEPHYR_KERNEL_H
#define STOW_TEST_ZEPHYR_KERNEL_H
#include <stdint.h>
#include <zephyr/fatal.h>
unsigned int irq_lock(void);
void irq_unlock(unsigned int key);
uint32_t k_cycle_get_32(void);
void stow_test_zephyr_except(unsigned int reason);
#define k_panic() stow_test_zephyr_except(K_ERR_KERNEL_PANIC)
#endif
