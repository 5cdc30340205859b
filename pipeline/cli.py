"""The `papers` command: build the warehouse, then search and inspect it."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import threading
from pathlib import Path
from typing import Annotated, NoReturn

import duckdb
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from pipeline.lib import config, overview
from pipeline.lib import search as full_text
from pipeline.lib.publish import DATABASE_NAME


class _OneLineErrors(TyperGroup):
    """A command that DuckDB fails (a file that is not a database, a table missing) or that is given
    a warehouse directory DuckDB cannot use says why in one line on stderr instead of a traceback."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except duckdb.Error as error:
            _fail(ctx.invoked_subcommand or "", _first_line(error))
        except config.UnusableWarehouse as error:
            _fail(ctx.invoked_subcommand or "", str(error), code=2)


app = typer.Typer(
    help="Build and explore the paper warehouse.",
    no_args_is_help=True,
    add_completion=False,
    cls=_OneLineErrors,
)
console = Console(stderr=True)
# DuckDB's largest BIGINT: a --limit or --top above it asks for every row all the same.
_MOST_ROWS = 2**63 - 1

# The external ids `papers show` prints, as the papers table names them.
PAPER_IDS = ("doi", "arxiv_id", "openreview_id", "openalex_id", "s2_corpus_id", "url")
EXPORT_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl", ".parquet": "parquet"}

WarehouseOption = Annotated[
    Path | None, typer.Option(help="Warehouse directory (default: $PAPERS_WAREHOUSE_DIR or warehouse/).")
]
ENTITY_STYLES = {
    "method": "cyan",
    "model": "magenta",
    "dataset": "green",
    "metric": "yellow",
    "task": "blue",
}
PROPOSED_STYLE = "bold underline"


@app.callback()
def main() -> None:
    """Build and explore the paper warehouse."""


def _fail(command: str, reason: str, code: int = 1) -> NoReturn:
    print(f"papers {command}: {' '.join(reason.split())}", file=sys.stderr)
    raise typer.Exit(code)


def _first_line(error: duckdb.Error) -> str:
    """DuckDB's message without the query excerpt it appends on later lines."""
    return str(error).strip().splitlines()[0]


@app.command()
def build(
    seeds: Annotated[
        Path | None, typer.Option(help="Input directory (default: $PAPERS_SEEDS_DIR or seeds/).")
    ] = None,
    warehouse: Annotated[
        Path | None, typer.Option(help="Output directory (default: $PAPERS_WAREHOUSE_DIR or warehouse/).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show Dagster's log on stderr.")] = False,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Dask scheduler (tcp://host:8786) whose workers parse and extract per file "
            "(default: $PAPERS_DASK_SCHEDULER, else this machine's cores).",
        ),
    ] = None,
) -> None:
    """Parse, deduplicate, extract, validate and publish the warehouse."""
    # Imported here so that search, stats and show start without loading Dagster.
    import dagster as dg

    from pipeline.build import run_build, temporary_instance

    seeds_dir = config.seeds_dir(seeds)
    warehouse_dir = config.warehouse_dir(warehouse)
    if not seeds_dir.is_dir():
        print(f"papers build: seeds directory {seeds_dir} does not exist", file=sys.stderr)
        raise typer.Exit(2)
    # With DAGSTER_HOME set (the README's commands set it) the run shows up in `dagster dev` too;
    # without it, a temporary instance that the steps' processes can reach.
    with contextlib.ExitStack() as stack:
        if os.environ.get("DAGSTER_HOME"):
            instance = stack.enter_context(dg.DagsterInstance.get())
        else:
            home = stack.enter_context(tempfile.TemporaryDirectory(prefix="papers-dagster-"))
            instance = stack.enter_context(temporary_instance(home))
        progress = stack.enter_context(StepProgress(instance, console))
        outcome = run_build(
            seeds_dir,
            warehouse_dir,
            instance,
            log_level="DEBUG" if verbose else "CRITICAL",
            watch=progress.watch,
            scheduler=scheduler,
        )
    if not outcome.published:
        print(f"papers build: not published: {outcome.reason}", file=sys.stderr)
        raise typer.Exit(1)
    summary = Table(title=f"Published {warehouse_dir}")
    summary.add_column("table")
    summary.add_column("rows", justify="right")
    for name, count in outcome.row_counts.items():
        summary.add_row(name, f"{count:,}")
    console.print(summary)


