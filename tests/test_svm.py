"""Tests of kernels_ref.svm: exact small SVMs solved by hand, the identities of the texts as
properties over random problems, non-separability, conversions, and input checks.

(The parity with cvxpy over many random problems is in test_svm_vs_cvxpy.py.)
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels_ref import cvx
from kernels_ref.exceptions import ConvergenceWarning, NotPSDWarning, NotSeparableError
from kernels_ref.feature_space import polynomial_feature_map
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel
from kernels_ref.svm import (
    SVMResult,
    c_book_from_lambda,
    c_from_lambda,
    c_from_nu,
    hard_margin,
    intercept_free_sv,
    intercept_max_min,
    kkt_violation,
    lambda_from_c,
    lambda_svm,
    margin,
    nu_svm,
    nu_to_c_svm,
    penalty_lambda_from_c,
    primal_w,
    soft_margin_l1,
    soft_margin_l2,
    svm_predict,
)

TOL = 1e-9  # tolerance passed to the fits in the property tests


def separable(seed, n, d=2, gap=0.5):
    """Points of [-3, 3]^d at distance >= gap from a random hyperplane through 0, labelled by
    its side: separable by the linear kernel with margin >= gap."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.uniform(-3, 3, (20 * n, d))
    X = X[np.abs(X @ w) >= gap][:n]
    X[:2] = [(gap + 1) * w, -(gap + 1) * w]
    return X, np.where(X @ w > 0, 1.0, -1.0)


def overlapping(seed, n, d=2, shift=0.6):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    return rng.standard_normal((n, d)) + shift * y[:, None], y


def hinge(z):
    return np.maximum(0.0, 1.0 - z)


def w_norm2(res, K):
    u = res.alpha * res.y
    return float(u @ K @ u)


# --- exact small cases, solved by hand --------------------------------------------------------

# Five points in the plane, linear kernel:
#   class -1: x1 = (0, 0), x2 = (0, 2), x3 = (-1, 1);  class +1: x4 = (2, 1), x5 = (3, 0).
# The hull of class -1 lies in {x_1 <= 0}, that of class +1 in {x_1 >= 2}, and (0, 1) (midpoint
# of x1 x2) and x4 = (2, 1) are 2 apart: the hulls are at distance d = 2, the margin is
# gamma = d / 2 = 1 and w = 2 (x4 - (0, 1)) / d^2 = (1, 0). With f(x) = x_1 + b and f(x4) = 1,
# b = -1; then f(x1) = f(x2) = -1 and x3, x5 are strictly outside the margin (f = -2, 2), so
# alpha_3 = alpha_5 = 0. From w = sum alpha_i y_i x_i: second coordinate -2 alpha_2 +
# alpha_4 = 0, first 2 alpha_4 = 1, and sum alpha_i y_i = 0 give alpha = (1/4, 1/4, 0, 1/2, 0).
# Check: sum alpha = 1 = 1 / gamma^2 (Valle Vidal, Proposicion 2); dual objective
# sum alpha - ||w||^2 / 2 = 1/2.
FIVE_X = np.array([[0.0, 0.0], [0.0, 2.0], [-1.0, 1.0], [2.0, 1.0], [3.0, 0.0]])
FIVE_Y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0])
FIVE_ALPHA = np.array([0.25, 0.25, 0.0, 0.5, 0.0])


def test_hard_margin_five_points_by_hand():
    K = linear_kernel(FIVE_X)
    res = hard_margin(K, FIVE_Y)
    assert isinstance(res, SVMResult)
    np.testing.assert_allclose(res.alpha, FIVE_ALPHA, atol=1e-8)
    assert res.support.tolist() == [0, 1, 3]
    assert res.b == pytest.approx(-1.0, abs=1e-8)
    assert margin(res, K) == pytest.approx(1.0, rel=1e-8)
    np.testing.assert_allclose(primal_w(res, FIVE_X), [1.0, 0.0], atol=1e-8)
    assert res.dual_objective == pytest.approx(0.5, rel=1e-10)
    assert res.converged and res.kkt_violation <= 1e-8
    assert intercept_free_sv(res.alpha, K, FIVE_Y) == pytest.approx(-1.0, abs=1e-8)
    assert intercept_max_min(res.alpha, K, FIVE_Y) == pytest.approx(-1.0, abs=1e-8)


def test_soft_margin_l1_five_points_with_a_bounded_support_vector():
    # The hard-margin alpha above has max alpha_i = 1/2: for C >= 1/2 it is feasible for the
    # L1 dual, whose feasible set is smaller, hence optimal. At C = 1/2, alpha_4 = C is at
    # its bound and b comes from the free SVs x1, x2: b = y_i - f_0(x_i) = -1.
    K = linear_kernel(FIVE_X)
    res = soft_margin_l1(K, FIVE_Y, C=0.5)
    np.testing.assert_allclose(res.alpha, FIVE_ALPHA, atol=1e-8)
    assert res.b == pytest.approx(-1.0, abs=1e-8)


def test_soft_margin_l1_three_points_no_free_support_vector():
    # x = 0 (y = -1), 2 (+1), 1 (+1), linear kernel, C = 1. With u = sum alpha_i y_i x_i =
    # 2 alpha_2 + alpha_3 and alpha_1 = alpha_2 + alpha_3 =: s <= C = 1, the dual objective
    # is 2 s - u^2 / 2 with u >= s: best alpha_2 = 0, s = 1, so alpha = (1, 0, 1), w = 1,
    # dual objective 1.5. No alpha is free: the KKT conditions only give b in [m, M] with
    # v = y - w x = (-1, -1, 0): m = max(v_1, v_2) = -1, M = v_3 = 0, and b = -1/2 (midpoint).
    # Primal at (w, b) = (1, -1/2): xi = (1/2, 0, 1/2), 1/2 + 1 * 1 = 1.5 (strong duality).
    X = np.array([[0.0], [2.0], [1.0]])
    y = np.array([-1.0, 1.0, 1.0])
    res = soft_margin_l1(linear_kernel(X), y, C=1.0)
    np.testing.assert_allclose(res.alpha, [1.0, 0.0, 1.0], atol=1e-9)
    assert res.b == pytest.approx(-0.5, abs=1e-9)
    assert res.dual_objective == pytest.approx(1.5, rel=1e-10)
    f = svm_predict(res, linear_kernel(X))
    assert 0.5 * 1.0 + 1.0 * hinge(y * f).sum() == pytest.approx(1.5, rel=1e-9)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_soft_margin_l2_two_points_closed_form(C):
    # x1 = (0, 0), y = +1; x2 = (3, 4), y = -1; d^2 = 25. By symmetry alpha_1 = alpha_2 = a
    # and the dual objective is 2a - a^2 (d^2 + 2/C) / 2, maximal at a = 2 / (d^2 + 2/C).
    # The intercept makes y_i f(x_i) = 1 - a/C; at x1, f_0 = 0, so b = 1 - a/C.
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    y = np.array([1.0, -1.0])
    a = 2.0 / (25.0 + 2.0 / C)
    res = soft_margin_l2(linear_kernel(X), y, C)
    np.testing.assert_allclose(res.alpha, [a, a], rtol=1e-9)
    assert res.b == pytest.approx(1.0 - a / C, rel=1e-9)
    np.testing.assert_allclose(y * svm_predict(res, linear_kernel(X)), 1 - a / C, rtol=1e-9)


