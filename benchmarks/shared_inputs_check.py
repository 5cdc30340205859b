"""Build the user's seeds plus every sample file of each input format, and check what must show.

    python benchmarks/shared_inputs_check.py --shared /work/shared --scratch /tmp/inputs-check

Copies `SHARED/seeds/*` and every file under `SHARED/inputs/` (READMEs included: they must become
rejects, not be skipped) into one seeds directory, builds the warehouse, and prints:
- per file: format, status, records, documents, rejects, and whether records = documents + rejects;
- the CoRL 2024 papers holding documents from both the TSV and the paperlists JSON;
- the seed abstracts also in the ICLR 2026 CSV, and how many carry a title and an OpenReview id;
- the Semantic Scholar `papers` records rejected as `no abstract`;
- papers without a title although one of their documents has one;
- OpenAlex abstracts whose words, inverted again, give the source's index (positions ranked, as
  OpenAlex's own indexes skip some positions).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import duckdb

from pipeline.build import run_build

CORL_TSV = "robot-learning_org_CoRL_2024_Conference.csv"
CORL_JSON = "paperlists_corl2024.json"
ICLR_CSV = "iclr2026_openreview_sample.csv"
S2_PAPERS = "papers-sample.jsonl"


def gather(shared: Path, seeds: Path) -> None:
    seeds.mkdir(parents=True)
    for path in sorted((shared / "seeds").iterdir()):
        shutil.copy(path, seeds / path.name)
    for path in sorted((shared / "inputs").rglob("*")):
        if path.is_file():
            if (seeds / path.name).exists():
                sys.exit(f"two input files are named {path.name}")
            shutil.copy(path, seeds / path.name)


def openalex_rebuilt(con: duckdb.DuckDBPyConnection, seeds: Path) -> tuple[int, int]:
    published = dict(
        con.execute("SELECT openalex_id, raw_text FROM documents WHERE format = 'openalex'").fetchall()
    )
    checked = equal = 0
    for path in sorted(seeds.glob("openalex*.json")):
        for work in json.loads(path.read_text(encoding="utf-8"))["results"]:
            index = work.get("abstract_inverted_index")
            work_id = work["id"].rsplit("/", 1)[1]
            if not index or work_id not in published:
                continue
            rank = {p: r for r, p in enumerate(sorted(p for v in index.values() for p in v))}
            source = {word: sorted(rank[p] for p in positions) for word, positions in index.items()}
            again: dict[str, list[int]] = {}
            for position, word in enumerate(published[work_id].split(" ")):
                again.setdefault(word, []).append(position)
            checked += 1
            equal += again == source
    return equal, checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, required=True, help="the folder holding seeds/ and inputs/")
    parser.add_argument("--scratch", type=Path, required=True, help="an empty or missing folder")
    args = parser.parse_args(argv)
    seeds, warehouse = args.scratch / "seeds", args.scratch / "warehouse"
    if not seeds.exists():
        gather(args.shared, seeds)
    outcome = run_build(seeds, warehouse)
    if not outcome.published:
        sys.exit(f"not published: {outcome.reason}")
    print("published:", ", ".join(f"{name} {count:,}" for name, count in outcome.row_counts.items()))
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        print("\nfile | format | status | records | documents | rejects (of records) | balanced")
        for row in con.execute(
            "WITH d AS (SELECT source_file, count(*) n FROM documents GROUP BY 1), "
            "r AS (SELECT source_file, count(*) FILTER (WHERE line_start > 0) n FROM rejects GROUP BY 1) "
            "SELECT f.source_file, f.format, f.status, f.n_records, coalesce(d.n, 0), coalesce(r.n, 0), "
            "f.n_records = coalesce(d.n, 0) + coalesce(r.n, 0) "
            "FROM input_files f LEFT JOIN d USING (source_file) LEFT JOIN r USING (source_file) ORDER BY 1"
        ).fetchall():
            print(" | ".join(str(value) for value in row))
        both, any_corl = con.execute(
            "SELECT count(DISTINCT paper_id) FILTER (WHERE paper_id IN (SELECT paper_id FROM documents "
            "WHERE source_file = ?) AND paper_id IN (SELECT paper_id FROM documents WHERE source_file = ?)), "
            "count(DISTINCT paper_id) FROM documents WHERE source_file IN (?, ?)",
            [CORL_TSV, CORL_JSON, CORL_TSV, CORL_JSON],
        ).fetchone()
        two_ids = con.execute(
            "SELECT count(*) FROM (SELECT paper_id FROM documents GROUP BY 1 "
            "HAVING count(DISTINCT openreview_id) > 1)"
        ).fetchone()[0]
        print(f"\nCoRL 2024: {both} papers with documents from both files, of {any_corl} papers in either;")
        print(f"papers with two OpenReview ids: {two_ids}")
        seeds_in_csv = con.execute(
            "SELECT count(*), count(title), count(openreview_id) FROM papers WHERE paper_id IN "
            "(SELECT paper_id FROM documents WHERE format = 'text') AND paper_id IN "
            "(SELECT paper_id FROM documents WHERE source_file = ?)",
            [ICLR_CSV],
        ).fetchone()
        print(
            "seed papers also in the ICLR 2026 CSV: {}, with a title: {}, with an OpenReview id: {}".format(
                *seeds_in_csv
            )
        )
        no_abstract = con.execute(
            "SELECT count(*) FROM rejects WHERE source_file = ? AND reason LIKE 'no abstract%'", [S2_PAPERS]
        ).fetchone()[0]
        print(f"Semantic Scholar papers records rejected as no abstract: {no_abstract}")
        untitled = con.execute(
            "SELECT count(*) FROM papers p WHERE title IS NULL AND EXISTS "
            "(SELECT 1 FROM documents d WHERE d.paper_id = p.paper_id AND d.title IS NOT NULL)"
        ).fetchone()[0]
        print(f"papers without a title though a document has one: {untitled}")
        equal, checked = openalex_rebuilt(con, seeds)
        print(f"OpenAlex abstracts equal to their source index, word for word: {equal}/{checked}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
