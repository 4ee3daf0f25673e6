#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stow_report.py - the static RAM of every stow container in an image, without running it.

    tools/stow_report.py firmware.elf              a table
    tools/stow_report.py --markdown firmware.elf   the same as Markdown (a CI job summary)
    tools/stow_report.py --csv firmware.elf        name,kind,subsystem,storage,object
    make report ELF=firmware.elf [MARKDOWN=1]

Reads the registry that every STOW_*_DEFINE puts in the image (stow/report.h):
the array of pointers between __start_stow_registry and __stop_stow_registry,
each to an entry of six pointer-sized words (name, subsystem, kind, container,
storage, next), and the budgets between __start_stow_budgets and
__stop_stow_budgets (subsystem, bytes), or the sections stow_registry and
stow_budgets where no symbol names their ends (a host program that never reads
the registry: its linker defines them only for code that refers to them).
Symbols come from binutils' nm (the
image's own: arm-none-eabi-nm, riscv64-unknown-elf-nm or nm, or --nm); the
bytes behind them from the ELF file itself, with the relocations a
position-independent executable applies at load time (RELATIVE ones) applied
here. For each container: its storage (the entry's) and its object (the symbol
at the container's address, from nm's size). Containers set up with init and
registered at run time are not in the file; stow_report() lists them too.
Only the Python standard library.
"""
import argparse
import shutil
import struct
import subprocess
import sys

EM_ARM, EM_RISCV, EM_X86_64, EM_AARCH64, EM_386 = 40, 243, 62, 183, 3
SHT_NOBITS, SHT_RELA = 8, 4
# RELATIVE relocation types for RELA sections: x86-64, AArch64, RISC-V.
RELATIVE = {EM_X86_64: 8, EM_AARCH64: 1027, EM_RISCV: 3}


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF":
            raise SystemExit(f"stow_report: {path} is not an ELF file")
        self.bits = 64 if d[4] == 2 else 32
        self.end = "<" if d[5] == 1 else ">"
        self.word = self.bits // 8
        self.machine = struct.unpack_from(self.end + "H", d, 18)[0]
        if self.bits == 64:
            shoff, = struct.unpack_from(self.end + "Q", d, 40)
            shentsize, shnum, shstrndx = struct.unpack_from(self.end + "HHH", d, 58)
        else:
            shoff, = struct.unpack_from(self.end + "I", d, 32)
            shentsize, shnum, shstrndx = struct.unpack_from(self.end + "HHH", d, 46)
        self.sections = []
        for i in range(shnum):
            o = shoff + i * shentsize
            if self.bits == 64:
                name, typ, _flags, addr, off, size = struct.unpack_from(self.end + "IIQQQQ", d, o)
                entsize, = struct.unpack_from(self.end + "Q", d, o + 56)
            else:
                name, typ, _flags, addr, off, size = struct.unpack_from(self.end + "IIIIII", d, o)
                entsize, = struct.unpack_from(self.end + "I", d, o + 36)
            self.sections.append([name, typ, addr, off, size, entsize])
        strtab = self.sections[shstrndx]
        for s in self.sections:
            s[0] = self._cstr(strtab[3] + s[0])
        self.relative = {}
        kind = RELATIVE.get(self.machine)
        for name, typ, _addr, off, size, entsize in self.sections:
            if typ != SHT_RELA or kind is None or entsize == 0:
                continue
            for o in range(off, off + size, entsize):
                fmt = "QQq" if self.bits == 64 else "IIi"
                where, info, addend = struct.unpack_from(self.end + fmt, d, o)
                typ_of = info & 0xFFFFFFFF if self.bits == 64 else info & 0xFF
                if typ_of == kind:
                    self.relative[where] = addend

    def _cstr(self, off):
        end = self.data.index(b"\0", off)
        return self.data[off:end].decode("utf-8", "replace")

    def section(self, name):
        for s in self.sections:
            if s[0] == name:
                return s
        return None

    def offset_of(self, addr):
        for name, typ, a, off, size, _e in self.sections:
            if typ != SHT_NOBITS and a != 0 and a <= addr < a + size:
                return off + (addr - a)
        raise SystemExit(f"stow_report: address {addr:#x} is in no section with contents")

    def word_at(self, addr):
        if addr in self.relative:
            return self.relative[addr]
        fmt = self.end + ("Q" if self.word == 8 else "I")
        return struct.unpack_from(fmt, self.data, self.offset_of(addr))[0]

    def string_at(self, addr):
        return self._cstr(self.offset_of(addr)) if addr != 0 else ""


def nm_for(elf, override):
    if override:
        return override
    wanted = {EM_ARM: "arm-none-eabi-nm", EM_RISCV: "riscv64-unknown-elf-nm"}.get(elf.machine, "nm")
    return wanted if shutil.which(wanted) else "nm"


def symbols(nm, path):
    out = subprocess.run([nm, "-S", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    by_name, by_addr = {}, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            addr, size, _t, name = int(f[0], 16), int(f[1], 16), f[2], f[3]
        elif len(f) == 3:
            addr, size, _t, name = int(f[0], 16), 0, f[1], f[2]
        else:
            continue
        by_name[name] = (addr, size)
        if size and (addr not in by_addr or by_addr[addr][1] < size):
            by_addr[addr] = (name, size)
    return by_name, by_addr


def read_registry(elf, by_name, by_addr):
    def array(section):
        start, stop = "__start_" + section, "__stop_" + section
        if start in by_name and stop in by_name:
            a, b = by_name[start][0], by_name[stop][0]
        else:
            # A host program that never reads the registry: the linker kept the
            # section under its own name but defined no symbols for its ends.
            s = elf.section(section)
            if s is None:
                return []
            a, b = s[2], s[2] + s[4]
        return [p for p in (elf.word_at(x) for x in range(a, b, elf.word)) if p != 0]

    w = elf.word
    rows = []
    for p in array("stow_registry"):
        name, sub, kind, container, storage = (elf.word_at(p + i * w) for i in range(5))
        obj = by_addr.get(container, ("", 0))[1]
        rows.append({"name": elf.string_at(name), "kind": elf.string_at(elf.word_at(kind)),
                     "subsystem": elf.string_at(sub), "storage": storage, "object": obj})
    budgets = {}
    for p in array("stow_budgets"):
        budgets.setdefault(elf.string_at(elf.word_at(p)), elf.word_at(p + w))
    return rows, budgets


def subsystems(rows, budgets):
    order = []
    for r in rows:
        if r["subsystem"] not in order:
            order.append(r["subsystem"])
    order += [b for b in budgets if b not in order]
    out = []
    for s in order:
        mine = [r for r in rows if r["subsystem"] == s]
        storage = sum(r["storage"] for r in mine)
        budget = budgets.get(s) if s else None
        state = "" if budget is None else ("OVER BUDGET" if storage > budget else "ok")
        out.append((s or "(none)", budget, storage, sum(r["object"] for r in mine), len(mine), state))
    return out


def table(header, rows, align, markdown):
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---:" if a == ">" else "---" for a in align) + "|"]
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return "\n".join(lines)
    width = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(header)]
    fmt = "  ".join("{:%s%d}" % (a, n) for a, n in zip(align, width))
    return "\n".join(fmt.format(*r).rstrip() for r in [header] + cells)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables, for a CI summary")
    ap.add_argument("--csv", action="store_true", help="name,kind,subsystem,storage,object")
    ap.add_argument("--nm", help="the nm to use (default: the image's own binutils)")
    args = ap.parse_args()
    elf = Elf(args.elf)
    by_name, by_addr = symbols(nm_for(elf, args.nm), args.elf)
    rows, budgets = read_registry(elf, by_name, by_addr)
    if args.csv:
        print("name,kind,subsystem,storage,object")
        for r in rows:
            print(f'{r["name"]},{r["kind"]},{r["subsystem"]},{r["storage"]},{r["object"]}')
        return 0
    md = args.markdown
    stow = elf.section(".stow")
    title = f"stow containers in {args.elf}"
    print(f"## {title}\n" if md else title)
    print(table(["container", "kind", "subsystem", "storage", "object", "RAM"],
                [(r["name"], r["kind"], r["subsystem"] or "-", r["storage"], r["object"],
                  r["storage"] + r["object"]) for r in rows],
                "<<<>>>", md))
    print()
    subs = subsystems(rows, budgets)
    print(table(["subsystem", "budget", "storage", "object", "containers", ""],
                [(s, "-" if b is None else b, st, ob, n, state) for s, b, st, ob, n, state in subs]
                + [("total", "-", sum(r["storage"] for r in rows), sum(r["object"] for r in rows),
                    len(rows), "")],
                "<>>>><", md))
    print()
    over = [s for s in subs if s[5] == "OVER BUDGET"]
    note = (f"{len(rows)} containers, {sum(r['storage'] + r['object'] for r in rows)} bytes of RAM"
            f" (storage and objects)")
    if stow is not None:
        note += f"; section .stow: {stow[4]} bytes"
    note += f"; {len(over)} subsystems over budget"
    print(note)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
