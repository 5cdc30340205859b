"""Jobs and the sensor that watches the seeds directory: a new or changed file is parsed on its own."""

import hashlib
import json

import dagster as dg

from pipeline.defs.ingest import SEED_FILES, seed_file
from pipeline.defs.resources import WarehousePaths
from pipeline.lib.parse import seed_paths
from pipeline.lib.readers import entries

SENSOR_INTERVAL_SECONDS = 15
PARTITION_RANGE_START = "dagster/asset_partition_range_start"
PARTITION_RANGE_END = "dagster/asset_partition_range_end"

ingest_files = dg.define_asset_job(
    "ingest_files", selection=dg.AssetSelection.assets(seed_file), description="Parse and clean input files."
)
build_tables = dg.define_asset_job(
    "build_tables",
    selection=dg.AssetSelection.all() - dg.AssetSelection.assets(seed_file),
    description="Collect the parsed files, deduplicate, extract, validate and publish the warehouse.",
)


def contiguous_blocks(ordered: list[str], wanted: set[str]) -> list[tuple[str, str]]:
    """(first, last) of each run of consecutive `wanted` keys in `ordered`: one ranged run each."""
    blocks: list[tuple[str, str]] = []
    start = previous = None
    for key in ordered:
        if key in wanted:
            start = start or key
            previous = key
        elif start is not None:
            blocks.append((start, previous))
            start = None
    if start is not None:
        blocks.append((start, previous))
    return blocks


def range_tags(first: str, last: str) -> dict[str, str]:
    return {PARTITION_RANGE_START: first, PARTITION_RANGE_END: last}


@dg.sensor(
    jobs=[ingest_files, build_tables],
    minimum_interval_seconds=SENSOR_INTERVAL_SECONDS,
    default_status=dg.DefaultSensorStatus.RUNNING,
)
def seed_files_sensor(context: dg.SensorEvaluationContext, paths: WarehousePaths):
    """Adds a partition per new input file, removes those of deleted files, and parses what changed."""
    current = {entries.partition_key(path.name): entries.stamp(path) for path in seed_paths(paths.seeds())}
    seen = json.loads(context.cursor) if context.cursor else {}
    registered = context.instance.get_dynamic_partitions(SEED_FILES.name)
    added = sorted(set(current) - set(registered))
    removed = sorted(set(registered) - set(current))
    changed = {name for name, stamp in current.items() if seen.get(name) != stamp}
    ordered = [key for key in registered if key in current] + added
    run_requests = [
        dg.RunRequest(
            run_key=f"ingest:{first}:{last}:{current[first]}:{current[last]}",
            job_name=ingest_files.name,
            tags=range_tags(first, last),
        )
        for first, last in contiguous_blocks(ordered, changed)
    ]
    if run_requests or removed:
        # The run queue starts runs in order, so the tables are built after the files are parsed.
        stamp = hashlib.sha256(json.dumps(current, sort_keys=True).encode()).hexdigest()[:16]
        run_requests.append(dg.RunRequest(run_key=f"tables:{stamp}", job_name=build_tables.name))
    context.update_cursor(json.dumps(current, sort_keys=True))
    return dg.SensorResult(
        run_requests=run_requests,
        dynamic_partitions_requests=[
            *([SEED_FILES.build_add_request(added)] if added else []),
            *([SEED_FILES.build_delete_request(removed)] if removed else []),
        ],
    )
