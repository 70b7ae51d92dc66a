"""The exercises of chapters 1 to 3 (kernels_ref.exercises): Gram matrices, centring, the
squared distance to a barycentre, the perceptron in primal and dual form.

For each exercise: the reference passes; the classic mistakes, written out as a student would
write them, fail on a problem of at most five points with a message that names the mistake; a
correct implementation written differently from the reference passes.
"""

import numpy as np
import pytest

from kernels_ref import exercises


def _fails_naming(name, function, words):
    report = exercises.check(name, function)
    assert not report.passed, f"{function.__name__} passed"
    assert words in report.message, str(report)
    assert report.problem.size <= 5, str(report)


@pytest.mark.parametrize(
    "name",
    [
        "gaussian_gram",
        "center_gram",
        "squared_distance_to_barycentre",
        "perceptron_primal",
        "perceptron_dual",
    ],
)
def test_reference_passes(name):
    report = exercises.check(name, exercises.reference(name))
    assert report.passed, str(report)


# --- the Gaussian Gram matrix ------------------------------------------------------------------


def _squared_distances(X, Z):
    return ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)


def gram_without_the_2(X, Z, sigma):
    return np.exp(-_squared_distances(X, Z) / sigma**2)


def gram_sigma_not_squared(X, Z, sigma):
    return np.exp(-_squared_distances(X, Z) / (2 * sigma))


def gram_distance_not_squared(X, Z, sigma):
    return np.exp(-np.sqrt(_squared_distances(X, Z)) / (2 * sigma**2))


