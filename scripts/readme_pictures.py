#!/usr/bin/env python3
"""Re-runs the commands that make the README's pictures, as the README writes them.

Every picture in README.md comes from a command next to it: an indented code line starting
with `gvflab` (or `python3 docs/...py`) whose output is the picture's file under docs/
(--screenshot docs/X.png, --composite docs/X.png, or the script's PNG argument); lines ending
in a backslash continue. This script finds those commands in the README itself, so the
pictures cannot drift from what the README tells a reader to type.

  scripts/readme_pictures.py --list
  scripts/readme_pictures.py --run [--only docs/figure.png ...] [--out DIR] [--exe PATH]
  scripts/readme_pictures.py --run --only docs/figure.png --out DIR --check-converged

--out DIR writes the pictures into DIR instead of docs/ (the tests use it). --check-converged
adds --report to each headless command and fails unless every GVF snake in the report ended
"converged" (what the README's text says of the GVF twin).
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICTURE = re.compile(r"\]\((docs/[^)]+\.png)\)")


def commands(readme):
    """(picture, argv) for every command in an indented block that writes a docs/ picture."""
    out, pictures = [], set(PICTURE.findall(readme))
    lines = readme.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ") and re.match(r"\s+(gvflab|python3) ", line):
            text = line.strip()
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            argv = shlex.split(text.split("  #")[0])
            for picture in pictures:
                if picture in argv:
                    out.append((picture, argv))
        i += 1
    return out, pictures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--out")
    ap.add_argument("--exe", default=os.path.join(ROOT, "build", "app", "gvflab"))
    ap.add_argument("--check-converged", action="store_true")
    args = ap.parse_args()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        found, pictures = commands(f.read())
    missing = sorted(pictures - {p for p, _ in found})
    if args.list or not args.run:
        for picture, argv in found:
            print(picture + ": " + shlex.join(argv))
        for picture in missing:
            print(picture + ": no command in the README")
        return 1 if missing else 0
    selected = [(p, a) for p, a in found if not args.only or p in args.only]
    if args.only and {p for p, _ in selected} != set(args.only):
        print("readme_pictures: no README command for " +
              ", ".join(sorted(set(args.only) - {p for p, _ in selected})), file=sys.stderr)
        return 1
    failed = 0
    for picture, argv in selected:
        argv = list(argv)
        target = picture
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            target = os.path.join(args.out, os.path.basename(picture))
            argv = [target if a == picture else a for a in argv]
        if argv[0] == "gvflab":
            argv[0] = args.exe
        report = None
        if args.check_converged and "--headless" in argv:
            report = os.path.splitext(target)[0] + ".report.json"
            argv += ["--report", report]
        print("$ " + shlex.join(argv), flush=True)
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "build", "python"))
        rc = subprocess.run(argv, cwd=ROOT, env=env).returncode
        if rc != 0 or not os.path.exists(os.path.join(ROOT, target)):
            print(f"readme_pictures: {picture}: the command failed ({rc})", file=sys.stderr)
            failed += 1
            continue
        if report:
            with open(os.path.join(ROOT, report), encoding="utf-8") as f:
                snakes = json.load(f).get("snakes", [])
            gvf = [s for s in snakes if s.get("force") == "gvf"]
            states = [s.get("state") for s in gvf]
            print(f"{picture}: GVF snakes {states}")
            if not gvf or any(s != "converged" for s in states):
                print(f"readme_pictures: {picture}: a GVF snake did not converge: {states}",
                      file=sys.stderr)
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
