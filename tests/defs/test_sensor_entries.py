"""The seeds sensor stamps every entry from its status alone, and names Dagster refuses are escaped."""

import os

import dagster as dg

from pipeline.defs.automation import seed_files_sensor
from pipeline.defs.resources import WarehousePaths
from pipeline.lib.readers.entries import file_name, partition_key


def test_the_sensor_registers_every_entry_without_opening_any(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a...b.txt").write_text("ICLR 2024 Papers\n")
    os.mkfifo(seeds / "pipe.txt")
    (seeds / "dangling.txt").symlink_to(tmp_path / "missing")
    (seeds / "zero.txt").symlink_to("/dev/zero")
    with dg.instance_for_test() as instance:
        paths = WarehousePaths(seeds_dir=str(seeds), warehouse_dir=str(tmp_path / "warehouse"))
        result = seed_files_sensor(dg.build_sensor_context(instance=instance, resources={"paths": paths}))
    (request,) = result.dynamic_partitions_requests
    assert sorted(request.partition_keys) == ["a%2E%2E%2Eb.txt", "dangling.txt", "pipe.txt", "zero.txt"]
    assert len(result.run_requests) == 2  # parse the files, then build the tables


def test_partition_keys_round_trip_to_file_names():
    for name in ("plain.txt", "a...b.txt", "100%.txt", "tab\there.txt", "a%2E%2E%2Eb.txt"):
        key = partition_key(name)
        assert file_name(key) == name
        assert "..." not in key and "\t" not in key


def _ingest_keys(instance, paths, cursor):
    context = dg.build_sensor_context(instance=instance, resources={"paths": paths}, cursor=cursor)
    result = seed_files_sensor(context)
    keys = [r.run_key for r in result.run_requests if r.run_key.startswith("ingest:")]
    return keys, context.cursor


def test_every_edit_of_a_stale_file_gets_a_run_of_its_own_even_back_to_earlier_bytes(tmp_path, monkeypatch):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    first = "ICLR 2024 Papers\n\nA first abstract.\n"
    (seeds / "a.txt").write_text(first)
    paths = WarehousePaths(seeds_dir=str(seeds), warehouse_dir=str(tmp_path / "warehouse"))
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("seed_files", ["a.txt"])
        (key_a,), cursor = _ingest_keys(instance, paths, None)
        assert _ingest_keys(instance, paths, cursor)[0] == [key_a]  # nothing changed: the same run
        (seeds / "a.txt").write_text("ICLR 2024 Papers\n\nA second abstract.\n")
        (key_b,), cursor = _ingest_keys(instance, paths, cursor)
        (seeds / "a.txt").write_text(first)
        (key_a_again,), cursor = _ingest_keys(instance, paths, cursor)
        assert len({key_a, key_b, key_a_again}) == 3
        # New code makes every file stale again, under a key not used before.
        monkeypatch.setattr("pipeline.defs.automation.file_version", lambda name, mappings: "new code")
        (key_new_code,), _ = _ingest_keys(instance, paths, cursor)
        assert key_new_code not in {key_a, key_b, key_a_again}
