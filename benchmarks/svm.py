"""C-SVM: the NumPy SMO of kernels_ref against libsvm (scikit-learn), on six data families.

What is timed. For each data family, size n and C, on the same precomputed Gaussian Gram
matrix K (computed once per family and n; its time is excluded), with the stopping tolerance
``--tol`` (default 1e-3) for both solvers:

- ``kernels_ref.svm.soft_margin_l1(K, y, C, tol=tol)``: the whole public call, including its
  input checks (``check_gram``: one pass over K for finiteness, symmetry and the 2 x 2 minors;
  for n <= 500 also a Cholesky factorisation that completes the positive semi-definiteness
  test);
- the solver alone: ``kernels_ref.smo._smo(K, y, -1, C, tol=tol)``, the unvalidated core that
  ``soft_margin_l1`` calls, on the same problem (same path, same iterations);
- libsvm: ``sklearn.svm.SVC(kernel="precomputed", C=C, tol=tol, cache_size=--cache-mb).fit(K,
  y)``, the whole call (scikit-learn's own input checks included); shrinking on, as for SMO;
- ``soft_margin_l1(K, y, C)`` at the package's default tolerance 1e-8 (columns ``def s`` and
  ``def/lib``, against libsvm at ``--tol``; a ``*`` marks a run that did not certify 1e-8): the
  price of reference precision, SMO with its second-order finish.
  The default cache, 2000 MB, holds the whole matrix up to n = 22000 (libsvm caches float32).

Both SMOs use the second-order working-set selection of Fan, Chen & Lin (2005) and stop on the
same rule, m(alpha) - M(alpha) <= tol (LIBSVM's ``eps``, scikit-learn's ``tol``), in the same
units (both solve the dual with p = -1). Each time is the median of ``--repeat`` runs (default
3), or of more runs for short calls, until the rounds of a row fill one second (at most 200:
``benchmarks/_timing.py``); the three calls are interleaved within each round, so that a
disturbance of the shared machine hits all three alike, and each was called once, untimed, on a
small problem first.

Per row: times in seconds; ratios NumPy / libsvm for the whole call and for the solver alone
(below 1: NumPy faster); iterations of each (``res.n_iter``, ``model.n_iter_[0]``); µs per
iteration of each (solver alone / its iterations; libsvm: whole call / its iterations, an upper
bound); the relative dual-objective gap (D_numpy - D_libsvm) / |D_libsvm| with D = sum(alpha) -
1/2 (alpha y)^T K (alpha y), libsvm's alpha read from ``dual_coef_`` and ``support_`` (positive:
NumPy's dual objective is higher, the dual being maximised); the validation share (whole call -
solver) / solver; for the run at the default tolerance, the attempts of the second-order finish
and what ended the run (``res.finish_attempts``, ``res.ended_by``: ``smo`` for SMO's stopping
rule, ``finish`` for a point of the finish). A ``*`` after NumPy's iterations marks a run
stopped by its iteration limit. With ``--cvxpy-max N > 0``, cvxpy's
``kernels_ref.cvx.soft_margin_l1_dual`` (default solver, its own tolerances; one run) is timed
too for n <= N, with the gap of its dual objective.

The per-iteration floor, printed first: the minimal sequence of NumPy calls of one SMO
iteration, the eleven vectorised calls of the hot path of ``kernels_ref.smo._iterate`` (one
equality constraint, constant diagonal), on preallocated arrays of size m, for m in
``--floor-m``: argmax of v + pen (two calls), b = v_i - v, a = den - K_i, maximum(b, 0), b / a,
* b, argmax, K_i - K_j, * d, v -= .... The rows K_i, K_j come from a small block that stays in
cache, and the scalar work of an iteration (the pair update in Python floats) is left out: no
SMO iteration in NumPy costs less. Median over ``--repeat`` timings of ``--floor-iter``
iterations, and a least-squares fit c0 + c1 m.

Data families (``--families``; labels +-1; Gaussian kernel exp(-|x - x'|^2 / (2 sigma^2));
fixed seeds, so every run solves the same problems):

- ``blobs``: two well-separated Gaussian clouds in R^10, identity covariance, means +-3/sqrt(10)
  in every coordinate (6 apart; classes balanced at random), sigma = sqrt(10);
- ``xor``: four Gaussian clusters in the plane centred at (+-1, +-1), standard deviation 0.5,
  label the sign of the product of the centre's coordinates (XOR), sigma = 1;
- ``overlap``: two overlapping Gaussian clouds in R^10, identity covariance, means
  +-1/sqrt(10) in every coordinate (2/sqrt(10) apart along each axis, 2 apart in all),
  sigma = sqrt(10);
- ``classification``: ``sklearn.datasets.make_classification(n, n_features=20,
  random_state=0)`` (2 informative, 2 redundant features, 1% of labels flipped), standardised,
  sigma = sqrt(20);
- ``breast_cancer``: ``sklearn.datasets.load_breast_cancer`` (569 points, 30 features),
  standardised, y = +1 for benign, sigma = sqrt(30);
- ``digits``: ``sklearn.datasets.load_digits`` (1797 images, 64 pixels), standardised (constant
  pixels left at 0), y = +1 for the digits 0-4, sigma = 8 = sqrt(64).

The synthetic families are generated at each n. A real data set runs at the sizes it has:
min(n, its size) for each n asked, each size once (with the default n: breast cancer at 569,
digits at 1000 and 1797); a subset is the first points of a fixed permutation (seed 0), after
standardising the whole set. Standardised: every feature to mean 0 and variance 1.

The summary at the end gives, per n, the worst and the median ratio NumPy / libsvm over the
families and C, for the whole call and for the solver alone.

BLAS threads: the script sets ``OPENBLAS_NUM_THREADS=1`` (and ``OMP_NUM_THREADS=1``) unless
they are already set. libsvm is single-threaded, SMO's vectorised calls are too; and on a shared,
loaded machine a multithreaded OpenBLAS can be slower by orders of magnitude (measured on a
loaded 2-core machine: ``eigvalsh`` of a 2000 x 2000 matrix 48.6 s with the default threads
against 1.9 s with one).

Duration. The default run (n in {1000, 2000, 5000, 8000}, C in {1, 10, 100, 1000}, 3 repeats,
19 (family, n) pairs, 76 rows, nine solves per row) took about 6 minutes on a 2-core machine;
the largest C at the largest n take the largest share (overlap, n = 8000, C = 1000: about 2
minutes for its nine solves); no row reaches SMO's default iteration limit, max(10^7, 100 n).
The peak memory is about 1.5 GB (the Gram matrix at n = 8000, SMO's copy of its shrunk block,
libsvm's cache). A quick run, under a minute: ``--quick`` (n = 1000 and 2000, C = 1 and 100, one
repeat, floor at m <= 2000).

Run: ``.venv/bin/python benchmarks/svm.py`` (``--help`` for the options; ``--profile`` prints a
cProfile of one ``soft_margin_l1`` at the largest n and C of the first family).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _timing import MIN_TOTAL, median_times  # noqa: E402  (benchmarks/_timing.py)
from sklearn.datasets import load_breast_cancer, load_digits, make_classification  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from kernels_ref import _solver  # noqa: E402
from kernels_ref import smo as smo_module  # noqa: E402
from kernels_ref.exceptions import ConvergenceWarning  # noqa: E402
from kernels_ref.kernels import gaussian_kernel  # noqa: E402
from kernels_ref.svm import soft_margin_l1  # noqa: E402

# --- data families ------------------------------------------------------------------------


def standardise(X):
    """Every feature to mean 0 and variance 1 (a constant feature is left at 0)."""
    X = np.asarray(X, dtype=float)
    std = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)


def two_clouds(n, shift, d=10, seed=0):
    """Two Gaussian clouds in R^d, identity covariance, means +-shift/sqrt(d) per coordinate."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.standard_normal((n, d)) + shift * y[:, None] / np.sqrt(d)
    return gaussian_kernel(X, sigma=np.sqrt(d)), y


