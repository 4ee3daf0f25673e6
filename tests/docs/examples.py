# SPDX-License-Identifier: MIT
"""examples.py ROOT WORKDIR LIBRARY - every C and C++ example of README.md and
docs/*.md compiles, and links where it is a program.

A fenced block that opens with ```c is compiled as C by $CC $CFLAGS, one with
```cpp as C++ by $CXX $CXXFLAGS, each with -I ROOT/lib/include (-isystem for
C++, as the docs tell C++ users to). A block that has a main() or a STOW_*
DEFINE is then linked with LIBRARY (the host build of lib/, libstow.a) and the
host port (port/host/*.c, compiled here once; a block without main() gets an
empty one), and one with a main()
is run and must exit 0.

A block whose first line is a comment that names a header ("/* budgets.h ...")
is that header: it is written where the page's other blocks find it with
#include "budgets.h", and one of them must include it.

The HTML comment on the line just before a block can say:
  <!-- example: continues -->  append to the page's previous compiled block:
                                one translation unit shown in pieces;
  <!-- example: compile -->     compile, do not link: it defines what the host
                                port defines, or calls the reader's functions;
  <!-- example: fragment -->    a piece of code that is not a whole C file
                                (shown inside prose); not compiled. Few.
Prints one line per failure and ends with "N passed, N failed" (a case per
translation unit; fragments are counted and listed, not passed).
"""
import os
import re
import shlex
import subprocess
import sys

from pages import pages
from concurrent.futures import ThreadPoolExecutor

ROOT, WORK = sys.argv[1], os.path.abspath(sys.argv[2])
LIBS = sys.argv[3:]
CC = os.environ.get("CC", "gcc")
CXX = os.environ.get("CXX", "g++")
CFLAGS = shlex.split(os.environ.get("CFLAGS", ""))
CXXFLAGS = shlex.split(os.environ.get("CXXFLAGS", ""))
INC = os.path.join(ROOT, "lib/include")
OPEN = re.compile(r"^```(c|cpp)\s*$")
MARK = re.compile(r"^<!--\s*example:\s*(continues|compile|fragment)\s*-->\s*$")
DEFINE = re.compile(r"\bSTOW_[A-Z_]*DEFINE[A-Z_]*\s*\(")
MAIN = re.compile(r"\bint\s+main\s*\(")
HEADER = re.compile(r"^\s*(?:/\*|//)\s*([A-Za-z_][\w-]*\.h)\b")



def blocks(page):
    """(line, language, marker, code) for each ```c / ```cpp block."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if not m:
            if lines[i].startswith("```"):  # another language: skip to its end
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        prev = lines[i - 1] if i > 0 else ""
        mark = MARK.match(prev)
        start = i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            i += 1
        yield start, m.group(1), mark.group(1) if mark else "", "\n".join(lines[start:i]) + "\n"
        i += 1


def units():
    """Translation units (where, language, kind, source, include directory), and
    the fragments. Writes each page's headers into their directories."""
    out = []
    fragments = []
    for n, page in enumerate(pages(ROOT)):
        last = None
        inc = os.path.join(WORK, "page%02d" % n)
        os.makedirs(inc, exist_ok=True)
        headers = {}
        first = len(out)
        for line, lang, mark, code in blocks(page):
            where = "%s:%d" % (page, line)
            text = '#line %d "%s"\n%s' % (line + 1, page, code)
            h = HEADER.match(code)
            if h and not mark:
                with open(os.path.join(inc, h.group(1)), "w", encoding="utf-8") as f:
                    f.write(text)
                headers[h.group(1)] = where
            elif mark == "fragment":
                fragments.append(where)
            elif mark == "continues":
                if last is None or last["lang"] != lang:
                    out.append({"where": where, "lang": lang, "kind": "error",
                                "code": "nothing before it to continue"})
                else:
                    last["code"] += text
            else:
                last = {"where": where, "lang": lang, "kind": mark or "link", "code": text, "inc": inc}
                out.append(last)
        for name, where in headers.items():
            if not any('#include "%s"' % name in u["code"] for u in out[first:]):
                out.append({"where": where, "lang": "c", "kind": "error",
                            "code": "the header %s is included by no example on its page" % name})
    return [(u["where"], u["lang"], u["kind"], u["code"], u.get("inc")) for u in out], fragments


def run(cmd, cwd=None, timeout=60):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, universal_newlines=True)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 1, "timed out after %d s" % timeout


def build(index, unit):
    where, lang, kind, code, inc = unit
    if kind == "error":
        return where, code
    base = os.path.join(WORK, "ex%02d" % index)
    src = base + (".c" if lang == "c" else ".cpp")
    with open(src, "w", encoding="utf-8") as f:
        f.write(code)
    if lang == "c":
        compile_cmd = [CC] + CFLAGS + ["-I" + INC, "-I" + inc, "-c", src, "-o", base + ".o"]
    else:
        compile_cmd = [CXX] + CXXFLAGS + ["-isystem", INC, "-I" + inc, "-c", src, "-o", base + ".o"]
    status, out = run(compile_cmd)
    if status != 0:
        return where, "does not compile:\n" + out
    has_main = MAIN.search(code) is not None
    if kind == "compile" or not (has_main or DEFINE.search(code)):
        return where, None
    objs = [base + ".o"]
    if not has_main:
        with open(base + "-main.c", "w", encoding="utf-8") as f:
            f.write("int main(void);\nint main(void) { return 0; }\n")
        objs.append(base + "-main.c")
    linker = CC if lang == "c" else CXX
    status, out = run([linker] + objs + LIBS + ["-lpthread", "-o", base])
    if status != 0:
        return where, "does not link:\n" + out
    if has_main:
        status, out = run([base], cwd=WORK, timeout=30)
        if status != 0:
            return where, "runs and exits with status %d:\n%s" % (status, out)
    return where, None


def build_port():
    """port/host/*.c compiled once; the objects, or an error."""
    objs = []
    port = os.path.join(ROOT, "port/host")
    for name in sorted(os.listdir(port)):
        if name.endswith(".c"):
            obj = os.path.join(WORK, "port-" + name[:-2] + ".o")
            status, out = run([CC] + CFLAGS + ["-I" + INC, "-c", os.path.join(port, name), "-o", obj])
            if status != 0:
                return None, "port/host/%s does not compile:\n%s" % (name, out)
            objs.append(obj)
    return objs, None


def main():
    os.makedirs(WORK, exist_ok=True)
    port, error = build_port()
    if error:
        print("FAIL " + error)
        print("0 passed, 1 failed")
        return 0
    LIBS.extend(port)
    todo, fragments = units()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda iu: build(*iu), enumerate(todo)))
    passed = failed = 0
    for where, error in results:
        if error:
            print("FAIL %s: %s" % (where, error.rstrip()))
            failed += 1
        else:
            passed += 1
    print("%d examples built (%d linked and %d run), %d fragments not compiled: %s" % (
        len(todo), sum(1 for u in todo if u[2] != "compile" and (MAIN.search(u[3]) or DEFINE.search(u[3]))),
        sum(1 for u in todo if MAIN.search(u[3])), len(fragments), " ".join(fragments) or "-"))
    print("%d passed, %d failed" % (passed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
