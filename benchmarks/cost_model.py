"""The finish's cost model measured on this machine: the times of ``kernels_ref.smo.CostModel``.

The second-order finish decides when to make an attempt, and when to give one up, by a model of
what its work and SMO's iterations cost (``CostModel``, in nanoseconds), never by a clock: a
run's path then does not depend on the machine's speed. This script measures each time of the
model on the machine it runs on, with one BLAS thread, and prints it beside the value in use.
Only the ratios matter; a machine whose ratios differ much from the package's makes the finish
act a little earlier or later than it would with its own, never wrongly (every point it ends a
run at is certified).

What is timed (median of ``--repeat`` rounds, ``benchmarks/_timing.py``), on Gaussian Gram
matrices of random data:

- ``iteration``, ``per_variable``: SMO iterations without shrinking or the finish (``_smo`` with
  ``shrinking=False, finish=False``) on n = 500 to 4000 variables; the time of 4,000 iterations
  minus that of 2,000, per iteration, fitted as iteration + per_variable x n;
- ``copy``: shrinking's copy of an active block of n / 2 variables from K (n = 2000 to 5000),
  per entry copied;
- ``product``: ``K @ w`` (n = 2000 to 5000), per entry of K;
- ``rows``: the product by k rows of K (``_columns_product``, k = 300 to 1000, n = 2000 to
  5000), per entry read;
- ``gather``: a face's block of f variables gathered from K (f = 100 to 1000), per entry;
- ``flop``: the Cholesky factorisation of a face of f = 400 to 1000 variables, per f^3 / 3;
- ``round``, ``round_fixed``: one refined solve of a face (``_Face.newton``) and its step, f = 40
  to 1000, fitted as round_fixed + round x f^2;
- ``cross``: a column of the crossover's pivoted Cholesky factor (``_low_rank`` on a face of 400
  variables of a cubic kernel of 3-D data, rank 20, n = 2000) with the row of K it reads,
  against the model's charge for it, ``cross`` plus ``gather`` per entry of the row. The model
  charges a step of the crossover's simplex ``cross``.

Run: ``.venv/bin/python benchmarks/cost_model.py`` (about a minute).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _timing import median_times  # noqa: E402  (benchmarks/_timing.py)

from kernels_ref._finish import _Face, _low_rank  # noqa: E402
from kernels_ref._qmatrix import _columns_product, _submatrix  # noqa: E402
from kernels_ref._solver import _ActiveSet  # noqa: E402
from kernels_ref.kernels import gaussian_kernel  # noqa: E402
from kernels_ref.smo import CostModel, _smo  # noqa: E402


def problem(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 10))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return gaussian_kernel(X, sigma=np.sqrt(10)), y


def per_unit(repeat, fn, units):
    """Nanoseconds per unit of one call of fn."""
    (t,), _, _ = median_times(repeat, fn)
    return 1e9 * t / units


def iterations(repeat):
    sizes, times = [500, 1000, 2000, 4000], []
    for n in sizes:
        K, y = problem(n)

        def run(k, K=K, y=y, n=n):
            return _smo(K, y, -np.ones(n), 1e3, tol=1e-300, max_iter=k, shrinking=False,
                        finish=False)  # fmt: skip

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (stopped at max_iter, as meant)
            (t2, t4), _, _ = median_times(repeat, lambda: run(2000), lambda: run(4000))
        times.append(1e9 * (t4 - t2) / 2000)
    per_variable, iteration = np.polyfit(sizes, times, 1)
    return {"iteration": iteration, "per_variable": per_variable}


def streams(repeat):
    copy, product, rows, gather = [], [], [], []
    rng = np.random.default_rng(1)
    for n in (2000, 5000):
        K, _ = problem(n)
        half = np.sort(rng.choice(n, n // 2, replace=False))
        copy.append(per_unit(repeat, lambda K=K, h=half: _submatrix(K, h), len(half) ** 2))
        w = rng.standard_normal(n)
        product.append(per_unit(repeat, lambda K=K, w=w: K @ w, n * n))
        for k in (300, 1000):
            index = rng.choice(n, k, replace=False)
            wk = rng.standard_normal(k)
            rows.append(
                per_unit(repeat, lambda K=K, i=index, w=wk: _columns_product(K, i, w), k * n)
            )
        for f in (100, 1000):
            face = rng.choice(n, f, replace=False)
            gather.append(per_unit(repeat, lambda K=K, i=face: _submatrix(K, i), f * f))
    return {
        "copy": float(np.median(copy)),
        "product": float(np.median(product)),
        "rows": float(np.median(rows)),
        "gather": float(np.median(gather)),
    }


def faces(repeat):
    K, y = problem(2000)
    rng = np.random.default_rng(2)
    act = _ActiveSet(K, y, -np.ones(2000), np.full(2000, 1.0), np.full(2000, 0.0))
    flops, sizes, rounds = [], [40, 200, 500, 1000], []
    for f in sizes:
        free = np.sort(rng.choice(2000, f, replace=False))
        H = K[np.ix_(free, free)] + 1e-8 * np.eye(f)
        if f >= 400:
            flops.append(per_unit(repeat, lambda H=H: np.linalg.cholesky(H), f**3 / 3.0))
        face = _Face(act, free)
        vF = rng.standard_normal(f)
        rounds.append(per_unit(repeat, lambda face=face, vF=vF: face.newton(vF, 1e-8), 1.0))
    round_per_entry, round_fixed = np.polyfit(np.square(sizes), rounds, 1)
    return {"flop": float(np.median(flops)), "round": round_per_entry, "round_fixed": round_fixed}


def crossover(repeat):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((2000, 3))
    K = (1.0 + X @ X.T) ** 3  # rank 20 at most: the factor stops after its rank
    act = _ActiveSet(K, np.ones(2000), -np.ones(2000), np.full(2000, 1.0), np.zeros(2000))
    free = np.sort(rng.choice(2000, 400, replace=False))
    G = _low_rank(act, free, 100)
    r = G.shape[1]
    return {"cross": per_unit(repeat, lambda: _low_rank(act, free, 100), r)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per time (median)")
    args = parser.parse_args()
    measured = {}
    for part in (iterations, streams, faces):
        measured.update(part(args.repeat))
    measured.update(crossover(args.repeat))
    used = CostModel()
    print(f"{'CostModel field':16s} {'measured (ns)':>14s} {'in use (ns)':>12s} {'ratio':>6s}")
    for field in dataclasses.fields(CostModel):
        value, in_use = measured[field.name], getattr(used, field.name)
        if field.name == "cross":  # the model's column: cross + a row of K at gather per entry
            in_use += used.gather * 2000
        print(f"{field.name:16s} {value:14.3g} {in_use:12.3g} {value / in_use:6.2f}")
    print("cross: a column of the factor with its row of K (n = 2000), as the model charges it")


if __name__ == "__main__":
    main()
