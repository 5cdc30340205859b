"""Entry point loaded by `dagster dev` (see [tool.dagster] in pyproject.toml)."""

import dagster as dg

from pipeline.defs import automation, checks, dedup, extract, ingest, publish
from pipeline.defs.compute import ComputeEngine
from pipeline.defs.resources import StagedFrameIOManager, WarehousePaths


def build_definitions(
    seeds_dir: str | None = None,
    warehouse_dir: str | None = None,
    executor: dg.ExecutorDefinition = dg.in_process_executor,
    scheduler: str | None = None,
) -> dg.Definitions:
    """`scheduler`: the Dask scheduler that per-file work is sent to (else $PAPERS_DASK_SCHEDULER)."""
    return dg.Definitions(
        assets=dg.load_assets_from_modules([ingest, dedup, extract, publish]),
        asset_checks=dg.load_asset_checks_from_modules([checks]),
        jobs=[automation.ingest_files, automation.build_tables],
        sensors=[automation.seed_files_sensor],
        resources={
            "paths": WarehousePaths(seeds_dir=seeds_dir, warehouse_dir=warehouse_dir),
            "io_manager": StagedFrameIOManager(warehouse_dir=warehouse_dir),
            "compute": ComputeEngine(scheduler=scheduler),
        },
        # Steps hand frames over through Parquet anyway; one process per run saves the start-up of a
        # process per step. Pass dg.multiprocess_executor to run independent steps in parallel.
        executor=executor,
    )


defs = build_definitions()
