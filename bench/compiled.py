"""An optional compiled build of the engine's hottest modules (mypyc), made from the same source.

    python bench/compiled.py [--out DIR] [--check]

Copies `brass_dsl/`, `interpreter/` and `rulesets/` into DIR (default `build/compiled`, which git
ignores) and compiles `MODULES` there with mypyc (mypy's own, from the test extras; it needs a C
compiler and the Python headers). The source tree is left as it is, so no compiled module can
hide a later edit of its source: the build is used by putting DIR first on the path,

    PYTHONPATH=build/compiled brass simulate …

(the `brass` command; `python -m …` or `python -c …` run in the project's folder would find its
sources first) and dropped by deleting DIR. It gives the same results as the pure Python (mypyc runs
the same code; the annotations of these modules must be exact, since mypyc checks them when they
run): `--check` runs the behaviour fingerprint and the whole-action tests against the build, from a
copy of the tests inside DIR, as CI does.

Measured on the 2-core development VM (docs/benchmarks.md, issue 22): listing a 4-player position's
whole actions 1.36 times as fast as the pure Python, the heuristic bot about 1.25 times; building takes
about a minute.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("brass_dsl", "interpreter", "rulesets")
# The modules a search spends its time in (whole actions, their preconditions, sourcing, the
# effects a fork runs and the vocabulary's functions), compiled; the rest stays Python.
MODULES = tuple(f"interpreter/engine/{name}.py" for name in (
    "whole_actions", "decisions", "checks", "sourcing", "network", "state", "table", "flow", "protocol",
    "resources", "values", "effect_impls")) + ("interpreter/ruleset/primitives.py",)
# mypy's settings for the build (those of pyproject.toml, which the build does not read: its
# setuptools step would read the project's metadata too).
MYPY_INI = """[mypy]
python_version = 3.11
check_untyped_defs = True
ignore_missing_imports = True
"""
CHECKS = ("tests/test_behaviour_fingerprint.py", "tests/test_whole_actions.py")
# What the checks read besides the packages: copied into the build once it is made.
CHECKED_WITH = ("tests", "bench", "pyproject.toml")


def build(out: Path) -> None:
    """A fresh copy of the packages in `out`, its hot modules compiled."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, out / package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (out / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mypyc", *MODULES], cwd=out, check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(out / "build", ignore_errors=True)  # the C sources and objects: the modules are in place


def compiled(out: Path) -> bool:
    """Whether `out` on the path gives the compiled modules (an extension module, not the source)."""
    probe = "import interpreter.engine.whole_actions as m; print(m.__file__)"
    found = subprocess.run([sys.executable, "-c", probe], cwd=out, env=_path_first(out), check=True,
                           capture_output=True, text=True).stdout.strip()
    return not found.endswith(".py")


def check(out: Path) -> int:
    """The behaviour fingerprint and the whole-action tests, run against the build (in it: the
    folder a test runs in comes first on the path)."""
    if not compiled(out):
        print(f"{out} does not give the compiled modules", file=sys.stderr)
        return 1
    for name in CHECKED_WITH:
        source, copy = ROOT / name, out / name
        if source.is_dir():
            shutil.copytree(source, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CHECKS]
    return subprocess.run(command, cwd=out, env=_path_first(out)).returncode


def _path_first(out: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(out), *filter(None, [env.get("PYTHONPATH")])])
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled", help="where to build")
    parser.add_argument("--check", action="store_true", help="then run the checks against the build")
    args = parser.parse_args()
    start = time.monotonic()
    build(args.out.resolve())
    print(f"built {len(MODULES)} modules into {args.out} in {time.monotonic() - start:.0f} s")
    if args.check:
        sys.exit(check(args.out.resolve()))


if __name__ == "__main__":
    main()
