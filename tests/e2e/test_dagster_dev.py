"""The real `dagster dev` (webserver and daemon): the sensor registers the files, a backfill of every
asset launched through GraphQL publishes the warehouse, then the DuckDB file is queried."""

import os
import shutil
import signal
import socket
import subprocess
import time

import dagster as dg
import duckdb
import pytest
import requests

from pipeline.definitions import defs
from pipeline.defs.ingest import SEED_FILES
from tests.conftest import REPO_ROOT, SEEDS

pytestmark = pytest.mark.e2e
STARTUP_SECONDS = 180
RUN_SECONDS = 600


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def dagster_dev(tmp_path):
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(REPO_ROOT / "dagster.yaml", home / "dagster.yaml")
    warehouse = tmp_path / "warehouse"
    port = _free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "PAPERS_SEEDS_DIR": str(SEEDS),
        "PAPERS_WAREHOUSE_DIR": str(warehouse),
    }
    log = (tmp_path / "dagster_dev.log").open("w")
    process = subprocess.Popen(
        [str(REPO_ROOT / ".venv" / "bin" / "dagster"), "dev", "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert process.poll() is None, (tmp_path / "dagster_dev.log").read_text()[-3000:]
            try:
                if requests.get(f"http://127.0.0.1:{port}/server_info", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline, "dagster dev did not answer /server_info in time"
            time.sleep(1)
        yield port, warehouse, home
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


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


def _wait_for_partitions(home, expected: set[str]) -> None:
    """The sensor registers one partition per seed file shortly after the daemon starts."""
    deadline = time.monotonic() + STARTUP_SECONDS
    with dg.DagsterInstance.from_config(str(home)) as instance:
        while set(instance.get_dynamic_partitions(SEED_FILES.name)) != expected:
            assert time.monotonic() < deadline, "the seed files sensor did not register the files"
            time.sleep(2)


def test_dagster_dev_materialises_every_asset_and_publishes(dagster_dev):
    port, warehouse, home = dagster_dev
    _wait_for_partitions(home, {path.name for path in SEEDS.glob("*.txt")})
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
