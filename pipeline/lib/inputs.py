"""Read input files of any format into the frames of the ingest step: documents, rejects, input_files.

A file's documents are cleaned batch by batch and, when a target path is given, written to it
batch by batch: a large file never sits in memory whole, as Python objects or as a frame.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.lib.parse import seed_paths
from pipeline.lib.readers.mapping import FileMapping, load_mappings
from pipeline.lib.readers.read import InputReader
from pipeline.lib.schema import DOCUMENTS, INPUT_FILES, REJECTS
from pipeline.lib.staging import temporary_path

# The columns a document has when it is read, before deduplication gives it a paper.
RAW_DOCUMENT_SCHEMA = {
    name: dtype
    for name, dtype in DOCUMENTS.polars_schema().items()
    if name not in ("paper_id", "match", "similarity")
}
# ... and once its text is cleaned (see assemble.with_clean_text).
PREPARED_DOCUMENT_SCHEMA = {**RAW_DOCUMENT_SCHEMA, "abstract": pl.String, "abstract_clean": pl.String}


@dataclass(frozen=True)
class ParsedSeeds:
    """What reading gave: documents (a frame, or the Parquet file they were written to), rejects and
    one input_files row per file."""

    documents: pl.DataFrame | Path
    rejects: pl.DataFrame
    files: pl.DataFrame


_RAW_DOCUMENT_ARROW = pa.schema([f for f in DOCUMENTS.arrow_schema() if f.name in RAW_DOCUMENT_SCHEMA])


def documents_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        return pl.DataFrame(schema=RAW_DOCUMENT_SCHEMA)
    # Through Arrow: four times faster than polars' own conversion of dicts with list columns.
    return pl.from_arrow(pa.Table.from_pylist(rows, schema=_RAW_DOCUMENT_ARROW))


def rejects_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        return REJECTS.empty_frame()
    return REJECTS.conform(pl.DataFrame(rows, schema=REJECTS.polars_schema()))


def read_file(
    path: Path,
    seeds_dir: Path | None = None,
    mappings: dict[str, FileMapping] | None = None,
    prepare=None,
    target: Path | None = None,
) -> ParsedSeeds:
    """Read one input file. `prepare` turns each batch of raw documents into its final frame (the
    cleaner adds abstract and abstract_clean); with `target`, the documents are written there batch
    by batch (atomically: a temporary file renamed at the end) and the result names that file."""
    seeds_dir = seeds_dir or path.parent
    reader = InputReader(
        path, path.name, seeds_dir, mappings if mappings is not None else load_mappings(seeds_dir)
    )
    frames: list[pl.DataFrame] = []
    rejects: list[pl.DataFrame] = []
    writer: pq.ParquetWriter | None = None
    partial = temporary_path(target) if target else None
    empty = prepare(documents_frame([])) if prepare else documents_frame([])
    try:
        for documents, file_rejects in reader.batches():
            if file_rejects:
                rejects.append(rejects_frame(file_rejects))
            if not documents:
                continue
            frame = documents_frame(documents)
            frame = prepare(frame) if prepare else frame
            if target is None:
                frames.append(frame)
                continue
            table = frame.to_arrow()
            if writer is None:
                partial.parent.mkdir(parents=True, exist_ok=True)
                writer = pq.ParquetWriter(partial, table.schema, compression="lz4")
            writer.write_table(table)
        if target is not None:
            if writer is None:
                partial.parent.mkdir(parents=True, exist_ok=True)
                empty.write_parquet(partial, compression="lz4")
            else:
                writer.close()
                writer = None
            os.replace(partial, target)
    finally:
        if writer is not None:
            writer.close()
        if partial is not None and partial.exists():
            partial.unlink()
    report = INPUT_FILES.conform(pl.DataFrame([reader.report.row()], schema=INPUT_FILES.polars_schema()))
    documents_out = target if target is not None else (pl.concat(frames) if frames else empty)
    return ParsedSeeds(
        documents=documents_out,
        rejects=pl.concat(rejects) if rejects else REJECTS.empty_frame(),
        files=report,
    )


def read_files(paths: list[Path], seeds_dir: Path) -> Iterator[ParsedSeeds]:
    mappings = load_mappings(seeds_dir)
    for path in paths:
        yield read_file(path, seeds_dir, mappings)


def combine(parsed: list[ParsedSeeds]) -> ParsedSeeds:
    """Several files' results as one, in the order given (documents in memory only)."""
    documents = [p.documents for p in parsed if isinstance(p.documents, pl.DataFrame)]
    return ParsedSeeds(
        documents=pl.concat(documents, how="vertical_relaxed") if documents else documents_frame([]),
        rejects=pl.concat([p.rejects for p in parsed]) if parsed else REJECTS.empty_frame(),
        files=pl.concat([p.files for p in parsed]) if parsed else INPUT_FILES.empty_frame(),
    )


def read_seeds(seeds_dir: Path) -> ParsedSeeds:
    """Read every entry of the seeds directory, in name order (raw documents, not cleaned)."""
    return combine(list(read_files(seed_paths(seeds_dir), seeds_dir)))
