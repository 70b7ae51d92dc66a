r"""Support vector machines (chapters 4–6): hard margin, soft margins, Vert's form, ν-SVM.

Every fit takes a Gram matrix ``K`` of shape ``(n, n)`` and labels ``y`` in :math:`\{-1, +1\}`
and returns an :class:`SVMResult`: the dual coefficients :math:`\alpha_i \ge 0` of the book's
convention (Chevaleyre, Rousseau, Valle Vidal), the intercept :math:`b`, and the evidence that
the answer is right (the dual objective and the distance to the KKT conditions). The decision
function is

.. math:: f(x) = \sum_i \alpha_i y_i K(x_i, x) + b.

All the duals are solved by the one SMO solver of :mod:`kernels_ref.smo`.
"""

import math
import warnings
from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    array,
    boolean,
    box,
    box_start,
    check_nu,
    cross_gram,
    gram,
    integer,
    iterations,
    labels,
    positive,
    real,
    result,
    rule,
    validated,
    vector,
)
from .exceptions import ConvergenceWarning, NotSeparableError
from .representer import _dual_expansion
from .smo import AugmentedGram, _default_max_iter, _run_fields, _smo

__all__ = [
    "SVMResult",
    "c_book_from_lambda",
    "c_from_lambda",
    "c_from_nu",
    "hard_margin",
    "intercept_free_sv",
    "intercept_max_min",
    "kkt_violation",
    "kkt_violation_l2",
    "lambda_from_c",
    "lambda_svm",
    "margin",
    "nu_svm",
    "nu_to_c_svm",
    "penalty_lambda_from_c",
    "primal_w",
    "soft_margin_l1",
    "soft_margin_l2",
    "svm_predict",
]

#: Default tolerance of the stopping rule m(alpha) - M(alpha) <= tol, in units of y f(x).
TOL = 1e-8


@dataclass(frozen=True, repr=False)
class SVMResult(ShortRepr):
    r"""Solution of an SVM dual; decision function f(x) = sum_i alpha_i y_i K(x_i, x) + b.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Dual coefficients, :math:`\alpha_i \ge 0` (the book's convention).
    b : float
        Intercept (0.0 for the formulations without one, :func:`lambda_svm`).
    support : ndarray of int
        Indices of the support vectors, :math:`\alpha_i > 0`.
    dual_objective : float
        The dual objective at ``alpha``, in the maximisation form of the texts (Vert's scaling
        for :func:`lambda_svm`).
    kkt_violation : float
        Distance of ``alpha`` from the KKT conditions (:func:`kkt_violation`).
    n_iter : int
        Solver iterations (SMO pair updates).
    converged : bool
        Whether the solver met its tolerance.
    y : ndarray, shape (n,)
        Training labels :math:`\pm 1`, so that :func:`svm_predict` needs only
        ``K_test``.
    rho : float or None
        :math:`\rho` of the ν-SVM (:func:`nu_svm`), otherwise ``None``.
    finish_attempts, finish_solves, ended_by : int, int, str or None
        How SMO's run went, as in :class:`~kernels_ref.smo.SMOResult` (0, 0 and None for a
        solution of :mod:`kernels_ref.cvx`).
    """

    alpha: np.ndarray
    b: float
    support: np.ndarray
    dual_objective: float
    kkt_violation: float
    n_iter: int
    converged: bool
    y: np.ndarray
    rho: float | None = None
    finish_attempts: int = 0
    finish_solves: int = 0
    ended_by: str | None = None


# --- the rules of the arguments -----------------------------------------------------------


def _feasible_nu(value, name, args):
    """The rule of nu: in (0, 1], and feasible for the labels ``y`` (:func:`check_nu`)."""
    return check_nu(value, args["y"])


def _zero_sum_start(value, name, args):
    """A feasible starting point of the C-SVM dual: SMO's box, and y . alpha0 = 0."""
    alpha0 = START(value, name, args)
    gap = abs(float(args["y"] @ alpha0))
    if gap > 1e-9 * max(1.0, float(alpha0.sum())):
        raise ValueError(f"{name} must satisfy y . {name} = 0, got {gap:.3g}")
    return alpha0


START = box_start(rows="K")


#: The rules of every fit: a Gram matrix, its labels, the solver's tolerance and limit.
FIT = {
    "K": gram(),
    "y": labels(rows="K"),
    "tol": positive(),
    "max_iter": iterations(default=lambda args: _default_max_iter(len(args["K"]))),
}
#: The rules of a dual vector alpha with its Gram matrix and labels.
DUAL = {"K": gram(), "alpha": vector(rows="K"), "y": labels(rows="K")}
#: A fit of this module.
FIT_RESULT = result(SVMResult, "a fit of kernels_ref.svm or cvx")


def _nu_fit(value, name, args):
    """The rule of a nu-SVM fit with rho > 0 (the C-SVM equivalence divides by rho)."""
    value = FIT_RESULT(value, name, args)
    if value.rho is None:
        raise ValueError(f"{name} must come from nu_svm ({name}.rho is None)")
    if not value.rho > 0:
        raise ValueError(f"{name}.rho must be positive for the C-SVM equivalence, got {value.rho}")
    return value


NU_FIT = rule(_nu_fit, "result")


# --- optimality ---------------------------------------------------------------------------


def _bound_tol(alpha):
    """Tolerance under which alpha_i counts as being at a bound (0 or C_i)."""
    return 1e-9 * max(1.0, float(np.max(np.abs(alpha))))


def _sets(alpha, y, C, atol):
    """I_up, I_low (see :func:`kernels_ref.smo.working_sets`) with bounds met up to atol."""
    pos = y > 0
    below = alpha < C - atol
    above = alpha > atol
    return (pos & below) | (~pos & above), (~pos & below) | (pos & above)


