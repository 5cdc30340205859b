"""Resources: where to read seeds and write the warehouse, and how assets hand frames to each other."""

import contextlib
import functools
import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.lib import config
from pipeline.lib.publish import build_lock, build_lock_holder, snapshot
from pipeline.lib.staging import Staging, write_atomically

# AssetIn metadata keys (see StagedFrameIOManager): the columns a step reads of an upstream frame,
# and whether it gets a polars LazyFrame over the staged file instead of the frame in memory.
COLUMNS = "columns"
LAZY = "lazy"
# AssetIn metadata key: a downstream step of a partitioned asset gets the paths of its parts' files.
PATHS = "paths"
# Directories of linked parts kept per staged frame: the current one and the one before, which a
# build running at the same time may still be reading.
KEEP_LINKED_VERSIONS = 2
# Run tag: the token of the build lock that the run's launcher (`papers build`) holds for it.
BUILD_LOCK_TAG = "papers/build_lock"


class WarehousePaths(dg.ConfigurableResource):
    """Seeds and warehouse directories; unset fields fall back to PAPERS_SEEDS_DIR / PAPERS_WAREHOUSE_DIR."""

    seeds_dir: str | None = None
    warehouse_dir: str | None = None

    def seeds(self) -> Path:
        return config.seeds_dir(self.seeds_dir)

    def warehouse(self) -> Path:
        return config.warehouse_dir(self.warehouse_dir)


def asset_name(asset_key: dg.AssetKey) -> str:
    """How the staging area names an asset."""
    return "__".join(asset_key.path)


def staged_path(warehouse_dir: Path, asset_key: dg.AssetKey) -> Path:
    return Staging(warehouse_dir).frame(asset_name(asset_key))


def read_staged(warehouse_dir: Path, asset_name: str, columns: list[str] | None = None) -> pl.DataFrame:
    """The frame an upstream step staged, for checks that declare the dependency without loading it."""
    return pl.read_parquet(staged_path(warehouse_dir, dg.AssetKey(asset_name)), columns=columns, glob=False)


@contextlib.contextmanager
def staged_snapshots(warehouse_dir: Path, asset_names: list[str]) -> Iterator[dict[str, Path]]:
    """The staged files of these assets, pinned (hard links) for as long as the block runs: what a
    check digests is what it validates, and what publish digests is what it converts."""
    directory = Staging(warehouse_dir).new_snapshot()
    try:
        yield {
            name: snapshot(staged_path(warehouse_dir, dg.AssetKey(name)), directory / f"{name}.parquet")
            for name in asset_names
        }
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def partition_dir(warehouse_dir: Path, asset_key: dg.AssetKey, partition_key: str) -> Path:
    """Where a partition's parts are staged."""
    return Staging(warehouse_dir).partition(asset_name(asset_key), partition_key)


def partition_root(warehouse_dir: Path, asset_key: dg.AssetKey) -> Path:
    return Staging(warehouse_dir).partitions(asset_name(asset_key))


# Rows per row group of a staged table. Polars holds a whole row group before it writes it, and its
# default (512² rows) is the whole table of 200,000 abstracts: 0.6 GB more for a sink that streams.
STAGED_ROW_GROUP_ROWS = 16_384


def _write_atomically(frame: pl.DataFrame | pl.LazyFrame, path: Path) -> None:
    # A LazyFrame is streamed to the file: the frame never needs to fit in memory.
    sink = frame.sink_parquet if isinstance(frame, pl.LazyFrame) else frame.write_parquet
    write_atomically(functools.partial(sink, compression="lz4", row_group_size=STAGED_ROW_GROUP_ROWS), path)


@dataclass(frozen=True)
class LinkedParts:
    """An unpartitioned asset's frame given as Parquet files already staged (a partitioned asset's
    parts, in order): the IO manager hard-links them into one directory instead of copying every
    row into one file. `empty` is the frame staged when there are no files."""

    files: tuple[Path, ...]
    empty: pl.DataFrame


def _link_parts(parts: LinkedParts, path: Path) -> None:
    """Stage the parts as a new directory of hard links and point `path` at it with one atomic
    rename: a reader sees the old set of files or the new one, and a part parsed again later is a
    new file, so the linked one keeps the rows it had."""
    if not parts.files:
        _write_atomically(parts.empty, path)
        return
    versions = path.with_name(f"{path.name}.parts")
    directory = versions / uuid.uuid4().hex
    directory.mkdir(parents=True)
    for index, source in enumerate(parts.files):
        target = directory / f"{index:06d}.parquet"  # file order is the order polars reads them in
        try:
            os.link(source, target)
        except OSError:  # a file system without hard links
            shutil.copyfile(source, target)
    link = path.with_name(f".{path.name}.{os.getpid()}.link")
    link.unlink(missing_ok=True)
    os.symlink(os.path.relpath(directory, path.parent), link)
    os.replace(link, path)
    older = sorted((d for d in versions.iterdir() if d != directory), key=lambda d: d.stat().st_mtime)
    for stale in older[: max(0, len(older) - (KEEP_LINKED_VERSIONS - 1))]:
        shutil.rmtree(stale, ignore_errors=True)


