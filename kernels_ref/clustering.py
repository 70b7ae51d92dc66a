r"""Kernel k-means and kernel k-nearest neighbours (chapter 13, "Kernel k-means").

Lloyd's iteration and the nearest-neighbour vote, written with kernel values only: the
distance from a point to a cluster barycentre, :math:`d(x_i, m_c)^2 = K_{ii} -
\frac{2}{|c|} \sum_{j \in c} K_{ij} + \frac{1}{|c|^2} \sum_{j, l \in c} K_{jl}`
(:func:`cluster_mean_distances`), drives kernel k-means (:func:`kernel_kmeans`), and the
feature-space distance of :func:`kernels_ref.feature_space.kernel_distance` the k-nearest
neighbours (:func:`kernel_knn`, then :func:`kernel_knn_predict`).

``K_test`` and ``diag_test`` follow the conventions of :mod:`kernels_ref.feature_space`.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    check_array,
    cross_gram,
    gram,
    integer,
    iterations,
    labels,
    result,
    rule,
    seed,
    validated,
    vector,
)
from .exceptions import ConvergenceWarning
from .feature_space import _squared_distances_to_means, kernel_distance

__all__ = [
    "KernelKMeansResult",
    "KernelKNNResult",
    "cluster_mean_distances",
    "kernel_kmeans",
    "kernel_knn",
    "kernel_knn_predict",
]


@dataclass(frozen=True, repr=False)
class KernelKMeansResult(ShortRepr):
    r"""Kernel k-means: the partition found and the history of the objective.

    Attributes
    ----------
    labels : ndarray of int, shape (n,)
        Cluster of each point, in ``0 .. n_clusters - 1``, numbered in the order of first
        appearance (point 0 is in cluster 0, the first point not in cluster 0 is in cluster 1,
        ...). Every cluster is non-empty.
    objective : float
        :math:`\sum_{i} d(x_i, m_{c(i)})^2`, the within-cluster sum of squared feature-space
        distances of the returned partition.
    history : ndarray, shape (n_iter + 1,)
        Objective of the initial partition, then after each iteration; never increasing.
    n_iter : int
        Iterations (assignment steps) of the returned run.
    converged : bool
        ``True`` if the last iteration changed no label (a fixed point of Lloyd's iteration).
    """

    labels: np.ndarray
    objective: float
    history: np.ndarray
    n_iter: int
    converged: bool


def _one_hot(labels, n_clusters):
    M = np.zeros((labels.size, n_clusters))
    M[np.arange(labels.size), labels] = 1.0
    return M


def _cluster_distances(K, diag, labels, n_clusters):
    """Unvalidated core of :func:`cluster_mean_distances`; empty clusters get +inf."""
    return _distances_and_objective(K, diag, labels, n_clusters)[0]


def _distances_and_objective(K, diag, labels, n_clusters):
    r"""The distances of every point to every barycentre, and the objective of ``labels``,
    :math:`\sum_c (\sum_{i \in c} K_{ii} - \frac1{|c|} \sum_{j,l \in c} K_{jl})`, from one
    product :math:`KM`: Lloyd's iteration needs both, once each."""
    M = _one_hot(labels, n_clusters)
    counts = M.sum(axis=0)
    KM = K @ M
    within = np.einsum("ic,ic->c", M, KM)  # sum_{j,l in c} K_jl
    D2 = _squared_distances_to_means(KM, diag, within, counts)
    D2[:, counts == 0] = np.inf
    full = counts > 0
    return D2, float(diag.sum() - np.sum(within[full] / counts[full]))


def _cluster_labels(optional=False):
    """The rule of cluster labels: as many as ``K`` has rows, integers in
    ``[0, n_clusters - 1]`` (``n_clusters`` checked before, or ``max(labels) + 1``)."""

    def check(value, name, args):
        arr = check_array(value, name, ndim=1, n_rows=len(args["K"]))
        n_clusters = args["n_clusters"]
        top = len(arr) - 1 if n_clusters is None else n_clusters - 1
        if not np.all((arr == np.round(arr)) & (arr >= 0) & (arr <= top)):
            raise ValueError(f"{name} must contain integers in [0, {top}]")
        return arr.astype(int)

    return rule(check, "cluster_labels", optional=optional, samples=(0,), refs=("K",))


@validated(
    K=gram(),
    n_clusters=integer(low=1, high="K", optional=True),
    labels=_cluster_labels(),
)
def cluster_mean_distances(K, labels, *, n_clusters=None):
    r"""Squared feature-space distances from every point to every cluster barycentre.

    .. math::
        d(x_i, m_c)^2 = \Big\| \Phi(x_i) - \frac1{|c|}\sum_{j \in c} \Phi(x_j) \Big\|^2
        = K_{ii} - \frac{2}{|c|} \sum_{j \in c} K_{ij}
        + \frac{1}{|c|^2} \sum_{j, l \in c} K_{jl}

    computed for all clusters at once with the indicator matrix :math:`M_{jc} = [j \in c]`:
    :math:`D = \operatorname{diag}(K)\mathbf 1^T - 2 K M N^{-1} + \mathbf 1 \operatorname{diag}
    (M^T K M)^T N^{-2}`, :math:`N = \operatorname{diag}(|c|)`. This is
    :func:`~kernels_ref.feature_space.distance_to_set` (squared) for every cluster. An empty
    cluster has no barycentre: its column is :math:`+\infty`.

    Source: Rousseau, *Kernel methods* (2022), "Kernel k-means"; Vert, *Méthodes à noyaux*
    (2004), "Exemple: distance point - ensemble".

    Parameters
    ----------
    K : array_like, shape (n, n)
    labels : array_like of int, shape (n,)
        Cluster of each point, in ``0 .. n_clusters - 1``.
    n_clusters : int, optional
        Defaults to ``max(labels) + 1``.

    Returns
    -------
    D2 : ndarray, shape (n, n_clusters)

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> X = np.array([[0.0], [2.0], [10.0]])
    >>> cluster_mean_distances(linear_kernel(X), [0, 0, 1]).round(6)
    array([[  1., 100.],
           [  1.,  64.],
           [ 81.,   0.]])
    """
    if n_clusters is None:
        n_clusters = int(labels.max()) + 1
    return _cluster_distances(K, np.diag(K).copy(), labels, n_clusters)


def _fill_empty_clusters(K, diag, labels, n_clusters):
    """Give each empty cluster the point farthest from its own barycentre (never increases the
    objective: that point's term drops to 0 and its old cluster can only improve)."""
    labels = labels.copy()
    while True:
        counts = np.bincount(labels, minlength=n_clusters)
        empty = np.flatnonzero(counts == 0)
        if empty.size == 0:
            return labels
        D2 = _cluster_distances(K, diag, labels, n_clusters)
        own = D2[np.arange(labels.size), labels]
        own[counts[labels] < 2] = -np.inf  # never empty another cluster
        labels[int(np.argmax(own))] = empty[0]


def _initial_labels(K, diag, n_clusters, gen):
    """k-means++ seeding in feature space, then assignment to the nearest seed."""
    n = K.shape[0]
    seeds = [int(gen.integers(n))]
    d2 = np.maximum(diag + diag[seeds[0]] - 2.0 * K[:, seeds[0]], 0.0)
    for _ in range(1, n_clusters):
        total = d2.sum()
        if total > 0:
            nxt = int(gen.choice(n, p=d2 / total))
        else:  # fewer distinct images than clusters: any point not yet chosen
            nxt = int(gen.choice(np.setdiff1d(np.arange(n), seeds)))
        seeds.append(nxt)
        d2 = np.minimum(d2, np.maximum(diag + diag[nxt] - 2.0 * K[:, nxt], 0.0))
    seeds = np.array(seeds)
    D2 = diag[:, None] + diag[seeds][None, :] - 2.0 * K[:, seeds]
    labels = np.argmin(D2, axis=1)
    labels[seeds] = np.arange(n_clusters)
    return labels


def _lloyd(K, diag, labels, n_clusters, max_iter, slack):
    labels = _fill_empty_clusters(K, diag, labels, n_clusters)
    D2, objective = _distances_and_objective(K, diag, labels, n_clusters)
    history = [objective]
    rows = np.arange(labels.size)
    converged = False
    for _ in range(max_iter):
        nearest = np.argmin(D2, axis=1)  # lowest cluster index on ties
        # Move only if another barycentre is closer by more than round-off: ties keep the
        # current cluster, so the iteration cannot cycle between equal partitions.
        move = D2[rows, nearest] < D2[rows, labels] - slack
        new = _fill_empty_clusters(K, diag, np.where(move, nearest, labels), n_clusters)
        converged = bool(np.array_equal(new, labels))
        labels = new
        if converged:
            history.append(history[-1])
            break
        # One product K M per iteration: the distances of the next step give the objective
        # of this one's labels.
        D2, objective = _distances_and_objective(K, diag, labels, n_clusters)
        history.append(objective)
    return labels, np.array(history), converged


def _first_appearance(labels):
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)  # clusters sorted by their first point
    relabel = np.empty_like(order)
    relabel[order] = np.arange(order.size)
    return relabel[np.searchsorted(np.unique(labels), labels)]


