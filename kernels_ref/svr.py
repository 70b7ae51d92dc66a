r"""Support vector regression (chapter 10, "Support vector regression").

Support vector regression (:func:`svr`, :func:`svr_predict`) replaces the square loss of
kernel ridge regression by Vapnik's :math:`\varepsilon`-insensitive loss; its dual in
:math:`(\alpha, \alpha^*)` is solved by the SMO solver of :mod:`kernels_ref.smo` as a problem
in :math:`2n` variables.
"""

from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    boolean,
    cross_gram,
    gram,
    iterations,
    positive,
    real,
    result,
    validated,
    vector,
)
from .smo import TiledGram, _default_max_iter, _run_fields, _smo
from .svm import TOL

__all__ = [
    "SVRResult",
    "c_from_penalty_lambda",
    "svr",
    "svr_predict",
]


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
    finish_attempts, finish_solves, ended_by : int, int, str or None
        How SMO's run went, as in :class:`~kernels_ref.smo.SMOResult` (0, 0 and None for a
        solution of :mod:`kernels_ref.cvx`).
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
    finish_attempts: int = 0
    finish_solves: int = 0
    ended_by: str | None = None


@validated(
    K=gram(),
    y=vector(rows="K"),
    C=positive(),
    epsilon=real(low=0.0),
    tol=positive(),
    max_iter=iterations(default=lambda args: _default_max_iter(2 * len(args["K"]))),
    shrinking=boolean(),
)
def svr(K, y, C, epsilon, *, tol=TOL, max_iter=None, shrinking=True):
    r""":math:`\varepsilon`-insensitive support vector regression, dual form, solved by SMO.

    .. math::

        \begin{aligned}
        &\max_{\alpha, \alpha^* \in \mathbb R^n} \sum_i y_i(\alpha_i - \alpha_i^*)\\
        &\quad - \varepsilon\sum_i(\alpha_i + \alpha_i^*)\\
        &\quad - \tfrac12\sum_{i,j}(\alpha_i - \alpha_i^*)(\alpha_j - \alpha_j^*)K_{ij}\\
        &\text{s.t.}\ \sum_i(\alpha_i - \alpha_i^*) = 0,\\
        &\phantom{\text{s.t.}}\ 0 \le \alpha_i, \alpha_i^* \le C,
        \end{aligned}

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
        SMO iteration limit (default :math:`\max(10^7, 200n)`, LIBSVM's default for its
        :math:`2n` variables); reaching it warns
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

    Notes
    -----
    Other conventions: ``C`` and ``epsilon`` are libsvm's (scikit-learn's
    ``SVR(C=C, epsilon=epsilon)``), the same problem with the intercept :math:`b`; only the
    stopping tolerance differs (libsvm's default ``tol`` is 1e-3).

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
    n = len(y)
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
        **_run_fields(res),
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


@validated(
    result=result(SVRResult, "svr or kernels_ref.cvx.svr_dual"), K_test=cross_gram("result.coef")
)
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
    return K_test @ result.coef + result.b


@validated(lam=positive())
def c_from_penalty_lambda(lam):
    r"""The book's SVR constant from Valle Vidal's penalty weight: :math:`C = 1/\lambda`.

    .. math::

        \begin{aligned}
        &H(\beta, \beta_0) = \sum_i V_\varepsilon(r_i) + \frac\lambda2\|\beta\|^2\\
        &\quad= \frac1C\Big(\tfrac12\|\beta\|^2 + C\sum_i V_\varepsilon(r_i)\Big),\\
        &r_i = y_i - f(x_i),\qquad C = \frac1\lambda,
        \end{aligned}

    for every :math:`(\beta, \beta_0)`, :math:`f(x) = \langle\beta, \phi(x)\rangle + \beta_0`,
    with :math:`V_\varepsilon(r) = \max(0, |r| - \varepsilon)`, so both criteria have the same
    minimiser. Left: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Support
    vector regression" (after Hastie, Tibshirani & Friedman (2009), §12.3.6, eq. (12.36)); his
    dual box :math:`0 \le \alpha_i, \alpha_i^* \le 1/\lambda`, "Support vector regression (3)",
    is this :math:`C`. Right: the book's :func:`svr`, :math:`\tfrac12\|w\|^2 +
    C\sum_i(\xi_i + \xi_i^*)`, whose optimal slacks are :math:`\xi_i + \xi_i^* =
    V_\varepsilon(y_i - f(x_i))`. Valid for :math:`\lambda > 0`.

    Parameters
    ----------
    lam : float > 0
        Valle Vidal's :math:`\lambda`, in front of :math:`\tfrac12\|\beta\|^2`.

    Returns
    -------
    float
        :math:`C`, for :func:`svr`.

    Examples
    --------
    >>> c_from_penalty_lambda(0.25)
    4.0
    """
    return 1.0 / lam
