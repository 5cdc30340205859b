"""Blocking checks: a failing check stops the publish step, so a published warehouse passed them all."""

import dagster as dg
import polars as pl

from pipeline.defs.metadata import markdown_preview
from pipeline.defs.resources import WarehousePaths
from pipeline.lib.reconcile import reconcile

EXAMPLES = 10


@dg.asset_check(
    asset="documents",
    blocking=True,
    additional_ins={"rejects": dg.AssetIn(), "seed_files": dg.AssetIn()},
    description="Every non-blank input line is a header, inside one document or inside one reject.",
)
def nothing_lost(
    paths: WarehousePaths, documents: pl.DataFrame, rejects: pl.DataFrame, seed_files: pl.DataFrame
) -> dg.AssetCheckResult:
    problems = reconcile(paths.seeds(), documents, rejects, seed_files)
    lost = problems.filter(pl.col("problem") == "not accounted for").height
    return dg.AssetCheckResult(
        passed=problems.height == 0,
        description=None if problems.height == 0 else f"{problems.height} input lines not accounted for once",
        metadata={
            "files_checked": seed_files.height,
            "lines_not_accounted_for": lost,
            "lines_accounted_for_twice_or_more": problems.height - lost,
            "examples": dg.MetadataValue.md(markdown_preview(problems, EXAMPLES)),
        },
    )
