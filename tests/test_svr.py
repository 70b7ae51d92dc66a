"""Tests of kernels_ref.svr: epsilon-insensitive support vector regression by SMO."""

import dataclasses
import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels_ref import cvx
from kernels_ref.exceptions import ConvergenceWarning, NotPSDWarning
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.losses import epsilon_insensitive_loss
from kernels_ref.smo import optimality_gap, working_sets
from kernels_ref.svr import SVRResult, c_from_penalty_lambda, svr, svr_predict

TOL = 1e-8  # the default stopping tolerance of svr
seeds = st.integers(0, 2**32 - 1)
kernels = st.sampled_from(["linear", "gaussian"])
log_eps = st.floats(-3.0, 0.0)

X2 = np.array([[-1.0], [1.0]])
K2, Y2 = X2 @ X2.T, np.array([-1.0, 1.0])


def regression_problem(seed, n, kernel, n_test=20):
    """Noisy data in the plane, (K, y, K_test): a radial sinc for the Gaussian kernel, a nearly
    linear function for the linear kernel."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n, 2))
    X_test = rng.uniform(-3, 3, size=(n_test, 2))
    noise = 0.1 * rng.normal(size=n)
    if kernel == "linear":
        y = X @ np.array([0.5, -0.3]) + 0.3 * np.sin(2 * X[:, 0]) + noise
        return linear_kernel(X), y, linear_kernel(X_test, X)
    y = np.sinc(np.linalg.norm(X, axis=1)) + noise
    return gaussian_kernel(X, sigma=0.8), y, gaussian_kernel(X_test, X, sigma=0.8)


@st.composite
def problems(draw, max_n=100):
    """(K, y, K_test, C, eps): C up to 100 with the Gaussian kernel, up to 1 with the linear one
    (K of rank 2: with large C SMO, like LIBSVM, can need 10^5 to 10^6 iterations)."""
    kernel = draw(kernels)
    n = draw(st.integers(2, max_n))
    K, y, K_test = regression_problem(draw(seeds), n, kernel)
    C = 10.0 ** draw(st.floats(-2.0, 2.0 if kernel == "gaussian" else 0.0))
    return K, y, K_test, C, 10.0 ** draw(log_eps)


def tiled(K):
    """The 2n x 2n matrix [[K, K], [K, K]] of the dual in (alpha, alpha*) (test sizes only)."""
    return np.block([[K, K], [K, K]])


def kkt_interval(res, K, y, C, epsilon):
    """[m, M]: the intercepts that the KKT conditions allow at res.coef (independent of res.b)."""
    n = len(y)
    f0 = K @ res.coef
    v = np.concatenate([y - f0 - epsilon, y - f0 + epsilon])
    z = np.concatenate([np.ones(n), -np.ones(n)])
    up, low = working_sets(np.concatenate([res.alpha, res.alpha_star]), z, C)
    return np.max(v, where=up, initial=-np.inf), np.min(v, where=low, initial=np.inf)


def has_free(res, C):
    """Whether a multiplier is free by more than round-off: SMO's unclipped step may leave
    3e-18 for 0, free in floating point while the intercept is not determined by it."""
    a = np.concatenate([res.alpha, res.alpha_star])
    margin = 1e-12 * C
    return bool(np.any((a > margin) & (a < C - margin)))


def gap_bound(n, C, tol=TOL):
    """Bound on the duality gap when m - M <= tol: each point adds at most C tol.

    On a free multiplier the residual is within tol of +-eps; on a bound one it is beyond the
    tube edge by at most tol on the wrong side; so each term of primal - dual is <= C tol.
    """
    return n * C * tol + 1e-12


def assert_objectives_agree(a, b, rtol=1e-6):
    assert abs(a - b) <= rtol * abs(b) + 1e-9, (a, b)  # floor: an optimum of 0


def assert_predictions_agree(f, g, tol=1e-5):
    assert np.max(np.abs(f - g)) <= tol * max(1.0, float(np.max(np.abs(g)))), np.abs(f - g).max()


# --- exact small cases ------------------------------------------------------------------------


@pytest.mark.parametrize("C", [0.1, 0.25, 10.0])
def test_two_points_by_hand(C):
    # y = x, eps = 1/2: the flattest line in the tube, w = 1/2, needs coef (-1/4, 1/4); with
    # C < 1/4 the coefficients stop at C: w = 2C, dual value 2C - 2C^2 * 2 / 2 - C = C - 2C^2.
    a = min(C, 0.25)
    res = svr(K2, Y2, C, 0.5)
    np.testing.assert_allclose(res.coef, [-a, a], atol=1e-12)
    np.testing.assert_allclose(res.alpha, [0.0, a], atol=1e-12)
    np.testing.assert_allclose(res.alpha_star, [a, 0.0], atol=1e-12)
    assert res.b == pytest.approx(0.0, abs=1e-12)
    value = 0.125 if C >= 0.25 else C - 2 * C**2
    assert res.dual_objective == pytest.approx(value, abs=1e-12)
    assert res.primal_objective == pytest.approx(value, abs=1e-12)
    assert res.converged and res.kkt_violation <= TOL
    np.testing.assert_array_equal(res.support, [0, 1])


def test_identity_gram_soft_thresholds_the_targets():
    # K = I: f(x_i) = coef_i + b. For large C the dual is max y.c - eps|c|_1 - |c|^2/2,
    # sum c = 0, solved by c = soft-threshold(y - b, eps) with b = 0 by symmetry:
    # c = (-1.5, 0, 1.5), residuals (-0.5, 0, 0.5) on the edges of the tube, value 6 - 1.5 - 2.25.
    y = np.array([-2.0, 0.0, 2.0])
    res = svr(np.eye(3), y, 10.0, 0.5)
    np.testing.assert_allclose(res.coef, [-1.5, 0.0, 1.5], atol=1e-10)
    assert res.b == pytest.approx(0.0, abs=1e-10)
    assert res.dual_objective == pytest.approx(2.25, abs=1e-10)
    np.testing.assert_array_equal(res.support, [0, 2])


def test_identity_gram_with_small_C_clips_the_coefficients():
    # C = 1: c = (-1, 0, 1) at the bound, points 1 and 3 outside the tube by 0.5; b is only
    # confined to [-0.5, 0.5] and the midpoint 0 is returned. Dual = primal = 4 - 1 - 1 = 2.
    y = np.array([-2.0, 0.0, 2.0])
    res = svr(np.eye(3), y, 1.0, 0.5)
    np.testing.assert_allclose(res.coef, [-1.0, 0.0, 1.0], atol=1e-12)
    assert res.b == pytest.approx(0.0, abs=1e-12)
    assert res.dual_objective == pytest.approx(2.0, abs=1e-12)
    assert res.primal_objective == pytest.approx(2.0, abs=1e-12)


def test_wide_tube_needs_no_support_vector():
    # eps >= (max y - min y)/2: the constant midrange fits inside the tube; SMO starts optimal.
    y = np.array([0.3, -0.2, 0.9, 0.1])
    K = gaussian_kernel(np.arange(4.0)[:, None])
    res = svr(K, y, 5.0, 0.55)
    assert res.n_iter == 0 and res.support.size == 0
    np.testing.assert_array_equal(res.coef, np.zeros(4))
    assert res.b == pytest.approx(0.35)
    assert res.dual_objective == 0.0 and res.primal_objective == pytest.approx(0.0, abs=1e-15)


def test_predict_is_kernel_expansion_plus_intercept():
    res = svr(K2, Y2, 10.0, 0.5)
    K_test = np.array([[0.0], [3.0], [-2.0]]) @ X2.T
    np.testing.assert_allclose(svr_predict(res, K_test), [0.0, 1.5, -1.0], atol=1e-12)


def test_result_is_a_frozen_dataclass():
    res = svr(K2, Y2, 1.0, 0.1)
    assert isinstance(res, SVRResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.b = 1.0


# --- properties -------------------------------------------------------------------------------


@given(problem=problems(max_n=100))
def test_svr_agrees_with_cvxpy_dual(problem):
    K, y, K_test, C, eps = problem
    res = svr(K, y, C, eps)
    ref = cvx.svr_dual(K, y, C, eps)
    assert res.converged and res.kkt_violation <= TOL + 1e-12
    assert_objectives_agree(res.dual_objective, ref.dual_objective)
    f, g = svr_predict(res, K_test), svr_predict(ref, K_test)
    if has_free(res, C):  # then b is unique: y_i - f(x_i) = +-eps on a free multiplier
        assert_predictions_agree(f, g)
    else:  # b is any point of [m, M]: compare f - b and check cvxpy's b lies in the interval
        assert_predictions_agree(f - res.b, g - ref.b)
        m, M = kkt_interval(res, K, y, C, eps)
        assert m - 1e-6 <= ref.b <= M + 1e-6


@given(problem=problems(max_n=60))
def test_strong_duality_with_cvxpy_primal(problem):
    K, y, K_test, C, eps = problem
    n = len(y)
    res = svr(K, y, C, eps)
    primal = cvx.svr_primal(K, y, C, eps)
    assert_objectives_agree(res.dual_objective, primal.objective)
    # our (f, b) is feasible for the primal: its value is above the optimum, by at most the gap
    excess = res.primal_objective - primal.objective
    assert -1e-9 <= excess <= gap_bound(n, C) + 1e-6 * abs(primal.objective)
    f0 = cvx.primal_predict(primal, K_test) - primal.b
    assert_predictions_agree(svr_predict(res, K_test) - res.b, f0)


@given(problem=problems(max_n=80))
def test_kkt_violation_from_the_tiled_dual_is_below_tolerance(problem):
    # Recomputed from scratch on the explicit 2n x 2n problem, not from SMO's gradient.
    K, y, _, C, eps = problem
    n = len(y)
    res = svr(K, y, C, eps)
    z = np.concatenate([np.ones(n), -np.ones(n)])
    a = np.concatenate([res.alpha, res.alpha_star])
    Q = np.outer(z, z) * tiled(K)  # [[K, -K], [-K, K]]
    v = -z * (Q @ a + np.concatenate([eps - y, eps + y]))
    up, low = working_sets(a, z, C)
    assert optimality_gap(v, up, low) <= TOL + 1e-10
    assert abs(z @ a) <= 1e-12 * max(1.0, a.sum()) and np.all((a >= 0) & (a <= C))
    assert res.kkt_violation <= TOL + 1e-10
    assert (
        -1e-12 * max(1.0, res.dual_objective)
        <= res.primal_objective - res.dual_objective
        <= gap_bound(n, C)
    )


@given(problem=problems(max_n=80))
def test_alpha_and_alpha_star_are_complementary(problem):
    K, y, _, C, eps = problem
    res = svr(K, y, C, eps)
    assert np.all(res.alpha * res.alpha_star == 0.0)
    assert np.all(res.alpha >= 0) and np.all(res.alpha_star >= 0)
    assert abs(res.coef.sum()) <= 1e-10 * max(1.0, np.abs(res.coef).sum())


@given(problem=problems(max_n=80))
def test_points_outside_the_tube_are_bounded_support_vectors(problem):
    K, y, _, C, eps = problem
    n = len(y)
    res = svr(K, y, C, eps)
    r = y - (K @ res.coef + res.b)
    outside = np.abs(r) > eps + 1e-6
    inside = np.abs(r) < eps - 1e-6
    a = res.alpha + res.alpha_star
    assert np.all(a[outside] == C)  # strictly outside: the multiplier is at its bound
    assert np.all(a[inside] == 0.0)  # strictly inside: not a support vector
    assert outside.mean() <= len(res.support) / n


@given(problem=problems(max_n=60), extra=st.floats(0.0, 1.0))
def test_epsilon_above_largest_deviation_from_mean_gives_zero_coef(problem, extra):
    # f = mean(y) fits in the tube with w = 0: the optimum, and SMO starts there (m <= M).
    K, y, _, C, _ = problem
    eps = np.max(np.abs(y - y.mean())) + extra
    res = svr(K, y, C, eps)
    assert res.n_iter == 0
    np.testing.assert_array_equal(res.coef, np.zeros(len(y)))
    assert res.support.size == 0
    assert np.all(np.abs(y - res.b) <= eps + 1e-12)  # the constant b lies in the tube


@given(problem=problems(max_n=60))
def test_negating_the_targets_swaps_alpha_and_alpha_star(problem):
    K, y, K_test, C, eps = problem
    res, neg = svr(K, y, C, eps), svr(K, -y, C, eps)
    assert_objectives_agree(neg.dual_objective, res.dual_objective)
    assert_predictions_agree(svr_predict(neg, K_test) - neg.b, -(svr_predict(res, K_test) - res.b))


@given(problem=problems(max_n=60), shift=st.floats(-5.0, 5.0))
def test_shifting_the_targets_shifts_only_the_intercept(problem, shift):
    K, y, K_test, C, eps = problem
    res, moved = svr(K, y, C, eps), svr(K, y + shift, C, eps)
    assert_objectives_agree(moved.dual_objective, res.dual_objective + 0.0)
    f, g = svr_predict(res, K_test), svr_predict(moved, K_test)
    assert_predictions_agree(g - moved.b, f - res.b)
    if has_free(res, C) and has_free(moved, C):
        assert moved.b - res.b == pytest.approx(shift, abs=1e-6)


@given(problem=problems(max_n=60), scale=st.floats(0.1, 10.0))
def test_scaling_targets_epsilon_and_C_scales_the_solution(problem, scale):
    # (alpha, alpha*) -> s (alpha, alpha*) maps the dual for (y, C, eps) to s^2 times the dual
    # for (s y, s C, s eps): f scales by s, the dual value by s^2.
    K, y, K_test, C, eps = problem
    res = svr(K, y, C, eps)
    big = svr(K, scale * y, scale * C, scale * eps, tol=scale * TOL)
    assert_objectives_agree(big.dual_objective, scale**2 * res.dual_objective)
    f, g = svr_predict(res, K_test) - res.b, svr_predict(big, K_test) - big.b
    assert_predictions_agree(g, scale * f)


@given(seed=seeds, n=st.integers(2, 40), log_C=st.floats(-2.0, 2.0))
def test_epsilon_zero_is_least_absolute_deviations(seed, n, log_C):
    # eps = 0: min 1/2 ||f - b||^2 + C sum |y_i - f(x_i)|, written here directly in cvxpy.
    K, y, _ = regression_problem(seed, n, "gaussian")
    C = 10.0**log_C
    res = svr(K, y, C, 0.0)
    d, U = np.linalg.eigh(K)
    L = U * np.sqrt(np.clip(d, 0.0, None))  # K = L L^T
    w, b = cp.Variable(n), cp.Variable()
    objective = 0.5 * cp.sum_squares(w) + C * cp.norm1(y - L @ w - b)
    problem = cp.Problem(cp.Minimize(objective))
    problem.solve(solver=cp.CLARABEL, **cvx.REFERENCE_OPTIONS)
    assert problem.status == "optimal"
    assert_objectives_agree(res.dual_objective, problem.value)
    # cvxpy's value is the optimum to its own tolerance (the 1e-6 of the agreement above): the
    # primal objective of an SMO solution lies above it up to that, and below it by the gap
    slack = 1e-6 * abs(problem.value) + 1e-9
    assert -slack <= res.primal_objective - problem.value <= gap_bound(n, C) + slack
    assert np.all(res.alpha * res.alpha_star == 0.0)


# --- Valle Vidal's lambda -----------------------------------------------------------------------


def test_c_from_penalty_lambda_by_hand():
    # C = 1 / lam
    assert c_from_penalty_lambda(0.25) == 4.0
    assert c_from_penalty_lambda(2.0) == 0.5
    assert c_from_penalty_lambda(1e-3) == pytest.approx(1000.0, rel=1e-15)


def v_eps(r, epsilon):
    """The epsilon-insensitive error, by hand: 0 inside the tube, |r| - epsilon outside."""
    return np.maximum(0.0, np.abs(r) - epsilon)


def linear_regression_data(seed, n, d=2):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n, d))
    y = X @ rng.standard_normal(d) + 0.5 * np.sin(2 * X[:, 0]) + 0.3 * rng.normal(size=n)
    return X, y


@given(seed=seeds, n=st.integers(1, 40), lam=st.floats(1e-3, 1e3), eps=st.floats(0.0, 0.1))
def test_valle_vidal_h_is_the_book_objective_over_c_on_a_fixed_function(seed, n, lam, eps):
    # For every (beta, beta_0): H = sum V_eps(y - f) + lam/2 ||beta||^2 equals
    # (1/2 ||beta||^2 + C sum V_eps(y - f)) / C with C = 1 / lam
    X, y = linear_regression_data(seed, n)
    rng = np.random.default_rng(seed + 1)
    beta, beta0 = rng.standard_normal(2), float(rng.standard_normal())
    errors = v_eps(y - X @ beta - beta0, eps).sum()
    H = errors + lam / 2 * (beta @ beta)
    C = c_from_penalty_lambda(lam)
    book = 0.5 * (beta @ beta) + C * errors
    assert C * H == pytest.approx(book, rel=1e-12)


def minimise_h(X, y, lam, epsilon):
    """Valle Vidal's H(beta, beta_0) minimised by cvxpy (linear kernel): (beta, beta_0, H*)."""
    beta, beta0 = cp.Variable(X.shape[1]), cp.Variable()
    errors = cp.sum(cp.pos(cp.abs(y - X @ beta - beta0) - epsilon))
    value = cvx.solve_reference(cp.Problem(cp.Minimize(errors + lam / 2 * cp.sum_squares(beta))))
    return beta.value, float(beta0.value), value


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("lam", [3.0, 10.0, 30.0])
def test_svr_at_c_of_lambda_minimises_valle_vidals_h(seed, lam):
    # svr (SMO, the book's C) at C = c_from_penalty_lambda(lam) against H minimised by cvxpy.
    # (C below about 1: with few dimensions and large C the minimiser stops moving with C.)
    epsilon = 0.2
    X, y = linear_regression_data(seed, 50, d=5)
    res = svr(linear_kernel(X), y, c_from_penalty_lambda(lam), epsilon)
    beta_smo = X.T @ res.coef
    beta, _, optimum = minimise_h(X, y, lam, epsilon)
    scale = max(1.0, float(np.abs(beta).max()))
    np.testing.assert_allclose(beta_smo, beta, atol=1e-5 * scale, rtol=0)
    at_smo = v_eps(y - X @ beta_smo - res.b, epsilon).sum() + lam / 2 * (beta_smo @ beta_smo)
    assert_objectives_agree(at_smo, optimum)
    # C = 1 / (2 lam), the rule of the classification penalty, is another problem
    other = svr(linear_kernel(X), y, 0.5 / lam, epsilon)
    assert np.abs(X.T @ other.coef - beta).max() > 1e-3 * scale


