"""The exercise of chapter 6: the nu-SVM's dual.

The reference passes; the classic mistakes, written out with cvxpy as a student would, fail with
a message that names them, on a problem of at most five points; a correct cvxpy implementation
passes with cvxpy's default solver and with Clarabel, whether it writes sum_i alpha_i >= nu or
the equality that an optimal alpha can always meet.
"""

import cvxpy as cp
import numpy as np
import pytest

from kernels_ref import exercises

NAME = "nu_svm_dual"


def _factor(M):
    """F with F^T F = M, for a symmetric positive semidefinite M (eigenvalues clipped at 0)."""
    w, V = np.linalg.eigh(M)
    return np.sqrt(np.clip(w, 0.0, None))[:, None] * V.T


def _nu_by_cvxpy(
    K,
    y,
    nu,
    *,
    upper="1/n",
    total=">=",
    equality=True,
    linear=False,
    labels=True,
    scale=1.0,
    solver=None,
):
    """The nu-SVM's dual by cvxpy, with a switch for each classic mistake: ``upper`` the upper
    bound ("1/n", a number, or None), ``total`` the constraint on sum_i alpha_i (">=", "==",
    "<=" or None), ``linear`` the C-SVM's term sum_i alpha_i in the objective, ``scale`` the
    factor of the box and of nu (n: LIBSVM's scaling)."""
    n = len(y)
    Q = np.outer(y, y) * K if labels else K
    a = cp.Variable(n)
    constraints = [a >= 0]
    if upper is not None:
        constraints.append(a <= (scale / n if upper == "1/n" else upper))
    if equality:
        constraints.append(y @ a == 0)
    if total == ">=":
        constraints.append(cp.sum(a) >= scale * nu)
    elif total == "==":
        constraints.append(cp.sum(a) == scale * nu)
    elif total == "<=":
        constraints.append(cp.sum(a) <= scale * nu)
    objective = -0.5 * cp.sum_squares(_factor(Q) @ a) + (cp.sum(a) if linear else 0.0)
    cp.Problem(cp.Maximize(objective), constraints).solve(solver=solver)
    return a.value


def _fails_naming(function, words):
    report = exercises.check(NAME, function)
    assert not report.passed, str(report)
    assert words in report.message, str(report)
    assert report.problem.size <= 5, str(report)
    return report


def test_reference_passes():
    report = exercises.check(NAME, exercises.reference(NAME))
    assert report.passed, str(report)


# --- wrong implementations --------------------------------------------------------------------


def nu_without_total(K, y, nu):  # sum_i alpha_i >= nu forgotten: alpha = 0 is optimal
    return _nu_by_cvxpy(K, y, nu, total=None)


def nu_total_reversed(K, y, nu):  # sum_i alpha_i <= nu
    return _nu_by_cvxpy(K, y, nu, total="<=")


def nu_without_upper_bound(K, y, nu):  # alpha >= 0 only
    return _nu_by_cvxpy(K, y, nu, upper=None)


def nu_with_c_one(K, y, nu):  # the C-SVM's box 0 <= alpha_i <= C = 1
    return _nu_by_cvxpy(K, y, nu, upper=1.0)


def nu_without_equality(K, y, nu):
    return _nu_by_cvxpy(K, y, nu, equality=False)


def nu_with_linear_term(K, y, nu):  # max sum_i alpha_i - 1/2 alpha^T Q alpha, the C-SVM's
    return _nu_by_cvxpy(K, y, nu, linear=True)


def nu_without_labels(K, y, nu):  # Q = K
    return _nu_by_cvxpy(K, y, nu, labels=False)


def nu_in_libsvm_scaling(K, y, nu):  # n alpha: box [0, 1], sum_i alpha_i >= n nu
    return _nu_by_cvxpy(K, y, nu, scale=len(y))


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (nu_without_total, "alpha = 0: the constraint sum_i alpha_i >= nu is missing"),
        (nu_total_reversed, "alpha = 0: the constraint sum_i alpha_i >= nu is missing"),
        (nu_without_upper_bound, "the upper bound of the box 0 <= alpha_i <= 1/n is missing"),
        (nu_with_c_one, "or C = 1 of the C-SVM is used in its place"),
        (nu_without_equality, "should be 0: the equality constraint"),
        (nu_with_linear_term, "alpha solves the C-SVM's dual (with C = 1/n or C = 1): its linear"),
        (nu_without_labels, "alpha solves the dual without the labels: Q_ij = y_i y_j K_ij"),
        (nu_in_libsvm_scaling, "n alpha is optimal: alpha in LIBSVM's scaling"),
    ],
    ids=[
        "no-sum",
        "sum-reversed",
        "no-upper-bound",
        "C-1",
        "no-equality",
        "linear-term",
        "no-labels",
        "libsvm-scaling",
    ],
)
def test_mistakes_are_named(function, words):
    _fails_naming(function, words)


def test_the_box_is_named_by_its_bound():
    report = _fails_naming(nu_without_upper_bound, "alpha outside [0, 1/n]")
    assert report.condition == "alpha <= 1/n"


def test_a_small_sum_is_reported_against_nu():
    report = _fails_naming(nu_without_total, "below nu = 0.5")
    assert report.condition == "sum_i alpha_i >= nu"


# --- correct implementations ------------------------------------------------------------------


@pytest.mark.parametrize("solver", [None, cp.CLARABEL], ids=["default", "clarabel"])
@pytest.mark.parametrize("total", [">=", "=="])
def test_cvxpy_passes(solver, total):
    def nu_svm_dual(K, y, nu):
        return _nu_by_cvxpy(K, y, nu, total=total, solver=solver)

    report = exercises.check(NAME, nu_svm_dual)
    assert report.passed, str(report)


def test_a_sum_above_nu_passes_where_w_is_zero():
    """Where w = 0 is optimal (the reduced hulls of the classes meet), every multiple of an
    optimal alpha that stays in the box is optimal too: sum_i alpha_i > nu is right there."""
    scaled = []

    def nu_svm_dual(K, y, nu):
        alpha = exercises.reference(NAME)(K, y, nu)
        if alpha @ (np.outer(y, y) * K) @ alpha > 1e-12:
            return alpha
        scaled.append(len(y))
        return alpha / (len(y) * alpha.max())  # the largest multiple in the box [0, 1/n]

    report = exercises.check(NAME, nu_svm_dual)
    assert report.passed, str(report)
    assert scaled
