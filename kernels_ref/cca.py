r"""Canonical correlation analysis, linear and kernel (chapter 12, "Kernel CCA").

CCA looks for directions :math:`w^1, w^2` whose projections of two paired views are maximally
correlated. Both problems are generalised symmetric eigenproblems :math:`A x = \rho B x`; they
are solved here by whitening :math:`B` (a Cholesky factor for the linear problem, the eigenbasis
of the Gram matrix for the kernel problem) and one SVD of the whitened cross-covariance.

Conventions. As in Valle Vidal (2009), covariances are plain sums,
:math:`C_{jk} = \sum_i x_i^j (x_i^k)^T` over the centred data (no :math:`1/n`): the regularisation
constant :math:`\kappa` (``reg``) is in the same units as the Gram matrices. Directions are
normalised so that the projections have unit **sum of squares** (plus the penalty when
``reg > 0``): :math:`w^T (C_{jj} + \kappa I) w = 1` and
:math:`\alpha^T (K_j^2 + \kappa K_j)\alpha = 1`. Each pair is signed so that the largest score
of the first view is positive (the first of those within a relative 1e-8 of the largest:
:func:`kernels_ref._linalg.sign_convention`). The regularised problems correspond exactly:
the linear kernel with ``reg`` gives the linear problem with ``C + reg I`` (see
:func:`kernel_cca`).

Two numbers per pair. ``objective`` is the value :math:`\rho_\kappa` of the regularised
problem; ``correlations`` is the Pearson correlation of the two canonical variates of the
training points, computed from them. They coincide for ``reg = 0`` and the penalty makes the
objective the smaller (:math:`\rho_\kappa \le r`: it adds to the denominator). Neither says
how the pair generalises: :func:`kernel_cca_correlations` gives the correlations of held-out
points, on which :math:`\kappa` is chosen.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ._linalg import sign_convention
from ._results import ShortRepr
from ._validation import boolean, cross_gram, data, gram, integer, real, result, validated
from .exceptions import TrivialCorrelationWarning
from .feature_space import _center_gram, _center_test_gram

__all__ = [
    "CCAResult",
    "KernelCCAResult",
    "kernel_cca",
    "kernel_cca_correlations",
    "kernel_cca_transform",
    "linear_cca",
]


@dataclass(frozen=True, repr=False)
class CCAResult(ShortRepr):
    r"""Linear CCA: canonical correlations and directions, one column per pair.

    The canonical variates of new points ``X1_new`` are ``(X1_new - mean1) @ w1``.

    Attributes
    ----------
    correlations : ndarray, shape (k,)
        The correlations of the canonical variates of the training points,
        :math:`\operatorname{corr}(\bar X_1 w^1_k, \bar X_2 w^2_k)`, in [0, 1].
    objective : ndarray, shape (k,)
        The canonical correlations of the (regularised) problem, :math:`\rho_1 \ge \dots \ge
        \rho_k`: equal to ``correlations`` when ``reg = 0``, below them when ``reg > 0``.
    w1, w2 : ndarray, shapes (d1, k) and (d2, k)
        Directions, with :math:`w^T (C_{jj} + \kappa I) w = 1`.
    mean1, mean2 : ndarray, shapes (d1,) and (d2,)
        Column means removed before the analysis.
    reg : float
        The regularisation :math:`\kappa`.
    residual : float
        Normwise backward error of the generalised eigenproblem (Frobenius norms),
        :math:`\max_k \|A x_k - \rho_k B x_k\| / ((\|A\| + \rho_k \|B\|)\|x_k\|)`:
        how well the answer satisfies the equations it solves (round-off is about 1e-15).
    """

    correlations: np.ndarray
    objective: np.ndarray
    w1: np.ndarray
    w2: np.ndarray
    mean1: np.ndarray
    mean2: np.ndarray
    reg: float
    residual: float


@dataclass(frozen=True, repr=False)
class KernelCCAResult(ShortRepr):
    r"""Kernel CCA: canonical correlations and dual coefficients, one column per pair.

    The canonical variates of the training points are ``K1c @ alpha1`` with ``K1c`` the
    (centred) Gram matrix; those of new points come from :func:`kernel_cca_transform`.

    Attributes
    ----------
    correlations : ndarray, shape (k,)
        The correlations of the canonical variates of the training points, computed from them:
        :math:`\operatorname{corr}(\tilde K_1\alpha^1_k, \tilde K_2\alpha^2_k)` (Pearson), in
        [-1, 1] and in practice [0, 1]. Held-out points: :func:`kernel_cca_correlations`.
    objective : ndarray, shape (k,)
        :math:`\rho_1 \ge \dots \ge \rho_k` in [0, 1], the values of the regularised
        objective (the canonical correlations of the problem solved): equal to
        ``correlations`` when ``reg = 0``, smaller when ``reg > 0`` (at ``reg = 100`` it can be
        a fifth of the plain correlation).
    alpha1, alpha2 : ndarray, shape (n, k)
        Dual coefficients, :math:`w^j = \sum_i \alpha^j_i \Phi_j(x^j_i)`, with
        :math:`\alpha^T (K_j^2 + \kappa K_j) \alpha = 1`; they lie in the range of
        :math:`K_j` (the minimum-norm choice). Pairs of a repeated correlation (e.g. all the
        correlations 1 of ``reg = 0`` on invertible Gram matrices) are any orthonormal basis
        of their common subspace: which one depends on the machine's LAPACK, and no sign
        convention fixes a rotation. Use such columns only through what the subspace
        determines (the objective, the span), never one by one.
    reg : float
        The regularisation :math:`\kappa`.
    rank1, rank2 : int
        Numerical ranks of the (centred) Gram matrices: eigenvalues above ``tol`` times the
        largest.
    residual : float
        Normwise backward error of the generalised eigenproblem, as in :class:`CCAResult`
        (with :math:`\|K_1\|_2\|K_2\|_2` bounding :math:`\|K_1K_2\|`).
    center : bool
        Whether the Gram matrices were centred in feature space.
    train_means1, train_means2 : ndarray, shape (n,)
        Column means of the (uncentred) training Gram matrices of the two views:
        :func:`kernel_cca_transform` centres new points with them when ``center``.
    """

    correlations: np.ndarray
    objective: np.ndarray
    alpha1: np.ndarray
    alpha2: np.ndarray
    reg: float
    rank1: int
    rank2: int
    residual: float
    center: bool
    train_means1: np.ndarray
    train_means2: np.ndarray


def _whitening_factor(C, name, index, reg, tol):
    """Cholesky factor ``L`` of ``C = L L^T``, refusing a numerically singular ``C``."""
    eig = np.linalg.eigvalsh(C)
    if eig[-1] <= 0 or eig[0] <= tol * eig[-1]:
        ratio = eig[0] / eig[-1] if eig[-1] > 0 else 0.0
        raise ValueError(
            f"{name} gives a singular C_{index}{index}{' + reg I' if reg else ''} (smallest / "
            f"largest eigenvalue {ratio:.1e} <= tol = {tol:.0e}): the centred columns of {name} "
            "are linearly dependent (always so when n <= d); remove them or pass reg > 0"
        )
    return np.linalg.cholesky(C)


def _pearson(S1, S2):
    """Pearson correlation of each column of ``S1`` with the same column of ``S2`` (0 for a
    constant column)."""
    A, B = S1 - S1.mean(axis=0), S2 - S2.mean(axis=0)
    scale = np.linalg.norm(A, axis=0) * np.linalg.norm(B, axis=0)
    return np.einsum("ik,ik->k", A, B) / np.where(scale > 0, scale, 1.0)


def _backward_error(A_x, B_x, rho, norm_A, norm_B, x_norm):
    """Largest normwise backward error over the columns (one eigenpair per column)."""
    res = np.linalg.norm(A_x - rho * B_x, axis=0)
    scale = (norm_A + rho * norm_B) * x_norm
    return float(np.max(res / np.where(scale > 0, scale, 1.0)))


@validated(
    X1=data(min_rows=2),
    X2=data(rows="X1"),
    n_components=integer(
        low=1, high=lambda args: min(args["X1"].shape[1], args["X2"].shape[1]), optional=True
    ),
    reg=real(low=0.0),
    tol=real(low=0.0),
)
def linear_cca(X1, X2, *, n_components=None, reg=0.0, tol=1e-12):
    r"""Linear canonical correlation analysis of two paired views.

    .. math::
        \begin{aligned}
        \rho &= \max_{w^1, w^2} \frac{(w^1)^T C_{12} w^2}
        {\sqrt{(w^1)^T C_{11} w^1 \,(w^2)^T C_{22} w^2}}
        \quad\Longleftrightarrow\\
        &\begin{pmatrix} 0 & C_{12} \\ C_{21} & 0 \end{pmatrix}
        \begin{pmatrix} w^1 \\ w^2 \end{pmatrix}
        = \rho \begin{pmatrix} C_{11} & 0 \\ 0 & C_{22} \end{pmatrix}
        \begin{pmatrix} w^1 \\ w^2 \end{pmatrix},
        \qquad C_{jk} = \sum_{i=1}^n \bar x_i^j (\bar x_i^k)^T
        \end{aligned}

    with :math:`\bar x_i^j` the **centred** points (Valle Vidal prints the sums without
    centring, see the errata). Solved by Cholesky whitening: with :math:`C_{jj} = L_j L_j^T`,
    the singular values of :math:`M = L_1^{-1} C_{12} L_2^{-T}` (triangular solves, no inverse)
    are the canonical correlations and :math:`w^1 = L_1^{-T} u`, :math:`w^2 = L_2^{-T} v` for
    the singular vectors :math:`u, v`. ``reg`` :math:`= \kappa > 0` replaces :math:`C_{jj}` by
    :math:`C_{jj} + \kappa I` (canonical ridge), the primal form of the regularisation of
    :func:`kernel_cca`.

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Análisis de
    correlación Canónica (CCA) (2)"; Hardoon, Szedmak & Shawe-Taylor (2004), linear CCA.

    Parameters
    ----------
    X1 : array_like, shape (n, d1)
    X2 : array_like, shape (n, d2)
        Row ``i`` of both views describes the same object.
    n_components : int, optional
        Number of pairs, in [1, min(d1, d2)]; all of them by default.
    reg : float >= 0
        :math:`\kappa`, in the units of :math:`C_{jj}` (sums, not averages: :math:`n` times
        the ridge of a covariance normalised by :math:`1/n`).
    tol : float >= 0
        :math:`C_{jj} + \kappa I` is declared singular when its smallest eigenvalue is at most
        ``tol`` times the largest.

    Returns
    -------
    CCAResult
        ``correlations`` of the training variates and ``objective``, the canonical
        correlations of the problem (the same when ``reg = 0``).

    Raises
    ------
    ValueError
        For bad input, and when ``reg = 0`` and the centred columns of a view are linearly
        dependent (for instance ``n <= d``): :math:`C_{jj}` is singular and the correlation
        can be made 1 trivially.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(200, 1))
    >>> X1 = np.hstack([z + 0.5 * rng.normal(size=(200, 1)), rng.normal(size=(200, 1))])
    >>> X2 = np.hstack([rng.normal(size=(200, 1)), z + 0.5 * rng.normal(size=(200, 1))])
    >>> res = linear_cca(X1, X2)
    >>> bool(res.correlations[0] > 0.7 > 0.2 > res.correlations[1])
    True
    """
    d1, d2 = X1.shape[1], X2.shape[1]
    k = min(d1, d2) if n_components is None else n_components

    mean1, mean2 = X1.mean(axis=0), X2.mean(axis=0)
    Z1, Z2 = X1 - mean1, X2 - mean2
    C11 = Z1.T @ Z1 + reg * np.eye(d1)
    C22 = Z2.T @ Z2 + reg * np.eye(d2)
    C12 = Z1.T @ Z2
    L1 = _whitening_factor(C11, "X1", 1, reg, tol)
    L2 = _whitening_factor(C22, "X2", 2, reg, tol)
    M = np.linalg.solve(L1, np.linalg.solve(L2, C12.T).T)  # L1^{-1} C12 L2^{-T}
    P, rho, Qt = np.linalg.svd(M)
    rho = np.clip(rho[:k], 0.0, 1.0)  # round-off can give 1 + 1e-16
    w1 = np.linalg.solve(L1.T, P[:, :k])
    w2 = np.linalg.solve(L2.T, Qt[:k].T)
    _, w1, w2 = sign_convention(Z1 @ w1, w1, w2)

    residual = _backward_error(
        np.vstack([C12 @ w2, C12.T @ w1]),
        np.vstack([C11 @ w1, C22 @ w2]),
        rho,
        np.sqrt(2.0) * np.linalg.norm(C12),
        np.hypot(np.linalg.norm(C11), np.linalg.norm(C22)),
        np.linalg.norm(np.vstack([w1, w2]), axis=0),
    )
    return CCAResult(_pearson(Z1 @ w1, Z2 @ w2), rho, w1, w2, mean1, mean2, reg, residual)


@validated(
    K1=gram(),
    K2=gram(rows="K1"),
    reg=real(low=0.0),
    n_components=integer(low=1, high="K1", optional=True),
    center=boolean(),
    tol=real(low=0.0),
)
def kernel_cca(K1, K2, reg, *, n_components=None, center=True, tol=1e-10):
    r"""Kernel canonical correlation analysis, regularised as in Hardoon, Szedmak &
    Shawe-Taylor (2004).

    .. math::
        \begin{aligned}
        \rho &= \max_{\alpha, \beta} \frac{\alpha^T K_1 K_2 \beta}{\sqrt{N_1 N_2}}
        \quad\Longleftrightarrow\\
        &\begin{pmatrix} 0 & K_1 K_2 \\ K_2 K_1 & 0 \end{pmatrix}
        \begin{pmatrix} \alpha \\ \beta \end{pmatrix}\\
        &\quad= \rho \begin{pmatrix} B_1 & 0 \\ 0 & B_2 \end{pmatrix}
        \begin{pmatrix} \alpha \\ \beta \end{pmatrix},\\
        N_1 &= \alpha^T K_1^2 \alpha + \kappa\, \alpha^T K_1 \alpha,\\
        N_2 &= \beta^T K_2^2 \beta + \kappa\, \beta^T K_2 \beta,\\
        B_j &= K_j^2 + \kappa K_j
        \end{aligned}

    The penalty :math:`\kappa\,\alpha^T K_1 \alpha = \kappa \|w^1\|^2` is the squared RKHS norm:
    with :math:`w^1 = \Phi_1^T\alpha` this is exactly linear CCA in feature space with
    :math:`C_{11} + \kappa I` (:func:`linear_cca` with ``reg``), so the linear kernel with
    ``reg`` reproduces ``linear_cca(X1, X2, reg=reg)`` exactly, for every :math:`\kappa`. (The
    variant :math:`(K_1 + \kappa I)^2` adds :math:`\kappa^2\|\alpha\|^2`, which has no such
    reading.) ``reg = 0`` is the problem exactly as printed by Valle Vidal.

    Solution: with :math:`K_j = U_j D_j U_j^T` (``eigh``) and :math:`\alpha = U_1 a`, the
    denominator is :math:`a^T (D_1^2 + \kappa D_1) a`, diagonal, so the whitened problem is the
    SVD of :math:`M = S_1 U_1^T U_2 S_2` with :math:`S_j = (D_j / (D_j + \kappa I))^{1/2}`
    (linear CCA in the kernel-PCA basis). Eigen-directions with eigenvalue at most ``tol``
    times the largest are the null space of :math:`K_j`: they change neither numerator nor
    denominator and get no weight. At :math:`\kappa = 0`, :math:`S_j = I` and the correlations
    are the cosines of the principal angles between the ranges of :math:`K_1` and :math:`K_2`:
    all equal to 1 when both ranges are the whole space orthogonal to the constant vector
    (centred Gram matrices of rank :math:`n - 1`, e.g. a Gaussian kernel on distinct points),
    whatever the data. That degenerate answer is returned, not refused (it is the point of
    the chapter), with a :class:`~kernels_ref.exceptions.TrivialCorrelationWarning` whenever
    ``reg = 0`` forces correlations to 1: at least :math:`r_1 + r_2 - m` of them, for ranks
    :math:`r_j` in a space of dimension :math:`m` (:math:`n - 1` centred, :math:`n` not), so
    every one when both Gram matrices have full rank. This is the trivial solution of the
    erratum on Valle Vidal's kernel CCA.

    The result holds both the objective :math:`\rho_\kappa` and the correlations of the
    training variates (:math:`\tilde K_1\alpha`, :math:`\tilde K_2\beta`) computed from
    them.

    Source: Valle Vidal (2009), "Análisis de correlación Canónica (CCA) (2)" (the problem with
    :math:`\kappa = 0`, uncentred); Hardoon, Szedmak & Shawe-Taylor (2004), regularised kernel
    CCA (the penalty on the norms of the weight vectors).

    Parameters
    ----------
    K1, K2 : array_like, shape (n, n)
        Gram matrices of the two views; entry ``ij`` of both concerns the same pair of objects.
    reg : float >= 0
        :math:`\kappa`, in the units of the Gram matrices (no factor :math:`n`): multiplying
        ``K1``, ``K2`` and ``reg`` by the same number changes nothing. Each eigen-direction of
        :math:`K_j` keeps the weight :math:`D_j/(D_j + \kappa)`: directions whose eigenvalue is
        far above :math:`\kappa` count fully, those far below are suppressed. So set a grid
        relative to the eigenvalues, after dividing each view by its mean eigenvalue
        :math:`s_j = \operatorname{tr}(\tilde K_j)/n` (:math:`\tilde K_j` centred), so that
        ``reg`` is a fraction of it whatever the kernels' scales: ``kernel_cca(K1 / s1, K2 / s2,
        r)`` for ``r`` in ``np.logspace(-4, 0, 9)``, with the choice made on held-out pairs
        (the training correlations only grow as :math:`r` decreases).
    n_components : int, optional
        Number of pairs, in [1, min(rank1, rank2)]; all of them by default.
    center : bool
        Centre both Gram matrices in feature space first (``center_gram``), as a correlation
        requires. ``False`` solves the uncentred problem, as printed.
    tol : float >= 0
        Relative threshold at or below which an eigenvalue of :math:`K_j` counts as zero. When
        ``reg > 0`` a dropped direction could have moved a correlation by at most about
        :math:`2\sqrt{\text{tol}\,\lambda_{\max} / \kappa}`; ``tol = 0`` keeps every
        positive eigenvalue.

    Returns
    -------
    KernelCCAResult

    Raises
    ------
    ValueError
        For bad input, and when a (centred) Gram matrix has no positive eigenvalue.

    Warns
    -----
    TrivialCorrelationWarning
        When ``reg = 0`` and the ranks force correlations to 1.

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> rng = np.random.default_rng(1)
    >>> X1, X2 = rng.normal(size=(30, 2)), rng.normal(size=(30, 3))
    >>> res = kernel_cca(linear_kernel(X1), linear_kernel(X2), reg=0.5)
    >>> bool(np.allclose(res.objective, linear_cca(X1, X2, reg=0.5).objective))
    True
    >>> bool(np.all(res.objective <= res.correlations))  # the penalty lowers the objective
    True
    """
    means1, means2 = K1.mean(axis=0), K2.mean(axis=0)
    if center:
        K1, K2 = _center_gram(K1), _center_gram(K2)

    bases = []
    for K, name in ((K1, "K1"), (K2, "K2")):
        d, U = np.linalg.eigh(K)
        if d[-1] <= 0:
            raise ValueError(
                f"{name} has no positive eigenvalue{' after centring' if center else ''} "
                "(e.g. a constant kernel): there is no direction to correlate"
            )
        keep = d > tol * d[-1]
        bases.append((d[keep], U[:, keep], float(d[-1])))
    (d1, U1, top1), (d2, U2, top2) = bases
    if reg == 0:
        _warn_trivial(d1.size, d2.size, len(K1) - 1 if center else len(K1))
    k = min(d1.size, d2.size)
    if n_components is not None and n_components > k:  # the ranks are known only here
        raise ValueError(
            f"n_components must lie in [1, {k}], the smaller rank of K1 and K2, got {n_components}"
        )
    k = k if n_components is None else n_components

    s1, s2 = np.sqrt(d1 / (d1 + reg)), np.sqrt(d2 / (d2 + reg))
    M = (U1 * s1).T @ (U2 * s2)
    P, rho, Qt = np.linalg.svd(M, full_matrices=False)
    rho = np.clip(rho[:k], 0.0, 1.0)  # cosines of principal angles can round to 1 + 1e-16
    alpha1 = U1 @ (P[:, :k] / np.sqrt(d1 * d1 + reg * d1)[:, None])
    alpha2 = U2 @ (Qt[:k].T / np.sqrt(d2 * d2 + reg * d2)[:, None])
    scores1, scores2 = K1 @ alpha1, K2 @ alpha2
    scores1, alpha1, alpha2, scores2 = sign_convention(scores1, alpha1, alpha2, scores2)

    residual = _backward_error(
        np.vstack([K1 @ scores2, K2 @ scores1]),
        np.vstack([K1 @ scores1 + reg * scores1, K2 @ scores2 + reg * scores2]),
        rho,
        np.sqrt(2.0) * top1 * top2,
        np.hypot(top1 * (top1 + reg), top2 * (top2 + reg)),
        np.linalg.norm(np.vstack([alpha1, alpha2]), axis=0),
    )
    return KernelCCAResult(
        correlations=_pearson(scores1, scores2),
        objective=rho,
        alpha1=alpha1,
        alpha2=alpha2,
        reg=reg,
        rank1=int(d1.size),
        rank2=int(d2.size),
        residual=residual,
        center=center,
        train_means1=means1,
        train_means2=means2,
    )


def _warn_trivial(rank1, rank2, dim):
    """Warn when ranks ``rank1``, ``rank2`` in a space of dimension ``dim`` force canonical
    correlations of the unregularised problem to 1 (their ranges meet)."""
    forced = rank1 + rank2 - dim
    if forced <= 0:
        return
    which = (
        "every canonical correlation is 1"
        if rank1 == rank2 == dim
        else f"at least {forced} canonical correlations are 1"
    )
    warnings.warn(
        f"reg=0 with Gram matrices of ranks {rank1} and {rank2} (of {dim}): {which} whatever "
        "the data, the trivial solution of unregularised kernel CCA (see the errata): pass "
        "reg > 0 and choose it on held-out points (kernel_cca_correlations)",
        TrivialCorrelationWarning,
        stacklevel=3,
    )


@validated(
    result=result(KernelCCAResult, "kernel_cca"),
    K_test=cross_gram("result.alpha1"),
    view=integer(low=1, high=2),
)
def kernel_cca_transform(result, K_test, view):
    r"""Canonical variates of new points, :math:`f(t) = \sum_i \alpha_i \tilde k(x_i, t)`.

    .. math::
        \langle \Phi(t) - m, w \rangle = \sum_{i=1}^n \alpha_i K'(t, x_i),
        \qquad w = \sum_i \alpha_i (\Phi(x_i) - m)

    with :math:`K'` the test Gram matrix centred on the training barycentre :math:`m`
    (``center_test_gram``, from the column means that ``result`` stores), or :math:`K` itself
    when ``result`` was fitted uncentred. On the training points of the view this is
    ``center_gram(K_train) @ alpha``.

    Source: Valle Vidal (2009), "Análisis de componentes principales (PCA) (3)" (the same
    projection for kernel PCA); Hardoon, Szedmak & Shawe-Taylor (2004), kernel CCA.

    Parameters
    ----------
    result : KernelCCAResult
        From :func:`kernel_cca`.
    K_test : array_like, shape (m, n)
        ``K_test[a, i] = k_j(t_a, x^j_i)``, with the kernel of view ``j``.
    view : {1, 2}
        Which view the new points belong to: uses ``alpha1`` and ``train_means1``, or
        ``alpha2`` and ``train_means2``.

    Returns
    -------
    scores : ndarray, shape (m, k)

    Examples
    --------
    >>> from kernels_ref.feature_space import center_gram
    >>> from kernels_ref.kernels import linear_kernel
    >>> rng = np.random.default_rng(1)
    >>> X1, X2 = rng.normal(size=(30, 2)), rng.normal(size=(30, 3))
    >>> K1, K2 = linear_kernel(X1), linear_kernel(X2)
    >>> res = kernel_cca(K1, K2, reg=0.5)
    >>> scores = kernel_cca_transform(res, K1, view=1)  # the training points of view 1
    >>> bool(np.allclose(scores, center_gram(K1) @ res.alpha1))
    True
    """
    return _variates(result, K_test, view)


def _variates(result, K_test, view):
    """The canonical variates of view ``view`` of the points of the checked ``K_test``."""
    alpha, means = (
        (result.alpha1, result.train_means1) if view == 1 else (result.alpha2, result.train_means2)
    )
    if result.center:
        K_test = _center_test_gram(K_test, means)
    return K_test @ alpha


@validated(
    result=result(KernelCCAResult, "kernel_cca"),
    K1_test=cross_gram("result.alpha1", min_rows=2),
    K2_test=cross_gram("result.alpha1", rows="K1_test"),
)
def kernel_cca_correlations(result, K1_test, K2_test):
    r"""Correlations of the canonical variates of held-out points, pair by pair.

    .. math::
        r_k = \operatorname{corr}\big(K'_1 \alpha^1_k,\; K'_2 \alpha^2_k\big),

    the Pearson correlation over the :math:`m` test objects of the variates of their two views
    (:func:`kernel_cca_transform`: each test Gram matrix centred with the **training** means,
    as a new point is projected). The number by which :math:`\kappa` is chosen: on training
    points the correlations of an unregularised fit are 1 whatever the data, while on fresh
    points they measure what the views share. On the training points themselves it gives the
    training correlations, ``result.correlations``.

    Source: Hardoon, Szedmak & Shawe-Taylor (2004), kernel CCA (the regularisation chosen on
    held-out data).

    Parameters
    ----------
    result : KernelCCAResult
        From :func:`kernel_cca`.
    K1_test, K2_test : array_like, shape (m, n)
        ``K1_test[a, i] = k_1(t^1_a, x^1_i)`` and ``K2_test[a, i] = k_2(t^2_a, x^2_i)``: the two
        views of the same ``m >= 2`` test objects (row ``a`` of both), against the training
        points.

    Returns
    -------
    ndarray, shape (k,)
        One correlation per pair, in [-1, 1] (0 for a constant variate).

    Raises
    ------
    ValueError
        For a bad ``K1_test`` or ``K2_test``, test matrices of different numbers of rows, or
        fewer than 2 rows.
    TypeError
        If ``result`` is not a :class:`KernelCCAResult`.

    Examples
    --------
    >>> from kernels_ref.kernels import linear_kernel
    >>> rng = np.random.default_rng(1)
    >>> X1, X2 = rng.normal(size=(30, 2)), rng.normal(size=(30, 3))
    >>> K1, K2 = linear_kernel(X1), linear_kernel(X2)
    >>> res = kernel_cca(K1, K2, reg=0.5)
    >>> bool(np.allclose(kernel_cca_correlations(res, K1, K2), res.correlations))
    True
    """
    return _pearson(_variates(result, K1_test, 1), _variates(result, K2_test, 2))
