"""A record of a structured input file, and how it becomes a document row or a reject row.

Readers of records (CSV, JSON, BibTeX, Parquet ...) build `Record`s; `RecordSink` numbers them,
applies the file's venue and year where a record has none, and turns each one into exactly one
document or one reject, so that every record of every file is accounted for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import orjson

from pipeline.lib.readers import fields as f

MIN_ABSTRACT_WORDS = 5
MAX_ABSTRACT_WORDS = 2000


@dataclass
class Record:
    """One record as read: where it is, its abstract, its known fields and everything else."""

    line_start: int
    line_end: int
    locator: str
    abstract: str | None
    values: dict = field(default_factory=dict)
    extra: dict | None = None
    key: str | None = None
    # False when no field of the record is known to hold an abstract: an unknown shape.
    shape_known: bool = True


@dataclass
class SourceDefaults:
    """Venue and year for the records that carry none, and where they were found."""

    venue: str | None = None
    year: int | None = None
    venue_source: str | None = None
    year_source: str | None = None


def _json_default(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return str(value)


def to_json(value) -> str:
    return orjson.dumps(value, default=_json_default, option=orjson.OPT_NON_STR_KEYS).decode()


def _describe(record: Record) -> str:
    title = record.values.get("title")
    ident = record.key or next((record.values[k] for k in f.STRONG_IDS if record.values.get(k)), None)
    parts = [f"id {ident}" if ident else "no id", f"title {title[:120]!r}" if title else "no title"]
    return ", ".join(parts)


class RecordSink:
    """Numbers a file's records and keeps its documents and rejects until the reader takes a batch."""

    def __init__(self, source_file: str, format_name: str, defaults: SourceDefaults):
        self.source_file = source_file
        self.format = format_name
        self.defaults = defaults
        self.documents: list[dict] = []
        self.rejects: list[dict] = []
        self.n_records = 0
        self.n_documents = 0
        self.n_rejects = 0
        self.notes: list[str] = []  # repairs the reader made, for the file's input_files row

    def reject(self, line_start: int, line_end: int, reason: str, raw_text: str | None) -> None:
        self.n_records += 1
        self.n_rejects += 1
        self.rejects.append(
            {
                "source_file": self.source_file,
                "line_start": line_start,
                "line_end": line_end,
                "reason": reason,
                "raw_text": raw_text,
            }
        )

    def add(self, record: Record, format_name: str | None = None, ordinal: int | None = None) -> None:
        abstract = record.abstract if isinstance(record.abstract, str) else None
        words = len(abstract.split()) if abstract else 0
        problem = None
        if not record.shape_known:
            fields = ", ".join(sorted(map(str, (record.extra or {}).keys()))[:12]) or "none"
            problem = (
                f"unknown record shape: no field is named like an abstract, title or id (fields: "
                f"{fields}); name the abstract's field in sources.toml"
            )
        elif words == 0:
            problem = f"no abstract: {_describe(record)}"
        elif words < MIN_ABSTRACT_WORDS:
            problem = f"abstract has {words} words, too few for an abstract: {_describe(record)}"
        elif words > MAX_ABSTRACT_WORDS:
            problem = (
                f"abstract has {words} words, more than the {MAX_ABSTRACT_WORDS} an abstract has: "
                f"{_describe(record)}"
            )
        if problem:
            # The fields go with the reject: a record without an abstract (a Semantic Scholar
            # `papers` line) still describes the paper that shares its id (see assemble).
            raw = {
                "abstract": abstract,
                "format": format_name or self.format,
                **{k: v for k, v in record.values.items() if v is not None},
            }
            self.reject(record.line_start, record.line_end, problem, to_json(raw))
            return
        self.n_records += 1
        self.n_documents += 1
        ordinal = ordinal or self.n_records
        values = record.values
        venue, year = values.get("venue"), values.get("year")
        venue_source = values.get("venue_source") or ("record" if venue else None)
        year_source = values.get("year_source") or ("record" if year else None)
        if venue is None and self.defaults.venue:
            venue, venue_source = self.defaults.venue, self.defaults.venue_source
        if year is None and self.defaults.year:
            year, year_source = self.defaults.year, self.defaults.year_source
        self.documents.append(
            {
                "document_id": f"{self.source_file}:{ordinal}",
                "source_file": self.source_file,
                "ordinal": ordinal,
                "line_start": record.line_start,
                "line_end": record.line_end,
                "locator": record.locator,
                "format": format_name or self.format,
                "venue": venue,
                "year": year,
                "venue_source": venue_source,
                "year_source": year_source,
                "raw_text": abstract,
                "title": values.get("title"),
                "authors": values.get("authors"),
                "doi": values.get("doi"),
                "arxiv_id": values.get("arxiv_id"),
                "openreview_id": values.get("openreview_id"),
                "openalex_id": values.get("openalex_id"),
                "s2_corpus_id": values.get("s2_corpus_id"),
                "url": values.get("url"),
                "published": values.get("published"),
                "keywords": values.get("keywords"),
                "extra": to_json(record.extra) if record.extra else None,
            }
        )

    def take(self) -> tuple[list[dict], list[dict]]:
        documents, rejects = self.documents, self.rejects
        self.documents, self.rejects = [], []
        return documents, rejects
