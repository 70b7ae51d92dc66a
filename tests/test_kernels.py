"""Tests of kernels_ref.kernels: closed forms, symmetry, PSD, and the course's double loop."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernels_ref.exceptions import NotPSDWarning
from kernels_ref.kernels import (
    gaussian_kernel,
    gram_loop,
    is_psd,
    linear_kernel,
    min_eigenvalue,
    polynomial_kernel,
    sigma_from_rousseau,
    sigma_to_rousseau,
    sigmoid_kernel,
    spectrum_kernel,
)

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def data(draw, max_n=12, max_d=4):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    return draw(arrays(float, (n, d), elements=finite))


PSD_KERNELS = [
    lambda X, Y=None: linear_kernel(X, Y),
    lambda X, Y=None: polynomial_kernel(X, Y, degree=3, c=1.0),
    lambda X, Y=None: gaussian_kernel(X, Y, sigma=1.5),
]


# --- exact small cases ----------------------------------------------------------------------


def test_linear_kernel_is_inner_product():
    X = np.array([[1.0, 2.0], [0.0, -1.0]])
    Y = np.array([[3.0, 4.0]])
    assert np.array_equal(linear_kernel(X, Y), [[11.0], [-4.0]])


def test_polynomial_kernel_small_case():
    # (1 + <(1,2),(3,4)>)^2 = 12^2 ; homogeneous: 11^3
    assert polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=2, c=1.0)[0, 0] == 144.0
    assert polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=3, c=0.0)[0, 0] == 1331.0


@pytest.mark.parametrize("degree", [0.5, 1.5, 2.0, np.float64(3.0), 2 + 0j])
def test_polynomial_kernel_rejects_a_degree_that_is_not_an_integer(degree):
    # Rousseau's "d > 0" admits these; the kernel needs an integer degree (chapter 1 erratum).
    with pytest.raises(ValueError, match=r"^degree must be an integer"):
        polynomial_kernel([[1.0, 2.0]], degree=degree)


def test_polynomial_kernel_accepts_a_numpy_integer_degree():
    X = [[1.0, 2.0], [0.5, -1.0]]
    # (1 + <x, y>)^3 by hand: <x1,x1> = 5, <x1,x2> = -1.5, <x2,x2> = 1.25
    expected = [[216.0, -0.125], [-0.125, 2.25**3]]
    assert np.array_equal(polynomial_kernel(X, degree=np.int64(3)), expected)
    assert np.array_equal(polynomial_kernel(X, degree=3), expected)


def test_fractional_power_of_positive_bases_is_not_psd_but_integer_degrees_are():
    # Why the degree must be an integer: c = 1, d = 1/2 at the points 0, 2, 3 of R, where
    # every base 1 + x_i x_j is >= 1; det by hand, expanding along the first row.
    base = np.array([[1.0, 1.0, 1.0], [1.0, 5.0, 7.0], [1.0, 7.0, 10.0]])
    det_by_hand = 5 * math.sqrt(2) - 7 - math.sqrt(10) + 2 * math.sqrt(7) - math.sqrt(5)
    assert det_by_hand < -0.035
    assert np.linalg.det(np.sqrt(base)) == pytest.approx(det_by_hand, abs=1e-12)
    assert not is_psd(np.sqrt(base))
    pts = [[0.0], [2.0], [3.0]]
    assert np.array_equal(polynomial_kernel(pts, degree=1), base)
    for degree in (1, 2, 3, 4):
        K = polynomial_kernel(pts, degree=degree)
        assert np.array_equal(K, base**degree)  # small integers: exact
        assert is_psd(K)


def test_gaussian_kernel_small_case():
    # ||(0,0) - (3,4)||^2 = 25, sigma = 5: exp(-25 / 50)
    K = gaussian_kernel([[0.0, 0.0]], [[3.0, 4.0]], sigma=5.0)
    assert K[0, 0] == pytest.approx(np.exp(-0.5), rel=1e-15)


def test_sigmoid_kernel_small_case():
    K = sigmoid_kernel([[1.0, 2.0]], [[3.0, 4.0]], gamma=0.1, c=-1.0)
    assert K[0, 0] == pytest.approx(np.tanh(0.1), rel=1e-15)


def test_gaussian_kernel_far_points_underflow_to_zero_not_nan():
    K = gaussian_kernel([[0.0]], [[1e3]], sigma=1.0)
    assert K[0, 0] == 0.0


# --- identities and invariants --------------------------------------------------------------


@given(data(), st.floats(0.1, 10.0))
def test_gaussian_kernel_matches_definition(X, sigma):
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(
        gaussian_kernel(X, sigma=sigma), np.exp(-D2 / (2 * sigma**2)), rtol=0, atol=1e-12
    )


@given(data(max_n=300, max_d=3), st.floats(0.1, 10.0))
def test_gaussian_gram_is_exactly_symmetric_with_unit_diagonal(X, sigma):
    # More rows than one block, so that the mirroring of the upper block triangle is exercised.
    K = gaussian_kernel(X, sigma=sigma)
    assert np.array_equal(K, K.T)
    assert np.all(np.diag(K) == 1.0)
    assert np.all((K >= 0) & (K <= 1))


@given(data(max_n=300, max_d=3), st.floats(0.5, 5.0))
def test_gaussian_kernel_with_y_equal_x_matches_symmetric_path(X, sigma):
    np.testing.assert_allclose(
        gaussian_kernel(X, X.copy(), sigma=sigma), gaussian_kernel(X, sigma=sigma), atol=1e-12
    )


@pytest.mark.parametrize("kernel", PSD_KERNELS)
@given(X=data())
def test_gram_of_positive_definite_kernel_is_symmetric_psd(kernel, X):
    K = kernel(X)
    assert np.array_equal(K, K.T)
    assert is_psd(K, tol=1e-9)


@given(data(max_n=6, max_d=3), st.integers(1, 4), st.floats(0.0, 3.0))
def test_vectorised_kernels_equal_the_double_loop(X, degree, c):
    def poly(x, y):
        return (c + x @ y) ** degree

    np.testing.assert_allclose(
        polynomial_kernel(X, degree=degree, c=c), gram_loop(poly, X), rtol=1e-12, atol=1e-9
    )
    np.testing.assert_allclose(linear_kernel(X), gram_loop(np.dot, X), rtol=1e-12, atol=1e-12)


def test_sigmoid_gram_is_not_psd_in_general():
    X = np.array([[1.0], [2.0]])
    # tanh(x y) on {1, 2}: [[tanh 1, tanh 2], [tanh 2, tanh 4]] has determinant < 0.
    K = sigmoid_kernel(X, gamma=1.0, c=0.0)
    assert np.linalg.det(K) < 0
    assert min_eigenvalue(K) < 0
    assert not is_psd(K)


def test_min_eigenvalue_of_diagonal_matrix():
    assert min_eigenvalue(np.diag([3.0, -2.0, 5.0])) == -2.0


def test_is_psd_tolerates_round_off_only():
    assert is_psd(np.diag([1.0, -1e-13]))
    assert not is_psd(np.diag([1.0, -1e-6]))


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: linear_kernel([[np.nan, 1.0]]), "X"),
        (lambda: linear_kernel([[np.inf, 1.0]]), "X"),
        (lambda: linear_kernel([1.0, 2.0]), "X"),
        (lambda: linear_kernel([[1.0, 2.0]], [[1.0, 2.0, 3.0]]), "Y"),
        (lambda: linear_kernel(np.empty((0, 2))), "X"),
        (lambda: polynomial_kernel([[1.0]], degree=0), "degree"),
        (lambda: polynomial_kernel([[1.0]], degree=1.5), "degree"),
        (lambda: polynomial_kernel([[1.0]], c=-1.0), "c"),
        (lambda: gaussian_kernel([[1.0]], sigma=0.0), "sigma"),
        (lambda: gaussian_kernel([[1.0]], sigma=-1.0), "sigma"),
        (lambda: gaussian_kernel([[1.0]], sigma=np.nan), "sigma"),
        (lambda: gaussian_kernel([[1.0]], [[np.nan]]), "Y"),
        (lambda: sigmoid_kernel([[1.0]], gamma=np.inf), "gamma"),
        (lambda: sigmoid_kernel([[1.0]], c="a"), "c"),
        (lambda: gram_loop("not callable", [[1.0]]), "k"),
        (lambda: min_eigenvalue([[1.0, 2.0]]), "K"),
        (lambda: min_eigenvalue([[1.0, 2.0], [0.0, 1.0]]), "K"),
        (lambda: is_psd(np.eye(2), tol=-1.0), "tol"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_inputs_are_not_modified():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(200, 3)), rng.normal(size=(5, 3))
    X0, Y0 = X.copy(), Y.copy()
    for kernel in (linear_kernel, polynomial_kernel, gaussian_kernel, sigmoid_kernel):
        kernel(X)
        kernel(X, Y)
    assert np.array_equal(X, X0) and np.array_equal(Y, Y0)


def test_not_psd_gram_warns_where_a_learner_checks_it():
    from kernels_ref.feature_space import center_gram

    with pytest.warns(NotPSDWarning, match="K"):
        center_gram(np.diag([1.0, -1.0]))


@given(data(max_n=8), st.floats(0.05, 2.0), st.floats(-1e6, 1e6))
def test_gaussian_kernel_is_translation_invariant_to_round_off(X, sigma, shift):
    # The expansion of ||x - y||^2 cancels badly far from the origin unless the points are
    # centred first: a translated data set must give the same Gram matrix.
    np.testing.assert_allclose(
        gaussian_kernel(X + shift, sigma=sigma), gaussian_kernel(X, sigma=sigma), atol=1e-12
    )


@pytest.mark.parametrize("sigma", [0.5, 2.0])
def test_rectangular_gaussian_gram_matrix_entry_by_entry(sigma):
    # X and Y of different sizes (3 and 5 points): K[i, j] = k(x_i, y_j), not its transpose
    X = np.array([[0.0, 0.0], [1.0, 2.0], [-1.0, 0.5]])
    Y = np.array([[0.0, 1.0], [2.0, 2.0], [1.0, -1.0], [0.5, 0.5], [3.0, 0.0]])
    K = gaussian_kernel(X, Y, sigma=sigma)
    assert K.shape == (3, 5)
    for i, x in enumerate(X):
        for j, y in enumerate(Y):
            d2 = (x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2
            assert K[i, j] == pytest.approx(np.exp(-d2 / (2 * sigma**2)), rel=1e-13)
    # more than one block of rows (the block is 128 rows)
    Xb = np.repeat(X, 50, axis=0)
    np.testing.assert_allclose(gaussian_kernel(Xb, Y, sigma=sigma), np.repeat(K, 50, axis=0))


def test_default_parameters_are_the_specified_ones():
    # SPEC: polynomial_kernel(X, Y=None, degree=2, c=1.0), sigmoid_kernel(..., gamma=1.0, c=0.0)
    X = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.0]])
    G = X @ X.T
    np.testing.assert_allclose(polynomial_kernel(X), (1.0 + G) ** 2, rtol=1e-14)
    np.testing.assert_allclose(sigmoid_kernel(X), np.tanh(G), rtol=1e-14)


# --- Rousseau's bandwidth --------------------------------------------------------------------


def rousseau_gaussian(X, Y, sigma_r):
    """Rousseau's Gaussian kernel exp(-||x - y||^2 / sigma_R^2), entry by entry."""
    K = np.empty((len(X), len(Y)))
    for i, x in enumerate(np.asarray(X, dtype=float)):
        for j, y in enumerate(np.asarray(Y, dtype=float)):
            K[i, j] = math.exp(-float(np.sum((x - y) ** 2)) / sigma_r**2)
    return K


