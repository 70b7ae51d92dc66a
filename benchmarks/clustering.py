"""Kernel k-means: ``kernel_kmeans`` of kernels_ref against a minimal vectorised Lloyd loop.

Data: n points drawn from five Gaussian clouds in R^10 (centres normal with standard deviation
1.5 per coordinate, unit covariance, equal weights, fixed seed), Gaussian kernel
exp(-|x - x'|^2 / (2 sigma^2)) with sigma = sqrt(10). The Gram matrix is computed once per n and
its time is excluded. For each n in ``--n`` (default 1000, 2000, 5000) and k in ``--k``
(default 2, 5), both methods start from the same labels: each point joins the nearest (in
feature space) of k seeds drawn uniformly at random (seed 0), computed before the timing.

- ``kernel_kmeans(K, k, max_iter=--max-iter, init=labels)``, the whole public call: its input
  checks (``check_gram``: one pass over K for finiteness, symmetry and the 2 x 2 minors; for
  n <= 500 also a Cholesky factorisation that completes the PSD test), then Lloyd's
  iteration with its safeguards (ties keep the current cluster, empty clusters are refilled, the
  objective is recorded after every iteration) until no label changes;
- the minimal loop: as many iterations as ``kernel_kmeans`` made, each one indicator matrix M,
  one product K M, the within-cluster sums from it and one argmin of the distances to the
  barycentres without their constant K_ii term; no checks, no objective, no safeguard;
- ``kernels_ref._validation.check_gram(K)`` alone.

Printed: the iterations, the time per iteration of each (whole call / iterations) and their
ratio (above 1: the minimal loop is faster), whether both end at the same partition, and the
validation share: time of check_gram / time of the whole ``kernel_kmeans`` call. Every time is
the median of ``--repeat`` runs (default 3), or of more runs for short calls, until the rounds
of a row fill one second (at most 200: ``benchmarks/_timing.py``); the three calls are
interleaved within each round (each called once, untimed, on a small problem first). A ``*``
after the iterations marks a run stopped by ``--max-iter`` (default 100).

Duration: the default run took about one minute on a 2-core machine. ``--quick`` (n = 1000, one
repeat) takes seconds.

BLAS threads: as in ``svm.py``, one OpenBLAS thread unless ``OPENBLAS_NUM_THREADS`` is set.

Run: ``.venv/bin/python benchmarks/clustering.py`` (``--help`` for the options).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _timing import MIN_TOTAL, median_times  # noqa: E402  (benchmarks/_timing.py)

from kernels_ref._validation import check_gram  # noqa: E402
from kernels_ref.clustering import kernel_kmeans  # noqa: E402
from kernels_ref.exceptions import ConvergenceWarning  # noqa: E402
from kernels_ref.kernels import gaussian_kernel  # noqa: E402

D, CLOUDS = 10, 5


def five_clouds(n, seed=0):
    """n points from five Gaussian clouds in R^10 and their Gaussian Gram matrix."""
    rng = np.random.default_rng(seed)
    centres = 1.5 * rng.standard_normal((CLOUDS, D))
    X = centres[rng.integers(CLOUDS, size=n)] + rng.standard_normal((n, D))
    return gaussian_kernel(X, sigma=np.sqrt(D))


def initial_labels(K, k, seed=0):
    """Each point joins the nearest (in feature space) of k seeds drawn uniformly."""
    seeds = np.random.default_rng(seed).choice(len(K), size=k, replace=False)
    diag = K.diagonal()
    labels = np.argmin(diag[seeds][None, :] - 2.0 * K[:, seeds], axis=1)
    labels[seeds] = np.arange(k)  # every cluster non-empty
    return labels


def lloyd(K, labels, k, n_iter):
    """``n_iter`` plain Lloyd iterations on K: one product K M and one argmin each."""
    rows = np.arange(len(labels))
    for _ in range(n_iter):
        M = np.zeros((len(labels), k))
        M[rows, labels] = 1.0
        counts = np.bincount(labels, minlength=k)
        KM = K @ M
        within = np.bincount(labels, weights=KM[rows, labels], minlength=k)  # sum_{j,l in c} K
        with np.errstate(divide="ignore", invalid="ignore"):  # an empty cluster: no safeguard
            labels = np.argmin(within / counts**2 - 2.0 * KM / counts, axis=1)
    return labels


def same_partition(a, b):
    """Whether two labellings describe the same partition (up to the numbering)."""
    pairs = np.unique(np.stack([a, b]), axis=1)
    return len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1]


def warm_up():
    """One untimed call of each timed function on a small problem (first-call costs)."""
    K = five_clouds(50)
    init = initial_labels(K, 2)
    kernel_kmeans(K, 2, init=init)
    lloyd(K, init, 2, 2)
    check_gram(K)


def run_row(K, k, args):
    init = initial_labels(K, k)

    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # marked by '*'
            return kernel_kmeans(K, k, max_iter=args.max_iter, init=init)

    n_iter = fit().n_iter  # the minimal loop makes as many iterations (untimed call)
    (t_kk, t_ll, t_check), (res, labels, _), _ = median_times(
        args.repeat, fit, lambda: lloyd(K, init, k, n_iter), lambda: check_gram(K)
    )
    return {
        "n": len(K),
        "k": k,
        "iter": res.n_iter,
        "converged": res.converged,
        "kk": t_kk,
        "lloyd": t_ll,
        "check": t_check,
        "same": same_partition(res.labels, labels),
    }


HEADER = (
    f"{'n':>5} {'k':>2} | {'iter':>5} | {'kernel_kmeans ms/it':>19} {'minimal ms/it':>13}"
    f" {'ratio':>6} | {'same':>4} | {'check s':>8} {'valid.':>7}"
)


def print_row(r):
    mark = " " if r["converged"] else "*"
    it = max(r["iter"], 1)
    print(
        f"{r['n']:5d} {r['k']:2d} | {r['iter']:4d}{mark} | {1e3 * r['kk'] / it:19.3f}"
        f" {1e3 * r['lloyd'] / it:13.3f} {r['kk'] / r['lloyd']:6.2f} |"
        f" {'yes' if r['same'] else 'no':>4} | {r['check']:8.3f} {r['check'] / r['kk']:7.1%}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 2000, 5000])
    parser.add_argument("--k", type=int, nargs="+", default=[2, 5])
    parser.add_argument("--max-iter", type=int, default=100, help="kernel_kmeans' max_iter")
    parser.add_argument("--repeat", type=int, default=3, help="runs per time (median)")
    parser.add_argument("--quick", action="store_true", help="n = 1000, one repeat")
    args = parser.parse_args()
    if args.quick:
        args.n, args.repeat = [1000], 1
    print(
        f"Kernel k-means, five Gaussian clouds in R^{D}, sigma = sqrt({D}); same initial labels, "
        f"same iterations; times: median of {args.repeat} runs or more (rounds of a row fill "
        f"{MIN_TOTAL:g} s); ratio = kernel_kmeans / minimal loop; 'valid.' = check_gram / "
        "kernel_kmeans\n"
    )
    warm_up()
    print(HEADER)
    print("-" * len(HEADER))
    for n in args.n:
        K = five_clouds(n)
        for k in args.k:
            print_row(run_row(K, k, args))


if __name__ == "__main__":
    main()
