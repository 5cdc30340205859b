"""A build over the seed text files plus files in the other formats: merged across sources, titled,
searchable and exportable, every record accounted for."""

from __future__ import annotations

import csv
import gzip
import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline.build import run_build
from pipeline.cli import app
from tests.conftest import SEEDS

SEED_FILE = "000_7beccc23ec4b2ebf.txt"
REWRITE = (
    "Robots learn to place objects from few demonstrations when a diffusion policy is conditioned on "
    "object-centric keypoints; we show this on twelve tasks and two real arms, with large gains in success."
)
REWRITTEN = (
    "Robots learn to place objects from few demonstrations when a diffusion policy is conditioned on "
    "object-centric keypoints. On twelve simulated tasks and two real robot arms, success rises sharply, "
    "and the policy transfers across object shapes."
)
OTHER = (
    "We measure how quickly tactile sensing helps a manipulator recover from slips, using a learned "
    "slip detector that runs at one kilohertz on the gripper and cuts drops by half in cluttered bins."
)
OTHER_CAMERA_READY = (
    "A learned slip detector running at one kilohertz on a gripper lets a manipulator recover from slips "
    "quickly: in cluttered bins it halves the number of dropped objects, as tactile sensing shows."
)
S2_ABSTRACT = (
    "Soil moisture maps from satellite radar are sharpened by a learned super-resolution model trained "
    "on sparse probe readings, cutting the error of drought forecasts across three river basins by a third."
)
LONG_TITLE = "Keypoint-Conditioned Diffusion Policies for Few-Shot Object Placement"


def _seed_abstracts() -> list[str]:
    text = (SEEDS / SEED_FILE).read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n")[1:] if p.strip()]


