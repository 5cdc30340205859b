"""The staging area's paths come from one place, and what older builds kept there is retired."""

from pipeline.lib.staging import RETIRED, Staging


def test_every_staged_path_is_under_the_staging_root(tmp_path):
    staging = Staging(tmp_path)
    paths = [
        staging.frame("raw_documents"),
        staging.partition("seed_file", "a b*?[c].txt"),
        staging.new_snapshot(),
        staging.passed,
        staging.passed_rows("papers"),
        staging.balanced,
    ]
    assert all(path.is_relative_to(tmp_path / ".staging") for path in paths)
    assert staging.partition("seed_file", "../x").parent == staging.partitions("seed_file")
    assert not any(c in staging.partition("seed_file", "a*?[b].txt").name for c in "*?[")
    assert staging.new_snapshot() != staging.new_snapshot()


def test_the_caches_of_older_builds_are_removed_and_nothing_else(tmp_path):
    staging = Staging(tmp_path)
    for name in (*RETIRED, "seed_file"):
        (staging.root / name).mkdir(parents=True)
        (staging.root / name / "part.parquet").write_bytes(b"x")
    staging.remove_retired()
    assert sorted(p.name for p in staging.root.iterdir()) == ["seed_file"]
