"""Great Expectations validation of the warehouse tables, every expectation derived from schema.py.

Each table's rules come from its declaration: the exact ordered column list, each column's type,
not-null, unique, allowed values, value ranges, compound primary keys, foreign keys, and the span
invariants that the column names imply (``line_end >= line_start``, ``end > start``).

GX 1.24 evaluates two of these kinds far too slowly for a million rows, so polars evaluates them with
the same semantics (nulls ignored, bounds inclusive) and reports them in the same outcome shape, with
``details["engine"] == "polars"`` and the reason:
- foreign keys: GX re-serialises an expectation's whole ``value_set`` dozens of times per run
  (84 s for 1M ids against a 1M-id set);
- ranges of integer columns: GX's pandas ``expect_column_values_to_be_between`` vectorises only
  int64 and float64 and calls Python once per value of any other integer dtype.
Everything else runs in GX (``build_suite``): the uniqueness expectations on the key columns of the
whole table, the others on chunks of rows whose counts are added up (``validate_table``).

Frames reach GX in one canonical pandas form whichever library produced them (strings become
``string[pyarrow]``, integers nullable ``Int32``, lists ``object`` columns of tuples), so a type
expectation means the same thing for a polars frame and for a pandas frame with object, ``str`` or
Arrow-backed strings and numpy-array lists.
"""

from __future__ import annotations

import gc
import html
import json
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import great_expectations as gx
import great_expectations.expectations as gxe
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from great_expectations.core import ExpectationSuiteValidationResult, ExpectationValidationResult
from great_expectations.data_context.types.base import ProgressBarsConfig

from pipeline.lib.parquet_files import open_parquet
from pipeline.lib.schema import ForeignKey, Table

MAX_EXAMPLES = 5
# Long kwargs (value sets) are cut in details and reports; the full set is in the schema.
MAX_LISTED_VALUES = 20
# Enough raw unexpected values that duplicates (a unique check lists each twice) still leave 5 distinct.
_RESULT_FORMAT = {"result_format": "BASIC", "partial_unexpected_count": 4 * MAX_EXAMPLES}

# Column pairs whose order the names imply, as (start, end, end may equal start): line ranges are
# inclusive, so a one-line paragraph has line_end == line_start; offsets are end-exclusive and a
# span is never empty.
_ORDERED_PAIRS = (("line_start", "line_end", True), ("start", "end", False))

_FOREIGN_KEY_NOTE = (
    "evaluated with polars is_in: GX expect_column_values_to_be_in_set re-serialises the whole "
    "value_set many times per run (84 s for 1M ids against a 1M-id set)"
)
_INTEGER_RANGE_NOTE = (
    "evaluated with polars: GX expect_column_values_to_be_between vectorises only int64/float64 "
    "columns and calls Python once per value of other integer dtypes"
)
_SKIPPED_NO_RELATED = "skipped: related table not given"
# Rows GX sees at once for the expectations that look at one row at a time (see validate_table):
# at most CHUNK_ROWS, and fewer for wide rows, since GX's pandas copies take several times a
# chunk's Arrow bytes (checking 900k papers of 2.4 KB each peaked at 3.2 GB RSS in chunks of 100k
# rows, 2.1 GB in chunks of 25k).
CHUNK_ROWS = 100_000
CHUNK_BYTES = 64_000_000
_WHOLE_TABLE_EXPECTATIONS = (gxe.ExpectColumnValuesToBeUnique, gxe.ExpectCompoundColumnsToBeUnique)

# A column of the frame being validated: polars (converted a chunk at a time, never whole), Arrow,
# or the raw pandas Series when Arrow cannot hold it.
_FrameColumn = pl.Series | pa.ChunkedArray | pd.Series


@dataclass(frozen=True)
class ExpectationOutcome:
    """One expectation's result, JSON-serialisable.

    For row-level expectations ``unexpected_count`` counts rows; for column- and table-level ones
    (type, column list) it counts the offending items (1 for a wrong type, the missing and extra
    columns for the column list).
    """

    expectation: str
    column: str | None
    success: bool
    unexpected_count: int
    unexpected_examples: list
    details: dict

    @property
    def skipped(self) -> bool:
        return "skipped" in self.details

    def label(self) -> str:
        """A short human phrase for the rule, e.g. 'paper_id unique' or 'end > start'."""
        details, column = self.details, self.column
        match self.expectation:
            case "expect_table_columns_to_match_ordered_list":
                return "columns match schema"
            case "expect_column_type_to_be":
                return f"{column} is {details.get('type_')}"
            case "expect_column_values_to_not_be_null":
                return f"{column} not null"
            case "expect_column_values_to_be_unique":
                return f"{column} unique"
            case "expect_compound_columns_to_be_unique":
                return f"({', '.join(details.get('column_list', []))}) unique"
            case "expect_column_values_to_be_in_set":
                return f"{column} in {details.get('value_set')}"
            case "expect_column_values_to_be_between":
                return f"{column} {_range_phrase(details.get('min_value'), details.get('max_value'))}"
            case "expect_column_pair_values_a_to_be_greater_than_b":
                operator = ">=" if details.get("or_equal") else ">"
                return f"{details.get('column_A')} {operator} {details.get('column_B')}"
        return f"{self.expectation} {column}" if column else self.expectation

    def describe_failure(self) -> str:
        if "error" in self.details:
            return f"{self.label()} (error: {self.details['error']})"
        return f"{self.label()} ({self.unexpected_count} unexpected: {self.unexpected_examples!r})"


