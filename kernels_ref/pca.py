r"""Principal component analysis, classical and with a kernel (chapter 11, "Kernel PCA").

Conventions. The variance is Vert's, :math:`\widehat{\operatorname{var}}(f) = \frac1n
\sum_{i=1}^n f(x_i)^2` on data centred in feature space, so the variance of the :math:`i`-th
component is :math:`\lambda_i / n` where :math:`\lambda_i` is the :math:`i`-th eigenvalue of the
**centred** Gram matrix :math:`K' = (I - U) K (I - U)` (equivalently, the eigenvalue of the
covariance operator :math:`\frac1n \sum_i (\Phi(x_i) - m) \otimes (\Phi(x_i) - m)`). The
coefficients are :math:`\alpha_i = e_i / \sqrt{\lambda_i}`, so that the component
:math:`f_i = \sum_j \alpha_{i,j} K'(x_j, \cdot)` has unit norm in the feature space.

Signs. An eigenvector is defined up to its sign; each component is signed so that its largest
training projection (in absolute value; the first of those within a relative 1e-8 of the
largest, so that ties in exact arithmetic do not depend on round-off) is positive, in
:func:`kernel_pca` and :func:`linear_pca` alike (:func:`kernels_ref._linalg.sign_convention`).

Rank. Only eigenvalues above ``tol`` times the largest give components: :math:`\alpha_i =
e_i/\sqrt{\lambda_i}` is never formed for a zero (or round-off negative) eigenvalue. Asking for
more components than the numerical rank of :math:`K'` (at most :math:`n - 1`, since
:math:`K' \mathbf 1 = 0`) raises a :class:`ValueError` that gives the rank.
"""

from dataclasses import dataclass

import numpy as np

from ._linalg import sign_convention
from ._results import ShortRepr
from ._validation import cross_gram, data, gram, integer, real, result, validated
from .feature_space import _center_gram, _center_test_gram

__all__ = [
    "KernelPCAResult",
    "LinearPCAResult",
    "kernel_pca",
    "kernel_pca_transform",
    "linear_pca",
]


@dataclass(frozen=True, repr=False)
class KernelPCAResult(ShortRepr):
    r"""Kernel PCA: dual coefficients and variances of the leading components.

    Attributes
    ----------
    alphas : ndarray, shape (n, k)
        Column :math:`i` is :math:`\alpha_i = e_i / \sqrt{\lambda_i}`:
        :math:`f_i(x) = \sum_j \alpha_{i,j} K'(x_j, x)` and
        :math:`\alpha_i^T K' \alpha_j = \delta_{ij}` (orthonormal in the feature space).
    eigenvalues : ndarray, shape (k,)
        :math:`\lambda_1 \ge \dots \ge \lambda_k > 0`, eigenvalues of the centred Gram matrix.
    explained_variance : ndarray, shape (k,)
        :math:`\lambda_i / n`, Vert's variance :math:`\frac1n \sum_j f_i(x_j)^2`.
    explained_variance_ratio : ndarray, shape (k,)
        :math:`\lambda_i / \sum_{\lambda_j > 0} \lambda_j`: the share of the total variance
        :math:`\frac1n \sum_j \|\Phi(x_j) - m\|^2 = \operatorname{tr}(K') / n`.
    projections : ndarray, shape (n, k)
        :math:`f_i(x_j) = (K' \alpha_i)_j = \sqrt{\lambda_i}\, e_{i,j}`, the coordinates of
        the training points.
    rank : int
        Numerical rank of :math:`K'`: the number of eigenvalues above ``tol`` times the largest.
    train_means : ndarray, shape (n,)
        Column means of the training Gram matrix: :func:`kernel_pca_transform` centres new
        points with them.
    """

    alphas: np.ndarray
    eigenvalues: np.ndarray
    explained_variance: np.ndarray
    explained_variance_ratio: np.ndarray
    projections: np.ndarray
    rank: int
    train_means: np.ndarray


