r"""Exercises of chapters 11, 12 and 13: kernel PCA's projections, kernel CCA's first canonical
correlation, one assignment step of kernel k-means."""

import warnings

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from ..cca import kernel_cca as _kernel_cca
from ..clustering import cluster_mean_distances
from ..feature_space import center_gram
from ..pca import kernel_pca as _kernel_pca
from ..report import _tolerance
from ._core import Exercise, Failure, Problem, _text
from ._judging import (
    COORDINATE,
    array_output,
    as_array,
    close,
    labels_output,
    number_output,
    points,
    size,
)

#: Relative threshold below which an eigenvalue of a centred Gram matrix counts as zero (the
#: reference's ``tol``): on these integer problems the positive eigenvalues are far above it.
RANK_TOL = 1e-10

# --- kernel PCA ----------------------------------------------------------------------------------

#: Tolerance of kernel PCA's projections, relative to the largest entry (or 1), and of the
#: invariants P^T P = diag(lambda) and Kc P = P diag(lambda), relative to their scale.
PCA_TOL = 1e-8

_KERNELS = {
    "linear": (lambda X: X @ X.T, "K = X X^T, the linear kernel"),
    "quadratic": (
        lambda X: (1.0 + X @ X.T) ** 2,
        "K = (1 + X X^T)^2, the polynomial kernel of degree 2",
    ),
}


def kernel_pca(K, n_components):
    r"""The training projections :math:`P_{:,k} = \sqrt{\lambda_k} e_k = K' \alpha_k`
    (:func:`kernels_ref.pca.kernel_pca`, its ``projections``)."""
    return _kernel_pca(K, n_components=n_components).projections


def _rank(Kc):
    """The numerical rank of the centred Gram matrix: eigenvalues above :data:`RANK_TOL` times
    the largest."""
    lam = np.linalg.eigvalsh(Kc)
    return int(np.count_nonzero(lam > RANK_TOL * lam[-1])) if lam[-1] > 0 else 0


@st.composite
def _pca_problems(draw):
    X = as_array(draw(points(1, 7)))
    kind = draw(st.sampled_from(["linear", "quadratic"]))
    gram, note = _KERNELS[kind]
    K = gram(X)
    rank = _rank(center_gram(K))
    assume(rank >= 1)
    k = draw(st.integers(1, rank))
    return Problem(
        args={"K": K, "n_components": k}, shown={"X": X, "n_components": k}, size=len(X), note=note
    )


def _eigenpairs(problem):
    """The centred Gram matrix and all its eigenvalues, decreasing."""
    Kc = center_gram(problem.args["K"])
    return Kc, np.linalg.eigvalsh(Kc)[::-1]


def _invariants(P, Kc, lam):
    r"""Whether :math:`K' P = P \operatorname{diag}(\lambda)` (eigenvectors of the leading
    eigenvalues ``lam``) and whether :math:`P^\top P = \operatorname{diag}(\lambda)` (orthogonal,
    of squared norms :math:`\lambda_k`), within :data:`PCA_TOL` relative."""
    scale = size(lam)
    eigen = np.max(np.abs(Kc @ P - P * lam)) <= PCA_TOL * scale**1.5
    gram = np.max(np.abs(P.T @ P - np.diag(lam))) <= PCA_TOL * scale
    return bool(eigen), bool(gram)


def _projections_valid(P, Kc, lam):
    """Both invariants: the certificate of every valid answer, whatever the signs and the
    basis inside a repeated eigenvalue."""
    return all(_invariants(P, Kc, lam))


def _signed_like(P, expected):
    """``P`` with each column's sign flipped to agree with the reference's column."""
    signs = np.where(np.sum(P * expected, axis=0) < 0, -1.0, 1.0)
    return P * signs