@validated(
    K=gram(),
    n_clusters=integer(low=1, high="K"),
    n_init=integer(low=1),
    max_iter=iterations(),
    seed=seed(),
    init=_cluster_labels(optional=True),
)
def kernel_kmeans(K, n_clusters, *, n_init=10, max_iter=100, seed=0, init=None):
    r"""Kernel k-means: Lloyd's iteration on feature-space distances.

    .. math::
        \min_{c} \ \sum_{i=1}^n d(x_i, m_{c(i)})^2,
        \qquad d(x_i, m_c)^2 = K_{ii} - \frac{2}{|c|} \sum_{j \in c} K_{ij}
        + \frac{1}{|c|^2} \sum_{j, l \in c} K_{jl}

    Each iteration assigns every point to the nearest barycentre
    (:func:`cluster_mean_distances`), then the barycentres move to the means of their new
    clusters (implicitly: they are never formed). Neither step increases the objective, which
    is recorded in ``history``. Details that make the result well defined:

    - **ties**: a point changes cluster only if another barycentre is closer by more than
      round-off (:math:`10^{-12} \max(1, \max_i K_{ii})`); among equally close new
      clusters it takes the lowest index. So the iteration stops (it cannot cycle).
    - **empty clusters**: a cluster left empty receives the point farthest from its own
      barycentre, taken from a cluster of two points or more; this also lowers the objective.
    - **initialisation**: k-means++ seeding in feature space (the first seed uniformly, each
      next one with probability proportional to its squared distance to the nearest seed;
      Arthur & Vassilvitskii, 2007), then each point joins its nearest seed. The best of
      ``n_init`` runs is returned (the first on ties); the default ``seed = 0`` makes the
      result reproducible.
    - the clusters are numbered in the order of their first point.

    Source: Rousseau, *Kernel methods* (2022), "Kernel k-means / kernel k-nearest neighbors".

    Parameters
    ----------
    K : array_like, shape (n, n)
    n_clusters : int
        In [1, n].
    n_init : int >= 1
        Number of k-means++ starts.
    max_iter : int >= 1
        Iterations per start; a :class:`~kernels_ref.exceptions.ConvergenceWarning` is issued if
        the returned run reached it without converging.
    seed : int >= 0, numpy.random.Generator or None
        Seed or generator of the starts (``None``: fresh entropy, not reproducible).
    init : array_like of int, shape (n,), optional
        Initial labels in ``0 .. n_clusters - 1``; if given, one run starts from them and
        ``n_init`` and ``seed`` are ignored.

    Returns
    -------
    KernelKMeansResult

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> X = np.array([[0.0], [1.0], [10.0], [11.0], [0.5]])
    >>> res = kernel_kmeans(linear_kernel(X), 2)
    >>> res.labels.tolist(), round(res.objective, 6), res.converged
    ([0, 0, 1, 1, 0], 1.0, True)
    """
    diag = np.diag(K).copy()
    slack = 1e-12 * max(1.0, float(np.max(np.abs(diag))))
    if init is not None:
        starts = [init]
    else:
        starts = [_initial_labels(K, diag, n_clusters, seed) for _ in range(n_init)]
    best = None
    for start in starts:
        labels, history, converged = _lloyd(K, diag, start, n_clusters, max_iter, slack)
        if best is None or history[-1] < best[1][-1]:
            best = (labels, history, converged)
    labels, history, converged = best
    if not converged:
        warnings.warn(
            f"kernel_kmeans stopped at max_iter = {max_iter} before the labels settled",
            ConvergenceWarning,
            stacklevel=2,
        )
    return KernelKMeansResult(
        labels=_first_appearance(labels),
        objective=float(history[-1]),
        history=history,
        n_iter=history.size - 1,
        converged=converged,
    )


