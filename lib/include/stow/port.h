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
 *                                lock-free 32-bit atomics (RV32 without the A
 *                                extension, say), and on ARMv6-M built with
 *                                STOW_MULTICORE (stow/config.h);
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
 *   port/cortex-m/smp.c       several cores (docs/multicore.md): replaces
 *   port/riscv/smp.c          port.c's critical sections and locks, which
 *                             port.c then leaves out (build it with
 *                             -DSTOW_PORT_SMP): interrupts masked, then the
 *                             word taken by compare-and-swap (LDREX/STREX on
 *                             ARMv7-M and ARMv8-M, LR/SC on RISC-V with the A
 *                             extension, the chip's own spinlock through
 *                             stow_port_chip_lock() on ARMv6-M), as below;
 *                             the critical section is the same lock on one
 *                             word of the port's. The host port needs nothing
 *                             more: it is that already.
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
 * handler takes the same word, would spin for ever on that core. The shipped
 * multi-core ports (smp.c) do exactly this, and wait for a word held by another
 * core with interrupts as the caller had them (masking again before each try),
 * so that a long wait does not hold this core's interrupts off; they need the
 * hooks at the end of this file.
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

/* ---- what the multi-core ports (smp.c) need; the library calls none of these */

/* The number of the core that runs the caller: 0, 1, ..., the same on every
 * call from that core, and below UINT32_MAX. port/riscv/smp.c defines it (the
 * mhartid CSR). port/cortex-m/smp.c defines it when built with
 * -DSTOW_PORT_CORE_REG=<address of a register that reads the core's number>
 * (RP2040 and RP2350: SIO CPUID, 0xD0000000; the SSE-200 of MPS2 AN521:
 * CPU_IDENTITY, 0x4001F000), and otherwise the firmware defines it (Cortex-M
 * has no architectural core number). */
uint32_t stow_port_core(void);

/* ARMv6-M has no exclusives (and a chip may give a core family that has them
 * memory that no global monitor covers): there port/cortex-m/smp.c makes its
 * read-compare-write of a lock word atomic across cores with the chip's own
 * lock, taken by stow_port_chip_lock() and released by stow_port_chip_unlock().
 * One lock serves every word; the port holds it for a few loads and stores,
 * with interrupts masked, and never nests it. Lock must not return before the
 * lock is held by this core (and acts as an acquire barrier), unlock releases
 * it (a release barrier). Built with -DSTOW_PORT_SPINLOCK_REG=<address> the
 * port defines both for a hardware spinlock that reads non-zero when this read
 * took it and 0 when it is taken, and is released by any write: RP2040 and
 * RP2350 SIO SPINLOCKn at 0xD0000100 + 4n (the port takes whichever n you
 * give it; the Pico SDK reserves some). Otherwise the firmware defines them
 * (STM32H7: an HSEM semaphore; nRF5340: the MUTEX peripheral). Other cores
 * use them only when port/cortex-m/smp.c is built with -DSTOW_PORT_CHIP_LOCK=1. */
void stow_port_chip_lock(void);
void stow_port_chip_unlock(void);

#ifdef __cplusplus
}
#endif

#endif /* STOW_PORT_H */
