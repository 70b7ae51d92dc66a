r"""Exercises of chapters 9 and 10: the coefficients of kernel ridge regression, the dual of
support vector regression."""

from dataclasses import replace

import numpy as np
from hypothesis import strategies as st

from ..report import _tolerance
from ..ridge import kernel_ridge as _kernel_ridge
from ..svr import svr
from ._core import Exercise, Failure, Problem, _text
from ._judging import (
    array_output,
    as_array,
    close,
    compare,
    dual_certificate,
    dual_objective,
    either,
    optimal,
    points,
    tuple_output,
)
from ._svm import DUAL_TOL

# --- kernel ridge regression --------------------------------------------------------------------

#: Tolerance of kernel ridge's alpha, relative to its largest entry (or 1): K + lam I has a
#: condition number of at most a few thousand on these problems.
RIDGE_TOL = 1e-8

#: Tolerance of a symptom: the mistaken formula, computed another way (an inverse, say).
SYMPTOM_TOL = 1e-6


def kernel_ridge(K, y, lam):
    r""":math:`\alpha = (K + \lambda I)^{-1} y`, the minimiser of :math:`\sum_i (y_i -
    f(x_i))^2 + \lambda\|f\|^2` (:func:`kernels_ref.ridge.kernel_ridge`, the loss a sum)."""
    return _kernel_ridge(K, y, lam).alpha


@st.composite
def _regression_data(draw, max_size):
    """Distinct points with integer coordinates in [-2, 2] and integer targets in [-2, 2]."""
    X = as_array(draw(points(1, max_size)))
    n = len(X)
    return X, np.array(draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n)), dtype=float)


@st.composite
def _ridge_problems(draw):
    X, y = draw(_regression_data(8))
    n = len(X)
    lam = draw(st.sampled_from([1.0, 0.5, 2.0]))
    K = (1.0 + X @ X.T) ** 2
    return Problem(
        args={"K": K, "y": y, "lam": lam}, shown={"X": X, "y": y, "lam": lam}, size=n,
        note="K = (1 + X X^T)^2, the polynomial kernel of degree 2",
    )  # fmt: skip


def _solves(A, alpha, y):
    """Whether ``alpha`` solves ``A alpha = y``, to :data:`SYMPTOM_TOL` of the size of the terms."""
    scale = max(1.0, float(np.max(np.abs(A) @ np.abs(alpha))))
    return bool(np.max(np.abs(A @ alpha - y)) <= SYMPTOM_TOL * scale)


def _shift(K, alpha, y):
    r"""The :math:`s` of :math:`(K + sI)\alpha = y` that fits ``alpha`` best (least squares)."""
    return float(alpha @ (y - K @ alpha) / max(float(alpha @ alpha), 1e-300))


def _another_shift(pb, got, exp):
    """Symptom: got = (K + s I)^{-1} y for a shift s other than lam, and other than 0 and n lam
    (named by their own symptoms); on one point every positive answer is of this form, so it
    is the last resort."""
    K, y, lam = pb.args["K"], pb.args["y"], pb.args["lam"]
    s, n = _shift(K, got, y), len(y)
    named = min(abs(s), abs(s - lam), abs(s - n * lam))
    return named > SYMPTOM_TOL * max(1.0, abs(s)) and _solves(K + s * np.eye(n), got, y)


