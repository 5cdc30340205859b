"""Compute: where the steps that fan out per file run their pieces, here or on a Dask cluster."""

import os
from contextlib import ExitStack

import dagster as dg
from pydantic import PrivateAttr

from pipeline.lib.engine import Engine, open_engine, scheduler_address


class ComputeEngine(dg.ConfigurableResource):
    """The per-file work of a step (parsing, extraction) runs on the Dask cluster whose scheduler is
    `scheduler` (tcp://host:8786), or $PAPERS_DASK_SCHEDULER when unset; with neither, in processes
    of this machine. The step itself, and everything global, runs where Dagster runs it."""

    scheduler: str | None = None
    _stack: ExitStack = PrivateAttr(default_factory=ExitStack)
    _engine: Engine | None = PrivateAttr(default=None)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        address = scheduler_address(self.scheduler)
        engine = self._stack.enter_context(open_engine(address, os.cpu_count() or 1))
        if address and context.log:
            context.log.info(f"per-file work on the Dask cluster at {address} ({engine.workers} threads)")
        self._engine = engine

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        self._stack.close()

    def engine(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("ComputeEngine.engine() is there only while a Dagster run holds the resource")
        return self._engine
