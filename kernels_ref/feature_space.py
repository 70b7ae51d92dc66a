r"""Geometry in feature space through the kernel alone (chapter 1, "The kernel trick").

Explicit feature maps (the polynomial map, the map of a finite set read off :math:`K = UDU^T`),
distances between points and to the barycentre of a set, the nearest-centroid classifier, and
the centring of Gram matrices. Every quantity is written with kernel values only: the point of
the kernel trick is that :math:`\Phi` is never needed. Chapter 13 builds kernel k-means and
kernel k-nearest neighbours on these distances (:mod:`kernels_ref.clustering`).

Conventions: ``K_test`` has shape ``(m, n)`` with ``K_test[a, i] = k(t_a, x_i)`` for ``m`` new
points :math:`t_a` and ``n`` training points :math:`x_i`; ``diag_test[a] = k(t_a, t_a)``.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ._linalg import sign_convention
from ._results import ShortRepr
from ._validation import (
    PSD_RTOL,
    array,
    boolean,
    cross_gram,
    data,
    gram,
    integer,
    labels,
    positive,
    psd_threshold,
    real,
    result,
    validated,
    vector,
)
from .kernels import XY, gaussian_kernel

__all__ = [
    "NearestCentroidResult",
    "center_gram",
    "center_test_gram",
    "distance_to_set",
    "finite_feature_map",
    "gaussian_distance",
    "kernel_distance",
    "nearest_centroid",
    "nearest_centroid_predict",
    "polynomial_feature_dimension",
    "polynomial_feature_map",
]


@validated(X=data(), degree=integer(low=1), c=real(low=0.0))
def polynomial_feature_map(X, *, degree=2, c=1.0):
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


@validated(d=integer(low=1), degree=integer(low=1), homogeneous=boolean())
def polynomial_feature_dimension(d, degree, *, homogeneous=False):
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
    return math.comb(d + degree - (1 if homogeneous else 0), degree)


@validated(K=gram(psd=False), tol=real(low=0.0))
def finite_feature_map(K, *, tol=PSD_RTOL):
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
    eigenvalues, U = np.linalg.eigh(K)
    if eigenvalues[0] < -psd_threshold(float(np.max(np.abs(K))), len(K), tol):
        raise ValueError(
            f"K is not positive semi-definite (smallest eigenvalue {eigenvalues[0]:.3g}): "
            "no feature map reproduces it"
        )
    return sign_convention(U * np.sqrt(np.clip(eigenvalues, 0.0, None)))[0]


@validated(
    K_xy=array(2),
    diag_x=vector(rows="K_xy"),
    diag_y=vector(rows=("K_xy", 1)),
    squared=boolean(),
)
def kernel_distance(K_xy, diag_x, diag_y, *, squared=False):
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
    D2 = diag_x[:, None] + diag_y[None, :] - 2.0 * K_xy
    np.maximum(D2, 0.0, out=D2)
    return D2 if squared else np.sqrt(D2, out=D2)


@validated(**XY, sigma=positive())
def gaussian_distance(X, Y=None, *, sigma=1.0):
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


@validated(K_set=gram(), K_test=cross_gram("K_set"), diag_test=vector(rows="K_test"))
def distance_to_set(K_test, diag_test, K_set):
    r"""Distance from points to the barycentre of a set in feature space, :math:`d(x, S)`.

    .. math::
        \begin{aligned}
        d(x, S) &= \Big\| \Phi(x) - \frac1n \sum_{i=1}^n \Phi(x_i) \Big\| = \sqrt{q(x)},\\
        q(x) &= K(x,x) - \frac2n \sum_{i} K(x, x_i)\\
        &\quad + \frac1{n^2} \sum_{i,j} K(x_i, x_j)
        \end{aligned}

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
    n = len(K_set)
    d2 = _squared_distances_to_means(K_test.sum(axis=1)[:, None], diag_test, K_set.sum(), n)
    return np.sqrt(np.maximum(d2[:, 0], 0.0))


