r"""The checker: problems drawn by hypothesis, a student function judged on each, the smallest
failing problem reported.

An :class:`Exercise` pairs the function a student writes (its signature and statement) with the
package's own implementation of that signature (``reference``), a hypothesis strategy of
:class:`Problem` objects (``problems``), a conversion of what the function returns
(``output``) and a ``judge``, which returns a :class:`Failure` in the course's words or
``None``. :func:`run_check` calls the student function on problems from small to large; the
first failure is shrunk by hypothesis to the smallest problem that still fails, and that
problem, with what was expected and what came back, is the :class:`Report`.

The student's call is guarded (:func:`_call`): an exception becomes a failure, and so does a
call that modifies its arguments, returns the wrong type or shape, or NaN. A call longer than
the time limit stops the check at once (no shrinking: each try would cost the limit again).
The limit interrupts Python code by ``SIGALRM`` in the main thread; from another thread the
call runs in a daemon thread that is abandoned at the limit. A crash of the interpreter itself
(``os._exit``, a segmentation fault) cannot be caught in-process: ``python -m
kernels_ref.exercises`` runs each file in a child process for that.
"""

import copy
import signal
import textwrap
import threading
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

try:
    import hypothesis
    from hypothesis import HealthCheck, Phase, Verbosity
except ImportError as exc:  # the package itself needs only NumPy
    raise ImportError(
        "kernels_ref.exercises needs hypothesis, an optional dependency of kernels-ref: install "
        "it with pip install 'kernels-ref[exercises]' (or pip install hypothesis)"
    ) from exc

#: Seconds a single call of the student's function may take; the problems have at most a dozen
#: points, on which every implementation of the course takes milliseconds (cvxpy's first call,
#: which builds its solver, well under a second).
TIME_LIMIT = 5.0

#: The condition of a report whose check a call's time limit stopped.
TIME_LIMIT_CONDITION = "the time limit"

#: Problems tried before a function passes (then shrinking, for a failure).
MAX_EXAMPLES = 40


@dataclass(frozen=True)
class Problem:
    """One problem of an exercise: the arguments of the student's function, and how to show it.

    ``args`` holds the arguments in the order of the signature; ``shown`` the data a reader
    needs to rebuild them (the points and labels from which ``K`` was made, say) and ``note``
    how (``"K = X X^T, the linear kernel"``). ``size`` is the number of points.
    """

    args: dict
    shown: dict
    size: int
    note: str = ""

    def __str__(self):
        parts = [f"{name} = {_text(value)}" for name, value in self.shown.items()]
        text = "; ".join(parts)
        return f"{text} ({self.note})" if self.note else text


@dataclass(frozen=True)
class Failure:
    """What went wrong on one problem: the condition in the course's words, a message naming
    the likely mistake, and the expected and returned values (as text, or ``None``)."""

    condition: str
    message: str
    expected: str = None
    got: str = None


@dataclass(frozen=True)
class Exercise:
    """An exercise: the signature a student implements, and how an implementation is judged.

    ``statement`` says what to compute and the conventions; ``tolerance`` how answers are
    compared, in words (it is printed in every report); ``chapter`` the chapter that asks for
    it.
    """

    name: str
    signature: str
    statement: str
    tolerance: str
    chapter: str
    reference: object = field(repr=False)
    problems: object = field(repr=False)
    output: object = field(repr=False)
    judge: object = field(repr=False)

    def __str__(self):
        return f"{self.signature}\n\n{self.statement}\n\nJudged: {self.tolerance}"


@dataclass(frozen=True)
class Report:
    """The verdict of :func:`kernels_ref.exercises.check` on one function.

    ``passed`` is True when every problem tried passed. Otherwise ``problem`` is the smallest
    failing problem found, ``condition`` the condition it broke (in the course's words),
    ``message`` the likely mistake, ``expected`` and ``got`` the reference's answer and the
    function's (as text). ``examples`` counts the calls made (problems drawn, then shrunk),
    with hypothesis's fixed seed: the same on every run with one version of hypothesis, so it
    is not printed.
    """

    name: str
    passed: bool
    tolerance: str
    time_limit: float
    max_examples: int
    examples: int = 0
    condition: str = None
    message: str = None
    problem: Problem = None
    expected: str = None
    got: str = None

    def __bool__(self):
        return self.passed

    @property
    def timed_out(self):
        """Whether a call ran past the time limit (which ended the check)."""
        return self.condition == TIME_LIMIT_CONDITION

    def line(self):
        """One line: passed, or the condition broken and the size of the smallest problem."""
        if self.passed:
            return f"{self.name}: passed"
        where = f" on {_points(self.problem.size)}" if self.problem is not None else ""
        return f"{self.name}: FAILED{where}: {self.message}"

    def __str__(self):
        if self.passed:
            return "\n".join(
                _wrap(line)
                for line in (
                    f"{self.name}: passed on every problem tried (up to {self.max_examples}, "
                    "from the smallest up).",
                    f"  Judged: {self.tolerance}.",
                )
            )
        lines = [f"{self.name}: FAILED — {self.condition}", f"  {self.message}"]
        if self.problem is not None:
            lines.append(
                f"  smallest failing problem, {_points(self.problem.size)}: {self.problem}"
            )
        if self.expected is not None:
            lines.append(f"  expected: {self.expected}")
        if self.got is not None:
            lines.append(f"  returned: {self.got}")
        lines.append(f"  Judged: {self.tolerance}.")
        lines.append(f"  Time limit: {self.time_limit:g} s a call.")
        return "\n".join(_wrap(line) for line in lines)

    def __repr__(self):
        return f"<Report {self.line()}>"


