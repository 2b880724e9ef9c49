"""Benchmark: load + validate + compile the Birmingham ruleset (not a timed test).

    python bench/bench_load.py [--repeat N]

Prints the time of a cold load (a new cache each time: YAML parsing, cerberus
validation, cross-references, compiling every expression) and of a cached load in
the same process, with their ratio measured in this one run.
"""

from __future__ import annotations

import argparse
import statistics
import time

from interpreter.ruleset.loader import clear_cache, load_ruleset


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    args = parser.parse_args()

    def cold() -> None:
        clear_cache()
        load_ruleset(args.ruleset)

    cold()  # warm the imports and the grammar
    cold_times = [timed(cold) for _ in range(args.repeat)]
    cached_times = [timed(lambda: load_ruleset(args.ruleset)) for _ in range(args.repeat)]
    cold_ms = statistics.median(cold_times) * 1000
    cached_ms = statistics.median(cached_times) * 1000
    print(f"ruleset:       {args.ruleset}")
    print(f"cold load:     {cold_ms:8.1f} ms (median of {args.repeat}; min {min(cold_times) * 1000:.1f} ms)")
    print(f"cached load:   {cached_ms:8.3f} ms (median of {args.repeat})")
    print(f"cold / cached: {cold_ms / cached_ms:8.0f}x")


if __name__ == "__main__":
    main()