@dataclass(frozen=True, repr=False)
class LinearPCAResult(ShortRepr):
    r"""Classical PCA: principal directions and their variances.

    The coordinates of new points ``X_new`` are ``(X_new - mean) @ components``.

    Attributes
    ----------
    components : ndarray, shape (d, k)
        Unit principal directions :math:`w_1, \dots, w_k` (columns), orthonormal.
    variances : ndarray, shape (k,)
        :math:`\widehat{\operatorname{var}}(h_{w_i}) = \frac1n \sum_j (w_i^T \bar x_j)^2`,
        the eigenvalues of :math:`C = \frac1n \bar X^T \bar X`, decreasing.
    explained_variance_ratio : ndarray, shape (k,)
        ``variances / trace(C)``.
    mean : ndarray, shape (d,)
        Column means removed before the analysis.
    projections : ndarray, shape (n, k)
        :math:`h_{w_i}(\bar x_j) = \bar x_j^T w_i`, the coordinates of the training points.
    """

    components: np.ndarray
    variances: np.ndarray
    explained_variance_ratio: np.ndarray
    mean: np.ndarray
    projections: np.ndarray


@validated(X=data(), n_components=integer(low=1, high=("X", 1), optional=True))
def linear_pca(X, *, n_components=None):
    r"""Classical principal component analysis, by ``eigh`` of the covariance matrix.

    .. math::
        w_i = \arg\max_{w \perp \{w_1, \dots, w_{i-1}\}}
        \frac1n \sum_{j=1}^n \frac{(\bar x_j^T w)^2}{\|w\|^2}
        = \arg\max_{w \perp \{w_1, \dots, w_{i-1}\}} \frac1n \frac{w^T \bar X^T \bar X w}{w^T w}

    The solutions are the eigenvectors of :math:`C = \frac1n \bar X^T \bar X` by decreasing
    eigenvalue, and the eigenvalue is the variance :math:`\widehat{\operatorname{var}}(h_{w_i})`
    of the projection :math:`h_{w_i}(x) = \bar x^T w_i`. Here :math:`\bar x_j = x_j - \bar x`:
    the data are centred first.

    Source: Vert, *Méthodes à noyaux* (2004), "ACP: rappels" (which diagonalises
    :math:`X^T X`, the same eigenvectors with :math:`n` times the eigenvalues).

    Parameters
    ----------
    X : array_like, shape (n, d)
    n_components : int, optional
        In [1, d]; all ``d`` by default. Directions of zero variance are returned as they come
        (any orthonormal basis of the null space of :math:`C` is a solution).

    Returns
    -------
    LinearPCAResult

    Examples
    --------
    >>> X = np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])
    >>> res = linear_pca(X)
    >>> res.variances.round(6).tolist(), res.components[:, 0].round(6).tolist()
    ([3.0, 0.5], [1.0, 0.0])
    """
    n, d = X.shape
    k = d if n_components is None else n_components
    mean = X.mean(axis=0)
    Xc = X - mean
    C = (Xc.T @ Xc) / n
    variances, W = np.linalg.eigh(C)
    variances, W = variances[::-1][:k], W[:, ::-1][:, :k]
    variances = np.maximum(variances, 0.0)  # round-off can give -1e-17 on a null direction
    total = float(np.trace(C))
    ratio = variances / total if total > 0 else np.zeros_like(variances)
    projections, W = sign_convention(Xc @ W, W)
    return LinearPCAResult(W, variances, ratio, mean, projections)