def _violation(alpha, v, y, C, atol, bias=True, delta=0.0, nu=None):
    """Distance to the KKT conditions from v = -y * grad (see :func:`kkt_violation`)."""
    up, low = _sets(alpha, y, C, atol)
    box = max(0.0, float(np.max(-alpha)), float(np.max(alpha - C)))
    if nu is not None:
        gaps = []
        for cls in (y > 0, y < 0):
            m = np.max(v, where=up & cls, initial=-np.inf)
            M = np.min(v, where=low & cls, initial=np.inf)
            gaps.append(max(0.0, float(m - M)))
        eq = abs(float(alpha[y > 0].sum()) - nu / 2) + abs(float(alpha[y < 0].sum()) - nu / 2)
        return max(gaps) + eq + box
    m = float(np.max(v, where=up, initial=-np.inf))
    M = float(np.min(v, where=low, initial=np.inf))
    if not bias:
        return max(0.0, m) + max(0.0, -M) + box
    return max(0.0, m - M) + abs(float(y @ alpha) - delta) + box


@validated(
    **DUAL,
    C=box(rows="K", optional=True),
    nu=rule(_feasible_nu, "nu", optional=True),
    delta=real(),
    bias=boolean(),
    p=vector(rows="K", optional=True),
    atol=real(low=0.0, optional=True),
)
def kkt_violation(alpha, K, y, C=None, *, p=None, delta=0.0, bias=True, nu=None, atol=None):
    r"""Distance of :math:`\alpha` from the KKT conditions of an SVM dual.

    For the dual :math:`\min \tfrac12\alpha^\top Q\alpha + p^\top\alpha`,
    :math:`y^\top\alpha = \Delta`, :math:`0 \le \alpha \le C`, with :math:`v = -y\circ(Q\alpha
    + p)` and the index sets :math:`I_{up}`, :math:`I_{low}` of
    :func:`kernels_ref.smo.working_sets`:

    .. math::

        \begin{aligned}
        \mathrm{viol}(\alpha) &= \max\big(0,\; m(\alpha) - M(\alpha)\big)
        + |y^\top\alpha - \Delta| + \max_i \operatorname{dist}(\alpha_i, [0, C_i]),\\
        m &= \max_{I_{up}} v_t,\quad M = \min_{I_{low}} v_t.
        \end{aligned}

    It is 0 exactly at a solution (Chang & Lin 2011, §4.1.2: :math:`m \le M` is the KKT system),
    and :math:`m - M` is the quantity SMO drives below its tolerance, in the units of
    :math:`y_i f(x_i)`. A bound counts as met within ``atol`` (default :math:`10^{-9}
    \max(1, \max_i\alpha_i)`) so that interior-point answers (cvxpy) are measured the same way.

    Variants: ``bias=False`` (no equality constraint, Vert's SVM) uses
    :math:`\max(0, m) + \max(0, -M)`; ``nu`` (ν-SVM, :math:`p = 0`) takes the largest
    :math:`m - M` of the two classes and adds :math:`|\sum_{y_i = \pm 1}\alpha_i - \nu/2|`.

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
        The Gram matrix of the dual (``K + I/C`` for the L2 soft margin: use
        :func:`kkt_violation_l2`, which adds it).
    y : array_like, shape (n,)
    C : float or array_like, optional
        Upper bounds: ``C`` of the C-SVM, ``1/(2 lam n)`` for Vert's SVM. The default is
        ``np.inf`` (the hard margin), or ``1/n`` with ``nu`` (the box of the ν-SVM).
    p : array_like, shape (n,), optional
        Linear term; default :math:`-1` (or 0 with ``nu``).
    delta : float
        Right-hand side :math:`\Delta` of the equality constraint.
    bias : bool
    nu : float in (0, 1], optional
        Must not exceed :math:`2\min(n_+, n_-)/n` (as in :func:`nu_svm`).
    atol : float >= 0, optional

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a non-symmetric ``K``, bad labels, ``C <= 0``, ``nu`` outside (0, 1] or infeasible,
        a non-finite ``delta``, ``atol < 0``.

    Examples
    --------
    >>> K = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> y = np.array([1.0, -1.0])
    >>> kkt_violation([1.0, 1.0], K, y)  # the hard-margin solution
    0.0
    >>> kkt_violation([0.5, 0.5], K, y)  # feasible, not optimal: m - M = 0.5 - (-0.5)
    1.0
    """
    if C is None:
        C = np.inf if nu is None else 1.0 / len(y)
    return _kkt_violation(alpha, K, y, C, p=p, delta=delta, bias=bias, nu=nu, atol=atol)


@validated(**DUAL, C=positive(), atol=real(low=0.0, optional=True))
def kkt_violation_l2(alpha, K, y, C, *, atol=None):
    r"""Distance of :math:`\alpha` from the KKT conditions of the L2 soft-margin dual.

    .. math::
        \max_{\alpha \ge 0,\ y^\top\alpha = 0}\ \mathbf 1^\top\alpha
        - \tfrac12\alpha^\top \operatorname{diag}(y)\big(K + \tfrac1C I\big)
        \operatorname{diag}(y)\alpha

    is the hard-margin dual of the matrix :math:`K + I/C` (no upper bound on :math:`\alpha`),
    so this is :func:`kkt_violation` of ``K + I/C`` with ``C = inf``, the form in which it is
    easy to pass the wrong matrix or bound. Source: Valle Vidal (2009), "Proposición (2)" of
    the L2 soft margin (with the kernel in place of :math:`\langle x_i, x_j\rangle`).

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
        The Gram matrix of the data (without ``I/C``).
    y : array_like, shape (n,)
    C : float > 0
        The penalty of :math:`\frac C2\sum_i \xi_i^2`.
    atol : float >= 0, optional
        As in :func:`kkt_violation`.

    Returns
    -------
    float

    Examples
    --------
    Two points, :math:`K = I`, :math:`C = 1`: the dual of :math:`K + I = 2I` is solved by
    :math:`\alpha = (1/2, 1/2)` (then :math:`y_i f(x_i) = 1 - \alpha_i/C = 1/2`):

    >>> kkt_violation_l2([0.5, 0.5], np.eye(2), np.array([1.0, -1.0]), 1.0)
    0.0
    >>> kkt_violation_l2([1.0, 1.0], np.eye(2), np.array([1.0, -1.0]), 1.0)  # the L1 answer
    2.0
    """
    return _kkt_violation(alpha, _l2_gram(K, C), y, np.inf, atol=atol)


