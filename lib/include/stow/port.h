/* SPDX-License-Identifier: MIT */
/* stow/port.h - what stow needs from a platform.
 *
 * The library (lib/src) calls six of the eight functions below, each only from
 * the calls named, and nothing else:
 *   stow_port_assert_failed()    on a contract violation, at STOW_CHECK_LEVEL 1 or 2;
 *   stow_port_lock()             only in the functions whose documentation says
 *   stow_port_unlock()           "ISR-safe" (the _isr variants) and in each
 *                                container's lock()/unlock(), on the lock word
 *                                inside that container;
 *   stow_port_critical_enter()   only in stow_pool_alloc_atomic() and _free_atomic()
 *   stow_port_critical_exit()    on cores that have neither exclusives nor
 *                                lock-free 64-bit atomics (RV32, say);
 *   stow_port_write()            only in the report and its output helpers
 *                                (stow/report.h: stow_report(), stow_print()...).
 * So what a firmware must provide follows from what it calls: the everyday calls
 * (init, alloc, free, insert, remove, get, push, stats, check...) need
 * stow_port_assert_failed() alone, and nothing at level 0; the ISR-safe calls
 * and lock() add stow_port_lock() and _unlock(); the atomic pool on such a core
 * adds the critical section; the report adds stow_port_write(). The other two,
 * stow_port_cycles() and stow_port_exit(), the library never calls.
 * stow_port_critical_enter() and _exit() are also the port's whole-core section:
 * the Cortex-M and RISC-V ports' semihosting and cycle counter use them, and so
 * can a firmware. The others serve what runs around the library:
 * stow_port_write() is also where the default assert hooks (and the tests,
 * benchmarks, demos and fault reporter) send text, stow_port_exit() how they end,
 * stow_port_cycles() what benchmarks time with.
 *
 * Ports that ship with stow:
 *   port/cortex-m/port.c      the library port: PRIMASK critical sections and
 *                             container locks (one core); weak
 *                             stow_port_write (discards) and stow_port_exit
 *                             (masks interrupts, waits forever) that a firmware
 *                             replaces by defining its own (UART or RTT output,
 *                             a reset). No interrupt handler, no semihosting.
 *   port/cortex-m/assert.c    assert hook: writes "stow: contract violation:
 *                             <text> at <file>:<line>", then stow_port_exit(134).
 *   Test, benchmark and demo images add:
 *   port/cortex-m/semihost.c  output and exit by semihosting (never on a chip
 *                             without a debugger: the BKPT locks it up);
 *   port/cortex-m/cycles.c    stow_port_cycles: DWT CYCCNT, or SysTick with its
 *                             own SysTick_Handler;
 *   port/cortex-m/fault.c     HardFault (and MemManage, BusFault, UsageFault,
 *                             SecureFault) reporter: prints the fault, exits 2.
 *   port/host/port.c          POSIX: stdout, exit(), monotonic clock, a recursive
 *                             mutex for critical sections, and a spin-then-yield
 *                             lock on each container's word (C11-style atomics),
 *                             so threads on two containers never wait for each
 *                             other;
 *   port/host/assert.c        assert hook: prints to stderr and aborts.
 *
 * Writing your own: copy the closest port, keep the signatures, and keep each
 * function safe to call from any context your firmware calls stow from. On one
 * core, stow_port_lock() may ignore the word and be the critical section
 * (that is what the Cortex-M and RISC-V ports do). A port for several cores
 * that share a container must also make the other cores wait: mask interrupts
 * first, then spin on the word with a compare-and-swap (acquire) until it goes
 * from 0 to this core's id plus one; unlock stores 0 (release) and then restores
 * the interrupt state. A core that finds its own id there already holds the
 * word (pairs nest): return a state that makes unlock leave the word alone.
 * Masking first matters: an interrupt taken while the word is held, whose
 * handler takes the same word, would spin for ever on that core.
 */
#ifndef STOW_PORT_H
#define STOW_PORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called when a caller breaks a function's contract (a foreign pointer, a double
 * free, an alignment that is not a power of two...). expr says what went wrong,
 * for a user: the public function's name, a colon and the misuse, as in
 * "stow_pool_free: double free" ("" when built with STOW_ASSERT_TEXT 0); file and
 * line are where the check sits in the library. A production port halts or
 * resets; a test port may record the call and return, and the stow call then
 * returns its error value and leaves its container exactly as it was. */
void stow_port_assert_failed(const char *expr, const char *file, int line);

/* A free-running counter that wraps at 2^32. On Cortex-M it counts core clock
 * cycles (DWT CYCCNT, or SysTick extended to 32 bits by its wrap interrupt). */
uint32_t stow_port_cycles(void);

/* Writes len bytes of text to the platform's console. Need not be fast. */
void stow_port_write(const char *text, size_t len);

/* Ends the program with status (0 = success). Used by the default assert hooks
 * (status 134), the fault reporter (2), tests, benchmarks and demos; under QEMU
 * with semihosting it becomes QEMU's exit status, on a device it is typically a
 * reset. Does not return. */
void stow_port_exit(int status);

/* Masks interrupts (or takes the platform's lock) and returns the previous state,
 * which the matching stow_port_critical_exit() restores. Pairs nest. The
 * Cortex-M port sets PRIMASK: that masks every interrupt but NMI and HardFault,
 * on the core that runs it only; a multi-core chip needs a port that also takes
 * a lock the other cores respect. */
uint32_t stow_port_critical_enter(void);
void stow_port_critical_exit(uint32_t state);

/* Takes the lock whose word is *word (a uint32_t inside a container, 0 when
 * free, constant-initialised by the DEFINE macros and set to 0 by init) and
 * returns a state that the matching stow_port_unlock() gets back. Pairs nest:
 * taking a word the caller already holds returns at once, and its unlock then
 * releases nothing. While it is held, no other context that takes the same word
 * runs the protected code: on one core that means interrupts are masked (the
 * Cortex-M port sets PRIMASK, the RISC-V port clears mstatus.MIE, the word is not
 * touched); on the host the word holds the owning thread's id, so two threads on
 * two containers never wait for each other, and a thread that finds the word
 * taken spins briefly, then yields until it is free (signal handlers are not
 * covered there: a handler runs as the thread it interrupts). */
uint32_t stow_port_lock(uint32_t *word);
void stow_port_unlock(uint32_t *word, uint32_t state);

#ifdef __cplusplus
}
#endif

#endif /* STOW_PORT_H */
