"""Corpus-level knowledge: a name one paper types with confidence, recognised in every paper.

A paper that proposes a name ('we introduce FooBench, a benchmark of ...') types it from its own
context. Another paper that only writes the name bare ('compared on FooBench') either misses it
or types it by its shape alone, as a method. After every paper is extracted, the names papers
propose are looked for in all the abstracts at once, and where another paper writes one
(exactly: case-sensitive, on word boundaries) it is a mention of the proposing paper's type:
a new mention where no rule found anything, a retyped one where shape alone made it a method.

Bounded: a name counts only when few papers propose it (MAX_PROPOSERS; a name 'proposed' by many
is a generic term an abbreviation rule caught: 'ReLU'), all of them with one type, when it is
shaped like a name (MIN_NAME_CHARS or more, a capital or digit after its first letter) and when no
lexicon knows it. A paper gets at most MAX_CORPUS_MENTIONS such mentions.

Incremental: the pass reads only the per-paper rows and one vectorised search of the clean
texts (Aho–Corasick in polars), never extracting a paper again; the kept per-paper rows stay
the rules' own, so a name that stops being proposed stops being recognised on the next build.
"""

from __future__ import annotations

import itertools
import re

import polars as pl

from pipeline.lib.extract.catalog import normalise_name
from pipeline.lib.extract.lexicons import load_lexicon, on_word_boundaries

MAX_PROPOSERS = 2
MIN_NAME_CHARS = 4
MAX_CORPUS_MENTIONS = 20
EVIDENCE = "corpus_name"
# Texts searched at a time for the proposed names.
SEARCH_SLICE = 65_536
_TYPED = ("model", "dataset", "method")
_NAME_SHAPE = re.compile(r"[A-Za-z][\w.+-]*(?:[A-Z0-9])[\w.+-]*")
# Capitalised words joined by hyphens are words, not a name: 'Multi-Agent', 'Monte-Carlo'.
_HYPHENATED_WORDS = re.compile(r"[A-Z][a-z]+(?:-[A-Z]?[a-z]+)+")


def corpus_names(mentions: pl.DataFrame) -> pl.DataFrame:
    """(name, entity_type, proposers): the names papers propose, by the bounds above."""
    proposed = mentions.filter((pl.col("role") == "proposed") & pl.col("entity_type").is_in(_TYPED))
    names = (
        proposed.group_by("name")
        .agg(
            pl.col("entity_type").unique().alias("types"),
            pl.col("paper_id").unique().alias("proposers"),
        )
        .filter((pl.col("types").list.len() == 1) & (pl.col("proposers").list.len() <= MAX_PROPOSERS))
        .filter(pl.col("name").str.len_chars() >= MIN_NAME_CHARS)
        .with_columns(pl.col("types").list.first().alias("entity_type"))
        .select("name", "entity_type", "proposers")
        .sort("name")
    )
    lexicon = load_lexicon()
    keep = [
        bool(_NAME_SHAPE.fullmatch(name))
        and not _HYPHENATED_WORDS.fullmatch(name)
        and lexicon.lookup(name) is None
        for name in names["name"]
    ]
    return names.filter(pl.Series(keep, dtype=pl.Boolean))


def apply_corpus_names(mentions: pl.DataFrame, texts: pl.LazyFrame) -> pl.DataFrame:
    """The mentions with what corpus_names adds: new mentions where a paper writes a proposed name
    no rule found, and shape-typed methods retyped to the proposing paper's type. A caller that
    passes `mentions` without holding them lets each of their columns go once it is reordered."""
    names = corpus_names(mentions)
    if names.is_empty():
        return mentions
    found = _occurrences(texts, names)
    if found.is_empty():
        return mentions
    own = names.explode("proposers").select("name", pl.col("proposers").alias("paper_id"))
    found = found.join(own, on=["paper_id", "name"], how="anti")
    written = mentions.select("paper_id", "start", "end", "name", "entity_type", "role", "expansion")
    retyped = (
        found.join(written, on=["paper_id", "start", "end", "name"], how="inner", suffix="_written")
        .filter(
            (pl.col("entity_type_written") == "method")
            & (pl.col("entity_type") != "method")
            & (pl.col("role") == "referenced")
            & pl.col("expansion").is_null()
        )
        .select("paper_id", "start", "end", pl.col("entity_type").alias("corpus_type"))
        .unique(["paper_id", "start", "end"])
    )
    del written  # its columns are the mentions' own: kept, they would outlive the reordering below
    # The retyped type of each mention, found on its key columns alone and added beside the others:
    # a join of the whole mentions would copy each of their columns, millions of rows at scale.
    corpus_type = (
        mentions.select("paper_id", "start", "end")
        .join(retyped, on=["paper_id", "start", "end"], how="left", maintain_order="left")
        .get_column("corpus_type")
    )
    mentions = (
        mentions.with_columns(corpus_type)
        .with_columns(
            pl.coalesce("corpus_type", "entity_type").alias("entity_type"),
            pl.when(pl.col("corpus_type").is_not_null())
            .then(pl.lit(EVIDENCE))
            .otherwise(pl.col("evidence"))
            .alias("evidence"),
        )
        .drop("corpus_type")
    )
    new = _uncovered(found, mentions)
    if new.is_empty():
        return mentions
    rows = new.select(
        "paper_id",
        "entity_type",
        pl.col("name").alias("text"),
        "name",
        pl.col("start").cast(pl.Int32),
        pl.col("end").cast(pl.Int32),
        pl.lit("referenced").alias("role"),
        pl.lit(None, dtype=pl.String).alias("expansion"),
        pl.lit(EVIDENCE).alias("evidence"),
        pl.col("name").map_elements(normalise_name, return_dtype=pl.String).alias("name_key"),
        pl.lit(normalise_name(None)).alias("expansion_key"),
    )
    # Ordered on the key columns alone, then the rows copied in that order a column at a time.
    order = _merged_order(mentions, rows)
    merged = pl.concat([mentions, rows.select(mentions.columns)])
    del mentions  # `merged` holds their columns: each is let go once it is copied in order
    columns = []
    for name in merged.columns:
        columns.append(merged.get_column(name).gather(order))
        merged = merged.drop(name)
    return pl.DataFrame(columns)