def _l2_gram(K, C):
    """:math:`K + I/C`, the matrix of the L2 soft-margin dual (a new array; ``K`` unchanged)."""
    K_l2 = K.copy()
    K_l2.flat[:: len(K) + 1] += 1.0 / C
    return K_l2


def _kkt_violation(alpha, K, y, C=np.inf, *, p=None, delta=0.0, bias=True, nu=None, atol=None):
    """:func:`kkt_violation` on validated arrays (``C`` a number or an array of ``n``)."""
    n = len(y)
    C = np.broadcast_to(np.asarray(C, dtype=float), (n,))
    if p is None:
        p = np.zeros(n) if nu is not None else -np.ones(n)
    v = -y * (y * (K @ (y * alpha)) + p)
    atol = _bound_tol(alpha) if atol is None else atol
    return _violation(alpha, v, y, C, atol, bias=bias, delta=delta, nu=nu)


# --- intercepts ---------------------------------------------------------------------------


def _intercept(v, alpha, y, C, atol):
    """Average of v_t = y_t - f_0(x_t) over the free SVs, else the midpoint of [m, M]."""
    free = (alpha > atol) & (alpha < C - atol)
    if np.any(free):
        return float(np.mean(v[free]))
    return _midpoint(*_kkt_interval(v, alpha, y, C, atol))


def _kkt_interval(v, alpha, y, C, atol):
    r"""``(m, M)``: :math:`m = \max_{I_{up}} v_t`, :math:`M = \min_{I_{low}} v_t` (an empty set
    gives :math:`\mp\infty`). For :math:`v = y - f_0` at a solution, the intercepts the KKT
    conditions allow are :math:`[m, M]` (the ends cross by the round-off of ``alpha``)."""
    up, low = _sets(alpha, y, C, atol)
    m = float(np.max(v, where=up, initial=-np.inf))
    M = float(np.min(v, where=low, initial=np.inf))
    return m, M


def _midpoint(lo, hi):
    """Midpoint of [lo, hi]; the finite end if the other is infinite (empty index set)."""
    if math.isfinite(lo) and math.isfinite(hi):
        return 0.5 * (lo + hi)
    return lo if math.isfinite(lo) else (hi if math.isfinite(hi) else 0.0)


@validated(**DUAL, C=box(rows="K"))
def intercept_free_sv(alpha, K, y, C=np.inf):
    r"""Intercept averaged over the free support vectors (Rousseau's rule).

    .. math::

        b = \frac{1}{|F|}\sum_{i \in F} \big(y_i - \textstyle\sum_j \alpha_j y_j K_{ij}\big),
        \qquad F = \{i : 0 < \alpha_i < C\}.

    Source: Rousseau, *Kernel methods* (2022), "Classification" ("more stable numerically":
    every support vector satisfies :math:`y_i f(x_i) = 1`, so each gives :math:`b`; averaging
    damps round-off); Valle Vidal (2009), soft margin L1, "Proposición (2)" (the free SVs,
    :math:`0 < \alpha_i < C`). When no :math:`\alpha_i` is free, the KKT conditions only give an
    interval :math:`[m(\alpha), M(\alpha)]` for :math:`b`, and the midpoint is returned, as
    LIBSVM does (Chang & Lin 2011, §4.1.5).

    Parameters
    ----------
    alpha : array_like, shape (n,)
    K : array_like, shape (n, n)
        ``K + I/C`` for the L2 soft margin (then :math:`y_i f(x_i) = 1 - \alpha_i / C`).
    y : array_like, shape (n,)
    C : float or array_like
        ``np.inf`` for the hard margin.

    Returns
    -------
    float

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> y = np.array([-1.0, -1.0, 1.0])
    >>> intercept_free_sv([0.0, 0.5, 0.5], X @ X.T, y)  # w = 1, margin line at x = 1 and 3
    -2.0
    """
    v = y - K @ (alpha * y)
    return _intercept(v, alpha, y, C, _bound_tol(alpha))


@validated(**DUAL)
def intercept_max_min(alpha, K, y):
    r"""Hard-margin intercept from the extreme points of each class (Valle Vidal, corrected).

    .. math::

        \begin{aligned}
        b^* &= -\tfrac12\big(\max_{y_i = -1} s_i + \min_{y_i = 1} s_i\big),\\
        s_i &= \langle w^*, \phi(x_i)\rangle = \sum_j \alpha_j y_j K_{ij}.
        \end{aligned}

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Proposición 1 (2)",
    which prints :math:`(\max_{y_i=-1} + \max_{y_i=1})/2` without the minus sign; at the hard
    margin solution the closest points of each class satisfy :math:`\langle w, \phi\rangle + b
    = \pm 1`, whose half-sum is the formula above.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> y = np.array([-1.0, -1.0, 1.0])
    >>> intercept_max_min([0.0, 0.5, 0.5], X @ X.T, y)
    -2.0
    """
    f0 = K @ (alpha * y)
    return -0.5 * float(np.max(f0[y < 0]) + np.min(f0[y > 0]))


# --- geometry -----------------------------------------------------------------------------


@validated(result=FIT_RESULT, K_test=cross_gram("result.alpha"))
def svm_predict(result, K_test):
    r"""Decision values :math:`f(x) = \sum_i \alpha_i y_i K(x_i, x) + b`.

    Source: Valle Vidal (2009), "Proposición 1 usando kernels (2)"; Rousseau (2022),
    "Classification".

    Parameters
    ----------
    result : SVMResult
    K_test : array_like, shape (n_test, n_train)
        :math:`K(x, x_i)` for the test points :math:`x` (rows) and the training points.

    Returns
    -------
    ndarray, shape (n_test,)

    Examples
    --------
    >>> X = np.array([[0.0], [2.0]])
    >>> res = hard_margin(X @ X.T, [-1.0, 1.0])
    >>> np.round(svm_predict(res, np.array([[1.0]]) @ X.T), 6)
    array([0.])
    """
    return _dual_expansion(result.alpha, result.y, result.b, K_test)


