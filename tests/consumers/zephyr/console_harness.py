#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""console_harness.py SAMPLE_YAML OUTPUT - what Zephyr's twister does with a sample's
console harness (harness: console, harness_config type one_line or multi_line,
ordered or not), applied to OUTPUT, a file of the program's output: each test of
sample.yaml (with `common:` merged in) passes when its regexes match lines of the
output (multi_line: every regex, in order when ordered; one_line: the first
regex). Prints one line per test; exit 1 when one fails. Written for stow's tests
from twister's documented behaviour; not twister's code.
"""
import re
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
lines = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
common = spec.get("common", {}) or {}
failed = 0
for name, test in (spec.get("tests") or {}).items():
    merged = dict(common)
    merged.update(test or {})
    if merged.get("harness") != "console":
        print("skip %s: harness %s" % (name, merged.get("harness")))
        continue
    config = merged.get("harness_config") or {}
    regexes = config.get("regex") or []
    if config.get("type") == "one_line":
        regexes = regexes[:1]
    at = 0
    missing = []
    for rx in regexes:
        pattern = re.compile(rx)
        start = at if config.get("ordered") else 0
        hit = next((i for i in range(start, len(lines)) if pattern.search(lines[i])), None)
        if hit is None:
            missing.append(rx)
        else:
            at = hit + 1
    if missing or not regexes:
        failed += 1
        print("FAIL %s: no line matches %s" % (name, missing or "(no regex)"))
    else:
        print("ok %s: %d regexes matched%s" % (name, len(regexes),
                                               " in order" if config.get("ordered") else ""))
sys.exit(1 if failed else 0)
