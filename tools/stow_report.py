#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stow_report.py - the static RAM of every stow container, without running the program.

    tools/stow_report.py firmware.elf              a table, from a linked image
    tools/stow_report.py main.o audio.o libstow.a  the same, from the objects a link was given
    tools/stow_report.py --markdown firmware.elf   the same as Markdown (a CI job summary)
    tools/stow_report.py --csv firmware.elf        name,kind,subsystem,storage,object
    make report ELF=firmware.elf [MARKDOWN=1]

From an image: reads the registry that every STOW_*_DEFINE puts in it
(stow/report.h): the array of pointers between __start_stow_registry and
__stop_stow_registry, each to an entry of six pointer-sized words (name,
subsystem, kind, container, storage, next), and the budgets between
__start_stow_budgets and __stop_stow_budgets (subsystem, bytes), or the sections
stow_registry and stow_budgets where no symbol names their ends (a host program
that never reads the registry: its linker defines them only for code that refers
to them). Symbols come from binutils' nm (the image's own: arm-none-eabi-nm,
riscv64-unknown-elf-nm or nm, or --nm); the bytes behind them from the ELF file
itself, with the relocations a position-independent executable applies at load
time (RELATIVE ones) applied here. For each container: its storage (the entry's)
and its object (the symbol at the container's address, from nm's size).
Containers set up with init and registered at run time are not in the file;
stow_report() lists them too.

From objects (relocatable .o files and .a archives, what a link that failed over
a budget leaves): each DEFINE's storage section, .bss.stow.[in.<subsystem>.]
<kind>.<name>, and each STOW_BUDGET's entry (its local symbol
stow__budget_<subsystem>). Storage only: the containers' objects and the padding
the linker puts between sections are not counted (the link's map, -Map=FILE,
shows both). Objects built with -flto hold no sections to read: pass
-ffat-lto-objects, or read the image.

Every error is one line on stderr, exit status 2; over budget, exit status 1.
Only the Python standard library.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

EM_ARM, EM_RISCV, EM_X86_64, EM_AARCH64, EM_386 = 40, 243, 62, 183, 3
SHT_NOBITS, SHT_RELA = 8, 4
# RELATIVE relocation types for RELA sections: x86-64, AArch64, RISC-V.
RELATIVE = {EM_X86_64: 8, EM_AARCH64: 1027, EM_RISCV: 3}


class Fail(Exception):
    """An error the user can act on: printed as one line."""


ET_REL = 1
SHT_SYMTAB = 2
STB_LOCAL_STT_OBJECT = 0x01  # st_info: binding LOCAL (0) << 4 | type OBJECT (1)
KINDS = ("arena", "pool", "genpool", "slotmap", "packed", "heap")


class Elf:
    def __init__(self, path, data=None):
        if data is None:
            with open(path, "rb") as f:
                data = f.read()
        self.path = path
        self.data = data
        d = self.data
        if d[:4] != b"\x7fELF":
            raise Fail(f"{path} is not an ELF file, an object or an archive")
        self.bits = 64 if d[4] == 2 else 32
        self.end = "<" if d[5] == 1 else ">"
        self.word = self.bits // 8
        self.type, self.machine = struct.unpack_from(self.end + "HH", d, 16)
        if self.bits == 64:
            shoff, = struct.unpack_from(self.end + "Q", d, 40)
            shentsize, shnum, shstrndx = struct.unpack_from(self.end + "HHH", d, 58)
        else:
            shoff, = struct.unpack_from(self.end + "I", d, 32)
            shentsize, shnum, shstrndx = struct.unpack_from(self.end + "HHH", d, 46)
        self.sections = []
        self.links = []
        for i in range(shnum):
            o = shoff + i * shentsize
            if self.bits == 64:
                name, typ, _flags, addr, off, size, link = struct.unpack_from(self.end + "IIQQQQI", d, o)
                entsize, = struct.unpack_from(self.end + "Q", d, o + 56)
            else:
                name, typ, _flags, addr, off, size, link = struct.unpack_from(self.end + "IIIIIII", d, o)
                entsize, = struct.unpack_from(self.end + "I", d, o + 36)
            self.sections.append([name, typ, addr, off, size, entsize])
            self.links.append(link)
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
        raise Fail(f"{self.path}: address {addr:#x} is in no section with contents")

    def word_at(self, addr):
        if addr in self.relative:
            return self.relative[addr]
        fmt = self.end + ("Q" if self.word == 8 else "I")
        return struct.unpack_from(fmt, self.data, self.offset_of(addr))[0]

    def string_at(self, addr):
        return self._cstr(self.offset_of(addr)) if addr != 0 else ""

    def local_symbols(self):
        """(name, section index, value) of every local data object in .symtab."""
        out = []
        for i, (_name, typ, _addr, off, size, entsize) in enumerate(self.sections):
            if typ != SHT_SYMTAB or entsize == 0:
                continue
            strings = self.sections[self.links[i]][3]
            for o in range(off, off + size, entsize):
                if self.bits == 64:
                    name, info, _o, shndx, value = struct.unpack_from(self.end + "IBBHQ", self.data, o)
                else:
                    name, value, _s, info, _o, shndx = struct.unpack_from(self.end + "IIIBBH", self.data, o)
                if info == STB_LOCAL_STT_OBJECT:
                    out.append((self._cstr(strings + name), shndx, value))
        return out


