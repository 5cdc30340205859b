"""Publish switches a release in with one rename: a crash at any step leaves the old release or the
new one, whole (Parquet files, database and manifest), never a mix.

Every file system operation publish makes is a step boundary: the tests crash before the first,
then before the second, and so on until a publish completes, once by raising and once by killing
the process (no `finally` runs, so what a kill leaves behind is there for the next publish).
"""

import contextlib
import itertools
import json
import multiprocessing
import os
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

import pipeline.lib.publish as publishing
from pipeline.lib.schema import TABLES

# The operations that change the file system, called through `os` by publish and pathlib; a whole
# directory removed (shutil.rmtree) counts as one.
MUTATIONS = ("mkdir", "rename", "replace", "symlink", "link")
KILLED = 86
NEW_FINGERPRINT = "1" * 64


class Crash(BaseException):
    """Not an Exception: nothing in publish may catch it and carry on."""


@contextlib.contextmanager
def crash_before(n: int, crash):
    """Call `crash` instead of the n-th file system operation, table write or database write."""
    calls = itertools.count(1)

    def wrap(owner, name):
        original = getattr(owner, name)

        def step(*args, **kwargs):
            if next(calls) == n:
                crash()
            return original(*args, **kwargs)

        return step

    with pytest.MonkeyPatch.context() as patch:
        for name in MUTATIONS:
            patch.setattr(os, name, wrap(os, name))
        patch.setattr(shutil, "rmtree", wrap(shutil, "rmtree"))
        for name in ("publish_table", "write_database", "update_database"):
            patch.setattr(publishing, name, wrap(publishing, name))
        yield


def _raise():
    raise Crash


def _publish(tables_dir: Path, warehouse: Path, fingerprint: str) -> str:
    tables = {name: tables_dir / f"{name}.parquet" for name in TABLES}
    return publishing.publish(tables, warehouse, input_fingerprint=fingerprint).build_id


def served_release(warehouse: Path) -> str:
    """The build id of the release the public paths serve, after checking that all of them serve it."""
    manifest = json.loads((warehouse / "manifest.json").read_text(encoding="utf-8"))
    build_id = manifest["build_id"]
    assert (warehouse / "current").resolve().name == build_id
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        for name in TABLES:
            path = warehouse / "parquet" / f"{name}.parquet"
            table = manifest["tables"][name]
            assert sorted(p.name for p in path.iterdir()) == sorted(table["segments"]), name
            assert pq.read_table(path).num_rows == manifest["row_counts"][name], name
            for segment in table["written"]:
                assert pq.read_schema(path / segment).metadata[b"build_id"].decode() == build_id, name
            (rows,) = con.execute(f"SELECT count(*) FROM {name}").fetchone()
            assert rows == manifest["row_counts"][name], name
    return build_id


@pytest.fixture(scope="module")
def releases(built_warehouse, tmp_path_factory):
    """An old warehouse (empty tables, and a release before, which the next publish prunes) to copy,
    and the tables of the new release (the seeds')."""
    root = tmp_path_factory.mktemp("releases")
    empty = root / "empty"
    empty.mkdir()
    for name, table in TABLES.items():
        table.empty_frame().write_parquet(empty / f"{name}.parquet")
    old = root / "old"
    _publish(empty, old, "f" * 64)
    old_id = _publish(empty, old, "0" * 64)
    return old, old_id, built_warehouse / "parquet"


def _copy(old: Path, target: Path) -> Path:
    shutil.copytree(old, target, symlinks=True)
    return target


def _which(warehouse: Path, old_id: str) -> str:
    """'old' or 'new': which whole release the warehouse serves."""
    build_id = served_release(warehouse)
    assert build_id == old_id or build_id.endswith(NEW_FINGERPRINT[:8])
    return "old" if build_id == old_id else "new"