@pytest.mark.parametrize("lam", [0.0, -1.0, np.nan, np.inf, "1", 1j, True, None])
def test_c_from_penalty_lambda_rejects_a_bad_lambda(lam):
    with pytest.raises((ValueError, TypeError), match=r"^lam"):
        c_from_penalty_lambda(lam)


# --- SMO's own behaviour ----------------------------------------------------------------------


def test_iteration_limit_warns_and_reports_not_converged():
    K, y, _ = regression_problem(0, 40, "gaussian")
    with pytest.warns(ConvergenceWarning):
        res = svr(K, y, 10.0, 0.01, max_iter=3)
    assert not res.converged and res.n_iter == 3 and res.kkt_violation > TOL


def test_shrinking_does_not_change_the_answer():
    K, y, K_test = regression_problem(1, 80, "gaussian")
    a = svr(K, y, 5.0, 0.05, shrinking=True)
    b = svr(K, y, 5.0, 0.05, shrinking=False)
    assert_objectives_agree(a.dual_objective, b.dual_objective, rtol=1e-9)
    assert_predictions_agree(svr_predict(a, K_test), svr_predict(b, K_test), tol=1e-6)


def test_not_psd_gram_warns():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues 3 and -1
    with pytest.warns(NotPSDWarning):
        svr(K, [0.0, 1.0], 1.0, 0.1)


