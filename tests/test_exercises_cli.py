"""The teachers' command, ``python -m kernels_ref.exercises``, run as a teacher runs it.

Students' files (a .py file, the same code as a notebook, a folder of three) are written to a
temporary folder and checked by a subprocess: one line per exercise function, passed or FAILED;
a function that loops, a process that dies (``os._exit``) in a function or at import, reported
while the command carries on; the batch's table; the exit statuses an autograder reads.
"""

import json
import subprocess
import sys
import textwrap

import pytest

from kernels_ref import exercises

#: Small limits: the functions here are right, plainly wrong, or never return.
FAST = ["--time-limit", "0.5", "--limit", "20", "--max-examples", "5"]

RIGHT_FUNCTIONS = """\
from kernels_ref.exercises import reference

print("the student's own output")  # not on the command's standard output


def hard_margin_dual(K, y):
    return reference("hard_margin_dual")(K, y)
"""

WRONG_FUNCTIONS = """\
import numpy as np


def gaussian_gram(X, Z, sigma):  # the factor 2 of 2 sigma^2 forgotten
    d2 = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)
    print("computing", d2.shape)
    return np.exp(-d2 / sigma**2)
"""

MAIN_BLOCK = """\
if __name__ == "__main__":
    raise SystemExit("a submission runs as a module, not as __main__")
"""


def _others(count):
    """``count`` exercises besides gaussian_gram and hard_margin_dual (whose mistakes are written
    out here): any exercise, implemented wrong by a function that raises."""
    others = [n for n in exercises.names() if n not in ("gaussian_gram", "hard_margin_dual")]
    if len(others) < count:
        pytest.skip("needs more than two exercises registered")
    return others[:count]


def _submission():
    """Code cells of a submission with two right functions and two wrong ones, and their names."""
    right_other, wrong_other = _others(2)
    cells = [
        RIGHT_FUNCTIONS + f'\n\n{right_other} = reference("{right_other}")\n',
        WRONG_FUNCTIONS,
        f"def {wrong_other}(*args):\n    raise NotImplementedError('to do')\n",
        MAIN_BLOCK,
    ]
    return cells, {"hard_margin_dual", right_other}, {"gaussian_gram", wrong_other}


def _run(*arguments, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "kernels_ref.exercises", *map(str, arguments)],
        capture_output=True, text=True, timeout=120, cwd=cwd, check=False,
    )  # fmt: skip


def _verdicts(stdout):
    """The result lines: exercise name -> the rest of the line."""
    found = {}
    for line in stdout.splitlines():
        name, _, rest = line.strip().partition(" ")
        if name in exercises.names():
            found[name] = rest.strip()
    return found


