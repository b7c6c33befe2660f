#!/usr/bin/env python3
"""Checks every relative link of the Markdown files given (or README.md,
CONTRIBUTING.md, docs/ and lab/): the file it names exists and, for a
`#anchor`, the page has a heading of that anchor (GitHub's rule: lower
case, punctuation dropped, spaces to hyphens). Prints each broken link
as FILE:LINE: target; exits 1 if any."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    found = set()
    counts = {}
    fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            if fence or not line.startswith("#"):
                continue
            text = line.lstrip("#").strip()
            slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def pages(args):
    if args:
        return args
    out = [p for p in ("README.md", "CONTRIBUTING.md") if os.path.exists(os.path.join(ROOT, p))]
    for folder in ("docs", "lab"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            out += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in files if f.endswith(".md")]
    return sorted(out)


def main():
    broken = 0
    for page in pages(sys.argv[1:]):
        path = os.path.join(ROOT, page)
        fence = False
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("```"):
                    fence = not fence
                if fence:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):
                        continue
                    file, _, anchor = target.partition("#")
                    dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                    if not os.path.exists(dest):
                        print(f"{page}:{number}: {target}: no such file")
                        broken += 1
                    elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                        print(f"{page}:{number}: {target}: no such heading")
                        broken += 1
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
