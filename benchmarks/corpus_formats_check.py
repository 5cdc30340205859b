"""Build the real corpus twice, as JSON Lines with titles and as seed-format text, and compare.

    python benchmarks/corpus_formats_check.py --corpus /work/shared/corpus --scratch /tmp/formats

The JSON Lines build (`abstracts.jsonl.gz` as given) must have the text build's papers, with
titles, except for the merges that the title and id rules add. Papers are compared as sets of
abstracts (dedup's normal form of `abstract_clean`), so the two builds' ids need not agree. It
prints: papers in each build; text papers split in the JSON Lines build (must be 0); the merges
added, each with both titles and the start of both abstracts, for reading by hand; papers without a
title; and same-title recall: of the pairs of documents whose normalised titles (more than 15
characters) are equal, the share in one paper.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import duckdb
import polars as pl

from pipeline.build import run_build
from pipeline.lib.merge import MIN_TITLE_CHARS, normalise_title


def build(seeds: Path, warehouse: Path) -> None:
    if (warehouse / "papers.duckdb").exists():
        return
    outcome = run_build(seeds, warehouse)
    if not outcome.published:
        sys.exit(f"build of {seeds} failed: {outcome.reason}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--corpus", type=Path, required=True, help="folder with abstracts.jsonl.gz and seed-format/"
    )
    parser.add_argument("--scratch", type=Path, required=True)
    parser.add_argument("--show", type=int, default=40, help="added merges to print")
    args = parser.parse_args(argv)
    jsonl_seeds, text_seeds = args.scratch / "jsonl-seeds", args.scratch / "text-seeds"
    if not jsonl_seeds.exists():
        jsonl_seeds.mkdir(parents=True)
        shutil.copy(args.corpus / "abstracts.jsonl.gz", jsonl_seeds)
    if not text_seeds.exists():
        shutil.copytree(args.corpus / "seed-format", text_seeds)
    build(jsonl_seeds, args.scratch / "jsonl-warehouse")
    build(text_seeds, args.scratch / "text-warehouse")
    with duckdb.connect(str(args.scratch / "jsonl-warehouse" / "papers.duckdb"), read_only=True) as con:
        jsonl_docs = con.sql(
            "SELECT d.document_id, d.paper_id, d.match, d.similarity, d.title, d.raw_text, "
            "p.title AS paper_title "
            "FROM documents d JOIN papers p USING (paper_id)"
        ).pl()
        counts = con.sql(
            "SELECT (SELECT count(*) FROM papers), (SELECT count(*) FROM papers WHERE title IS NULL), "
            "(SELECT count(*) FROM documents), (SELECT count(*) FROM rejects)"
        ).fetchone()
    with duckdb.connect(str(args.scratch / "text-warehouse" / "papers.duckdb"), read_only=True) as con:
        text_docs = con.sql("SELECT document_id, paper_id, raw_text FROM documents").pl()
        text_counts = con.sql(
            "SELECT (SELECT count(*) FROM papers), (SELECT count(*) FROM documents)"
        ).fetchone()
        text_rejects = con.sql("SELECT count(*) FROM rejects").fetchone()[0]

    # An occurrence is the same in both builds when its whitespace-collapsed raw text is.
    def keyed(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(key=pl.col("raw_text").str.replace_all(r"\s+", " ").str.strip_chars())

    jsonl_docs, text_docs = keyed(jsonl_docs), keyed(text_docs)
    pairs = (
        text_docs.select("key", text_paper="paper_id")
        .unique()
        .join(jsonl_docs.select("key", jsonl_paper="paper_id").unique(), on="key", how="inner")
    )
    split = (
        pairs.group_by("text_paper").agg(pl.col("jsonl_paper").n_unique().alias("n")).filter(pl.col("n") > 1)
    )
    joined = pairs.group_by("jsonl_paper").agg(pl.col("text_paper").unique().alias("text_papers"))
    merged = joined.filter(pl.col("text_papers").list.len() > 1)
    print(
        f"JSON Lines build: {counts[0]:,} papers from {counts[2]:,} documents, {counts[3]:,} rejects, "
        f"{counts[1]:,} papers without a title"
    )
    print(f"text build:       {text_counts[0]:,} papers from {text_counts[1]:,} documents")
    print(f"abstracts matched between the builds: {pairs['key'].n_unique():,}")
    only_jsonl = jsonl_docs.join(text_docs.select("key"), on="key", how="anti")
    only_text = text_docs.join(jsonl_docs.select("key"), on="key", how="anti")
    print(
        f"documents only in the JSON Lines build: {only_jsonl.height:,} (the text build's rejects: "
        f"{text_rejects:,}); only in the text build: {only_text.height:,}"
    )
    for row in split.join(pairs, on="text_paper").head(10).iter_rows(named=True):
        print(f"  split: text paper {row['text_paper']} -> {row['jsonl_paper']}: {row['key'][:90]!r}")
    print(f"text papers split across JSON Lines papers: {split.height}")
    print(
        f"JSON Lines papers that join several text papers: {merged.height} "
        f"(merges added: {int((merged['text_papers'].list.len() - 1).sum())})"
    )
    matches = jsonl_docs.group_by("match").len().sort("match")
    print("JSON Lines documents by match:", dict(matches.iter_rows()))
    titled = jsonl_docs.with_columns(norm=normalise_title(pl.col("title"))).filter(
        pl.col("norm").str.len_chars() >= MIN_TITLE_CHARS
    )
    same = (
        titled.select("document_id", "norm", "paper_id")
        .join(titled.select("document_id", "norm", "paper_id"), on="norm", suffix="_2")
        .filter(pl.col("document_id") < pl.col("document_id_2"))
    )
    together = same.filter(pl.col("paper_id") == pl.col("paper_id_2")).height
    print(
        f"same-title pairs (titles over {MIN_TITLE_CHARS - 1} characters): {same.height:,}; "
        f"in one paper: {together:,} (recall {together / max(same.height, 1):.4f})"
    )
    apart = same.filter(pl.col("paper_id") != pl.col("paper_id_2"))
    for row in apart.head(10).iter_rows(named=True):
        print(f"  apart: {row['document_id']} / {row['document_id_2']}: {row['norm'][:80]}")
    by_paper = jsonl_docs.group_by("paper_id", maintain_order=True).agg(
        pl.col("paper_title").first(),
        pl.col("title").unique(),
        pl.col("match"),
        pl.col("similarity"),
        pl.col("raw_text").str.slice(0, 100),
    )
    shown = by_paper.join(merged.select(paper_id="jsonl_paper"), on="paper_id").head(args.show)
    for row in shown.iter_rows(named=True):
        print(f"\n{row['paper_id']}: {row['paper_title']!r}")
        for match, similarity, start in zip(row["match"], row["similarity"], row["raw_text"], strict=True):
            print(f"   {match:>5} {similarity:.3f} {start!r}")
        print(f"   titles: {row['title']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
