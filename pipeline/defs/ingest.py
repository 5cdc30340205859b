"""Ingest: parse every seed file into occurrences, rejects and a per-file inventory."""

import dagster as dg

from pipeline.defs.metadata import frame_metadata
from pipeline.defs.resources import WarehousePaths
from pipeline.lib.parse import parse_seeds

GROUP = "ingest"


@dg.multi_asset(
    group_name=GROUP,
    outs={
        "raw_documents": dg.AssetOut(
            description="Every abstract occurrence in the seed files, with its raw text and line range.",
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
def parse_seed_files(context: dg.AssetExecutionContext, paths: WarehousePaths):
    """Parse the header, paragraphs and line ranges of every *.txt file in the seeds directory."""
    seeds_dir = paths.seeds()
    if not seeds_dir.is_dir():
        raise dg.Failure(f"seeds directory {seeds_dir} does not exist")
    parsed = parse_seeds(seeds_dir)
    context.log.info(
        f"parsed {parsed.files.height} files in {seeds_dir}: "
        f"{parsed.documents.height} documents, {parsed.rejects.height} rejects"
    )
    yield dg.Output(parsed.documents, "raw_documents", metadata=frame_metadata(parsed.documents, "documents"))
    yield dg.Output(parsed.rejects, "rejects", metadata=frame_metadata(parsed.rejects, "rejects"))
    yield dg.Output(
        parsed.files,
        "input_files",
        metadata=frame_metadata(parsed.files, seeds_dir=dg.MetadataValue.path(str(seeds_dir))),
    )
