# SPDX-License-Identifier: MIT
"""PlatformIO extra script of library.json: builds stow's library port for the
board's architecture. library.json's srcFilter names the Cortex-M port; for a
RISC-V toolchain this script names the RISC-V port instead (machine mode,
mstatus.MIE critical sections) and adds -mstrict-align, as stow's own RISC-V
builds do. PlatformIO runs it in the library's build environment, where
env.Replace(SRC_FILTER=...) applies to stow's sources only.

Checked offline by tests/consumers/check_manifests.py with a stand-in for
PlatformIO's environment (PlatformIO itself does not run in stow's tests)."""


def stow_port_for(compiler):
    """The port directory for a C compiler's name: riscv or cortex-m."""
    return "riscv" if "riscv" in compiler else "cortex-m"


def stow_source_filter(port):
    return ["-<*>", "+<lib/src/*.c>", "+<port/%s/port.c>" % port, "+<port/%s/assert.c>" % port]


try:
    Import("env")  # noqa: F821 - defined by PlatformIO's SCons
except NameError:
    env = None

if env is not None:
    port = stow_port_for(env.subst("$CC"))
    env.Replace(SRC_FILTER=stow_source_filter(port))
    if port == "riscv":
        env.Append(CCFLAGS=["-mstrict-align"])