def nm_for(elf, override):
    if override:
        return override
    wanted = {EM_ARM: "arm-none-eabi-nm", EM_RISCV: "riscv64-unknown-elf-nm"}.get(elf.machine, "nm")
    return wanted if shutil.which(wanted) else "nm"


def symbols(nm, path):
    try:
        run = subprocess.run([nm, "-S", "--defined-only", path], capture_output=True, text=True)
    except OSError as e:
        raise Fail(f"cannot run {nm} ({e.strerror}): install binutils for the image, or name one with --nm")
    if run.returncode != 0:
        err = (run.stderr.strip().splitlines() or ["exit status %d" % run.returncode])[0]
        raise Fail(f"{nm} failed on {path}: {err}")
    out = run.stdout
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


def archive_members(path, data):
    """(name, bytes) of each member of a System V / GNU ar archive."""
    if data.startswith(b"!<thin>\n"):
        raise Fail(f"{path} is a thin archive: pass the objects it names instead")
    members, o, names = [], 8, b""
    while o + 60 <= len(data):
        head = data[o:o + 60]
        name = head[:16].decode("ascii", "replace").strip()
        try:
            size = int(head[48:58].decode("ascii").strip())
        except ValueError:
            raise Fail(f"{path}: a damaged archive member header at byte {o}")
        body = data[o + 60:o + 60 + size]
        o += 60 + size + (size & 1)
        if name == "//":
            names = body
        elif name.startswith("/") and name[1:].isdigit():
            at = int(name[1:])
            end = names.find(b"/\n", at)
            members.append((names[at:end if end >= 0 else None].decode("utf-8", "replace"), body))
        elif name not in ("/", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED"):
            members.append((name.rstrip("/"), body))
    return members


def read_objects(paths):
    """Containers and budgets from relocatable objects and archives."""
    objects = []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(b"!<arch>\n") or data.startswith(b"!<thin>\n"):
            objects += [(f"{path}({n})", Elf(f"{path}({n})", body))
                        for n, body in archive_members(path, data) if body[:4] == b"\x7fELF"]
        else:
            elf = Elf(path, data)
            if elf.type != ET_REL:
                raise Fail(f"{path} is a linked image: read it alone, or give only the link's objects")
            objects.append((path, elf))
    rows, budgets = [], {}
    for where, elf in objects:
        for name, _typ, _addr, _off, size, _e in elf.sections:
            if not name.startswith(".bss.stow."):
                continue
            parts = name[len(".bss.stow."):].split(".")
            sub = ""
            if parts[0] == "in" and len(parts) >= 4:
                sub, parts = parts[1], parts[2:]
            if len(parts) < 2 or parts[0] not in KINDS:
                continue
            rows.append({"name": ".".join(parts[1:]), "kind": parts[0], "subsystem": sub,
                         "storage": size, "object": 0, "file": where})
        for sym, shndx, value in elf.local_symbols():
            if sym.startswith("stow__budget_") and not sym.startswith("stow__budget_ptr_") \
                    and 0 < shndx < len(elf.sections):
                sec = elf.sections[shndx]
                if sec[1] == SHT_NOBITS:
                    continue
                fmt = elf.end + ("Q" if elf.word == 8 else "I")
                budgets.setdefault(sym[len("stow__budget_"):],
                                   struct.unpack_from(fmt, elf.data, sec[3] + value + elf.word)[0])
    return rows, budgets


def print_tables(rows, budgets, title, md, objects_known):
    print(f"## {title}\n" if md else title)
    if objects_known:
        print(table(["container", "kind", "subsystem", "storage", "object", "RAM"],
                    [(r["name"], r["kind"], r["subsystem"] or "-", r["storage"], r["object"],
                      r["storage"] + r["object"]) for r in rows],
                    "<<<>>>", md))
    else:
        print(table(["container", "kind", "subsystem", "storage", "file"],
                    [(r["name"], r["kind"], r["subsystem"] or "-", r["storage"], r["file"]) for r in rows],
                    "<<<><", md))
    print()
    subs = subsystems(rows, budgets)
    print(table(["subsystem", "budget", "storage", "object", "containers", ""],
                [(s, "-" if b is None else b, st, ob, n, state) for s, b, st, ob, n, state in subs]
                + [("total", "-", sum(r["storage"] for r in rows), sum(r["object"] for r in rows),
                    len(rows), "")],
                "<>>>><", md))
    print()
    return [s for s in subs if s[5] == "OVER BUDGET"]


def report(args):
    for path in args.files:
        if not os.path.exists(path):
            hint = (" (a link that failed leaves no image: pass the objects it was given)"
                    if len(args.files) == 1 else "")
            raise Fail(f"{path}: no such file{hint}")
    first = args.files[0]
    with open(first, "rb") as f:
        head = f.read(18)
    image = (len(args.files) == 1 and len(head) == 18 and head[:4] == b"\x7fELF"
             and struct.unpack_from("<H" if head[5] == 1 else ">H", head, 16)[0] != ET_REL)
    if image:
        elf = Elf(first)
        by_name, by_addr = symbols(nm_for(elf, args.nm), first)
        rows, budgets = read_registry(elf, by_name, by_addr)
        for r in rows:
            r["file"] = first
    else:
        elf = None
        rows, budgets = read_objects(args.files)
    if args.csv:
        print("name,kind,subsystem,storage,object")
        for r in rows:
            print(f'{r["name"]},{r["kind"]},{r["subsystem"]},{r["storage"]},{r["object"]}')
        return 0
    md = args.markdown
    title = (f"stow containers in {first}" if image
             else f"stow containers in {len(args.files)} object files (storage only; the link adds padding)")
    over = print_tables(rows, budgets, title, md, image)
    note = (f"{len(rows)} containers, {sum(r['storage'] + r['object'] for r in rows)} bytes of RAM"
            f" ({'storage and objects' if image else 'storage'})")
    stow = elf.section(".stow") if elf is not None else None
    if stow is not None:
        note += f"; section .stow: {stow[4]} bytes"
    note += f"; {len(over)} subsystems over budget"
    print(note)
    return 1 if over else 0


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"stow_report: {message} (stow_report.py --help)", file=sys.stderr)
        sys.exit(2)


def main():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", metavar="IMAGE | OBJECT...",
                    help="a linked image, or the .o and .a files of a link")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables, for a CI summary")
    ap.add_argument("--csv", action="store_true", help="name,kind,subsystem,storage,object")
    ap.add_argument("--nm", help="the nm to use (default: the image's own binutils)")
    args = ap.parse_args()
    try:
        return report(args)
    except Fail as e:
        msg = str(e)
    except OSError as e:
        msg = f"{e.filename}: {e.strerror}"
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        msg = f"{' '.join(args.files)}: truncated or not a valid ELF file"
    print(f"stow_report: {msg}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