def _ridge_judge(pb, got, exp):
    K, y, lam = pb.args["K"], pb.args["y"], pb.args["lam"]
    n = len(y)
    symptoms = (
        (
            "alpha = K^{-1} y: lam is missing (that interpolates y; the ridge solves "
            "(K + lam I) alpha = y)",
            lambda pb, got, exp: _solves(K, got, y),
        ),
        (
            f"alpha = (K + n lam I)^{{-1}} y with n = {n}: the mean-loss convention (1/n) sum_i "
            "(y_i - f(x_i))^2; here the loss is the sum, alpha = (K + lam I)^{-1} y",
            lambda pb, got, exp: n > 1 and _solves(K + n * lam * np.eye(n), got, y),
        ),
        (
            "alpha = (K + lam 1 1^T)^{-1} y: lam is added to every entry of K (np.ones) instead "
            "of its diagonal (np.eye)",
            lambda pb, got, exp: n > 1 and _solves(K + lam * np.ones((n, n)), got, y),
        ),
        (
            "alpha = (K^T K + lam I)^{-1} K^T y: the primal formula (X^T X + lam I)^{-1} X^T y "
            "with K in place of X; the dual coefficients are (K + lam I)^{-1} y",
            lambda pb, got, exp: close(
                got, np.linalg.solve(K.T @ K + lam * np.eye(n), K.T @ y), SYMPTOM_TOL
            ),
        ),
        (
            "the answer is K alpha, the fitted values f(x_i), not the coefficients alpha",
            lambda pb, got, exp: close(got, K @ exp, SYMPTOM_TOL),
        ),
        (
            "the answer is 2 lam alpha: Valle Vidal's Lagrange multipliers, not the "
            "coefficients of f = sum_i alpha_i k(x_i, .)",
            lambda pb, got, exp: close(got, 2 * lam * exp, SYMPTOM_TOL),
        ),
    )
    other_shift = (
        f"alpha = (K + s I)^{{-1}} y with s = {_text(_shift(K, got, y))}, not lam = "
        f"{_text(lam)}: the shift of the diagonal is wrong",
        _another_shift,
    )
    found = either(symptoms, pb, got, exp) or (other_shift,)
    return compare(pb, got, exp, RIDGE_TOL, "alpha = (K + lam I)^{-1} y", found)


KERNEL_RIDGE = Exercise(
    name="kernel_ridge",
    signature="kernel_ridge(K, y, lam) -> alpha",
    statement=(
        "K of shape (n, n) positive semi-definite, targets y of shape (n,), lam > 0: the "
        "coefficients alpha of shape (n,) of f = sum_i alpha_i k(x_i, .) minimising the SUM "
        "sum_i (y_i - f(x_i))^2 + lam |f|^2, that is alpha = (K + lam I)^{-1} y (the mean "
        "(1/n) sum_i of Vert's notes would give (K + n lam I)^{-1} y). Solve the system; no "
        "inverse is needed."
    ),
    tolerance=(
        f"each entry of alpha within {_tolerance(RIDGE_TOL)} times the largest |alpha_i| "
        "(or 1) of the reference"
    ),
    chapter="ch09_kernel_ridge",
    reference=kernel_ridge,
    problems=_ridge_problems,
    output=array_output(lambda pb: (pb.size,), "alpha"),
    judge=_ridge_judge,
)

# --- the dual of support vector regression ------------------------------------------------------


def svr_dual(K, y, C, epsilon):
    r"""The :math:`\varepsilon`-SVR dual's :math:`(\alpha, \alpha^*)`, :math:`f = \sum_i
    (\alpha_i - \alpha_i^*) k(x_i, \cdot) + b` (:func:`kernels_ref.svr.svr`, SMO)."""
    res = svr(K, y, C, epsilon, tol=1e-10)
    return res.alpha, res.alpha_star


@st.composite
def _svr_problems(draw):
    X, y = draw(_regression_data(7))
    n = len(X)
    C = draw(st.sampled_from([1.0, 0.5, 2.0]))
    epsilon = draw(st.sampled_from([0.5, 1.0, 0.0]))
    args = {"K": X @ X.T, "y": y, "C": C, "epsilon": epsilon}
    shown = {"X": X, "y": y, "C": C, "epsilon": epsilon}
    return Problem(args=args, shown=shown, size=n, note="K = X X^T, the linear kernel")


def _doubled(K, y, epsilon):
    r"""The dual in the :math:`2n` variables :math:`a = (\alpha, \alpha^*)`, LIBSVM's form of
    :func:`kernels_ref.svr.svr`: labels :math:`z = (\mathbf 1, -\mathbf 1)`, Gram matrix
    :math:`\begin{pmatrix} K & K \\ K & K\end{pmatrix}` (so :math:`Q = zz^\top \circ K_2`), linear
    term :math:`p = (\varepsilon\mathbf 1 - y, \varepsilon\mathbf 1 + y)`."""
    n = len(y)
    z = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([epsilon - y, epsilon + y])
    return np.block([[K, K], [K, K]]), z, p


