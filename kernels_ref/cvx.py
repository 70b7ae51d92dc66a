r"""Reference solutions of the quadratic programmes of the course with cvxpy (chapters 4–6, 10).

Every SVM of the course is written twice, as the texts write it: the **primal** (in
:math:`w, b, \xi`) and the **dual** (in the Lagrange multipliers). Both are handed to an
interior-point solver (Clarabel) with tight tolerances, and only an ``optimal`` status is
accepted. The NumPy solvers of :mod:`kernels_ref.svm` are checked against these answers, and the
answers against each other: primal and dual objective values agree (strong duality), and so do
the decision functions.

How the quadratic terms are written. cvxpy must recognise every objective as convex; its own
test of :math:`Q \succeq 0` uses an iterative eigensolver that can fail on the singular Gram
matrices met in practice (duplicate points, the linear kernel with :math:`n > d`). So no
quadratic form is ever written with :math:`K`: with a factor :math:`K = LL^\top`,

.. math::

    (\alpha\circ y)^\top K (\alpha\circ y) = \|L^\top(\alpha\circ y)\|^2 ,

where :math:`L` is the feature matrix ``Phi`` when one is given (``X`` for the linear kernel),
and otherwise :math:`L = U\sqrt{D}` from :math:`K = UDU^\top` (``eigh``; eigenvalues below
round-off dropped, negative ones clipped to 0). The rows of :math:`L` are then a feature map of
the training points (Rousseau, *Kernel methods* (2022), "when X is finite"), so a primal "in
the kernel expansion" :math:`w = \sum_j\beta_j\phi(x_j)` is solved in the coordinates
:math:`v = L^\top\beta` of :math:`w` and mapped back by :math:`\beta = UD^{-1/2}v`, the
solution with :math:`\beta \in \operatorname{range}(K)` (Vert, *Méthodes à noyaux* (2004),
"Minimisation en α": a component of :math:`\beta` in :math:`\ker K` changes neither
:math:`f` nor :math:`\|f\|`).

Signs. In cvxpy the dual value of the constraint ``y @ alpha == 0`` is the intercept :math:`b`
(checked in the tests against :math:`b = y_i - \sum_j\alpha_jy_jK_{ij}` on a free support
vector), with the problem written either as a maximisation or as a minimisation; in the ν-SVM
the dual value of ``sum(alpha) >= nu`` is :math:`\rho`; in a primal the dual values of the
margin constraints are the dual coefficients :math:`\alpha_i \ge 0`.

Scaling of the ν-SVM. Clarabel's stopping test on the duality gap does not tighten for small
optimal values, and the ν-SVM's value :math:`-\tfrac12\|w\|^2` is often :math:`10^{-4}` or
less, with bounds :math:`1/n`: solved as written, its answers had KKT violations up to
:math:`3 \times 10^{-4}` on random problems. Both ν-SVM programmes are therefore solved
in LIBSVM's scaling (Chang & Lin 2011, §4.2), in :math:`n\alpha \in [0, 1]` (and :math:`nw,
nb, n\rho, n\xi` for the primal), objective times :math:`n^2`, and scaled back.

Accuracy. An interior-point answer lies inside the feasible set: multipliers that are 0 (or
:math:`C`) at the solution come out at about the tolerance from the bound, and on degenerate
problems (a point on the margin with :math:`\alpha_i` at a bound) the variables are accurate
to about the square root of the tolerance while the objective keeps the tolerance. Multipliers
within ``SUPPORT_RTOL`` times the largest one of a bound count as being at it, for ``support``
and ``kkt_violation``. :math:`\alpha` need not be unique (:math:`K` singular), nor :math:`b`
when no multiplier is free: compare objectives and :math:`f - b`, not :math:`\alpha`.

Conventions: ``solver="CLARABEL"`` with :data:`REFERENCE_OPTIONS` by default; ``solver=None``
lets cvxpy choose (OSQP at its default 1e-5 tolerances for these problems: fast, not a
reference). A status other than ``optimal`` raises :class:`cvxpy.error.SolverError`, except
in the hard margin: an infeasible primal (unbounded dual), or a failed solve on classes whose
convex hulls are closer than ``2e-4`` times the spread of the data, raises
:class:`~kernels_ref.exceptions.NotSeparableError`.
"""

import math
import warnings
from dataclasses import dataclass, replace

import numpy as np

try:
    import cvxpy as cp
except ImportError as exc:  # the package itself needs only NumPy
    raise ImportError(
        "kernels_ref.cvx needs cvxpy, an optional dependency of kernels-ref: install it with "
        "pip install 'kernels-ref[cvx]' (or pip install cvxpy)"
    ) from exc

from ._results import ShortRepr
from ._validation import (
    boolean,
    check_array,
    check_test_gram,
    gram,
    labels,
    positive,
    real,
    result,
    rule,
    validated,
    vector,
)
from .exceptions import NotSeparableError
from .svm import SVMResult, _feasible_nu, _kkt_violation
from .svr import SVRResult

__all__ = [
    "REFERENCE_OPTIONS",
    "SUPPORT_RTOL",
    "PrimalResult",
    "hard_margin_dual",
    "hard_margin_primal",
    "lambda_svm_dual",
    "lambda_svm_mu_dual",
    "lambda_svm_primal",
    "nu_svm_dual",
    "nu_svm_primal",
    "primal_predict",
    "soft_margin_l1_dual",
    "soft_margin_l1_primal",
    "soft_margin_l2_dual",
    "soft_margin_l2_primal",
    "solve_reference",
    "svr_dual",
    "svr_primal",
]

#: Clarabel settings for reference answers (its defaults are 1e-8).
REFERENCE_OPTIONS = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}

#: A multiplier counts as non-zero (support vector) above this fraction of the largest one:
#: an interior-point solver leaves the others at about its tolerance instead of exactly 0.
SUPPORT_RTOL = 1e-5

_NOT_SOLVED = (
    cp.INFEASIBLE,
    cp.INFEASIBLE_INACCURATE,
    cp.UNBOUNDED,
    cp.UNBOUNDED_INACCURATE,
)


