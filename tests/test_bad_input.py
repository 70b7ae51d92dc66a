"""The bad-input contract (SPEC §2) of every public function, table-driven.

One row of :data:`ROWS` per public function (every name of each module's ``__all__`` that is a
function; dataclasses and constants are not called). A row gives a factory of valid arguments
and the cases that no rule expresses (``extra``); the role of each argument is read from the
function's declaration (``func.rules``: :func:`kernels_ref._validation.validated`), the one
copy of the roles. The scenarios are generated from them:

- arrays: NaN, +inf, -inf, complex, strings, ``None``, booleans, one dimension too many or too
  few, empty, a length that does not match the other arguments; Gram matrices also non-square,
  non-symmetric and not PSD (a :class:`NotPSDWarning`, exactly one, or an error where the
  function cannot proceed); labels also 0/1, one class, other values;
- scalars: 0, negative, NaN, +-inf, a string, a complex number, a bool, ``None`` (unless
  optional) and out of range, each by the rule of its kind (:data:`BAD_SCALARS`);
- result objects of the wrong type: a ``TypeError`` naming the argument and the type expected;
- iteration limits: 0 is rejected, 1 runs (a :class:`ConvergenceWarning` at most);
- one sample: a clear error or an answer, never a crash of another kind.

Each error is a ``ValueError`` or ``TypeError`` whose message starts with the name of the
argument (``match``). Then, per row: the inputs are never modified, and integer, list, float32,
read-only and Fortran-ordered inputs give the answer of the float64, C-ordered input with the
same values. No expected value is computed by the code under test, except the answers compared
in that last test. Every call runs under a time limit (:func:`time_limit`, SIGALRM): a hang fails.
"""

import dataclasses
import math
import signal
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np
import pytest

from kernels_ref import (
    bounds,
    cca,
    clustering,
    cvx,
    exercises,
    feature_space,
    kernels,
    losses,
    model_selection,
    pca,
    perceptron,
    representer,
    ridge,
    smo,
    svm,
    svr,
)
from kernels_ref.exceptions import ConvergenceWarning, NotPSDWarning, NotSeparableError

# --- a time limit on every test of this module -------------------------------------------------

TIME_LIMIT = 20  # seconds; the slowest call of this module takes well under 1 s


@pytest.fixture(autouse=True)
def time_limit():
    """Fail a test that runs longer than TIME_LIMIT seconds instead of letting it hang."""

    def on_alarm(signum, frame):
        raise TimeoutError(f"the call did not return within {TIME_LIMIT} s: a hang?")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(TIME_LIMIT)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# --- valid data: small, integer-valued where possible (so that int inputs are exact) -----------

X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [3.0, 3.0], [3.0, 4.0], [4.0, 3.0]])
Y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])  # separable by x1 + x2 = 3.5
XT = np.array([[1.0, 1.0], [2.0, 3.0]])
K = (1.0 + X @ X.T) ** 2  # polynomial kernel of degree 2: PSD, integer entries
KT = (1.0 + XT @ X.T) ** 2  # test Gram matrix, shape (2, 6)
T = np.array([0.0, 1.0, 1.0, 3.0, 4.0, 2.0])  # regression targets
ALPHA = np.array([0.5, 0.0, 0.0, 0.0, 0.5, 0.0])  # y . alpha = 0
N = len(X)


def _fit_l1():
    return svm.soft_margin_l1(K, Y, 1.0)


def _fit_nu():
    return svm.nu_svm(K, Y, 0.5)


def _fit_pca():
    return pca.kernel_pca(K, n_components=2)


def _fit_svr():
    return svr.svr(K, T, 1.0, 0.5)


def _primal():
    return cvx.hard_margin_primal(K, Y)


def _problem():
    x = cp.Variable()
    return cp.Problem(cp.Minimize((x - 1) ** 2))


def _fit_l1_at_1(K, y):
    return svm.soft_margin_l1(K, y, 1.0)


def _gram_of_sigma(sigma):
    return (1.0 + X @ X.T / sigma**2) ** 2


FOLDS = model_selection.k_fold(N, 3, y=Y, seed=0)  # 3 folds of one point of each class
LEARNER_ROWS = [
    ("fit not callable", {"fit": "soft_margin_l1"}, ValueError, r"^fit must be callable"),
    ("predict not callable", {"predict": None}, ValueError, r"^predict must be callable"),
    ("loss unknown", {"loss": "hinge"}, ValueError, r"^loss must be one of"),
    ("predict of the wrong size", {"predict": lambda r, K: np.ones(3)}, ValueError, r"^predict"),
]
FOLDS_ROWS = [
    ("folds empty", {"folds": ()}, ValueError, r"^folds must be a non-empty iterable"),
    ("folds of an array", {"folds": np.zeros((3, 2))}, ValueError, r"^folds must be"),
    ("folds not pairs", {"folds": [(np.arange(3),)]}, ValueError, r"^folds must contain"),
    ("folds out of range", {"folds": [([0, 1, 2], [6])]}, ValueError, r"^folds: the validation"),
    ("folds overlap", {"folds": [([0, 1, 2], [2, 3])]}, ValueError, r"^folds: a validation set"),
    ("folds of floats", {"folds": [([0.0, 1.0], [3.0])]}, ValueError, r"^folds: the train"),
]
GRID_ROWS = [
    (
        "C_grid with 0",
        {"C_grid": np.array([0.0, 1.0])},
        ValueError,
        r"^C_grid must contain positive",
    ),
    (
        "C_grid decreasing",
        {"C_grid": np.array([1.0, 0.1])},
        ValueError,
        r"^C_grid must be strictly",
    ),
]


# --- what is bad for each kind of argument --------------------------------------------------

NAN, INF = math.nan, math.inf
#: Bad values of each kind of scalar; a ``bool`` flag takes ``TypeError``, the others
#: ``ValueError``. ``(kind, True)`` in a row marks an optional argument (``None`` valid).
BAD_SCALARS = {
    "pos": [0, 0.0, -1.0, NAN, INF, -INF, "1", 1j, True, None, [1.0]],
    "pos_inf": [0.0, -1.0, NAN, -INF, "1", 1j, True, None],
    "nonneg": [-1.0, -1e-300, NAN, INF, "0", 1j, True, None],
    "real": [NAN, INF, -INF, "1", 1 + 0j, True, None],
    "int1": [0, -1, np.int64(0), 1.5, 2.0, NAN, INF, "2", True, None],
    "nu": [0.0, -0.25, 1.5, NAN, INF, "0.5", True, None],
    "prob_open": [0.0, 1.0, -0.25, 1.5, NAN, INF, "0.5", 0.5j, True, None],
    "unit": [-0.25, 1.5, NAN, INF, -INF, "0.5", 0.5j, True, None],
    "bool": ["yes", 1, 0, 1.0, None],
    "option": ["no such option", 1, 1.0],
    "callable": [0.5, "f", None],
    "seed": [-1, "0", 1.5, True, [1, 2]],
    "interval": [-1.0, NAN, INF, -INF, "1", 1j, True, None],  # [1, N) of vc_bound's D
}

