"""Benchmark: load + validate + compile the Birmingham ruleset (not a timed test).

    python bench/bench_load.py [--repeat N] [RULESET]

Prints, in one process, the median time of

* a full load: no cache at all (`BRASS_NO_RULESET_CACHE=1`): YAML, cerberus, cross-references,
  parsing and compiling every expression;
* a load served by the ruleset cache (`interpreter/ruleset/ruleset_cache.py`, in a scratch cache
  folder): the files verified against the cache, the model built and every expression checked
  and compiled from the cached syntax trees;
* a second load in the same process (the per-process cache).

Start-up as a whole (a new process, imports included) is `bench/bench_startup.py`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable

from interpreter.ruleset.loader import clear_cache, load_ruleset


def timed(fn: Callable[[], object]) -> float:
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

    with tempfile.TemporaryDirectory() as scratch:
        os.environ["XDG_CACHE_HOME"] = scratch
        os.environ["BRASS_NO_RULESET_CACHE"] = "1"
        cold()  # the imports, cerberus' schema and the parser tables, once per process
        full = [timed(cold) for _ in range(args.repeat)]
        del os.environ["BRASS_NO_RULESET_CACHE"]
        cold()  # writes the ruleset cache
        served = [timed(cold) for _ in range(args.repeat)]
        cached = [timed(lambda: load_ruleset(args.ruleset)) for _ in range(args.repeat)]
    for label, times in (("full load", full), ("from the ruleset cache", served), ("per-process cache", cached)):
        print(f"{label + ':':<24} {statistics.median(times) * 1000:8.2f} ms "
              f"(median of {args.repeat}; min {min(times) * 1000:.2f} ms)")
    print(f"ruleset: {args.ruleset}; full / from the ruleset cache: "
          f"{statistics.median(full) / statistics.median(served):.1f}x")


if __name__ == "__main__":
    main()
