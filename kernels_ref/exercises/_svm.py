r"""Exercises of chapters 4 to 7: the duals of the SVM and the ν-SVM, SMO's step, the intercept.

The duals are judged by certificate (their solution need not be unique); SMO's step, unique
because :math:`\eta = K_{ii} + K_{jj} - 2K_{ij} > 0` on distinct points with the linear
kernel, against the reference; the intercept, unique only when a support vector is free, by
the interval of :math:`b` that the KKT conditions allow.
"""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from ..report import _tolerance
from ..smo import smo_textbook
from ..svm import (
    _bound_tol,
    _kkt_interval,
    hard_margin,
    intercept_free_sv,
    nu_svm,
    soft_margin_l1,
)
from ._core import Exercise, Failure, _text
from ._judging import (
    array_output,
    close,
    dual_certificate,
    dual_objective,
    either,
    labelled,
    linear_problem,
    number_output,
    optimal,
    size,
)

#: Tolerance of the dual certificates, relative to the largest alpha_i (or 1): feasibility and
#: the objective to 1e-4, the KKT conditions to its square root 1e-2. cvxpy's default solver for
#: these quadratic programmes, OSQP, meets feasibility and the objective to about 1e-5 (an
#: interior-point solver, Clarabel, to 1e-8); the mistakes miss them by far more.
DUAL_TOL = 1e-4

#: The penalties C of the problems (the first, the simplest, is where shrinking goes).
PENALTIES = (1.0, 0.5, 2.0)

#: How the duals' variables and constraint read in their messages.
WORDS = {"alpha": "alpha", "sum": "sum_i y_i alpha_i"}

#: The same for the ν-SVM, whose upper bound is 1/n.
NU_WORDS = {**WORDS, "C": "1/n"}


def _dual_judge(problem, alpha, expected, C, symptoms, nu=None):
    r"""The certificate of ``alpha`` for :math:`\max \sum_i\alpha_i - \frac12\alpha^\top Q
    \alpha`, :math:`y^\top\alpha = 0`, :math:`0 \le \alpha \le C` (with ``nu``, the ν-SVM's
    :math:`\max -\frac12\alpha^\top Q\alpha` with also :math:`\sum_i\alpha_i \ge \nu`),
    whose optimum is the reference's ``expected`` (:func:`dual_certificate`). When it fails and
    some of ``symptoms``, pairs ``(message, holds(alpha))``, hold, the message names those
    mistakes (:func:`either`) first and the certificate's finding after them. The report shows
    the reference's alpha: one optimal alpha, among possibly many."""
    K, y = problem.args["K"], problem.args["y"]
    p = -np.ones(len(y)) if nu is None else np.zeros(len(y))
    best = dual_objective(expected, np.outer(y, y) * K, p)
    words = WORDS if nu is None else NU_WORDS
    failure = dual_certificate(alpha, K, y, C, p, best, tol=DUAL_TOL, words=words, nu=nu)
    if failure is None:
        return None
    found = either(symptoms, alpha)
    message = f"{found[0][0]} ({failure.message})" if found else failure.message
    return Failure(
        failure.condition, message, f"{_text(expected)} (one optimal alpha)", failure.got
    )


def _dual_tolerance(box):
    return (
        f"by certificate, the answer need not be unique: {box} and sum_i y_i alpha_i = 0 to "
        f"{_tolerance(DUAL_TOL)} times max(1, max_i alpha_i), the dual objective within "
        f"{_tolerance(DUAL_TOL)} times max(1, |maximum|) of its maximum, the KKT conditions "
        f"(kkt_violation) within "
        f"{_tolerance(np.sqrt(DUAL_TOL))}"
    )


#: The mistake of a dual whose matrix is K rather than Q = yy^T o K.
WITHOUT_LABELS = "alpha solves the dual without the labels: Q_ij = y_i y_j K_ij, not K_ij"


