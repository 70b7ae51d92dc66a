"""Tests of kernels_ref.feature_space: feature maps, distances, centring, nearest centroid."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernels_ref.feature_space import (
    center_gram,
    center_test_gram,
    distance_to_set,
    finite_feature_map,
    gaussian_distance,
    kernel_distance,
    nearest_centroid,
    nearest_centroid_predict,
    polynomial_feature_dimension,
    polynomial_feature_map,
)
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel

finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


@st.composite
def data(draw, min_n=1, max_n=10, max_d=3):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    return draw(arrays(float, (n, d), elements=finite))


@st.composite
def labelled(draw):
    X = draw(data(min_n=2))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=len(X), max_size=len(X))))
    y[0], y[1] = 1.0, -1.0
    return X, y


# --- explicit feature maps ------------------------------------------------------------------


def test_polynomial_feature_map_matches_rousseau_for_c1_degree2():
    x = np.array([[2.0, 3.0]])
    # Rousseau: (1, x1^2, x2^2, sqrt2 x1, sqrt2 x2, sqrt2 x1 x2), in another order.
    expected = [1.0, 4.0, 9.0, 2 * math.sqrt(2), 3 * math.sqrt(2), 6 * math.sqrt(2)]
    assert sorted(polynomial_feature_map(x, degree=2, c=1.0)[0]) == pytest.approx(sorted(expected))


def test_polynomial_feature_map_matches_valle_vidal_for_c0_degree2():
    x = np.array([[2.0, 3.0]])
    expected = [4.0, 9.0, 6 * math.sqrt(2)]  # (x1^2, x2^2, sqrt2 x1 x2)
    assert sorted(polynomial_feature_map(x, degree=2, c=0.0)[0]) == pytest.approx(sorted(expected))


@given(data(), st.integers(1, 4), st.floats(0.0, 3.0))
def test_polynomial_feature_map_reproduces_the_kernel(X, degree, c):
    Phi = polynomial_feature_map(X, degree=degree, c=c)
    K = polynomial_kernel(X, degree=degree, c=c)
    np.testing.assert_allclose(Phi @ Phi.T, K, rtol=1e-10, atol=1e-8 * max(1.0, np.abs(K).max()))


@given(st.integers(1, 6), st.integers(1, 5))
def test_polynomial_feature_dimension_counts_the_map_coordinates(d, degree):
    X = np.ones((1, d))
    assert polynomial_feature_map(X, degree=degree, c=0.0).shape[1] == polynomial_feature_dimension(
        d, degree, homogeneous=True
    )
    assert polynomial_feature_map(X, degree=degree, c=1.0).shape[1] == polynomial_feature_dimension(
        d, degree
    )


def test_polynomial_feature_dimension_values():
    # Valle Vidal: C(n + d - 1, d) monomials of degree d in n variables.
    assert polynomial_feature_dimension(2, 2, homogeneous=True) == 3
    assert polynomial_feature_dimension(2, 2) == 6
    assert polynomial_feature_dimension(256, 5, homogeneous=True) == math.comb(260, 5)


@given(data(max_n=8), st.floats(0.3, 3.0))
def test_finite_feature_map_reproduces_the_gram_matrix(X, sigma):
    K = gaussian_kernel(X, sigma=sigma)
    Phi = finite_feature_map(K)
    np.testing.assert_allclose(Phi @ Phi.T, K, atol=1e-10)


def test_finite_feature_map_rejects_a_matrix_that_is_not_psd():
    with pytest.raises(ValueError, match="K is not positive semi-definite"):
        finite_feature_map(np.array([[0.0, 1.0], [1.0, 0.0]]))


# --- distances ------------------------------------------------------------------------------


@given(data(min_n=3))
def test_kernel_distance_with_linear_kernel_is_euclidean(X):
    K = linear_kernel(X)
    D = kernel_distance(K, np.diag(K), np.diag(K))
    E = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(D, E, atol=1e-6)


@given(data(min_n=3), st.floats(0.3, 3.0))
def test_feature_distances_are_nonnegative_and_satisfy_the_triangle_inequality(X, sigma):
    K = polynomial_kernel(X, degree=2) + gaussian_kernel(X, sigma=sigma)
    D = kernel_distance(K, np.diag(K), np.diag(K))
    assert np.all(D >= 0)
    scale = max(1.0, D.max())
    for i, j, k in itertools.permutations(range(min(len(X), 5)), 3):
        assert D[i, k] <= D[i, j] + D[j, k] + 1e-7 * scale


@given(data(), st.floats(0.2, 3.0))
def test_gaussian_distance_closed_form_equals_kernel_distance(X, sigma):
    K = gaussian_kernel(X, sigma=sigma)
    np.testing.assert_allclose(
        gaussian_distance(X, sigma=sigma),
        kernel_distance(K, np.ones(len(X)), np.ones(len(X))),
        atol=1e-7,
    )
    assert gaussian_distance(X, sigma=sigma).max() <= math.sqrt(2)


@given(data(min_n=2), data(min_n=1))
def test_distance_to_set_with_linear_kernel_is_distance_to_the_mean(S, T):
    T = T[:, : S.shape[1]] if T.shape[1] >= S.shape[1] else np.resize(T, (len(T), S.shape[1]))
    d = distance_to_set(linear_kernel(T, S), np.einsum("ij,ij->i", T, T), linear_kernel(S))
    np.testing.assert_allclose(d, np.linalg.norm(T - S.mean(axis=0), axis=1), atol=1e-6)


@given(labelled(), st.floats(0.3, 3.0))
def test_nearest_centroid_rule_equals_comparing_the_two_distances(Xy, sigma):
    X, y = Xy
    T = X + 0.25
    K, K_test = gaussian_kernel(X, sigma=sigma), gaussian_kernel(T, X, sigma=sigma)
    ones = np.ones(len(T))
    plus, minus = y > 0, y < 0
    d_plus = distance_to_set(K_test[:, plus], ones, K[np.ix_(plus, plus)])
    d_minus = distance_to_set(K_test[:, minus], ones, K[np.ix_(minus, minus)])
    f = nearest_centroid_predict(nearest_centroid(K, y), K_test)
    np.testing.assert_allclose(f, d_minus**2 - d_plus**2, atol=1e-9)


@given(labelled(), st.floats(0.3, 3.0))
def test_nearest_centroid_decision_from_the_result_alone_is_the_formula(Xy, sigma):
    X, y = Xy
    K = gaussian_kernel(X, sigma=sigma)
    result = nearest_centroid(K, y)
    plus, minus = y > 0, y < 0
    b = K[np.ix_(minus, minus)].mean() - K[np.ix_(plus, plus)].mean()
    expected = 2.0 * K[:, plus].mean(axis=1) - 2.0 * K[:, minus].mean(axis=1) + b
    np.testing.assert_array_equal(nearest_centroid_predict(result, K), expected)


# --- centring -------------------------------------------------------------------------------


@given(data(min_n=2))
def test_centred_gram_equals_the_gram_of_centred_features(X):
    np.testing.assert_allclose(
        center_gram(linear_kernel(X)), linear_kernel(X - X.mean(axis=0)), atol=1e-9
    )


@given(data(min_n=2), st.floats(0.3, 3.0))
def test_centred_gram_is_i_minus_u_k_i_minus_u_with_zero_row_sums(X, sigma):
    K = gaussian_kernel(X, sigma=sigma)
    n = len(K)
    P = np.eye(n) - np.full((n, n), 1 / n)
    Kc = center_gram(K)
    np.testing.assert_allclose(Kc, P @ K @ P, atol=1e-12)
    np.testing.assert_allclose(Kc.sum(axis=1), 0, atol=1e-12)


@given(data(min_n=2), data(min_n=1))
def test_centred_test_gram_matches_centred_features(X, T):
    T = np.resize(T, (len(T), X.shape[1]))
    m = X.mean(axis=0)
    np.testing.assert_allclose(
        center_test_gram(linear_kernel(T, X), linear_kernel(X)), (T - m) @ (X - m).T, atol=1e-9
    )


@given(data(min_n=2), st.floats(0.3, 3.0))
def test_centred_test_gram_of_training_points_is_the_centred_gram(X, sigma):
    K = gaussian_kernel(X, sigma=sigma)
    np.testing.assert_allclose(center_test_gram(K, K), center_gram(K), atol=1e-12)


# --- bad input ------------------------------------------------------------------------------

K2 = np.eye(2)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: polynomial_feature_map([[np.nan]]), "X"),
        (lambda: polynomial_feature_map([[1.0]], degree=0), "degree"),
        (lambda: polynomial_feature_map([[1.0]], c=-1.0), "c"),
        (lambda: polynomial_feature_dimension(0, 2), "d"),
        (lambda: polynomial_feature_dimension(2, 0), "degree"),
        (lambda: finite_feature_map([[1.0, 2.0]]), "K"),
        (lambda: finite_feature_map(K2, tol=-1), "tol"),
        (lambda: kernel_distance(K2, [1.0], [1.0, 1.0]), "diag_x"),
        (lambda: kernel_distance(K2, [1.0, 1.0], [1.0]), "diag_y"),
        (lambda: kernel_distance([[np.inf, 0.0]], [1.0], [1.0, 1.0]), "K_xy"),
        (lambda: gaussian_distance([[1.0]], sigma=0), "sigma"),
        (lambda: distance_to_set(np.ones((1, 3)), [1.0], K2), "K_test"),
        (lambda: distance_to_set(np.ones((1, 2)), [1.0, 2.0], K2), "diag_test"),
        (lambda: distance_to_set(np.ones((1, 2)), [1.0], [[1.0, 0.0], [1.0, 1.0]]), "K_set"),
        (lambda: nearest_centroid(K2, [1, 1]), "y"),
        (lambda: nearest_centroid(K2, [1, 0]), "y"),
        (
            lambda: nearest_centroid_predict(nearest_centroid(K2, [1, -1]), np.ones((1, 3))),
            "K_test",
        ),
        (lambda: nearest_centroid(np.ones((2, 3)), [1, -1]), "^K "),
        (lambda: center_gram([[1.0, np.nan], [np.nan, 1.0]]), "K"),
        (lambda: center_test_gram(np.ones((1, 3)), K2), "K_test"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_inputs_are_not_modified():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6, 2))
    K, K_test = gaussian_kernel(X), gaussian_kernel(X[:2], X)
    y = np.array([1.0, -1, 1, -1, 1, -1])
    saved = [a.copy() for a in (X, K, K_test, y)]
    polynomial_feature_map(X)
    finite_feature_map(K)
    kernel_distance(K_test, np.ones(2), np.ones(6))
    distance_to_set(K_test, np.ones(2), K)
    nearest_centroid_predict(nearest_centroid(K, y), K_test)
    center_gram(K)
    center_test_gram(K_test, K)
    for a, b in zip((X, K, K_test, y), saved, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
def test_finite_feature_map_decides_psd_by_the_one_relative_rule(scale):
    # [[1, 2], [2, 1]] has eigenvalues -1 and 3 at every scale: no feature map reproduces it
    with pytest.raises(ValueError, match=r"^K is not positive semi-definite"):
        finite_feature_map(scale * np.array([[1.0, 2.0], [2.0, 1.0]]))
    # a singular PSD matrix at any scale has one
    Phi = finite_feature_map(scale * np.ones((3, 3)))
    np.testing.assert_allclose(Phi @ Phi.T, scale * np.ones((3, 3)), rtol=1e-12)


def test_finite_feature_map_at_large_scale():
    # ||x|| about 100: K has entries about 1e4 and rank 3 of 8; the negative round-off
    # eigenvalues of the null space (about 1e4 x 1e-16 x n) are set to 0, and Phi reproduces K.
    X = 100.0 * np.random.default_rng(5).normal(size=(8, 3))
    K = X @ X.T
    Phi = finite_feature_map(K)
    np.testing.assert_allclose(Phi @ Phi.T, K, rtol=0, atol=1e-9 * np.max(np.abs(K)))
    # the null directions carry only round-off: sqrt(eigenvalue) <= sqrt(1e-12 max|K|)
    assert np.sum(np.linalg.norm(Phi, axis=0) > 1e-6 * np.sqrt(np.max(np.abs(K)))) == 3
    # and a clearly negative direction at that scale is refused: K - 1e-6 max|K| I
    with pytest.raises(ValueError, match=r"^K is not positive semi-definite"):
        finite_feature_map(K - 1e-6 * np.max(np.abs(K)) * np.eye(8))