@pytest.fixture(scope="module")
def mixed_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("mixed")
    seeds = root / "seeds"
    shutil.copytree(SEEDS, seeds)
    first, second = _seed_abstracts()[:2]
    with open(seeds / "iclr2026.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["openreview_url", "venue", "title", "abstract", "rating"])
        writer.writerow(
            ["https://openreview.net/forum?id=Seed000001", "ICLR 2026 Poster", "First Seed", first, "6"]
        )
        writer.writerow(
            ["https://openreview.net/forum?id=Seed000002", "ICLR 2026 Oral", "Second Seed", second, "8"]
        )
    forum = "https://openreview.net/forum?id="
    tsv_rows = [
        [f"{forum}Robo000001", LONG_TITLE, "Ada Lovelace;Alan Turing", "robots;diffusion", "",
         "CoRL 2024", REWRITE],
        [f"{forum}Robo000002", "Slip Detection at a Kilohertz", "Grace Hopper;Alan Kay", "tactile;slip", "",
         "CoRL 2024", OTHER],
    ]  # fmt: skip
    (seeds / "corl_scrape.csv").write_text("\n".join("\t".join(r) for r in tsv_rows) + "\n", encoding="utf-8")
    paperlists = [
        {"id": "Robo000001", "title": LONG_TITLE, "author": "Ada Lovelace;Alan Turing", "abstract": REWRITE,
         "site": "https://openreview.net/forum?id=Robo000001", "track": "main", "status": "Poster"},
        {"id": "Robo000002", "title": "Slip Detection at a Kilohertz", "author": "Grace Hopper;Alan Kay",
         "abstract": OTHER_CAMERA_READY, "site": "https://openreview.net/forum?id=Robo000002",
         "track": "main", "status": "Oral"},
    ]  # fmt: skip
    (seeds / "corl2024.json").write_text(json.dumps(paperlists), encoding="utf-8")
    arxiv = {
        "id": "2406.00001",
        "authors": "Ada Lovelace, Alan Turing",
        "title": LONG_TITLE,
        "abstract": REWRITTEN,
        "categories": "cs.RO",
        "versions": [{"version": "v2", "created": "Mon, 3 Jun 2024 10:00:00 GMT"}],
    }
    with gzip.open(seeds / "arxiv.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(json.dumps(arxiv) + "\n")
    s2 = {"corpusid": 7, "externalids": {"DOI": None}, "title": "Only Metadata", "authors": [], "year": 2020}
    (seeds / "s2_papers.jsonl").write_text(json.dumps(s2) + "\n", encoding="utf-8")
    s2_abstract = {"corpusid": 7, "openaccessinfo": {"externalids": {}}, "abstract": S2_ABSTRACT}
    (seeds / "s2_abstracts.jsonl").write_text(json.dumps(s2_abstract) + "\n", encoding="utf-8")
    outcome = run_build(seeds, root / "warehouse")
    assert outcome.published, outcome.reason
    return root / "warehouse"


def _rows(warehouse: Path, sql: str, parameters=None):
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        return con.execute(sql, parameters).fetchall()


def test_every_record_of_every_file_is_a_document_or_a_reject(mixed_build):
    counts = _rows(
        mixed_build,
        "SELECT f.source_file, f.format, f.n_records, count(DISTINCT d.document_id), f.n_rejects "
        "FROM input_files f LEFT JOIN documents d USING (source_file) GROUP BY ALL ORDER BY 1",
    )
    for name, _, records, documents, rejects in counts:
        assert documents + rejects == records, name
    formats = {name: fmt for name, fmt, *_ in counts}
    assert formats["corl_scrape.csv"] == "tsv" and formats["arxiv.jsonl.gz"] == "jsonl"
    assert _rows(mixed_build, "SELECT reason FROM rejects WHERE source_file = 's2_papers.jsonl'") == [
        ("no abstract: id 7, title 'Only Metadata'",)
    ]


def test_seed_abstracts_take_their_title_and_openreview_id_from_the_csv(mixed_build):
    rows = _rows(
        mixed_build,
        "SELECT p.title, p.openreview_id, p.n_documents, p.sources FROM papers p "
        "WHERE p.title IN ('First Seed', 'Second Seed') ORDER BY p.title",
    )
    assert [(t, i, n) for t, i, n, _ in rows] == [
        ("First Seed", "Seed000001", 2),
        ("Second Seed", "Seed000002", 2),
    ]
    assert "csv:iclr2026.csv" in rows[0][3] and f"text:{SEED_FILE}" in rows[0][3]


def test_the_same_openreview_id_merges_a_rewritten_abstract(mixed_build):
    rows = _rows(
        mixed_build,
        "SELECT d.source_file, d.match FROM documents d JOIN papers p USING (paper_id) "
        "WHERE p.openreview_id = 'Robo000002' ORDER BY d.source_file",
    )
    assert rows == [("corl2024.json", "first"), ("corl_scrape.csv", "id")]


def test_the_same_long_title_merges_an_arxiv_version(mixed_build):
    rows = _rows(
        mixed_build,
        "SELECT d.source_file, d.match, p.arxiv_id, p.openreview_id FROM documents d "
        "JOIN papers p USING (paper_id) WHERE p.title = ? ORDER BY d.source_file",
        [LONG_TITLE],
    )
    assert [(name, match) for name, match, *_ in rows] == [
        ("arxiv.jsonl.gz", "first"),
        ("corl2024.json", "title"),
        ("corl_scrape.csv", "title"),
    ]
    assert rows[0][2:] == ("2406.00001", "Robo000001")


def test_titles_are_searched_and_shown(mixed_build):
    env = {"PAPERS_WAREHOUSE_DIR": str(mixed_build), "COLUMNS": "200", "NO_COLOR": "1"}
    result = CliRunner().invoke(app, ["search", "kilohertz slip"], env=env)
    assert result.exit_code == 0, result.output
    assert "Slip Detection at a Kilohertz" in result.output
    (paper_id,) = _rows(mixed_build, "SELECT paper_id FROM papers WHERE openreview_id = 'Robo000002'")[0]
    shown = CliRunner().invoke(app, ["show", paper_id], env=env)
    assert "Slip Detection at a Kilohertz" in shown.output and "Grace Hopper, Alan Kay" in shown.output
    assert "openreview_id: Robo000002" in shown.output


def test_export_writes_each_format_with_filters(mixed_build, tmp_path):
    env = {"PAPERS_WAREHOUSE_DIR": str(mixed_build)}
    runner = CliRunner()
    result = runner.invoke(
        app, ["export", str(tmp_path / "corl.csv"), "--venue", "corl", "--year", "2024"], env=env
    )
    assert result.exit_code == 0, result.output
    assert pl.read_csv(tmp_path / "corl.csv").height == 2
    runner.invoke(app, ["export", str(tmp_path / "titled.jsonl"), "--where", "title IS NOT NULL"], env=env)
    titled = [json.loads(line) for line in (tmp_path / "titled.jsonl").read_text().splitlines()]
    assert {r["title"] for r in titled} == {
        "First Seed",
        "Second Seed",
        LONG_TITLE,
        "Slip Detection at a Kilohertz",
        "Only Metadata",
    }
    runner.invoke(app, ["export", str(tmp_path / "docs.parquet"), "--table", "documents"], env=env)
    assert (
        pl.read_parquet(tmp_path / "docs.parquet").height
        == _rows(mixed_build, "SELECT count(*) FROM documents")[0][0]
    )
    bad = runner.invoke(app, ["export", str(tmp_path / "x.txt")], env=env)
    assert bad.exit_code == 1 and "cannot tell the format" in bad.output


def test_a_record_without_an_abstract_describes_the_paper_of_its_corpus_id(mixed_build):
    rows = _rows(mixed_build, "SELECT title, year, sources FROM papers WHERE s2_corpus_id = '7'")
    assert rows == [("Only Metadata", 2020, ["s2:s2_abstracts.jsonl", "s2:s2_papers.jsonl"])]
