"""The map over input files: everything that depends on one file alone, done once per file.

A file's work is read (parse and clean), sign (the dedup signatures of its texts) and extract (the
rows of its texts no other file gave). Each writes parts into the file's own staging directory,
and the stamp written last says which bytes and which code they come from (`file_version`): a
file whose stamp differs from what is on disk and in the code is stale, and only stale files are
mapped again. The global steps then read these parts, never the texts they were made from.

Every distinct text is extracted once in the warehouse: a file claims the texts that no other
file's current parts hold and no earlier file of the same map claimed (`claim_texts`). A text
whose owner has gone (its file deleted or changed) is extracted by the global step
(`missing_texts`), so the parts never need to agree with each other for the tables to be right.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache, partial
from itertools import groupby
from operator import itemgetter
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from pipeline.lib import assemble, schema
from pipeline.lib.assemble import PrepareJob, preparation_version, prepare_file
from pipeline.lib.dedup import Signatures, sign_texts, signature_version
from pipeline.lib.extract import TEXT_KEY, TextRows, extraction_version, text_keys
from pipeline.lib.inputs import ParsedSeeds
from pipeline.lib.parquet_files import open_parquet
from pipeline.lib.readers.entries import file_digest, file_name
from pipeline.lib.readers.mapping import FileMapping, load_mappings
from pipeline.lib.staging import temporary_path, write_atomically
from pipeline.lib.versions import source_digest

# Part names in a file's staging directory, beside `documents`, `rejects` and `input_file`.
SIGNATURES_PART = "signatures"
TEXT_KEYS_PART = "text_keys"  # document_id, text_key: the text of every document of the file
EXTRACTED_PART = "extracted"  # text_key: the texts this file extracted
STAMP_PART = "stamp"  # sha256 of the file's bytes, and the version its parts were made with
# TextRows frames are staged as "rows_<name>".
ROWS_PREFIX = "rows_"
# Which of the holders given to gathered_rows a text's rows came from.
HOLDER = "holder"
# Texts signed and keyed at once when a file is mapped (about 20 MB of abstracts): signing the 1M
# texts of one arXiv file peaked at 2.18 GB whole, 1.94 GB in slices of 65,536, 1.34 GB of 16,384
# (0.73 GB since the file is read without pre-buffering, see parquet_files).
SIGN_SLICE_ROWS = 16_384
# Documents read at a time for the texts a file extracts (about 64 MB of abstracts): reading the
# 955,278 owned texts of one 1M-record arXiv file so peaked at 0.76 GB, holding them all at 1.66 GB
# (benchmarks/profile_rebuild_parts.py owned).
TEXT_SLICE_ROWS = 65_536


@cache
def code_version() -> str:
    """The version of everything the map runs: readers, parser, cleaner, dedup signing, extraction,
    and the map itself with the schemas of what it stages."""
    own = source_digest([Path(__file__), assemble, schema])
    return f"{preparation_version()}-{signature_version()}-{extraction_version()}-{own}"


def file_version(name: str, mappings: Mapping[str, FileMapping]) -> str:
    """The version a file's parts must have: the code's, and the user's mapping of the file."""
    mapping = mappings.get(name)
    return code_version() if mapping is None else f"{code_version()}+{mapping.digest()}"


def stale_files(
    seeds_dir: Path,
    keys: Sequence[str],
    staged_dir: Callable[[str], Path],
    digest: Callable[[Path], str | None] | None = None,
) -> set[str]:
    """The one staleness rule, shared by `papers build` and the seeds sensor: a file (by partition
    key) is stale unless the stamp in its staging directory names the sha256 of its bytes now and
    the version its parts must have (`file_version`). An entry that is not read (a FIFO, a link
    out of the directory ...) has no digest and is always stale: mapping it again costs nothing
    and records why. `digest` (default: hashing the file) lets a caller reuse digests it holds."""
    mappings = load_mappings(seeds_dir)
    digest = digest or (lambda path: file_digest(path, seeds_dir))
    stale = set()
    for key in keys:
        name = file_name(key)
        stamp_path = staged_dir(key) / f"{STAMP_PART}.parquet"
        stamp = pl.read_parquet(stamp_path, glob=False).row(0, named=True) if stamp_path.exists() else {}
        now = digest(seeds_dir / name)
        if now is None or stamp.get("sha256") != now or stamp.get("version") != file_version(name, mappings):
            stale.add(key)
    return stale