# --- bad input --------------------------------------------------------------------------------

K3 = gaussian_kernel(np.array([[0.0], [1.0], [2.0]]))
Y3 = np.array([0.0, 1.0, 0.5])


@pytest.mark.parametrize("C", [0.0, -1.0, np.nan, np.inf, "1", None])
def test_bad_C_raises(C):
    with pytest.raises(ValueError, match="C"):
        svr(K3, Y3, C, 0.1)


@pytest.mark.parametrize("epsilon", [-0.1, np.nan, np.inf, "0.1", None])
def test_bad_epsilon_raises(epsilon):
    with pytest.raises(ValueError, match="epsilon"):
        svr(K3, Y3, 1.0, epsilon)


@pytest.mark.parametrize(
    "K",
    [
        np.ones((3, 2)),  # not square
        np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),  # not symmetric
        np.where(np.eye(3) > 0, np.nan, 0.5),  # NaN
        np.where(np.eye(3) > 0, np.inf, 0.5),  # inf
        np.ones(3),  # 1-D
        np.ones((0, 0)),  # empty
    ],
)
def test_bad_gram_raises(K):
    with pytest.raises(ValueError, match="K"):
        svr(K, Y3, 1.0, 0.1)


@pytest.mark.parametrize(
    "y", [[0.0, np.nan, 1.0], [0.0, np.inf, 1.0], [[0.0, 1.0, 0.5]], ["a", "b", "c"]]
)
def test_bad_targets_raise(y):
    with pytest.raises(ValueError, match="y"):
        svr(K3, y, 1.0, 0.1)