@dataclass(frozen=True)
class TableValidation:
    table: str
    success: bool
    n_rows: int
    outcomes: list[ExpectationOutcome]
    gx_result: dict
    # Rows the row-level expectations were not run on again: identical to rows that passed them in an
    # earlier validation (see validate_table's `passed_rows`).
    reused_rows: int = 0
    # The hash of every row (`row_hashes`), when the table was read from a file.
    row_hashes: pl.Series | None = None

    def failures(self) -> list[ExpectationOutcome]:
        return [outcome for outcome in self.outcomes if not outcome.success]

    def summary_line(self) -> str:
        failures = self.failures()
        n_skipped = sum(outcome.skipped for outcome in self.outcomes)
        skipped = f"; {n_skipped} skipped" if n_skipped else ""
        if self.reused_rows:
            skipped += f"; {self.reused_rows:,} rows unchanged since a passed validation"
        if not failures:
            return (
                f"{self.table}: all {len(self.outcomes)} expectations passed ({self.n_rows:,} rows){skipped}"
            )
        described = "; ".join(failure.describe_failure() for failure in failures)
        return (
            f"{self.table}: {len(failures)} of {len(self.outcomes)} expectations failed: {described}{skipped}"
        )


def build_suite(table: Table) -> gx.ExpectationSuite:
    """The GX suite of a table, from its schema declaration only (without the rules polars evaluates)."""
    return _suite(table, _rules(table))


def row_hashes(frame: pl.DataFrame) -> pl.Series:
    """A 64-bit hash of each row's values, stable within one polars version (see suite_key)."""
    return frame.hash_rows(seed=0)


def suite_key(table: Table) -> str:
    """What row hashes of passed rows are valid for: this table's rules and the hashing polars."""
    rules = [
        rule.configuration.to_json_dict() if isinstance(rule, gxe.Expectation) else repr(rule)
        for rule in _rules(table)
    ]
    return json.dumps({"polars": pl.__version__, "gx": gx.__version__, "rules": rules}, sort_keys=True)


_SUITE_KEY = b"suite_key"


def save_passed_rows(path: Path, table: Table, hashes: pl.Series) -> None:
    """Keep the row hashes of a validation in which every expectation passed, with its suite key."""
    schema = pa.schema([pa.field("row_hash", pa.uint64())], metadata={_SUITE_KEY: suite_key(table)})
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")  # two builds at once write apart
    pq.write_table(pa.table({"row_hash": hashes.to_arrow()}, schema=schema), partial, compression="zstd")
    partial.replace(path)


def load_passed_rows(path: Path, table: Table) -> pl.Series | None:
    """The row hashes kept by save_passed_rows, or None when there are none for this suite."""
    try:
        if pq.read_schema(path).metadata.get(_SUITE_KEY) != suite_key(table).encode():
            return None
        return pl.read_parquet(path, glob=False).get_column("row_hash")
    except (OSError, pa.ArrowException, AttributeError):
        return None


