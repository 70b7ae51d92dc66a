r"""Regression with kernels: the representer theorem (chapter 2), kernel ridge regression
(chapter 9) and support vector regression (chapter 10).

Kernel ridge regression (KRR) minimises over the RKHS :math:`\mathcal H` of the kernel

.. math::
    \sum_{i=1}^n (y_i - f(x_i))^2 + \lambda \|f\|_{\mathcal H}^2
    \quad\text{or, with Vert's mean loss,}\quad
    \frac1n \sum_{i=1}^n (y_i - f(x_i))^2 + \lambda \|f\|_{\mathcal H}^2 .

By the representer theorem :math:`f = \sum_i \alpha_i K(x_i, \cdot)` with
:math:`\alpha = (K + \lambda I)^{-1} y` (sum) or :math:`(K + n\lambda I)^{-1} y` (mean); the flag
``n_scaled=True`` selects the mean. Systems are solved through a Cholesky factor, never an
inverse. Valle Vidal's Lagrangian derivation has its own dual variables
:math:`\alpha_{VV} = 2\lambda (K + \lambda I)^{-1} y`; the functions named ``*_lagrange`` use them.

:func:`kernel_ridge_span` and :func:`span_decomposition` fit over a larger span (extra centres)
and split a function into its part in :math:`\operatorname{span}\{K(x_i, \cdot)\}` and the
orthogonal rest: the numerical side of the representer theorem.

Support vector regression (:func:`svr`, :func:`svr_predict`) replaces the square loss by
Vapnik's :math:`\varepsilon`-insensitive loss; its dual in :math:`(\alpha, \alpha^*)` is solved
by the SMO solver of :mod:`kernels_ref.smo` as a problem in :math:`2n` variables.
"""

from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    check_array,
    check_bool,
    check_epsilon,
    check_gram,
    check_instance,
    check_integer,
    check_max_iter,
    check_positive,
    check_same_n,
    check_test_gram,
)
from .smo import TiledGram, _smo
from .svm import TOL

__all__ = [
    "SVRResult",
    "SpanDecomposition",
    "kernel_ridge",
    "kernel_ridge_gradient",
    "kernel_ridge_lagrange",
    "kernel_ridge_lagrange_objective",
    "kernel_ridge_lagrange_predict",
    "kernel_ridge_objective",
    "kernel_ridge_predict",
    "kernel_ridge_span",
    "lam_mean_to_sum",
    "lam_sum_to_mean",
    "ridge_primal",
    "ridge_weights_from_lagrange",
    "rkhs_norm",
    "span_decomposition",
    "svr",
    "svr_predict",
]


def _check_ridge(K, y, lam):
    """Validate a Gram matrix, a target vector of matching length and a positive lambda."""
    K = check_gram(K)
    y = check_array(y, "y", ndim=1)
    check_same_n(K, y, "K", "y")
    return K, y, check_positive(lam, "lam")


def _solve_shifted(A, shift, B):
    r"""Solve :math:`(A + \text{shift}\, I) Z = B` for a symmetric ``A`` by Cholesky.

    ``A + shift I`` is positive definite, with eigenvalues at least ``shift``, when ``A`` is PSD.
    A Cholesky pivot :math:`L_{jj}^2` is never below the smallest eigenvalue, so a pivot at
    round-off level means a numerically singular system: that is an error, not an answer. If
    ``A`` is not PSD (the caller has already warned), Cholesky may fail: fall back to LU.
    """
    M = A.copy()  # a new array: A is not modified
    M.flat[:: len(M) + 1] += shift
    singular = ValueError(
        f"lam is too small: the Gram matrix + {shift:.3g} I is numerically singular "
        "(the Gram matrix is not positive semi-definite, or the shift is at round-off level)"
    )
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        try:
            return np.linalg.solve(M, B)
        except np.linalg.LinAlgError:
            raise singular from None
    if np.min(np.diag(L)) ** 2 <= len(M) * np.finfo(float).eps * max(M.max(), -M.min()):
        raise singular
    return _solve_lower_transposed(L, _solve_lower(L, B))


#: Rows per block of the triangular solves.
_TRIANGULAR_BLOCK = 128


def _solve_lower(L, B):
    r"""Solve :math:`L Z = B` for a lower-triangular :math:`L`, by blocks of rows.

    NumPy has no triangular solver, and ``np.linalg.solve`` would factor :math:`L` again at
    :math:`\tfrac23 n^3` flops. By blocks, the work is matrix products of size :math:`O(n^2)` per
    right-hand side plus small dense solves of the diagonal blocks.
    """
    Z = np.array(B, dtype=float)
    for start in range(0, len(L), _TRIANGULAR_BLOCK):
        stop = start + _TRIANGULAR_BLOCK
        Z[start:stop] -= L[start:stop, :start] @ Z[:start]
        Z[start:stop] = np.linalg.solve(L[start:stop, start:stop], Z[start:stop])
    return Z


