r"""Exercises of chapter 3: the perceptron, primal and dual.

Both runs are deterministic (points visited in order, from zero, with the bias step
:math:`R^2`), so an answer is judged against the reference's
(:func:`kernels_ref.perceptron.perceptron_primal`, :func:`kernels_ref.perceptron.perceptron_dual`).
On integer data every iterate is an integer: the run is exact, and a correct implementation
makes the same mistakes in the same order.

The problems are separable by a line through the origin, with no point on it. So every
perceptron of the course stops on them, the one without bias included: a forgotten bias update
gives an answer that the report names, not a loop that never ends.
"""

import warnings

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from ..perceptron import perceptron_dual as _dual_run
from ..perceptron import perceptron_primal as _primal_run
from ._core import Exercise
from ._judging import (
    COORDINATE,
    array_output,
    as_array,
    close,
    compare,
    linear_problem,
    number_output,
    tuple_output,
)
from ._kernels import KERNELS

#: Tolerance on (w, b) and (alpha, b), relative to their largest entry (or 1), stated as 1e-9 in
#: the exercises' tolerances: the runs are exact on integer data, a wrong run is off by 1 or more.
RUN_TOL = 1e-9

#: What the problems have in common, in each report.
SEPARABLE = "separable by a line through the origin"

# --- the problems -------------------------------------------------------------------------------


@st.composite
def _through_origin(draw, max_size=6):
    """Distinct points with integer coordinates in [-2, 2] labelled by the sign of <v, x>, v an
    integer vector, no point on the line <v, x> = 0; both classes present."""
    v = draw(st.tuples(COORDINATE, COORDINATE).filter(any))
    off_the_line = st.tuples(COORDINATE, COORDINATE).filter(lambda p: np.dot(p, v) != 0)
    X = as_array(draw(st.lists(off_the_line, min_size=2, max_size=max_size, unique=True)))
    y = np.sign(X @ np.array(v))
    assume(len(np.unique(y)) == 2)
    return X, y


@st.composite
def _primal_problems(draw):
    X, y = draw(_through_origin())
    return linear_problem({"X": X, "y": y}, {"X": X, "y": y}, note=SEPARABLE)


@st.composite
def _dual_problems(draw):
    X, y = draw(_through_origin())
    words, kernel = KERNELS[draw(st.sampled_from(list(KERNELS)))]
    note = f"K[i, j] = k(x_i, x_j), {words}; {SEPARABLE}"
    return linear_problem({"K": kernel(X, X), "y": y}, {"X": X, "y": y}, note=note)


# --- the symptoms, shared by the two forms ------------------------------------------------------


