"""Tests of kernels_ref.cca: linear CCA, regularised kernel CCA and its degenerate limit, the
correlations of training and held-out variates beside the objective."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels_ref.cca import (
    kernel_cca,
    kernel_cca_correlations,
    kernel_cca_transform,
    linear_cca,
)
from kernels_ref.exceptions import NotPSDWarning, TrivialCorrelationWarning
from kernels_ref.feature_space import center_gram, center_test_gram, finite_feature_map
from kernels_ref.kernels import gaussian_kernel, linear_kernel

seeds = st.integers(0, 2**32 - 1)

# Unregularised kernel CCA on Gram matrices whose ranges meet warns; the tests of that limit
# check its numbers, and test_reg_0_warns_... checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::kernels_ref.exceptions.TrivialCorrelationWarning")


def two_views(seed, n, d1, d2, shared=0.8):
    """Two views with one shared linear factor plus independent noise."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 1))
    X1 = rng.normal(size=(n, d1)) + shared * z * rng.normal(size=d1)
    X2 = rng.normal(size=(n, d2)) + shared * z * rng.normal(size=d2)
    return X1, X2


def separated_points(seed, n, d=2, min_dist=0.8):
    """n points whose pairwise distances exceed min_dist (a well-conditioned Gaussian Gram)."""
    rng = np.random.default_rng(seed)
    points = []
    while len(points) < n:
        p = rng.uniform(-4, 4, size=d)
        if all(np.linalg.norm(p - q) > min_dist for q in points):
            points.append(p)
    return np.array(points)


def qr_canonical_correlations(X1, X2):
    """Bjorck-Golub: the singular values of Q1^T Q2 for thin QR factors of the centred views."""
    Q1, _ = np.linalg.qr(X1 - X1.mean(axis=0))
    Q2, _ = np.linalg.qr(X2 - X2.mean(axis=0))
    return np.linalg.svd(Q1.T @ Q2, compute_uv=False)


def same_up_to_sign(A, B, atol):
    signs = np.sign(np.sum(A * B, axis=0))
    return np.allclose(A, B * signs, rtol=0, atol=atol)


# --- small exact cases ----------------------------------------------------------------------


def test_one_dimensional_views_give_the_absolute_pearson_correlation():
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([[1.0], [3.0], [2.0], [4.0]])
    # centred: (-1.5, -.5, .5, 1.5) and (-1.5, .5, -.5, 1.5): sum xy = 4, sum x^2 = sum y^2 = 5
    res = linear_cca(x, y)
    assert res.objective == pytest.approx([0.8], abs=1e-14)
    assert abs(res.w1[0, 0]) == pytest.approx(1 / math.sqrt(5), abs=1e-14)
    assert abs(res.w2[0, 0]) == pytest.approx(1 / math.sqrt(5), abs=1e-14)
    assert res.w1[0, 0] * res.w2[0, 0] > 0  # positive correlation: same sign
    assert res.mean1 == pytest.approx([2.5]) and res.mean2 == pytest.approx([2.5])


def test_negatively_correlated_views_give_a_positive_correlation_and_opposite_signs():
    x = np.array([[0.0], [1.0], [3.0]])
    res = linear_cca(x, -2.0 * x + 7.0)
    assert res.objective == pytest.approx([1.0], abs=1e-14)
    assert res.w1[0, 0] * res.w2[0, 0] < 0


def test_orthogonal_centred_views_have_zero_correlation():
    x = np.array([[1.0], [-1.0], [1.0], [-1.0]])
    y = np.array([[1.0], [1.0], [-1.0], [-1.0]])
    assert linear_cca(x, y).objective == pytest.approx([0.0], abs=1e-15)
    K1, K2 = linear_kernel(x), linear_kernel(y)
    assert kernel_cca(K1, K2, reg=0.0).objective == pytest.approx([0.0], abs=1e-15)


def test_regularised_one_dimensional_correlation_by_hand():
    # rho = sum xy / sqrt((sum x^2 + kappa)(sum y^2 + kappa)) = 4 / (5 + 1) with kappa = 1
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([[1.0], [3.0], [2.0], [4.0]])
    assert linear_cca(x, y, reg=1.0).objective == pytest.approx([4 / 6], abs=1e-14)
    res = kernel_cca(linear_kernel(x), linear_kernel(y), reg=1.0)
    assert res.objective == pytest.approx([4 / 6], abs=1e-14)


def test_identical_views_have_all_correlations_one():
    X1, _ = two_views(0, 20, 3, 3)
    assert linear_cca(X1, X1).objective == pytest.approx(np.ones(3), abs=1e-12)


# --- linear CCA: identities -----------------------------------------------------------------


