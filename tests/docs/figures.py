# SPDX-License-Identifier: MIT
"""figures.py ROOT [--measure DIR] [--update] - the figures of README.md and
docs/*.md are the ones make bench and make size printed.

make bench and make size keep what they print in bench/results/bench.md and
bench/results/size.md (bench/record.sh). A figure in the docs is tied to a cell of
a table there by a comment (invisible on the rendered page):

  inline, right after the number:
      alloc takes 9<!--fig ops: pool alloc (free list) @ Cortex-M4 L0--> instructions
  TABLE: ROW @ COLUMN (no "|": the comment may sit in a table's cell): TABLE is a name from tests/docs/figures.conf (a record and
  a table in it), ROW the text of the row's first cell, COLUMN its header. ROW may
  be a sum, "arena + pool + packed" (when no row has that name), of cells added number by number. A record
  cell may hold several numbers ("1598 +2188", ".text +.rodata"): the figure is
  the first, or the n-th with "COLUMN #n".

  a whole table, in a comment on the lines just before it:
      <!--figures
      column M4 L0 = ops @ Cortex-M4 L0
      row pool alloc_isr / free_isr = pool alloc_isr (free list) / pool free_isr
      row all five = arena + pool + genpool + slotmap + packed
      -->
  Each "column" names a header of the doc's table and the record's column it
  shows; columns not named are text. Each row of the doc's table is the record's
  row of the same name (code spans' backticks dropped), or the one its "row"
  line names; " / " shows several cells in one, as the doc's cell does. The
  numbers of a doc cell must be the record cell's, in order; the doc may leave
  trailing ones out ("1598" for "1598 +2188 / 0 / 0"). "row X = -" skips a row.

Numbers are compared as written ("1,412" is 1412; 47.1 is 47.1).

--measure DIR runs bench/size.sh again for the cores and optimisation levels
the docs cite (levels 0 and 1, output in DIR) and compares every cell of that
run with the record: the size record must be what today's lib/ measures, so a
change to the code that moves a figure fails here until make size records it
and the docs follow. (make bench is too slow for make test: its record is
compared with the docs only.)

--update rewrites each tied figure that differs with the record's value (and
says which), for after make bench / make size; read the prose around them.

Prints one line per figure that is wrong and ends with "N passed, N failed".
"""
import os
import re
import subprocess
import sys

from pages import pages

ROOT = sys.argv[1]
ARGS = sys.argv[2:]
NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
INLINE = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)<!--fig\s+(.*?)\s*-->")
BLOCK = re.compile(r"<!--figures\s*\n(.*?)-->", re.S)


def numbers(text):
    return [float(n.replace(",", "")) for n in NUM.findall(text.replace("\u2212", "-"))]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_record(path):
    """{(title, first header): {"head": [...], "rows": {label: [cells]}}} in order."""
    tables = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    title = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$", lines[i + 1]):
            head = cells(line)
            rows = {}
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                c = cells(lines[i])
                label = c[0].replace("**", "").strip()
                rows.setdefault(label, c[1:])
                i += 1
            tables.append({"title": title, "head": head, "rows": rows})
            continue
        if line.strip():
            title = line.lstrip("#").strip()
        i += 1
    return tables


