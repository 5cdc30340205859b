"""Extract every abstract of the shared corpus and write the tables, with a digest of each.

Two runs compare exactly: a change that must not alter output (a restructure) is checked by
running this before and after it and comparing the printed digests (or `--compare DIR`, the
output directory of the earlier run). Also prints the time per abstract on one core, so that two
versions can be timed side by side in one session.

    .venv/bin/python benchmarks/extraction/corpus_snapshot.py --out DIR [--compare OLD_DIR]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

import polars as pl

from pipeline.lib.clean import clean_many
from pipeline.lib.extract import extract_all

CORPUS_EVIDENCE = "corpus_name"  # pipeline.lib.extract.knowledge.EVIDENCE, which older code lacks

DEFAULT_CORPUS = Path("/work/shared/corpus/abstracts.jsonl.gz")
TABLES = ("mentions", "entities", "abbreviations", "links", "results", "paper_annotations")


def corpus_papers(path: Path, limit: int | None = None) -> pl.DataFrame:
    """(paper_id, abstract_clean) for each corpus record: its corpus id, its cleaned abstract."""
    ids, texts = [], []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            ids.append(record["id"])
            texts.append(record.get("abstract") or "")
            if limit and len(ids) >= limit:
                break
    return pl.DataFrame({"paper_id": ids, "abstract_clean": clean_many(texts)})


def table_digest(frame: pl.DataFrame) -> str:
    """A digest of the rows in the order extraction gives them: identical tables, identical digest."""
    digest = hashlib.sha256()
    digest.update(",".join(f"{name}:{dtype}" for name, dtype in frame.schema.items()).encode())
    for row in frame.iter_rows():
        digest.update(repr(row).encode())
    return digest.hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path, help="an earlier --out directory to compare with")
    parser.add_argument("--limit", type=int, help="only the first N abstracts")
    parser.add_argument("--repeat", type=int, default=1, help="time the extraction N times (median)")
    args = parser.parse_args()

    papers = corpus_papers(args.corpus, args.limit)
    timings, cpu_timings = [], []
    for _ in range(args.repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        extraction = extract_all(papers, workers=1)
        timings.append(time.perf_counter() - started)
        cpu_timings.append(time.process_time() - cpu_started)
    median = sorted(timings)[len(timings) // 2]
    # CPU seconds of this process: on a machine other jobs load, closer to the work than wall time.
    cpu_median = sorted(cpu_timings)[len(cpu_timings) // 2]
    args.out.mkdir(parents=True, exist_ok=True)
    digests = {}
    for name in TABLES:
        frame = getattr(extraction, name)
        frame.write_parquet(args.out / f"{name}.parquet")
        digests[name] = {"rows": frame.height, "digest": table_digest(frame)}
    (args.out / "digests.json").write_text(json.dumps(digests, indent=1) + "\n")
    print(
        f"{papers.height} abstracts, extraction {median:.1f} s on one core (median of {args.repeat}), "
        f"{1000 * median / papers.height:.3f} ms per abstract; "
        f"CPU {1000 * cpu_median / papers.height:.3f} ms per abstract (median of {args.repeat})"
    )
    for name, figures in digests.items():
        print(f"  {name:18} {figures['rows']:>8} rows  {figures['digest']}")
    if "evidence" in extraction.mentions.columns:
        by_corpus = extraction.mentions.filter(pl.col("evidence") == CORPUS_EVIDENCE)
        print(f"  {by_corpus.height} mentions typed by corpus-level knowledge (evidence {CORPUS_EVIDENCE!r})")
    if args.compare is None:
        return 0
    earlier = json.loads((args.compare / "digests.json").read_text())
    differing = [name for name in TABLES if earlier.get(name) != digests[name]]
    for name in differing:
        before = pl.read_parquet(args.compare / f"{name}.parquet")
        after = getattr(extraction, name)
        print(f"DIFFERS {name}: {before.height} rows before, {after.height} after")
        if before.schema == after.schema:
            print(
                "  only before:", before.join(after, on=before.columns, how="anti", nulls_equal=True).head(5)
            )
            print("  only after:", after.join(before, on=after.columns, how="anti", nulls_equal=True).head(5))
    print("identical" if not differing else f"{len(differing)} tables differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
