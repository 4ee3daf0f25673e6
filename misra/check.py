#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""misra/check.py - the verdict of `make misra`.

Reads the findings cppcheck's MISRA addon wrote for every file set, target and
check level (build/misra/<set>-<target>-L<level>.txt, one finding a line:
file:line:column:id), matches each against misra/deviations.txt, and prints per
file and category: what the tool found, what the record accounts for, and what
is left. Fails when anything is left outside the pending files, when an entry
of the record matches nothing (a stale entry hides nothing and must go), or when
the record deviates from a mandatory rule.

Marks in the code. A finding on a line that carries cppcheck's inline
suppression for its id (`/* cppcheck-suppress misra-c2012-13.3 ; MISRA D11 ... */`
at the end of the line, or alone on the line above) is accounted for by the
record the comment names after `MISRA'; the record must exist and be for that
rule. A mark for one of cppcheck's own checks names no record: the reason is in
the comment (as `make lint' takes it). Every MISRA mark in the --source files
must meet a finding in some configuration: a mark that hides nothing must go.
make misra runs cppcheck without --inline-suppr, so that the marked findings
are seen, shown and counted here.

Usage: check.py [--pending FILE ...] [--source FILE ...] RESULT ...
"""
import fnmatch
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

# The category of every rule the addon (or cppcheck itself) can report, from
# MISRA C:2012 with its amendments. M mandatory, R required, A advisory.
CATEGORY = {}
for rules, cat in (
    ("1.1 1.3 1.4 2.1 2.2 3.1 3.2 4.1 5.1 5.2 5.3 5.4 5.5 5.6 5.7 5.8 6.1 6.2 7.1 7.2 7.3 7.4 "
     "8.1 8.2 8.3 8.4 8.5 8.6 8.8 8.10 8.12 8.14 9.2 9.3 9.4 9.5 10.1 10.2 10.3 10.4 10.6 10.7 "
     "10.8 11.1 11.2 11.3 11.6 11.7 11.8 11.9 12.2 13.1 13.2 13.5 14.1 14.2 14.3 14.4 15.2 15.3 "
     "15.6 15.7 16.1 16.2 16.3 16.4 16.5 16.6 16.7 17.1 17.2 17.7 18.1 18.2 18.3 18.6 18.7 18.8 "
     "20.2 20.3 20.4 20.6 20.7 20.8 20.9 20.11 20.12 20.13 20.14 21.1 21.2 21.3 21.4 21.5 21.6 "
     "21.7 21.8 21.9 21.10 21.11 21.14 21.15 21.16 21.21 22.1 22.3 22.7 22.8 22.9 22.10", "R"),
    ("1.2 2.3 2.4 2.5 2.6 2.7 4.2 5.9 8.7 8.9 8.11 8.13 10.5 11.4 11.5 12.1 12.3 12.4 13.3 13.4 "
     "15.1 15.4 15.5 17.5 17.8 18.4 18.5 19.2 20.1 20.5 20.10 21.12", "A"),
    ("9.1 12.5 13.6 17.3 17.4 17.6 19.1 21.13 21.17 21.18 21.19 21.20 22.2 22.4 22.5 22.6", "M"),
):
    for r in rules.split():
        CATEGORY[r] = cat
NAME = {"M": "mandatory", "R": "required", "A": "advisory"}


# Rule 1.4's C11 keywords: the addon reports one where a macro expands to it, so
# the record (M1, R1) cannot tell them apart by the source line. Instead no
# source may spell one outside the files listed here.
EMERGENT = {"_Generic": (), "_Noreturn": (), "_Thread_local": (),
            "_Atomic": ("lib/src/pool_atomic.c",)}


def emergent_misuse(sources):
    bad = []
    for path in sources:
        path = os.path.normpath(path)
        for n, text in enumerate(lines_of(path), 1):
            for word, allowed in EMERGENT.items():
                if re.search(r"\b%s\b" % word, text) and path not in allowed:
                    bad.append("%s:%d: %s (rule 1.4): the record admits it in %s only" % (
                        path, n, word, ", ".join(allowed) or "no file"))
    return bad


def rule_of(finding_id):
    """'misra-c2012-11.5' -> '11.5'; cppcheck's own checks -> their id."""
    m = re.match(r"misra-c2012-(\d+\.\d+)$", finding_id)
    return m.group(1) if m else finding_id


