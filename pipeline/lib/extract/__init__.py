"""Entity extraction: from each paper's abstract_clean to mentions, a catalog of entities,
abbreviations, links and numeric results.

Per-paper work is pure (rules, lexicons, compiled patterns), so ``extract_all`` can split the
papers into chunks and run them in worker processes; the catalog is built once at the end.
Because it is pure, a paper's rows (``PaperRows``) can be kept and reused by the next build for
every paper whose clean abstract and extraction code are unchanged.

Limits keep a hostile abstract from flooding the tables or the build time; real abstracts stay
far below them. A paper keeps at most MAX_DEFINITIONS abbreviation definitions (20; real
abstracts define 9 at most), MAX_MENTIONS mentions (1,000) and MAX_RESULTS results (200; real
abstracts have 15 at most), the first ones in its text, and at most MAX_ENTITIES entities (50;
real abstracts have 19 at most), the first ones the rules find. `Extraction.papers_capped(limit)`
names the papers where one of LIMITS ("definitions", "entities", "mentions" or "results")
applied, and `Extraction.capped_papers` those over the mention limit. A result's sentence longer
than MAX_SENTENCE characters (2,000; real ones have 1,223 at most) is stored cut to the
MAX_SENTENCE around its number, "…" replacing the first and/or last character where it was cut.
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path

import polars as pl

from pipeline.lib.engine import local_pool, local_processes
from pipeline.lib.extract.catalog import normalise_name, resolve
from pipeline.lib.extract.extract import extract_entities
from pipeline.lib.extract.knowledge import apply_corpus_names
from pipeline.lib.extract.lexicons import LEXICON_DIR, load_lexicon
from pipeline.lib.extract.links import find_links
from pipeline.lib.extract.results import MAX_RESULTS, MAX_SENTENCE, MentionSpan, find_results
from pipeline.lib.extract.state import LIMITS as ENTITY_LIMITS
from pipeline.lib.extract.state import MAX_DEFINITIONS, MAX_ENTITIES, MAX_MENTIONS
from pipeline.lib.schema import TABLES

__all__ = [
    "LIMITS",
    "MAX_DEFINITIONS",
    "MAX_ENTITIES",
    "MAX_MENTIONS",
    "MAX_RESULTS",
    "MAX_SENTENCE",
    "Extraction",
    "PaperRows",
    "extract_all",
    "extraction_version",
    "load_paper_rows",
    "save_paper_rows",
]

# Papers per task when work is split across processes: large enough to amortise the pickling.
CHUNK_SIZE = 2000
# The names of the limits in PaperRows.capped, in the order a paper's rows list them.
LIMITS = (*ENTITY_LIMITS, "results")


@dataclass(frozen=True)
class Extraction:
    mentions: pl.DataFrame
    entities: pl.DataFrame
    abbreviations: pl.DataFrame
    links: pl.DataFrame
    results: pl.DataFrame
    paper_annotations: pl.DataFrame  # paper_id, proposed_methods, code_url
    paper_rows: PaperRows
    reused_papers: int  # papers whose rows came from the previous build's PaperRows

    @property
    def capped_papers(self) -> list[str]:
        """The papers that found more mentions than MAX_MENTIONS and kept only the first ones."""
        return self.papers_capped("mentions")

    def papers_capped(self, limit: str) -> list[str]:
        """The papers that one of LIMITS cut short: "definitions", "entities", "mentions" or
        "results"."""
        return self.paper_rows.capped.filter(pl.col("limit") == limit)["paper_id"].to_list()


@dataclass(frozen=True)
class PaperRows:
    """What the per-paper stage found, before the catalog: everything a later build can reuse.

    `keys` has paper_id and abstract_key (a hash of the extraction version and abstract_clean);
    the other frames are the raw rows of each paper, in the order they were found, and `capped`
    has a row (paper_id, limit) for each of LIMITS that cut a paper short.
    """

    keys: pl.DataFrame
    mentions: pl.DataFrame
    abbreviations: pl.DataFrame
    links: pl.DataFrame
    results: pl.DataFrame
    capped: pl.DataFrame

    def select(self, paper_ids: pl.DataFrame) -> PaperRows:
        """The rows of the papers in paper_ids (a frame with a paper_id column)."""
        return PaperRows(
            *(getattr(self, f.name).join(paper_ids, on="paper_id", how="semi") for f in fields(self))
        )


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
    "evidence": pl.String,
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
_CAPPED_SCHEMA = {"paper_id": pl.String, "limit": pl.String}


@cache
def extraction_version() -> str:
    """Changes whenever extraction code or a lexicon changes, so that kept PaperRows go stale."""
    digest = hashlib.sha256()
    for path in sorted([*Path(__file__).parent.glob("*.py"), *LEXICON_DIR.glob("*.txt")]):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _abstract_keys(papers: pl.DataFrame) -> pl.DataFrame:
    version = extraction_version().encode()
    keys = [
        hashlib.sha256(version + text.encode()).hexdigest()[:32]
        for chunk in papers.iter_slices(CHUNK_SIZE)
        for text in chunk["abstract_clean"].fill_null("").to_list()
    ]
    return papers.select("paper_id", pl.Series("abstract_key", keys, dtype=pl.String))


def save_paper_rows(rows: PaperRows, directory: Path) -> None:
    """Written to temporary names and renamed, so that a crash leaves the previous rows or none."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "keys.parquet").unlink(missing_ok=True)  # written last: marks a complete set
    for f in sorted(fields(rows), key=lambda f: f.name == "keys"):
        tmp = directory / f".{f.name}.parquet.{os.getpid()}.tmp"  # two builds at once write apart
        getattr(rows, f.name).write_parquet(tmp, compression="lz4")
        tmp.replace(directory / f"{f.name}.parquet")