def validate_table(
    table: Table,
    frame: pl.DataFrame | pd.DataFrame | Path,
    related: Mapping[str, pl.DataFrame] = {},
    chunk_rows: int | None = None,
    passed_rows: pl.Series | None = None,
) -> TableValidation:
    """Validate one table against its schema; ``related`` holds the tables its foreign keys point to.

    Uniqueness needs every row at once, so GX checks it on the key columns alone; every other
    expectation looks at one row at a time, so GX checks it on chunks of ``chunk_rows`` rows and the
    chunks' counts are added up. Memory then stays near one chunk's pandas copy, not the table's.
    Without ``chunk_rows``, a chunk is CHUNK_BYTES of the table's data, up to CHUNK_ROWS rows.
    `frame` may be a Parquet file: then only the columns needed whole (keys, and what the polars
    rules check) are read whole, and the chunks are read one at a time.

    `passed_rows` (for a Parquet file) holds the row hashes of an earlier validation of the same
    suite (`suite_key`) in which every expectation passed: rows with those hashes passed every
    row-level expectation then, and being the same values they pass them now, so GX checks only
    the other rows. Uniqueness is checked on those rows and the passed rows that share a key with
    one of them (`_HashedChunks.key_rows`); the foreign keys and the ranges polars checks still see
    every row, and the null counts are counted over every row.
    """
    rules = _rules(table)
    expectations = [rule for rule in rules if isinstance(rule, gxe.Expectation)]
    whole_table = [e for e in expectations if isinstance(e, _WHOLE_TABLE_EXPECTATIONS)]
    per_chunk = [e for e in expectations if not isinstance(e, _WHOLE_TABLE_EXPECTATIONS)]
    if isinstance(frame, Path):
        needed_whole = [
            *(c for e in whole_table for c in _expectation_columns(e)),
            *(rule.column for rule in rules if not isinstance(rule, gxe.Expectation)),
        ]
        parquet = open_parquet(frame)
        n_rows = parquet.metadata.num_rows
        present = set(parquet.schema_arrow.names)
        whole = pl.read_parquet(
            frame, columns=[c for c in dict.fromkeys(needed_whole) if c in present], glob=False
        )
        columns = _frame_columns(whole, table)
        data_bytes = sum(parquet.metadata.row_group(i).total_byte_size for i in range(parquet.num_row_groups))
        chunk_rows = chunk_rows or _chunk_rows(data_bytes, n_rows)
        hashed = _HashedChunks(parquet, table, chunk_rows, passed_rows)
        chunks = iter(hashed)
    else:
        hashed = None
        columns = _frame_columns(frame, table)
        n_rows = len(frame)
        data_bytes = (
            frame.estimated_size() if isinstance(frame, pl.DataFrame) else frame.memory_usage(deep=True).sum()
        )
        chunk_rows = chunk_rows or _chunk_rows(data_bytes, n_rows)
        chunks = (
            {name: _sliced(column, offset, chunk_rows) for name, column in columns.items()}
            for offset in range(0, max(n_rows, 1), chunk_rows)
        )
    suite_runs: list[dict] = []
    by_expectation: dict[tuple[str, str], list[tuple[ExpectationOutcome, bool]]] = {}

    def record(run: ExpectationSuiteValidationResult) -> None:
        # Read at once and let go: a run's result keeps its batch (the chunk's pandas frame) alive,
        # and GX's context holds it in reference cycles that only the cycle collector frees.
        suite_runs.append(run.to_json_dict())
        for result in run.results:
            config = result.expectation_config
            row_level = "unexpected_count" in (result.result or {})
            key = _config_key(config.type, config.kwargs)
            by_expectation.setdefault(key, []).append((_outcome(result), row_level))
        if n_rows > chunk_rows:  # a table of many chunks; a small one is not worth a collection
            gc.collect()

    suite = gx.ExpectationSuite(name=f"{table.name}_rows", expectations=per_chunk)
    for chunk in chunks:
        record(_run_suite(suite, table.name, _pandas_frame(chunk, list(chunk))))
    if whole_table:
        # After the chunks, which hash every row: the hashes say which rows uniqueness must see.
        key_sets = [[c for c in _expectation_columns(e) if c in columns] for e in whole_table]
        keys = list(dict.fromkeys(c for key in key_sets for c in key))
        key_columns = hashed.key_rows(columns, key_sets) if hashed is not None and hashed.reused else columns
        suite = gx.ExpectationSuite(name=f"{table.name}_keys", expectations=whole_table)
        record(_run_suite(suite, table.name, _pandas_frame(key_columns, keys)))
    outcomes = [
        _merged_outcome(by_expectation[_config_key(rule.expectation_type, rule.configuration.kwargs)], n_rows)
        if isinstance(rule, gxe.Expectation)
        else _polars_outcome(rule, columns, related)
        for rule in rules
    ]
    if hashed is not None and hashed.reused:
        # GX skipped rows in every expectation it ran; polars saw every row.
        outcomes = [
            hashed.with_all_rows_missing_count(outcome, n_rows)
            if isinstance(rule, gxe.Expectation)
            else outcome
            for rule, outcome in zip(rules, outcomes, strict=True)
        ]
    return TableValidation(
        table=table.name,
        success=all(outcome.success for outcome in outcomes),
        n_rows=n_rows,
        outcomes=outcomes,
        gx_result={"success": all(run["success"] for run in suite_runs), "suite_runs": suite_runs},
        reused_rows=hashed.reused if hashed is not None else 0,
        row_hashes=hashed.hashes() if hashed is not None else None,
    )


