"""Interleaved timing, shared by the benchmarks that compare two or more calls.

The calls of one round run one after the other, so that a disturbance of a shared machine hits
them alike; the time of each is the median over the rounds. A call of a few milliseconds is
disturbed far more, relatively, than one of a second, so rounds continue past ``repeat`` until
they have taken ``MIN_TOTAL`` seconds in all (at most ``MAX_ROUNDS`` rounds): the median of
three millisecond runs is not a measurement.
"""

import statistics
import time

MIN_TOTAL = 1.0
MAX_ROUNDS = 200


def median_times(repeat, *fns, min_total=MIN_TOTAL):
    """Median wall time of each function over interleaved rounds, and its last result.

    At least ``repeat`` rounds, more while all the rounds so far took under ``min_total``
    seconds (up to ``MAX_ROUNDS``). Returns ``(times, results, rounds)``.
    """
    times = [[] for _ in fns]
    outs = [None] * len(fns)
    total, rounds = 0.0, 0
    while rounds < repeat or (total < min_total and rounds < MAX_ROUNDS):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            outs[k] = fn()
            elapsed = time.perf_counter() - start
            times[k].append(elapsed)
            total += elapsed
        rounds += 1
    return [statistics.median(t) for t in times], outs, rounds