def load_conf():
    conf = {}
    with open(os.path.join(ROOT, "tests/docs/figures.conf"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
            if not line:
                continue
            name, _, spec = line.partition("=")
            parts = [p.strip() for p in spec.split("|")]
            if len(parts) != 3:
                sys.exit("figures.conf:%d: NAME = RECORD | TITLE | FIRST HEADER" % n)
            conf[name.strip()] = parts
    return conf


class Records:
    def __init__(self, conf, overrides=None):
        self.conf = conf
        self.tables = {}
        self.overrides = overrides or {}

    def record(self, name):
        if name not in self.tables:
            path = self.overrides.get(name) or os.path.join(ROOT, "bench/results/%s.md" % name)
            self.tables[name] = parse_record(path) if os.path.exists(path) else None
        return self.tables[name]

    def table(self, alias):
        if alias not in self.conf:
            raise KeyError("no table %r in tests/docs/figures.conf" % alias)
        rec, title, first = self.conf[alias]
        tables = self.record(rec)
        if tables is None:
            raise KeyError("no bench/results/%s.md: run make %s" % (rec, rec))
        found = [t for t in tables if t["title"].startswith(title) and t["head"][0] == first]
        if len(found) != 1:
            raise KeyError("%d tables titled %r... with first header %r in %s.md" % (len(found), title, first, rec))
        return found[0]

    def cell(self, alias, row, column):
        """The numbers of a record cell; ROW may be "a + b" (summed)."""
        t = self.table(alias)
        if t["head"].count(column) != 1:
            raise KeyError("%d columns %r in table %s" % (t["head"].count(column), column, alias))
        col = t["head"].index(column) - 1
        total = None
        for part in [row] if row in t["rows"] else [r.strip() for r in row.split(" + ")]:
            if part not in t["rows"]:
                raise KeyError("no row %r in table %s" % (part, alias))
            nums = numbers(t["rows"][part][col])
            total = nums if total is None else [a + b for a, b in zip(total, nums)]
        return total


def same(a, b):
    return abs(a - b) < 1e-9


def fmt(v, like):
    s = ("%.3f" % v).rstrip("0").rstrip(".")
    if "," in like:
        whole, _, frac = s.partition(".")
        s = "{:,}".format(int(whole)) + ("." + frac if frac else "")
    return s



def check_page(page, recs, update, cited):
    """(passed, failed, new text or None)"""
    path = os.path.join(ROOT, page)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    passed = failed = 0
    changed = False

    def inline(m):
        nonlocal passed, failed, changed
        shown, key = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        table, _, rest = key.partition(":")
        row, _, column = rest.rpartition("@")
        parts = [table.strip(), row.strip(), column.strip()]
        index = 1
        if len(parts) == 3 and re.search(r"\s#\d+$", parts[2]):
            parts[2], index = parts[2].rsplit("#", 1)[0].strip(), int(parts[2].rsplit("#", 1)[1])
        try:
            if not all(parts):
                raise KeyError("a figure's key is TABLE: ROW @ COLUMN")
            cited.add((parts[0], parts[2]))
            want = recs.cell(*parts)[index - 1]
        except (KeyError, IndexError) as e:
            print("FAIL %s:%d: %s: %s" % (page, line, key, e))
            failed += 1
            return m.group(0)
        if same(numbers(shown)[0], want):
            passed += 1
            return m.group(0)
        if update:
            print("updated %s:%d: %s -> %s (%s)" % (page, line, shown, fmt(want, shown), key))
            changed = True
            passed += 1
            return fmt(want, shown) + m.group(0)[len(shown):]
        print("FAIL %s:%d: %s says %s, the record %s" % (page, line, key, shown, fmt(want, shown)))
        failed += 1
        return m.group(0)

    text = INLINE.sub(inline, text)

    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if not lines[i].startswith("<!--figures"):
            i += 1
            continue
        start = i
        spec = []
        i += 1
        while i < len(lines) and not lines[i].startswith("-->"):
            spec.append(lines[i])
            out.append(lines[i])
            i += 1
        out.append(lines[i] if i < len(lines) else "")
        i += 1
        while i < len(lines) and not lines[i].startswith("|"):
            out.append(lines[i])
            i += 1
        columns, rows = {}, {}
        for s in spec:
            m = re.match(r"^\s*(column|row)\s+(.*?)\s+=\s+(.*?)\s*$", s)
            if not m:
                print("FAIL %s:%d: not a column or row line: %s" % (page, start + 1, s))
                failed += 1
                continue
            if m.group(1) == "column":
                alias, _, col = m.group(3).partition("@")
                columns[m.group(2)] = (alias.strip(), col.strip())
                cited.add((alias.strip(), col.strip()))
            else:
                rows[m.group(2)] = m.group(3)
        if i >= len(lines):
            print("FAIL %s:%d: a figures comment with no table after it" % (page, start + 1))
            failed += 1
            break
        head = cells(lines[i])
        for name in columns:
            if name not in head:
                print("FAIL %s:%d: the table has no column %r" % (page, start + 1, name))
                failed += 1
        out.append(lines[i])
        out.append(lines[i + 1])
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            c = cells(lines[i])
            row_changed = False
            label = c[0].replace("`", "").replace("**", "").strip()
            source = rows.get(label, label)
            for j, name in enumerate(head):
                if name not in columns or j == 0 or source == "-":
                    continue
                alias, col = columns[name]
                shown = c[j] if j < len(c) else ""
                parts = [p.strip() for p in source.split(" / ")]
                pieces = shown.split(" / ") if len(parts) > 1 else [shown]
                where = "%s:%d: %s | %s" % (page, i + 1, label, name)
                try:
                    wants = [recs.cell(alias, p, col) for p in parts]
                except KeyError as e:
                    print("FAIL %s: %s" % (where, e))
                    failed += 1
                    continue
                ok = len(pieces) == len(wants)
                for piece, want in zip(pieces, wants):
                    got = numbers(piece)
                    if not got and want or len(got) > len(want) or \
                            not all(same(a, b) for a, b in zip(got, want)):
                        ok = False
                if ok:
                    passed += 1
                elif update:
                    new = " / ".join(" ".join(fmt(v, piece) for v in want[:max(1, len(numbers(piece)))])
                                     for piece, want in zip(pieces + [""] * len(wants), wants))
                    print("updated %s: %s -> %s (check its layout)" % (where, shown, new))
                    c[j] = new
                    changed = row_changed = True
                    passed += 1
                else:
                    print("FAIL %s: the doc says %s, the record %s" % (
                        where, shown, " / ".join(" ".join(fmt(v, "") for v in w) for w in wants)))
                    failed += 1
            out.append("| " + " | ".join(c) + " |" if row_changed else lines[i])
            i += 1
    return passed, failed, "\n".join(out) if changed else None


def measure(conf, cited, workdir):
    """Runs bench/size.sh for the cited configurations; compares with the record."""
    cores, opts = set(), set()
    for alias, col in cited:
        rec, title, _ = conf[alias]
        if rec != "size":
            continue
        m = re.match(r"^-(\w+) L\d$", col)
        if m:
            opts.add(m.group(1))
        if re.match(r"^(cortex-m|rv)\w*$", title):
            cores.add(title)
    # The heap's table has a row per core: the cores the docs speak of (and
    # cortex-m4 -Os, whose level 1 the assert text's table is built from).
    cores |= {"cortex-m0", "cortex-m4", "rv32imac"}
    opts |= {"Os"}
    env = dict(os.environ, SIZE_CPUS=" ".join(sorted(cores)), SIZE_OPTS=" ".join(sorted(opts)),
               SIZE_LEVELS="0 1", SIZE_DETAIL="none")
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "size.md")
    with open(out, "w", encoding="utf-8") as f:
        p = subprocess.run(["sh", os.path.join(ROOT, "bench/size.sh")], stdout=f, stderr=subprocess.STDOUT,
                           env=env)
    if p.returncode != 0:
        print("FAIL bench/size.sh (%s, %s) exited with %d; see %s" % (env["SIZE_CPUS"], env["SIZE_OPTS"],
                                                                     p.returncode, out))
        return 0, 1
    fresh = parse_record(out)
    record = parse_record(os.path.join(ROOT, "bench/results/size.md"))
    passed = failed = 0
    for t in fresh:
        match = [r for r in record if r["title"] == t["title"] and r["head"][0] == t["head"][0]]
        if len(match) != 1:
            print("FAIL size: table %r (%s) is not in bench/results/size.md once: run make size" % (
                t["title"], t["head"][0]))
            failed += 1
            continue
        r = match[0]
        for label, row in t["rows"].items():
            if any("not built" in c for c in row):
                continue
            for j, name in enumerate(t["head"][1:]):
                if name not in r["head"][1:]:
                    continue
                rec_row = r["rows"].get(label)
                was = rec_row[r["head"].index(name) - 1] if rec_row else None
                if was == row[j]:
                    passed += 1
                else:
                    print("FAIL size: %s, %s, %s: measured %s, bench/results/size.md says %s (run make size,"
                          " then make the docs follow)" % (t["title"], label, name, row[j], was))
                    failed += 1
    print("size: %s at -%s measured again, %d cells compared with bench/results/size.md" % (
        env["SIZE_CPUS"], " -".join(sorted(opts)), passed + failed))
    return passed, failed


def main():
    update = "--update" in ARGS
    conf = load_conf()
    recs = Records(conf)
    passed = failed = 0
    cited = set()
    for page in pages(ROOT):
        p, f, new = check_page(page, recs, update, cited)
        passed += p
        failed += f
        if new is not None:
            with open(os.path.join(ROOT, page), "w", encoding="utf-8") as out:
                out.write(new)
    print("%d figures tied to bench/results/ checked" % (passed + failed))
    if "--measure" in ARGS:
        p, f = measure(conf, cited, ARGS[ARGS.index("--measure") + 1])
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