def _without_labels(K, y, C, p):
    """Symptom: ``alpha`` solves the dual with Q = K. (``optimal`` judges the dual whose Q is
    yy^T o M for the matrix M it is given: for M = yy^T o K, that Q is K.)"""
    return WITHOUT_LABELS, lambda a: optimal(a, np.outer(y, y) * K, y, C, p, tol=DUAL_TOL)


def _stationary(K, y, bounds):
    r"""Symptom: :math:`(\alpha, b)` solves the stationarity equations with the equality
    alone, :math:`Q\alpha + by = \mathbf 1`, :math:`y^\top\alpha = 0` (the KKT system of the
    dual without its ``bounds``), exactly or, where it has no solution, by least squares: the
    normal equations :math:`A^\top(Az - r) = 0` hold for the best :math:`b`."""
    n = len(y)
    A = np.block([[np.outer(y, y) * K, y[:, None]], [y[None, :], np.zeros((1, 1))]])
    r = np.r_[np.ones(n), 0.0]

    def holds(alpha):
        g, h = A.T @ (A[:, :n] @ alpha - r), A.T @ A[:, n]  # A^T (A z - r) = g + b h
        b = -float(h @ g) / float(h @ h)
        return np.max(np.abs(g + b * h)) <= DUAL_TOL * size(A.T @ A) * size(alpha)

    return (
        f"alpha solves the equations Q alpha + b y = 1, sum_i y_i alpha_i = 0 (the stationarity "
        f"of the Lagrangian, by least squares where they have no solution) without {bounds}",
        holds,
    )


# --- the hard-margin dual -----------------------------------------------------------------------


def hard_margin_dual(K, y):
    r"""The hard-margin dual's :math:`\alpha` (:func:`kernels_ref.svm.hard_margin`, SMO)."""
    return hard_margin(K, y, tol=1e-10).alpha


@st.composite
def _separable(draw):
    X, y = draw(labelled(2, 7, separable=True))
    return linear_problem({"K": X @ X.T, "y": y}, {"X": X, "y": y})


def _hard_margin_judge(problem, alpha, expected):
    K, y = problem.args["K"], problem.args["y"]
    p = -np.ones(len(y))
    symptoms = (
        _stationary(K, y, "alpha >= 0"),
        _without_labels(K, y, np.inf, p),
        (
            "2 alpha is optimal: the 1/2 of the dual objective is missing",
            lambda a: optimal(2 * a, K, y, np.inf, p, tol=DUAL_TOL),
        ),
    )
    return _dual_judge(problem, alpha, expected, np.inf, symptoms)


HARD_MARGIN_DUAL = Exercise(
    name="hard_margin_dual",
    signature="hard_margin_dual(K, y) -> alpha",
    statement=(
        "K of shape (n, n), labels y in {-1, +1} of separable data: alpha of shape (n,) that "
        "maximises sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij subject to "
        "alpha_i >= 0 and sum_i y_i alpha_i = 0. Any solver (cvxpy, SMO, your own)."
    ),
    tolerance=_dual_tolerance("alpha >= 0"),
    chapter="ch04_maximal_margin",
    reference=hard_margin_dual,
    problems=_separable,
    output=array_output(lambda pb: (pb.size,), "alpha"),
    judge=_hard_margin_judge,
)

# --- the L1 soft-margin dual --------------------------------------------------------------------


def soft_margin_l1_dual(K, y, C):
    r"""The L1 soft margin's dual :math:`\alpha` (:func:`kernels_ref.svm.soft_margin_l1`, SMO)."""
    return soft_margin_l1(K, y, C, tol=1e-10).alpha


@st.composite
def _soft_margin_problems(draw):
    X, y = draw(labelled(2, 7))
    C = draw(st.sampled_from(PENALTIES))
    return linear_problem({"K": X @ X.T, "y": y, "C": C}, {"X": X, "y": y, "C": C})


