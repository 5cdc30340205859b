"""The extraction step's work on a built warehouse's staging area, in one process, phase by phase:
seconds, resident memory after each phase and its peak within it, and the size of each table.

    .venv/bin/python benchmarks/profile_extract_step.py WAREHOUSE_DIR

It reads `<WAREHOUSE_DIR>/.staging/` (every file's map, `canonical_papers`) as `extract_entities`
does, without Dagster, so that a phase's memory shows without the other processes of a build.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import polars as pl
import psutil
from memory import MemorySampler

from pipeline.lib.extract import TEXT_KEY, TextRows, assemble
from pipeline.lib.filemap import gathered_rows, missing_texts, staged_in
from pipeline.lib.staging import Staging


class Phases:
    """Prints each phase's seconds, the resident memory at its end and the highest sampled in it."""

    def __init__(self, memory: MemorySampler) -> None:
        self.memory = memory
        self.process = psutil.Process()
        self.started = time.time()

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
        _profile(staging, Phases(memory))


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
