import duckdb
import polars as pl
import pyarrow.parquet as pq

import pipeline.lib.publish as publishing
import pipeline.lib.segments as segments
from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES


def test_a_table_read_from_parquet_in_batches_is_published_like_the_frame(
    built_warehouse, tmp_path, monkeypatch
):
    monkeypatch.setattr(publishing, "BATCH_ROWS", 7)  # the seed tables span several batches
    monkeypatch.setattr(segments, "BATCH_ROWS", 7)
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
    with duckdb.connect(str(from_files.database), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM mentions").fetchone()[0] == from_files.row_counts["mentions"]


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
