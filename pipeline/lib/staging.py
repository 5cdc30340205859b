"""The staging area: every path under `<warehouse>/.staging/` is made here and nowhere else.

    <asset>.parquet               an unpartitioned asset's frame: a file, or a link to a directory
    <asset>.parquet.parts/<id>/   of parts (kept: the current one and the one before it)
    <asset>/<partition>/          a partitioned asset's parts; for seed_file, one input file's map
                                  (documents, signatures, text keys, extracted rows, its stamp)
    extracted_here/               rows of texts no file's map holds (their owner file went)
    snapshots/<id>/               staged files pinned while a check or publish reads them
    validations/                  what checks passed: passed/<check>.json (the digests of the tables
                                  each passed on), <table>.passed.parquet (row hashes GX need not
                                  see again), nothing_lost.balanced.json

An asset is named by its key's parts joined with `__`; a partition key is escaped so that the
directory name is never a glob pattern nor `..`.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

STAGING_DIR = ".staging"
# What builds before the map over files kept here, each in its own way; a publish deletes them.
RETIRED = ("search_tokens", "dedup_signatures", "extraction_rows")


def write_atomically(write: Callable[[Path], None], path: Path) -> None:
    """`write(tmp)` to a temporary name beside `path`, then one rename: a reader finds the whole
    file or the one before it, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(path)
    write(tmp)
    os.replace(tmp, path)


def temporary_path(path: Path) -> Path:
    """The name `path` is written under before its rename (it holds the process, so two writers do
    not share a temporary file)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


@dataclass(frozen=True)
class Staging:
    warehouse: Path

    @property
    def root(self) -> Path:
        return self.warehouse / STAGING_DIR

    def frame(self, asset: str) -> Path:
        """Where an unpartitioned asset's frame is staged."""
        return self.root / f"{asset}.parquet"

    def partitions(self, asset: str) -> Path:
        """The directory of a partitioned asset's partitions."""
        return self.root / asset

    def partition(self, asset: str, key: str) -> Path:
        """Where one partition's parts are staged. The key is an input file's name, which may hold
        `*`, `?` or `[`: escaped, the directory name is never a pattern to a reader that globs."""
        return self.partitions(asset) / quote(key, safe="")

    @property
    def extracted_here(self) -> Path:
        """The rows of texts the extraction step extracted because no file's map held them (their
        owner file went), staged as a map stages its texts' rows, for the builds after it."""
        return self.root / "extracted_here"

    def new_snapshot(self) -> Path:
        """A directory of its own for files pinned by one reader."""
        return self.root / "snapshots" / uuid.uuid4().hex

    @property
    def validations(self) -> Path:
        return self.root / "validations"

    @property
    def passed(self) -> Path:
        """Each check's record of the table digests it passed on."""
        return self.validations / "passed"

    def passed_rows(self, table: str) -> Path:
        return self.validations / f"{table}.passed.parquet"

    @property
    def balanced(self) -> Path:
        """The input files whose lines the nothing-lost check balanced, with their digests."""
        return self.validations / "nothing_lost.balanced.json"

    def remove_retired(self) -> None:
        for name in RETIRED:
            shutil.rmtree(self.root / name, ignore_errors=True)
