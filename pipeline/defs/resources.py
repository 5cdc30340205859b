"""Resources: where to read seeds and write the warehouse, and how assets hand frames to each other."""

import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.lib import config

STAGING_DIR = ".staging"
# AssetIn metadata keys (see StagedFrameIOManager): the columns a step reads of an upstream frame,
# and whether it gets a polars LazyFrame over the staged file instead of the frame in memory.
COLUMNS = "columns"
LAZY = "lazy"
# AssetIn metadata key: a downstream step of a partitioned asset gets the paths of its parts' files.
PATHS = "paths"
# Directories of linked parts kept per staged frame: the current one and the one before, which a
# build running at the same time may still be reading.
KEEP_LINKED_VERSIONS = 2


class WarehousePaths(dg.ConfigurableResource):
    """Seeds and warehouse directories; unset fields fall back to PAPERS_SEEDS_DIR / PAPERS_WAREHOUSE_DIR."""

    seeds_dir: str | None = None
    warehouse_dir: str | None = None

    def seeds(self) -> Path:
        return config.seeds_dir(self.seeds_dir)

    def warehouse(self) -> Path:
        return config.warehouse_dir(self.warehouse_dir)


def staged_path(warehouse_dir: Path, asset_key: dg.AssetKey) -> Path:
    return warehouse_dir / STAGING_DIR / f"{'__'.join(asset_key.path)}.parquet"


def read_staged(warehouse_dir: Path, asset_name: str, columns: list[str] | None = None) -> pl.DataFrame:
    """The frame an upstream step staged, for checks that declare the dependency without loading it."""
    return pl.read_parquet(staged_path(warehouse_dir, dg.AssetKey(asset_name)), columns=columns)


def partition_dir(warehouse_dir: Path, asset_key: dg.AssetKey, partition_key: str) -> Path:
    return warehouse_dir / STAGING_DIR / "__".join(asset_key.path) / partition_key


def _write_atomically(frame: pl.DataFrame | pl.LazyFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if isinstance(frame, pl.LazyFrame):
        # Streamed to the file: the frame never needs to fit in memory.
        frame.sink_parquet(tmp, compression="lz4")
    else:
        frame.write_parquet(tmp, compression="lz4")
    os.replace(tmp, path)


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


def stage_partition(
    warehouse_dir: Path, asset_key: dg.AssetKey, partition_key: str, parts: dict[str, pl.DataFrame]
) -> dict[str, Path]:
    """Store one partition's parts where the IO manager keeps them, before the step ends: a step of
    many partitions then holds one at a time and returns the paths."""
    target = partition_dir(warehouse_dir, asset_key, partition_key)
    for name, frame in parts.items():
        _write_atomically(frame, target / f"{name}.parquet")
    return {name: target / f"{name}.parquet" for name in parts}


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
            for name, frame in parts.items():
                if isinstance(frame, Path):
                    if frame != target / f"{name}.parquet":
                        raise ValueError(f"part {name} of {partition_key} is staged at {frame}, not {target}")
                    continue
                _write_atomically(frame, target / f"{name}.parquet")

    def load_input(self, context: dg.InputContext):
        lazy = context.definition_metadata.get(LAZY, False)
        if not context.has_asset_partitions:
            # AssetIn(metadata={"columns": [...]}) reads only those columns of an unpartitioned frame.
            path = staged_path(self._warehouse(), context.asset_key)
            columns = context.definition_metadata.get(COLUMNS)
            if lazy:
                return pl.scan_parquet(path) if columns is None else pl.scan_parquet(path).select(columns)
            return pl.read_parquet(path, columns=columns)
        if context.definition_metadata.get(PATHS, False):
            read = Path
        else:
            read = pl.scan_parquet if lazy else pl.read_parquet
        loaded = {}
        for partition_key in sorted(context.asset_partition_keys):
            source = partition_dir(self._warehouse(), context.asset_key, partition_key)
            loaded[partition_key] = {path.stem: read(path) for path in sorted(source.glob("*.parquet"))}
        return loaded
