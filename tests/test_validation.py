"""Tests of the shared validation helpers: one wording for every function."""

import numpy as np
import pytest

from kernels_ref import _validation as v


def test_check_labels_accepts_plus_minus_one_and_returns_floats():
    y = v.check_labels([1, -1, 1])
    assert y.dtype == float and np.array_equal(y, [1.0, -1.0, 1.0])


@pytest.mark.parametrize("y", [[0, 1], [1, 2, -1], [1, 1, 1], [-1.0, -1.0]])
def test_check_labels_rejects_other_values_and_single_class(y):
    with pytest.raises(ValueError, match=r"^y must contain"):
        v.check_labels(y)


def test_check_labels_checks_length():
    with pytest.raises(ValueError, match=r"^y must have 3 rows"):
        v.check_labels([1, -1], n=3)


def test_check_gram_rejects_non_square_and_non_symmetric():
    with pytest.raises(ValueError, match=r"^K must be square"):
        v.check_gram(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        v.check_gram([[1.0, 0.5], [0.4, 1.0]])


@pytest.mark.parametrize("value", [0.0, -1.0, np.nan, np.inf, "1", True])
def test_check_positive_rejects(value):
    with pytest.raises(ValueError, match=r"^C must"):
        v.check_positive(value, "C")


def test_check_positive_allows_inf_on_request():
    assert v.check_positive(np.inf, "C", allow_inf=True) == np.inf


def test_check_in_range_open_and_closed_ends():
    assert v.check_in_range(1.0, "nu", 0.0, 1.0, low_open=True) == 1.0
    with pytest.raises(ValueError, match=r"^nu must lie in \(0.0, 1.0\]"):
        v.check_in_range(0.0, "nu", 0.0, 1.0, low_open=True)


def test_check_integer_rejects_bool_and_float():
    for value in (True, 2.0, "3"):
        with pytest.raises(ValueError, match=r"^k must be an integer"):
            v.check_integer(value, "k")
    assert v.check_integer(np.int64(3), "k", low=1) == 3


def test_check_same_n():
    with pytest.raises(ValueError, match=r"^X and y must have the same number of rows"):
        v.check_same_n(np.ones((2, 1)), np.ones(3), "X", "y")


def test_check_gram_warns_for_a_matrix_that_is_not_psd():
    from kernels_ref.exceptions import NotPSDWarning

    with pytest.warns(NotPSDWarning, match="K1 is not positive semi-definite"):
        v.check_gram([[1.0, 2.0], [2.0, 1.0]], name="K1")


def test_check_gram_accepts_singular_psd_matrices_without_warning():
    import warnings

    from kernels_ref.kernels import gaussian_kernel

    X = np.repeat(np.random.default_rng(0).normal(size=(30, 2)), 2, axis=0)  # duplicate points
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v.check_gram(gaussian_kernel(X, sigma=3.0))
        v.check_gram(np.zeros((3, 3)))


def test_check_gram_psd_test_does_not_depend_on_units():
    import warnings

    X = np.array([[1e-160], [2e-160], [3e-160]])  # a rank-one Gram matrix of subnormal numbers
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v.check_gram(X @ X.T)
        v.check_gram(1e300 * np.ones((3, 3)))


def test_check_gram_above_the_full_test_size_still_catches_a_negative_2x2_minor():
    from kernels_ref.exceptions import NotPSDWarning

    n = v.FULL_PSD_TEST_MAX_N + 1
    K = np.eye(n)
    K[0, n - 1] = K[n - 1, 0] = 2.0  # the minor [[1, 2], [2, 1]] has determinant -3
    with pytest.warns(NotPSDWarning, match="K is not positive semi-definite"):
        v.check_gram(K)


def test_check_gram_symmetry_test_spans_several_tiles():
    K = np.eye(600)
    K[10, 590] = 1e-3
    with pytest.raises(ValueError, match="K must be symmetric"):
        v.check_gram(K)
    assert v.check_gram(np.asfortranarray(np.eye(600))).flags.c_contiguous


def test_check_nu_states_the_feasible_range():
    y = np.array([1.0] * 2 + [-1.0] * 8)
    assert v.check_nu(0.4, y) == 0.4
    with pytest.raises(ValueError, match=r"nu <= 2 min\(n\+, n-\)/n = 0.4 \(n\+ = 2, n- = 8\)"):
        v.check_nu(0.5, y)
    for bad in (0.0, 1.5, np.nan):
        with pytest.raises(ValueError, match=r"^nu must lie in \(0.0, 1.0\]"):
            v.check_nu(bad, y)
