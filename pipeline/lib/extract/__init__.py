"""Entity extraction: from each paper's abstract_clean to mentions, a catalog of entities,
abbreviations, links and numeric results.

What a paper's rows hold depends on its clean abstract alone (rules, lexicons, compiled
patterns), so ``extract_texts`` finds them once per distinct text, keyed by ``text_key``, in
chunks that an executor runs in other processes or on other machines (``TextRows``); a build does
this per input file, for the texts no other file gave. ``assemble`` then gives each paper the
rows of its text, adds what the corpus knows (``knowledge``) and builds the catalog once.
``extract_all`` does both for a frame of papers.

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

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

import polars as pl
import xxhash

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
from pipeline.lib.versions import source_digest

__all__ = [
    "LIMITS",
    "MAX_DEFINITIONS",
    "MAX_ENTITIES",
    "MAX_MENTIONS",
    "MAX_RESULTS",
    "MAX_SENTENCE",
    "TEXT_KEY",
    "Extraction",
    "TextRows",
    "assemble",
    "extract_all",
    "extract_many",
    "extract_texts",
    "extraction_version",
    "text_keys",
]

# Papers per task when work is split across processes: large enough to amortise the pickling.
CHUNK_SIZE = 2000
# The names of the limits in Extraction.capped, in the order a paper's rows list them.
LIMITS = (*ENTITY_LIMITS, "results")


# The column naming a distinct clean text in TextRows: a digest of the text.
TEXT_KEY = "text_key"
# Texts hashed at a time by text_keys.
KEY_SLICE = 50_000


@dataclass(frozen=True)
class Extraction:
    mentions: pl.DataFrame
    entities: pl.DataFrame
    abbreviations: pl.DataFrame
    links: pl.DataFrame
    results: pl.DataFrame
    paper_annotations: pl.DataFrame  # paper_id, proposed_methods, code_url
    capped: pl.DataFrame  # paper_id, limit: a row for each of LIMITS that cut a paper short

    @property
    def capped_papers(self) -> list[str]:
        """The papers that found more mentions than MAX_MENTIONS and kept only the first ones."""
        return self.papers_capped("mentions")

    def papers_capped(self, limit: str) -> list[str]:
        """The papers that one of LIMITS cut short: "definitions", "entities", "mentions" or
        "results"."""
        return self.capped.filter(pl.col("limit") == limit)["paper_id"].to_list()


@dataclass(frozen=True)
class TextRows:
    """What the per-text stage found, before the catalog, keyed by TEXT_KEY instead of paper_id:
    the rows of each text in the order they were found, and `capped` with a row (text_key, limit)
    for each of LIMITS that cut a text short."""

    mentions: pl.DataFrame
    abbreviations: pl.DataFrame
    links: pl.DataFrame
    results: pl.DataFrame
    capped: pl.DataFrame

    @classmethod
    def empty(cls) -> TextRows:
        return cls(*(pl.DataFrame(schema=_keyed(schema)) for schema in _ROW_SCHEMAS))

    @classmethod
    def concat(cls, parts: Iterable[TextRows]) -> TextRows:
        parts = list(parts)
        if not parts:
            return cls.empty()
        return cls(*(pl.concat([getattr(part, f.name) for part in parts]) for f in fields(cls)))

    def of(self, keys: pl.DataFrame) -> TextRows:
        """The rows of the texts in `keys` (a TEXT_KEY column)."""
        return TextRows(*(frame.join(keys, on=TEXT_KEY, how="semi") for frame in self.frames().values()))

    def frames(self) -> dict[str, pl.DataFrame]:
        """Each frame by its name: what a build stages per input file."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_frames(cls, frames: dict[str, pl.DataFrame]) -> TextRows:
        return cls(**{f.name: frames[f.name] for f in fields(cls)})


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
_ROW_SCHEMAS = (_MENTION_SCHEMA, _ABBREVIATION_SCHEMA, _LINK_SCHEMA, _RESULT_SCHEMA, _CAPPED_SCHEMA)


def _keyed(schema: dict) -> dict:
    """The schema with TEXT_KEY where the paper's rows have paper_id."""
    return {TEXT_KEY if name == "paper_id" else name: dtype for name, dtype in schema.items()}


@cache
def extraction_version() -> str:
    """Changes whenever extraction code or a lexicon changes, so that staged TextRows go stale."""
    return source_digest([*Path(__file__).parent.glob("*.py"), *LEXICON_DIR.glob("*.txt")])