def _pca_symptoms(Kc, lam_all, k):
    lam = lam_all[:k]
    smallest = np.sqrt(np.clip(lam_all[::-1], 0.0, None))[:k]
    return (
        (
            "the columns of P have norm 1: P = E, the eigenvectors themselves; the projections "
            "are sqrt(lambda_k) e_k",
            lambda pb, P, exp: _projections_valid(P * np.sqrt(lam), Kc, lam),
        ),
        (
            "the columns of P have norm lambda_k, not sqrt(lambda_k): P = Kc e_k = lambda_k e_k, "
            "alpha_k = e_k is not normalised (alpha_k = e_k / sqrt(lambda_k))",
            lambda pb, P, exp: _projections_valid(P / np.sqrt(lam), Kc, lam),
        ),
        (
            "the components are in increasing order of lambda (eigh sorts the eigenvalues in "
            "ascending order): reverse them, lambda_1 >= lambda_2 >= ...",
            lambda pb, P, exp: k > 1 and _projections_valid(P[:, ::-1], Kc, lam),
        ),
        (
            "the columns of P belong to the SMALLEST eigenvalues of Kc (eigh sorts them in "
            "ascending order): take the last k, in reverse",
            lambda pb, P, exp: np.allclose(np.linalg.norm(P, axis=0), smallest, atol=1e-6),
        ),
        (
            "the columns of P do not sum to 0, as projections of points centred in feature "
            "space do: K was not centred, or centred with the wrong mean (Kc = (I - U) K "
            "(I - U), U_ij = 1/n)",
            lambda pb, P, exp: np.max(np.abs(P.sum(axis=0))) > PCA_TOL * len(P) * size(P),
        ),
    )


_PCA_CONDITION = "P[:, k] = sqrt(lambda_k) e_k, the leading eigenvectors of Kc = (I - U) K (I - U)"


def _kernel_pca_judge(problem, P, expected):
    Kc, lam_all = _eigenpairs(problem)
    lam = lam_all[: P.shape[1]]
    signed = _signed_like(P, expected)
    if close(signed, expected, PCA_TOL) or _projections_valid(P, Kc, lam):
        return None
    got = f"{_text(signed)} (each column's sign matched to the reference's)"
    for message, holds in _pca_symptoms(Kc, lam_all, len(lam)):
        if holds(problem, P, expected):
            return Failure(_PCA_CONDITION, message, _text(expected), got)
    if not _invariants(P, Kc, lam)[0]:
        message = (
            "Kc P != P diag(lambda): the columns of P are not eigenvectors of the centred Gram "
            "matrix for its n_components largest eigenvalues"
        )
    else:
        message = (
            "P^T P != diag(lambda_1, ..., lambda_k): the columns are eigenvectors but not "
            "orthogonal, or not of squared norm lambda_k"
        )
    return Failure(_PCA_CONDITION, message, _text(expected), got)


KERNEL_PCA = Exercise(
    name="kernel_pca",
    signature="kernel_pca(K, n_components) -> P",
    statement=(
        "K of shape (n, n), the Gram matrix of the training points (not centred), and "
        "1 <= n_components <= the rank of the centred Gram matrix: the training projections P "
        "of shape (n, n_components). With Kc = (I - U) K (I - U) (U_ij = 1/n) and its "
        "eigenpairs Kc e_k = lambda_k e_k, |e_k| = 1, lambda_1 >= lambda_2 >= ..., "
        "P[:, k] = sqrt(lambda_k) e_k = Kc alpha_k with alpha_k = e_k / sqrt(lambda_k) (the "
        "component f_k = sum_j alpha_kj Kc(x_j, .) has unit norm); the convention of "
        "kernels_ref.pca.kernel_pca. Each column's sign is free."
    ),
    tolerance=(
        f"up to the sign of each column (flipped to match the reference's), each entry within "
        f"{_tolerance(PCA_TOL)} times the largest (or 1); where an eigenvalue repeats, any basis "
        f"of its eigenspace: Kc P = P diag(lambda) and P^T P = diag(lambda) within "
        f"{_tolerance(PCA_TOL)} (relative)"
    ),
    chapter="ch11_kernel_pca",
    reference=kernel_pca,
    problems=_pca_problems,
    output=array_output(lambda pb: (pb.size, pb.args["n_components"]), "P"),
    judge=_kernel_pca_judge,
)

# --- kernel CCA ----------------------------------------------------------------------------------

#: Tolerance of the first canonical correlation, a number in [0, 1]: a method that keeps the
#: round-off eigen-directions of a centred Gram matrix (eigenvalue about 1e-15 times the
#: largest, weight sqrt(d / (d + reg))) can move a zero correlation by about 1e-7; the
#: mistakes move it by 1e-3 or more on these problems.
CCA_TOL = 1e-6