@validated(result=FIT_RESULT, K=gram(rows="result.alpha"))
def margin(result, K):
    r"""Geometric margin :math:`\gamma = 1/\|w\|`, :math:`\|w\|^2 = (\alpha\circ y)^\top K
    (\alpha\circ y)`.

    Source: Valle Vidal (2009), "Hiperplano Optimal" and Proposición 2 (for the hard margin
    :math:`\|w\|^2 = \sum_i \alpha_i`, so :math:`\gamma = (\sum_i\alpha_i)^{-1/2}`); Rousseau
    (2022), "Margin is :math:`1/\|w\|_2`". Chevaleyre (2023) calls :math:`2/\|w\|` the margin
    (the width of the band). For the L2 soft margin pass the original ``K`` (not
    ``K + I/C``): :math:`\gamma = (\sum\alpha_i - \langle\alpha, \alpha\rangle/C)^{-1/2}`.

    Parameters
    ----------
    result : SVMResult
    K : array_like, shape (n, n)

    Returns
    -------
    float
        ``inf`` when :math:`w = 0`.

    Examples
    --------
    >>> X = np.array([[0.0], [2.0]])
    >>> margin(hard_margin(X @ X.T, [-1.0, 1.0]), X @ X.T)
    1.0
    """
    u = result.alpha * result.y
    w2 = float(u @ K @ u)
    return math.inf if w2 <= 0 else 1.0 / math.sqrt(w2)


@validated(result=FIT_RESULT, Phi=array(2, rows="result.alpha"))
def primal_w(result, Phi):
    r"""Primal weight vector :math:`w = \sum_i \alpha_i y_i \phi(x_i)` for an explicit feature map.

    Source: Valle Vidal (2009), "Lagrangiano dual" (:math:`\partial L_P/\partial w = 0`);
    Chevaleyre (2023), §2.7; Rousseau (2022), "Lagrangian formulation".

    Parameters
    ----------
    result : SVMResult
    Phi : array_like, shape (n, D)
        Rows :math:`\phi(x_i)` (``X`` itself for the linear kernel).

    Returns
    -------
    ndarray, shape (D,)

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [2.0, 1.0]])
    >>> primal_w(hard_margin(X @ X.T, [-1.0, 1.0]), X)
    array([1., 0.])
    """
    return Phi.T @ (result.alpha * result.y)


# --- conversions --------------------------------------------------------------------------


@validated(lam=positive(), n=integer(low=1))
def c_from_lambda(lam, n):
    r"""Vert's C-SVM constant :math:`C = 1/(n\lambda)`.

    Source: Vert, *Méthodes à noyaux* (2004), "Remarque: C-SVM": minimising
    :math:`\frac1n\sum_i \mathrm{hinge}_i + \lambda\|f\|^2` is minimising
    :math:`C\sum_i \mathrm{hinge}_i + \|f\|^2` with :math:`C = 1/(n\lambda)` (divide by
    :math:`\lambda`). Beware the factor 2 against the book's (and LIBSVM's) C-SVM
    :math:`\tfrac12\|w\|^2 + C\sum_i\xi_i`: dividing by :math:`2\lambda` instead gives
    :math:`C_{\text{book}} = 1/(2n\lambda)`, the upper bound :math:`1/(2\lambda n)` of Vert's
    dual :math:`0 \le y_i\alpha_i \le 1/(2\lambda n)`: :func:`c_book_from_lambda`.

    Examples
    --------
    >>> c_from_lambda(0.01, 50)
    2.0
    """
    return 1.0 / (n * lam)


@validated(C=positive(), n=integer(low=1))
def lambda_from_c(C, n):
    r"""Inverse of :func:`c_from_lambda`: :math:`\lambda = 1/(nC)` (Vert's C).

    Examples
    --------
    >>> lambda_from_c(2.0, 50)
    0.01
    """
    return 1.0 / (n * C)


@validated(lam=positive(), n=integer(low=1))
def c_book_from_lambda(lam, n):
    r"""The book's C-SVM constant from Vert's :math:`\lambda`: :math:`C = 1/(2n\lambda)`.

    .. math::

        \begin{aligned}
        &\frac{1}{2\lambda}\Big(\frac1n\sum_i h_i + \lambda\|f\|^2_{\mathcal H}\Big)\\
        &\quad= \tfrac12\|f\|^2_{\mathcal H} + C\sum_i h_i,\\
        &h_i = \mathrm{hinge}\big(y_if(x_i)\big),\\
        &C = \frac{1}{2n\lambda},
        \end{aligned}

    for every function :math:`f` (and every intercept), so both criteria have the same
    minimiser. Left: Vert, *Méthodes à noyaux* (2004), "Définition des SVM" (his dual box
    :math:`0 \le y_i\alpha_i \le 1/(2\lambda n)`, "Retour au primal", is this :math:`C`).
    Right: the book's C-SVM :math:`\tfrac12\|w\|^2 + C\sum_i\xi_i` (Chevaleyre, *Fondamentaux
    de l'apprentissage automatique* (2023), §3.1; Rousseau, *Kernel methods* (2022), "Soft
    margin minimization problem"; LIBSVM's :math:`C`). Not Vert's own :math:`C = 1/(n\lambda)`
    of :math:`C\sum_i\mathrm{hinge}_i + \|f\|^2` ("Remarque: C-SVM", :func:`c_from_lambda`),
    which is twice as large. Valid for :math:`\lambda > 0` and :math:`n \ge 1` points.

    Parameters
    ----------
    lam : float > 0
        Vert's :math:`\lambda`, the weight of :math:`\|f\|^2` against the *mean* hinge loss.
    n : int >= 1
        Number of training points.

    Returns
    -------
    float
        :math:`C`, for :func:`soft_margin_l1` (with an intercept) or the C-SVM without one
        that :func:`lambda_svm` solves.

    Examples
    --------
    >>> c_book_from_lambda(0.01, 50)
    1.0
    >>> c_book_from_lambda(0.01, 50) == c_from_lambda(0.01, 50) / 2
    True
    """
    return 0.5 / (n * lam)


