"""Run every asset of the pipeline in this process: what `papers build` does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import dagster as dg

from pipeline.definitions import build_definitions


@dataclass(frozen=True)
class BuildOutcome:
    published: bool
    reason: str
    row_counts: dict[str, int]
    result: dg.ExecuteInProcessResult


def _failure_reason(result: dg.ExecuteInProcessResult) -> str:
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


def run_build(
    seeds_dir: Path,
    warehouse_dir: Path,
    instance: dg.DagsterInstance | None = None,
    log_level: str = "WARNING",
) -> BuildOutcome:
    defs = build_definitions(str(seeds_dir), str(warehouse_dir))
    job = defs.resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(
        run_config={"loggers": {"console": {"config": {"log_level": log_level}}}},
        instance=instance or dg.DagsterInstance.ephemeral(),
        raise_on_error=False,
    )
    materializations = (
        {m.asset_key.to_user_string(): m for m in result.asset_materializations_for_node("warehouse")}
        if result.success
        else {}
    )
    if "warehouse" not in materializations:
        return BuildOutcome(False, _failure_reason(result), {}, result)
    metadata = materializations["warehouse"].metadata
    counts = {k.removeprefix("rows/"): int(v.value) for k, v in metadata.items() if k.startswith("rows/")}
    return BuildOutcome(True, "published", counts, result)