def _solve_lower_transposed(L, B):
    r"""Solve :math:`L^\top Z = B` for a lower-triangular :math:`L`, by blocks from the end."""
    Z = np.array(B, dtype=float)
    for start in reversed(range(0, len(L), _TRIANGULAR_BLOCK)):
        stop = start + _TRIANGULAR_BLOCK
        Z[start:stop] -= L[stop:, start:stop].T @ Z[stop:]
        Z[start:stop] = np.linalg.solve(L[start:stop, start:stop].T, Z[start:stop])
    return Z


def kernel_ridge(K, y, lam, n_scaled=False):
    r"""Dual coefficients of kernel ridge regression.

    .. math::
        \alpha = (K + \lambda I)^{-1} y
        \qquad\text{or}\qquad
        \alpha = (K + n\lambda I)^{-1} y \ \text{ if } n\_scaled

    The first minimises :math:`\sum_i (y_i - f(x_i))^2 + \lambda \|f\|^2` (KRR notes, 20.3;
    Rousseau, *Kernel methods* (2022), "Kernel ridge regression"); the second Vert's
    :math:`\frac1n \sum_i (y_i - f(x_i))^2 + \lambda \|f\|^2` (Vert, *Méthodes à noyaux* (2004),
    "Écriture duale"). Solved by a Cholesky factorisation :math:`K + \lambda I = LL^\top`
    and two triangular systems, not by forming an inverse.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of the training points.
    y : array_like, shape (n,)
        Real targets.
    lam : float > 0
        Regularisation :math:`\lambda`.
    n_scaled : bool
        Use :math:`n\lambda` (Vert's mean loss) instead of :math:`\lambda`.

    Returns
    -------
    alpha : ndarray, shape (n,)
        :math:`f = \sum_i \alpha_i K(x_i, \cdot)`; predict with :func:`kernel_ridge_predict`.

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> kernel_ridge(K, [1.0, 0.0], lam=1.0)  # (K + I)^{-1} y = [3, -1] / 8
    array([ 0.375, -0.125])
    """
    K, y, lam = _check_ridge(K, y, lam)
    n_scaled = check_bool(n_scaled, "n_scaled")
    shift = len(y) * lam if n_scaled else lam
    return _solve_shifted(K, shift, y)


def kernel_ridge_predict(alpha, K_test):
    r"""Predictions of KRR at new points, :math:`f(x) = \sum_i \alpha_i K(x_i, x)`.

    .. math:: f = K_{test}\, \alpha

    Source: KRR notes, the model :math:`\hat f(x) = \sum_i \beta_i K(x_i, x)`; Vert (2004),
    "Écriture duale".

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K_test : array_like, shape (n_test, n)
        ``K_test[a, i] = K(t_a, x_i)``.

    Returns
    -------
    f : ndarray, shape (n_test,)

    Examples
    --------
    >>> kernel_ridge_predict([0.375, -0.125], [[2.0, 1.0], [0.0, 1.0]])
    array([ 0.625, -0.125])
    """
    alpha = check_array(alpha, "alpha", ndim=1)
    K_test = check_test_gram(K_test, len(alpha))
    return K_test @ alpha


def ridge_primal(X, y, lam):
    r"""Ridge regression in the input space, without intercept.

    .. math:: w = (X^\top X + \lambda I_d)^{-1} X^\top y,
        \qquad \min_w \|y - Xw\|^2 + \lambda \|w\|^2

    Source: Rousseau (2022), "Kernel ridge regression"
    (:math:`\hat y^{\text{ridge}} = X(X^\top X + \lambda I_p)^{-1} X^\top y`); Valle Vidal,
    *Vector de soporte y métodos de kernel* (2009), "Kernel ridge regression", problem (7).
    With the linear kernel :math:`K = XX^\top`, :math:`w = X^\top \alpha` for
    :math:`\alpha` = ``kernel_ridge(K, y, lam)``. Solved by Cholesky, a :math:`d \times d` system.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    lam : float > 0

    Returns
    -------
    w : ndarray, shape (d,)

    Examples
    --------
    >>> ridge_primal([[1.0], [2.0]], [1.0, 2.0], lam=1.0)  # 5 / (5 + 1)
    array([0.83333333])
    """
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    check_same_n(X, y, "X", "y")
    lam = check_positive(lam, "lam")
    return _solve_shifted(X.T @ X, lam, X.T @ y)