@given(seeds, st.integers(8, 40), st.integers(1, 4), st.integers(1, 4))
def test_linear_cca_matches_the_qr_formula_of_bjorck_and_golub(seed, n, d1, d2):
    assume(n > d1 + 1 and n > d2 + 1)
    X1, X2 = two_views(seed, n, d1, d2)
    res = linear_cca(X1, X2)
    expected = qr_canonical_correlations(X1, X2)[: min(d1, d2)]
    assert np.allclose(res.objective, expected, rtol=0, atol=1e-10)
    assert res.residual < 1e-12


@given(seeds, st.integers(8, 40), st.integers(1, 4), st.integers(1, 4))
def test_canonical_variates_have_pearson_correlation_rho_and_are_uncorrelated_within_a_view(
    seed, n, d1, d2
):
    assume(n > d1 + 1 and n > d2 + 1)
    X1, X2 = two_views(seed, n, d1, d2)
    res = linear_cca(X1, X2)
    S1, S2 = (X1 - res.mean1) @ res.w1, (X2 - res.mean2) @ res.w2
    k = res.objective.size
    # unit sum of squares, uncorrelated within each view, diagonal cross-products = rho
    assert np.allclose(S1.T @ S1, np.eye(k), atol=1e-10)
    assert np.allclose(S2.T @ S2, np.eye(k), atol=1e-10)
    assert np.allclose(S1.T @ S2, np.diag(res.objective), atol=1e-10)
    pearson = [np.corrcoef(S1[:, j], S2[:, j])[0, 1] for j in range(k)]
    assert np.allclose(pearson, res.objective, atol=1e-10)


@given(seeds, st.integers(10, 40), st.integers(1, 3), st.integers(1, 3))
def test_linear_cca_correlations_are_invariant_under_invertible_affine_maps(seed, n, d1, d2):
    assume(n > d1 + 1 and n > d2 + 1)
    X1, X2 = two_views(seed, n, d1, d2)
    rng = np.random.default_rng(seed + 1)
    A1 = rng.normal(size=(d1, d1)) + 3 * np.eye(d1)  # invertible, moderately conditioned
    A2 = rng.normal(size=(d2, d2)) + 3 * np.eye(d2)
    assume(np.linalg.cond(A1) < 1e3 and np.linalg.cond(A2) < 1e3)
    before = linear_cca(X1, X2).objective
    after = linear_cca(X1 @ A1 + rng.normal(size=d1), X2 @ A2 - 5.0).objective
    assert np.allclose(before, after, atol=1e-9)


@given(seeds, st.integers(4, 12), st.data())
def test_more_dimensions_than_points_make_linear_cca_trivial(seed, n, data):
    # d1 + d2 > n - 1: the column spaces of the centred views (in the (n-1)-dimensional space
    # orthogonal to the ones) meet, and correlation 1 is found on independent views.
    d1 = data.draw(st.integers(2, n - 2))
    d2 = data.draw(st.integers(n - d1, n - 2))
    X1, X2 = two_views(seed, n, d1, d2, shared=0.0)
    n_ones = int(np.sum(linear_cca(X1, X2).objective > 1 - 1e-8))
    assert n_ones >= d1 + d2 - (n - 1)


# --- kernel CCA: the exact correspondence with linear CCA -----------------------------------


@given(seeds, st.integers(6, 40), st.integers(1, 4), st.integers(1, 4), st.floats(1e-3, 50.0))
def test_linear_kernel_cca_equals_ridge_linear_cca_for_every_reg(seed, n, d1, d2, reg):
    # K^2 + reg K in the dual is C + reg I in the primal: w = X^T alpha.
    X1, X2 = two_views(seed, n, d1, d2)
    lin = linear_cca(X1, X2, reg=reg)
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=reg, n_components=lin.w1.shape[1])
    assert np.allclose(ker.objective, lin.objective, rtol=0, atol=1e-10)
    gaps = np.diff(np.concatenate([[2.0], lin.objective, [-1.0]]))
    if np.min(np.abs(gaps)) > 1e-3:  # directions are unique up to sign
        Z1, Z2 = X1 - X1.mean(axis=0), X2 - X2.mean(axis=0)
        assert same_up_to_sign(Z1.T @ ker.alpha1, lin.w1, atol=1e-7)
        assert same_up_to_sign(Z2.T @ ker.alpha2, lin.w2, atol=1e-7)


