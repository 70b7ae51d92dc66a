"""Ablation of the second-order finish: each of its mechanisms turned off in turn.

What pays for its lines? For every mechanism of the finish that ``kernels_ref.smo.Settings``
can turn off, the solver alone (``kernels_ref.smo._smo``, the core every learner calls, at the
package's default tolerance 1e-8, where the finish acts) runs on the rows of three suites with
that mechanism off, and with every mechanism on:

- ``svm``: the Gaussian C-SVMs of ``benchmarks/svm.py`` (its six families, n in ``--svm-sizes``,
  default 1000, 2000, 5000; C = 1, 10, 100, 1000);
- ``ill``: the ill-conditioned problems of ``benchmarks/ill_conditioned.py`` (its families, n in
  ``--ill-sizes``, default 300 and 1000, C = 1, 100, 1e4, the four learners: soft_margin_l1,
  soft_margin_l2, nu_svm with nu = 0.1, 0.3, 0.6, svr);
- ``svr``: the SVRs of ``benchmarks/regression.py`` (sinc data, n in ``--svr-sizes``, default
  1000, 2000, 5000; C = 1, 10, 100; epsilon = 0.1).

Each row's Gram matrix is built once, then every configuration runs on it in turn (so that a
drift of the machine hits them alike), once. Printed per configuration and suite: the SMO
iterations (exact: the path does not depend on the clock, only on the BLAS kernels' rounding),
the total time, its change against every mechanism on, the rows that get worse (more than
10 % more time and 0.05 s; sent over the guard of ``ill_conditioned.py``, a call under 1 s at
n = 300, or under 5 s at n = 1000, that goes over it; or stopped at the round-off level of v
above tol where it converged), and the rows that did not converge. ``--rows`` also prints
every row (iterations, ``*`` for a row that did not converge, seconds).

Duration: about 15 minutes on a 2-core machine with the default sizes. One BLAS thread, as in the
other benchmarks. Run: ``.venv/bin/python benchmarks/ablation.py`` (``--help``).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import ill_conditioned  # noqa: E402  (benchmarks/)
import numpy as np  # noqa: E402
import regression  # noqa: E402
import svm as svm_bench  # noqa: E402

from kernels_ref.smo import Settings, TiledGram, _smo  # noqa: E402
from kernels_ref.svm import _nu_start  # noqa: E402

TOL = 1e-8
#: Every mechanism on, then each one off (``kernels_ref.smo.Settings``).
CONFIGS = {
    "all on": Settings(),
    "no primal_dual": Settings(guess_rounds=0),
    "no crossover": Settings(cross_share=0.0),
    "no crossover_grown": Settings(cross_grown_share=0.0),
    "no extensions": Settings(extensions=0),
    "no refine": Settings(refine_steps=1),
    "no cross_rank_max": Settings(cross_rank_max=10**9),
}


def smo_problem(learner, K, y, C):
    """The arguments of ``_smo`` that the learner passes for (K, y, C)."""
    n = len(y)
    if learner == "soft_margin_l1":
        return (K, y, -np.ones(n), C), {}
    if learner == "soft_margin_l2":
        K2 = K.copy()
        K2.flat[:: n + 1] += 1.0 / C
        return (K2, y, -np.ones(n), np.inf), {}
    if learner == "nu_svm":
        nu = ill_conditioned.NU[C]
        return (K, y, np.zeros(n), 1.0, _nu_start(y, nu)), {"two_constraints": True}
    raise ValueError(learner)


def svr_problem(K, y, C, epsilon):
    """The arguments of ``_smo`` that ``svr`` passes: 2n variables on the tiled Gram matrix."""
    n = len(y)
    z = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([epsilon - y, epsilon + y])
    return (TiledGram(K), z, p, C), {}


def svm_rows(sizes):
    for family in svm_bench.FAMILIES:
        for n in svm_bench.sizes_of(family, sizes):
            K, y = svm_bench.FAMILIES[family][0](n)
            for C in (1.0, 10.0, 100.0, 1000.0):
                yield f"{family} n={n} C={C:g}", n, smo_problem("soft_margin_l1", K, y, C)


def ill_rows(sizes):
    for learner in ("soft_margin_l1", "soft_margin_l2", "nu_svm", "svr"):
        for n in sizes:
            for name, X, y, kernel in ill_conditioned.families(n):
                if learner == "svr":
                    if not name.startswith("xor"):
                        continue
                    X = X[:, :3]
                    y = ill_conditioned.svr_target(X)
                K = kernel(X)
                for C in (1.0, 100.0, 1e4):
                    if learner == "svr":
                        problem = svr_problem(K, y, C, 0.01)  # ill_conditioned.py's epsilon
                    else:
                        problem = smo_problem(learner, K, y, C)
                    yield f"{learner} {name} n={n} C={C:g}", n, problem


def svr_rows(sizes):
    for n in sizes:
        K, y, _ = regression.sinc_data(n, 0)
        for C in (1.0, 10.0, 100.0):
            yield f"svr sinc n={n} C={C:g}", n, svr_problem(K, y, C, regression.EPSILON)


def run(problem, settings):
    args, kwargs = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # round-off stops are counted from the result
        start = time.perf_counter()
        res = _smo(*args, tol=TOL, settings=settings, **kwargs)
        elapsed = time.perf_counter() - start
    return elapsed, res


def guard(n):
    """The guard's limit of a call at size n (ill_conditioned.py), in seconds."""
    return 1.0 if n <= 300 else 5.0


