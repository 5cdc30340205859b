"""Publish: write the Parquet files and the DuckDB database of the warehouse, atomically."""

import hashlib
import shutil

import dagster as dg
import polars as pl

from pipeline.defs.resources import STAGING_DIR, WarehousePaths, read_staged, staged_path
from pipeline.lib.overview import write_overview
from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES

GROUP = "publish"


def input_fingerprint(input_files: pl.DataFrame) -> str:
    """A digest of every input file's name and content: equal inputs give equal fingerprints."""
    digest = hashlib.sha256()
    for name, sha in input_files.sort("source_file").select("source_file", "sha256").iter_rows():
        digest.update(f"{name}\0{sha}\n".encode())
    return digest.hexdigest()


@dg.asset(
    group_name=GROUP,
    kinds={"parquet", "duckdb"},
    deps=list(TABLES),
)
def warehouse(context: dg.AssetExecutionContext, paths: WarehousePaths):
    """Publish every table as zstd Parquet and into papers.duckdb, swapping the release in atomically.

    The tables are read from their staged Parquet files batch by batch, never whole.
    """
    warehouse_dir = paths.warehouse()
    sources = {name: staged_path(warehouse_dir, dg.AssetKey(name)) for name in TABLES}
    fingerprint = input_fingerprint(read_staged(warehouse_dir, "input_files"))
    release = publish(sources, warehouse_dir, input_fingerprint=fingerprint)
    # Token counts that builds before the index was made by create_fts_index kept for reuse.
    shutil.rmtree(warehouse_dir / STAGING_DIR / "search_tokens", ignore_errors=True)
    overview = write_overview(release.warehouse_dir)
    validation_report = release.warehouse_dir / "reports" / "validation.html"
    context.log.info(f"published build {release.build_id} to {release.warehouse_dir}")
    return dg.MaterializeResult(
        metadata={
            "build_id": release.build_id,
            "database": dg.MetadataValue.path(str(release.database)),
            "parquet_dir": dg.MetadataValue.path(str(release.warehouse_dir / "parquet")),
            "overview": dg.MetadataValue.path(str(overview)),
            "validation_report": dg.MetadataValue.path(str(validation_report)),
            "row_counts": dg.MetadataValue.json(release.row_counts),
            **{f"rows/{name}": count for name, count in release.row_counts.items()},
        }
    )