def rkhs_norm(alpha, K, squared=False):
    r"""RKHS norm of :math:`f = \sum_i \alpha_i K(x_i, \cdot)`.

    .. math:: \|f\|_{\mathcal H}^2 = \alpha^\top K \alpha

    Source: Vert (2004), "Écriture duale" (:math:`\|\hat f\|^2 = \alpha^\top K \alpha`, by the
    reproducing property); KRR notes, 20.2.

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
    squared : bool
        Return :math:`\|f\|^2` instead of :math:`\|f\|`.

    Returns
    -------
    float
        The square root of a round-off negative :math:`\alpha^\top K \alpha` is taken as 0.

    Examples
    --------
    >>> rkhs_norm([1.0, -1.0], [[2.0, 1.0], [1.0, 2.0]], squared=True)
    2.0
    """
    alpha = check_array(alpha, "alpha", ndim=1)
    K = check_gram(K)
    check_same_n(K, alpha, "K", "alpha")
    squared = check_bool(squared, "squared")
    value = float(alpha @ K @ alpha)
    return value if squared else float(np.sqrt(max(value, 0.0)))


def kernel_ridge_objective(alpha, K, y, lam, n_scaled=False):
    r"""Regularised objective of KRR in the dual coefficients.

    .. math::
        J(\alpha) = \|y - K\alpha\|^2 + \lambda\, \alpha^\top K \alpha
        \qquad\text{or}\qquad
        \frac1n \|y - K\alpha\|^2 + \lambda\, \alpha^\top K \alpha \ \text{ if } n\_scaled

    Source: KRR notes, 20.2 (:math:`J(\beta)`); Vert (2004), "Écriture duale (cont.)".
    It equals the RKHS objective at :math:`f = \sum_i \alpha_i K(x_i, \cdot)`.

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0
    n_scaled : bool

    Returns
    -------
    float

    Examples
    --------
    >>> kernel_ridge_objective([0.0, 0.0], [[2.0, 1.0], [1.0, 2.0]], [1.0, 2.0], lam=1.0)
    5.0
    """
    K, y, lam = _check_ridge(K, y, lam)
    n_scaled = check_bool(n_scaled, "n_scaled")
    alpha = check_array(alpha, "alpha", ndim=1, n_rows=len(y))
    residual = y - K @ alpha
    loss = float(residual @ residual) / (len(y) if n_scaled else 1.0)
    return loss + lam * float(alpha @ K @ alpha)


def kernel_ridge_gradient(alpha, K, y, lam, n_scaled=False):
    r"""Gradient of :func:`kernel_ridge_objective` with respect to :math:`\alpha`.

    .. math::
        \nabla J(\alpha) = -2K(y - K\alpha) + 2\lambda K\alpha = 2K\,[(K + \lambda I)\alpha - y]

    and :math:`\frac2n K(K\alpha - y) + 2\lambda K\alpha = \frac2n K\,[(K + n\lambda I)\alpha - y]`
    with ``n_scaled``.

    Source: KRR notes, 20.3; Vert (2004), "Écriture duale (cont.)". It vanishes exactly on
    :math:`(K + \lambda I)^{-1} y + \ker K`: a whole affine subspace when :math:`K` is singular.

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0
    n_scaled : bool

    Returns
    -------
    grad : ndarray, shape (n,)

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> kernel_ridge_gradient([0.375, -0.125], K, [1.0, 0.0], lam=1.0)
    array([0., 0.])
    """
    K, y, lam = _check_ridge(K, y, lam)
    n_scaled = check_bool(n_scaled, "n_scaled")
    alpha = check_array(alpha, "alpha", ndim=1, n_rows=len(y))
    scale = len(y) if n_scaled else 1.0
    return 2.0 * K @ ((K @ alpha - y) / scale + lam * alpha)


def lam_mean_to_sum(lam, n):
    r"""Regularisation for the sum loss equivalent to Vert's :math:`\lambda` with the mean loss.

    .. math::
        \arg\min_f \frac1n \sum_i (y_i - f(x_i))^2 + \lambda \|f\|^2
        = \arg\min_f \sum_i (y_i - f(x_i))^2 + n\lambda \|f\|^2

    (multiply the objective by :math:`n`). Source: Vert (2004), "Moindres carrés régularisés",
    against the KRR notes' sum.

    Parameters
    ----------
    lam : float > 0
    n : int >= 1

    Returns
    -------
    float
        :math:`n\lambda`.

    Examples
    --------
    >>> lam_mean_to_sum(0.01, 30)
    0.3
    """
    return check_positive(lam, "lam") * check_integer(n, "n", low=1)


