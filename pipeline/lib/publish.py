"""Publish the warehouse atomically: Parquet files and a self-contained DuckDB database.

A release is written in full under `<warehouse>/.releases/<build_id>/` and only then swapped in:
`<warehouse>/parquet` is a symlink switched with one atomic rename, and `papers.duckdb` is a new
file renamed over the old one. A failed build never touches the published files, and a reader
holding the old database open keeps reading the old file while the next build replaces it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock, Timeout

from pipeline.lib.schema import SCHEMA_VERSION, TABLES, Table
from pipeline.lib.search import create_search_index

DATABASE_NAME = "papers.duckdb"
PARQUET_DIR = "parquet"
RELEASES_DIR = ".releases"
LOCK_NAME = ".publish.lock"
MANIFEST_NAME = "manifest.json"
KEEP_RELEASES = 2
LOCK_TIMEOUT_SECONDS = 600
# Rows converted at a time when a table comes as a Parquet file: publishing never holds a table.
BATCH_ROWS = 100_000
DUCKDB_MEMORY_ENV = "PAPERS_DUCKDB_MEMORY_LIMIT"
# DuckDB would take 80% of RAM; loading the tables and building the index spill to disk instead.
# 1.5 GB, not 2: at a million papers the step then peaks 0.3 GB lower, within a 4 GB build.
DEFAULT_DUCKDB_MEMORY = "1.5GB"

# A table to publish: a frame, or a Parquet file with its columns (read in batches).
TableSource = pl.DataFrame | Path


class PublishError(RuntimeError):
    pass


@dataclass(frozen=True)
class Release:
    build_id: str
    warehouse_dir: Path
    row_counts: dict[str, int]

    @property
    def database(self) -> Path:
        return self.warehouse_dir / DATABASE_NAME

    def parquet(self, table: str) -> Path:
        return self.warehouse_dir / PARQUET_DIR / f"{table}.parquet"


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def arrow_schema(table: Table, file_metadata: Mapping[str, str]) -> pa.Schema:
    """The declared schema with column descriptions and file key-value metadata."""
    fields = [
        f.with_metadata({"description": table.column(f.name).description}) for f in table.arrow_schema()
    ]
    return pa.schema(
        fields, metadata={"description": table.description, "table": table.name, **file_metadata}
    )


def _batches(table: Table, source: TableSource, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    frames = (
        [source]
        if isinstance(source, pl.DataFrame)
        else (pl.from_arrow(b) for b in pq.ParquetFile(source).iter_batches(batch_size=BATCH_ROWS))
    )
    for frame in frames:
        yield from table.conform(frame).to_arrow().cast(schema).to_batches()


def write_parquet(table: Table, source: TableSource, path: Path, file_metadata: Mapping[str, str]) -> int:
    """Write the table as zstd Parquet with the declared schema; returns its number of rows."""
    schema = arrow_schema(table, file_metadata)
    rows = 0
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for batch in _batches(table, source, schema):
            writer.write_batch(batch)
            rows += batch.num_rows
    return rows


def write_database(path: Path, parquet_paths: Mapping[str, Path], previous: Path | None = None) -> None:
    """Copy every table into a native DuckDB table (no paths to resolve later) with comments, and
    index the papers for search, updating the search index of `previous` (the last release's
    database) where it can be reused."""
    con = duckdb.connect(
        str(path), config={"memory_limit": os.environ.get(DUCKDB_MEMORY_ENV, DEFAULT_DUCKDB_MEMORY)}
    )
    try:
        # DuckDB's own bars would interleave with the build's progress on the terminal.
        con.execute("SET enable_progress_bar = false")
        for name, parquet_path in parquet_paths.items():
            table = TABLES[name]
            con.execute(
                f"CREATE TABLE {name} AS SELECT * FROM read_parquet({_sql_literal(str(parquet_path))})"
            )
            con.execute(f"COMMENT ON TABLE {name} IS {_sql_literal(table.description)}")
            for column in table.columns:
                con.execute(f'COMMENT ON COLUMN {name}."{column.name}" IS {_sql_literal(column.description)}')
        create_search_index(con, previous=previous)
        con.execute("CHECKPOINT")
    finally:
        con.close()


def _swap_parquet_link(warehouse_dir: Path, release_dir: Path) -> None:
    link = warehouse_dir / PARQUET_DIR
    if link.exists() and not link.is_symlink():
        # A directory left by hand (or an older layout) is kept as a release, not deleted.
        link.rename(warehouse_dir / RELEASES_DIR / f"previous-{int(time.time())}")
    tmp_link = warehouse_dir / f".{PARQUET_DIR}.{os.getpid()}.tmp"
    tmp_link.unlink(missing_ok=True)
    os.symlink(os.path.relpath(release_dir / PARQUET_DIR, warehouse_dir), tmp_link)
    os.replace(tmp_link, link)


def _prune_releases(releases_dir: Path, keep: str) -> None:
    old = sorted((p for p in releases_dir.iterdir() if p.is_dir() and p.name != keep), key=lambda p: p.name)
    for path in old[: max(0, len(old) - (KEEP_RELEASES - 1))]:
        shutil.rmtree(path, ignore_errors=True)


def new_build_id(fingerprint: str) -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}-{fingerprint[:8]}"


def publish(
    tables: Mapping[str, TableSource],
    warehouse_dir: Path,
    *,
    input_fingerprint: str,
    extra_manifest: Mapping[str, object] | None = None,
) -> Release:
    """Write a complete release and swap it in; the previous release stays intact on any failure.

    A table given as a Parquet file is converted batch by batch, so that memory stays bounded.
    """
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise PublishError(f"no schema for tables {sorted(unknown)}")
    warehouse_dir.mkdir(parents=True, exist_ok=True)
    releases_dir = warehouse_dir / RELEASES_DIR
    releases_dir.mkdir(exist_ok=True)
    lock = FileLock(warehouse_dir / LOCK_NAME)
    try:
        lock.acquire(timeout=LOCK_TIMEOUT_SECONDS)
    except Timeout as error:
        raise PublishError(
            f"another build has held the publish lock {lock.lock_file} for {LOCK_TIMEOUT_SECONDS}s"
        ) from error
    try:
        build_id = new_build_id(input_fingerprint)
        release_dir = releases_dir / build_id
        staging_dir = releases_dir / f".{build_id}.partial"
        (staging_dir / PARQUET_DIR).mkdir(parents=True)
        built_at = datetime.now(UTC).isoformat(timespec="seconds")
        file_metadata = {
            "schema_version": SCHEMA_VERSION,
            "build_id": build_id,
            "built_at": built_at,
            "input_fingerprint": input_fingerprint,
        }
        parquet_paths, row_counts = {}, {}
        for name, source in tables.items():
            parquet_paths[name] = staging_dir / PARQUET_DIR / f"{name}.parquet"
            row_counts[name] = write_parquet(TABLES[name], source, parquet_paths[name], file_metadata)
        staging_db = staging_dir / DATABASE_NAME
        previous = warehouse_dir / DATABASE_NAME
        write_database(staging_db, parquet_paths, previous=previous if previous.is_file() else None)
        manifest = {**file_metadata, "row_counts": row_counts, **(extra_manifest or {})}
        (staging_dir / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2, default=str) + "\n")
        staging_dir.rename(release_dir)

        _swap_parquet_link(warehouse_dir, release_dir)
        os.replace(release_dir / DATABASE_NAME, warehouse_dir / DATABASE_NAME)
        shutil.copyfile(release_dir / MANIFEST_NAME, warehouse_dir / f".{MANIFEST_NAME}.tmp")
        os.replace(warehouse_dir / f".{MANIFEST_NAME}.tmp", warehouse_dir / MANIFEST_NAME)
        _prune_releases(releases_dir, keep=build_id)
        return Release(build_id, warehouse_dir, row_counts)
    finally:
        for partial in releases_dir.glob(".*.partial"):
            shutil.rmtree(partial, ignore_errors=True)
        lock.release()