@dataclass(frozen=True, repr=False)
class KernelKNNResult(ShortRepr):
    r"""Kernel k-nearest neighbours fitted by :func:`kernel_knn`: what the vote needs.

    Attributes
    ----------
    diag_train : ndarray, shape (n,)
        :math:`k(x_i, x_i)`, the diagonal of the training Gram matrix.
    y : ndarray, shape (n,)
        Training labels in {-1, +1}.
    k : int
        Number of neighbours, in [1, n].
    """

    diag_train: np.ndarray
    y: np.ndarray
    k: int


@validated(K=gram(), y=labels(rows="K"), k=integer(low=1, high="K"))
def kernel_knn(K, y, k):
    r"""Fit kernel k-nearest neighbours: keep the labels, :math:`k` and the diagonal
    :math:`k(x_i, x_i)` of the training Gram matrix, all that :func:`kernel_knn_predict` needs.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of the training points.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    k : int
        Number of neighbours, in [1, n].

    Returns
    -------
    KernelKNNResult

    Examples
    --------
    >>> kernel_knn(np.eye(3), [1, -1, 1], k=1)
    KernelKNNResult(diag_train=<array (3,) float64>, y=<array (3,) float64>, k=1)
    """
    return KernelKNNResult(diag_train=np.diag(K).copy(), y=y.copy(), k=k)