@dataclass(frozen=True, repr=False)
class PrimalResult(ShortRepr):
    r"""Solution of an SVM (or SVR) primal.

    The decision function is :math:`f(x) = \langle w, \phi(x)\rangle + b`, with
    :math:`w` given either explicitly (``w``, when a feature matrix ``Phi`` was passed) or by
    its kernel expansion :math:`w = \sum_j \beta_j \phi(x_j)` (``beta``):
    :func:`primal_predict` evaluates it.

    Attributes
    ----------
    objective : float
        Optimal value of the primal, as the text writes it.
    b : float
        Intercept (0.0 for Vert's SVM, which has none).
    w : ndarray, shape (D,) or None
        Weight vector, when ``Phi`` was given.
    beta : ndarray, shape (n,) or None
        Expansion coefficients (in :math:`\operatorname{range}(K)`), when ``Phi`` was not given.
    xi : ndarray, shape (n,) or None
        Slack variables (``None`` for the hard margin).
    xi_star : ndarray, shape (n,) or None
        Slacks below the ε-tube (SVR only).
    rho : float or None
        ν-SVM only.
    dual : SVMResult or SVRResult
        The dual solution read off the Lagrange multipliers of the margin (tube) constraints,
        with the intercept of the primal; its ``dual_objective`` is the dual objective at
        those multipliers (equal to ``objective`` by strong duality).
    n_iter : int
        Solver iterations.
    """

    objective: float
    b: float
    w: np.ndarray | None
    beta: np.ndarray | None
    xi: np.ndarray | None
    xi_star: np.ndarray | None
    rho: float | None
    dual: object
    n_iter: int


# --- set-up ------------------------------------------------------------------------------


def _gram_factor(K):
    r"""``(L, B)`` with :math:`K \approx LL^\top`, :math:`L = U\sqrt D`, and :math:`B =
    UD^{-1/2}` mapping coordinates :math:`v = L^\top\beta` back to :math:`\beta`.

    Eigenvalues below :math:`n\,\epsilon_{\text{mach}}\lambda_{\max}` (round-off, or negative)
    are dropped; so is every column when :math:`K = 0` (then one zero column is kept).
    """
    n = K.shape[0]
    d, U = np.linalg.eigh(K)
    keep = d > n * np.finfo(float).eps * max(float(d[-1]), 0.0)
    if not np.any(keep):
        return np.zeros((n, 1)), np.zeros((n, 1))
    s = np.sqrt(d[keep])
    U = U[:, keep]
    return U * s, U / s


def _factor(K, Phi):
    """``(K, L, B)`` of checked ``K`` and ``Phi``: ``L`` factors ``K`` (``Phi`` itself when
    given, and then ``B`` is None and ``K = Phi Phi^T`` if it was not given)."""
    if Phi is None:
        return (K, *_gram_factor(K))
    return (Phi @ Phi.T if K is None else K), Phi, None


def _feature_matrix(value, name, args):
    """The rule of ``Phi``: a feature matrix of ``K`` (``Phi @ Phi.T = K``) when both are given
    (one of them is: the rule of ``y`` says so, which needs the number of points)."""
    K = args["K"]
    Phi = check_array(value, name, ndim=2)
    if K is not None:
        if Phi.shape[0] != K.shape[0]:
            raise ValueError(f"{name} must have {K.shape[0]} rows (one per point of K)")
        scale = max(1.0, float(np.max(np.abs(K))))
        if not np.allclose(Phi @ Phi.T, K, rtol=0.0, atol=1e-8 * scale):
            raise ValueError(
                f"{name} must be a feature matrix of K: {name} @ {name}.T must equal K"
            )
    return Phi


def _n_points(args):
    """The number of points of the problem: the rows of ``K``, or of ``Phi``."""
    if args["K"] is None and args["Phi"] is None:
        raise ValueError("K and Phi are both None: pass a Gram matrix K or a feature matrix Phi")
    return len(args["K"] if args["K"] is not None else args["Phi"])


def _solver(value, name, args):
    """The rule of ``solver``: None or an installed cvxpy solver."""
    if value is not None and value not in cp.installed_solvers():
        raise ValueError(
            f"{name} must be None or one of the installed cvxpy solvers "
            f"{cp.installed_solvers()}, got {value!r}"
        )
    return value


def _solver_options(value, name, args):
    """The rule of ``solver_options``: a dict of option names (a copy), or None for the
    reference options of Clarabel (:data:`REFERENCE_OPTIONS`)."""
    if value is None:
        return dict(REFERENCE_OPTIONS) if args["solver"] == cp.CLARABEL else {}
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be a dict or None, got {value!r}")
    for key in value:
        if not isinstance(key, str):
            raise ValueError(f"{name} keys must be option names (str), got {key!r}")
    return dict(value)


#: The rules of every problem of this module: a Gram matrix ``K`` or a feature matrix ``Phi``
#: (or both), labels, and the solver.
PROBLEM = {
    "K": gram(optional=True),
    "Phi": rule(_feature_matrix, "data", optional=True, samples=(0,), refs=("K",)),
    "y": labels(rows=_n_points),
    "solver": rule(_solver, "solver"),
    "solver_options": rule(_solver_options, "solver_options"),
}
#: The same with real targets (support vector regression).
REGRESSION = {**PROBLEM, "y": vector(rows=_n_points)}


def _text(value, name, args):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


@validated(
    problem=result(cp.Problem, "cvxpy"),
    accept_inaccurate=boolean(),
    what=rule(_text, "text"),
)
def solve_reference(problem, *, accept_inaccurate=False, what="the problem"):
    r"""Solve a cvxpy problem as a reference: Clarabel with :data:`REFERENCE_OPTIONS`.

    For the problems a chapter writes inline, as the texts print them. Only the status
    ``optimal`` is accepted: any other raises :class:`cvxpy.error.SolverError`, and cvxpy's
    warning of an inaccurate solution is never printed. Some Clarabel versions (0.9, 0.10) end
    some well-posed problems at 1e-10 as ``optimal_inaccurate`` although their answer meets the
    tolerance; ``accept_inaccurate=True`` accepts that status too, and is only for a caller
    that checks the answer itself (a duality gap against an independent solve, a KKT residual)
    and shows that check.

    Parameters
    ----------
    problem : cvxpy.Problem
    accept_inaccurate : bool
        Also accept ``optimal_inaccurate``.
    what : str
        The problem's name in the error message.

    Returns
    -------
    float
        The optimal value, ``problem.value``.

    Examples
    --------
    >>> x = cp.Variable()
    >>> round(solve_reference(cp.Problem(cp.Minimize((x - 1) ** 2 + 1))), 6)
    1.0
    """
    accepted = (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) if accept_inaccurate else (cp.OPTIMAL,)
    _solve(problem, cp.CLARABEL, dict(REFERENCE_OPTIONS), what, accepted=accepted)
    return float(problem.value)


