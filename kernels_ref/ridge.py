r"""Kernel ridge regression (chapter 9, "Kernel ridge regression").

Kernel ridge regression (KRR) minimises over the RKHS :math:`\mathcal H` of the kernel

.. math::
    \sum_{i=1}^n (y_i - f(x_i))^2 + \lambda \|f\|_{\mathcal H}^2
    \quad\text{or, with Vert's mean loss,}\quad
    \frac1n \sum_{i=1}^n (y_i - f(x_i))^2 + \lambda \|f\|_{\mathcal H}^2 .

By the representer theorem (:mod:`kernels_ref.representer`) :math:`f = \sum_i \alpha_i K(x_i,
\cdot)` with :math:`\alpha = (K + \lambda I)^{-1} y` (sum) or :math:`(K + n\lambda I)^{-1} y`
(mean); the flag ``n_scaled=True`` selects the mean. Systems are solved through a Cholesky
factor, never an inverse. :func:`ridge_primal` is ridge regression in the input space, which
the linear kernel recovers (Rousseau's matrix-inversion identity). Valle Vidal's Lagrangian
derivation has its own dual variables :math:`\alpha_{VV} = 2\lambda (K + \lambda I)^{-1} y`;
the functions named ``*_lagrange`` use them.
"""

from dataclasses import dataclass

import numpy as np

from ._linalg import solve_cholesky
from ._results import ShortRepr
from ._validation import (
    boolean,
    cross_gram,
    data,
    gram,
    integer,
    positive,
    psd_minors_ok,
    psd_threshold,
    result,
    validated,
    vector,
    warn_not_psd,
)

__all__ = [
    "KernelRidgeResult",
    "kernel_ridge",
    "kernel_ridge_gradient",
    "kernel_ridge_lagrange",
    "kernel_ridge_lagrange_objective",
    "kernel_ridge_lagrange_predict",
    "kernel_ridge_objective",
    "kernel_ridge_predict",
    "lam_mean_to_sum",
    "lam_sum_to_mean",
    "ridge_primal",
    "ridge_weights_from_lagrange",
]


@dataclass(frozen=True, repr=False)
class KernelRidgeResult(ShortRepr):
    r"""Kernel ridge regression fitted by :func:`kernel_ridge`.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Dual coefficients, :math:`f = \sum_i \alpha_i K(x_i, \cdot)`: all that
        :func:`kernel_ridge_predict` needs.
    lam : float
        The regularisation :math:`\lambda` as given.
    n_scaled : bool
        Whether :math:`n\lambda` (Vert's mean loss) was used instead of :math:`\lambda`.
    """

    alpha: np.ndarray
    lam: float
    n_scaled: bool


#: The rules of a kernel ridge problem: a Gram matrix, its targets, lambda > 0.
RIDGE = {"K": gram(), "y": vector(rows="K"), "lam": positive()}


def _fit_ridge(K, y, lam, n_scaled=False):
    r"""Solve :math:`(K + \lambda I)\alpha = y` (:math:`n\lambda` if ``n_scaled``) for a
    checked ``K`` whose PSD test is left to the solve (``gram(psd="deferred")``), with at most
    one PSD warning.

    The Cholesky pivots of the solve test ``K`` (see :func:`_solve_shifted`), so that ``K`` is
    factored once; the 2 x 2 minors complete the test for a negative eigenvalue the shift
    hides.
    """
    largest = max(float(K.max()), -float(K.min()))
    shift = len(y) * lam if n_scaled else lam
    alpha, pivots_ok = _solve_shifted(K, shift, y, certify=True, largest=largest)
    if not (pivots_ok and psd_minors_ok(K, largest)):
        warn_not_psd("K")
    return alpha