def test_lambda_svm_two_points_by_hand():
    # Vert: min (1/n) sum hinge(y_i f(x_i)) + lam ||f||^2, f(x) = w x, no intercept.
    # x = -1 (y = -1), x = 1 (y = +1): both have y f = w, the objective is max(0, 1 - w) +
    # lam w^2, minimal at w = 1 / (2 lam) when lam > 1/2: lam = 1 gives w = 1/2. Both points
    # are margin errors, so alpha_i = C_book = 1 / (2 lam n) = 1/4 (and w = alpha_1 + alpha_2).
    # Vert's signed alpha is y * alpha = (-1/4, 1/4); his dual 2 alpha^T y - alpha^T K alpha =
    # 1 - 1/4 = 3/4 equals the primal value 1/2 + 1/4 divided by lam = 1.
    X = np.array([[-1.0], [1.0]])
    y = np.array([-1.0, 1.0])
    res = lambda_svm(linear_kernel(X), y, lam=1.0)
    np.testing.assert_allclose(res.alpha, [0.25, 0.25], atol=1e-10)
    np.testing.assert_allclose(res.y * res.alpha, [-0.25, 0.25], atol=1e-10)
    assert res.b == 0.0
    assert res.dual_objective == pytest.approx(0.75, rel=1e-10)


def test_nu_svm_four_points_by_hand_and_its_c_svm():
    # x = 0, 1 (y = -1), 3, 4 (y = +1), nu = 0.4, bound 1/n = 1/4, class sums nu/2 = 0.2.
    # w = -alpha_2 + 3 alpha_3 + 4 alpha_4 (x_1 = 0) is smallest with alpha_2 = 0.2 (alpha_1 =
    # 0) and alpha_3 = 0.2 (alpha_4 = 0): w = 0.4, both free. Free SVs of class +1:
    # r_+ = f_0(3) = 1.2; of class -1: r_- = -f_0(1) = -0.4; rho = (r_+ + r_-)/2 = 0.4,
    # b = (r_- - r_+)/2 = -0.8: f(x) = 0.4 x - 0.8 and y f = rho on both SVs.
    # Equivalent C-SVM: C = 1/(n rho) = 0.625, alpha / rho = (0, 1/2, 1/2, 0), b / rho = -2,
    # which is the hard margin of the pair (1, 3) (alpha = 2 / d^2 = 1/2 <= C).
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    K = linear_kernel(X)
    res = nu_svm(K, y, nu=0.4)
    np.testing.assert_allclose(res.alpha, [0.0, 0.2, 0.2, 0.0], atol=1e-10)
    assert res.rho == pytest.approx(0.4, rel=1e-9)
    assert res.b == pytest.approx(-0.8, rel=1e-9)
    assert res.dual_objective == pytest.approx(-0.5 * 0.4**2, rel=1e-9)
    assert c_from_nu(res) == pytest.approx(0.625, rel=1e-9)
    c_res = nu_to_c_svm(res, K)
    np.testing.assert_allclose(c_res.alpha, [0.0, 0.5, 0.5, 0.0], atol=1e-9)
    assert c_res.b == pytest.approx(-2.0, rel=1e-9)
    l1 = soft_margin_l1(K, y, C=0.625)
    np.testing.assert_allclose(l1.alpha, c_res.alpha, atol=1e-8)


def test_gaussian_kernel_separates_xor():
    # Distinct points and a strictly positive definite K: every labelling is separable.
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    res = hard_margin(gaussian_kernel(X, sigma=0.5), y)
    assert len(res.support) == 4
    np.testing.assert_allclose(y * svm_predict(res, gaussian_kernel(X, sigma=0.5)), 1.0)


# --- non-separable data -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("X", "y"),
    [
        # XOR: the diagonals of the unit square cross at (1/2, 1/2)
        ([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [1.0, 1.0, -1.0, -1.0]),
        # the same point with both labels
        ([[0.0, 0.0], [0.0, 0.0], [1.0, 2.0]], [1.0, -1.0, 1.0]),
        # every point at the same place
        ([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], [1.0, -1.0, 1.0]),
    ],
)
def test_hard_margin_not_separable_raises(X, y):
    X = np.array(X)
    with pytest.raises(NotSeparableError, match="not separable"):
        hard_margin(linear_kernel(X), np.array(y))


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(30, 120))
def test_hard_margin_on_overlapping_clouds_raises(seed, n):
    X, y = overlapping(seed, n, shift=0.2)
    # overlapping clouds of >= 30 points are not linearly separable (checked by the
    # certificate of the exception itself: two hull points closer than 2 min_margin)
    with pytest.raises(NotSeparableError):
        hard_margin(linear_kernel(X), y)


def test_not_separable_error_is_a_value_error():
    X = np.array([[0.0], [0.0]])
    with pytest.raises(ValueError):
        hard_margin(linear_kernel(X), np.array([1.0, -1.0]))


# --- identities of the texts as properties ----------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), d=st.integers(1, 4))
def test_margin_equals_inverse_sqrt_sum_alpha(seed, n, d):
    # Valle Vidal, Proposicion 2: gamma = 1/||w|| = (sum alpha_i)^(-1/2).
    X, y = separable(seed, n, d)
    K = linear_kernel(X)
    res = hard_margin(K, y, tol=TOL)
    assert margin(res, K) == pytest.approx(res.alpha.sum() ** -0.5, rel=1e-7)
    assert margin(res, K) >= 0.5 - 1e-9  # at least the margin the data were built with
    f = svm_predict(res, K)
    assert np.all(y * f >= 1 - 1e-7)
    assert res.dual_objective == pytest.approx(0.5 * w_norm2(res, K), rel=1e-7)  # strong duality


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), C=st.floats(0.05, 50.0))
def test_l2_margin_equals_inverse_sqrt_sum_alpha_minus_alpha_norm_over_c(seed, n, C):
    # Valle Vidal, soft margin norm 2, Proposicion (2): gamma = (sum alpha - <alpha, alpha>/C)^-1/2
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    res = soft_margin_l2(K, y, C, tol=TOL)
    expected = (res.alpha.sum() - res.alpha @ res.alpha / C) ** -0.5
    assert margin(res, K) == pytest.approx(expected, rel=1e-6)
    f = svm_predict(res, K)
    sv = res.support
    np.testing.assert_allclose(y[sv] * f[sv], 1 - res.alpha[sv] / C, atol=1e-7)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), C=st.floats(0.05, 50.0))