def blobs(n):
    """Easy: two well-separated clouds (means 6 apart), sigma = sqrt(10)."""
    return two_clouds(n, 3.0)


def overlap(n):
    """Noisy: two overlapping clouds (means 2 apart), sigma = sqrt(10)."""
    return two_clouds(n, 1.0)


def xor(n, seed=0):
    """Four clusters at (+-1, +-1), std 0.5, XOR labels, sigma = 1."""
    rng = np.random.default_rng(seed)
    centres = rng.choice([-1.0, 1.0], size=(n, 2))
    X = centres + 0.5 * rng.standard_normal((n, 2))
    y = centres[:, 0] * centres[:, 1]
    return gaussian_kernel(X, sigma=1.0), y


def classification(n):
    """make_classification, 20 features, standardised, sigma = sqrt(20)."""
    X, t = make_classification(n_samples=n, n_features=20, random_state=0)
    return gaussian_kernel(standardise(X), sigma=np.sqrt(20)), np.where(t == 1, 1.0, -1.0)


def real_data(X, y, n, sigma):
    """The first n points of a fixed permutation of a standardised data set."""
    order = np.random.default_rng(0).permutation(len(y))[:n]
    return gaussian_kernel(standardise(X)[order], sigma=sigma), y[order]


def breast_cancer(n):
    """load_breast_cancer, standardised, y = +1 for benign, sigma = sqrt(30)."""
    X, t = load_breast_cancer(return_X_y=True)
    return real_data(X, np.where(t == 1, 1.0, -1.0), n, np.sqrt(30))