def lam_sum_to_mean(lam, n):
    r"""Inverse of :func:`lam_mean_to_sum`.

    .. math:: \lambda_{\text{mean}} = \lambda_{\text{sum}} / n

    Parameters
    ----------
    lam : float > 0
    n : int >= 1

    Returns
    -------
    float

    Examples
    --------
    >>> lam_sum_to_mean(0.3, 30)
    0.01
    """
    return check_positive(lam, "lam") / check_integer(n, "n", low=1)


def kernel_ridge_lagrange(K, y, lam):
    r"""Valle Vidal's dual variables of ridge regression.

    .. math:: \alpha = 2\lambda (K + \lambda I)^{-1} y

    They are the Lagrange multipliers of the constraints :math:`y_i - \langle w, x_i\rangle =
    \xi_i` in :math:`\min \lambda\|w\|^2 + \sum_i \xi_i^2`, with
    :math:`w = \frac{1}{2\lambda} \sum_i \alpha_i x_i` and :math:`\xi_i = \alpha_i / 2`; they
    maximise :func:`kernel_ridge_lagrange_objective`. They are :math:`2\lambda` times the
    coefficients of :func:`kernel_ridge`, and twice the residuals:
    :math:`\alpha = 2(y - K\alpha/(2\lambda))`.

    Source: Valle Vidal (2009), "Kernel ridge regression (2)–(4)".

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0

    Returns
    -------
    alpha : ndarray, shape (n,)

    Examples
    --------
    >>> kernel_ridge_lagrange([[2.0, 1.0], [1.0, 2.0]], [1.0, 0.0], lam=1.0)
    array([ 0.75, -0.25])
    """
    K, y, lam = _check_ridge(K, y, lam)
    return 2.0 * lam * _solve_shifted(K, lam, y)


def kernel_ridge_lagrange_objective(alpha, K, y, lam):
    r"""Valle Vidal's dual objective of ridge regression.

    .. math::
        W(\alpha) = y^\top \alpha - \frac{1}{4\lambda} \alpha^\top K \alpha
        - \frac14 \alpha^\top \alpha

    Source: Valle Vidal (2009), "Kernel ridge regression (3)". Its maximum equals the minimum of
    the primal :math:`\lambda \|w\|^2 + \sum_i \xi_i^2`, which is :func:`kernel_ridge_objective`
    at the KRR solution (strong duality).

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0

    Returns
    -------
    float

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> round(kernel_ridge_lagrange_objective([0.75, -0.25], K, [1.0, 0.0], lam=1.0), 6)
    0.375
    """
    K, y, lam = _check_ridge(K, y, lam)
    alpha = check_array(alpha, "alpha", ndim=1, n_rows=len(y))
    return float(y @ alpha - (alpha @ K @ alpha) / (4.0 * lam) - (alpha @ alpha) / 4.0)


def kernel_ridge_lagrange_predict(K, y, lam, K_test):
    r"""Valle Vidal's regression function :math:`f(x) = y^\top (K + \lambda I)^{-1} k`.

    .. math:: f(x) = \langle w, x \rangle = y^\top (K + \lambda I)^{-1} k,
        \qquad k_i = K(x_i, x)

    evaluated as written: solve :math:`(K + \lambda I) Z = K_{test}^\top` for all the test
    points at once, then :math:`f = y^\top Z`. The same predictions as
    :func:`kernel_ridge_predict` with ``kernel_ridge(K, y, lam)``, computed in another order.

    Source: Valle Vidal (2009), "Kernel ridge regression (4)" and the "Proposición" after it.

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0
    K_test : array_like, shape (n_test, n)

    Returns
    -------
    f : ndarray, shape (n_test,)

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> kernel_ridge_lagrange_predict(K, [1.0, 0.0], 1.0, [[2.0, 1.0], [0.0, 1.0]])
    array([ 0.625, -0.125])
    """
    K, y, lam = _check_ridge(K, y, lam)
    K_test = check_test_gram(K_test, len(y))
    return y @ _solve_shifted(K, lam, K_test.T)


def ridge_weights_from_lagrange(X, alpha, lam):
    r"""Primal weights from Valle Vidal's dual variables.

    .. math:: w = \frac{1}{2\lambda} \sum_i \alpha_i x_i = \frac{1}{2\lambda} X^\top \alpha

    from :math:`\partial L / \partial w = 2\lambda w - \sum_i \alpha_i x_i = 0`. Source: Valle
    Vidal (2009), "Kernel ridge regression (2)", which prints
    :math:`w = 1 / (2\lambda \sum_i \alpha_i x_i)` (see the errata).

    Parameters
    ----------
    X : array_like, shape (n, d)
    alpha : array_like, shape (n,)
    lam : float > 0

    Returns
    -------
    w : ndarray, shape (d,)

    Examples
    --------
    >>> ridge_weights_from_lagrange([[1.0], [2.0]], [1.0, 1.0], lam=0.5)
    array([3.])
    """
    X = check_array(X, "X")
    alpha = check_array(alpha, "alpha", ndim=1)
    check_same_n(X, alpha, "X", "alpha")
    lam = check_positive(lam, "lam")
    return X.T @ alpha / (2.0 * lam)