def _solve(problem, solver, options, what, not_separable=False, accepted=(cp.OPTIMAL,)):
    """Solve; return the iteration count; raise unless the status is ``optimal``."""
    with warnings.catch_warnings():  # cvxpy warns of an inaccurate solution: we raise instead
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        try:
            problem.solve(solver=solver, **options)
        except TypeError as exc:  # an option the solver does not know, or of the wrong type
            named = [key for key in options if repr(key) in str(exc)] or sorted(options)
            raise ValueError(
                f"solver_options: the solver {solver} rejects the option(s) "
                f"{', '.join(map(repr, named))} ({exc})"
            ) from None
    status = problem.status
    if status in accepted:
        return int(problem.solver_stats.num_iters or 0)
    if not_separable and status in _NOT_SOLVED:
        raise NotSeparableError(
            f"K, y: the classes are not separable in feature space ({what} is {status})"
        )
    raise cp.error.SolverError(
        f"{what}: solver {problem.solver_stats.solver_name} returned status {status!r}, "
        "not 'optimal' (try solver_options with looser tolerances)"
    )


def _solve_hard_margin(problem, K, y, L, solver, options, what):
    r"""Solve a hard-margin programme; tell "not separable" from a solver failure.

    An infeasible primal or unbounded dual is reported as such by the solver when the data
    are exactly not separable. But the factor :math:`L` of :math:`K` is exact only to
    round-off: the rows of :math:`L` of two copies of a point with opposite labels differ by
    round-off, the primal becomes feasible with a huge :math:`\|w\|` (about :math:`10^6` in
    the test case), and the solver stops without an ``optimal`` status. On any such failure
    the distance :math:`d` between the convex hulls of the two classes is computed (a bounded
    problem, :math:`d = 2\gamma`): below ``2e-4`` times the spread of the data the classes
    are reported not separable (the margin cannot be resolved in floating point).
    """
    try:
        return _solve(problem, solver, options, what, not_separable=True)
    except cp.error.SolverError:
        d2 = K.diagonal() + K[0, 0] - 2.0 * K[0]
        spread = math.sqrt(max(0.0, float(np.max(d2))))
        distance = spread * _hull_distance(L / spread, y, solver) if spread > 0 else 0.0
        if distance <= 2e-4 * spread:
            raise NotSeparableError(
                f"K, y: the classes are not separable in feature space: their convex hulls "
                f"are {distance:.3g} apart, below 2e-4 times the spread {spread:.3g} of the "
                f"data ({what} did not reach an optimal status)"
            ) from None
        raise


def _hull_distance(L, y, solver):
    r"""Distance between the convex hulls of the classes, :math:`\min\|\sum_{y_i=1}
    \lambda_i\phi(x_i) - \sum_{y_i=-1}\lambda_i\phi(x_i)\|` over convex weights."""
    lam = cp.Variable(len(y))
    pos = y > 0
    gap = cp.sum_squares(L.T @ cp.multiply(y, lam))
    hull = [lam >= 0, cp.sum(lam[pos]) == 1, cp.sum(lam[~pos]) == 1]
    problem = cp.Problem(cp.Minimize(gap), hull)
    with warnings.catch_warnings():  # an estimate is enough: "optimal_inaccurate" will do
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        problem.solve(solver=solver)
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        return math.inf
    return math.sqrt(max(0.0, float(problem.value)))


# --- results ------------------------------------------------------------------------------


def _atol(a, C=np.inf):
    """Distance below which a multiplier counts as being at its bound (0 or C).

    ``SUPPORT_RTOL`` times the largest multiplier, but not below ``min(1e-8, 1e-3 C)``: when
    every multiplier is 0 at the solution (an SVR whose tube holds every point) the solver
    returns them all at about its tolerance.
    """
    return max(SUPPORT_RTOL * float(np.max(a, initial=0.0)), min(1e-8, 1e-3 * C))


def _svm_result(alpha, b, y, objective, violation, n_iter, atol, rho=None):
    return SVMResult(
        alpha=alpha,
        b=float(b),
        support=np.flatnonzero(alpha > atol),
        dual_objective=float(objective),
        kkt_violation=float(violation),
        n_iter=n_iter,
        converged=True,
        y=y,
        rho=rho,
    )


def _c_svm(alpha, b, K, y, C, n_iter):
    """SVMResult of the hard margin (C = inf) or of the C-SVM dual."""
    alpha = np.clip(alpha, 0.0, C)
    u = alpha * y
    objective = alpha.sum() - 0.5 * u @ K @ u
    atol = _atol(alpha, C)
    violation = _kkt_violation(alpha, K, y, C, atol=atol)
    return _svm_result(alpha, b, y, objective, violation, n_iter, atol)


def _l2_svm(alpha, b, K, y, C, n_iter):
    alpha = np.clip(alpha, 0.0, None)
    u = alpha * y
    objective = alpha.sum() - 0.5 * u @ K @ u - 0.5 * alpha @ alpha / C
    K_c = K + np.eye(len(y)) / C
    atol = _atol(alpha)
    violation = _kkt_violation(alpha, K_c, y, atol=atol)
    return _svm_result(alpha, b, y, objective, violation, n_iter, atol)


def _vert_svm(alpha, K, y, lam, n_iter):
    """SVMResult of Vert's SVM: book alpha = y * alpha_Vert, Vert's dual scaling, b = 0."""
    n = len(y)
    C = 1.0 / (2.0 * lam * n)
    alpha = np.clip(alpha, 0.0, C)
    u = alpha * y  # Vert's signed coefficients
    objective = 2.0 * u @ y - u @ K @ u
    atol = _atol(alpha, C)
    violation = _kkt_violation(alpha, K, y, C, bias=False, atol=atol)
    return _svm_result(alpha, 0.0, y, objective, violation, n_iter, atol)


def _nu_svm(alpha, b, rho, K, y, nu, n_iter):
    n = len(y)
    alpha = np.clip(alpha, 0.0, 1.0 / n)
    u = alpha * y
    objective = -0.5 * u @ K @ u
    atol = _atol(alpha, 1.0 / n)
    if alpha.sum() > nu + n * atol:
        # sum(alpha) >= nu is slack, so rho = 0: the trivial solution w = 0 of a small nu
        # (nu <= nu_min, Chang & Lin 2001) on data that are not separable. The KKT system is
        # then that of the single constraint y^T alpha = 0 with p = 0.
        violation = _kkt_violation(alpha, K, y, 1.0 / n, p=np.zeros(n), atol=atol)
    else:
        violation = _kkt_violation(alpha, K, y, 1.0 / n, nu=nu, atol=atol)
    return _svm_result(alpha, b, y, objective, violation, n_iter, atol, rho=float(rho))


