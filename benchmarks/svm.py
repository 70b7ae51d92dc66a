"""C-SVM solvers: the NumPy SMO of kernels_ref against cvxpy and against libsvm (scikit-learn).

Data: two overlapping Gaussian clouds in dimension d = 10 (means +-1/sqrt(d) per coordinate,
identity covariance, fixed seed), Gaussian kernel with sigma = sqrt(d). The Gram matrix is
computed once per n and its time is excluded. For each n and C the script times, in one run,

- ``kernels_ref.svm.soft_margin_l1(K, y, C, tol=TOL)``: the whole public function, including
  its input checks (symmetry; for n <= 2000 also the positive semi-definiteness test, a
  Cholesky factorisation, O(n^3)), and, separately, the solver ``kernels_ref.smo.smo`` alone;
- ``kernels_ref.cvx.soft_margin_l1_dual(K, y, C, solver=None)``: the dual written in cvxpy and
  solved by cvxpy's default solver (OSQP for this QP, at its own default tolerances; the time
  includes the factorisation K = L L^T used to write the quadratic term); skipped above
  ``--cvxpy-max`` points (say so in the table) and run once (it takes minutes at n = 2000);
- scikit-learn's ``SVC(kernel="precomputed", C=C, tol=TOL, cache_size=...)`` on the same K
  (libsvm, with shrinking, its default).

Both SMO implementations stop on the same rule, m(alpha) - M(alpha) <= TOL (LIBSVM's ``eps``,
scikit-learn's ``tol``), in the same units (both solve the same dual with p = -1). The dual
objective sum(alpha) - 1/2 (alpha y)^T K (alpha y) of scikit-learn's answer is computed from
``dual_coef_`` (= y_i alpha_i) and ``support_``. Times are the minimum of ``--repeat`` runs (the
machine is shared: the minimum is the least disturbed run). Ratios are NumPy time / other time
(below 1: NumPy faster). Gaps are relative differences of the dual objectives.

BLAS threads: the script sets ``OPENBLAS_NUM_THREADS=1`` (and ``OMP_NUM_THREADS=1``) unless
they are already set. libsvm is single-threaded; and on a shared, loaded machine a
multithreaded OpenBLAS can be slower by orders of magnitude (measured here under load:
``eigvalsh`` of a 2000 x 2000 matrix 48.6 s with the default threads against 1.9 s with one,
``cholesky`` at n = 500 1.6 s against 0.024 s).

Run: ``.venv/bin/python benchmarks/svm.py`` (``--help`` for the options; ``--profile`` prints a
cProfile of the largest NumPy solve).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

from kernels_ref import cvx  # noqa: E402
from kernels_ref.kernels import gaussian_kernel  # noqa: E402
from kernels_ref.smo import smo  # noqa: E402
from kernels_ref.svm import soft_margin_l1  # noqa: E402

D = 10


def clouds(n, seed=0):
    """Two overlapping Gaussian clouds in R^10 and their Gaussian Gram matrix."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.standard_normal((n, D)) + y[:, None] / np.sqrt(D)
    return gaussian_kernel(X, sigma=np.sqrt(D)), y


def best_time(repeat, fn, *args, **kwargs):
    """Smallest wall time of ``repeat`` calls ``fn(*args, **kwargs)``, and the last result."""
    best, out = np.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return best, out


def dual_objective(alpha, K, y):
    u = alpha * y
    return float(alpha.sum() - 0.5 * u @ K @ u)


def sklearn_fit(K, y, C, tol, cache_mb):
    from sklearn.svm import SVC

    return SVC(kernel="precomputed", C=C, tol=tol, cache_size=cache_mb).fit(K, y)


def sklearn_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    return alpha


def gap(a, b):
    return abs(a - b) / max(abs(a), abs(b))


def run(args):
    rows = []
    for n in args.n:
        K, y = clouds(n)
        for C in args.C:
            t_fit, res = best_time(args.repeat, soft_margin_l1, K, y, C, tol=args.tol)
            t_smo, _ = best_time(args.repeat, smo, K, y, -np.ones(n), C, tol=args.tol)
            t_sk, model = best_time(args.repeat, sklearn_fit, K, y, C, args.tol, args.cache_mb)
            d_np = res.dual_objective
            d_sk = dual_objective(sklearn_alpha(model, n), K, y)
            row = {
                "n": n,
                "C": C,
                "np": t_fit,
                "smo": t_smo,
                "sk": t_sk,
                "it_np": res.n_iter,
                "it_sk": int(model.n_iter_[0]),
                "gap_sk": gap(d_np, d_sk),
                "cvx": None,
            }
            if n <= args.cvxpy_max:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t_cvx, ref = best_time(1, cvx.soft_margin_l1_dual, K, y, C, solver=None)
                row.update(cvx=t_cvx, gap_cvx=gap(d_np, ref.dual_objective))
                row["gap_cvx_sk"] = gap(ref.dual_objective, d_sk)
            rows.append(row)
            print_row(row, header=len(rows) == 1)
    return rows


HEADER = (
    f"{'n':>5} {'C':>5} | {'numpy':>7} {'(smo)':>7} {'cvxpy':>8} {'libsvm':>7} | "
    f"{'np/cvx':>7} {'np/lib':>7} {'smo/lib':>7} | {'iter np':>7} {'iter lib':>8} | "
    f"{'gap np-cvx':>10} {'gap np-lib':>10} {'gap cvx-lib':>11}"
)


def print_row(r, header=False):
    if header:
        print(HEADER)
        print("-" * len(HEADER))
    if r["cvx"] is None:
        cvx_t, ratio_cvx, g1, g3 = "skipped", "-", "-", "-"
    else:
        cvx_t = f"{r['cvx']:8.2f}"
        ratio_cvx = f"{r['np'] / r['cvx']:7.4f}"
        g1, g3 = f"{r['gap_cvx']:10.1e}", f"{r['gap_cvx_sk']:11.1e}"
    print(
        f"{r['n']:5d} {r['C']:5g} | {r['np']:7.3f} {r['smo']:7.3f} {cvx_t:>8} {r['sk']:7.3f} | "
        f"{ratio_cvx:>7} {r['np'] / r['sk']:7.2f} {r['smo'] / r['sk']:7.2f} | "
        f"{r['it_np']:7d} {r['it_sk']:8d} | {g1:>10} {r['gap_sk']:10.1e} {g3:>11}",
        flush=True,
    )


def profile(n, C, tol):
    K, y = clouds(n)
    prof = cProfile.Profile()
    prof.enable()
    soft_margin_l1(K, y, C, tol=tol)
    prof.disable()
    print(f"\ncProfile of soft_margin_l1 at n = {n}, C = {C:g}, tol = {tol:g}:")
    pstats.Stats(prof).sort_stats("tottime").print_stats(10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    parser.add_argument("--C", type=float, nargs="+", default=[1.0, 100.0])
    parser.add_argument("--tol", type=float, default=1e-3, help="m - M stopping tolerance")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cvxpy-max", type=int, default=2000)
    parser.add_argument("--cache-mb", type=float, default=1000.0, help="libsvm kernel cache")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(
        f"Gaussian-kernel C-SVM, two overlapping clouds in R^{D}; stopping rule m - M <= "
        f"{args.tol:g} for both SMOs; cvxpy: default solver at its own tolerances; "
        f"times in seconds, minimum of {args.repeat} runs (cvxpy: 1 run); "
        f"'numpy' = soft_margin_l1 with its input checks, '(smo)' = the solver alone.\n"
    )
    run(args)
    if args.profile:
        profile(max(args.n), max(args.C), args.tol)


if __name__ == "__main__":
    main()
