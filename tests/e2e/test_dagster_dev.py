"""The real `dagster dev` (webserver and daemon) without a browser: the sensor registers the files, a
backfill of every asset launched through GraphQL publishes the warehouse, then the DuckDB file is
queried. Where chromium is installed (always in CI), the browser test makes this run through the UI,
which launches the backfill with the same GraphQL mutation: one end-to-end run of `dagster dev` is
enough, and each costs about a minute and a half of the daemon's backfill ticks."""

import shutil
import time

import duckdb
import pytest
import requests

from pipeline.definitions import defs
from tests.e2e.conftest import RUN_SECONDS

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("chromium") is not None, reason="tests/e2e/test_browser.py makes this run through the UI"
    ),
]


LAUNCH_BACKFILL = """
mutation Launch($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on PythonError { message }
  }
}
"""
BACKFILL_STATUS = """
query Status($id: String!) {
  partitionBackfillOrError(backfillId: $id) {
    __typename
    ... on PartitionBackfill { status }
    ... on PythonError { message }
  }
}
"""
DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}


def _graphql(port: int, query: str, variables: dict) -> dict:
    response = requests.post(
        f"http://127.0.0.1:{port}/graphql", json={"query": query, "variables": variables}, timeout=60
    )
    response.raise_for_status()
    body = response.json()
    assert "errors" not in body, body["errors"]
    return body["data"]


def test_dagster_dev_materialises_every_asset_and_publishes(dagster_dev):
    port, warehouse, _ = dagster_dev
    asset_keys = [{"path": key.path} for key in defs.resolve_asset_graph().get_all_asset_keys()]
    launched = _graphql(
        port, LAUNCH_BACKFILL, {"params": {"assetSelection": asset_keys, "allPartitions": True}}
    )
    assert launched["launchPartitionBackfill"]["__typename"] == "LaunchBackfillSuccess", launched
    backfill_id = launched["launchPartitionBackfill"]["backfillId"]
    deadline = time.monotonic() + RUN_SECONDS
    status = None
    while time.monotonic() < deadline:
        status = _graphql(port, BACKFILL_STATUS, {"id": backfill_id})["partitionBackfillOrError"].get(
            "status"
        )
        if status in DONE:
            break
        time.sleep(2)
    assert status in {"COMPLETED", "COMPLETED_SUCCESS"}
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM papers").fetchone() == (32,)
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (38,)