@validated(C=positive())
def penalty_lambda_from_c(C):
    r"""Valle Vidal's penalty weight from the book's C-SVM constant: :math:`\lambda = 1/(2C)`.

    .. math::

        \sum_i \big[1 - y_if(x_i)\big]_+ + \lambda\|w\|^2
        = \frac1C\Big(\tfrac12\|w\|^2 + C\sum_i \big[1 - y_if(x_i)\big]_+\Big),
        \qquad \lambda = \frac{1}{2C},

    for every :math:`(w, b)`, :math:`f(x) = \langle w, \phi(x)\rangle + b`, so both criteria
    have the same minimiser. Left: Valle Vidal, *Vector de soporte y métodos de kernel* (2009),
    "SVM como método de penalización", problem (6), "con :math:`\lambda = 1/(2C)`";
    Hastie, Tibshirani & Friedman (2009), §12.3.2, eq. (12.25), write the same penalty as
    :math:`\frac{\lambda}{2}\|\beta\|^2` with :math:`\lambda = 1/C`. Right: the book's C-SVM
    (Chevaleyre (2023), §3.1 and §3.4, whose :math:`\frac{1}{2C}\|\omega\|^2` is this
    weight; Valle Vidal's Lagrangian of (5), "Soft Margin norma 1"). The same weight is the
    one of the kernel forms of "Kernels y la función de estimación", where Valle Vidal prints
    :math:`C` in its place. Valid for :math:`C > 0`.

    Parameters
    ----------
    C : float > 0
        The book's constant, in :math:`\tfrac12\|w\|^2 + C\sum_i\xi_i`.

    Returns
    -------
    float
        :math:`\lambda`.

    Examples
    --------
    >>> penalty_lambda_from_c(2.0)
    0.25
    """
    return 0.5 / C


@validated(result=NU_FIT)
def c_from_nu(result):
    r"""The C-SVM constant equivalent to a ν-SVM solution: :math:`C = 1/(n\rho)`.

    Source: Schölkopf, Smola, Williamson & Bartlett (2000), Proposition 6; Chang & Lin (2011),
    §4.2. If :math:`\rho > 0`, :math:`\alpha/\rho` solves the C-SVM dual with
    :math:`C = 1/(n\rho)` and the decision function is divided by :math:`\rho`
    (:func:`nu_to_c_svm`).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> res = nu_svm(X @ X.T, [-1.0, -1.0, 1.0, 1.0], nu=0.4)
    >>> round(c_from_nu(res), 6)
    0.625
    """
    return 1.0 / (len(result.alpha) * result.rho)


@validated(result=NU_FIT, K=gram(rows="result.alpha"))
def nu_to_c_svm(result, K):
    r"""The C-SVM solution :math:`(\alpha/\rho, b/\rho)` equivalent to a ν-SVM solution.

    .. math::

        \alpha^{C} = \alpha^{\nu}/\rho, \qquad b^{C} = b^{\nu}/\rho, \qquad C = 1/(n\rho),

    so that :math:`f^{C} = f^{\nu}/\rho` (Schölkopf et al. 2000, Proposition 6). The dual
    objective is :math:`\sum_i\alpha^C_i - \tfrac12 (\alpha^C)^\top Q \alpha^C` and the KKT
    violation is measured on the C-SVM dual.

    Parameters
    ----------
    result : SVMResult
        From :func:`nu_svm`, with ``rho > 0``.
    K : array_like, shape (n, n)

    Returns
    -------
    SVMResult
    """
    C = 1.0 / (len(result.alpha) * result.rho)  # c_from_nu
    alpha = result.alpha / result.rho
    y = result.y
    v = y - K @ (alpha * y)
    objective = float(alpha.sum() - 0.5 * alpha @ ((y - v) * y))
    viol = _violation(alpha, v, y, np.full(len(y), C), _bound_tol(alpha))
    return SVMResult(
        alpha=alpha,
        b=result.b / result.rho,
        support=result.support,
        dual_objective=objective,
        kkt_violation=viol,
        n_iter=result.n_iter,
        converged=result.converged,
        y=y,
        finish_attempts=result.finish_attempts,
        finish_solves=result.finish_solves,
        ended_by=result.ended_by,
    )


# --- fits ---------------------------------------------------------------------------------


def _result(alpha, y, C, v, dual_objective, **kw):
    """SVMResult with the intercept from the free SVs and the KKT violation from v; ``kw``: the
    fields of :func:`kernels_ref.smo._run_fields`, and ``bias=False`` for a fit without an
    intercept."""
    atol = _bound_tol(alpha)
    bias = kw.pop("bias", True)
    b = _intercept(v, alpha, y, C, atol) if bias else 0.0
    viol = _violation(alpha, v, y, C, atol, bias=bias)
    return SVMResult(
        alpha=alpha,
        b=b,
        support=np.flatnonzero(alpha > 0),
        dual_objective=dual_objective,
        kkt_violation=viol,
        y=y,
        **kw,
    )


def _spread(K):
    """max_i ||phi(x_i) - phi(x_0)||: between half the diameter of the data and the diameter."""
    d2 = K.diagonal() + K[0, 0] - 2.0 * K[0]
    return math.sqrt(max(0.0, float(np.max(d2))))


