"""A table published as a directory of Parquet segments, of which a rebuild rewrites only those that changed.

A table's rows are cut into groups by a key (its one-column primary key, else `paper_id`, else the
whole table is one group), and every group lives in exactly one segment file
`<table>.parquet/part-<number>.parquet` of at most about SEGMENT_BYTES of data. Each release keeps an index
beside its Parquet files: per group, a digest of its rows and its segment. A rebuild hashes the
staged table (streamed, never whole in memory), compares the digests with the last release's, and
then:

- a segment holding no group that changed or went away is hard-linked from the last release: same
  bytes, same name;
- a segment holding one is written anew under a new number, with the old rows of its other groups
  and the new rows of its changed groups;
- the rows of new groups are added to the newest segment while it is under half of SEGMENT_BYTES
  (rewriting it), else they start a new segment.

So a rebuild writes the changed rows and the segments they share, and every segment stays bounded.
The result is the same set of rows as a full write, and each segment is an ordinary Parquet file:
any reader of a directory of Parquet files reads the table (see README.md).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import xxhash

from pipeline.lib.parquet_files import open_parquet
from pipeline.lib.schema import SCHEMA_VERSION, Table

# A segment's data before compression: a million papers make about 150 files of 5 MB, so that a
# changed paper costs under 1 % of the table and a reader opens few files.
SEGMENT_BYTES = 16 * 2**20
# Rows written to a Parquet row group at a time, and read at a time when a table is streamed.
BATCH_ROWS = 100_000
INDEX_DIR = "segment_index"
SEGMENT_PATTERN = "part-*.parquet"
# Bumped when the digests or the grouping change: an index of another layout is not compared with.
LAYOUT_VERSION = "1"
_SEEDS = (0x5EED_0001, 0x5EED_0002)
# The group key of a table that is one group.
WHOLE_TABLE = "__table__"


def segment_name(number: int) -> str:
    return f"part-{number:06d}.parquet"


def segment_number(name: str) -> int:
    return int(name.removeprefix("part-").removesuffix(".parquet"))


def group_column(table: Table) -> str | None:
    """The column whose values cut the table into groups; None when the whole table is one group."""
    if len(table.primary_key) == 1:
        return table.primary_key[0]
    return "paper_id" if "paper_id" in table.column_names else None


def layout_key(table: Table) -> str:
    """What an index must have been made with for its digests to be compared with this build's:
    the layout, the schema and the hashing of rows (polars' row hash is not stable across versions)."""
    described = json.dumps(
        [LAYOUT_VERSION, SCHEMA_VERSION, pl.__version__, str(table.arrow_schema()), group_column(table)]
    )
    return xxhash.xxh3_128(described.encode()).hexdigest()


@dataclass
class TableChange:
    """What a publish did to one table, for the database: `removed_keys` are the groups whose rows
    went away or were replaced, `added` the rows that replace them or are new. `full` when the
    table was written whole (no usable last release): the database then loads it whole."""

    full: bool
    removed_keys: pa.Table | None = None
    added: pa.Table | None = None
    rows: int = 0
    segments: dict[str, int] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """What the manifest says of the table: its segments and what this build changed."""
        return {
            "segments": self.segments,
            "written": self.written,
            "groups_replaced_or_removed": None if self.full else self.removed_keys.num_rows,
            "rows_written": self.rows if self.full else self.added.num_rows,
        }


def _group_expr(table: Table) -> pl.Expr:
    column = group_column(table)
    return pl.col(column) if column else pl.lit(WHOLE_TABLE)


def _group_digests(table: Table, frame: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Per group its digest: the sums (wrapping) of two independent 64-bit hashes of its rows, so
    the order of the rows does not matter, the digests of a group's parts in several segments add
    up to the group's, and two different groups collide with odds of 2^-128."""
    row = pl.struct(table.column_names)
    return (
        frame.lazy()
        .select(
            key=_group_expr(table), h1=row.hash(_SEEDS[0]), h2=row.hash(_SEEDS[1]), rows=pl.lit(1, pl.UInt32)
        )
        .group_by("key")
        .agg(pl.col("h1").sum(), pl.col("h2").sum(), pl.col("rows").sum())
    )


def source_files(source: Path) -> list[Path]:
    """A table given as a Parquet file, or as a directory of them (a published table) read in order."""
    return sorted(source.glob("*.parquet")) if source.is_dir() else [source]


def _scan(table: Table, source: pl.DataFrame | Path) -> pl.LazyFrame:
    if isinstance(source, pl.DataFrame):
        return table.conform(source.lazy())
    files = source_files(source)
    return table.conform(pl.scan_parquet(files, glob=False) if files else table.empty_frame().lazy())


def _batches(table: Table, source: pl.DataFrame | Path, rows: int = BATCH_ROWS) -> Iterator[pl.DataFrame]:
    if isinstance(source, pl.DataFrame):
        yield table.conform(source)
        return
    for path in source_files(source):
        for batch in open_parquet(path).iter_batches(batch_size=rows):
            yield table.conform(pl.from_arrow(batch))


def _rows_per_segment(source: pl.DataFrame | Path) -> int:
    if isinstance(source, pl.DataFrame):
        rows, size = source.height, source.estimated_size()
    else:
        rows = size = 0
        for path in source_files(source):
            metadata = open_parquet(path).metadata
            rows += metadata.num_rows
            size += sum(metadata.row_group(i).total_byte_size for i in range(metadata.num_row_groups))
    return max(1, int(SEGMENT_BYTES * rows / size)) if rows and size else BATCH_ROWS


def fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _SegmentWriter:
    """Writes a segment's rows batch by batch and records its groups' digests for the index."""

    def __init__(self, table: Table, path: Path, schema: pa.Schema):
        self.table, self.path, self.schema = table, path, schema
        self.writer = pq.ParquetWriter(path, schema, compression="zstd")
        self.rows = 0
        self.digests: list[pl.DataFrame] = []

    def write(self, rows: pl.DataFrame) -> None:
        if rows.is_empty():
            return
        self.writer.write_table(rows.to_arrow().cast(self.schema), row_group_size=BATCH_ROWS)
        self.rows += rows.height
        self.digests.append(_group_digests(self.table, rows).collect())

    def close(self) -> pl.DataFrame:
        """The segment's index rows (key, h1, h2, rows, segment)."""
        self.writer.close()
        fsync(self.path)
        parts = (
            pl.concat(self.digests)
            if self.digests
            else _group_digests(self.table, self.table.empty_frame()).collect()
        )
        return (
            parts.group_by("key")
            .agg(pl.col("h1").sum(), pl.col("h2").sum(), pl.col("rows").sum())
            .with_columns(segment=pl.lit(self.path.name))
        )


def _hard_link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _write_full(
    table: Table, source: pl.DataFrame | Path, directory: Path, schema: pa.Schema
) -> tuple[dict[str, int], pl.DataFrame]:
    """Every row in one pass, in segments of about SEGMENT_BYTES (a group may span two)."""
    per_segment = _rows_per_segment(source)
    number, index = 0, []
    writer = _SegmentWriter(table, directory / segment_name(number), schema)
    segments: dict[str, int] = {}
    # Read a segment's rows at a time: batches of BATCH_ROWS papers (abstracts, raw and clean) held
    # 2.4 GB while the 1M arXiv papers were written.
    for batch in _batches(table, source, min(per_segment, BATCH_ROWS)):
        while not batch.is_empty():
            room = per_segment - writer.rows
            if room <= 0:
                index.append(writer.close())
                segments[writer.path.name] = writer.rows
                number += 1
                writer = _SegmentWriter(table, directory / segment_name(number), schema)
                continue
            writer.write(batch.head(room))
            batch = batch.slice(room)
    index.append(writer.close())
    segments[writer.path.name] = writer.rows
    return segments, pl.concat(index)


def read_index(release: Path, table: Table) -> tuple[pl.DataFrame, dict[str, int]] | None:
    """A release's group index of the table and its segments' row counts, if it has one of this layout."""
    path = release / INDEX_DIR / f"{table.name}.parquet"
    try:
        metadata = pq.read_schema(path).metadata or {}
        if metadata.get(b"layout_key", b"").decode() != layout_key(table):
            return None
        segments = json.loads(metadata[b"segments"])
        return pl.read_parquet(path), segments
    except (OSError, KeyError, ValueError, pa.ArrowException):
        return None


def _write_index(release: Path, table: Table, index: pl.DataFrame, segments: Mapping[str, int]) -> None:
    path = release / INDEX_DIR / f"{table.name}.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    arrow = index.sort("key").to_arrow()
    metadata = {"layout_key": layout_key(table), "segments": json.dumps(dict(sorted(segments.items())))}
    pq.write_table(arrow.replace_schema_metadata(metadata), path, compression="zstd")


def publish_table(
    table: Table,
    source: pl.DataFrame | Path,
    release: Path,
    directory: Path,
    schema: pa.Schema,
    previous: Path | None,
) -> TableChange:
    """Write the table's segments into `directory` (of the release being made), reusing the segments
    of the `previous` release (a release directory) that did not change; the index goes into `release`."""
    directory.mkdir(parents=True, exist_ok=True)
    old = read_index(previous, table) if previous is not None else None
    old_directory = previous / directory.relative_to(release) if previous is not None else None
    if old is None or old_directory is None or not old_directory.is_dir():
        segments, index = _write_full(table, source, directory, schema)
        _write_index(release, table, index, segments)
        return TableChange(True, rows=sum(segments.values()), segments=segments, written=sorted(segments))
    old_index, old_segments = old
    new_groups = _group_digests(table, _scan(table, source)).collect(engine="streaming")
    old_groups = old_index.group_by("key").agg(
        pl.col("h1").sum(), pl.col("h2").sum(), home=pl.col("segment").min()
    )
    compared = old_groups.join(new_groups, on="key", how="full", coalesce=True, suffix="_new")
    gone = compared.filter(pl.col("h1_new").is_null())["key"]
    changed = compared.filter(
        pl.col("home").is_not_null()
        & pl.col("h1_new").is_not_null()
        & ((pl.col("h1") != pl.col("h1_new")) | (pl.col("h2") != pl.col("h2_new")))
    )
    new_keys = compared.filter(pl.col("home").is_null())["key"]
    removed_keys = pl.concat([gone, changed["key"]])
    added = (
        _scan(table, source)
        .with_columns(_key=_group_expr(table))
        .filter(pl.col("_key").is_in(pl.concat([changed["key"], new_keys]).implode()))
        .collect(engine="streaming")
    )
    touched = set(old_index.filter(pl.col("key").is_in(removed_keys.implode()))["segment"].to_list())
    newest = max(old_segments, key=segment_number)
    # New groups join the newest segment while it is under half a segment, else start one.
    grows_newest = not new_keys.is_empty() and old_segments[newest] < _rows_per_segment(source) // 2
    if grows_newest:
        touched.add(newest)
    next_number = max(map(segment_number, old_segments)) + 1
    segments: dict[str, int] = {}
    index = [old_index.filter(~pl.col("segment").is_in(list(touched)))]
    placed_new = False
    for name in sorted(old_segments):
        if name not in touched:
            _hard_link(old_directory / name, directory / name)
            segments[name] = old_segments[name]
            continue
        kept = pl.read_parquet(old_directory / name).with_columns(_key=_group_expr(table))
        mine = changed.filter(pl.col("home") == name)["key"]
        if grows_newest and name == newest:
            mine, placed_new = pl.concat([mine, new_keys]), True
        rows = pl.concat(
            [
                kept.filter(~pl.col("_key").is_in(removed_keys.implode())),
                added.filter(pl.col("_key").is_in(mine.implode())),
            ]
        ).drop("_key")
        if rows.is_empty():
            continue
        writer = _SegmentWriter(table, directory / segment_name(next_number), schema)
        next_number += 1
        writer.write(rows)
        index.append(writer.close())
        segments[writer.path.name] = writer.rows
    if not placed_new and not new_keys.is_empty():
        writer = _SegmentWriter(table, directory / segment_name(next_number), schema)
        writer.write(added.filter(pl.col("_key").is_in(new_keys.implode())).drop("_key"))
        index.append(writer.close())
        segments[writer.path.name] = writer.rows
    if not segments:
        writer = _SegmentWriter(table, directory / segment_name(next_number), schema)
        index.append(writer.close())
        segments[writer.path.name] = 0
    _write_index(release, table, pl.concat(index), segments)
    return TableChange(
        False,
        removed_keys=pl.DataFrame({"key": removed_keys}).to_arrow(),
        added=added.drop("_key").to_arrow().cast(schema),
        rows=sum(segments.values()),
        segments=segments,
        written=sorted(set(segments) - set(old_segments)),
    )
