# SPDX-License-Identifier: MIT
"""pages.py - the pages the docs checks read: README.md and docs/*.md, as paths
relative to the repository's root (tests/docs/links.py, examples.py, figures.py)."""
import os


def pages(root):
    out = ["README.md"]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        out += sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))
    return out