@given(seeds, st.integers(8, 40), st.integers(1, 4), st.integers(1, 4))
def test_unregularised_linear_kernel_cca_equals_linear_cca_when_n_exceeds_d(seed, n, d1, d2):
    assume(n > d1 + 1 and n > d2 + 1)
    X1, X2 = two_views(seed, n, d1, d2)
    lin = linear_cca(X1, X2)
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.0)
    assert (ker.rank1, ker.rank2) == (d1, d2)  # centred linear Gram: rank d
    assert np.allclose(ker.objective, lin.objective, rtol=0, atol=1e-9)


@given(seeds, st.integers(8, 40), st.integers(1, 4), st.integers(1, 4))
def test_tiny_reg_linear_kernel_cca_converges_to_linear_cca(seed, n, d1, d2):
    assume(n > d1 + 1 and n > d2 + 1)
    X1, X2 = two_views(seed, n, d1, d2)
    Z1, Z2 = X1 - X1.mean(axis=0), X2 - X2.mean(axis=0)
    lam_min = min(np.linalg.eigvalsh(Z1.T @ Z1)[0], np.linalg.eigvalsh(Z2.T @ Z2)[0])
    reg = 1e-9 * lam_min
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=reg)
    # |rho(reg) - rho(0)| <= reg / lam_min to first order
    assert np.allclose(ker.objective, linear_cca(X1, X2).objective, rtol=0, atol=1e-7)


@given(seeds, st.integers(5, 30), st.floats(0.3, 2.0), st.floats(1e-3, 10.0))
def test_kernel_cca_equals_ridge_linear_cca_on_the_finite_feature_maps(seed, n, sigma, reg):
    rng = np.random.default_rng(seed)
    X1, X2 = rng.normal(size=(n, 2)), rng.normal(size=(n, 3))
    K1, K2 = gaussian_kernel(X1, sigma=sigma), gaussian_kernel(X2, sigma=sigma)
    Phi1, Phi2 = finite_feature_map(center_gram(K1)), finite_feature_map(center_gram(K2))
    lin = linear_cca(Phi1, Phi2, reg=reg)
    ker = kernel_cca(K1, K2, reg=reg, tol=0.0)  # keep every positive eigenvalue, as Phi does
    k = min(ker.objective.size, lin.objective.size)
    assert np.allclose(ker.objective[:k], lin.objective[:k], rtol=0, atol=1e-9)
    assert np.all(lin.objective[k:] < 1e-6)


@given(seeds, st.integers(3, 25), st.floats(0.3, 2.0), st.floats(1e-3, 10.0))
def test_kernel_cca_solves_the_printed_pencil_with_regularised_denominators(seed, n, sigma, reg):
    # Uncentred Gaussian Gram matrices are positive definite: B is, and Cholesky whitening of
    # the full 2n x 2n pencil is an independent solver.
    X1 = separated_points(seed, n, min_dist=0.5)
    X2 = separated_points(seed + 1, n, min_dist=0.5)
    K1, K2 = gaussian_kernel(X1, sigma=sigma), gaussian_kernel(X2, sigma=sigma)
    Z = np.zeros((n, n))
    A = np.block([[Z, K1 @ K2], [K2 @ K1, Z]])
    B = np.block([[K1 @ K1 + reg * K1, Z], [Z, K2 @ K2 + reg * K2]])
    B = (B + B.T) / 2
    L = np.linalg.cholesky(B)
    eig = np.linalg.eigvalsh(np.linalg.solve(L, np.linalg.solve(L, A).T).T)[::-1]
    res = kernel_cca(K1, K2, reg=reg, center=False)
    k = res.objective.size
    assert np.allclose(res.objective, eig[:k], rtol=0, atol=1e-8)
    assert np.allclose(eig, -eig[::-1], atol=1e-8)  # eigenvalues come in pairs +-rho


# --- kernel CCA: properties -----------------------------------------------------------------


@given(seeds, st.integers(3, 30), st.floats(0.2, 3.0), st.sampled_from([0.0, 1e-4, 0.1, 10.0]))
def test_correlations_lie_in_unit_interval_and_decrease(seed, n, sigma, reg):
    rng = np.random.default_rng(seed)
    X1, X2 = rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
    res = kernel_cca(gaussian_kernel(X1, sigma=sigma), gaussian_kernel(X2, sigma=sigma), reg=reg)
    rho = res.objective
    assert np.all((rho >= 0) & (rho <= 1)) and np.all(np.diff(rho) <= 1e-12)
    assert res.residual < 1e-8
    if n > 3:
        lin = linear_cca(X1, X2, reg=reg).objective
        assert np.all((lin >= 0) & (lin <= 1)) and np.all(np.diff(lin) <= 1e-12)