def kernel_ridge_span(K_xu, K_uu, y, lam):
    r"""Kernel ridge regression over the span of arbitrary centres :math:`u_1, \dots, u_N`.

    .. math::
        \min_{\theta \in \mathbb R^N} \|y - K_{xu}\theta\|^2 + \lambda\, \theta^\top K_{uu} \theta,
        \qquad f = \sum_{j=1}^N \theta_j K(u_j, \cdot)

    with :math:`(K_{xu})_{ij} = K(x_i, u_j)`. The normal equations
    :math:`(K_{ux}K_{xu} + \lambda K_{uu})\theta = K_{ux} y` are singular as soon as the
    :math:`K(u_j, \cdot)` are linearly dependent, and badly conditioned when they nearly are.
    So they are not formed: with :math:`K_{uu} = R^\top R` (``eigh``, eigenvalues clipped at 0)
    the objective is the least-squares problem
    :math:`\left\| \begin{pmatrix} y \\ 0 \end{pmatrix} - \begin{pmatrix} K_{xu} \\
    \sqrt\lambda R \end{pmatrix}\theta \right\|^2`, solved by ``lstsq`` (minimum-norm
    :math:`\theta`; every minimiser gives the same :math:`f` on the data and in :math:`\mathcal H`).

    With centres that contain the training points, the representer theorem (Vert 2004, "Le
    théorème du représentant") says that the minimiser has no component orthogonal to
    :math:`\operatorname{span}\{K(x_i, \cdot)\}`: check it with :func:`span_decomposition`.

    Parameters
    ----------
    K_xu : array_like, shape (n, N)
        Kernel between the training points and the centres.
    K_uu : array_like, shape (N, N)
        Gram matrix of the centres.
    y : array_like, shape (n,)
    lam : float > 0

    Returns
    -------
    theta : ndarray, shape (N,)

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]  # centres = training points: plain KRR
    >>> kernel_ridge_span(K, K, [1.0, 0.0], lam=1.0).round(6)
    array([ 0.375, -0.125])
    """
    K_uu = check_gram(K_uu, "K_uu")
    K_xu = check_test_gram(K_xu, K_uu.shape[0], name="K_xu")
    y = check_array(y, "y", ndim=1)
    check_same_n(K_xu, y, "K_xu", "y")
    lam = check_positive(lam, "lam")
    eigenvalues, V = np.linalg.eigh(K_uu)
    R = np.sqrt(np.clip(eigenvalues, 0.0, None))[:, None] * V.T  # K_uu = R^T R
    A = np.vstack([K_xu, np.sqrt(lam) * R])
    b = np.concatenate([y, np.zeros(len(R))])
    return np.linalg.lstsq(A, b, rcond=None)[0]


@dataclass(frozen=True, repr=False)
class SpanDecomposition(ShortRepr):
    r"""Orthogonal decomposition :math:`f = f_S + f_\perp` of :math:`f = \sum_j c_j K(u_j, \cdot)`.

    Attributes
    ----------
    span : ndarray, shape (N,)
        Coefficients of :math:`f_S` on the centres (zero after the first ``n_span``).
    perp : ndarray, shape (N,)
        Coefficients of :math:`f_\perp = f - f_S`.
    norm_span_sq, norm_perp_sq : float
        :math:`\|f_S\|^2` and :math:`\|f_\perp\|^2` in :math:`\mathcal H`.
    """

    span: np.ndarray
    perp: np.ndarray
    norm_span_sq: float
    norm_perp_sq: float