def worse(base, other, n, suite):
    """Whether a row gets worse: slower by 10 % and 0.05 s, over the guard, or not converged
    (stopped at the round-off level of v above tol) where it converged."""
    t0, t1 = base[0], other[0]
    over = suite == "ill" and t0 <= guard(n) < t1
    return over or (t1 > 1.1 * t0 and t1 - t0 > 0.05) or (base[2] and not other[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suites", nargs="+", default=["svm", "ill", "svr"])
    parser.add_argument("--svm-sizes", type=int, nargs="+", default=[1000, 2000, 5000])
    parser.add_argument("--ill-sizes", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--svr-sizes", type=int, nargs="+", default=[1000, 2000, 5000])
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS))
    parser.add_argument("--rows", action="store_true", help="print every row")
    args = parser.parse_args()
    makers = {
        "svm": lambda: svm_rows(args.svm_sizes),
        "ill": lambda: ill_rows(args.ill_sizes),
        "svr": lambda: svr_rows(args.svr_sizes),
    }
    configs = ["all on"] + [c for c in args.configs if c != "all on"]
    results = {}  # (suite, row) -> {config: (time, iterations, converged, n)}
    for suite in args.suites:
        for name, n, problem in makers[suite]():
            out = {}
            for config in configs:
                t, res = run(problem, CONFIGS[config])
                out[config] = (t, res.n_iter, res.converged, n)
            results[suite, name] = out
            if args.rows:
                cells = " ".join(
                    f"{out[c][1]:>9d}{' ' if out[c][2] else '*'}{out[c][0]:7.3f}" for c in configs
                )
                print(f"{suite:4s} {name:40s} {cells}", flush=True)
    report(results, configs, args.suites)


def report(results, configs, suites):
    print(f"\nSolver alone at tol = {TOL:g}; iterations exact, times in seconds (one run each)")
    print(f"{'configuration':22s} {'suite':5s} {'iterations':>11s} {'time':>8s} "
          f"{'change':>7s} {'worse rows':>10s} {'unconverged':>11s}  worst rows")  # fmt: skip
    for config in configs:
        for suite in suites:
            rows = {name: out for (s, name), out in results.items() if s == suite}
            base = sum(out["all on"][0] for out in rows.values())
            total = sum(out[config][0] for out in rows.values())
            iters = sum(out[config][1] for out in rows.values())
            unconverged = sum(not out[config][2] for out in rows.values())
            bad = sorted(
                (
                    (out[config][0] - out["all on"][0], name, out)
                    for name, out in rows.items()
                    if worse(out["all on"], out[config], out[config][3], suite)
                ),
                reverse=True,
            )
            worst = "; ".join(
                f"{name} {out['all on'][0]:.2f}->{out[config][0]:.2f} s "
                f"({out['all on'][1]}->{out[config][1]} it)"
                for _, name, out in bad[:2]
            )
            print(f"{config:22s} {suite:5s} {iters:11d} {total:8.2f} "
                  f"{100 * (total / base - 1):+6.1f}% {len(bad):10d} {unconverged:11d}  "
                  f"{worst}")  # fmt: skip


if __name__ == "__main__":
    main()