# --- roles of the arguments --------------------------------------------------------------------


@dataclass(frozen=True)
class Role:
    """How an array argument is validated.

    ``kind``: ``data`` (2-D real), ``gram`` (square, symmetric, PSD tested with a warning),
    ``gram_nopsd`` (square, symmetric, not PSD-tested), ``gram_raise`` (not PSD is an error),
    ``matrix`` (2-D, rectangular), ``labels`` (+-1), ``vector`` (1-D real), ``values`` (any
    shape: the losses), ``cluster_labels`` (integers in [0, k)).
    ``samples``: the axes along which the array has one entry per sample of the row's group
    (``None``: not tied to the other arguments). ``optional``: ``None`` is valid.
    """

    kind: str
    samples: tuple = (0,)
    optional: bool = False


@dataclass
class Row:
    """One public function: how to call it validly, and what each argument is.

    The roles of the arguments (``arrays``, ``scalars``, ``results``, ``iteration``) are read
    from the function's declaration (``func.rules``, :func:`kernels_ref._validation.validated`);
    a row does not give them (the declaration is the one copy).
    """

    name: str
    func: Callable
    make: Callable  # () -> dict of valid keyword arguments
    arrays: dict = field(default_factory=dict)  # name -> Role
    scalars: dict = field(default_factory=dict)  # name -> kind (see BAD_SCALARS), or (kind, opt)
    results: tuple = ()  # arguments that are result objects
    iteration: str | None = None  # name of the iteration limit
    extra: list = field(default_factory=list)  # (label, overrides, exception, pattern)
    one_sample: bool = True  # whether the "one sample" scenario applies
    types: bool = True  # whether the input-type equivalence applies

    def __post_init__(self):
        rules = getattr(self.func, "rules", None)
        assert rules is not None, f"{self.name} has no @validated declaration"
        assert not (self.arrays or self.scalars or self.results or self.iteration), (
            f"{self.name}: the roles come from the declaration, not from the row"
        )
        present = self.make()
        results = []
        for name, rule in rules.items():
            kind = ARRAY_KINDS.get(rule.kind)
            if kind is not None:
                if present.get(name) is not None:  # e.g. Phi, when K is given instead
                    self.arrays[name] = Role(kind, rule.samples, rule.optional)
            elif rule.kind in BAD_SCALARS:
                self.scalars[name] = (rule.kind, rule.optional)
            elif rule.kind == "result":
                results.append(name)
            elif rule.kind == "iterations":
                self.iteration = name
            # any other kind (a solver, a mask, a dimension...): the row's extra cases
        self.results = tuple(results)


#: The kinds of array of the declarations, as roles (a starting point is a vector; labels of
#: the general SMO form are signs: one class allowed).
ARRAY_KINDS = {
    kind: kind
    for kind in (
        "data",
        "gram",
        "gram_nopsd",
        "gram_raise",
        "matrix",
        "labels",
        "signs",
        "vector",
        "values",
        "cluster_labels",
    )
} | {"start": "vector"}


# --- the table ----------------------------------------------------------------------------------

Y_COLUMNS = [("Y columns", {"Y": XT[:, :1]}, ValueError, r"^Y must have 2 columns")]
CVX_SOLVER = [
    ("solver unknown", {"solver": "NO_SUCH_SOLVER"}, ValueError, r"^solver must"),
    ("solver_options list", {"solver_options": [("max_iter", 3)]}, ValueError, r"^solver_options"),
    ("solver_options key", {"solver_options": {"no_such": 1}}, ValueError, r"^solver_options"),
    ("Phi not of K", {"Phi": 2.0 * X}, ValueError, r"^Phi"),
]


def _cvx_row(name, param=None, value=1.0, regression_targets=False):
    func = getattr(cvx, name)
    y = T if regression_targets else Y
    if param is None:
        make = lambda: {"K": K, "y": y}  # noqa: E731
    elif param == "C_epsilon":
        make = lambda: {"K": K, "y": y, "C": 1.0, "epsilon": 0.5}  # noqa: E731
    else:
        make = lambda: {"K": K, "y": y, param: value}  # noqa: E731
    k_none = ("K None", {"K": None}, ValueError, r"^K and Phi are both None")
    return Row(f"cvx.{name}", func, make, extra=[*CVX_SOLVER, k_none])