def _solve_shifted(A, shift, B, certify=False, largest=None):
    r"""Solve :math:`(A + \text{shift}\, I) Z = B` for a symmetric ``A`` by Cholesky.

    ``A + shift I`` is positive definite, with eigenvalues at least ``shift``, when ``A`` is PSD.
    A Cholesky pivot :math:`L_{jj}^2` is never below the smallest eigenvalue, so a pivot at
    round-off level means a numerically singular system: that is an error, not an answer. If
    ``A`` is not PSD, Cholesky may fail: fall back to LU.

    With ``certify`` the factorisation is also a test of positive semi-definiteness, at no
    cost, and ``(Z, psd_ok)`` is returned: a pivot below :math:`\text{shift} - t`, or no factor
    at all when :math:`\text{shift} > t`, proves :math:`\lambda_{\min}(A) < -t`, with
    :math:`t` the threshold of :func:`~kernels_ref._validation.psd_threshold` (or the round-off
    of the factorisation, if larger). It misses an ``A`` whose negative eigenvalues all hide
    behind the shift and its pivots; the caller's 2 x 2 minors test completes it. ``largest``
    is :math:`\max_{ij}|A_{ij}|` when the caller knows it already.
    """
    n = len(A)
    if largest is None:
        largest = max(A.max(), -A.min())
    M = A.copy()  # a new array: A is not modified
    M.flat[:: n + 1] += shift
    # max |M_ij| <= max |A_ij| + shift, with equality for a PSD A
    roundoff = n * np.finfo(float).eps * (largest + shift)
    singular = ValueError(
        f"lam is too small: the Gram matrix + {shift:.3g} I is numerically singular "
        "(the Gram matrix is not positive semi-definite, or the shift is at round-off level)"
    )
    t = max(psd_threshold(largest, n), roundoff)  # the rule is relative to max |A_ij|
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        try:
            Z = np.linalg.solve(M, B)
        except np.linalg.LinAlgError:
            raise singular from None
        return (Z, not shift > t) if certify else Z
    pivot = float(np.min(np.diag(L))) ** 2  # at least the smallest eigenvalue of M
    if pivot <= roundoff:
        raise singular
    Z = solve_cholesky(L, B)
    return (Z, pivot >= shift - t) if certify else Z


@validated(**{**RIDGE, "K": gram(psd="deferred")}, n_scaled=boolean())
def kernel_ridge(K, y, lam, *, n_scaled=False):
    r"""Kernel ridge regression: its dual coefficients.

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
    KernelRidgeResult
        ``alpha``, with :math:`f = \sum_i \alpha_i K(x_i, \cdot)`; predict with
        :func:`kernel_ridge_predict`.

    Warns
    -----
    NotPSDWarning
        When a 2 x 2 principal minor of ``K``, or the Cholesky factorisation of the shifted
        ``K`` that the solve needs anyway (a pivot below the shift, or no factor), proves
        ``K`` not positive semi-definite by the rule of
        :func:`~kernels_ref._validation.psd_threshold`. ``K`` is factored once: a negative
        eigenvalue hidden behind the shift and the pivots goes unnoticed (the solve is then
        still that of a positive definite system); :func:`kernels_ref.kernels.is_psd` is the
        complete test.

    Notes
    -----
    Other conventions: ``lam`` is scikit-learn's ``KernelRidge(alpha=...)`` (the same
    :math:`(K + \lambda I)^{-1} y`; with ``n_scaled=True``, ``alpha`` is :math:`n\lambda`).
    There is no intercept, as in scikit-learn: :math:`f` passes through 0 where the kernel
    vanishes, so for targets far from 0 centre them, fit ``y - y.mean()`` and add
    ``y.mean()`` to the predictions.

    Examples
    --------
    >>> K = [[2.0, 1.0], [1.0, 2.0]]
    >>> kernel_ridge(K, [1.0, 0.0], lam=1.0).alpha  # (K + I)^{-1} y = [3, -1] / 8
    array([ 0.375, -0.125])
    """
    alpha = _fit_ridge(K, y, lam, n_scaled)
    return KernelRidgeResult(alpha=alpha, lam=lam, n_scaled=n_scaled)


