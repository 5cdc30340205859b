"""Dedup: clean each occurrence, merge exact and verified near duplicates into papers."""

import time

import dagster as dg
import polars as pl

from pipeline.defs.metadata import frame_metadata
from pipeline.defs.resources import LAZY
from pipeline.lib.assemble import MATCH_COLUMNS, canonical_papers, documents_table, match_documents
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
    # Lazy: only the columns matching needs are loaded; the texts are streamed into the outputs.
    ins={"raw_documents": dg.AssetIn(metadata={LAZY: True})},
)
def deduplicate_documents(context: dg.AssetExecutionContext, raw_documents: pl.LazyFrame):
    """Merge exact duplicates by normalised hash and near duplicates by verified MinHash LSH."""
    started = time.perf_counter()
    matches = match_documents(raw_documents.select(MATCH_COLUMNS).collect())
    elapsed = time.perf_counter() - started
    context.log.info(
        f"deduplicated {matches.height:,} documents in {elapsed:.1f}s "
        f"({matches.height / max(elapsed, 1e-9):,.0f} documents/s)"
    )
    merged = summarise(matches)
    context.log.info(f"{matches.height} documents -> {merged['papers']} papers ({merged})")
    documents = documents_table(raw_documents, matches)
    papers = canonical_papers(raw_documents, matches)
    yield dg.Output(documents, "documents", metadata=frame_metadata(documents, "documents", **merged))
    yield dg.Output(papers, "canonical_papers", metadata=frame_metadata(papers, "papers"))
