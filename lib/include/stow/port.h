/* stow/port.h - what stow needs from a platform.
 *
 * A port is a plain C file that defines the six functions below. The library
 * itself calls only stow_port_assert_failed() (on a contract violation, when
 * STOW_CHECK_LEVEL >= 1) and the critical-section pair (only in the functions
 * whose documentation says "ISR-safe"). Tests, benchmarks and demos use the rest.
 *
 * Ports that ship with stow:
 *   port/host/       POSIX: stdio output, exit(), monotonic clock, a mutex for
 *                    critical sections, and an assert hook that prints and aborts.
 *   port/cortex-m/   bare metal: ARM semihosting output and exit, DWT CYCCNT
 *                    (SysTick where the DWT does not count), PRIMASK critical
 *                    sections, an assert hook that prints and exits, and a
 *                    HardFault handler that prints the fault and exits non-zero.
 *
 * Writing your own: copy the closest port, keep the signatures, and keep each
 * function safe to call from any context your firmware calls stow from.
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

/* Ends the program with status (0 = success). Used by tests, benchmarks and
 * demos; under QEMU it becomes QEMU's exit status. Does not return. */
void stow_port_exit(int status);

/* Masks interrupts (or takes the platform's lock) and returns the previous state,
 * which the matching stow_port_critical_exit() restores. Pairs nest. The
 * Cortex-M port sets PRIMASK: that masks every interrupt but NMI and HardFault,
 * on the core that runs it only; a multi-core chip needs a port that also takes
 * a lock the other cores respect. */
uint32_t stow_port_critical_enter(void);
void stow_port_critical_exit(uint32_t state);

#ifdef __cplusplus
}
#endif

#endif /* STOW_PORT_H */
