"""Ingest: each input file is a partition, parsed and cleaned on its own; then all files are collected."""

import time
import warnings
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.defs.compute import ComputeEngine
from pipeline.defs.metadata import frame_metadata
from pipeline.defs.resources import PATHS, LinkedParts, WarehousePaths, partition_dir, stage_partition
from pipeline.lib.assemble import PrepareJob
from pipeline.lib.engine import executor_for
from pipeline.lib.extract import TEXT_KEY, extract_many
from pipeline.lib.filemap import (
    EXTRACTED_PART,
    SIGNATURES_PART,
    STAMP_PART,
    TEXT_KEYS_PART,
    claim_texts,
    code_version,
    current_files,
    file_version,
    map_in_order,
    owned_slices,
    read_and_sign,
    stage_rows,
    staged_in,
)
from pipeline.lib.inputs import PREPARED_DOCUMENT_SCHEMA
from pipeline.lib.readers.entries import file_name, inspect
from pipeline.lib.readers.mapping import load_mappings
from pipeline.lib.schema import INPUT_FILES, REJECTS

GROUP = "ingest"
# Input bytes of about one extraction chunk of abstracts (CHUNK_SIZE of about a kilobyte each).
CHUNK_BYTES = 2 * 2**20
DOCUMENTS_PART = "documents.parquet"
SEED_FILES = dg.DynamicPartitionsDefinition(name="seed_files")
# backfill_policy is marked beta in dagster 1.13; it is what runs many files in one run, so we use it
# knowingly and keep the warning off users' terminals.
warnings.filterwarnings("ignore", message=".*backfill_policy.*", category=dg.BetaWarning)


def file_dir(warehouse: Path, key: str) -> Path:
    """Where one input file's parts are staged."""
    return partition_dir(warehouse, seed_file.key, key)