def span_decomposition(coef, K_uu, n_span):
    r"""Split :math:`f = \sum_j c_j K(u_j, \cdot)` into its orthogonal projection :math:`f_S` on
    :math:`\mathcal H^S = \operatorname{span}\{K(u_i, \cdot) : i < n_{span}\}` and the rest.

    .. math::
        f_S = \sum_{i < n_{span}} s_i K(u_i, \cdot), \qquad K_{SS}\, s = (f(u_i))_{i < n_{span}}
        = (K_{uu} c)_{i < n_{span}}, \qquad f_\perp = f - f_S,

    because :math:`f - f_S \perp K(u_i, \cdot)` means :math:`f(u_i) = f_S(u_i)` (reproducing
    property). Then :math:`f_\perp(u_i) = 0` for :math:`i < n_{span}` and
    :math:`\|f\|^2 = \|f_S\|^2 + \|f_\perp\|^2` (Pythagoras). :math:`K_{SS}` may be singular
    (repeated points): ``lstsq`` gives one solution, and all give the same :math:`f_S`.

    Source: Vert (2004), "Le théorème du représentant", proof.

    Parameters
    ----------
    coef : array_like, shape (N,)
        Coefficients :math:`c` of :math:`f` on the centres.
    K_uu : array_like, shape (N, N)
        Gram matrix of the centres; the first ``n_span`` of them span :math:`\mathcal H^S`.
    n_span : int, 1 <= n_span <= N

    Returns
    -------
    SpanDecomposition

    Examples
    --------
    >>> K = [[1.0, 0.5], [0.5, 1.0]]
    >>> d = span_decomposition([0.0, 1.0], K, n_span=1)  # K(u_2, .) = 0.5 K(u_1, .) + rest
    >>> d.span.round(6), d.perp.round(6), round(d.norm_perp_sq, 6)
    (array([0.5, 0. ]), array([-0.5,  1. ]), 0.75)
    """
    K_uu = check_gram(K_uu, "K_uu")
    coef = check_array(coef, "coef", ndim=1)
    check_same_n(K_uu, coef, "K_uu", "coef")
    n_span = check_integer(n_span, "n_span", low=1, high=len(coef))
    values = (K_uu @ coef)[:n_span]  # f(u_i), i < n_span
    s = np.linalg.lstsq(K_uu[:n_span, :n_span], values, rcond=None)[0]
    span = np.zeros_like(coef)
    span[:n_span] = s
    perp = coef - span
    return SpanDecomposition(
        span=span,
        perp=perp,
        norm_span_sq=float(span @ K_uu @ span),
        norm_perp_sq=float(perp @ K_uu @ perp),
    )


# --- support vector regression (chapter 10) --------------------------------------------------


@dataclass(frozen=True, repr=False)
class SVRResult(ShortRepr):
    r"""Solution of the :math:`\varepsilon`-SVR dual; :math:`f(x) = \sum_i (\alpha_i -
    \alpha_i^*) K(x_i, x) + b`.

    Attributes
    ----------
    coef : ndarray, shape (n,)
        :math:`\alpha - \alpha^*`, the coefficients of :math:`f - b` on the
        :math:`K(x_i, \cdot)`.
    b : float
        Intercept, averaged over the free multipliers (LIBSVM's rule).
    alpha, alpha_star : ndarray, shape (n,)
        Multipliers of :math:`y_i - f(x_i) \le \varepsilon + \xi_i` (point above the tube) and
        of :math:`f(x_i) - y_i \le \varepsilon + \xi_i^*` (below), in :math:`[0, C]`, with
        :math:`\alpha_i\alpha_i^* = 0`.
    support : ndarray of int
        Indices of the support vectors, :math:`\alpha_i + \alpha_i^* > 0`.
    dual_objective : float
        :math:`y^\top(\alpha - \alpha^*) - \varepsilon\sum_i(\alpha_i + \alpha_i^*) -
        \tfrac12(\alpha - \alpha^*)^\top K(\alpha - \alpha^*)` (maximised).
    primal_objective : float
        :math:`\tfrac12\|f - b\|_{\mathcal H}^2 + C\sum_i(\xi_i + \xi_i^*)` at this :math:`f`
        with the optimal slacks; ``primal_objective - dual_objective`` is the duality gap.
    kkt_violation : float
        Distance to the KKT conditions, :math:`\max(0, m - M) + |\sum_i(\alpha_i -
        \alpha_i^*)|` with :math:`[m, M]` the interval of intercepts the multipliers allow (empty
        when :math:`m > M`); the measure of :func:`kernels_ref.svm.kkt_violation` on the
        :math:`2n`-variable dual, in the units of :math:`y`.
    n_iter : int
        SMO iterations.
    converged : bool
        Whether SMO met its stopping rule :math:`m(\alpha) - M(\alpha) \le` ``tol``.
    """

    coef: np.ndarray
    b: float
    alpha: np.ndarray
    alpha_star: np.ndarray
    support: np.ndarray
    dual_objective: float
    primal_objective: float
    kkt_violation: float
    n_iter: int
    converged: bool