#: Values below this are shown as 0: the round-off of problems whose entries are at most 8.
ROUND_OFF = 1e-12

#: Width of a report's lines (a code cell's output in the book, a terminal).
WIDTH = 88


def _wrap(line):
    """``line`` wrapped at :data:`WIDTH`, continued with its indent plus four spaces."""
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return textwrap.fill(line, WIDTH, subsequent_indent=indent, break_long_words=False)


def _points(n):
    return f"{n} point" if n == 1 else f"{n} points"


# --- how values are shown -----------------------------------------------------------------------

#: Digits of a value in a report: enough to tell a mistake, not so many that round-off shows.
DIGITS = 4


def _text(value):
    """A value as a reader would type it: arrays and numbers rounded to :data:`DIGITS` decimals
    (never a negative zero), integers as integers, anything else by ``repr``."""
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, tuple):
        return "(" + ", ".join(_text(v) for v in value) + ")"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return _number(float(value))
    if isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.ndim == 2:
        return "[" + ", ".join(_text(row) for row in value) + "]"  # on one line
    if isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.ndim == 1:
        return "[" + ", ".join(_number(float(x)) for x in value) + "]"
    return repr(value)


def _number(x):
    if not np.isfinite(x):
        return str(x)
    if x == round(x) and abs(x) < 1e15:
        return str(int(x))
    if abs(x) < ROUND_OFF:
        return "0"
    if abs(x) < 10.0**-DIGITS:
        return f"{x:.1e}"
    text = f"{round(x, DIGITS) + 0.0:.{DIGITS + 1}g}"
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


# --- the guarded call -------------------------------------------------------------------------


class TimeLimit(BaseException):
    """Raised in the student's function when it runs past the limit (a BaseException, so that
    its ``except Exception`` does not swallow it)."""


class _Stop(BaseException):
    """Ends the search at once with a report (hypothesis lets a BaseException through)."""

    def __init__(self, problem, failure):
        super().__init__(failure.message)
        self.problem, self.failure = problem, failure


class _Failed(Exception):
    """A failing problem, for hypothesis to shrink."""

    def __init__(self, problem, failure):
        super().__init__(failure.message)
        self.problem, self.failure = problem, failure


def _alarm(signum, frame):
    raise TimeLimit


def _call_with_limit(function, args, limit):
    """``function(*args)`` stopped after ``limit`` seconds (:class:`TimeLimit`)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        previous = signal.signal(signal.SIGALRM, _alarm)
        outer, _ = signal.setitimer(signal.ITIMER_REAL, limit)  # a caller's own alarm, if any
        start = time.monotonic()
        try:
            return function(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer > 0:  # give the caller's alarm back what remains of it
                signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-3))
    box = {}

    def target():
        try:
            box["value"] = function(*args)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise TimeLimit
    if "error" in box:
        raise box["error"]
    return box["value"]


def _same(a, b):
    """Whether argument ``a`` is unchanged from its copy ``b``."""
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _call(exercise, function, problem, limit):
    """The student's answer on ``problem``, or a :class:`Failure` (a :class:`_Stop` past the
    time limit)."""
    args = copy.deepcopy(problem.args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = _call_with_limit(function, list(args.values()), limit)
    except TimeLimit:
        raise _Stop(
            problem,
            Failure(
                TIME_LIMIT_CONDITION,
                f"the call ran longer than the limit of {limit:g} s and was stopped: an "
                "infinite loop, or a stopping test that is never met?",
            ),
        ) from None
    except Exception as exc:  # the student's error is the verdict
        return Failure("a call that returns", f"the function raised {type(exc).__name__}: {exc}")
    for name, value in problem.args.items():
        if not _same(args[name], value):
            return Failure(
                "inputs left unchanged",
                f"the function modified its argument {name}: copy it first "
                f"({name} = {name}.copy()) before writing into it",
            )
    return exercise.output(got, problem)


def _attempt(exercise, function, problem, limit):
    """``None`` if the student's function passes on ``problem``, else the :class:`Failure`."""
    got = _call(exercise, function, problem, limit)
    if isinstance(got, Failure):
        return got
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = exercise.reference(*problem.args.values())
    return exercise.judge(problem, got, expected)


def run_check(exercise, function, *, time_limit=TIME_LIMIT, max_examples=MAX_EXAMPLES):
    """The :class:`Report` of ``function`` on ``exercise``
    (:func:`kernels_ref.exercises.check`)."""
    tried = []

    @hypothesis.settings(
        hypothesis.settings.get_profile("default"),  # not the caller's own profile
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
    )
    @hypothesis.given(exercise.problems())
    def search(problem):
        tried.append(problem.size)
        failure = _attempt(exercise, function, problem, time_limit)
        if failure is not None:
            raise _Failed(problem, failure)

    common = dict(
        name=exercise.name, tolerance=exercise.tolerance, time_limit=time_limit,
        max_examples=max_examples,
    )  # fmt: skip
    try:
        search()
    except (_Failed, _Stop) as exc:
        f = exc.failure
        return Report(
            **common, passed=False, examples=len(tried), condition=f.condition,
            message=f.message, problem=exc.problem, expected=f.expected, got=f.got,
        )  # fmt: skip
    return Report(**common, passed=True, examples=len(tried))
