r"""Geometry in feature space through the kernel alone (chapters 1 and 13).

Explicit feature maps (the polynomial map, the map of a finite set read off :math:`K = UDU^T`),
distances between points and to the barycentre of a set, the nearest-centroid classifier, and
the centring of Gram matrices. Every quantity is written with kernel values only: the point of
the kernel trick is that :math:`\Phi` is never needed. Chapter 13 adds kernel k-means
(:func:`cluster_mean_distances`, :func:`kernel_kmeans`) and kernel k-nearest neighbours
(:func:`kernel_knn_predict`).

Conventions: ``K_test`` has shape ``(m, n)`` with ``K_test[a, i] = k(t_a, x_i)`` for ``m`` new
points :math:`t_a` and ``n`` training points :math:`x_i`; ``diag_test[a] = k(t_a, t_a)``.
"""

import itertools
import math
import numbers
import warnings
from dataclasses import dataclass

import numpy as np

from ._linalg import sign_convention
from ._results import ShortRepr
from ._validation import (
    PSD_RTOL,
    check_array,
    check_bool,
    check_gram,
    check_integer,
    check_labels,
    check_real,
    check_test_gram,
    psd_threshold,
)
from .exceptions import ConvergenceWarning
from .kernels import gaussian_kernel

__all__ = [
    "KernelKMeansResult",
    "center_gram",
    "center_test_gram",
    "cluster_mean_distances",
    "distance_to_set",
    "finite_feature_map",
    "gaussian_distance",
    "kernel_distance",
    "kernel_kmeans",
    "kernel_knn_predict",
    "nearest_centroid_decision",
    "polynomial_feature_dimension",
    "polynomial_feature_map",
]


def polynomial_feature_map(X, degree=2, c=1.0):
    r"""Explicit feature map of the polynomial kernel, :math:`\langle \Phi(x), \Phi(y) \rangle
    = (c + \langle x, y \rangle)^{\text{degree}}`.

    .. math::
        \Phi(x) = \left( \sqrt{\tbinom{D}{k_0, k_1, \dots, k_d}\, c^{k_0}}\;
        x_1^{k_1} \cdots x_d^{k_d} \right)_{k_0 + k_1 + \dots + k_d = D}

    by the multinomial theorem applied to :math:`(\sqrt{c}^{\,2} + x_1 y_1 + \dots + x_d y_d)^D`.
    For :math:`c = 0` the monomials with :math:`k_0 > 0` vanish and are dropped.

    Source: Rousseau, *Kernel methods* (2022): for :math:`d = 2`, :math:`c = 1`, :math:`D = 2`,
    :math:`\Phi(x) = (1, x_1^2, x_2^2, \sqrt2 x_1, \sqrt2 x_2, \sqrt2 x_1 x_2)`; Valle Vidal
    (2009): for :math:`c = 0`, :math:`\Phi(x) = (x_1^2, x_2^2, \sqrt2 x_1 x_2)`. Coordinates
    come in the order of ``itertools.combinations_with_replacement``, not the texts' order.

    Parameters
    ----------
    X : array_like, shape (n, d)
    degree : int >= 1
    c : float >= 0

    Returns
    -------
    Phi : ndarray, shape (n, p)
        ``p = polynomial_feature_dimension(d, degree, homogeneous=(c == 0))``.

    Examples
    --------
    >>> Phi = polynomial_feature_map([[1.0, 2.0], [3.0, 4.0]], degree=2, c=1.0)
    >>> float(Phi[0] @ Phi[1])  # (1 + 11)^2
    144.0
    """
    X = check_array(X, "X")
    degree = check_integer(degree, "degree", low=1)
    c = check_real(c, "c", low=0.0)
    n, d = X.shape
    # Column 0 holds sqrt(c), the "constant coordinate" of the multinomial expansion.
    Z = np.column_stack([np.full(n, math.sqrt(c)), X])
    first = 1 if c == 0 else 0
    columns = []
    for combo in itertools.combinations_with_replacement(range(first, d + 1), degree):
        counts = np.bincount(combo, minlength=d + 1)
        coef = math.factorial(degree) / math.prod(math.factorial(k) for k in counts)
        columns.append(math.sqrt(coef) * np.prod(Z[:, list(combo)], axis=1))
    return np.column_stack(columns)