def test_rousseau_sigma_conversions_by_hand():
    # sigma_R = sqrt(2) sigma: sigma = 1 <-> sigma_R = sqrt(2); sigma_R = 2 <-> sigma = sqrt(2)
    assert sigma_to_rousseau(1.0) == pytest.approx(math.sqrt(2.0), rel=1e-15)
    assert sigma_from_rousseau(math.sqrt(2.0)) == pytest.approx(1.0, rel=1e-15)
    assert sigma_from_rousseau(2.0) == pytest.approx(math.sqrt(2.0), rel=1e-15)
    # one point at squared distance 2 from the other: Rousseau's exp(-2 / 2^2) = exp(-1/2)
    K = gaussian_kernel([[0.0, 0.0]], [[1.0, 1.0]], sigma=sigma_from_rousseau(2.0))
    assert K[0, 0] == pytest.approx(math.exp(-0.5), rel=1e-14)


@st.composite
def two_sets(draw, max_n=8, max_d=4):
    """Two sets of points of the same dimension."""
    d = draw(st.integers(1, max_d))
    n, m = draw(st.integers(1, max_n)), draw(st.integers(1, max_n))
    return draw(arrays(float, (n, d), elements=finite)), draw(
        arrays(float, (m, d), elements=finite)
    )


@given(two_sets(), st.floats(0.3, 5.0))
def test_gaussian_kernel_at_converted_sigma_is_rousseaus_kernel(XY, sigma_r):
    X, Y = XY
    K = gaussian_kernel(X, Y, sigma=sigma_from_rousseau(sigma_r))
    np.testing.assert_allclose(K, rousseau_gaussian(X, Y, sigma_r), rtol=1e-9, atol=1e-12)


