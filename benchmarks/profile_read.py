"""Time reading, cleaning and signing one input file as a build's map does (`read_and_sign_files`
with one job), here alone or with its batches cleaned on a pool of worker processes, and print the
seconds and the peak RSS of this process and its workers.

    .venv/bin/python benchmarks/profile_read.py FILE [--workers N]

`--workers 1` reads the file as a build did before its batches went to the pool: wholly in this
process. Run the two alternately to compare them on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory import MemorySampler

from pipeline.lib.assemble import PrepareJob
from pipeline.lib.engine import local_pool
from pipeline.lib.filemap import read_and_sign_files
from pipeline.lib.readers.mapping import load_mappings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (1: none, all here)")
    args = parser.parse_args()
    seeds = args.file.parent
    with tempfile.TemporaryDirectory() as staging, MemorySampler() as memory:
        job = PrepareJob(args.file, seeds, Path(staging) / "documents.parquet", load_mappings(seeds))
        started = time.perf_counter()
        if args.workers > 1:
            with local_pool(args.workers) as pool:
                (mapped,) = read_and_sign_files([job], pool)
        else:
            (mapped,) = read_and_sign_files([job], None)
        seconds = time.perf_counter() - started
    rss, _ = memory.peak()
    n = int(mapped.parsed.files["n_documents"][0])
    print(f"workers {args.workers}: {n:,} documents in {seconds:.1f} s; peak RSS {rss / 1e9:.2f} GB")


if __name__ == "__main__":
    main()
