/* SPDX-License-Identifier: MIT */
/* samples/hello_stow - stow in a Zephyr application.
 *
 * A radio subsystem queues messages in a pool, a UI subsystem formats text in a
 * per-frame arena, each within the budget src/budgets.h gives it (the link fails
 * otherwise, CONFIG_STOW_BUDGETS). A producer thread sends three messages to the
 * main thread through a k_msgq of pool handles, then the main thread prints
 * stow's memory report through printk (the Zephyr port's stow_port_write).
 * sample.yaml's console harness expects the lines printed here.
 */
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include "stow/stow.h"

struct message {
    uint32_t seq;
    char text[24];
};

STOW_POOL_DEFINE_IN(radio, rx_messages, struct message, 16);
STOW_ARENA_DEFINE_IN(ui, frame_text, 256);
#include "budgets.h"

#define MESSAGES 3

K_MSGQ_DEFINE(rx_queue, sizeof(struct message *), MESSAGES, 4);

static void producer(void *a, void *b, void *c)
{
    (void)a;
    (void)b;
    (void)c;
    for (uint32_t i = 0; i < MESSAGES; i++) {
        /* _isr: the pool is shared by two threads (the port's lock, irq_lock()). */
        struct message *m = stow_pool_alloc_isr(&rx_messages);
        if (m == NULL) {
            printk("hello_stow: pool empty\n");
            return;
        }
        m->seq = i;
        snprintk(m->text, sizeof m->text, "message %u", (unsigned)i);
        k_msgq_put(&rx_queue, &m, K_FOREVER);
    }
}

K_THREAD_DEFINE(producer_thread, 1024, producer, NULL, NULL, NULL, 5, 0, 0);

int main(void)
{
    uint32_t received = 0;
    for (uint32_t i = 0; i < MESSAGES; i++) {
        struct message *m;
        k_msgq_get(&rx_queue, &m, K_FOREVER);
        char *line = STOW_ARENA_NEW_ARRAY(&frame_text, char, 48);
        if (line != NULL) {
            snprintk(line, 48, "got %s (seq %u)", m->text, (unsigned)m->seq);
            printk("hello_stow: %s\n", line);
        }
        stow_pool_free_isr(&rx_messages, m);
        stow_arena_reset(&frame_text);
        received++;
    }
    printk("hello_stow: %u messages sent, %u received\n", MESSAGES, (unsigned)received);
    bool ok = stow_report();
    printk("hello_stow: %s\n", ok ? "done" : "report found a problem");
    return 0;
}