def polynomial_feature_dimension(d, degree, homogeneous=False):
    r"""Dimension of the polynomial feature space: the number of monomials.

    .. math::
        \binom{d + D - 1}{D} \text{ for } \langle x, y\rangle^D, \qquad
        \binom{d + D}{D} \text{ for } (c + \langle x, y\rangle)^D,\ c > 0.

    Source: Valle Vidal (2009), "Función de Kernel: Ejemplo (2)", which writes
    :math:`\binom{n+d-1}{d}` for the homogeneous kernel with :math:`n` the input dimension.

    Parameters
    ----------
    d : int >= 1
        Input dimension.
    degree : int >= 1
    homogeneous : bool
        ``True`` for :math:`c = 0`.

    Returns
    -------
    int
    """
    d = check_integer(d, "d", low=1)
    degree = check_integer(degree, "degree", low=1)
    homogeneous = check_bool(homogeneous, "homogeneous")
    return math.comb(d + degree - (1 if homogeneous else 0), degree)


def finite_feature_map(K, tol=PSD_RTOL):
    r"""Feature map of a finite set read off the Gram matrix: :math:`\Phi(x_i) = \sqrt{D}\,u_i`.

    With :math:`K = U D U^T` (``eigh``) and :math:`u_i` the :math:`i`-th **row** of
    :math:`U`, :math:`K_{ij} = u_i^T D u_j = \langle \sqrt{D} u_i, \sqrt{D} u_j \rangle`.
    Rows of the result are :math:`\Phi(x_i)`, so ``Phi @ Phi.T`` equals ``K``. Each
    eigenvector is defined up to its sign: each column of ``Phi`` is signed by the package's
    one convention (its largest entry positive, the first of the near-ties:
    :func:`kernels_ref._linalg.sign_convention`), so that the map is the same on every machine.

    Source: Rousseau (2022), "From solution #1 to solution #2: when X is finite".

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric positive semi-definite.
    tol : float >= 0
        Eigenvalues in :math:`[-\text{tol} \max_{ij}|K_{ij}|, 0)` are round-off and set to 0
        (the package's one PSD rule, :func:`kernels_ref._validation.psd_threshold`).

    Returns
    -------
    Phi : ndarray, shape (n, n)

    Raises
    ------
    ValueError
        If ``K`` has an eigenvalue below :math:`-\text{tol} \max_{ij}|K_{ij}|`: no feature map
        exists for a matrix that is not PSD.
    """
    K = check_gram(K, psd=False)
    tol = check_real(tol, "tol", low=0.0)
    eigenvalues, U = np.linalg.eigh(K)
    if eigenvalues[0] < -psd_threshold(float(np.max(np.abs(K))), len(K), tol):
        raise ValueError(
            f"K is not positive semi-definite (smallest eigenvalue {eigenvalues[0]:.3g}): "
            "no feature map reproduces it"
        )
    return sign_convention(U * np.sqrt(np.clip(eigenvalues, 0.0, None)))[0]


def kernel_distance(K_xy, diag_x, diag_y, squared=False):
    r"""Distances in feature space, :math:`d(x, y)^2 = K(x,x) + K(y,y) - 2K(x,y)`.

    Source: Vert, *Méthodes à noyaux* (2004), "Exemple: calcul de distance".
    Round-off can make a squared distance between nearly equal points slightly negative: it is
    clipped at 0.

    Parameters
    ----------
    K_xy : array_like, shape (m, n)
        ``K_xy[a, i] = k(x_a, y_i)``.
    diag_x : array_like, shape (m,)
        ``k(x_a, x_a)``.
    diag_y : array_like, shape (n,)
        ``k(y_i, y_i)``.
    squared : bool
        Return :math:`d^2` instead of :math:`d`.

    Returns
    -------
    D : ndarray, shape (m, n)
    """
    K_xy = check_array(K_xy, "K_xy")
    diag_x = check_array(diag_x, "diag_x", ndim=1, n_rows=K_xy.shape[0])
    diag_y = check_array(diag_y, "diag_y", ndim=1, n_rows=K_xy.shape[1])
    squared = check_bool(squared, "squared")
    D2 = diag_x[:, None] + diag_y[None, :] - 2.0 * K_xy
    np.maximum(D2, 0.0, out=D2)
    return D2 if squared else np.sqrt(D2, out=D2)


