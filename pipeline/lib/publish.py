"""Publish the warehouse atomically: Parquet datasets and a self-contained DuckDB database.

A release (its Parquet datasets, `papers.duckdb` and `manifest.json`) is made under
`<warehouse>/.releases/<build_id>/` and switched in by one atomic rename of the symlink
`<warehouse>/current`. Made in proportion to the change: each table is a directory of Parquet
segments of which only those that changed are written, the others hard-linked from the last
release (see `segments`), and the database is a copy of the last release's with the changed rows
deleted and inserted and its search index updated in place. Without a last release of this layout
everything is written whole. The public paths `parquet`, `papers.duckdb` and `manifest.json` are fixed
symlinks through `current`, so a crash at any point leaves the old release or the new one whole,
never a mix, and a reader holding the old database open keeps reading the old file.

One build at a time: `build_lock` is held by a whole build, from its first read of the inputs to
its publish; the shorter publish lock guards the release directory against callers of `publish`
that run outside a build.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import xxhash
from filelock import FileLock, Timeout

from pipeline.lib.config import usable_warehouse
from pipeline.lib.schema import SCHEMA_VERSION, TABLES, Table
from pipeline.lib.search import create_search_index, remember_replaced_papers, update_search_index
from pipeline.lib.segments import (
    SEGMENT_PATTERN,
    WHOLE_TABLE,
    TableChange,
    fsync,
    group_column,
    publish_table,
)

DATABASE_NAME = "papers.duckdb"
PARQUET_DIR = "parquet"
MANIFEST_NAME = "manifest.json"
# The one link a release is switched by; the public paths resolve through it.
CURRENT_LINK = "current"
PUBLIC_NAMES = (PARQUET_DIR, DATABASE_NAME, MANIFEST_NAME)
RELEASES_DIR = ".releases"
LOCK_NAME = ".publish.lock"
BUILD_LOCK_NAME = ".build.lock"
# Who holds the build lock, for the message of a build that waits for it.
BUILD_OWNER_NAME = ".build.owner.json"
# Releases kept, the current one included: the last one stays queryable ("what changed since the
# last build"). They share every unchanged Parquet segment by hard links; each has its own database.
KEEP_RELEASES = 2
LOCK_TIMEOUT_SECONDS = 600
DUCKDB_MEMORY_ENV = "PAPERS_DUCKDB_MEMORY_LIMIT"
# DuckDB would take 80% of RAM; loading the tables and building the index spill to disk instead.
# 1 GB, not 1.5: at a million papers the search index then peaked 0.5 GB lower and was no slower
# (benchmarks/profile_publish.py; benchmarks/README.md, "Publish's memory").
DEFAULT_DUCKDB_MEMORY = "1GB"
DIGEST_ALGORITHM = "xxh3_128"
DIGEST_CHUNK_BYTES = 8 * 2**20

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
        """The table's directory of Parquet segments, read as one table by the readers of README.md."""
        return self.warehouse_dir / PARQUET_DIR / f"{table}.parquet"

    def parquet_files(self, table: str) -> list[Path]:
        return sorted(self.parquet(table).glob(SEGMENT_PATTERN))


def content_digest(path: Path) -> str:
    """The digest of a file's bytes: what a check validated and what publish converts are compared
    by content, never by path (a path may point at other bytes by the time it is read again)."""
    digest = xxhash.xxh3_128()
    with path.open("rb") as file:
        while chunk := file.read(DIGEST_CHUNK_BYTES):
            digest.update(chunk)
    return f"{DIGEST_ALGORITHM}:{digest.hexdigest()}"


