"""The `papers` command: build the warehouse (and, later, search and inspect it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

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
    seeds: Annotated[Path | None, typer.Option(help="Input directory (default: $PAPERS_SEEDS_DIR or seeds/).")] = None,
    warehouse: Annotated[
        Path | None, typer.Option(help="Output directory (default: $PAPERS_WAREHOUSE_DIR or warehouse/).")
    ] = None,
) -> None:
    """Parse, deduplicate, extract, validate and publish the warehouse."""
    from pipeline.build import run_build

    seeds_dir = config.seeds_dir(seeds)
    warehouse_dir = config.warehouse_dir(warehouse)
    if not seeds_dir.is_dir():
        print(f"papers build: seeds directory {seeds_dir} does not exist", file=sys.stderr)
        raise typer.Exit(2)
    outcome = run_build(seeds_dir, warehouse_dir)
    if not outcome.published:
        print(f"papers build: not published: {outcome.reason}", file=sys.stderr)
        raise typer.Exit(1)
    summary = Table(title=f"Published {warehouse_dir}")
    summary.add_column("table")
    summary.add_column("rows", justify="right")
    for name, count in outcome.row_counts.items():
        summary.add_row(name, f"{count:,}")
    console.print(summary)