def svr(K, y, C, epsilon, *, tol=TOL, max_iter=None, shrinking=True):
    r""":math:`\varepsilon`-insensitive support vector regression, dual form, solved by SMO.

    .. math::

        \max_{\alpha, \alpha^* \in \mathbb R^n} \; \sum_i y_i(\alpha_i - \alpha_i^*)
        - \varepsilon\sum_i(\alpha_i + \alpha_i^*)
        - \tfrac12\sum_{i,j}(\alpha_i - \alpha_i^*)(\alpha_j - \alpha_j^*)K_{ij}
        \quad\text{s.t.}\quad \sum_i(\alpha_i - \alpha_i^*) = 0,
        \quad 0 \le \alpha_i, \alpha_i^* \le C,

    the dual of :math:`\min \tfrac12\|w\|^2 + C\sum_i(\xi_i + \xi_i^*)` subject to
    :math:`y_i - f(x_i) \le \varepsilon + \xi_i`, :math:`f(x_i) - y_i \le \varepsilon +
    \xi_i^*`, :math:`\xi, \xi^* \ge 0`, with :math:`f(x) = \sum_i(\alpha_i - \alpha_i^*)
    K(x_i, x) + b`.

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Support vector
    regression (3)", corrected (the text prints :math:`\alpha^* + \alpha` where
    :math:`\alpha^* - \alpha` belongs and drops the :math:`\tfrac12`; it names the multipliers
    the other way round and writes :math:`C = 1/\lambda`); Hastie, Tibshirani & Friedman
    (2009), §12.3.6. In the :math:`2n` variables :math:`a = (\alpha, \alpha^*)` it is the
    general problem of :func:`kernels_ref.smo.smo` (Chang & Lin 2011, §2.3):

    .. math::

        \min_a \tfrac12 a^\top \begin{pmatrix} K & -K \\ -K & K \end{pmatrix} a
        + \begin{pmatrix} \varepsilon\mathbf 1 - y \\ \varepsilon\mathbf 1 + y \end{pmatrix}^\top a
        \quad\text{s.t.}\quad z^\top a = 0,\quad 0 \le a \le C,
        \qquad z = (\mathbf 1_n, -\mathbf 1_n),

    whose matrix :class:`~kernels_ref.smo.TiledGram` supplies without forming it. The intercept
    is the average of :math:`y_i - f_0(x_i) \mp \varepsilon` over the free multipliers
    (:math:`y_i - f(x_i) = \pm\varepsilon` there), or the midpoint of the interval the KKT
    conditions leave when none is free (LIBSVM's rule).

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix.
    y : array_like, shape (n,)
        Real targets.
    C : float > 0
        Weight of the :math:`\varepsilon`-insensitive loss (Valle Vidal's :math:`1/\lambda`).
    epsilon : float >= 0
        Half-width of the tube; :math:`\varepsilon = 0` is least absolute deviations.
    tol : float > 0
        Stopping tolerance :math:`m(\alpha) - M(\alpha)` of SMO, in the units of :math:`y`.
    max_iter : int >= 1, optional
        SMO iteration limit (default :math:`\max(10^6, 200n)`); reaching it warns
        (:class:`~kernels_ref.exceptions.ConvergenceWarning`).
    shrinking : bool
        Let SMO shrink the active set (same answer up to ``tol``).

    Returns
    -------
    SVRResult

    Raises
    ------
    ValueError
        For a ``K`` that is not square, symmetric and finite, a ``y`` of another length or
        with NaN/inf, :math:`C \le 0` or :math:`\varepsilon < 0` (or NaN, infinite;
        :math:`\varepsilon = 0` is valid).

    Examples
    --------
    Two points :math:`(\pm 1, \pm 1)`, linear kernel, :math:`\varepsilon = 1/2`: the flattest
    line in the tube is :math:`f(x) = x/2`, reached with :math:`\alpha - \alpha^* = (-1/4,
    1/4)` when :math:`C \ge 1/4`.

    >>> X = np.array([[-1.0], [1.0]])
    >>> res = svr(X @ X.T, [-1.0, 1.0], C=10.0, epsilon=0.5)
    >>> np.round(res.coef, 6), round(res.b, 6) + 0.0, round(res.dual_objective, 6)
    (array([-0.25,  0.25]), 0.0, 0.125)
    """
    K = check_gram(K)
    y = check_array(y, "y", ndim=1)
    check_same_n(K, y, "K", "y")
    C = check_positive(C, "C")
    epsilon = check_epsilon(epsilon)
    tol = check_positive(tol, "tol")
    n = len(y)
    max_iter = check_max_iter(max_iter, default=max(10**6, 200 * n))
    shrinking = check_bool(shrinking, "shrinking")
    z = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([epsilon - y, epsilon + y])
    res = _smo(TiledGram(K), z, p, C, tol=tol, max_iter=max_iter, shrinking=shrinking)
    # alpha_i alpha_i^* = 0 at every solution when epsilon > 0; subtracting the common part
    # keeps alpha - alpha^* (so f) and z^T a, and lowers the objective by 2 epsilon * common.
    common = np.minimum(res.alpha[:n], res.alpha[n:])
    alpha, alpha_star = res.alpha[:n] - common, res.alpha[n:] - common
    coef = alpha - alpha_star
    r = epsilon - res.grad[:n]  # y_i - f_0(x_i): G_i = (K coef)_i + epsilon - y_i
    lower, upper = _intercept_interval(r, alpha, alpha_star, C, epsilon)
    b = _intercept(r, alpha, alpha_star, C, epsilon, lower, upper)
    residual = r - b  # y_i - f(x_i)
    slack = np.maximum(0.0, residual - epsilon) + np.maximum(0.0, -residual - epsilon)
    half_norm = 0.5 * float(coef @ (y - r))
    return SVRResult(
        coef=coef,
        b=b,
        alpha=alpha,
        alpha_star=alpha_star,
        support=np.flatnonzero(alpha + alpha_star > 0),
        dual_objective=float(y @ coef) - epsilon * float(np.sum(alpha + alpha_star)) - half_norm,
        primal_objective=half_norm + C * float(slack.sum()),
        kkt_violation=max(0.0, lower - upper) + abs(float(coef.sum())),
        n_iter=res.n_iter,
        converged=res.converged,
    )


