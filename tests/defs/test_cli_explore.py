"""`papers search`, `papers stats` and `papers show` on the seed warehouse, as a user runs them."""

import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.lib import search
from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES
from tests.conftest import REPO_ROOT

PAPERS = Path(sys.executable).parent / "papers"
PAPER_ID = re.compile(r"P[0-9a-f]{16}")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(*args: str, warehouse: Path, color: bool = False):
    env = {"PAPERS_WAREHOUSE_DIR": str(warehouse), "COLUMNS": "160", "NO_COLOR": "", "FORCE_COLOR": ""}
    if color:
        env["FORCE_COLOR"] = "1"
    return CliRunner().invoke(app, list(args), env=env)


@pytest.fixture(scope="module")
def sparse_implicit_paper(built_warehouse) -> str:
    with duckdb.connect(str(built_warehouse / "papers.duckdb"), read_only=True) as con:
        (paper_id,) = con.execute(
            "SELECT paper_id FROM papers WHERE abstract_clean LIKE '%Sparse Implicit Representation%'"
        ).fetchone()
    return paper_id


def test_papers_search_lists_the_sparse_implicit_representation_paper_first(
    built_warehouse, sparse_implicit_paper
):
    env = {**os.environ, "PAPERS_WAREHOUSE_DIR": str(built_warehouse), "COLUMNS": "160"}
    done = subprocess.run(
        [str(PAPERS), "search", "mesh compression"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    ids = PAPER_ID.findall(done.stdout)
    assert ids[0] == sparse_implicit_paper
    assert len(ids) == len(set(ids)) > 1
    assert "mesh compression" in done.stdout


def test_search_papers_in_plain_duckdb_gives_the_same_top_hit(built_warehouse, sparse_implicit_paper):
    # A fresh process that cannot load or download any extension, like a stock DuckDB client offline.
    script = (
        "import duckdb, sys\n"
        "offline = {'autoinstall_known_extensions': False, 'autoload_known_extensions': False}\n"
        "con = duckdb.connect(sys.argv[1], read_only=True, config=offline)\n"
        "print(con.sql(\"SELECT paper_id FROM search_papers('mesh compression')\").fetchall()[0][0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(built_warehouse / "papers.duckdb")],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == sparse_implicit_paper


def test_search_limit_and_no_match(built_warehouse):
    limited = _run("search", "compression", "--limit", "2", warehouse=built_warehouse)
    assert limited.exit_code == 0, limited.output
    assert len(PAPER_ID.findall(limited.stdout)) == 2
    nothing = _run("search", "zyzzyva", warehouse=built_warehouse)
    assert nothing.exit_code == 0
    assert "No paper matches 'zyzzyva'." in nothing.stdout


def test_search_explains_why_it_is_unavailable(tmp_path, monkeypatch):
    def missing():
        raise search.SearchUnavailable("the Python package duckdb-extension-fts is not installed")

    monkeypatch.setattr(search, "fts_extension_path", missing)
    publish(
        {name: table.empty_frame() for name, table in TABLES.items()}, tmp_path, input_fingerprint="0" * 64
    )
    result = _run("search", "mesh", warehouse=tmp_path)
    assert result.exit_code == 1
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("papers search: full-text search is unavailable: ")
    assert "duckdb-extension-fts is not installed" in line and "rebuild the warehouse" in line


@pytest.mark.parametrize("args", [("search", "mesh"), ("stats",), ("show", "P0")])
def test_commands_without_a_warehouse_say_so(tmp_path, args):
    result = _run(*args, warehouse=tmp_path / "nowhere")
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    database = tmp_path / "nowhere" / "papers.duckdb"
    assert line == f"papers {args[0]}: no warehouse at {database}; run `papers build` first"


def test_stats_summarises_the_seed_warehouse(built_warehouse):
    result = _run("stats", warehouse=built_warehouse)
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(built_warehouse / "papers.duckdb"), read_only=True) as con:
        expected = {
            "papers": con.execute("SELECT count(*) FROM papers").fetchone()[0],
            "documents": con.execute("SELECT count(*) FROM documents").fetchone()[0],
            "duplicates merged": con.execute(
                "SELECT count(*) FROM documents WHERE match <> 'first'"
            ).fetchone()[0],
            "rejects": con.execute("SELECT count(*) FROM rejects").fetchone()[0],
        }
        by_type = con.execute("SELECT entity_type, count(*) FROM entities GROUP BY 1").fetchall()
        (top_metric,) = con.execute(
            "SELECT name FROM entities WHERE entity_type = 'metric' ORDER BY n_papers DESC, name LIMIT 1"
        ).fetchone()
    for label, value in expected.items():
        assert re.search(rf"│ {label} +│ +{value:,} │", result.stdout), label
    for entity_type, count in by_type:
        assert re.search(rf"│ {entity_type} +│ +{count:,} │", result.stdout), entity_type
    for title in ("Entities by type", "Top proposed methods", "Top datasets", "Top metrics"):
        assert title in result.stdout
    assert top_metric in result.stdout


def test_show_highlights_the_entities_in_the_clean_abstract(built_warehouse, sparse_implicit_paper):
    plain = _run("show", sparse_implicit_paper, warehouse=built_warehouse)
    assert plain.exit_code == 0, plain.output
    assert ANSI.search(plain.stdout) is None
    assert "Sparse Implicit Representation (SIR)" in " ".join(plain.stdout.split())

    coloured = _run("show", sparse_implicit_paper[:8], warehouse=built_warehouse, color=True)
    assert coloured.exit_code == 0, coloured.output
    # What the paper proposes is bold and underlined in its type's colour (cyan for methods).
    assert re.search(r"\x1b\[1;4;36mSparse Implicit Representation\x1b\[0m", coloured.stdout)


def test_show_colours_what_a_paper_cites(built_warehouse):
    with duckdb.connect(str(built_warehouse / "papers.duckdb"), read_only=True) as con:
        paper_id, text = con.execute(
            "SELECT paper_id, text FROM mentions AS m WHERE role = 'referenced' AND NOT EXISTS "
            "(SELECT 1 FROM mentions AS o WHERE o.paper_id = m.paper_id AND o.start < m.end "
            "AND o.end > m.start AND (o.start, o.end) <> (m.start, m.end)) ORDER BY paper_id, start LIMIT 1"
        ).fetchone()
    coloured = _run("show", paper_id, warehouse=built_warehouse, color=True)
    assert coloured.exit_code == 0, coloured.output
    assert re.search(rf"\x1b\[\d+m{re.escape(text)}\x1b\[0m", coloured.stdout), text


def test_show_rejects_unknown_and_ambiguous_ids(built_warehouse):
    unknown = _run("show", "Pzzz", warehouse=built_warehouse)
    assert unknown.exit_code == 1
    assert unknown.stderr.strip() == "papers show: no paper 'Pzzz' in the warehouse"
    ambiguous = _run("show", "P", warehouse=built_warehouse)
    assert ambiguous.exit_code == 1
    assert "is the start of several paper ids" in ambiguous.stderr