@dg.asset(
    group_name=GROUP,
    kinds={"python", "polars"},
    partitions_def=SEED_FILES,
    # A backfill of many files is one run, and the files are spread over the machine's cores.
    backfill_policy=dg.BackfillPolicy.single_run(),
    code_version=code_version(),
)
def seed_file(context: dg.AssetExecutionContext, paths: WarehousePaths, compute: ComputeEngine) -> dict:
    """One input file read by the reader of its format (text, CSV, JSON, BibTeX, Parquet ...), its
    abstracts cleaned and signed for dedup, and the texts no other file gave extracted; every record
    a document or a reject."""
    keys = sorted(context.partition_keys)
    started = time.perf_counter()
    seeds, warehouse = paths.seeds(), paths.warehouse()
    mappings = load_mappings(seeds)
    staging = {key: partition_dir(warehouse, context.asset_key, key) for key in keys}
    jobs = [
        PrepareJob(seeds / file_name(key), seeds, staging[key] / DOCUMENTS_PART, mappings) for key in keys
    ]
    for directory in staging.values():
        # Mapped again: until its new stamp is written last, none of its parts count as current.
        (directory / f"{STAMP_PART}.parquet").unlink(missing_ok=True)
    staged, n_documents, n_rejects = {}, 0, 0
    engine = compute.engine()
    # A piece per file, and one per chunk of texts to extract (about CHUNK_BYTES of input each).
    n_bytes = sum(inspect(job.path, seeds).size or 0 for job in jobs)
    with executor_for(engine, len(jobs) + n_bytes // CHUNK_BYTES) as executor:
        # Read, clean and sign: the workers write each file's documents, signatures and text keys.
        for key, mapped in zip(keys, map_in_order(read_and_sign, jobs, executor), strict=True):
            parts = {"rejects": mapped.parsed.rejects, "input_file": mapped.parsed.files}
            staged[key] = {
                **stage_partition(warehouse, context.asset_key, key, parts),
                "documents": mapped.parsed.documents,
                SIGNATURES_PART: mapped.signatures,
                TEXT_KEYS_PART: mapped.text_keys,
            }
            n_documents += int(mapped.parsed.files["n_documents"][0])
            n_rejects += mapped.parsed.rejects.height
            rate = n_documents / max(time.perf_counter() - started, 1e-9)
            context.log.info(
                f"read {len(staged)}/{len(keys)} files, {n_documents:,} documents ({rate:,.0f}/s)"
            )
        read_seconds = time.perf_counter() - started
        # Extract: each file the texts that no other file's current parts hold.
        others = sorted(set(context.instance.get_dynamic_partitions(SEED_FILES.name)) - set(keys))
        staged_others = {key: staged_in(file_dir(warehouse, key)).parts for key in others}
        held = [parts[EXTRACTED_PART] for parts in current_files(staged_others, mappings).values()]
        known = (
            pl.concat([pl.scan_parquet(path, glob=False) for path in held]).collect()
            if held
            else pl.DataFrame(schema={TEXT_KEY: pl.String})
        )
        owned = claim_texts([(key, staged[key][TEXT_KEYS_PART]) for key in keys], known)
        # A file's owned texts are read, extracted and staged a slice at a time (a million-record
        # file never has all its texts or rows in memory), the stamp last: parts of a file whose
        # map did not finish are never taken as current.
        slices = owned_slices(
            (key, staged[key]["documents"], staged[key][TEXT_KEYS_PART], owned[key]) for key in keys
        )
        extracted = extract_many(slices, engine.workers, executor)
        n_extracted = 0
        for key, parts, n_texts in stage_rows(extracted, staging.__getitem__):
            n_extracted += n_texts
            stamp = mapped_stamp(staged[key], file_version(file_name(key), mappings))
            staged[key].update(parts)
            staged[key].update(stage_partition(warehouse, context.asset_key, key, {STAMP_PART: stamp}))
    elapsed = time.perf_counter() - started
    context.log.info(
        f"mapped {len(keys)} files, {n_documents} documents in {elapsed:.1f}s: read and signed in "
        f"{read_seconds:.1f}s ({n_documents / max(read_seconds, 1e-9):,.0f} documents/s), "
        f"{n_extracted:,} texts no other file gave extracted in {elapsed - read_seconds:.1f}s"
    )
    context.add_output_metadata(
        {"files": len(keys), "documents": n_documents, "rejects": n_rejects, "texts_extracted": n_extracted}
    )
    return staged


def mapped_stamp(parts: dict, version: str) -> pl.DataFrame:
    """sha256 of the file's bytes (from its inventory row) and the version its parts were made with."""
    inventory = pl.read_parquet(parts["input_file"], columns=["sha256"], glob=False)
    return inventory.select("sha256", version=pl.lit(version))


def _concat(parts: list[Path], empty: pl.DataFrame) -> pl.LazyFrame:
    return (
        pl.concat([pl.scan_parquet(p, glob=False) for p in parts], how="vertical") if parts else empty.lazy()
    )


@dg.multi_asset(
    group_name=GROUP,
    # The files' parts as paths: the documents are linked, not copied, and the small parts are
    # streamed into the collected tables.
    ins={"seed_file": dg.AssetIn(metadata={PATHS: True})},
    outs={
        "raw_documents": dg.AssetOut(
            description="Every abstract occurrence in the input files: raw and clean text, line range.",
            kinds={"python", "polars"},
        ),
        "rejects": dg.AssetOut(
            description="Input that could not become a document, each piece with a specific reason.",
            kinds={"python", "polars"},
        ),
        "input_files": dg.AssetOut(
            description="One row per input file: checksum, encoding, line counts and repairs made.",
            kinds={"python", "polars"},
        ),
    },
)
def collect_seed_files(context: dg.AssetExecutionContext, seed_file: dict):
    """Gather every file's documents, rejects and inventory row, in file-name order; the documents'
    files are linked, not copied (a million abstracts are gigabytes)."""
    files = [seed_file[key] for key in sorted(seed_file)]
    empty_documents = pl.DataFrame(schema=PREPARED_DOCUMENT_SCHEMA)
    documents = LinkedParts(tuple(f["documents"] for f in files), empty_documents)
    linked = _concat(list(documents.files), empty_documents)
    rejects = _concat([f["rejects"] for f in files], REJECTS.empty_frame())
    inventory = _concat([f["input_file"] for f in files], INPUT_FILES.empty_frame())
    metadata = {
        "raw_documents": frame_metadata(linked, "documents"),
        "rejects": frame_metadata(rejects, "rejects"),
        "input_files": frame_metadata(inventory, "input_files"),
    }
    rows = {name: meta["dagster/row_count"] for name, meta in metadata.items()}
    context.log.info(f"{len(files)} files: {rows['raw_documents']} documents, {rows['rejects']} rejects")
    yield dg.Output(documents, "raw_documents", metadata=metadata["raw_documents"])
    yield dg.Output(rejects, "rejects", metadata=metadata["rejects"])
    yield dg.Output(inventory, "input_files", metadata=metadata["input_files"])
