/* SPDX-License-Identifier: MIT */
/* port.c - the POSIX port: what host tests, tools and engines on a PC use.
 * Output goes to standard output unbuffered (so a crash loses nothing), cycles
 * are monotonic nanoseconds, and the critical section is one process-wide
 * recursive mutex, so pairs nest like interrupt masking does on a target. */
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): POSIX feature test */
#include <pthread.h>
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
    while (len > 0u) {
        ssize_t n = write(STDOUT_FILENO, text, len);
        if (n <= 0) {
            return;
        }
        text += n;
        len -= (size_t)n;
    }
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