@dataclass(frozen=True)
class MappedFile:
    """What reading one file gave (documents written to its staging directory) and the paths of its
    signature and text-key parts."""

    parsed: ParsedSeeds
    signatures: Path
    text_keys: Path


def read_and_sign(job: PrepareJob) -> MappedFile:
    """Read, clean and sign one file: the documents, signatures and text keys written beside each
    other in the directory of the job's target (which must be set)."""
    if job.target is None:
        raise ValueError(f"{job.path}: the map writes into a staging directory; the job has no target")
    parsed = prepare_file(job)
    directory = job.target.parent
    signatures = directory / f"{SIGNATURES_PART}.parquet"
    keys = directory / f"{TEXT_KEYS_PART}.parquet"
    write_atomically(
        lambda signatures_tmp: write_atomically(
            lambda keys_tmp: _sign_in_slices(job.target, signatures_tmp, keys_tmp), keys
        ),
        signatures,
    )
    return MappedFile(parsed, signatures, keys)


def _sign_in_slices(documents: Path, signatures: Path, keys: Path) -> None:
    """Sign a file's texts and key them, in the order dedup reads them (by ordinal), a slice of
    SIGN_SLICE_ROWS at a time: a file of a million abstracts (the arXiv snapshot is one file) never
    has all its texts in memory at once, unless its reader wrote them out of order."""
    columns = ["document_id", "ordinal", "abstract_clean"]
    file = open_parquet(documents)
    ordinals = pl.read_parquet(documents, columns=["ordinal"], glob=False).get_column("ordinal")
    if ordinals.is_sorted():
        slices = (pl.from_arrow(batch) for batch in file.iter_batches(SIGN_SLICE_ROWS, columns=columns))
    else:
        ordered = pl.read_parquet(documents, columns=columns, glob=False).sort("ordinal", maintain_order=True)
        slices = (
            ordered.slice(start, SIGN_SLICE_ROWS) for start in range(0, ordered.height, SIGN_SLICE_ROWS)
        )
    signature_writer = keys_writer = None
    try:
        for part in slices:
            signed = sign_texts(part.get_column("abstract_clean")).to_arrow()
            keyed = part.select("document_id", text_keys(part.get_column("abstract_clean"))).to_arrow()
            signature_writer = signature_writer or pq.ParquetWriter(signatures, signed.schema)
            keys_writer = keys_writer or pq.ParquetWriter(keys, keyed.schema, compression="lz4")
            signature_writer.write_table(signed)
            keys_writer.write_table(keyed)
    finally:
        for writer in (signature_writer, keys_writer):
            if writer is not None:
                writer.close()
    if signature_writer is None:  # no documents: the parts are still written, empty
        pq.write_table(Signatures.empty(0).to_arrow(), signatures)
        pl.DataFrame(schema={"document_id": pl.String, TEXT_KEY: pl.String}).write_parquet(
            keys, compression="lz4"
        )