def text_keys(texts: pl.Series) -> pl.Series:
    """TEXT_KEY of each clean text (a null text is the empty one): a 128-bit digest of its UTF-8,
    a slice at a time, so that a million texts never exist as Python strings at once."""
    texts = texts.fill_null("")
    keys = [
        xxhash.xxh3_128_hexdigest(text.encode())
        for start in range(0, len(texts), KEY_SLICE)
        for text in texts.slice(start, KEY_SLICE).to_list()
    ]
    return pl.Series(TEXT_KEY, keys, dtype=pl.String)


def _extract_chunk(rows: list[tuple[str, str]]) -> TextRows:
    """The rows of (text_key, abstract_clean) pairs: frames, not Python rows, so that a million
    texts' rows never exist as Python objects at once."""
    lexicon = load_lexicon()
    mentions, abbreviations, links, results, capped = [], [], [], [], []
    # An entity's every mention repeats its name and expansion, and known names recur across
    # papers: each distinct one is normalised once a chunk.
    name_keys: dict[str | None, str] = {}

    def name_key(name: str | None) -> str:
        key = name_keys.get(name)
        if key is None:
            key = name_keys[name] = normalise_name(name)
        return key

    for text_key, text in rows:
        text_links = find_links(text)
        found = extract_entities(text, lexicon, text_links)
        capped.extend((text_key, limit) for limit in found.capped)
        for m in found.mentions:
            mentions.append(
                (
                    text_key,
                    m.entity_type,
                    m.text,
                    m.name,
                    m.start,
                    m.end,
                    m.role,
                    m.expansion,
                    name_key(m.name),
                    name_key(m.expansion),
                    m.evidence,
                )
            )
        abbreviations.extend((text_key, a.short, a.long, a.start, a.end) for a in found.abbreviations)
        links.extend((text_key, link.url, link.kind, link.start, link.end) for link in text_links)
        spans = [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in found.mentions]
        paper_results = find_results(text, spans, limit=MAX_RESULTS + 1)  # one more tells a cut
        if len(paper_results) > MAX_RESULTS:
            capped.append((text_key, "results"))
        results.extend((text_key, *r) for r in paper_results[:MAX_RESULTS])
    return TextRows(
        *(
            _frame(data, _keyed(schema))
            for data, schema in zip(
                (mentions, abbreviations, links, results, capped), _ROW_SCHEMAS, strict=True
            )
        )
    )


def _frame(rows: list[tuple], schema: dict) -> pl.DataFrame:
    """The rows as a frame of the schema, built a column at a time: several times faster than
    from the rows themselves (orient="row")."""
    columns = list(zip(*rows, strict=True)) or [()] * len(schema)
    return pl.DataFrame(
        [
            pl.Series(name, column, dtype=dtype)
            for (name, dtype), column in zip(schema.items(), columns, strict=True)
        ]
    )


def extract_all(
    papers: pl.DataFrame | pl.LazyFrame, workers: int = 1, executor: Executor | None = None
) -> Extraction:
    """Extract everything from papers (columns paper_id, abstract_clean): each distinct text once
    (`extract_texts`), then `assemble`. Chunks run on `executor` when given, else in `workers`
    processes when there is more than one; the output is the same."""
    texts = papers.collect() if isinstance(papers, pl.LazyFrame) else papers
    keyed = texts.select("paper_id", text_keys(texts["abstract_clean"]), "abstract_clean")
    rows = extract_texts(keyed.select(TEXT_KEY, "abstract_clean"), workers, executor)
    texts_of_papers = keyed.lazy().select("paper_id", "abstract_clean")
    return assemble(keyed.select("paper_id", TEXT_KEY), rows, texts_of_papers)


def extract_texts(texts: pl.DataFrame, workers: int = 1, executor: Executor | None = None) -> TextRows:
    """The rows of each distinct text (columns TEXT_KEY, abstract_clean), in the order of the
    texts: chunks of CHUNK_SIZE on `executor` (a Dask cluster's or a pool, `workers` of them at
    once), or in `workers` local processes (none on a Dask worker, whose processes may have no
    children)."""
    if executor is None and (local := local_processes(workers)) > 1 and texts.height > CHUNK_SIZE:
        with local_pool(local) as pool:
            return extract_texts(texts, local, pool)
    ((_, _, rows),) = extract_many([("", lambda: texts)], workers, executor)
    return rows