def _run(problem, **options):
    """The reference's run on ``problem`` with other ``options`` (a mistaken variant)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one pass only does not converge
        if "X" in problem.args:
            return _primal_run(problem.args["X"], problem.args["y"], **options)
        return _dual_run(problem.args["K"], problem.args["y"], **options)


def _answer(run):
    """The answer ``(w, b)`` or ``(alpha, b)`` of a run."""
    return (run.w if hasattr(run, "w") else run.alpha), run.b


def _same_as(**options):
    """Symptom: the answer is the run with ``options`` (no bias, a unit bias step, one pass)."""
    return lambda pb, got, exp: close(got, _answer(_run(pb, **options)), RUN_TOL)


def _bias_left_out_of_the_test(pb, got, exp):
    """Symptom: the run without bias, with b <- b + y_i R^2 at each of its mistakes."""
    run = _run(pb, bias_update=None)
    return close(got, (_answer(run)[0], _R2(pb) * np.sum(pb.args["y"][run.history])), RUN_TOL)


def _R2(pb):
    """R^2, the largest squared norm: max_j |x_j|^2, or max_j K[j, j] in feature space."""
    if "X" in pb.args:
        return np.max(np.sum(pb.args["X"] ** 2, axis=1))
    return np.max(np.diag(pb.args["K"]))


def _no_update(pb, got, exp):
    return not np.any(got[0]) and got[1] == 0


def _first_right(pb, got, exp):
    return close(got[0], exp[0], RUN_TOL)


def _symptoms(first, bias_step):
    """The mistakes of both forms; ``first`` names w or alpha, ``bias_step`` says what R^2 is."""
    return (
        (
            f"{first} = 0 and b = 0: no update ever happened; from {first} = 0, b = 0 every "
            "y_i f(x_i) is 0, a mistake: the test is y_i f(x_i) <= 0, not < 0",
            _no_update,
        ),
        (
            "b = 0, never updated: the bias is missing (b <- b + y_i R^2 at each mistake); "
            f"({first}, b) is the run of the perceptron without bias",
            _same_as(bias_update=None),
        ),
        (
            "b is updated but left out of the test: a mistake is y_i f(x_i) <= 0 with f "
            "including b",
            _bias_left_out_of_the_test,
        ),
        (
            f"the bias step is y_i, should be y_i R^2 with {bias_step}",
            _same_as(bias_update="unit"),
        ),
        (
            f"({first}, b) after one pass: repeat the passes until one makes no mistake",
            _same_as(max_epochs=1),
        ),
        (
            f"{first} is right but b is not: the bias step is y_i R^2 with {bias_step}",
            _first_right,
        ),
    )


# --- the primal perceptron ----------------------------------------------------------------------


def perceptron_primal(X, y):
    r"""The perceptron with bias, :math:`\eta = 1`, bias step :math:`R^2`: its final
    :math:`(w, b)` (:func:`kernels_ref.perceptron.perceptron_primal`)."""
    run = _primal_run(X, y)
    return run.w, run.b


PRIMAL_SYMPTOMS = _symptoms("w", "R^2 = max_j |x_j|^2")

PERCEPTRON_PRIMAL = Exercise(
    name="perceptron_primal",
    signature="perceptron_primal(X, y) -> (w, b)",
    statement=(
        "X of shape (n, d), labels y in {-1, +1}, separable data: the perceptron with bias from "
        "w = 0, b = 0. Visit i = 0, ..., n - 1 in order; at a mistake, y_i (<w, x_i> + b) <= 0, "
        "set w <- w + y_i x_i and b <- b + y_i R^2, with R^2 = max_j |x_j|^2. Repeat the passes "
        "until one makes no mistake and return (w, b), w of shape (d,) and b a number."
    ),
    tolerance=(
        "w and b within 1e-9 times their largest entry (or 1) of the reference's; the "
        "run is deterministic and exact on integer points"
    ),
    chapter="ch03_perceptron",
    reference=perceptron_primal,
    problems=_primal_problems,
    output=tuple_output(
        w=array_output(lambda pb: (pb.args["X"].shape[1],), "w"), b=number_output("b")
    ),
    judge=lambda pb, got, exp: compare(
        pb, got, exp, RUN_TOL, "(w, b) once a pass makes no mistake", PRIMAL_SYMPTOMS
    ),
)

# --- the dual perceptron ------------------------------------------------------------------------


def perceptron_dual(K, y):
    r"""The dual perceptron with bias step :math:`R^2 = \max_j K_{jj}`: the mistake counts
    :math:`\alpha` and :math:`b` (:func:`kernels_ref.perceptron.perceptron_dual`)."""
    run = _dual_run(K, y)
    return run.alpha, run.b


def _signed_counts(pb, got, exp):
    """Symptom: alpha_i <- alpha_i + y_i, the run otherwise right (f = sum_j alpha_j K_ji + b)."""
    return close(got, (pb.args["y"] * exp[0], exp[1]), RUN_TOL)


DUAL_SYMPTOMS = (
    (
        "alpha_i is minus the number of mistakes where y_i = -1: alpha_i counts the mistakes "
        "on x_i (alpha_i <- alpha_i + 1, not + y_i), and y_j multiplies alpha_j in f",
        _signed_counts,
    ),
    (
        "alpha has a negative entry: alpha_i counts the mistakes on x_i, alpha_i <- alpha_i + 1",
        lambda pb, got, exp: np.any(got[0] < 0),
    ),
    *_symptoms("alpha", "R^2 = max_j K[j, j]"),
)

PERCEPTRON_DUAL = Exercise(
    name="perceptron_dual",
    signature="perceptron_dual(K, y) -> (alpha, b)",
    statement=(
        "K of shape (n, n), the Gram matrix of separable data, labels y in {-1, +1}: the dual "
        "perceptron from alpha = 0, b = 0. Visit i = 0, ..., n - 1 in order; at a mistake, "
        "y_i (sum_j alpha_j y_j K[j, i] + b) <= 0, set alpha_i <- alpha_i + 1 and "
        "b <- b + y_i R^2, with R^2 = max_j K[j, j]. Repeat the passes until one makes no "
        "mistake and return (alpha, b): alpha of shape (n,), the number of mistakes on each "
        "point, and b a number."
    ),
    tolerance=(
        "alpha and b within 1e-9 times their largest entry (or 1) of the reference's; "
        "the run is deterministic and exact on an integer K"
    ),
    chapter="ch03_perceptron",
    reference=perceptron_dual,
    problems=_dual_problems,
    output=tuple_output(alpha=array_output(lambda pb: (pb.size,), "alpha"), b=number_output("b")),
    judge=lambda pb, got, exp: compare(
        pb, got, exp, RUN_TOL, "(alpha, b) once a pass makes no mistake", DUAL_SYMPTOMS
    ),
)

EXERCISES = (PERCEPTRON_PRIMAL, PERCEPTRON_DUAL)
