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

SCHEMA_VERSION = "1.0.0"

MATCH_KINDS = ("first", "exact", "near")
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
        empty = pl.from_arrow(self.arrow_schema().empty_table())
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
_STR_LIST = pa.large_list(pa.large_string())

_SQL_TYPES = {_STR: "VARCHAR", _INT: "INTEGER", _FLOAT: "DOUBLE", _STR_LIST: "VARCHAR[]"}


def _offset(name: str, description: str) -> Column:
    return Column(name, _INT, description, nullable=False, min_value=0)


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
        Column("ordinal", _INT, "1-based position of the abstract in its file.", nullable=False, min_value=1),
        Column(
            "line_start",
            _INT,
            "First line of the paragraph in the file (1-based).",
            nullable=False,
            min_value=1,
        ),
        Column(
            "line_end",
            _INT,
            "Last line of the paragraph in the file (1-based, inclusive).",
            nullable=False,
            min_value=1,
        ),
        Column("venue", _STR, "Venue from the file header, NULL when the file has none."),
        Column(
            "year",
            _INT,
            "Year from the file header, NULL when the file has none.",
            min_value=1900,
            max_value=2100,
        ),
        Column("raw_text", _STR, "The paragraph exactly as it is in the file.", nullable=False),
        Column("paper_id", _STR, "The paper this occurrence belongs to (papers.paper_id).", nullable=False),
        Column(
            "match",
            _STR,
            "How the occurrence joined its paper: 'first' (canonical occurrence), 'exact' (same "
            "normalised text) or 'near' (verified near duplicate).",
            nullable=False,
            allowed=MATCH_KINDS,
        ),
        Column(
            "similarity",
            _FLOAT,
            "1.0 for first and exact; for near, the verified Jaccard similarity of word shingles "
            "with the canonical occurrence.",
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
        Column("venue", _STR, "Venue of the canonical occurrence."),
        Column("year", _INT, "Year of the canonical occurrence.", min_value=1900, max_value=2100),
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
            "The URL as written, without trailing punctuation; a URL broken by a space (a line break "
            "in the source) is joined, so url equals abstract_clean[start:end] with whitespace removed.",
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
        Column("sentence", _STR, "The sentence the number is in.", nullable=False),
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
        Column("sha256", _STR, "SHA-256 of the file's bytes (empty when it could not be read)."),
        Column("encoding", _STR, "How the bytes were decoded: utf-8, utf-16, cp1252, latin-1, or binary."),
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
        Column("venue", _STR, "Venue from the header, NULL when the file has none."),
        Column(
            "year", _INT, "Year from the header, NULL when the file has none.", min_value=1900, max_value=2100
        ),
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
    for t in (DOCUMENTS, PAPERS, MENTIONS, ENTITIES, ABBREVIATIONS, LINKS, RESULTS, REJECTS, INPUT_FILES)
}