def _merged_order(mentions: pl.DataFrame, added: pl.DataFrame) -> pl.Series:
    """The row order of `mentions` followed by `added` in which each paper's rows stay together, the
    papers in the order they first appear and a paper's rows in text order.

    The mentions come in runs of one paper's rows (one run per paper as `assemble` makes them), so
    a paper is ranked by its first run and only the runs' paper ids are hashed, not every
    mention's; an added row takes its paper's rank, or a rank after all of theirs when the mentions
    lack its paper."""
    new_run = pl.col("paper_id").ne_missing(pl.col("paper_id").shift())
    runs = (
        mentions.select("paper_id")
        .filter(new_run)
        .with_row_index("_run")
        .select("paper_id", pl.col("_run").cast(pl.Int64).min().over("paper_id").alias("_rank"))
    )
    run_of_row = mentions.select(new_run.cum_sum().cast(pl.Int64) - 1).to_series()
    ranked = mentions.select(runs["_rank"].gather(run_of_row).alias("_rank"), "start")
    papers = runs.unique("paper_id", keep="first", maintain_order=True)
    new_papers = (
        added.select("paper_id")
        .unique(maintain_order=True)
        .join(papers, on="paper_id", how="anti")
        .with_row_index("_rank", offset=runs.height)
        .select("paper_id", pl.col("_rank").cast(pl.Int64))
    )
    added_ranks = added.select("paper_id", "start").join(
        pl.concat([papers, new_papers]), on="paper_id", how="left", maintain_order="left"
    )
    return (
        pl.concat([ranked, added_ranks.select("_rank", "start")])
        .with_row_index("_row")
        .sort("_rank", "start", maintain_order=True)
        .get_column("_row")
    )


def _occurrences(texts: pl.LazyFrame, names: pl.DataFrame) -> pl.DataFrame:
    """(paper_id, name, entity_type, start, end) of every whole-word occurrence of the names, in
    character offsets; polars finds them in bytes, only the texts that hold one are read here.

    SEARCH_SLICE texts at a time, each slice's hits made rows before the next slice is read: the
    texts collected at once are a gigabyte at a million papers, and a frame of every slice's hits
    would hold them all still (a string polars filters stays a view into the buffer it was read in)."""
    patterns = names["name"].to_list()

    def hits(offset: int) -> pl.DataFrame:
        return (
            texts.slice(offset, SEARCH_SLICE)
            .select(
                "paper_id",
                "abstract_clean",
                pl.col("abstract_clean").str.find_many(patterns, overlapping=True).alias("at"),
                pl.col("abstract_clean").str.extract_many(patterns, overlapping=True).alias("name"),
            )
            .filter(pl.col("at").list.len() > 0)
            .collect()
        )

    types = dict(zip(names["name"], names["entity_type"], strict=True))
    n_texts = texts.select(pl.len()).collect().item()
    rows = []
    slices = (hits(offset) for offset in range(0, n_texts, SEARCH_SLICE))
    for paper_id, text, positions, found in itertools.chain.from_iterable(hit.iter_rows() for hit in slices):
        encoded = text.encode()
        kept = 0
        for position, name in zip(positions, found, strict=True):
            start = len(encoded[:position].decode())
            end = start + len(name)
            if kept < MAX_CORPUS_MENTIONS and on_word_boundaries(text, start, end):
                rows.append((paper_id, name, types[name], start, end))
                kept += 1
    return pl.DataFrame(
        rows,
        schema={
            "paper_id": pl.String,
            "name": pl.String,
            "entity_type": pl.String,
            "start": pl.Int32,
            "end": pl.Int32,
        },
        orient="row",
    )


def _uncovered(found: pl.DataFrame, mentions: pl.DataFrame) -> pl.DataFrame:
    """The occurrences no mention of their paper overlaps."""
    spans = mentions.select("paper_id", pl.col("start").alias("m_start"), pl.col("end").alias("m_end"))
    overlapped = (
        found.join(spans, on="paper_id")
        .filter((pl.col("m_start") < pl.col("end")) & (pl.col("start") < pl.col("m_end")))
        .select("paper_id", "start")
        .unique()
    )
    return found.join(overlapped, on=["paper_id", "start"], how="anti")
