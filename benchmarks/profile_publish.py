"""The publish step's work on a built warehouse's staged tables, in one process, phase by phase:
seconds and the peak resident memory of each table's Parquet segments, each table copied into
DuckDB, and the search index.

    .venv/bin/python benchmarks/profile_publish.py WAREHOUSE_DIR OUT_DIR [--segments TABLE ...]

It publishes `<WAREHOUSE_DIR>/.staging/<table>.parquet` (the tables the checks passed) into OUT_DIR,
a new warehouse, so every segment and the whole database are written, as a first build's publish
does, without Dagster and without the other processes of a build. With `--segments`, only the
named tables' segments are written (no database), each measured; run it once per table to give
each its own process.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
from memory import MemorySampler

import pipeline.lib.publish as publishing
from pipeline.lib.schema import TABLES
from pipeline.lib.segments import publish_table
from pipeline.lib.staging import Staging


class Phases:
    """Prints each phase's seconds and the highest resident memory sampled in it, as it ends."""

    def __init__(self, memory: MemorySampler) -> None:
        self.memory = memory

    @contextlib.contextmanager
    def phase(self, label: str) -> Iterator[None]:
        started = time.time()
        try:
            yield
        finally:
            ended = time.time()
            rss = max(psutil.Process().memory_info().rss, self.memory.peak(started, ended)[0])
            print(f"{label:<36} {ended - started:7.1f} s   peak RSS {rss / 1e9:5.2f} GB", flush=True)

    def timed(self, label: Callable[..., str], function: Callable) -> Callable:
        def wrapped(*args, **kwargs):
            with self.phase(label(*args, **kwargs)):
                return function(*args, **kwargs)

        return wrapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--segments", nargs="+", metavar="TABLE", choices=sorted(TABLES))
    args = parser.parse_args()
    staging = Staging(args.warehouse)
    files = {name: staging.frame(name) for name in TABLES}
    with MemorySampler() as memory:
        phases = Phases(memory)
        for name in args.segments or ():
            table = TABLES[name]
            with phases.phase(_segments_label(table)):
                schema = publishing.arrow_schema(table, {})
                publish_table(table, files[name], args.out, args.out / name, schema, previous=None)
        if args.segments:
            return
        with _patched() as patch:
            for name, label in PHASES.items():
                patch(publishing, name, phases.timed(label, getattr(publishing, name)))
            with phases.phase("publish, in all"):
                publishing.publish(files, args.out, input_fingerprint="0" * 64)


def _segments_label(table, *_args, **_kwargs) -> str:
    return f"segments of {table.name}"


def _label(text: str) -> Callable[..., str]:
    return lambda *_args, **_kwargs: text


# publish's own names for the work timed, each with the label of its phase.
PHASES = {
    "publish_table": _segments_label,
    "write_database": _label("database, in all"),
    "create_search_index": _label("search index"),
}


@contextlib.contextmanager
def _patched() -> Iterator[Callable[[object, str, Callable], None]]:
    originals: list[tuple[object, str, Callable]] = []

    def patch(owner: object, name: str, replacement: Callable) -> None:
        originals.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    try:
        yield patch
    finally:
        for owner, name, original in reversed(originals):
            setattr(owner, name, original)


if __name__ == "__main__":
    main()
