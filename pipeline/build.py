"""Run the pipeline in this process, parsing only the input files that changed: `papers build`."""

from __future__ import annotations

import functools
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

from pipeline.definitions import build_definitions
from pipeline.defs.automation import build_tables, contiguous_blocks, ingest_files, range_tags
from pipeline.defs.ingest import SEED_FILES, file_dir, seed_file
from pipeline.defs.resources import BUILD_LOCK_TAG, partition_dir, partition_root
from pipeline.lib import config
from pipeline.lib.filemap import stale_files
from pipeline.lib.parse import seed_paths
from pipeline.lib.publish import build_lock
from pipeline.lib.readers.entries import inspect, partition_key

# Told of each run before it starts: (value of its RUN_TAG, what it does, how many steps it has).
RunWatcher = Callable[[str, str, int], None]
# Names a run before it starts, so that a watcher can find it: execute_job picks the run id itself.
RUN_TAG = "papers/build_run"
# About 50,000 abstracts: below it a build takes seconds and a process start per step (1.3 s each,
# 17 steps) would double it; above it the steps' memory adds up to gigabytes.
ISOLATE_FROM_BYTES = 64 * 2**20
# Each step of `papers build` in a process of its own, forked from a server that has the pipeline
# imported (a spawned process would import it again per step: 5 s each), one at a time: a step's
# memory goes back to the system when it ends, so the peak is the largest step's, not the sum of
# what every step left or of two steps side by side. The steps use both cores themselves.
EXECUTORS = {
    "isolated": dg.multiprocess_executor.configured(
        {"max_concurrent": 1, "start_method": {"forkserver": {"preload_modules": ["pipeline.definitions"]}}}
    ),
    "in_process": dg.in_process_executor,
}


def temporary_instance(home: str) -> dg.DagsterInstance:
    """A persistent instance in `home` (the steps' processes reach it there), quiet on the console:
    a step process logs its start at DEBUG through the instance's python log level, not the run's."""
    return dg.DagsterInstance.local_temp(home, overrides={"python_logs": {"python_log_level": "WARNING"}})


@dataclass(frozen=True)
class BuildOutcome:
    published: bool
    reason: str
    row_counts: dict[str, int]
    result: dg.ExecutionResult
    parsed_files: list[str]


def _failure_reason(result: dg.ExecutionResult) -> str:
    for evaluation in result.get_asset_check_evaluations():
        if not evaluation.passed:
            key = evaluation.asset_check_key
            detail = f": {evaluation.description}" if evaluation.description else ""
            return f"check {key.name} on {key.asset_key.to_user_string()} failed{detail}"
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data.error:
            error = event.step_failure_data.error
            cause = error.cause or error
            message = " ".join((cause.message or "").split())
            return f"step {event.step_key} failed: {message}"
    return "the warehouse asset was not materialised"


def _prune_staged_files(warehouse_dir: Path, names: list[str]) -> None:
    """Delete what is staged for files that are no longer inputs, whichever instance (a temporary
    one has no partitions to remember them by) staged it."""
    root = partition_root(warehouse_dir, seed_file.key)
    kept = {partition_dir(warehouse_dir, seed_file.key, name).name for name in names}
    for staged in root.iterdir() if root.is_dir() else ():
        if staged.name not in kept:
            shutil.rmtree(staged, ignore_errors=True)


def _sync_partitions(instance: dg.DagsterInstance, names: list[str]) -> list[str]:
    """Register a partition per input file and drop those of files that are gone; returns the order."""
    registered = instance.get_dynamic_partitions(SEED_FILES.name)
    for gone in sorted(set(registered) - set(names)):
        instance.delete_dynamic_partition(SEED_FILES.name, gone)
    added = sorted(set(names) - set(registered))
    if added:
        instance.add_dynamic_partitions(SEED_FILES.name, added)
    return instance.get_dynamic_partitions(SEED_FILES.name)


def _input_bytes(seeds_dir: Path) -> int:
    return sum(inspect(path, seeds_dir).size or 0 for path in seed_paths(seeds_dir))


def resolve_job(
    seeds_dir: str, warehouse_dir: str, job_name: str, executor: str, scheduler: str | None = None
) -> dg.JobDefinition:
    """Module-level, so that `dg.build_reconstructable_job` can point at it."""
    definitions = build_definitions(
        seeds_dir, warehouse_dir, executor=EXECUTORS[executor], scheduler=scheduler
    )
    return definitions.resolve_job_def(job_name)


def _say_waiting(message: str) -> None:
    print(f"papers build: {message}", file=sys.stderr, flush=True)