def test_mismatched_lengths_raise():
    with pytest.raises(ValueError, match=r"^y must have 3 rows"):
        svr(K3, [0.0, 1.0], 1.0, 0.1)


@pytest.mark.parametrize(
    ("kwargs", "name"), [({"tol": 0.0}, "tol"), ({"max_iter": -1}, "max_iter")]
)
def test_bad_solver_options_raise(kwargs, name):
    with pytest.raises(ValueError, match=name):
        svr(K3, Y3, 1.0, 0.1, **kwargs)


@pytest.mark.parametrize(
    "K_test", [np.ones((2, 2)), np.full((2, 3), np.nan), np.ones(3), np.full((1, 3), np.inf)]
)
def test_bad_test_gram_raises(K_test):
    res = svr(K3, Y3, 1.0, 0.1)
    with pytest.raises(ValueError, match="K_test"):
        svr_predict(res, K_test)


def test_inputs_are_not_modified():
    K, y, K_test = regression_problem(3, 30, "gaussian")
    K_copy, y_copy, K_test_copy = K.copy(), y.copy(), K_test.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = svr(K, y, 2.0, 0.05)
        svr_predict(res, K_test)
    np.testing.assert_array_equal(K, K_copy)
    np.testing.assert_array_equal(y, y_copy)
    np.testing.assert_array_equal(K_test, K_test_copy)


