"""Extract: entities, abbreviations, links and results from each paper's clean abstract."""

import time

import dagster as dg
import polars as pl

from pipeline.defs.compute import ComputeEngine
from pipeline.defs.metadata import PREVIEW_ROWS, frame_metadata, markdown_preview
from pipeline.defs.resources import LAZY, STAGING_DIR, WarehousePaths
from pipeline.lib.assemble import papers_table
from pipeline.lib.extract import LIMITS, extract_all, load_paper_rows, save_paper_rows

GROUP = "extract"
TOP_ENTITIES = 15

_TABLE_DESCRIPTIONS = {
    "mentions": "One row per entity mention (method, model, dataset, metric, task): span, role, evidence.",
    "entities": "The catalog of distinct entities with aliases, expansion and the number of papers.",
    "abbreviations": "Short forms defined in an abstract, with their long form and span.",
    "links": "URLs in an abstract, classified as code, project or other.",
    "results": "Numeric claims with value, unit, and the metric, dataset and baseline they refer to.",
}


def _mention_summary(mentions: pl.DataFrame, entities: pl.DataFrame) -> dict:
    by_type_role = mentions.group_by("entity_type", "role").len().sort("entity_type", "role")
    top = entities.sort("n_papers", "name", descending=[True, False]).head(TOP_ENTITIES)
    return {
        "mentions_by_type_and_role": dg.MetadataValue.md(markdown_preview(by_type_role, by_type_role.height)),
        "most_frequent_entities": dg.MetadataValue.md(
            markdown_preview(top.select("name", "entity_type", "n_papers"), TOP_ENTITIES)
        ),
    }


@dg.multi_asset(
    group_name=GROUP,
    outs={
        **{
            name: dg.AssetOut(description=text, kinds={"python", "polars"})
            for name, text in _TABLE_DESCRIPTIONS.items()
        },
        "paper_annotations": dg.AssetOut(
            description="Per paper: the names it proposes and its first code or project link.",
            kinds={"python", "polars"},
        ),
    },
    # Lazy, and not the raw abstracts or occurrences: at a million papers they are gigabytes this
    # step never reads, and extract_all lets the clean texts go once it has extracted them.
    ins={"canonical_papers": dg.AssetIn(metadata={LAZY: True})},
)
def extract_entities(
    context: dg.AssetExecutionContext,
    paths: WarehousePaths,
    compute: ComputeEngine,
    canonical_papers: pl.LazyFrame,
):
    """Find abbreviations, proposed and referenced entities, links and numeric results in every paper.

    Papers whose clean abstract (and the extraction code) did not change since the last run reuse
    that run's rows, kept under the staging directory; only the catalog is built over all papers.
    """
    started = time.perf_counter()
    kept_rows = paths.warehouse() / STAGING_DIR / "extraction_rows"

    def log_progress(done: int, total: int) -> None:
        rate = done / max(time.perf_counter() - started, 1e-9)
        context.log.info(f"extracted {done:,}/{total:,} papers ({rate:,.0f} papers/s)")

    texts = canonical_papers.select("paper_id", "abstract_clean")
    engine = compute.engine()
    extraction = extract_all(
        texts,
        workers=engine.workers,
        progress=log_progress,
        previous=load_paper_rows(kept_rows),
        executor=engine.executor,
    )
    save_paper_rows(extraction.paper_rows, kept_rows)
    summary = _mention_summary(extraction.mentions, extraction.entities)
    n_papers = extraction.paper_annotations.height
    context.log.info(
        f"{n_papers} papers ({extraction.reused_papers} reused from the last run): "
        f"{extraction.mentions.height} mentions, "
        f"{extraction.entities.height} entities, {extraction.results.height} results"
    )
    # How many papers a limit of extraction cut short, visible without reading the kept rows.
    capped = {f"papers_over_{limit}_cap": len(extraction.papers_capped(limit)) for limit in LIMITS}
    context.log.info(f"papers cut short by extraction's limits: {capped}")
    for name in _TABLE_DESCRIPTIONS:
        frame = getattr(extraction, name)
        extra = (
            {**summary, **capped, "papers_reused_from_last_run": extraction.reused_papers}
            if name == "mentions"
            else {}
        )
        yield dg.Output(frame, name, metadata=frame_metadata(frame, name, **extra))
    annotations = extraction.paper_annotations
    without = annotations.filter(pl.col("proposed_methods").list.len() == 0)
    yield dg.Output(
        annotations,
        "paper_annotations",
        metadata=frame_metadata(
            annotations,
            papers_without_proposed_name=without.height,
            papers_without_proposed_name_sample=dg.MetadataValue.md(
                markdown_preview(
                    texts.join(without.head(PREVIEW_ROWS).lazy(), on="paper_id", how="semi").collect()
                )
            ),
        ),
    )


@dg.asset(
    group_name=GROUP,
    kinds={"python", "polars"},
    # Lazy: the canonical texts are streamed into the table, not loaded.
    ins={"canonical_papers": dg.AssetIn(metadata={LAZY: True}), "paper_annotations": dg.AssetIn()},
)
def papers(canonical_papers: pl.LazyFrame, paper_annotations: pl.DataFrame) -> dg.Output[pl.LazyFrame]:
    """One row per distinct paper: canonical and clean abstract, occurrences, proposed names, code link."""
    table = papers_table(canonical_papers, paper_annotations)
    return dg.Output(table, metadata=frame_metadata(table, "papers"))
