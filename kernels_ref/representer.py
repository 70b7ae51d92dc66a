r"""The representer theorem, numerically (chapter 2, "The representer theorem").

By the representer theorem (Vert, *Méthodes à noyaux* (2004), "Le théorème du représentant"),
a minimiser over the RKHS :math:`\mathcal H` of a loss at the data plus an increasing function
of :math:`\|f\|_{\mathcal H}` lies in :math:`\operatorname{span}\{K(x_i, \cdot)\}`.
:func:`kernel_ridge_span` fits kernel ridge regression over a larger span (extra centres) and
:func:`span_decomposition` splits a function into its part in
:math:`\operatorname{span}\{K(x_i, \cdot)\}` and the orthogonal rest, whose squared norms
(:func:`rkhs_norm`) add up (Pythagoras in :math:`\mathcal H`). Kernel ridge regression itself,
the instance the chapter uses, is in :mod:`kernels_ref.ridge`.
"""

from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import boolean, cross_gram, gram, integer, positive, validated, vector

__all__ = [
    "SpanDecomposition",
    "kernel_ridge_span",
    "rkhs_norm",
    "span_decomposition",
]


def _dual_expansion(alpha, y, b, K_test):
    r""":math:`f(t_a) = \sum_i \alpha_i y_i K(t_a, x_i) + b`: the expansion of the representer
    theorem with signed coefficients, which the dual perceptron and every SVM predict with."""
    return K_test @ (alpha * y) + b


@validated(K=gram(), alpha=vector(rows="K"), squared=boolean())
def rkhs_norm(alpha, K, *, squared=False):
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
    value = float(alpha @ K @ alpha)
    return value if squared else float(np.sqrt(max(value, 0.0)))


@validated(K_uu=gram(), K_xu=cross_gram("K_uu"), y=vector(rows="K_xu"), lam=positive())
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


@validated(K_uu=gram(), coef=vector(rows="K_uu"), n_span=integer(low=1, high="coef"))
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