ROWS = [
    # kernels
    Row(
        "kernels.linear_kernel",
        kernels.linear_kernel,
        lambda: {"X": X, "Y": XT},
        extra=Y_COLUMNS,
    ),
    Row(
        "kernels.polynomial_kernel",
        kernels.polynomial_kernel,
        lambda: {"X": X, "Y": XT, "degree": 2, "c": 1.0},
        extra=[
            *Y_COLUMNS,
            # Rousseau's "d > 0": a fractional or float degree is not a kernel (chapter 1)
            ("degree 0.5", {"degree": 0.5}, ValueError, r"^degree must be an integer, got 0.5"),
            ("degree float64", {"degree": np.float64(2.0)}, ValueError, r"^degree must be an int"),
        ],
    ),
    Row(
        "kernels.gaussian_kernel",
        kernels.gaussian_kernel,
        lambda: {"X": X, "Y": XT, "sigma": 2.0},
        extra=Y_COLUMNS,
    ),
    Row(
        "kernels.sigmoid_kernel",
        kernels.sigmoid_kernel,
        lambda: {"X": X, "Y": XT, "gamma": 0.5, "c": -1.0},
        extra=Y_COLUMNS,
    ),
    Row(
        "kernels.gram_loop",
        kernels.gram_loop,
        lambda: {"k": np.dot, "X": X, "Y": XT},
        extra=[("k not callable", {"k": "dot"}, ValueError, r"^k must be callable"), *Y_COLUMNS],
    ),
    Row(
        "kernels.spectrum_kernel",
        kernels.spectrum_kernel,
        lambda: {"S": ["ACGU", "CGUA", "GUAC"], "T": None, "k": 2},
        extra=[
            ("S a string", {"S": "ACGU"}, ValueError, r"^S must be a list or tuple of strings"),
            ("S empty", {"S": []}, ValueError, r"^S must contain at least one string"),
            ("S of numbers", {"S": ["AC", 1.0]}, ValueError, r"^S must contain only strings"),
            ("S of None", {"S": [None]}, ValueError, r"^S must contain only strings"),
            ("T of bytes", {"T": [b"AC"]}, ValueError, r"^T must contain only strings"),
            ("T an array", {"T": np.zeros(2)}, ValueError, r"^T must contain only strings"),
        ],
        one_sample=False,
    ),
    Row(
        "kernels.min_eigenvalue",
        kernels.min_eigenvalue,
        lambda: {"K": K},
    ),
    Row(
        "kernels.is_psd",
        kernels.is_psd,
        lambda: {"K": K, "tol": 1e-9},
    ),
    Row(
        "kernels.sigma_from_rousseau",
        kernels.sigma_from_rousseau,
        lambda: {"sigma": 2.0},
    ),
    Row(
        "kernels.sigma_to_rousseau",
        kernels.sigma_to_rousseau,
        lambda: {"sigma": 1.0},
    ),
    # feature_space
    Row(
        "feature_space.polynomial_feature_map",
        feature_space.polynomial_feature_map,
        lambda: {"X": X, "degree": 2, "c": 1.0},
    ),
    Row(
        "feature_space.polynomial_feature_dimension",
        feature_space.polynomial_feature_dimension,
        lambda: {"d": 2, "degree": 3, "homogeneous": False},
    ),
    Row(
        "feature_space.finite_feature_map",
        feature_space.finite_feature_map,
        lambda: {"K": K, "tol": 1e-9},
    ),
    Row(
        "feature_space.kernel_distance",
        feature_space.kernel_distance,
        lambda: {"K_xy": KT, "diag_x": np.diag((1.0 + XT @ XT.T) ** 2), "diag_y": np.diag(K)},
        extra=[("diag_x length", {"diag_x": np.ones(3)}, ValueError, r"^diag_x")],
    ),
    Row(
        "feature_space.gaussian_distance",
        feature_space.gaussian_distance,
        lambda: {"X": X, "Y": XT, "sigma": 2.0},
        extra=Y_COLUMNS,
    ),
    Row(
        "feature_space.distance_to_set",
        feature_space.distance_to_set,
        lambda: {"K_test": KT, "diag_test": np.diag((1.0 + XT @ XT.T) ** 2), "K_set": K},
        extra=[("diag_test length", {"diag_test": np.ones(3)}, ValueError, r"^diag_test")],
    ),
    Row(
        "feature_space.nearest_centroid",
        feature_space.nearest_centroid,
        lambda: {"K": K, "y": Y},
    ),
    Row(
        "feature_space.nearest_centroid_predict",
        feature_space.nearest_centroid_predict,
        lambda: {"result": feature_space.nearest_centroid(K, Y), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "feature_space.center_gram",
        feature_space.center_gram,
        lambda: {"K": K},
    ),
    Row(
        "feature_space.center_test_gram",
        feature_space.center_test_gram,
        lambda: {"K_test": KT, "K_train": K},
    ),
    # clustering
    Row(
        "clustering.cluster_mean_distances",
        clustering.cluster_mean_distances,
        lambda: {"K": K, "labels": np.array([0, 0, 0, 1, 1, 1]), "n_clusters": 2},
        extra=[("n_clusters > n", {"n_clusters": 7}, ValueError, r"^n_clusters")],
    ),
    Row(
        "clustering.kernel_kmeans",
        clustering.kernel_kmeans,
        lambda: {"K": K, "n_clusters": 2, "n_init": 2, "max_iter": 20, "seed": 0},
        extra=[
            ("n_clusters > n", {"n_clusters": 7}, ValueError, r"^n_clusters"),
            ("init out of range", {"init": np.array([0, 1, 2, 0, 1, 2])}, ValueError, r"^init"),
            ("init wrong length", {"init": np.array([0, 1])}, ValueError, r"^init"),
        ],
    ),
    Row(
        "clustering.kernel_knn",
        clustering.kernel_knn,
        lambda: {"K": K, "y": Y, "k": 3},
        extra=[("k > n", {"k": 7}, ValueError, r"^k ")],
    ),
    Row(
        "clustering.kernel_knn_predict",
        clustering.kernel_knn_predict,
        lambda: {
            "result": clustering.kernel_knn(K, Y, 3),
            "K_test": KT,
            "diag_test": np.diag((1.0 + XT @ XT.T) ** 2),
        },
        extra=[
            ("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test"),
            ("diag_test length", {"diag_test": np.ones(3)}, ValueError, r"^diag_test"),
        ],
        one_sample=False,
    ),
    # perceptron
    Row(
        "perceptron.perceptron_primal",
        perceptron.perceptron_primal,
        lambda: {"X": X, "y": Y, "eta": 1.0, "max_epochs": 100, "bias_update": "R2"},
        extra=[("bias_update unknown", {"bias_update": "R3"}, ValueError, r"^bias_update")],
    ),
    Row(
        "perceptron.perceptron_dual",
        perceptron.perceptron_dual,
        lambda: {"K": K, "y": Y, "max_epochs": 100, "bias_update": "unit"},
        extra=[("bias_update unknown", {"bias_update": 1}, ValueError, r"^bias_update")],
    ),
    Row(
        "perceptron.perceptron_dual_predict",
        perceptron.perceptron_dual_predict,
        lambda: {"result": perceptron.perceptron_dual(K, Y), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "perceptron.hyperplane_distance",
        perceptron.hyperplane_distance,
        lambda: {"X": X, "w": np.array([1.0, 1.0]), "b": -3.0, "signed": False},
        extra=[
            ("w length", {"w": np.ones(3)}, ValueError, r"^w "),
            ("w zero", {"w": np.zeros(2)}, ValueError, r"^w must not be zero"),
        ],
    ),
    Row(
        "perceptron.perceptron_criterion",
        perceptron.perceptron_criterion,
        lambda: {"w": np.array([1.0, 1.0]), "b": -3.0, "X": X, "y": Y},
        extra=[("w length", {"w": np.ones(3)}, ValueError, r"^w ")],
    ),
    Row(
        "perceptron.perceptron_criterion_gradient",
        perceptron.perceptron_criterion_gradient,
        lambda: {"w": np.array([1.0, 1.0]), "b": -3.0, "X": X, "y": Y},
        extra=[("w length", {"w": np.ones(3)}, ValueError, r"^w ")],
    ),
    # losses
    *[
        Row(
            f"losses.{name}",
            getattr(losses, name),
            lambda: {"z": T - 2.0},
        )
        for name in (
            "zero_one_loss",
            "hinge_loss",
            "squared_hinge_loss",
            "perceptron_loss",
            "logistic_loss",
        )
    ],
    Row(
        "losses.square_loss",
        losses.square_loss,
        lambda: {"r": T - 2.0},
    ),
    Row(
        "losses.epsilon_insensitive_loss",
        losses.epsilon_insensitive_loss,
        lambda: {"r": T - 2.0, "epsilon": 0.5},
    ),
    Row(
        "losses.scaled_epsilon_insensitive_loss",
        losses.scaled_epsilon_insensitive_loss,
        lambda: {"r": T - 2.0, "epsilon": 0.5, "sigma": 2.0},
    ),
    Row(
        "losses.population_minimiser",
        losses.population_minimiser,
        lambda: {"loss": "square", "p": np.array([0.0, 0.25, 0.5, 1.0])},
        extra=[
            ("loss unknown", {"loss": "huber"}, ValueError, r"^loss must be one of"),
            ("loss not a str", {"loss": 1}, ValueError, r"^loss must be one of"),
            ("p above 1", {"p": np.array([0.5, 1.5])}, ValueError, r"^p must lie in"),
            ("p negative", {"p": -0.25}, ValueError, r"^p must lie in"),
        ],
    ),
    Row(
        "losses.huber_loss",
        losses.huber_loss,
        lambda: {"r": T - 2.0, "c": 1.0},
    ),
    # bounds
    Row(
        "bounds.bias_augmented",
        bounds.bias_augmented,
        lambda: {"X": X, "R": 2.0},
    ),
    Row(
        "bounds.novikoff_bound",
        bounds.novikoff_bound,
        lambda: {"R": 2.0, "rho": 0.5},
    ),
    Row(
        "bounds.vc_bound",
        bounds.vc_bound,
        lambda: {"R_emp": 0.1, "D": 3, "N": 100, "delta": 0.05, "C": 1.0},
        extra=[
            ("D = N", {"D": 100}, ValueError, r"^D must lie in \[1\.0, 100\)"),
            ("D < 1", {"D": 0.5}, ValueError, r"^D must"),
            ("N = 1", {"N": 1, "D": 1}, ValueError, r"^D must"),
        ],
    ),
    Row(
        "bounds.vc_dimension_margin_bound",
        bounds.vc_dimension_margin_bound,
        lambda: {"R": 2.0, "rho": 0.5, "d": 3},
        extra=[
            ("rho > R", {"rho": 3.0}, ValueError, r"^rho must be <= R"),
            *[
                (f"d={d!r}", {"d": d}, ValueError, r"^d must")
                for d in [0, -1, 1.5, 2.0, math.nan, -math.inf, "2", True, None]
            ],
        ],
    ),
    *[
        Row(
            f"bounds.{name}",
            getattr(bounds, name),
            make,
        )
        for name, make, scalars in [
            ("functional_margins", lambda: {"f": T - 2.0, "y": Y}, {}),
            ("geometric_margin", lambda: {"f": T - 2.0, "y": Y, "w_norm": 2.0}, {"w_norm": "pos"}),
            (
                "margin_slacks",
                lambda: {"f": T - 2.0, "y": Y, "gamma": 0.5, "w_norm": 2.0},
                {"gamma": "pos", "w_norm": "pos"},
            ),
        ]
    ],
    Row(
        "bounds.margin_bound",
        bounds.margin_bound,
        lambda: {"m": 10**6, "R": 1.0, "gamma": 0.5, "delta": 0.05},
        extra=[
            ("m <= 64 R^2/gamma^2", {"m": 256}, ValueError, r"^m must exceed 64 R\^2/gamma\^2"),
            ("gamma > R", {"gamma": 1.5}, ValueError, r"^gamma must be <= R"),
        ],
    ),
    *[
        Row(
            f"bounds.{name}",
            getattr(bounds, name),
            lambda: {"xi": np.abs(T - 2.0), "R": 1.0, "gamma": 0.5, "delta": 0.05, "c": 1.0},
            extra=[("xi negative", {"xi": T - 2.0}, ValueError, r"^xi must be >= 0")],
        )
        for name in ("margin_slack_bound_l2", "margin_slack_bound_l1")
    ],
    Row(
        "bounds.sv_compression_bound",
        bounds.sv_compression_bound,
        lambda: {"m": 20, "n_sv": 3, "delta": 0.05},
        extra=[("n_sv = m", {"n_sv": 20}, ValueError, r"^n_sv must lie in \[1, 19\]")],
    ),
    Row(
        "bounds.informative_sample_size",
        bounds.informative_sample_size,
        lambda: {"bound": lambda m: 100.0 / m, "m_min": 1, "m_max": 10**6},
        extra=[
            ("bound not callable", {"bound": 0.5}, ValueError, r"^bound must be callable"),
            ("bound None", {"bound": None}, ValueError, r"^bound must be callable"),
            ("m_max < m_min", {"m_min": 10, "m_max": 5}, ValueError, r"^m_max must lie in \[10,"),
            ("never below 1", {"bound": lambda m: 2.0}, ValueError, r"^bound is >= 1"),
        ],
    ),
    # svm
    Row(
        "svm.hard_margin",
        svm.hard_margin,
        lambda: {"K": K, "y": Y, "tol": 1e-8, "min_margin": 1e-6},
    ),
    Row(
        "svm.soft_margin_l1",
        svm.soft_margin_l1,
        lambda: {"K": K, "y": Y, "C": 1.0, "tol": 1e-8, "shrinking": True, "alpha0": ALPHA},
        extra=[
            ("alpha0 above C", {"alpha0": np.full(N, 2.0)}, ValueError, r"^alpha0 must satisfy 0"),
            ("alpha0 negative", {"alpha0": -ALPHA}, ValueError, r"^alpha0 must satisfy 0"),
            (
                "alpha0 y.alpha0 != 0",
                {"alpha0": np.eye(N)[0]},
                ValueError,
                r"^alpha0 must satisfy y",
            ),
        ],
    ),
    Row(
        "svm.soft_margin_l2",
        svm.soft_margin_l2,
        lambda: {"K": K, "y": Y, "C": 1.0, "tol": 1e-8},
    ),
    Row(
        "svm.lambda_svm",
        svm.lambda_svm,
        lambda: {"K": K, "y": Y, "lam": 0.1, "tol": 1e-8},
    ),
    Row(
        "svm.nu_svm",
        svm.nu_svm,
        lambda: {"K": K, "y": Y, "nu": 0.5, "tol": 1e-8},
        extra=[
            (
                "nu infeasible",
                {"y": np.array([-1.0, 1.0, 1.0, 1.0, 1.0, 1.0]), "nu": 0.5},
                ValueError,
                r"^nu = 0.5 is infeasible",
            )
        ],
    ),
    Row(
        "svm.kkt_violation",
        svm.kkt_violation,
        lambda: {"alpha": ALPHA, "K": K, "y": Y, "C": 1.0, "p": -np.ones(N), "bias": True},
    ),
    Row(
        "svm.kkt_violation_l2",
        svm.kkt_violation_l2,
        lambda: {"alpha": ALPHA, "K": K, "y": Y, "C": 1.0},
    ),
    Row(
        "svm.intercept_free_sv",
        svm.intercept_free_sv,
        lambda: {"alpha": ALPHA, "K": K, "y": Y, "C": 1.0},
    ),
    Row(
        "svm.intercept_max_min",
        svm.intercept_max_min,
        lambda: {"alpha": ALPHA, "K": K, "y": Y},
    ),
    Row(
        "svm.svm_predict",
        svm.svm_predict,
        lambda: {"result": _fit_l1(), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "svm.margin",
        svm.margin,
        lambda: {"result": _fit_l1(), "K": K},
        extra=[("K size", {"K": K[:5, :5]}, ValueError, r"^K must be the 6 x 6")],
        one_sample=False,
    ),
    Row(
        "svm.primal_w",
        svm.primal_w,
        lambda: {"result": _fit_l1(), "Phi": X},
        extra=[("Phi rows", {"Phi": X[:5]}, ValueError, r"^Phi")],
        one_sample=False,
    ),
    Row(
        "svm.c_from_nu",
        svm.c_from_nu,
        lambda: {"result": _fit_nu()},
    ),
    Row(
        "svm.nu_to_c_svm",
        svm.nu_to_c_svm,
        lambda: {"result": _fit_nu(), "K": K},
        one_sample=False,
    ),
    Row(
        "svm.c_from_lambda",
        svm.c_from_lambda,
        lambda: {"lam": 0.1, "n": 5},
    ),
    Row(
        "svm.lambda_from_c",
        svm.lambda_from_c,
        lambda: {"C": 2.0, "n": 5},
    ),
    # model_selection
    Row(
        "model_selection.k_fold",
        model_selection.k_fold,
        lambda: {"n": N, "n_folds": 3, "y": Y, "seed": 0},
        extra=[
            ("n_folds > n", {"n_folds": 7}, ValueError, r"^n_folds must lie in \[2, 6\]"),
            ("n_folds 1", {"n_folds": 1}, ValueError, r"^n_folds must lie in \[2, 6\]"),
            ("n 1", {"n": 1, "y": None}, ValueError, r"^n must lie in \[2, inf\]"),
            ("class smaller than n_folds", {"n_folds": 4}, ValueError, r"^y: class -1 has 3"),
        ],
    ),
    Row(
        "model_selection.train_validation_split",
        model_selection.train_validation_split,
        lambda: {"n": N, "n_validation": 2, "y": Y, "seed": 0},
        extra=[
            ("n_validation = n", {"n_validation": N}, ValueError, r"^n_validation must lie in"),
            ("class of one", {"y": np.r_[np.ones(5), -1.0]}, ValueError, r"^y: class -1 has 1"),
        ],
    ),
    Row(
        "model_selection.validation_error",
        model_selection.validation_error,
        lambda: {
            "K": K,
            "y": Y,
            "fit": _fit_l1_at_1,
            "predict": svm.svm_predict,
            "folds": FOLDS,
            "loss": "misclassification",
        },
        extra=[*LEARNER_ROWS, *FOLDS_ROWS],
    ),
    Row(
        "model_selection.grid_search_C",
        model_selection.grid_search_C,
        lambda: {
            "K": K,
            "y": Y,
            "fit": svm.soft_margin_l1,
            "predict": svm.svm_predict,
            "C_grid": np.array([0.1, 1.0, 10.0]),
            "folds": FOLDS,
            "warm_start": False,
        },
        extra=[*LEARNER_ROWS, *FOLDS_ROWS, *GRID_ROWS],
    ),
    Row(
        "model_selection.grid_search",
        model_selection.grid_search,
        lambda: {
            "K": K,
            "y": Y,
            "fit": svm.soft_margin_l1,
            "predict": svm.svm_predict,
            "grid": np.array([0.1, 1.0, 10.0]),
            "folds": FOLDS,
            "param": "C",
            "more_regularised": "smaller",
            "warm_start": False,
        },
        extra=[
            *LEARNER_ROWS,
            *FOLDS_ROWS,
            ("grid decreasing", {"grid": np.array([1.0, 0.1])}, ValueError, r"^grid must be"),
            ("param not a name", {"param": 1}, ValueError, r"^param must be the name"),
            ("direction unknown", {"more_regularised": "C"}, ValueError, r"^more_regularised"),
        ],
    ),
    Row(
        "model_selection.median_heuristic_sigma",
        model_selection.median_heuristic_sigma,
        lambda: {"X": X},
        extra=[("one row", {"X": X[:1]}, ValueError, r"^X must have at least 2 rows")],
    ),
    Row(
        "model_selection.grid_search_C_sigma",
        model_selection.grid_search_C_sigma,
        lambda: {
            "gram": _gram_of_sigma,
            "y": Y,
            "fit": svm.soft_margin_l1,
            "predict": svm.svm_predict,
            "C_grid": np.array([0.1, 10.0]),
            "sigma_grid": np.array([1.0, 4.0]),
            "folds": FOLDS,
        },
        extra=[
            *LEARNER_ROWS,
            *FOLDS_ROWS,
            *GRID_ROWS,
            ("gram not callable", {"gram": K}, ValueError, r"^gram must be callable"),
            ("gram not square", {"gram": lambda s: K[:, :5]}, ValueError, r"^gram\(1\) must"),
            ("gram of NaN", {"gram": lambda s: K * np.nan}, ValueError, r"^gram\(1\) contains"),
            (
                "gram of another size",
                {"gram": lambda s: K if s < 2 else K[:5, :5]},
                ValueError,
                r"^gram\(4\) must be 6 x 6",
            ),
        ],
    ),
    Row(
        "svm.c_book_from_lambda",
        svm.c_book_from_lambda,
        lambda: {"lam": 0.1, "n": 5},
    ),
    Row(
        "svm.penalty_lambda_from_c",
        svm.penalty_lambda_from_c,
        lambda: {"C": 2.0},
    ),
    # pca
    Row(
        "pca.linear_pca",
        pca.linear_pca,
        lambda: {"X": X, "n_components": 2},
        extra=[("n_components > d", {"n_components": 3}, ValueError, r"^n_components")],
    ),
    Row(
        "pca.kernel_pca",
        pca.kernel_pca,
        lambda: {"K": K, "n_components": 2, "tol": 1e-10},
        extra=[("n_components > n", {"n_components": 7}, ValueError, r"^n_components")],
    ),
    Row(
        "pca.kernel_pca_transform",
        pca.kernel_pca_transform,
        lambda: {"result": _fit_pca(), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    # cca
    Row(
        "cca.linear_cca",
        cca.linear_cca,
        lambda: {"X1": X, "X2": X[:, ::-1] ** 2, "n_components": 1, "reg": 0.1, "tol": 1e-12},
        extra=[("n_components > d", {"n_components": 3}, ValueError, r"^n_components must lie")],
    ),
    Row(
        "cca.kernel_cca",
        cca.kernel_cca,
        lambda: {"K1": K, "K2": X @ X.T, "reg": 0.1, "n_components": 1, "center": True},
        extra=[
            # the centred X @ X.T has rank 2: two pairs at most
            ("n_components > rank", {"n_components": 3}, ValueError, r"^n_components must lie"),
        ],
    ),
    Row(
        "cca.kernel_cca_transform",
        cca.kernel_cca_transform,
        lambda: {
            "result": cca.kernel_cca(K, X @ X.T, reg=0.1, n_components=1),
            "K_test": KT,
            "view": 1,
        },
        extra=[
            ("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test"),
            ("view 0", {"view": 0}, ValueError, r"^view"),
            ("view 3", {"view": 3}, ValueError, r"^view"),
            ("view str", {"view": "1"}, ValueError, r"^view"),
        ],
        one_sample=False,
    ),
    Row(
        "cca.kernel_cca_correlations",
        cca.kernel_cca_correlations,
        lambda: {
            "result": cca.kernel_cca(K, X @ X.T, reg=0.1, n_components=1),
            "K1_test": KT,
            "K2_test": XT @ X.T,
        },
        extra=[
            ("K1_test columns", {"K1_test": KT[:, :5]}, ValueError, r"^K1_test must have 6"),
            ("rows differ", {"K2_test": X[:3] @ X.T}, ValueError, r"^K2_test must have 2 rows"),
            ("one row", {"K1_test": KT[:1], "K2_test": KT[:1]}, ValueError, r"^K1_test must"),
        ],
        one_sample=False,
    ),
    # representer
    Row(
        "representer.rkhs_norm",
        representer.rkhs_norm,
        lambda: {"alpha": ALPHA, "K": K, "squared": True},
    ),
    Row(
        "representer.kernel_ridge_span",
        representer.kernel_ridge_span,
        lambda: {"K_xu": (1.0 + X @ X[:4].T) ** 2, "K_uu": K[:4, :4], "y": T, "lam": 0.5},
        extra=[("y length", {"y": T[:5]}, ValueError, r"\by\b")],
    ),
    Row(
        "representer.span_decomposition",
        representer.span_decomposition,
        lambda: {"coef": T, "K_uu": K, "n_span": 4},
        extra=[("n_span > n", {"n_span": 7}, ValueError, r"^n_span")],
    ),
    # ridge
    Row(
        "ridge.kernel_ridge",
        ridge.kernel_ridge,
        lambda: {"K": K, "y": T, "lam": 0.5, "n_scaled": False},
    ),
    Row(
        "ridge.kernel_ridge_predict",
        ridge.kernel_ridge_predict,
        lambda: {"result": ridge.kernel_ridge(K, T, 0.5), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "ridge.ridge_primal",
        ridge.ridge_primal,
        lambda: {"X": X, "y": T, "lam": 0.5},
    ),
    Row(
        "ridge.kernel_ridge_objective",
        ridge.kernel_ridge_objective,
        lambda: {"alpha": ALPHA, "K": K, "y": T, "lam": 0.5, "n_scaled": True},
    ),
    Row(
        "ridge.kernel_ridge_gradient",
        ridge.kernel_ridge_gradient,
        lambda: {"alpha": ALPHA, "K": K, "y": T, "lam": 0.5, "n_scaled": False},
    ),
    Row(
        "ridge.lam_mean_to_sum",
        ridge.lam_mean_to_sum,
        lambda: {"lam": 0.1, "n": 5},
    ),
    Row(
        "ridge.lam_sum_to_mean",
        ridge.lam_sum_to_mean,
        lambda: {"lam": 0.5, "n": 5},
    ),
    Row(
        "ridge.kernel_ridge_lagrange",
        ridge.kernel_ridge_lagrange,
        lambda: {"K": K, "y": T, "lam": 0.5},
    ),
    Row(
        "ridge.kernel_ridge_lagrange_objective",
        ridge.kernel_ridge_lagrange_objective,
        lambda: {"alpha": ALPHA, "K": K, "y": T, "lam": 0.5},
    ),
    Row(
        "ridge.kernel_ridge_lagrange_predict",
        ridge.kernel_ridge_lagrange_predict,
        lambda: {"K": K, "y": T, "lam": 0.5, "K_test": KT},
    ),
    Row(
        "ridge.ridge_weights_from_lagrange",
        ridge.ridge_weights_from_lagrange,
        lambda: {"X": X, "alpha": ALPHA, "lam": 0.5},
    ),
    # svr
    Row(
        "svr.svr",
        svr.svr,
        lambda: {"K": K, "y": T, "C": 1.0, "epsilon": 0.5, "tol": 1e-8, "shrinking": True},
    ),
    Row(
        "svr.svr_predict",
        svr.svr_predict,
        lambda: {"result": _fit_svr(), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "svr.c_from_penalty_lambda",
        svr.c_from_penalty_lambda,
        lambda: {"lam": 0.5},
    ),
    # cvx
    _cvx_row("hard_margin_primal"),
    _cvx_row("hard_margin_dual"),
    _cvx_row("soft_margin_l1_primal", "C"),
    _cvx_row("soft_margin_l1_dual", "C"),
    _cvx_row("soft_margin_l2_primal", "C"),
    _cvx_row("soft_margin_l2_dual", "C"),
    _cvx_row("lambda_svm_primal", "lam", value=0.1),
    _cvx_row("lambda_svm_dual", "lam", value=0.1),
    _cvx_row("lambda_svm_mu_dual", "lam", value=0.1),
    _cvx_row("nu_svm_primal", "nu", 0.5),
    _cvx_row("nu_svm_dual", "nu", 0.5),
    _cvx_row("svr_primal", "C_epsilon", regression_targets=True),
    _cvx_row("svr_dual", "C_epsilon", regression_targets=True),
    *[
        Row(
            f"cvx.{name} (with Phi)",
            getattr(cvx, name),
            lambda: {"K": None, "y": Y, "C": 1.0, "Phi": X},
            extra=[("K and Phi None", {"Phi": None}, ValueError, r"^K and Phi are both None")],
        )
        for name in ("soft_margin_l1_primal", "soft_margin_l1_dual")
    ],
    Row(
        "cvx.primal_predict",
        cvx.primal_predict,
        lambda: {"primal": _primal(), "K_test": KT},
        extra=[("K_test columns", {"K_test": KT[:, :5]}, ValueError, r"^K_test")],
        one_sample=False,
    ),
    Row(
        "cvx.solve_reference",
        cvx.solve_reference,
        lambda: {"problem": _problem(), "accept_inaccurate": False, "what": "x"},
        extra=[
            ("what not a str", {"what": 3}, TypeError, r"^what"),
        ],
        types=False,
    ),
]

UP = np.array([True, False, True, False, True, False])
SMO_ROWS = [
    Row(
        "smo.smo",
        smo.smo,
        lambda: {"K": K, "y": Y, "p": -np.ones(6), "C": 1.0, "alpha0": np.zeros(6), "tol": 1e-6},
        extra=[
            ("alpha0 above C", {"alpha0": np.full(6, 2.0)}, ValueError, r"^alpha0 must"),
            ("C of 5 values", {"C": np.ones(5)}, ValueError, r"^C must"),
            ("settings as a dict", {"settings": {"chunk_min": 5}}, TypeError, r"^settings must"),
        ],
    ),
    Row(
        "smo.smo_textbook",
        smo.smo_textbook,
        lambda: {"K": K, "y": Y, "p": -np.ones(6), "C": 1.0, "alpha0": np.zeros(6), "tol": 1e-6},
        extra=[
            ("alpha0 above C", {"alpha0": np.full(6, 2.0)}, ValueError, r"^alpha0 must"),
            ("C of 5 values", {"C": np.ones(5)}, ValueError, r"^C must"),
        ],
    ),
    Row(
        "smo.working_sets",
        smo.working_sets,
        lambda: {"alpha": np.zeros(6), "y": Y, "C": 1.0},
        extra=[
            ("alpha above C", {"alpha": np.full(6, 2.0)}, ValueError, r"^alpha must"),
        ],
    ),
    Row(
        "smo.optimality_gap",
        smo.optimality_gap,
        lambda: {"v": T, "up": UP, "low": ~UP},
        extra=[
            ("up of floats", {"up": UP.astype(float)}, ValueError, r"^up must be a boolean"),
            ("low too short", {"low": ~UP[:5]}, ValueError, r"^low must be a boolean"),
        ],
        one_sample=False,
        types=False,  # the masks must stay boolean (v as a list or ints: tests/test_smo.py)
    ),
]
ROWS += SMO_ROWS

#: The exercises' names are a closed list: a wrong one, or a number, lists them.
NAME_ROWS = [
    ("name unknown", {"name": "svm"}, ValueError, r"^name = 'svm' is not an exercise; .*"),
    ("name a number", {"name": 1}, ValueError, r"^name must be the name of an exercise"),
    ("name None", {"name": None}, ValueError, r"^name must be the name of an exercise"),
]
EXERCISE_ROWS = [
    Row("exercises.names", exercises.names, dict),
    Row(
        "exercises.exercise", exercises.exercise, lambda: {"name": "gaussian_gram"}, extra=NAME_ROWS
    ),
    Row(
        "exercises.reference",
        exercises.reference,
        lambda: {"name": "gaussian_gram"},
        extra=NAME_ROWS,
    ),
    Row(
        "exercises.check",
        exercises.check,
        lambda: {
            "name": "gaussian_gram",
            "function": exercises.reference("gaussian_gram"),
            "time_limit": 1.0,
            "max_examples": 2,
        },
        extra=NAME_ROWS,
    ),
]
ROWS += EXERCISE_ROWS

BAD_ITERATION_LIMITS = [0, -1, 1.5, "10", True]
BAD_RESULTS = [None, {}, np.zeros(3), "result"]


def _set_first(a, value):
    b = np.array(a, dtype=float)
    b.flat[0] = value
    return b


def _symmetric_bump(a):
    b = np.array(a, dtype=float)
    b[0, -1] += 0.5
    return b


def _not_psd(a):
    return a - 0.01 * np.max(np.abs(a)) * np.eye(len(a))


def _shrink(a, axes):
    for axis in axes:
        a = np.delete(a, -1, axis=axis)
    return a


def _one(a, axes):
    for axis in axes:
        a = np.take(a, [0], axis=axis)
    return a


@dataclass(frozen=True)
class Raises:
    exception: type | tuple
    pattern: str


@dataclass(frozen=True)
class NotPSD:
    """A non-PSD Gram matrix: ``warns`` NotPSDWarning exactly once, or not at all."""

    name: str
    warns: bool


def _replace(name, transform):
    return lambda kw: {**kw, name: transform(kw.get(name))}


def _array_scenarios(row):
    group = [name for name, role in row.arrays.items() if role.samples is not None]
    group_pattern = rf"\b({'|'.join(group)})\b"
    for name, role in row.arrays.items():
        start = Raises(ValueError, rf"^{name}\b")
        bad = [
            ("NaN", lambda a: _set_first(a, NAN)),
            ("+inf", lambda a: _set_first(a, INF)),
            ("-inf", lambda a: _set_first(a, -INF)),
            ("complex", lambda a: np.asarray(a) + 1e-3j),
            ("strings", lambda a: np.asarray(a).astype(str)),
            ("booleans", lambda a: np.asarray(a) > 0),
            ("empty", lambda a: np.asarray(a)[:0]),
        ]
        if not role.optional:
            bad.append(("None", lambda a: None))
        if role.kind != "values":
            bad.append(("one more dimension", lambda a: np.asarray(a)[..., None]))
            bad.append(("one dimension less", lambda a: np.asarray(a)[0]))
        for label, transform in bad:
            yield f"{name} {label}", _replace(name, transform), start
        if role.kind.startswith("gram"):
            yield f"{name} not square", _replace(name, lambda a: a[:, :-1]), start
            yield (
                f"{name} not symmetric",
                _replace(name, _symmetric_bump),
                Raises(ValueError, rf"^{name} must be symmetric"),
            )
            expect = start if role.kind == "gram_raise" else NotPSD(name, role.kind == "gram")
            yield f"{name} not PSD", _replace(name, _not_psd), expect
        if role.kind in ("labels", "signs"):  # signs: the general SMO form, one class allowed
            for label, transform in [
                ("0/1", lambda a: np.where(np.asarray(a) > 0, 1.0, 0.0)),
                ("one class", lambda a: np.ones(len(a))),
                ("+-2", lambda a: 2.0 * np.asarray(a)),
                ("'1'/'-1'", lambda a: np.where(np.asarray(a) > 0, "1", "-1")),
            ]:
                if not (role.kind == "signs" and label == "one class"):
                    yield f"{name} {label}", _replace(name, transform), start
        if role.kind == "cluster_labels":
            for label, transform in [
                ("fractions", lambda a: np.asarray(a) + 0.5),
                ("negative", lambda a: np.asarray(a) - 1),
            ]:
                yield f"{name} {label}", _replace(name, transform), start
        if role.samples is not None and len(group) > 1:
            yield (
                f"{name} one sample short",
                _replace(name, lambda a, axes=role.samples: _shrink(np.asarray(a), axes)),
                Raises(ValueError, group_pattern),
            )


def _scalar_scenarios(row):
    for name, spec in row.scalars.items():
        kind, optional = spec if isinstance(spec, tuple) else (spec, False)
        exception = TypeError if kind == "bool" else ValueError
        for value in BAD_SCALARS[kind]:
            if value is None and optional:
                continue
            yield (
                f"{name}={value!r}",
                _replace(name, lambda _, value=value: value),
                Raises(exception, rf"^{name}\b"),
            )
    for name in row.results:
        for value in BAD_RESULTS:
            yield (
                f"{name}={type(value).__name__}",
                _replace(name, lambda _, value=value: value),
                Raises(TypeError, rf"^{name} must be of type \w+ \(from .*\), got"),
            )
    if row.iteration:
        for value in BAD_ITERATION_LIMITS:
            yield (
                f"{row.iteration}={value!r}",
                lambda kw, value=value: {**kw, row.iteration: value},
                Raises(ValueError, rf"^{row.iteration} must"),
            )
    for label, overrides, exception, pattern in row.extra:
        yield label, lambda kw, o=overrides: {**kw, **o}, Raises(exception, pattern)


CASES = [
    pytest.param(row, scenario, expect, id=f"{row.name}: {label}")
    for row in ROWS
    for label, scenario, expect in [*_array_scenarios(row), *_scalar_scenarios(row)]
]


# --- the tests ------------------------------------------------------------------------------


def _call(row, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return row.func(**kwargs)


@pytest.mark.parametrize(("row", "scenario", "expect"), CASES)
def test_bad_input_gets_a_clear_error_or_the_documented_warning(row, scenario, expect):
    kwargs = scenario(row.make())
    if isinstance(expect, Raises):
        with pytest.raises(expect.exception, match=expect.pattern):
            _call(row, kwargs)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _call(row, kwargs)
        except ValueError:  # NotSeparableError too: the function may not be able to proceed
            pass
    not_psd = [w for w in caught if issubclass(w.category, NotPSDWarning)]
    if expect.warns:
        assert len(not_psd) == 1, [str(w.message) for w in not_psd]
        assert str(not_psd[0].message).startswith(f"{expect.name} is not positive semi-definite")
    else:
        assert not_psd == []


@pytest.mark.parametrize("row", [r for r in ROWS if r.iteration], ids=lambda r: r.name)
def test_an_iteration_limit_of_one_returns_after_one_iteration(row):
    # The limit is kept (one iteration, or one pass, at most) and a run that it stops before
    # convergence says so: converged is False and a ConvergenceWarning was issued.
    kwargs = {**row.make(), row.iteration: 1}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = row.func(**kwargs)
        except NotSeparableError:  # a proof of non-separability may come at any iteration
            return
    result = result[0] if isinstance(result, tuple) else result  # smo_textbook with record
    count = result.epochs if hasattr(result, "epochs") else result.n_iter
    assert 0 <= count <= 1
    warned = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    assert warned == (not result.converged)


def _one_sample(row, kwargs):
    out = dict(kwargs)
    for name, role in row.arrays.items():
        if role.samples is not None and out.get(name) is not None:
            out[name] = _one(np.asarray(out[name]), role.samples)
    return out


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r.one_sample and r.arrays], ids=lambda r: r.name
)
def test_one_sample_gets_an_answer_or_a_clear_error(row):
    kwargs = _one_sample(row, row.make())
    names = "|".join(kwargs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            row.func(**kwargs)
    except ValueError as exc:
        assert any(str(exc).startswith(name) for name in kwargs), (names, str(exc))


def _arrays(kwargs):
    return {k: v for k, v in kwargs.items() if isinstance(v, np.ndarray)}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_inputs_are_never_modified(row):
    kwargs = row.make()
    before = {k: v.copy() for k, v in _arrays(kwargs).items()}
    results = {k: dataclasses.replace(kwargs[k]) for k in row.results if _is_result(kwargs[k])}
    _call(row, kwargs)
    for k, v in before.items():
        assert np.array_equal(kwargs[k], v), k
    for k, r in results.items():
        _assert_same(kwargs[k], r, exact=True)


def _is_result(value):
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _assert_same(a, b, exact=False):
    if dataclasses.is_dataclass(a):
        assert type(a) is type(b)
        for f in dataclasses.fields(a):
            _assert_same(getattr(a, f.name), getattr(b, f.name), exact)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype
        if a.dtype.kind == "f":
            assert a.dtype == np.float64
        if exact or a.dtype.kind != "f":
            assert np.array_equal(a, b)
        else:
            scale = float(np.max(np.abs(b), initial=0.0))
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * scale)
    elif isinstance(a, float):
        assert type(b) is float
        assert a == b if exact else math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for u, v in zip(a, b, strict=True):
            _assert_same(u, v, exact)
    else:
        assert a == b


VARIANTS = {
    "int": lambda a: a.astype(np.int64) if np.array_equal(a, np.rint(a)) else a,
    "list": lambda a: a.tolist(),
    "float32": lambda a: a.astype(np.float32),
    "read-only": lambda a: _read_only(a),
    "Fortran": lambda a: np.asfortranarray(a),
}


def _read_only(a):
    b = a.copy()
    b.setflags(write=False)
    return b


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("row", [r for r in ROWS if r.types and r.arrays], ids=lambda r: r.name)
def test_other_input_types_give_the_float64_answer(row, variant):
    kwargs = row.make()
    arrays = _arrays(kwargs)
    other = {k: VARIANTS[variant](v) for k, v in arrays.items()}
    reference = {k: np.ascontiguousarray(np.asarray(v, dtype=np.float64)) for k, v in other.items()}
    expected = _call(row, {**kwargs, **reference})
    _assert_same(_call(row, {**kwargs, **other}), expected)


def test_the_table_covers_every_public_function():
    import inspect

    modules = [bounds, cca, clustering, cvx, feature_space, kernels, losses, model_selection]
    modules += [pca, perceptron]
    modules += [representer, ridge, smo, svm, svr, exercises]
    public = {
        f"{m.__name__.split('.')[-1]}.{name}"
        for m in modules
        for name in m.__all__
        if inspect.isfunction(getattr(m, name))
    }
    assert public - {row.name for row in ROWS} == set()