@validated(**FIT, min_margin=positive(optional=True))
def hard_margin(K, y, *, tol=TOL, max_iter=None, min_margin=None):
    r"""Maximal-margin (hard-margin) SVM, dual form.

    .. math::

        \max_{\alpha} \sum_i \alpha_i - \tfrac12 \sum_{i,j}\alpha_i\alpha_j y_i y_j K_{ij}
        \quad\text{s.t.}\quad \sum_i \alpha_i y_i = 0,\quad \alpha_i \ge 0.

    Source: Valle Vidal (2009), "Proposición 1 usando kernels"; Chevaleyre (2023), §2.7;
    Rousseau (2022), "Dual formulation". The intercept is averaged over the support vectors
    (Rousseau); the margin is :math:`\gamma = (\sum_i\alpha_i)^{-1/2}` (Valle Vidal,
    Proposición 2).

    On data that are not separable the dual is unbounded: SMO never meets its stopping rule
    (an :math:`\alpha` with :math:`m(\alpha) - M(\alpha) < 1` would give a separating
    hyperplane) and :math:`\sum_i\alpha_i` grows without limit. Any feasible :math:`\alpha`
    bounds the margin: :math:`\lambda = 2\alpha/\sum_i\alpha_i` puts weight 1 on each class,
    so :math:`u - v = 2w/\sum_i\alpha_i` joins a point :math:`u` of the convex hull of the
    positive class to a point :math:`v` of the other hull, and

    .. math::

        \gamma \le \tfrac12\|u - v\| = \frac{\|w\|}{\sum_i \alpha_i},
        \qquad \|w\|^2 = \alpha^\top Q\alpha.

    The fit runs SMO by chunks of iterations and raises :class:`NotSeparableError` as soon as
    this bound falls below ``min_margin``; on non-separable data it decreases like the inverse
    of the number of iterations.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix.
    y : array_like, shape (n,)
        Labels :math:`\pm 1`.
    tol : float
        Stopping tolerance :math:`m(\alpha) - M(\alpha)`, in units of :math:`y_i f(x_i)`
        (raised to the round-off level :math:`10^3\epsilon_{\text{mach}} \sum_i\alpha_i
        \max_i K_{ii}` of the gradient when that is larger).
    max_iter : int >= 1, optional
        Default :math:`\max(10^7, 100n)`, LIBSVM's default.
    min_margin : float, optional
        Margins below it count as "not separable" (they cannot be resolved in floating point:
        :math:`\sum_i\alpha_i = 1/\gamma^2`). Default :math:`10^{-4} r` with :math:`r` the
        spread of the data, :math:`\max_i \|\phi(x_i) - \phi(x_1)\|`.

    Returns
    -------
    SVMResult

    Raises
    ------
    NotSeparableError
        When a feasible :math:`\alpha` proves that the margin is below ``min_margin``.

    Examples
    --------
    The closest point of the segment from (0, 0) to (0, 2) to (3, 1) is (0, 1): :math:`w =
    (2/3, 0)`, :math:`\gamma = 3/2`, :math:`\alpha = 2\lambda/9` with :math:`\lambda =
    (1/2, 1/2, 1)`.

    >>> X = np.array([[0.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
    >>> res = hard_margin(X @ X.T, [-1.0, -1.0, 1.0])
    >>> np.round(res.alpha, 6), round(res.b, 6), round(margin(res, X @ X.T), 6)
    (array([0.111111, 0.111111, 0.222222]), -1.0, 1.5)
    """
    n = len(y)
    min_margin = 1e-4 * _spread(K) if min_margin is None else min_margin
    kmax = float(np.max(np.abs(K.diagonal())))
    alpha, n_iter, chunk = np.zeros(n), 0, max(1000, 10 * n)
    while True:
        tol_run = max(tol, 1e3 * np.finfo(float).eps * float(alpha.sum()) * kmax)
        limit = min(chunk, max_iter - n_iter)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = _smo(K, y, -np.ones(n), np.inf, alpha, tol=tol_run, max_iter=limit)
        alpha, n_iter = res.alpha, n_iter + res.n_iter
        if res.converged:
            break
        s = float(alpha.sum())
        # ||w|| / sum(alpha); no bound while alpha = 0 (before SMO's first step)
        bound = math.sqrt(max(0.0, float(alpha @ (res.grad + 1.0)))) / s if s > 0 else math.inf
        if bound <= min_margin:
            raise NotSeparableError(
                "K, y: the classes are not separable in feature space: after "
                f"{n_iter} SMO iterations sum(alpha) = {s:.3g} and the margin is at most "
                f"||w|| / sum(alpha) = {bound:.3g}, below min_margin = {min_margin:.3g} (two "
                f"points of the convex hulls of the classes are {2 * bound:.3g} apart)"
            )
        if n_iter >= max_iter or res.n_iter < limit:
            # the limit, or SMO stopped short of its chunk without converging (no step makes
            # progress): calling it again would repeat the same, so the loop ends here
            reason = (
                f"its iteration limit max_iter={max_iter}"
                if n_iter >= max_iter
                else f"a point where no step makes progress, after {n_iter} iterations"
            )
            warnings.warn(
                f"hard_margin: SMO stopped at {reason} with m - M = {res.violation:.3g} > "
                f"tol = {tol_run:.3g}",
                ConvergenceWarning,
                stacklevel=2,
            )
            break
        chunk *= 2
    C = np.full(n, np.inf)
    return _result(alpha, y, C, -y * res.grad, -res.objective, **_run_fields(res, n_iter))


@validated(
    **FIT,
    C=positive(),
    shrinking=boolean(),
    alpha0=rule(_zero_sum_start, "start", optional=True, samples=(0,), refs=("K", "C")),
)
def soft_margin_l1(K, y, C, *, tol=TOL, max_iter=None, shrinking=True, alpha0=None):
    r"""Soft-margin SVM with the hinge loss (C-SVM, L1 slacks), dual form.

    .. math::

        \max_{\alpha} \sum_i \alpha_i - \tfrac12 \sum_{i,j}\alpha_i\alpha_j y_i y_j K_{ij}
        \quad\text{s.t.}\quad \sum_i \alpha_i y_i = 0,\quad 0 \le \alpha_i \le C,

    the dual of :math:`\min \tfrac12\|w\|^2 + C\sum_i \xi_i` s.t. :math:`y_i(\langle w,
    \phi(x_i)\rangle + b) \ge 1 - \xi_i`, :math:`\xi_i \ge 0`. Source: Valle Vidal (2009),
    "Soft Margin norma 1"; Chevaleyre (2023), §3.1; Rousseau (2022), "Soft margin
    minimization problem". The intercept is averaged over the free SVs :math:`0 < \alpha_i < C`
    (midpoint of the feasible interval if there is none).

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    C : float > 0
    tol : float
        Stopping tolerance :math:`m(\alpha) - M(\alpha)` (units of :math:`y_i f(x_i)`).
    max_iter : int >= 1, optional
    shrinking : bool
    alpha0 : array_like, shape (n,), optional
        Feasible starting point of SMO: :math:`0 \le \alpha^{(0)}_i \le C` and
        :math:`y^\top\alpha^{(0)} = 0` (to round-off, :math:`10^{-9}\max(1,
        \sum_i\alpha^{(0)}_i)`). The solution at a smaller :math:`C` is one: a *warm start*
        along a grid of increasing :math:`C` (:func:`kernels_ref.model_selection.grid_search_C`
        with ``warm_start=True``). The answer is the same as from 0, up to ``tol``; default 0.

    Returns
    -------
    SVMResult

    Examples
    --------
    Two points 2 apart need :math:`\alpha_i = 1/2` for the hard margin; with :math:`C = 1/4`
    both are bounded, and :math:`b` is the midpoint of its feasible interval:

    >>> X = np.array([[0.0], [2.0]])
    >>> res = soft_margin_l1(X @ X.T, [-1.0, 1.0], C=0.25)
    >>> res.alpha, res.b
    (array([0.25, 0.25]), -0.5)

    Started from the solution at :math:`C = 1/4`, the solve at :math:`C = 1` ends at the
    hard-margin solution :math:`\alpha_i = 1/2`:

    >>> soft_margin_l1(X @ X.T, [-1.0, 1.0], C=1.0, alpha0=res.alpha).alpha
    array([0.5, 0.5])
    """
    res = _smo(K, y, -np.ones(len(y)), C, alpha0, tol=tol, max_iter=max_iter, shrinking=shrinking)
    Cv = np.full(len(y), C)
    return _result(res.alpha, y, Cv, -y * res.grad, -res.objective, **_run_fields(res))


