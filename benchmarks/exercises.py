"""How long ``kernels_ref.exercises.check`` takes, exercise by exercise.

For each exercise, two checks: the reference (which passes: every problem of the budget is
drawn and judged, the longest a correct function takes) and a function that raises on problems
of three points or more (which fails: the search, then hypothesis's shrinking to the smallest
such problem). Both rows give the calls made (exact: hypothesis's seed is fixed) and the median
wall time over interleaved rounds, so the checker's own cost is measured with a student function
that costs nothing. A student's function adds its own time per call, times the calls.

Run: ``.venv/bin/python benchmarks/exercises.py`` (seconds).
"""

import argparse
import functools
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from _timing import median_times

from kernels_ref import exercises


def _fails_from_three_points(reference):
    def student(*args):
        problem_size = max(len(a) for a in args if hasattr(a, "__len__"))
        if problem_size >= 3:
            raise ValueError("three points")
        return reference(*args)

    return student


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds at least (default 3)")
    args = parser.parse_args()
    print(f"{'exercise':<32}{'passing: calls':>15}{'s':>7}{'failing: calls':>16}{'s':>7}")
    total = 0.0
    for name in exercises.names():
        reference = exercises.reference(name)
        failing = _fails_from_three_points(reference)
        times, reports, _ = median_times(
            args.repeat,
            functools.partial(exercises.check, name, reference),
            functools.partial(exercises.check, name, failing),
        )
        passed, failed = reports
        assert passed.passed and not failed.passed
        total += sum(times)
        print(
            f"{name:<32}{passed.examples:>15}{times[0]:>7.2f}{failed.examples:>16}{times[1]:>7.2f}"
        )
    print(f"all checks: {total:.1f} s")


if __name__ == "__main__":
    main()