def digits(n):
    """load_digits, standardised, y = +1 for the digits 0-4, sigma = 8."""
    X, t = load_digits(return_X_y=True)
    return real_data(X, np.where(t < 5, 1.0, -1.0), n, 8.0)


#: name -> (function of n returning (K, y), number of points available: None = any n)
FAMILIES = {
    "blobs": (blobs, None),
    "xor": (xor, None),
    "overlap": (overlap, None),
    "classification": (classification, None),
    "breast_cancer": (breast_cancer, 569),
    "digits": (digits, 1797),
}


def sizes_of(family, ns):
    """The sizes a family runs at: each n, or for a real data set min(n, its size), once."""
    available = FAMILIES[family][1]
    return sorted({n if available is None else min(n, available) for n in ns})


# --- the per-iteration floor --------------------------------------------------------------


def floor_iteration(rows, v, pen_up, den, buf_b, buf_a, buf_s, d):
    """The vectorised calls of one iteration of ``_iterate`` (one constraint, unit diagonal)."""
    np.add(v, pen_up, out=buf_s)  # v_t on I_up, -inf elsewhere
    i = int(buf_s.argmax())
    np.subtract(buf_s[i], v, out=buf_b)  # b_it = v_i - v_t
    np.subtract(den, rows[i % 8], out=buf_a)  # a_it / 2 on I_low, +inf elsewhere
    np.maximum(buf_b, 0.0, out=buf_b)
    np.divide(buf_b, buf_a, out=buf_s)
    buf_s *= buf_b  # b_it^2 / a_it
    j = int(buf_s.argmax())
    np.subtract(rows[i % 8], rows[j % 8], out=buf_a)  # K_i - K_j
    buf_a *= d
    v -= buf_a


def floor_time(m, n_iter, repeat, seed=0):
    """Median over ``repeat`` timings of the µs per floor iteration at size m."""
    rng = np.random.default_rng(seed)
    rows = rng.random((8, m))  # eight Gram rows, values in [0, 1): they stay in cache
    v = rng.standard_normal(m)
    pen_up = np.where(rng.random(m) < 0.5, 0.0, -np.inf)
    den = np.where(rng.random(m) < 0.5, 1.0 + 0.5 * _solver.TAU, np.inf)
    buf_b, buf_a, buf_s = np.empty(m), np.empty(m), np.empty(m)
    args = (rows, v, pen_up, den, buf_b, buf_a, buf_s, 1e-12)
    for _ in range(min(n_iter, 100)):  # warm-up
        floor_iteration(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n_iter):
            floor_iteration(*args)
        times.append((time.perf_counter() - start) / n_iter * 1e6)
    return statistics.median(times)


def run_floor(ms, n_iter, repeat):
    """Print the floor per m and its fit c0 + c1 m; return (c0, c1) in µs and µs per element."""
    print("Per-iteration floor: the eleven vectorised NumPy calls of one SMO iteration")
    print(f"{'m':>6} {'µs/iter':>8}")
    times = []
    for m in ms:
        times.append(floor_time(m, n_iter, repeat))
        print(f"{m:6d} {times[-1]:8.2f}", flush=True)
    if len(ms) < 2:
        print()
        return None
    c1, c0 = np.polyfit(np.asarray(ms, dtype=float), times, 1)
    print(f"fit: {c0:.2f} µs + {1e3 * c1:.3f} ns x m\n")
    return c0, c1


# --- one row ------------------------------------------------------------------------------


