"""Ingest: each input file is a partition, parsed and cleaned on its own; then all files are collected."""

import time
import warnings
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.defs.compute import ComputeEngine
from pipeline.defs.metadata import frame_metadata
from pipeline.defs.resources import PATHS, LinkedParts, WarehousePaths, partition_dir, stage_partition
from pipeline.lib.assemble import PrepareJob, file_version, preparation_version, prepare_files
from pipeline.lib.inputs import PREPARED_DOCUMENT_SCHEMA
from pipeline.lib.readers.entries import file_name
from pipeline.lib.readers.mapping import load_mappings
from pipeline.lib.schema import INPUT_FILES, REJECTS

GROUP = "ingest"
# Per file, beside its parts: the bytes' digest and the parser version it was prepared with.
STAMP_PART = "stamp"
DOCUMENTS_PART = "documents.parquet"
SEED_FILES = dg.DynamicPartitionsDefinition(name="seed_files")
# backfill_policy is marked beta in dagster 1.13; it is what runs many files in one run, so we use it
# knowingly and keep the warning off users' terminals.
warnings.filterwarnings("ignore", message=".*backfill_policy.*", category=dg.BetaWarning)


@dg.asset(
    group_name=GROUP,
    kinds={"python", "polars"},
    partitions_def=SEED_FILES,
    # A backfill of many files is one run, and the files are spread over the machine's cores.
    backfill_policy=dg.BackfillPolicy.single_run(),
    code_version=preparation_version(),
)
def seed_file(context: dg.AssetExecutionContext, paths: WarehousePaths, compute: ComputeEngine) -> dict:
    """One input file read by the reader of its format (text, CSV, JSON, BibTeX, Parquet ...), its
    abstracts cleaned; every record a document or a reject."""
    keys = sorted(context.partition_keys)
    started = time.perf_counter()
    seeds = paths.seeds()
    mappings = load_mappings(seeds)
    staged, n_documents, n_rejects = {}, 0, 0
    # Each file's documents are written to their staged place by the worker that reads them.
    staging = {key: partition_dir(paths.warehouse(), context.asset_key, key) for key in keys}
    jobs = [
        PrepareJob(seeds / file_name(key), seeds, staging[key] / DOCUMENTS_PART, mappings) for key in keys
    ]
    engine = compute.engine()
    prepared = prepare_files(jobs, workers=engine.workers, executor=engine.executor)
    for key, p in zip(keys, prepared, strict=True):
        parts = {
            "rejects": p.rejects,
            "input_file": p.files,
            STAMP_PART: p.files.select(
                "sha256", preparation_version=pl.lit(file_version(file_name(key), mappings))
            ),
        }
        # The documents are staged already, written by the worker batch by batch.
        staged[key] = {
            **stage_partition(paths.warehouse(), context.asset_key, key, parts),
            "documents": p.documents,
        }
        n_documents += int(p.files["n_documents"][0])
        n_rejects += p.rejects.height
        rate = n_documents / max(time.perf_counter() - started, 1e-9)
        context.log.info(f"parsed {len(staged)}/{len(keys)} files, {n_documents:,} documents ({rate:,.0f}/s)")
    elapsed = time.perf_counter() - started
    context.log.info(
        f"parsed and cleaned {len(keys)} files, {n_documents} documents in {elapsed:.1f}s "
        f"({n_documents / max(elapsed, 1e-9):,.0f} documents/s)"
    )
    context.add_output_metadata({"files": len(keys), "documents": n_documents, "rejects": n_rejects})
    return staged


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
