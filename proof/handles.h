/* SPDX-License-Identifier: MIT */
/* proof/handles.h - what the genpool and slot map drivers share: the memory
 * layout at fixed addresses, the handles, and the storage's fence.
 *
 * Both containers test addresses for alignment (word copies), which the
 * analyser follows only for an address it knows, so the container's buffer,
 * the item the program inserts and read_isr's destination lie at fixed
 * addresses in MEM (a range proof/proof.mk tells the analysis is memory). Such
 * memory counts as initialised, so the buffer is first made to hold no value,
 * and a read of storage the container never wrote is reported as it would be
 * in an ordinary array. */
#ifndef STOW_PROOF_HANDLES_H
#define STOW_PROOF_HANDLES_H
#include <string.h>

#include "stow/handle.h"
#include "proof.h"

#define MEM 0x1000u
#define SRC (MEM + 0x00u) /* the item the program inserts: 32 bytes, 16-aligned */
#define OUT (MEM + 0x20u) /* read_isr's destination: 32 bytes */
#define BUF (MEM + 0x40u) /* the container's buffer, 64-aligned */
#define BUF_MAX 0x80u     /* the range ends at BUF + BUF_MAX */
#define PATTERN 0x5Au     /* the bytes of the item at SRC */
#define FENCE 0xA5u       /* the bytes after the storage, up to BUF_MAX */

#define CAP_MAX 2u
#define MASK STOW_HANDLE_INDEX_MASK
#define GEN_MAX STOW_HANDLE_MAX_GENERATION
#define HANDLE(gen, index) (((uint32_t)(gen) << STOW_HANDLE_INDEX_BITS) | (uint32_t)(index))

static unsigned char *at(uintptr_t address) { return (unsigned char *)address; }
static uint32_t next_gen(uint32_t g0) { return g0 == GEN_MAX ? 1u : g0 + 1u; }

static stow_handle_t handle(uint32_t bits)
{
    stow_handle_t h;
    h.bits = bits;
    return h;
}

/* The buffer holds no value until the container writes it; the item at SRC
 * holds PATTERN. */
static void memory_at_start(void)
{
    unsigned char junk[BUF_MAX];
    memcpy(at(BUF), junk, sizeof junk);
    //@ loop unroll 32;
    for (uint32_t i = 0u; i < 32u; i++) {
        at(SRC)[i] = PATTERN;
    }
}

/* The bytes after the storage's first `need` are a fence, checked after every
 * call that changes the container: a write there shows (a read there would
 * not: the range is memory to the analyser). */
static void fence_after(size_t need)
{
    //@ loop unroll 128;
    for (size_t i = need; i < BUF_MAX; i++) {
        at(BUF)[i] = FENCE;
    }
}
#endif
