"""The user's per-file mapping, `sources.toml` in the seeds directory, for shapes no reader knows.

    [files."my_export.csv"]     # the file's name in the seeds directory (exact, never a pattern)
    format = "csv"              # optional: csv, tsv, json, jsonl, parquet, bibtex or text
    delimiter = ";"             # optional, CSV and TSV: otherwise sniffed
    header = true               # optional, CSV and TSV: otherwise recognised
    venue = "ICML"              # optional: for records that name no venue
    year = 2024                 # optional: for records that name no year

    [files."my_export.csv".columns]   # field = column (or JSON key) holding it
    abstract = "Summary"
    title = "Paper Title"
    authors = "Writers"
    id = "Key"
    doi = "DOI"

The fields are those of `documents`: abstract, title, authors, doi, arxiv_id, openreview_id,
openalex_id, s2_corpus_id, url, published, keywords, venue, year, and id (the source's own key, used
in reject reasons). Columns not named here are kept in `documents.extra`.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.lib.readers.entries import inspect
from pipeline.lib.readers.fields import RECORD_FIELDS

MAPPING_FILE = "sources.toml"
FORMATS = ("text", "csv", "tsv", "json", "jsonl", "parquet", "bibtex")
MAPPABLE_FIELDS = ("abstract", "id", *RECORD_FIELDS)


class MappingError(ValueError):
    pass


@dataclass(frozen=True)
class FileMapping:
    format: str | None = None
    delimiter: str | None = None
    header: bool | None = None
    venue: str | None = None
    year: int | None = None
    columns: dict[str, str] = field(default_factory=dict)

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.__dict__, sort_keys=True).encode()).hexdigest()[:16]


def parse_mappings(text: str) -> dict[str, FileMapping]:
    """The mappings in a sources.toml text; a MappingError names what is wrong."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MappingError(f"{MAPPING_FILE} is not valid TOML: {error}") from None
    unknown = set(document) - {"files"}
    if unknown:
        raise MappingError(f'{MAPPING_FILE} has unknown top-level keys {sorted(unknown)}; use [files."NAME"]')
    mappings = {}
    for name, spec in (document.get("files") or {}).items():
        if not isinstance(spec, dict):
            raise MappingError(f"{MAPPING_FILE}: files.{name!r} must be a table")
        allowed = {"format", "delimiter", "header", "venue", "year", "columns"}
        extra = set(spec) - allowed
        if extra:
            raise MappingError(f"{MAPPING_FILE}: files.{name!r} has unknown keys {sorted(extra)}")
        if spec.get("format") is not None and spec["format"] not in FORMATS:
            raise MappingError(f"{MAPPING_FILE}: files.{name!r} format must be one of {', '.join(FORMATS)}")
        columns = spec.get("columns") or {}
        bad = set(columns) - set(MAPPABLE_FIELDS)
        if bad:
            raise MappingError(
                f"{MAPPING_FILE}: files.{name!r} maps unknown fields {sorted(bad)}; fields are "
                f"{', '.join(MAPPABLE_FIELDS)}"
            )
        mappings[name] = FileMapping(
            format=spec.get("format"),
            delimiter=spec.get("delimiter"),
            header=spec.get("header"),
            venue=spec.get("venue"),
            year=spec.get("year"),
            columns={k: str(v) for k, v in columns.items()},
        )
    return mappings


def load_mappings(seeds_dir: Path) -> dict[str, FileMapping]:
    """The seeds directory's mappings; none when it has no sources.toml or one that is invalid (the
    invalid file itself becomes a reject when it is read)."""
    path = seeds_dir / MAPPING_FILE
    if inspect(path, seeds_dir).problem:
        return {}
    try:
        return parse_mappings(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, MappingError):
        return {}