def _squared_distances_to_means(sums, diag_test, within, counts):
    r"""Squared distances from points :math:`t_a` to the barycentres of sets :math:`c`,
    :math:`k(t_a, t_a) - \frac{2}{|c|}\sum_{i \in c} k(t_a, x_i) + \frac{1}{|c|^2}
    \sum_{i, j \in c} K_{ij}`, from ``sums[a, c]`` (the middle sums), the diagonal
    ``diag_test``, the ``within[c]`` sums and the sizes ``counts[c]`` (the one formula of
    :func:`distance_to_set` and of kernel k-means; an empty set gives NaN or inf)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return diag_test[:, None] - 2.0 * sums / counts + within / counts**2


@dataclass(frozen=True, repr=False)
class NearestCentroidResult(ShortRepr):
    r"""The nearest-centroid classifier fitted by :func:`nearest_centroid`.

    Attributes
    ----------
    y : ndarray, shape (n,)
        Training labels in {-1, +1}; they say which columns of ``K_test`` belong to
        :math:`S_+` and :math:`S_-`.
    b : float
        :math:`\frac{1}{|S_-|^2} \sum_{S_- \times S_-} K - \frac{1}{|S_+|^2}
        \sum_{S_+ \times S_+} K`.
    """

    y: np.ndarray
    b: float


@validated(K=gram(), y=labels(rows="K"))
def nearest_centroid(K, y):
    r"""Fit the nearest-centroid (mean, "Euclidean") classifier: the labels and the intercept
    :math:`b` of :func:`nearest_centroid_predict`.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of the training points.
    y : array_like, shape (n,)
        Labels in {-1, +1}; :math:`S_\pm = \{x_i : y_i = \pm 1\}`.

    Returns
    -------
    NearestCentroidResult

    Examples
    --------
    >>> K = np.array([[1.0, 0.0], [0.0, 4.0]])
    >>> nearest_centroid(K, [1, -1])
    NearestCentroidResult(y=<array (2,) float64>, b=3)
    """
    plus, minus = y > 0, y < 0
    b = K[np.ix_(minus, minus)].mean() - K[np.ix_(plus, plus)].mean()
    return NearestCentroidResult(y=y.copy(), b=float(b))


@validated(result=result(NearestCentroidResult, "nearest_centroid"), K_test=cross_gram("result.y"))
def nearest_centroid_predict(result, K_test):
    r"""Decision function of the nearest-centroid (mean, "Euclidean") classifier.

    .. math::
        \begin{aligned}
        f(x) &= d(x, S_-)^2 - d(x, S_+)^2
        = \frac{2}{|S_+|} \sum_{x_i \in S_+} K(x, x_i)
        - \frac{2}{|S_-|} \sum_{x_j \in S_-} K(x, x_j) + b,\\
        b &= \frac{1}{|S_-|^2} \sum_{S_- \times S_-} K - \frac{1}{|S_+|^2} \sum_{S_+ \times S_+} K
        \end{aligned}

    :math:`K(x, x)` cancels; the class is :math:`\operatorname{sign} f(x)` (the closer
    barycentre).

    Source: Vert (2004), "Application en discrimination" (which prints the coefficients
    :math:`\pm 1/|S_i|` where :math:`\mp 2/|S_i|` belong, see the errata); Rousseau (2022),
    "Introductory example: the Euclidean classifier".

    Parameters
    ----------
    result : NearestCentroidResult
        From :func:`nearest_centroid`: the labels and :math:`b`.
    K_test : array_like, shape (m, n)
        ``K_test[a, i] = K(t_a, x_i)``.

    Returns
    -------
    f : ndarray, shape (m,)
        Positive where the barycentre of the class +1 is the closer.

    Examples
    --------
    >>> K = np.array([[1.0, 0.0], [0.0, 4.0]])
    >>> nearest_centroid_predict(nearest_centroid(K, [1, -1]), K).tolist()
    [5.0, -5.0]
    """
    plus, minus = result.y > 0, result.y < 0
    return 2.0 * K_test[:, plus].mean(axis=1) - 2.0 * K_test[:, minus].mean(axis=1) + result.b


@validated(K=gram())
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
    return _center_gram(K)


def _center_gram(K):
    """:func:`center_gram` of a validated ``K`` (a new array)."""
    row_means = K.mean(axis=1)
    Kc = K - row_means[:, None]
    Kc -= row_means[None, :]
    Kc += row_means.mean()
    return Kc


@validated(K_train=gram(psd=False), K_test=cross_gram("K_train"))
def center_test_gram(K_test, K_train):
    r"""Inner products of new points with the training points, both centred on the training
    barycentre :math:`m = \frac1n \sum_i \Phi(x_i)`.

    .. math::
        \begin{aligned}
        &K'(t, x_j)\\
        &\quad= \langle \Phi(t) - m, \Phi(x_j) - m \rangle\\
        &\quad= K(t, x_j) - \frac1n \sum_k K(t, x_k)\\
        &\qquad - \frac1n \sum_k K(x_k, x_j)\\
        &\qquad + \frac1{n^2} \sum_{k,l} K(x_k, x_l)
        \end{aligned}

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
    return _center_test_gram(K_test, K_train.mean(axis=0))


def _center_test_gram(K_test, train_means):
    """:func:`center_test_gram` of a validated ``K_test``, from the column means of ``K_train``."""
    Kc = K_test - K_test.mean(axis=1)[:, None]
    Kc -= train_means[None, :]
    Kc += train_means.mean()
    return Kc