def _notebook(cells):
    """A notebook of those code cells, with a markdown cell and IPython lines among them."""
    code = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
             "source": source.splitlines(keepends=True)} for source in cells]  # fmt: skip
    magic = {**code[0], "source": ["%matplotlib inline\n", "!pip --version\n", "x = 1\n"]}
    words = {"cell_type": "markdown", "metadata": {}, "source": ["# My answers"]}
    return {"cells": [words, magic, *code], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture(scope="module")
def file_run(tmp_path_factory):
    cells, right, wrong = _submission()
    path = tmp_path_factory.mktemp("file") / "answers.py"
    path.write_text("\n\n".join(cells))
    return _run(path, *FAST), right, wrong


def test_a_file_gets_one_line_per_function_and_fails(file_run):
    done, right, wrong = file_run
    lines = done.stdout.splitlines()
    verdicts = _verdicts(done.stdout)
    assert len(lines) == 4 and set(verdicts) == right | wrong, done.stdout
    assert all(verdicts[name] == "passed" for name in right)
    assert all(verdicts[name].startswith("FAILED on") for name in wrong)
    assert "factor 2 of 2 sigma^2" in verdicts["gaussian_gram"]
    assert done.returncode == 1


def test_progress_goes_to_the_standard_error(file_run):
    done, _, _ = file_run
    assert "checking" in done.stderr and "(4/4)" in done.stderr
    assert "student's own output" not in done.stdout + done.stderr


def test_a_notebook_is_checked_like_the_file(file_run, tmp_path):
    cells, _, _ = _submission()
    path = tmp_path / "answers.ipynb"
    path.write_text(json.dumps(_notebook(cells)))
    done = _run(path, *FAST, "--quiet")
    assert done.stdout == file_run[0].stdout
    assert done.returncode == 1 and done.stderr == ""


def test_all_passed_exits_zero(tmp_path):
    path = tmp_path / "right.py"
    path.write_text(RIGHT_FUNCTIONS)
    done = _run(path, *FAST)
    assert done.stdout.split() == ["hard_margin_dual", "passed"]
    assert done.returncode == 0


LOOPS = """\
import time
from kernels_ref.exercises import reference

hard_margin_dual = reference("hard_margin_dual")


def gaussian_gram(X, Z, sigma):
    while True:
        pass
"""

IGNORES_THE_LIMIT = """\

def {name}(*args):  # swallows the checker's interruption: only the child's limit stops it
    while True:
        try:
            time.sleep(1)
        except BaseException:
            pass
"""


def test_an_infinite_loop_is_stopped_and_the_others_are_checked(tmp_path):
    (other,) = _others(1)
    path = tmp_path / "loops.py"
    path.write_text(LOOPS + IGNORES_THE_LIMIT.format(name=other))
    done = _run(path, "--time-limit", "0.5", "--limit", "6", "--max-examples", "5")
    verdicts = _verdicts(done.stdout)
    assert "longer than the limit of 0.5 s" in verdicts["gaussian_gram"]
    assert verdicts[other].startswith("STOPPED after 6 s")
    assert verdicts["hard_margin_dual"] == "passed"
    assert done.returncode == 1


EXITS_IN_A_FUNCTION = """\
import os
from kernels_ref.exercises import reference

hard_margin_dual = reference("hard_margin_dual")


def gaussian_gram(X, Z, sigma):
    os._exit(3)
"""

EXITS_AT_IMPORT = """\
import os

def gaussian_gram(X, Z, sigma):
    return X @ Z.T

os._exit(3)
"""


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    (folder / "a_wrong.py").write_text(RIGHT_FUNCTIONS.replace("(K, y)\n", "(K, y) * 2\n"))
    (folder / "b_exits.py").write_text(EXITS_IN_A_FUNCTION)
    (folder / "c_dies.py").write_text(EXITS_AT_IMPORT)
    (folder / "notes.txt").write_text("not a submission")
    return _run(folder, *FAST, "--verbose"), folder


def _blocks(stdout):
    """The lines of each submission of a batch, by its name (the table left out)."""
    blocks, label = {}, None
    for line in stdout.split("\n\n")[0].splitlines():
        if line.startswith(" "):
            blocks[label] += line + "\n"
        else:
            label = line
            blocks[label] = ""
    return blocks


def test_a_process_that_dies_is_reported_and_the_command_carries_on(batch):
    done, _ = batch
    blocks = _blocks(done.stdout)
    assert list(blocks) == ["a_wrong.py", "b_exits.py", "c_dies.py"]
    verdicts = _verdicts(blocks["b_exits.py"])
    assert verdicts["gaussian_gram"] == (
        "CRASHED: the process ended with exit code 3 (os._exit, or a fatal error)"
    )
    assert verdicts["hard_margin_dual"] == "passed"
    assert "could not be loaded" in blocks["c_dies.py"] and "exit code 3" in blocks["c_dies.py"]
    assert _verdicts(blocks["a_wrong.py"])["hard_margin_dual"].startswith("FAILED on")
    assert "smallest failing problem" in blocks["a_wrong.py"]  # --verbose


def test_a_folder_gets_one_table(batch):
    done, folder = batch
    table = done.stdout[done.stdout.index("\nsubmission") + 1 :].splitlines()
    header, rows = table[0].split(), [line.split() for line in table[1:4]]
    number = str(exercises.names().index("gaussian_gram") + 1)
    assert header[0] == "submission" and number in header and header[-1] == "passed"
    assert [row[0] for row in rows] == ["a_wrong.py", "b_exits.py", "c_dies.py"]
    column = header.index(number)
    assert rows[0][column] == "-" and rows[0][-1] == "0/1"
    assert rows[1][column] == "crash" and rows[1][-1] == "1/2"
    assert "could not be loaded" in table[3]
    assert done.returncode == 1
    assert sorted(p.name for p in folder.iterdir()) == [
        "a_wrong.py", "b_exits.py", "c_dies.py", "notes.txt",
    ]  # fmt: skip


def test_no_exercise_function_is_a_usage_error(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text(
        textwrap.dedent("""\
        def helper(x):
            return x
        gaussian_gram = None  # not a function
    """)
    )
    done = _run(path, *FAST)
    assert done.returncode == 2
    assert "defines no function named after an exercise" in done.stderr
    assert "gaussian_gram" in done.stderr  # the names it should have


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.py", "no such file or folder"), ("answers.txt", "not a .py file")],
)
def test_a_path_that_is_not_a_submission_is_a_usage_error(tmp_path, name, message):
    (tmp_path / "answers.txt").write_text("")
    done = _run(tmp_path / name)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""


def test_help_documents_the_command():
    done = _run("--help")
    assert done.returncode == 0
    assert "--time-limit" in done.stdout and "Exit status" in done.stdout
    assert all(name in done.stdout for name in exercises.names())