@pytest.mark.parametrize("max_iter", [0, -1, 2.5, "10"])
def test_svr_rejects_an_iteration_limit_below_one(max_iter):
    with pytest.raises(ValueError, match=r"^max_iter must"):
        svr(K2, Y2, 1.0, 0.1, max_iter=max_iter)


def test_svr_with_one_iteration_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        res = svr(
            gaussian_kernel(np.linspace(0, 1, 8)[:, None]), np.arange(8.0), 10.0, 0.0, max_iter=1
        )
    assert res.n_iter == 1 and not res.converged


def test_svr_rejects_a_non_bool_shrinking():
    with pytest.raises(TypeError, match=r"^shrinking must be a bool"):
        svr(K2, Y2, 1.0, 0.1, shrinking="yes")


@pytest.mark.parametrize("result", [None, np.ones(2), {"coef": np.ones(2), "b": 0.0}])
def test_svr_predict_rejects_what_is_not_an_svr_result(result):
    with pytest.raises(
        TypeError, match=r"^result must be of type SVRResult .*got (NoneType|ndarray|dict)"
    ):
        svr_predict(result, K2)


# --- one rule for epsilon: >= 0 everywhere ---------------------------------------------------

EPSILON_FUNCTIONS = {
    "svr": lambda eps: svr(K2, Y2, 10.0, eps),
    "cvx.svr_dual": lambda eps: cvx.svr_dual(K2, Y2, 10.0, eps),
    "cvx.svr_primal": lambda eps: cvx.svr_primal(K2, Y2, 10.0, eps),
    "epsilon_insensitive_loss": lambda eps: epsilon_insensitive_loss([-2.0, 0.0, 1.5], eps),
}