def _intercept_interval(r, alpha, alpha_star, C, epsilon):
    r"""The intercepts :math:`b` allowed by the KKT conditions of SVR at :math:`(\alpha,
    \alpha^*)`: the interval :math:`[m, M]`, with :math:`r_i = y_i - f_0(x_i)`.

    Each multiplier bounds :math:`b` through its point's position against the tube
    (:math:`y_i - f(x_i) = r_i - b`): :math:`\alpha_i < C \Rightarrow \xi_i = 0 \Rightarrow
    b \ge r_i - \varepsilon`; :math:`\alpha_i > 0 \Rightarrow` on or above the upper edge,
    :math:`b \le r_i - \varepsilon`; :math:`\alpha^*_i > 0 \Rightarrow b \ge r_i +
    \varepsilon`; :math:`\alpha^*_i < C \Rightarrow b \le r_i + \varepsilon`. These are the
    :math:`m(a)` and :math:`M(a)` of :func:`kernels_ref.smo.smo` for the :math:`2n` variables:
    :math:`(\alpha, \alpha^*)` is optimal if and only if :math:`m \le M`. Both ends are finite
    for a feasible point: if every :math:`\alpha_i = C` then every :math:`\alpha^*_i = C` too
    (:math:`\sum_i\alpha_i = \sum_i\alpha^*_i`), and likewise at 0.
    """
    m = max(
        np.max(r - epsilon, where=alpha < C, initial=-np.inf),
        np.max(r + epsilon, where=alpha_star > 0, initial=-np.inf),
    )
    M = min(
        np.min(r - epsilon, where=alpha > 0, initial=np.inf),
        np.min(r + epsilon, where=alpha_star < C, initial=np.inf),
    )
    return float(m), float(M)


def _intercept(r, alpha, alpha_star, C, epsilon, lower, upper):
    r"""LIBSVM's intercept: the average of :math:`r_i \mp \varepsilon` over the free
    multipliers (where :math:`y_i - f(x_i) = \pm\varepsilon` exactly), else the midpoint of
    the interval of :func:`_intercept_interval`."""
    free, free_star = (alpha > 0) & (alpha < C), (alpha_star > 0) & (alpha_star < C)
    values = np.concatenate([r[free] - epsilon, r[free_star] + epsilon])
    if values.size:
        return float(values.mean())
    return 0.5 * (lower + upper)


def svr_predict(result, K_test):
    r"""Predictions of support vector regression at new points.

    .. math:: f(x) = \sum_i (\alpha_i - \alpha_i^*) K(x_i, x) + b = K_{test}(\alpha - \alpha^*) + b

    Source: Valle Vidal (2009), "Support vector regression (3)", eq. (9) (with
    :math:`\langle x, x_i\rangle` replaced by :math:`K(x, x_i)`, and the multipliers named the
    other way round).

    Parameters
    ----------
    result : SVRResult
        From :func:`svr` or :func:`kernels_ref.cvx.svr_dual`.
    K_test : array_like, shape (n_test, n)
        ``K_test[a, i] = K(t_a, x_i)``.

    Returns
    -------
    f : ndarray, shape (n_test,)

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = svr(X @ X.T, [-1.0, 1.0], C=10.0, epsilon=0.5)
    >>> np.round(svr_predict(res, np.array([[0.0], [3.0]]) @ X.T), 6) + 0.0
    array([0. , 1.5])
    """
    result = check_instance(result, SVRResult, "result", "svr or kernels_ref.cvx.svr_dual")
    K_test = check_test_gram(K_test, len(result.coef))
    return K_test @ result.coef + result.b