def _svr(alpha, alpha_star, b, K, y, C, epsilon, n_iter):
    n = len(y)
    alpha = np.clip(alpha, 0.0, C)
    alpha_star = np.clip(alpha_star, 0.0, C)
    coef = alpha - alpha_star
    Kc = K @ coef
    dual = y @ coef - epsilon * (alpha.sum() + alpha_star.sum()) - 0.5 * coef @ Kc
    residual = np.abs(y - Kc - b)
    primal = 0.5 * coef @ Kc + C * np.maximum(0.0, residual - epsilon).sum()
    z = np.concatenate([np.ones(n), -np.ones(n)])
    atol = _atol(np.concatenate([alpha, alpha_star]), C)
    violation = _kkt_violation(
        np.concatenate([alpha, alpha_star]),
        np.block([[K, K], [K, K]]),
        z,
        C,
        p=np.concatenate([epsilon - y, epsilon + y]),
        atol=atol,
    )
    return SVRResult(
        coef=coef,
        b=float(b),
        alpha=alpha,
        alpha_star=alpha_star,
        support=np.flatnonzero(alpha + alpha_star > atol),
        dual_objective=float(dual),
        primal_objective=float(primal),
        kkt_violation=float(violation),
        n_iter=n_iter,
        converged=True,
    )


def _primal(objective, w, B, b, dual, n_iter, xi=None, xi_star=None, rho=None):
    """PrimalResult from numeric values (``w`` in the coordinates of the factor ``L``)."""
    return PrimalResult(
        objective=float(objective),
        b=float(b),
        w=w if B is None else None,
        beta=None if B is None else B @ w,
        xi=xi,
        xi_star=xi_star,
        rho=None if rho is None else float(rho),
        dual=dual,
        n_iter=n_iter,
    )


def _test_points(value, name, args):
    """The rule of ``K_test`` / ``Phi_test``: the one the primal needs (kernel expansion or
    feature matrix), with a column per training point or per feature."""
    primal = args["primal"]
    kernel = primal.beta is not None
    needed = "K_test" if kernel else "Phi_test"
    if name != needed:
        return value
    if value is None:
        how = "in the kernel expansion" if kernel else "with a feature matrix"
        raise ValueError(f"{name} is required: this primal was solved {how}")
    if kernel:
        return check_test_gram(value, len(primal.beta), name)
    return check_array(value, name, ndim=2, n_cols=len(primal.w))


@validated(
    primal=result(PrimalResult, "a *_primal function of this module"),
    K_test=rule(_test_points, "matrix", optional=False),
    Phi_test=rule(_test_points, "matrix", optional=False),
)
def primal_predict(primal, K_test=None, *, Phi_test=None):
    r"""Decision values of a primal solution, :math:`f(x) = \langle w, \phi(x)\rangle + b`.

    .. math::

        f(x) = \sum_j \beta_j K(x_j, x) + b \quad\text{or}\quad f(x) = \phi(x)^\top w + b,

    computed from the primal variables only (not from the multipliers), so that comparing it
    with :func:`kernels_ref.svm.svm_predict` of a dual solution is a real cross-check.

    Parameters
    ----------
    primal : PrimalResult
    K_test : array_like, shape (n_test, n_train)
        Needed when the primal was solved in the kernel expansion (``primal.beta``).
    Phi_test : array_like, shape (n_test, D)
        Needed when the primal was solved with a feature matrix (``primal.w``).

    Returns
    -------
    ndarray, shape (n_test,)

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> p = hard_margin_primal(X @ X.T, [-1.0, 1.0])
    >>> np.round(primal_predict(p, np.array([[0.5], [2.0]]) @ X.T), 6) + 0.0
    array([0.5, 2. ])
    """
    if primal.beta is not None:
        return K_test @ primal.beta + primal.b
    return Phi_test @ primal.w + primal.b


# --- hard margin --------------------------------------------------------------------------


@validated(**PROBLEM)
def hard_margin_primal(K, y, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Maximal-margin hyperplane, primal form.

    .. math::

        \min_{w, b} \tfrac12\|w\|^2 \quad\text{s.t.}\quad y_i(\langle w, \phi(x_i)\rangle + b)
        \ge 1, \quad i = 1, \dots, n,

    in :math:`w` when ``Phi`` (rows :math:`\phi(x_i)`) is given, otherwise in the kernel
    expansion :math:`w = \sum_j\beta_j\phi(x_j)`: :math:`\min \tfrac12\beta^\top K\beta`
    s.t. :math:`y_i((K\beta)_i + b) \ge 1` (see the module notes on how it is solved).

    Source: Chevaleyre, *Fondamentaux de l'apprentissage automatique* (2023), §2.7;
    Rousseau, *Kernel methods* (2022), "Maximizing the margin" (1); Valle Vidal, *Vector de
    soporte y métodos de kernel* (2009), "Hiperplano Optimal".

    Parameters
    ----------
    K : array_like, shape (n, n) or None
        Gram matrix (may be None when ``Phi`` is given).
    y : array_like, shape (n,)
        Labels :math:`\pm 1`.
    Phi : array_like, shape (n, D), optional
        Explicit feature matrix with ``Phi @ Phi.T == K`` (``X`` for the linear kernel).
    solver : str or None
        cvxpy solver name; None lets cvxpy choose.
    solver_options : dict, optional
        Passed to ``Problem.solve``; default :data:`REFERENCE_OPTIONS` for Clarabel.

    Returns
    -------
    PrimalResult
        ``dual.alpha`` are the multipliers of the margin constraints.

    Raises
    ------
    NotSeparableError
        When the constraints are infeasible (the classes are not separable), or when the solve
        fails and the convex hulls of the classes are within ``2e-4`` times the spread of
        the data (a margin that cannot be resolved).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
    >>> p = hard_margin_primal(None, [-1.0, -1.0, 1.0], Phi=X)
    >>> np.round(p.w, 6) + 0.0, round(p.b, 6), round(p.objective, 6)
    (array([0.666667, 0.      ]), -1.0, 0.222222)
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    w = cp.Variable(L.shape[1])
    b = cp.Variable()
    margin = cp.multiply(y, L @ w + b) >= 1
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [margin])
    n_iter = _solve_hard_margin(problem, K, y, L, solver, options, "the hard-margin primal")
    dual = _c_svm(margin.dual_value, b.value, K, y, np.inf, n_iter)
    return _primal(problem.value, w.value, B, b.value, dual, n_iter)