def test_l2_soft_margin_equals_hard_margin_on_shifted_gram(seed, n, C):
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    l2 = soft_margin_l2(K, y, C, tol=TOL)
    hard = hard_margin(K + np.eye(n) / C, y, tol=TOL, min_margin=1e-12)
    np.testing.assert_allclose(l2.alpha, hard.alpha, rtol=1e-6, atol=1e-8)
    assert l2.b == pytest.approx(hard.b, abs=1e-6)
    assert l2.dual_objective == pytest.approx(hard.dual_objective, rel=1e-9)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40))
def test_l1_tends_to_hard_margin_as_c_grows(seed, n):
    X, y = separable(seed, n)
    K = linear_kernel(X)
    hard = hard_margin(K, y, tol=TOL)
    amax = hard.alpha.max()
    # C >= max alpha of the hard margin: the same solution
    same = soft_margin_l1(K, y, C=1.01 * amax, tol=TOL)
    assert same.dual_objective == pytest.approx(hard.dual_objective, rel=1e-8)
    np.testing.assert_allclose(svm_predict(same, K), svm_predict(hard, K), atol=1e-6)
    # and from below the objective increases with C up to the hard-margin value
    values = [soft_margin_l1(K, y, C=c * amax, tol=TOL).dual_objective for c in (0.1, 0.5, 0.9)]
    assert values[0] <= values[1] <= values[2] <= hard.dual_objective * (1 + 1e-9)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), C=st.floats(0.05, 50.0))
def test_l1_strong_duality(seed, n, C):
    # primal 1/2 ||w||^2 + C sum xi with xi = hinge(y f) equals the dual objective
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    res = soft_margin_l1(K, y, C, tol=TOL)
    primal = 0.5 * w_norm2(res, K) + C * hinge(y * svm_predict(res, K)).sum()
    assert primal == pytest.approx(res.dual_objective, rel=1e-6)
    assert res.kkt_violation <= 10 * TOL


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), lam=st.floats(1e-3, 1.0))
def test_lambda_svm_equals_hinge_problem_in_vert_scaling(seed, n, lam):
    # Vert: (1/n) sum hinge + lam ||f||^2 (no intercept). Strong duality in his scaling:
    # primal value = lam * (2 alpha^T y - alpha^T K alpha). With C = 1/(n lam) the C-SVM
    # C sum hinge + ||f||^2 has the same minimiser and value primal / lam; in the book's
    # scaling 1/2 ||f||^2 + C_book sum hinge, C_book = C / 2 bounds alpha.
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    res = lambda_svm(K, y, lam, tol=TOL)
    f = svm_predict(res, K)
    primal = hinge(y * f).mean() + lam * w_norm2(res, K)
    assert primal == pytest.approx(lam * res.dual_objective, rel=1e-6)
    C = c_from_lambda(lam, n)
    assert C * hinge(y * f).sum() + w_norm2(res, K) == pytest.approx(primal / lam, rel=1e-12)
    assert np.all(res.alpha <= C / 2 + 1e-15)
    assert res.b == 0.0
    assert kkt_violation(res.alpha, K, y, C / 2, bias=False) <= 10 * TOL
    # no perturbation of alpha inside the box does better on the primal
    rng = np.random.default_rng(seed)
    for _ in range(10):
        a = np.clip(res.alpha + 0.01 * C * rng.standard_normal(n), 0, C / 2)
        fa = K @ (a * y)
        assert hinge(y * fa).mean() + lam * (a * y) @ fa >= primal - 1e-9


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(10, 60), frac=st.floats(0.3, 0.9))
def test_nu_svm_equals_c_svm_with_c_one_over_n_rho(seed, n, frac):
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    nu = frac * 2 * min((y > 0).sum(), (y < 0).sum()) / n
    res = nu_svm(K, y, nu, tol=TOL)
    if res.rho < 1e-3:  # nearly degenerate (w close to 0): C = 1/(n rho) is huge
        return
    C = c_from_nu(res)
    c_res = nu_to_c_svm(res, K)
    l1 = soft_margin_l1(K, y, C, tol=TOL)
    assert c_res.dual_objective == pytest.approx(l1.dual_objective, rel=1e-6)
    g1, g2 = K @ (c_res.alpha * y), K @ (l1.alpha * y)  # f - b: unique even when b is not
    np.testing.assert_allclose(g1, g2, atol=1e-4 * max(1.0, np.abs(g2).max()))
    assert c_res.kkt_violation <= 1e-4


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(10, 80), frac=st.floats(0.1, 1.0))
def test_nu_property_margin_errors_below_nu_below_support_vectors(seed, n, frac):
    # Schoelkopf et al. (2000), Proposition 5: #{y f < rho}/n <= nu <= #{alpha > 0}/n.
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    nu = frac * 2 * min((y > 0).sum(), (y < 0).sum()) / n
    res = nu_svm(K, y, nu, tol=1e-7)  # the proposition holds at the optimum: no early stop
    assert res.converged
    margin_errors = np.mean(y * svm_predict(res, K) < res.rho - 1e-6)
    assert margin_errors <= nu + 1e-12
    assert nu <= np.mean(res.alpha > 0) + 1e-12
    assert res.alpha.sum() == pytest.approx(nu, rel=1e-12)
    assert abs(res.y @ res.alpha) <= 1e-14


