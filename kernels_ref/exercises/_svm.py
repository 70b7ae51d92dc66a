r"""Exercises of chapters 4, 5 and 7: the duals of the SVM, SMO's step, the intercept."""

import numpy as np
from hypothesis import strategies as st

from ..svm import hard_margin
from ._core import Exercise
from ._judging import (
    array_output,
    dual_certificate,
    dual_objective,
    labelled,
    linear_problem,
    optimal,
)

#: Tolerance of the dual certificates, relative to the largest alpha_i (or 1): feasibility and
#: the objective to 1e-6, the KKT conditions to its square root 1e-3 (an interior-point
#: solver's answer, cvxpy's, meets them; the mistakes miss them by far more).
DUAL_TOL = 1e-6

# --- the hard-margin dual -----------------------------------------------------------------------


def hard_margin_dual(K, y):
    r"""The hard-margin dual's :math:`\alpha` (:func:`kernels_ref.svm.hard_margin`, SMO)."""
    return hard_margin(K, y, tol=1e-10).alpha


@st.composite
def _separable(draw):
    X, y = draw(labelled(2, 7, separable=True))
    return linear_problem({"K": X @ X.T, "y": y}, {"X": X, "y": y})


def _hard_margin_judge(problem, alpha, expected):
    K, y = problem.args["K"], problem.args["y"]
    p = -np.ones(len(y))
    best = dual_objective(expected, np.outer(y, y) * K, p)
    symptoms = (
        (
            "alpha solves the dual without the labels: Q_ij = y_i y_j K_ij, not K_ij",
            lambda a: optimal(a, np.outer(y, y) * K, y, np.inf, p, tol=DUAL_TOL),
        ),
        (
            "2 alpha is optimal: the 1/2 of the dual objective is missing",
            lambda a: optimal(2 * a, K, y, np.inf, p, tol=DUAL_TOL),
        ),
    )
    return dual_certificate(
        alpha, K, y, np.inf, p, best, tol=DUAL_TOL, symptoms=symptoms,
        words={"alpha": "alpha", "sum": "sum_i y_i alpha_i"},
    )  # fmt: skip


HARD_MARGIN_DUAL = Exercise(
    name="hard_margin_dual",
    signature="hard_margin_dual(K, y) -> alpha",
    statement=(
        "K of shape (n, n), labels y in {-1, +1} of separable data: alpha of shape (n,) that "
        "maximises sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij subject to "
        "alpha_i >= 0 and sum_i y_i alpha_i = 0. Any solver (cvxpy, SMO, your own)."
    ),
    tolerance=(
        f"by certificate, the answer need not be unique: alpha >= 0 and sum_i y_i alpha_i = 0 "
        f"to {DUAL_TOL:g}, the dual objective within {DUAL_TOL:g} (relative) of its maximum, "
        f"the KKT conditions (kkt_violation) within {np.sqrt(DUAL_TOL):g}"
    ),
    chapter="ch04_maximal_margin",
    reference=hard_margin_dual,
    problems=_separable,
    output=array_output(lambda pb: (pb.size,), "alpha"),
    judge=_hard_margin_judge,
)

EXERCISES = (HARD_MARGIN_DUAL,)