class StepProgress:
    """A progress bar per Dagster run of the build, advanced as its steps succeed."""

    POLL_SECONDS = 0.5

    def __init__(self, instance, console: Console):
        self._instance = instance
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("steps"),
            TimeElapsedColumn(),
            console=console,
            # Only on a terminal: in a pipe or a log, stderr carries just the one-line outcome.
            disable=not console.is_terminal,
        )
        self._tasks: dict[str, TaskID] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def watch(self, token: str, label: str, steps: int) -> None:
        self._tasks[token] = self._progress.add_task(label, total=steps)

    def _advance(self) -> None:
        from dagster import DagsterEventType, RunsFilter

        from pipeline.build import RUN_TAG

        for token, task in list(self._tasks.items()):
            runs = self._instance.get_run_ids(RunsFilter(tags={RUN_TAG: token}), limit=1)
            if runs:
                done = len(self._instance.all_logs(runs[0], of_type=DagsterEventType.STEP_SUCCESS))
                self._progress.update(task, completed=done)

    def _poll(self) -> None:
        while not self._stop.wait(self.POLL_SECONDS):
            self._advance()

    def __enter__(self) -> StepProgress:
        self._progress.start()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._advance()
        self._progress.stop()


def _stdout() -> Console:
    """Results go to stdout. Made per command so that NO_COLOR, FORCE_COLOR and COLUMNS are read when
    it runs; `highlight=False` keeps rich from colouring numbers inside abstracts."""
    return Console(highlight=False)


def _connect(command: str, warehouse: Path | None) -> duckdb.DuckDBPyConnection:
    database = config.warehouse_dir(warehouse) / DATABASE_NAME
    if not database.is_file():
        _fail(command, f"no warehouse at {database}; run `papers build` first")
    try:
        return duckdb.connect(str(database), read_only=True)
    except duckdb.Error as error:
        _fail(command, f"cannot open {database}: {_first_line(error)}")


def _highlighted(text: str, words: set[str]) -> Text:
    """The snippet with every word that matched the query in bold yellow."""
    rendered = Text(text)
    if words:
        alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
        rendered.highlight_regex(rf"(?i)(?<!\w)({alternatives})(?!\w)", style="bold yellow")
    return rendered


