"""The exercises of chapters 11 to 13: kernel PCA's projections, kernel CCA's first canonical
correlation, one assignment step of kernel k-means.

For each: the reference passes; classic mistakes, written out as a student would, fail on a
problem of at most five points with a message naming the mistake; and a correct
implementation written differently from the reference (another factorisation, another
formula, another rule for ties) passes.
"""

import numpy as np
import pytest

from kernels_ref import exercises

NAMES = ("kernel_pca", "kernel_cca", "kernel_kmeans_step")


@pytest.mark.parametrize("name", NAMES)
def test_reference_passes(name):
    report = exercises.check(name, exercises.reference(name))
    assert report.passed, str(report)


def _fails_with(name, function, words):
    report = exercises.check(name, function)
    assert not report.passed
    assert words in report.message, str(report)
    assert report.problem.size <= 5, str(report)
    return report


# --- kernel PCA ----------------------------------------------------------------------------------


def _centred(K):
    n = len(K)
    H = np.eye(n) - np.full((n, n), 1.0 / n)
    return H @ K @ H


def _leading(A, k):
    """The k leading eigenpairs of the symmetric A, decreasing."""
    lam, E = np.linalg.eigh(A)
    return lam[::-1][:k], E[:, ::-1][:, :k]


def _pca_not_centred(K, n_components):
    lam, E = _leading(K, n_components)
    return E * np.sqrt(lam)


def _pca_grand_mean(K, n_components):  # "centred" by subtracting the mean entry
    lam, E = _leading(K - K.mean(), n_components)
    return E * np.sqrt(np.abs(lam))


def _pca_unit_columns(K, n_components):  # the eigenvectors, not the projections
    return _leading(_centred(K), n_components)[1]


def _pca_alpha_not_normalised(K, n_components):  # P = Kc e_k = lambda_k e_k
    Kc = _centred(K)
    return Kc @ _leading(Kc, n_components)[1]


def _pca_increasing(K, n_components):  # eigh's ascending order kept
    lam, E = np.linalg.eigh(_centred(K))
    return E[:, -n_components:] * np.sqrt(lam[-n_components:])


def _pca_smallest(K, n_components):  # the first k of eigh's ascending order
    lam, E = np.linalg.eigh(_centred(K))
    return E[:, :n_components] * np.sqrt(np.clip(lam[:n_components], 0.0, None))


def _pca_transposed(K, n_components):
    lam, E = _leading(_centred(K), n_components)
    return (E * np.sqrt(lam)).T


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (_pca_not_centred, "K was not centred"),
        (_pca_grand_mean, "centred with the wrong mean"),
        (_pca_unit_columns, "P = E, the eigenvectors themselves"),
        (_pca_alpha_not_normalised, "alpha_k = e_k is not normalised"),
        (_pca_increasing, "increasing order of lambda"),
        (_pca_smallest, "SMALLEST eigenvalues"),
        (_pca_transposed, "is the transpose"),
    ],
    ids=lambda v: v.__name__ if callable(v) else "",
)
def test_kernel_pca_mistakes_are_named(function, words):
    _fails_with("kernel_pca", function, words)


def test_kernel_pca_by_svd_with_any_signs_passes():
    """An SVD of the centred Gram matrix (= its eigendecomposition, it is positive
    semi-definite), columns signed at random: the signs and, inside a repeated eigenvalue, the
    basis are free."""
    rng = np.random.default_rng(0)

    def kernel_pca(K, n_components):
        U, s, _ = np.linalg.svd(_centred(K))
        signs = rng.choice([-1.0, 1.0], size=n_components)
        return U[:, :n_components] * np.sqrt(s[:n_components]) * signs

    report = exercises.check("kernel_pca", kernel_pca)
    assert report.passed, str(report)


