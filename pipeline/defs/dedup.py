"""Dedup: clean each occurrence, merge exact and verified near duplicates into papers."""

import time

import dagster as dg
import polars as pl

from pipeline.defs.metadata import frame_metadata
from pipeline.defs.resources import LAZY, PATHS, WarehousePaths
from pipeline.lib.assemble import deduplicate_occurrences
from pipeline.lib.filemap import SIGNATURES_PART, TEXT_KEYS_PART, current_files
from pipeline.lib.readers.entries import file_name
from pipeline.lib.readers.mapping import load_mappings

GROUP = "dedup"


@dg.multi_asset(
    group_name=GROUP,
    outs={
        "documents": dg.AssetOut(
            description="Every occurrence with its paper and how it matched it (first, exact or near).",
            kinds={"python", "polars"},
        ),
        "canonical_papers": dg.AssetOut(
            description="One row per distinct paper from its canonical occurrence, before entity extraction.",
            kinds={"python", "polars"},
        ),
        "paper_conflicts": dg.AssetOut(
            description="Every field on which a paper's documents disagree, each value kept.",
            kinds={"python", "polars"},
        ),
    },
    ins={
        # Lazy: only the columns matching needs are loaded; the texts are streamed into the outputs.
        "raw_documents": dg.AssetIn(metadata={LAZY: True}),
        # Records without an abstract still describe the paper that shares their id.
        "rejects": dg.AssetIn(metadata={LAZY: True}),
        # Each file's signatures, made by its map.
        "seed_file": dg.AssetIn(metadata={PATHS: True}),
    },
)
def deduplicate_documents(
    context: dg.AssetExecutionContext,
    paths: WarehousePaths,
    raw_documents: pl.LazyFrame,
    rejects: pl.LazyFrame,
    seed_file: dict,
):
    """Merge exact duplicates by normalised hash and near duplicates by verified MinHash LSH, then
    occurrences across sources by shared ids and titles; fuse each paper's title, authors and ids.

    The texts were signed and keyed by each file's map: only a file without those parts is signed
    or keyed here.
    """
    started = time.perf_counter()
    # Only a file's current parts: signatures of other bytes or older code are signed again here.
    current = current_files(seed_file, load_mappings(paths.seeds()))
    staged = {
        file_name(key): parts[SIGNATURES_PART] for key, parts in current.items() if SIGNATURES_PART in parts
    }
    staged_keys = {
        file_name(key): parts[TEXT_KEYS_PART] for key, parts in current.items() if TEXT_KEYS_PART in parts
    }

    ended: dict[str, float] = {}
    found = deduplicate_occurrences(
        raw_documents, rejects, staged, staged_keys, lambda part: ended.setdefault(part, time.perf_counter())
    )
    context.log.info(
        f"read the signatures of {len(staged)} files in {ended['file_signatures'] - started:.1f}s; "
        f"signed {len(found.signed)} files' texts here"
    )
    elapsed = ended["file_text_keys"] - started
    context.log.info(
        f"deduplicated {found.n_documents:,} documents in {elapsed:.1f}s "
        f"({found.n_documents / max(elapsed, 1e-9):,.0f} documents/s)"
    )
    merged = found.merged
    context.log.info(f"{found.n_documents} documents -> {merged['papers']} papers ({merged})")
    documents, papers, conflicts = found.documents, found.papers, found.conflicts
    yield dg.Output(
        documents,
        "documents",
        metadata=frame_metadata(documents, "documents", **merged, files_signed=len(found.signed)),
    )
    yield dg.Output(papers, "canonical_papers", metadata=frame_metadata(papers, "papers"))
    yield dg.Output(conflicts, "paper_conflicts", metadata=frame_metadata(conflicts, "paper_conflicts"))