@pytest.mark.parametrize("name", sorted(EPSILON_FUNCTIONS))
@pytest.mark.parametrize("eps", [-1e-12, -0.5, np.nan, np.inf, -np.inf, "0.1", 0.1j, True, None])
def test_every_function_rejects_a_bad_epsilon_naming_it(name, eps):
    with pytest.raises(ValueError, match=r"^epsilon must"):
        EPSILON_FUNCTIONS[name](eps)


def test_epsilon_zero_is_least_absolute_deviations_everywhere():
    # Two points (-1, -1), (1, 1), linear kernel, epsilon = 0: the flattest function through
    # both is f(x) = x, w = 1 = coef_2 - coef_1 with coef_1 + coef_2 = 0 (C >= 1/2 suffices).
    expected = np.array([-0.5, 0.5])
    np.testing.assert_allclose(EPSILON_FUNCTIONS["svr"](0.0).coef, expected, atol=1e-9)
    np.testing.assert_allclose(EPSILON_FUNCTIONS["cvx.svr_dual"](0.0).coef, expected, atol=1e-6)
    primal = EPSILON_FUNCTIONS["cvx.svr_primal"](0.0)
    assert primal.objective == pytest.approx(0.5 * 1.0, abs=1e-6)  # 1/2 ||w||^2, no slack
    assert EPSILON_FUNCTIONS["epsilon_insensitive_loss"](0.0).tolist() == [2.0, 0.0, 1.5]
