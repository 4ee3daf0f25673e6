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

/* What samples/hello_stow uses besides: message queues, static threads, timeouts
 * (Zephyr's signatures; the DEFINE macros reduced to declarations of the object). */
#include <stddef.h>
typedef struct {
    int64_t ticks;
} k_timeout_t;
#define K_FOREVER ((k_timeout_t){-1})
struct k_msgq {
    size_t msg_size;
    uint32_t max_msgs;
};
#define K_MSGQ_DEFINE(name, size, count, align) struct k_msgq name = {(size), (count)}
int k_msgq_put(struct k_msgq *msgq, const void *data, k_timeout_t timeout);
int k_msgq_get(struct k_msgq *msgq, void *data, k_timeout_t timeout);
typedef void (*k_thread_entry_t)(void *p1, void *p2, void *p3);
struct stow_test_zephyr_thread {
    k_thread_entry_t entry;
    size_t stack_size;
    int prio;
};
void stow_test_zephyr_thread_start(k_thread_entry_t entry, void *p1, void *p2, void *p3);
#ifdef STOW_TEST_ZEPHYR_HOST
/* The host stand-in runs each thread to completion before main(). */
#define K_THREAD_DEFINE(name, stack_size, entry, p1, p2, p3, prio, options, delay)          \
    __attribute__((constructor)) static void name##_start(void)                             \
    {                                                                                       \
        stow_test_zephyr_thread_start((entry), (p1), (p2), (p3));                           \
    }                                                                                       \
    const struct stow_test_zephyr_thread name = {(entry), (stack_size), (prio)}
#else
#define K_THREAD_DEFINE(name, stack_size, entry, p1, p2, p3, prio, options, delay) \
    const struct stow_test_zephyr_thread name = {(entry), (stack_size), (prio)}
#endif
#endif