def test_nu_svm_at_nu_max_with_every_alpha_at_its_bound():
    # Balanced classes and nu = 1: the only feasible point is alpha_i = 1/n (every variable at
    # a bound, so no pair can move and m - M = -inf). That is the optimum, not an unbounded
    # objective; its dual value is the cvxpy reference's.
    X, y = overlapping(2097152, 66)
    assert (y > 0).sum() == (y < 0).sum()
    K = gaussian_kernel(X, sigma=1.0)
    res = nu_svm(K, y, 1.0, tol=1e-7)
    assert res.converged
    np.testing.assert_array_equal(res.alpha, np.full(66, 1 / 66))
    assert res.dual_objective == pytest.approx(-0.5 * (res.alpha * y) @ K @ (res.alpha * y))


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30))
def test_intercept_rules_agree_at_the_hard_margin(seed, n):
    # Rousseau's average over the support vectors and Valle Vidal's (corrected) max/min rule
    X, y = separable(seed, n)
    K = linear_kernel(X)
    res = hard_margin(K, y, tol=TOL)
    assert intercept_free_sv(res.alpha, K, y) == pytest.approx(res.b, abs=1e-9)
    assert intercept_max_min(res.alpha, K, y) == pytest.approx(res.b, abs=1e-6)


def test_valle_vidal_printed_intercept_differs():
    # As printed, b* = (max_{y=-1} <w, x> + max_{y=+1} <w, x>) / 2: on the five points
    # <w, x> = x_1 = (0, 0, -1, 2, 3) gives (0 + 3) / 2 = 1.5, not -1.
    K = linear_kernel(FIVE_X)
    res = hard_margin(K, FIVE_Y)
    f0 = K @ (res.alpha * FIVE_Y)
    printed = (f0[FIVE_Y < 0].max() + f0[FIVE_Y > 0].max()) / 2
    assert printed == pytest.approx(1.5, abs=1e-8)
    assert intercept_max_min(res.alpha, K, FIVE_Y) == pytest.approx(-1.0, abs=1e-8)


@pytest.mark.parametrize("degree", [2, 3])
def test_primal_w_with_an_explicit_feature_map(degree):
    X, y = overlapping(3, 30)
    K = polynomial_kernel(X, degree=degree, c=1.0)
    res = soft_margin_l1(K, y, C=1.0)
    Phi = polynomial_feature_map(X, degree=degree, c=1.0)
    w = primal_w(res, Phi)
    X_test = np.random.default_rng(0).standard_normal((7, 2))
    f = svm_predict(res, polynomial_kernel(X_test, X, degree=degree, c=1.0))
    np.testing.assert_allclose(polynomial_feature_map(X_test, degree=degree, c=1.0) @ w + res.b, f)
    assert margin(res, K) == pytest.approx(1 / np.linalg.norm(w), rel=1e-10)


# --- KKT violation --------------------------------------------------------------------------


def test_kkt_violation_zero_at_solution_positive_elsewhere():
    K = linear_kernel(FIVE_X)
    assert kkt_violation(FIVE_ALPHA, K, FIVE_Y) == pytest.approx(0.0, abs=1e-14)
    # alpha / 2 is feasible, not optimal: f_0(x) = x_1 / 2, v = y - f_0 = (-1, -1, -1/2, 0,
    # -1/2); I_up = {1, 2, 4, 5}, I_low = {1, 2, 3, 4}: m = v_4 = 0, M = v_1 = -1, m - M = 1.
    assert kkt_violation(FIVE_ALPHA / 2, K, FIVE_Y) == pytest.approx(1.0, abs=1e-14)
    # infeasible alpha: equality residual and box violation count
    assert kkt_violation(FIVE_ALPHA + np.array([0, 0, 0, 0.1, 0]), K, FIVE_Y) >= 0.1
    assert kkt_violation(FIVE_ALPHA, K, FIVE_Y, C=0.4) >= 0.1 - 1e-12


def test_kkt_violation_tolerates_interior_point_zeros():
    # An interior-point solver returns 1e-12 instead of 0: not counted as a free variable.
    K = linear_kernel(FIVE_X)
    alpha = FIVE_ALPHA + np.array([0, 0, 1e-12, 0, 1e-12])
    alpha[3] += 2e-12  # keep y^T alpha = 0
    assert kkt_violation(alpha, K, FIVE_Y) <= 1e-10


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), C=st.floats(0.1, 10.0))
def test_kkt_violation_function_matches_the_fit(seed, n, C):
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    res = soft_margin_l1(K, y, C, tol=TOL)
    assert kkt_violation(res.alpha, K, y, C) == pytest.approx(res.kkt_violation, abs=1e-10)
    nu = 0.5 * 2 * min((y > 0).sum(), (y < 0).sum()) / n
    r = nu_svm(K, y, nu, tol=TOL)
    assert kkt_violation(r.alpha, K, y, 1 / n, nu=nu) == pytest.approx(r.kkt_violation, abs=1e-10)


# --- conversions ----------------------------------------------------------------------------


@given(lam=st.floats(1e-6, 1e3), n=st.integers(1, 10_000))
def test_c_lambda_conversions_are_inverse(lam, n):
    C = c_from_lambda(lam, n)
    assert C == pytest.approx(1 / (n * lam))
    assert lambda_from_c(C, n) == pytest.approx(lam, rel=1e-12)


# --- the conversions between the texts' constants ----------------------------------------


def test_book_c_from_vert_lambda_by_hand():
    # C_book = 1 / (2 n lam): 1/(2*50*0.01) = 1, 1/(2*4*0.25) = 1/2, 1/(2*5*0.1) = 1
    assert c_book_from_lambda(0.01, 50) == pytest.approx(1.0, rel=1e-15)
    assert c_book_from_lambda(0.25, 4) == 0.5
    assert c_book_from_lambda(0.1, 5) == pytest.approx(1.0, rel=1e-15)
    # half of Vert's own C = 1 / (n lam)
    assert c_book_from_lambda(0.25, 4) == c_from_lambda(0.25, 4) / 2


def test_penalty_lambda_from_c_by_hand():
    # lam = 1 / (2 C)
    assert penalty_lambda_from_c(2.0) == 0.25
    assert penalty_lambda_from_c(0.5) == 1.0
    assert penalty_lambda_from_c(1e-3) == pytest.approx(500.0, rel=1e-15)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), lam=st.floats(1e-3, 10.0))
def test_book_objective_at_c_book_is_vert_objective_over_two_lambda(seed, n, lam):
    # For every f = K a: 1/2 ||f||^2 + C_book sum hinge = ((1/n) sum hinge + lam ||f||^2) / (2 lam)
    rng = np.random.default_rng(seed)
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    a = 0.3 * rng.standard_normal(n)
    f, norm2 = K @ a, float(a @ K @ a)
    loss = hinge(y * f).sum()
    assert loss > 0.0  # |f| <= 0.3 sum |a_i| is small enough that no point is beyond the margin
    book = 0.5 * norm2 + c_book_from_lambda(lam, n) * loss
    vert = loss / n + lam * norm2
    assert book == pytest.approx(vert / (2 * lam), rel=1e-12)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), C=st.floats(1e-3, 1e3))
