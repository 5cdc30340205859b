import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import pipeline.lib.publish as publishing
import pipeline.lib.segments as segments
from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES


def test_a_table_read_from_parquet_in_batches_is_published_like_the_frame(
    built_warehouse, tmp_path, monkeypatch
):
    monkeypatch.setattr(segments, "BATCH_ROWS", 7)  # the seed tables span several batches
    monkeypatch.setattr(segments, "SEGMENT_BYTES", 2_000)  # and several segments
    published = built_warehouse / "parquet"
    from_frames = publish(
        {name: pl.read_parquet(published / f"{name}.parquet") for name in TABLES},
        tmp_path / "frames",
        input_fingerprint="0" * 64,
    )
    from_files = publish(
        {name: published / f"{name}.parquet" for name in TABLES},
        tmp_path / "files",
        input_fingerprint="0" * 64,
    )
    assert from_files.row_counts == from_frames.row_counts
    assert from_files.row_counts["mentions"] > 7
    for name in TABLES:
        by_frame, by_file = (pq.read_table(r.parquet(name)) for r in (from_frames, from_files))
        assert by_file.schema.equals(by_frame.schema, check_metadata=False)
        assert by_file.equals(by_frame), name
    assert len(from_files.parquet_files("mentions")) > 1
    with duckdb.connect(str(from_files.database), read_only=True) as con:
        for name in TABLES:
            in_database = con.execute(f"SELECT * FROM {name}").arrow().read_all()
            assert in_database.equals(pq.read_table(from_files.parquet(name)).cast(in_database.schema)), name


def test_segments_under_a_path_with_glob_characters_load_only_themselves(tmp_path):
    for directory, values in (("x[ab]", [1, 2]), ("xa", [10]), ("xb", [20])):
        (tmp_path / directory).mkdir()
        pq.write_table(pa.table({"value": values}), tmp_path / directory / "part-000000.parquet")
    pq.write_table(pa.table({"value": [3]}), tmp_path / "x[ab]" / "part-000001.parquet")
    with duckdb.connect() as con:
        rows = con.execute(
            "SELECT value FROM read_parquet($files)", {"files": publishing._literal_paths(tmp_path / "x[ab]")}
        ).fetchall()
    assert rows == [(1,), (2,), (3,)]


def test_a_warehouse_under_a_path_with_glob_characters_is_published(built_warehouse, tmp_path):
    published = built_warehouse / "parquet"
    release = publish(
        {name: published / f"{name}.parquet" for name in TABLES},
        tmp_path / "w*[ab]",
        input_fingerprint="0" * 64,
    )
    with duckdb.connect(str(release.database), read_only=True) as con:
        for name in TABLES:
            assert con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] == release.row_counts[name]


def test_duckdb_memory_limit_is_configurable(tmp_path, monkeypatch):
    monkeypatch.setenv(publishing.DUCKDB_MEMORY_ENV, "300MB")
    seen = []
    real_connect = duckdb.connect

    def connect(path, **kwargs):
        seen.append(kwargs.get("config", {}).get("memory_limit"))
        return real_connect(path, **kwargs)

    monkeypatch.setattr(publishing.duckdb, "connect", connect)
    publish(
        {name: table.empty_frame() for name, table in TABLES.items()}, tmp_path, input_fingerprint="0" * 64
    )
    assert seen == ["300MB"]
