"""Tests of kernels_ref.pca: classical PCA, kernel PCA and the projection of new points."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels_ref.exceptions import NotPSDWarning
from kernels_ref.feature_space import center_gram, center_test_gram
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel
from kernels_ref.pca import (
    KernelPCAResult,
    kernel_pca,
    kernel_pca_transform,
    linear_pca,
)

seeds = st.integers(0, 2**32 - 1)


def random_data(seed, n, d, scale=1.0):
    rng = np.random.default_rng(seed)
    # unequal scales per coordinate: well separated covariance eigenvalues
    return rng.normal(size=(n, d)) * scale * np.linspace(1.0, 3.0, d)


def gap_ok(eigenvalues, k, rel=1e-3):
    """The first k eigenvalues (decreasing) are simple: their eigenvectors are determined."""
    lam = np.sort(eigenvalues)[::-1]
    gaps = np.abs(np.diff(lam[: k + 1])) if k < lam.size else np.abs(np.diff(lam[:k]))
    return lam[0] > 0 and np.all(gaps > rel * lam[0])


def same_up_to_sign(A, B, atol):
    signs = np.where(np.sum(A * B, axis=0) < 0, -1.0, 1.0)
    return np.allclose(A, B * signs, rtol=0, atol=atol)


# --- small exact cases ----------------------------------------------------------------------


def test_linear_pca_of_a_cross_has_known_directions_and_variances():
    X = np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])
    # centred already; C = (1/4) [[12, 0], [0, 2]]
    res = linear_pca(X)
    assert res.variances == pytest.approx([3.0, 0.5], abs=1e-14)
    assert res.explained_variance_ratio == pytest.approx([3.0 / 3.5, 0.5 / 3.5], abs=1e-14)
    assert np.allclose(np.abs(res.components), np.eye(2), atol=1e-14)
    assert res.projections[:, 0] == pytest.approx([-1.0, 3.0, -1.0, -1.0], abs=1e-14)


def test_kernel_pca_of_two_points_is_half_their_feature_distance():
    # K' = (d^2/4) [[1, -1], [-1, 1]], d^2 = 2(1 - exp(-r^2 / 2 sigma^2)): one eigenvalue d^2/2,
    # projections +-d/2, alpha = e / sqrt(d^2 / 2).
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    sigma = 0.7
    d2 = 2.0 * (1.0 - math.exp(-2.0 / (2 * sigma**2)))
    res = kernel_pca(gaussian_kernel(X, sigma=sigma))
    assert res.rank == 1
    assert res.eigenvalues == pytest.approx([d2 / 2], rel=1e-14)
    assert res.explained_variance == pytest.approx([d2 / 4], rel=1e-14)
    assert res.explained_variance_ratio == pytest.approx([1.0], rel=1e-14)
    assert np.sort(res.projections[:, 0]) == pytest.approx([-math.sqrt(d2) / 2, math.sqrt(d2) / 2])
    assert np.abs(res.alphas[:, 0]) == pytest.approx([1 / math.sqrt(d2)] * 2, rel=1e-14)


def test_kernel_pca_projects_a_new_point_of_the_cross_by_hand():
    X = np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])
    res = kernel_pca(linear_kernel(X))
    Z = kernel_pca_transform(res, linear_kernel([[1.0, -3.0], [0.0, 0.0]], X))
    # directions +-e1 and +-e2, mean 0: coordinates are the coordinates, up to sign
    assert np.abs(Z) == pytest.approx(np.array([[1.0, 3.0], [0.0, 0.0]]), abs=1e-12)


# --- properties -----------------------------------------------------------------------------


@given(seeds, st.integers(4, 30), st.integers(1, 5), st.floats(-5, 5))
def test_linear_kernel_pca_equals_classical_pca_up_to_sign(seed, n, d, shift):
    X = random_data(seed, n, d) + shift
    lin = linear_pca(X)
    k = min(d, n - 1)
    assume(gap_ok(lin.variances, k))
    kp = kernel_pca(linear_kernel(X), n_components=k)
    scale = np.abs(lin.projections).max()
    assert kp.explained_variance == pytest.approx(lin.variances[:k], rel=1e-8, abs=1e-10 * scale)
    assert same_up_to_sign(kp.projections, lin.projections[:, :k], atol=1e-7 * scale)
    # the H-norm-1 component f_i = <w_i, . - mean>: alpha_i^T X_c = w_i^T
    W = (X - X.mean(axis=0)).T @ kp.alphas
    assert same_up_to_sign(W, lin.components[:, :k], atol=1e-7)


@given(seeds, st.integers(3, 25), st.floats(0.3, 3.0))
def test_components_are_orthonormal_in_feature_space(seed, n, sigma):
    X = random_data(seed, n, 2)
    K = gaussian_kernel(X, sigma=sigma)
    res = kernel_pca(K)
    Kc = center_gram(K)
    G = res.alphas.T @ Kc @ res.alphas  # <f_i, f_j>_H
    assert np.allclose(G, np.eye(res.alphas.shape[1]), atol=1e-6)


@given(seeds, st.integers(3, 25), st.floats(0.3, 3.0), st.integers(1, 3))
def test_eigenvalues_are_positive_decreasing_and_give_the_variance(seed, n, sigma, degree):
    X = random_data(seed, n, 2)
    K = gaussian_kernel(X, sigma=sigma) + polynomial_kernel(X, degree=degree)
    res = kernel_pca(K)
    lam = res.eigenvalues
    assert np.all(lam > 0) and np.all(np.diff(lam) <= 0)
    assert res.rank == lam.size <= n - 1
    # Vert's variance (1/n) sum_j f_i(x_j)^2 = lambda_i / n
    assert np.mean(res.projections**2, axis=0) == pytest.approx(lam / n, rel=1e-8)
    assert res.explained_variance == pytest.approx(lam / n, rel=1e-14)
    # all components: the ratios add up to the whole variance, tr(K')/n
    Kc = center_gram(K)
    assert res.explained_variance_ratio.sum() == pytest.approx(1.0, abs=1e-8)
    assert res.explained_variance.sum() == pytest.approx(np.trace(Kc) / n, rel=1e-8)
    # training projections are K' alpha and sqrt(lambda) e
    assert np.allclose(res.projections, Kc @ res.alphas, atol=1e-8 * np.sqrt(lam[0]))


@given(seeds, st.integers(4, 20), st.floats(0.3, 3.0))
def test_first_coefficients_maximise_the_rayleigh_quotient(seed, n, sigma):
    X = random_data(seed, n, 2)
    K = gaussian_kernel(X, sigma=sigma)
    Kc = center_gram(K)
    res = kernel_pca(K)
    a1 = res.alphas[:, 0]
    best = (a1 @ Kc @ Kc @ a1) / (n * (a1 @ Kc @ a1))
    assert best == pytest.approx(res.explained_variance[0], rel=1e-8)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        a = rng.normal(size=n)
        assert (a @ Kc @ Kc @ a) / (n * (a @ Kc @ a)) <= best * (1 + 1e-10)


@given(seeds, st.integers(3, 25), st.floats(0.3, 3.0))
def test_transform_of_the_training_points_gives_the_training_projections(seed, n, sigma):
    X = random_data(seed, n, 3)
    K = gaussian_kernel(X, sigma=sigma)
    res = kernel_pca(K)
    Z = kernel_pca_transform(res, K)
    assert np.allclose(Z, res.projections, atol=1e-7 * max(1.0, np.abs(res.projections).max()))


@given(seeds, st.integers(3, 25), st.floats(0.3, 3.0))
def test_transform_from_the_result_alone_is_the_formula_with_k_train(seed, n, sigma):
    X = random_data(seed, n, 3)
    K = gaussian_kernel(X, sigma=sigma)
    res = kernel_pca(K)
    K_test = gaussian_kernel(X + 0.1, X, sigma=sigma)
    for Z_test in (K, K_test):
        expected = center_test_gram(Z_test, K) @ res.alphas  # the formula, given K_train
        np.testing.assert_array_equal(kernel_pca_transform(res, Z_test), expected)


@given(seeds, st.integers(4, 25), st.integers(1, 4), st.integers(1, 10))
def test_transform_with_linear_kernel_projects_centred_points(seed, n, d, m):
    X = random_data(seed, n, d)
    T = np.random.default_rng(seed + 1).normal(size=(m, d))
    lin = linear_pca(X)
    k = min(d, n - 1)
    assume(gap_ok(lin.variances, k))
    res = kernel_pca(linear_kernel(X), n_components=k)
    Z = kernel_pca_transform(res, linear_kernel(T, X))
    expected = (T - lin.mean) @ lin.components[:, :k]
    signs = np.where(np.sum(res.projections * lin.projections[:, :k], axis=0) < 0, -1.0, 1.0)
    assert np.allclose(Z, expected * signs, atol=1e-7 * max(1.0, np.abs(expected).max()))


@given(seeds, st.integers(4, 20), st.floats(0.3, 3.0))
def test_kernel_pca_is_invariant_under_translation_in_feature_space(seed, n, d_shift):
    # the linear kernel of X + c has the same centred Gram matrix as that of X
    X = random_data(seed, n, 2)
    a = kernel_pca(linear_kernel(X))
    b = kernel_pca(linear_kernel(X + d_shift))
    assert a.eigenvalues == pytest.approx(b.eigenvalues, rel=1e-8)
    assert same_up_to_sign(a.projections, b.projections, atol=1e-7 * np.abs(a.projections).max())


@given(seeds, st.integers(3, 20), st.floats(0.3, 3.0))
def test_largest_projection_of_each_component_is_positive(seed, n, sigma):
    res = kernel_pca(gaussian_kernel(random_data(seed, n, 2), sigma=sigma))
    P = res.projections
    assert np.all(P.max(axis=0) >= np.abs(P).max(axis=0) * (1 - 1e-8))
    lin = linear_pca(random_data(seed, n, 3))
    Q = lin.projections
    assert np.all(Q.max(axis=0) >= np.abs(Q).max(axis=0) * (1 - 1e-8))


@pytest.mark.parametrize("shift", [0.0, 1e-13, -1e-13])
def test_sign_of_a_component_with_tied_projections_is_the_same_under_round_off(shift):
    # The first component of these points is the x-axis, with training projections exactly
    # (-1, 3, -1, -1)... until the last point mirrors the second: then +3 and -3 tie and the
    # first of them (row 1) is positive, whichever is larger by round-off.
    X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, -1.0], [0.0, 1.0], [-3.0 + shift, 0.0]])
    for P in (kernel_pca(linear_kernel(X)).projections, linear_pca(X).projections):
        assert P[1, 0] > 0 and P[4, 0] < 0
        assert P[1, 0] == pytest.approx(-P[4, 0], rel=1e-12)


# --- rank: zero eigenvalues are never divided by ---------------------------------------------


def test_rank_of_linear_kernel_is_the_dimension_and_more_components_are_refused():
    X = random_data(0, 10, 2)
    K = linear_kernel(X)
    res = kernel_pca(K)
    assert res.rank == 2 and res.alphas.shape == (10, 2)
    with pytest.raises(ValueError, match=r"n_components = 3 exceeds the numerical rank 2"):
        kernel_pca(K, n_components=3)


def test_centred_gram_matrix_has_rank_at_most_n_minus_1():
    X = random_data(1, 8, 2)
    K = gaussian_kernel(X, sigma=1.0)
    assert kernel_pca(K).rank == 7  # distinct points: K is definite, K' loses the constant
    with pytest.raises(ValueError, match="n_components = 8 exceeds the numerical rank 7"):
        kernel_pca(K, n_components=8)


def test_duplicate_points_lower_the_rank():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    res = kernel_pca(gaussian_kernel(X, sigma=1.0))
    assert res.rank == 2  # three distinct images
    assert np.all(np.isfinite(res.alphas))


def test_identical_points_have_no_component():
    with pytest.raises(ValueError, match=r"^K has a zero centred Gram matrix"):
        kernel_pca(gaussian_kernel(np.ones((4, 2))))


def test_round_off_negative_eigenvalues_give_no_component():
    # rank-1 Gram matrix: centred, its other eigenvalues are zero up to round-off (either sign)
    x = np.linspace(-1.0, 1.0, 7)[:, None]
    res = kernel_pca(linear_kernel(x))
    assert res.rank == 1 and np.all(np.isfinite(res.alphas))
    assert res.explained_variance_ratio == pytest.approx([1.0])


def centred_gram_with_spectrum(eigenvalues):
    """A Gram matrix K whose centred matrix has exactly these nonzero eigenvalues (and 0 on
    the constant vector and the rest): K = U diag(eigenvalues) U^T with U orthonormal and
    orthogonal to 1, so that K' = K."""
    n = len(eigenvalues) + 2
    Q, _ = np.linalg.qr(np.c_[np.ones(n), np.random.default_rng(0).normal(size=(n, n - 1))])
    U = Q[:, 1 : len(eigenvalues) + 1]
    return (U * eigenvalues) @ U.T