def _svr_symptoms(K, y, C, epsilon):
    """The likely mistakes of a feasible answer below the maximum, as ``(message, holds(a))``
    with ``a = (alpha, alpha*)`` concatenated: the problem the answer does solve."""
    n = len(y)
    K2, z, p = _doubled(K, y, epsilon)
    _, _, p0 = _doubled(K, y, 0.0)
    swap = np.r_[np.arange(n, 2 * n), np.arange(n)]
    signs = np.r_[np.ones(n), -np.ones(n)]

    def split_removed(a):
        common = np.minimum(a[:n], a[n:])
        return epsilon > 0 and common.max() > DUAL_TOL * max(1.0, a.max()) and optimal(
            a - np.r_[common, common], K2, z, C, p, tol=DUAL_TOL
        )  # fmt: skip

    return (
        (
            "alpha and alpha* are swapped (f has the wrong sign): alpha multiplies +k(x_i, x) in "
            "f = sum_i (alpha_i - alpha*_i) k(x_i, x) + b and +y_i in the objective",
            lambda a: optimal(a[swap], K2, z, C, p, tol=DUAL_TOL),
        ),
        (
            "the answer solves the dual with epsilon = 0: the term -epsilon sum_i (alpha_i + "
            "alpha*_i) is missing",
            lambda a: optimal(a, K2, z, C, p0, tol=DUAL_TOL),
        ),
        (
            "alpha_i and alpha*_i are both positive at some point: at the optimum alpha_i "
            "alpha*_i = 0 when epsilon > 0 (subtracting min(alpha_i, alpha*_i) from both keeps f "
            "and raises the objective)",
            split_removed,
        ),
        (
            "the quadratic term is written with alpha + alpha*: it is -1/2 (alpha - alpha*)^T K "
            "(alpha - alpha*)",
            lambda a: optimal(a, np.outer(signs, signs) * K2, z, C, p, tol=DUAL_TOL),
        ),
        (
            "the answer solves the dual without the 1/2 of its quadratic term",
            lambda a: optimal(a, 2 * K2, z, C, p, tol=DUAL_TOL),
        ),
    )


def _svr_judge(problem, got, expected):
    K, y, C, epsilon = problem.args.values()
    K2, z, p = _doubled(K, y, epsilon)
    a = np.concatenate(got)
    best = dual_objective(np.concatenate(expected), np.outer(z, z) * K2, p)
    failure = dual_certificate(
        a, K2, z, C, p, best, tol=DUAL_TOL, symptoms=either(_svr_symptoms(K, y, C, epsilon), a),
        words={"alpha": "(alpha, alpha*)", "sum": "sum_i (alpha_i - alpha*_i)"},
    )  # fmt: skip
    if isinstance(failure, Failure) and failure.got is not None:
        failure = replace(failure, got=_text(got))  # the two vectors, not their concatenation
    return failure


SVR_DUAL = Exercise(
    name="svr_dual",
    signature="svr_dual(K, y, C, epsilon) -> (alpha, alpha_star)",
    statement=(
        "K of shape (n, n) positive semi-definite, targets y of shape (n,), C > 0, epsilon >= "
        "0: alpha and alpha_star of shape (n,) that maximise -1/2 (alpha - alpha*)^T K (alpha "
        "- alpha*) - epsilon sum_i (alpha_i + alpha*_i) + y^T (alpha - alpha*) subject to "
        "sum_i (alpha_i - alpha*_i) = 0 and 0 <= alpha_i, alpha*_i <= C, so that f(x) = "
        "sum_i (alpha_i - alpha*_i) k(x_i, x) + b (alpha for the points above the tube, "
        "alpha* below). Any solver (cvxpy, SMO on the 2n variables, your own)."
    ),
    tolerance=(
        f"by certificate, the answer need not be unique: 0 <= alpha, alpha* <= C and "
        f"sum_i (alpha_i - alpha*_i) = 0 to {_tolerance(DUAL_TOL)} times the largest entry "
        f"(or 1), the dual objective within {_tolerance(DUAL_TOL)} times max(1, |maximum|) of its "
        f"maximum, the KKT conditions (kkt_violation on the 2n variables (alpha, alpha*)) within "
        f"{_tolerance(np.sqrt(DUAL_TOL))}"
    ),
    chapter="ch10_svr",
    reference=svr_dual,
    problems=_svr_problems,
    output=tuple_output(
        alpha=array_output(lambda pb: (pb.size,), "alpha"),
        alpha_star=array_output(lambda pb: (pb.size,), "alpha_star"),
    ),
    judge=_svr_judge,
)

EXERCISES = (KERNEL_RIDGE, SVR_DUAL)
