"""Where per-file work runs: processes of this machine, or the workers of a Dask cluster.

Per-file work (reading and cleaning one input file, extracting one chunk of papers) is a function of
its arguments alone, mapped over a `concurrent.futures.Executor`. On one machine that executor is a
pool of spawned processes, which the work starts itself only when it has more than one piece (a
spawned process imports the pipeline again, which takes seconds). On a cluster it is the executor
of a `distributed.Client` connected to the Dask scheduler, and every piece runs on the cluster's
workers. Those must see the same paths as the caller: the work reads input files and writes staged
parts by path (a shared file system; docs/scaling.md says what object storage would change).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context

# The Dask scheduler to send per-file work to (tcp://host:8786) when none is configured.
SCHEDULER_ENV = "PAPERS_DASK_SCHEDULER"
# How long to wait for the scheduler to answer before failing the step.
CONNECT_TIMEOUT = "30s"


@dataclass(frozen=True)
class Engine:
    """`workers` pieces of work run at once, mapped over `executor` (a Dask cluster's); with no
    executor, over processes of this machine that the work starts when it has more than one piece."""

    workers: int
    executor: Executor | None = None


def scheduler_address(configured: str | None = None) -> str | None:
    """The configured scheduler, else $PAPERS_DASK_SCHEDULER; None means this machine."""
    return configured or os.environ.get(SCHEDULER_ENV) or None


@contextmanager
def open_engine(scheduler: str | None, local_workers: int) -> Iterator[Engine]:
    """The engine for per-file work: `local_workers` processes here, or, with a scheduler address,
    the cluster behind it for as long as the block runs (its workers' threads are the parallelism)."""
    if not scheduler:
        yield Engine(max(1, local_workers))
        return
    # Imported only for a cluster: `distributed` takes a second to import.
    from distributed import Client

    with Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False) as client:
        # Not pure: a piece writes staged files, so the same arguments later must run again, not
        # reuse a result the cluster still holds.
        yield Engine(max(1, sum(client.nthreads().values())), client.get_executor(pure=False))


@contextmanager
def executor_for(engine: Engine, pieces: int) -> Iterator[Executor | None]:
    """Where `pieces` pieces of work run: the cluster's executor, else a pool of this machine's
    processes when there is more than one piece and more than one process may be started, else
    None (in this process: a spawned process costs seconds of imports, more than one piece)."""
    if engine.executor is not None:
        yield engine.executor
        return
    workers = min(local_processes(engine.workers), pieces)
    if workers <= 1:
        yield None
        return
    with local_pool(workers) as pool:
        yield pool


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes on this machine."""
    # Spawned, not forked: a fork of a process whose polars thread pool is running can deadlock.
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))


def local_processes(workers: int) -> int:
    """How many processes work may start here: `workers`, but 1 inside a Dask worker, whose
    cluster is already the parallelism and whose processes are daemons that may not have children."""
    return 1 if on_dask_worker() else workers


def on_dask_worker() -> bool:
    # A Dask worker has `distributed` imported; anywhere else it need not be imported to know.
    if "distributed" not in sys.modules:
        return False
    from distributed import get_worker

    try:
        get_worker()
    except ValueError:
        return False
    return True