def test_valle_vidal_penalty_objective_is_book_objective_over_c(seed, n, C):
    # For every (w, b): sum [1 - y f]_+ + lam ||w||^2 with lam = 1/(2C) is the book's
    # 1/2 ||w||^2 + C sum [1 - y f]_+ divided by C
    rng = np.random.default_rng(seed)
    X, y = overlapping(seed, n)
    w, b = rng.standard_normal(2), float(rng.standard_normal())
    loss = hinge(y * (X @ w + b)).sum()
    book = 0.5 * w @ w + C * loss
    penalty = loss + penalty_lambda_from_c(C) * (w @ w)
    assert C * penalty == pytest.approx(book, rel=1e-12)


def _primal_linear(X, y, *, C=None, lam=None, bias=True):
    """cvxpy, linear kernel: the book's 1/2 ||w||^2 + C sum hinge (``C``) or Valle Vidal's
    sum hinge + lam ||w||^2 (``lam``), with or without an intercept: (w, b, optimum)."""
    w = cp.Variable(X.shape[1])
    b = cp.Variable() if bias else 0.0
    loss = cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b)))
    if C is not None:
        objective = 0.5 * cp.sum_squares(w) + C * loss
    else:
        objective = loss + lam * cp.sum_squares(w)
    value = cvx.solve_reference(cp.Problem(cp.Minimize(objective)))
    return w.value, float(b.value) if bias else 0.0, value


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lam", [0.03, 0.1, 0.3])
def test_book_c_svm_at_c_book_has_the_decision_function_of_vert_lambda_svm(seed, lam):
    # Vert's lambda-SVM (no intercept) against the book's C-SVM without intercept at
    # C = c_book_from_lambda(lam, n), solved independently by cvxpy. (C below 1: in two
    # dimensions, beyond some C the minimiser sits at a kink of the hinge sum and stops
    # moving, and no constant could be told from twice it.)
    X, y = overlapping(seed, 60)
    X_test = np.random.default_rng(seed + 100).standard_normal((20, 2))
    res = lambda_svm(linear_kernel(X), y, lam)
    f = svm_predict(res, linear_kernel(np.vstack([X, X_test]), X))
    w, _, _ = _primal_linear(X, y, C=c_book_from_lambda(lam, len(y)), bias=False)
    g = np.vstack([X, X_test]) @ w
    scale = max(1.0, float(np.abs(g).max()))
    np.testing.assert_allclose(f, g, atol=1e-5 * scale, rtol=0)
    # Vert's own C (twice the book's) in the book's objective gives another function
    w2, _, _ = _primal_linear(X, y, C=c_from_lambda(lam, len(y)), bias=False)
    assert np.abs(np.vstack([X, X_test]) @ w2 - f).max() > 1e-3 * scale


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_valle_vidal_penalty_form_at_lambda_of_c_solves_the_c_svm(seed, C):
    # soft_margin_l1 (the book's C-SVM, by SMO) against Valle Vidal's problem (6),
    # min sum [1 - y f]_+ + lam ||w||^2 at lam = penalty_lambda_from_c(C), by cvxpy
    X, y = overlapping(seed, 60)
    res = soft_margin_l1(linear_kernel(X), y, C)
    w_smo = primal_w(res, X)
    lam = penalty_lambda_from_c(C)
    w, _, optimum = _primal_linear(X, y, lam=lam)
    scale = max(1.0, float(np.abs(w).max()))
    np.testing.assert_allclose(w_smo, w, atol=1e-5 * scale, rtol=0)
    at_smo = hinge(y * (X @ w_smo + res.b)).sum() + lam * (w_smo @ w_smo)
    assert at_smo == pytest.approx(optimum, rel=1e-6)
    # the printed C in front of the penalty ("Kernels y la funcion de estimacion") does not
    w_c, _, _ = _primal_linear(X, y, lam=C)
    assert np.abs(w_c - w_smo).max() > 1e-3 * scale


def test_c_from_nu_needs_a_nu_result():
    res = soft_margin_l1(linear_kernel(FIVE_X), FIVE_Y, C=1.0)
    with pytest.raises(ValueError, match="result"):
        c_from_nu(res)


# --- warnings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fit",
    [
        lambda K, y: hard_margin(K, y, max_iter=2),
        lambda K, y: soft_margin_l1(K, y, 10.0, max_iter=2),
        lambda K, y: soft_margin_l2(K, y, 10.0, max_iter=2),
        lambda K, y: lambda_svm(K, y, 0.01, max_iter=2),
        lambda K, y: nu_svm(K, y, 0.5, max_iter=2),
    ],
)
def test_iteration_limit_warns(fit):
    X, y = separable(0, 40)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        res = fit(linear_kernel(X) + 1.0, y)
    assert not res.converged


def test_not_psd_gram_warns():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues 3 and -1
    with pytest.warns(NotPSDWarning, match="K"):
        soft_margin_l1(K, np.array([1.0, -1.0]), C=1.0)


# --- bad input ----------------------------------------------------------------------------------

K3 = linear_kernel(FIVE_X[:3]) + np.eye(3)
Y3 = np.array([1.0, -1.0, 1.0])
FITS = {
    "hard_margin": lambda K, y, **kw: hard_margin(K, y, **kw),
    "soft_margin_l1": lambda K, y, **kw: soft_margin_l1(K, y, kw.pop("C", 1.0), **kw),
    "soft_margin_l2": lambda K, y, **kw: soft_margin_l2(K, y, kw.pop("C", 1.0), **kw),
    "lambda_svm": lambda K, y, **kw: lambda_svm(K, y, kw.pop("lam", 0.1), **kw),
    "nu_svm": lambda K, y, **kw: nu_svm(K, y, kw.pop("nu", 0.5), **kw),
}
BAD_DATA = [
    ({"K": np.full((3, 3), np.nan)}, "K"),
    ({"K": np.ones((3, 2))}, "K"),
    ({"K": np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])}, "K"),  # not symmetric
    ({"K": np.ones(3)}, "K"),
    ({"y": np.array([1.0, 0.0, -1.0])}, "y"),
    ({"y": np.array([1.0, 1.0, 1.0])}, "y"),  # one class
    ({"y": np.array([1.0, -1.0])}, "y"),  # wrong length
    ({"y": np.array([1.0, np.nan, -1.0])}, "y"),
    ({"tol": 0.0}, "tol"),
    ({"tol": -1.0}, "tol"),
]