@given(data(), st.floats(0.2, 4.0))
def test_rousseaus_kernel_at_converted_sigma_is_gaussian_kernel(X, sigma):
    K = gaussian_kernel(X, sigma=sigma)
    np.testing.assert_allclose(
        rousseau_gaussian(X, X, sigma_to_rousseau(sigma)), K, rtol=1e-9, atol=1e-12
    )


@given(st.floats(1e-3, 1e3))
def test_rousseau_sigma_conversions_are_inverse(sigma):
    assert sigma_from_rousseau(sigma_to_rousseau(sigma)) == pytest.approx(sigma, rel=1e-15)


@pytest.mark.parametrize("func", [sigma_from_rousseau, sigma_to_rousseau])
@pytest.mark.parametrize("bad", [0.0, -1.0, np.nan, np.inf, "1", 1j, True, None])
def test_rousseau_sigma_conversions_reject_a_bad_sigma(func, bad):
    with pytest.raises((ValueError, TypeError), match=r"^sigma"):
        func(bad)


# --- the spectrum kernel of strings ----------------------------------------------------------


def test_spectrum_kernel_counts_pairs_of_equal_substrings_by_hand():
    # "abcab": ab, bc, ca, ab; "cabx": ca, ab, bx -> ab 2x1 + ca 1x1 = 3
    K = spectrum_kernel(["abcab", "cabx"], k=2)
    np.testing.assert_array_equal(K, [[6.0, 3.0], [3.0, 3.0]])
    # k = 1 counts letters: <(a:2, b:2, c:1), (x:1, y:1)> = 0
    np.testing.assert_array_equal(spectrum_kernel(["abcab"], ["xy"], k=1), [[0.0]])
    # a string shorter than k has a zero row
    np.testing.assert_array_equal(spectrum_kernel(["ab", "abc"], k=3), [[0.0, 0.0], [0.0, 1.0]])