def claim_texts(files: Sequence[tuple[str, Path]], known: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """For each (file, its text_keys part), in order: the distinct text keys it must extract, those
    neither in `known` (a TEXT_KEY column: what other files' current parts hold) nor claimed by an
    earlier file of the sequence."""
    claimed = known.select(TEXT_KEY)
    owned = {}
    for name, path in files:
        keys = pl.read_parquet(path, columns=[TEXT_KEY], glob=False).unique(maintain_order=True)
        owned[name] = keys.join(claimed, on=TEXT_KEY, how="anti", maintain_order="left")
        claimed = pl.concat([claimed, owned[name]])
    return owned


def owned_text_slices(documents: Path, keys: Path, owned: pl.DataFrame) -> Iterator[pl.DataFrame]:
    """TEXT_KEY and abstract_clean of the owned texts, each once, in the order of the file's
    documents, in slices of at most TEXT_SLICE_ROWS documents read at a time; at least one slice
    (empty when the file owns no text, and then its documents are not read)."""
    wanted = (
        pl.scan_parquet(keys, glob=False)
        .join(owned.lazy(), on=TEXT_KEY, how="semi", maintain_order="left")
        .unique(TEXT_KEY, keep="first", maintain_order=True)
        .collect()
    )
    if wanted.is_empty():
        yield pl.DataFrame(schema={TEXT_KEY: pl.String, "abstract_clean": pl.String})
        return
    columns = ["document_id", "abstract_clean"]
    for batch in open_parquet(documents).iter_batches(TEXT_SLICE_ROWS, columns=columns):
        texts = pl.from_arrow(batch).join(wanted, on="document_id", how="inner", maintain_order="left")
        if not texts.is_empty():
            yield texts.select(TEXT_KEY, "abstract_clean")


def owned_slices(
    files: Iterable[tuple[str, Path, Path, pl.DataFrame]],
) -> Iterator[tuple[str, Callable[[], pl.DataFrame]]]:
    """For each (name, documents, text keys, owned keys) and each slice of the file's owned texts
    (`owned_text_slices`): the name and a loader of the slice, as `extract_many` takes them. Lazy: a
    slice is read when extraction reaches it."""
    for name, documents, keys, owned in files:
        for texts in owned_text_slices(documents, keys, owned):
            yield name, (lambda texts=texts: texts)


def row_parts(texts: pl.DataFrame, rows: TextRows) -> dict[str, pl.DataFrame]:
    """The parts that stage texts' rows: EXTRACTED_PART (the texts' keys) and the rows of each."""
    return {EXTRACTED_PART: texts.select(TEXT_KEY), **{ROWS_PREFIX + n: f for n, f in rows.frames().items()}}


class RowPartsWriter:
    """Writes the parts of `row_parts` into a directory a slice of texts at a time, each part under
    a temporary name renamed into place when the writer closes without error: a reader finds the
    whole part or the one before it, and no more than a slice's rows is in memory at once."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.n_texts = 0
        empty = row_parts(pl.DataFrame(schema={TEXT_KEY: pl.String}), TextRows.empty())
        self._schemas = {name: frame.to_arrow().schema for name, frame in empty.items()}
        self._writers: dict[str, pq.ParquetWriter] = {}

    def paths(self) -> dict[str, Path]:
        """Each part's path, by part name."""
        return {name: self.directory / f"{name}.parquet" for name in self._schemas}

    def write(self, texts: pl.DataFrame, rows: TextRows) -> None:
        self.n_texts += texts.height
        paths = self.paths()
        for name, frame in row_parts(texts, rows).items():
            table = frame.to_arrow().cast(self._schemas[name])
            if name not in self._writers:
                target = temporary_path(paths[name])
                self._writers[name] = pq.ParquetWriter(target, table.schema, compression="lz4")
            self._writers[name].write_table(table)

    def __enter__(self) -> RowPartsWriter:
        self.directory.mkdir(parents=True, exist_ok=True)
        return self

    def __exit__(self, error_type, error, traceback) -> None:
        for writer in self._writers.values():
            writer.close()
        for name, path in self.paths().items():
            if error_type is not None:
                temporary_path(path).unlink(missing_ok=True)
            elif name in self._writers:
                os.replace(temporary_path(path), path)
            else:
                empty = self._schemas[name].empty_table()
                write_atomically(partial(pq.write_table, empty, compression="lz4"), path)


def stage_rows(
    extracted: Iterable[tuple[str, pl.DataFrame, TextRows]], directory: Callable[[str], Path]
) -> Iterator[tuple[str, dict[str, Path], int]]:
    """Stage what `extract_many` gives, the consecutive pieces of one name into `directory(name)`
    with a `RowPartsWriter`: for each name, once its parts are in place, the name, the parts' paths
    and the number of texts written."""
    for name, pieces in groupby(extracted, key=itemgetter(0)):
        with RowPartsWriter(directory(name)) as writer:
            for _, texts, rows in pieces:
                writer.write(texts, rows)
        yield name, writer.paths(), writer.n_texts


@dataclass(frozen=True)
class StagedFile:
    """The parts of one file's staging directory that the global steps read, by part name."""

    parts: Mapping[str, Path]

    def current(self, version: str) -> bool:
        """Whether the parts were made with this version (the file's stamp says so)."""
        stamp = self.parts.get(STAMP_PART)
        if stamp is None or not stamp.exists():
            return False
        # A stamp of an older layout has no version: its parts are not current.
        return pl.read_parquet(stamp, glob=False).row(0, named=True).get("version") == version


def current_files(
    parts_by_key: Mapping[str, Mapping[str, Path]], mappings: Mapping[str, FileMapping]
) -> dict[str, Mapping[str, Path]]:
    """The files (by partition key, to their parts) whose stamp says their parts were made with the
    version they must have now; the others' parts are not read."""
    return {
        key: parts
        for key, parts in sorted(parts_by_key.items())
        if StagedFile(parts).current(file_version(file_name(key), mappings))
    }


def gathered_rows(files: Sequence[StagedFile]) -> tuple[TextRows, pl.DataFrame]:
    """The rows the files extracted, each text's from the first file that holds it (two files can
    both hold a text when one was mapped while the other's parts were stale), and for each text
    held the index in `files` of the file its rows came from (columns TEXT_KEY, HOLDER). Lazy
    reads: only the rows are loaded, never a text."""
    holders = [(index, f) for index, f in enumerate(files) if EXTRACTED_PART in f.parts]
    if not holders:
        return TextRows.empty(), pl.DataFrame(schema={TEXT_KEY: pl.String, HOLDER: pl.Int32})

    def scan(part: str) -> pl.LazyFrame:
        return pl.concat(
            [
                pl.scan_parquet(f.parts[part], glob=False).with_columns(pl.lit(index, pl.Int32).alias(HOLDER))
                for index, f in holders
            ]
        )

    held = scan(EXTRACTED_PART).collect()
    winners = held.unique(TEXT_KEY, keep="first", maintain_order=True)
    # Only when some text is held twice do the rows need filtering to each text's first holder.
    held_twice = winners.height < held.height
    del held
    frames = {}
    for name in TextRows.empty().frames():
        rows = scan(ROWS_PREFIX + name)
        if held_twice:
            rows = rows.join(winners.lazy(), on=[TEXT_KEY, HOLDER], how="semi", maintain_order="left")
        frames[name] = rows.drop(HOLDER).collect()
    return TextRows.from_frames(frames), winners


def write_text_rows(directory: Path, texts: pl.DataFrame, rows: TextRows, version: str) -> None:
    """Stage rows outside a file's map (the texts, a TEXT_KEY column, and their rows), as a map
    stages them, with the stamp of `version` written last."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{STAMP_PART}.parquet").unlink(missing_ok=True)
    parts = row_parts(texts, rows)
    for name, frame in [*parts.items(), (STAMP_PART, pl.DataFrame({"version": [version]}))]:
        write_atomically(partial(frame.write_parquet, compression="lz4"), directory / f"{name}.parquet")


def staged_in(directory: Path) -> StagedFile:
    """The parts staged in a directory."""
    return StagedFile({part.stem: part for part in directory.glob("*.parquet")} if directory.is_dir() else {})


def missing_texts(papers: pl.DataFrame, held: pl.DataFrame, texts: pl.LazyFrame) -> pl.DataFrame:
    """TEXT_KEY and abstract_clean of the papers' texts (papers: paper_id, TEXT_KEY) no file holds;
    `texts` (paper_id, abstract_clean) is read for those papers only."""
    missing = papers.join(held, on=TEXT_KEY, how="anti").unique(TEXT_KEY, keep="first", maintain_order=True)
    if missing.is_empty():
        # Every text held (the usual build): the texts, gigabytes at scale, are not scanned at all.
        return pl.DataFrame(schema={TEXT_KEY: papers.schema[TEXT_KEY], "abstract_clean": pl.String})
    return (
        texts.join(missing.lazy(), on="paper_id", how="inner", maintain_order="right")
        .select(TEXT_KEY, "abstract_clean")
        .collect()
    )


def map_in_order(function: Callable, items: Sequence, executor: Executor | None) -> Iterator:
    """function over items, results in order, on the executor when there is one and more than one item."""
    if executor is None or len(items) <= 1:
        return map(function, items)
    return executor.map(function, items)