@pytest.mark.parametrize("name", sorted(FITS))
@pytest.mark.parametrize(("kwargs", "arg"), BAD_DATA)
def test_bad_data_names_the_argument(name, kwargs, arg):
    args = {"K": K3, "y": Y3}
    args.update(kwargs)
    K, y = args.pop("K"), args.pop("y")
    with pytest.raises(ValueError, match=arg):
        FITS[name](K, y, **args)


@pytest.mark.parametrize(
    ("name", "kwargs", "arg"),
    [
        ("soft_margin_l1", {"C": 0.0}, "C"),
        ("soft_margin_l1", {"C": -1.0}, "C"),
        ("soft_margin_l1", {"C": np.inf}, "C"),
        ("soft_margin_l1", {"C": np.nan}, "C"),
        ("soft_margin_l2", {"C": 0.0}, "C"),
        ("soft_margin_l2", {"C": np.inf}, "C"),
        ("lambda_svm", {"lam": 0.0}, "lam"),
        ("lambda_svm", {"lam": -0.5}, "lam"),
        ("lambda_svm", {"lam": np.nan}, "lam"),
        ("nu_svm", {"nu": 0.0}, "nu"),
        ("nu_svm", {"nu": 1.5}, "nu"),
        ("nu_svm", {"nu": np.nan}, "nu"),
        ("hard_margin", {"min_margin": 0.0}, "min_margin"),
        ("hard_margin", {"max_iter": -3}, "max_iter"),
        ("soft_margin_l1", {"max_iter": 1.5}, "max_iter"),
    ],
)
def test_bad_parameters_name_the_argument(name, kwargs, arg):
    with pytest.raises(ValueError, match=arg):
        FITS[name](K3, Y3, **kwargs)


def test_infeasible_nu_gives_the_feasible_range():
    # n+ = 2, n- = 1, n = 3: nu <= 2 min(n+, n-) / n = 2/3
    with pytest.raises(ValueError, match=r"nu .*2 min\(n\+, n-\)/n = 0.666667"):
        nu_svm(K3, Y3, nu=0.7)
    assert nu_svm(K3, Y3, nu=2 / 3).alpha.sum() == pytest.approx(2 / 3)


def test_bad_input_of_the_other_functions():
    res = soft_margin_l1(K3, Y3, C=1.0)
    with pytest.raises(ValueError, match="K_test"):
        svm_predict(res, np.ones((2, 4)))
    with pytest.raises(ValueError, match="K_test"):
        svm_predict(res, np.full((2, 3), np.inf))
    with pytest.raises(ValueError, match="K"):
        margin(res, np.ones((2, 2)))
    with pytest.raises(ValueError, match="Phi"):
        primal_w(res, np.ones((4, 2)))
    with pytest.raises(ValueError, match="Phi"):
        primal_w(res, np.full((3, 2), np.nan))
    for f in (intercept_free_sv, intercept_max_min, kkt_violation):
        with pytest.raises(ValueError, match="alpha"):
            f(np.ones(2), K3, Y3)
        with pytest.raises(ValueError, match="K"):
            f(np.ones(3), np.ones((3, 2)), Y3)
        with pytest.raises(ValueError, match="y"):
            f(np.ones(3), K3, np.array([1.0, 2.0, -1.0]))
    for bad_C in (0.0, -1.0, np.nan, np.ones(2)):
        with pytest.raises(ValueError, match="C"):
            kkt_violation(np.ones(3), K3, Y3, C=bad_C)
        with pytest.raises(ValueError, match="C"):
            intercept_free_sv(np.ones(3), K3, Y3, C=bad_C)
    for bad_lam, bad_n in ((0.0, 3), (0.1, 0), (0.1, 2.5)):
        with pytest.raises(ValueError, match=r"^(lam|n) "):
            c_from_lambda(bad_lam, bad_n)
    with pytest.raises(ValueError, match="C"):
        lambda_from_c(0.0, 3)
    for bad_lam, bad_n in ((0.0, 3), (-0.1, 3), (np.nan, 3), (0.1, 0), (0.1, 2.5)):
        with pytest.raises(ValueError, match=r"^(lam|n) "):
            c_book_from_lambda(bad_lam, bad_n)
    for bad_C in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match=r"^C "):
            penalty_lambda_from_c(bad_C)


def test_inputs_not_modified():
    X, y = overlapping(2, 20)
    K = gaussian_kernel(X, sigma=1.0)
    K0, y0 = K.copy(), y.copy()
    for fit in FITS.values():
        res = fit(K, y)
        svm_predict(res, K[:5])
        margin(res, K)
        kkt_violation(res.alpha, K, y)
    assert np.array_equal(K, K0) and np.array_equal(y, y0)


def test_result_is_frozen():
    res = soft_margin_l1(K3, Y3, C=1.0)
    with pytest.raises(AttributeError):
        res.b = 1.0


# --- the bad-input contract of the evaluation functions -----------------------------------

ASYMMETRIC = np.array([[2.0, 0.5, 0.0], [0.4, 2.0, 0.0], [0.0, 0.0, 2.0]])


def test_functions_of_a_gram_matrix_reject_a_non_symmetric_one():
    res = soft_margin_l1(K3, Y3, C=1.0)
    alpha = np.array([0.5, 0.5, 0.0])
    nu_res = nu_svm(K3, Y3, nu=0.5)
    calls = [
        lambda: margin(res, ASYMMETRIC),
        lambda: kkt_violation(alpha, ASYMMETRIC, Y3),
        lambda: intercept_free_sv(alpha, ASYMMETRIC, Y3),
        lambda: intercept_max_min(alpha, ASYMMETRIC, Y3),
        lambda: nu_to_c_svm(nu_res, ASYMMETRIC),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"^K must be symmetric"):
            call()


def test_kkt_violation_of_a_wrong_alpha_is_not_hidden_by_an_asymmetric_k():
    # The example: with K replaced by a non-symmetric matrix, kkt_violation certified a
    # wrong alpha. Now the matrix is refused; with the right K the violation is large.
    X = np.array([[0.0], [1.0], [3.0]])
    K = X @ X.T
    y = np.array([-1.0, -1.0, 1.0])
    wrong = np.array([0.5, 0.0, 0.5])  # feasible (y.alpha = 0), not optimal
    # v = -y * grad = y - f0 with f0 = K (alpha * y) = x * (-0 + 1.5) = (0, 1.5, 4.5)... :
    # v = (-1 - 0, -1 - 1.5, 1 - 4.5) = (-1, -2.5, -3.5); I_up = {0 (alpha > 0, y < 0), 2
    # (y > 0, alpha < C)}, I_low = {0, 1 (y < 0, alpha < C), 2 (y > 0, alpha > 0)}:
    # m = max(-1, -3.5) = -1, M = min(-1, -2.5, -3.5) = -3.5, m - M = 2.5.
    assert kkt_violation(wrong, K, y) == pytest.approx(2.5, abs=1e-12)
    K_bad = K.copy()
    K_bad[2, 0] += 1.0
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        kkt_violation(wrong, K_bad, y)


