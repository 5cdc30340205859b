"""Draw the corpus abstracts of each annotated set: the same ids on every run.

    .venv/bin/python benchmarks/extraction/sample_sets.py SET_NAME [--out worklist.jsonl]

Each set draws from recent venues (like the abstracts extraction is judged on), in an order
fixed by a hash of the set name and the corpus id, skipping abstracts an earlier set (in the
order of SETS) took, repeated titles and the seed abstracts. A `results` set draws only
abstracts that report a number with a result unit. The worklist has corpus_id, prefix, venue,
year, title and abstract: it is for the annotator, never committed (the abstracts stay in
../shared/corpus/).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
DEFAULT_CORPUS = Path("/work/shared/corpus/abstracts.jsonl.gz")
PREFIX_CHARS = 60
# name -> (abstracts, scope): "full" sets annotate everything; "results" sets only results.
SETS = {
    "dev-a": (60, "full"),
    "dev-b": (60, "full"),
    "held-c": (60, "full"),
    "held-d": (60, "full"),
    "results-e": (60, "results"),
    "results-f": (60, "results"),
    "results-g": (60, "results"),
    "results-h": (60, "results"),
    "dev-i": (60, "full"),
    "dev-j": (60, "full"),
    "dev-k": (60, "full"),
    "results-l": (60, "results"),
    "dev-m": (60, "full"),
}
RECENT = {
    ("ICML", 2024),
    ("NeurIPS", 2023),
    ("COLM", 2024),
    ("COLM", 2025),
    ("CoRL", 2024),
    ("CoRL", 2025),
    ("AISTATS", 2025),
    ("UAI", 2024),
}
REPORTED_NUMBER = re.compile(r"\d(?:\.\d+)?\s?(?:%|×|x\b)|\b\d+\.\d+\b")


def letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def order_key(set_name: str, corpus_id: str) -> str:
    return hashlib.sha256(f"{set_name}:{corpus_id}".encode()).hexdigest()


def read_corpus(corpus: Path) -> list[dict]:
    with gzip.open(corpus, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    seen_titles: set[str] = set()
    for record in records:  # a title written twice (one paper in two sources) is never drawn
        key = letters(record.get("title") or "")
        record["repeated"] = key in seen_titles
        seen_titles.add(key)
    return records


def draw_all(corpus: Path) -> dict[str, list[dict]]:
    """Every set, drawn in the order of SETS: a set never takes an abstract an earlier one took."""
    records = read_corpus(corpus)
    with (HERE / "sets" / "seeds.jsonl").open(encoding="utf-8") as lines:
        seeds = [letters(json.loads(line)["prefix"]) for line in lines]
    taken: set[str] = set()
    drawn: dict[str, list[dict]] = {}
    for set_name, (count, scope) in SETS.items():
        drawn[set_name] = []
        for record in sorted(records, key=lambda r, name=set_name: order_key(name, r["id"])):
            abstract = record.get("abstract") or ""
            if (record["venue"], record["year"]) not in RECENT or record["id"] in taken or record["repeated"]:
                continue
            if any(letters(abstract).startswith(seed) for seed in seeds) or len(abstract) < 300:
                continue
            if scope == "results" and len(REPORTED_NUMBER.findall(abstract)) < 2:
                continue
            taken.add(record["id"])
            drawn[set_name].append(
                {
                    "corpus_id": record["id"],
                    "prefix": abstract[:PREFIX_CHARS],
                    "venue": record["venue"],
                    "year": record["year"],
                    "title": record.get("title"),
                    "abstract": abstract,
                }
            )
            if len(drawn[set_name]) == count:
                break
    return drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set_name", choices=sorted(SETS))
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    drawn = draw_all(args.corpus)[args.set_name]
    with args.out.open("w", encoding="utf-8") as out:
        for record in drawn:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"{len(drawn)} abstracts for {args.set_name} ({SETS[args.set_name][1]}) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