def category(rule):
    # cppcheck's own checks (warning, style): held to zero like a required rule.
    return CATEGORY.get(rule, "R")


def load_record(path):
    """Entries: rule, file glob, optional regex on the source line, kind, record id."""
    entries = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            # rule  kind  record  files  [regex...]
            parts = line.split(None, 4)
            if len(parts) < 4:
                sys.exit("%s:%d: expected: rule kind record files [line-regex]" % (path, n))
            rule, kind, record, files = parts[:4]
            if kind not in ("deviation", "met"):
                sys.exit("%s:%d: kind is `deviation' or `met', not `%s'" % (path, n, kind))
            regex = re.compile(parts[4]) if len(parts) == 5 else None
            entries.append({"rule": rule, "kind": kind, "record": record, "files": files.split(","),
                            "regex": regex, "where": "%s:%d" % (path, n), "used": 0})
    return entries


LINES = {}


def lines_of(path):
    if path not in LINES:
        try:
            with open(path, errors="replace") as f:
                LINES[path] = f.read().split("\n")
        except OSError:
            LINES[path] = []
    return LINES[path]


def source_line(path, line):
    lines = lines_of(path)
    return lines[line - 1] if 0 < line <= len(lines) else ""


MARK = re.compile(r"(/\*|//)\s*cppcheck-suppress\s+([\w.-]+)\s*(?:;(.*?))?\s*(\*/|$)")


def load_marks(sources):
    """(path, line the mark applies to, rule) -> {record, where, used}."""
    marks = {}
    for path in sources:
        path = os.path.normpath(path)
        for n, text in enumerate(lines_of(path), 1):
            m = MARK.search(text)
            if m is None:
                continue
            alone = text[:m.start()].strip() == ""
            record = re.search(r"\bMISRA (\w+)", m.group(3) or "")
            marks[(path, n + 1 if alone else n, rule_of(m.group(2)))] = {
                "record": record.group(1) if record else None, "where": "%s:%d" % (path, n),
                "id": m.group(2), "used": 0}
    return marks


def matches(entry, rule, path, line):
    if entry["rule"] != rule:
        return False
    if not any(fnmatch.fnmatch(path, g) for g in entry["files"]):
        return False
    return entry["regex"] is None or entry["regex"].search(source_line(path, line)) is not None


