"""Materialisation metadata: row counts, a Markdown preview and the column schema of a frame."""

import dagster as dg
import polars as pl
from tabulate import tabulate

from pipeline.lib.schema import TABLES, Table

PREVIEW_ROWS = 5
PREVIEW_CELL_CHARS = 60


def _cell(value: object) -> str:
    text = ", ".join(map(str, value)) if isinstance(value, list) else "" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CELL_CHARS else text[: PREVIEW_CELL_CHARS - 1] + "…"


def markdown_preview(frame: pl.DataFrame, rows: int = PREVIEW_ROWS) -> str:
    head = frame.head(rows)
    body = [[_cell(v) for v in row] for row in head.iter_rows()]
    return tabulate(body, headers=head.columns, tablefmt="github")


def column_schema(frame: pl.DataFrame, table: Table | None = None) -> dg.TableSchema:
    columns = []
    for name, dtype in frame.schema.items():
        declared = table.column(name) if table and name in table.column_names else None
        columns.append(
            dg.TableColumn(
                name=name,
                type=declared.sql_type if declared else str(dtype),
                description=declared.description if declared else None,
                constraints=dg.TableColumnConstraints(nullable=declared.nullable, unique=declared.unique)
                if declared
                else None,
            )
        )
    return dg.TableSchema(columns=columns)


def frame_metadata(
    frame: pl.DataFrame | pl.LazyFrame, table_name: str | None = None, **extra: object
) -> dict:
    """Row count, preview and schema; of a LazyFrame, its first rows and its count are computed."""
    table = TABLES.get(table_name or "")
    head = frame.head(PREVIEW_ROWS).collect() if isinstance(frame, pl.LazyFrame) else frame
    rows = frame.select(pl.len()).collect().item() if isinstance(frame, pl.LazyFrame) else frame.height
    return {
        "dagster/row_count": rows,
        "preview": dg.MetadataValue.md(markdown_preview(head)),
        "dagster/column_schema": column_schema(head, table),
        **extra,
    }
