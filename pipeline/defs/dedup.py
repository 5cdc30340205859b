"""Dedup: clean each occurrence, merge exact and verified near duplicates into papers."""

from __future__ import annotations

import dagster as dg
import polars as pl

from pipeline.defs.metadata import frame_metadata
from pipeline.lib.assemble import build_documents, canonical_papers, documents_table

GROUP = "dedup"


@dg.multi_asset(
    group_name=GROUP,
    specs=[
        dg.AssetSpec(
            "documents",
            deps=["raw_documents"],
            description="Every occurrence with the paper it belongs to and how it matched (first/exact/near).",
            kinds={"python", "polars"},
        ),
        dg.AssetSpec(
            "canonical_papers",
            deps=["raw_documents"],
            description="One row per distinct paper from its canonical occurrence, before entity extraction.",
            kinds={"python", "polars"},
        ),
    ],
    ins={"raw_documents": dg.AssetIn()},
)
def deduplicate_documents(context: dg.AssetExecutionContext, raw_documents: pl.DataFrame):
    """Clean every abstract, merge exact duplicates by normalised hash and near duplicates by MinHash LSH."""
    matched = build_documents(raw_documents)
    documents = documents_table(matched)
    papers = canonical_papers(matched)
    counts = dict(documents.group_by("match").len().iter_rows())
    merged = {
        "exact_merged": counts.get("exact", 0),
        "near_merged": counts.get("near", 0),
        "papers": papers.height,
    }
    context.log.info(f"{documents.height} documents -> {papers.height} papers ({merged})")
    yield dg.Output(documents, "documents", metadata=frame_metadata(documents, "documents", **merged))
    yield dg.Output(papers, "canonical_papers", metadata=frame_metadata(papers, "papers"))
