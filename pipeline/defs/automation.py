"""Jobs and the sensor that watches the seeds directory: a new or changed file is mapped on its own."""

import functools
import hashlib
import json

import dagster as dg

from pipeline.defs.ingest import SEED_FILES, file_dir, seed_file
from pipeline.defs.resources import WarehousePaths
from pipeline.lib.filemap import file_version, stale_files
from pipeline.lib.parse import seed_paths
from pipeline.lib.readers import entries
from pipeline.lib.readers.mapping import load_mappings

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
    """Adds a partition per new input file, removes those of deleted files, and maps the stale ones:
    stale by the rule `papers build` uses (the content digest and code version of each file's parts).

    The cursor keeps each file's digest with its status (size, inode, modification and change
    times): a file whose status did not change is not hashed again on the next tick. Writing a
    file changes its change time, which no program can set back, so no edit goes unseen.
    """
    seeds, warehouse = paths.seeds(), paths.warehouse()
    files = {entries.partition_key(path.name): path for path in seed_paths(seeds)}
    known = json.loads(context.cursor) if context.cursor else {}
    digests: dict[str, list] = {}

    def digest(path):
        key = entries.partition_key(path.name)
        status = entries.stamp(path)
        if known.get(key, [None])[0] != status:
            known[key] = [status, entries.file_digest(path, seeds)]
        digests[key] = known[key]
        return known[key][1]

    stale = stale_files(seeds, sorted(files), functools.partial(file_dir, warehouse), digest)
    registered = context.instance.get_dynamic_partitions(SEED_FILES.name)
    added = sorted(set(files) - set(registered))
    removed = sorted(set(registered) - set(files))
    ordered = [key for key in registered if key in files] + added
    mappings = load_mappings(seeds)

    def state(keys: list[str]) -> str:
        """What the files are now: their status, digest and the version their parts must have. A
        run key made of it is new for every edit (even back to earlier bytes: the change time moves)
        and for every new version of the code, and the same while nothing changes."""
        now = [[key, *digests[key], file_version(entries.file_name(key), mappings)] for key in keys]
        return hashlib.sha256(json.dumps(now).encode()).hexdigest()[:16]

    run_requests = [
        dg.RunRequest(
            # Requested again on every tick until its map has run: the key makes that one run.
            run_key=f"ingest:{first}:{last}:{state(ordered[ordered.index(first) : ordered.index(last) + 1])}",
            job_name=ingest_files.name,
            tags=range_tags(first, last),
        )
        for first, last in contiguous_blocks(ordered, stale)
    ]
    if run_requests or removed:
        # The run queue starts runs in order, so the tables are built after the files are mapped.
        run_requests.append(
            dg.RunRequest(run_key=f"tables:{state(sorted(files))}", job_name=build_tables.name)
        )
    context.update_cursor(json.dumps(digests, sort_keys=True))
    return dg.SensorResult(
        run_requests=run_requests,
        dynamic_partitions_requests=[
            *([SEED_FILES.build_add_request(added)] if added else []),
            *([SEED_FILES.build_delete_request(removed)] if removed else []),
        ],
    )
