"""The exercises of chapters 4, 5 and 7: the hard-margin and L1 soft-margin duals, one step of
SMO, the intercept.

For each: the reference passes; the classic mistakes, written out as a student would, fail
with a message that names them, on a problem of at most five points; a correct implementation
written differently (cvxpy for the duals, Platt's update for the step, the interval of the
KKT conditions for the intercept) passes.
"""

import cvxpy as cp
import numpy as np
import pytest

from kernels_ref import exercises


def _fails_naming(name, function, words):
    report = exercises.check(name, function)
    assert not report.passed, str(report)
    assert words in report.message, str(report)
    assert report.problem.size <= 5, str(report)
    return report


@pytest.mark.parametrize(
    "name", ["hard_margin_dual", "soft_margin_l1_dual", "smo_step", "intercept"]
)
def test_reference_passes(name):
    report = exercises.check(name, exercises.reference(name))
    assert report.passed, str(report)


# --- the duals: wrong and right implementations ---------------------------------------------------


def _factor(M):
    """F with F^T F = M, for a symmetric positive semidefinite M (eigenvalues clipped at 0)."""
    w, V = np.linalg.eigh(M)
    return np.sqrt(np.clip(w, 0.0, None))[:, None] * V.T


def _solve(objective, constraints):
    problem = cp.Problem(cp.Maximize(objective), constraints)
    problem.solve()
    return problem


def _dual_by_cvxpy(K, y, C=None, *, half=0.5, labels=True, equality=True, ridge=0.0, l2=False):
    """The dual by cvxpy, with a switch for each classic mistake."""
    n = len(y)
    M = K + np.eye(n) / C if l2 else K
    Q = (np.outer(y, y) * M if labels else M) + ridge * np.eye(n)
    a = cp.Variable(n)
    constraints = [a >= 0]
    if C is not None and not l2:
        constraints.append(a <= C)
    if equality:
        constraints.append(y @ a == 0)
    _solve(cp.sum(a) - half * cp.sum_squares(_factor(Q) @ a), constraints)
    return a.value


def hard_margin_by_cvxpy(K, y):
    return _dual_by_cvxpy(K, y)


def hard_margin_without_half(K, y):  # max sum alpha - alpha^T Q alpha
    return _dual_by_cvxpy(K, y, half=1.0)


def hard_margin_without_equality(K, y):  # a small ridge keeps it bounded
    return _dual_by_cvxpy(K, y, equality=False, ridge=1e-3)


def hard_margin_by_kkt_system(K, y):
    """The stationary point under the equality only: [Q y; y^T 0] (alpha, b) = (1, 0)."""
    n = len(y)
    A = np.block([[np.outer(y, y) * K, y[:, None]], [y[None, :], np.zeros((1, 1))]])
    solution = np.linalg.lstsq(A, np.r_[np.ones(n), 0.0], rcond=None)[0]
    return solution[:n]


def hard_margin_by_projected_gradient(K, y):
    """Gradient ascent projected on alpha >= 0 only, a fixed number of steps."""
    Q = np.outer(y, y) * K
    alpha, step = np.zeros(len(y)), 1.0 / max(1.0, np.linalg.eigvalsh(Q).max())
    for _ in range(2000):
        alpha = np.maximum(alpha + step * (1.0 - Q @ alpha), 0.0)
    return alpha


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (hard_margin_without_half, "2 alpha is optimal: the 1/2 of the dual objective is missing"),
        (hard_margin_by_kkt_system, "alpha solves the equations Q alpha + b y = 1"),
        (hard_margin_without_equality, "should be 0: the equality constraint"),
        (hard_margin_by_projected_gradient, "should be 0: the equality constraint"),
    ],
)
def test_hard_margin_dual_mistakes_are_named(function, words):
    _fails_naming("hard_margin_dual", function, words)


def test_hard_margin_dual_by_cvxpy_passes():
    report = exercises.check("hard_margin_dual", hard_margin_by_cvxpy)
    assert report.passed, str(report)