@validated(**FIT, C=positive())
def soft_margin_l2(K, y, C, *, tol=TOL, max_iter=None):
    r"""Soft-margin SVM with squared slacks (L2), dual form: the hard margin on :math:`K + I/C`.

    .. math::

        \begin{aligned}
        &\max_{\alpha} \sum_i \alpha_i\\
        &\quad - \tfrac12 \sum_{i,j}\alpha_i\alpha_j y_i y_j
        \big(K_{ij} + \tfrac1C\delta_{ij}\big)\\
        &\text{s.t.}\ \sum_i \alpha_i y_i = 0,\quad \alpha_i \ge 0,
        \end{aligned}

    the dual of :math:`\min \tfrac12\|w\|^2 + \tfrac C2\sum_i \xi_i^2` s.t.
    :math:`y_i(\langle w, \phi(x_i)\rangle + b) \ge 1 - \xi_i`. Source: Valle Vidal (2009),
    "Soft Margin norma 2" and its "Proposición". :math:`K + I/C` is positive definite, so the
    problem is always bounded. The intercept makes :math:`y_i f(x_i) = 1 - \alpha_i/C` on the
    support vectors (Valle Vidal prints :math:`f(x_i) = 1 - \alpha_i/C`, without
    :math:`y_i`), averaged over them. ``svm_predict`` takes the plain ``K_test``.

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    C : float > 0
    tol : float
    max_iter : int >= 1, optional

    Returns
    -------
    SVMResult

    Examples
    --------
    >>> X = np.array([[0.0], [2.0]])
    >>> res = soft_margin_l2(X @ X.T, [-1.0, 1.0], C=2.0)  # alpha = 2 / (4 + 2 / C)
    >>> np.round(res.alpha, 6), round(res.b, 6)
    (array([0.4, 0.4]), -0.8)
    """
    n = len(y)
    res = _smo(_l2_gram(K, C), y, -np.ones(n), np.inf, tol=tol, max_iter=max_iter)
    return _result(
        res.alpha, y, np.full(n, np.inf), -y * res.grad, -res.objective, **_run_fields(res)
    )


@validated(
    **{**FIT, "max_iter": iterations(default=lambda args: _default_max_iter(len(args["K"]) + 2))},
    lam=positive(),
)
def lambda_svm(K, y, lam, *, tol=TOL, max_iter=None):
    r"""Vert's SVM without intercept: :math:`\min_f \frac1n\sum_i \mathrm{hinge}(y_if(x_i)) +
    \lambda\|f\|^2_{\mathcal H}`.

    Its dual (Vert, *Méthodes à noyaux* (2004), "Retour au primal"), in Vert's signed
    coefficients :math:`\alpha^V` with :math:`f = \sum_i\alpha^V_i K(x_i, \cdot)`:

    .. math::

        \max_{\alpha^V} \; 2\,{\alpha^V}^\top y - {\alpha^V}^\top K\alpha^V
        \quad\text{s.t.}\quad 0 \le y_i\alpha^V_i \le \frac{1}{2\lambda n}.

    With :math:`\alpha_i = y_i\alpha^V_i \ge 0` (the book's convention, stored in the result)
    this is :math:`2\,(\sum_i\alpha_i - \tfrac12\alpha^\top Q\alpha)`, twice the C-SVM dual
    *without* the constraint :math:`y^\top\alpha = 0` (no intercept) and with
    :math:`C_{\text{book}} = 1/(2\lambda n)` (:func:`c_book_from_lambda`): the same :math:`f` as
    :math:`\min \tfrac12\|f\|^2 + C_{\text{book}}\sum_i \mathrm{hinge}_i`, and as Vert's
    :math:`\min \|f\|^2 + C\sum_i\mathrm{hinge}_i` with :math:`C = 1/(n\lambda)`
    (:func:`c_from_lambda`). Vert's μ-dual has :math:`\mu_i = 2\lambda\alpha_i \in [0, 1/n]`.
    ``dual_objective`` is in Vert's scaling (:math:`2{\alpha^V}^\top y -
    {\alpha^V}^\top K\alpha^V`), equal at the optimum to the primal value divided by
    :math:`\lambda`; ``b = 0``.

    The box-constrained problem is solved exactly by :func:`kernels_ref.smo.smo` on
    :class:`~kernels_ref.smo.AugmentedGram`: two extra unbounded variables with labels
    :math:`\pm 1` and zero kernel rows absorb the equality constraint, so that every SMO step
    that involves one of them is a single-variable (coordinate) step. The KKT violation is
    :math:`\max(0, m) + \max(0, -M)` (see :func:`kkt_violation` with ``bias=False``).

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    lam : float > 0
    tol : float
    max_iter : int >= 1, optional

    Returns
    -------
    SVMResult

    Examples
    --------
    :math:`f(x) = wx` with :math:`\frac12(1 - w)_+ + 0.1 w^2` minimal at :math:`w = 1`, carried
    by the first point alone:

    >>> X = np.array([[-1.0], [2.0]])
    >>> res = lambda_svm(X @ X.T, [-1.0, 1.0], lam=0.1)
    >>> np.round(res.alpha, 6), res.b
    (array([1., 0.]), 0.0)
    """
    n = len(y)
    C = 1.0 / (2.0 * lam * n)
    y_aug = np.concatenate([y, [1.0, -1.0]])
    p_aug = np.concatenate([-np.ones(n), [0.0, 0.0]])
    C_aug = np.concatenate([np.full(n, C), [np.inf, np.inf]])
    res = _smo(AugmentedGram(K), y_aug, p_aug, C_aug, tol=tol, max_iter=max_iter)
    alpha = res.alpha[:n].copy()
    v = -y * res.grad[:n]
    return _result(alpha, y, np.full(n, C), v, -2.0 * res.objective, bias=False, **_run_fields(res))


