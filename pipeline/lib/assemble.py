"""Turn parsed occurrences into the documents and papers tables (clean, deduplicate, aggregate)."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import cache
from multiprocessing import get_context
from pathlib import Path

import polars as pl

from pipeline.lib import clean, parse
from pipeline.lib.clean import clean_abstract, normalise_whitespace
from pipeline.lib.dedup import deduplicate
from pipeline.lib.parse import ParsedSeeds, collect, parse_file
from pipeline.lib.schema import DOCUMENTS, PAPERS


def with_clean_text(raw_documents: pl.DataFrame) -> pl.DataFrame:
    """Add `abstract` (whitespace normalised, markup kept) and `abstract_clean` to each occurrence.

    Each distinct raw text is cleaned once: duplicates are common and cleaning is the costly part.
    """
    distinct = raw_documents.select("raw_text").unique(maintain_order=True)
    abstracts = [normalise_whitespace(text) for text in distinct["raw_text"]]
    cleaned = distinct.with_columns(
        abstract=pl.Series(abstracts, dtype=pl.String),
        abstract_clean=pl.Series([clean_abstract(a) for a in abstracts], dtype=pl.String),
    )
    return raw_documents.join(cleaned, on="raw_text", how="left", maintain_order="left")


@cache
def preparation_version() -> str:
    """Changes whenever the parser or the cleaner changes, so cached per-file results go stale."""
    sources = "".join(inspect.getsource(module) for module in (parse, clean))
    return hashlib.sha256(sources.encode()).hexdigest()[:16]


def prepare_file(path: Path) -> ParsedSeeds:
    """One input file parsed, with `abstract` and `abstract_clean` for each of its documents."""
    parsed = collect([parse_file(path)])
    return replace(parsed, documents=with_clean_text(parsed.documents))


def prepare_files(paths: list[Path], workers: int = 1) -> Iterator[ParsedSeeds]:
    """prepare_file for many files, in order, in `workers` processes when there is more than one
    file; a generator, so that a caller can store each file and let it go before the next."""
    if workers > 1 and len(paths) > 1:
        # Spawned, not forked: a fork of a process whose polars thread pool is running can deadlock.
        with ProcessPoolExecutor(
            max_workers=min(workers, len(paths)), mp_context=get_context("spawn")
        ) as pool:
            yield from pool.map(prepare_file, paths)
    else:
        yield from map(prepare_file, paths)


def build_documents(raw_documents: pl.DataFrame) -> pl.DataFrame:
    """Occurrences (already cleaned) with their paper: the documents columns plus the two texts."""
    # Collected files arrive in this order already; sorting would copy every text for nothing.
    keys = raw_documents.select("source_file", "ordinal")
    in_order = keys.equals(keys.sort("source_file", "ordinal"))
    ordered = raw_documents if in_order else raw_documents.sort("source_file", "ordinal")
    matches = deduplicate(ordered.select("document_id", pl.col("abstract_clean").alias("clean_text")))
    # One row per input row, in input order (deduplicate's contract): columns side by side, no join.
    return ordered.with_columns(matches.select("paper_id", "match", "similarity"))


def documents_table(documents: pl.DataFrame) -> pl.DataFrame:
    return DOCUMENTS.conform(documents)


def canonical_papers(documents: pl.DataFrame) -> pl.DataFrame:
    """One row per paper from its canonical occurrence; entity columns are added by extraction."""
    canonical = documents.filter(pl.col("match") == "first").select(
        "paper_id", "venue", "year", "abstract", "abstract_clean"
    )
    occurrences = documents.group_by("paper_id").agg(
        n_documents=pl.len(),
        source_files=pl.col("source_file").unique().sort(),
    )
    return (
        canonical.join(occurrences, on="paper_id", how="left", maintain_order="left")
        .with_columns(word_count=pl.col("abstract_clean").str.count_matches(r"\S+"))
        .sort("paper_id")
    )


def papers_table(canonical: pl.DataFrame, annotations: pl.DataFrame) -> pl.DataFrame:
    """Join what extraction found (proposed_methods, code_url) onto the canonical papers."""
    joined = canonical.join(
        annotations.select("paper_id", "proposed_methods", "code_url"), on="paper_id", how="left"
    ).with_columns(pl.col("proposed_methods").fill_null(pl.lit([], dtype=pl.List(pl.String))))
    return PAPERS.conform(joined)