def gaussian_distance(X, Y=None, sigma=1.0):
    r"""Feature-space distance of the Gaussian kernel in closed form.

    .. math:: d(x, y) = \sqrt{2\left(1 - e^{-\|x - y\|^2 / (2\sigma^2)}\right)}

    Source: Vert (2004), "Calcul de distance". Every distance is below :math:`\sqrt 2`: all the
    points lie on the unit sphere of the feature space.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
    sigma : float > 0

    Returns
    -------
    D : ndarray, shape (n, m)
    """
    K = gaussian_kernel(X, Y, sigma=sigma)
    K = 2.0 * (1.0 - K)
    np.maximum(K, 0.0, out=K)
    return np.sqrt(K, out=K)


def distance_to_set(K_test, diag_test, K_set):
    r"""Distance from points to the barycentre of a set in feature space, :math:`d(x, S)`.

    .. math::
        d(x, S) = \Big\| \Phi(x) - \frac1n \sum_{i=1}^n \Phi(x_i) \Big\|
        = \sqrt{K(x,x) - \frac2n \sum_{i} K(x, x_i) + \frac1{n^2} \sum_{i,j} K(x_i, x_j)}

    Source: Vert (2004), "Exemple: distance point - ensemble". The barycentre need not have a
    pre-image in the input space.

    Parameters
    ----------
    K_test : array_like, shape (m, n)
        ``K_test[a, i] = K(x_a, s_i)`` for the ``n`` points of ``S``.
    diag_test : array_like, shape (m,)
        ``K(x_a, x_a)``.
    K_set : array_like, shape (n, n)
        Gram matrix of ``S``.

    Returns
    -------
    d : ndarray, shape (m,)
    """
    K_set = check_gram(K_set, "K_set")
    K_test = check_test_gram(K_test, K_set.shape[0])
    diag_test = check_array(diag_test, "diag_test", ndim=1, n_rows=K_test.shape[0])
    d2 = diag_test - 2.0 * K_test.mean(axis=1) + K_set.mean()
    return np.sqrt(np.maximum(d2, 0.0))


def nearest_centroid_decision(K_test, K_train, y):
    r"""Decision function of the nearest-centroid (mean, "Euclidean") classifier.

    .. math::
        f(x) = d(x, S_-)^2 - d(x, S_+)^2
        = \frac{2}{|S_+|} \sum_{x_i \in S_+} K(x, x_i)
        - \frac{2}{|S_-|} \sum_{x_j \in S_-} K(x, x_j) + b,
        \qquad
        b = \frac{1}{|S_-|^2} \sum_{S_- \times S_-} K - \frac{1}{|S_+|^2} \sum_{S_+ \times S_+} K

    :math:`K(x, x)` cancels; the class is :math:`\operatorname{sign} f(x)` (the closer
    barycentre).

    Source: Vert (2004), "Application en discrimination" (which prints the coefficients
    :math:`\pm 1/|S_i|` where :math:`\mp 2/|S_i|` belong, see the errata); Rousseau (2022),
    "Introductory example: the Euclidean classifier".

    Parameters
    ----------
    K_test : array_like, shape (m, n)
    K_train : array_like, shape (n, n)
    y : array_like, shape (n,)
        Labels in {-1, +1}; :math:`S_\pm = \{x_i : y_i = \pm 1\}`.

    Returns
    -------
    f : ndarray, shape (m,)
        Positive where the barycentre of the class +1 is the closer.
    """
    K_train = check_gram(K_train, "K_train")
    n = K_train.shape[0]
    K_test = check_test_gram(K_test, n)
    y = check_labels(y, n)
    plus, minus = y > 0, y < 0
    b = K_train[np.ix_(minus, minus)].mean() - K_train[np.ix_(plus, plus)].mean()
    return 2.0 * K_test[:, plus].mean(axis=1) - 2.0 * K_test[:, minus].mean(axis=1) + b


def center_gram(K):
    r"""Gram matrix of the data centred in feature space, :math:`K' = (I - U) K (I - U)`.

    .. math::
        K'_{ij} = K_{ij} - \frac1n \sum_k (K_{ik} + K_{jk}) + \frac1{n^2} \sum_{k,l} K_{kl},
        \qquad U_{ij} = 1/n

    computed with row and column means, without forming :math:`U`.

    Source: Vert (2004), "Exemple: centrer des données"; Rousseau (2022), kernel PCA
    (:math:`K^0 = Q_n K Q_n`).

    Parameters
    ----------
    K : array_like, shape (n, n)

    Returns
    -------
    K_centered : ndarray, shape (n, n)
        Rows and columns sum to zero.
    """
    return _center_gram(check_gram(K))