@validated(**PROBLEM)
def hard_margin_dual(K, y, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Maximal-margin hyperplane, dual form.

    .. math::

        \max_{\alpha} \sum_i\alpha_i - \tfrac12\sum_{i,j}\alpha_i\alpha_jy_iy_jK_{ij}
        \quad\text{s.t.}\quad \alpha_i \ge 0,\quad \sum_i \alpha_iy_i = 0,

    with the quadratic term written :math:`\tfrac12\|L^\top(\alpha\circ y)\|^2`,
    :math:`K = LL^\top`. The intercept is the dual value of the constraint
    :math:`y^\top\alpha = 0`.

    Source: Valle Vidal (2009), "Proposición 1 usando kernels"; Chevaleyre (2023), §2.7;
    Rousseau (2022), "SVM minimization problem (dual form)".

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    Phi : array_like, shape (n, D), optional
        A factor ``Phi @ Phi.T == K`` to write the quadratic term with (``X`` for the linear
        kernel); default from ``eigh(K)``.
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult

    Raises
    ------
    NotSeparableError
        When the dual is unbounded (the classes are not separable), or when the solve
        fails and the convex hulls of the classes are within ``2e-4`` times the spread of
        the data (a margin that cannot be resolved).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
    >>> res = hard_margin_dual(X @ X.T, [-1.0, -1.0, 1.0])
    >>> np.round(res.alpha, 6), round(res.b, 6), round(res.dual_objective, 6)
    (array([0.111111, 0.111111, 0.222222]), -1.0, 0.222222)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    a = cp.Variable(len(y))
    balance = y @ a == 0
    objective = cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))
    problem = cp.Problem(cp.Maximize(objective), [a >= 0, balance])
    n_iter = _solve_hard_margin(problem, K, y, L, solver, options, "the hard-margin dual")
    return _c_svm(a.value, balance.dual_value, K, y, np.inf, n_iter)


# --- L1 soft margin (C-SVM) -----------------------------------------------------------------


@validated(**PROBLEM, C=positive())
def soft_margin_l1_primal(K, y, C, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Soft-margin SVM with the hinge loss (C-SVM), primal form.

    .. math::

        \min_{w, b, \xi} \tfrac12\|w\|^2 + C\sum_i\xi_i \quad\text{s.t.}\quad
        y_i(\langle w, \phi(x_i)\rangle + b) \ge 1 - \xi_i,\quad \xi_i \ge 0.

    Source: Chevaleyre (2023), §3.1; Rousseau (2022), "Soft margin minimization problem";
    Valle Vidal (2009), "Soft Margin norma 1" (which prints :math:`\langle w, w\rangle` without
    the :math:`\tfrac12` that its Lagrangian carries).

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    C : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    PrimalResult

    Examples
    --------
    Two points at :math:`\pm1`: the hard margin needs :math:`\alpha_i = 1/2`; with
    :math:`C = 1/4` the slack is cheaper, :math:`w = 2C` and the value is :math:`2C - 2C^2`.

    >>> X = np.array([[-1.0], [1.0]])
    >>> p = soft_margin_l1_primal(None, [-1.0, 1.0], 0.25, Phi=X)
    >>> np.round(p.w, 6), np.round(p.xi, 6), round(p.objective, 6)
    (array([0.5]), array([0.5, 0.5]), 0.375)
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    w = cp.Variable(L.shape[1])
    b = cp.Variable()
    xi = cp.Variable(len(y))
    margin = cp.multiply(y, L @ w + b) >= 1 - xi
    objective = 0.5 * cp.sum_squares(w) + C * cp.sum(xi)
    problem = cp.Problem(cp.Minimize(objective), [margin, xi >= 0])
    n_iter = _solve(problem, solver, options, "the C-SVM primal")
    dual = _c_svm(margin.dual_value, b.value, K, y, C, n_iter)
    return _primal(problem.value, w.value, B, b.value, dual, n_iter, xi=xi.value)


@validated(**PROBLEM, C=positive())
def soft_margin_l1_dual(K, y, C, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Soft-margin SVM with the hinge loss (C-SVM), dual form: the box constraint.

    .. math::

        \max_{\alpha} \sum_i\alpha_i - \tfrac12\sum_{i,j}\alpha_i\alpha_jy_iy_jK_{ij}
        \quad\text{s.t.}\quad 0 \le \alpha_i \le C,\quad \sum_i \alpha_iy_i = 0.

    Source: Valle Vidal (2009), "Soft Margin norma 1 (3)" and its "Proposición";
    Chevaleyre (2023), §3.1.

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    C : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = soft_margin_l1_dual(X @ X.T, [-1.0, 1.0], 0.25)
    >>> np.round(res.alpha, 6), round(res.dual_objective, 6)
    (array([0.25, 0.25]), 0.375)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    a = cp.Variable(len(y))
    balance = y @ a == 0
    objective = cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))
    problem = cp.Problem(cp.Maximize(objective), [a >= 0, a <= C, balance])
    n_iter = _solve(problem, solver, options, "the C-SVM dual")
    return _c_svm(a.value, balance.dual_value, K, y, C, n_iter)


# --- L2 soft margin -----------------------------------------------------------------------


