r"""Exercises of chapter 1: Gram matrices, centring, distances in feature space."""

import numpy as np
from hypothesis import strategies as st

from ..feature_space import center_gram as _center_gram
from ..feature_space import distance_to_set
from ..kernels import gaussian_kernel, linear_kernel, polynomial_kernel
from ._core import Exercise, Failure, Problem
from ._judging import array_output, as_array, compare, offset, points

# --- the Gaussian Gram matrix ------------------------------------------------------------------


def gaussian_gram(X, Z, sigma):
    r""":math:`K_{ij} = \exp(-\|x_i - z_j\|^2 / (2\sigma^2))`
    (:func:`kernels_ref.kernels.gaussian_kernel`)."""
    return gaussian_kernel(X, Z, sigma=sigma)


@st.composite
def _gram_problems(draw):
    X = as_array(draw(points(1, 6, unique=False)))
    Z = as_array(draw(points(1, 6, unique=False)))
    # sigma = 1 first (shrinking goes there); 0.5 and 3 tell the mistakes apart, where 2 sigma^2,
    # sigma^2 and 2 sigma all differ (2 sigma^2 = 2 sigma at sigma = 1, sigma^2 = 2 sigma at 2)
    sigma = draw(st.sampled_from([1.0, 0.5, 3.0]))
    return Problem(args={"X": X, "Z": Z, "sigma": sigma}, shown={"X": X, "Z": Z, "sigma": sigma},
                   size=len(X) + len(Z), note="")  # fmt: skip


def _squared_distances(problem):
    X, Z = problem.args["X"], problem.args["Z"]
    return ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)


def _gaussian_of(problem, distances, width):
    with np.errstate(all="ignore"):
        return np.exp(-distances / width)


def _matches(got, candidate):
    return np.all(np.isfinite(candidate)) and np.allclose(got, candidate, rtol=1e-8, atol=1e-12)


GAUSSIAN_SYMPTOMS = (
    (
        "exp(-|x - z|^2 / sigma^2): the factor 2 of 2 sigma^2 is missing",
        lambda pb, got, exp: _matches(got, exp**2),
    ),
    (
        "exp(-|x - z|^2 / (2 sigma)): sigma is not squared",
        lambda pb, got, exp: _matches(
            got, _gaussian_of(pb, _squared_distances(pb), 2 * pb.args["sigma"])
        ),
    ),
    (
        "exp(-|x - z| / (2 sigma^2)): the distance is not squared",
        lambda pb, got, exp: _matches(
            got, _gaussian_of(pb, np.sqrt(_squared_distances(pb)), 2 * pb.args["sigma"] ** 2)
        ),
    ),
    (
        "exp(+|x - z|^2 / (2 sigma^2)): the minus sign is missing",
        lambda pb, got, exp: _matches(got, 1.0 / exp),
    ),
    (
        "exp(-<x, z> / (2 sigma^2)): the inner product in place of the squared distance",
        lambda pb, got, exp: _matches(
            got,
            _gaussian_of(pb, pb.args["X"] @ pb.args["Z"].T, 2 * pb.args["sigma"] ** 2),
        ),
    ),
)

GAUSSIAN_GRAM = Exercise(
    name="gaussian_gram",
    signature="gaussian_gram(X, Z, sigma) -> K",
    statement=(
        "X of shape (n, d) and Z of shape (m, d): the Gram matrix K of shape (n, m), "
        "K[i, j] = exp(-|x_i - z_j|^2 / (2 sigma^2)), sigma > 0."
    ),
    tolerance="each entry within 1e-9 of the reference (entries are in [0, 1])",
    chapter="ch01_kernel_trick",
    reference=gaussian_gram,
    problems=_gram_problems,
    output=array_output(lambda pb: (len(pb.args["X"]), len(pb.args["Z"])), "K"),
    judge=lambda pb, got, exp: compare(
        pb, got, exp, 1e-9, "K[i, j] = exp(-|x_i - z_j|^2 / (2 sigma^2))", GAUSSIAN_SYMPTOMS
    ),
)

# --- the kernels of the problems that take Gram matrices -----------------------------------------

#: Kernels with integer values on integer points, so that a counterexample can be typed in: the
#: words of a problem's note and the kernel; the simplest first (shrinking goes there).
KERNELS = {
    "linear": ("k(x, z) = <x, z>, the linear kernel", linear_kernel),
    "poly2": (
        "k(x, z) = (1 + <x, z>)^2, the polynomial kernel",
        lambda A, B: polynomial_kernel(A, B, degree=2, c=1.0),
    ),
}

#: Tolerance of the answers computed from integer Gram matrices (entries at most 81), stated as
#: 1e-9 in the exercises' tolerances: round-off stays near 1e-14, the mistakes are off by far more.
GRAM_TOL = 1e-9


