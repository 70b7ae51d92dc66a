r"""Check students' files: ``python -m kernels_ref.exercises PATH [PATH ...]``.

Each PATH is a ``.py`` file, a notebook (``.ipynb``: its code cells run in order, IPython magics
and shell lines skipped) or a folder of them. Every function of a file named after an exercise
(``kernels_ref.exercises.names()``, listed below) is checked as ``exercises.check`` checks it,
and one line is printed for each: ``passed``, or ``FAILED on N points:`` and the likely mistake
(``--verbose`` adds the full report: the smallest failing problem, what was expected and what
came back).

The student's code runs in child processes, one to load the file and one for each function, in
the file's folder; the file runs as a module, not as ``__main__`` (its ``if __name__ ==
"__main__":`` block does not run). A call longer than ``--time-limit`` seconds fails the
function; a child still running after ``--limit`` seconds is stopped; one that dies
(``os._exit``, a crash) is reported with its exit code; and the command carries on.

With several files (or a folder), each file's lines follow its name, and one table ends the
output: a row for each file, a column for each exercise that some file defines, numbered as in
the course, and a cell ``ok`` (passed), ``FAIL`` (a counterexample), ``time`` (a time limit),
``crash`` (the child died or the check stopped) or ``-`` (not defined).

Progress goes to the standard error (``--quiet``: none), the verdicts to the standard output.
Exit status: 0 when every function checked passed; 1 when one failed, ran out of time or
crashed, or a file did not load; 2 on a usage error, or when no file defines an exercise
function.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from . import MAX_EXAMPLES, TIME_LIMIT, names

#: The files a submission can be.
SUFFIXES = (".py", ".ipynb")

#: Seconds one child process may run (loading the file, or checking one function) by default.
LIMIT = 120.0

#: Width of a cell of the table (``crash``).
CELL = 5

LEGEND = (
    "ok: passed; FAIL: a counterexample; time: a call ran past --time-limit or the check past "
    "--limit; crash: the child process died or the check stopped; -: not defined; passed: "
    "functions passed / functions defined."
)


@dataclass
class Submission:
    """A checked file: its label, why it did not load (or ``None``), and the verdict of each of
    its exercise functions by name (``status``, ``summary``, ``details``)."""

    label: str
    error: str = None
    results: dict = field(default_factory=dict)

    def passed(self):
        return sum(r["status"] == "ok" for r in self.results.values())


class Progress:
    """``checking ... (k/n)`` on the standard error: one line rewritten in place on a terminal,
    a line each otherwise, nothing when ``quiet``."""

    def __init__(self, quiet, stream=sys.stderr):
        self.quiet, self.stream, self.width = quiet, stream, 0
        self.tty = stream.isatty()

    def show(self, text):
        if self.quiet:
            return
        if self.tty:
            text = text[: shutil.get_terminal_size().columns - 1]
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self):
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


# --- the child processes ------------------------------------------------------------------------


def _died(returncode):
    """Why a child ended without a verdict, from its exit code."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"the process was killed by {name} (a crash of Python or of compiled code)"
    return f"the process ended with exit code {returncode} (os._exit, or a fatal error)"


