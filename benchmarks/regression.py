"""Regression solvers: kernel ridge regression and support vector regression against references.

For n training points of sinc data in dimension d = 5 (y = sinc(||x||) + 0.1 noise, x uniform in
[-3, 3]^5, fixed seed) and a Gaussian kernel, the script times, in one run and on the same
precomputed Gram matrices (kernel time excluded),

- KRR: ``kernel_ridge(K, y, lam)`` (validation, then a Cholesky solve) against the explicit
  inverse ``np.linalg.inv(K + lam I) @ y`` and against scikit-learn's
  ``KernelRidge(kernel="precomputed", alpha=lam)``, which minimises the same
  ``||y - K a||^2 + lam a^T K a``;
- SVR: ``svr(K, y, C, epsilon)`` (NumPy SMO on the 2n-variable dual) against scikit-learn's
  ``SVR(kernel="precomputed", C=C, epsilon=epsilon)`` (LIBSVM) and against cvxpy's
  ``svr_dual(..., solver=None)`` (cvxpy's default solver for this QP, OSQP, at cvxpy's default
  tolerances of 1e-5; skipped above ``--cvx-max`` points, where it takes minutes and gigabytes).

SMO and LIBSVM use the same stopping rule, m(alpha) - M(alpha) <= tol (Keerthi et al. 2001; Fan,
Chen & Lin 2005), with the same tol (``--tol``, default LIBSVM's 1e-3), the same second-order
working-set selection, and shrinking. Each cell is the best of ``--repeat`` runs (the machine is
shared). Agreement columns: the largest difference of predictions on ``--n-test`` test points,
and the relative gap of the objectives (the KRR objective; the SVR dual objective
``y.c - eps |c|_1 - c^T K c / 2`` of each answer's c = alpha - alpha*).

Run: ``.venv/bin/python benchmarks/regression.py`` (``--help`` for the options; ``--profile``
adds a cProfile of one ``svr`` call at the largest n).
"""

import argparse
import cProfile
import io
import pstats
import time
import warnings

import numpy as np
from sklearn.kernel_ridge import KernelRidge
from sklearn.svm import SVR

from kernels_ref.cvx import svr_dual
from kernels_ref.kernels import gaussian_kernel
from kernels_ref.ridge import kernel_ridge, kernel_ridge_objective, kernel_ridge_predict
from kernels_ref.svr import svr, svr_predict

SIGMA, LAM, C, EPSILON = 2.0, 1.0, 10.0, 0.1


def best_time(fn, repeat):
    """Smallest wall time of ``repeat`` calls, and the last result."""
    best, out = np.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def sinc_data(n, n_test, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n + n_test, d))
    y = np.sinc(np.linalg.norm(X, axis=1)) + 0.1 * rng.normal(size=n + n_test)
    K_all = gaussian_kernel(X[: n + n_test], X[:n], sigma=SIGMA)
    return np.ascontiguousarray(K_all[:n]), y[:n], K_all[n:]


def svr_dual_value(K, y, coef):
    """Dual objective of SVR at c = alpha - alpha* (with alpha_i alpha*_i = 0)."""
    return float(y @ coef - EPSILON * np.abs(coef).sum() - 0.5 * coef @ K @ coef)


def rel_gap(a, b):
    return abs(a - b) / abs(b)


def krr_row(K, y, K_test, repeat):
    n = len(y)
    t_ours, fit = best_time(lambda: kernel_ridge(K, y, LAM), repeat)
    t_inv, alpha_inv = best_time(lambda: np.linalg.inv(K + LAM * np.eye(n)) @ y, repeat)
    t_sk, model = best_time(lambda: KernelRidge(kernel="precomputed", alpha=LAM).fit(K, y), repeat)
    f = kernel_ridge_predict(fit, K_test)
    J = kernel_ridge_objective(fit.alpha, K, y, LAM)
    return {
        "ours": t_ours,
        "inv": t_inv,
        "sk": t_sk,
        "df_inv": np.abs(f - K_test @ alpha_inv).max(),
        "df_sk": np.abs(f - model.predict(K_test)).max(),
        "gap_inv": rel_gap(kernel_ridge_objective(alpha_inv, K, y, LAM), J),
        "gap_sk": rel_gap(kernel_ridge_objective(model.dual_coef_, K, y, LAM), J),
    }