def write_reports(
    validations: Sequence[TableValidation],
    reports_dir: Path,
    *,
    title: str = "Paper warehouse validation",
) -> dict[str, Path]:
    """Write validation.json (machine-readable) and validation.html (self-contained, offline)."""
    reports_dir.mkdir(parents=True, exist_ok=True)
    built_at = datetime.now(UTC).isoformat(timespec="seconds")
    summary = {
        "title": title,
        "built_at": built_at,
        "great_expectations_version": gx.__version__,
        "success": all(validation.success for validation in validations),
        "tables": [_table_summary(validation) for validation in validations],
    }
    json_path = reports_dir / "validation.json"
    html_path = reports_dir / "validation.html"
    json_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    html_path.write_text(_render_html(summary), encoding="utf-8")
    return {"json": json_path, "html": html_path}


# --- the suite -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _IntegerRange:
    """expect_column_values_to_be_between on an integer column, evaluated with polars."""

    column: str
    min_value: float | None
    max_value: float | None


_Rule = gxe.Expectation | _IntegerRange | ForeignKey


def _rules(table: Table) -> list[_Rule]:
    """Every rule of a table, in schema order: GX expectations and the rules polars evaluates."""
    rules: list[_Rule] = [gxe.ExpectTableColumnsToMatchOrderedList(column_list=table.column_names)]
    single_column_key = table.primary_key[0] if len(table.primary_key) == 1 else None
    for column in table.columns:
        rules.append(gxe.ExpectColumnTypeToBe(column=column.name, type_=_pandas_dtype_name(column.dtype)))
        if not column.nullable:
            rules.append(gxe.ExpectColumnValuesToNotBeNull(column=column.name))
        if column.unique or column.name == single_column_key:
            rules.append(gxe.ExpectColumnValuesToBeUnique(column=column.name))
        if column.allowed is not None:
            rules.append(gxe.ExpectColumnValuesToBeInSet(column=column.name, value_set=list(column.allowed)))
        if column.min_value is None and column.max_value is None:
            continue
        if pa.types.is_integer(column.dtype):
            rules.append(_IntegerRange(column.name, column.min_value, column.max_value))
        else:
            rules.append(
                gxe.ExpectColumnValuesToBeBetween(
                    column=column.name, min_value=column.min_value, max_value=column.max_value
                )
            )
    if len(table.primary_key) > 1:
        rules.append(gxe.ExpectCompoundColumnsToBeUnique(column_list=list(table.primary_key)))
    for start, end, may_equal in _ORDERED_PAIRS:
        if start in table.column_names and end in table.column_names:
            rules.append(
                gxe.ExpectColumnPairValuesAToBeGreaterThanB(column_A=end, column_B=start, or_equal=may_equal)
            )
    rules.extend(table.foreign_keys)
    return rules


def _suite(table: Table, rules: list[_Rule]) -> gx.ExpectationSuite:
    expectations = [rule for rule in rules if isinstance(rule, gxe.Expectation)]
    return gx.ExpectationSuite(name=f"{table.name}_schema", expectations=expectations)


def _run_suite(
    suite: gx.ExpectationSuite, asset_name: str, gx_frame: pd.DataFrame
) -> ExpectationSuiteValidationResult:
    # A fresh ephemeral context per run: nothing is written to disk or carried to the next run.
    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    batch_definition = (
        context.data_sources.add_pandas(asset_name)
        .add_dataframe_asset(asset_name)
        .add_batch_definition_whole_dataframe("whole table")
    )
    # A validation definition fetches the batch once; Batch.validate fetches it twice, and GX hashes
    # every frame under 1 GB at each fetch (a fingerprint for its batch markers).
    saved_suite = context.suites.add(suite)
    validation = gx.ValidationDefinition(name=asset_name, data=batch_definition, suite=saved_suite)
    return validation.run(batch_parameters={"dataframe": gx_frame}, result_format=_RESULT_FORMAT)


def _expectation_columns(expectation: gxe.Expectation) -> list[str]:
    kwargs = expectation.configuration.kwargs
    return list(kwargs.get("column_list") or [kwargs["column"]])


def _chunk_rows(data_bytes: int, n_rows: int) -> int:
    per_row = data_bytes / max(n_rows, 1)
    return max(1, min(CHUNK_ROWS, int(CHUNK_BYTES / max(per_row, 1))))


def _pandas_frame(columns: Mapping[str, _FrameColumn], names: list[str]) -> pd.DataFrame:
    """The named columns in the canonical pandas form."""
    return pd.DataFrame({name: _pandas_column(columns[name]) for name in names})


