"""A real Dask cluster (a scheduler and two worker processes, started here): the warehouse built
through it equals the one built on this machine alone, and its per-file work ran on the workers."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from distributed import Client

from pipeline.build import run_build
from pipeline.lib.engine import SCHEDULER_ENV, Engine, local_processes, open_engine, scheduler_address
from pipeline.lib.filemap import EXTRACTED_PART
from tests.conftest import SEEDS

DASK = Path(sys.executable).with_name("dask")
WORKERS = 2
START_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(arguments: list[str], log: Path) -> subprocess.Popen:
    # A session of its own: teardown ends the process and the children it started (a worker's nanny).
    with open(log, "wb") as output:
        return subprocess.Popen(
            [str(DASK), *arguments], stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )


def _stop(process: subprocess.Popen) -> None:
    for sent, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[str]:
    """The address of a scheduler with two single-threaded worker processes."""
    root = tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    processes = [
        _start(["scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"], root / "s.log")
    ]
    try:
        for n in range(WORKERS):
            processes.append(
                _start(
                    [
                        "worker", address, "--nthreads", "1", "--no-dashboard", "--name", f"w{n}",
                        "--local-directory", str(root / f"w{n}"),
                    ],
                    root / f"w{n}.log",
                )
            )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        with Client(address, timeout=START_TIMEOUT, set_as_default=False) as client:
            client.wait_for_workers(WORKERS, timeout=max(1.0, deadline - time.monotonic()))
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _write_seeds(directory: Path) -> list[str]:
    """The shipped seed text files plus CSV, JSON Lines and BibTeX files over some of their abstracts."""
    shutil.copytree(SEEDS, directory)
    abstracts = [
        p.strip()
        for path in sorted(SEEDS.glob("*.txt"))
        for p in path.read_text(encoding="utf-8").split("\n\n")[1:]
        if p.strip()
    ]
    with open(directory / "iclr2026.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["openreview_url", "title", "abstract"])
        for i, text in enumerate(abstracts[:3]):
            writer.writerow([f"https://openreview.net/forum?id=Dask00000{i}", f"Paper {i}", text])
    records = [{"title": f"Record {i}", "abstract": text} for i, text in enumerate(abstracts[3:6])]
    (directory / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (directory / "refs.bib").write_text(
        "".join(
            f"@inproceedings{{ref{i},\n  title = {{Reference {i}}},\n  abstract = {{{text}}}\n}}\n\n"
            for i, text in enumerate(abstracts[6:8])
        ),
        encoding="utf-8",
    )
    return sorted(p.name for p in directory.iterdir())


def _tables(warehouse: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in sorted((warehouse / "parquet").glob("*.parquet"))}


def _finished_tasks(client: Client) -> dict[str, int]:
    """Tasks the scheduler saw finish, by the name of the function they ran."""
    return client.run_on_scheduler(
        lambda dask_scheduler: {
            name: prefix.state_counts["memory"] for name, prefix in dask_scheduler.task_prefixes.items()
        }
    )


# One test, so that pytest-xdist never starts a second cluster for a second test of this module.
def test_a_build_through_the_cluster_equals_the_local_build_and_ran_on_its_workers(
    cluster, tmp_path, monkeypatch
):
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)  # the local build must be local
    files = _write_seeds(tmp_path / "seeds")
    assert len(files) == 5
    with Client(cluster, set_as_default=False) as client:
        before = client.run(lambda dask_worker: dask_worker.state.executed_count)
        on_cluster = run_build(tmp_path / "seeds", tmp_path / "cluster", scheduler=cluster)
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
        finished = _finished_tasks(client)
    assert on_cluster.published, on_cluster.reason
    assert on_cluster.parsed_files == files
    # Every file was read and signed on the cluster, and each file's texts (one chunk of them for
    # each file that holds a text no other file gave) were extracted there too ...
    assert finished.get("read_and_sign") == len(files)
    extracting = [
        part
        for part in (tmp_path / "cluster" / ".staging" / "seed_file").glob(f"*/{EXTRACTED_PART}.parquet")
        if pl.read_parquet(part).height
    ]
    assert len(extracting) >= 2
    assert finished.get("extract_chunk") == len(extracting)  # dask drops a function's leading _
    # ... spread over both worker processes.
    ran = {worker: executed[worker] - before[worker] for worker in executed}
    assert len(ran) == WORKERS and all(count > 0 for count in ran.values()), ran
    assert sum(ran.values()) == len(files) + len(extracting)

    local = run_build(tmp_path / "seeds", tmp_path / "local")
    assert local.published, local.reason
    assert local.row_counts == on_cluster.row_counts
    expected, got = _tables(tmp_path / "local"), _tables(tmp_path / "cluster")
    assert got.keys() == expected.keys() and {"documents", "papers", "mentions"} <= got.keys()
    for name, table in expected.items():
        assert got[name].equals(table), name

    # The cluster is found through the environment too (as `dagster dev` finds it), and on a worker
    # work that would start a local pool of 4 processes runs in the task instead.
    monkeypatch.setenv(SCHEDULER_ENV, cluster)
    with open_engine(scheduler_address(None), local_workers=8) as engine:
        assert engine.workers == WORKERS  # the cluster's threads, not the local count
        assert engine.executor is not None
        assert engine.executor.submit(local_processes, 4).result() == 1
    assert local_processes(4) == 4
    monkeypatch.delenv(SCHEDULER_ENV)
    with open_engine(scheduler_address(None), local_workers=8) as engine:
        assert engine == Engine(8)
