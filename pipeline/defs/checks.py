"""Blocking checks: a failing check stops the publish step, so a published warehouse passed them all."""

import dataclasses
import json
import os
import pickle

import dagster as dg
import polars as pl
from filelock import FileLock

from pipeline.defs.metadata import markdown_preview
from pipeline.defs.resources import STAGING_DIR, WarehousePaths, read_staged, staged_path
from pipeline.lib.reconcile import reconcile
from pipeline.lib.schema import TABLES, Table
from pipeline.lib.validate import (
    TableValidation,
    load_passed_rows,
    save_passed_rows,
    validate_table,
    write_reports,
)

EXAMPLES = 10
REPORTS_DIR = "reports"
VALIDATIONS_DIR = "validations"


def _publish_report(paths: WarehousePaths, run_id: str, validation: TableValidation) -> dict:
    """Stage this table's validation and re-render the run's report from every table checked so far.

    Checks run in separate processes; the lock keeps their report writes from interleaving.
    """
    warehouse = paths.warehouse()
    staged = warehouse / STAGING_DIR / VALIDATIONS_DIR
    staged.mkdir(parents=True, exist_ok=True)
    with FileLock(staged / ".lock"):
        (staged / f"{validation.table}.pickle").write_bytes(pickle.dumps((run_id, validation)))
        validations = []
        for path in sorted(staged.glob("*.pickle")):
            staged_run, staged_validation = pickle.loads(path.read_bytes())
            if staged_run == run_id:
                validations.append(staged_validation)
        return write_reports(validations, warehouse / REPORTS_DIR)


def _failure_table(validation: TableValidation) -> str:
    rows = [
        {"expectation": o.label(), "unexpected": o.unexpected_count, "examples": repr(o.unexpected_examples)}
        for o in validation.failures()
    ]
    return markdown_preview(pl.DataFrame(rows), EXAMPLES) if rows else "all expectations passed"


def schema_check(table: Table) -> dg.AssetChecksDefinition:
    """A blocking Great Expectations check of one table, its suite derived from the schema module."""
    related = sorted({key.table for key in table.foreign_keys} - {table.name})

    @dg.asset_check(
        asset=table.name,
        name=f"{table.name}_matches_schema",
        blocking=True,
        additional_deps=related,
        description=f"Great Expectations suite of {table.name} derived from the schema module: types, "
        "keys, not-null columns, allowed values, ranges and references.",
    )
    def _check(context: dg.AssetCheckExecutionContext, paths: WarehousePaths) -> dg.AssetCheckResult:
        # One function serves every table, so tables are read from staging rather than named
        # parameters; from the file, so that a table of a million abstracts is read in chunks.
        staged = staged_path(paths.warehouse(), dg.AssetKey(table.name))
        # Only the referenced keys: a table of a million abstracts is otherwise read for its ids.
        references = {
            name: read_staged(
                paths.warehouse(), name, sorted({k.ref_column for k in table.foreign_keys if k.table == name})
            )
            for name in related
        }
        # Rows unchanged since a validation that passed are not given to GX again.
        passed_rows = paths.warehouse() / STAGING_DIR / VALIDATIONS_DIR / f"{table.name}.passed.parquet"
        validation = validate_table(
            table, staged, references, passed_rows=load_passed_rows(passed_rows, table)
        )
        if validation.success and validation.row_hashes is not None:
            save_passed_rows(passed_rows, table, validation.row_hashes)
        validation = dataclasses.replace(validation, row_hashes=None)
        reports = _publish_report(paths, context.run.run_id, validation)
        failures = validation.failures()
        return dg.AssetCheckResult(
            passed=validation.success,
            description=validation.summary_line(),
            metadata={
                "expectations": len(validation.outcomes),
                "rows_validated_before": validation.reused_rows,
                "failed_expectations": len(failures),
                "unexpected_rows": sum(f.unexpected_count for f in failures),
                "failures": dg.MetadataValue.md(_failure_table(validation)),
                "report": dg.MetadataValue.path(str(reports["html"])),
                "report_json": dg.MetadataValue.path(str(reports["json"])),
            },
        )

    return _check


schema_checks = [schema_check(table) for table in TABLES.values()]


@dg.asset_check(
    asset="documents",
    blocking=True,
    additional_ins={"rejects": dg.AssetIn(), "input_files": dg.AssetIn()},
    description="Every non-blank input line is a header, inside one document or inside one reject.",
)
def nothing_lost(
    paths: WarehousePaths, rejects: pl.DataFrame, input_files: pl.DataFrame
) -> dg.AssetCheckResult:
    # Only the line spans of the documents, read from staging: the texts are gigabytes at scale.
    documents = read_staged(paths.warehouse(), "documents", ["source_file", "line_start", "line_end"])
    kept = paths.warehouse() / STAGING_DIR / VALIDATIONS_DIR / "nothing_lost.balanced.json"
    balanced = json.loads(kept.read_text()) if kept.is_file() else None
    problems, keys = reconcile(paths.seeds(), documents, rejects, input_files, balanced)
    if problems.height == 0:
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_name(f".{kept.name}.{os.getpid()}.partial")  # two builds at once write apart
        partial.write_text(json.dumps(keys, indent=1, sort_keys=True))
        partial.replace(kept)
    lost = problems.filter(pl.col("problem") == "not accounted for").height
    return dg.AssetCheckResult(
        passed=problems.height == 0,
        description=None if problems.height == 0 else f"{problems.height} input lines not accounted for once",
        metadata={
            "files_checked": input_files.height,
            # Files whose bytes and claimed lines are those of the last balanced run are not recounted.
            "files_unchanged_since_balanced": sum(balanced.get(n) == k for n, k in keys.items())
            if balanced
            else 0,
            "lines_not_accounted_for": lost,
            "lines_accounted_for_twice_or_more": problems.height - lost,
            "examples": dg.MetadataValue.md(markdown_preview(problems, EXAMPLES)),
        },
    )
