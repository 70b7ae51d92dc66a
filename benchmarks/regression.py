"""Regression: kernel ridge regression and SVR of kernels_ref against scikit-learn.

Data: n training points of sinc data in dimension d = 5 (x uniform in [-3, 3]^5, y =
sinc(|x|) + 0.1 noise, fixed seed) and ``--n-test`` test points, Gaussian kernel
exp(-|x - x'|^2 / (2 sigma^2)) with sigma = 2. The Gram matrices are computed once per n and
their time is excluded. Every time is the median of ``--repeat`` runs (default 3), or of more
runs for short calls, until the rounds of a row fill one second (at most 200:
``benchmarks/_timing.py``); the calls of one row are interleaved within each round, so that a
disturbance of the shared machine hits them alike, and each solver was called once, untimed, on
a small problem first.

KRR rows, n in ``--krr-sizes`` (default 500, 1000, 2000, 5000), lambda = 1:

- ``kernel_ridge(K, y, lam)``, the whole public call: its input checks, then a Cholesky
  factorisation of K + lam I and two blocked triangular solves;
- scikit-learn's ``KernelRidge(kernel="precomputed", alpha=lam).fit(K, y)``, which minimises the
  same |y - K a|^2 + lam a^T K a (a Cholesky solve in SciPy);
- ``check_gram(K, psd=False)`` then ``psd_minors_ok`` (``kernels_ref._validation``) alone, the
  validation inside ``kernel_ridge`` (one pass over K for finiteness and symmetry, one for the
  2 x 2 minors; the Cholesky pivots of the solve complete the PSD test at no cost), and its
  share of the whole call.

Printed: the times, the ratio ours / scikit-learn (below 1: ours faster), the validation share,
the largest difference of the predictions on the test points and the relative gap of the KRR
objectives (J_sklearn - J_ours) / |J_ours| (positive: ours lower, the objective being
minimised). With ``--inv`` the explicit inverse ``np.linalg.inv(K + lam I) @ y`` is timed too.

SVR rows, n in ``--svr-sizes`` (default 1000, 2000, 5000), C in ``--svr-C`` (default 1, 10,
100), epsilon = 0.1, stopping tolerance ``--tol`` (default LIBSVM's 1e-3) for both:

- ``svr(K, y, C, epsilon, tol=tol)``, the whole public call (NumPy SMO on the 2n-variable dual);
- ``svr(K, y, C, epsilon)`` at the package's default tolerance 1e-8 (columns ``def s`` and
  ``def/lib``, against libsvm at ``--tol``; a ``*`` marks a run that did not certify 1e-8);
- scikit-learn's ``SVR(kernel="precomputed", C=C, epsilon=epsilon, tol=tol).fit(K, y)`` (LIBSVM,
  the whole call, scikit-learn's input checks included).

Both use the second-order working-set selection of Fan, Chen & Lin (2005), shrinking, and the
stopping rule m(alpha) - M(alpha) <= tol. Printed: the times, the ratio ours / libsvm, the
iterations of each, µs per iteration (ours: (whole call - check_gram time) / iterations;
libsvm: whole call / iterations, an upper bound), the validation share check_gram / whole call,
the largest prediction difference on the test points and the relative gap (D_ours - D_libsvm) /
|D_libsvm| of the dual objectives y.c - eps |c|_1 - c^T K c / 2 of each answer's c = alpha -
alpha* (positive: ours higher, the dual being maximised). A ``*`` after our iterations marks a
run stopped by its iteration limit. With ``--cvx-max N > 0``, cvxpy's ``svr_dual`` (default
solver at its own tolerances; one run) is timed too for n <= N.

Duration: the default run took about 3 minutes on a 2-core machine, half of it in the SVR at
n = 5000, C = 100 (1.3 to 1.7 million iterations in each of its six solves). ``--quick``
(KRR n = 500 and 1000, SVR n = 1000 with C = 1 and 10, one repeat) takes seconds.

BLAS threads: as in ``svm.py``, one OpenBLAS thread unless ``OPENBLAS_NUM_THREADS`` is set
(libsvm is single-threaded).

Run: ``.venv/bin/python benchmarks/regression.py`` (``--help`` for the options; ``--profile``
adds a cProfile of one ``svr`` call at the largest n and C).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _timing import MIN_TOTAL, median_times  # noqa: E402  (benchmarks/_timing.py)
from sklearn.kernel_ridge import KernelRidge  # noqa: E402
from sklearn.svm import SVR  # noqa: E402

from kernels_ref._validation import check_gram, psd_minors_ok  # noqa: E402
from kernels_ref.exceptions import ConvergenceWarning  # noqa: E402
from kernels_ref.kernels import gaussian_kernel  # noqa: E402
from kernels_ref.ridge import (  # noqa: E402
    kernel_ridge,
    kernel_ridge_objective,
    kernel_ridge_predict,
)
from kernels_ref.svr import svr, svr_predict  # noqa: E402

SIGMA, LAM, EPSILON, DIM = 2.0, 1.0, 0.1, 5


def sinc_data(n, n_test, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n + n_test, DIM))
    y = np.sinc(np.linalg.norm(X, axis=1)) + 0.1 * rng.normal(size=n + n_test)
    K_all = gaussian_kernel(X, X[:n], sigma=SIGMA)
    return np.ascontiguousarray(K_all[:n]), y[:n], K_all[n:]


def svr_dual_value(K, y, coef):
    """Dual objective of SVR at c = alpha - alpha* (with alpha_i alpha*_i = 0)."""
    return float(y @ coef - EPSILON * np.abs(coef).sum() - 0.5 * coef @ K @ coef)


def warm_up(tol):
    """One untimed call of each timed function on a small problem: the first call of a process
    pays for imports and first-touch costs that are not the solvers'."""
    K, y, _ = sinc_data(50, 1)
    kernel_ridge(K, y, LAM)
    KernelRidge(kernel="precomputed", alpha=LAM).fit(K, y)
    svr(K, y, 1.0, EPSILON, tol=tol)
    SVR(kernel="precomputed", C=1.0, epsilon=EPSILON, tol=tol).fit(K, y)


