"""The chapters' "implement it yourself" exercises: each solution passes the checker.

A chapter's exercise ``chNN-ex-implement-<name>`` asks for the function ``<name>`` of
:mod:`kernels_ref.exercises`; its collapsed solution holds one ``python`` block. The block is run
as a reader would copy it, and the function it defines must pass ``exercises.check``. (The
deliberately wrong implementation beside it is run by the chapter itself, under nbval.)
"""

import json
import pathlib
import re

import pytest

from kernels_ref import exercises

BOOK = pathlib.Path(__file__).resolve().parent.parent / "book"
# The solution's fence has four backticks, so that it can hold the python block's three.
SOLUTION = re.compile(
    r"````{solution} (?P<label>ch\d\d-ex-implement-(?P<name>[a-z0-9-]+))\n(?P<body>.*?)\n````\n",
    re.S,
)
PYTHON = re.compile(r"```python\n(?P<code>.*?)```", re.S)


def _solutions():
    for path in sorted(BOOK.glob("ch*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            source = "".join(cell["source"]) + "\n"
            if cell["cell_type"] == "markdown":
                for match in SOLUTION.finditer(source):
                    yield path.stem, match["name"].replace("-", "_"), match["body"]


SOLUTIONS = list(_solutions())


def test_the_chapters_ask_for_the_exercises():
    asked = {name for _, name, _ in SOLUTIONS}
    assert asked <= set(exercises.names())
    assert len(asked) >= 12
    for chapter, name, _ in SOLUTIONS:
        assert exercises.exercise(name).chapter == chapter


@pytest.mark.parametrize(
    ("chapter", "name", "body"), SOLUTIONS, ids=[f"{c}:{n}" for c, n, _ in SOLUTIONS]
)
def test_the_solution_passes(chapter, name, body):
    blocks = PYTHON.findall(body)
    assert len(blocks) == 1, "one python block a solution"
    namespace = {"__name__": "solution"}
    exec(compile(blocks[0], f"{chapter}:{name}", "exec"), namespace)
    report = exercises.check(name, namespace[name])
    assert report.passed, str(report)
