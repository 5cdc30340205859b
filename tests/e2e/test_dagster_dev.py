"""The real `dagster dev` (webserver and daemon): launch every asset through GraphQL, then query."""

import os
import shutil
import signal
import socket
import subprocess
import time

import duckdb
import pytest
import requests
from dagster_graphql import DagsterGraphQLClient, DagsterGraphQLClientError

from pipeline.definitions import defs
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
        yield port, warehouse
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def _submit(client: DagsterGraphQLClient, asset_keys: list) -> str:
    # The code location can still be loading right after the server answers.
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            return client.submit_job_execution("__ASSET_JOB", asset_selection=asset_keys)
        except DagsterGraphQLClientError:
            if time.monotonic() > deadline:
                raise
            time.sleep(2)


def test_dagster_dev_materialises_every_asset_and_publishes(dagster_dev):
    port, warehouse = dagster_dev
    client = DagsterGraphQLClient("127.0.0.1", port_number=port)
    asset_keys = [key.path for key in defs.resolve_asset_graph().get_all_asset_keys()]
    run_id = _submit(client, asset_keys)
    deadline = time.monotonic() + RUN_SECONDS
    status = None
    while time.monotonic() < deadline:
        status = client.get_run_status(run_id).value
        if status in {"SUCCESS", "FAILURE", "CANCELED"}:
            break
        time.sleep(2)
    assert status == "SUCCESS"
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM papers").fetchone() == (32,)
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (38,)