@validated(
    result=result(KernelKNNResult, "kernel_knn"),
    K_test=cross_gram("result.y"),
    diag_test=vector(rows="K_test"),
)
def kernel_knn_predict(result, K_test, diag_test):
    r"""Kernel k-nearest-neighbours classification: majority vote of the :math:`k` training
    points nearest in feature space.

    .. math::
        \hat y(t) = \operatorname{sign} \sum_{i \in N_k(t)} y_i, \qquad
        N_k(t) = \text{the } k \text{ smallest } d(t, x_i)^2 = K(t,t) + K(x_i,x_i) - 2K(t,x_i)

    (``kernel_distance``). Ties are broken deterministically: among training points at the
    same distance the lower index comes first (stable sort); a tied vote (possible for even
    :math:`k` only) goes to the label of the nearest neighbour.

    Source: Rousseau, *Kernel methods* (2022), "Kernel k-means / kernel k-nearest neighbors".

    Parameters
    ----------
    result : KernelKNNResult
        From :func:`kernel_knn`: the labels, :math:`k` and :math:`K(x_i, x_i)`.
    K_test : array_like, shape (m, n)
        ``K_test[a, i] = k(t_a, x_i)``.
    diag_test : array_like, shape (m,)
        ``k(t_a, t_a)``: the distance needs it and ``K_test`` does not hold it, so it is the
        one argument beyond ``(result, K_test)`` of the package's prediction convention.

    Returns
    -------
    y_pred : ndarray, shape (m,)
        Predicted labels, -1.0 or +1.0.

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> T = np.array([[0.4], [2.6]])
    >>> knn = kernel_knn(linear_kernel(X), y, k=3)
    >>> kernel_knn_predict(knn, linear_kernel(T, X), (T**2).ravel())
    array([-1.,  1.])
    """
    y, k = result.y, result.k
    D2 = kernel_distance(K_test, diag_test, result.diag_train, squared=True)
    neighbours = np.argsort(D2, axis=1, kind="stable")[:, :k]
    votes = y[neighbours].sum(axis=1)
    return np.where(votes > 0, 1.0, np.where(votes < 0, -1.0, y[neighbours[:, 0]]))
