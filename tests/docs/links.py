# SPDX-License-Identifier: MIT
"""links.py ROOT - every relative link in README.md and docs/*.md resolves.

A link [text](target) or [ref]: target whose target is not a URL must name a file
or directory of the tree, relative to the page; a #anchor (alone, or after a .md
file) must be the GitHub anchor of a heading of that page. Every docs/*.md page
must be reachable from README.md. Links inside code blocks and code spans are
text, not links.

tests/docs/pending.txt lists pages that another branch adds (one path per line,
# for comments): a link to one of them passes while the page is absent, and the
line must go once the page is there. Prints one line per bad link and ends with
"N passed, N failed" (one case per link, plus one per page for reachability).
"""
import os
import re
import sys

from pages import pages

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(\S+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")



def prose_lines(text):
    """(line number, line) outside fenced code blocks, code spans blanked."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, re.sub(r"`[^`]*`", lambda s: " " * len(s.group(0)), line)


def slug(title):
    """GitHub's anchor for a heading: the text as rendered, lower case, every
    character but letters, digits, spaces, - and _ dropped, spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen = {}
        found = set()
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text):
            for a in HTML_ANCHOR.findall(line):
                found.add(a)
        fence = None
        for line in text.split("\n"):
            m = FENCE.match(line)
            if m:
                fence = m.group(1) if fence is None else (None if line.strip().startswith(fence) else fence)
                continue
            if fence is not None:
                continue
            h = HEADING.match(line)
            if h:
                s = slug(h.group(2))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else "%s-%d" % (s, k))
        _anchors[path] = found
    return _anchors[path]


def main():
    pending = set()
    pend_file = os.path.join(ROOT, "tests/docs/pending.txt")
    if os.path.exists(pend_file):
        with open(pend_file, encoding="utf-8") as f:
            pending = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    passed = failed = 0
    linked = set()
    for page in pages(ROOT):
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = f.read()
        base = os.path.dirname(page)
        for n, line in prose_lines(text):
            targets = INLINE.findall(line)
            m = REFDEF.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                    continue
                where = "%s:%d: %s" % (page, n, target)
                path, _, anchor = target.partition("#")
                path = os.path.normpath(os.path.join(base, path)) if path else page
                error = None
                if path in pending:
                    if os.path.exists(os.path.join(ROOT, path)):
                        error = "%s exists now: remove it from tests/docs/pending.txt" % path
                    elif anchor:
                        error = "an anchor into %s, which is not in this tree yet" % path
                elif path.startswith(".."):
                    error = "leaves the repository"
                elif not os.path.exists(os.path.join(ROOT, path)):
                    error = "no such file"
                elif anchor:
                    if not path.endswith(".md"):
                        error = "an anchor into a file that is not Markdown"
                    elif anchor not in anchors(path):
                        error = "no heading with that anchor in %s" % path
                if error:
                    print("FAIL %s: %s" % (where, error))
                    failed += 1
                else:
                    passed += 1
                if page == "README.md" or path.startswith("docs/"):
                    linked.add((page, path))
    # Every page is reachable from README.md, through README's links and the pages'.
    reach = {"README.md"}
    grew = True
    while grew:
        grew = False
        for src, dst in linked:
            if src in reach and dst not in reach:
                reach.add(dst)
                grew = True
    for page in pages(ROOT):
        if page in reach:
            passed += 1
        else:
            print("FAIL %s: no link from README.md (or a page it links) leads here" % page)
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
