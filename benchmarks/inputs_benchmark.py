"""Read speed and memory per record: arXiv-snapshot-shaped JSON Lines against the seed text format.

The same abstracts are written twice, as one JSON Lines file in the arXiv OAI snapshot's shape (all
14 fields, written by `generate_corpus.py --format arxiv`'s own functions) and as seed-format text
files of about 20,000 abstracts each, the shape the text benchmarks use. Each is then read and
cleaned by the ingest step's own function (`assemble.prepare_file`, documents written to Parquet
batch by batch), in one process, so the figures are per core. Peak memory is the reading process's
own peak RSS (VmHWM), one fresh process per run.

    python benchmarks/inputs_benchmark.py --n 1000000 --scratch /tmp/inputs-bench [--repeat 3]

The abstracts are recombined from the real corpus by `generate_corpus.py` (same seed, same texts).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_corpus import (
    ArxivRecords,
    default_source,
    generate,
    read_abstracts,
    read_titles_and_names,
    write_arxiv_corpus,
    write_text_corpus,
)

TEXT_FILE_ABSTRACTS = 20_000


def write_inputs(n: int, scratch: Path, seed: int) -> tuple[Path, Path]:
    jsonl_dir, text_dir = scratch / "jsonl", scratch / "text"
    if (jsonl_dir / "done").exists() and (text_dir / "done").exists():
        return jsonl_dir, text_dir
    jsonl_dir.mkdir(parents=True, exist_ok=True)
    text_dir.mkdir(parents=True, exist_ok=True)
    source = default_source()
    with generate(read_abstracts(source), n, seed, 0.0, 0.0) as corpus:
        write_arxiv_corpus(corpus, jsonl_dir, ArxivRecords(seed, *read_titles_and_names(source)))
        write_text_corpus(corpus, text_dir, seed, files=-(-n // TEXT_FILE_ABSTRACTS))
    (jsonl_dir / "done").touch()
    (text_dir / "done").touch()
    return jsonl_dir, text_dir


def read_directory(directory: Path, out: Path) -> dict:
    """Runs in a child process: read and clean every file of `directory`, as the ingest step does."""
    from pipeline.lib.assemble import PrepareJob, prepare_file

    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    documents = 0
    for index, path in enumerate(sorted(p for p in directory.iterdir() if p.name != "done")):
        parsed = prepare_file(PrepareJob(path, directory, out / f"{index}.parquet"))
        documents += int(parsed.files["n_documents"][0])
    seconds = time.perf_counter() - started
    return {"documents": documents, "seconds": seconds, "peak_rss": _peak_rss()}


def _peak_rss() -> int:
    """This process's own peak RSS (VmHWM): getrusage's maxrss would also count the memory of the
    parent that started it, which holds every generated text."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def measure(directory: Path, scratch: Path) -> dict:
    command = [sys.executable, __file__, "--child", str(directory), str(scratch / "out")]
    completed = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--scratch", type=Path, help="where the inputs and outputs are written (required)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs of each format")
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(read_directory(*args.child)))
        return 0
    if args.scratch is None:
        parser.error("--scratch is required")
    jsonl_dir, text_dir = write_inputs(args.n, args.scratch, args.seed)
    runs: dict[str, list[dict]] = {"jsonl": [], "text": []}
    for _ in range(args.repeat):
        runs["jsonl"].append(measure(jsonl_dir, args.scratch / "jsonl-run"))
        runs["text"].append(measure(text_dir, args.scratch / "text-run"))
    print(f"{args.n:,} abstracts, one process, {args.repeat} alternating runs each")
    medians = {}
    for name, results in runs.items():
        per_record = [r["seconds"] / r["documents"] * 1e6 for r in results]
        medians[name] = statistics.median(per_record)
        peak = max(r["peak_rss"] for r in results) / 2**30
        print(
            f"{name:>6}: {results[0]['documents']:,} documents; median {medians[name]:.1f} µs/record "
            f"(runs: {', '.join(f'{p:.1f}' for p in per_record)}); peak RSS {peak:.2f} GB"
        )
    print(f"JSON Lines / text time per record: {medians['jsonl'] / medians['text']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