def gram_transposed(X, Z, sigma):
    return np.exp(-_squared_distances(Z, X) / (2 * sigma**2))


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (gram_without_the_2, "the factor 2 of 2 sigma^2 is missing"),
        (gram_sigma_not_squared, "sigma is not squared"),
        (gram_distance_not_squared, "the distance is not squared"),
        (gram_transposed, "K is the transpose"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_gaussian_gram_names_the_mistake(function, words):
    _fails_naming("gaussian_gram", function, words)


def test_gaussian_gram_by_a_double_loop_passes():
    def gaussian_gram(X, Z, sigma):
        K = np.empty((len(X), len(Z)))
        for i, x in enumerate(X):
            for j, z in enumerate(Z):
                K[i, j] = np.exp(-np.sum((x - z) ** 2) / (2 * sigma**2))
        return K

    assert exercises.check("gaussian_gram", gaussian_gram).passed


# --- the centred Gram matrix ---------------------------------------------------------------------


def center_without_the_grand_mean(K):
    return K - K.mean(axis=1)[:, None] - K.mean(axis=0)[None, :]


def center_with_the_grand_mean_subtracted(K):
    return K - K.mean(axis=1)[:, None] - K.mean(axis=0)[None, :] - K.mean()


def center_rows_only(K):
    return K - K.mean(axis=1)[:, None]


def center_by_the_grand_mean_only(K):
    return K - K.mean()


def center_without_one_over_n(K):
    H = np.eye(len(K)) - np.ones_like(K)
    return H @ K @ H


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (center_without_the_grand_mean, "the grand-mean term + (1/n^2) sum_kl K_kl is missing"),
        (center_with_the_grand_mean_subtracted, "the grand mean has the wrong sign"),
        (center_rows_only, "centred on one side only"),
        (center_by_the_grand_mean_only, "only the grand mean is subtracted"),
        (center_without_one_over_n, "the 1/n of H = I - 11^T/n is missing"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_center_gram_names_the_mistake(function, words):
    _fails_naming("center_gram", function, words)


def test_center_gram_by_the_centring_matrix_passes():
    def center_gram(K):
        n = len(K)
        H = np.eye(n) - np.ones((n, n)) / n
        return H @ K @ H

    assert exercises.check("center_gram", center_gram).passed


# --- the squared distance to a barycentre ------------------------------------------------------


def barycentre_without_its_norm(K_test, diag_test, K_set):
    return diag_test - 2 * K_test.mean(axis=1)


def barycentre_without_the_2(K_test, diag_test, K_set):
    return diag_test - K_test.mean(axis=1) + K_set.mean()


def barycentre_over_m(K_test, diag_test, K_set):
    return diag_test - 2 * K_test.mean(axis=1) + K_set.sum() / len(K_set)


def barycentre_distance(K_test, diag_test, K_set):
    return np.sqrt(np.maximum(diag_test - 2 * K_test.mean(axis=1) + K_set.mean(), 0.0))


def barycentre_transposed(K_test, diag_test, K_set):
    return diag_test - 2 * K_test.mean(axis=0) + K_set.mean()


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (barycentre_without_its_norm, "the squared norm of the barycentre, is missing"),
        (barycentre_without_the_2, "the factor 2 of the cross term is missing"),
        (barycentre_over_m, "the last term is divided by m, not by m^2"),
        (barycentre_distance, "the distance, not its square"),
        (barycentre_transposed, "K_test is read transposed"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_squared_distance_to_barycentre_names_the_mistake(function, words):
    _fails_naming("squared_distance_to_barycentre", function, words)


def test_squared_distance_as_an_rkhs_norm_passes():
    # the barycentre is sum_j c_j phi(s_j) with c_j = 1/m: |phi(t) - sum_j c_j phi(s_j)|^2
    def squared_distance_to_barycentre(K_test, diag_test, K_set):
        c = np.full(len(K_set), 1.0 / len(K_set))
        norm2 = c @ K_set @ c
        return np.array([diag_test[a] - 2 * K_test[a] @ c + norm2 for a in range(len(K_test))])

    assert exercises.check("squared_distance_to_barycentre", squared_distance_to_barycentre).passed


# --- the perceptron, primal ---------------------------------------------------------------------


def _primal(X, y, *, bias_step="R2", strict=False, b_in_test=True, passes=None):
    """The primal perceptron as a student writes it, with one of the classic mistakes."""
    w, b = np.zeros(X.shape[1]), 0.0
    R2 = max(x @ x for x in X)
    step = {"R2": R2, "unit": 1.0, None: 0.0}[bias_step]
    done, done_passes = False, 0
    while not done and done_passes != passes:
        done, done_passes = True, done_passes + 1
        for i in range(len(y)):
            f = X[i] @ w + (b if b_in_test else 0.0)
            if (y[i] * f < 0) if strict else (y[i] * f <= 0):
                w = w + y[i] * X[i]
                b = b + y[i] * step
                done = False
    return w, b


def primal_without_bias(X, y):
    return _primal(X, y, bias_step=None)


def primal_unit_bias_step(X, y):
    return _primal(X, y, bias_step="unit")


def primal_strict_test(X, y):
    return _primal(X, y, strict=True)


def primal_one_pass(X, y):
    return _primal(X, y, passes=1)


def primal_bias_out_of_the_test(X, y):
    return _primal(X, y, b_in_test=False)


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (primal_without_bias, "the bias is missing"),
        (primal_unit_bias_step, "the bias step is y_i, should be y_i R^2"),
        (primal_strict_test, "the test is y_i f(x_i) <= 0, not < 0"),
        (primal_one_pass, "after one pass"),
        (primal_bias_out_of_the_test, "b is updated but left out of the test"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_perceptron_primal_names_the_mistake(function, words):
    _fails_naming("perceptron_primal", function, words)


def test_the_textbook_primal_passes():
    assert exercises.check("perceptron_primal", _primal).passed


def test_perceptron_primal_through_its_dual_counts_passes():
    # count the mistakes alpha_i with the Gram matrix, then w = sum_i alpha_i y_i x_i
    def perceptron_primal(X, y):
        alpha, b = _dual(X @ X.T, y)
        return X.T @ (alpha * y), b

    assert exercises.check("perceptron_primal", perceptron_primal).passed


# --- the perceptron, dual -----------------------------------------------------------------------


def _dual(K, y, *, signed=False, bias_step="R2", strict=False, passes=None):
    """The dual perceptron as a student writes it, f recomputed from alpha at each point."""
    n = len(y)
    alpha, b = np.zeros(n), 0.0
    step = {"R2": np.max(np.diag(K)), "unit": 1.0, None: 0.0}[bias_step]
    done, done_passes = False, 0
    while not done and done_passes != passes:
        done, done_passes = True, done_passes + 1
        for i in range(n):
            f = (alpha if signed else alpha * y) @ K[:, i] + b
            if (y[i] * f < 0) if strict else (y[i] * f <= 0):
                alpha[i] += y[i] if signed else 1.0
                b += y[i] * step
                done = False
    return alpha, b


def dual_signed_counts(K, y):
    return _dual(K, y, signed=True)


def dual_without_bias(K, y):
    return _dual(K, y, bias_step=None)


def dual_unit_bias_step(K, y):
    return _dual(K, y, bias_step="unit")


def dual_strict_test(K, y):
    return _dual(K, y, strict=True)


def dual_one_pass(K, y):
    return _dual(K, y, passes=1)


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (dual_signed_counts, "alpha_i <- alpha_i + 1, not + y_i"),
        (dual_without_bias, "the bias is missing"),
        (dual_unit_bias_step, "the bias step is y_i, should be y_i R^2 with R^2 = max_j K[j, j]"),
        (dual_strict_test, "the test is y_i f(x_i) <= 0, not < 0"),
        (dual_one_pass, "after one pass"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_perceptron_dual_names_the_mistake(function, words):
    _fails_naming("perceptron_dual", function, words)


def test_the_textbook_dual_passes():
    assert exercises.check("perceptron_dual", _dual).passed
