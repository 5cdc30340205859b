"""Read speed and memory per record: arXiv-snapshot-shaped JSON Lines against the seed text format.

The same abstracts are written twice, as one JSON Lines file in the arXiv OAI snapshot's shape (all
14 fields) and as seed-format text files of about 20,000 abstracts each, the shape the text
benchmarks use. Each is then read and cleaned by the ingest step's own function
(`assemble.prepare_file`, documents written to Parquet batch by batch), in one process, so the
figures are per core. Peak memory is the reading process's own peak RSS (VmHWM), one fresh process per run.

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

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_corpus import default_source, generate, read_abstracts

TEXT_FILE_ABSTRACTS = 20_000


def write_inputs(n: int, scratch: Path, seed: int) -> tuple[Path, Path]:
    jsonl_dir, text_dir = scratch / "jsonl", scratch / "text"
    if (jsonl_dir / "done").exists() and (text_dir / "done").exists():
        return jsonl_dir, text_dir
    texts, _ = generate(read_abstracts(default_source()), n, seed, 0.0, 0.0)
    jsonl_dir.mkdir(parents=True, exist_ok=True)
    text_dir.mkdir(parents=True, exist_ok=True)
    with open(jsonl_dir / "arxiv-metadata-oai-snapshot.json", "wb") as out:
        for i, text in enumerate(texts):
            number = f"{2001 + i // 100000:04d}.{i % 100000:05d}"
            record = {
                "id": number,
                "submitter": "A. Submitter",
                "authors": "A. One, B. Two and C. Three",
                "title": f"Paper number {i}",
                "comments": "10 pages",
                "journal-ref": None,
                "doi": None,
                "report-no": None,
                "categories": "cs.LG stat.ML",
                "license": None,
                "abstract": "  " + text.replace(". ", ".\n  ", 3) + "\n",
                "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
                "update_date": "2008-11-13",
                "authors_parsed": [["One", "A.", ""], ["Two", "B.", ""], ["Three", "C.", ""]],
            }
            out.write(orjson.dumps(record) + b"\n")
    for start in range(0, len(texts), TEXT_FILE_ABSTRACTS):
        chunk = texts[start : start + TEXT_FILE_ABSTRACTS]
        body = "\n\n".join(chunk)
        (text_dir / f"{start // TEXT_FILE_ABSTRACTS:04d}.txt").write_text(f"NeurIPS 2023 Papers\n\n{body}\n")
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