class _HashedChunks:
    """The file's chunks for GX without the rows known to pass (see validate_table), hashing every
    row and counting every column's nulls on the way; one empty chunk when no row is left."""

    def __init__(
        self, parquet: pq.ParquetFile, table: Table, chunk_rows: int, passed_rows: pl.Series | None
    ) -> None:
        self.parquet, self.table, self.chunk_rows = parquet, table, chunk_rows
        # Sorted once and searched per batch: is_in against the Series builds its set of every
        # passed hash again for each batch (17 s for the 50 batches of 4.9M mentions).
        self.passed = np.sort(passed_rows.to_numpy()) if passed_rows is not None else None
        self.reused = 0
        self.null_counts: dict[str, int] = {}
        self._hashes: list[pl.Series] = []
        self._passed_masks: list[pl.Series] = []

    def __iter__(self) -> Iterator[dict[str, _FrameColumn]]:
        yielded = False
        for batch in self.parquet.iter_batches(batch_size=self.chunk_rows):
            frame = pl.from_arrow(batch)
            hashes = row_hashes(frame)
            self._hashes.append(hashes)
            for name, count in frame.null_count().row(0, named=True).items():
                self.null_counts[name] = self.null_counts.get(name, 0) + count
            if self.passed is not None:
                passed = self._passed_before(hashes)
                self._passed_masks.append(passed)
                self.reused += int(passed.sum())
                frame = frame.filter(~passed)
            if frame.height:
                yielded = True
                yield _frame_columns(frame, self.table)
        if not yielded:
            yield _frame_columns(pl.from_arrow(self.parquet.schema_arrow.empty_table()), self.table)

    def hashes(self) -> pl.Series:
        return pl.concat(self._hashes) if self._hashes else pl.Series(dtype=pl.UInt64)

    def _passed_before(self, hashes: pl.Series) -> pl.Series:
        """Whether each hash is one of the passed rows'."""
        values = hashes.to_numpy()
        if self.passed is None or not len(self.passed):
            return pl.Series(np.zeros(len(values), dtype=bool))
        # Searched in sorted order: the lookups then walk the passed hashes forward (4x faster).
        order = np.argsort(values)
        at = np.empty_like(order)
        at[order] = np.minimum(np.searchsorted(self.passed, values[order]), len(self.passed) - 1)
        return pl.Series(self.passed[at] == values)

    def key_rows(
        self, columns: Mapping[str, _FrameColumn], key_sets: list[list[str]]
    ) -> dict[str, pl.Series]:
        """The key columns of the rows uniqueness must see, once the file has been read: the rows
        not known to pass, and the passed rows that share one of their keys. Passed rows are rows of
        a table whose keys were unique, so two of them share a key only when they are one row twice,
        and then both count as new: every repeated key is among these rows with all its rows, and
        GX counts the same unexpected rows as on the whole table."""
        key_sets = [key for key in key_sets if key]
        names = list(dict.fromkeys(c for key in key_sets for c in key))
        if not names:
            return {}
        frame = pl.DataFrame([_polars_column(columns, name) for name in names]).with_row_index("row")
        is_new = ~pl.concat(self._passed_masks) | self.hashes().is_duplicated()
        new, passed = frame.filter(is_new), frame.filter(~is_new)
        sharing = [
            passed.join(new.select(key).unique(), on=key, how="semi", nulls_equal=True).get_column("row")
            for key in key_sets
        ]
        rows = pl.concat([new.get_column("row"), *sharing]).unique().sort()
        kept = frame.filter(pl.col("row").is_in(rows.implode()))
        return {name: kept.get_column(name) for name in names}

    def with_all_rows_missing_count(self, outcome: ExpectationOutcome, n_rows: int) -> ExpectationOutcome:
        """A row-level outcome counts the nulls of the rows GX saw; give it those of every row."""
        if "missing_count" not in outcome.details or outcome.column not in self.null_counts:
            return outcome
        missing = self.null_counts[outcome.column]
        present = n_rows - missing
        details = {
            **outcome.details,
            "missing_count": missing,
            "unexpected_percent": 100 * outcome.unexpected_count / present if present else 0.0,
            "rows_validated_before": self.reused,
        }
        return ExpectationOutcome(
            outcome.expectation,
            outcome.column,
            outcome.success,
            outcome.unexpected_count,
            outcome.unexpected_examples,
            details,
        )


def _sliced(column: _FrameColumn, offset: int, length: int) -> _FrameColumn:
    if isinstance(column, pd.Series):
        return column.iloc[offset : offset + length].reset_index(drop=True)
    return column.slice(offset, length)


def _merged_outcome(outcomes: list[tuple[ExpectationOutcome, bool]], n_rows: int) -> ExpectationOutcome:
    """One outcome from an expectation's outcome on every chunk (with whether it counts rows): row
    counts add up, examples are the first distinct ones; a column- or table-level outcome is the
    first chunk's that failed."""
    failed = [outcome for outcome, _ in outcomes if not outcome.success]
    first = failed[0] if failed else outcomes[0][0]
    if len(outcomes) == 1 or not outcomes[0][1]:
        return first
    unexpected_count = sum(outcome.unexpected_count for outcome, _ in outcomes)
    details = dict(first.details)
    missing = sum(outcome.details.get("missing_count", 0) for outcome, _ in outcomes)
    details["missing_count"] = missing
    present = n_rows - missing
    details["unexpected_percent"] = 100 * unexpected_count / present if present else 0.0
    return ExpectationOutcome(
        expectation=first.expectation,
        column=first.column,
        success=not failed,
        unexpected_count=unexpected_count,
        unexpected_examples=_examples([x for outcome, _ in outcomes for x in outcome.unexpected_examples]),
        details=details,
    )


