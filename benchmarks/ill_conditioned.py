"""SMO on the ill-conditioned problems students pose, against libsvm: the finish at work.

Data: n points in dimension 4 (standard normal, fixed seed), standardised, then as they are
(x1) or times 3 (x3): XOR-like labels sign(x1 x2), or overlapping classes (x1 shifted by
+-0.5). Gram matrices (computed once, not timed): linear, (1 + <x, x'>)^2 and (1 + <x, x'>)^3
on both scales, Gaussians with sigma = 0.3 and 3 on the standardised data. For the SVR the
target is x1 - 2 x2 + x3 / 2 plus noise 0.3, on the first three coordinates (a rank-3 linear
kernel among them), epsilon = 0.01.

Rows: every family, C in ``--C`` (default 1, 100, 1e4), n in ``--sizes`` (default 300), for the
learners in ``--learners`` (default soft_margin_l1, svr; also nu_svm with nu = 0.1, 0.3, 0.6
for the three C, and soft_margin_l2). Each row times, interleaved (``benchmarks/_timing.py``):

- ours at the package's default tolerance 1e-8 (the whole public call);
- ours at ``tol=1e-3``;
- libsvm through scikit-learn at its default 1e-3 (``SVC``, ``NuSVC``, ``SVR`` with
  ``kernel="precomputed"``), capped at ``--libsvm-max-iter`` iterations (default 10^7; a row it
  caps is marked ``cap``: its time is then a lower bound). libsvm has no L2 soft margin: that
  learner's rows compare with SVC on K + I / C and C = 1e12, the same dual.

Printed per row: the three times, the ratios ours(1e-8) / libsvm and ours(1e-3) / libsvm,
``converged`` of our default run (``rnd`` when it stopped at the round-off level of v with a
ConvergenceWarning: the tolerance is below what double precision can certify for that K), and
a summary per learner and n: median ratio, rows over max(0.25 s, 3 x libsvm), slowest call.
"""

import argparse
import statistics
import warnings

import numpy as np
from _timing import median_times
from sklearn.svm import SVC, SVR, NuSVC

from kernels_ref.kernels import gaussian_kernel, polynomial_kernel
from kernels_ref.svm import nu_svm, soft_margin_l1, soft_margin_l2
from kernels_ref.svr import svr

NU = {1.0: 0.1, 100.0: 0.3, 1e4: 0.6}


def data(kind, n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    if kind == "xor":
        y = np.sign(X[:, 0] * X[:, 1])
    else:
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        X[:, 0] += 0.5 * y
    y[y == 0] = 1.0
    return (X - X.mean(0)) / X.std(0), y


def families(n):
    for kind in ("xor", "overlap"):
        X0, y = data(kind, n)
        for scale in (1.0, 3.0):
            X = scale * X0
            yield f"{kind} x{scale:g} linear", X, y, lambda A: A @ A.T
            for d in (2, 3):
                yield (
                    f"{kind} x{scale:g} poly{d}",
                    X,
                    y,
                    lambda A, d=d: polynomial_kernel(A, degree=d, c=1.0),
                )
        for sigma in (0.3, 3.0):
            yield f"{kind} gauss{sigma:g}", X0, y, lambda A, s=sigma: gaussian_kernel(A, sigma=s)


def calls(learner, K, y, C, cap):
    n = len(y)
    if learner == "soft_margin_l1":
        ours = lambda tol: soft_margin_l1(K, y, C, tol=tol)  # noqa: E731
        ref = SVC(kernel="precomputed", C=C, tol=1e-3, max_iter=cap)
        return ours, lambda: ref.fit(K, y), ref
    if learner == "nu_svm":
        nu = NU.get(C, 0.3)
        ours = lambda tol: nu_svm(K, y, nu, tol=tol)  # noqa: E731
        ref = NuSVC(kernel="precomputed", nu=nu, tol=1e-3, max_iter=cap)
        return ours, lambda: ref.fit(K, y), ref
    if learner == "soft_margin_l2":
        ours = lambda tol: soft_margin_l2(K, y, C, tol=tol)  # noqa: E731
        K2 = K + np.eye(n) / C
        ref = SVC(kernel="precomputed", C=1e12, tol=1e-3, max_iter=cap)
        return ours, lambda: ref.fit(K2, y), ref
    raise ValueError(f"unknown learner {learner!r}")


def svr_target(X):
    rng = np.random.default_rng(5)
    t = X[:, 0] - 2.0 * X[:, 1] + 0.5 * X[:, 2] + 0.3 * rng.standard_normal(len(X))
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300])
    parser.add_argument("--C", type=float, nargs="+", default=[1.0, 100.0, 1e4])
    parser.add_argument("--learners", nargs="+", default=["soft_margin_l1", "svr"])
    parser.add_argument("--libsvm-max-iter", type=int, default=10**7)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    cap = args.libsvm_max_iter
    for learner in args.learners:
        for n in args.sizes:
            ratios, slowest, over = [], 0.0, 0
            print(f"\n{learner}, n = {n}")
            print(f"{'family':22s} {'C':>7s} {'ours 1e-8':>10s} {'ours 1e-3':>10s} "
                  f"{'libsvm':>10s} {'r(1e-8)':>8s} {'r(1e-3)':>8s} conv")  # fmt: skip
            for name, X, y, kernel in families(n):
                if learner == "svr":
                    if not name.startswith("xor"):
                        continue
                    X = X[:, :3]
                    y = svr_target(X)
                K = kernel(X)
                for C in args.C:
                    if learner == "svr":
                        ours = lambda tol, K=K, y=y, C=C: svr(K, y, C, 0.01, tol=tol)  # noqa: E731
                        ref = SVR(kernel="precomputed", C=C, epsilon=0.01, tol=1e-3, max_iter=cap)
                        fit_ref = lambda ref=ref, K=K, y=y: ref.fit(K, y)  # noqa: E731
                    else:
                        ours, fit_ref, ref = calls(learner, K, y, C, cap)
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        warnings.filterwarnings("ignore", module="sklearn")
                        (t8, t3, tl), (res, _, _), _ = median_times(
                            args.repeat, lambda f=ours: f(1e-8), lambda f=ours: f(1e-3), fit_ref,
                            min_total=0.0,
                        )  # fmt: skip
                    rnd = any("double precision" in str(w.message) for w in caught)
                    capped = int(np.sum(ref.n_iter_)) >= cap
                    conv = "rnd" if rnd else str(bool(res.converged))
                    r8, r3 = t8 / tl, t3 / tl
                    ratios.append(r8)
                    slowest = max(slowest, t8)
                    over += t8 > max(0.25, 3.0 * tl)
                    print(f"{name:22s} {C:7g} {t8:10.3f} {t3:10.3f} {tl:10.3f}"
                          f"{'cap' if capped else '   '} {r8:7.2f} {r3:8.2f} {conv}",
                          flush=True)  # fmt: skip
            print(f"median ratio ours(1e-8) / libsvm(1e-3): {statistics.median(ratios):.2f}; "
                  f"rows over max(0.25 s, 3 x libsvm): {over} of {len(ratios)}; slowest call: "
                  f"{slowest:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