def _soft_margin_judge(problem, alpha, expected):
    K, y, C = problem.args.values()
    p = -np.ones(len(y))
    symptoms = (
        (
            "alpha solves the L2 soft margin's dual (the matrix K + I/C, no upper bound), not "
            "the L1 dual (the matrix K, 0 <= alpha_i <= C)",
            lambda a: optimal(a, K + np.eye(len(y)) / C, y, np.inf, p, tol=DUAL_TOL),
        ),
        (
            "alpha solves the hard margin's dual, with alpha >= 0 only",
            lambda a: optimal(a, K, y, np.inf, p, tol=DUAL_TOL),
        ),
        _without_labels(K, y, C, p),
        (
            "2 alpha solves the dual with 2C: the 1/2 of the dual objective is missing",
            lambda a: optimal(2 * a, K, y, 2 * C, p, tol=DUAL_TOL),
        ),
    )
    return _dual_judge(problem, alpha, expected, C, symptoms)


SOFT_MARGIN_L1_DUAL = Exercise(
    name="soft_margin_l1_dual",
    signature="soft_margin_l1_dual(K, y, C) -> alpha",
    statement=(
        "K of shape (n, n), labels y in {-1, +1} (both classes, not necessarily separable), "
        "C > 0: alpha of shape (n,) that maximises sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j "
        "y_i y_j K_ij subject to 0 <= alpha_i <= C and sum_i y_i alpha_i = 0 (the C-SVM, L1 "
        "slacks). Any solver (cvxpy, SMO, your own)."
    ),
    tolerance=_dual_tolerance("0 <= alpha_i <= C"),
    chapter="ch05_soft_margins",
    reference=soft_margin_l1_dual,
    problems=_soft_margin_problems,
    output=array_output(lambda pb: (pb.size,), "alpha"),
    judge=_soft_margin_judge,
)

# --- one step of SMO ----------------------------------------------------------------------------

#: Tolerance of SMO's step, relative to the largest alpha_i (or 1): the step is unique (eta > 0)
#: and a closed form meets the reference's to round-off.
STEP_TOL = 1e-9


def smo_step(alpha, i, j, K, y, C):
    r"""One step of SMO on the pair :math:`(i, j)`: the two-variable subproblem, solved by
    :func:`kernels_ref.smo.smo_textbook`.

    With the other variables :math:`N` fixed, the dual :math:`\min \frac12\alpha^\top Q\alpha -
    \mathbf 1^\top\alpha` in :math:`\alpha_B = (\alpha_i, \alpha_j)` is
    :math:`\min \frac12\alpha_B^\top Q_{BB}\alpha_B + (-\mathbf 1 + Q_{BN}\alpha_N)^\top\alpha_B`
    subject to :math:`y_B^\top\alpha_B = y_B^\top\alpha^{\text{old}}_B`,
    :math:`0 \le \alpha_B \le C`: SMO on two variables makes the one clipped step along
    :math:`\alpha_i \mathrel{+}= y_i t`, :math:`\alpha_j \mathrel{-}= y_j t`.
    """
    pair = [i, j]
    others = alpha.copy()
    others[pair] = 0.0
    p = -1.0 + y[pair] * (K[pair] @ (y * others))  # -1 + Q_BN alpha_N
    res = smo_textbook(K[np.ix_(pair, pair)], y[pair], p, C, alpha[pair], tol=1e-12)
    new = alpha.copy()
    new[pair] = res.alpha
    return new


def _pair_args(problem):
    """alpha, i, j, y of a problem of :func:`smo_step`."""
    args = problem.args
    return args["alpha"], args["i"], args["j"], args["y"]


def _along(alpha, i, j, y, t):
    r"""The point :math:`\alpha + t(y_ie_i - y_je_j)` (a new array)."""
    new = alpha.copy()
    new[i] += y[i] * t
    new[j] -= y[j] * t
    return new


def _segment(alpha, i, j, y, C):
    r"""The interval :math:`[t_{lo}, t_{hi}]` of the :math:`t` for which :math:`\alpha_i + y_it`
    and :math:`\alpha_j - y_jt` stay in :math:`[0, C]` (it contains 0)."""
    ends = [sorted((s * -a, s * (C - a))) for s, a in ((y[i], alpha[i]), (-y[j], alpha[j]))]
    return max(ends[0][0], ends[1][0]), min(ends[0][1], ends[1][1])


