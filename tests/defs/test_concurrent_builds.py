"""Two builds at once into one warehouse: each is one transaction, so every release is whole.

Build A reads one seeds directory and build B another that holds one more file. The second build
to start waits for the first (the warehouse's build lock) and then publishes; every release either
published must equal a build of A's inputs alone or of B's inputs alone.
"""

import multiprocessing
import os
import threading
import time
from pathlib import Path

import polars as pl

from pipeline.build import run_build
from pipeline.lib.publish import RELEASES_DIR, build_lock
from pipeline.lib.schema import TABLES
from tests.conftest import SEEDS

ROUNDS = 3
TIMEOUT_SECONDS = 300


def _abstracts() -> list[str]:
    paragraphs = (SEEDS / "000_7beccc23ec4b2ebf.txt").read_text(encoding="utf-8").split("\n\n")
    return [p.strip() for p in paragraphs[1:] if p.strip()]


def _write_seeds(directory: Path, files: dict[str, list[str]]) -> Path:
    directory.mkdir()
    for name, abstracts in files.items():
        (directory / name).write_text("\n\n".join(["ICLR 2024 Papers", *abstracts]) + "\n", encoding="utf-8")
    return directory


def _reference(seeds: Path) -> Path:
    return seeds.with_name(f"reference_{seeds.name}")


def _race(seeds: str, warehouse: str, start, results) -> None:
    """A builder: first a warehouse of its own (the reference), then a build per round, all
    builders of a round starting together."""
    outcome = run_build(Path(seeds), _reference(Path(seeds)))
    results.put(("reference", outcome.published, outcome.reason))
    for round_ in range(ROUNDS):
        start.wait(timeout=TIMEOUT_SECONDS)
        outcome = run_build(Path(seeds), Path(warehouse), waiting=lambda message: None)
        results.put((round_, outcome.published, outcome.reason))


def _tables(parquet_dir: Path) -> dict[str, pl.DataFrame]:
    """Each table's rows in a canonical order: a table promises its rows, not their order."""
    return {name: pl.read_parquet(parquet_dir / f"{name}.parquet").sort(pl.all()) for name in TABLES}


def _assert_consistent(tables: dict[str, pl.DataFrame]) -> None:
    papers = set(tables["papers"]["paper_id"])
    assert set(tables["documents"]["paper_id"]) <= papers
    assert set(tables["mentions"]["paper_id"]) <= papers
    per_file = tables["documents"].group_by("source_file").len()
    claimed = tables["input_files"].select("source_file", "n_documents")
    joined = claimed.join(per_file, on="source_file", how="full", coalesce=True).fill_null(0)
    assert joined.filter(pl.col("n_documents") != pl.col("len")).height == 0, joined


def _same(left: dict[str, pl.DataFrame], right: dict[str, pl.DataFrame]) -> bool:
    return all(left[name].equals(right[name]) for name in TABLES)


def test_two_builds_at_once_from_two_seeds_directories_publish_only_whole_releases(tmp_path):
    abstracts = _abstracts()
    common = {"000_a.txt": abstracts[:2], "001_b.txt": abstracts[2:4]}
    seeds_a = _write_seeds(tmp_path / "seeds_a", common)
    # One more file, holding a new abstract and a copy of one in 000_a.txt.
    seeds_b = _write_seeds(tmp_path / "seeds_b", {**common, "010_extra.txt": [abstracts[4], abstracts[0]]})
    warehouse = tmp_path / "warehouse"
    context = multiprocessing.get_context("forkserver")
    start = context.Barrier(3)
    results = context.Queue()
    builders = [
        context.Process(target=_race, args=(str(seeds), str(warehouse), start, results))
        for seeds in (seeds_a, seeds_b)
    ]
    for builder in builders:
        builder.start()
    try:
        assert [results.get(timeout=TIMEOUT_SECONDS)[1:] for _ in builders] == [(True, "published")] * 2
        references = [_tables(_reference(seeds) / "parquet") for seeds in (seeds_a, seeds_b)]
        assert not _same(*references)
        seen: dict[str, int] = {}
        for round_ in range(ROUNDS):
            start.wait(timeout=TIMEOUT_SECONDS)
            outcomes = [results.get(timeout=TIMEOUT_SECONDS) for _ in builders]
            assert outcomes == [(round_, True, "published")] * 2
            # Both of this round's releases are kept: the current one and the one before.
            for release in sorted((warehouse / RELEASES_DIR).iterdir()):
                if release.name.startswith(".") or release.name in seen:
                    continue
                tables = _tables(release / "parquet")
                _assert_consistent(tables)
                matches = [i for i, reference in enumerate(references) if _same(tables, reference)]
                assert len(matches) == 1, f"release {release.name} of round {round_} is neither build"
                seen[release.name] = matches[0]
        assert len(seen) == 2 * ROUNDS
        assert set(seen.values()) == {0, 1}
    finally:
        for builder in builders:
            builder.join(timeout=TIMEOUT_SECONDS)
            if builder.is_alive():
                builder.kill()


def test_a_second_build_waits_for_the_first_and_says_so(tmp_path):
    warehouse = tmp_path / "warehouse"
    messages, outcomes = [], []
    with build_lock(warehouse, "the first build", waiting=messages.append):
        second = threading.Thread(
            target=lambda: outcomes.append(run_build(SEEDS, warehouse, waiting=messages.append))
        )
        second.start()
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while not messages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not outcomes
    second.join(timeout=TIMEOUT_SECONDS)
    assert outcomes[0].published, outcomes[0].reason
    (message,) = messages
    assert message.startswith(f"waiting for the first build (pid {os.getpid()}, since ")
    assert message.endswith(f"to finish with the warehouse {warehouse}")
