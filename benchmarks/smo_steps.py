"""What SMO's engineering buys, step by step: chapter 7's algorithm as written against the solver.

Problems: data families of ``svm.py`` (Gaussian kernel; the Gram matrix is computed once per
problem and its time is excluded), each at one n and one C (``--problems``, as
``family:n:C``), with the stopping rule m(alpha) - M(alpha) <= ``--tol`` (default 1e-3) for
every solver. Each row times, on the same K and y:

- ``textbook``: ``kernels_ref.smo.smo_textbook(K, y, -1, C, tol=tol)``, the algorithm as
  chapter 7 writes it: at every iteration, NumPy expressions on all N variables (the index sets
  I_up, I_low, the stopping test, the scores, the step);
- ``no shrink``: ``kernels_ref.smo._smo(K, y, -1, C, tol=tol, shrinking=False)``, the same
  pairs (chapter 7 checks it, pair by pair) with the engineering of one iteration: the index
  sets kept in two arrays and updated at the two indices that move, the stopping test only when
  the pair found has b_ij <= tol, preallocated buffers (``out=``), the scalar work of the step on
  Python floats;
- ``shrink``: ``_smo(K, y, -1, C, tol=tol)``, the same with shrinking and the compact copy of
  the block of the active variables (the package's default);
- ``learner``: ``kernels_ref.svm.soft_margin_l1(K, y, C, tol=tol)``, the public call: its input
  checks once (one pass over K for finiteness, symmetry and the 2 x 2 minors), then ``_smo``;
- ``libsvm``: ``sklearn.svm.SVC(kernel="precomputed", C=C, tol=tol).fit(K, y)``, for
  reference.

Printed per row: the time of each (median of ``--repeat`` runs, default 3, or of more runs until
the rounds fill one second: ``benchmarks/_timing.py``; the five calls interleaved within each
round), the iterations of the textbook version and of the solver with
shrinking (without shrinking the solver makes the textbook's iterations; a difference is
printed as a note), µs per iteration, and the speed-up of each step over the one before it:
textbook / no shrink (the engineering of one iteration), no shrink / shrink (shrinking), shrink
/ learner (below 1: the cost of the input checks), and learner / libsvm.

Duration: about 20 seconds with the default problems on a 2-core machine (the textbook rows
dominate).

BLAS threads: as in ``svm.py``, one OpenBLAS thread unless ``OPENBLAS_NUM_THREADS`` is set.

Run: ``.venv/bin/python benchmarks/smo_steps.py`` (``--help`` for the options).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy is imported

import argparse  # noqa: E402

import numpy as np  # noqa: E402
from _timing import median_times  # noqa: E402  (benchmarks/_timing.py)
from sklearn.svm import SVC  # noqa: E402
from svm import FAMILIES  # noqa: E402  (benchmarks/svm.py: the same data families)

from kernels_ref.smo import _smo, smo_textbook  # noqa: E402
from kernels_ref.svm import soft_margin_l1  # noqa: E402

DEFAULT_PROBLEMS = [
    "blobs:2000:1",
    "overlap:2000:1",
    "overlap:2000:100",
    "xor:2000:1000",
    "classification:5000:10",
    "digits:1797:10",
]

SOLVERS = {
    "textbook": lambda K, y, C, tol: smo_textbook(K, y, -np.ones(len(y)), C, tol=tol),
    "no shrink": lambda K, y, C, tol: _smo(K, y, -np.ones(len(y)), C, tol=tol, shrinking=False),
    "shrink": lambda K, y, C, tol: _smo(K, y, -np.ones(len(y)), C, tol=tol),
    "learner": lambda K, y, C, tol: soft_margin_l1(K, y, C, tol=tol),
    "libsvm": lambda K, y, C, tol: SVC(kernel="precomputed", C=C, tol=tol).fit(K, y),
}


def parse_problem(text):
    family, n, C = text.split(":")
    if family not in FAMILIES:
        raise SystemExit(f"unknown family {family!r}; the families: {', '.join(FAMILIES)}")
    return family, int(n), float(C)


def run_row(family, n, C, args):
    K, y = FAMILIES[family][0](n)
    n = len(y)  # a real data set may have fewer points than asked
    calls = [lambda solve=solve: solve(K, y, C, args.tol) for solve in SOLVERS.values()]
    times, results, _ = median_times(args.repeat, *calls)
    t = dict(zip(SOLVERS, times, strict=True))
    out = dict(zip(SOLVERS, results, strict=True))
    return {
        "problem": f"{family} {n} {C:g}",
        "t": t,
        "it_book": out["textbook"].n_iter,
        "it_plain": out["no shrink"].n_iter,
        "it_shrink": out["shrink"].n_iter,
        "it_lib": int(out["libsvm"].n_iter_[0]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--problems", nargs="+", default=DEFAULT_PROBLEMS, metavar="FAMILY:N:C",
        help=f"problems (default: {' '.join(DEFAULT_PROBLEMS)})",
    )  # fmt: skip
    parser.add_argument("--tol", type=float, default=1e-3, help="m - M stopping tolerance")
    parser.add_argument("--repeat", type=int, default=3, help="runs per time (median)")
    args = parser.parse_args()
    problems = [parse_problem(p) for p in args.problems]
    for solve in SOLVERS.values():  # first calls pay for imports and first touches
        solve(*FAMILIES["blobs"][0](50), 1.0, args.tol)
    print(
        f"SMO step by step, tol = {args.tol:g}; times in seconds (median of {args.repeat} or "
        "more); speed-ups: textbook/no shrink, no shrink/shrink, shrink/learner, learner/libsvm\n"
    )
    header = (
        f"{'problem':<22} | {'textbook':>8} {'no shr.':>8} {'shrink':>8} {'learner':>8} "
        f"{'libsvm':>8} | {'iter':>7} {'iter shr':>8} {'iter lib':>8} | {'µs/it book':>10} "
        f"{'µs/it shr':>9} | {'x iter.':>7} {'x shr.':>6} {'x chk.':>6} {'/lib':>5}"
    )
    print(header)
    print("-" * len(header))
    notes = []
    for family, n, C in problems:
        r = run_row(family, n, C, args)
        t = r["t"]
        print(
            f"{r['problem']:<22} | {t['textbook']:8.3f} {t['no shrink']:8.3f} "
            f"{t['shrink']:8.3f} {t['learner']:8.3f} {t['libsvm']:8.3f} | "
            f"{r['it_book']:7d} {r['it_shrink']:8d} {r['it_lib']:8d} | "
            f"{1e6 * t['textbook'] / r['it_book']:10.1f} "
            f"{1e6 * t['shrink'] / r['it_shrink']:9.1f} | "
            f"{t['textbook'] / t['no shrink']:7.1f} {t['no shrink'] / t['shrink']:6.2f} "
            f"{t['shrink'] / t['learner']:6.2f} {t['learner'] / t['libsvm']:5.2f}",
            flush=True,
        )
        if r["it_plain"] != r["it_book"]:
            notes.append(
                f"{r['problem']}: the solver without shrinking made {r['it_plain']} iterations, "
                f"the textbook version {r['it_book']} (a near-tie of two scores)"
            )
    for note in notes:
        print("note:", note)


if __name__ == "__main__":
    main()