def _symptom(candidate):
    """A symptom: the answer is ``candidate(problem)``, what a mistaken formula gives."""
    return lambda pb, got, exp: _matches(got, candidate(pb))


# --- the centred Gram matrix ---------------------------------------------------------------------


def center_gram(K):
    r""":math:`K' = HKH`, :math:`H = I - \frac1n \mathbf 1\mathbf 1^\top`
    (:func:`kernels_ref.feature_space.center_gram`)."""
    return _center_gram(K)


@st.composite
def _center_problems(draw):
    X = as_array(draw(points(1, 6, unique=False)))
    words, kernel = KERNELS[draw(st.sampled_from(list(KERNELS)))]
    return Problem(args={"K": kernel(X, X)}, shown={"X": X}, size=len(X),
                   note=f"K[i, j] = k(x_i, x_j), {words}")  # fmt: skip


def _one_sided(K):
    """H K: the columns centred, the rows not (K is symmetric: K H is its transpose)."""
    return K - K.mean(axis=0)[None, :]


def _without_grand_mean(K):
    """K_ij - (mean of row i) - (mean of column j), the grand mean not added back."""
    return K - K.mean(axis=1)[:, None] - K.mean(axis=0)[None, :]


def _without_one_over_n(K):
    """(I - 11^T) K (I - 11^T): the centring matrix without its 1/n."""
    H = np.eye(len(K)) - 1.0
    return H @ K @ H


CENTER_SYMPTOMS = (
    (
        "K - row means - column means: the grand-mean term + (1/n^2) sum_kl K_kl is missing",
        _symptom(lambda pb: _without_grand_mean(pb.args["K"])),
    ),
    (
        "K - row means - column means - (1/n^2) sum_kl K_kl: the grand mean has the wrong sign, "
        "it is added back, not subtracted",
        _symptom(lambda pb: _without_grand_mean(pb.args["K"]) - pb.args["K"].mean()),
    ),
    (
        "H K or K H: centred on one side only (the result is not symmetric); Kc = H K H "
        "subtracts the row and the column means",
        lambda pb, got, exp: any(
            _matches(got, M) for M in (_one_sided(pb.args["K"]), _one_sided(pb.args["K"]).T)
        ),
    ),
    (
        "K - (1/n^2) sum_kl K_kl: only the grand mean is subtracted; subtract the row and the "
        "column means, then add the grand mean",
        _symptom(lambda pb: pb.args["K"] - pb.args["K"].mean()),
    ),
    (
        "(I - 11^T) K (I - 11^T): the 1/n of H = I - 11^T/n is missing",
        _symptom(lambda pb: _without_one_over_n(pb.args["K"])),
    ),
    (
        "off by the same constant in every entry: check the grand-mean term + (1/n^2) sum_kl K_kl",
        offset,
    ),
)

CENTER_GRAM = Exercise(
    name="center_gram",
    signature="center_gram(K) -> Kc",
    statement=(
        "K of shape (n, n), the Gram matrix of points x_1, ..., x_n: the Gram matrix of the "
        "points centred in feature space, phi(x_i) - (1/n) sum_k phi(x_k), that is Kc = H K H "
        "with H = I - 11^T/n: Kc[i, j] = K[i, j] - (1/n) sum_k K[i, k] - (1/n) sum_k K[k, j] "
        "+ (1/n^2) sum_kl K[k, l]."
    ),
    tolerance=(
        "each entry within 1e-9 times the largest entry of the reference's Kc (or 1); "
        "K has integer entries"
    ),
    chapter="ch01_kernel_trick",
    reference=center_gram,
    problems=_center_problems,
    output=array_output(lambda pb: (pb.size, pb.size), "Kc"),
    judge=lambda pb, got, exp: compare(
        pb, got, exp, GRAM_TOL, "Kc = H K H, H = I - 11^T/n", CENTER_SYMPTOMS
    ),
)

# --- the squared distance to a barycentre ------------------------------------------------------


def squared_distance_to_barycentre(K_test, diag_test, K_set):
    r""":math:`\|\phi(t_a) - \frac1m \sum_j \phi(s_j)\|^2` for each test point :math:`t_a`: the
    square of :func:`kernels_ref.feature_space.distance_to_set`."""
    return distance_to_set(K_test, diag_test, K_set) ** 2


@st.composite
def _barycentre_problems(draw):
    T = as_array(draw(points(1, 3, unique=False)))
    S = as_array(draw(points(1, 4, unique=False)))
    words, kernel = KERNELS[draw(st.sampled_from(list(KERNELS)))]
    diag_test = np.diag(kernel(T, T)).copy()
    args = {"K_test": kernel(T, S), "diag_test": diag_test, "K_set": kernel(S, S)}
    note = (
        f"K_test[a, j] = k(t_a, s_j), diag_test[a] = k(t_a, t_a), K_set[j, l] = k(s_j, s_l), "
        f"{words}"
    )
    return Problem(args=args, shown={"T": T, "S": S}, size=len(T) + len(S), note=note)


