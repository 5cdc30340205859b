"""Blocking checks: a failing check stops the publish step, so a published warehouse passed them all."""

import dataclasses
import functools
import json
import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import dagster as dg
import polars as pl
from filelock import FileLock

from pipeline.defs.ingest import collect_seed_files
from pipeline.defs.metadata import markdown_preview
from pipeline.defs.resources import WarehousePaths, staged_snapshots
from pipeline.lib.publish import content_digest, record_passed
from pipeline.lib.reconcile import reconcile
from pipeline.lib.schema import TABLES, Table
from pipeline.lib.staging import Staging

# Great Expectations (with pandas, scipy, sqlalchemy, altair) is 250 MB resident in a process, and
# every step's process is forked from a server that imports this module: a check imports it when it
# runs, so that no other step, nor the server, holds it.
if TYPE_CHECKING:
    from pipeline.lib.validate import TableValidation

EXAMPLES = 10
REPORTS_DIR = "reports"


def _related(table: Table) -> list[str]:
    return sorted({key.table for key in table.foreign_keys} - {table.name})


# Every blocking check and the staged tables it reads: publish converts tables only when, by their
# digests, they are the ones every check passed on.
CHECKED_TABLES: dict[str, list[str]] = {
    **{f"{t.name}_matches_schema": [t.name, *_related(t)] for t in TABLES.values()},
    "nothing_lost": ["documents", "rejects", "input_files"],
}


def passed_dir(paths: WarehousePaths) -> Path:
    return Staging(paths.warehouse()).passed


def _digests(files: dict[str, Path]) -> dict[str, str]:
    return {name: content_digest(path) for name, path in files.items()}


def _publish_report(paths: WarehousePaths, run_id: str, validation: "TableValidation") -> dict:
    """Stage this table's validation and re-render the run's report from every table checked so far.

    Checks run in separate processes; the lock keeps their report writes from interleaving.
    """
    from pipeline.lib.validate import write_reports

    warehouse = paths.warehouse()
    staged = Staging(warehouse).validations
    staged.mkdir(parents=True, exist_ok=True)
    with FileLock(staged / ".lock"):
        (staged / f"{validation.table}.pickle").write_bytes(pickle.dumps((run_id, validation)))
        validations = []
        for path in sorted(staged.glob("*.pickle")):
            staged_run, staged_validation = pickle.loads(path.read_bytes())
            if staged_run == run_id:
                validations.append(staged_validation)
        return write_reports(validations, warehouse / REPORTS_DIR)


def _failure_table(validation: "TableValidation") -> str:
    rows = [
        {"expectation": o.label(), "unexpected": o.unexpected_count, "examples": repr(o.unexpected_examples)}
        for o in validation.failures()
    ]
    return markdown_preview(pl.DataFrame(rows), EXAMPLES) if rows else "all expectations passed"


def _schema_spec(table: Table) -> dg.AssetCheckSpec:
    return dg.AssetCheckSpec(
        name=f"{table.name}_matches_schema",
        asset=table.name,
        blocking=True,
        additional_deps=_related(table),
        description=f"Great Expectations suite of {table.name} derived from the schema module: types, "
        "keys, not-null columns, allowed values, ranges and references.",
    )


def _check_schema(
    context: dg.AssetCheckExecutionContext, paths: WarehousePaths, table: Table
) -> dg.AssetCheckResult:
    """The Great Expectations check of one table, its suite derived from the schema module."""
    from pipeline.lib.validate import load_passed_rows, save_passed_rows, validate_table

    related = _related(table)
    check_name = f"{table.name}_matches_schema"
    # One function serves every table, so tables are read from staging rather than named
    # parameters; from the file, so that a table of a million abstracts is read in chunks.
    with staged_snapshots(paths.warehouse(), [table.name, *related]) as files:
        # Only the referenced keys: a table of a million abstracts is otherwise read for its ids.
        references = {
            name: pl.read_parquet(
                files[name],
                columns=sorted({k.ref_column for k in table.foreign_keys if k.table == name}),
                glob=False,
            )
            for name in related
        }
        # Rows unchanged since a validation that passed are not given to GX again.
        passed_rows = Staging(paths.warehouse()).passed_rows(table.name)
        validation = validate_table(
            table, files[table.name], references, passed_rows=load_passed_rows(passed_rows, table)
        )
        digests = _digests(files)
    if validation.success:
        record_passed(passed_dir(paths), check_name, digests)
        if validation.row_hashes is not None:
            save_passed_rows(passed_rows, table, validation.row_hashes)
    validation = dataclasses.replace(validation, row_hashes=None)
    reports = _publish_report(paths, context.run.run_id, validation)
    failures = validation.failures()
    return dg.AssetCheckResult(
        asset_key=table.name,
        check_name=check_name,
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
            "table_digests": dg.MetadataValue.json(digests),
        },
    )