@validated(result=result(KernelRidgeResult, "kernel_ridge"), K_test=cross_gram("result.alpha"))
def kernel_ridge_predict(result, K_test):
    r"""Predictions of KRR at new points, :math:`f(x) = \sum_i \alpha_i K(x_i, x)`.

    .. math:: f = K_{test}\, \alpha

    Source: KRR notes, the model :math:`\hat f(x) = \sum_i \beta_i K(x_i, x)`; Vert (2004),
    "Écriture duale".

    Parameters
    ----------
    result : KernelRidgeResult
        From :func:`kernel_ridge`: the dual coefficients :math:`\alpha`.
    K_test : array_like, shape (n_test, n)
        ``K_test[a, i] = K(t_a, x_i)``.

    Returns
    -------
    f : ndarray, shape (n_test,)

    Examples
    --------
    >>> fit = kernel_ridge([[2.0, 1.0], [1.0, 2.0]], [1.0, 0.0], lam=1.0)  # alpha = [3, -1] / 8
    >>> kernel_ridge_predict(fit, [[2.0, 1.0], [0.0, 1.0]])
    array([ 0.625, -0.125])
    """
    return K_test @ result.alpha


@validated(X=data(), y=vector(rows="X"), lam=positive())
def ridge_primal(X, y, lam):
    r"""Ridge regression in the input space, without intercept.

    .. math:: w = (X^\top X + \lambda I_d)^{-1} X^\top y,
        \qquad \min_w \|y - Xw\|^2 + \lambda \|w\|^2

    Source: Rousseau (2022), "Kernel ridge regression"
    (:math:`\hat y^{\text{ridge}} = X(X^\top X + \lambda I_p)^{-1} X^\top y`); Valle Vidal,
    *Vector de soporte y métodos de kernel* (2009), "Kernel ridge regression", problem (7).
    With the linear kernel :math:`K = XX^\top`, :math:`w = X^\top \alpha` for
    :math:`\alpha` = ``kernel_ridge(K, y, lam).alpha``. Solved by Cholesky, a :math:`d \times d`
    system.

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
    return _solve_shifted(X.T @ X, lam, X.T @ y)


@validated(**RIDGE, alpha=vector(rows="K"), n_scaled=boolean())
def kernel_ridge_objective(alpha, K, y, lam, *, n_scaled=False):
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
    residual = y - K @ alpha
    loss = float(residual @ residual) / (len(y) if n_scaled else 1.0)
    return loss + lam * float(alpha @ K @ alpha)


@validated(**RIDGE, alpha=vector(rows="K"), n_scaled=boolean())
def kernel_ridge_gradient(alpha, K, y, lam, *, n_scaled=False):
    r"""Gradient of :func:`kernel_ridge_objective` with respect to :math:`\alpha`.

    .. math::
        \nabla J(\alpha) = -2K(y - K\alpha) + 2\lambda K\alpha = 2K\,[(K + \lambda I)\alpha - y]

    and :math:`\frac2n K(K\alpha - y) + 2\lambda K\alpha = \frac2n K\,[(K + n\lambda I)\alpha - y]`
    with ``n_scaled``.

    Source: KRR notes, 20.3; Vert (2004), "Écriture duale (cont.)", which prints the second
    form without its factor :math:`\frac2n` (the zeros are the same). It vanishes exactly on
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
    scale = len(y) if n_scaled else 1.0
    return 2.0 * K @ ((K @ alpha - y) / scale + lam * alpha)


@validated(lam=positive(), n=integer(low=1))
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
    return lam * n


@validated(lam=positive(), n=integer(low=1))
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
    return lam / n


@validated(**{**RIDGE, "K": gram(psd="deferred")})
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
    return 2.0 * lam * _fit_ridge(K, y, lam)


@validated(**RIDGE, alpha=vector(rows="K"))
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
    return float(y @ alpha - (alpha @ K @ alpha) / (4.0 * lam) - (alpha @ alpha) / 4.0)


@validated(**RIDGE, K_test=cross_gram("K"))
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
    return y @ _solve_shifted(K, lam, K_test.T)


@validated(X=data(), alpha=vector(rows="X"), lam=positive())
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
    return X.T @ alpha / (2.0 * lam)
