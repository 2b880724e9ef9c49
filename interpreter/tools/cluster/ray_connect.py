"""Ray, started here or reached at a cluster's address, and its failures as `brass` errors.

Ray is an optional extra (`pip install 'brass-rules[ray]'`): it is imported only here, when a
command is given --ray, and its absence is one line saying how to install it.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from interpreter.ruleset.errors import BrassError

__all__ = ["INSTALL_HINT", "RayFailed", "check_address", "cluster_cpus", "connected", "first_line", "import_ray",
           "task_result"]

INSTALL_HINT = "--ray needs Ray, which is not installed here: pip install 'brass-rules[ray]'"


class RayFailed(BrassError):
    """Ray could not run the work (no cluster at the address, a task that kept failing)."""


def import_ray() -> ModuleType:
    """The `ray` module, or the error that says how to install it."""
    try:  # imported by name: the type checker need not know Ray, which may be missing
        return importlib.import_module("ray")
    except ImportError:
        raise BrassError(INSTALL_HINT) from None


@contextlib.contextmanager
def connected(address: str | None) -> Iterator[ModuleType]:
    """Ray, started here (a local instance, or connected to the cluster at `address`) unless the
    caller already did; shut down on leaving only if started here."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    try:
        # Workers' output is not copied here: stdout is the command's (--json), and a task's
        # error comes back with its result anyway.
        ray.init(address=address or None, logging_level=logging.WARNING, log_to_driver=False)
    except Exception as error:  # Ray raises many kinds: its own, RuntimeError, TimeoutError, OSError…
        # Whatever ray.init raises, the cluster could not be started or reached: a problem of the
        # address or of the machine, said with Ray's own words, never "a bug in brass".
        with contextlib.suppress(Exception):
            ray.shutdown()  # whatever it had started before failing
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise RayFailed(f"cannot start or reach {where}: {first_line(error)}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def check_address(address: str, positional: str) -> None:
    """Refuse what cannot be a Ray address: most often the command's `positional` argument (a
    ruleset, a scenario folder) written after a bare --ray, which took it as its ADDRESS."""
    if address and not (address in ("auto", "local") or ":" in address):
        raise BrassError(f"--ray ADDRESS is auto, local, HOST:PORT or ray://HOST:PORT, not {address!r} "
                         f"(to name the {positional}, put it before --ray)")


def check_runner(jobs: int, ray: str | None, positional: str) -> None:
    """Refuse a runner that cannot be: a negative --jobs, --jobs with --ray, a bad Ray address (the
    checks every command that plays in worker processes or on Ray makes alike)."""
    if jobs < 0:
        raise BrassError(f"--jobs is a number of worker processes (0: one per core), not {jobs}")
    if ray is not None and jobs != 1:
        raise BrassError("give --jobs (worker processes on this machine) or --ray (Ray decides), not both")
    if ray:
        check_address(ray, positional)


def cluster_cpus(ray: ModuleType) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def task_result(ray: ModuleType, reference: Any, retries: int) -> Any:
    """A finished task's value; a `brass` error the task raised (an invariant broken …) as it was
    raised; Ray's own failure, after its retries, as RayFailed."""
    try:
        return ray.get(reference)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, BrassError):
            raise error.cause from None
        raise
    except ray.exceptions.RayError as error:
        raise RayFailed(f"a Ray task failed even after {retries} retries: {first_line(error)}") from None


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