@app.command("search")
def search_command(
    query: Annotated[str, typer.Argument(help="Words to look for, e.g. 'mesh compression'.")],
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, help="Most papers to list.")
    ] = full_text.DEFAULT_LIMIT,
    warehouse: WarehouseOption = None,
) -> None:
    """Rank the papers by BM25 full-text relevance to QUERY."""
    out = _stdout()
    with _connect("search", warehouse) as con:
        try:
            hits = full_text.search(con, query, min(limit, _MOST_ROWS))
        except full_text.SearchUnavailable as error:
            _fail("search", str(error))
        if not hits:
            out.print(f"No paper matches {query!r}.")
            return
        words = full_text.matching_words(con, query)
        described = {
            paper_id: (title, venue)
            for paper_id, title, venue in con.execute(
                "SELECT paper_id, title, concat_ws(' ', venue, year) FROM papers "
                "WHERE list_contains(?, paper_id)",
                [[hit.paper_id for hit in hits]],
            ).fetchall()
        }
    table = Table(title=f"Papers matching {query!r}", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("paper_id", no_wrap=True, style="bold")
    table.add_column("score", justify="right")
    table.add_column("venue", no_wrap=True)
    table.add_column("title and snippet")
    for rank, hit in enumerate(hits, start=1):
        title, venue = described.get(hit.paper_id, (None, ""))
        text = _highlighted(hit.snippet, words)
        if title:
            heading = _highlighted(title, words)
            heading.stylize("bold")
            text = Text.assemble(heading, "\n", text)
        table.add_row(str(rank), hit.paper_id, f"{hit.score:.2f}", venue, text)
    out.print(table)


def _name_count_table(title: str, header: str, rows: list[tuple[str, int]], style: str) -> Table:
    table = Table(title=title)
    table.add_column(header, style=style)
    table.add_column("papers", justify="right")
    for name, papers in rows:
        table.add_row(name, f"{papers:,}")
    if not rows:
        table.add_row("(none)", "")
    return table


@app.command()
def stats(
    top: Annotated[int, typer.Option("--top", "-n", min=1, help="Rows in each top list.")] = overview.TOP,
    warehouse: WarehouseOption = None,
) -> None:
    """Summarise the warehouse: counts, entities by type, top methods, datasets and metrics."""
    top = min(top, _MOST_ROWS)
    out = _stdout()
    with _connect("stats", warehouse) as con:
        counts = overview.counts(con)
        by_type = overview.entities_by_type(con)
        proposed = overview.top_proposed(con, top)
        datasets = overview.top_entities(con, "dataset", top)
        metrics = overview.top_entities(con, "metric", top)
    totals = Table(title="Warehouse")
    totals.add_column("what")
    totals.add_column("rows", justify="right")
    for name, value in (
        ("papers", counts.papers),
        ("documents", counts.documents),
        ("duplicates merged", counts.duplicates),
        ("  exact", counts.exact_duplicates),
        ("  near", counts.near_duplicates),
        ("rejects", counts.rejects),
        ("entities", counts.entities),
        ("mentions", counts.mentions),
    ):
        totals.add_row(name, f"{value:,}")
    types = Table(title="Entities by type")
    types.add_column("type")
    types.add_column("entities", justify="right")
    types.add_column("mentions", justify="right")
    for entity_type, entities, mentions in by_type:
        types.add_row(Text(entity_type, style=ENTITY_STYLES[entity_type]), f"{entities:,}", f"{mentions:,}")
    out.print(totals)
    out.print(types)
    out.print(
        _name_count_table("Top proposed methods", "proposed", proposed, "bold " + ENTITY_STYLES["method"])
    )
    out.print(_name_count_table("Top datasets", "dataset", datasets, ENTITY_STYLES["dataset"]))
    out.print(_name_count_table("Top metrics", "metric", metrics, ENTITY_STYLES["metric"]))


def _resolve_paper_id(con: duckdb.DuckDBPyConnection, paper_id: str) -> str:
    """The paper id, also from a unique prefix of it."""
    matches = [
        row[0]
        for row in con.execute(
            "SELECT paper_id FROM papers WHERE starts_with(paper_id, ?) ORDER BY paper_id LIMIT 6", [paper_id]
        ).fetchall()
    ]
    if paper_id in matches:
        return paper_id
    if not matches:
        _fail("show", f"no paper {paper_id!r} in the warehouse")
    if len(matches) > 1:
        _fail("show", f"{paper_id!r} is the start of several paper ids: {', '.join(matches[:5])}")
    return matches[0]


@app.command()
def show(
    paper_id: Annotated[str, typer.Argument(help="A paper id (or a unique start of one).")],
    warehouse: WarehouseOption = None,
) -> None:
    """Print one paper's clean abstract with its entities highlighted."""
    out = _stdout()
    with _connect("show", warehouse) as con:
        paper_id = _resolve_paper_id(con, paper_id)
        row = con.execute(
            "SELECT venue, year, abstract_clean, n_documents, source_files, proposed_methods, code_url, "
            f"title, authors, {', '.join(PAPER_IDS)} FROM papers WHERE paper_id = ?",
            [paper_id],
        ).fetchone()
        venue, year, abstract_clean, n_documents, source_files, proposed, code_url, title, authors = row[:9]
        ids = dict(zip(PAPER_IDS, row[9:], strict=True))
        mentions = con.execute(
            'SELECT entity_type, text, name, start, "end", role, evidence FROM mentions WHERE paper_id = ? '
            'ORDER BY start, "end"',
            [paper_id],
        ).fetchall()
    abstract = Text(abstract_clean)
    for entity_type, _, _, start, end, role, _ in mentions:
        style = ENTITY_STYLES.get(entity_type, "")
        abstract.stylize(f"{style} {PROPOSED_STYLE}" if role == "proposed" else style, start, end)
    out.print(Text(paper_id, style="bold"), Text(f"  {venue or ''} {year or ''}".rstrip()))
    if title:
        out.print(Text(title, style="bold"))
    if authors:
        out.print(", ".join(authors))
    known = [f"{name}: {value}" for name, value in ids.items() if value]
    if known:
        out.print("; ".join(known))
    out.print(f"{n_documents} occurrence(s) in {', '.join(source_files)}")
    if proposed:
        out.print("Proposes: " + ", ".join(proposed))
    if code_url:
        out.print(f"Code: {code_url}")
    out.print()
    out.print(abstract)
    out.print()
    legend = Text("Entities: ")
    for entity_type, style in ENTITY_STYLES.items():
        legend.append(entity_type, style=style).append("  ")
    legend.append("proposed", style=PROPOSED_STYLE)
    out.print(legend)
    if mentions:
        table = Table(title=f"{len(mentions)} mentions")
        for header in ("type", "text", "name", "span", "role", "evidence"):
            table.add_column(header)
        for entity_type, text, name, start, end, role, evidence in mentions:
            table.add_row(
                Text(entity_type, style=ENTITY_STYLES.get(entity_type, "")),
                text,
                name,
                f"{start}-{end}",
                role,
                evidence or "",
            )
        out.print(table)


@app.command()
def export(
    out: Annotated[Path, typer.Argument(help="File to write: .csv, .jsonl or .parquet (or give --format).")],
    table: Annotated[str, typer.Option(help="Table to export (any table of the warehouse).")] = "papers",
    output_format: Annotated[
        str | None, typer.Option("--format", help="csv, jsonl or parquet (default: from OUT's extension).")
    ] = None,
    venue: Annotated[str | None, typer.Option(help="Only rows of this venue (case-insensitive).")] = None,
    year: Annotated[int | None, typer.Option(help="Only rows of this year.")] = None,
    where: Annotated[
        str | None,
        typer.Option(help="Any SQL condition on the table's columns, e.g. \"title ILIKE '%graph%'\"."),
    ] = None,
    warehouse: WarehouseOption = None,
) -> None:
    """Write a table (papers by default) to CSV, JSON Lines or Parquet, filtered by venue, year or SQL."""
    chosen = output_format or EXPORT_FORMATS.get(out.suffix.lower())
    if chosen not in EXPORT_FORMATS.values():
        _fail("export", f"cannot tell the format of {out}; give --format csv, jsonl or parquet")
    with _connect("export", warehouse) as con:
        tables = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if table not in tables:
            _fail("export", f"no table {table!r}; tables are {', '.join(sorted(tables))}")
        columns = {
            name for (name,) in con.execute(f'SELECT name FROM pragma_table_info("{table}")').fetchall()
        }
        conditions, parameters = [], []
        for column, value in (("venue", venue), ("year", year)):
            if value is None:
                continue
            if column not in columns:
                _fail("export", f"table {table!r} has no {column} column to filter on")
            conditions.append("lower(venue) = lower(?)" if column == "venue" else "year = ?")
            parameters.append(value)
        if where:
            conditions.append(f"({where})")
        query = f'SELECT * FROM "{table}"' + (f" WHERE {' AND '.join(conditions)}" if conditions else "")
        relation = con.sql(query, params=parameters or None)
        out.parent.mkdir(parents=True, exist_ok=True)
        if chosen == "csv":
            relation.write_csv(str(out))
        elif chosen == "parquet":
            relation.write_parquet(str(out))
        else:
            con.execute(f"COPY ({query}) TO '{_sql_path(out)}' (FORMAT json)", parameters or None)
        count = con.execute(f"SELECT count(*) FROM ({query})", parameters or None).fetchone()[0]
    console.print(f"wrote {count:,} rows of {table} to {out} ({chosen})")


def _sql_path(path: Path) -> str:
    return str(path).replace("'", "''")
