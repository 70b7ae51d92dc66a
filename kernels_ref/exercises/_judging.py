r"""What the exercises share: converting a student's answer, comparing it with the reference,
the certificates of the duals, and the problems (hypothesis strategies) of the course.

A judge returns ``None`` (passed) or a :class:`Failure`. Three kinds of judging:

- against the reference (:func:`compare`), when the answer is unique: the largest difference
  within ``tol`` times the size of the reference's answer;
- up to a convention (signs of eigenvectors, order), the convention normalised first;
- by certificate (:func:`dual_certificate`), when the answer is not unique (duals with ties):
  feasibility, the optimal objective (the reference's), and the KKT conditions measured by
  :func:`kernels_ref.svm.kkt_violation`.

A *symptom* is a pair ``(message, predicate)``: when the answer is wrong and
``predicate(problem, got, expected)`` holds, ``message`` names the likely mistake (the answer is
the transpose, off by a constant, twice the right one, ...).
"""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from ..svm import _kkt_violation
from ._core import Failure, Problem, _text

# --- converting the answer --------------------------------------------------------------------

#: The usual causes of a NaN or an infinity in an answer.
NOT_FINITE = "a division by zero, or the square root of a negative number?"


def _kind_of(got):
    if got is None:
        return "None (a missing return, or a solver that gave up: check its status)"
    if isinstance(got, tuple):
        return f"a tuple of {len(got)} items"
    if isinstance(got, np.ndarray):
        return f"an array of shape {got.shape}"
    return f"a {type(got).__name__}"


def array_output(shape, what="the result"):
    """A converter to a float array of ``shape(problem)``."""

    def convert(got, problem):
        expected = shape(problem)
        if got is None or isinstance(got, (tuple, dict, str)):
            return Failure(
                "an array", f"{what} should be an array of shape {expected}; got {_kind_of(got)}"
            )
        try:
            arr = np.array(got, dtype=float)
        except (TypeError, ValueError):
            return Failure(
                "an array of numbers",
                f"{what} should be an array of numbers of shape {expected}; got {_kind_of(got)}",
            )
        if arr.shape != expected:
            if len(expected) == 2 and arr.shape == expected[::-1]:
                message = (
                    f"{what} is the transpose: shape {arr.shape}, expected {expected} (rows are "
                    "the first argument's points)"
                )
            else:
                message = f"{what} has shape {arr.shape}, expected {expected}"
            return Failure("the shape of the answer", message)
        if not np.all(np.isfinite(arr)):
            return Failure(
                "finite values",
                f"{what} has NaN or infinite entries ({NOT_FINITE})",
                got=_text(arr),
            )
        return arr

    return convert


def number_output(what="the result"):
    """A converter to a finite float."""

    def convert(got, problem):
        if got is None or isinstance(got, (tuple, list, dict, str)) or np.ndim(got) != 0:
            return Failure("a number", f"{what} should be a single number; got {_kind_of(got)}")
        try:
            x = float(got)
        except (TypeError, ValueError):
            return Failure("a number", f"{what} should be a number; got {_kind_of(got)}")
        if not np.isfinite(x):
            return Failure("a finite number", f"{what} is {x} ({NOT_FINITE})")
        return x

    return convert


def tuple_output(**parts):
    """A converter of a tuple ``(a, b, ...)``, each part by its own converter, named."""

    def convert(got, problem):
        names = ", ".join(parts)
        if not isinstance(got, (tuple, list)) or len(got) != len(parts):
            return Failure(
                f"a tuple ({names})", f"the function should return ({names}); got {_kind_of(got)}"
            )
        values = []
        for part, value in zip(parts.values(), got, strict=True):
            converted = part(value, problem)
            if isinstance(converted, Failure):
                return converted
            values.append(converted)
        return tuple(values)

    return convert


def labels_output(n_clusters):
    """A converter to integer labels in ``0 .. n_clusters(problem) - 1``, one per point."""
    as_array = array_output(lambda problem: (problem.size,), "the labels")

    def convert(got, problem):
        arr = as_array(got, problem)
        if isinstance(arr, Failure):
            return arr
        k = n_clusters(problem)
        if np.any(arr != np.round(arr)) or arr.min() < 0 or arr.max() > k - 1:
            hint = ": numbering from 1?" if arr.min() >= 1 and arr.max() == k else ""
            return Failure(
                "labels 0, ..., k - 1",
                f"labels should be integers from 0 to {k - 1}{hint}",
                got=_text(arr),
            )
        return arr.astype(np.int64)

    return convert


