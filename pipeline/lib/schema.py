"""The single source of truth for every published table.

Parquet schemas, polars schemas, DuckDB comments, the data dictionary, Dagster column schemas
and the Great Expectations suites are all derived from the declarations below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

import polars as pl
import pyarrow as pa

# A table's rows in memory or as a query over files: conform keeps which one it is given.
Frame = TypeVar("Frame", pl.DataFrame, pl.LazyFrame)

SCHEMA_VERSION = "1.2.0"

MATCH_KINDS = ("first", "id", "exact", "near", "title")
FORMATS = (
    "text",
    "csv",
    "tsv",
    "json",
    "jsonl",
    "parquet",
    "bibtex",
    "arxiv",
    "openreview",
    "paperlists",
    "openalex",
    "s2",
    "crossref",
)
ENTITY_TYPES = ("method", "model", "dataset", "metric", "task")
ROLES = ("proposed", "referenced")
LINK_KINDS = ("code", "project", "other")


@dataclass(frozen=True)
class Column:
    name: str
    dtype: pa.DataType
    description: str
    nullable: bool = True
    unique: bool = False
    allowed: tuple[str, ...] | None = None
    min_value: float | None = None
    max_value: float | None = None

    @property
    def sql_type(self) -> str:
        return _SQL_TYPES[self.dtype]


@dataclass(frozen=True)
class ForeignKey:
    column: str
    table: str
    ref_column: str


@dataclass(frozen=True)
class Table:
    name: str
    description: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = field(default_factory=tuple)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def arrow_schema(self) -> pa.Schema:
        return pa.schema(
            [pa.field(c.name, c.dtype, nullable=c.nullable) for c in self.columns],
            metadata={"description": self.description},
        )

    def polars_schema(self) -> dict[str, pl.DataType]:
        # Not `Schema.empty_table()`: pyarrow imports pandas for it, 40 MB in every step's process.
        empty = pl.from_arrow(pa.Table.from_batches([], schema=self.arrow_schema()))
        return dict(empty.schema)

    def empty_frame(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.polars_schema())

    def conform(self, frame: Frame) -> Frame:
        """Select the declared columns in order and cast them to the declared types."""
        present = frame.collect_schema().names()
        missing = [c for c in self.column_names if c not in present]
        if missing:
            raise ValueError(f"table {self.name!r} is missing columns {missing}")
        schema = self.polars_schema()
        return frame.select([pl.col(name).cast(schema[name]) for name in self.column_names])


_STR = pa.large_string()
_INT = pa.int32()
_FLOAT = pa.float64()
_BIGINT = pa.int64()
_BOOL = pa.bool_()
_STR_LIST = pa.large_list(pa.large_string())

_SQL_TYPES = {
    _STR: "VARCHAR",
    _INT: "INTEGER",
    _BIGINT: "BIGINT",
    _BOOL: "BOOLEAN",
    _FLOAT: "DOUBLE",
    _STR_LIST: "VARCHAR[]",
}


def _offset(name: str, description: str) -> Column:
    return Column(name, _INT, description, nullable=False, min_value=0)


def _record_columns(whose: str) -> tuple[Column, ...]:
    """The bibliographic fields a source may give, as documents carry them and papers fuse them."""
    return (
        Column("title", _STR, f"Title {whose} (NULL when the source has none)."),
        Column("authors", _STR_LIST, f"Author names {whose}, in order (NULL when the source has none)."),
        Column("doi", _STR, f"DOI {whose}, lower case, without resolver ('10.1000/xyz')."),
        Column("arxiv_id", _STR, f"arXiv id {whose}, without version ('2101.00001')."),
        Column("openreview_id", _STR, f"OpenReview forum id {whose}."),
        Column("openalex_id", _STR, f"OpenAlex work id {whose} ('W123...')."),
        Column("s2_corpus_id", _STR, f"Semantic Scholar corpus id {whose}."),
        Column("url", _STR, f"Landing page or forum link {whose}."),
        Column("published", _STR, f"Publication date {whose}: 'YYYY-MM-DD', 'YYYY-MM' or 'YYYY'."),
        Column("keywords", _STR_LIST, f"Keywords or categories {whose}."),
    )


# The bibliographic fields documents carry and papers fuse, in column order: readers, fusion and
# the paper_conflicts table take their names from here.
RECORD_FIELDS = tuple(column.name for column in _record_columns(""))
LIST_RECORD_FIELDS = tuple(column.name for column in _record_columns("") if column.dtype == _STR_LIST)
# The kinds of external id, each naming one work: shared, they merge occurrences; different, never.
STRONG_IDS = ("doi", "arxiv_id", "openreview_id", "s2_corpus_id", "openalex_id")


def _paper_fk() -> ForeignKey:
    return ForeignKey("paper_id", "papers", "paper_id")


def _paper_id_column() -> Column:
    return Column("paper_id", _STR, "The paper this row belongs to (papers.paper_id).", nullable=False)


DOCUMENTS = Table(
    "documents",
    "One row per abstract occurrence in an input file, with its exact raw text and line range.",
    (
        Column(
            "document_id",
            _STR,
            "Stable id of the occurrence: '<source_file>:<ordinal>'.",
            nullable=False,
            unique=True,
        ),
        Column("source_file", _STR, "Input file name relative to the seeds directory.", nullable=False),
        Column(
            "ordinal",
            _INT,
            "1-based position of the record in its file: the paragraph for text, the record for JSON, "
            "BibTeX and Parquet, the data row for CSV and TSV.",
            nullable=False,
            min_value=1,
        ),
        Column(
            "line_start",
            _INT,
            "Where the record starts (1-based): its first line for text and BibTeX, its line for JSON "
            "Lines, its data row for CSV and Parquet, its element for a JSON array.",
            nullable=False,
            min_value=1,
        ),
        Column(
            "line_end",
            _INT,
            "Where the record ends (1-based, inclusive), counted as line_start is.",
            nullable=False,
            min_value=1,
        ),
        Column(
            "locator",
            _STR,
            "The record's place in words: 'lines 3-5', 'line 12', 'row 7', 'entry smith24a', "
            "'element 3 of results'.",
            nullable=False,
        ),
        Column(
            "format",
            _STR,
            "The reader that read it: text, csv, tsv, json, jsonl, parquet, bibtex, or the recognised "
            "shape (arxiv, openreview, paperlists, openalex, s2, crossref).",
            nullable=False,
            allowed=FORMATS,
        ),
        Column("venue", _STR, "Venue from the record, else the file (header, @Proceedings, file name)."),
        Column(
            "year",
            _INT,
            "Year from the record, else the file; NULL when neither says.",
            min_value=1900,
            max_value=2100,
        ),
        Column(
            "venue_source",
            _STR,
            "Where the venue came from: 'header', 'record', 'journal-ref', 'invitation', "
            "'@proceedings entry', 'file name', 'sources.toml' ...",
        ),
        Column("year_source", _STR, "Where the year came from (as venue_source)."),
        Column(
            "raw_text",
            _STR,
            "The abstract exactly as the file has it: the paragraph for text, the field's value for "
            "records (OpenAlex's rebuilt from its inverted index, Crossref's without JATS tags).",
            nullable=False,
        ),
        *_record_columns("as the source gives it"),
        Column("extra", _STR, "The record's other fields, as a JSON object: nothing a source gives is lost."),
        Column("paper_id", _STR, "The paper this occurrence belongs to (papers.paper_id).", nullable=False),
        Column(
            "match",
            _STR,
            "How the occurrence joined its paper: 'first' (canonical occurrence), 'id' (a shared "
            "external id: DOI, arXiv, OpenReview, OpenAlex or S2), 'exact' (same normalised text), "
            "'near' (verified near duplicate) or 'title' (same title, rewritten abstract).",
            nullable=False,
            allowed=MATCH_KINDS,
        ),
        Column(
            "similarity",
            _FLOAT,
            "1.0 for first and exact; for near, id and title, the verified similarity of the abstract "
            "with the canonical occurrence's.",
            nullable=False,
            min_value=0.0,
            max_value=1.0,
        ),
    ),
    primary_key=("document_id",),
    foreign_keys=(_paper_fk(),),
)

PAPERS = Table(
    "papers",
    "One row per distinct paper: the canonical abstract, its clean text and what it proposes.",
    (
        Column(
            "paper_id",
            _STR,
            "Stable id derived from the normalised canonical text: the same abstract gets the same id "
            "on every run and machine.",
            nullable=False,
            unique=True,
        ),
        Column(
            "venue", _STR, "Venue of the canonical occurrence, else of the earliest occurrence that has one."
        ),
        Column(
            "year",
            _INT,
            "Year of the canonical occurrence, else of the earliest occurrence that has one.",
            min_value=1900,
            max_value=2100,
        ),
        Column("abstract", _STR, "Canonical text, markup kept, whitespace normalised.", nullable=False),
        Column(
            "abstract_clean",
            _STR,
            "Plain Unicode text: LaTeX rendered to Unicode, markdown emphasis and \\url{} removed, "
            "escapes resolved. Entity offsets point into this text.",
            nullable=False,
        ),
        Column("word_count", _INT, "Words in abstract_clean.", nullable=False, min_value=0),
        Column("n_documents", _INT, "Occurrences merged into this paper.", nullable=False, min_value=1),
        Column("source_files", _STR_LIST, "Distinct input files it occurs in, sorted.", nullable=False),
        Column(
            "proposed_methods",
            _STR_LIST,
            "Canonical names of what the paper introduces (method, model or dataset).",
            nullable=False,
        ),
        Column("code_url", _STR, "First code or project link in the abstract, NULL if none."),
        *_record_columns("fused from the paper's documents (the fusion rule is in pipeline/lib/fusion.py)"),
        Column(
            "sources",
            _STR_LIST,
            "Where the paper came from: 'format:file' of each of its documents, distinct and sorted.",
            nullable=False,
        ),
    ),
    primary_key=("paper_id",),
)

MENTIONS = Table(
    "mentions",
    "One row per entity mention in a paper's abstract_clean.",
    (
        _paper_id_column(),
        Column(
            "entity_type",
            _STR,
            "method, model, dataset, metric or task.",
            nullable=False,
            allowed=ENTITY_TYPES,
        ),
        Column("text", _STR, "Surface form, equal to abstract_clean[start:end].", nullable=False),
        Column(
            "name", _STR, "Canonical name (long form and acronym resolved to one entity).", nullable=False
        ),
        _offset("start", "0-based code-point offset of the mention in abstract_clean."),
        _offset("end", "End offset of the mention in abstract_clean (exclusive)."),
        Column(
            "role",
            _STR,
            "'proposed' when the paper introduces it, otherwise 'referenced'.",
            nullable=False,
            allowed=ROLES,
        ),
        Column("entity_id", _STR, "The catalog entry in entities.", nullable=False),
        Column(
            "evidence",
            _STR,
            "The extraction rule, and the cue word it keyed on, that made the role 'proposed' or "
            "'referenced' ('proposal_clause:introduce', 'cited_as_others'); null when no rule "
            "decided the role.",
        ),
    ),
    foreign_keys=(_paper_fk(), ForeignKey("entity_id", "entities", "entity_id")),
)

ENTITIES = Table(
    "entities",
    "The catalog of distinct entities across all papers.",
    (
        Column(
            "entity_id", _STR, "Stable id derived from type, name and expansion.", nullable=False, unique=True
        ),
        Column(
            "entity_type",
            _STR,
            "method, model, dataset, metric or task.",
            nullable=False,
            allowed=ENTITY_TYPES,
        ),
        Column("name", _STR, "Canonical name.", nullable=False),
        Column("aliases", _STR_LIST, "Every surface form seen, sorted.", nullable=False),
        Column("expansion", _STR, "Long form of an acronym, NULL if none."),
        Column("n_papers", _INT, "Papers that mention it.", nullable=False, min_value=1),
    ),
    primary_key=("entity_id",),
)

ABBREVIATIONS = Table(
    "abbreviations",
    "Short forms defined in an abstract ('Long Form (LF)' and similar patterns).",
    (
        _paper_id_column(),
        Column("short", _STR, "The short form, e.g. 'LDP'.", nullable=False),
        Column(
            "long", _STR, "The long form it stands for, e.g. 'local differential privacy'.", nullable=False
        ),
        _offset("start", "Start offset of the whole definition in abstract_clean."),
        _offset("end", "End offset of the whole definition in abstract_clean (exclusive)."),
    ),
    foreign_keys=(_paper_fk(),),
)

LINKS = Table(
    "links",
    "URLs written in an abstract.",
    (
        _paper_id_column(),
        Column(
            "url",
            _STR,
            "The URL as written, without trailing punctuation: url == abstract_clean[start:end]. A URL "
            "broken by a space (a line break in the source, 'https: //x.io') keeps that space; remove "
            "whitespace to open it (papers.code_url is already joined).",
            nullable=False,
        ),
        Column(
            "kind",
            _STR,
            "'code' (code hosts such as GitHub, GitLab, anonymous repositories), 'project' (project "
            "pages) or 'other'.",
            nullable=False,
            allowed=LINK_KINDS,
        ),
        _offset("start", "Start offset of the URL in abstract_clean."),
        _offset("end", "End offset of the URL in abstract_clean (exclusive)."),
    ),
    foreign_keys=(_paper_fk(),),
)

RESULTS = Table(
    "results",
    "Numeric claims: percentages, multipliers and scores, with what they measure when the sentence says.",
    (
        _paper_id_column(),
        Column("text", _STR, "Surface form, e.g. '5.1%' or '1.5-3×'.", nullable=False),
        Column("value", _FLOAT, "The number (the upper end of a range)."),
        Column("unit", _STR, "'%', '×', 'x' or another unit; NULL for a bare score."),
        Column("metric", _STR, "The metric the number measures, NULL when the sentence does not say."),
        Column("dataset", _STR, "The dataset it was measured on, NULL when the sentence does not say."),
        Column(
            "compared_to", _STR, "The system(s) it is compared with, NULL when the sentence does not say."
        ),
        _offset("start", "Start offset of the number in abstract_clean."),
        _offset("end", "End offset of the number in abstract_clean (exclusive)."),
        Column(
            "sentence",
            _STR,
            "The sentence the number is in; one over 2,000 characters is cut to the 2,000 around the "
            "number, with … in place of its first and/or last character where it was cut.",
            nullable=False,
        ),
    ),
    foreign_keys=(_paper_fk(),),
)

REJECTS = Table(
    "rejects",
    "Every piece of input that could not become a document, with the reason.",
    (
        Column("source_file", _STR, "Input file name relative to the seeds directory.", nullable=False),
        Column(
            "line_start",
            _INT,
            "First line of the rejected piece (1-based); 0 for a whole unreadable file.",
            nullable=False,
            min_value=0,
        ),
        Column(
            "line_end",
            _INT,
            "Last line of the rejected piece (1-based, inclusive).",
            nullable=False,
            min_value=0,
        ),
        Column("reason", _STR, "A clear, specific sentence saying why it was rejected.", nullable=False),
        Column(
            "raw_text", _STR, "The rejected text as read (NULL when the file could not be decoded at all)."
        ),
    ),
)

PAPER_CONFLICTS = Table(
    "paper_conflicts",
    "Every field on which a paper's documents disagree (two DOIs, two titles ...): one row per "
    "document and field, the value fused into papers marked chosen. Nothing that loses is dropped.",
    (
        _paper_id_column(),
        Column(
            "field",
            _STR,
            "The field: title, authors, doi, arxiv_id, openreview_id, openalex_id, s2_corpus_id, url, "
            "published or keywords.",
            nullable=False,
            allowed=RECORD_FIELDS,
        ),
        Column(
            "document_id", _STR, "The document giving this value (documents.document_id).", nullable=False
        ),
        Column(
            "value", _STR, "The value as the document gives it (a list joined with '; ').", nullable=False
        ),
        Column(
            "chosen",
            _BOOL,
            "Whether this value is the one in papers (compared case-insensitively).",
            nullable=False,
        ),
    ),
    foreign_keys=(_paper_fk(), ForeignKey("document_id", "documents", "document_id")),
)

INPUT_FILES = Table(
    "input_files",
    "One row per input file: checksum, encoding, line counts, what it became and every repair made.",
    (
        Column(
            "source_file",
            _STR,
            "Input file name relative to the seeds directory.",
            nullable=False,
            unique=True,
        ),
        Column(
            "format",
            _STR,
            "The reader chosen by extension and content: text, csv, tsv, json, jsonl, parquet, bibtex, "
            "or 'mapping' for sources.toml; NULL when no reader could take the file.",
        ),
        Column("compression", _STR, "'gzip' for a compressed file, NULL otherwise."),
        Column(
            "status",
            _STR,
            "What became of the file: 'read', 'read with rejects', 'read in part' (damaged after some "
            "records), 'no documents', 'rejected' (see rejects), 'mapping' or 'skipped: hidden file'.",
            nullable=False,
        ),
        Column("size_bytes", _BIGINT, "Size of the file in bytes, NULL when it is not a regular file."),
        Column("sha256", _STR, "SHA-256 of the file's bytes (empty when it could not be read)."),
        Column(
            "encoding",
            _STR,
            "How the text was decoded: utf-8, utf-16, 'utf-8 with Windows-1252 lines', or binary.",
        ),
        Column("n_lines", _INT, "Lines in the file.", nullable=False, min_value=0),
        Column(
            "nonblank_lines", _INT, "Lines with something other than whitespace.", nullable=False, min_value=0
        ),
        Column(
            "header_line",
            _INT,
            "Line of the 'VENUE YEAR Papers' header, NULL when the file has none.",
            min_value=1,
        ),
        Column("venue", _STR, "The file's venue (header, @Proceedings entry, file name), NULL if none."),
        Column("year", _INT, "The file's year, as venue; NULL if none.", min_value=1900, max_value=2100),
        Column(
            "n_records",
            _INT,
            "Records in the file (paragraphs for text); each is a document or a reject.",
            nullable=False,
            min_value=0,
        ),
        Column("venue_source", _STR, "Where the file's venue and year came from (header, file name ...)."),
        Column(
            "n_documents",
            _INT,
            "Abstracts taken from the file (rows in documents).",
            nullable=False,
            min_value=0,
        ),
        Column("n_rejects", _INT, "Pieces of the file in rejects.", nullable=False, min_value=0),
        Column(
            "repairs",
            _STR_LIST,
            "Every repair made while reading the file (encoding, byte order mark, missing header, control "
            "or zero-width characters, HTML entities, unbalanced LaTeX), naming the document it touched.",
            nullable=False,
        ),
    ),
    primary_key=("source_file",),
)

TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        DOCUMENTS,
        PAPERS,
        PAPER_CONFLICTS,
        MENTIONS,
        ENTITIES,
        ABBREVIATIONS,
        LINKS,
        RESULTS,
        REJECTS,
        INPUT_FILES,
    )
}
