"""The data dictionary in Markdown, generated from the schema module and the search index.

    python -m pipeline.lib.dictionary > docs/data-dictionary.md

A test regenerates it and fails when the committed file is stale.
"""

from __future__ import annotations

import sys

from pipeline.lib import search
from pipeline.lib.schema import SCHEMA_VERSION, TABLES, Column, Table

COMMAND = "python -m pipeline.lib.dictionary > docs/data-dictionary.md"


def _cell(text: str) -> str:
    # `<source_file>` would otherwise render as an unknown HTML tag, i.e. not at all.
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def constraints(column: Column) -> str:
    """The column's declared constraints in words, as the dictionary shows them."""
    parts = ["not null" if not column.nullable else "nullable"]
    if column.unique:
        parts.append("unique")
    if column.allowed:
        parts.append("one of " + ", ".join(f"`{value}`" for value in column.allowed))
    if column.min_value is not None and column.max_value is not None:
        parts.append(f"{_number(column.min_value)} to {_number(column.max_value)}")
    elif column.min_value is not None:
        parts.append(f"≥ {_number(column.min_value)}")
    elif column.max_value is not None:
        parts.append(f"≤ {_number(column.max_value)}")
    return ", ".join(parts)


def _table_section(table: Table) -> list[str]:
    lines = [f"## `{table.name}`", "", table.description, ""]
    if table.primary_key:
        lines.append("Primary key: " + ", ".join(f"`{c}`" for c in table.primary_key) + ".")
    for key in table.foreign_keys:
        lines.append(f"Foreign key: `{key.column}` → `{key.table}.{key.ref_column}`.")
    if table.primary_key or table.foreign_keys:
        lines.append("")
    lines += ["| column | type | constraints | description |", "|---|---|---|---|"]
    for column in table.columns:
        cells = (f"`{column.name}`", column.sql_type, constraints(column), column.description)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return [*lines, ""]


def _search_section() -> list[str]:
    lines = [
        "## Full-text search",
        "",
        f"`{search.MACRO}` is a table macro in `papers.duckdb`, usable from any DuckDB client without "
        "the fts extension:",
        "",
        "```sql",
        f"SELECT * FROM {search.MACRO}('mesh compression');",
        "```",
        "",
        _cell(search.MACRO_DESCRIPTION),
        "",
        f"Its BM25 index lives in the schema `{search.INDEX_SCHEMA}`:",
        "",
        "| table | column | description |",
        "|---|---|---|",
    ]
    for table, (description, columns) in search.INDEX_TABLES.items():
        lines.append(f"| `{search.INDEX_SCHEMA}.{table}` | | {_cell(description)} |")
        lines += [f"| | `{name}` | {_cell(text)} |" for name, text in columns.items()]
    return [*lines, ""]


def render() -> str:
    """The whole data dictionary as Markdown."""
    lines = [
        "# Data dictionary",
        "",
        f"Schema version {SCHEMA_VERSION}. Generated from `pipeline/lib/schema.py` by `{COMMAND}`; "
        "do not edit by hand. The same descriptions are the column comments in `papers.duckdb` "
        "(`SELECT * FROM duckdb_columns()`), the field metadata of the Parquet files and the column "
        "schemas in the Dagster UI.",
        "",
        "| table | one row per / contents |",
        "|---|---|",
        *(f"| [`{t.name}`](#{t.name}) | {_cell(t.description)} |" for t in TABLES.values()),
        "",
        "Offsets (`start`, `end`) are 0-based code-point offsets into `papers.abstract_clean`, end "
        "exclusive: `abstract_clean[start:end] == text` in Python.",
        "",
    ]
    for table in TABLES.values():
        lines += _table_section(table)
    lines += _search_section()
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