def krr_row(K, y, K_test, args):
    n = len(y)
    fns = [
        lambda: kernel_ridge(K, y, LAM),
        lambda: KernelRidge(kernel="precomputed", alpha=LAM).fit(K, y),
        lambda: psd_minors_ok(check_gram(K, psd=False), np.max(np.abs(K))),  # its validation
    ]
    if args.inv:
        fns.append(lambda: np.linalg.inv(K + LAM * np.eye(n)) @ y)
    times, outs, _ = median_times(args.repeat, *fns)
    fit, model = outs[0], outs[1]
    f = kernel_ridge_predict(fit, K_test)
    J = kernel_ridge_objective(fit.alpha, K, y, LAM)
    row = {
        "n": n,
        "ours": times[0],
        "sk": times[1],
        "check": times[2],
        "df_sk": np.abs(f - model.predict(K_test)).max(),
        "gap_sk": (kernel_ridge_objective(model.dual_coef_, K, y, LAM) - J) / abs(J),
    }
    if args.inv:
        row.update(inv=times[3], df_inv=np.abs(f - K_test @ outs[3]).max())
    return row


def svr_row(K, y, K_test, C, t_check, args):
    (t_ours, t_sk, t_def), (res, model, res_def), _ = median_times(
        args.repeat,
        lambda: svr(K, y, C, EPSILON, tol=args.tol),
        lambda: SVR(kernel="precomputed", C=C, epsilon=EPSILON, tol=args.tol).fit(K, y),
        lambda: svr(K, y, C, EPSILON),  # the package's default tolerance, 1e-8
    )
    f = svr_predict(res, K_test)
    coef_sk = np.zeros(len(y))
    coef_sk[model.support_] = model.dual_coef_[0]
    d_sk = svr_dual_value(K, y, coef_sk)
    row = {
        "n": len(y),
        "C": C,
        "ours": t_ours,
        "sk": t_sk,
        "def": t_def,
        "def_converged": res_def.converged,
        "check": t_check,
        "iter": res.n_iter,
        "converged": res.converged,
        "iter_sk": int(np.ravel(model.n_iter_)[0]),
        "df_sk": np.abs(f - model.predict(K_test)).max(),
        "gap_sk": (res.dual_objective - d_sk) / abs(d_sk),
        "cvx": None,
    }
    if len(y) <= args.cvx_max:
        from kernels_ref.cvx import svr_dual  # cvxpy only when asked for

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's notes on the default solver
            (t_cvx,), (ref,), _ = median_times(
                1, lambda: svr_dual(K, y, C, EPSILON, solver=None), min_total=0.0
            )
        row.update(
            cvx=t_cvx,
            df_cvx=np.abs(f - svr_predict(ref, K_test)).max(),
            gap_cvx=(res.dual_objective - ref.dual_objective) / abs(ref.dual_objective),
        )
    return row


def print_krr(r, inv, header=False):
    if header:
        line = (
            f"{'n':>6} | {'ours s':>8} {'sklearn s':>9} {'ours/sk':>8} | {'check s':>8}"
            f" {'valid.':>7} | {'|df| sk':>9} {'gap sk':>9}"
        )
        print(line + (f" | {'inv s':>8} {'ours/inv':>8} {'|df| inv':>9}" if inv else ""))
    line = (
        f"{r['n']:6d} | {r['ours']:8.3f} {r['sk']:9.3f} {r['ours'] / r['sk']:8.2f} |"
        f" {r['check']:8.3f} {r['check'] / r['ours']:7.1%} | {r['df_sk']:9.1e} {r['gap_sk']:9.1e}"
    )
    if inv:
        line += f" | {r['inv']:8.3f} {r['ours'] / r['inv']:8.2f} {r['df_inv']:9.1e}"
    print(line, flush=True)