def _barycentre_formula(pb, cross=2.0, last=1.0, means=None):
    r""":math:`k(t_a, t_a) - \text{cross} \cdot \frac1m \sum_j k(t_a, s_j) + \text{last} \cdot
    \frac1{m^2} \sum_{jl} k(s_j, s_l)`: the squared distance for ``cross = 2``, ``last = 1``, a
    mistaken formula otherwise (``means`` in place of the row means of ``K_test``)."""
    K_test, diag_test, K_set = pb.args.values()
    means = K_test.mean(axis=1) if means is None else means
    return diag_test - cross * means + last * K_set.mean()


def _column_means(pb):
    """The means down the columns of a square K_test (K_test read transposed)."""
    K_test = pb.args["K_test"]
    return K_test.mean(axis=0) if K_test.shape[0] == K_test.shape[1] else np.nan


#: The first symptom that holds is named, and on the smallest problems the formulas of two
#: mistakes can agree: 1/m in place of 1/m^2, which shows only for m >= 2, comes before the missing
#: factor 2, which shows on one point of the set.
BARYCENTRE_SYMPTOMS = (
    (
        "the distance, not its square: the square root is taken",
        lambda pb, got, exp: _matches(got, np.sqrt(np.maximum(exp, 0.0))),
    ),
    (
        "the term (1/m^2) sum_jl k(s_j, s_l), the squared norm of the barycentre, is missing",
        _symptom(lambda pb: _barycentre_formula(pb, last=0.0)),
    ),
    (
        "(1/m) sum_jl k(s_j, s_l): the last term is divided by m, not by m^2",
        _symptom(lambda pb: _barycentre_formula(pb, last=len(pb.args["K_set"]))),
    ),
    (
        "k(t, t) - (1/m) sum_j k(t, s_j) + ...: the factor 2 of the cross term is missing",
        _symptom(lambda pb: _barycentre_formula(pb, cross=1.0)),
    ),
    (
        "+ (2/m) sum_j k(t, s_j): the cross term enters with a minus sign",
        _symptom(lambda pb: _barycentre_formula(pb, cross=-2.0)),
    ),
    (
        "the means run down the columns of K_test: K_test is transposed (K_test[a, j] = "
        "k(t_a, s_j), a row per test point)",
        _symptom(lambda pb: _barycentre_formula(pb, means=_column_means(pb))),
    ),
)

_d2_array = array_output(lambda pb: (len(pb.args["K_test"]),), "d2")


def _d2_output(got, problem):
    """``d2`` as an array of one value per test point; one value per point of the set is
    reported as ``K_test`` read transposed."""
    answer = _d2_array(got, problem)
    n_test, m = problem.args["K_test"].shape
    if isinstance(answer, Failure) and m != n_test and _shape(got) == (m,):
        return Failure(
            answer.condition,
            f"{answer.message}: one value per point of the set, not per test point; K_test is "
            "read transposed (K_test[a, j] = k(t_a, s_j), a row per test point)",
        )
    return answer


def _shape(got):
    try:
        return np.shape(np.asarray(got, dtype=float))
    except (TypeError, ValueError):
        return None


BARYCENTRE_CONDITION = "d2 = k(t, t) - (2/m) sum_j k(t, s_j) + (1/m^2) sum_jl k(s_j, s_l)"

SQUARED_DISTANCE_TO_BARYCENTRE = Exercise(
    name="squared_distance_to_barycentre",
    signature="squared_distance_to_barycentre(K_test, diag_test, K_set) -> d2",
    statement=(
        "K_test of shape (n_test, m) with K_test[a, j] = k(t_a, s_j), diag_test of shape "
        "(n_test,) with diag_test[a] = k(t_a, t_a), K_set of shape (m, m) with K_set[j, l] = "
        "k(s_j, s_l): d2 of shape (n_test,), the squared distance in feature space from each "
        "phi(t_a) to the barycentre (1/m) sum_j phi(s_j) of the set, d2[a] = k(t_a, t_a) - "
        "(2/m) sum_j k(t_a, s_j) + (1/m^2) sum_jl k(s_j, s_l)."
    ),
    tolerance=(
        "each entry within 1e-9 times the largest entry of the reference's d2 (or 1); "
        "the kernel values are integers"
    ),
    chapter="ch02_representer",
    reference=squared_distance_to_barycentre,
    problems=_barycentre_problems,
    output=_d2_output,
    judge=lambda pb, got, exp: compare(
        pb, got, exp, GRAM_TOL, BARYCENTRE_CONDITION, BARYCENTRE_SYMPTOMS
    ),
)

EXERCISES = (GAUSSIAN_GRAM, CENTER_GRAM, SQUARED_DISTANCE_TO_BARYCENTRE)