def _errors_and_eta(problem):
    r""":math:`E_t = f_0(x_t) - y_t` and :math:`\eta = K_{ii} + K_{jj} - 2K_{ij}`."""
    alpha, i, j, K, y, _ = problem.args.values()
    return K @ (alpha * y) - y, K[i, i] + K[j, j] - 2.0 * K[i, j]


def _vertex(problem, sign=1.0):
    r"""The unclipped minimiser :math:`t^* = (E_j - E_i)/\eta` (``sign=-1``: its opposite)."""
    E, eta = _errors_and_eta(problem)
    i, j = problem.args["i"], problem.args["j"]
    return sign * (E[j] - E[i]) / eta


def _clipped(problem, t):
    """``t`` clipped to the segment of the problem's pair."""
    low, high = _segment(*_pair_args(problem), problem.args["C"])
    return min(max(t, low), high)


def _near(problem, got, t):
    """Whether ``got`` is the problem's alpha moved along its pair to ``t``."""
    return close(got, _along(*_pair_args(problem), t), STEP_TOL)


def _moved_without_sign(problem, got):
    """Symptom: alpha_i moved by minus alpha_j's change (or the reverse) with y_i != y_j."""
    alpha, i, j, y = _pair_args(problem)
    d_i, d_j = got[i] - alpha[i], got[j] - alpha[j]
    tol = STEP_TOL * size(alpha)
    return y[i] != y[j] and abs(d_i + d_j) <= tol and abs(d_i) > tol


def _platt(problem, first, second, same):
    r"""Platt's update, :math:`\alpha_2` first (``second``), clipped to Platt's :math:`[L, H]`
    for equal labels (``same``) or opposite ones, then :math:`\alpha_1 \mathrel{+}= y_1y_2
    (\alpha_2 - \alpha_2^{new})`."""
    alpha, y, C = problem.args["alpha"], problem.args["y"], problem.args["C"]
    E, eta = _errors_and_eta(problem)
    a1, a2 = alpha[first], alpha[second]
    if same:
        low, high = max(0.0, a1 + a2 - C), min(C, a1 + a2)
    else:
        low, high = max(0.0, a2 - a1), min(C, C + a2 - a1)
    new = alpha.copy()
    new[second] = min(max(a2 + y[second] * (E[first] - E[second]) / eta, low), high)
    new[first] = a1 + y[first] * y[second] * (a2 - new[second])
    return new


def _wrong_interval(problem, got):
    """Symptom: Platt's bounds of equal labels used for opposite ones (or the reverse)."""
    i, j, y = problem.args["i"], problem.args["j"], problem.args["y"]
    same = bool(y[i] != y[j])
    return any(close(got, _platt(problem, a, b, same), STEP_TOL) for a, b in ((i, j), (j, i)))


STEP_SYMPTOMS = (
    (
        "alpha outside [0, C]: the step is not clipped (t = (E_j - E_i) / eta must be clipped "
        "to the interval of t that keeps alpha_i and alpha_j in [0, C])",
        lambda pb, got: _near(pb, got, _vertex(pb)),
    ),
    (
        "alpha_i moved by minus the change of alpha_j, without the factor y_i y_j "
        "(alpha_i_new = alpha_i + y_i y_j (alpha_j - alpha_j_new))",
        _moved_without_sign,
    ),
    (
        "the step goes the wrong way (uphill): t = (E_i - E_j) / eta instead of (E_j - E_i) / "
        "eta, with E_t = f0(x_t) - y_t",
        lambda pb, got: _near(pb, got, _clipped(pb, _vertex(pb, -1.0))),
    ),
    (
        "clipped to the wrong interval: Platt's bounds [L, H] of equal labels used for "
        "opposite ones, or the reverse",
        _wrong_interval,
    ),
)