def _config_key(expectation_type: str, kwargs: Mapping[str, Any]) -> tuple[str, str]:
    own_kwargs = {key: value for key, value in kwargs.items() if key != "batch_id"}
    return expectation_type, json.dumps(own_kwargs, sort_keys=True, default=str)


# --- frames in the canonical pandas form -----------------------------------------------------------


def _pandas_extension_dtype(arrow_type: pa.DataType) -> pd.api.extensions.ExtensionDtype | None:
    """Nullable pandas dtypes, so integers with nulls stay integers and strings stay Arrow-backed."""
    if pa.types.is_integer(arrow_type):
        sign = "U" if pa.types.is_unsigned_integer(arrow_type) else ""
        return pd.api.types.pandas_dtype(f"{sign}Int{arrow_type.bit_width}")
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return pd.StringDtype("pyarrow")
    if pa.types.is_boolean(arrow_type):
        return pd.BooleanDtype()
    return None


def _pandas_column(column: _FrameColumn) -> pd.Series:
    if isinstance(column, pd.Series):
        return column
    if isinstance(column, pl.Series):
        column = column.to_arrow()
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        # Tuples, not numpy arrays: GX fingerprints each batch by hashing the frame and, when a value
        # is unhashable, pickles the whole frame instead (2.5 s per fingerprint for 200K papers).
        # Built from numpy rows rather than to_pylist(): its million lists keep the cyclic garbage
        # collector busy (2.8-4.3 s against 1.5 s for two 1M-row list columns).
        rows = column.to_numpy(zero_copy_only=False)
        return pd.Series([None if row is None else tuple(row) for row in rows], dtype=object)
    return column.to_pandas(types_mapper=_pandas_extension_dtype)


def _pandas_dtype_name(arrow_type: pa.DataType) -> str:
    """The dtype a column of this Arrow type has in the canonical form, e.g. 'Int32' or 'string'."""
    return str(_pandas_column(pa.chunked_array([], type=arrow_type)).dtype)


