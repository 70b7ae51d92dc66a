"""Tests of kernels_ref.cvx: the cvxpy reference solutions of the SVM and SVR programmes.

Exact answers derived by hand on tiny problems, then the theorems that tie each primal to its
dual (strong duality, the same decision function, the multipliers of one are the solution of the
other), then bad input. The NumPy-versus-cvxpy comparisons live in the tests of kernels_ref.svm.
"""

import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels_ref import cvx
from kernels_ref.exceptions import NotSeparableError
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.svm import SVMResult, svm_predict
from kernels_ref.svr import svr_predict

# Two points x = -1 (label -1) and x = +1 (label +1): K = [[1, -1], [-1, 1]].
X2 = np.array([[-1.0], [1.0]])
K2 = X2 @ X2.T
Y2 = np.array([-1.0, 1.0])

# Three points: the segment {(0, 0), (0, 2)} against (3, 1); nearest points (0, 1) and (3, 1).
X3 = np.array([[0.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
Y3 = np.array([-1.0, -1.0, 1.0])

# Each example is a few interior-point solves: a fifth of the profile's count (12 in CI), and
# always derandomised (answers are checked to tolerances; an unlucky degenerate draw must not
# make the suite flaky).
SETTINGS = settings(max_examples=max(3, settings.default.max_examples // 5), derandomize=True)
# An interior-point answer meets the KKT conditions to about the square root of its tolerance
# next to a bound (over ~1500 random problems the largest violation seen was 1.4e-5).
KKT_TOL = 1e-4
seeds = st.integers(0, 2**32 - 1)
kernels = st.sampled_from(["linear", "gaussian"])


def make_problem(seed, n, kernel, separable=False, n_test=15):
    """Random two-class data in the plane: (K, y, K_test, X, X_test)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    v = np.array([1.0, 0.5])
    X[:2] = [v, -v]  # both classes present
    noise = 0.0 if separable else 0.7
    y = np.where(X @ v + noise * rng.normal(size=n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    if separable:
        X = X + 0.3 * y[:, None] * v / np.linalg.norm(v)  # a gap around the line X @ v = 0
    X_test = rng.normal(size=(n_test, 2))
    if kernel == "linear":
        return linear_kernel(X), y, linear_kernel(X_test, X), X, X_test
    return gaussian_kernel(X, sigma=1.0), y, gaussian_kernel(X_test, X, sigma=1.0), X, X_test


def regression_problem(seed, n, kernel, n_test=15):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n, 1))
    y = np.sinc(X[:, 0]) + 0.1 * rng.normal(size=n)
    X_test = rng.uniform(-3, 3, size=(n_test, 1))
    if kernel == "linear":
        return linear_kernel(X), y, linear_kernel(X_test, X)
    return gaussian_kernel(X, sigma=0.5), y, gaussian_kernel(X_test, X, sigma=0.5)


def assert_objectives_agree(a, b, rtol=1e-6):
    assert abs(a - b) <= rtol * abs(b) + 1e-10, (a, b)


def assert_decisions_agree(f, g, tol=1e-5):
    assert np.max(np.abs(f - g)) <= tol * max(1.0, float(np.max(np.abs(g)))), np.abs(f - g).max()


def free_mask(alpha, C):
    """Free multipliers, 0 < alpha_i < C, well away from the bounds (an interior-point
    solution is least accurate next to a bound)."""
    top = max(alpha.max(), 1e-4 * min(1.0, C))
    return (alpha > 1e-3 * top) & (alpha < C - 1e-3 * top)


# --- exact small cases ------------------------------------------------------------------------


def test_two_points_hard_margin_by_hand():
    # dual: max 2a - 2a^2 with alpha = (a, a): a = 1/2, value 1/2; w = sum a y x = 1, b = 0.
    p = cvx.hard_margin_primal(K2, Y2)
    d = cvx.hard_margin_dual(K2, Y2)
    assert isinstance(d, SVMResult)
    np.testing.assert_allclose(d.alpha, [0.5, 0.5], atol=1e-8)
    np.testing.assert_allclose(p.dual.alpha, [0.5, 0.5], atol=1e-8)
    assert d.b == pytest.approx(0.0, abs=1e-8)
    assert p.b == pytest.approx(0.0, abs=1e-8)
    assert p.objective == pytest.approx(0.5, abs=1e-9)
    assert d.dual_objective == pytest.approx(0.5, abs=1e-9)
    # f(x) = x: the primal's beta gives K_test @ beta = x.
    K_test = np.array([[0.5], [2.0]]) @ X2.T
    np.testing.assert_allclose(cvx.primal_predict(p, K_test), [0.5, 2.0], atol=1e-8)
    np.testing.assert_allclose(svm_predict(d, K_test), [0.5, 2.0], atol=1e-8)
    assert list(d.support) == [0, 1]
    assert d.converged and d.n_iter > 0


def test_three_points_hard_margin_by_hand():
    # Margin = half the distance 3 between the hulls: w = (2/3, 0), b = -1,
    # sum alpha = ||w||^2 = 4/9 split as (1/9, 1/9, 2/9) (yᵀalpha = 0, symmetric).
    p = cvx.hard_margin_primal(None, Y3, Phi=X3)
    d = cvx.hard_margin_dual(X3 @ X3.T, Y3)
    np.testing.assert_allclose(p.w, [2 / 3, 0.0], atol=1e-8)
    assert p.b == pytest.approx(-1.0, abs=1e-8)
    np.testing.assert_allclose(d.alpha, [1 / 9, 1 / 9, 2 / 9], atol=1e-8)
    assert d.b == pytest.approx(-1.0, abs=1e-8)
    assert p.objective == pytest.approx(2 / 9, abs=1e-9)
    assert d.dual_objective == pytest.approx(2 / 9, abs=1e-9)


@pytest.mark.parametrize("C", [0.1, 0.25, 0.4, 1.0, 10.0])
def test_two_points_l1_soft_margin_by_hand(C):
    # alpha = min(C, 1/2), w = 2 alpha, value 2a - 2a^2 (= 1/2 for the hard margin).
    a = min(C, 0.5)
    p = cvx.soft_margin_l1_primal(K2, Y2, C)
    d = cvx.soft_margin_l1_dual(K2, Y2, C)
    np.testing.assert_allclose(d.alpha, [a, a], atol=1e-8)
    assert p.objective == pytest.approx(2 * a - 2 * a**2, abs=1e-9)
    assert d.dual_objective == pytest.approx(2 * a - 2 * a**2, abs=1e-9)
    np.testing.assert_allclose(p.xi, [1 - 2 * a, 1 - 2 * a], atol=1e-8)
    np.testing.assert_allclose(K2 @ p.beta, [-2 * a, 2 * a], atol=1e-8)


@pytest.mark.parametrize("C", [0.1, 1.0, 2.0, 50.0])
def test_two_points_l2_soft_margin_by_hand(C):
    # max 2a - a^2 (2 + 1/C): a = C/(2C + 1) = value; y_i f(x_i) = 1 - a/C.
    a = C / (2 * C + 1)
    p = cvx.soft_margin_l2_primal(K2, Y2, C)
    d = cvx.soft_margin_l2_dual(K2, Y2, C)
    np.testing.assert_allclose(d.alpha, [a, a], atol=1e-8)
    assert p.objective == pytest.approx(a, abs=1e-9)
    assert d.dual_objective == pytest.approx(a, abs=1e-9)
    np.testing.assert_allclose(Y2 * svm_predict(d, K2), 1 - a / C, atol=1e-8)


@pytest.mark.parametrize("lam", [0.1, 0.25, 0.5, 1.0, 4.0])
def test_two_points_vert_svm_by_hand(lam):
    # f(x) = w x, objective (1 - w)_+ + lam w^2: w = min(1, 1/(2 lam)); book alpha = w / 2.
    # At lam = 1/2 the solution is degenerate (alpha at its bound and y f(x) = 1): an
    # interior-point method then gets the variables only to about the square root of its
    # tolerance, the objective still to the tolerance.
    w = min(1.0, 1.0 / (2 * lam))
    tol = 1e-4 if lam == 0.5 else 1e-8
    value = max(0.0, 1 - w) + lam * w**2
    p = cvx.lambda_svm_primal(None, Y2, lam, Phi=X2)
    d = cvx.lambda_svm_dual(K2, Y2, lam)
    m = cvx.lambda_svm_mu_dual(K2, Y2, lam)
    assert p.w == pytest.approx([w], abs=tol)
    assert p.b == 0.0 and d.b == 0.0 and m.b == 0.0
    assert p.objective == pytest.approx(value, abs=1e-9)
    assert m.dual_objective == pytest.approx(value, abs=1e-9)
    assert d.dual_objective == pytest.approx(value / lam, abs=1e-8)
    for res in (p.dual, d, m):
        np.testing.assert_allclose(res.alpha, [w / 2, w / 2], atol=tol)


@pytest.mark.parametrize("nu", [0.2, 0.5, 0.8])
def test_two_points_nu_svm_by_hand(nu):
    # alpha = (nu/2, nu/2), w = nu, b = 0, rho = y f(x) = nu, value -nu^2/2.
    p = cvx.nu_svm_primal(K2, Y2, nu)
    d = cvx.nu_svm_dual(K2, Y2, nu)
    np.testing.assert_allclose(d.alpha, [nu / 2, nu / 2], atol=1e-8)
    assert d.rho == pytest.approx(nu, abs=1e-8)
    assert p.rho == pytest.approx(nu, abs=1e-8)
    assert d.b == pytest.approx(0.0, abs=1e-8)
    assert p.objective == pytest.approx(-(nu**2) / 2, abs=1e-9)
    assert d.dual_objective == pytest.approx(-(nu**2) / 2, abs=1e-9)


def test_four_points_nu_svm_by_hand():
    # Points 0, 1 | 3, 4 and nu = 0.4: alpha = 0.2 on the inner points, w = 0.4,
    # f(x) = 0.4 x - 0.8, y f = rho = 0.4 on both inner points.
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    d = cvx.nu_svm_dual(X @ X.T, y, 0.4)
    np.testing.assert_allclose(d.alpha, [0.0, 0.2, 0.2, 0.0], atol=1e-8)
    assert (d.rho, d.b) == (pytest.approx(0.4, abs=1e-8), pytest.approx(-0.8, abs=1e-8))


@pytest.mark.parametrize("C", [0.1, 0.2, 10.0])
def test_two_points_svr_by_hand(C):
    # y = x, eps = 1/2: flattest line in the tube w = 1/2 needs coef (-1/4, 1/4); if C < 1/4
    # the coefficients stop at C: w = 2C, value C - 2C^2 (else 1/8).
    a = min(C, 0.25)
    value = 0.125 if C >= 0.25 else C - 2 * C**2
    p = cvx.svr_primal(K2, Y2, C, 0.5)
    d = cvx.svr_dual(K2, Y2, C, 0.5)
    np.testing.assert_allclose(d.coef, [-a, a], atol=1e-8)
    np.testing.assert_allclose(d.alpha, [0.0, a], atol=1e-8)
    np.testing.assert_allclose(d.alpha_star, [a, 0.0], atol=1e-8)
    assert d.b == pytest.approx(0.0, abs=1e-8)
    assert p.objective == pytest.approx(value, abs=1e-9)
    assert d.dual_objective == pytest.approx(value, abs=1e-9)
    assert d.primal_objective == pytest.approx(value, abs=1e-8)


# --- non-separable data -----------------------------------------------------------------------


@pytest.mark.parametrize("solve", [cvx.hard_margin_primal, cvx.hard_margin_dual])
def test_hard_margin_on_non_separable_data_raises(solve):
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(NotSeparableError, match="not separable"):
        solve(X @ X.T, np.array([-1.0, 1.0, -1.0]))


@pytest.mark.parametrize("solve", [cvx.hard_margin_primal, cvx.hard_margin_dual])
def test_hard_margin_on_conflicting_duplicates_raises(solve):
    # Same point with both labels: no hyperplane separates them, whatever the kernel.
    X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [2.0, 1.0]])
    with pytest.raises(NotSeparableError):
        solve(gaussian_kernel(X), np.array([-1.0, -1.0, 1.0, 1.0]))


@pytest.mark.parametrize("solve", [cvx.hard_margin_primal, cvx.hard_margin_dual])
def test_hard_margin_not_separable_when_the_factor_is_inexact(solve):
    # A conflicting duplicate among 57 points, Gaussian kernel: the rows of the eigh factor of
    # the two copies differ by round-off, so the solver finds a "feasible" w of norm ~1e6
    # and stops short of 'optimal'; the convex-hull distance (~0) tells that it is not separable.
    rng = np.random.default_rng(15)
    n = int(rng.integers(10, 61))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    X = rng.standard_normal((n, 2)) + 0.5 * y[:, None]
    X[1] = X[0]
    rng.standard_normal((5, 2))  # the test points of the original problem (keeps the draws)
    K = gaussian_kernel(X, sigma=float(rng.uniform(0.7, 2.0)))
    with pytest.raises(NotSeparableError, match="convex hulls"):
        solve(K, y)


def test_not_separable_error_is_a_value_error():
    assert issubclass(NotSeparableError, ValueError)


# --- strong duality and agreement of primal and dual ----------------------------------------


def check_pair(primal, dual, K_test, C=np.inf, primal_value=None):
    """Strong duality, same decision values, multipliers of the primal solve the dual.

    ``f - b`` is unique; ``b`` only when some multiplier is free (else any point of an
    interval is optimal, and the primal and the dual solves may pick different ones).
    """
    value = primal.objective if primal_value is None else primal_value
    assert_objectives_agree(value, dual.dual_objective)
    assert_objectives_agree(primal.dual.dual_objective, dual.dual_objective)
    f = svm_predict(dual, K_test)
    for g, b in (
        (cvx.primal_predict(primal, K_test), primal.b),
        (svm_predict(primal.dual, K_test), primal.dual.b),
    ):
        assert_decisions_agree(g - b, f - dual.b)
        if np.any(free_mask(dual.alpha, C)):
            assert_decisions_agree(g, f)
    assert dual.kkt_violation < KKT_TOL
    assert primal.dual.kkt_violation < KKT_TOL


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels)
def test_hard_margin_strong_duality(seed, n, kernel):
    K, y, K_test, _, _ = make_problem(seed, n, kernel, separable=True)
    check_pair(cvx.hard_margin_primal(K, y), cvx.hard_margin_dual(K, y), K_test)


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels, C=st.floats(0.05, 20.0))
def test_l1_soft_margin_strong_duality(seed, n, kernel, C):
    K, y, K_test, _, _ = make_problem(seed, n, kernel)
    check_pair(cvx.soft_margin_l1_primal(K, y, C), cvx.soft_margin_l1_dual(K, y, C), K_test, C)


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels, C=st.floats(0.05, 20.0))
def test_l2_soft_margin_strong_duality(seed, n, kernel, C):
    K, y, K_test, _, _ = make_problem(seed, n, kernel)
    check_pair(cvx.soft_margin_l2_primal(K, y, C), cvx.soft_margin_l2_dual(K, y, C), K_test)


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels, lam=st.floats(1e-3, 1.0))
def test_vert_primal_dual_and_mu_dual_agree(seed, n, kernel, lam):
    # Vert: primal value = mu-dual value = lam * (value of the dual in alpha).
    K, y, K_test, _, _ = make_problem(seed, n, kernel)
    p = cvx.lambda_svm_primal(K, y, lam)
    d = cvx.lambda_svm_dual(K, y, lam)
    m = cvx.lambda_svm_mu_dual(K, y, lam)
    assert_objectives_agree(p.objective, m.dual_objective)
    check_pair(p, d, K_test, 1 / (2 * lam * n), primal_value=p.objective / lam)
    assert_decisions_agree(svm_predict(m, K_test), svm_predict(d, K_test))
    assert np.all(m.alpha <= 1 / (2 * lam * n) + 1e-12)


@SETTINGS
@given(seed=seeds, n=st.integers(8, 40), kernel=kernels, frac=st.floats(0.1, 0.95))
def test_nu_svm_strong_duality(seed, n, kernel, frac):
    K, y, K_test, _, _ = make_problem(seed, n, kernel)
    nu = frac * 2 * min(np.sum(y > 0), np.sum(y < 0)) / n
    p = cvx.nu_svm_primal(K, y, nu)
    d = cvx.nu_svm_dual(K, y, nu)
    assert_objectives_agree(p.objective, d.dual_objective)
    assert_objectives_agree(p.dual.dual_objective, d.dual_objective)
    # w is unique: compare f - b (b and rho are not unique when a class has no free SV).
    f_p = cvx.primal_predict(p, K_test) - p.b
    assert_decisions_agree(f_p, svm_predict(d, K_test) - d.b)
    assert d.kkt_violation < KKT_TOL and p.dual.kkt_violation < KKT_TOL


@SETTINGS
@given(seed=seeds, n=st.integers(4, 40), kernel=kernels, C=st.floats(0.05, 20.0))
def test_svr_strong_duality(seed, n, kernel, C):
    K, y, K_test = regression_problem(seed, n, kernel)
    p = cvx.svr_primal(K, y, C, 0.1)
    d = cvx.svr_dual(K, y, C, 0.1)
    assert_objectives_agree(p.objective, d.dual_objective)
    assert_objectives_agree(d.primal_objective, d.dual_objective)
    assert_objectives_agree(p.dual.dual_objective, d.dual_objective)
    f = svr_predict(d, K_test)
    g = cvx.primal_predict(p, K_test)
    assert_decisions_agree(g - p.b, f - d.b)
    assert_decisions_agree(svr_predict(p.dual, K_test) - p.b, f - d.b)
    if np.any(free_mask(d.alpha, C) | free_mask(d.alpha_star, C)):  # else b is not unique
        assert_decisions_agree(g, f)
    assert d.kkt_violation < KKT_TOL and p.dual.kkt_violation < KKT_TOL


# --- what the dual variables mean ------------------------------------------------------------


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels, C=st.floats(0.1, 10.0))
def test_intercept_is_dual_value_of_balance_constraint(seed, n, kernel, C):
    # b from cvxpy's dual value equals y_i - sum_j alpha_j y_j K_ij on the free SVs.
    K, y, _, _, _ = make_problem(seed, n, kernel)
    d = cvx.soft_margin_l1_dual(K, y, C)
    free = free_mask(d.alpha, C)
    if np.any(free):
        b_free = y[free] - K[free] @ (d.alpha * y)
        np.testing.assert_allclose(b_free, d.b, atol=1e-6 * max(1.0, abs(d.b)))


@SETTINGS
@given(seed=seeds, n=st.integers(8, 40), kernel=kernels, frac=st.floats(0.1, 0.95))
def test_nu_svm_rho_is_margin_of_free_support_vectors(seed, n, kernel, frac):
    # y_i f(x_i) = rho on free SVs (0 < alpha_i < 1/n): rho is the dual value of sum alpha >= nu.
    K, y, _, _, _ = make_problem(seed, n, kernel)
    nu = frac * 2 * min(np.sum(y > 0), np.sum(y < 0)) / n
    d = cvx.nu_svm_dual(K, y, nu)
    free = free_mask(d.alpha, 1.0 / n)
    margins = y * svm_predict(d, K)
    np.testing.assert_allclose(margins[free], d.rho, atol=1e-5)
    if d.rho > 1e-8:  # complementarity: rho > 0 makes sum alpha >= nu active
        assert d.alpha.sum() == pytest.approx(nu, abs=1e-8)


@SETTINGS
@given(seed=seeds, n=st.integers(10, 40), kernel=kernels, frac=st.floats(0.1, 0.95))
def test_nu_property_margin_errors_le_nu_le_support_vectors(seed, n, kernel, frac):
    # Schölkopf et al. (2000), Proposition 5: #{y f < rho}/n <= nu <= #SV/n.
    K, y, _, _, _ = make_problem(seed, n, kernel)
    nu = frac * 2 * min(np.sum(y > 0), np.sum(y < 0)) / n
    p = cvx.nu_svm_primal(K, y, nu)
    if p.rho > 1e-6:
        margin_errors = np.sum(p.xi > 1e-6 * p.rho)
        assert margin_errors / n <= nu + 1e-9
        assert len(p.dual.support) / n >= nu - 1e-9


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), kernel=kernels, C=st.floats(0.05, 20.0))
def test_l2_dual_equals_hard_margin_dual_on_shifted_gram(seed, n, kernel, C):
    # Valle Vidal, "Proposición (4)": the L2 soft margin is the hard margin on K + I/C.
    K, y, K_test, _, _ = make_problem(seed, n, kernel)
    d = cvx.soft_margin_l2_dual(K, y, C)
    h = cvx.hard_margin_dual(K + np.eye(n) / C, y)
    assert_objectives_agree(d.dual_objective, h.dual_objective)
    assert_decisions_agree(svm_predict(d, K_test), svm_predict(h, K_test))
    # and y_i f(x_i) = 1 - alpha_i / C on the support vectors
    sv = d.support
    np.testing.assert_allclose(y[sv] * svm_predict(d, K[sv]), 1 - d.alpha[sv] / C, atol=1e-5)


@SETTINGS
@given(seed=seeds, n=st.integers(6, 40), C=st.floats(0.05, 20.0))
def test_feature_matrix_and_gram_give_the_same_svm(seed, n, C):
    # Linear kernel: solving in w with Phi = X, or in the expansion with K = X Xᵀ.
    K, y, K_test, X, X_test = make_problem(seed, n, "linear")
    p_phi = cvx.soft_margin_l1_primal(None, y, C, Phi=X)
    p_k = cvx.soft_margin_l1_primal(K, y, C)
    d_phi = cvx.soft_margin_l1_dual(K, y, C, Phi=X)
    assert_objectives_agree(p_phi.objective, p_k.objective)
    assert_objectives_agree(d_phi.dual_objective, p_k.objective)
    f = cvx.primal_predict(p_k, K_test) - p_k.b
    g = cvx.primal_predict(p_phi, Phi_test=X_test) - p_phi.b
    assert_decisions_agree(g, f)  # b itself is unique only when some alpha is free
    np.testing.assert_allclose(p_phi.w, X.T @ p_k.beta, atol=1e-5 * max(1, np.abs(p_phi.w).max()))


def test_singular_gram_with_duplicate_points():
    # Duplicates make K singular; alpha is then not unique, objective and f are.
    K, y, K_test, X, _ = make_problem(3, 20, "gaussian", separable=True)
    Xd = np.vstack([X, X[:4]])
    yd = np.concatenate([y, y[:4]])
    Kd = gaussian_kernel(Xd)
    assert np.linalg.matrix_rank(Kd) < len(yd)
    p = cvx.hard_margin_primal(Kd, yd)
    d = cvx.hard_margin_dual(Kd, yd)
    assert_objectives_agree(p.objective, d.dual_objective)
    assert_objectives_agree(d.dual_objective, cvx.hard_margin_dual(K, y).dual_objective)
    K_test_d = np.hstack([K_test, K_test[:, :4]])
    assert_decisions_agree(cvx.primal_predict(p, K_test_d), svm_predict(d, K_test_d))


def test_default_cvxpy_solver_is_close_but_not_a_reference():
    K, y, _, _, _ = make_problem(0, 30, "gaussian")
    ref = cvx.soft_margin_l1_dual(K, y, 1.0)
    rough = cvx.soft_margin_l1_dual(K, y, 1.0, solver=None)
    assert rough.dual_objective == pytest.approx(ref.dual_objective, rel=1e-3)


def test_non_optimal_status_raises_solver_error():
    K, y, _, _, _ = make_problem(0, 30, "gaussian")
    with pytest.raises(cp.error.SolverError, match="not 'optimal'"):
        cvx.soft_margin_l1_dual(K, y, 1.0, solver_options={"max_iter": 1})


# --- bad input ------------------------------------------------------------------------------

CLASSIFIERS = [
    (cvx.hard_margin_primal, ()),
    (cvx.hard_margin_dual, ()),
    (cvx.soft_margin_l1_primal, (1.0,)),
    (cvx.soft_margin_l1_dual, (1.0,)),
    (cvx.soft_margin_l2_primal, (1.0,)),
    (cvx.soft_margin_l2_dual, (1.0,)),
    (cvx.lambda_svm_primal, (0.1,)),
    (cvx.lambda_svm_dual, (0.1,)),
    (cvx.lambda_svm_mu_dual, (0.1,)),
    (cvx.nu_svm_primal, (0.5,)),
    (cvx.nu_svm_dual, (0.5,)),
]
REGRESSORS = [(cvx.svr_primal, (1.0, 0.1)), (cvx.svr_dual, (1.0, 0.1))]
ALL = CLASSIFIERS + REGRESSORS
ids = [f.__name__ for f, _ in ALL]

X4 = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 0.0], [2.0, 1.0]])
K4 = X4 @ X4.T
Y4 = np.array([-1.0, -1.0, 1.0, 1.0])


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_bad_gram_raises(solve, args):
    bad = K4.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="K"):
        solve(bad, Y4, *args)
    bad = K4.copy()
    bad[0, 1] = np.inf
    with pytest.raises(ValueError, match="K"):
        solve(bad, Y4, *args)
    with pytest.raises(ValueError, match="K must be square"):
        solve(K4[:3], Y4, *args)
    bad = K4.copy()
    bad[0, 1] += 1.0
    with pytest.raises(ValueError, match="K must be symmetric"):
        solve(bad, Y4, *args)


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_bad_targets_raise(solve, args):
    with pytest.raises(ValueError, match="y"):
        solve(K4, Y4[:3], *args)
    with pytest.raises(ValueError, match="y"):
        solve(K4, np.array([1.0, np.nan, -1.0, 1.0]), *args)


@pytest.mark.parametrize(("solve", "args"), CLASSIFIERS, ids=[f.__name__ for f, _ in CLASSIFIERS])
def test_bad_labels_raise(solve, args):
    with pytest.raises(ValueError, match="y must contain only -1 and \\+1"):
        solve(K4, np.array([0.0, 1.0, -1.0, 1.0]), *args)
    with pytest.raises(ValueError, match="y must contain both classes"):
        solve(K4, np.ones(4), *args)


@pytest.mark.parametrize(
    ("solve", "name"),
    [
        (cvx.soft_margin_l1_primal, "C"),
        (cvx.soft_margin_l1_dual, "C"),
        (cvx.soft_margin_l2_primal, "C"),
        (cvx.soft_margin_l2_dual, "C"),
        (cvx.lambda_svm_primal, "lam"),
        (cvx.lambda_svm_dual, "lam"),
        (cvx.lambda_svm_mu_dual, "lam"),
    ],
)
@pytest.mark.parametrize("value", [0.0, -1.0, np.nan, np.inf, "1"])
def test_bad_regularisation_raises(solve, name, value):
    with pytest.raises(ValueError, match=name):
        solve(K4, Y4, value)


@pytest.mark.parametrize("solve", [cvx.nu_svm_primal, cvx.nu_svm_dual])
@pytest.mark.parametrize("nu", [0.0, -0.1, 1.5, np.nan])
def test_nu_out_of_range_raises(solve, nu):
    with pytest.raises(ValueError, match="nu"):
        solve(K4, Y4, nu)


@pytest.mark.parametrize("solve", [cvx.nu_svm_primal, cvx.nu_svm_dual])
def test_nu_infeasible_for_class_balance_raises(solve):
    # One positive point out of four: sum alpha <= 2 min(n+, n-)/n = 0.5.
    y = np.array([-1.0, -1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"nu = 0\.6 is infeasible"):
        solve(K4, y, 0.6)
    assert solve(K4, y, 0.5).rho > 0


@pytest.mark.parametrize("solve", [cvx.svr_primal, cvx.svr_dual])
@pytest.mark.parametrize(("C", "epsilon", "name"), [(0.0, 0.1, "C"), (1.0, -0.1, "epsilon")])
def test_bad_svr_parameters_raise(solve, C, epsilon, name):
    with pytest.raises(ValueError, match=name):
        solve(K4, Y4, C, epsilon)
    with pytest.raises(ValueError, match=name):
        solve(K4, Y4, *((np.nan, 0.1) if name == "C" else (1.0, -1.0)))


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_bad_feature_matrix_raises(solve, args):
    with pytest.raises(ValueError, match="Phi must have 4 rows"):
        solve(K4, Y4, *args, Phi=X4[:3])
    with pytest.raises(ValueError, match="Phi must be a feature matrix of K"):
        solve(K4, Y4, *args, Phi=2 * X4)
    with pytest.raises(ValueError, match="Phi"):
        solve(None, Y4, *args, Phi=np.full((4, 2), np.nan))


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_bad_solver_raises(solve, args):
    with pytest.raises(ValueError, match="solver must be"):
        solve(K4, Y4, *args, solver="NO_SUCH_SOLVER")
    with pytest.raises(ValueError, match="solver_options must be"):
        solve(K4, Y4, *args, solver_options=[("max_iter", 3)])


def test_primal_decision_function_needs_the_right_test_matrix():
    p_k = cvx.hard_margin_primal(K4, Y4)
    p_phi = cvx.hard_margin_primal(None, Y4, Phi=X4)
    with pytest.raises(ValueError, match="K_test is required"):
        cvx.primal_predict(p_k, Phi_test=X4)
    with pytest.raises(ValueError, match="Phi_test is required"):
        cvx.primal_predict(p_phi, K4)
    with pytest.raises(ValueError, match="K_test"):
        cvx.primal_predict(p_k, K4[:, :3])
    with pytest.raises(ValueError, match="Phi_test"):
        cvx.primal_predict(p_phi, Phi_test=X4[:, :1])
    with pytest.raises(ValueError, match="K_test"):
        svr_predict(cvx.svr_dual(K4, Y4, 1.0, 0.1), np.full((2, 4), np.nan))


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_inputs_are_not_modified(solve, args):
    K, y, X = K4.copy(), Y4.copy(), X4.copy()
    solve(K, y, *args)
    solve(K, y, *args, Phi=X)
    np.testing.assert_array_equal(K, K4)
    np.testing.assert_array_equal(y, Y4)
    np.testing.assert_array_equal(X, X4)


def test_results_are_frozen():
    p = cvx.svr_primal(K4, Y4, 1.0, 0.1)
    with pytest.raises(AttributeError):
        p.b = 1.0
    with pytest.raises(AttributeError):
        p.dual.b = 1.0
    assert math.isfinite(p.objective)


# --- solve_reference: the status check of the chapters' inline problems ---------------------


class InaccurateProblem(cp.Problem):
    """A problem whose solver reports ``optimal_inaccurate`` (as Clarabel 0.9/0.10 may)."""

    def solve(self, *args, **kwargs):
        value = super().solve(*args, **kwargs)
        self._status = cp.OPTIMAL_INACCURATE
        return value


def test_solve_reference_returns_the_optimal_value():
    x = cp.Variable(2)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(x - np.array([1.0, 2.0])) + 3.0))
    assert cvx.solve_reference(problem) == pytest.approx(3.0, abs=1e-8)
    assert problem.status == cp.OPTIMAL


def test_solve_reference_refuses_an_infeasible_problem_and_names_it():
    x = cp.Variable()
    problem = cp.Problem(cp.Minimize(x), [x >= 1, x <= 0])
    with pytest.raises(cp.error.SolverError, match=r"the toy problem: .* status 'infeasible'"):
        cvx.solve_reference(problem, what="the toy problem")


def test_solve_reference_accepts_optimal_inaccurate_only_when_asked(recwarn):
    x = cp.Variable()
    problem = InaccurateProblem(cp.Minimize((x - 1) ** 2))
    with pytest.raises(cp.error.SolverError, match="optimal_inaccurate"):
        cvx.solve_reference(problem)
    assert cvx.solve_reference(problem, accept_inaccurate=True) == pytest.approx(0.0, abs=1e-8)
    assert not [w for w in recwarn if "inaccurate" in str(w.message)]


def test_solve_reference_rejects_what_is_not_a_problem():
    with pytest.raises(TypeError, match=r"^problem must be of type Problem \(from cvxpy\)"):
        cvx.solve_reference("min x")


@pytest.mark.parametrize(("solve", "args"), ALL, ids=ids)
def test_an_unknown_solver_option_names_solver_options_and_the_key(solve, args):
    with pytest.raises(ValueError, match=r"^solver_options: .*'no_such_option'"):
        solve(K4, Y4, *args, solver_options={"no_such_option": 1})


def test_a_solver_option_of_the_wrong_type_or_name_type_is_a_value_error():
    with pytest.raises(ValueError, match=r"^solver_options: .*'max_iter'"):
        cvx.hard_margin_dual(K4, Y4, solver_options={"max_iter": "many"})
    with pytest.raises(ValueError, match=r"^solver_options keys must be option names"):
        cvx.hard_margin_dual(K4, Y4, solver_options={3: 1})
    with pytest.raises(ValueError, match=r"^solver_options: .*'bogus'"):
        cvx.hard_margin_dual(K4, Y4, solver=cp.SCS, solver_options={"bogus": 1})


@pytest.mark.parametrize("primal", [None, np.ones(4), "p"])
def test_primal_decision_function_rejects_what_is_not_a_primal_result(primal):
    with pytest.raises(TypeError, match=r"^primal must be of type PrimalResult"):
        cvx.primal_predict(primal, K4)


def test_a_cvx_solve_tests_k_once_and_warns_once(monkeypatch):
    import warnings

    from kernels_ref import _validation
    from kernels_ref.exceptions import NotPSDWarning

    calls = []
    original = _validation._has_cholesky
    monkeypatch.setattr(
        _validation, "_has_cholesky", lambda K, shift: calls.append(len(K)) or original(K, shift)
    )
    K = K4 - 1e-3 * np.eye(4)  # K4 is singular: now slightly indefinite
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cvx.soft_margin_l1_dual(K, Y4, 1.0, solver_options={"max_iter": 200})
    assert calls == [4]
    assert [str(w.message).split()[0] for w in caught if w.category is NotPSDWarning] == ["K"]