def run_build(
    seeds_dir: Path,
    warehouse_dir: Path,
    instance: dg.DagsterInstance | None = None,
    log_level: str = "WARNING",
    watch: RunWatcher | None = None,
    isolate_steps: bool | None = None,
    waiting: Callable[[str], None] = _say_waiting,
    scheduler: str | None = None,
) -> BuildOutcome:
    """Parse the files that changed (one ranged run per block of them), then build every table.

    A build is one transaction over the warehouse: it holds the warehouse's build lock from its first
    read of the input files to its publish, and a second build waits for it (`waiting` is told so).
    With `isolate_steps` every step runs in a process of its own (see EXECUTORS), which needs an
    instance that other processes can reach: pass a persistent one, or none for a temporary one.
    Without it every step runs in this process, with any instance. Unset, steps are isolated when
    the input files are large enough for memory to matter more than a process start per step.
    With `scheduler` (a Dask scheduler's address; else $PAPERS_DASK_SCHEDULER) the per-file work of
    the steps runs on that cluster's workers, which must see `seeds_dir` and `warehouse_dir`.
    """
    config.usable_warehouse(warehouse_dir)
    with build_lock(warehouse_dir, f"papers build from {seeds_dir}", waiting) as token:
        if isolate_steps is None:
            isolate_steps = _input_bytes(seeds_dir) >= ISOLATE_FROM_BYTES
        if instance is not None:
            return _locked_build(
                seeds_dir, warehouse_dir, instance, log_level, watch, isolate_steps, token, scheduler
            )
        if not isolate_steps:
            ephemeral = dg.DagsterInstance.ephemeral()
            return _locked_build(
                seeds_dir, warehouse_dir, ephemeral, log_level, watch, False, token, scheduler
            )
        with (
            tempfile.TemporaryDirectory(prefix="papers-dagster-") as home,
            temporary_instance(home) as temporary,
        ):
            return _locked_build(
                seeds_dir, warehouse_dir, temporary, log_level, watch, True, token, scheduler
            )


def _locked_build(
    seeds_dir: Path,
    warehouse_dir: Path,
    instance: dg.DagsterInstance,
    log_level: str,
    watch: RunWatcher | None,
    isolate_steps: bool,
    lock_token: str,
    scheduler: str | None,
) -> BuildOutcome:
    if isolate_steps and instance.is_ephemeral:
        raise ValueError(
            "steps in processes of their own need a persistent Dagster instance, not an ephemeral one"
        )
    run_config = {"loggers": {"console": {"config": {"log_level": log_level}}}}
    names = [partition_key(path.name) for path in seed_paths(seeds_dir)]
    ordered = _sync_partitions(instance, names)
    _prune_staged_files(warehouse_dir, names)
    stale = stale_files(seeds_dir, names, functools.partial(file_dir, warehouse_dir))

    def execute(job_name: str, label: str, tags: dict | None = None) -> dg.ExecutionResult:
        # execute_job, not execute_in_process: the latter keeps every step's output (a frame of up
        # to millions of rows) alive until the run ends, which at a million abstracts is > 20 GB.
        job = dg.build_reconstructable_job(
            "pipeline.build",
            "resolve_job",
            reconstructable_kwargs={
                "seeds_dir": str(seeds_dir),
                "warehouse_dir": str(warehouse_dir),
                "job_name": job_name,
                "executor": "isolated" if isolate_steps else "in_process",
                "scheduler": scheduler,
            },
        )
        token = str(uuid.uuid4())
        if watch:
            watch(token, label, len(job.get_definition().graph.node_dict))
        with dg.execute_job(
            job,
            instance,
            run_config=run_config,
            # The steps stage frames under the lock this build holds: they must not wait for it.
            tags={**(tags or {}), RUN_TAG: token, BUILD_LOCK_TAG: lock_token},
        ) as result:
            return result

    for first, last in contiguous_blocks(ordered, stale):
        label = f"parse {first}" if first == last else f"parse {first} … {last}"
        parsed = execute(ingest_files.name, label, range_tags(first, last))
        if not parsed.success:
            return BuildOutcome(False, _failure_reason(parsed), {}, parsed, sorted(stale))
    result = execute(build_tables.name, "build tables")
    materializations = (
        {m.asset_key.to_user_string(): m for m in result.asset_materializations_for_node("warehouse")}
        if result.success
        else {}
    )
    if "warehouse" not in materializations:
        return BuildOutcome(False, _failure_reason(result), {}, result, sorted(stale))
    metadata = materializations["warehouse"].metadata
    counts = {k.removeprefix("rows/"): int(v.value) for k, v in metadata.items() if k.startswith("rows/")}
    return BuildOutcome(True, "published", counts, result, sorted(stale))