def _step_condition(problem, got, expected):
    """The first condition of one SMO step that ``got`` breaks, and what the report says."""
    alpha, i, j, K, y, C = problem.args.values()
    tol = STEP_TOL * size(alpha)
    outside = [t for t in np.flatnonzero(np.abs(got - alpha) > tol) if t not in (i, j)]
    if outside:
        return "only alpha_i and alpha_j move", (
            f"alpha_t changed for t = {', '.join(map(str, outside))}, outside the pair (i, j) = "
            f"({i}, {j}): one SMO step moves alpha_i and alpha_j only"
        )
    drift = float(y @ got - y @ alpha)
    if abs(drift) > tol:
        return "sum_i y_i alpha_i kept", (
            f"sum_i y_i alpha_i changed by {_text(drift)}: the pair must move along "
            "alpha_i += y_i t, alpha_j -= y_j t, which keeps it"
        )
    if got.min() < -tol or got.max() > C + tol:
        return "0 <= alpha <= C", (
            f"alpha outside [0, C]: alpha_i = {_text(got[i])}, alpha_j = {_text(got[j])} with "
            f"C = {_text(C)}; the step must stop where the first of them reaches 0 or C"
        )
    Q, p = np.outer(y, y) * K, -np.ones(len(y))
    return "the minimum of the dual along the pair", (
        "feasible, but not the minimiser along the pair: the dual objective 1/2 alpha^T Q alpha "
        f"- sum_i alpha_i is {_text(-dual_objective(got, Q, p))}, its minimum on the segment "
        f"{_text(-dual_objective(expected, Q, p))}"
    )


def _step_judge(problem, got, expected):
    if close(got, expected, STEP_TOL):
        return None
    condition, message = _step_condition(problem, got, expected)
    found = either(STEP_SYMPTOMS, problem, got)
    message = found[0][0] if found else message
    return Failure(condition, message, _text(expected), _text(got))


@st.composite
def _step_problems(draw):
    """A feasible alpha (0 <= alpha <= C, sum_i y_i alpha_i = 0) reached from 0 by up to three
    pair moves to an end of their segment or half-way, and a pair i != j."""
    X, y = draw(labelled(2, 7))
    n, C = len(y), draw(st.sampled_from(PENALTIES))
    index = st.integers(0, n - 1)
    alpha = np.zeros(n)
    for k, m, share in draw(st.lists(st.tuples(index, index, st.sampled_from([1.0, 0.5, -0.5])),
                                     max_size=3)):  # fmt: skip
        if k != m:
            low, high = _segment(alpha, k, m, y, C)
            alpha = _along(alpha, k, m, y, share * (high if share > 0 else -low))
    i, j = draw(index), draw(st.integers(0, n - 2))
    j += j >= i
    shown = {"X": X, "y": y, "C": C, "alpha": alpha, "i": i, "j": j}
    args = {"alpha": alpha, "i": i, "j": j, "K": X @ X.T, "y": y, "C": C}
    return linear_problem(
        args, shown, note="K = X X^T, the linear kernel; i, j count from 0; eta = |x_i - x_j|^2 > 0"
    )


SMO_STEP = Exercise(
    name="smo_step",
    signature="smo_step(alpha, i, j, K, y, C) -> new_alpha",
    statement=(
        "One step of SMO on the L1 soft margin's dual, min F(alpha) = 1/2 sum_kl alpha_k alpha_l "
        "y_k y_l K_kl - sum_k alpha_k subject to 0 <= alpha_k <= C, sum_k y_k alpha_k = 0. Given a "
        "feasible alpha of shape (n,) and a pair i != j (ints), return a NEW array: alpha_i + "
        "y_i t and alpha_j - y_j t, every other entry unchanged, with t the minimiser of F along "
        "that line among the t that keep alpha_i and alpha_j in [0, C]: t = (E_j - E_i) / eta "
        "clipped to that interval, where E_t = f0(x_t) - y_t, f0(x_t) = sum_k alpha_k y_k K_kt "
        "and eta = K_ii + K_jj - 2 K_ij > 0 (K is the linear kernel of distinct points). Do not "
        "modify alpha."
    ),
    tolerance=(
        f"against the reference (the minimiser is unique, eta > 0): every entry within "
        f"{_tolerance(STEP_TOL)} times max(1, max_k alpha_k)"
    ),
    chapter="ch07_smo",
    reference=smo_step,
    problems=_step_problems,
    output=array_output(lambda pb: (pb.size,), "new_alpha"),
    judge=_step_judge,
)