@given(seeds, st.integers(3, 30), st.floats(0.3, 2.0), st.floats(1e-3, 10.0))
def test_dual_coefficients_are_normalised_and_solve_the_eigenproblem(seed, n, sigma, reg):
    rng = np.random.default_rng(seed)
    K1 = center_gram(gaussian_kernel(rng.normal(size=(n, 2)), sigma=sigma))
    K2 = center_gram(gaussian_kernel(rng.normal(size=(n, 2)), sigma=sigma))
    res = kernel_cca(K1, K2, reg=reg)
    assert res.residual < 1e-10
    # Explicit checks on the meaningful pairs, written with the variates S = K alpha: for small
    # rho the coefficients along near-null directions of K grow like 1 / (rho reg), and
    # products such as alpha^T K^2 alpha lose accuracy in that form.
    keep = res.objective > 1e-3
    a, b, rho = res.alpha1[:, keep], res.alpha2[:, keep], res.objective[keep]
    S1, S2 = K1 @ a, K2 @ b
    k = rho.size
    assert np.allclose(S1.T @ S1 + reg * a.T @ S1, np.eye(k), atol=1e-8)  # a^T (K1^2 + reg K1) a
    assert np.allclose(S2.T @ S2 + reg * b.T @ S2, np.eye(k), atol=1e-8)
    assert np.allclose(S1.T @ S2, np.diag(rho), atol=1e-8)  # a^T K1 K2 b
    assert np.allclose(K1 @ S2, (K1 @ S1 + reg * S1) * rho, atol=1e-8)
    assert np.allclose(K2 @ S1, (K2 @ S2 + reg * S2) * rho, atol=1e-8)


@given(seeds, st.integers(5, 30), st.floats(0.3, 2.0))
def test_regularisation_can_only_lower_the_first_correlation(seed, n, sigma):
    rng = np.random.default_rng(seed)
    K1 = gaussian_kernel(rng.normal(size=(n, 2)), sigma=sigma)
    K2 = gaussian_kernel(rng.normal(size=(n, 2)), sigma=sigma)
    rho = [kernel_cca(K1, K2, reg=r).objective[0] for r in (0.0, 1e-3, 1e-1, 1.0, 10.0)]
    assert np.all(np.diff(rho) <= 1e-10)


@given(seeds, st.integers(3, 12), st.floats(0.2, 0.5))
def test_unregularised_kernel_cca_gives_correlation_one_on_independent_views(seed, n, sigma):
    # Independent samples, Gaussian kernel on distinct points: K is positive definite, the
    # centred K has rank n - 1, and all n - 1 canonical correlations are 1.
    X1 = separated_points(seed, n)
    X2 = separated_points(seed + 7, n)
    K1, K2 = gaussian_kernel(X1, sigma=sigma), gaussian_kernel(X2, sigma=sigma)
    centred = kernel_cca(K1, K2, reg=0.0)
    assert (centred.rank1, centred.rank2) == (n - 1, n - 1)
    assert np.allclose(centred.objective, 1.0, atol=1e-9)
    printed = kernel_cca(K1, K2, reg=0.0, center=False)  # Valle Vidal's problem as printed
    assert printed.objective.size == n and np.allclose(printed.objective, 1.0, atol=1e-9)
    # the training variates are perfectly correlated, whatever the data
    s1, s2 = centred.alpha1[:, 0], centred.alpha2[:, 0]
    assert np.allclose(center_gram(K1) @ s1, center_gram(K2) @ s2, atol=1e-8)
    # regularisation removes the degeneracy
    assert kernel_cca(K1, K2, reg=1.0).objective[0] < 1 - 1e-3


@given(seeds, st.integers(4, 14), st.integers(1, 4), st.integers(1, 4))
def test_number_of_unit_correlations_is_at_least_r1_plus_r2_minus_n_plus_1(seed, n, d1, d2):
    rng = np.random.default_rng(seed)
    X1, X2 = rng.normal(size=(n, d1)), rng.normal(size=(n, d2))
    res = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.0)
    assert int(np.sum(res.objective > 1 - 1e-8)) >= res.rank1 + res.rank2 - (n - 1)


# --- new points -----------------------------------------------------------------------------


def test_transform_of_training_points_is_centred_gram_times_alpha():
    rng = np.random.default_rng(3)
    X1, X2 = rng.normal(size=(25, 2)), rng.normal(size=(25, 2))
    K1, K2 = gaussian_kernel(X1), gaussian_kernel(X2)
    res = kernel_cca(K1, K2, reg=0.1, n_components=2)
    assert np.allclose(kernel_cca_transform(res, K1, view=1), center_gram(K1) @ res.alpha1)
    assert np.allclose(kernel_cca_transform(res, K2, view=2), center_gram(K2) @ res.alpha2)
    raw = kernel_cca(K1, K2, reg=0.1, n_components=2, center=False)
    assert np.allclose(kernel_cca_transform(raw, K1, view=1), K1 @ raw.alpha1)
    assert np.allclose(kernel_cca_transform(raw, K2, view=2), K2 @ raw.alpha2)


