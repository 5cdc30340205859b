"""Entry point loaded by `dagster dev` (see [tool.dagster] in pyproject.toml)."""

from __future__ import annotations

import dagster as dg

from pipeline.defs import checks, dedup, extract, ingest, publish
from pipeline.defs.resources import StagedFrameIOManager, WarehousePaths


def build_definitions(seeds_dir: str | None = None, warehouse_dir: str | None = None) -> dg.Definitions:
    return dg.Definitions(
        assets=dg.load_assets_from_modules([ingest, dedup, extract, publish]),
        asset_checks=dg.load_asset_checks_from_modules([checks]),
        resources={
            "paths": WarehousePaths(seeds_dir=seeds_dir, warehouse_dir=warehouse_dir),
            "io_manager": StagedFrameIOManager(warehouse_dir=warehouse_dir),
        },
    )


defs = build_definitions()
