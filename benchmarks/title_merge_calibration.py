"""Calibrate and check `pipeline.lib.merge` (ids and titles) on a real corpus of abstracts.

    .venv/bin/python benchmarks/title_merge_calibration.py /path/to/abstracts.jsonl.gz
    .venv/bin/python benchmarks/title_merge_calibration.py CORPUS --sample 30 --bench-rows 200000

The corpus is JSON Lines (optionally gzip-compressed), one abstract per line with `abstract`,
`title`, `venue`, `year`, `id` and `corpus_file` (the seed file it is in, its position there being
its line order). Every abstract is cleaned with `clean_abstract` and deduplicated, then merged by
titles, by ids, and by both. Printed:

- recall of same-title pairs (normalised titles of more than 15 characters) from text alone and
  after each merge, and the same on the stricter truth "same title and year in two files";
- the bigram Jaccard of the same-title pairs that text dedup leaves apart, and the recall each
  title threshold would give;
- what different papers reach: pairs with different titles sharing half their title words, and
  same-title pairs of short titles; how many groups the most common long titles are on;
- how many merges the title rule and the id rule add (`id` fields that look like OpenReview forum
  ids: neither all digits nor 10 lower-case hex digits, which other sources use);
- a random sample of title merges with both titles and the first 100 characters of both abstracts,
  to be checked by hand;
- with --bench-rows N, the time of `merge_occurrences` alone on N generated occurrences.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.lib.clean import clean_abstract
from pipeline.lib.dedup import SHINGLE_SIZE, _verified_jaccard, deduplicate
from pipeline.lib.merge import (
    MIN_TITLE_CHARS,
    STRONG_IDS,
    TITLE_THRESHOLD,
    merge_occurrences,
    normalise_title,
)

THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55)


def load(path: Path) -> pl.DataFrame:
    """The corpus in file order, with the columns merge_occurrences reads."""
    records = pl.read_ndjson(
        path,
        schema_overrides={"id": pl.String, "title": pl.String, "abstract": pl.String, "venue": pl.String},
        infer_schema_length=None,
    )
    frame = (
        records.select("corpus_file", "venue", "year", "id", "title", "abstract")
        .with_columns(ordinal=pl.int_range(1, pl.len() + 1).over("corpus_file"))
        .sort("corpus_file", "ordinal")
        .with_columns(
            document_id=pl.col("corpus_file") + ":" + pl.col("ordinal").cast(pl.String),
            source_file=pl.col("corpus_file"),
        )
    )
    frame = frame.with_columns(abstract_clean=pl.Series([clean_abstract(a) for a in frame["abstract"]]))
    looks_openreview = ~pl.col("id").str.contains(r"^(\d+|[0-9a-f]{10})$")
    return frame.with_columns(
        openreview_id=pl.when(looks_openreview).then(pl.col("id")),
        **{kind: pl.lit(None, pl.String) for kind in STRONG_IDS if kind != "openreview_id"},
    )


def jaccard(texts: pl.Series, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    return _verified_jaccard(texts.gather, np.arange(len(texts)), left, right, SHINGLE_SIZE)


def same_title_pairs(frame: pl.DataFrame, long: bool = True) -> pl.DataFrame:
    """Every pair of rows (left < right) with the same normalised title, long or short ones."""
    length = pl.col("ntitle").str.len_chars()
    titled = frame.select(pl.int_range(pl.len()).alias("row"), "ntitle", "year", "source_file").filter(
        (length >= MIN_TITLE_CHARS) if long else ((length > 0) & (length < MIN_TITLE_CHARS))
    )
    return titled.join(titled, on="ntitle", suffix="_b").filter(pl.col("row") < pl.col("row_b"))


def recall(pairs: pl.DataFrame, paper_id: pl.Series) -> tuple[int, float]:
    together = int((paper_id.gather(pairs["row"]) == paper_id.gather(pairs["row_b"])).sum())
    return together, together / max(pairs.height, 1)


def report_calibration(frame: pl.DataFrame, text: pl.DataFrame) -> None:
    texts = frame["abstract_clean"]
    pairs = same_title_pairs(frame)
    strict = pairs.filter(
        (pl.col("year") == pl.col("year_b")) & (pl.col("source_file") != pl.col("source_file_b"))
    )
    apart = pairs.filter(text["paper_id"].gather(pairs["row"]) != text["paper_id"].gather(pairs["row_b"]))
    similarity = np.sort(jaccard(texts, apart["row"].to_numpy(), apart["row_b"].to_numpy()))
    together, rate = recall(pairs, text["paper_id"])
    print(f"same-title pairs (titles of more than {MIN_TITLE_CHARS - 1} characters): {pairs.height:,}")
    print(f"  put in one paper by text dedup: {together:,} (recall {rate:.4f}); left apart: {apart.height}")
    print("  bigram Jaccard of those left apart: " + " ".join(f"{s:.3f}" for s in similarity))
    print("  recall if the title rule merged every pair left apart at or above a threshold:")
    for threshold in THRESHOLDS:
        added = int((similarity >= threshold).sum())
        print(f"    {threshold:.2f}: +{added:>3} -> recall {(together + added) / pairs.height:.4f}")

    apart_in_text = pl.lit(text["paper_id"]).gather(pl.col("row")) != pl.lit(text["paper_id"]).gather(
        pl.col("row_b")
    )
    short = same_title_pairs(frame, long=False).filter(apart_in_text)
    short_similarity = jaccard(texts, short["row"].to_numpy(), short["row_b"].to_numpy())
    if short.height:
        print(
            f"same-title pairs of short titles (left out), in different text groups: {short.height}, "
            f"Jaccard max {short_similarity.max():.3f}; titles: " + ", ".join(sorted(set(short["ntitle"])))
        )
    groups_per_title = (
        pl.DataFrame({"ntitle": frame["ntitle"], "paper_id": text["paper_id"]})
        .filter(pl.col("ntitle").str.len_chars() >= MIN_TITLE_CHARS)
        .group_by("ntitle")
        .agg(pl.col("paper_id").n_unique())
        .get_column("paper_id")
    )
    print(f"most text groups on one long title: {groups_per_title.max()}")

    words = (
        frame.select(pl.int_range(pl.len()).alias("row"), word=pl.col("ntitle").str.split(" "))
        .explode("word")
        .filter(pl.col("word").str.len_chars() > 3)
        .unique()
    )
    sizes = words.group_by("row").len("n")
    related = (
        words.join(words, on="word", suffix="_b")
        .filter(pl.col("row") < pl.col("row_b"))
        .group_by("row", "row_b")
        .len("shared")
        .join(sizes, on="row")
        .join(sizes.rename({"row": "row_b", "n": "n_b"}), on="row_b")
        .filter(pl.col("shared") * 2 >= pl.col("n") + pl.col("n_b") - pl.col("shared"))
        .filter(
            pl.lit(frame["ntitle"]).gather(pl.col("row")) != pl.lit(frame["ntitle"]).gather(pl.col("row_b"))
        )
        .filter(apart_in_text)
    )
    related_similarity = jaccard(texts, related["row"].to_numpy(), related["row_b"].to_numpy())
    quantiles = np.quantile(related_similarity, (0.5, 0.9, 0.99, 0.999, 1.0))
    print(
        f"different titles sharing half their words, in different text groups: {related.height:,} pairs; "
        "Jaccard at "
        "50/90/99/99.9/100%: " + " ".join(f"{q:.3f}" for q in quantiles)
    )
    _, strict_rate = recall(strict, text["paper_id"])
    print(
        f"stricter truth, same title and year in two files: {strict.height:,} pairs; text: {strict_rate:.4f}"
    )


def report_merges(frame: pl.DataFrame, text: pl.DataFrame, sample: int, seed: int) -> None:
    pairs = same_title_pairs(frame)
    strict = pairs.filter(
        (pl.col("year") == pl.col("year_b")) & (pl.col("source_file") != pl.col("source_file_b"))
    )
    no_titles = frame.with_columns(title=pl.lit(None, pl.String))
    no_ids = frame.with_columns(openreview_id=pl.lit(None, pl.String))
    runs = {
        "titles": merge_occurrences(no_ids, text),
        "ids": merge_occurrences(no_titles, text),
        "titles and ids": merge_occurrences(frame, text),
    }
    print(f"\ntext dedup: {text['paper_id'].n_unique():,} papers; title threshold {TITLE_THRESHOLD}")
    print(f"occurrences with an OpenReview-like id: {frame['openreview_id'].is_not_null().sum():,}")
    for name, result in runs.items():
        counts = dict(result.group_by("match").len().iter_rows())
        together, rate = recall(pairs, result["paper_id"])
        _, strict_rate = recall(strict, result["paper_id"])
        print(
            f"merged by {name:<15} papers {result['paper_id'].n_unique():,}; "
            + ", ".join(f"{m} {counts.get(m, 0):,}" for m in ("id", "exact", "near", "title"))
            + f"; same-title recall {rate:.4f} ({together:,}), same title and year {strict_rate:.4f}"
        )
    merged = runs["titles and ids"]
    extra = merged.with_row_index("row").filter(pl.col("match").is_in(["id", "title"]))
    canonical_row = merged.with_row_index("row").select("document_id", canonical_row="row")
    extra = extra.join(
        canonical_row.rename({"document_id": "canonical_document_id"}), on="canonical_document_id"
    )
    rows = extra.rows(named=True)
    shown = sorted(
        random.Random(seed).sample(rows, min(sample, len(rows))), key=lambda row: row["similarity"]
    )
    print(f"\n{len(shown)} of {len(rows)} id and title merges, lowest similarity first:")
    for row in shown:
        this, canonical = frame.row(row["row"], named=True), frame.row(row["canonical_row"], named=True)
        print(
            f"  {row['match']} {row['similarity']:.3f}  {this['document_id']} -> {canonical['document_id']}"
        )
        print(f"     titles: {this['title']!r} | {canonical['title']!r}")
        print(f"     {this['abstract_clean'][:100]!r}")
        print(f"     {canonical['abstract_clean'][:100]!r}")


def bench(n_rows: int, seed: int) -> None:
    """merge_occurrences alone on generated occurrences: papers of 80 random words; a tenth of them
    again with a DOI, a tenth again with the same title and half the words rewritten."""
    rng = np.random.default_rng(seed)
    n_papers = n_rows * 10 // 12
    paper = np.concatenate((np.arange(n_papers), rng.choice(n_papers, n_rows - n_papers, replace=False)))
    rewritten = np.arange(n_rows) >= n_papers + (n_rows - n_papers) // 2
    words = rng.integers(0, 50_000, (n_papers, 80))[paper]
    words[rewritten, 40:] = rng.integers(0, 50_000, (int(rewritten.sum()), 40))
    texts = pl.Series(words).cast(pl.List(pl.String)).list.eval("w" + pl.element()).list.join(" ")
    has_doi = (np.arange(n_rows) >= n_papers) & ~rewritten
    frame = pl.DataFrame(
        {
            "document_id": [f"bench:{i}" for i in range(n_rows)],
            "abstract_clean": texts,
            "title": pl.Series([f"generated paper number {p}" for p in paper]),
            **{kind: pl.Series([None] * n_rows, dtype=pl.String) for kind in STRONG_IDS},
        }
    ).with_columns(
        doi=pl.when(pl.Series(has_doi) | (pl.int_range(pl.len()) % 7 == 0)).then(
            pl.lit("10.1/") + pl.Series(paper).cast(pl.String)
        )
    )
    text = deduplicate(frame.select("document_id", clean_text="abstract_clean"))
    start = time.perf_counter()
    result = merge_occurrences(frame, text)
    seconds = time.perf_counter() - start
    counts = dict(result.group_by("match").len().iter_rows())
    print(f"\nmerge_occurrences on {n_rows:,} generated occurrences: {seconds:.2f} s; matches {counts}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="abstracts as JSON Lines (.jsonl or .jsonl.gz)")
    parser.add_argument("--sample", type=int, default=30, help="id and title merges to print (default 30)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bench-rows", type=int, default=200_000, help="0 skips the speed run")
    args = parser.parse_args(argv)
    frame = load(args.corpus)
    frame = frame.with_columns(ntitle=normalise_title(pl.col("title")).fill_null(""))
    text = deduplicate(frame.select("document_id", clean_text="abstract_clean"))
    print(f"{frame.height:,} abstracts from {args.corpus}")
    report_calibration(frame, text)
    report_merges(frame, text, args.sample, args.seed)
    if args.bench_rows:
        bench(args.bench_rows, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