def print_svr(r, cvx_max, header=False):
    if header:
        line = (
            f"{'n':>6} {'C':>5} | {'ours s':>8} {'libsvm s':>8} {'ours/lib':>8} |"
            f" {'def s':>8} {'def/lib':>8} |"
            f" {'iter':>8} {'iter lib':>8} | {'µs/it':>7} {'µs/it lib':>9} | {'valid.':>7} |"
            f" {'|df| lib':>9} {'gap lib':>9}"
        )
        print(line + (f" | {'cvxpy s':>8} {'ours/cvx':>8} {'gap cvx':>9}" if cvx_max else ""))
    mark = " " if r["converged"] else "*"
    us = 1e6 * (r["ours"] - r["check"]) / max(r["iter"], 1)
    us_sk = 1e6 * r["sk"] / max(r["iter_sk"], 1)
    line = (
        f"{r['n']:6d} {r['C']:5g} | {r['ours']:8.3f} {r['sk']:8.3f} {r['ours'] / r['sk']:8.2f} |"
        f" {r['def']:8.3f} {r['def'] / r['sk']:7.2f}{' ' if r['def_converged'] else '*'} |"
        f" {r['iter']:7d}{mark} {r['iter_sk']:8d} | {us:7.1f} {us_sk:9.1f} |"
        f" {r['check'] / r['ours']:7.1%} | {r['df_sk']:9.1e} {r['gap_sk']:9.1e}"
    )
    if cvx_max:
        if r["cvx"] is None:
            line += f" | {'skipped':>8}"
        else:
            line += f" | {r['cvx']:8.2f} {r['ours'] / r['cvx']:8.3f} {r['gap_cvx']:9.1e}"
    print(line, flush=True)


def profile_svr(K, y, C, tol, top=12):
    profiler = cProfile.Profile()
    profiler.enable()
    svr(K, y, C, EPSILON, tol=tol)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--krr-sizes", type=int, nargs="*", default=[500, 1000, 2000, 5000],
        help="n of the KRR rows (none: no KRR)",
    )  # fmt: skip
    parser.add_argument(
        "--svr-sizes", type=int, nargs="*", default=[1000, 2000, 5000],
        help="n of the SVR rows (none: no SVR)",
    )  # fmt: skip
    parser.add_argument("--svr-C", type=float, nargs="+", default=[1.0, 10.0, 100.0])
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="runs per time (median)")
    parser.add_argument("--tol", type=float, default=1e-3, help="SMO / LIBSVM stopping tol")
    parser.add_argument("--inv", action="store_true", help="also time inv(K + lam I) @ y")
    parser.add_argument(
        "--cvx-max", type=int, default=0, help="also time cvxpy's SVR up to this n (0: never)"
    )
    parser.add_argument(
        "--quick", action="store_true",
        help="KRR n = 500 1000, SVR n = 1000 with C = 1 10, one repeat",
    )  # fmt: skip
    parser.add_argument(
        "--profile", action="store_true", help="cProfile of svr at the largest n and C"
    )
    args = parser.parse_args()
    if args.quick:
        args.krr_sizes, args.svr_sizes, args.svr_C = [500, 1000], [1000], [1.0, 10.0]
        args.repeat = 1

    print(
        f"sinc data, d = {DIM}, Gaussian kernel sigma = {SIGMA}; {args.n_test} test points; "
        f"times in seconds, median of {args.repeat} runs or more (rounds of a row fill "
        f"{MIN_TOTAL:g} s); 'valid.' = time of the input checks / time of the whole call"
    )
    warm_up(args.tol)
    data, checks = {}, {}

    def get(n):
        if n not in data:
            data[n] = sinc_data(n, args.n_test)
        return data[n]

    if args.krr_sizes:
        print(f"\nKernel ridge regression, lam = {LAM}: kernel_ridge vs KernelRidge (sklearn)")
        for k, n in enumerate(args.krr_sizes):
            r = krr_row(*get(n), args)
            checks[n] = r["check"]
            print_krr(r, args.inv, header=k == 0)
    if args.svr_sizes:
        print(
            f"\nSupport vector regression, eps = {EPSILON}, tol = {args.tol:g}: svr vs SVR "
            "(sklearn, libsvm); '*': iteration limit reached"
        )
        first = True
        for n in args.svr_sizes:
            K, y, K_test = get(n)
            if n not in checks:
                checks[n] = median_times(args.repeat, lambda K=K: check_gram(K))[0][0]
            for C in args.svr_C:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)  # marked by '*'
                    r = svr_row(K, y, K_test, C, checks[n], args)
                print_svr(r, args.cvx_max, header=first)
                first = False
    print(
        "|df|: max |prediction difference| on the test points; gap: relative objective gap "
        "(KRR objective, sklearn - ours; SVR dual objective, ours - other)"
    )
    if args.profile and args.svr_sizes:
        n, C = max(args.svr_sizes), max(args.svr_C)
        K, y, _ = get(n)
        print(f"\nProfile of one svr call, n = {n}, C = {C:g} (sorted by own time):")
        print(profile_svr(K, y, C, args.tol))


if __name__ == "__main__":
    main()
