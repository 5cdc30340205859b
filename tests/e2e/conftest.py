"""The real `dagster dev` (webserver and daemon) of the end-to-end run: its own process group, a
temporary DAGSTER_HOME and warehouse."""

import os
import shutil
import signal
import socket
import subprocess
import time

import dagster as dg
import pytest
import requests

from pipeline.defs.ingest import SEED_FILES
from tests.conftest import REPO_ROOT, SEEDS

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
    log_path = tmp_path / "dagster_dev.log"
    log = log_path.open("w")
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
            assert process.poll() is None, log_path.read_text()[-3000:]
            try:
                if requests.get(f"http://127.0.0.1:{port}/server_info", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline, "dagster dev did not answer /server_info in time"
            time.sleep(1)
        wait_for_partitions(home, {path.name for path in SEEDS.glob("*.txt")})
        yield port, warehouse, home
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def wait_for_partitions(home, expected: set[str]) -> None:
    """The sensor registers one partition per seed file shortly after the daemon starts: the assets
    are partitioned by input file, so a backfill launched before would miss files."""
    deadline = time.monotonic() + STARTUP_SECONDS
    with dg.DagsterInstance.from_config(str(home)) as instance:
        while set(instance.get_dynamic_partitions(SEED_FILES.name)) != expected:
            assert time.monotonic() < deadline, "the seed files sensor did not register the files"
            time.sleep(2)
