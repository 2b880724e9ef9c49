"""Benchmark: from a new process to the first legal list (issue 12; not a timed test).

    python bench/bench_startup.py [--runs N] [--ruleset NAME] [--bytecode env|cached|both]

Each figure is the median of N new processes (`python -c …`), timed from outside (spawn to
exit, Python's own start-up included; and the CPU time it used, which other work on the machine
disturbs less) and, inside the process, split into the imports, the `load_ruleset` call and
`Game.new(…)` + `legal_actions()`. Three cache states:

* cold: an empty cache folder (a new `XDG_CACHE_HOME` for every run): the parser tables are
  built and every check runs; both caches are written;
* warm: the cache folder a previous run filled: the ruleset cache is used;
* no ruleset cache: `BRASS_NO_RULESET_CACHE=1` with the parser tables cached (how every load
  went before the ruleset cache).

The last column lists which of the heavy libraries the process imported. The processes run the
code importable from the current directory: run this from another checkout to measure that one.

Each state is measured twice: with the project's bytecode as the environment has it (with
PYTHONDONTWRITEBYTECODE=1, as on the development VM, every process compiles every module of the
project again), and with it cached (PYTHONPYCACHEPREFIX in a scratch folder, never inside the
project), as after `pip install`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

GOAL = ("from interpreter import Game, load_ruleset; "
        "g = Game.new(load_ruleset({ruleset!r}), 4, seed=1); g.legal_actions()")

SPLIT = """
import sys, time, json
t0 = time.perf_counter()
from interpreter import Game, load_ruleset
t1 = time.perf_counter()
ruleset = load_ruleset({ruleset!r})
t2 = time.perf_counter()
g = Game.new(ruleset, 4, seed=1); g.legal_actions()
t3 = time.perf_counter()
heavy = [m for m in ("yaml", "lark", "cerberus", "rich", "difflib") if m in sys.modules]
print(json.dumps({{"imports": t1 - t0, "load": t2 - t1, "first_legal": t3 - t2, "heavy": heavy}}))
"""


def run(code: str, env: dict[str, str]) -> tuple[float, float, str]:
    """One new process: its wall time, its CPU time (user + system) and what it printed."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    elapsed, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"the benchmark's process failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, done.stdout


def environment(cache_home: str, base: dict[str, str], **extra: str) -> dict[str, str]:
    env = {k: v for k, v in base.items() if not k.startswith("BRASS_NO_")}
    env.update(XDG_CACHE_HOME=cache_home, **extra)
    return env


def measure(state: str, runs: int, ruleset: str, scratch: str, base: dict[str, str]) -> dict[str, Any]:
    """Medians of `runs` processes of the goal command and of the split, in one cache state."""
    shared = os.path.join(scratch, "shared")
    totals, cpus, splits = [], [], []
    for n in range(runs * 2):
        home = os.path.join(scratch, f"cold-{n}") if state == "cold" else shared  # cold: nothing cached, ever
        extra = {"BRASS_NO_RULESET_CACHE": "1"} if state == "no ruleset cache" else {}
        env = environment(home, base, **extra)
        if state != "cold" and n == 0:
            run(GOAL.format(ruleset=ruleset), environment(home, base))  # fill the caches
        if n % 2 == 0:
            wall, cpu, _ = run(GOAL.format(ruleset=ruleset), env)
            totals.append(wall)
            cpus.append(cpu)
        else:
            splits.append(json.loads(run(SPLIT.format(ruleset=ruleset), env)[2]))
    return {
        "total": statistics.median(totals),
        "cpu": statistics.median(cpus),
        "imports": statistics.median(s["imports"] for s in splits),
        "load": statistics.median(s["load"] for s in splits),
        "first_legal": statistics.median(s["first_legal"] for s in splits),
        "heavy": ", ".join(splits[-1]["heavy"]) or "none",
    }


def bytecode_modes(choice: str, scratch: str) -> list[tuple[str, dict[str, str]]]:
    """The environments to measure in: as this shell has it, and/or with the project's bytecode cached."""
    modes = []
    if choice in ("env", "both"):
        said = "not written (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "cached"
        modes.append((f"bytecode as this shell has it: {said}", dict(os.environ)))
    if choice in ("cached", "both"):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")  # never inside the project's folders
        run("import interpreter.tools.cli.main", env)
        modes.append(("bytecode cached (as after `pip install`, or in a checkout without PYTHONDONTWRITEBYTECODE)",
                      env))
    return modes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--ruleset", default="birmingham")
    parser.add_argument("--bytecode", choices=("env", "cached", "both"), default="both",
                        help="measure with the project's bytecode as the environment has it, cached, or both")
    args = parser.parse_args()
    bare = statistics.median(run("pass", dict(os.environ))[0] for _ in range(args.runs))
    print(f"ruleset {args.ruleset}; median of {args.runs} processes; `python -c pass` takes {bare * 1000:.0f} ms")
    with tempfile.TemporaryDirectory() as scratch:
        for title, base in bytecode_modes(args.bytecode, scratch):
            print(f"\n{title}")
            print(f"{'cache':<18} {'total':>7} {'cpu':>7} {'imports':>8} {'load':>7} {'1st legal':>9}  "
                  "heavy modules imported")
            for state in ("cold", "warm", "no ruleset cache"):
                r = measure(state, args.runs, args.ruleset, os.path.join(scratch, title[:12].replace(" ", "-")),
                            base)
                ms = {k: f"{r[k] * 1000:.0f} ms" for k in ("total", "cpu", "imports", "load", "first_legal")}
                print(f"{state:<18} {ms['total']:>7} {ms['cpu']:>7} {ms['imports']:>8} {ms['load']:>7} "
                      f"{ms['first_legal']:>9}  {r['heavy']}")


if __name__ == "__main__":
    main()