def dual_objective(alpha, K, y):
    u = alpha * y
    return float(alpha.sum() - 0.5 * u @ K @ u)


def sklearn_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    return alpha


def warm_up(tol):
    """One untimed call of each timed function on a small problem: the first call of a process
    pays for imports and first-touch costs that are not the solvers'."""
    K, y = blobs(50)
    soft_margin_l1(K, y, 1.0, tol=tol)
    smo_module._smo(K, y, -np.ones(len(y)), 1.0, tol=tol)
    SVC(kernel="precomputed", C=1.0, tol=tol).fit(K, y)


def run_row(K, y, C, args):
    """Time the three calls (interleaved, ``args.repeat`` rounds or more) and return the row."""
    n = len(y)
    p = -np.ones(n)

    def solver():
        return smo_module._smo(K, y, p, C, tol=args.tol)

    svc = SVC(kernel="precomputed", C=C, tol=args.tol, cache_size=args.cache_mb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported by the row's '*'
        (t_fit, t_smo, t_lib, t_def), (res, sol, model, res_def), _ = median_times(
            args.repeat,
            lambda: soft_margin_l1(K, y, C, tol=args.tol),
            solver,
            lambda: svc.fit(K, y),
            lambda: soft_margin_l1(K, y, C),  # the package's default tolerance, 1e-8
        )
    d_lib = dual_objective(sklearn_alpha(model, n), K, y)
    row = {
        "n": n,
        "C": C,
        "fit": t_fit,
        "smo": t_smo,
        "lib": t_lib,
        "def": t_def,
        "def_converged": res_def.converged,
        "it_np": res.n_iter,
        "it_smo": sol.n_iter,
        "it_lib": int(model.n_iter_[0]),
        "converged": res.converged,
        "gap": (res.dual_objective - d_lib) / abs(d_lib),
        "finish": f"{res_def.finish_attempts} {res_def.ended_by}",
        "cvx": None,
    }
    if n <= args.cvxpy_max:
        from kernels_ref import cvx  # cvxpy only when asked for

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's notes on the default solver
            (t,), (ref,), _ = median_times(
                1, lambda: cvx.soft_margin_l1_dual(K, y, C, solver=None), min_total=0.0
            )
        d_cvx = ref.dual_objective
        row.update(cvx=t, gap_cvx=(res.dual_objective - d_cvx) / abs(d_cvx))
    return row


# --- output -------------------------------------------------------------------------------

HEADER = (
    f"{'family':<14} {'n':>5} {'C':>5} | {'fit s':>7} {'smo s':>7} {'lib s':>7} | "
    f"{'fit/lib':>7} {'smo/lib':>7} | {'def s':>7} {'def/lib':>8} | "
    f"{'iter np':>8} {'iter lib':>8} | "
    f"{'µs/it np':>8} {'µs/it lib':>9} | {'dual gap':>9} | {'valid.':>6} | "
    f"{'def: attempts, ended by':>23}"
)


def print_row(family, r, cvxpy):
    it_mark = " " if r["converged"] else "*"
    us_np = 1e6 * r["smo"] / max(r["it_np"], 1)
    us_lib = 1e6 * r["lib"] / max(r["it_lib"], 1)
    line = (
        f"{family:<14} {r['n']:5d} {r['C']:5g} | {r['fit']:7.3f} {r['smo']:7.3f} "
        f"{r['lib']:7.3f} | {r['fit'] / r['lib']:7.2f} {r['smo'] / r['lib']:7.2f} | "
        f"{r['def']:7.3f} {r['def'] / r['lib']:7.2f}{' ' if r['def_converged'] else '*'} | "
        f"{r['it_np']:7d}{it_mark} {r['it_lib']:8d} | {us_np:8.1f} {us_lib:9.1f} | "
        f"{r['gap']:9.1e} | {(r['fit'] - r['smo']) / r['smo']:6.1%} | {r['finish']:>23}"
    )
    if cvxpy:
        if r["cvx"] is None:
            line += f" | {'skipped':>8}"
        else:
            line += f" | {r['cvx']:8.2f} {r['fit'] / r['cvx']:7.4f} {r['gap_cvx']:9.1e}"
    print(line, flush=True)


def print_summary(rows):
    print("\nSummary: ratio NumPy / libsvm over the families and C, per n (median, worst)")
    print(f"{'n':>5} {'rows':>4} | {'fit/lib median':>14} {'worst':>7} | "
          f"{'smo/lib median':>14} {'worst':>7} | {'def/lib median':>14} {'worst':>7}")  # fmt: skip
    for n in sorted({r["n"] for r in rows}):
        fit = [r["fit"] / r["lib"] for r in rows if r["n"] == n]
        sol = [r["smo"] / r["lib"] for r in rows if r["n"] == n]
        dft = [r["def"] / r["lib"] for r in rows if r["n"] == n]
        print(
            f"{n:5d} {len(fit):4d} | {statistics.median(fit):14.2f} {max(fit):7.2f} | "
            f"{statistics.median(sol):14.2f} {max(sol):7.2f} | "
            f"{statistics.median(dft):14.2f} {max(dft):7.2f}"
        )


def profile(family, n, C, tol):
    K, y = FAMILIES[family][0](n)
    prof = cProfile.Profile()
    prof.enable()
    soft_margin_l1(K, y, C, tol=tol)
    prof.disable()
    print(f"\ncProfile of soft_margin_l1 on {family}, n = {n}, C = {C:g}, tol = {tol:g}:")
    pstats.Stats(prof).sort_stats("tottime").print_stats(10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--families", nargs="+", choices=list(FAMILIES), default=list(FAMILIES),
        metavar="FAMILY", help=f"data families, among {', '.join(FAMILIES)} (default: all)",
    )  # fmt: skip
    parser.add_argument(
        "--n", type=int, nargs="+", default=[1000, 2000, 5000, 8000],
        help="sizes (a real data set runs at min(n, its size))",
    )  # fmt: skip
    parser.add_argument("--C", type=float, nargs="+", default=[1.0, 10.0, 100.0, 1000.0])
    parser.add_argument("--tol", type=float, default=1e-3, help="m - M stopping tolerance")
    parser.add_argument("--repeat", type=int, default=3, help="runs per time (median)")
    parser.add_argument("--cache-mb", type=float, default=2000.0, help="libsvm kernel cache")
    parser.add_argument(
        "--floor-m", type=int, nargs="*", default=[500, 1000, 2000, 5000, 8000],
        help="sizes of the per-iteration floor (two or more for the fit; none: skip it)",
    )  # fmt: skip
    parser.add_argument("--floor-iter", type=int, default=2000, help="iterations per timing")
    parser.add_argument(
        "--cvxpy-max", type=int, default=0, help="also time cvxpy up to this n (0: never)"
    )
    parser.add_argument(
        "--quick", action="store_true",
        help="n = 1000 2000, C = 1 100, one repeat, floor at m = 500 1000 2000",
    )  # fmt: skip
    parser.add_argument(
        "--profile", action="store_true", help="cProfile of soft_margin_l1 at the largest n, C"
    )
    args = parser.parse_args()
    if args.quick:
        args.n, args.C, args.repeat, args.floor_m = [1000, 2000], [1.0, 100.0], 1, [500, 1000, 2000]
    print(
        f"Gaussian-kernel C-SVM, stopping rule m - M <= {args.tol:g} for both SMOs; times in "
        f"seconds, median of {args.repeat} runs or more (rounds of a row fill {MIN_TOTAL:g} s); "
        "'fit' = soft_margin_l1 (with its input "
        "checks), 'smo' = the solver alone (_smo), 'lib' = SVC(kernel='precomputed').fit; "
        "'valid.' = (fit - smo) / smo.\n"
    )
    if args.floor_m:
        run_floor(args.floor_m, args.floor_iter, args.repeat)
    cvxpy = args.cvxpy_max > 0
    warm_up(args.tol)
    header = HEADER + (f" | {'cvxpy s':>8} {'fit/cvx':>7} {'gap cvx':>9}" if cvxpy else "")
    print(header)
    print("-" * len(header))
    rows = []
    for family in args.families:
        for n in sizes_of(family, args.n):
            K, y = FAMILIES[family][0](n)
            for C in args.C:
                rows.append(run_row(K, y, C, args))
                print_row(family, rows[-1], cvxpy)
            del K
    if any(r["it_np"] != r["it_smo"] for r in rows):
        print("note: soft_margin_l1 and _smo made different numbers of iterations on some rows")
    print_summary(rows)
    if args.profile:
        family = args.families[0]
        profile(family, max(sizes_of(family, args.n)), max(args.C), args.tol)


if __name__ == "__main__":
    main()
