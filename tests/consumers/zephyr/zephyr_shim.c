/* SPDX-License-Identifier: MIT */
/* Definitions of the Zephyr calls samples/hello_stow and port/zephyr/port.c make,
 * against the declarations of tests/consumers/zephyr_api, for the two stand-in
 * builds of tests/consumers/zephyr_module.sh (written for this test, not Zephyr):
 *   - STOW_TEST_ZEPHYR_HOST: a host program. Threads are run to completion one
 *     after another before main() (K_THREAD_DEFINE registers a constructor), a
 *     message queue is a ring, printk is vprintf: the sample prints what it would
 *     print on a board, for the checks of sample.yaml's console harness.
 *   - otherwise (Cortex-M, linked, never run): the same calls as empty bodies,
 *     so that the image links against the Zephyr-layout linker script. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#ifdef STOW_TEST_ZEPHYR_HOST
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char ring[64][16];
static size_t ring_head, ring_count;

int k_msgq_put(struct k_msgq *msgq, const void *data, k_timeout_t timeout)
{
    (void)timeout;
    if (ring_count == msgq->max_msgs || msgq->msg_size > sizeof ring[0]) {
        fprintf(stderr, "zephyr_shim: k_msgq_put on a full queue would block for ever\n");
        exit(3);
    }
    memcpy(ring[(ring_head + ring_count) % 64], data, msgq->msg_size);
    ring_count++;
    return 0;
}

int k_msgq_get(struct k_msgq *msgq, void *data, k_timeout_t timeout)
{
    (void)timeout;
    if (ring_count == 0) {
        fprintf(stderr, "zephyr_shim: k_msgq_get on an empty queue would block for ever\n");
        exit(3);
    }
    memcpy(data, ring[ring_head], msgq->msg_size);
    ring_head = (ring_head + 1) % 64;
    ring_count--;
    return 0;
}

void printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

int snprintk(char *str, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(str, size, fmt, ap);
    va_end(ap);
    return n;
}

static unsigned int irq_depth;
unsigned int irq_lock(void) { return irq_depth++; }
void irq_unlock(unsigned int key) { irq_depth = key; }
uint32_t k_cycle_get_32(void) { return 0u; }
void stow_test_zephyr_except(unsigned int reason)
{
    fprintf(stderr, "zephyr_shim: k_panic (reason %u)\n", reason);
    exit(4);
}
void k_fatal_halt(unsigned int reason)
{
    fprintf(stderr, "zephyr_shim: k_fatal_halt (reason %u)\n", reason);
    exit(5);
}
void stow_test_zephyr_thread_start(k_thread_entry_t entry, void *p1, void *p2, void *p3)
{
    entry(p1, p2, p3);
}
#else
int k_msgq_put(struct k_msgq *msgq, const void *data, k_timeout_t timeout)
{
    (void)msgq;
    (void)data;
    (void)timeout;
    return 0;
}
int k_msgq_get(struct k_msgq *msgq, void *data, k_timeout_t timeout)
{
    (void)timeout;
    for (size_t i = 0; i < msgq->msg_size; i++) {
        ((unsigned char *)data)[i] = 0u;
    }
    return 0;
}
void printk(const char *fmt, ...) { (void)fmt; }
int snprintk(char *str, size_t size, const char *fmt, ...)
{
    (void)fmt;
    if (size > 0u) {
        str[0] = '\0';
    }
    return 0;
}
unsigned int irq_lock(void) { return 0u; }
void irq_unlock(unsigned int key) { (void)key; }
uint32_t k_cycle_get_32(void) { return 0u; }
void stow_test_zephyr_except(unsigned int reason)
{
    (void)reason;
    for (;;) {
    }
}
void k_fatal_halt(unsigned int reason)
{
    (void)reason;
    for (;;) {
    }
}
void stow_test_zephyr_thread_start(k_thread_entry_t entry, void *p1, void *p2, void *p3)
{
    (void)entry;
    (void)p1;
    (void)p2;
    (void)p3;
}
#endif
