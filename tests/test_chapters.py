"""The chapters read like lectures: short visible code cells, plotting code folded but the
package calls and checks visible, checks that print what they found (no bare True or False),
and no wall of prose. Measured on the notebooks' JSON, as a reader of the built page sees them:
a cell tagged hide-input, remove-input or remove-cell is folded or hidden."""

import json
import statistics
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
CHAPTERS = sorted(BOOK.glob("*.ipynb"))
HIDDEN = {"hide-input", "remove-input", "remove-cell"}
MEDIAN_LINES, MAX_LINES, FOLDED_SHARE, MAX_WORDS = 8, 25, 2 / 5, 600


def _cells(path, kind):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if c["cell_type"] == kind]


def _lines(cell):
    return sum(1 for line in "".join(cell["source"]).splitlines() if line.strip())


def _visible(cell):
    return not HIDDEN & set(cell.get("metadata", {}).get("tags", []))


def _output_lines(cell):
    for out in cell.get("outputs", []):
        text = out.get("text") or out.get("data", {}).get("text/plain", "")
        yield from "".join(text).splitlines()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_code_cells_are_short(path):
    lines = [_lines(c) for c in _cells(path, "code") if _visible(c)]
    assert statistics.median(lines) <= MEDIAN_LINES, f"median {statistics.median(lines)} lines"
    assert max(lines) <= MAX_LINES, f"a visible code cell of {max(lines)} non-blank lines"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_at_most_two_in_five_code_cells_are_folded(path):
    code = [c for c in _cells(path, "code") if "remove-cell" not in c["metadata"].get("tags", [])]
    folded = sum(not _visible(c) for c in code)
    assert folded <= FOLDED_SHARE * len(code), f"{folded} of {len(code)} code cells folded"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_checks_print_what_they_found(path):
    bare = [
        line
        for cell in _cells(path, "code")
        for line in _output_lines(cell)
        if line.strip() in {"True", "False"} or line.rstrip().endswith((" True", " False"))
    ]
    assert not bare, f"{len(bare)} output lines end in a bare boolean, e.g. {bare[0]!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_markdown_cell_is_a_wall(path):
    words = max(len("".join(c["source"]).split()) for c in _cells(path, "markdown"))
    assert words <= MAX_WORDS, f"a markdown cell of {words} words"
