"""Turn parsed occurrences into the documents and papers tables (clean, deduplicate, aggregate)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import polars as pl
from polars.io.plugins import register_io_source

from pipeline.lib import clean, inputs, parse
from pipeline.lib.clean import clean_abstract, normalise_whitespace
from pipeline.lib.dedup import (
    Signatures,
    TextSource,
    deduplicate,
    deduplicate_signed,
    sign_texts,
    summarise,
)
from pipeline.lib.extract import TEXT_KEY, text_keys
from pipeline.lib.fusion import FUSED_FIELDS, LIST_FIELDS, fuse_papers
from pipeline.lib.inputs import ParsedSeeds, read_file
from pipeline.lib.memory import release_unused_memory
from pipeline.lib.merge import merge_occurrences
from pipeline.lib.readers import bibtex, entries, fields, jsonfiles, mapping, read, records, shapes, tables
from pipeline.lib.readers.mapping import FileMapping, load_mappings
from pipeline.lib.schema import DOCUMENTS, PAPER_CONFLICTS, PAPERS, STRONG_IDS
from pipeline.lib.versions import source_digest


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


READER_MODULES = (bibtex, entries, fields, jsonfiles, mapping, read, records, shapes, tables)


@cache
def preparation_version() -> str:
    """Changes whenever a reader, the parser or the cleaner changes, so staged per-file results go stale."""
    return source_digest((parse, clean, inputs, *READER_MODULES))


@dataclass(frozen=True)
class PrepareJob:
    path: Path
    seeds_dir: Path
    target: Path | None = None
    # The seeds directory's sources.toml, read once for all its files; None reads it for this one.
    mappings: Mapping[str, FileMapping] | None = None


def prepare_file(job: PrepareJob | Path) -> ParsedSeeds:
    """One input file read, with `abstract` and `abstract_clean` for each of its documents; written
    to the job's target when it has one."""
    if isinstance(job, Path):
        job = PrepareJob(job, job.parent)
    mappings = load_mappings(job.seeds_dir) if job.mappings is None else job.mappings
    return read_file(job.path, job.seeds_dir, mappings, with_clean_text, job.target)


# The columns of the occurrences that deduplication and merging read: not the raw texts, which
# only the tables it writes carry (joined in by `documents_table` and `canonical_papers`).
MATCH_COLUMNS = ("document_id", "source_file", "ordinal", "abstract_clean", "title", *STRONG_IDS)
# The same without the clean texts, which signed occurrences in file order need only for the
# candidate pairs dedup verifies (`texts_by_row`): at a million abstracts they are gigabytes.
MATCH_KEYS = tuple(column for column in MATCH_COLUMNS if column != "abstract_clean")


def in_file_order(occurrences: pl.DataFrame) -> bool:
    keys = occurrences.select("source_file", "ordinal")
    return keys.equals(keys.sort(keys.columns))


def _file_ordered(occurrences: pl.DataFrame) -> pl.DataFrame:
    # Collected files arrive in this order already; sorting would copy every text for nothing.
    return occurrences if in_file_order(occurrences) else occurrences.sort("source_file", "ordinal")


# Rows of the clean texts read at a time by `texts_by_row`: one scan filtering the whole column
# held 1.1 GB more to read 110,000 of a million abstracts (the step's peak), a slice 0.36 GB.
TEXT_SLICE_ROWS = 65_536


