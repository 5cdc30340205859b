"""Publish: write the Parquet files and the DuckDB database of the warehouse, atomically."""

import hashlib

import dagster as dg
import polars as pl

from pipeline.defs.checks import CHECKED_TABLES, passed_dir
from pipeline.defs.resources import WarehousePaths, staged_snapshots
from pipeline.lib.overview import write_overview
from pipeline.lib.publish import PublishError, content_digest, forget_other_passes, publish, unpassed_checks
from pipeline.lib.schema import TABLES
from pipeline.lib.staging import Staging

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
    """Publish every table as zstd Parquet and into papers.duckdb, switching the release in atomically.

    The tables are read from their staged Parquet files batch by batch, never whole, and only when
    their contents are those every blocking check passed on.
    """
    warehouse_dir = paths.warehouse()
    with staged_snapshots(warehouse_dir, list(TABLES)) as files:
        digests = {name: content_digest(path) for name, path in files.items()}
        unpassed = unpassed_checks(passed_dir(paths), CHECKED_TABLES, digests)
        if unpassed:
            raise PublishError(
                f"the staged tables are not the ones that passed {', '.join(unpassed)}: run the checks "
                "again (did another build change the staging area?)"
            )
        fingerprint = input_fingerprint(pl.read_parquet(files["input_files"], glob=False))
        release = publish(
            files, warehouse_dir, input_fingerprint=fingerprint, extra_manifest={"table_digests": digests}
        )
    forget_other_passes(passed_dir(paths), CHECKED_TABLES, digests)
    Staging(warehouse_dir).remove_retired()
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
            "table_digests": dg.MetadataValue.json(digests),
            **{f"rows/{name}": count for name, count in release.row_counts.items()},
        }
    )
