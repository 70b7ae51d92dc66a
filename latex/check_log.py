"""Check the LaTeX log of ``make pdf``: what XeLaTeX only logs is a defect of the PDF.

- A line wider than the text by more than ``--max-overfull`` points (3 by default): a table
  column, a formula or a name that sticks out into the margin ("Overfull \\hbox").
- A character that the font lacks, which XeTeX drops ("Missing character").
- A heading whose bookmark loses part of its text ("Token not allowed in a PDF string"): a
  command that the preamble, latex/kernelsref.sty, does not spell for hyperref.
- Cross-references still changing after the last run ("Label(s) may have changed").

Each defect is printed with its lines of the log (for an overfull box, the line numbers in the
file being typeset and what the box holds); the exit status is 1 if there is any.

Usage: ``python latex/check_log.py _build/latex/kernels-ref.log``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

OVERFULL = re.compile(r"^Overfull \\hbox \((?P<points>[0-9.]+)pt too wide\)")
# Messages of one line, and how many lines of the log after it belong to it.
MESSAGES = {
    "Missing character": 0,
    "Token not allowed in a PDF string": 1,
    "Label(s) may have changed": 0,
}


def defects(log: str, max_overfull: float) -> list[str]:
    """The defects the log reports, each as its lines of the log."""
    lines = log.splitlines()
    found = []
    for i, line in enumerate(lines):
        match = OVERFULL.match(line)
        if match and float(match["points"]) > max_overfull:
            # The box's contents follow, up to an empty line.
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].strip()), len(lines))
            found.append("\n".join(lines[i:end]))
            continue
        for message, extra in MESSAGES.items():
            if message in line:
                found.append("\n".join(lines[i : i + 1 + extra]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("log", type=Path, help="the LaTeX log, _build/latex/kernels-ref.log")
    parser.add_argument(
        "--max-overfull",
        type=float,
        default=3.0,
        help="the widest overfull box allowed, in points (default: 3)",
    )
    args = parser.parse_args(argv)
    # TeX writes the log in the input's encoding, UTF-8, but cuts lines at a byte count.
    found = defects(args.log.read_text(encoding="utf-8", errors="replace"), args.max_overfull)
    for defect in found:
        print(defect, end="\n\n")
    if found:
        print(f"{args.log}: {len(found)} defects of the PDF above (see latex/check_log.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