@pytest.mark.parametrize("nu", [1.5, 0.0, -0.25, np.nan, np.inf, "0.5", True])
def test_kkt_violation_rejects_a_bad_nu(nu):
    with pytest.raises(ValueError, match=r"^nu "):
        kkt_violation(np.full(3, 0.1), K3, Y3, C=1 / 3, nu=nu)


def test_kkt_violation_rejects_an_infeasible_nu():
    # n+ = 2, n- = 1: nu <= 2/3
    with pytest.raises(ValueError, match=r"^nu = 0.9 is infeasible"):
        kkt_violation(np.full(3, 0.1), K3, Y3, C=1 / 3, nu=0.9)


@pytest.mark.parametrize(
    ("kwargs", "arg", "exc"),
    [
        ({"delta": np.nan}, "delta", ValueError),
        ({"delta": np.inf}, "delta", ValueError),
        ({"delta": "0"}, "delta", ValueError),
        ({"atol": -1.0}, "atol", ValueError),
        ({"atol": np.nan}, "atol", ValueError),
        ({"atol": "1e-9"}, "atol", ValueError),
        ({"bias": "yes"}, "bias", TypeError),
        ({"bias": 1}, "bias", TypeError),
        ({"C": "1"}, "C", ValueError),
        ({"C": 1j}, "C", ValueError),
        ({"C": np.array(["1", "1", "1"])}, "C", ValueError),
        ({"C": np.ones((3, 1))}, "C", ValueError),
        ({"p": np.ones(2)}, "p", ValueError),
    ],
)
def test_kkt_violation_rejects_bad_parameters(kwargs, arg, exc):
    with pytest.raises(exc, match=rf"^{arg} "):
        kkt_violation(np.full(3, 0.1), K3, Y3, **kwargs)


@pytest.mark.parametrize("C", ["1", 1j, True, np.nan, 0.0])
def test_intercept_free_sv_rejects_a_bad_c(C):
    with pytest.raises(ValueError, match=r"^C "):
        intercept_free_sv(np.full(3, 0.1), K3, Y3, C=C)


def test_kkt_violation_accepts_c_inf_and_per_sample_bounds():
    alpha = np.array([1.0, 1.0])
    K = np.eye(2)
    y = np.array([1.0, -1.0])
    assert kkt_violation(alpha, K, y, C=np.inf) == 0.0
    assert kkt_violation(alpha, K, y, C=[2.0, np.inf]) == 0.0
    assert kkt_violation(alpha, K, y, C=np.array(2)) == 0.0


@pytest.mark.parametrize(
    "call",
    [
        lambda res: svm_predict(None, K3),
        lambda res: svm_predict(res.alpha, K3),
        lambda res: margin(None, K3),
        lambda res: margin({"alpha": res.alpha}, K3),
        lambda res: primal_w(None, np.ones((3, 2))),
        lambda res: c_from_nu(None),
        lambda res: nu_to_c_svm(res.alpha, K3),
    ],
)
def test_a_wrong_result_type_is_a_type_error_naming_result(call):
    res = nu_svm(K3, Y3, nu=0.5)
    with pytest.raises(
        TypeError, match=r"^result must be of type SVMResult .*, got (NoneType|ndarray|dict)"
    ):
        call(res)


@pytest.mark.parametrize("name", sorted(FITS))
def test_an_iteration_limit_of_zero_is_rejected(name):
    with pytest.raises(ValueError, match=r"^max_iter must lie in \[1, inf\], got 0"):
        FITS[name](K3, Y3, max_iter=0)


@pytest.mark.parametrize("name", sorted(FITS))
@pytest.mark.parametrize("max_iter", ["10", 2.0, True, -1])
def test_a_bad_iteration_limit_is_rejected(name, max_iter):
    with pytest.raises(ValueError, match=r"^max_iter must"):
        FITS[name](K3, Y3, max_iter=max_iter)


def test_hard_margin_with_one_iteration_warns_instead_of_dividing_by_zero():
    # max_iter = 0 raised ZeroDivisionError in the non-separability bound ||w|| / sum(alpha)
    # with alpha = 0; the limit is now >= 1, and one SMO step gives alpha != 0.
    X, y = separable(0, 30)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        res = hard_margin(linear_kernel(X), y, max_iter=1)
    assert res.n_iter == 1 and not res.converged and res.alpha.sum() > 0


@pytest.mark.parametrize("shrinking", ["no", 0, None])
def test_soft_margin_l1_rejects_a_non_bool_shrinking(shrinking):
    with pytest.raises(TypeError, match=r"^shrinking must be a bool"):
        soft_margin_l1(K3, Y3, 1.0, shrinking=shrinking)


