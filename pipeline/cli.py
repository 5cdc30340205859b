"""The `papers` command: build the warehouse (and, later, search and inspect it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import dagster as dg
import typer
from rich.console import Console
from rich.table import Table

from pipeline.lib import config

app = typer.Typer(help="Build and explore the paper warehouse.", no_args_is_help=True, add_completion=False)
console = Console(stderr=True)


@app.callback()
def main() -> None:
    """Build and explore the paper warehouse."""


@app.command()
def build(
    seeds: Annotated[
        Path | None, typer.Option(help="Input directory (default: $PAPERS_SEEDS_DIR or seeds/).")
    ] = None,
    warehouse: Annotated[
        Path | None, typer.Option(help="Output directory (default: $PAPERS_WAREHOUSE_DIR or warehouse/).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show Dagster's log on stderr.")] = False,
) -> None:
    """Parse, deduplicate, extract, validate and publish the warehouse."""
    from pipeline.build import run_build

    seeds_dir = config.seeds_dir(seeds)
    warehouse_dir = config.warehouse_dir(warehouse)
    if not seeds_dir.is_dir():
        print(f"papers build: seeds directory {seeds_dir} does not exist", file=sys.stderr)
        raise typer.Exit(2)
    # With DAGSTER_HOME set (the README's commands set it) the run shows up in `dagster dev` too.
    instance = dg.DagsterInstance.get() if os.environ.get("DAGSTER_HOME") else dg.DagsterInstance.ephemeral()
    with instance:
        outcome = run_build(seeds_dir, warehouse_dir, instance, log_level="DEBUG" if verbose else "CRITICAL")
    if not outcome.published:
        print(f"papers build: not published: {outcome.reason}", file=sys.stderr)
        raise typer.Exit(1)
    summary = Table(title=f"Published {warehouse_dir}")
    summary.add_column("table")
    summary.add_column("rows", justify="right")
    for name, count in outcome.row_counts.items():
        summary.add_row(name, f"{count:,}")
    console.print(summary)