@pytest.mark.parametrize("center", [True, False])
def test_transform_from_the_result_alone_is_the_formula_with_k_train(center):
    rng = np.random.default_rng(8)
    X1, X2 = rng.normal(size=(20, 2)), rng.normal(size=(20, 3))
    K1, K2 = gaussian_kernel(X1), gaussian_kernel(X2)
    res = kernel_cca(K1, K2, reg=0.1, n_components=2, center=center)
    for view, K, alpha in ((1, K1, res.alpha1), (2, K2, res.alpha2)):
        K_test = K[:7] + 0.0
        expected = (center_test_gram(K_test, K) if center else K_test) @ alpha  # the old formula
        np.testing.assert_array_equal(kernel_cca_transform(res, K_test, view), expected)


def test_transform_with_the_linear_kernel_equals_the_primal_projection():
    X1, X2 = two_views(5, 30, 3, 2)
    T1 = np.random.default_rng(6).normal(size=(7, 3))
    lin = linear_cca(X1, X2, reg=0.3)
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.3)
    scores = kernel_cca_transform(ker, linear_kernel(T1, X1), view=1)
    assert same_up_to_sign(scores, (T1 - lin.mean1) @ lin.w1, atol=1e-9)


# --- bad input ------------------------------------------------------------------------------


GOOD_X1, GOOD_X2 = two_views(0, 12, 2, 3)
GOOD_K1, GOOD_K2 = gaussian_kernel(GOOD_X1), gaussian_kernel(GOOD_X2)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"X1": [[np.nan, 1.0], [2.0, 3.0], [1.0, 0.0]]}, "X1"),
        ({"X2": np.full((12, 3), np.inf)}, "X2"),
        ({"X1": np.ones(12)}, "X1"),
        ({"X2": GOOD_X2[:10]}, "X1"),
        ({"X1": [[1.0]], "X2": [[2.0]]}, "X1"),
        ({"reg": -1.0}, "reg"),
        ({"reg": np.nan}, "reg"),
        ({"reg": np.inf}, "reg"),
        ({"reg": "0.1"}, "reg"),
        ({"n_components": 0}, "n_components"),
        ({"n_components": 3}, "n_components"),
        ({"n_components": 1.5}, "n_components"),
        ({"n_components": True}, "n_components"),
        ({"tol": -1.0}, "tol"),
        ({"X1": np.hstack([GOOD_X1, GOOD_X1[:, :1]])}, "X1"),  # dependent columns
        ({"X2": np.random.default_rng(0).normal(size=(12, 12))}, "X2"),  # n <= d
    ],
)
def test_linear_cca_rejects_bad_input(kwargs, name):
    args = {"X1": GOOD_X1, "X2": GOOD_X2, **kwargs}
    with pytest.raises(ValueError, match=name):
        linear_cca(**args)


def test_linear_cca_accepts_dependent_columns_with_reg():
    X1 = np.hstack([GOOD_X1, GOOD_X1[:, :1]])
    res = linear_cca(X1, GOOD_X2, reg=0.1)
    assert np.all(np.isfinite(res.w1)) and res.residual < 1e-12


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"K1": GOOD_K1[:, :5]}, "K1"),
        ({"K1": GOOD_K1 + np.triu(np.ones((12, 12)), 1)}, "K1"),
        ({"K2": np.where(np.eye(12) > 0, np.nan, GOOD_K2)}, "K2"),
        ({"K2": GOOD_K2[:10, :10]}, "K1"),
        ({"K1": np.ones((12, 12))}, "K1"),  # zero after centring
        ({"reg": -0.1}, "reg"),
        ({"reg": np.inf}, "reg"),
        ({"n_components": 0}, "n_components"),
        ({"n_components": 12}, "n_components"),  # centred rank is at most 11
        ({"n_components": 2.0}, "n_components"),
        ({"tol": np.nan}, "tol"),
    ],
)
def test_kernel_cca_rejects_bad_input(kwargs, name):
    args = {"K1": GOOD_K1, "K2": GOOD_K2, "reg": 0.1, **kwargs}
    with pytest.raises(ValueError, match=name):
        kernel_cca(**args)