@validated(**PROBLEM, C=positive())
def soft_margin_l2_primal(K, y, C, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Soft-margin SVM with squared slacks (L2), primal form.

    .. math::

        \min_{w, b, \xi} \tfrac12\|w\|^2 + \tfrac C2\sum_i\xi_i^2 \quad\text{s.t.}\quad
        y_i(\langle w, \phi(x_i)\rangle + b) \ge 1 - \xi_i,\quad \xi_i \ge 0.

    Source: Valle Vidal (2009), "Soft Margin norma 2", problem (4) (printed as
    :math:`\langle w, w\rangle + C\sum\xi_i^2`; its Lagrangian has the factors
    :math:`\tfrac12`, used here). The constraint :math:`\xi_i \ge 0` is inactive at the optimum.

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    C : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    PrimalResult

    Examples
    --------
    Two points at :math:`\pm 1`: :math:`\alpha_i = C/(2C+1)`, :math:`w = 2\alpha_i`, value
    :math:`C/(2C+1)`.

    >>> X = np.array([[-1.0], [1.0]])
    >>> p = soft_margin_l2_primal(None, [-1.0, 1.0], 2.0, Phi=X)
    >>> np.round(p.w, 6), round(p.objective, 6)
    (array([0.8]), 0.4)
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    w = cp.Variable(L.shape[1])
    b = cp.Variable()
    xi = cp.Variable(len(y))
    margin = cp.multiply(y, L @ w + b) >= 1 - xi
    objective = 0.5 * cp.sum_squares(w) + 0.5 * C * cp.sum_squares(xi)
    problem = cp.Problem(cp.Minimize(objective), [margin, xi >= 0])
    n_iter = _solve(problem, solver, options, "the L2 soft-margin primal")
    dual = _l2_svm(margin.dual_value, b.value, K, y, C, n_iter)
    return _primal(problem.value, w.value, B, b.value, dual, n_iter, xi=xi.value)


@validated(**PROBLEM, C=positive())
def soft_margin_l2_dual(K, y, C, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Soft-margin SVM with squared slacks (L2), dual form.

    .. math::

        \begin{aligned}
        &\max_{\alpha}\ \sum_i\alpha_i\\
        &\quad - \tfrac12\sum_{i,j}\alpha_i\alpha_jy_iy_j\big(K_{ij} + \tfrac1C\delta_{ij}\big)\\
        &\text{s.t.}\ \alpha_i \ge 0,\quad \sum_i\alpha_iy_i = 0,
        \end{aligned}

    the hard-margin dual on :math:`K + I/C`, written with
    :math:`\tfrac12\|L^\top(\alpha\circ y)\|^2 + \tfrac1{2C}\|\alpha\|^2`.

    Source: Valle Vidal (2009), "Soft Margin norma 2 (3)", its "Proposición" and
    "Proposición (4)" (add :math:`1/C` on the diagonal of the kernel matrix).

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    C : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult
        ``kkt_violation`` is measured on the dual with :math:`K + I/C`; pass the plain
        ``K_test`` to :func:`kernels_ref.svm.svm_predict`.

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = soft_margin_l2_dual(X @ X.T, [-1.0, 1.0], 2.0)
    >>> np.round(res.alpha, 6), round(res.dual_objective, 6)
    (array([0.4, 0.4]), 0.4)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    a = cp.Variable(len(y))
    balance = y @ a == 0
    quadratic = cp.sum_squares(L.T @ cp.multiply(y, a)) + cp.sum_squares(a) / C
    problem = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * quadratic), [a >= 0, balance])
    n_iter = _solve(problem, solver, options, "the L2 soft-margin dual")
    return _l2_svm(a.value, balance.dual_value, K, y, C, n_iter)


# --- Vert's SVM: (1/n) sum hinge + lam ||f||^2, no intercept --------------------------------