def load_paper_rows(directory: Path) -> PaperRows | None:
    """The rows save_paper_rows wrote, or None when there are none, they are incomplete or they
    cannot be read (every paper is then extracted again)."""
    if not (directory / "keys.parquet").is_file():
        return None
    try:
        return PaperRows(
            *(pl.read_parquet(directory / f"{f.name}.parquet", glob=False) for f in fields(PaperRows))
        )
    except (OSError, pl.exceptions.PolarsError):
        return None


def _extract_chunk(rows: list[tuple[str, str]]) -> tuple[pl.DataFrame, ...]:
    """Frames of mentions, abbreviations, links, results and capped papers for (paper_id,
    abstract_clean) pairs: frames, not Python rows, so that a million papers' rows never exist as
    Python objects at once."""
    lexicon = load_lexicon()
    mentions, abbreviations, links, results, capped = [], [], [], [], []
    for paper_id, text in rows:
        paper_links = find_links(text)
        found = extract_entities(text, lexicon, paper_links)
        capped.extend((paper_id, limit) for limit in found.capped)
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
                    m.evidence,
                )
            )
        abbreviations.extend((paper_id, a.short, a.long, a.start, a.end) for a in found.abbreviations)
        links.extend((paper_id, link.url, link.kind, link.start, link.end) for link in paper_links)
        spans = [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in found.mentions]
        paper_results = find_results(text, spans, limit=MAX_RESULTS + 1)  # one more tells a cut
        if len(paper_results) > MAX_RESULTS:
            capped.append((paper_id, "results"))
        results.extend((paper_id, *r) for r in paper_results[:MAX_RESULTS])
    return tuple(
        pl.DataFrame(data, schema=schema, orient="row")
        for data, schema in (
            (mentions, _MENTION_SCHEMA),
            (abbreviations, _ABBREVIATION_SCHEMA),
            (links, _LINK_SCHEMA),
            (results, _RESULT_SCHEMA),
            (capped, _CAPPED_SCHEMA),
        )
    )