# --- the intercept ------------------------------------------------------------------------------

#: Tolerance on b, relative to max(1, |b|) at the ends of the interval of b that the KKT
#: conditions allow: alpha is optimal to 1e-10 (m - M), and that interval known to about that.
INTERCEPT_TOL = 1e-6


def intercept(alpha, K, y, C):
    r"""The L1 soft margin's :math:`b` from its optimal :math:`\alpha`
    (:func:`kernels_ref.svm.intercept_free_sv`: the mean of :math:`y_t - f_0(x_t)` over the
    free support vectors, else the midpoint of the interval the KKT conditions allow)."""
    return intercept_free_sv(alpha, K, y, C)


def _scores(problem):
    r""":math:`v_t = y_t - f_0(x_t)`, :math:`f_0(x_t) = \sum_k \alpha_k y_k K_{kt}`: the
    :math:`b` that makes :math:`y_t f(x_t) = 1`."""
    alpha, K, y, _ = problem.args.values()
    return y - K @ (alpha * y)


def _interval(problem, v):
    r""":math:`[\max_{I_{up}} v_t, \min_{I_{low}} v_t]`, its ends in order (they cross by the
    round-off of :math:`\alpha`). For :math:`v = y - f_0` it holds the :math:`b` that the KKT
    conditions allow: :math:`y_t f(x_t) \ge 1` where :math:`\alpha_t = 0`, :math:`= 1` where
    :math:`0 < \alpha_t < C`, :math:`\le 1` where :math:`\alpha_t = C`."""
    alpha, _, y, C = problem.args.values()
    ends = _kkt_interval(v, alpha, y, C, _bound_tol(alpha))
    return min(ends), max(ends)


def _support(problem):
    """The support vectors (alpha_t > 0) and those at the bound alpha_t = C, as masks."""
    alpha, C = problem.args["alpha"], problem.args["C"]
    atol = _bound_tol(alpha)
    return alpha > atol, alpha >= C - atol


def _rules(problem, v):
    """The b that the recipes of the exercise give from the scores ``v``: v_t at a support
    vector, the mean of v over the support vectors or over the free ones, an end or the middle
    of :func:`_interval`."""
    sv, at_c = _support(problem)
    free = sv & ~at_c
    low, high = _interval(problem, v)
    means = [v[mask].mean() for mask in (sv, free) if mask.any()]
    return np.array([*v[sv], *means, low, high, 0.5 * (low + high)])


def _intercept_tol(problem):
    return INTERCEPT_TOL * max(1.0, *map(abs, _interval(problem, _scores(problem))))


def _given_by(problem, values, b):
    """Whether ``b`` is one of ``values``, to the tolerance."""
    return bool(np.any(np.abs(values - b) <= _intercept_tol(problem)))


def _from_bounded(pb, b):
    """Symptom: b = y_t - f0(x_t) at a support vector with alpha_t = C, or averaged over all
    the support vectors, some at C."""
    v, (sv, at_c) = _scores(pb), _support(pb)
    return bool(np.any(at_c)) and _given_by(pb, np.r_[v[at_c], v[sv].mean()], b)