def test_tol_separates_small_eigenvalues_from_round_off():
    # Centred spectrum 1, 0.5, 1e-11 and two exact zeros (computed as round-off, ~1e-16, of
    # either sign): the default tol 1e-10 keeps 2 components; tol 1e-13 keeps the eigenvalue
    # 1e-11 too (100x above it) and no round-off (1000x below it).
    K = centred_gram_with_spectrum([1.0, 0.5, 1e-11])
    assert kernel_pca(K).rank == 2
    res = kernel_pca(K, tol=1e-13)
    assert res.rank == 3 and res.eigenvalues[2] == pytest.approx(1e-11, rel=1e-4)


def test_tol_zero_keeps_every_eigenvalue_of_the_spectrum():
    K = centred_gram_with_spectrum([1.0, 0.5, 1e-11])
    assert kernel_pca(K, tol=0.0).rank in (3, 4, 5)  # 3 + the round-off ones that are > 0
    assert kernel_pca(K, tol=0.0, n_components=3).eigenvalues == pytest.approx(
        [1.0, 0.5, 1e-11], rel=1e-4
    )


def test_not_psd_matrix_warns_and_keeps_only_positive_eigenvalues():
    K = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.warns(NotPSDWarning, match="K is not positive semi-definite"):
        res = kernel_pca(K)
    assert np.all(res.eigenvalues > 0)


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "K, match",
    [
        (np.array([[1.0, np.nan], [np.nan, 1.0]]), "K contains NaN"),
        (np.array([[1.0, np.inf], [np.inf, 1.0]]), "K contains NaN"),
        (np.ones((2, 3)), "K must be square"),
        (np.array([[1.0, 0.5], [0.0, 1.0]]), "K must be symmetric"),
        (np.ones(3), "K must be 2-dimensional"),
    ],
)
def test_kernel_pca_rejects_bad_gram_matrices(K, match):
    with pytest.raises(ValueError, match=match):
        kernel_pca(K)


