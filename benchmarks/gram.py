"""Gram matrices: vectorised kernels against the course's double loop and against the floor.

For n points in dimension d = 50 the script times, in one run,

- each vectorised kernel of ``kernels_ref.kernels`` (Gram matrix of X with itself),
- the floor: a bare ``G = X @ X.T`` followed by one in-place ``np.exp(G, out=G)`` — no kernel can
  do less work than one matrix product and one pass of exponentials,
- the course's double loop ``gram_loop`` with a Python Gaussian kernel; above ``--loop-max`` points
  it is timed on a subset of the rows and extrapolated linearly in the number of rows (the loop
  costs the same per entry), and the table says so,

and prints times and ratios, plus the peak memory of ``gaussian_kernel`` measured by tracemalloc
(NumPy reports its allocations to it) in units of one n x n float64 array.

Run: ``.venv/bin/python benchmarks/gram.py`` (``--help`` for the options).
"""

import argparse
import time
import tracemalloc

import numpy as np

from kernels_ref.kernels import (
    gaussian_kernel,
    gram_loop,
    linear_kernel,
    polynomial_kernel,
    sigmoid_kernel,
)

SIGMA = 5.0


def best_time(fn, repeat):
    """Smallest wall time of ``repeat`` calls (the least disturbed by the rest of the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def floor(X):
    G = X @ X.T
    np.exp(G, out=G)
    return G


def course_gaussian(x, y):
    return np.exp(-np.sum((x - y) ** 2) / (2 * SIGMA**2))


def loop_time(X, loop_max):
    """Time of the double loop for all of X, measured on at most ``loop_max`` rows."""
    rows = min(len(X), loop_max)
    seconds = best_time(lambda: gram_loop(course_gaussian, X[:rows], X), repeat=1)
    return seconds * len(X) / rows, rows < len(X)


def peak_arrays(X):
    """Peak memory of gaussian_kernel(X) in units of one n x n float64 array."""
    tracemalloc.start()
    gaussian_kernel(X, sigma=SIGMA)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / (8 * len(X) ** 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--loop-max", type=int, default=200, help="rows timed in the loop")
    args = parser.parse_args()

    kernels = {
        "linear": lambda X: linear_kernel(X),
        "polynomial": lambda X: polynomial_kernel(X, degree=3, c=1.0),
        "gaussian": lambda X: gaussian_kernel(X, sigma=SIGMA),
        "sigmoid": lambda X: sigmoid_kernel(X, gamma=0.01, c=0.0),
    }
    rng = np.random.default_rng(0)
    print(f"d = {args.dim}; times are the best of {args.repeat} runs, in milliseconds")
    print("floor = X @ X.T then np.exp in place; ratios are time / floor time")
    header = f"{'n':>6} {'floor ms':>9}" + "".join(f" {name:>15}" for name in kernels)
    header += f" {'loop ms':>12} {'loop/gauss':>11} {'peak n*n':>9}"
    print(header)
    for n in args.sizes:
        X = rng.normal(size=(n, args.dim))
        base = best_time(lambda X=X: floor(X), args.repeat)
        row = f"{n:6d} {1e3 * base:9.1f}"
        gauss = None
        for name, kernel in kernels.items():
            seconds = best_time(lambda X=X, kernel=kernel: kernel(X), args.repeat)
            gauss = seconds if name == "gaussian" else gauss
            row += f" {1e3 * seconds:7.1f} ({seconds / base:4.2f}x)"
        loop, extrapolated = loop_time(X, args.loop_max)
        star = "*" if extrapolated else " "
        row += f" {1e3 * loop:11.0f}{star} {loop / gauss:10.0f}x {peak_arrays(X):9.2f}"
        print(row)
    print(f"* loop timed on {args.loop_max} rows of the Gram matrix and extrapolated to n rows")


if __name__ == "__main__":
    main()
