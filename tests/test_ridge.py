"""Tests of kernels_ref.ridge: kernel ridge regression, primal ridge, Valle Vidal's Lagrangian form.

The checks of bad input and of inputs left unmodified cover the representer theorem's functions
(kernels_ref.representer) too: both chapters share the rules of ``lam`` and of the arrays.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernels_ref.exceptions import NotPSDWarning
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel
from kernels_ref.representer import kernel_ridge_span, rkhs_norm, span_decomposition
from kernels_ref.ridge import (
    kernel_ridge,
    kernel_ridge_gradient,
    kernel_ridge_lagrange,
    kernel_ridge_lagrange_objective,
    kernel_ridge_lagrange_predict,
    kernel_ridge_objective,
    kernel_ridge_predict,
    lam_mean_to_sum,
    lam_sum_to_mean,
    ridge_primal,
    ridge_weights_from_lagrange,
)

finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)
lams = st.floats(1e-3, 1e2)
K2 = np.array([[2.0, 1.0], [1.0, 2.0]])
y2 = np.array([1.0, 0.0])


@st.composite
def regression_data(draw, min_n=1, max_n=12, max_d=3):
    """Points X (n, d), targets y (n,) and a Gram matrix of one of three kernels."""
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(arrays(float, (n, d), elements=finite))
    y = draw(arrays(float, n, elements=finite))
    kind = draw(st.sampled_from(["linear", "gaussian", "polynomial"]))
    if kind == "linear":
        K = linear_kernel(X)
    elif kind == "gaussian":
        K = gaussian_kernel(X, sigma=draw(st.floats(0.3, 3.0)))
    else:
        K = polynomial_kernel(X, degree=2, c=1.0)
    return X, y, K


def scale(K):
    return max(1.0, float(np.abs(K).max()))


# --- exact small cases ------------------------------------------------------------------------


def test_kernel_ridge_two_points_by_hand():
    # (K + I)^{-1} = [[3, -1], [-1, 3]] / 8
    np.testing.assert_allclose(kernel_ridge(K2, y2, 1.0).alpha, [3 / 8, -1 / 8], rtol=1e-14)


def test_kernel_ridge_vert_scaling_two_points_by_hand():
    # n = 2, lam = 0.5: (K + n lam I) = K + I, as above
    np.testing.assert_allclose(kernel_ridge(K2, y2, 0.5, n_scaled=True).alpha, [3 / 8, -1 / 8])


def test_kernel_ridge_identity_gram_shrinks_targets():
    # K = I: alpha = y / (1 + lam), predictions f(x_i) = y_i / (1 + lam)
    y = np.array([1.0, -2.0, 3.0])
    np.testing.assert_allclose(kernel_ridge(np.eye(3), y, 4.0).alpha, y / 5.0)


def test_ridge_primal_one_dimensional_closed_form():
    x = np.array([1.0, 2.0, -1.0])
    y = np.array([2.0, 3.0, 0.5])
    lam = 0.7
    w = ridge_primal(x[:, None], y, lam)
    assert w.shape == (1,)
    assert w[0] == pytest.approx((x @ y) / (x @ x + lam), rel=1e-14)


def test_kernel_ridge_predict_is_the_kernel_expansion():
    K_test = np.array([[2.0, 1.0], [0.0, 1.0], [1.0, 1.0]])
    fit = kernel_ridge(K2, y2, 1.0)
    np.testing.assert_allclose(fit.alpha, [0.375, -0.125], rtol=1e-14)
    np.testing.assert_allclose(kernel_ridge_predict(fit, K_test), [0.625, -0.125, 0.25])


@given(regression_data(), lams, st.booleans())
def test_prediction_from_the_result_alone_is_the_old_formula(data, lam, n_scaled):
    _, y, K = data
    fit = kernel_ridge(K, y, lam, n_scaled=n_scaled)
    assert (fit.lam, fit.n_scaled) == (lam, n_scaled)
    np.testing.assert_array_equal(kernel_ridge_predict(fit, K), K @ fit.alpha)


def test_objective_and_gradient_by_hand():
    # alpha = 0: J = ||y||^2, gradient -2 K y
    y = np.array([1.0, 2.0])
    assert kernel_ridge_objective([0.0, 0.0], K2, y, 1.0) == pytest.approx(5.0)
    assert kernel_ridge_objective([0.0, 0.0], K2, y, 1.0, n_scaled=True) == pytest.approx(2.5)
    np.testing.assert_allclose(kernel_ridge_gradient([0.0, 0.0], K2, y, 1.0), -2 * K2 @ y)


def test_mean_objective_gradient_keeps_the_factor_two_over_n_by_hand():
    # n = 1, K = [[2]], y = [1], lam = 1: J(a) = (2a - 1)^2 + 2a^2, J'(a) = 12a - 4 = 8 at a = 1.
    # Vert's printed right-hand side K[(K + lam n I) a - y] = 2 (3 - 1) = 4 lacks the 2/n.
    assert kernel_ridge_objective([1.0], [[2.0]], [1.0], 1.0, n_scaled=True) == 3.0
    assert kernel_ridge_gradient([1.0], [[2.0]], [1.0], 1.0, n_scaled=True)[0] == 8.0


@given(regression_data(min_n=3), lams, st.integers(0, 2**32 - 1))
def test_mean_objective_gradient_is_two_over_n_times_verts_printed_form(data, lam, seed):
    # Vert, "Ecriture duale (cont.)": (2/n) K (K a - y) + 2 lam K a = (2/n) K[(K + lam n I) a - y];
    # the slide drops the 2/n. Checked against central differences of the objective (exact
    # for a quadratic up to round-off) so that the gradient code is not its own reference.
    _, y, K = data
    n = len(y)
    a = np.random.default_rng(seed).normal(size=n)
    grad = kernel_ridge_gradient(a, K, y, lam, n_scaled=True)
    vert_printed = K @ ((K + lam * n * np.eye(n)) @ a - y)
    tol = 1e-9 * scale(K) ** 2 * (1.0 + lam) * (1.0 + np.abs(a).max() + np.abs(y).max())
    np.testing.assert_allclose(grad, 2.0 / n * vert_printed, rtol=0, atol=tol)
    h = 1e-3
    fd = [
        (
            kernel_ridge_objective(a + h * e, K, y, lam, n_scaled=True)
            - kernel_ridge_objective(a - h * e, K, y, lam, n_scaled=True)
        )
        / (2 * h)
        for e in np.eye(n)
    ]
    J = kernel_ridge_objective(a, K, y, lam, n_scaled=True)
    np.testing.assert_allclose(grad, fd, rtol=0, atol=1e-6 * (1.0 + J) + tol)


def test_lagrange_variables_by_hand():
    # 2 lam (K + lam I)^{-1} y with lam = 1: 2 [3, -1] / 8
    np.testing.assert_allclose(kernel_ridge_lagrange(K2, y2, 1.0), [0.75, -0.25])
    # W = 0.75 - 0.875 / 4 - 0.625 / 4 = 0.375 = primal value
    assert kernel_ridge_lagrange_objective([0.75, -0.25], K2, y2, 1.0) == pytest.approx(0.375)
    alpha = kernel_ridge(K2, y2, 1.0).alpha
    assert kernel_ridge_objective(alpha, K2, y2, 1.0) == pytest.approx(0.375)


def test_ridge_weights_from_lagrange_by_hand():
    # w = (1 / (2 lam)) sum alpha_i x_i = (1*1 + 1*2) / 1
    np.testing.assert_allclose(ridge_weights_from_lagrange([[1.0], [2.0]], [1.0, 1.0], 0.5), [3.0])


def test_lambda_conversions_by_hand():
    assert lam_mean_to_sum(0.01, 30) == pytest.approx(0.3)
    assert lam_sum_to_mean(0.3, 30) == pytest.approx(0.01)


# --- identities over random inputs -------------------------------------------------------------


@given(regression_data(), lams, st.booleans())
def test_kernel_ridge_solves_the_shifted_system(data, lam, n_scaled):
    _, y, K = data
    n = len(y)
    shift = n * lam if n_scaled else lam
    alpha = kernel_ridge(K, y, lam, n_scaled=n_scaled).alpha
    direct = np.linalg.solve(K + shift * np.eye(n), y)
    residual = (K + shift * np.eye(n)) @ alpha - y
    assert np.abs(residual).max() <= 1e-9 * scale(K) * max(1.0, np.abs(alpha).max())
    np.testing.assert_allclose(alpha, direct, rtol=1e-7, atol=1e-9 * max(1.0, np.abs(y).max()))


@given(regression_data(), lams)
def test_kernel_ridge_with_linear_kernel_equals_primal_ridge(data, lam):
    X, y, _ = data
    K = linear_kernel(X)
    alpha = kernel_ridge(K, y, lam).alpha
    w = ridge_primal(X, y, lam)
    tol = 1e-8 * scale(K) * max(1.0, np.abs(y).max())
    np.testing.assert_allclose(X @ w, K @ alpha, rtol=0, atol=tol)  # same fitted values
    np.testing.assert_allclose(w, X.T @ alpha, rtol=0, atol=tol)  # w = X^T alpha


@given(regression_data(), lams)
def test_matrix_inversion_identity_rousseau(data, lam):
    # X (X^T X + lam I_p)^{-1} X^T = (X X^T + lam I_n)^{-1} X X^T
    X, _, _ = data
    n, p = X.shape
    left = X @ np.linalg.solve(X.T @ X + lam * np.eye(p), X.T)
    right = np.linalg.solve(X @ X.T + lam * np.eye(n), X @ X.T)
    np.testing.assert_allclose(left, right, rtol=0, atol=1e-8 * scale(X @ X.T))


@given(regression_data(), lams, st.booleans())
def test_gradient_vanishes_at_the_kernel_ridge_solution(data, lam, n_scaled):
    _, y, K = data
    alpha = kernel_ridge(K, y, lam, n_scaled=n_scaled).alpha
    grad = kernel_ridge_gradient(alpha, K, y, lam, n_scaled=n_scaled)
    assert np.abs(grad).max() <= 1e-8 * scale(K) ** 2 * max(1.0, np.abs(y).max())


@given(regression_data(), lams, st.booleans(), st.integers(0, 2**32 - 1))
def test_kernel_ridge_minimises_the_objective(data, lam, n_scaled, seed):
    _, y, K = data
    alpha = kernel_ridge(K, y, lam, n_scaled=n_scaled).alpha
    best = kernel_ridge_objective(alpha, K, y, lam, n_scaled=n_scaled)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        other = alpha + rng.normal(size=len(y))
        value = kernel_ridge_objective(other, K, y, lam, n_scaled=n_scaled)
        assert value >= best - 1e-9 * max(1.0, abs(best))


@given(regression_data(), lams)
def test_objective_equals_rkhs_form(data, lam):
    # J(alpha) = sum (y_i - f(x_i))^2 + lam ||f||^2 with f(x_i) = (K alpha)_i
    _, y, K = data
    fit = kernel_ridge(K, y, lam)
    alpha = fit.alpha
    f = kernel_ridge_predict(fit, K)
    expected = np.sum((y - f) ** 2) + lam * rkhs_norm(alpha, K, squared=True)
    assert kernel_ridge_objective(alpha, K, y, lam) == pytest.approx(expected, rel=1e-12, abs=1e-12)


@given(regression_data(), lams)
def test_vert_scaling_equals_lambda_times_n(data, lam):
    _, y, K = data
    n = len(y)
    np.testing.assert_array_equal(
        kernel_ridge(K, y, lam, n_scaled=True).alpha, kernel_ridge(K, y, n * lam).alpha
    )
    np.testing.assert_allclose(
        kernel_ridge(K, y, lam, n_scaled=True).alpha,
        kernel_ridge(K, y, lam_mean_to_sum(lam, n)).alpha,
    )


@given(lams, st.integers(1, 1000))
def test_lambda_conversions_are_inverse(lam, n):
    assert lam_sum_to_mean(lam_mean_to_sum(lam, n), n) == pytest.approx(lam, rel=1e-14)


@given(regression_data(), lams)
def test_objectives_mean_and_sum_differ_by_the_factor_n(data, lam):
    # (1/n) sum + lam ||f||^2 = (1/n) [sum + n lam ||f||^2]: the same minimiser
    _, y, K = data
    n = len(y)
    alpha = kernel_ridge(K, y, lam, n_scaled=True).alpha
    mean_form = kernel_ridge_objective(alpha, K, y, lam, n_scaled=True)
    sum_form = kernel_ridge_objective(alpha, K, y, n * lam)
    assert mean_form == pytest.approx(sum_form / n, rel=1e-10, abs=1e-12)


@given(regression_data(), lams, arrays(float, (4, 3), elements=finite))
def test_valle_vidal_form_gives_the_kernel_ridge_predictions(data, lam, T):
    X, y, _ = data
    T = T[:, : X.shape[1]]
    K, K_test = gaussian_kernel(X), gaussian_kernel(T, X)
    expected = kernel_ridge_predict(kernel_ridge(K, y, lam), K_test)
    got = kernel_ridge_lagrange_predict(K, y, lam, K_test)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(y).max()))


@given(regression_data(), lams)
def test_valle_vidal_variables_are_2lam_alpha_and_maximise_w(data, lam):
    _, y, K = data
    alpha = kernel_ridge(K, y, lam).alpha
    a_vv = kernel_ridge_lagrange(K, y, lam)
    tol = 1e-8 * max(1.0, lam) * scale(K) * max(1.0, np.abs(y).max())
    np.testing.assert_allclose(a_vv, 2 * lam * alpha, rtol=1e-10, atol=tol)
    # dW/dalpha = y - K alpha / (2 lam) - alpha / 2 = 0
    np.testing.assert_allclose(y - K @ a_vv / (2 * lam) - a_vv / 2, 0.0, atol=tol)


@given(regression_data(), lams)
def test_strong_duality_valle_vidal(data, lam):
    # max W = min lam ||w||^2 + sum xi^2 = kernel ridge objective at its minimiser
    _, y, K = data
    dual = kernel_ridge_lagrange_objective(kernel_ridge_lagrange(K, y, lam), K, y, lam)
    primal = kernel_ridge_objective(kernel_ridge(K, y, lam).alpha, K, y, lam)
    assert dual == pytest.approx(primal, rel=1e-8, abs=1e-8 * max(1.0, float(y @ y)))


@given(regression_data(), lams)
def test_valle_vidal_weights_equal_primal_ridge(data, lam):
    X, y, _ = data
    w = ridge_weights_from_lagrange(X, kernel_ridge_lagrange(linear_kernel(X), y, lam), lam)
    tol = 1e-8 * scale(X.T @ X) * max(1.0, np.abs(y).max())
    np.testing.assert_allclose(w, ridge_primal(X, y, lam), rtol=1e-8, atol=tol)


# --- limits -----------------------------------------------------------------------------------


@given(st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_small_lambda_interpolates_when_k_is_invertible(n, seed):
    rng = np.random.default_rng(seed)
    X = np.linspace(-3, 3, n)[:, None]  # distinct, well separated points
    K = gaussian_kernel(X, sigma=0.5)
    y = rng.normal(size=n)
    for lam in (1e-4, 1e-6, 1e-8):
        fitted = K @ kernel_ridge(K, y, lam).alpha
        # ||y - K alpha|| = lam ||(K + lam I)^{-1} y|| <= lam ||y|| / lambda_min(K)
        bound = lam * np.linalg.norm(y) / np.linalg.eigvalsh(K)[0]
        assert np.linalg.norm(y - fitted) <= 1.01 * bound + 1e-10


@given(regression_data(), st.integers(0, 2**32 - 1))
def test_large_lambda_drives_f_to_zero(data, seed):
    _, y, K = data
    norms = [rkhs_norm(kernel_ridge(K, y, lam).alpha, K) for lam in (1e2, 1e4, 1e6)]
    assert norms[0] >= norms[1] >= norms[2]
    # ||f|| <= ||y|| sqrt(lambda_max) / lam
    assert norms[2] <= np.linalg.norm(y) * np.sqrt(scale(K) * len(y)) / 1e6 + 1e-12
    # lam alpha -> y
    lam = 1e8
    np.testing.assert_allclose(
        lam * kernel_ridge(K, y, lam).alpha, y, atol=1e-5 * scale(K) * len(y)
    )


# --- singular K: the KRR notes' derivation fails, the conclusion holds -------------------------


def test_singular_gram_has_a_family_of_stationary_points_with_the_same_f():
    X = np.array([[0.0], [1.0], [1.0], [2.5]])  # x_2 = x_3
    K = gaussian_kernel(X, sigma=1.0)
    y = np.array([0.5, 1.0, -1.0, 2.0])
    lam = 0.1
    assert np.linalg.matrix_rank(K) == 3
    assert np.linalg.matrix_rank(K @ (K + lam * np.eye(4))) == 3  # [K(K + lam I)]^{-1}: none
    alpha = kernel_ridge(K, y, lam).alpha
    eps = np.array([0.0, 1.0, -1.0, 0.0])  # K eps = 0
    np.testing.assert_allclose(K @ eps, 0.0, atol=1e-15)
    for other in (alpha, alpha + 3.0 * eps):
        assert np.abs(kernel_ridge_gradient(other, K, y, lam)).max() < 1e-12
    np.testing.assert_allclose(K @ (alpha + 3.0 * eps), K @ alpha, atol=1e-14)
    # the duplicated point gets the mean of its two targets (plus shrinkage), not either one
    assert (K @ alpha)[1] == pytest.approx((K @ alpha)[2], abs=1e-14)


# --- parity with an independent solver ---------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_ridge_matches_cvxpy(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(25, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=25)
    K = gaussian_kernel(X, sigma=0.8)
    lam = 0.1
    eigenvalues, V = np.linalg.eigh(K)
    R = np.sqrt(np.clip(eigenvalues, 0, None))[:, None] * V.T  # K = R^T R
    a = cp.Variable(25)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(y - K @ a) + lam * cp.sum_squares(R @ a)))
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert problem.status == "optimal"
    alpha = kernel_ridge(K, y, lam).alpha
    value = kernel_ridge_objective(alpha, K, y, lam)
    assert abs(value - problem.value) <= 1e-6 * abs(problem.value)
    np.testing.assert_allclose(K @ alpha, K @ a.value, atol=1e-5)


# --- warnings, bad input, inputs not modified ----------------------------------------------------


def test_non_psd_gram_warns_but_solves():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues 3, -1
    with pytest.warns(NotPSDWarning):
        alpha = kernel_ridge(K, [1.0, 0.0], 2.0).alpha
    np.testing.assert_allclose((K + 2.0 * np.eye(2)) @ alpha, [1.0, 0.0], atol=1e-14)


# Kernel ridge factors K + lam I once: only the 2 x 2 minors are tested before, the Cholesky
# pivots after (a pivot below lam - t, or no factor, proves lambda_min(K) < -t).
HIDDEN = np.array([[1.0, 0.9, -0.9], [0.9, 1.0, 0.9], [-0.9, 0.9, 1.0]])  # minors PSD


def test_the_hidden_matrix_has_psd_minors_and_a_negative_eigenvalue():
    assert np.all(HIDDEN**2 <= np.outer(np.diag(HIDDEN), np.diag(HIDDEN)))
    assert np.linalg.eigvalsh(HIDDEN)[0] == pytest.approx(-0.8)  # along (1, -1, 1)


@pytest.mark.parametrize("lam", [1e-3, 0.5, 0.79])  # K + lam I indefinite: no Cholesky factor
@pytest.mark.parametrize("fit", [kernel_ridge, kernel_ridge_lagrange])
def test_pivots_prove_a_non_psd_gram_that_the_minors_miss(lam, fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit(HIDDEN, [1.0, 0.0, 1.0], lam)
    assert [w.category for w in caught] == [NotPSDWarning]


def test_a_small_pivot_proves_it_when_the_factor_exists():
    # K + I has eigenvalue 0.2 > 0: Cholesky succeeds, and its last pivot is below 1 - t.
    L = np.linalg.cholesky(HIDDEN + np.eye(3))
    assert np.diag(L).min() ** 2 < 1.0 - 1e-3
    with pytest.warns(NotPSDWarning):
        kernel_ridge(HIDDEN, [1.0, 0.0, 1.0], 1.0)


@given(
    st.integers(1, 40),
    st.integers(1, 6),
    st.floats(1e-8, 1e3),
    st.floats(1e-6, 1e6),
    st.integers(0, 2**32 - 1),
)
def test_a_psd_gram_never_warns(n, d, lam, scale, seed):
    # No false alarm from the pivots: rank-deficient linear Gram matrices of any scale, and
    # Gaussian ones, with any lambda.
    X = np.random.default_rng(seed).normal(size=(n, d)) * scale
    for K in (X @ X.T, gaussian_kernel(X, sigma=scale)):
        with warnings.catch_warnings():
            warnings.simplefilter("error", NotPSDWarning)
            try:
                kernel_ridge(K, np.ones(n), lam)
            except ValueError as exc:  # lam at round-off level of K: singular, not a warning
                assert "lam is too small" in str(exc)


def test_non_psd_gram_with_singular_shift_is_an_error():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])  # K + I is singular
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotPSDWarning)
        with pytest.raises(ValueError, match="lam"):
            kernel_ridge(K, [1.0, 0.0], 1.0)


@pytest.mark.parametrize("lam", [0.0, -1.0, np.nan, np.inf, "a", None, True])
def test_bad_lambda(lam):
    for call in (
        lambda: kernel_ridge(K2, y2, lam).alpha,
        lambda: ridge_primal([[1.0], [2.0]], y2, lam),
        lambda: kernel_ridge_objective(y2, K2, y2, lam),
        lambda: kernel_ridge_gradient(y2, K2, y2, lam),
        lambda: kernel_ridge_lagrange(K2, y2, lam),
        lambda: kernel_ridge_lagrange_objective(y2, K2, y2, lam),
        lambda: kernel_ridge_lagrange_predict(K2, y2, lam, K2),
        lambda: ridge_weights_from_lagrange([[1.0], [2.0]], y2, lam),
        lambda: kernel_ridge_span(K2, K2, y2, lam),
        lambda: lam_mean_to_sum(lam, 3),
        lambda: lam_sum_to_mean(lam, 3),
    ):
        with pytest.raises(ValueError, match="lam"):
            call()


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_and_inf(bad):
    Kb = K2.copy()
    Kb[0, 0] = bad
    yb = np.array([bad, 0.0])
    with pytest.raises(ValueError, match="K"):
        kernel_ridge(Kb, y2, 1.0)
    with pytest.raises(ValueError, match="y"):
        kernel_ridge(K2, yb, 1.0)
    with pytest.raises(ValueError, match="K_test"):
        kernel_ridge_predict(kernel_ridge(K2, y2, 1.0), Kb)
    with pytest.raises(TypeError, match=r"^result must be of type KernelRidgeResult"):
        kernel_ridge_predict(yb, K2)
    with pytest.raises(ValueError, match="X"):
        ridge_primal([[bad], [1.0]], y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        rkhs_norm(yb, K2)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_objective(yb, K2, y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_gradient(yb, K2, y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_lagrange_objective(yb, K2, y2, 1.0)
    with pytest.raises(ValueError, match="K_test"):
        kernel_ridge_lagrange_predict(K2, y2, 1.0, Kb)
    with pytest.raises(ValueError, match="alpha"):
        ridge_weights_from_lagrange([[1.0], [2.0]], yb, 1.0)
    with pytest.raises(ValueError, match="K_xu"):
        kernel_ridge_span(Kb, K2, y2, 1.0)
    with pytest.raises(ValueError, match="K_uu"):
        kernel_ridge_span(K2, Kb, y2, 1.0)
    with pytest.raises(ValueError, match="coef"):
        span_decomposition(yb, K2, 1)


def test_bad_shapes_and_lengths():
    with pytest.raises(ValueError, match="K"):
        kernel_ridge(np.ones((2, 3)), y2, 1.0)  # not square
    with pytest.raises(ValueError, match="K"):
        kernel_ridge([[1.0, 0.5], [0.0, 1.0]], y2, 1.0)  # not symmetric
    with pytest.raises(ValueError, match="y"):
        kernel_ridge(K2, [1.0, 2.0, 3.0], 1.0)  # length
    with pytest.raises(ValueError, match="y"):
        kernel_ridge(K2, [[1.0], [2.0]], 1.0)  # 2-D
    with pytest.raises(ValueError, match="K_test"):
        kernel_ridge_predict(kernel_ridge(K2, y2, 1.0), np.ones((3, 3)))
    with pytest.raises(ValueError, match="y"):
        ridge_primal([[1.0], [2.0]], [1.0, 2.0, 3.0], 1.0)
    with pytest.raises(ValueError, match="X"):
        ridge_primal([1.0, 2.0], y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        rkhs_norm([1.0, 2.0, 3.0], K2)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_objective([1.0], K2, y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_gradient([1.0], K2, y2, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        kernel_ridge_lagrange_objective([1.0], K2, y2, 1.0)
    with pytest.raises(ValueError, match="y"):
        kernel_ridge_lagrange(K2, [1.0], 1.0)
    with pytest.raises(ValueError, match="K_test"):
        kernel_ridge_lagrange_predict(K2, y2, 1.0, np.ones((2, 3)))
    with pytest.raises(ValueError, match="alpha"):
        ridge_weights_from_lagrange([[1.0], [2.0]], [1.0], 1.0)
    with pytest.raises(ValueError, match="K_xu"):
        kernel_ridge_span(np.ones((2, 3)), K2, y2, 1.0)
    with pytest.raises(ValueError, match="y"):
        kernel_ridge_span(K2, K2, [1.0], 1.0)
    with pytest.raises(ValueError, match="coef"):
        span_decomposition([1.0], K2, 1)
    for n_span in (0, 3, 1.5):
        with pytest.raises(ValueError, match="n_span"):
            span_decomposition(y2, K2, n_span)
    for n in (0, 2.5):
        with pytest.raises(ValueError, match="n"):
            lam_mean_to_sum(1.0, n)
        with pytest.raises(ValueError, match="n"):
            lam_sum_to_mean(1.0, n)


def test_inputs_are_not_modified():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 2))
    K = gaussian_kernel(X)
    K_test = gaussian_kernel(rng.normal(size=(3, 2)), X)
    y = rng.normal(size=6)
    alpha = rng.normal(size=6)
    copies = [a.copy() for a in (X, K, K_test, y, alpha)]
    kernel_ridge(K, y, 0.1)
    kernel_ridge(K, y, 0.1, n_scaled=True)
    kernel_ridge_predict(kernel_ridge(K, y, 0.1), K_test)
    ridge_primal(X, y, 0.1)
    rkhs_norm(alpha, K)
    kernel_ridge_objective(alpha, K, y, 0.1)
    kernel_ridge_gradient(alpha, K, y, 0.1)
    kernel_ridge_lagrange(K, y, 0.1)
    kernel_ridge_lagrange_objective(alpha, K, y, 0.1)
    kernel_ridge_lagrange_predict(K, y, 0.1, K_test)
    ridge_weights_from_lagrange(X, alpha, 0.1)
    kernel_ridge_span(K[:4], K, y[:4], 0.1)
    span_decomposition(alpha, K, 4)
    for original, copy in zip((X, K, K_test, y, alpha), copies, strict=True):
        np.testing.assert_array_equal(original, copy)


def test_lambda_at_round_off_level_on_a_singular_gram_is_an_error():
    K = np.ones((3, 3))  # rank one: K + 1e-20 I is singular in floating point
    with pytest.raises(ValueError, match="lam"):
        kernel_ridge(K, [1.0, 2.0, 3.0], 1e-20)