def test_kernel_pca_rotated_inside_a_repeated_eigenvalue_passes():
    """Four points on a square: the centred Gram matrix has the eigenvalue 4 twice, and any
    rotation of the two columns is as right as the reference's."""
    judge = exercises.exercise("kernel_pca").judge
    reference = exercises.reference("kernel_pca")
    X = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    problem = exercises.Problem(args={"K": X @ X.T, "n_components": 2}, shown={}, size=4)
    expected = reference(X @ X.T, 2)
    c, s = np.cos(0.3), np.sin(0.3)
    rotated = expected @ np.array([[c, -s], [s, c]])
    assert not np.allclose(np.abs(rotated), np.abs(expected))
    assert judge(problem, rotated, expected) is None
    assert judge(problem, rotated * [1.0, 2.0], expected) is not None


# --- kernel CCA ----------------------------------------------------------------------------------


def _whitened_rho(K1, K2, B1, B2):
    """max alpha^T K1 K2 beta / sqrt(alpha^T B1 alpha beta^T B2 beta), B_j positive definite."""
    L1, L2 = np.linalg.cholesky(B1), np.linalg.cholesky(B2)
    M = np.linalg.solve(L1, np.linalg.solve(L2, (K1 @ K2).T).T)
    return float(np.linalg.svd(M, compute_uv=False)[0])


def _range_rho(K1, K2, reg, centre=True):
    """The first canonical correlation with B_j = K_j^2 + reg K_j, on the ranges of K1, K2."""
    if centre:
        K1, K2 = _centred(K1), _centred(K2)
    parts = []
    for K in (K1, K2):
        d, U = np.linalg.eigh(K)
        keep = d > 1e-10 * d[-1]
        parts.append(U[:, keep] * np.sqrt(d[keep] / (d[keep] + reg)))
    return float(np.linalg.svd(parts[0].T @ parts[1], compute_uv=False)[0])


def _cca_not_centred(K1, K2, reg):
    return _range_rho(K1, K2, reg, centre=False)


def _cca_squared_penalty(K1, K2, reg):  # (K + reg I)^2 in place of K^2 + reg K
    K1, K2 = _centred(K1), _centred(K2)
    eye = np.eye(len(K1))
    B1, B2 = (K1 + reg * eye) @ (K1 + reg * eye), (K2 + reg * eye) @ (K2 + reg * eye)
    return _whitened_rho(K1, K2, B1, B2)


def _cca_ridge_on_alpha(K1, K2, reg):  # K^2 + reg I: the penalty reg |alpha|^2
    K1, K2 = _centred(K1), _centred(K2)
    eye = np.eye(len(K1))
    return _whitened_rho(K1, K2, K1 @ K1 + reg * eye, K2 @ K2 + reg * eye)


def _cca_squared(K1, K2, reg):
    return _range_rho(K1, K2, reg) ** 2


def _cca_reg_ignored(K1, K2, reg):
    return _range_rho(K1, K2, 0.0)


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (_cca_not_centred, "uncentred Gram matrices"),
        (_cca_squared_penalty, "(K_j + reg I)^2"),
        (_cca_ridge_on_alpha, "K_j^2 + reg I"),
        (_cca_squared, "rho^2"),
        (_cca_reg_ignored, "reg is ignored"),
    ],
    ids=lambda v: v.__name__ if callable(v) else "",
)
def test_kernel_cca_mistakes_are_named(function, words):
    _fails_with("kernel_cca", function, words)


def test_kernel_cca_by_the_canonical_ridge_in_feature_coordinates_passes():
    """Another route: coordinates F_j with K_j = F_j F_j^T (centred), then linear CCA with
    C_jj + reg I by Cholesky whitening (the primal form of the same problem)."""

    def kernel_cca(K1, K2, reg):
        F = []
        for K in (_centred(K1), _centred(K2)):
            d, U = np.linalg.eigh(K)
            F.append(U * np.sqrt(np.clip(d, 0.0, None)))
        C11, C22 = F[0].T @ F[0], F[1].T @ F[1]
        eye = np.eye(len(C11))
        L1, L2 = np.linalg.cholesky(C11 + reg * eye), np.linalg.cholesky(C22 + reg * eye)
        M = np.linalg.solve(L1, np.linalg.solve(L2, (F[0].T @ F[1]).T).T)
        return np.linalg.svd(M, compute_uv=False)[0]

    report = exercises.check("kernel_cca", kernel_cca)
    assert report.passed, str(report)


