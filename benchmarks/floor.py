"""The floor: the least any build does with its input, measured in the same run as the build so that
every stage can be given as a multiple of it.

It reads every input file, splits it into records (JSON Lines: `orjson.loads` of each line and its
`abstract`; seed text: the paragraphs after the header), hashes each abstract (xxh3-64) and writes
the records' ids, abstracts and hashes to Parquet (polars, zstd), in one worker process per core:
a seed-format file is one task, a JSON Lines file is cut at line ends into pieces of about 64 MB.
No cleaning, no validation, no metadata: a reference implementation, not the pipeline's reader.

    python benchmarks/floor.py --format arxiv --out DIR FILE... [--workers N]

Prints one JSON line: records, seconds (from starting the workers to the last file written),
workers and tasks.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import re
import sys
import time
from pathlib import Path

PIECE_BYTES = 64 * 2**20
_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*\n\s*")


def tasks(paths: list[Path], corpus_format: str) -> list[tuple[str, int, int]]:
    """(path, first byte, end byte) per task: whole text files, JSON Lines files in pieces."""
    found = []
    for path in paths:
        size = path.stat().st_size
        step = size if corpus_format == "text" else PIECE_BYTES
        found.extend((str(path), start, min(start + step, size)) for start in range(0, max(size, 1), step))
    return found


def _jsonl_piece(path: str, start: int, end: int) -> bytes:
    """The lines that start in [start, end)."""
    with open(path, "rb") as handle:
        if start:
            handle.seek(start - 1)
            handle.readline()  # the rest of the line that began before `start`
        position = handle.tell()
        data = handle.read(max(end - position, 0))
        if data and not data.endswith(b"\n"):
            data += handle.readline()
        return data


def run_task(task: tuple[str, int, int], corpus_format: str, out: str, number: int) -> int:
    """Read, split, hash and write one task's records; returns how many there were."""
    import orjson
    import polars as pl
    import xxhash

    path, start, end = task
    name = os.path.basename(path)
    if corpus_format == "text":
        with open(path, encoding="utf-8") as handle:
            paragraphs = [p for p in _BLANK_LINES.split(handle.read())[1:] if p.strip()]
        ids = [f"{name}:{ordinal}" for ordinal in range(1, len(paragraphs) + 1)]
        abstracts = paragraphs
    else:
        records = [orjson.loads(line) for line in _jsonl_piece(path, start, end).splitlines() if line]
        ids = [record["id"] for record in records]
        abstracts = [record["abstract"] for record in records]
    hashes = [xxhash.xxh3_64_intdigest(abstract.encode("utf-8")) for abstract in abstracts]
    frame = pl.DataFrame(
        {"id": ids, "abstract": abstracts, "hash": hashes},
        schema={"id": pl.String, "abstract": pl.String, "hash": pl.UInt64},
    )
    frame.write_parquet(Path(out) / f"{number:05d}.parquet")
    return frame.height


def measure(paths: list[Path], corpus_format: str, out: Path, workers: int) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    work = tasks(paths, corpus_format)
    started = time.perf_counter()
    # Spawned, not forked: a fresh interpreter per worker, as polars asks.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [
            pool.submit(run_task, task, corpus_format, str(out), number) for number, task in enumerate(work)
        ]
        records = sum(future.result() for future in futures)
    seconds = time.perf_counter() - started
    return {"records": records, "seconds": seconds, "workers": workers, "tasks": len(work)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", choices=("text", "arxiv"), required=True)
    parser.add_argument("--out", type=Path, required=True, help="directory for the Parquet files")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.files, args.format, args.out, args.workers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