@validated(K=gram(), n_components=integer(low=1, high="K", optional=True), tol=real(low=0.0))
def kernel_pca(K, *, n_components=None, tol=1e-10):
    r"""Kernel principal component analysis.

    .. math::
        \alpha_i = \arg\max_{\alpha} \frac{\alpha^T K'^2 \alpha}{n\, \alpha^T K' \alpha}
        \ \text{ s.t. } \alpha^T K' \alpha_j = 0 \ (j < i)
        \quad\Longrightarrow\quad
        \alpha_i = \frac{e_i}{\sqrt{\lambda_i}},
        \qquad K' e_i = \lambda_i e_i, \ \|e_i\| = 1

    with :math:`K' = (I - U)K(I - U)` the centred Gram matrix (``center_gram``) and
    :math:`\lambda_1 \ge \lambda_2 \ge \dots` its eigenvalues (``eigh``, sorted decreasing).
    The component :math:`f_i = \sum_j \alpha_{i,j} K'(x_j, \cdot)` has
    :math:`\|f_i\|^2 = \alpha_i^T K' \alpha_i = 1`, variance
    :math:`\frac1n \sum_j f_i(x_j)^2 = \alpha_i^T K'^2 \alpha_i / n = \lambda_i / n`, and the
    training projections are :math:`K' \alpha_i = \sqrt{\lambda_i}\, e_i`.

    Source: Vert, *Méthodes à noyaux* (2004), "ACP à noyau", "Vision fonctionnelle",
    "Normalisation"; Rousseau, *Kernel methods* (2022), kernel PCA (:math:`K (X_\Phi v_i) =
    n\lambda_i (X_\Phi v_i)` with :math:`\lambda_i` the covariance eigenvalue, that is
    :math:`\lambda_i / n` here); Valle Vidal (2009), "Análisis de componentes principales (PCA)
    (3)"; Schölkopf, Smola & Müller (1998).

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of the training points (not centred: it is centred here).
    n_components : int, optional
        Number of components, in [1, rank]; by default all ``rank`` of them.
    tol : float >= 0
        Eigenvalues at or below ``tol`` times the largest count as zero: they give no
        component.

    Returns
    -------
    KernelPCAResult

    Raises
    ------
    ValueError
        For bad input; when ``n_components`` exceeds the numerical rank of :math:`K'` (the
        message gives the rank); when :math:`K'` is zero (all points have the same image).

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> X = np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])
    >>> res = kernel_pca(linear_kernel(X))
    >>> res.rank, res.explained_variance.round(6).tolist()
    (2, [3.0, 0.5])
    >>> res.projections[:, 0].round(6).tolist()
    [-1.0, 3.0, -1.0, -1.0]
    """
    Kc = _center_gram(K)
    n = Kc.shape[0]
    eigenvalues, E = np.linalg.eigh(Kc)
    eigenvalues, E = eigenvalues[::-1], E[:, ::-1]
    top = eigenvalues[0]
    rank = int(np.count_nonzero(eigenvalues > tol * top)) if top > 0 else 0
    if rank == 0:
        raise ValueError(
            "K has a zero centred Gram matrix: all the points have the same image in feature "
            "space, there is no principal component"
        )
    k = rank if n_components is None else n_components
    if k > rank:
        raise ValueError(
            f"n_components = {k} exceeds the numerical rank {rank} of the centred Gram matrix "
            f"(eigenvalues above tol = {tol:.0e} times the largest): the other eigenvalues are "
            "zero and give no component"
        )
    lam, E = eigenvalues[:k], E[:, :k]
    projections, E = sign_convention(E * np.sqrt(lam), E)
    alphas = E / np.sqrt(lam)
    positive_total = float(eigenvalues[eigenvalues > 0].sum())
    return KernelPCAResult(
        alphas=alphas,
        eigenvalues=lam,
        explained_variance=lam / n,
        explained_variance_ratio=lam / positive_total,
        projections=projections,
        rank=rank,
        train_means=K.mean(axis=0),
    )


@validated(result=result(KernelPCAResult, "kernel_pca"), K_test=cross_gram("result.alphas"))
def kernel_pca_transform(result, K_test):
    r"""Coordinates of new points on the kernel principal components.

    .. math::
        \begin{aligned}
        f_i(t) &= \langle \Phi(t) - m, v_i \rangle\\
        &= \sum_{j=1}^n \alpha_{i,j} K'(t, x_j),\\
        K'(t, x_j) &= K(t, x_j)\\
        &\quad - \frac1n \sum_k K(t, x_k)\\
        &\quad - \frac1n \sum_k K(x_k, x_j)\\
        &\quad + \frac1{n^2} \sum_{k,l} K(x_k, x_l)
        \end{aligned}

    The new point is centred on the **training** barycentre :math:`m` (``center_test_gram``),
    from the column means of the training Gram matrix that ``result`` stores. Given the
    training points themselves (``K_test = K_train``) it returns ``result.projections``.

    Source: Valle Vidal (2009), "Análisis de componentes principales (PCA) (3)", which writes
    :math:`\sum_i \alpha_i^n K(x_i, x)` with the uncentred kernel (see the errata); Vert (2004),
    "Exemple: centrer des données".

    Parameters
    ----------
    result : KernelPCAResult
        From :func:`kernel_pca` on the training Gram matrix.
    K_test : array_like, shape (m, n)
        ``K_test[a, j] = k(t_a, x_j)``.

    Returns
    -------
    Z : ndarray, shape (m, k)

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> X = np.array([[-1.0, 0.0], [3.0, 0.0], [-1.0, -1.0], [-1.0, 1.0]])
    >>> res = kernel_pca(linear_kernel(X))
    >>> kernel_pca_transform(res, linear_kernel([[1.0, -3.0]], X)).round(6)
    array([[1., 3.]])
    """
    return _center_test_gram(K_test, result.train_means) @ result.alphas