def svr_row(K, y, K_test, repeat, tol, cvx_max):
    t_ours, res = best_time(lambda: svr(K, y, C, EPSILON, tol=tol), repeat)
    t_sk, model = best_time(
        lambda: SVR(kernel="precomputed", C=C, epsilon=EPSILON, tol=tol).fit(K, y), repeat
    )
    f = svr_predict(res, K_test)
    D = res.dual_objective
    coef_sk = np.zeros(len(y))
    coef_sk[model.support_] = model.dual_coef_[0]
    row = {
        "ours": t_ours,
        "sk": t_sk,
        "iter": res.n_iter,
        "iter_sk": int(np.ravel(model.n_iter_)[0]),
        "df_sk": np.abs(f - model.predict(K_test)).max(),
        "gap_sk": rel_gap(svr_dual_value(K, y, coef_sk), D),
        "cvx": None,
    }
    if len(y) <= cvx_max:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's notes on the default solver
            t_cvx, ref = best_time(lambda: svr_dual(K, y, C, EPSILON, solver=None), 1)
        row.update(
            cvx=t_cvx,
            df_cvx=np.abs(f - svr_predict(ref, K_test)).max(),
            gap_cvx=rel_gap(ref.dual_objective, D),
        )
    return row


def profile_svr(K, y, tol, top=12):
    profiler = cProfile.Profile()
    profiler.enable()
    svr(K, y, C, EPSILON, tol=tol)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    parser.add_argument("--dim", type=int, default=5)
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tol", type=float, default=1e-3, help="SMO / LIBSVM stopping tol")
    parser.add_argument("--cvx-max", type=int, default=2000, help="largest n solved by cvxpy")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    print(
        f"sinc data, d = {args.dim}, Gaussian kernel sigma = {SIGMA}; {args.n_test} test points; "
        f"times: best of {args.repeat} runs (cvxpy: 1 run), seconds"
    )
    print(f"\nKernel ridge regression, lam = {LAM}: kernel_ridge vs inv(K + lam I) @ y and sklearn")
    print(
        f"{'n':>6} {'ours s':>8} {'inv s':>8} {'inv/ours':>9} {'sklearn s':>10} {'sk/ours':>8}"
        f" {'|df| inv':>9} {'|df| sk':>9} {'gap inv':>9} {'gap sk':>9}"
    )
    data = {}
    for n in args.sizes:
        data[n] = sinc_data(n, args.n_test, args.dim)
        r = krr_row(*data[n], args.repeat)
        print(
            f"{n:6d} {r['ours']:8.3f} {r['inv']:8.3f} {r['inv'] / r['ours']:9.2f}"
            f" {r['sk']:10.3f} {r['sk'] / r['ours']:8.2f} {r['df_inv']:9.1e} {r['df_sk']:9.1e}"
            f" {r['gap_inv']:9.1e} {r['gap_sk']:9.1e}"
        )

    print(
        f"\nSupport vector regression, C = {C}, eps = {EPSILON}, tol = {args.tol} (SMO and LIBSVM):"
        " svr vs sklearn SVR (libsvm) and cvxpy svr_dual (default solver, OSQP)"
    )
    print(
        f"{'n':>6} {'ours s':>8} {'iter':>8} {'libsvm s':>9} {'iter':>8} {'ours/lib':>9}"
        f" {'|df| lib':>9} {'gap lib':>9} {'cvxpy s':>8} {'cvx/ours':>9} {'|df| cvx':>9}"
        f" {'gap cvx':>9}"
    )
    for n in args.sizes:
        r = svr_row(*data[n], args.repeat, args.tol, args.cvx_max)
        line = (
            f"{n:6d} {r['ours']:8.3f} {r['iter']:8d} {r['sk']:9.3f} {r['iter_sk']:8d}"
            f" {r['ours'] / r['sk']:9.2f} {r['df_sk']:9.1e} {r['gap_sk']:9.1e}"
        )
        if r["cvx"] is None:
            line += f" {'skipped (n > ' + str(args.cvx_max) + ')':>38}"
        else:
            line += (
                f" {r['cvx']:8.2f} {r['cvx'] / r['ours']:9.1f} {r['df_cvx']:9.1e}"
                f" {r['gap_cvx']:9.1e}"
            )
        print(line)
    print(
        "|df|: max |prediction difference| on the test points; gap: relative objective gap "
        "(KRR objective; SVR dual objective)"
    )
    if args.profile:
        n = max(args.sizes)
        K, y, _ = data[n]
        print(f"\nProfile of one svr call, n = {n} (sorted by own time):")
        print(profile_svr(K, y, args.tol))


if __name__ == "__main__":
    main()
