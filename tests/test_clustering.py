"""Tests of kernels_ref.clustering: kernel k-means and kernel k-nearest neighbours."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels_ref.clustering import (
    KernelKMeansResult,
    cluster_mean_distances,
    kernel_kmeans,
    kernel_knn,
    kernel_knn_predict,
)
from kernels_ref.exceptions import ConvergenceWarning
from kernels_ref.feature_space import distance_to_set, polynomial_feature_map
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel

seeds = st.integers(0, 2**32 - 1)


def blobs(seed, centres, n_per, spread):
    rng = np.random.default_rng(seed)
    centres = np.asarray(centres, dtype=float)
    X = np.vstack([c + spread * rng.normal(size=(n_per, centres.shape[1])) for c in centres])
    return X, np.repeat(np.arange(len(centres)), n_per)


def canonical(labels):
    """Number clusters by first appearance, independently of the package."""
    mapping = {}
    return np.array([mapping.setdefault(int(c), len(mapping)) for c in labels])


def objective_by_sets(K, labels):
    """sum_c sum_{i in c} d(x_i, m_c)^2 with distance_to_set, one cluster at a time."""
    total = 0.0
    for c in np.unique(labels):
        idx = np.flatnonzero(labels == c)
        d = distance_to_set(K[np.ix_(idx, idx)], np.diag(K)[idx], K[np.ix_(idx, idx)])
        total += float(np.sum(d**2))
    return total


def euclidean_lloyd(X, labels, n_clusters, max_iter=100):
    """Plain k-means on X (means formed explicitly); None if a cluster empties."""
    labels = labels.copy()
    for _ in range(max_iter):
        if np.any(np.bincount(labels, minlength=n_clusters) == 0):
            return None
        means = np.array([X[labels == c].mean(axis=0) for c in range(n_clusters)])
        D2 = ((X[:, None, :] - means[None, :, :]) ** 2).sum(-1)
        new = np.argmin(D2, axis=1)
        if np.array_equal(new, labels):
            return labels
        labels = new
    return None


# --- small exact cases ----------------------------------------------------------------------


def test_cluster_mean_distances_in_one_dimension():
    X = np.array([[0.0], [2.0], [10.0]])
    D2 = cluster_mean_distances(linear_kernel(X), [0, 0, 1])
    # means 1 and 10
    assert D2 == pytest.approx(np.array([[1.0, 100.0], [1.0, 64.0], [81.0, 0.0]]), abs=1e-12)


def test_empty_cluster_has_infinite_distance():
    D2 = cluster_mean_distances(linear_kernel([[0.0], [1.0]]), [0, 0], n_clusters=2)
    assert np.all(np.isinf(D2[:, 1]))


def test_kmeans_on_four_points_on_a_line():
    X = np.array([[0.0], [1.0], [10.0], [12.0]])
    res = kernel_kmeans(linear_kernel(X), 2)
    assert res.labels.tolist() == [0, 0, 1, 1]
    assert res.objective == pytest.approx(0.5 + 2.0, abs=1e-12)  # (1/2)^2*2 + 1^2*2
    assert res.converged and res.history[-1] == res.objective


def test_one_cluster_objective_is_the_total_feature_space_scatter():
    X, _ = blobs(0, [[0, 0], [3, 0]], 10, 0.5)
    K = gaussian_kernel(X, sigma=1.0)
    res = kernel_kmeans(K, 1)
    n = len(X)
    assert res.objective == pytest.approx(np.trace(K) - K.sum() / n, rel=1e-12)
    assert np.all(res.labels == 0)


def test_as_many_clusters_as_points_gives_zero_objective():
    X, _ = blobs(1, [[0, 0]], 6, 1.0)
    res = kernel_kmeans(gaussian_kernel(X), 6)
    assert sorted(res.labels.tolist()) == list(range(6))
    assert res.objective == pytest.approx(0.0, abs=1e-12)


def test_well_separated_blobs_are_found():
    X, truth = blobs(2, [[0, 0], [6, 0], [0, 6]], 15, 0.5)
    res = kernel_kmeans(gaussian_kernel(X, sigma=2.0), 3)
    assert np.array_equal(res.labels, canonical(truth))


# --- properties -----------------------------------------------------------------------------


@given(seeds, st.integers(4, 40), st.integers(1, 5), st.floats(0.3, 3.0), st.integers(1, 3))
def test_objective_never_increases_and_is_the_within_cluster_scatter(seed, n, c, sigma, degree):
    assume(c <= n)
    X = np.random.default_rng(seed).normal(size=(n, 2))
    K = gaussian_kernel(X, sigma=sigma) + 0.1 * polynomial_kernel(X, degree=degree)
    res = kernel_kmeans(K, c, n_init=3, seed=seed)
    h = res.history
    assert np.all(np.diff(h) <= 1e-12 * max(1.0, abs(h[0])))
    assert h.size == res.n_iter + 1 and res.objective == h[-1]
    assert res.objective == pytest.approx(objective_by_sets(K, res.labels), rel=1e-9, abs=1e-9)
    assert np.array_equal(np.unique(res.labels), np.arange(c))  # no empty cluster
    assert np.array_equal(res.labels, canonical(res.labels))  # numbered by first appearance


@given(seeds, st.integers(4, 40), st.integers(1, 5), st.floats(0.3, 3.0))
def test_converged_partition_assigns_every_point_to_its_nearest_barycentre(seed, n, c, sigma):
    assume(c <= n)
    X = np.random.default_rng(seed).normal(size=(n, 2))
    K = gaussian_kernel(X, sigma=sigma)
    res = kernel_kmeans(K, c, n_init=2, seed=seed)
    assert res.converged
    D2 = cluster_mean_distances(K, res.labels, n_clusters=c)
    own = D2[np.arange(n), res.labels]
    assert np.all(own <= D2.min(axis=1) + 1e-11)


@given(seeds, st.integers(2, 5))
def test_cluster_mean_distances_equal_distance_to_each_set(seed, c):
    rng = np.random.default_rng(seed)
    n = 12
    X = rng.normal(size=(n, 2))
    labels = np.concatenate([np.arange(c), rng.integers(0, c, size=n - c)])
    K = polynomial_kernel(X, degree=2) + gaussian_kernel(X)
    D2 = cluster_mean_distances(K, labels, n_clusters=c)
    for k in range(c):
        idx = labels == k
        d = distance_to_set(K[:, idx], np.diag(K), K[np.ix_(idx, idx)])
        assert np.allclose(D2[:, k], d**2, atol=1e-9 * np.abs(K).max())


@given(seeds, st.integers(6, 40), st.integers(2, 4))
def test_linear_kernel_kmeans_equals_euclidean_lloyd_from_the_same_start(seed, n, c):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    init = np.concatenate([np.arange(c), rng.integers(0, c, size=n - c)])
    expected = euclidean_lloyd(X, init, c)
    assume(expected is not None)
    res = kernel_kmeans(linear_kernel(X), c, init=init)
    assert np.array_equal(res.labels, canonical(expected))
    means = np.array([X[expected == k].mean(axis=0) for k in range(c)])
    assert res.objective == pytest.approx(np.sum((X - means[expected]) ** 2), rel=1e-9)


@given(seeds, st.permutations(range(30)))
def test_partition_of_separated_blobs_does_not_depend_on_the_order_of_the_points(seed, perm):
    X, truth = blobs(seed, [[0, 0], [5, 0], [0, 5]], 10, 0.4)
    perm = np.array(perm)
    K = gaussian_kernel(X, sigma=1.5)
    a = kernel_kmeans(K, 3, seed=seed)
    b = kernel_kmeans(K[np.ix_(perm, perm)], 3, seed=seed)
    assert np.array_equal(b.labels, canonical(a.labels[perm]))
    assert b.objective == pytest.approx(a.objective, rel=1e-10)
    assert np.array_equal(a.labels, canonical(truth))


def test_same_seed_same_result_and_none_means_seed_zero():
    X, _ = blobs(3, [[0, 0], [2, 0]], 20, 1.0)
    K = gaussian_kernel(X)
    a, b, c = kernel_kmeans(K, 3), kernel_kmeans(K, 3, seed=0), kernel_kmeans(K, 3, seed=0)
    assert np.array_equal(a.labels, b.labels) and np.array_equal(b.labels, c.labels)
    assert np.array_equal(a.history, b.history)
    g = kernel_kmeans(K, 3, seed=np.random.default_rng(0))
    assert np.array_equal(g.labels, a.labels)


def test_empty_clusters_in_the_start_are_filled():
    X, _ = blobs(4, [[0, 0], [4, 0], [0, 4]], 8, 0.5)
    K = gaussian_kernel(X)
    res = kernel_kmeans(K, 3, init=np.zeros(len(X), dtype=int))
    assert np.array_equal(np.unique(res.labels), np.arange(3))
    assert np.all(np.diff(res.history) <= 1e-12)


def test_fewer_distinct_images_than_clusters_is_handled():
    X = np.array([[0.0, 0.0]] * 4 + [[1.0, 1.0]] * 4)
    res = kernel_kmeans(gaussian_kernel(X), 3, n_init=5)
    assert np.array_equal(np.unique(res.labels), np.arange(3))
    assert res.objective == pytest.approx(0.0, abs=1e-12) and res.converged


def test_iteration_limit_warns():
    X = np.random.default_rng(5).normal(size=(60, 2))
    K = gaussian_kernel(X, sigma=0.5)
    start = np.arange(60) % 4
    with pytest.warns(ConvergenceWarning, match="max_iter = 1"):
        res = kernel_kmeans(K, 4, init=start, max_iter=1)
    assert not res.converged and res.n_iter == 1


# --- k nearest neighbours -------------------------------------------------------------------


def brute_force_knn(Phi_test, Phi_train, y, k):
    """Vote of the k nearest rows in an explicit feature space, in plain loops."""
    out = []
    for t in Phi_test:
        d = [float(np.sum((t - p) ** 2)) for p in Phi_train]
        order = sorted(range(len(d)), key=lambda i: (d[i], i))[:k]
        vote = sum(y[i] for i in order)
        out.append(np.sign(vote) if vote != 0 else y[order[0]])
    return np.array(out)


def kth_gap_ok(D2, k, rel=1e-7):
    """No near-tie between the k-th and (k+1)-th neighbour: the neighbour set is determined."""
    if k >= D2.shape[1]:
        return True
    s = np.sort(D2, axis=1)
    return bool(np.all(s[:, k] - s[:, k - 1] > rel * max(1.0, s.max())))


@st.composite
def knn_problem(draw):
    seed = draw(seeds)
    n = draw(st.integers(2, 25))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    T = rng.normal(size=(draw(st.integers(1, 15)), 2))
    y = rng.choice([-1.0, 1.0], size=n)
    y[:2] = [1.0, -1.0]
    return X, T, y, draw(st.integers(1, n))


@given(knn_problem(), st.integers(1, 3))
def test_kernel_knn_equals_brute_force_vote_in_the_explicit_feature_space(problem, degree):
    X, T, y, k = problem
    Phi, Phi_t = (
        polynomial_feature_map(X, degree=degree, c=1.0),
        polynomial_feature_map(T, degree=degree, c=1.0),
    )
    D2 = ((Phi_t[:, None, :] - Phi[None, :, :]) ** 2).sum(-1)
    assume(kth_gap_ok(D2, k))
    K_test = polynomial_kernel(T, X, degree=degree)
    diag_t = np.diag(polynomial_kernel(T, degree=degree))
    K = polynomial_kernel(X, degree=degree)
    pred = kernel_knn_predict(kernel_knn(K, y, k), K_test, diag_t)
    assert np.array_equal(pred, brute_force_knn(Phi_t, Phi, y, k))


@given(knn_problem(), st.floats(0.5, 3.0))
def test_knn_prediction_from_the_result_alone_is_the_formula(problem, sigma):
    X, _, y, k = problem
    K = gaussian_kernel(X, sigma=sigma)
    knn = kernel_knn(K, y, k)
    np.testing.assert_array_equal(knn.diag_train, np.diag(K))
    D2 = np.diag(K)[:, None] + np.diag(K)[None, :] - 2.0 * K  # the old formula on x_1..x_n
    neighbours = np.argsort(D2, axis=1, kind="stable")[:, :k]
    votes = y[neighbours].sum(axis=1)
    expected = np.where(votes > 0, 1.0, np.where(votes < 0, -1.0, y[neighbours[:, 0]]))
    np.testing.assert_array_equal(kernel_knn_predict(knn, K, np.diag(K)), expected)


@given(knn_problem(), st.floats(0.5, 3.0))
def test_gaussian_kernel_knn_equals_euclidean_knn(problem, sigma):
    # d_H^2 = 2 - 2 exp(-r^2 / 2 sigma^2) is increasing in the Euclidean distance r
    X, T, y, k = problem
    D2 = ((T[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    assume(kth_gap_ok(D2, k, rel=1e-5))
    knn = kernel_knn(gaussian_kernel(X, sigma=sigma), y, k)
    pred = kernel_knn_predict(knn, gaussian_kernel(T, X, sigma=sigma), np.ones(len(T)))
    assert np.array_equal(pred, brute_force_knn(T, X, y, k))


def test_knn_ties_go_to_the_lower_index_then_to_the_nearest_label():
    X = np.array([[-1.0], [1.0], [3.0], [4.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    T = np.array([[0.0], [0.2]])
    K, K_test, dt = linear_kernel(X), linear_kernel(T, X), (T**2).ravel()
    # t = 0: x0 and x1 tie at distance 1; with k = 1 the lower index (x0, label +1) wins
    assert kernel_knn_predict(kernel_knn(K, y, 1), K_test, dt)[0] == 1.0
    # k = 2: votes +1 and -1 tie; the nearest neighbour decides
    assert kernel_knn_predict(kernel_knn(K, y, 2), K_test, dt).tolist() == [1.0, -1.0]


def test_knn_with_all_neighbours_is_the_majority():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1.0, -1.0, -1.0])
    T = np.array([[0.0], [5.0]])
    pred = kernel_knn_predict(
        kernel_knn(linear_kernel(X), y, 3), linear_kernel(T, X), (T**2).ravel()
    )
    assert pred.tolist() == [-1.0, -1.0]


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_clusters": 0}, "n_clusters"),
        ({"n_clusters": 7}, "n_clusters"),
        ({"n_clusters": 2.5}, "n_clusters"),
        ({"n_clusters": 2, "n_init": 0}, "n_init"),
        ({"n_clusters": 2, "max_iter": 0}, "max_iter"),
        ({"n_clusters": 2, "seed": "seed"}, "seed"),
        ({"n_clusters": 2, "init": [0, 1, 0]}, "init"),
        ({"n_clusters": 2, "init": [0, 1, 2, 0, 1, 0]}, "init"),
        ({"n_clusters": 2, "init": [0, 1, 0.5, 0, 1, 0]}, "init"),
        ({"n_clusters": 2, "init": [0, 1, np.nan, 0, 1, 0]}, "init"),
    ],
)
def test_kernel_kmeans_rejects_bad_parameters(kwargs, match):
    K = gaussian_kernel(np.random.default_rng(0).normal(size=(6, 2)))
    with pytest.raises(ValueError, match=match):
        kernel_kmeans(K, **kwargs)


@pytest.mark.parametrize(
    "K, match",
    [
        (np.array([[1.0, np.nan], [np.nan, 1.0]]), "K contains NaN"),
        (np.ones((2, 3)), "K must be square"),
        (np.array([[1.0, 0.5], [0.0, 1.0]]), "K must be symmetric"),
    ],
)
def test_kernel_kmeans_and_cluster_distances_reject_bad_gram_matrices(K, match):
    with pytest.raises(ValueError, match=match):
        kernel_kmeans(K, 1)
    with pytest.raises(ValueError, match=match):
        cluster_mean_distances(K, [0, 0])


def test_cluster_mean_distances_rejects_bad_labels():
    K = linear_kernel([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match="labels"):
        cluster_mean_distances(K, [0, 1])
    with pytest.raises(ValueError, match="labels"):
        cluster_mean_distances(K, [0, -1, 1])
    with pytest.raises(ValueError, match="labels"):
        cluster_mean_distances(K, [0, 3, 1], n_clusters=2)
    with pytest.raises(ValueError, match="n_clusters"):
        cluster_mean_distances(K, [0, 1, 1], n_clusters=4)


def test_kernel_knn_rejects_bad_input():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1.0, -1.0, 1.0])
    T = np.array([[0.5]])
    K, K_test, dt = linear_kernel(X), linear_kernel(T, X), (T**2).ravel()
    knn = kernel_knn(K, y, 1)
    fit_cases = [
        ((K[:2], y, 1), "^K must be square"),
        ((K, np.array([1.0, 0.0, 1.0]), 1), "^y"),
        ((K, np.ones(3), 1), "^y must contain both classes"),
        ((K, y[:2], 1), "^y"),
        ((K, y, 0), "^k must"),
        ((K, y, 4), "^k must"),
        ((K, y, 1.0), "^k must"),
    ]
    for args, match in fit_cases:
        with pytest.raises(ValueError, match=match):
            kernel_knn(*args)
    predict_cases = [
        ((knn, np.full((1, 3), np.nan), dt), "^K_test contains NaN"),
        ((knn, K_test[0], dt), "^K_test must be 2-dimensional"),
        ((knn, K_test[:, :2], dt), "^K_test"),
        ((knn, K_test, np.ones(2)), "^diag_test"),
        ((knn, K_test, np.array([np.inf])), "^diag_test"),
    ]
    for args, match in predict_cases:
        with pytest.raises(ValueError, match=match):
            kernel_knn_predict(*args)
    with pytest.raises(TypeError, match=r"^result must be of type KernelKNNResult"):
        kernel_knn_predict(y, K_test, dt)


def test_inputs_are_not_modified():
    rng = np.random.default_rng(7)
    X, T = rng.normal(size=(10, 2)), rng.normal(size=(4, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    K, K_test = gaussian_kernel(X), gaussian_kernel(T, X)
    init = np.arange(10) % 3
    dt = np.ones(4)
    arrays = (K, K_test, y, init, dt)
    copies = [a.copy() for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        kernel_kmeans(K, 3, init=init)
    cluster_mean_distances(K, init)
    kernel_knn_predict(kernel_knn(K, y, 3), K_test, dt)
    for a, c in zip(arrays, copies, strict=True):
        assert np.array_equal(a, c)


def test_result_is_a_frozen_dataclass():
    res = kernel_kmeans(linear_kernel([[0.0], [1.0], [5.0]]), 2)
    assert isinstance(res, KernelKMeansResult)
    with pytest.raises(AttributeError):
        res.objective = 0.0


@pytest.mark.parametrize("seed", [-1, np.int64(-5)])
def test_a_negative_seed_is_rejected_naming_seed(seed):
    K = np.eye(4)
    with pytest.raises(ValueError, match=r"^seed must lie in \[0, inf\]"):
        kernel_kmeans(K, 2, seed=seed)


@pytest.mark.parametrize("seed", ["0", 1.5, True, [1, 2]])
def test_a_seed_of_the_wrong_type_is_rejected_naming_seed(seed):
    with pytest.raises(ValueError, match=r"^seed must be None, an integer >= 0 or a numpy Gen"):
        kernel_kmeans(np.eye(4), 2, seed=seed)


@pytest.mark.parametrize("max_iter", [0, -1, 1.0])
def test_kernel_kmeans_rejects_an_iteration_limit_below_one(max_iter):
    with pytest.raises(ValueError, match=r"^max_iter must"):
        kernel_kmeans(np.eye(4), 2, max_iter=max_iter)


class _SpyGenerator:
    """A stand-in for numpy's Generator that records the k-means++ probabilities."""

    def __init__(self, first, picks):
        self.first, self.picks, self.laws = first, list(picks), []

    def integers(self, n):
        return self.first

    def choice(self, n, p=None):
        self.laws.append(np.array(p))
        return self.picks.pop(0)


