"""Entity extraction: from each paper's abstract_clean to mentions, a catalog of entities,
abbreviations, links and numeric results.

Per-paper work is pure (rules, lexicons, compiled patterns), so ``extract_all`` can split the
papers into chunks and run them in worker processes; the catalog is built once at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

import polars as pl

from pipeline.lib.extract.catalog import normalise_name, resolve
from pipeline.lib.extract.entities import extract_entities
from pipeline.lib.extract.lexicons import load_lexicon
from pipeline.lib.extract.links import find_links
from pipeline.lib.extract.results import MentionSpan, find_results
from pipeline.lib.schema import TABLES

__all__ = ["Extraction", "extract_all"]

# Papers per task when work is split across processes: large enough to amortise the pickling.
CHUNK_SIZE = 2000


@dataclass(frozen=True)
class Extraction:
    mentions: pl.DataFrame
    entities: pl.DataFrame
    abbreviations: pl.DataFrame
    links: pl.DataFrame
    results: pl.DataFrame
    paper_annotations: pl.DataFrame  # paper_id, proposed_methods, code_url


_MENTION_COLUMNS = ("paper_id", "entity_type", "text", "name", "start", "end", "role", "expansion")
_MENTION_SCHEMA = {
    "paper_id": pl.String,
    "entity_type": pl.String,
    "text": pl.String,
    "name": pl.String,
    "start": pl.Int32,
    "end": pl.Int32,
    "role": pl.String,
    "expansion": pl.String,
    "name_key": pl.String,
    "expansion_key": pl.String,
}
_ABBREVIATION_SCHEMA = {
    "paper_id": pl.String,
    "short": pl.String,
    "long": pl.String,
    "start": pl.Int32,
    "end": pl.Int32,
}
_LINK_SCHEMA = {
    "paper_id": pl.String,
    "url": pl.String,
    "kind": pl.String,
    "start": pl.Int32,
    "end": pl.Int32,
}
_RESULT_SCHEMA = {
    "paper_id": pl.String,
    "text": pl.String,
    "value": pl.Float64,
    "unit": pl.String,
    "metric": pl.String,
    "dataset": pl.String,
    "compared_to": pl.String,
    "start": pl.Int32,
    "end": pl.Int32,
    "sentence": pl.String,
}


def _extract_chunk(rows: list[tuple[str, str]]) -> tuple[list[tuple], list[tuple], list[tuple], list[tuple]]:
    """Rows of mentions, abbreviations, links and results for (paper_id, abstract_clean) pairs."""
    lexicon = load_lexicon()
    mentions, abbreviations, links, results = [], [], [], []
    for paper_id, text in rows:
        found = extract_entities(text, lexicon)
        for m in found.mentions:
            mentions.append(
                (
                    paper_id,
                    m.entity_type,
                    m.text,
                    m.name,
                    m.start,
                    m.end,
                    m.role,
                    m.expansion,
                    normalise_name(m.name),
                    normalise_name(m.expansion),
                )
            )
        abbreviations.extend((paper_id, a.short, a.long, a.start, a.end) for a in found.abbreviations)
        links.extend((paper_id, link.url, link.kind, link.start, link.end) for link in find_links(text))
        spans = [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in found.mentions]
        results.extend((paper_id, *r) for r in find_results(text, spans))
    return mentions, abbreviations, links, results


def extract_all(
    papers: pl.DataFrame, workers: int = 1, progress: Callable[[int, int], None] | None = None
) -> Extraction:
    """Extract everything from papers (columns paper_id, abstract_clean).

    workers > 1 runs chunks of CHUNK_SIZE papers in that many processes; the output is the same.
    `progress(done, total)` is called after each chunk.
    """
    rows = list(
        zip(papers["paper_id"].to_list(), papers["abstract_clean"].fill_null("").to_list(), strict=True)
    )
    chunks = [rows[i : i + CHUNK_SIZE] for i in range(0, len(rows), CHUNK_SIZE)]
    if workers > 1 and len(chunks) > 1:
        # Spawned, not forked: a fork of a process whose polars thread pool is running can deadlock.
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            parts = _with_progress(pool.map(_extract_chunk, chunks), chunks, progress)
    else:
        parts = _with_progress(map(_extract_chunk, chunks), chunks, progress)

    def frame(index: int, schema: dict[str, pl.DataType]) -> pl.DataFrame:
        data = [row for part in parts for row in part[index]]
        return pl.DataFrame(data, schema=schema, orient="row")

    raw_mentions = frame(0, _MENTION_SCHEMA)
    mentions, entities = resolve(raw_mentions)
    links = frame(2, _LINK_SCHEMA)
    return Extraction(
        mentions=TABLES["mentions"].conform(mentions),
        entities=TABLES["entities"].conform(entities),
        abbreviations=TABLES["abbreviations"].conform(frame(1, _ABBREVIATION_SCHEMA)),
        links=TABLES["links"].conform(links),
        results=TABLES["results"].conform(frame(3, _RESULT_SCHEMA)),
        paper_annotations=_paper_annotations(papers.select("paper_id"), mentions, links),
    )


def _with_progress(parts: Iterable, chunks: list[list], progress: Callable[[int, int], None] | None) -> list:
    total = sum(len(chunk) for chunk in chunks)
    collected, done = [], 0
    for part, chunk in zip(parts, chunks, strict=True):
        collected.append(part)
        done += len(chunk)
        if progress:
            progress(done, total)
    return collected


def _paper_annotations(paper_ids: pl.DataFrame, mentions: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    proposed = (
        mentions.filter((pl.col("role") == "proposed") & (pl.col("entity_type") != "metric"))
        .sort("paper_id", "start")
        .group_by("paper_id", maintain_order=True)
        .agg(pl.col("name").unique(maintain_order=True).alias("proposed_methods"))
    )
    code = (
        links.filter(pl.col("kind").is_in(["code", "project"]))
        .sort("paper_id", "start")
        .group_by("paper_id", maintain_order=True)
        .agg(pl.col("url").first().alias("code_url"))
    )
    return (
        paper_ids.join(proposed, on="paper_id", how="left")
        .join(code, on="paper_id", how="left")
        .with_columns(pl.col("proposed_methods").fill_null(pl.lit([], dtype=pl.List(pl.String))))
        .select("paper_id", "proposed_methods", "code_url")
    )