def _center_gram(K):
    """:func:`center_gram` of a validated ``K`` (a new array)."""
    row_means = K.mean(axis=1)
    Kc = K - row_means[:, None]
    Kc -= row_means[None, :]
    Kc += row_means.mean()
    return Kc


def center_test_gram(K_test, K_train):
    r"""Inner products of new points with the training points, both centred on the training
    barycentre :math:`m = \frac1n \sum_i \Phi(x_i)`.

    .. math::
        K'(t, x_j) = \langle \Phi(t) - m, \Phi(x_j) - m \rangle
        = K(t, x_j) - \frac1n \sum_k K(t, x_k) - \frac1n \sum_k K(x_k, x_j)
        + \frac1{n^2} \sum_{k,l} K(x_k, x_l)

    In matrix form :math:`K'_{test} = (K_{test} - U_m K)(I - U)`, with :math:`U_m` the
    :math:`m \times n` matrix of :math:`1/n`. Needed to project new points in kernel PCA.

    Parameters
    ----------
    K_test : array_like, shape (m, n)
    K_train : array_like, shape (n, n)
        Checked to be square, symmetric and finite; only its column means are used, so it is
        not tested for positive semi-definiteness (the fit that used it reports that).

    Returns
    -------
    K_test_centered : ndarray, shape (m, n)
    """
    K_train = check_gram(K_train, "K_train", psd=False)
    K_test = check_test_gram(K_test, K_train.shape[0])
    return _center_test_gram(K_test, K_train.mean(axis=0))


def _center_test_gram(K_test, train_means):
    """:func:`center_test_gram` of a validated ``K_test``, from the column means of ``K_train``."""
    Kc = K_test - K_test.mean(axis=1)[:, None]
    Kc -= train_means[None, :]
    Kc += train_means.mean()
    return Kc


# --- chapter 13: kernel k-means and kernel nearest neighbours ---------------------------------


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
    M = _one_hot(labels, n_clusters)
    counts = M.sum(axis=0)
    KM = K @ M
    within = np.einsum("ic,ic->c", M, KM)  # sum_{j,l in c} K_jl
    with np.errstate(divide="ignore", invalid="ignore"):
        D2 = diag[:, None] - 2.0 * KM / counts + within / counts**2
    D2[:, counts == 0] = np.inf
    return D2


def _kmeans_objective(diag, K, labels, n_clusters):
    """sum_c (sum_{i in c} K_ii - (1/|c|) sum_{j,l in c} K_jl), clusters assumed non-empty."""
    M = _one_hot(labels, n_clusters)
    within = np.einsum("ic,ic->c", M, K @ M)
    return float(diag.sum() - np.sum(within / M.sum(axis=0)))


def _check_cluster_labels(labels, n, n_clusters, name):
    arr = check_array(labels, name, ndim=1, n_rows=n)
    if not np.all((arr == np.round(arr)) & (arr >= 0) & (arr < n_clusters)):
        raise ValueError(f"{name} must contain integers in [0, {n_clusters - 1}]")
    return arr.astype(int)