def snapshot(path: Path, target: Path) -> Path:
    """Pin the bytes at `path` (through any symlink) under `target`, a hard link where the file
    system allows: staged files are replaced by rename, never rewritten, so the link keeps them."""
    target.parent.mkdir(parents=True, exist_ok=True)
    source = path.resolve(strict=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return target


def _passed_marker(directory: Path, check: str, digests: Mapping[str, str]) -> Path:
    key = xxhash.xxh3_128(json.dumps(sorted(digests.items())).encode()).hexdigest()
    return directory / check / f"{key}.json"


def record_passed(directory: Path, check: str, digests: Mapping[str, str]) -> None:
    """Record that `check` passed on the tables of these digests (table name -> content_digest)."""
    marker = _passed_marker(directory, check, digests)
    marker.parent.mkdir(parents=True, exist_ok=True)
    partial = marker.with_name(f".{marker.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(dict(sorted(digests.items())), indent=1))
    partial.replace(marker)


def unpassed_checks(
    directory: Path, checks: Mapping[str, Sequence[str]], digests: Mapping[str, str]
) -> list[str]:
    """The checks (name -> the tables it reads) that never passed on the tables of these digests."""
    return [
        check
        for check, tables in checks.items()
        if not _passed_marker(directory, check, {t: digests[t] for t in tables}).is_file()
    ]


def forget_other_passes(
    directory: Path, checks: Mapping[str, Sequence[str]], digests: Mapping[str, str]
) -> None:
    """Drop every record of a pass but those on the tables of these digests (the published ones)."""
    for check, tables in checks.items():
        kept = _passed_marker(directory, check, {t: digests[t] for t in tables})
        for marker in (directory / check).glob("*.json"):
            if marker != kept:
                marker.unlink(missing_ok=True)


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


def _connect(path: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(
        str(path), config={"memory_limit": os.environ.get(DUCKDB_MEMORY_ENV, DEFAULT_DUCKDB_MEMORY)}
    )
    # DuckDB's own bars would interleave with the build's progress on the terminal.
    con.execute("SET enable_progress_bar = false")
    return con


def _literal_paths(directory: Path) -> list[str]:
    """The table's segments in order, each written so that DuckDB's reader takes it as it is: the
    reader expands `*`, `?` and `[` in a path as a glob, and a character class holding one of
    them matches it alone."""
    return [re.sub(r"([*?\[])", r"[\1]", str(path)) for path in sorted(directory.glob(SEGMENT_PATTERN))]


def write_database(path: Path, parquet_dirs: Mapping[str, Path], previous: Path | None = None) -> None:
    """Copy every table into a native DuckDB table (no paths to resolve later) with comments, and
    index the papers for search, updating the search index of `previous` (the last release's
    database) where it can be reused."""
    con = _connect(path)
    try:
        for name, directory in parquet_dirs.items():
            table = TABLES[name]
            con.execute(
                f"CREATE TABLE {name} AS SELECT * FROM read_parquet($files)",
                {"files": _literal_paths(directory)},
            )
            con.execute(f"COMMENT ON TABLE {name} IS {_sql_literal(table.description)}")
            for column in table.columns:
                con.execute(f'COMMENT ON COLUMN {name}."{column.name}" IS {_sql_literal(column.description)}')
        create_search_index(con, previous=previous)
        con.execute("CHECKPOINT")
    finally:
        con.close()


def update_database(path: Path, changes: Mapping[str, TableChange]) -> bool:
    """Bring a copy of the last release's database up to date: per table, delete the rows of the
    groups that changed or went away and insert the new rows, then update the search index in
    place. False when the copy cannot be updated so (a table missing, another index): the caller
    then writes the database whole."""
    con = _connect(path)
    try:
        present = {row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if not set(changes) <= present:
            return False
        for name, change in changes.items():
            column = group_column(TABLES[name])
            con.register("removed_keys", change.removed_keys)
            con.register("added_rows", change.added)
            if name == "papers":
                remember_replaced_papers(con, "removed_keys")
            group = f'"{column}"' if column else _sql_literal(WHOLE_TABLE)
            con.execute(f"DELETE FROM {name} WHERE {group} IN (SELECT key FROM removed_keys)")
            con.execute(f"INSERT INTO {name} SELECT * FROM added_rows")
            con.unregister("removed_keys")
            con.unregister("added_rows")
        if "papers" in changes and not update_search_index(con):
            return False
        con.execute("CHECKPOINT")
        return True
    finally:
        con.close()


def _link(path: Path, target: str) -> None:
    """Point the symlink `path` at `target` with one atomic rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, path)


def _switch(warehouse_dir: Path, release_dir: Path) -> None:
    _link(warehouse_dir / CURRENT_LINK, os.path.relpath(release_dir, warehouse_dir))
    fsync(warehouse_dir)


def _adopt_old_layout(warehouse_dir: Path) -> None:
    """Make the release an older layout published (`parquet` a link to a release or a directory,
    `papers.duckdb` and `manifest.json` files) the current one, with the same bytes: every public
    path keeps serving the old release until the first switch."""
    parquet = warehouse_dir / PARQUET_DIR
    if parquet.is_symlink() and parquet.resolve().parent.parent == (warehouse_dir / RELEASES_DIR).resolve():
        release = parquet.resolve().parent
    elif parquet.is_dir() and not parquet.is_symlink():
        release = warehouse_dir / RELEASES_DIR / f"previous-{int(time.time())}"
        release.mkdir()
        parquet.rename(release / PARQUET_DIR)
        _link(parquet, os.path.relpath(release / PARQUET_DIR, warehouse_dir))
    else:
        return
    for name in (DATABASE_NAME, MANIFEST_NAME):
        path = warehouse_dir / name
        if path.is_file() and not path.is_symlink() and not (release / name).exists():
            snapshot(path, release / name)
    _switch(warehouse_dir, release)


def _ensure_public_links(warehouse_dir: Path) -> None:
    if not (warehouse_dir / CURRENT_LINK).is_symlink():
        _adopt_old_layout(warehouse_dir)
    for name in PUBLIC_NAMES:
        path, target = warehouse_dir / name, f"{CURRENT_LINK}/{name}"
        if not (path.is_symlink() and os.readlink(path) == target):
            _link(path, target)


def _clear_leftovers(warehouse_dir: Path, releases_dir: Path) -> None:
    """What a publish killed before it finished left: only the holder of the publish lock writes these."""
    for partial in releases_dir.glob(".*.partial"):
        shutil.rmtree(partial, ignore_errors=True)
    for tmp in warehouse_dir.glob(".*.tmp"):
        if tmp.is_symlink():
            tmp.unlink(missing_ok=True)


def _prune_releases(warehouse_dir: Path, releases_dir: Path) -> None:
    """Keep the current release and the newest others up to KEEP_RELEASES in all. A reader holding a
    pruned release's database open keeps reading it: the file goes when the reader closes it."""
    current = (warehouse_dir / CURRENT_LINK).resolve()
    others = sorted(
        (p for p in releases_dir.iterdir() if p.is_dir() and not p.name.startswith(".") and p != current),
        key=lambda p: p.stat().st_mtime,
    )
    for path in others[: max(0, len(others) - (KEEP_RELEASES - 1))]:
        shutil.rmtree(path, ignore_errors=True)


def _build_id_of(release: Path | None) -> str | None:
    try:
        return json.loads((release / MANIFEST_NAME).read_text(encoding="utf-8"))["build_id"]
    except (TypeError, OSError, ValueError, KeyError):
        return None


def _write_release_database(release: Path, changes: Mapping[str, TableChange], previous: Path | None) -> None:
    """The release's database: the last release's copied and brought up to date when every table
    was published as a change to it, else written whole (reusing the last search index if it can)."""
    database = release / DATABASE_NAME
    last = previous / DATABASE_NAME if previous is not None else None
    if last is not None and last.is_file() and not any(change.full for change in changes.values()):
        shutil.copyfile(last, database)
        if update_database(database, changes):
            return
        database.unlink()
    write_database(
        database,
        {name: release / PARQUET_DIR / f"{name}.parquet" for name in changes},
        previous=last if last is not None and last.is_file() else None,
    )


def new_build_id(fingerprint: str) -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}-{fingerprint[:8]}"


def publish(
    tables: Mapping[str, TableSource],
    warehouse_dir: Path,
    *,
    input_fingerprint: str,
    extra_manifest: Mapping[str, object] | None = None,
) -> Release:
    """Write a complete release and switch it in; the previous release stays intact on any failure.

    A table given as a Parquet file is streamed, so that memory stays bounded; only the segments
    and database rows that changed since the current release are written.
    """
    unknown = set(tables) - set(TABLES)
    if unknown:
        raise PublishError(f"no schema for tables {sorted(unknown)}")
    usable_warehouse(warehouse_dir)
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
        _clear_leftovers(warehouse_dir, releases_dir)
        _ensure_public_links(warehouse_dir)
        build_id = new_build_id(input_fingerprint)
        release_dir = releases_dir / build_id
        partial = releases_dir / f".{build_id}.partial"
        (partial / PARQUET_DIR).mkdir(parents=True)
        built_at = datetime.now(UTC).isoformat(timespec="seconds")
        file_metadata = {
            "schema_version": SCHEMA_VERSION,
            "build_id": build_id,
            "built_at": built_at,
            "input_fingerprint": input_fingerprint,
        }
        # Resolved: the last release's own directory, whatever `current` points at later.
        current = warehouse_dir / CURRENT_LINK
        previous = current.resolve() if current.exists() else None
        changes = {
            name: publish_table(
                TABLES[name],
                source,
                partial,
                partial / PARQUET_DIR / f"{name}.parquet",
                arrow_schema(TABLES[name], file_metadata),
                previous,
            )
            for name, source in tables.items()
        }
        row_counts = {name: change.rows for name, change in changes.items()}
        _write_release_database(partial, changes, previous)
        manifest = {
            **file_metadata,
            "previous_build_id": _build_id_of(previous),
            "row_counts": row_counts,
            "tables": {name: change.summary() for name, change in changes.items()},
            **(extra_manifest or {}),
        }
        (partial / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2, default=str) + "\n")
        fsync(partial / MANIFEST_NAME)
        partial.rename(release_dir)
        _switch(warehouse_dir, release_dir)
        _prune_releases(warehouse_dir, releases_dir)
        return Release(build_id, warehouse_dir, row_counts)
    finally:
        _clear_leftovers(warehouse_dir, releases_dir)
        lock.release()


def _describe_owner(warehouse_dir: Path) -> str:
    try:
        owner = json.loads((warehouse_dir / BUILD_OWNER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "another build"
    who = owner.get("description") or "another build"
    return f"{who} (pid {owner.get('pid')}, since {owner.get('since')})"


def build_lock_holder(warehouse_dir: Path) -> str | None:
    """The token of the build holding the warehouse's build lock, as it recorded it."""
    try:
        return json.loads((warehouse_dir / BUILD_OWNER_NAME).read_text(encoding="utf-8")).get("token")
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def build_lock(warehouse_dir: Path, description: str, waiting: Callable[[str], None]) -> Iterator[str]:
    """Hold the warehouse's build lock for a whole build, waiting for another build to finish first
    (`waiting` is told so once). Yields this build's token, which the steps of the build that run
    elsewhere present to show that their launcher holds the lock. The lock goes with the process
    holding it, so a killed build never leaves it held."""
    warehouse_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(warehouse_dir / BUILD_LOCK_NAME)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        waiting(f"waiting for {_describe_owner(warehouse_dir)} to finish with the warehouse {warehouse_dir}")
        lock.acquire()
    token = uuid.uuid4().hex
    owner = warehouse_dir / BUILD_OWNER_NAME
    try:
        partial = owner.with_name(f".{owner.name}.{os.getpid()}.partial")
        since = datetime.now(UTC).isoformat(timespec="seconds")
        record = {"token": token, "pid": os.getpid(), "since": since, "description": description}
        partial.write_text(json.dumps(record))
        partial.replace(owner)
        yield token
    finally:
        owner.unlink(missing_ok=True)
        lock.release()
