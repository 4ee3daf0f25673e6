/* SPDX-License-Identifier: MIT */
/* port.c - the POSIX port: what host tests, tools and engines on a PC use.
 * Output goes to standard output through stdio, flushed at once: in order with
 * what the program printf()s before and after (stdout is fully buffered into a
 * pipe or a file), and nothing left in a buffer if the program crashes. Cycles
 * are monotonic nanoseconds, and the critical section is one process-wide
 * recursive mutex, so pairs nest like interrupt masking does on a target.
 *
 * The container locks (stow_port_lock/unlock, what the _isr calls take) are not
 * that mutex: each container's own word is a small spin lock, so threads that
 * use two containers never wait for each other. The word holds the owner's
 * thread id (a number this file hands out, from 1), which makes pairs nest: a
 * thread that finds its own id there already holds the lock, gets state 0 and
 * its unlock releases nothing. Only the owner ever stores its id, so reading our
 * own id back (even relaxed) proves we hold it. A waiter spins on a plain load
 * for a while, then calls sched_yield() between attempts, so that a holder
 * descheduled on a busy machine gets the core back. Both are weak: a program
 * may bring its own (a futex, say) by defining them. */
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): POSIX feature test */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "stow/port.h"

uint32_t stow_port_cycles(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
}

void stow_port_write(const char *text, size_t len)
{
    (void)fwrite(text, 1u, len, stdout);
    (void)fflush(stdout);
}

void stow_port_exit(int status) { exit(status); }

static pthread_mutex_t critical_lock;
static pthread_once_t critical_once = PTHREAD_ONCE_INIT;

static void critical_setup(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&critical_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

uint32_t stow_port_critical_enter(void)
{
    pthread_once(&critical_once, critical_setup);
    pthread_mutex_lock(&critical_lock);
    return 0u;
}

void stow_port_critical_exit(uint32_t state)
{
    (void)state;
    pthread_mutex_unlock(&critical_lock);
}

/* The calling thread's id for lock words: 1, 2, ... in order of first use (0 is
 * "free"). 2^32 - 1 threads in one process before an id repeats. */
static uint32_t next_thread_id;
static _Thread_local uint32_t thread_id;

static uint32_t self_id(void)
{
    if (thread_id == 0u) {
        do {
            thread_id = __atomic_add_fetch(&next_thread_id, 1u, __ATOMIC_RELAXED);
        } while (thread_id == 0u);
    }
    return thread_id;
}

/* Attempts that only spin before the waiter starts yielding: a critical section
 * of stow's is tens of nanoseconds, so a short spin covers a holder that is
 * running. */
#define SPINS_BEFORE_YIELD 64u

__attribute__((weak)) uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t me = self_id();
    unsigned spins = 0u;
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == me) {
        return 0u; /* nested: the outer pair releases */
    }
    for (;;) {
        uint32_t expected = 0u;
        if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0u &&
            __atomic_compare_exchange_n(word, &expected, me, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            return 1u;
        }
        if (spins < SPINS_BEFORE_YIELD) {
            spins++;
        } else {
            sched_yield();
        }
    }
}

__attribute__((weak)) void stow_port_unlock(uint32_t *word, uint32_t state)
{
    if (state != 0u) {
        __atomic_store_n(word, 0u, __ATOMIC_RELEASE);
    }
}
