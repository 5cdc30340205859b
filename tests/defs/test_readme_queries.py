"""Every SQL example in the README runs against a published warehouse."""

import re

import duckdb
import pytest

from tests.conftest import REPO_ROOT

QUERIES = re.findall(r"```sql\n(.*?)```", (REPO_ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_readme_has_three_example_queries():
    assert len(QUERIES) >= 3


@pytest.mark.parametrize("sql", QUERIES, ids=[f"query{i + 1}" for i in range(len(QUERIES))])
def test_readme_query_runs(built_warehouse, sql):
    with duckdb.connect(str(built_warehouse / "papers.duckdb"), read_only=True) as con:
        rows = con.execute(sql).fetchall()
    assert rows, sql