NOTHING_LOST = dg.AssetCheckSpec(
    name="nothing_lost",
    asset="documents",
    blocking=True,
    additional_deps=["rejects", "input_files"],
    description="Every input entry has its input_files row; every non-blank line of a text file is a "
    "header, in one document or in one reject; every record of another format is one document or reject.",
)


def _check_nothing_lost(context: dg.AssetCheckExecutionContext, paths: WarehousePaths) -> dg.AssetCheckResult:
    with staged_snapshots(paths.warehouse(), CHECKED_TABLES["nothing_lost"]) as files:
        # Only the line spans of the documents: the texts are gigabytes at scale.
        spans = ["source_file", "line_start", "line_end"]
        documents = pl.read_parquet(files["documents"], columns=spans, glob=False)
        rejects = pl.read_parquet(files["rejects"], glob=False)
        input_files = pl.read_parquet(files["input_files"], glob=False)
        digests = _digests(files)
    kept = Staging(paths.warehouse()).balanced
    balanced = json.loads(kept.read_text()) if kept.is_file() else None
    problems, keys = reconcile(paths.seeds(), documents, rejects, input_files, balanced)
    if problems.height == 0:
        record_passed(passed_dir(paths), "nothing_lost", digests)
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_name(f".{kept.name}.{os.getpid()}.partial")  # two builds at once write apart
        partial.write_text(json.dumps(keys, indent=1, sort_keys=True))
        partial.replace(kept)
    lost = problems.filter(pl.col("problem") == "not accounted for").height
    return dg.AssetCheckResult(
        asset_key=NOTHING_LOST.asset_key,
        check_name=NOTHING_LOST.name,
        passed=problems.height == 0,
        description=None
        if problems.height == 0
        else (
            f"{problems.height} input lines, records or entries not accounted for once, e.g. "
            f"{problems['source_file'][0]} line {problems['line'][0]}: {problems['problem'][0]}"
        ),
        metadata={
            "files_checked": input_files.height,
            # Files whose bytes and claimed lines are those of the last balanced run are not recounted.
            "files_unchanged_since_balanced": sum(balanced.get(n) == k for n, k in keys.items())
            if balanced
            else 0,
            "lines_not_accounted_for": lost,
            "lines_accounted_for_twice_or_more": problems.height - lost,
            "examples": dg.MetadataValue.md(markdown_preview(problems, EXAMPLES)),
            "table_digests": dg.MetadataValue.json(digests),
        },
    )


CheckFunction = Callable[[dg.AssetCheckExecutionContext, WarehousePaths], dg.AssetCheckResult]


def checks_step(name: str, checks: list[tuple[dg.AssetCheckSpec, CheckFunction]]) -> dg.AssetChecksDefinition:
    """Blocking checks run one after the other in one step. At scale a step is a process of its own,
    and each would pay its start and the import of Great Expectations: several seconds apiece."""
    run = {spec.key: function for spec, function in checks}

    @dg.multi_asset_check(name=name, specs=[spec for spec, _ in checks], can_subset=True)
    def _step(context: dg.AssetCheckExecutionContext, paths: WarehousePaths) -> Iterator[dg.AssetCheckResult]:
        for key in sorted(context.selected_asset_check_keys, key=lambda key: key.name):
            yield run[key](context, paths)

    return _step


def _schema_checks(tables: list[Table]) -> list[tuple[dg.AssetCheckSpec, CheckFunction]]:
    return [(_schema_spec(table), functools.partial(_check_schema, table=table)) for table in tables]


# Two steps, not one: the tables that ingestion stages are upstream of the others, and a blocking
# check holds back what is downstream of its table, so one step checking both would wait for itself.
_INGESTED = {key.to_user_string() for key in collect_seed_files.keys}
ingested_tables_checks = checks_step(
    "ingested_tables_checks", _schema_checks([t for t in TABLES.values() if t.name in _INGESTED])
)
built_tables_checks = checks_step(
    "built_tables_checks",
    [
        *_schema_checks([t for t in TABLES.values() if t.name not in _INGESTED]),
        (NOTHING_LOST, _check_nothing_lost),
    ],
)