def _stage_parts(target: Path, partition_key: str, parts: dict[str, pl.DataFrame | Path]) -> None:
    """Write each part to `target`; a part given as a path must already be written there."""
    for name, frame in parts.items():
        if isinstance(frame, Path):
            if frame != target / f"{name}.parquet":
                raise ValueError(f"part {name} of {partition_key} is staged at {frame}, not {target}")
            continue
        _write_atomically(frame, target / f"{name}.parquet")


def stage_partition(
    warehouse_dir: Path, asset_key: dg.AssetKey, partition_key: str, parts: dict[str, pl.DataFrame | Path]
) -> dict[str, Path]:
    """Store one partition's parts where the IO manager keeps them, before the step ends: a step of
    many partitions then holds one at a time and returns the paths."""
    target = partition_dir(warehouse_dir, asset_key, partition_key)
    _stage_parts(target, partition_key, parts)
    return {name: target / f"{name}.parquet" for name in parts}


def _warn(context: dg.InitResourceContext):
    def warn(message: str) -> None:
        if context.log:
            context.log.warning(message)
        else:
            print(message, file=sys.stderr)

    return warn


class StagedFrameIOManager(dg.ConfigurableIOManager):
    """Stores each asset's polars frame as Parquet under `<warehouse>/.staging/`.

    An unpartitioned asset is one frame. A partitioned asset is, per partition, a mapping of part
    name to frame (one Parquet file each); the step returns {partition_key: parts} for all the
    partitions of its run, and a downstream unpartitioned step loads the same mapping for every
    partition. A part may also be the path `stage_partition` already wrote it to. A step may return
    a LazyFrame, which is streamed to its file, and read its inputs as LazyFrames (`LAZY`), or a
    partitioned input as the paths of its parts (`PATHS`). A step may also return `LinkedParts`: its
    frame is then a directory of those files, linked, which reads as one frame. Files are written to
    a temporary name and renamed, so no step reads half a file.
    """

    warehouse_dir: str | None = None

    def _warehouse(self) -> Path:
        return config.warehouse_dir(self.warehouse_dir)

    @contextlib.contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext):
        """Hold the warehouse's build lock while the run's steps stage frames (every step of a run in
        one process shares this resource), unless the run's launcher holds it for the run already."""
        run = context.run
        token = run.tags.get(BUILD_LOCK_TAG) if run else None
        warehouse = self._warehouse()
        with contextlib.ExitStack() as stack:
            if token is None or token != build_lock_holder(warehouse):
                name = f"Dagster run {run.run_id}" if run else "a Dagster execution"
                stack.enter_context(build_lock(warehouse, name, waiting=_warn(context)))
            yield stack.enter_context(super().yield_for_execution(context))

    def handle_output(self, context: dg.OutputContext, obj) -> None:
        if not context.has_asset_partitions:
            path = staged_path(self._warehouse(), context.asset_key)
            if isinstance(obj, LinkedParts):
                _link_parts(obj, path)
            else:
                _write_atomically(obj, path)
            return
        for partition_key, parts in obj.items():
            target = partition_dir(self._warehouse(), context.asset_key, partition_key)
            _stage_parts(target, partition_key, parts)

    def load_input(self, context: dg.InputContext):
        lazy = context.definition_metadata.get(LAZY, False)
        if not context.has_asset_partitions:
            # AssetIn(metadata={"columns": [...]}) reads only those columns of an unpartitioned frame.
            path = staged_path(self._warehouse(), context.asset_key)
            columns = context.definition_metadata.get(COLUMNS)
            if lazy:
                scan = pl.scan_parquet(path, glob=False)
                return scan if columns is None else scan.select(columns)
            return pl.read_parquet(path, columns=columns, glob=False)
        if context.definition_metadata.get(PATHS, False):
            read = Path
        else:
            read = functools.partial(pl.scan_parquet if lazy else pl.read_parquet, glob=False)
        loaded = {}
        for partition_key in sorted(context.asset_partition_keys):
            source = partition_dir(self._warehouse(), context.asset_key, partition_key)
            parts = sorted(p for p in source.iterdir() if p.suffix == ".parquet")
            loaded[partition_key] = {path.stem: read(path) for path in parts}
        return loaded