def cluster_mean_distances(K, labels, n_clusters=None):
    r"""Squared feature-space distances from every point to every cluster barycentre.

    .. math::
        d(x_i, m_c)^2 = \Big\| \Phi(x_i) - \frac1{|c|}\sum_{j \in c} \Phi(x_j) \Big\|^2
        = K_{ii} - \frac{2}{|c|} \sum_{j \in c} K_{ij}
        + \frac{1}{|c|^2} \sum_{j, l \in c} K_{jl}

    computed for all clusters at once with the indicator matrix :math:`M_{jc} = [j \in c]`:
    :math:`D = \operatorname{diag}(K)\mathbf 1^T - 2 K M N^{-1} + \mathbf 1 \operatorname{diag}
    (M^T K M)^T N^{-2}`, :math:`N = \operatorname{diag}(|c|)`. This is :func:`distance_to_set`
    (squared) for every cluster. An empty cluster has no barycentre: its column is
    :math:`+\infty`.

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
    K = check_gram(K)
    n = K.shape[0]
    if n_clusters is None:
        top = check_array(labels, "labels", ndim=1, n_rows=n).max()
        n_clusters = int(top) + 1 if top >= 0 else 1
    n_clusters = check_integer(n_clusters, "n_clusters", 1, n)
    labels = _check_cluster_labels(labels, n, n_clusters, "labels")
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
    history = [_kmeans_objective(diag, K, labels, n_clusters)]
    rows = np.arange(labels.size)
    converged = False
    for _ in range(max_iter):
        D2 = _cluster_distances(K, diag, labels, n_clusters)
        nearest = np.argmin(D2, axis=1)  # lowest cluster index on ties
        # Move only if another barycentre is closer by more than round-off: ties keep the
        # current cluster, so the iteration cannot cycle between equal partitions.
        move = D2[rows, nearest] < D2[rows, labels] - slack
        new = _fill_empty_clusters(K, diag, np.where(move, nearest, labels), n_clusters)
        converged = bool(np.array_equal(new, labels))
        labels = new
        history.append(history[-1] if converged else _kmeans_objective(diag, K, labels, n_clusters))
        if converged:
            break
    return labels, np.array(history), converged


def _first_appearance(labels):
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)  # clusters sorted by their first point
    relabel = np.empty_like(order)
    relabel[order] = np.arange(order.size)
    return relabel[np.searchsorted(np.unique(labels), labels)]


def kernel_kmeans(K, n_clusters, n_init=10, max_iter=100, rng=None, init=None):
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
      ``n_init`` runs is returned (the first on ties); ``rng = None`` means seed 0, so the
      result is reproducible.
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
    rng : int or numpy.random.Generator, optional
        Seed or generator of the starts.
    init : array_like of int, shape (n,), optional
        Initial labels in ``0 .. n_clusters - 1``; if given, one run starts from them and
        ``n_init`` and ``rng`` are ignored.

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
    K = check_gram(K)
    n = K.shape[0]
    n_clusters = check_integer(n_clusters, "n_clusters", 1, n)
    n_init = check_integer(n_init, "n_init", low=1)
    max_iter = check_integer(max_iter, "max_iter", low=1)
    diag = np.diag(K).copy()
    slack = 1e-12 * max(1.0, float(np.max(np.abs(diag))))
    if init is not None:
        starts = [_check_cluster_labels(init, n, n_clusters, "init")]
    else:
        if not (rng is None or isinstance(rng, np.random.Generator)):
            if isinstance(rng, bool) or not isinstance(rng, numbers.Integral):
                raise ValueError(f"rng must be None, an integer seed or a Generator, got {rng!r}")
            rng = check_integer(rng, "rng", low=0)  # numpy's seeds are >= 0
        gen = np.random.default_rng(0 if rng is None else rng)
        starts = [_initial_labels(K, diag, n_clusters, gen) for _ in range(n_init)]
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


def kernel_knn_predict(K_test, diag_test, diag_train, y_train, k):
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
    K_test : array_like, shape (m, n)
        ``K_test[a, i] = k(t_a, x_i)``.
    diag_test : array_like, shape (m,)
        ``k(t_a, t_a)``.
    diag_train : array_like, shape (n,)
        ``k(x_i, x_i)``.
    y_train : array_like, shape (n,)
        Labels in {-1, +1}.
    k : int
        Number of neighbours, in [1, n].

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
    >>> kernel_knn_predict(linear_kernel(T, X), (T**2).ravel(), (X**2).ravel(), y, k=3)
    array([-1.,  1.])
    """
    K_test = check_array(K_test, "K_test")
    m, n = K_test.shape
    diag_test = check_array(diag_test, "diag_test", ndim=1, n_rows=m)
    diag_train = check_array(diag_train, "diag_train", ndim=1, n_rows=n)
    y = check_labels(y_train, n, name="y_train")
    k = check_integer(k, "k", 1, n)
    D2 = kernel_distance(K_test, diag_test, diag_train, squared=True)
    neighbours = np.argsort(D2, axis=1, kind="stable")[:, :k]
    votes = y[neighbours].sum(axis=1)
    return np.where(votes > 0, 1.0, np.where(votes < 0, -1.0, y[neighbours[:, 0]]))