@validated(**PROBLEM, lam=positive())
def lambda_svm_primal(K, y, lam, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Vert's SVM, primal form (no intercept).

    .. math::

        \min_{\beta, \xi} \frac1n\sum_i\xi_i + \lambda\,\beta^\top K\beta \quad\text{s.t.}\quad
        y_i\sum_j\beta_jK(x_i, x_j) + \xi_i - 1 \ge 0,\quad \xi_i \ge 0,

    that is :math:`\min_f \frac1n\sum_i \mathrm{hinge}(y_if(x_i)) + \lambda\|f\|^2_{\mathcal
    H}` with :math:`f = \sum_j\beta_jK(x_j, \cdot)` (:math:`\beta` is Vert's :math:`\alpha`);
    with ``Phi``, :math:`f = \langle w, \phi(\cdot)\rangle` and :math:`\|f\|^2 = \|w\|^2`.
    The multipliers of the margin constraints are Vert's :math:`\mu_i`, and
    ``dual.alpha`` :math:`= \mu/(2\lambda)` (the book's :math:`\alpha_i = y_i\beta_i`).

    Source: Vert, *Méthodes à noyaux* (2004), "Définition des SVM", "Variables ressorts" and
    "Problème primal".

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    lam : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    PrimalResult
        ``b = 0``; ``dual`` as :func:`kernels_ref.svm.lambda_svm` returns it (Vert's scaling
        of the dual objective, :math:`1/\lambda` times the primal value).

    Examples
    --------
    Two points at :math:`\pm 1`, :math:`f(x) = wx`: minimise :math:`(1 - w)_+ + \lambda w^2`,
    so :math:`w = 1/(2\lambda)` for :math:`\lambda \ge 1/2`:

    >>> X = np.array([[-1.0], [1.0]])
    >>> p = lambda_svm_primal(None, [-1.0, 1.0], 1.0, Phi=X)
    >>> np.round(p.w, 6), round(p.objective, 6), np.round(p.dual.alpha, 6)
    (array([0.5]), 0.75, array([0.25, 0.25]))
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    n = len(y)
    w = cp.Variable(L.shape[1])
    xi = cp.Variable(n)
    margin = cp.multiply(y, L @ w) + xi - 1 >= 0
    objective = cp.sum(xi) / n + lam * cp.sum_squares(w)
    problem = cp.Problem(cp.Minimize(objective), [margin, xi >= 0])
    n_iter = _solve(problem, solver, options, "Vert's SVM primal")
    dual = _vert_svm(margin.dual_value / (2.0 * lam), K, y, lam, n_iter)
    return _primal(problem.value, w.value, B, 0.0, dual, n_iter, xi=xi.value)


@validated(**PROBLEM, lam=positive())
def lambda_svm_dual(K, y, lam, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Vert's SVM, dual in Vert's signed coefficients :math:`\alpha^V` (no intercept).

    .. math::

        \max_{\alpha^V \in \mathbb R^n} 2\,{\alpha^V}^\top y - {\alpha^V}^\top K\alpha^V
        \quad\text{s.t.}\quad 0 \le y_i\alpha^V_i \le \frac1{2\lambda n},

    with :math:`f = \sum_i\alpha^V_iK(x_i, \cdot)`. Its optimal value is the primal value
    divided by :math:`\lambda` (it is :math:`1/\lambda` times the μ-dual of
    :func:`lambda_svm_mu_dual` under :math:`\mu_i = 2\lambda y_i\alpha^V_i`).

    Source: Vert (2004), "Retour au primal" (titled so, although it is the dual problem
    rewritten in :math:`\alpha`; Vert also writes :math:`\alpha \in \mathbb R^d` for
    :math:`\mathbb R^n`).

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    lam : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult
        As :func:`kernels_ref.svm.lambda_svm`: ``alpha`` :math:`= y\circ\alpha^V \ge 0`,
        ``b = 0``, ``dual_objective`` in Vert's scaling.

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = lambda_svm_dual(X @ X.T, [-1.0, 1.0], 1.0)
    >>> np.round(res.alpha, 6), round(res.dual_objective, 6)
    (array([0.25, 0.25]), 0.75)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    n = len(y)
    a = cp.Variable(n)  # Vert's signed alpha
    objective = 2 * (y @ a) - cp.sum_squares(L.T @ a)
    box = [cp.multiply(y, a) >= 0, cp.multiply(y, a) <= 1.0 / (2.0 * lam * n)]
    problem = cp.Problem(cp.Maximize(objective), box)
    n_iter = _solve(problem, solver, options, "Vert's SVM dual")
    return _vert_svm(y * a.value, K, y, lam, n_iter)


@validated(**PROBLEM, lam=positive())
def lambda_svm_mu_dual(K, y, lam, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""Vert's SVM, dual in the Lagrange multipliers :math:`\mu` of the margin constraints.

    .. math::

        \max_{0 \le \mu \le 1/n} \sum_i\mu_i - \frac1{4\lambda}\sum_{i,j}y_iy_j\mu_i\mu_j
        K(x_i, x_j), \qquad \beta_i = \frac{y_i\mu_i}{2\lambda}.

    Its optimal value equals the primal value :math:`\frac1n\sum_i\xi_i + \lambda\|f\|^2`
    (strong duality).

    Source: Vert (2004), "Lagrangien", "Minimisation en α", "Minimisation en ξ" and
    "Problème dual"; the KKT reading of :math:`\mu` ("Interprétation de μ").

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    lam : float > 0
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult
        ``alpha`` :math:`= \mu/(2\lambda)` (the book's convention, as
        :func:`kernels_ref.svm.lambda_svm`), ``b = 0``; but ``dual_objective`` is the value of
        the μ-dual above (:math:`\lambda` times Vert's α-form value).

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = lambda_svm_mu_dual(X @ X.T, [-1.0, 1.0], 1.0)
    >>> np.round(2 * 1.0 * res.alpha, 6), round(res.dual_objective, 6)  # mu = 2 lam alpha
    (array([0.5, 0.5]), 0.75)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    n = len(y)
    mu = cp.Variable(n)
    objective = cp.sum(mu) - cp.sum_squares(L.T @ cp.multiply(y, mu)) / (4.0 * lam)
    problem = cp.Problem(cp.Maximize(objective), [mu >= 0, mu <= 1.0 / n])
    n_iter = _solve(problem, solver, options, "Vert's SVM mu-dual")
    res = _vert_svm(mu.value / (2.0 * lam), K, y, lam, n_iter)
    m = 2.0 * lam * res.alpha
    u = m * y
    value = m.sum() - u @ K @ u / (4.0 * lam)
    return replace(res, dual_objective=float(value))


# --- nu-SVM -------------------------------------------------------------------------------


@validated(**PROBLEM, nu=rule(_feasible_nu, "nu"))
def nu_svm_primal(K, y, nu, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""ν-SVM, primal form.

    .. math::

        \min_{w, b, \xi, \rho} \tfrac12\|w\|^2 - \nu\rho + \frac1n\sum_i\xi_i
        \quad\text{s.t.}\quad y_i(\langle w, \phi(x_i)\rangle + b) \ge \rho - \xi_i,\quad
        \xi_i \ge 0,\quad \rho \ge 0.

    Source: Schölkopf, Smola, Williamson & Bartlett (2000), "New support vector algorithms",
    (12)–(13); the dual is in Valle Vidal (2009), "Soft Margin norma 1 (3)".

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    nu : float in (0, 1]
        At most :math:`2\min(n_+, n_-)/n` (otherwise the primal is unbounded).
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    PrimalResult
        With ``rho``; ``dual.alpha`` are the multipliers of the margin constraints.

    Raises
    ------
    ValueError
        When ``nu`` is outside (0, 1] or above :math:`2\min(n_+, n_-)/n`.

    Examples
    --------
    Points :math:`0, 1, 3, 4` labelled :math:`-,-,+,+`, :math:`\nu = 0.4`: the inner points
    carry :math:`\nu/2` each, :math:`w = 0.4`, :math:`\rho = 0.4`, value
    :math:`\tfrac12 w^2 - \nu\rho = -0.08`.

    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> p = nu_svm_primal(None, [-1.0, -1.0, 1.0, 1.0], 0.4, Phi=X)
    >>> np.round(p.w, 6), round(p.rho, 6), round(p.b, 6), round(p.objective, 6)
    (array([0.4]), 0.4, -0.8, -0.08)
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    n = len(y)
    # Solved for (n w, n b, n rho, n xi): the objective times n^2 (see the module notes).
    w = cp.Variable(L.shape[1])
    b = cp.Variable()
    xi = cp.Variable(n)
    rho = cp.Variable()
    margin = cp.multiply(y, L @ w + b) >= rho - xi
    objective = 0.5 * cp.sum_squares(w) - nu * n * rho + cp.sum(xi)
    problem = cp.Problem(cp.Minimize(objective), [margin, xi >= 0, rho >= 0])
    n_iter = _solve(problem, solver, options, "the nu-SVM primal")
    alpha = margin.dual_value / n
    dual = _nu_svm(alpha, b.value / n, rho.value / n, K, y, nu, n_iter)
    value = problem.value / n**2
    return _primal(
        value, w.value / n, B, b.value / n, dual, n_iter, xi=xi.value / n, rho=rho.value / n
    )


@validated(**PROBLEM, nu=rule(_feasible_nu, "nu"))
def nu_svm_dual(K, y, nu, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""ν-SVM, dual form; :math:`b` and :math:`\rho` are the dual values of its constraints.

    .. math::

        \max_{\alpha} -\tfrac12\sum_{i,j}\alpha_i\alpha_jy_iy_jK_{ij} \quad\text{s.t.}\quad
        \sum_iy_i\alpha_i = 0,\quad \sum_i\alpha_i \ge \nu,\quad 0 \le \alpha_i \le \frac1n.

    The dual value of :math:`\sum_i y_i\alpha_i = 0` is :math:`b`, that of
    :math:`\sum_i\alpha_i \ge \nu` is :math:`\rho`: on a free support vector
    :math:`y_i f(x_i) = \rho`.

    Source: Valle Vidal (2009), "Soft Margin norma 1 (3)"; Schölkopf et al. (2000).

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    nu : float in (0, 1]
        At most :math:`2\min(n_+, n_-)/n` (otherwise the dual is infeasible).
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVMResult
        With ``rho``; ``dual_objective`` :math:`= -\tfrac12\alpha^\top Q\alpha`. On data
        that are not separable, a small ν (:math:`\nu \le \nu_{\min}`, Chang & Lin 2001)
        gives the trivial optimum :math:`w = 0`, :math:`\rho = 0`, with
        :math:`\sum_i\alpha_i \ge \nu` slack. When a class has no free multiplier,
        :math:`b` and :math:`\rho` are not unique (only :math:`f - b` is).

    Raises
    ------
    ValueError
        When ``nu`` is outside (0, 1] or above :math:`2\min(n_+, n_-)/n`.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> res = nu_svm_dual(X @ X.T, [-1.0, -1.0, 1.0, 1.0], 0.4)
    >>> np.round(res.alpha, 6) + 0.0, round(res.rho, 6), round(res.b, 6)
    (array([0. , 0.2, 0.2, 0. ]), 0.4, -0.8)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    n = len(y)
    a = cp.Variable(n)  # n alpha, in [0, 1] (see the module notes)
    balance = y @ a == 0
    total = cp.sum(a) >= nu * n
    objective = -0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))
    problem = cp.Problem(cp.Maximize(objective), [balance, total, a >= 0, a <= 1.0])
    n_iter = _solve(problem, solver, options, "the nu-SVM dual")
    b, rho = balance.dual_value / n, total.dual_value / n
    return _nu_svm(a.value / n, b, rho, K, y, nu, n_iter)


# --- epsilon-SVR ----------------------------------------------------------------------------


@validated(**REGRESSION, C=positive(), epsilon=real(low=0.0))
def svr_primal(K, y, C, epsilon, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""ε-insensitive support vector regression, primal form.

    .. math::

        \min_{w, b, \xi, \xi^*} \tfrac12\|w\|^2 + C\sum_i(\xi_i + \xi_i^*) \quad\text{s.t.}\quad
        \begin{cases} y_i - \langle w, \phi(x_i)\rangle - b \le \varepsilon + \xi_i, \\
        \langle w, \phi(x_i)\rangle + b - y_i \le \varepsilon + \xi_i^*, \\
        \xi_i, \xi_i^* \ge 0, \end{cases}

    that is :math:`\tfrac12\|w\|^2 + C\sum_i |y_i - f(x_i)|_\varepsilon`. Valle Vidal (2009),
    "Support vector regression" (after Hastie, Tibshirani & Friedman, §12.3.6) writes
    :math:`\sum_i V_\varepsilon(y_i - f(x_i)) + \frac\lambda2\|\beta\|^2`: the same problem
    with :math:`C = 1/\lambda`.

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
        Real targets.
    C : float > 0
    epsilon : float >= 0
        Half-width of the tube; :math:`\varepsilon = 0` is least absolute deviations.
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    PrimalResult
        ``dual`` is an :class:`~kernels_ref.svr.SVRResult` whose ``alpha`` and
        ``alpha_star`` are the multipliers of the two tube constraints.

    Raises
    ------
    ValueError
        For bad data, :math:`C \le 0` or :math:`\varepsilon < 0` (or NaN, infinite).

    Examples
    --------
    Two points :math:`(\pm1, \pm1)` and :math:`\varepsilon = 1/2`: the flattest line in the
    tube is :math:`f(x) = x/2`.

    >>> X = np.array([[-1.0], [1.0]])
    >>> p = svr_primal(None, [-1.0, 1.0], 10.0, 0.5, Phi=X)
    >>> np.round(p.w, 6), round(p.b, 6) + 0.0, round(p.objective, 6)
    (array([0.5]), 0.0, 0.125)
    """
    K, L, B = _factor(K, Phi)
    options = solver_options
    n = len(y)
    w = cp.Variable(L.shape[1])
    b = cp.Variable()
    xi = cp.Variable(n)
    xi_star = cp.Variable(n)
    f = L @ w + b
    above = y - f <= epsilon + xi
    below = f - y <= epsilon + xi_star
    objective = 0.5 * cp.sum_squares(w) + C * cp.sum(xi + xi_star)
    problem = cp.Problem(cp.Minimize(objective), [above, below, xi >= 0, xi_star >= 0])
    n_iter = _solve(problem, solver, options, "the SVR primal")
    dual = _svr(above.dual_value, below.dual_value, b.value, K, y, C, epsilon, n_iter)
    return _primal(
        problem.value, w.value, B, b.value, dual, n_iter, xi=xi.value, xi_star=xi_star.value
    )


@validated(**REGRESSION, C=positive(), epsilon=real(low=0.0))
def svr_dual(K, y, C, epsilon, *, Phi=None, solver=cp.CLARABEL, solver_options=None):
    r"""ε-insensitive support vector regression, dual form in :math:`(\alpha, \alpha^*)`.

    .. math::

        \begin{aligned}
        &\max_{\alpha, \alpha^*} \sum_iy_i(\alpha_i - \alpha_i^*)\\
        &\quad - \varepsilon\sum_i(\alpha_i + \alpha_i^*)\\
        &\quad - \tfrac12\sum_{i,j}(\alpha_i - \alpha_i^*)(\alpha_j - \alpha_j^*)K_{ij}\\
        &\text{s.t.}\ \sum_i(\alpha_i - \alpha_i^*) = 0,\\
        &\phantom{\text{s.t.}}\ 0 \le \alpha_i, \alpha_i^* \le C,
        \end{aligned}

    :math:`f(x) = \sum_i(\alpha_i - \alpha_i^*)K(x_i, x) + b`, :math:`b` the dual value of the
    equality constraint. Valle Vidal (2009), "Support vector regression (3)", names the
    multipliers the other way round (:math:`\alpha^* - \alpha`), and prints
    :math:`(\alpha^* + \alpha)` where the difference belongs, without the :math:`\tfrac12`.

    Parameters
    ----------
    K : array_like, shape (n, n) or None
    y : array_like, shape (n,)
    C : float > 0
    epsilon : float >= 0
        Half-width of the tube; :math:`\varepsilon = 0` is least absolute deviations.
    Phi : array_like, shape (n, D), optional
    solver : str or None
    solver_options : dict, optional

    Returns
    -------
    SVRResult

    Raises
    ------
    ValueError
        For bad data, :math:`C \le 0` or :math:`\varepsilon < 0` (or NaN, infinite).

    Examples
    --------
    >>> X = np.array([[-1.0], [1.0]])
    >>> res = svr_dual(X @ X.T, [-1.0, 1.0], 10.0, 0.5)
    >>> np.round(res.coef, 6), round(res.dual_objective, 6), round(res.primal_objective, 6)
    (array([-0.25,  0.25]), 0.125, 0.125)
    """
    K, L, _ = _factor(K, Phi)
    options = solver_options
    n = len(y)
    a = cp.Variable(n)
    a_star = cp.Variable(n)
    coef = a - a_star
    balance = cp.sum(coef) == 0
    objective = y @ coef - epsilon * cp.sum(a + a_star) - 0.5 * cp.sum_squares(L.T @ coef)
    box = [a >= 0, a <= C, a_star >= 0, a_star <= C]
    problem = cp.Problem(cp.Maximize(objective), [balance, *box])
    n_iter = _solve(problem, solver, options, "the SVR dual")
    return _svr(a.value, a_star.value, balance.dual_value, K, y, C, epsilon, n_iter)