def _frame_columns(frame: pl.DataFrame | pd.DataFrame, table: Table) -> dict[str, _FrameColumn]:
    """Each column of a polars frame as it is; of a pandas frame as Arrow, except a column Arrow
    cannot hold (mixed types), which stays as it is so that GX reports its type instead of the
    conversion failing."""
    if isinstance(frame, pl.DataFrame):
        # As polars: converting the whole frame to Arrow would copy every string of the table.
        return {name: frame.get_column(name) for name in frame.columns}
    declared = {column.name: column.dtype for column in table.columns}
    columns: dict[str, _FrameColumn] = {}
    for name in frame.columns:
        series = frame[name].reset_index(drop=True)
        try:
            array = pa.array(series, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            columns[str(name)] = series
            continue
        columns[str(name)] = pa.chunked_array(
            [_with_whole_numbers_as_integers(array, declared.get(str(name)))]
        )
    return columns


def _with_whole_numbers_as_integers(array: pa.Array, declared: pa.DataType | None) -> pa.Array:
    """pandas holds an integer column with nulls as float64 with NaN (polars' to_pandas and
    pd.read_parquet both do); give it back its declared integer type when every value is whole,
    so that only real fractions fail the type expectation."""
    if declared is None or not pa.types.is_integer(declared) or not pa.types.is_floating(array.type):
        return array
    try:
        return array.cast(declared)  # a safe cast: fractions and overflow raise
    except pa.ArrowInvalid:
        return array


# --- outcomes --------------------------------------------------------------------------------------


def _outcome(result: ExpectationValidationResult) -> ExpectationOutcome:
    config = result.expectation_config
    kwargs = {key: value for key, value in config.kwargs.items() if key != "batch_id"}
    observed = result.result or {}
    details: dict[str, Any] = {key: _truncated(value) for key, value in kwargs.items()}
    for key in ("observed_value", "unexpected_percent", "missing_count"):
        if observed.get(key) is not None:
            details[key] = _jsonable(observed[key])
    error = _exception_message(result.exception_info)
    if error:
        # The expectation could not be evaluated (e.g. its column is missing): nothing was counted.
        details["error"] = error
        unexpected_count, examples = 0, []
    else:
        unexpected_count, examples = _unexpected(config.type, kwargs, observed, bool(result.success))
    return ExpectationOutcome(
        expectation=config.type,
        column=kwargs.get("column", kwargs.get("column_A")),
        success=bool(result.success),
        unexpected_count=unexpected_count,
        unexpected_examples=examples,
        details=details,
    )


def _unexpected(expectation: str, kwargs: dict, observed: dict, success: bool) -> tuple[int, list]:
    if "unexpected_count" in observed:
        return int(observed["unexpected_count"]), _examples(observed.get("partial_unexpected_list", []))
    if success:
        return 0, []
    observed_value = observed.get("observed_value")
    if expectation == "expect_table_columns_to_match_ordered_list" and observed_value is not None:
        expected, found = list(kwargs["column_list"]), list(observed_value)
        missing = [f"missing: {name}" for name in expected if name not in found]
        extra = [f"unexpected: {name}" for name in found if name not in expected]
        if missing or extra:
            return len(missing) + len(extra), (missing + extra)[:MAX_EXAMPLES]
        return 1, [f"order: {found}"]
    return 1, [] if observed_value is None else [_jsonable(observed_value)]


class _UnusableColumn(ValueError):
    """A column polars cannot evaluate a rule on; reported as the rule's error."""


def _polars_outcome(
    rule: _IntegerRange | ForeignKey,
    columns: Mapping[str, _FrameColumn],
    related: Mapping[str, pl.DataFrame],
) -> ExpectationOutcome:
    if isinstance(rule, ForeignKey):
        expectation = "expect_column_values_to_be_in_set"
        details = {"column": rule.column, "value_set": f"{rule.table}.{rule.ref_column}"}
        note = _FOREIGN_KEY_NOTE
    else:
        expectation = "expect_column_values_to_be_between"
        details = {"column": rule.column, "min_value": rule.min_value, "max_value": rule.max_value}
        note = _INTEGER_RANGE_NOTE
    details |= {"engine": "polars", "why_not_gx": note}

    def outcome(success: bool, unexpected_count: int = 0, examples: list | None = None) -> ExpectationOutcome:
        return ExpectationOutcome(
            expectation, rule.column, success, unexpected_count, examples or [], details
        )

    if isinstance(rule, ForeignKey) and rule.table not in related:
        details["skipped"] = _SKIPPED_NO_RELATED
        return outcome(True)
    try:
        values = _polars_column(columns, rule.column)
        unexpected = (
            _dangling_references(values, rule, related[rule.table])
            if isinstance(rule, ForeignKey)
            else _outside_range(values, rule)
        )
    except _UnusableColumn as error:
        details["error"] = str(error)
        return outcome(False)
    n_present = len(values) - values.null_count()
    details["missing_count"] = values.null_count()
    details["unexpected_percent"] = 100 * len(unexpected) / n_present if n_present else 0.0
    examples = _examples(unexpected.unique(maintain_order=True).head(MAX_EXAMPLES).to_list())
    return outcome(unexpected.is_empty(), len(unexpected), examples)


def _polars_column(columns: Mapping[str, _FrameColumn], name: str) -> pl.Series:
    column = columns.get(name)
    if column is None:
        raise _UnusableColumn(f"column {name!r} is not in the frame")
    if isinstance(column, pd.Series):
        raise _UnusableColumn(f"column {name!r} holds values of mixed types")
    return column if isinstance(column, pl.Series) else pl.Series(name, column)


def _dangling_references(values: pl.Series, key: ForeignKey, reference: pl.DataFrame) -> pl.Series:
    if key.ref_column not in reference.columns:
        raise _UnusableColumn(f"related table {key.table!r} has no column {key.ref_column!r}")
    known = reference.get_column(key.ref_column).drop_nulls().unique()
    if known.dtype != values.dtype:
        raise _UnusableColumn(
            f"{key.column!r} is {values.dtype}, {key.table}.{key.ref_column} is {known.dtype}"
        )
    present = values.drop_nulls()
    return present.filter(~present.is_in(known.implode()))


def _outside_range(values: pl.Series, rule: _IntegerRange) -> pl.Series:
    if not values.dtype.is_numeric():
        raise _UnusableColumn(f"column {rule.column!r} is {values.dtype}, not numeric")
    present = values.drop_nulls()
    outside = pl.repeat(False, len(present), eager=True)
    if rule.min_value is not None:
        outside |= present < rule.min_value
    if rule.max_value is not None:
        outside |= present > rule.max_value
    return present.filter(outside)


def _exception_message(exception_info: dict | None) -> str | None:
    """GX nests exception info either flat or per metric; return the first message raised."""
    if not exception_info:
        return None
    infos = [exception_info] if "raised_exception" in exception_info else list(exception_info.values())
    messages = [info.get("exception_message") for info in infos if info.get("raised_exception")]
    return next((message.removeprefix("Error: ") for message in messages if message), None)


def _examples(values: list) -> list:
    distinct: list = []
    for value in map(_jsonable, values):
        if value not in distinct:
            distinct.append(value)
        if len(distinct) == MAX_EXAMPLES:
            break
    return distinct


def _truncated(value: Any) -> Any:
    if isinstance(value, list | tuple) and len(value) > MAX_LISTED_VALUES:
        return [*map(_jsonable, value[:MAX_LISTED_VALUES]), f"... {len(value) - MAX_LISTED_VALUES} more"]
    return _jsonable(value)


def _jsonable(value: Any) -> Any:
    """Plain JSON values from numpy scalars and arrays, pandas NA and NaN."""
    if isinstance(value, np.ndarray | list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _range_phrase(min_value: float | None, max_value: float | None) -> str:
    if min_value is not None and max_value is not None:
        return f"between {_number(min_value)} and {_number(max_value)}"
    if min_value is not None:
        return f">= {_number(min_value)}"
    return f"<= {_number(max_value)}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# --- reports ---------------------------------------------------------------------------------------


def _table_summary(validation: TableValidation) -> dict:
    return {
        "table": validation.table,
        "success": validation.success,
        "n_rows": validation.n_rows,
        "n_expectations": len(validation.outcomes),
        "n_failed": len(validation.failures()),
        "summary": validation.summary_line(),
        "expectations": [asdict(outcome) | {"rule": outcome.label()} for outcome in validation.outcomes],
    }


_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 1200px; padding: 0 1rem; color: #1f2328; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2.2rem; }
.meta { color: #59636e; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin-top: .6rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid #d1d9e0; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-word; }
.badge { display: inline-block; padding: .05rem .55rem; border-radius: 1rem; font-weight: 600;
         font-size: .85rem; }
.pass { background: #dafbe1; color: #116329; } .fail { background: #ffebe9; color: #a40e26; }
.skip { background: #fff8c5; color: #7d4e00; }
tr.fail td { background: #fff5f5; }
"""


def _render_html(summary: dict) -> str:
    overview_rows = "".join(
        f"<tr><td><a href='#{_esc(table['table'])}'>{_esc(table['table'])}</a></td>"
        f"<td>{_badge(table['success'])}</td><td class='num'>{table['n_rows']:,}</td>"
        f"<td class='num'>{table['n_expectations']}</td><td class='num'>{table['n_failed']}</td></tr>"
        for table in summary["tables"]
    )
    sections = "".join(_render_table_section(table) for table in summary["tables"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(summary["title"])}</title><style>{_CSS}</style></head>
<body>
<h1>{_esc(summary["title"])} {_badge(summary["success"])}</h1>
<p class="meta">Built {_esc(summary["built_at"])} with Great Expectations
{_esc(summary["great_expectations_version"])}. Every expectation is derived from the table schemas.</p>
<table><thead><tr><th>table</th><th>status</th><th class='num'>rows</th><th class='num'>expectations</th>
<th class='num'>failed</th></tr>
</thead><tbody>{overview_rows}</tbody></table>
{sections}
</body></html>
"""


def _render_table_section(table: dict) -> str:
    rows = "".join(_render_expectation_row(outcome) for outcome in table["expectations"])
    return (
        f"<h2 id='{_esc(table['table'])}'>{_esc(table['table'])} {_badge(table['success'])}</h2>"
        f"<p class='meta'>{_esc(table['summary'])}</p>"
        "<table><thead><tr><th>status</th><th>rule</th><th>expectation</th><th>unexpected</th>"
        f"<th>examples</th><th>details</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _render_expectation_row(outcome: dict) -> str:
    skipped = "skipped" in outcome["details"]
    # The rule and column are shown already; why polars ran a rule is in the JSON report.
    details = {key: value for key, value in outcome["details"].items() if key not in ("column", "why_not_gx")}
    examples = ", ".join(
        json.dumps(example, ensure_ascii=False) for example in outcome["unexpected_examples"]
    )
    return (
        f"<tr class='{'' if outcome['success'] else 'fail'}'>"
        f"<td>{_badge(outcome['success'], skipped)}</td><td>{_esc(outcome['rule'])}</td>"
        f"<td><code>{_esc(outcome['expectation'])}</code></td>"
        f"<td class='num'>{outcome['unexpected_count']:,}</td>"
        f"<td><code>{_esc(examples)}</code></td>"
        f"<td><code>{_esc(json.dumps(details, ensure_ascii=False))}</code></td></tr>"
    )


def _badge(success: bool, skipped: bool = False) -> str:
    if skipped:
        return "<span class='badge skip'>skipped</span>"
    return "<span class='badge pass'>pass</span>" if success else "<span class='badge fail'>FAIL</span>"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)