def soft_margin_by_cvxpy(K, y, C):
    return _dual_by_cvxpy(K, y, C)


def soft_margin_without_upper_bound(K, y, C):  # the hard margin's dual
    return _dual_by_cvxpy(K, y)


def soft_margin_without_equality(K, y, C):
    return _dual_by_cvxpy(K, y, C, equality=False)


def soft_margin_without_labels(K, y, C):  # Q = K
    return _dual_by_cvxpy(K, y, C, labels=False)


def soft_margin_l2_instead(K, y, C):  # K + I/C, alpha >= 0: the L2 soft margin's dual
    return _dual_by_cvxpy(K, y, C, l2=True)


def soft_margin_without_half(K, y, C):
    return _dual_by_cvxpy(K, y, C, half=1.0)


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (soft_margin_without_upper_bound, "alpha outside [0, C]: an entry is"),
        (soft_margin_without_upper_bound, "the upper bound C is missing"),
        (soft_margin_without_equality, "should be 0: the equality constraint"),
        (soft_margin_without_labels, "the dual without the labels: Q_ij = y_i y_j K_ij"),
        (soft_margin_l2_instead, "alpha solves the L2 soft margin's dual"),
        (soft_margin_without_half, "the 1/2 of the dual objective is missing"),
    ],
)
def test_soft_margin_l1_dual_mistakes_are_named(function, words):
    _fails_naming("soft_margin_l1_dual", function, words)


def test_soft_margin_l1_dual_by_cvxpy_passes():
    report = exercises.check("soft_margin_l1_dual", soft_margin_by_cvxpy)
    assert report.passed, str(report)


# --- one step of SMO ------------------------------------------------------------------------------


def _errors_and_eta(alpha, i, j, K, y):
    E = K @ (alpha * y) - y  # E_t = f0(x_t) - y_t
    return E, K[i, i] + K[j, j] - 2.0 * K[i, j]


def _platt_bounds(a_first, a_second, C, same):
    """Platt's [L, H] for the second variable of the pair."""
    if same:
        return max(0.0, a_first + a_second - C), min(C, a_first + a_second)
    return max(0.0, a_second - a_first), min(C, C + a_second - a_first)


def smo_step_platt(alpha, i, j, K, y, C, *, swap_bounds=False, sign=True, in_place=False):
    """Platt's update: alpha_j first, clipped to [L, H], then alpha_i from the equality."""
    E, eta = _errors_and_eta(alpha, i, j, K, y)
    new = alpha if in_place else alpha.copy()
    a_i, a_j = alpha[i], alpha[j]
    same = (y[i] == y[j]) != swap_bounds
    low, high = _platt_bounds(a_i, a_j, C, same)
    new[j] = min(max(a_j + y[j] * (E[i] - E[j]) / eta, low), high)
    s = y[i] * y[j] if sign else 1.0
    new[i] = a_i + s * (a_j - new[j])
    return new


def _minimise_along_pair(alpha, i, j, K, y, C, direction=1.0):
    """alpha + t d along d = y_i e_i - y_j e_j, t = (E_j - E_i) / eta clipped to the box
    (``direction=-1``: the opposite t)."""
    E, eta = _errors_and_eta(alpha, i, j, K, y)
    d = np.zeros(len(y))
    d[i], d[j] = y[i], -y[j]
    ends = [sorted((-a / s, (C - a) / s)) for a, s in ((alpha[i], d[i]), (alpha[j], d[j]))]
    low, high = max(ends[0][0], ends[1][0]), min(ends[0][1], ends[1][1])
    return alpha + np.clip(direction * (E[j] - E[i]) / eta, low, high) * d


def smo_step_by_minimising(alpha, i, j, K, y, C):
    return _minimise_along_pair(alpha, i, j, K, y, C)


def smo_step_uphill(alpha, i, j, K, y, C):  # t = (E_i - E_j) / eta
    return _minimise_along_pair(alpha, i, j, K, y, C, direction=-1.0)


