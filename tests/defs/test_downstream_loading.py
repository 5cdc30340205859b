"""Every published table (a directory of Parquet segments) loads in pandas, polars, pyarrow and
DuckDB with the declared types, by the one-liners of README.md, and every segment carries the
key-value metadata of the build that wrote it."""

import json
import re
from datetime import UTC, datetime

import duckdb
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

from pipeline.lib.schema import SCHEMA_VERSION, TABLES

METADATA_KEYS = ("schema_version", "build_id", "built_at", "input_fingerprint")


def _path(warehouse, name):
    return warehouse / "parquet" / f"{name}.parquet"


def _segments(warehouse, name):
    return sorted(_path(warehouse, name).glob("*.parquet"))


def _file_metadata(segment) -> dict[str, str]:
    metadata = pq.read_schema(segment).metadata
    return {key.decode(): value.decode() for key, value in metadata.items()}


@pytest.mark.parametrize("name", TABLES)
def test_pyarrow_reads_the_declared_schema(built_warehouse, name):
    table = pq.read_table(_path(built_warehouse, name))
    assert table.schema.remove_metadata() == TABLES[name].arrow_schema().remove_metadata()


@pytest.mark.parametrize("name", TABLES)
def test_polars_reads_the_declared_schema(built_warehouse, name):
    assert dict(pl.read_parquet(_path(built_warehouse, name)).schema) == TABLES[name].polars_schema()


@pytest.mark.parametrize("name", TABLES)
def test_pandas_reads_the_declared_types(built_warehouse, name):
    path = _path(built_warehouse, name)
    columns = TABLES[name].columns
    arrow_backed = pd.read_parquet(path, dtype_backend="pyarrow")
    assert list(arrow_backed.columns) == [c.name for c in columns]
    assert list(arrow_backed.dtypes) == [pd.ArrowDtype(c.dtype) for c in columns]
    # The default backend: strings as strings, integers as integers (floats only where nulls are),
    # doubles as doubles, lists as Python objects.
    default = pd.read_parquet(path)
    for column in columns:
        dtype = default[column.name].dtype
        if column.sql_type == "VARCHAR":
            assert pd.api.types.is_string_dtype(dtype), column.name
        elif column.sql_type == "INTEGER":
            has_nulls = default[column.name].isna().any()
            assert pd.api.types.is_float_dtype(dtype) if has_nulls else dtype == "int32", column.name
        elif column.sql_type == "BIGINT":
            has_nulls = default[column.name].isna().any()
            assert pd.api.types.is_float_dtype(dtype) if has_nulls else dtype == "int64", column.name
        elif column.sql_type == "DOUBLE":
            assert dtype == "float64", column.name
        elif column.sql_type == "BOOLEAN":
            assert pd.api.types.is_bool_dtype(dtype) or dtype == "object", column.name
        else:
            assert pd.api.types.is_object_dtype(dtype), column.name


@pytest.mark.parametrize("name", TABLES)
def test_duckdb_reads_the_declared_types(built_warehouse, name):
    declared = [(c.name, c.sql_type) for c in TABLES[name].columns]
    path = str(_path(built_warehouse, name))
    with duckdb.connect() as con:
        from_parquet = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
    with duckdb.connect(str(built_warehouse / "papers.duckdb"), read_only=True) as con:
        from_database = con.execute(f"DESCRIBE {name}").fetchall()
    assert [(row[0], row[1]) for row in from_parquet] == declared
    assert [(row[0], row[1]) for row in from_database] == declared


def test_every_library_reads_the_same_rows(built_warehouse):
    for name in ("papers", "documents", "mentions"):
        path = _path(built_warehouse, name)
        expected = pl.read_parquet(path).height
        assert len(pd.read_parquet(path)) == expected
        assert pq.read_table(path).num_rows == expected
        assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}')").fetchone() == (expected,)
    ids = sorted(pd.read_parquet(_path(built_warehouse, "papers"))["paper_id"])
    assert ids == sorted(pl.read_parquet(_path(built_warehouse, "papers"))["paper_id"].to_list())


def test_every_file_carries_the_builds_metadata(built_warehouse):
    manifest = json.loads((built_warehouse / "manifest.json").read_text(encoding="utf-8"))
    for name in TABLES:
        assert [p.name for p in _segments(built_warehouse, name)] == sorted(
            manifest["tables"][name]["segments"]
        )
        for segment in _segments(built_warehouse, name):
            metadata = _file_metadata(segment)
            expected = {key: manifest[key] for key in METADATA_KEYS}
            assert {key: metadata[key] for key in METADATA_KEYS} == expected
            assert metadata["table"] == name
            assert metadata["description"] == TABLES[name].description
    assert manifest["schema_version"] == SCHEMA_VERSION
    assert re.fullmatch(r"[0-9a-f]{64}", manifest["input_fingerprint"])
    assert manifest["build_id"].endswith(manifest["input_fingerprint"][:8])
    built_at = datetime.fromisoformat(manifest["built_at"])
    assert built_at.tzinfo is not None and built_at <= datetime.now(UTC)


def test_metadata_is_readable_from_polars_and_duckdb(built_warehouse):
    (segment,) = _segments(built_warehouse, "papers")
    assert pl.read_parquet_metadata(segment)["schema_version"] == SCHEMA_VERSION
    path = _path(built_warehouse, "papers")
    rows = duckdb.sql(
        f"SELECT decode(key), decode(value) FROM parquet_kv_metadata('{path}/*.parquet') "
        "WHERE decode(key) = 'schema_version'"
    ).fetchall()
    assert rows == [("schema_version", SCHEMA_VERSION)]