def test_kernel_cca_warns_on_a_gram_matrix_that_is_not_psd():
    K_bad = GOOD_K1 - 2.0 * np.eye(12)
    with pytest.warns(NotPSDWarning, match="K1"):
        kernel_cca(K_bad, GOOD_K2, reg=0.1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"K_test": np.ones((3, 11))}, "K_test"),
        ({"K_test": np.full((3, 12), np.nan)}, "K_test"),
        ({"view": 0}, "view"),
        ({"view": 3}, "view"),
        ({"view": 1.0}, "view"),
        ({"view": True}, "view"),
    ],
)
def test_kernel_cca_transform_rejects_bad_input(kwargs, name):
    res = kernel_cca(GOOD_K1, GOOD_K2, reg=0.1)
    args = {"result": res, "K_test": np.ones((3, 12)), "view": 1, **kwargs}
    with pytest.raises(ValueError, match=f"^{name}"):
        kernel_cca_transform(**args)
    with pytest.raises(TypeError, match=r"^result must be of type KernelCCAResult"):
        kernel_cca_transform(res.alpha1, np.ones((3, 12)), 1)


def test_inputs_are_not_modified():
    X1, X2 = GOOD_X1.copy(), GOOD_X2.copy()
    K1, K2 = GOOD_K1.copy(), GOOD_K2.copy()
    K_test = gaussian_kernel(GOOD_X1[:4], GOOD_X1)
    K_test_copy = K_test.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        linear_cca(X1, X2, reg=0.1)
        res = kernel_cca(K1, K2, reg=0.1)
        alpha = res.alpha1.copy()
        kernel_cca_transform(res, K_test, view=1)
    assert np.array_equal(X1, GOOD_X1) and np.array_equal(X2, GOOD_X2)
    assert np.array_equal(K1, GOOD_K1) and np.array_equal(K2, GOOD_K2)
    assert np.array_equal(K_test, K_test_copy) and np.array_equal(alpha, res.alpha1)


def test_results_are_frozen():
    res = kernel_cca(GOOD_K1, GOOD_K2, reg=0.1)
    with pytest.raises(AttributeError):
        res.reg = 1.0
    with pytest.raises(AttributeError):
        linear_cca(GOOD_X1, GOOD_X2).objective = None


# --- validated once, warned once ------------------------------------------------------------