def kernel_cca(K1, K2, reg):
    r"""The first canonical correlation :math:`\rho_\kappa` of the regularised problem, Gram
    matrices centred (:func:`kernels_ref.cca.kernel_cca`, its ``objective[0]``)."""
    return float(_kernel_cca(K1, K2, reg).objective[0])


@st.composite
def _cca_problems(draw):
    X1 = as_array(draw(points(2, 7, unique=False)))
    n = len(X1)
    X2 = as_array(draw(points(n, n, unique=False)))
    reg = draw(st.sampled_from([1.0, 0.5, 2.0]))
    K1, K2 = X1 @ X1.T, X2 @ X2.T
    assume(_rank(center_gram(K1)) >= 1 and _rank(center_gram(K2)) >= 1)
    return Problem(
        args={"K1": K1, "K2": K2, "reg": reg}, shown={"X1": X1, "X2": X2, "reg": reg}, size=n,
        note="K1 = X1 X1^T, K2 = X2 X2^T, the linear kernel; row i of X1 and X2 is point i",
    )  # fmt: skip


def _first_correlation(K1, K2, weight):
    r"""The largest singular value of :math:`W_1 K_1 K_2 W_2`, :math:`W_j = U_j
    \operatorname{diag}(w(d_j)) U_j^\top` for :math:`K_j = U_j \operatorname{diag}(d_j)
    U_j^\top` (eigen-directions of a zero eigenvalue dropped): the first canonical correlation
    when the denominator is :math:`\alpha^\top B_j \alpha` with :math:`W_j = B_j^{-1/2}`."""
    factors = []
    for K in (K1, K2):
        d, U = np.linalg.eigh(K)
        keep = d > RANK_TOL * d[-1]
        factors.append(U[:, keep] * (d[keep] * weight(d[keep])))  # K W on the range of K
    return float(np.linalg.svd(factors[0].T @ factors[1], compute_uv=False)[0])