def smo_step_unclipped(alpha, i, j, K, y, C):
    E, eta = _errors_and_eta(alpha, i, j, K, y)
    t = (E[j] - E[i]) / eta
    new = alpha.copy()
    new[i] += y[i] * t
    new[j] -= y[j] * t
    return new


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (smo_step_unclipped, "alpha outside [0, C]: the step is not clipped"),
        (
            lambda *args: smo_step_platt(*args, sign=False),
            "alpha_i moved by minus the change of alpha_j, without the factor y_i y_j",
        ),
        (smo_step_uphill, "the step goes the wrong way"),
        (lambda *args: smo_step_platt(*args, swap_bounds=True), "clipped to the wrong interval"),
        (lambda *args: smo_step_platt(*args, in_place=True), "modified its argument alpha"),
    ],
    ids=["unclipped", "no-y_i-y_j", "uphill", "wrong-interval", "in-place"],
)
def test_smo_step_mistakes_are_named(function, words):
    _fails_naming("smo_step", function, words)


@pytest.mark.parametrize("function", [smo_step_platt, smo_step_by_minimising])
def test_smo_step_written_otherwise_passes(function):
    report = exercises.check("smo_step", function)
    assert report.passed, str(report)


# --- the intercept --------------------------------------------------------------------------------


def _free(alpha, C):
    return (alpha > 1e-8 * C) & (alpha < C - 1e-8 * C)


def _v(alpha, K, y):
    return y - K @ (alpha * y)  # y_t - f0(x_t)


def intercept_by_inequalities(alpha, K, y, C):
    """The midpoint of the b the KKT conditions allow, from each point's inequality on
    y_t (f0(x_t) + b): >= 1 if alpha_t < C, <= 1 if alpha_t > 0 (both: = 1)."""
    low, high = -np.inf, np.inf
    for t, v_t in enumerate(_v(alpha, K, y)):
        at_least = alpha[t] < C - 1e-8 * C  # y_t f(x_t) >= 1 ...
        at_most = alpha[t] > 1e-8 * C  # ... and <= 1
        if (y[t] > 0 and at_least) or (y[t] < 0 and at_most):
            low = max(low, v_t)
        if (y[t] > 0 and at_most) or (y[t] < 0 and at_least):
            high = min(high, v_t)
    return 0.5 * (low + high)


def intercept_first_free(alpha, K, y, C):
    """b from the first free support vector; without one, the degenerate interval's middle."""
    free = np.flatnonzero(_free(alpha, C))
    if free.size:
        return float(_v(alpha, K, y)[free[0]])
    return intercept_by_inequalities(alpha, K, y, C)


def intercept_sign_flipped(alpha, K, y, C):  # b = f0(x_t) - y_t
    return -intercept_first_free(alpha, K, y, C)


def intercept_all_support_vectors(alpha, K, y, C):  # alpha_t = C included
    return float(np.mean(_v(alpha, K, y)[alpha > 1e-8 * C]))


def intercept_without_labels_in_f0(alpha, K, y, C):  # f0(x_t) = sum_k alpha_k K_kt
    sv = alpha > 1e-8 * C
    return float(np.mean((y - K @ alpha)[sv]))


def intercept_forgotten(alpha, K, y, C):  # b = 0
    return 0.0


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (intercept_sign_flipped, "the sign of b is flipped: b = f0(x_t) - y_t"),
        (intercept_all_support_vectors, "b from a support vector at the bound alpha_t = C"),
        (intercept_without_labels_in_f0, "f0 without the labels"),
        (intercept_forgotten, "b = 0: off by exactly b"),
    ],
)
def test_intercept_mistakes_are_named(function, words):
    _fails_naming("intercept", function, words)


@pytest.mark.parametrize("function", [intercept_by_inequalities, intercept_first_free])
def test_intercept_written_otherwise_passes(function):
    report = exercises.check("intercept", function)
    assert report.passed, str(report)