# --- comparing with the reference ---------------------------------------------------------------


def size(x):
    """The scale of an answer: its largest absolute entry, or 1 if smaller."""
    return max(1.0, float(np.max(np.abs(x))))


def flat(answer):
    """An answer as one float array; a tuple answer such as ``(w, b)`` as its parts end to end."""
    if isinstance(answer, tuple):
        return np.concatenate([np.ravel(np.asarray(part, dtype=float)) for part in answer])
    return np.asarray(answer, dtype=float)


def close(got, expected, tol):
    """Whether ``got`` is within ``tol`` times :func:`size` of ``expected``, entrywise (tuple
    answers part by part, :func:`flat`)."""
    got, expected = flat(got), flat(expected)
    return got.shape == expected.shape and np.max(np.abs(got - expected)) <= tol * size(expected)


def compare(problem, got, expected, tol, condition, symptoms=()):
    """``None`` if ``got`` is :func:`close` to ``expected``, else a :class:`Failure` whose
    message is the first symptom that holds (or the largest difference)."""
    if close(got, expected, tol):
        return None
    for message, holds in symptoms:
        if holds(problem, got, expected):
            return Failure(condition, message, _text(expected), _text(got))
    gap = float(np.max(np.abs(flat(got) - flat(expected))))
    return Failure(
        condition,
        f"differs from the reference by up to {_text(gap)}",
        _text(expected),
        _text(got),
    )


def transposed(problem, got, expected):
    """Symptom: the answer is the transpose of the right one (a square matrix)."""
    return np.ndim(expected) == 2 and close(got, np.transpose(expected), 1e-8)


def offset(problem, got, expected):
    """Symptom: the answer is off by one constant in every entry (a missing intercept or mean)."""
    d = np.ravel(np.asarray(got) - np.asarray(expected))
    return d.size > 1 and np.ptp(d) <= 1e-8 * size(expected) and abs(d[0]) > 1e-8 * size(expected)


def either(symptoms, *args):
    """The symptoms that hold on ``args`` joined into one, which always holds (none: ``()``).

    On a small problem two mistakes can give the same answer (``K^{-1} y`` and ``(K + lam
    11^T)^{-1} y`` when ``1^T K^{-1} y = 0``); the message then names each, rather than the
    first only. For :func:`compare` pass ``(problem, got, expected)``, for
    :func:`dual_certificate` the answer.
    """
    found = [message for message, holds in symptoms if holds(*args)]
    if not found:
        return ()
    return (("; or, the same answer on this problem, ".join(found), lambda *_: True),)


# --- certificates of the duals -----------------------------------------------------------------


def dual_objective(alpha, Q, p):
    r"""The dual objective in the course's form, to maximise: :math:`-\tfrac12\alpha^\top
    Q\alpha - p^\top\alpha` (``p = -1``: :math:`\sum\alpha_i - \frac12\alpha^\top Q\alpha`)."""
    return float(-0.5 * alpha @ Q @ alpha - p @ alpha)


def _infeasible(alpha, y, C, nu, tol, words):
    """The first constraint of the dual that ``alpha`` breaks, as a :class:`Failure` (see
    :func:`dual_certificate`), or ``None``."""
    a, c = words["alpha"], words.get("C", "C")
    scale = size(alpha)
    low = float(alpha.min())
    if low < -tol * scale:
        return Failure(
            f"{a} >= 0",
            f"{a}_i = {_text(low)} < 0: the constraint {a} >= 0 is missing",
            got=_text(alpha),
        )
    high = float(np.max(alpha - C))
    if high > tol * scale:
        return Failure(
            f"{a} <= {c}",
            f"{a} outside [0, {c}]: an entry is {_text(high)} above {c} = "
            f"{_text(float(np.max(C)))}; the upper bound {c} is missing",
            got=_text(alpha),
        )
    balance = float(y @ alpha)
    if abs(balance) > tol * scale:
        return Failure(
            f"{words['sum']} = 0",
            f"{words['sum']} = {_text(balance)}, should be 0: the equality constraint (from "
            "the derivative in b) is missing",
            got=_text(alpha),
        )
    total = float(np.sum(alpha))
    if nu is not None and total < nu - tol * scale:
        return Failure(
            f"sum_i {a}_i >= nu",
            f"sum_i {a}_i = {_text(total)}, below nu = {_text(nu)}: the constraint sum_i {a}_i "
            ">= nu is not met",
            got=_text(alpha),
        )
    return None


