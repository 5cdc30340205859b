"""Dedup: clean each occurrence, merge exact and verified near duplicates into papers."""

import time

import dagster as dg
import polars as pl

from pipeline.defs.metadata import frame_metadata
from pipeline.lib.assemble import build_documents, canonical_papers, documents_table
from pipeline.lib.dedup import summarise

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
    },
    ins={"raw_documents": dg.AssetIn()},
)
def deduplicate_documents(context: dg.AssetExecutionContext, raw_documents: pl.DataFrame):
    """Merge exact duplicates by normalised hash and near duplicates by verified MinHash LSH."""
    started = time.perf_counter()
    matched = build_documents(raw_documents)
    elapsed = time.perf_counter() - started
    context.log.info(
        f"deduplicated {raw_documents.height:,} documents in {elapsed:.1f}s "
        f"({raw_documents.height / max(elapsed, 1e-9):,.0f} documents/s)"
    )
    documents = documents_table(matched)
    papers = canonical_papers(matched)
    merged = summarise(documents)
    context.log.info(f"{documents.height} documents -> {papers.height} papers ({merged})")
    yield dg.Output(documents, "documents", metadata=frame_metadata(documents, "documents", **merged))
    yield dg.Output(papers, "canonical_papers", metadata=frame_metadata(papers, "papers"))
