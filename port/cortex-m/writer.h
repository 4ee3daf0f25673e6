/* SPDX-License-Identifier: MIT */
/* port/cortex-m/writer.h - text output shared by the Cortex-M port's files
 * (defined in port.c). Not part of stow's API. Each writes through
 * stow_port_write(), so it goes wherever the image's output hook sends it. */
#ifndef STOW_CM_WRITER_H
#define STOW_CM_WRITER_H

#include <stdint.h>

/* A NUL-terminated string; NULL prints "?". */
void stow__cm_write_text(const char *text);
/* value in decimal, no padding. */
void stow__cm_write_dec(uint32_t value);
/* value as "0x" and eight lower-case hex digits. */
void stow__cm_write_hex(uint32_t value);

#endif /* STOW_CM_WRITER_H */