def _nu_start(y, nu):
    """LIBSVM's feasible start of the nu-SVM's dual in the variables of SMO (alpha times n,
    bounds 1): each class filled up to nu n / 2, in the order of its points."""
    alpha0 = np.zeros(len(y))
    for cls in (y > 0, y < 0):
        left = nu * len(y) / 2
        for t in np.flatnonzero(cls):
            alpha0[t] = min(1.0, left)
            left -= alpha0[t]
    return alpha0


@validated(**FIT, nu=rule(_feasible_nu, "nu"))
def nu_svm(K, y, nu, *, tol=TOL, max_iter=None):
    r"""ν-SVM, dual form (Schölkopf et al. 2000), as in Valle Vidal.

    .. math::

        \max_{\alpha} -\tfrac12\sum_{i,j}\alpha_i\alpha_j y_i y_j K_{ij}
        \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\quad \sum_i\alpha_i \ge \nu,\quad
        0 \le \alpha_i \le \frac1n.

    Source: Valle Vidal (2009), end of "Soft Margin norma 1 (3)" (where it is read as a
    proportion of points "whose margin exceeds ν"; the right reading is the ν-property:
    ν bounds the fraction of margin errors from above and the fraction of support vectors from
    below). An optimal solution with :math:`\sum_i\alpha_i = \nu` always exists, so it is
    solved with the two equalities :math:`\sum_{y_i = \pm1}\alpha_i = \nu/2` by the
    two-constraint SMO, in LIBSVM's scaling (:math:`n\alpha \in [0, 1]`, Chang & Lin 2011,
    §4.2), which requires :math:`\nu \le 2\min(n_+, n_-)/n`. The primal is
    :math:`\min \tfrac12\|w\|^2 - \nu\rho + \frac1n\sum_i\xi_i` s.t.
    :math:`y_i(\langle w,\phi(x_i)\rangle + b) \ge \rho - \xi_i`; ``rho`` and ``b`` come from
    the free SVs of each class (:math:`y_if(x_i) = \rho`): with
    :math:`r_\pm = y_i f_0(x_i)` averaged over the free SVs of class :math:`\pm 1`,
    :math:`\rho = (r_+ + r_-)/2` and :math:`b = (r_- - r_+)/2`.

    Parameters
    ----------
    K : array_like, shape (n, n)
    y : array_like, shape (n,)
    nu : float in (0, 1]
        Must not exceed :math:`2\min(n_+, n_-)/n`.
    tol : float
        Tolerance of the scaled problem (units of :math:`y_if(x_i)/\rho`-like quantities
        times :math:`n`); the reported ``kkt_violation`` is in the unscaled units.
    max_iter : int >= 1, optional

    Returns
    -------
    SVMResult
        With ``rho`` set; ``dual_objective`` :math:`= -\tfrac12\alpha^\top Q\alpha`.

    Raises
    ------
    ValueError
        When ``nu`` is outside (0, 1] or infeasible for the class sizes.

    Examples
    --------
    The inner points 1 and 3 carry :math:`\nu/2 = 0.2` each: :math:`w = 0.4`,
    :math:`f(x) = 0.4x - 0.8`, :math:`y_if(x_i) = \rho = 0.4` on both.

    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> res = nu_svm(X @ X.T, [-1.0, -1.0, 1.0, 1.0], nu=0.4)
    >>> np.round(res.alpha, 6), round(res.rho, 6), round(res.b, 6)
    (array([0. , 0.2, 0.2, 0. ]), 0.4, -0.8)
    """
    n, pos = len(y), y > 0
    res = _smo(
        K, y, np.zeros(n), 1.0, _nu_start(y, nu), tol=tol, max_iter=max_iter, two_constraints=True
    )
    alpha = res.alpha / n
    G = res.grad / n  # G_t = y_t f_0(x_t)
    atol = _bound_tol(alpha)
    r = []
    for cls in (pos, ~pos):
        free = cls & (alpha > atol) & (alpha < 1.0 / n - atol)
        if np.any(free):
            r.append(float(np.mean(G[free])))
        else:  # midpoint of [max G over alpha = 1/n, min G over alpha = 0] (LIBSVM)
            lo = float(np.max(G, where=cls & (alpha >= 1.0 / n - atol), initial=-np.inf))
            hi = float(np.min(G, where=cls & (alpha <= atol), initial=np.inf))
            r.append(_midpoint(lo, hi))
    r_pos, r_neg = r
    rho = 0.5 * (r_pos + r_neg)
    b = 0.5 * (r_neg - r_pos)
    v = -y * G
    viol = _violation(alpha, v, y, np.full(n, 1.0 / n), atol, nu=nu)
    return SVMResult(
        alpha=alpha,
        b=b,
        support=np.flatnonzero(alpha > 0),
        dual_objective=-res.objective / n**2,
        kkt_violation=viol,
        y=y,
        rho=rho,
        **_run_fields(res),
    )
