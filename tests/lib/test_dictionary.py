"""One description per column, everywhere: the data dictionary, the DuckDB comments, the Parquet field
metadata and the Dagster column schemas all say what pipeline/lib/schema.py says."""

import re

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.build import run_build
from pipeline.lib import dictionary, search
from pipeline.lib.schema import TABLES, Column
from tests.conftest import REPO_ROOT, SEEDS

DICTIONARY = REPO_ROOT / "docs" / "data-dictionary.md"
DECLARED = {
    name: [(c.name, c.sql_type, c.description) for c in table.columns] for name, table in TABLES.items()
}


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """A build whose Dagster result is kept, to read the metadata the UI shows."""
    warehouse = tmp_path_factory.mktemp("dictionary_warehouse")
    outcome = run_build(SEEDS, warehouse)
    assert outcome.published, outcome.reason
    return warehouse, outcome.result


def _unescape(cell: str) -> str:
    return cell.strip().replace("\\|", "|").replace("&lt;", "<").replace("&gt;", ">")


def _documented_columns(markdown: str) -> dict[str, list[tuple[str, str, str]]]:
    """Per `## \\`table\\`` section, the (column, type, description) rows of its column table."""
    documented = {}
    for section in re.split(r"^## ", markdown, flags=re.M)[1:]:
        heading = re.match(r"`(\w+)`\n", section)
        if not heading:
            continue
        rows = []
        for line in section.splitlines():
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            if len(cells) == 4 and cells[0].strip().startswith("`"):
                name, sql_type, _, description = (_unescape(c) for c in cells)
                rows.append((name.strip("`"), sql_type, description))
        documented[heading.group(1)] = rows
    return documented


def test_committed_dictionary_is_current():
    assert DICTIONARY.read_text(encoding="utf-8") == dictionary.render(), (
        f"docs/data-dictionary.md is stale: run `{dictionary.COMMAND}`"
    )


def test_dictionary_documents_every_column_as_declared():
    assert _documented_columns(dictionary.render()) == DECLARED


def test_dictionary_documents_the_search_macro_and_index():
    text = dictionary.render()
    assert f"SELECT * FROM {search.MACRO}('mesh compression');" in text
    for table, (_, columns) in search.INDEX_TABLES.items():
        assert f"`{search.INDEX_SCHEMA}.{table}`" in text
        for column in columns:
            assert f"| | `{column}` |" in text


def test_markup_in_descriptions_is_escaped():
    text = dictionary.render()
    assert "'&lt;source_file&gt;:&lt;ordinal&gt;'" in text
    assert "<source_file>" not in text


def test_constraints_in_words():
    assert dictionary.constraints(Column("a", pa.int32(), "", nullable=False, min_value=1)) == "not null, ≥ 1"
    assert dictionary.constraints(Column("b", pa.float64(), "", min_value=0.0, max_value=0.5)) == (
        "nullable, 0 to 0.5"
    )
    assert dictionary.constraints(Column("c", pa.large_string(), "", unique=True, allowed=("x", "y"))) == (
        "nullable, unique, one of `x`, `y`"
    )
    assert dictionary.constraints(Column("d", pa.int32(), "", max_value=9)) == "nullable, ≤ 9"


def test_duckdb_comments_are_the_declared_descriptions(build):
    warehouse, _ = build
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        columns = con.execute(
            "SELECT table_name, column_name, data_type, comment FROM duckdb_columns() "
            "WHERE NOT internal AND schema_name = 'main' ORDER BY table_name, column_index"
        ).fetchall()
        tables = dict(
            con.execute(
                "SELECT table_name, comment FROM duckdb_tables() WHERE NOT internal AND schema_name = 'main'"
            ).fetchall()
        )
        uncommented = con.execute(
            "SELECT schema_name, table_name, column_name FROM duckdb_columns() "
            "WHERE NOT internal AND (comment IS NULL OR comment = '')"
        ).fetchall()
    in_database = {}
    for table, column, data_type, comment in columns:
        in_database.setdefault(table, []).append((column, data_type, comment))
    assert in_database == DECLARED
    assert tables == {name: table.description for name, table in TABLES.items()}
    assert uncommented == []


def test_dagster_column_schemas_are_the_declared_descriptions(build):
    _, result = build
    shown = {}
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        name = materialization.asset_key.to_user_string()
        if name in TABLES:
            schema = materialization.metadata["dagster/column_schema"].value
            shown[name] = [(c.name, c.type, c.description) for c in schema.columns]
    assert shown == DECLARED


def test_parquet_field_metadata_is_the_declared_descriptions(build):
    warehouse, _ = build
    for name, table in TABLES.items():
        schema = pq.read_schema(next((warehouse / "parquet" / f"{name}.parquet").iterdir()))
        described = [(f.name, f.metadata[b"description"].decode()) for f in schema]
        assert described == [(c.name, c.description) for c in table.columns], name
        assert schema.metadata[b"description"].decode() == table.description
