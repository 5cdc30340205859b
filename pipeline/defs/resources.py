"""Resources: where to read seeds and write the warehouse, and how assets hand frames to each other."""

import os
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.lib import config

STAGING_DIR = ".staging"


class WarehousePaths(dg.ConfigurableResource):
    """Seeds and warehouse directories; unset fields fall back to PAPERS_SEEDS_DIR / PAPERS_WAREHOUSE_DIR."""

    seeds_dir: str | None = None
    warehouse_dir: str | None = None

    def seeds(self) -> Path:
        return config.seeds_dir(self.seeds_dir)

    def warehouse(self) -> Path:
        return config.warehouse_dir(self.warehouse_dir)


def staged_path(warehouse_dir: Path, asset_key: dg.AssetKey) -> Path:
    return warehouse_dir / STAGING_DIR / f"{'__'.join(asset_key.path)}.parquet"


def read_staged(warehouse_dir: Path, asset_name: str) -> pl.DataFrame:
    """The frame an upstream step staged, for checks that declare the dependency without loading it."""
    return pl.read_parquet(staged_path(warehouse_dir, dg.AssetKey(asset_name)))


class StagedFrameIOManager(dg.ConfigurableIOManager):
    """Stores each asset's polars frame as Parquet under `<warehouse>/.staging/`.

    Files are written to a temporary name and renamed, so a step never reads a half-written input.
    """

    warehouse_dir: str | None = None

    def _path(self, asset_key: dg.AssetKey) -> Path:
        return staged_path(config.warehouse_dir(self.warehouse_dir), asset_key)

    def handle_output(self, context: dg.OutputContext, obj: pl.DataFrame) -> None:
        path = self._path(context.asset_key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        obj.write_parquet(tmp, compression="lz4")
        os.replace(tmp, path)

    def load_input(self, context: dg.InputContext) -> pl.DataFrame:
        return pl.read_parquet(self._path(context.asset_key))