@pytest.mark.parametrize("n_components", [0, -1, 6, 2.0, "2", True])
def test_kernel_pca_rejects_n_components_out_of_range(n_components):
    K = gaussian_kernel(random_data(3, 5, 2))
    with pytest.raises(ValueError, match="n_components"):
        kernel_pca(K, n_components=n_components)


@pytest.mark.parametrize("tol", [-1e-3, np.nan, np.inf, "a"])
def test_kernel_pca_rejects_bad_tol(tol):
    with pytest.raises(ValueError, match="tol"):
        kernel_pca(gaussian_kernel(random_data(3, 5, 2)), tol=tol)


def test_transform_rejects_bad_input():
    X = random_data(4, 6, 2)
    K = gaussian_kernel(X)
    res = kernel_pca(K)
    K_test = gaussian_kernel(X[:2] + 0.1, X)
    with pytest.raises(TypeError, match=r"^result must be of type KernelPCAResult .*got ndarray"):
        kernel_pca_transform(res.alphas, K_test)
    with pytest.raises(ValueError, match=r"^K_test"):
        kernel_pca_transform(res, K_test[:, :5])
    with pytest.raises(ValueError, match=r"^K_test contains NaN"):
        kernel_pca_transform(res, np.where(K_test > 0.5, np.nan, K_test))