def dual_certificate(alpha, K, y, C, p, best, *, tol, words, symptoms=(), nu=None):
    r"""Judge ``alpha`` for :math:`\max -\tfrac12\alpha^\top Q\alpha - p^\top\alpha`,
    :math:`y^\top\alpha = 0`, :math:`0 \le \alpha \le C` (:math:`Q = yy^\top \circ K`), whose
    optimum is ``best``: feasibility, then the objective, then the KKT conditions.

    ``nu`` adds the constraint :math:`\sum_i\alpha_i \ge \nu` of the ν-SVM (``p = 0``,
    ``C = 1/n``). Its KKT conditions are those of :math:`\sum_{y_i = \pm1}\alpha_i = \nu/2`
    where :math:`\sum_i\alpha_i = \nu`, and those of the equality alone where the sum is
    larger (then the optimum is :math:`w = 0`, as in :func:`kernels_ref.cvx.nu_svm_dual`).

    ``words`` names the variables and bounds in the exercise's terms: a dict with ``alpha``
    (the name of the vector), ``sum`` (how :math:`y^\top\alpha` reads) and, optionally, ``C``
    (how the upper bound reads, ``"C"`` by default). A failure's message says which condition
    failed and the likely mistake: for a feasible answer below the optimum, the first of
    ``symptoms``, pairs ``(message, holds(alpha))``, that holds.
    """
    infeasible = _infeasible(alpha, y, C, nu, tol, words)
    if infeasible is not None:
        return infeasible
    scale, total = size(alpha), float(np.sum(alpha))
    Q = np.outer(y, y) * K
    value = dual_objective(alpha, Q, p)
    if value < best - tol * max(1.0, abs(best)):
        found = [message for message, holds in symptoms if holds(alpha)]
        return Failure(
            "the maximum of the dual",
            f"feasible but not optimal: the dual objective is {_text(value)}, its maximum "
            f"{_text(best)}" + (f"; {found[0]}" if found else ""),
            got=_text(alpha),
        )
    if nu is not None and total > nu + tol * scale:
        nu = None  # sum_i alpha_i >= nu slack: its multiplier is 0
    violation = _kkt_violation(alpha, K, y, C, p=p, nu=nu, atol=tol * scale)
    if violation > np.sqrt(tol):
        return Failure(
            "the KKT conditions",
            f"the KKT conditions are violated by {_text(violation)} (kkt_violation)",
            got=_text(alpha),
        )
    return None


# --- problems ----------------------------------------------------------------------------------

#: Coordinates of the points: small integers, so that a counterexample can be typed in.
COORDINATE = st.integers(-2, 2).map(float)


def points(min_size=1, max_size=8, d=2, unique=True):
    """Points with integer coordinates in [-2, 2], as a list of tuples (shrinking: fewer, then
    nearer 0)."""
    return st.lists(
        st.tuples(*[COORDINATE] * d), min_size=min_size, max_size=max_size, unique=unique
    )


def as_array(rows, d=2):
    """A list of point tuples as an (n, d) float array."""
    return np.array(rows, dtype=float).reshape(len(rows), d)


@st.composite
def labelled(draw, min_size=2, max_size=8, separable=False):
    """Distinct points and labels in {-1, +1}, both classes present. ``separable``: the labels of
    a line w.x + b with w integer and b a half-integer (so that no point lies on it)."""
    X = as_array(draw(points(min_size, max_size)))
    if separable:
        w = np.array(draw(st.tuples(COORDINATE, COORDINATE).filter(any)))
        b = draw(st.integers(-3, 3)) + 0.5
        y = np.sign(X @ w + b)
    else:
        y = np.array(draw(st.lists(st.sampled_from([1.0, -1.0]), min_size=len(X), max_size=len(X))))
    assume(len(np.unique(y)) == 2)
    return X, y


def linear_problem(args, shown, note="K = X X^T, the linear kernel"):
    """A :class:`Problem` whose size is the number of rows of ``shown["X"]``."""
    return Problem(args=args, shown=shown, size=len(shown["X"]), note=note)


def optimal(alpha, K, y, C, p, *, tol):
    """Whether ``alpha`` solves the dual of ``(K, y, C, p)`` (feasible, KKT within
    ``sqrt(tol)``): for a symptom, the dual of another problem that the answer does solve."""
    scale = size(alpha)
    feasible = alpha.min() >= -tol * scale and np.all(alpha <= C + tol * scale)
    return bool(
        feasible
        and abs(y @ alpha) <= tol * scale
        and _kkt_violation(alpha, K, y, C, p=p, atol=tol * scale) <= np.sqrt(tol)
    )