@given(
    st.lists(st.text(alphabet="ACGU", max_size=12), min_size=1, max_size=8),
    st.integers(1, 4),
)
def test_spectrum_kernel_is_a_gram_matrix_of_brute_force_counts(strings, k):
    # the definition, counted over all 4**k words: an independent inner product of counts
    import itertools

    words = ["".join(u) for u in itertools.product("ACGU", repeat=k)]

    def count(s, u):
        return sum(s[i : i + k] == u for i in range(len(s) - k + 1))

    Phi = np.array([[count(s, u) for u in words] for s in strings], dtype=float)
    K = spectrum_kernel(strings, k=k)
    np.testing.assert_array_equal(K, Phi @ Phi.T)
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * max(1.0, np.abs(K).max())


def test_spectrum_kernel_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^S must be a list or tuple of strings"):
        spectrum_kernel("ACGU")
    with pytest.raises(ValueError, match=r"^S must contain at least one"):
        spectrum_kernel([])
    with pytest.raises(ValueError, match=r"^T must contain only strings"):
        spectrum_kernel(["AC"], ["AC", 3])
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(ValueError, match=r"^k must"):
            spectrum_kernel(["ACGU"], k=bad)


def test_spectrum_kernel_leaves_its_input_alone():
    S = ["ACGU", "CGUA"]
    spectrum_kernel(S, k=2)
    assert S == ["ACGU", "CGUA"]
