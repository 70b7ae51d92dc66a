r"""Sequential minimal optimisation (chapter 7, "Solving the dual: SMO").

One solver for every SVM dual of the course, written in the general form of LIBSVM
(Chang & Lin 2011, §2–4):

.. math::

    \min_{\alpha} \; \tfrac12 \alpha^\top Q \alpha + p^\top \alpha
    \quad \text{s.t.} \quad y^\top \alpha = \Delta, \quad 0 \le \alpha_i \le C_i,
    \qquad Q_{ij} = y_i y_j \tilde K_{ij},

with labels :math:`y_i = \pm 1` and bounds :math:`C_i \in (0, +\infty]`. The constant
:math:`\Delta = y^\top \alpha^{(0)}` is fixed by the feasible starting point. The hard margin
(:math:`p = -1`, :math:`C_i = \infty`), the soft margins L1 (:math:`C_i = C`) and L2
(:math:`\tilde K = K + I/C`, :math:`C_i = \infty`), the bias-free problem of Vert (two extra
variables, :class:`AugmentedGram`), :math:`\varepsilon`-SVR (:math:`2n` variables,
:class:`TiledGram`) and, with the second constraint :math:`\sum_i \alpha_i` fixed within each
class, the :math:`\nu`-SVM are instances of :func:`smo`.

Notation. The gradient is :math:`G = Q\alpha + p` and the solver works with
:math:`v = -y \circ G`, which for the classification duals is :math:`v_t = y_t - f_0(x_t)`
with :math:`f_0(x) = \sum_j \alpha_j y_j \tilde K(x_j, x)` (the decision function without its
intercept). A pair :math:`(i, j)` can move along :math:`\alpha_i \mathrel{+}= y_i \delta`,
:math:`\alpha_j \mathrel{-}= y_j \delta` (which keeps :math:`y^\top\alpha`) when
:math:`i \in I_{up}(\alpha)` and :math:`j \in I_{low}(\alpha)`:

.. math::

    \begin{aligned}
    I_{up} &= \{t : \alpha_t < C_t, y_t = 1\} \cup \{t : \alpha_t > 0, y_t = -1\},\\
    I_{low} &= \{t : \alpha_t < C_t, y_t = -1\} \cup \{t : \alpha_t > 0, y_t = 1\}.
    \end{aligned}

:math:`\alpha` is optimal if and only if :math:`m(\alpha) \le M(\alpha)` with
:math:`m = \max_{I_{up}} v_t` and :math:`M = \min_{I_{low}} v_t` (Keerthi et al. 2001;
Chang & Lin 2011, eq. (4.6)); the solver stops when :math:`m(\alpha) - M(\alpha) \le
\varepsilon`.

Where each step lives. This module holds what chapter 7 states: the problem, its working sets
and optimality gap, :func:`smo_textbook` (the algorithm as written in the chapter), :func:`smo`
and the run that alternates SMO and the finish (:func:`_smo`). The engineered solver sits in
rooms named after their counterparts in LIBSVM: :mod:`kernels_ref._solver` is ``Solver``, the
loop of named steps (the active set, select a pair, update it, shrink); :mod:`kernels_ref._qmatrix`
is ``QMatrix``, the Gram operators and the products by rows of K; :mod:`kernels_ref._finish` is
the second-order finish, which LIBSVM does not have: when SMO crawls, solve the KKT system on
SMO's face, and accept its point only if :math:`m - M \le \varepsilon` on all variables.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ._finish import _Finisher
from ._qmatrix import AugmentedGram, TiledGram, _scores
from ._results import ShortRepr
from ._settings import CostModel, Settings
from ._solver import (  # noqa: F401  (TAU: LIBSVM's curvature safeguard, read by chapter 7)
    INF,
    TAU,
    _ActiveSet,
    _iterate,
    _optimality_gap,
    _tau,
    _unbounded,
    _working_sets,
)
from ._validation import (
    boolean,
    box,
    box_start,
    gram,
    iterations,
    labels,
    positive,
    rule,
    validated,
    vector,
)
from .exceptions import ConvergenceWarning

__all__ = [
    "AugmentedGram",
    "CostModel",
    "SMOResult",
    "Settings",
    "TiledGram",
    "optimality_gap",
    "smo",
    "smo_textbook",
    "working_sets",
]


def _default_max_iter(n_variables):
    r"""The default iteration limit of SMO for :math:`N` variables: :math:`\max(10^7, 100N)`.

    LIBSVM's default (``Solver::Solve`` in ``svm.cpp``), so that a problem stops at its
    default limit only where LIBSVM stops too: the SMO iterations of a C-SVM grow with
    :math:`n` and with :math:`C` (noisy data at :math:`C = 1000` take millions), and a limit
    of :math:`\max(10^6, 100N)` stopped an SVR on 5,000 points at :math:`C = 100` where
    LIBSVM needs 1.5 million. An SVR of :math:`n` points has :math:`N = 2n` variables.

    >>> _default_max_iter(1000), _default_max_iter(200_000)
    (10000000, 20000000)
    """
    return max(10**7, 100 * int(n_variables))


@dataclass(frozen=True, repr=False)
class SMOResult(ShortRepr):
    """Solution of the general dual returned by :func:`smo`.

    Attributes
    ----------
    alpha : ndarray, shape (N,)
        The solution, feasible: :math:`0 \\le \\alpha_i \\le C_i`, :math:`y^\\top\\alpha =
        y^\\top\\alpha^{(0)}` (up to round-off).
    grad : ndarray, shape (N,)
        Its gradient :math:`G = Q\\alpha + p`, recomputed from scratch at the end.
    objective : float
        :math:`\\tfrac12 \\alpha^\\top Q \\alpha + p^\\top \\alpha` (minimisation form).
    violation : float
        The final :math:`m(\\alpha) - M(\\alpha)` (the largest over the two classes for the
        two-constraint variant), computed from ``grad``.
    n_iter : int
        Number of SMO iterations (pair updates).
    converged : bool
        ``violation <= tol``.
    finish_attempts : int
        Attempts of the second-order finish (0 for :func:`smo_textbook` and with
        ``finish=False``).
    finish_solves : int
        Solves of a face's KKT system made by those attempts.
    ended_by : str
        What ended the run: ``"smo"`` (SMO's stopping rule), ``"finish"`` (a point of the
        finish certified with :math:`m - M \\le` ``tol``), ``"round-off"`` (at the round-off
        level of :math:`v`, above ``tol``, with a warning) or ``"max_iter"``.
    """

    alpha: np.ndarray
    grad: np.ndarray
    objective: float
    violation: float
    n_iter: int
    converged: bool
    finish_attempts: int = 0
    finish_solves: int = 0
    ended_by: str = "smo"


def _in_box(value, name, args):
    """The rule of a point of the box: ``0 <= alpha <= C`` (``C`` checked before)."""
    alpha = vector(rows="y")(value, name, args)
    if np.any(alpha < 0) or np.any(alpha > args["C"]):
        raise ValueError(f"{name} must satisfy 0 <= {name} <= C")
    return alpha


@validated(
    y=labels(both_classes=False),
    C=box(rows="y"),
    alpha=rule(_in_box, "vector", samples=(0,), refs=("y", "C")),
)
def working_sets(alpha, y, C):
    r"""The index sets :math:`I_{up}(\alpha)` and :math:`I_{low}(\alpha)` as boolean masks.

    .. math::

        \begin{aligned}
        I_{up} &= \{t : \alpha_t < C_t, y_t = 1\} \cup \{t : \alpha_t > 0, y_t = -1\},\\
        I_{low} &= \{t : \alpha_t < C_t, y_t = -1\} \cup \{t : \alpha_t > 0, y_t = 1\}
        \end{aligned}

    Source: Keerthi, Shevade, Bhattacharyya & Murthy (2001); Fan, Chen & Lin (2005), eq. (9).
    :math:`I_{up}` holds the variables that may move in the direction :math:`y_t`,
    :math:`I_{low}` those that may move in the direction :math:`-y_t`.

    Examples
    --------
    >>> up, low = working_sets(np.array([0.0, 1.0, 0.0]), np.array([1.0, 1.0, -1.0]), 1.0)
    >>> up.tolist(), low.tolist()
    ([True, False, False], [False, True, True])
    """
    return _working_sets(alpha, y, C)


def _mask(value, name, args):
    """The rule of an index set: a boolean array of the shape of ``v``."""
    mask, n = np.asarray(value), len(args["v"])
    if mask.dtype != bool or mask.shape != (n,):
        raise ValueError(
            f"{name} must be a boolean array of shape ({n},) like v, got dtype {mask.dtype} "
            f"and shape {mask.shape}"
        )
    return mask


@validated(v=vector(), up=rule(_mask, "mask"), low=rule(_mask, "mask"))
def optimality_gap(v, up, low):
    r"""The violation :math:`m(\alpha) - M(\alpha) = \max_{I_{up}} v_t - \min_{I_{low}} v_t`.

    Source: Fan, Chen & Lin (2005), stopping condition (11). Negative values mean that the
    KKT conditions hold strictly; an empty set counts as :math:`-\infty` / :math:`+\infty`.

    Parameters
    ----------
    v : ndarray, shape (N,)
        :math:`v = -y \circ \nabla f(\alpha)`.
    up, low : ndarray of bool, shape (N,)
        :math:`I_{up}` and :math:`I_{low}` (see :func:`working_sets`).

    Examples
    --------
    >>> up, low = np.array([True, True, False]), np.array([False, True, True])
    >>> optimality_gap(np.array([1.0, 0.5, 0.2]), up, low)
    0.8
    """
    return _optimality_gap(v, up, low)


def _gram_or_operator(value, name, args):
    """The rule of ``K``: a Gram matrix, or an operator with ``submatrix`` (trusted)."""
    if not isinstance(value, np.ndarray) and hasattr(value, "submatrix"):
        return value
    return gram()(value, name, args)


#: The rules of the problem of :func:`smo` and :func:`smo_textbook`.
PROBLEM = {
    "K": rule(_gram_or_operator, "gram", samples=(0, 1)),
    "y": labels(rows=("K", 0), both_classes=False),
    "p": vector(rows="y"),
    "C": box(rows="y"),
    "alpha0": box_start(rows="y"),
    "tol": positive(),
    "max_iter": iterations(default=lambda args: _default_max_iter(len(args["y"]))),
}


def _settings(value, name, args):
    """The rule of ``settings``: a :class:`Settings` (or None, for the defaults)."""
    if isinstance(value, Settings):
        return value
    raise TypeError(
        f"{name} must be a kernels_ref.smo.Settings, got {type(value).__name__}: build one "
        "with the fields to change, e.g. Settings(chunk_min=10)"
    )


@validated(
    **PROBLEM,
    two_constraints=boolean(),
    shrinking=boolean(),
    finish=boolean(),
    settings=rule(_settings, "settings", optional=True),
)
def smo(
    K,
    y,
    p,
    C,
    alpha0=None,
    *,
    tol=1e-6,
    max_iter=None,
    two_constraints=False,
    shrinking=True,
    finish=True,
    settings=None,
):
    r"""Minimise :math:`\tfrac12\alpha^\top Q\alpha + p^\top\alpha` subject to
    :math:`y^\top\alpha = \Delta`, :math:`0 \le \alpha \le C` by SMO with second-order
    working-set selection.

    Each iteration picks (Fan, Chen & Lin 2005, WSS 2)

    .. math::

        i = \arg\max_{t \in I_{up}} v_t, \qquad
        j = \arg\max_{t \in I_{low},\, v_t < v_i} \frac{b_{it}^2}{a_{it}}, \qquad
        b_{it} = v_i - v_t > 0, \quad a_{it} = \tilde K_{ii} + \tilde K_{tt} - 2\tilde K_{it}

    (:math:`a_{it} \le 0` is replaced by :math:`\tau = 10^{-12}\max(1, \max_t \tilde K_{tt})`),
    then moves
    :math:`\alpha_i \mathrel{+}= y_i\delta`, :math:`\alpha_j \mathrel{-}= y_j\delta` by the
    exact minimiser along that line, clipped to the box:

    .. math::

        \delta = \min\Big(\frac{b_{ij}}{a_{ij}},\; \bar C_i,\; \bar C_j\Big), \qquad
        v \leftarrow v - \delta\,(\tilde K_{i\cdot} - \tilde K_{j\cdot}),

    where :math:`\bar C_i` (:math:`\bar C_j`) is the room left to :math:`\alpha_i`
    (:math:`\alpha_j`) in its direction of motion. It stops when
    :math:`m(\alpha) - M(\alpha) \le` ``tol``. The two-constraint variant (LIBSVM's
    ``Solver_NU``, Chang & Lin 2011, §4.1.2) also keeps :math:`\sum_{y_t = 1}\alpha_t` and
    :math:`\sum_{y_t = -1}\alpha_t` fixed: :math:`i` and :math:`j` are taken in the same class,
    and the stopping rule must hold in each class. Platt (1998) introduced the pair updates;
    the selection and stopping rules are those of LIBSVM.

    Parameters
    ----------
    K : ndarray, shape (N, N), or a matrix-like object
        :math:`\tilde K`, symmetric, with :math:`Q_{ij} = y_i y_j \tilde K_{ij}`. Instead of
        an array: an object with ``shape``, ``diagonal()``, rows ``K[t]``, products ``K @ w``
        and ``submatrix(index)`` (:class:`TiledGram`, :class:`AugmentedGram`).
    y : ndarray, shape (N,)
        Labels :math:`\pm 1`.
    p : ndarray, shape (N,)
        Linear term (:math:`p = -1` for the classification duals).
    C : float or ndarray, shape (N,)
        Upper bounds, :math:`+\infty` allowed.
    alpha0 : ndarray, shape (N,), optional
        Feasible starting point (default 0); it fixes :math:`\Delta = y^\top\alpha^{(0)}`
        (and the two class sums in the two-constraint variant).
    tol : float
        :math:`\varepsilon` of the stopping rule :math:`m - M \le \varepsilon`.
    max_iter : int, optional
        Iteration limit (default :math:`\max(10^7, 100N)`, LIBSVM's); reaching it issues a
        :class:`~kernels_ref.exceptions.ConvergenceWarning`.
    two_constraints : bool
        Use the :math:`\nu`-SVM variant.
    shrinking : bool
        Use shrinking (same answer up to ``tol``, fewer operations per iteration).
    finish : bool
        When SMO crawls, let the second-order finish end the run (:class:`_Finisher`: the
        KKT system of SMO's face, by primal-dual guesses and a primal active-set method,
        accepted only when :math:`m - M \le` ``tol`` on all variables). ``False`` runs SMO
        alone, the path of :func:`smo_textbook`.
    settings : Settings, optional
        The tuning of shrinking and of the finish (default ``Settings()``): a different value
        changes the path and the time, not the certificate :math:`m - M \le` ``tol``.

    Returns
    -------
    SMOResult

    Raises
    ------
    ValueError
        For bad input (naming the argument), and, naming ``K``, when the iterates prove the
        objective unbounded below (possible only with infinite bounds): a pair with negative
        curvature and no bound in the way, an iterate started at 0 with
        :math:`\alpha^\top Q\alpha < 0`, or an overflow.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` is reached before :math:`m - M \le` ``tol``.

    Notes
    -----
    A flat direction (:math:`a_{ij} = 0`, e.g. two copies of a point with opposite labels in a
    hard margin) is unbounded too, but gives no such proof in floating point: the iterates grow
    by :math:`b_{ij}/\tau` per step until ``max_iter``. :func:`kernels_ref.svm.hard_margin`
    detects it by its margin bound and raises :class:`~kernels_ref.exceptions.NotSeparableError`.

    Examples
    --------
    Two points, one per class: :math:`\alpha_1 = \alpha_2 = 2/\|x_1 - x_2\|^2`.

    >>> X = np.array([[0.0, 0.0], [2.0, 0.0]])
    >>> res = smo(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), np.inf, tol=1e-12)
    >>> res.alpha, res.n_iter, res.converged
    (array([0.5, 0.5]), 1, True)
    """
    return _smo(
        K, y, p, C, alpha0, tol=tol, max_iter=max_iter,
        two_constraints=bool(two_constraints), shrinking=bool(shrinking), finish=bool(finish),
        settings=settings,
    )  # fmt: skip


@validated(**PROBLEM, record=boolean())
def smo_textbook(K, y, p, C, alpha0=None, *, tol=1e-6, max_iter=None, record=False):
    r"""SMO as chapter 7 states it: the algorithm of :func:`smo`, written to be read.

    Minimise :math:`F(\alpha) = \tfrac12\alpha^\top Q\alpha + p^\top\alpha` subject to
    :math:`y^\top\alpha = \Delta`, :math:`0 \le \alpha \le C`, where
    :math:`Q_{ij} = y_iy_j\tilde K_{ij}`; write :math:`v = -y \circ (Q\alpha + p)`.
    While :math:`m(\alpha) - M(\alpha) > \varepsilon`, take the pair of Fan, Chen & Lin
    (2005), WSS 2, and make the analytic step along it, clipped to the box:

    .. math::

        i = \arg\max_{t \in I_{up}} v_t, \qquad
        j = \arg\max_{t \in I_{low},\, b_{it} > 0} \frac{b_{it}^2}{\bar a_{it}}, \qquad
        b_{it} = v_i - v_t, \qquad
        a_{it} = \tilde K_{ii} + \tilde K_{tt} - 2\tilde K_{it},

        \delta = \min\Big(\frac{b_{ij}}{\bar a_{ij}},\ \bar C_i,\ \bar C_j\Big), \quad
        \alpha_i \mathrel{+}= y_i\delta, \quad \alpha_j \mathrel{-}= y_j\delta, \quad
        v \leftarrow v - \delta(\tilde K_{i\cdot} - \tilde K_{j\cdot}),

    with :math:`\bar a_{it} = a_{it}` if :math:`a_{it} > 0`, else :math:`\tau` (LIBSVM's rule
    for a non-positive curvature, :math:`\tau = 10^{-12}` scaled by the largest diagonal entry
    when it exceeds 1: :func:`_tau`), and :math:`\bar C_i`,
    :math:`\bar C_j` the room left to :math:`\alpha_i`, :math:`\alpha_j` in their
    direction of motion (a variable clipped to a bound is set to it exactly).

    Source: the algorithm "SMO with second-order working-set selection" of chapter 7;
    Platt (1998); Fan, Chen & Lin (2005), WSS 2; Chang & Lin (2011), §4. No shrinking,
    no tiling, no caching, no two-constraint variant: :func:`smo` is the same algorithm,
    engineered. Given the same pair, both make the same floating-point operations on
    ``alpha`` and ``v``, so they follow the same path, unless two scores
    :math:`b_{it}^2 / \bar a_{it}` tie to round-off (:func:`smo` computes
    :math:`2b_{it}^2 / (a_{it} + \tau)`).

    Parameters
    ----------
    K : ndarray, shape (N, N)
        :math:`\tilde K`, symmetric (checked as by :func:`smo`).
    y, p, C, alpha0, tol, max_iter
        As for :func:`smo`.
    record : bool
        Record the working sets: also return the pairs :math:`(i, j)` of the iterations,
        in order (:math:`\alpha_i` moved by :math:`y_i\delta`, :math:`\alpha_j` by
        :math:`-y_j\delta`).

    Returns
    -------
    SMOResult
        As from :func:`smo`; ``grad``, ``objective`` and ``violation`` are computed
        afresh at the end. (A stopping test passed on the updated :math:`v` is confirmed
        on :math:`v` computed afresh, as in :func:`smo`.)
    pairs : list of (int, int)
        Only with ``record=True``.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` is reached before :math:`m - M \le` ``tol``.

    Raises
    ------
    ValueError
        On bad input (as :func:`smo`), and when a pair has :math:`a_{ij} \le 0` and no
        bound in its way (infinite :math:`C`): :math:`F` is unbounded below along it.

    Examples
    --------
    Two points, one per class: :math:`\alpha_1 = \alpha_2 = 2/\|x_1 - x_2\|^2`.

    >>> X = np.array([[0.0, 0.0], [2.0, 0.0]])
    >>> y, p = np.array([1.0, -1.0]), -np.ones(2)
    >>> res, pairs = smo_textbook(X @ X.T, y, p, np.inf, tol=1e-12, record=True)
    >>> res.alpha, res.n_iter, res.converged, pairs
    (array([0.5, 0.5]), 1, True, [(0, 1)])
    """
    alpha = np.zeros(len(y)) if alpha0 is None else alpha0.copy()
    diag, pairs = K.diagonal(), []
    tau = _tau(diag)
    v = _scores(K, y, p, alpha)  # v = -y * (Q alpha + p)
    for n_iter in range(max_iter + 1):
        up, low = _working_sets(alpha, y, C)  # I_up, I_low
        if _optimality_gap(v, up, low) <= tol:  # m - M <= tol on the updated v,
            v = _scores(K, y, p, alpha)  # confirmed on v computed afresh
            if _optimality_gap(v, up, low) <= tol:
                break
        if n_iter == max_iter:
            break
        i = int(np.argmax(np.where(up, v, -np.inf)))  # v_i = m(alpha)
        b = v[i] - v  # b_it
        a = diag[i] + diag - 2.0 * K[i]  # a_it
        a_bar = np.where(a > 0.0, a, tau)
        j = int(np.argmax(np.where(low & (b > 0.0), b**2 / a_bar, -np.inf)))
        ij = [i, j]
        s = np.array([y[i], -y[j]])  # alpha_i moves by y_i delta, alpha_j by -y_j delta
        end = np.where(s > 0.0, C[ij], 0.0)  # the bound each one moves towards
        C_bar = s * (end - alpha[ij])  # the room left: C-bar_i, C-bar_j
        if a[j] <= 0.0 and np.all(C_bar == INF):
            raise _unbounded(f"curvature a_ij = {a[j]:.3g} <= 0 along a pair")
        delta = min(b[j] / a_bar[j], *C_bar)
        alpha[ij] = np.where(C_bar == delta, end, alpha[ij] + s * delta)
        v -= delta * (K[i] - K[j])
        pairs.append((i, j))
    v = _scores(K, y, p, alpha)
    violation = _optimality_gap(v, *_working_sets(alpha, y, C))
    _warn_if_not_converged(violation, tol, max_iter)
    grad = -y * v
    objective = 0.5 * float(alpha @ (grad + p))
    res = SMOResult(alpha, grad, objective, violation, n_iter, violation <= tol)
    return (res, pairs) if record else res


def _smo(
    K, y, p, C, alpha0=None, *, tol, max_iter=None, two_constraints=False, shrinking=True,
    finish=True, settings=None,
):  # fmt: skip
    """:func:`smo` without validation: for the learners, which validated their own input.

    SMO runs in chunks; after each chunk the second-order finish (:class:`_Finisher`) tries to
    end the run. Every round of the loop either counts iterations or ends it, so it ends
    within ``max_iter`` iterations; a non-finite state raises (see :func:`_iterate`).
    """
    n = len(y)
    C = np.broadcast_to(np.asarray(C, dtype=float), (n,)).copy()
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    max_iter = _default_max_iter(n) if max_iter is None else max_iter
    act = _ActiveSet(K, y, p, C, alpha, two=two_constraints, tol=tol)
    settings = Settings() if settings is None else settings
    finisher = _Finisher(act, tol, settings) if finish else None
    n_iter, stalled = 0, None  # stalled: the round-off level of v, where the run stopped
    while True:
        before = n_iter
        chunk = finisher.chunk() if finisher and finisher.enabled else max_iter
        n_iter = _iterate(act, tol, n_iter, min(max_iter, n_iter + chunk), two_constraints,
                          shrinking)  # fmt: skip
        if finisher:
            finisher.count(n_iter - before)
        if n_iter == before + chunk < max_iter:  # the chunk ran out: time for the finish?
            if finisher.affordable():  # only then all variables back (it unshrinks)
                act.restore()
                act.check_bounded()
                made = finisher.attempts
                violation = finisher.attempt()
                if violation > tol and finisher.stalled:
                    ended_by = "round-off"
                    break
                if violation <= tol:  # by the attempt, or by SMO's last step before it
                    ended_by = "finish" if finisher.attempts > made else "smo"
                    break
            continue
        if not act.fresh:
            act.restore()  # all variables, fresh gradient: no accumulated round-off
        act.check_bounded()
        violation = act.gap(two_constraints)
        if np.isnan(violation) or violation == np.inf:  # -inf: no pair can move, optimal
            raise _unbounded(f"m - M = {violation}")
        if violation <= tol or n_iter >= max_iter or n_iter == before:
            ended_by = "max_iter" if violation > tol and n_iter >= max_iter else "smo"
            break
        # SMO met tol on its own v, updated step by step, and v afresh says otherwise: at the
        # round-off level of v that can go on one iteration at a time (a rank-2 linear kernel
        # at C = 1e6 alternated for 10^7 iterations), so the run stops there
        level = act.roundoff()
        if violation <= settings.stall_levels * level:
            stalled, ended_by = level, "round-off"
            break
    if stalled is None and finisher and finisher.stalled:
        stalled = finisher.roundoff
    if stalled is not None and violation > tol:
        _warn_roundoff(violation, tol, stalled)
    else:
        _warn_if_not_converged(violation, tol, max_iter)
    attempts, solves = (finisher.attempts, finisher.solves) if finisher else (0, 0)
    return SMOResult(
        alpha, -y * act.v, act.objective(), violation, n_iter, violation <= tol,
        attempts, solves, ended_by,
    )  # fmt: skip


def _run_fields(res, n_iter=None):
    """The fields of a learner's result that say how SMO's run ``res`` went (``n_iter``: the
    iterations of several runs, when the learner made them)."""
    return {
        "n_iter": res.n_iter if n_iter is None else n_iter,
        "converged": res.converged,
        "finish_attempts": res.finish_attempts,
        "finish_solves": res.finish_solves,
        "ended_by": res.ended_by,
    }


def _warn_roundoff(violation, tol, roundoff):
    """The warning of a run that ended at the round-off level of v, above tol (at a face of the
    finish, or where SMO met tol on its own v and v afresh is within ``stall_levels`` of it)."""
    warnings.warn(
        f"SMO stopped at m - M = {violation:.3g} > tol = {tol:.3g}: the scores v = -y * (Q alpha"
        f" + p) are computed only to about {roundoff:.2g} in double precision for this Gram "
        "matrix and alpha (the terms of K (y * alpha) are that large, relative to the unit "
        "round-off), and the point is optimal to that level. Pass a tol above it for a run "
        "that ends with converged=True. (Dividing K by s and multiplying C by s solves the "
        "same problem with alpha times s: v and its round-off stay the same.)",
        ConvergenceWarning,
        stacklevel=3,
    )


def _warn_if_not_converged(violation, tol, max_iter):
    """The warning of an SMO run that stopped at ``max_iter`` with m - M > ``tol``.

    ``stacklevel=3`` points at the caller of the function that calls this one: the caller of
    :func:`smo_textbook`; for :func:`_smo`, :func:`smo` or the learner that called it.
    """
    if violation > tol:
        warnings.warn(
            f"SMO stopped at its iteration limit max_iter={max_iter} with m - M = "
            f"{violation:.3g} > tol = {tol:.3g}",
            ConvergenceWarning,
            stacklevel=3,
        )