class ChildFailed(Exception):
    """A child process that ended without a verdict: ``status`` is ``time`` (stopped at the
    limit) or ``crash``, the message says why."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status


def _child(arguments, limit):
    """The JSON verdict of ``python -m kernels_ref.exercises._runner ARGUMENTS``.

    Raises
    ------
    ChildFailed
        If the child runs longer than ``limit`` seconds (it is stopped) or ends without a verdict.
    """
    command = [sys.executable, "-m", "kernels_ref.exercises._runner", *arguments]
    try:
        done = subprocess.run(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env={**os.environ, "MPLBACKEND": "Agg"}, timeout=limit,
            check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ChildFailed("time", f"stopped after {limit:g} s (--limit)") from None
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise ChildFailed("crash", _died(done.returncode)) from None


def _check_function(path, name, options):
    """The verdict on the function ``name`` of the submission at ``path``."""
    arguments = ["check", str(path), name, "--time-limit", repr(options.time_limit),
                 "--max-examples", str(options.max_examples)]  # fmt: skip
    try:
        return _child(arguments, options.limit)
    except ChildFailed as exc:
        if exc.status == "time":
            why = "the check did not finish; an infinite loop that a call's time limit cannot stop?"
            return {
                "status": "time",
                "summary": f"STOPPED after {options.limit:g} s (--limit): {why}",
            }
        return {"status": "crash", "summary": f"CRASHED: {exc}"}


# --- one submission ---------------------------------------------------------------------------


def _run(path, label, options, progress, several):
    """Load and check the submission at ``path``, printing a line for each function."""
    submission = Submission(label)
    prefix, indent = ("  ", "  ") if several else (f"{label}: ", "")
    if several:
        print(label)
    progress.show(f"loading {label} ...")
    try:
        listing = _child(["list", str(path)], options.limit)
    except ChildFailed as exc:
        listing = {"status": "error", "summary": str(exc)}
    progress.clear()
    if listing["status"] != "loaded":
        submission.error = listing["summary"]
        print(f"{prefix}could not be loaded: {submission.error}", flush=True)
        return submission
    if several and not listing["functions"]:
        print(f"{prefix}no function named after an exercise", flush=True)
    functions = listing["functions"]
    width = max(map(len, functions), default=0)
    for k, name in enumerate(functions, 1):
        progress.show(f"checking {label}: {name} ({k}/{len(functions)}) ...")
        result = submission.results[name] = _check_function(path, name, options)
        progress.clear()
        print(f"{indent}{name:<{width}}  {result['summary']}")
        if options.verbose and result["status"] != "ok" and result.get("details"):
            print(textwrap.indent(result["details"], indent + "    "))
        sys.stdout.flush()
    return submission


# --- the batch's table -------------------------------------------------------------------------


def _row(label, width, cells, last):
    return " ".join([label.ljust(width), *(f"{cell:>{CELL}}" for cell in cells), last])


def _table(submissions):
    """One row for each submission, one column for each exercise some submission defines."""
    found = [name for name in names() if any(name in s.results for s in submissions)]
    number = {name: names().index(name) + 1 for name in found}
    width = max(len("submission"), *(len(s.label) for s in submissions))
    lines = [_row("submission", width, [number[n] for n in found], "passed")]
    for s in submissions:
        if s.error is not None:
            lines.append(f"{s.label:<{width}} could not be loaded")
        else:
            cells = [s.results[n]["status"] if n in s.results else "-" for n in found]
            lines.append(_row(s.label, width, cells, f"{s.passed()}/{len(s.results)}".rjust(6)))
    notes = [LEGEND] + (["Exercises: " + ", ".join(f"{number[n]} {n}" for n in found) + "."]
                        if found else [])  # fmt: skip
    return "\n".join([*lines, "", *(textwrap.fill(note, 88) for note in notes)])


# --- the command --------------------------------------------------------------------------------


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return parse


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m kernels_ref.exercises",
        description="\n\n".join(
            textwrap.fill(paragraph.replace("``", ""), 88) for paragraph in __doc__.split("\n\n")
        ),
        epilog=textwrap.fill("The exercises: " + ", ".join(names()) + ".", 88),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".py files, notebooks, folders")
    parser.add_argument(
        "--time-limit",
        type=_positive(float),
        default=TIME_LIMIT,
        metavar="S",
        help=f"seconds one call of a function may take (default {TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--max-examples",
        type=_positive(int),
        default=MAX_EXAMPLES,
        metavar="N",
        help=f"problems tried before a function passes (default {MAX_EXAMPLES})",
    )
    parser.add_argument(
        "--limit",
        type=_positive(float),
        default=LIMIT,
        metavar="S",
        help="seconds a child process may run: loading a file, or checking one "
        f"function in all (default {LIMIT:g})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on the standard error")
    parser.add_argument("--verbose", action="store_true",
                        help="the full report under each failure")  # fmt: skip
    return parser


def _submissions(paths, parser):
    """The files to check, in order, each once: the given files and the folders' files."""
    found = {}
    for path in map(Path, paths):
        if path.is_dir():
            inside = sorted(
                p for p in path.iterdir()
                if p.suffix in SUFFIXES and p.is_file() and not p.name.startswith(".")
            )  # fmt: skip
            if not inside:
                parser.error(f"{path}: the folder holds no .py file and no .ipynb notebook")
        elif not path.exists():
            parser.error(f"{path}: no such file or folder")
        elif path.suffix not in SUFFIXES:
            parser.error(f"{path}: not a .py file, an .ipynb notebook or a folder")
        else:
            inside = [path]
        for p in inside:
            found.setdefault(p.resolve(), p)
    return found


def _labels(found):
    """How the submissions are named: as given, or relative to their common folder when there
    are several (``found`` maps their resolved paths to the paths given)."""
    if len(found) == 1:
        return [str(p) for p in found.values()]
    common = Path(os.path.commonpath([p.parent for p in found]))
    return [str(p.relative_to(common)) for p in found]


def main(argv=None):
    """Run the command; returns its exit status."""
    parser = _parser()
    options = parser.parse_args(argv)
    found = _submissions(options.paths, parser)
    several = len(found) > 1
    progress = Progress(options.quiet)
    submissions = [
        _run(path, label, options, progress, several)
        for path, label in zip(found, _labels(found), strict=True)
    ]
    if several:
        print("\n" + _table(submissions))
    if not any(s.results or s.error is not None for s in submissions):
        what = "none of the files defines a" if several else "the file defines no"
        parser.exit(2, f"{parser.prog}: error: {what} function named after an exercise; the "
                    f"exercises are: {', '.join(names())}\n")  # fmt: skip
    failed = any(s.error is not None or s.passed() < len(s.results) for s in submissions)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
