"""What `papers` says when it cannot do what was asked: one line on stderr and a non-zero exit."""

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES

PAPERS = Path(sys.executable).parent / "papers"
COMMANDS = [("search", "mesh"), ("stats",), ("show", "P0")]


def _run(*args: str, warehouse: Path):
    return CliRunner().invoke(app, list(args), env={"PAPERS_WAREHOUSE_DIR": str(warehouse), "NO_COLOR": "1"})


@pytest.fixture(scope="module")
def empty_warehouse(tmp_path_factory) -> Path:
    warehouse = tmp_path_factory.mktemp("empty")
    publish(
        {name: table.empty_frame() for name, table in TABLES.items()}, warehouse, input_fingerprint="0" * 64
    )
    return warehouse


@pytest.fixture
def not_a_database(tmp_path) -> Path:
    (tmp_path / "papers.duckdb").write_text("not a database\n")
    return tmp_path


@pytest.mark.parametrize("args", COMMANDS)
def test_a_file_that_is_not_a_duckdb_database_is_one_line(not_a_database, args):
    result = _run(*args, warehouse=not_a_database)
    assert result.exit_code == 1
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"papers {args[0]}: cannot open {not_a_database / 'papers.duckdb'}: ")
    assert "not a valid DuckDB database" in line


@pytest.mark.parametrize("args", COMMANDS)
def test_a_database_without_the_warehouse_tables_is_one_line(tmp_path, args):
    duckdb.connect(str(tmp_path / "papers.duckdb")).close()
    result = _run(*args, warehouse=tmp_path)
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"papers {args[0]}: ")
    assert "Traceback" not in result.output


def test_a_limit_beyond_duckdb_integers_asks_for_every_match(empty_warehouse):
    result = _run("search", "mesh", "--limit", "99999999999999999999", warehouse=empty_warehouse)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "No paper matches 'mesh'." in result.stdout
    stats = _run("stats", "--top", "99999999999999999999", warehouse=empty_warehouse)
    assert stats.exit_code == 0, stats.output


def test_the_installed_command_prints_no_traceback(not_a_database):
    env = {**os.environ, "PAPERS_WAREHOUSE_DIR": str(not_a_database)}
    done = subprocess.run([str(PAPERS), "stats"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("args", [("build",), *COMMANDS])
def test_a_warehouse_path_duckdb_cannot_use_is_refused_before_any_work(tmp_path, args):
    warehouse = tmp_path / "what?"
    result = _run(*args, warehouse=warehouse)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"papers {args[0]}: the warehouse directory {warehouse} holds '?'")
    assert not warehouse.exists()


def test_publish_refuses_a_warehouse_path_duckdb_cannot_use(tmp_path):
    with pytest.raises(ValueError, match="holds '\\?'"):
        publish(
            {name: table.empty_frame() for name, table in TABLES.items()},
            tmp_path / "a?b",
            input_fingerprint="0" * 64,
        )
    assert not (tmp_path / "a?b").exists()