def _not_psd_warnings(call):
    """The NotPSDWarning warnings of ``call()`` (convergence warnings ignored)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ConvergenceWarning)
        call()
    return [w for w in caught if w.category is NotPSDWarning]


@pytest.mark.parametrize("name", ["soft_margin_l1", "soft_margin_l2", "lambda_svm", "nu_svm"])
def test_a_fit_tests_k_once_and_warns_once(psd_tests, name):
    X, y = overlapping(3, 20)
    K = gaussian_kernel(X, sigma=2.0) - 0.05 * np.eye(len(y))  # lambda_min < 0: not PSD
    assert np.linalg.eigvalsh(K)[0] < -0.01
    caught = _not_psd_warnings(lambda: FITS[name](K, y, max_iter=2000))
    assert psd_tests == [len(y)] and len(caught) == 1
    assert str(caught[0].message).startswith("K is not")


def test_kkt_violation_tests_k_once_and_warns_once(psd_tests):
    K = np.array([[1.0, 2.0], [2.0, 1.0]])
    caught = _not_psd_warnings(lambda: kkt_violation([1.0, 1.0], K, [1.0, -1.0]))
    assert psd_tests == [2] and len(caught) == 1


# --- nu-SVM: KKT violation at a non-optimal point, nu = nu_max ---------------------------------


def test_nu_svm_kkt_violation_at_a_non_optimal_point_by_hand():
    # x = 0, 1 (class -1), 3, 4 (class +1), linear kernel, nu = 0.4, C = 1/4. The solution puts
    # 0.2 on x = 1 and x = 3. alpha = (0.2, 0, 0.2, 0) is feasible (each class sums to nu / 2)
    # but not optimal: with p = 0, v = -K (y * alpha) = -x (0.2 (-0) + 0.2 (3)) = -0.6 x =
    # (0, -0.6, -1.8, -2.4). Class -1: I_up = {0} (alpha > 0), I_low = {0, 1} (alpha < C):
    # m - M = 0 - (-0.6) = 0.6. Class +1: I_up = {2, 3}, I_low = {2}: m - M = -1.8 + 1.8 = 0.
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    K, y = X @ X.T, np.array([-1.0, -1.0, 1.0, 1.0])
    assert kkt_violation([0.2, 0.0, 0.2, 0.0], K, y, C=0.25, nu=0.4) == pytest.approx(0.6)
    assert kkt_violation([0.0, 0.2, 0.2, 0.0], K, y, C=0.25, nu=0.4) == pytest.approx(0.0)
    # a class sum off nu / 2 by 0.05 adds 0.05: at (0, 0.25, 0.2, 0), v = -0.35 x and the
    # class -1 has I_up = {1} (alpha_1 = C), I_low = {0}: m - M = -0.35 - 0 < 0, no gap
    assert kkt_violation([0.0, 0.25, 0.2, 0.0], K, y, C=0.25, nu=0.4) == pytest.approx(0.05)


def test_nu_svm_at_nu_max():
    # n+ = 2, n- = 6, n = 8: nu_max = 2 min(n+, n-) / n = 1/2, and at nu = nu_max both positive
    # points must sit at the bound 1/n = 1/8 (their sum is nu / 2 = 1/4). The negatives carry
    # 1/4 too, at most 1/8 each; w = (10 + 11)/8 - sum_neg alpha_i x_i is smallest with 1/8 on
    # the two largest, x = 4 and 5: w = 21/8 - 9/8 = 3/2, dual objective -w^2/2 = -9/8.
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [10.0], [11.0]])
    y = np.array([-1.0] * 6 + [1.0, 1.0])
    res = nu_svm(X @ X.T, y, nu=0.5)
    np.testing.assert_allclose(res.alpha, [0, 0, 0, 0, 1 / 8, 1 / 8, 1 / 8, 1 / 8], atol=1e-9)
    assert res.dual_objective == pytest.approx(-9 / 8, abs=1e-9)
    assert res.kkt_violation <= 1e-8
    # No free alpha in either class: r = (rho - b, -rho - b) per class comes from the
    # interval [max G on alpha = 1/n, min G on alpha = 0], G_t = y_t w x_t with w = 3/2.
    # Class -1: [max(-6, -7.5), min(0, -1.5, -3, -4.5)] = [-6, -4.5], midpoint -5.25 = rho + b;
    # class +1: all at 1/n, so any r_+ = rho - b >= max(15, 16.5) is optimal.
    assert res.rho + res.b == pytest.approx(-5.25, abs=1e-8)
    assert np.isfinite(res.rho - res.b) and res.rho - res.b >= 16.5 - 1e-8
    with pytest.raises(ValueError, match=r"^nu = 0.5000001 is infeasible"):
        nu_svm(X @ X.T, y, nu=0.5000001)


def test_hard_margin_stops_when_smo_stops_short_of_its_chunk(monkeypatch):
    # Every loop is bounded: if SMO returns unconverged before its chunk of iterations is used
    # (no step makes progress), calling it again with the same alpha would repeat forever.
    import dataclasses

    import kernels_ref.svm as svm_module

    calls = []
    real_smo = svm_module._smo

    def stalled(K, y, p, C, alpha0=None, **kw):
        calls.append(kw["max_iter"])
        res = real_smo(K, y, p, C, alpha0, **{**kw, "max_iter": 1})
        return dataclasses.replace(res, converged=False)

    monkeypatch.setattr(svm_module, "_smo", stalled)
    X, y = separable(1, 20)
    with pytest.warns(ConvergenceWarning, match="no step makes progress"):
        res = hard_margin(linear_kernel(X), y)
    assert len(calls) == 1 and not res.converged


# --- warm starts of the L1 soft margin (alpha0) ----------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 30))
def test_soft_margin_l1_started_at_its_solution_makes_no_step(seed, n):
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    res = soft_margin_l1(K, y, 1.0, tol=TOL)
    again = soft_margin_l1(K, y, 1.0, tol=TOL, alpha0=res.alpha)
    assert again.n_iter == 0 and again.converged
    np.testing.assert_array_equal(again.alpha, res.alpha)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 30))
def test_soft_margin_l1_warm_started_from_a_smaller_c_is_the_same_svm(seed, n):
    X, y = overlapping(seed, n)
    K = gaussian_kernel(X, sigma=1.0)
    small = soft_margin_l1(K, y, 0.1, tol=TOL)
    warm = soft_margin_l1(K, y, 10.0, tol=TOL, alpha0=small.alpha)
    cold = soft_margin_l1(K, y, 10.0, tol=TOL)
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-7, abs=1e-9)
    assert warm.kkt_violation <= 1e-8


@pytest.mark.parametrize(
    ("alpha0", "pattern"),
    [
        ([0.5, 0.5, 0.0], r"^alpha0 must satisfy 0 <= alpha0 <= C = 0.25"),
        ([-0.1, -0.1, 0.0], r"^alpha0 must satisfy 0 <= alpha0 <= C"),
        ([0.2, 0.0, 0.0], r"^alpha0 must satisfy y \. alpha0 = 0"),
        ([0.1, 0.1], r"^alpha0 must have 3 rows"),
        ([0.1, np.nan, 0.1], r"^alpha0 contains NaN"),
    ],
)
def test_soft_margin_l1_rejects_an_infeasible_start(alpha0, pattern):
    K = np.eye(3)
    y = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=pattern):
        soft_margin_l1(K, y, 0.25, alpha0=alpha0)


def test_soft_margin_l1_does_not_modify_its_start():
    X, y = overlapping(5, 20)
    K = gaussian_kernel(X, sigma=1.0)
    alpha0 = soft_margin_l1(K, y, 0.5).alpha.copy()
    before = alpha0.copy()
    soft_margin_l1(K, y, 5.0, alpha0=alpha0)
    np.testing.assert_array_equal(alpha0, before)