INTERCEPT_SYMPTOMS = (
    ("b = 0: off by exactly b, the intercept is not computed", lambda pb, b: b == 0.0),
    (
        "the sign of b is flipped: b = f0(x_t) - y_t, it should be y_t - f0(x_t)",
        lambda pb, b: _given_by(pb, _rules(pb, _scores(pb)), -b),
    ),
    (
        "b from a support vector at the bound alpha_t = C: there y_t f(x_t) = 1 - xi_t <= 1, "
        "not 1; take b = y_t - f0(x_t) from the free ones, 0 < alpha_t < C",
        _from_bounded,
    ),
    (
        "f0 without the labels: f0(x_t) = sum_k alpha_k y_k K_kt, not sum_k alpha_k K_kt",
        lambda pb, b: _given_by(pb, _rules(pb, pb.args["y"] - pb.args["K"] @ pb.args["alpha"]), b),
    ),
)


def _intercept_judge(problem, b, expected):
    low, high = _interval(problem, _scores(problem))
    tol = _intercept_tol(problem)
    if low - tol <= b <= high + tol:
        return None
    conditions = (
        "y_t f(x_t) >= 1 where alpha_t = 0, = 1 where 0 < alpha_t < C (a free support vector), "
        "<= 1 where alpha_t = C"
    )
    if high - low <= tol:
        shown = _text(expected)
        message = f"b = {_text(b)}, but the KKT conditions allow only b = {shown}: {conditions}"
    else:
        shown = f"any b in [{_text(low)}, {_text(high)}] (the reference: {_text(expected)})"
        message = (
            f"b = {_text(b)} is outside [{_text(low)}, {_text(high)}], the b that the KKT "
            f"conditions allow: {conditions} (no support vector is free: a degenerate intercept)"
        )
    found = either(INTERCEPT_SYMPTOMS, problem, b)
    message = found[0][0] if found else message
    return Failure("the KKT conditions on b", message, shown, _text(b))


@st.composite
def _intercept_problems(draw):
    X, y = draw(labelled(2, 7))
    C = draw(st.sampled_from(PENALTIES))
    K = X @ X.T
    alpha = soft_margin_l1(K, y, C, tol=1e-10).alpha
    return linear_problem(
        {"alpha": alpha, "K": K, "y": y, "C": C},
        {"X": X, "y": y, "C": C, "alpha": alpha},
        note="K = X X^T, the linear kernel; alpha = soft_margin_l1(K, y, C).alpha, the L1 soft "
        "margin's optimal alpha",
    )


INTERCEPT = Exercise(
    name="intercept",
    signature="intercept(alpha, K, y, C) -> b",
    statement=(
        "alpha of shape (n,), an optimal alpha of the L1 soft margin's dual for K, y, C: the "
        "intercept b of f(x) = f0(x) + b, f0(x_t) = sum_k alpha_k y_k K_kt, a float. A free "
        "support vector (0 < alpha_t < C) has y_t f(x_t) = 1, so b = y_t - f0(x_t); one at the "
        "bound alpha_t = C has y_t f(x_t) <= 1, a point with alpha_t = 0 has y_t f(x_t) >= 1. "
        "When no support vector is free, any b that these inequalities allow is right."
    ),
    tolerance=(
        f"by certificate: b in the interval that the KKT conditions allow (one value when a "
        f"support vector is free), to {_tolerance(INTERCEPT_TOL)} times max(1, |b|)"
    ),
    chapter="ch05_soft_margins",
    reference=intercept,
    problems=_intercept_problems,
    output=number_output("b"),
    judge=_intercept_judge,
)

# --- the nu-SVM's dual --------------------------------------------------------------------------

#: The nu of the problems: simple fractions, kept where feasible, nu <= 2 min(n+, n-) / n (the
#: first, where shrinking goes, is feasible on any problem of at most four points).
NUS = (0.5, 0.25, 1.0)


def nu_svm_dual(K, y, nu):
    r"""The ν-SVM's dual :math:`\alpha` (:func:`kernels_ref.svm.nu_svm`: SMO with
    :math:`\sum_{y_i = \pm1}\alpha_i = \nu/2`, which an optimal :math:`\alpha` satisfies)."""
    return nu_svm(K, y, nu, tol=1e-10).alpha


