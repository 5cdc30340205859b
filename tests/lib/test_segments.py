"""A table published as Parquet segments: a rebuild writes only the segments whose groups changed
and publishes the same rows as a full write."""

import os

import polars as pl
import pyarrow.parquet as pq
import pytest

import pipeline.lib.segments as segments
from pipeline.lib.schema import TABLES
from pipeline.lib.segments import publish_table

LINKS = TABLES["links"]  # grouped by paper_id


def _links(papers: range, url: str = "https://x.org") -> pl.DataFrame:
    return pl.DataFrame(
        {
            "paper_id": [f"P{i:04d}" for i in papers for _ in range(2)],
            "url": [f"{url}/{i}/{k}" for i in papers for k in range(2)],
            "kind": ["code", "other"] * len(papers),
            "start": [0, 10] * len(papers),
            "end": [5, 15] * len(papers),
        }
    )


def _publish(frame, release, previous=None):
    directory = release / "parquet" / "links.parquet"
    change = publish_table(LINKS, frame, release, directory, LINKS.arrow_schema(), previous)
    return change, directory


def _rows(directory):
    return pl.read_parquet(directory).sort("paper_id", "url")


@pytest.fixture
def small_segments(monkeypatch):
    monkeypatch.setattr(segments, "SEGMENT_BYTES", 2_000)


def test_a_rebuild_rewrites_only_the_segments_of_changed_groups(tmp_path, small_segments):
    before = _links(range(100))
    full, first = _publish(before, tmp_path / "r1")
    assert full.full and len(full.segments) > 4
    after = pl.concat([before.filter(pl.col("paper_id") != "P0003"), _links(range(3, 4), "https://y.org")])
    change, second = _publish(after, tmp_path / "r2", previous=tmp_path / "r1")
    assert not change.full
    assert change.removed_keys.column("key").to_pylist() == ["P0003"]
    assert len(change.written) == 1
    kept = set(change.segments) - set(change.written)
    assert kept and all(os.path.samefile(first / name, second / name) for name in kept)
    assert _rows(second).equals(after.sort("paper_id", "url"))


def test_new_groups_join_a_small_newest_segment_or_start_one(tmp_path, small_segments):
    _publish(_links(range(100)), tmp_path / "r1")
    change, second = _publish(_links(range(103)), tmp_path / "r2", previous=tmp_path / "r1")
    assert change.removed_keys.num_rows == 0 and change.added.num_rows == 6
    assert len(change.written) == 1
    assert _rows(second).equals(_links(range(103)).sort("paper_id", "url"))


def test_nothing_changed_means_nothing_written(tmp_path, small_segments):
    _publish(_links(range(50)), tmp_path / "r1")
    change, _ = _publish(_links(range(50)), tmp_path / "r2", previous=tmp_path / "r1")
    assert change.written == [] and change.added.num_rows == 0


def test_removing_every_row_leaves_one_empty_segment(tmp_path):
    _publish(_links(range(5)), tmp_path / "r1")
    change, second = _publish(LINKS.empty_frame(), tmp_path / "r2", previous=tmp_path / "r1")
    assert change.rows == 0 and len(list(second.iterdir())) == 1
    assert pq.read_table(second).num_rows == 0


def test_an_index_of_another_layout_means_a_full_write(tmp_path, monkeypatch):
    _publish(_links(range(5)), tmp_path / "r1")
    monkeypatch.setattr(segments, "LAYOUT_VERSION", "another")
    change, _ = _publish(_links(range(5)), tmp_path / "r2", previous=tmp_path / "r1")
    assert change.full