def test_kmeans_plus_plus_draws_each_seed_with_probability_proportional_to_d2():
    from kernels_ref.clustering import _initial_labels

    x = np.array([0.0, 1.0, 3.0, 7.0])
    K = np.outer(x, x)
    gen = _SpyGenerator(first=1, picks=[3, 2])
    labels = _initial_labels(K, np.diag(K).copy(), 3, gen)
    # from the seed x = 1: d^2 = (1, 0, 4, 36); then also x = 7: min with (49, 36, 16, 0)
    np.testing.assert_allclose(gen.laws[0], np.array([1.0, 0.0, 4.0, 36.0]) / 41.0, rtol=1e-14)
    np.testing.assert_allclose(gen.laws[1], np.array([1.0, 0.0, 4.0, 0.0]) / 5.0, rtol=1e-14)
    # seeds 1, 3, 2 get labels 0, 1, 2; x = 0 is nearest to the seed x = 1
    assert labels.tolist() == [0, 0, 2, 1]


def test_kmeans_plus_plus_second_seed_frequencies():
    # Statistically, with numpy's generator: from points 0, 1, 3 (linear kernel) and a first
    # seed drawn uniformly, P(second seed = x_j) = mean_i d^2(x_i, x_j) / sum_k d^2(x_i, x_k).
    from kernels_ref.clustering import _initial_labels

    x = np.array([0.0, 1.0, 3.0])
    K = np.outer(x, x)
    d2 = (x[:, None] - x[None, :]) ** 2
    law = np.mean(d2 / d2.sum(axis=1, keepdims=True), axis=0)  # (0.297, 0.136, 0.567)
    gen = np.random.default_rng(12345)
    counts = np.zeros(3)
    trials = 4000
    for _ in range(trials):
        labels = _initial_labels(K, np.diag(K).copy(), 3, gen)
        counts[np.flatnonzero(labels == 1)[0]] += 1  # the second seed has label 1
    # each frequency within 4.5 standard deviations of its probability
    assert np.all(np.abs(counts / trials - law) <= 4.5 * np.sqrt(law * (1 - law) / trials))


def test_kernel_kmeans_keeps_the_start_whose_final_objective_is_lowest():
    # The starts of n_init = 6 runs are those of six runs of n_init = 1 drawing from the same
    # generator, in turn; the result is the run of lowest final objective (the first on ties).
    # On these data the best run after its first iteration is not the best at the end, so a
    # choice by an early objective would return another run.
    X = np.random.default_rng(11).normal(size=(40, 2))
    K = gaussian_kernel(X, sigma=0.7)
    gen = np.random.default_rng(1)
    runs = [kernel_kmeans(K, 4, n_init=1, seed=gen) for _ in range(6)]
    final = [r.history[-1] for r in runs]
    first = [r.history[1] for r in runs]
    best = int(np.argmin(final))
    assert int(np.argmin(first)) != best  # the data tell the two rules apart
    assert sorted(final)[1] > 1.001 * final[best]  # by far more than round-off
    result = kernel_kmeans(K, 4, n_init=6, seed=np.random.default_rng(1))
    assert result.objective == final[best] == min(final)
    np.testing.assert_array_equal(result.labels, runs[best].labels)
    np.testing.assert_array_equal(result.history, runs[best].history)