def test_a_crash_before_any_step_of_publish_leaves_the_old_or_the_new_release_whole(releases, tmp_path):
    old, old_id, new_tables = releases
    served = []
    for n in itertools.count(1):
        warehouse = _copy(old, tmp_path / f"crash-{n}")
        try:
            with crash_before(n, _raise):
                _publish(new_tables, warehouse, NEW_FINGERPRINT)
        except Crash:
            served.append(_which(warehouse, old_id))
            assert not list((warehouse / ".releases").glob(".*.partial"))
            continue
        served.append(_which(warehouse, old_id))
        break
    # Every write and rename was a crash point; the old release is served until the one rename that
    # switches to the new one (pruning the release before follows it), and after it never.
    assert n > 10
    assert served == ["old"] * served.index("new") + ["new"] * (len(served) - served.index("new"))
    assert served.count("new") > 1


def _publish_killed_before(n: int, old: str, new_tables: str, warehouse: str) -> None:
    shutil.copytree(old, warehouse, symlinks=True)
    with crash_before(n, lambda: os._exit(KILLED)):
        _publish(Path(new_tables), Path(warehouse), NEW_FINGERPRINT)


def test_a_kill_before_any_step_of_publish_leaves_the_old_or_the_new_release_whole(releases, tmp_path):
    old, old_id, new_tables = releases
    # Forked from a server that imported publish before any thread started: a child of this
    # process (polars' and DuckDB's threads running) could hang.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["pipeline.lib.publish"])
    served = []
    for n in itertools.count(1):
        warehouse = tmp_path / f"kill-{n}"
        child = context.Process(
            target=_publish_killed_before, args=(n, str(old), str(new_tables), str(warehouse))
        )
        child.start()
        child.join(timeout=120)
        served.append(_which(warehouse, old_id))
        if child.exitcode != KILLED:
            assert child.exitcode == 0
            break
        # What the killed publish left behind (its partial release, a temporary link) does not stop
        # the next one.
        if n % 5 == 0:
            _publish(new_tables, warehouse, "2" * 64)
            assert served_release(warehouse).endswith("22222222")
    assert n > 10
    assert served == ["old"] * served.index("new") + ["new"] * (len(served) - served.index("new"))


def test_the_public_paths_are_fixed_links_through_current(built_warehouse):
    for name in ("parquet", "papers.duckdb", "manifest.json"):
        assert os.readlink(built_warehouse / name) == f"current/{name}"
    assert (built_warehouse / "current").resolve().parent.name == ".releases"
    assert (built_warehouse / "reports" / "index.html").is_file()


def test_a_warehouse_of_the_older_layout_is_adopted_without_serving_a_mix(releases, tmp_path):
    """Before releases were switched through `current`, `parquet` linked to a release and the
    database and manifest were files: the first publish keeps serving those until it switches."""
    old, old_id, new_tables = releases
    template = _copy(old, tmp_path / "template")
    release = (template / "current").resolve()
    for name in ("papers.duckdb", "manifest.json"):
        (template / name).unlink()
        shutil.move(release / name, template / name)
    (template / "parquet").unlink()
    (template / "parquet").symlink_to(Path(".releases") / release.name / "parquet")
    (template / "current").unlink()
    for n in itertools.count(1):
        warehouse = _copy(template, tmp_path / f"crash-{n}")
        try:
            with crash_before(n, _raise):
                _publish(new_tables, warehouse, NEW_FINGERPRINT)
        except Crash:
            manifest = json.loads((warehouse / "manifest.json").read_text(encoding="utf-8"))
            if manifest["build_id"] != old_id:
                assert _which(warehouse, old_id) == "new"
                break  # the switch is the same as in a warehouse of the current layout
            with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
                assert con.execute("SELECT count(*) FROM papers").fetchone() == (0,)
            assert pq.read_table(warehouse / "parquet" / "papers.parquet").num_rows == 0
            continue
        assert _which(warehouse, old_id) == "new"
        break
