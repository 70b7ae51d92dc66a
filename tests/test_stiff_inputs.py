"""Every learner on the Gram matrices students build without scaling: no RuntimeWarning.

Unscaled polynomial kernels (entries up to 1e6 and more), low-rank linear kernels, narrow and
wide Gaussians, and C up to 1e6. Any RuntimeWarning (a division by zero, an invalid value, an
overflow) is an error here; a ConvergenceWarning or NotPSDWarning that states a fact about
the problem is allowed.
"""

import warnings

import numpy as np
import pytest

from kernels_ref.cca import kernel_cca
from kernels_ref.clustering import kernel_kmeans
from kernels_ref.kernels import gaussian_kernel, polynomial_kernel
from kernels_ref.pca import kernel_pca
from kernels_ref.perceptron import perceptron_dual
from kernels_ref.ridge import kernel_ridge
from kernels_ref.svm import lambda_svm, nu_svm, soft_margin_l1, soft_margin_l2
from kernels_ref.svr import svr

N = 60


def stiff_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((N, 4))
    y = np.sign(X[:, 0] * X[:, 1])
    y[y == 0] = 1.0
    y[:2] = [1.0, -1.0]
    return 3.0 * (X - X.mean(0)) / X.std(0), y


GRAMS = {
    "cubic, data x3": lambda X: polynomial_kernel(X, degree=3, c=1.0),
    "quadratic": lambda X: polynomial_kernel(X, degree=2, c=1.0),
    "linear, rank 2": lambda X: X[:, :2] @ X[:, :2].T,
    "gaussian 0.3": lambda X: gaussian_kernel(X, sigma=0.3),
    "gaussian 30": lambda X: gaussian_kernel(X, sigma=30.0),
}

LEARNERS = {
    "soft_margin_l1": lambda K, y, C: soft_margin_l1(K, y, C),
    "soft_margin_l2": lambda K, y, C: soft_margin_l2(K, y, C),
    "lambda_svm": lambda K, y, C: lambda_svm(K, y, 1.0 / (2.0 * C * len(y))),
    "nu_svm": lambda K, y, C: nu_svm(K, y, min(0.9, 10.0 / C)),
    "svr": lambda K, y, C: svr(K, y * np.arange(len(y)) / len(y), C, 0.01),
    "kernel_ridge": lambda K, y, C: kernel_ridge(K, y, 1.0 / C),
    "kernel_pca": lambda K, y, C: kernel_pca(K, n_components=2),
    "kernel_cca": lambda K, y, C: kernel_cca(K, K[::-1, ::-1].copy(), reg=1.0 / C),
    "kernel_kmeans": lambda K, y, C: kernel_kmeans(K, 2, seed=0),
    "perceptron_dual": lambda K, y, C: perceptron_dual(K, y, max_epochs=20),
}


@pytest.mark.parametrize("C", [1.0, 1e3, 1e6])
@pytest.mark.parametrize("gram", GRAMS)
@pytest.mark.parametrize("learner", LEARNERS)
def test_no_learner_emits_a_runtime_warning_on_stiff_gram_matrices(learner, gram, C):
    X, y = stiff_data()
    K = GRAMS[gram](X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the facts: ConvergenceWarning, NotPSDWarning
        warnings.simplefilter("error", RuntimeWarning)
        LEARNERS[learner](K, y, C)
