/* SPDX-License-Identifier: MIT */
/* lwipopts.h - the options of the mapping test (adapters/lwip/test_mapping.c): as
 * a firmware's lwipopts.h would be, with stow_lwip.h's one line. STOW_LWIP_2_1
 * comes from the command line (1: lwIP 2.1's mem_clib_* names, as Debian's
 * headers are; 0: lwIP 2.2's MEM_CUSTOM_* names). */
#ifndef STOW_TEST_LWIPOPTS_H
#define STOW_TEST_LWIPOPTS_H

#define NO_SYS 1
#define LWIP_SOCKET 0
#define LWIP_NETCONN 0
#define MEM_ALIGNMENT 8

#include "stow_lwip.h"

#endif