@st.composite
def _nu_problems(draw):
    X, y = draw(labelled(2, 7))
    nu = draw(st.sampled_from(NUS))
    assume(nu <= 2 * min(np.sum(y > 0), np.sum(y < 0)) / len(y))
    return linear_problem({"K": X @ X.T, "y": y, "nu": nu}, {"X": X, "y": y, "nu": nu})


def _nu_solves(K, y, nu):
    """Symptom: ``alpha`` passes the certificate of the nu-SVM's dual of the matrix ``K``."""
    n = len(y)
    best = dual_objective(nu_svm_dual(K, y, nu), np.outer(y, y) * K, np.zeros(n))

    def holds(alpha):
        return (
            dual_certificate(
                alpha, K, y, 1.0 / n, np.zeros(n), best, tol=DUAL_TOL, words=NU_WORDS, nu=nu
            )
            is None
        )

    return holds


def _nu_judge(problem, alpha, expected):
    """The certificate of the nu-SVM's dual (:func:`_dual_judge` with ``nu``), and the
    symptoms of its classic mistakes."""
    K, y, nu = problem.args.values()
    n, Q = len(y), np.outer(y, y) * K
    linear = -np.ones(n)  # the C-SVM's linear term, p = -1
    symptoms = (
        (
            "alpha solves the C-SVM's dual (with C = 1/n or C = 1): its linear term sum_i "
            "alpha_i does not belong in the nu-SVM's objective, -1/2 alpha^T Q alpha",
            lambda a: any(optimal(a, K, y, C, linear, tol=DUAL_TOL) for C in (1.0 / n, 1.0)),
        ),
        (
            "n alpha is optimal: alpha in LIBSVM's scaling (0 <= alpha_i <= 1, sum_i alpha_i = "
            "n nu); divide it by n",
            lambda a: abs(np.sum(a) - n * nu) <= n * DUAL_TOL and _nu_solves(K, y, nu)(a / n),
        ),
        (WITHOUT_LABELS, lambda a: _nu_solves(Q, y, nu)(a)),  # Q o yy^T = K
        (
            "alpha = 0: the constraint sum_i alpha_i >= nu is missing, without which alpha = 0 "
            "is optimal",
            lambda a: np.sum(a) < nu - DUAL_TOL and a @ Q @ a <= 2 * DUAL_TOL,  # the maximum 0
        ),
        (
            "alpha_i above 1/n: the upper bound of the box 0 <= alpha_i <= 1/n is missing, or "
            "C = 1 of the C-SVM is used in its place",
            lambda a: np.max(a) > 1.0 / n + DUAL_TOL * size(a),
        ),
    )
    return _dual_judge(problem, alpha, expected, 1.0 / n, symptoms, nu=nu)


NU_SVM_DUAL = Exercise(
    name="nu_svm_dual",
    signature="nu_svm_dual(K, y, nu) -> alpha",
    statement=(
        "K of shape (n, n), labels y in {-1, +1} (both classes), nu in (0, 2 min(n+, n-) / n] "
        "(n+ and n- the sizes of the classes): alpha of shape (n,) that maximises -1/2 sum_ij "
        "alpha_i alpha_j y_i y_j K_ij subject to 0 <= alpha_i <= 1/n, sum_i y_i alpha_i = 0 "
        "and sum_i alpha_i >= nu (the nu-SVM's dual: no linear term, the box 1/n). An optimal "
        "alpha with sum_i alpha_i = nu always exists; where a larger sum is optimal too (w = "
        "0), it is right as well. Any solver (cvxpy, SMO, your own)."
    ),
    tolerance=_dual_tolerance("0 <= alpha_i <= 1/n, sum_i alpha_i >= nu"),
    chapter="ch06_nu_svm",
    reference=nu_svm_dual,
    problems=_nu_problems,
    output=array_output(lambda pb: (pb.size,), "alpha"),
    judge=_nu_judge,
)

EXERCISES = (HARD_MARGIN_DUAL, SOFT_MARGIN_L1_DUAL, SMO_STEP, INTERCEPT, NU_SVM_DUAL)