def _not_psd_warnings(call):
    """The names of the matrices reported by NotPSDWarning during ``call()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message).split()[0] for w in caught if w.category is NotPSDWarning]


@pytest.mark.parametrize("center", [True, False])
def test_kernel_cca_tests_each_gram_matrix_once_and_warns_once(psd_tests, center):
    rng = np.random.default_rng(3)
    X1, X2 = rng.normal(size=(15, 2)), rng.normal(size=(15, 2))
    K1, K2 = gaussian_kernel(X1), np.tanh(2.0 * X2 @ X2.T - 1.0)  # K2 is not PSD
    names = _not_psd_warnings(lambda: kernel_cca(K1, K2, 0.1, n_components=1, center=center))
    assert psd_tests == [15, 15] and names == ["K2"]


def test_kernel_cca_transform_runs_no_psd_test(psd_tests):
    rng = np.random.default_rng(4)
    X1, X2 = rng.normal(size=(12, 2)), rng.normal(size=(12, 2))
    K1, K2 = gaussian_kernel(X1), gaussian_kernel(X2)
    res = kernel_cca(K1, K2, 0.1, n_components=1)
    psd_tests.clear()
    names = _not_psd_warnings(lambda: kernel_cca_transform(res, K1[:3], view=1))
    assert psd_tests == [] and names == []


def test_kernel_cca_with_tol_zero_on_exactly_singular_gram_matrices():
    # Uncentred, K1 = diag(2, 1, 0, 0) and K2 = diag(1, 0, 3, 0): exactly zero eigenvalues,
    # which tol = 0 must still drop (they are not positive). The ranges share e_1 only:
    # rho_1 = sqrt(2 / (2 + reg)) sqrt(1 / (1 + reg)), rho_2 = 0 (e_2 against e_3).
    K1, K2, reg = np.diag([2.0, 1.0, 0.0, 0.0]), np.diag([1.0, 0.0, 3.0, 0.0]), 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero
        res = kernel_cca(K1, K2, reg, center=False, tol=0.0)
    assert (res.rank1, res.rank2) == (2, 2)
    np.testing.assert_allclose(
        res.objective, [math.sqrt(2 / 2.5) * math.sqrt(1 / 1.5), 0.0], atol=1e-12
    )
    assert np.all(np.isfinite(res.alpha1)) and np.all(np.isfinite(res.alpha2))


@pytest.mark.parametrize("view", [1, 2])
def test_a_singular_view_is_named_with_its_covariance(view):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    singular = np.c_[X[:, 0], 2.0 * X[:, 0]]  # linearly dependent columns
    args = (singular, X) if view == 1 else (X, singular)
    with pytest.raises(ValueError, match=rf"^X{view} gives a singular C_{view}{view}"):
        linear_cca(*args)


def test_kernel_cca_rank_is_relative_to_the_largest_eigenvalue():
    # Uncentred K1 with eigenvalues 1e4, 1, 1e-9 (and 0): 1e-9 is below tol = 1e-10 times the
    # largest (1e-6), so the rank is 2 whatever the scale of K1.
    Q, _ = np.linalg.qr(np.random.default_rng(5).normal(size=(4, 4)))
    K1 = (Q * [1e4, 1.0, 1e-9, 0.0]) @ Q.T
    K1 = (K1 + K1.T) / 2
    res = kernel_cca(K1, np.eye(4), reg=0.1, center=False)
    assert res.rank1 == 2 and res.rank2 == 4


# --- correlations beside the objective, held-out correlations, the warning of reg = 0 ----------


def _inverse_sqrt(S):
    d, U = np.linalg.eigh(S)
    return (U / np.sqrt(d)) @ U.T


def classical_cca(X1, X2, reg):
    """Canonical correlations from the covariance matrices, S11^(-1/2) S12 S22^(-1/2) (here with
    the ridge), and the correlations of the variates of its singular vectors."""
    Z1, Z2 = X1 - X1.mean(axis=0), X2 - X2.mean(axis=0)
    R1 = _inverse_sqrt(Z1.T @ Z1 + reg * np.eye(X1.shape[1]))
    R2 = _inverse_sqrt(Z2.T @ Z2 + reg * np.eye(X2.shape[1]))
    U, s, Vt = np.linalg.svd(R1 @ (Z1.T @ Z2) @ R2)
    k = min(X1.shape[1], X2.shape[1])
    A, B = Z1 @ R1 @ U[:, :k], Z2 @ R2 @ Vt[:k].T
    return s[:k], np.array([np.corrcoef(A[:, j], B[:, j])[0, 1] for j in range(k)])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("reg", [0.0, 1.0, 30.0, 1000.0])
def test_linear_kernel_cca_gives_the_objective_and_correlations_of_classical_cca(seed, reg):
    X1, X2 = two_views(seed, 60, 3, 2)
    objective, correlations = classical_cca(X1, X2, reg)
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=reg)
    lin = linear_cca(X1, X2, reg=reg)
    for res in (ker, lin):
        np.testing.assert_allclose(res.objective, objective, rtol=0, atol=1e-10)
        np.testing.assert_allclose(res.correlations, correlations, rtol=0, atol=1e-8)
    if reg == 0.0:
        np.testing.assert_allclose(ker.correlations, ker.objective, rtol=0, atol=1e-10)
    else:  # the penalty lowers the objective below the correlation it reports on
        assert np.all(ker.objective < ker.correlations)


@given(seed=seeds, reg=st.sampled_from([0.01, 1.0, 100.0]))
def test_the_objective_never_exceeds_the_training_correlation(seed, reg):
    X1, X2 = two_views(seed, 25, 2, 2)
    res = kernel_cca(gaussian_kernel(X1, sigma=1.0), gaussian_kernel(X2, sigma=1.0), reg=reg)
    assert np.all(res.objective <= res.correlations + 1e-12)
    variates1 = center_gram(gaussian_kernel(X1, sigma=1.0)) @ res.alpha1
    variates2 = center_gram(gaussian_kernel(X2, sigma=1.0)) @ res.alpha2
    by_hand = [np.corrcoef(variates1[:, k], variates2[:, k])[0, 1] for k in range(3)]
    np.testing.assert_allclose(res.correlations[:3], by_hand, rtol=0, atol=1e-8)


@pytest.mark.parametrize("center", [True, False])
def test_held_out_correlations_of_the_training_points_are_the_training_correlations(center):
    X1, X2 = two_views(3, 30, 2, 2)
    K1, K2 = gaussian_kernel(X1, sigma=1.5), gaussian_kernel(X2, sigma=1.5)
    res = kernel_cca(K1, K2, reg=0.5, center=center)
    # the variates by the test path (K_test centred with the training means) and the training
    # path (the centred Gram matrix) differ by round-off, amplified on the last pairs
    np.testing.assert_allclose(
        kernel_cca_correlations(res, K1, K2), res.correlations, rtol=0, atol=1e-8
    )


def test_held_out_correlations_of_a_linear_kernel_are_those_of_linear_cca_directions():
    X1, X2 = two_views(4, 50, 3, 2)
    T1, T2 = two_views(5, 40, 3, 2)
    lin = linear_cca(X1, X2, reg=2.0)
    ker = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=2.0)
    held_out = kernel_cca_correlations(ker, linear_kernel(T1, X1), linear_kernel(T2, X2))
    # the variates of new points: (t - training mean) @ w, with the directions of linear CCA
    A, B = (T1 - lin.mean1) @ lin.w1, (T2 - lin.mean2) @ lin.w2
    expected = [np.corrcoef(A[:, k], B[:, k])[0, 1] for k in range(2)]
    np.testing.assert_allclose(held_out, expected, rtol=0, atol=1e-8)


def test_unregularised_correlation_one_does_not_survive_held_out_points():
    rng = np.random.default_rng(8)
    Y1, Y2, T1, T2 = (rng.normal(size=(m, 2)) for m in (30, 30, 300, 300))  # independent
    K1, K2 = gaussian_kernel(Y1, sigma=0.5), gaussian_kernel(Y2, sigma=0.5)
    res = kernel_cca(K1, K2, reg=1e-3, n_components=3)
    held_out = kernel_cca_correlations(
        res, gaussian_kernel(T1, Y1, sigma=0.5), gaussian_kernel(T2, Y2, sigma=0.5)
    )
    assert np.all(res.correlations > 0.95) and np.all(np.abs(held_out) < 0.3)


def test_reg_0_warns_that_every_correlation_is_1_on_full_rank_gram_matrices():
    X1, X2 = separated_points(1, 12), separated_points(2, 12)
    K1, K2 = gaussian_kernel(X1, sigma=1.0), gaussian_kernel(X2, sigma=1.0)
    for center in (True, False):
        with pytest.warns(TrivialCorrelationWarning, match="every canonical correlation is 1"):
            res = kernel_cca(K1, K2, reg=0.0, center=center)
        assert np.allclose(res.objective, 1.0, atol=1e-9)
    assert issubclass(TrivialCorrelationWarning, UserWarning)
    assert not issubclass(TrivialCorrelationWarning, RuntimeWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel_cca(K1, K2, reg=1e-6)  # any regularisation: no warning


def test_reg_0_warns_of_the_correlations_forced_to_1_by_the_ranks():
    X1, X2 = two_views(6, 10, 5, 6)  # centred ranks 5 and 6 in dimension 9: 2 forced to 1
    with pytest.warns(TrivialCorrelationWarning, match="at least 2 canonical correlations are 1"):
        res = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.0)
    assert np.sum(res.objective > 1 - 1e-8) >= 2
    X1, X2 = two_views(6, 20, 5, 6)  # ranks 5 + 6 <= 19: nothing forced, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.0)


def test_held_out_correlations_refuse_mismatched_or_single_test_points():
    X1, X2 = two_views(7, 20, 2, 2)
    K1, K2 = linear_kernel(X1), linear_kernel(X2)
    res = kernel_cca(K1, K2, reg=0.1)
    with pytest.raises(
        ValueError, match=r"^K2_test must have 5 rows, one per test point of K1_test"
    ):
        kernel_cca_correlations(res, K1[:5], K2[:4])
    with pytest.raises(ValueError, match=r"^K1_test must have at least 2 rows"):
        kernel_cca_correlations(res, K1[:1], K2[:1])
    with pytest.raises(TypeError, match=r"^result"):
        kernel_cca_correlations(linear_cca(X1, X2), K1, K2)


# --- choosing reg: the hint of kernel_cca's docstring ---------------------------------------


@given(seeds, st.floats(1e-3, 1e3), st.floats(1e-3, 1e3), st.sampled_from([1e-3, 1e-2, 0.1, 1.0]))
def test_reg_as_a_fraction_of_the_mean_eigenvalue_does_not_depend_on_the_scales(seed, c1, c2, r):
    # dividing each view by its mean eigenvalue tr(K~_j)/n, as the docstring says, makes the
    # answer of reg = r independent of the scales c1, c2 of the kernels
    rng = np.random.default_rng(seed)
    X1, X2 = rng.normal(size=(12, 2)), rng.normal(size=(12, 2))
    K1, K2 = gaussian_kernel(X1, sigma=1.0), gaussian_kernel(X2, sigma=0.7)

    def normalised(K):
        return K / (np.trace(center_gram(K)) / len(K))

    ref = kernel_cca(normalised(K1), normalised(K2), r)
    res = kernel_cca(normalised(c1 * K1), normalised(c2 * K2), r)
    np.testing.assert_allclose(res.objective, ref.objective, atol=1e-9)
    unscaled = kernel_cca(c1 * K1, c2 * K2, r)  # the same reg on the raw scales differs
    if max(c1, c2) / min(c1, c2) > 10:
        assert np.max(np.abs(unscaled.objective - ref.objective)) > 1e-6
