"""Extract: entities, abbreviations, links and results from each paper's clean abstract."""

import time

import dagster as dg
import polars as pl

from pipeline.defs.compute import ComputeEngine
from pipeline.defs.metadata import PREVIEW_ROWS, frame_metadata, markdown_preview
from pipeline.defs.resources import LAZY, PATHS, WarehousePaths
from pipeline.lib.assemble import papers_table
from pipeline.lib.extract import LIMITS, TEXT_KEY, TextRows, assemble, extract_texts
from pipeline.lib.filemap import (
    HOLDER,
    StagedFile,
    code_version,
    current_files,
    gathered_rows,
    missing_texts,
    staged_in,
    write_text_rows,
)
from pipeline.lib.readers.mapping import load_mappings
from pipeline.lib.staging import Staging

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
    # Lazy, and not the raw abstracts: at a million papers they are gigabytes this step never reads;
    # the clean texts are read only for corpus knowledge and for a text no file's map extracted.
    ins={
        "canonical_papers": dg.AssetIn(metadata={LAZY: True}),
        # The rows of the texts each file's map extracted.
        "seed_file": dg.AssetIn(metadata={PATHS: True}),
    },
)
def extract_entities(
    context: dg.AssetExecutionContext,
    paths: WarehousePaths,
    compute: ComputeEngine,
    canonical_papers: pl.LazyFrame,
    seed_file: dict,
):
    """Give every paper the abbreviations, entities, links and numeric results its text holds, and
    build the catalog of entities over all papers.

    Each file's map extracted its texts already: this step gathers their rows, extracts only a
    text whose file's map did not (its owner went), and reads no other abstract but to find names
    another paper proposed.
    """
    started = time.perf_counter()
    mappings = load_mappings(paths.seeds())
    files = [StagedFile(parts) for parts in current_files(seed_file, mappings).values()]
    # Texts a build before this one extracted here, last: a file's map holding a text comes first.
    store = Staging(paths.warehouse()).extracted_here
    kept = staged_in(store)
    holders = [*files, kept] if kept.current(code_version()) else files
    texts = canonical_papers.select("paper_id", "abstract_clean")
    papers = canonical_papers.select("paper_id", TEXT_KEY).collect()
    rows, held = gathered_rows(holders)
    missing = missing_texts(papers, held, texts)
    if missing.height or len(holders) > len(files):
        engine = compute.engine()
        fresh = extract_texts(missing, engine.workers, executor=engine.executor)
        rows = TextRows.concat([rows, fresh])
        # What no file holds and the papers still need, kept for the next build.
        still = (
            held.filter(pl.col(HOLDER) == len(files)).join(papers, on=TEXT_KEY, how="semi").select(TEXT_KEY)
        )
        orphans = pl.concat([still, missing.select(TEXT_KEY)])
        write_text_rows(store, orphans, rows.of(orphans), code_version())
    # Handed over, not kept here: assemble lets each table of rows go once it is used.
    handed = [rows]
    del rows
    extraction = assemble(papers, handed.pop(), texts)
    summary = _mention_summary(extraction.mentions, extraction.entities)
    n_papers = extraction.paper_annotations.height
    context.log.info(
        f"{n_papers} papers from the rows of {len(files)} files' maps, {missing.height} texts extracted "
        f"here, in {time.perf_counter() - started:.1f}s: {extraction.mentions.height} mentions, "
        f"{extraction.entities.height} entities, {extraction.results.height} results"
    )
    # How many papers a limit of extraction cut short, visible without reading the kept rows.
    capped = {f"papers_over_{limit}_cap": len(extraction.papers_capped(limit)) for limit in LIMITS}
    context.log.info(f"papers cut short by extraction's limits: {capped}")
    for name in _TABLE_DESCRIPTIONS:
        frame = getattr(extraction, name)
        extra = {**summary, **capped, "texts_extracted_here": missing.height} if name == "mentions" else {}
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
