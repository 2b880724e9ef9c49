"""Benchmark of `brass simulate` at scale (not a timed test): memory over many games, games per second.

    python bench/bench_simulate.py [--games N] [--speed-games M] [--jobs 1,2] [--ray] [RULESET]

1. Memory: N random 2-player games (default 2,000) played one after the other in this process,
   the way a worker process or a Ray worker plays its batches; the resident memory (RSS) is
   read every N/10 games. Flat means no game leaves anything behind: the growth per 1,000
   games after the first tenth (imports, caches filling) should be about zero.
2. Speed: M games (default 400) with each runner of `brass simulate`: in this process
   (--jobs 1), in worker processes (--jobs 2, ...), and with --ray on a local Ray instance;
   the time includes starting the workers, as a user waits for it.
3. The memory of a summary read back from an --out file, per game: full records (--json)
   and brief ones (the table).
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path

from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.simulate.batch import Batch, in_this_process, make_batches, play_batch, shipment
from interpreter.tools.simulate.pool import in_worker_processes
from interpreter.tools.simulate.store import fingerprint, game_line, read_games, run_parameters

BOTS = ("random", "random")


def rss_mb() -> float:
    """The resident memory of this process now (Linux), else its peak so far."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_over_games(ruleset: Ruleset, games: int) -> None:
    print(f"\n1. memory over {games} random 2-player games in one process")
    print(f"{'games':>7} {'RSS MB':>8} {'peak RSS MB':>12} {'games/s':>8}")
    step = max(1, games // 10)
    start = time.perf_counter()
    samples: list[tuple[int, float]] = []
    for done in range(step, games + 1, step):
        play_batch(Batch("ruleset", fingerprint(ruleset), 2, BOTS, False, tuple(range(done - step, done))), ruleset)
        gc.collect()
        samples.append((done, rss_mb()))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{done:>7} {samples[-1][1]:>8.1f} {peak:>12.1f} {done / (time.perf_counter() - start):>8.1f}")
    print(f"trend after the first {step} games: {slope(samples[1:]) * 1000:+.2f} MB per 1,000 games "
          "(least squares; a single reading moves by a page or two)")


def slope(samples: list[tuple[int, float]]) -> float:
    """MB per game of the least-squares line through (games, MB)."""
    if len(samples) < 2:
        return 0.0
    mean_x = sum(x for x, _ in samples) / len(samples)
    mean_y = sum(y for _, y in samples) / len(samples)
    spread = sum((x - mean_x) ** 2 for x, _ in samples)
    return sum((x - mean_x) * (y - mean_y) for x, y in samples) / spread


def speed(ruleset: Ruleset, games: int, jobs: list[int], ray: bool, out: Path) -> None:
    print(f"\n2. {games} random 2-player games with each runner (time includes starting the workers)")
    print(f"{'runner':>10} {'seconds':>8} {'games/s':>8} {'speed-up':>9}")
    key = fingerprint(ruleset)
    todo = {("ruleset", key): list(range(games))}
    base = None
    for count in jobs:
        batches = make_batches(todo, 2, BOTS, False, max(1, min(4, games // (4 * count))))
        start = time.perf_counter()
        runner = (in_this_process(batches, {key: ruleset}) if count == 1
                  else in_worker_processes(batches, count, [shipment(ruleset)]))
        played = sum(len(records) for _, records in runner)
        seconds = time.perf_counter() - start
        base = base or seconds
        print(f"{f'--jobs {count}':>10} {seconds:>8.2f} {played / seconds:>8.1f} {base / seconds:>8.2f}x")
    if ray:
        seconds = ray_seconds(ruleset, games, out)
        print(f"{'--ray':>10} {seconds:>8.2f} {games / seconds:>8.1f} {(base or seconds) / seconds:>8.2f}x"
              "  (without starting Ray)")


def ray_seconds(ruleset: Ruleset, games: int, out: Path) -> float:
    """The games on a local Ray instance (its start-up, seconds, not counted); they are saved to `out`."""
    import ray

    from interpreter.tools.cluster.ray_connect import cluster_cpus
    from interpreter.tools.simulate.ray_cluster import on_ray, ray_batch_size

    ray.init(address="local", include_dashboard=False, logging_level="ERROR")
    try:
        todo = {("ruleset", fingerprint(ruleset)): list(range(games))}
        batches = make_batches(todo, 2, BOTS, False, ray_batch_size(games, cluster_cpus(ray)))
        run = run_parameters({"ruleset": ruleset}, 2, BOTS, False)
        start = time.perf_counter()
        with out.open("w", encoding="utf-8") as stream:
            for _, records in on_ray(ray, batches, [shipment(ruleset)]):
                stream.writelines(json.dumps(game_line(run, "ruleset", ruleset.name, r)) + "\n" for r in records)
        return time.perf_counter() - start
    finally:
        ray.shutdown()


def summary_memory(ruleset: Ruleset, games: int, out: Path) -> None:
    run = run_parameters({"ruleset": ruleset}, 2, BOTS, False)
    if not out.exists():
        records = play_batch(Batch("ruleset", fingerprint(ruleset), 2, BOTS, False, tuple(range(games))), ruleset)
        out.write_text("".join(json.dumps(game_line(run, "ruleset", ruleset.name, r)) + "\n" for r in records))
    print(f"\n3. memory of a summary read back from an --out file ({out.stat().st_size / games:.0f} bytes a line)")
    for brief in (False, True):
        tracemalloc.start()
        found, _ = read_games(out, run, brief=brief)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        kind = "brief (the table)" if brief else "full (--json)"
        print(f"  {kind:>18}: {held / len(found):,.0f} bytes per game, "
              f"{held / len(found) * 100_000 / 1e6:,.0f} MB for 100,000 games")
        del found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000, help="games of the memory run (default 2000)")
    parser.add_argument("--speed-games", type=int, default=400, help="games of each speed run (default 400)")
    parser.add_argument("--jobs", default="1,2", help="worker counts to time, comma-separated (default 1,2)")
    parser.add_argument("--ray", action="store_true", help="also time a local Ray instance (needs ray)")
    parser.add_argument("ruleset", nargs="?", default="birmingham")
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    memory_over_games(ruleset, args.games)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "runs.jsonl"
        speed(ruleset, args.speed_games, [int(j) for j in args.jobs.split(",")], args.ray, out)
        summary_memory(ruleset, args.speed_games, out)


if __name__ == "__main__":
    main()