def extract_all(
    papers: pl.DataFrame | pl.LazyFrame,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    previous: PaperRows | None = None,
    executor: Executor | None = None,
) -> Extraction:
    """Extract everything from papers (columns paper_id, abstract_clean).

    workers > 1 runs chunks of CHUNK_SIZE papers in that many processes; with `executor` (a Dask
    cluster's, see `engine.open_engine`) every chunk runs on it, `workers` of them at once. The
    output is the same.
    `progress(done, total)` is called after each chunk. With `previous` (the paper_rows of an
    earlier Extraction) a paper whose abstract_key is unchanged is not extracted again; the
    result equals that of extracting every paper. A LazyFrame is read here and its texts let go
    once they are extracted, so that they are not held while the rows are assembled; so are the
    kept rows of `previous` that are not reused, when the caller holds no other reference.
    """
    texts = papers.collect() if isinstance(papers, pl.LazyFrame) else papers
    # Read again, lazily, by the corpus pass: only the texts that hold a proposed name are kept.
    searched = papers if isinstance(papers, pl.LazyFrame) else papers.lazy()
    del papers
    keys = _abstract_keys(texts)
    reused = (
        previous.select(keys.join(previous.keys, on=["paper_id", "abstract_key"], how="semi"))
        if previous is not None
        else None
    )
    del previous  # the rows of papers that changed or went: not held while the new ones are found
    if reused is not None and reused.keys.is_empty():
        reused = None  # nothing to reuse, and rows of older code may not even have today's columns
    todo = texts.join(reused.keys, on="paper_id", how="anti") if reused is not None else texts
    del texts
    fresh = _extract_rows(todo, workers, progress, executor)
    del todo
    # Rows in paper order, each paper's rows in the order found: what a full extraction gives, and
    # what the fresh rows alone already are.
    order = keys.select("paper_id", pl.int_range(pl.len()).alias("_order"))

    def in_paper_order(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.join(order, on="paper_id").sort("_order", maintain_order=True).drop("_order")

    found = fresh if reused is None else PaperRows(keys, *map(in_paper_order, _concat_rows(reused, fresh)))
    rows = replace(found, keys=keys)
    mentions, entities = resolve(
        apply_corpus_names(rows.mentions, searched.select("paper_id", "abstract_clean"))
    )
    return Extraction(
        mentions=TABLES["mentions"].conform(mentions),
        entities=TABLES["entities"].conform(entities),
        abbreviations=TABLES["abbreviations"].conform(rows.abbreviations),
        links=TABLES["links"].conform(rows.links),
        results=TABLES["results"].conform(rows.results),
        paper_annotations=_paper_annotations(keys.select("paper_id"), mentions, rows.links),
        paper_rows=rows,
        reused_papers=0 if reused is None else reused.keys.height,
    )


def _concat_rows(reused: PaperRows, fresh: PaperRows) -> list[pl.DataFrame]:
    return [pl.concat([getattr(reused, f.name), getattr(fresh, f.name)]) for f in fields(PaperRows)[1:]]


def _extract_rows(
    papers: pl.DataFrame,
    workers: int,
    progress: Callable[[int, int], None] | None,
    executor: Executor | None = None,
) -> PaperRows:
    chunks = (
        list(zip(chunk["paper_id"].to_list(), chunk["abstract_clean"].fill_null("").to_list(), strict=True))
        for chunk in papers.iter_slices(CHUNK_SIZE)
    )
    if executor is not None:
        parts = _collect(_in_order(executor, chunks, 2 * workers), papers.height, progress)
    elif (workers := local_processes(workers)) > 1 and papers.height > CHUNK_SIZE:
        with local_pool(workers) as pool:
            parts = _collect(_in_order(pool, chunks, 2 * workers), papers.height, progress)
    else:
        parts = _collect(map(_extract_chunk, chunks), papers.height, progress)
    schemas = (_MENTION_SCHEMA, _ABBREVIATION_SCHEMA, _LINK_SCHEMA, _RESULT_SCHEMA, _CAPPED_SCHEMA)
    mentions, abbreviations, links, results, capped = (
        pl.concat([part[index] for part in parts]) if parts else pl.DataFrame(schema=schema)
        for index, schema in enumerate(schemas)
    )
    return PaperRows(
        keys=pl.DataFrame(schema={"paper_id": pl.String, "abstract_key": pl.String}),
        mentions=mentions,
        abbreviations=abbreviations,
        links=links,
        results=results,
        capped=capped,
    )


def _in_order(pool: Executor, chunks: Iterator[list], in_flight: int) -> Iterator[tuple]:
    """pool.map with at most in_flight chunks submitted: map would turn every chunk into a Python
    list (a million abstracts) before the first result."""
    pending: deque[Future] = deque()
    for chunk in chunks:
        pending.append(pool.submit(_extract_chunk, chunk))
        if len(pending) >= in_flight:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _collect(parts: Iterable[tuple], total: int, progress: Callable[[int, int], None] | None) -> list:
    collected, done = [], 0
    for part in parts:
        collected.append(part)
        done = min(total, done + CHUNK_SIZE)
        if progress:
            progress(done, total)
    return collected


def _paper_annotations(paper_ids: pl.DataFrame, mentions: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    proposed = (
        # What the paper builds: a metric or a task it defines is no method of it.
        mentions.filter((pl.col("role") == "proposed") & ~pl.col("entity_type").is_in(["metric", "task"]))
        .sort("paper_id", "start")
        .group_by("paper_id", maintain_order=True)
        .agg(pl.col("name").unique(maintain_order=True).alias("proposed_methods"))
    )
    code = (
        links.filter(pl.col("kind").is_in(["code", "project"]))
        .sort("paper_id", "start")
        .group_by("paper_id", maintain_order=True)
        # The URL to open: without the whitespace a line break may have left in it as written.
        .agg(pl.col("url").first().str.replace_all(r"\s", "").alias("code_url"))
    )
    return (
        paper_ids.join(proposed, on="paper_id", how="left")
        .join(code, on="paper_id", how="left")
        .with_columns(pl.col("proposed_methods").fill_null(pl.lit([], dtype=pl.List(pl.String))))
        .select("paper_id", "proposed_methods", "code_url")
    )
