"""The child process of ``python -m kernels_ref.exercises``: a student's file loaded and checked.

The command (``kernels_ref/exercises/__main__.py``) starts this module once to list the
exercise functions a submission defines, then once for each of them::

    python -m kernels_ref.exercises._runner list SUBMISSION
    python -m kernels_ref.exercises._runner check SUBMISSION NAME --time-limit 5 --max-examples 40

and reads back one JSON object from its standard output: ``{"status": "loaded", "functions":
[...]}`` or a verdict ``{"status": ..., "summary": ..., "details": ...}`` with status ``ok``,
``FAIL``, ``time`` or ``crash`` (``error`` for a file that does not load). The student's own
output never reaches that channel: from the start, file descriptor 1 (and ``sys.stdout``) go
to the standard error, and the JSON goes to a copy of the original descriptor. The process
ends with ``os._exit`` once the verdict is written, so that a thread the student left running
cannot hold it open.

A submission is a ``.py`` file or a notebook whose code cells are run in order (IPython magics
and shell lines, which start with ``%`` or ``!``, are skipped). It runs as a module named
``submission``, not ``__main__`` (an ``if __name__ == "__main__":`` block does not run), with
its folder as the working directory and first on ``sys.path`` (its own helper modules import).
"""

import argparse
import json
import os
import sys
import traceback
import types
from pathlib import Path

from . import check, names

#: Cell magics whose body is Python (the magic line alone is skipped); other cells that start
#: with ``%%`` (``%%bash``, ``%%html``...) are not Python and are skipped whole.
PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture")


def _python(source):
    """A code cell's source without IPython syntax: a line that starts with ``%`` or ``!``
    becomes ``pass`` (same indentation, same line numbers)."""
    first = source.lstrip().split("\n", 1)[0]
    if first.startswith("%%") and first.split()[0] not in PYTHON_CELL_MAGICS:
        return ""
    lines = []
    for line in source.split("\n"):
        code = line.lstrip()
        lines.append(line[: len(line) - len(code)] + "pass" if code[:1] in ("%", "!") else line)
    return "\n".join(lines)


def pieces(path):
    """The code of a submission as ``(label, source)`` pairs: the file, or each code cell of a
    notebook labelled with its position (``"work.ipynb, code cell 3"``)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return [(path.name, text)]
    cells = [c for c in json.loads(text).get("cells", []) if c.get("cell_type") == "code"]
    result = []
    for k, cell in enumerate(cells, 1):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        result.append((f"{path.name}, code cell {k}", _python(source)))
    return result


def _text(exc):
    """``exc`` as ``"NameError: name 'np' is not defined"`` (a syntax error without its place,
    which :func:`_where` gives)."""
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _where(exc, labels):
    """Where in the submission ``exc`` was raised: ``" (work.py, line 12)"``, or ``""``."""
    if isinstance(exc, SyntaxError) and exc.filename in labels:
        return f" ({exc.filename}, line {exc.lineno})"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in labels]
    return f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""


class LoadError(Exception):
    """A submission that cannot be read or raises while it runs (its message says where)."""


def load(path):
    """The submission at ``path`` run as a fresh module named ``submission``.

    Raises
    ------
    LoadError
        If it cannot be read, is not valid Python (or not a notebook), or raises (any
        exception, ``SystemExit`` included) while it runs.
    """
    try:
        code = pieces(path)
    except Exception as exc:  # unreadable, not UTF-8, not a notebook: not a submission
        raise LoadError(f"cannot be read: {_text(exc)}") from None
    module = types.ModuleType("submission")
    module.__file__ = str(path)
    sys.modules["submission"] = module
    sys.path.insert(0, str(path.parent))
    sys.argv = [str(path)]
    os.chdir(path.parent)
    try:
        for label, source in code:
            exec(compile(source, label, "exec"), module.__dict__)
    except BaseException as exc:  # SystemExit too: the file's own doing
        raise LoadError(_text(exc) + _where(exc, {label for label, _ in code})) from None
    return module


def functions(module):
    """The names of the exercises, in the course's order, that ``module`` defines as callables."""
    return [name for name in names() if callable(getattr(module, name, None))]


def verdict(report):
    """The JSON-ready verdict of a :class:`~kernels_ref.exercises.Report`: its status (``ok``,
    ``FAIL``, ``time`` when a call ran past the time limit), its line without the name, and the
    full report."""
    if report.passed:
        status = "ok"
    else:
        status = "time" if report.timed_out else "FAIL"
    summary = report.line().removeprefix(f"{report.name}: ")
    return {"status": status, "summary": summary, "details": str(report)}


def _list(options):
    try:
        module = load(options.submission)
    except LoadError as exc:
        return {"status": "error", "summary": str(exc)}
    return {"status": "loaded", "functions": functions(module)}


def _check(options):
    try:
        module = load(options.submission)
    except LoadError as exc:  # it loaded in the listing process: something varies
        return {"status": "crash", "summary": f"CRASHED: the file did not load this time: {exc}"}
    function = getattr(module, options.name)
    try:
        report = check(
            options.name, function, time_limit=options.time_limit,
            max_examples=options.max_examples,
        )  # fmt: skip
    except BaseException as exc:  # sys.exit in the function, say
        return {"status": "crash", "summary": f"CRASHED: the check stopped on {_text(exc)}"}
    return verdict(report)


def _parser():
    parser = argparse.ArgumentParser(prog="python -m kernels_ref.exercises._runner")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list")
    listing.add_argument("submission", type=Path)
    checking = commands.add_parser("check")
    checking.add_argument("submission", type=Path)
    checking.add_argument("name", choices=names())
    checking.add_argument("--time-limit", type=float, required=True)
    checking.add_argument("--max-examples", type=int, required=True)
    return parser


def main(argv=None):
    """Run one command and write its JSON verdict to the original standard output."""
    options = _parser().parse_args(argv)
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(2, 1)  # the student's prints, even os.write(1, ...), go to the standard error
    sys.stdout = sys.stderr
    options.submission = options.submission.resolve()
    result = _list(options) if options.command == "list" else _check(options)
    channel.write(json.dumps(result))
    channel.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
