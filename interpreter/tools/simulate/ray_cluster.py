"""`brass simulate --ray [ADDRESS]`: batches of games as Ray tasks, on one machine or a cluster.

Ray is an optional extra, reached through `cluster.ray_connect` only when --ray is given. A batch
is a task. The rulesets `brass` loaded are put into Ray's object store once (`batch.Shipment`,
never the files: a node need not have them, and an edit made during the run changes nothing); a
task names its ruleset by fingerprint and carries a reference to that object, which a Ray worker
fetches and builds only for its first batch of that ruleset (`batch.ruleset_for`), then keeps.
Batches hold up to 50 seeds, so that on a cluster the scheduling of a task (milliseconds) stays
small beside its games (seconds).

Ray retries a task whose worker or node died (`max_retries`), and only a finished task's
records come back, so a lost node costs time, never a game counted twice. Only a few tasks
per CPU are in flight at once: memory stays flat on a run of any length, and Ctrl-C has
little to cancel.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from interpreter.tools.cluster.ray_connect import cluster_cpus, import_ray, task_result
from interpreter.tools.simulate.batch import Batch, Shipment, has_received, play_sent_batch, receive
from interpreter.tools.simulate.games import GameRecord

LARGEST_BATCH = 50
TASKS_PER_CPU = 2
RETRIES = 3  # of a task whose worker process or node died


def ray_batch_size(games: int, cpus: int) -> int:
    """Seeds per task: about 4 tasks per CPU, at most LARGEST_BATCH."""
    return max(1, min(LARGEST_BATCH, math.ceil(games / (4 * cpus))))


def on_ray(ray: ModuleType, batches: Sequence[Batch],
           shipments: Sequence[Shipment]) -> Iterator[tuple[Batch, list[GameRecord]]]:
    """Each batch with its records, as the tasks finish (not in order), played with the rulesets
    `shipments` carries."""
    task = ray.remote(max_retries=RETRIES)(_play_task)
    # in a list, so that Ray hands the task the reference, not the object fetched for every task
    sent = {shipment.fingerprint: [ray.put(shipment)] for shipment in shipments}
    window = TASKS_PER_CPU * cluster_cpus(ray)
    waiting = list(reversed(batches))
    pending: dict[Any, Batch] = {}
    try:
        while waiting or pending:
            while waiting and len(pending) < window:
                batch = waiting.pop()
                pending[task.remote(batch, sent[batch.ruleset])] = batch
            ready, _ = ray.wait(list(pending), num_returns=1)
            for reference in ready:
                batch = pending.pop(reference)
                yield batch, task_result(ray, reference, RETRIES)
    finally:
        for reference in pending:  # Ctrl-C, an error: nobody will read these
            with contextlib.suppress(Exception):
                ray.cancel(reference, force=True)


def _play_task(batch: Batch, sent: list[Any]) -> list[GameRecord]:
    """A Ray task: the batch, with its ruleset fetched from the object store if this Ray worker
    has not built it yet."""
    if not has_received(batch.ruleset):
        receive([import_ray().get(sent[0])])
    return play_sent_batch(batch)