def extract_many(
    named_texts: Iterable[tuple[str, Callable[[], pl.DataFrame]]],
    workers: int = 1,
    executor: Executor | None = None,
) -> Iterator[tuple[str, pl.DataFrame, TextRows]]:
    """For each (name, a function that loads its texts: TEXT_KEY and abstract_clean), in order: the
    name, its distinct texts and their rows. Chunks of CHUNK_SIZE go to `executor` (in this process
    without one) with at most twice `workers` in flight across names: no name waits for the last
    chunk of the one before it, and a name's texts are loaded only when its first chunk is due."""
    pending: deque[tuple[str, pl.DataFrame, Future | None, bool]] = deque()
    found: list[TextRows] = []

    def submit(chunk: list[tuple[str, str]]) -> Future:
        if executor is not None:
            return executor.submit(_extract_chunk, chunk)
        done: Future = Future()
        done.set_result(_extract_chunk(chunk))
        return done

    def settle() -> tuple[str, pl.DataFrame, TextRows] | None:
        name, texts, future, last = pending.popleft()
        if future is not None:
            found.append(future.result())
        if not last:
            return None
        rows = TextRows.concat(found) if found else TextRows.empty()
        found.clear()
        return name, texts, rows

    def pieces() -> Iterator[tuple[str, pl.DataFrame, list | None, bool]]:
        # Lazily: a chunk becomes Python strings only when it is submitted.
        for name, load in named_texts:
            texts = load().unique(TEXT_KEY, keep="first", maintain_order=True)
            n_chunks = -(-texts.height // CHUNK_SIZE)
            if n_chunks == 0:
                yield name, texts, None, True
            for index, chunk in enumerate(texts.iter_slices(CHUNK_SIZE)):
                keys, bodies = chunk[TEXT_KEY].to_list(), chunk["abstract_clean"].fill_null("").to_list()
                yield name, texts, list(zip(keys, bodies, strict=True)), index == n_chunks - 1

    for name, texts, pairs, last in pieces():
        pending.append((name, texts, None if pairs is None else submit(pairs), last))
        while len(pending) > 2 * max(1, workers):
            if (settled := settle()) is not None:
                yield settled
    while pending:
        if (settled := settle()) is not None:
            yield settled


def assemble(papers: pl.DataFrame, rows: TextRows, texts: pl.LazyFrame) -> Extraction:
    """The tables of the papers (columns paper_id, TEXT_KEY, in paper order) from the rows of their
    texts: each paper's rows in the order they were found, papers in the order given (papers that
    share a text each get its rows), what the corpus knows added (`texts`: paper_id and
    abstract_clean, read lazily), and the catalog built over all. A caller that passes `rows`
    without holding them lets each table of them go once it is used."""
    order = papers.select("paper_id", TEXT_KEY, pl.int_range(pl.len()).alias("_order"))

    def by_paper(frame: pl.DataFrame) -> pl.DataFrame:
        # The rows each paper gets, found on TEXT_KEY alone, then copied a column at a time, each
        # column of `frame` let go once copied: a join of the whole frame would hold it twice.
        picked = (
            frame.select(TEXT_KEY)
            .with_row_index("_row")
            .join(order, on=TEXT_KEY, how="inner", maintain_order="left")
        )
        # Rows gathered file by file come in paper order already when the files are in input order.
        if not picked["_order"].is_sorted():
            picked = picked.sort("_order", maintain_order=True)
        columns = [picked.get_column("paper_id")]
        for name in frame.columns:
            if name != TEXT_KEY:
                columns.append(frame.get_column(name).gather(picked["_row"]))
            frame = frame.drop(name)
        return pl.DataFrame(columns)

    # Each table of rows is let go as soon as its papers' table is made (when the caller passed the
    # rows without keeping them): a million papers' rows are gigabytes.
    frames = rows.frames()
    del rows
    tables = {name: by_paper(frames.pop(name)) for name in list(frames)}
    mentions, abbreviations, links, results, capped = tables.values()
    del tables
    # Handed over, not kept here: apply_corpus_names lets them go as it reorders them.
    handed = [mentions]
    del mentions
    mentions, entities = resolve(apply_corpus_names(handed.pop(), texts))
    return Extraction(
        mentions=TABLES["mentions"].conform(mentions),
        entities=TABLES["entities"].conform(entities),
        abbreviations=TABLES["abbreviations"].conform(abbreviations),
        links=TABLES["links"].conform(links),
        results=TABLES["results"].conform(results),
        paper_annotations=_paper_annotations(papers.select("paper_id"), mentions, links),
        capped=capped,
    )


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
