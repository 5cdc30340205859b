"""The extraction step's work on a built warehouse's staging area, in one process, phase by phase:
seconds, resident memory after each phase and its peak within it, and the size of each table.

    .venv/bin/python benchmarks/profile_extract_step.py WAREHOUSE_DIR

It reads `<WAREHOUSE_DIR>/.staging/` (every file's map, `canonical_papers`) as `extract_entities`
does, without Dagster, so that a phase's memory shows without the other processes of a build.
Inside `assemble`, the calls it makes are timed too (indented, each with the peak sampled in it).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import psutil
from memory import MemorySampler

import pipeline.lib.extract as extraction
import pipeline.lib.extract.knowledge as knowledge
from pipeline.lib.extract import TEXT_KEY, TextRows, assemble
from pipeline.lib.filemap import gathered_rows, missing_texts, staged_in
from pipeline.lib.staging import Staging

INNER_CALLS = (
    (knowledge, "corpus_names"),
    (knowledge, "_occurrences"),
    (knowledge, "_uncovered"),
    (extraction, "apply_corpus_names"),
    (extraction, "resolve"),
    (extraction, "_paper_annotations"),
)


class Phases:
    """Prints each phase's seconds, the resident memory at its end and the highest sampled in it."""

    def __init__(self, memory: MemorySampler) -> None:
        self.memory = memory
        self.process = psutil.Process()
        self.started = time.time()

    def timed(self, label: str, function: Callable) -> Callable:
        """`function`, printing the seconds and the peak RSS of each call as it returns."""

        def wrapped(*args, **kwargs):
            started = time.time()
            result = function(*args, **kwargs)
            ended = time.time()
            peak = max(self.process.memory_info().rss, self.memory.peak(started, ended)[0])
            print(f"    {label:<20} {ended - started:7.1f} s   peak {peak / 1e9:5.2f} GB", flush=True)
            return result

        return wrapped

    def done(self, label: str) -> None:
        ended = time.time()
        rss = self.process.memory_info().rss
        peak = max(rss, self.memory.peak(self.started, ended)[0])
        memory = f"RSS {rss / 1e9:5.2f} GB   peak {peak / 1e9:5.2f} GB"
        print(f"{label:<24} {ended - self.started:7.1f} s   {memory}", flush=True)
        self.started = ended


def _sizes(frames: dict[str, pl.DataFrame]) -> None:
    for name, frame in frames.items():
        print(f"    {name:<18} {frame.height:>10,} rows  {frame.estimated_size() / 1e9:5.2f} GB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    staging = Staging(parser.parse_args().warehouse)
    with MemorySampler() as memory:
        phases = Phases(memory)
        # The calls assemble makes, by the names it calls them by.
        for owner, name in INNER_CALLS:
            setattr(owner, name, phases.timed(name, getattr(owner, name)))
        _profile(staging, phases)


def _profile(staging: Staging, phases: Phases) -> None:
    files = [staged_in(d) for d in sorted(staging.partitions("seed_file").iterdir())]
    canonical = pl.scan_parquet(staging.frame("canonical_papers"))
    texts = canonical.select("paper_id", "abstract_clean")
    papers = canonical.select("paper_id", TEXT_KEY).collect()
    phases.done("papers' text keys")
    rows, held = gathered_rows([f for f in files if f.parts])
    phases.done("gathered rows")
    _sizes(rows.frames())
    missing = missing_texts(papers, held, texts)
    phases.done(f"missing texts ({missing.height})")
    handed: list[TextRows] = [rows]
    del rows
    extraction = assemble(papers, handed.pop(), texts)
    phases.done("assemble")
    names = ("mentions", "entities", "abbreviations", "links", "results", "paper_annotations")
    _sizes({name: getattr(extraction, name) for name in names})


if __name__ == "__main__":
    main()