@pytest.mark.parametrize(
    "X, n_components, match",
    [
        (np.array([[1.0, np.nan], [0.0, 1.0]]), None, "X contains NaN"),
        (np.ones(4), None, "X must be 2-dimensional"),
        (np.ones((4, 2)), 3, "n_components"),
        (np.ones((4, 2)), 0, "n_components"),
    ],
)
def test_linear_pca_rejects_bad_input(X, n_components, match):
    with pytest.raises(ValueError, match=match):
        linear_pca(X, n_components=n_components)


def test_inputs_are_not_modified():
    X = random_data(5, 8, 2)
    K = gaussian_kernel(X)
    K_test = gaussian_kernel(X[:3] + 0.2, X)
    copies = X.copy(), K.copy(), K_test.copy()
    res = kernel_pca(K, n_components=3)
    kernel_pca_transform(res, K_test)
    linear_pca(X, n_components=1)
    for original, copy in zip((X, K, K_test), copies, strict=True):
        assert np.array_equal(original, copy)


def test_result_is_a_frozen_dataclass():
    res = kernel_pca(gaussian_kernel(random_data(6, 5, 2)))
    assert isinstance(res, KernelPCAResult)
    with pytest.raises(AttributeError):
        res.rank = 0


# --- validated once, warned once ------------------------------------------------------------


def _not_psd_warnings(call):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    return out, [str(w.message).split()[0] for w in caught if w.category is NotPSDWarning]


def test_kernel_pca_warns_once_and_tests_psd_once(psd_tests):
    X = random_data(0, 12, 2)
    K = np.tanh(2.0 * X @ X.T - 1.0)  # a sigmoid "kernel": not PSD
    res, names = _not_psd_warnings(lambda: kernel_pca(K, n_components=1))
    assert names == ["K"] and psd_tests == [12]
    psd_tests.clear()
    _, names = _not_psd_warnings(lambda: kernel_pca_transform(res, K[:3]))
    assert names == [] and psd_tests == []  # the result holds the column means of K


def test_variance_ratios_sum_to_one_whatever_the_scale_and_are_zero_without_variance():
    X = 1e-3 * np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])  # trace C < 1
    assert linear_pca(X).explained_variance_ratio.sum() == pytest.approx(1.0, rel=1e-12)
    ratio = linear_pca(np.ones((4, 2))).explained_variance_ratio  # trace C = 0
    np.testing.assert_array_equal(ratio, [0.0, 0.0])