def main(argv):
    pending = []
    sources = []
    results = []
    args = iter(argv)
    for a in args:
        if a == "--pending":
            pending.append(next(args))
        elif a == "--source":
            sources.append(next(args))
        else:
            results.append(a)
    record = load_record(os.path.join(HERE, "deviations.txt"))
    marks = load_marks(sorted(set(sources)))
    bad = emergent_misuse(sorted(set(sources)))
    for mark in marks.values():
        if mark["id"].startswith("misra-"):
            named = [e for e in record if e["record"] == mark["record"]]
            if not named:
                bad.append("%s: a MISRA mark must name its record (`; MISRA <id>'), "
                           "one of misra/deviations.txt" % mark["where"])
            elif all(e["rule"] != rule_of(mark["id"]) for e in named):
                bad.append("%s: record %s is not for rule %s" % (
                    mark["where"], mark["record"], rule_of(mark["id"])))

    # One finding per (file, line, rule), with the configurations that saw it.
    findings = defaultdict(set)
    for res in results:
        config = os.path.basename(res)[:-len(".txt")]
        with open(res) as f:
            for raw in f:
                parts = raw.rstrip("\n").split(":")
                if len(parts) < 4 or not parts[1].isdigit():
                    if raw.strip():
                        print("misra: unexpected output in %s: %s" % (res, raw.strip()))
                        return 1
                    continue
                path = os.path.normpath(parts[0])
                if not (path.startswith("lib/") or path.startswith("port/")):
                    continue  # misra/ilp32.h and the like: the configuration, not the code
                findings[(path, int(parts[1]), rule_of(parts[3]))].add(config)

    # per file: category -> [found, deviated, met, pending, left]
    table = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0]))
    by_rule = defaultdict(lambda: [0, 0, 0, 0, 0])
    left = []
    inline = 0
    for (path, line, rule), configs in sorted(findings.items()):
        cat = category(rule)
        row = table[path][cat]
        rrow = by_rule[rule]
        row[0] += 1
        rrow[0] += 1
        mark = marks.get((path, line, rule))
        if mark is not None:
            mark["used"] += 1
            if mark["record"] is None:
                entry = None  # cppcheck's own check, suppressed with its reason
            else:
                entry = next((e for e in record if e["record"] == mark["record"]
                              and e["rule"] == rule), None)
        else:
            entry = next((e for e in record if e["files"] != ["marked"]
                          and matches(e, rule, path, line)), None)
        if mark is not None and entry is None:
            col = 2
            inline += 1
        elif entry is not None:
            entry["used"] += 1
            entry.setdefault("paths", set()).add(path)
            col = 1 if entry["kind"] == "deviation" else 2
            if entry["kind"] == "deviation" and cat == "M":
                bad.append("%s: a mandatory rule (%s) cannot be deviated" % (entry["where"], rule))
        elif path in pending:
            col = 3
        else:
            col = 4
            left.append("%s:%d: rule %s (%s) [%s]: %s" % (
                path, line, rule, NAME.get(cat, cat), " ".join(sorted(configs)),
                source_line(path, line).strip()))
        row[col] += 1
        rrow[col] += 1

    print("MISRA C:2012 (cppcheck %s addon): findings per file and category" % "misra")
    print("  found: what the tool reports over every target and level; deviated / met: "
          "accounted for in docs/misra.md (a deviation, or the code meets the rule and the "
          "tool cannot see it); pending: files being rewritten; left: must be 0")
    print("%-34s %-10s %6s %9s %5s %8s %5s" % ("file", "category", "found", "deviated", "met",
                                               "pending", "left"))
    for path in sorted(table):
        for cat in ("M", "R", "A"):
            if cat in table[path]:
                print("%-34s %-10s %6d %9d %5d %8d %5d" % ((path, NAME[cat]) + tuple(table[path][cat])))
    total = [sum(table[p][c][i] for p in table for c in table[p]) for i in range(5)]
    print("%-34s %-10s %6d %9d %5d %8d %5d" % (("total", "") + tuple(total)))
    print("per rule:", ", ".join("%s (%s) %d" % (r, category(r), by_rule[r][0])
                                 for r in sorted(by_rule, key=lambda r: [int(x) if x.isdigit() else 0
                                                                         for x in r.split(".")])))
    for mark in marks.values():
        if mark["used"] == 0 and mark["id"].startswith("misra-"):
            bad.append("%s: the mark for %s meets no finding: remove it" % (
                mark["where"], mark["id"]))
    for e in record:
        if e["used"] == 0:
            bad.append("%s: rule %s in %s matches no finding: remove the entry" % (
                e["where"], e["rule"], ",".join(e["files"])))
    print("record entries (matches over all configurations, files):")
    for e in record:
        files = sorted(e["paths"]) if "paths" in e else []
        print("  %-5s %-24s %-9s %4d  %s" % (e["record"], e["rule"], e["kind"], e["used"],
                                            " ".join(files)))
    print("  %-5s %-24s %-9s %4d  (cppcheck's own checks, the reason in each comment)" % (
        "-", "cppcheck-suppress", "met", inline))
    for line in left:
        print("left: " + line)
    for line in bad:
        print("record: " + line)
    if left or bad:
        print("misra: %d finding(s) left, %d problem(s) with the record" % (len(left), len(bad)))
        return 1
    print("misra: clean (%d configurations; %d findings: %d deviated, %d met, %d pending, 0 left)"
          % (len(results), total[0], total[1], total[2], total[3]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