def texts_by_row(occurrences: pl.LazyFrame) -> TextSource:
    """The clean texts of given rows of the occurrences, read from them when asked for: a slice of
    TEXT_SLICE_ROWS rows at a time, only those that hold a row asked for, keeping only those rows."""

    def texts_of(rows: np.ndarray) -> pl.Series:
        if len(rows) == 0:  # nothing to read: the column is not scanned
            return pl.Series("abstract_clean", [], dtype=pl.String)
        order = np.argsort(rows, kind="stable")
        ascending = rows[order].astype(np.int64)
        column = occurrences.select("abstract_clean")
        pieces = []
        for start in np.unique(ascending // TEXT_SLICE_ROWS).tolist():
            start *= TEXT_SLICE_ROWS
            lo, hi = np.searchsorted(ascending, [start, start + TEXT_SLICE_ROWS])
            texts = column.slice(start, TEXT_SLICE_ROWS).collect().get_column("abstract_clean")
            pieces.append(texts.gather(ascending[lo:hi] - start))
        # Back from ascending rows to the order asked for.
        return pl.concat(pieces).gather(np.argsort(order))

    return texts_of


def match_documents(
    occurrences: pl.DataFrame, signatures: Signatures | None = None, texts_of: TextSource | None = None
) -> pl.DataFrame:
    """The paper of every occurrence (columns MATCH_COLUMNS), in file order: document_id,
    source_file, ordinal, paper_id, match and similarity. Abstracts are matched by dedup, then
    shared ids and titles merge across sources (`merge.merge_occurrences`). `signatures` (from
    `file_signatures`) are those of the occurrences in file order. Occurrences of MATCH_KEYS only
    come in file order with their signatures and `texts_of` (their texts by row)."""
    if "abstract_clean" in occurrences.columns:
        ordered = _file_ordered(occurrences)
        texts = ordered.select("document_id", pl.col("abstract_clean").alias("clean_text"))
        text_matches = deduplicate(texts, signatures=signatures)
        texts_of = None
    elif signatures is None or texts_of is None or not in_file_order(occurrences):
        raise ValueError("occurrences without their texts need signatures and texts, in file order")
    else:
        ordered = occurrences
        ids = ordered.get_column("document_id")
        text_matches = deduplicate_signed(ids, signatures, texts_of)
    # Occurrences that say nothing of titles and ids (abstracts alone) match by their text.
    ordered = ordered.with_columns(
        pl.lit(None, pl.String).alias(name) for name in ("title", *STRONG_IDS) if name not in ordered.columns
    )
    matches = merge_occurrences(
        ordered, text_matches.select("document_id", "paper_id", "match", "similarity"), texts_of=texts_of
    )
    # One row per input row, in input order (merge's contract): columns side by side, no join.
    return ordered.select("document_id", "source_file", "ordinal").with_columns(
        matches.select("paper_id", "match", "similarity")
    )


def _texts_in_file_order(
    occurrences: pl.DataFrame, texts_of: TextSource | None
) -> tuple[pl.DataFrame, TextSource]:
    """The occurrences in file order and their texts by row: of their own column when they have
    it, else `texts_of`, which needs the occurrences in file order already."""
    if "abstract_clean" in occurrences.columns:
        ordered = _file_ordered(occurrences)
        return ordered, ordered.get_column("abstract_clean").gather
    if texts_of is None or not in_file_order(occurrences):
        raise ValueError("occurrences without their texts need their texts by row, in file order")
    return occurrences, texts_of


def _file_runs(ordered: pl.DataFrame) -> list[tuple[str, int, int]]:
    """(source file, first row, rows) of each file's run of occurrences in file order."""
    runs = []
    start = 0
    for length, name in ordered.select(pl.col("source_file").rle()).unnest("source_file").iter_rows():
        runs.append((name, start, length))
        start += length
    return runs


def file_signatures(
    occurrences: pl.DataFrame, staged: Mapping[str, Path], texts_of: TextSource | None = None
) -> tuple[Signatures, list[str]]:
    """The dedup signatures of the occurrences (columns MATCH_COLUMNS, or MATCH_KEYS in file order
    with `texts_of`) in file order, and the files whose texts were signed here: those without a
    part in `staged` (source file to the signatures its map wrote, in the order of its documents'
    ordinals) or with one that is not of their texts."""
    ordered, texts_of = _texts_in_file_order(occurrences, texts_of)
    runs = _file_runs(ordered)
    # One file's signatures are all of them (an arXiv snapshot): not copied into a second array.
    signatures = None if len(runs) == 1 else Signatures.empty(ordered.height)
    signed = []
    for name, start, length in runs:
        path = staged.get(name)
        part = Signatures.read(path) if path is not None else None
        if part is None or len(part) != length:
            part = sign_texts(texts_of(np.arange(start, start + length)))
            signed.append(name)
        if signatures is None:
            signatures = part
        else:
            signatures.put(start, part)
    return signatures if signatures is not None else Signatures.empty(0), signed


def _read_text_keys(path: Path | None) -> pl.DataFrame | None:
    if path is None:
        return None
    try:
        return pl.read_parquet(path, columns=["document_id", TEXT_KEY], glob=False)
    except (OSError, pl.exceptions.PolarsError):
        return None


def file_text_keys(
    occurrences: pl.DataFrame, staged: Mapping[str, Path], texts_of: TextSource | None = None
) -> pl.DataFrame:
    """document_id and TEXT_KEY of every occurrence (columns MATCH_COLUMNS, or MATCH_KEYS in file
    order with `texts_of`), in file order: a file's from the part its map wrote (`staged`: source
    file to its text_keys part) when that part keys the file's documents in order, else hashed
    here from their texts. Hashing a million texts again took 10 s of CPU per build."""
    ordered, texts_of = _texts_in_file_order(occurrences, texts_of)
    ids = ordered.get_column("document_id")
    parts = [pl.DataFrame(schema={"document_id": pl.String, TEXT_KEY: pl.String})]
    for name, start, length in _file_runs(ordered):
        own = ids.slice(start, length)
        part = _read_text_keys(staged.get(name))
        if part is None or not part.get_column("document_id").equals(own):
            part = pl.DataFrame([own, text_keys(texts_of(np.arange(start, start + length)))])
        parts.append(part)
    return pl.concat(parts)


def _in_file_order(
    occurrences: pl.LazyFrame, matches: pl.DataFrame, side: pl.DataFrame, in_slices: bool = False
) -> pl.LazyFrame:
    """The occurrences of the rows of `matches` that `side` names (its `row`, ascending, and
    document_id), with side's other columns, in file order. When the occurrences are the rows of
    `matches` in their order (as `match_documents` gives them for occurrences staged in file
    order), side's columns are put beside the rows kept: with `in_slices`, a slice of rows at a
    time (`_beside_rows`, slower, for wide rows), else beside the whole scan (a join by document_id
    held 0.6 GB more when it wrote the 1M canonical papers). Otherwise they are joined, and sorted
    when the occurrences are not in file order."""
    ids = occurrences.select("document_id").collect().get_column("document_id")
    if ids.equals(matches.get_column("document_id")) and ids.n_unique() == len(ids):
        if in_slices:
            return _beside_rows(occurrences, len(ids), side.drop("document_id"))
        rows = side.get_column("row")
        if len(rows) < len(ids):
            kept = occurrences.with_row_index("row").filter(pl.col("row").is_in(rows.implode()))
            occurrences = kept.drop("row")
        return pl.concat([occurrences, side.drop("row", "document_id").lazy()], how="horizontal")
    keys = occurrences.select("source_file", "ordinal").collect()
    joined = occurrences.join(side.drop("row").lazy(), on="document_id", how="inner", maintain_order="left")
    if keys.equals(keys.sort("source_file", "ordinal")):
        return joined
    return joined.sort("source_file", "ordinal", maintain_order=True)


# Occurrences read at a time by `_beside_rows`. Writing the canonical papers of the 1M arXiv
# staging (`profile_rebuild_parts.py dedup-step`), the step peaked at 2.41 GB with the columns put
# beside the whole scan, 2.34 GB with slices of 65,536 rows and 1.98 to 2.04 GB with these, the
# size of a staged row group (the peak is then the match's, not the write's).
BESIDE_SLICE_ROWS = 16_384


def _beside_rows(occurrences: pl.LazyFrame, n_occurrences: int, side: pl.DataFrame) -> pl.LazyFrame:
    """The occurrences at side's `row`s (ascending) with side's other columns beside them, read
    BESIDE_SLICE_ROWS occurrences at a time when the frame is streamed."""
    rows = side.get_column("row").to_numpy()
    side = side.drop("row")
    schema = pl.Schema({**occurrences.collect_schema(), **side.schema})

    def batches(
        columns: list[str] | None, predicate: pl.Expr | None, n_rows: int | None, batch_size: int | None
    ) -> Iterator[pl.DataFrame]:
        # Polars leaves the predicate and the row limit to the source; the projection is a hint.
        wanted = [name for name in schema if columns is None or name in columns] or [next(iter(schema))]
        own = [name for name in occurrences.collect_schema() if name in wanted]
        left = n_rows
        for start in range(0, n_occurrences, BESIDE_SLICE_ROWS):
            lo, hi = np.searchsorted(rows, [start, start + BESIDE_SLICE_ROWS])
            if lo == hi:
                continue
            batch = side.slice(lo, hi - lo).select(name for name in side.columns if name in wanted)
            if own:
                read = occurrences.select(own).slice(start, BESIDE_SLICE_ROWS).collect()
                batch = pl.concat([read[rows[lo:hi] - start], batch], how="horizontal")
            batch = batch.select(wanted)
            if predicate is not None:
                batch = batch.filter(predicate)
            if left is not None:
                batch = batch.head(left)
                left -= batch.height
            yield batch
            if left == 0:
                return

    return register_io_source(batches, schema=schema, is_pure=True, explain_name="occurrences beside rows")


def documents_table(occurrences: pl.LazyFrame, matches: pl.DataFrame) -> pl.LazyFrame:
    """Every occurrence with its paper and how it matched, in file order."""
    paper_of = matches.with_row_index("row").select("row", "document_id", "paper_id", "match", "similarity")
    return DOCUMENTS.conform(_in_file_order(occurrences, matches, paper_of))


# What fusion reads of each occurrence: where it is, how it matched, and the fields it may give.
FUSION_COLUMNS = ("document_id", "source_file", "ordinal", "format", "venue", "year", *FUSED_FIELDS)


NO_ABSTRACT = "no abstract"
# The fields a record rejected for having no abstract keeps in its reject's raw_text (a JSON object).
_DESCRIBED = pl.Struct(
    {
        "format": pl.String,
        **{name: pl.List(pl.String) if name in LIST_FIELDS else pl.String for name in FUSED_FIELDS},
        "venue": pl.String,
        "year": pl.Int32,
    }
)


def described_without_abstract(rejects: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The records rejected as `no abstract` that name a strong id, with their fields, in file
    order: Semantic Scholar's `papers` beside its `abstracts`, a metadata-only export beside the
    abstracts of another source."""
    rows = (
        rejects.lazy()
        .filter(pl.col("reason").str.starts_with(NO_ABSTRACT) & pl.col("raw_text").is_not_null())
        .select("source_file", "line_start", "raw_text")
        .collect()
    )
    fields = (
        rows.sort("source_file", "line_start")
        .select("source_file", pl.col("raw_text").str.json_decode(_DESCRIBED).alias("fields"))
        .unnest("fields")
    )
    return fields.filter(pl.any_horizontal(pl.col(STRONG_IDS).is_not_null()))


def join_described(fused: pl.DataFrame, described: pl.DataFrame) -> pl.DataFrame:
    """Fill the fields a paper lacks from the metadata-only records that share one of its strong ids
    (the first such record in file order, id kinds in STRONG_IDS order), and add them to its
    sources. A field the paper has already keeps its value."""
    if described.is_empty():
        return fused
    filled = fused
    for kind in STRONG_IDS:
        by_id = described.filter(pl.col(kind).is_not_null()).unique(kind, keep="first", maintain_order=True)
        if by_id.is_empty():
            continue
        extra = by_id.select(
            pl.col(kind),
            *(
                pl.col(name).alias(f"{name}__described")
                for name in (*FUSED_FIELDS, "venue", "year")
                if name != kind
            ),
            (pl.col("format") + ":" + pl.col("source_file")).alias("sources__described"),
        )
        joined = filled.join(extra, on=kind, how="left", maintain_order="left")
        filled = joined.with_columns(
            *(
                pl.coalesce(name, f"{name}__described").alias(name)
                for name in (*FUSED_FIELDS, "venue", "year")
                if name != kind
            ),
            pl.when(pl.col("sources__described").is_null())
            .then(pl.col("sources"))
            .otherwise(pl.concat_list("sources", "sources__described").list.unique().list.sort())
            .alias("sources"),
        ).select(filled.columns)
    return filled


def fused_fields(
    occurrences: pl.LazyFrame, matches: pl.DataFrame, rejects: pl.DataFrame | pl.LazyFrame | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each paper's fused title, authors, ids ... and sources, and the conflicts among its documents
    (`fusion.fuse_papers`), filled from the metadata-only records among `rejects` that share an id
    with it (`join_described`); the abstracts are not read."""
    documents = (
        occurrences.select(FUSION_COLUMNS)
        .join(matches.lazy().select("document_id", "paper_id", "match"), on="document_id", how="inner")
        .collect()
    )
    # Venue and year by fusion's rule too (the canonical occurrence's, else the earliest given), so
    # that a paper read first from a source without them (an arXiv record) takes its conference's.
    fused, conflicts = fuse_papers(documents, carried=("venue", "year"))
    if rejects is not None:
        fused = join_described(fused, described_without_abstract(rejects))
    return fused, PAPER_CONFLICTS.conform(conflicts)


def _word_counts(texts: pl.Series) -> pl.Series:
    """Runs of non-whitespace characters in each text (`str.count_matches(r"\\S+")`): counted as
    the spaces of a text whose only whitespace is single spaces between words (every clean text),
    a third of the regular expression's time; the others by the regular expression."""
    counts = texts.str.count_matches(" ", literal=True) + (texts.str.len_bytes() > 0).cast(pl.UInt32)
    irregular = texts.str.contains(r"[^\S ]|  |^ | $").fill_null(False)
    if irregular.any():
        rows = irregular.arg_true()
        counts = counts.scatter(rows, texts.gather(rows).str.count_matches(r"\S+"))
    return counts


def canonical_papers(
    occurrences: pl.LazyFrame, matches: pl.DataFrame, fused: pl.DataFrame, keys: pl.DataFrame
) -> pl.LazyFrame:
    """One row per paper from its canonical occurrence, in the file order of those, with its fused
    fields and the key of its clean text (`text_key`, from `keys`: `file_text_keys`, by which
    extraction finds the rows that the file maps staged); entity columns are added by extraction."""
    per_paper = matches.group_by("paper_id").agg(
        n_documents=pl.len(),
        source_files=pl.col("source_file").unique().sort(),
    )
    # The fused fields are joined to the canonical rows here, not in the stream of texts: one join
    # fewer there held the 1M-row write's peak 0.4 GB lower.
    canonical = (
        matches.with_row_index("row")
        .filter(pl.col("match") == "first")
        .select("row", "document_id", "paper_id")
        .join(per_paper, on="paper_id", how="left")
        .join(keys, on="document_id", how="left")
        .join(fused, on="paper_id", how="left")
        .sort("row")
    )
    texts = occurrences.select("document_id", "source_file", "ordinal", "abstract", "abstract_clean")
    return (
        _in_file_order(texts, matches, canonical, in_slices=True)
        .select(
            "paper_id",
            "abstract",
            "abstract_clean",
            "n_documents",
            "source_files",
            # Element-wise, so the texts still stream through in batches instead of being collected.
            pl.col("abstract_clean")
            .map_batches(_word_counts, return_dtype=pl.UInt32, is_elementwise=True)
            .alias("word_count"),
            TEXT_KEY,
            *(name for name in fused.columns if name != "paper_id"),
        )
        .select("paper_id", "venue", "year", pl.all().exclude("paper_id", "venue", "year"))
    )


def papers_table(canonical: pl.LazyFrame, annotations: pl.DataFrame) -> pl.LazyFrame:
    """Join what extraction found (proposed_methods, code_url) onto the canonical papers."""
    joined = canonical.join(
        annotations.lazy().select("paper_id", "proposed_methods", "code_url"),
        on="paper_id",
        how="left",
        maintain_order="left",
    ).with_columns(pl.col("proposed_methods").fill_null(pl.lit([], dtype=pl.List(pl.String))))
    return PAPERS.conform(joined)


@dataclass(frozen=True)
class Deduplicated:
    """What deduplicating the occurrences gives: the documents and canonical papers (streamed when
    written), the papers' conflicts, the merge counts (`summarise`), the files whose texts were
    signed here rather than read from their map, and how many occurrences were matched."""

    documents: pl.LazyFrame
    papers: pl.LazyFrame
    conflicts: pl.DataFrame
    merged: dict
    signed: list[str]
    n_documents: int


def deduplicate_occurrences(
    occurrences: pl.LazyFrame,
    rejects: pl.LazyFrame,
    signature_parts: Mapping[str, Path],
    text_key_parts: Mapping[str, Path],
    done: Callable[[str], None] = lambda part: None,
) -> Deduplicated:
    """Match the staged occurrences (exact, near and shared-id duplicates) and assemble the
    documents, canonical papers and conflicts, reading each file's signatures and text keys from
    the parts its map wrote (source file to path) and the clean texts only of the pairs verified.
    `done` is told the name of each part as it ends, and each part's large inputs are let go first."""

    def part_done(part: str) -> None:
        release_unused_memory()
        done(part)

    # Without the clean texts: dedup reads those of the pairs it verifies only, by row, which needs
    # the occurrences staged in file order (as collect stages them).
    keyed = occurrences.select(MATCH_KEYS).collect()
    texts_of = texts_by_row(occurrences) if in_file_order(keyed) else None
    if texts_of is None:
        keyed = occurrences.select(MATCH_COLUMNS).collect()
    part_done("occurrences")
    file_signed, signed = file_signatures(keyed, signature_parts, texts_of)
    part_done("file_signatures")
    matches = match_documents(keyed, file_signed, texts_of)
    del file_signed
    part_done("match_documents")
    keys = file_text_keys(keyed, text_key_parts, texts_of)
    del keyed
    part_done("file_text_keys")
    merged = summarise(matches)
    documents = documents_table(occurrences, matches)
    part_done("documents_table")
    fused, conflicts = fused_fields(occurrences, matches, rejects)
    part_done("fused_fields")
    papers = canonical_papers(occurrences, matches, fused, keys)
    del fused, keys  # papers holds its own join of them
    part_done("canonical_papers")
    return Deduplicated(documents, papers, conflicts, merged, signed, matches.height)