def _cca_candidates(problem):
    """The numbers that the classic mistakes return, with the message naming each."""
    K1, K2, reg = problem.args["K1"], problem.args["K2"], problem.args["reg"]
    C1, C2 = center_gram(K1), center_gram(K2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        uncentred = _kernel_cca(K1, K2, reg, center=False)
        unregularised = _kernel_cca(K1, K2, 0.0)
        fitted = _kernel_cca(K1, K2, reg)
    return (
        (
            "rho of the uncentred Gram matrices: centre K1 and K2 first, K_j <- (I - U) K_j "
            "(I - U), as a correlation requires",
            float(uncentred.objective[0]),
        ),
        (
            "rho with (K_j + reg I)^2 in the denominator: the penalty is reg alpha^T K_j alpha "
            "= reg |w|^2, so B_j = K_j^2 + reg K_j",
            _first_correlation(C1, C2, lambda d: 1.0 / (d + reg)),
        ),
        (
            "rho with K_j^2 + reg I in the denominator: the penalty is reg alpha^T K_j alpha "
            "= reg |w|^2, not reg |alpha|^2, so B_j = K_j^2 + reg K_j",
            _first_correlation(C1, C2, lambda d: 1.0 / np.sqrt(d * d + reg)),
        ),
        (
            "rho of the unregularised problem: reg is ignored (B_j = K_j^2 + reg K_j; without "
            "reg the correlation is 1 as soon as the ranges of K1 and K2 meet)",
            float(unregularised.objective[0]),
        ),
        (
            "the correlation of the variates K1 alpha and K2 beta, not the value of the "
            "regularised objective rho: the penalty reg alpha^T K_j alpha stays in the "
            "denominator",
            float(fitted.correlations[0]),
        ),
        ("rho^2: return the correlation rho, not its square", float(fitted.objective[0]) ** 2),
    )


def _kernel_cca_judge(problem, rho, expected):
    if abs(rho - expected) <= CCA_TOL:
        return None
    found = [message for message, value in _cca_candidates(problem) if abs(rho - value) <= CCA_TOL]
    if len(found) > 1:  # on two points, say, (K_j + reg I)^2 gives exactly rho^2
        message = f"{len(found)} mistakes give this number here: " + "; or ".join(found)
    elif found:
        message = found[0]
    else:
        message = f"differs from the reference by {_text(abs(rho - expected))}"
    return Failure(_CCA_CONDITION, message, _text(expected), _text(rho))


_CCA_CONDITION = (
    "rho = max alpha^T K1 K2 beta / sqrt(alpha^T (K1^2 + reg K1) alpha beta^T (K2^2 + reg K2) "
    "beta), K1 and K2 centred"
)

KERNEL_CCA = Exercise(
    name="kernel_cca",
    signature="kernel_cca(K1, K2, reg) -> rho",
    statement=(
        "K1, K2 of shape (n, n), the Gram matrices of two views of the same n points (entry ij "
        "of both concerns points i and j), and reg = kappa > 0: the first canonical correlation "
        "of the regularised problem, rho = max over alpha, beta of alpha^T K1 K2 beta / "
        "sqrt((alpha^T (K1^2 + reg K1) alpha)(beta^T (K2^2 + reg K2) beta)), with K1 and K2 "
        "centred in feature space first (K_j <- (I - U) K_j (I - U), U_ij = 1/n): the "
        "convention of kernels_ref.cca.kernel_cca (center=True, its objective[0]). A number "
        "in [0, 1)."
    ),
    tolerance=f"within {_tolerance(CCA_TOL)} of the reference",
    chapter="ch12_kernel_cca",
    reference=kernel_cca,
    problems=_cca_problems,
    output=number_output("rho"),
    judge=_kernel_cca_judge,
)

# --- one step of kernel k-means ------------------------------------------------------------------

#: Tolerance of a tie between two squared distances, relative to max(1, max_i K_ii): distances
#: of these integer problems are equal or differ by at least 1/64.
KMEANS_TOL = 1e-9


def kernel_kmeans_step(K, labels, n_clusters):
    r"""Each point to the nearest barycentre, :func:`kernels_ref.clustering.cluster_mean_distances`
    minimised, the lowest cluster index on ties."""
    return np.argmin(cluster_mean_distances(K, labels, n_clusters=n_clusters), axis=1)


@st.composite
def _kmeans_problems(draw):
    k = draw(st.integers(1, 3))
    rows = draw(
        st.lists(st.tuples(COORDINATE, COORDINATE, st.integers(0, k - 1)), min_size=max(2, k),
                 max_size=8)
    )  # fmt: skip
    X = as_array([row[:2] for row in rows])
    labels = np.array([row[2] for row in rows])
    assume(np.unique(labels).size == k)
    return Problem(
        args={"K": X @ X.T, "labels": labels, "n_clusters": k},
        shown={"X": X, "labels": labels, "n_clusters": k}, size=len(X),
        note="K = X X^T, the linear kernel",
    )  # fmt: skip


def _sums(problem):
    """K_ii, the sums S_ic = sum_{j in c} K_ij, T_c = sum_{j,l in c} K_jl and the sizes |c|."""
    K, labels, k = (problem.args[a] for a in ("K", "labels", "n_clusters"))
    M = (labels[:, None] == np.arange(k)).astype(float)
    S = K @ M
    return np.diag(K), S, np.einsum("jc,jc->c", M, S), M.sum(axis=0), M


def _nearest(D2, new_labels, tol):
    """Whether each point's new cluster is at a minimal distance of its row of ``D2``, within
    ``tol``."""
    rows = np.arange(len(new_labels))
    return bool(np.all(D2[rows, new_labels] <= D2.min(axis=1) + tol))


def _kmeans_symptoms(problem):
    """The distances of the classic mistakes, each with the message naming it."""
    diag, S, T, counts, M = _sums(problem)
    d = diag[:, None]
    right = d - 2 * S / counts + T / counts**2
    to_points = d - 2 * problem.args["K"] + diag[None, :]  # d(x_i, x_j)^2
    return (
        (
            "the nearest cluster without the term (1/|c|^2) sum_{j,l in c} K_jl: it depends "
            "on the cluster, so it cannot be dropped",
            d - 2 * S / counts,
        ),
        (
            "the nearest cluster with (1/|c|) sum_{j in c} K_ij: the factor 2 of "
            "-(2/|c|) sum_{j in c} K_ij is missing",
            d - S / counts + T / counts**2,
        ),
        (
            "the mean squared distance to the points of the cluster, not the distance to its "
            "barycentre: that adds the spread of the cluster, (1/(2|c|^2)) sum_{j,l in c} "
            "d(x_j, x_l)^2",
            d - 2 * S / counts + (diag @ M) / counts,
        ),
        (
            "the distance to the nearest point of the cluster, not to its barycentre",
            np.where(M.T[None, :, :] > 0, to_points[:, None, :], np.inf).min(axis=2),
        ),
        ("each point to the FARTHEST barycentre: argmax in place of argmin", -right),
    )


def _fit(wrong, D2, new_labels, tol):
    """How well the distances ``wrong`` of a mistake explain ``new_labels``, which ``D2`` (the
    right distances) rejects: 0 not at all; 1 every new cluster is nearest for ``wrong``; 2
    moreover ``wrong`` strictly prefers it to a right cluster at some point that ``D2``
    rejects (not a mere tie of ``wrong``)."""
    if not _nearest(wrong, new_labels, tol):
        return 0
    rows = np.arange(len(new_labels))
    rejected = D2[rows, new_labels] > D2.min(axis=1) + tol
    best = np.argmin(D2, axis=1)
    strict = wrong[rows, new_labels] < wrong[rows, best] - tol
    return 2 if np.any(rejected & strict) else 1


def _kmeans_mistake(problem, D2, new_labels, tol):
    """The message naming the mistake that the labels fit best (several if they fit as well),
    the labels returned unchanged coming before a mistake that only ties; ``None`` if none."""
    fits = [
        (message, _fit(wrong, D2, new_labels, tol)) for message, wrong in _kmeans_symptoms(problem)
    ]
    best = max(level for _, level in fits)
    if best < 2 and np.array_equal(new_labels, problem.args["labels"]):
        return "the labels came back unchanged: assign each point to its nearest barycentre"
    found = [message for message, level in fits if level == best > 0]
    if len(found) > 1:
        return f"{len(found)} mistakes give these labels here: " + "; or ".join(found)
    return found[0] if found else None


def _kernel_kmeans_judge(problem, new_labels, expected):
    K, labels, k = (problem.args[a] for a in ("K", "labels", "n_clusters"))
    D2 = cluster_mean_distances(K, labels, n_clusters=k)
    tol = KMEANS_TOL * max(1.0, float(np.max(np.abs(np.diag(K)))))
    if _nearest(D2, new_labels, tol):
        return None
    message = _kmeans_mistake(problem, D2, new_labels, tol)
    if message is None:
        rows = np.arange(len(labels))
        i = int(np.argmax(D2[rows, new_labels] - D2.min(axis=1)))
        message = (
            f"point {i} went to cluster {new_labels[i]}, at squared distance "
            f"{_text(D2[i, new_labels[i]])} from its barycentre, but cluster "
            f"{int(np.argmin(D2[i]))} is at {_text(D2[i].min())}; the squared distances of "
            f"point {i}: {_text(D2[i])}"
        )
    return Failure(
        "each point to its nearest barycentre, d(x_i, m_c)^2 minimal", message, _text(expected),
        _text(new_labels),
    )  # fmt: skip


KERNEL_KMEANS_STEP = Exercise(
    name="kernel_kmeans_step",
    signature="kernel_kmeans_step(K, labels, n_clusters) -> new_labels",
    statement=(
        "K of shape (n, n), labels of shape (n,), integers 0, ..., n_clusters - 1 with every "
        "cluster non-empty: one assignment step of kernel k-means, the new label of each point, "
        "the cluster c whose barycentre m_c (of the input labels) is nearest in feature space, "
        "d(x_i, m_c)^2 = K_ii - (2/|c|) sum_{j in c} K_ij + (1/|c|^2) sum_{j,l in c} K_jl. "
        "Labels 0, ..., n_clusters - 1, shape (n,). On a tie any of the nearest clusters is "
        "right (the reference takes the lowest index)."
    ),
    tolerance=(
        f"by certificate, ties make the answer non-unique: each point's new cluster at a "
        f"minimal squared distance (cluster_mean_distances), within {_tolerance(KMEANS_TOL)} times "
        f"max(1, max_i K_ii)"
    ),
    chapter="ch13_kernel_kmeans",
    reference=kernel_kmeans_step,
    problems=_kmeans_problems,
    output=labels_output(lambda pb: pb.args["n_clusters"]),
    judge=_kernel_kmeans_judge,
)

EXERCISES = (KERNEL_PCA, KERNEL_CCA, KERNEL_KMEANS_STEP)