# --- one step of kernel k-means ------------------------------------------------------------------


def _kmeans_distances(K, labels, n_clusters, two=2.0, within=True):
    n = len(K)
    D2 = np.empty((n, n_clusters))
    for c in range(n_clusters):
        members = labels == c
        size = members.sum()
        D2[:, c] = np.diag(K) - two / size * K[:, members].sum(axis=1)
        if within:
            D2[:, c] += K[np.ix_(members, members)].sum() / size**2
    return D2


def _kmeans_no_within_term(K, labels, n_clusters):
    return np.argmin(_kmeans_distances(K, labels, n_clusters, within=False), axis=1)


def _kmeans_no_two(K, labels, n_clusters):
    return np.argmin(_kmeans_distances(K, labels, n_clusters, two=1.0), axis=1)


def _kmeans_argmax(K, labels, n_clusters):
    return np.argmax(_kmeans_distances(K, labels, n_clusters), axis=1)


def _kmeans_mean_distance_to_points(K, labels, n_clusters):
    d2 = np.diag(K)[:, None] - 2 * K + np.diag(K)[None, :]
    means = [d2[:, labels == c].mean(axis=1) for c in range(n_clusters)]
    return np.argmin(np.stack(means, axis=1), axis=1)


def _kmeans_nearest_point(K, labels, n_clusters):
    d2 = np.diag(K)[:, None] - 2 * K + np.diag(K)[None, :]
    nearest = [d2[:, labels == c].min(axis=1) for c in range(n_clusters)]
    return np.argmin(np.stack(nearest, axis=1), axis=1)


def _kmeans_unchanged(K, labels, n_clusters):
    return labels.copy()


def _kmeans_one_based(K, labels, n_clusters):
    return np.argmin(_kmeans_distances(K, labels, n_clusters), axis=1) + 1


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (_kmeans_no_within_term, "without the term (1/|c|^2)"),
        (_kmeans_no_two, "the factor 2"),
        (_kmeans_argmax, "argmax in place of argmin"),
        (_kmeans_mean_distance_to_points, "mean squared distance to the points"),
        (_kmeans_nearest_point, "the nearest point of the cluster"),
        (_kmeans_unchanged, "came back unchanged"),
        (_kmeans_one_based, "numbering from 1?"),
    ],
    ids=lambda v: v.__name__ if callable(v) else "",
)
def test_kernel_kmeans_step_mistakes_are_named(function, words):
    _fails_with("kernel_kmeans_step", function, words)


def test_kernel_kmeans_step_by_pairwise_distances_highest_index_on_ties_passes():
    """Proposition 13.1, d(x, m_c)^2 = mean_j d(x, x_j)^2 - (1/(2|c|^2)) sum_{j,l} d(x_j,
    x_l)^2, with a loop over points, and ties broken towards the HIGHEST index: any nearest
    cluster is right."""

    def kernel_kmeans_step(K, labels, n_clusters):
        d2 = np.diag(K)[:, None] - 2 * K + np.diag(K)[None, :]
        new = np.empty(len(K), dtype=int)
        for i in range(len(K)):
            dist = []
            for c in range(n_clusters):
                m = labels == c
                dist.append(d2[i, m].mean() - d2[np.ix_(m, m)].sum() / (2 * m.sum() ** 2))
            dist = np.array(dist)
            new[i] = np.flatnonzero(dist <= dist.min() + 1e-9)[-1]
        return new

    report = exercises.check("kernel_kmeans_step", kernel_kmeans_step)
    assert report.passed, str(report)
