/* SPDX-License-Identifier: MIT */
/* proof/port.c - the port the proof drivers link: an assert hook that returns
 * (as a test port's does, the harder case for the library: it must then leave
 * the container as it was) and a lock that counts. */
#include "stow/port.h"
#include "proof.h"

uint32_t proof_assert_count;

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)expr;
    (void)file;
    (void)line;
    proof_assert_count++;
}

uint32_t stow_port_lock(uint32_t *word)
{
    //@ assert lock_word_valid: \valid(word);
    uint32_t old = *word;
    *word = 1u;
    return old;
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    //@ assert lock_word_valid: \valid(word);
    *word = state;
}

uint32_t stow_port_critical_enter(void) { return 0u; }
void stow_port_critical_exit(uint32_t state) { (void)state; }
uint32_t stow_port_cycles(void) { return 0u; }
void stow_port_write(const char *text, size_t len)
{
    //@ assert write_readable: \valid_read(text + (0 .. len - 1)) || len == 0;
    (void)text;
    (void)len;
}
void stow_port_exit(int status) { (void)status; }
