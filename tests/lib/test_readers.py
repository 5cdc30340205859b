"""Readers of every input format, on small files written here in each shape."""

from __future__ import annotations

import gzip
import io
import json
import os

import polars as pl
import pytest

from pipeline.lib.inputs import read_file, read_seeds
from pipeline.lib.readers import fields
from pipeline.lib.readers.shapes import rebuild_inverted_index

ABSTRACT = (
    "We study how sparse attention layers trade accuracy for speed in long documents and show that a "
    "simple routing rule keeps most of the quality while halving the cost of inference on every benchmark."
)
OTHER = (
    "Graph neural networks struggle with heterophily; we propose a spectral filter that adapts to the "
    "label distribution of each neighbourhood and improves node classification across eleven datasets."
)


def read(path, **kwargs):
    parsed = read_file(path, **kwargs)
    return parsed.documents, parsed.rejects, parsed.files.row(0, named=True)


def test_json_lines_in_the_arxiv_shape_carry_ids_authors_and_dates(tmp_path):
    record = {
        "id": "2101.00001",
        "submitter": "A. Person",
        "authors": "Ada Lovelace, Alan Turing and Grace Hopper",
        "title": "Sparse\n  attention at scale",
        "comments": "12 pages",
        "journal-ref": "ICML 2023",
        "doi": "https://doi.org/10.1000/XYZ.1",
        "categories": "cs.LG cs.CL",
        "abstract": "  " + ABSTRACT + "\n",
        "versions": [{"version": "v1", "created": "Mon, 4 Jan 2021 10:00:00 GMT"}],
        "authors_parsed": [["Lovelace", "Ada", ""], ["Turing", "Alan", ""], ["Hopper", "Grace", ""]],
    }
    path = tmp_path / "snapshot.jsonl"
    path.write_text(
        json.dumps(record) + "\n\n" + "{not json\n" + json.dumps({**record, "abstract": ""}) + "\n"
    )
    documents, rejects, report = read(path)
    doc = documents.row(0, named=True)
    assert doc["format"] == "arxiv"
    assert doc["title"] == "Sparse attention at scale"
    assert doc["authors"] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert (doc["arxiv_id"], doc["doi"], doc["published"]) == ("2101.00001", "10.1000/xyz.1", "2021-01-04")
    assert (doc["venue"], doc["year"], doc["venue_source"]) == ("ICML", 2023, "journal-ref")
    assert doc["keywords"] == ["cs.LG", "cs.CL"]
    assert json.loads(doc["extra"])["submitter"] == "A. Person"
    assert (doc["line_start"], doc["locator"]) == (1, "line 1")
    reasons = rejects["reason"].to_list()
    assert reasons[0].startswith("line 3 is not valid JSON")
    assert reasons[1].startswith("no abstract: id 2101.00001, title 'Sparse attention at scale'")
    assert rejects["line_start"].to_list() == [3, 4]
    assert (report["n_records"], report["n_documents"], report["n_rejects"]) == (3, 1, 2)
    assert report["status"] == "read with rejects"


def test_openreview_v2_notes_unwrap_values_and_take_the_venue(tmp_path):
    note = {
        "id": "AbCdEf1234",
        "forum": "AbCdEf1234",
        "content": {
            "title": {"value": "A Spectral Filter"},
            "abstract": {"value": OTHER},
            "authors": {"value": ["Ada Lovelace", "Alan Turing"]},
            "venue": {"value": "ICLR 2025 poster"},
            "keywords": {"value": ["graphs", "heterophily"]},
        },
    }
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"notes": [note], "count": 1}))
    documents, _, _ = read(path)
    doc = documents.row(0, named=True)
    assert doc["format"] == "openreview"
    assert (doc["title"], doc["openreview_id"], doc["venue"], doc["year"]) == (
        "A Spectral Filter",
        "AbCdEf1234",
        "ICLR",
        2025,
    )
    assert doc["url"] == "https://openreview.net/forum?id=AbCdEf1234"
    assert doc["locator"] == "element 1 of notes"


def test_openreview_v1_groups_give_their_venue_year_and_invitation(tmp_path):
    note = {
        "id": "Xy12345678",
        "forum": "Xy12345678",
        "invitation": "Conf.cc/2019/Workshop/-/Blind_Submission",
        "content": {"title": "Targeted Things", "abstract": ABSTRACT, "authors": ["A", "B"]},
    }
    path = tmp_path / "crawl.json"
    path.write_text(json.dumps([{"venue": "Conf.cc", "year": 2019, "submissions": [note]}]))
    documents, _, _ = read(path)
    doc = documents.row(0, named=True)
    assert (doc["venue"], doc["year"], doc["venue_source"]) == ("Conf", 2019, "invitation")
    assert doc["locator"] == "element 1 of group 1"


def test_paperlists_records_map_site_authors_and_bibtex_venue(tmp_path):
    record = {
        "id": "Qw12345678",
        "title": "Safe Navigation",
        "author": "Ada Lovelace;Alan Turing",
        "abstract": ABSTRACT,
        "keywords": "robots;safety;",
        "site": "https://openreview.net/forum?id=Qw12345678",
        "track": "main",
        "status": "Poster",
        "bibtex": "@inproceedings{x, booktitle={Conference on Robots}, year={2024}}",
    }
    path = tmp_path / "robots2024.json"
    path.write_text(json.dumps([record]))
    doc = read(path)[0].row(0, named=True)
    assert doc["format"] == "paperlists"
    assert doc["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert doc["keywords"] == ["robots", "safety"]
    assert (doc["openreview_id"], doc["venue"], doc["year"]) == ("Qw12345678", "Conference on Robots", 2024)
    assert json.loads(doc["extra"])["status"] == "Poster"


def _openalex_work(number: int, text: str) -> dict:
    index: dict[str, list[int]] = {}
    for position, word in enumerate(text.split()):
        index.setdefault(word, []).append(position)
    return {
        "id": f"https://openalex.org/W{number}",
        "doi": "https://doi.org/10.5555/ABC",
        "title": "Rebuilt",
        "publication_year": 2009,
        "publication_date": "2009-03-01",
        "authorships": [{"author": {"display_name": "Ada Lovelace"}}],
        "primary_location": {"source": {"display_name": "Journal of Things"}, "landing_page_url": None},
        "abstract_inverted_index": index,
        "cited_by_count": 3,
    }


def test_openalex_abstracts_are_rebuilt_word_for_word_in_every_layout(tmp_path):
    assert rebuild_inverted_index({"b": [1], "a": [0, 2]}) == "a b a"
    work = _openalex_work(1, ABSTRACT)
    layouts = {
        "page.json": json.dumps({"meta": {"count": 1}, "results": [work], "group_by": []}),
        "single.json": json.dumps(work),
        "snapshot.jsonl": json.dumps(work) + "\n",
    }
    for name, content in layouts.items():
        (tmp_path / name).write_text(content)
        doc = read(tmp_path / name)[0].row(0, named=True)
        assert doc["raw_text"] == " ".join(ABSTRACT.split()), name
        assert (doc["format"], doc["openalex_id"], doc["doi"]) == ("openalex", "W1", "10.5555/abc"), name
        assert (doc["venue"], doc["year"], doc["published"]) == ("Journal of Things", 2009, "2009-03-01")
        assert json.loads(doc["extra"])["cited_by_count"] == 3


def test_semantic_scholar_papers_without_abstracts_are_no_abstract_rejects(tmp_path):
    paper = {
        "corpusid": 42,
        "externalids": {"DOI": "10.1/x", "ArXiv": "2001.00002", "CorpusId": "42"},
        "title": "Untold",
        "authors": [{"authorId": "1", "name": "Ada Lovelace"}],
        "venue": "",
        "year": 2020,
    }
    abstract = {"corpusid": 43, "openaccessinfo": {"externalids": {"DOI": None}}, "abstract": OTHER}
    (tmp_path / "papers.jsonl").write_text(json.dumps(paper) + "\n")
    with gzip.open(tmp_path / "abstracts.jsonl.gz", "wt") as handle:
        handle.write(json.dumps(abstract) + "\n")
    _, rejects, report = read(tmp_path / "papers.jsonl")
    assert rejects["reason"].to_list() == ["no abstract: id 42, title 'Untold'"]
    assert report["status"] == "no documents"
    documents, _, report = read(tmp_path / "abstracts.jsonl.gz")
    assert (documents["s2_corpus_id"][0], documents["format"][0]) == ("43", "s2")
    assert report["compression"] == "gzip"


def test_crossref_jats_abstracts_become_plain_text(tmp_path):
    item = {
        "DOI": "10.9999/ABC",
        "title": ["Crossing"],
        "author": [{"given": "Ada", "family": "Lovelace"}],
        "container-title": ["Journal of Crossing"],
        "issued": {"date-parts": [[2021, 6, 2]]},
        "abstract": f"<jats:title>Abstract</jats:title><jats:p>{ABSTRACT} &amp; more</jats:p>",
    }
    (tmp_path / "works.json").write_text(json.dumps({"status": "ok", "message": {"items": [item]}}))
    doc = read(tmp_path / "works.json")[0].row(0, named=True)
    assert doc["format"] == "crossref"
    assert doc["raw_text"] == f"{ABSTRACT} & more"
    assert (doc["doi"], doc["published"], doc["year"]) == ("10.9999/abc", "2021-06-02", 2021)


def test_csv_with_header_keeps_unknown_columns_and_pads_short_rows(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text(
        "forum_url,venue,title,abstract,rating\n"
        f'https://openreview.net/forum?id=Aa11111111,Conf 2026 Poster,First,"{ABSTRACT}",5.5\n'
        f'https://openreview.net/forum?id=Bb22222222,Conf 2026 Oral,Second,"{OTHER}"\n'
        f'https://x.org,Conf 2026,Third,"{OTHER}",1,extra,fields\n'
    )
    documents, rejects, report = read(path)
    assert documents["title"].to_list() == ["First", "Second"]
    assert documents["openreview_id"].to_list() == ["Aa11111111", "Bb22222222"]
    assert (documents["venue"][0], documents["year"][0]) == ("Conf", 2026)
    assert json.loads(documents["extra"][0]) == {"rating": "5.5"}
    assert documents["ordinal"].to_list() == [1, 2]
    assert rejects["reason"].to_list() == ["row 3 has 7 fields where the file has 5"]
    assert any("fewer fields than the header" in r for r in report["repairs"])


def test_tab_separated_file_without_header_has_its_columns_inferred(tmp_path):
    rows = [
        ["https://openreview.net/forum?id=Cc33333333", "Body Learning", "Ada Lovelace;Alan Turing",
         "robots;graphs", "", "Conf 2024", ABSTRACT],
        ["https://openreview.net/forum?id=Dd44444444", "Spectral Things", "Grace Hopper;Alan Kay",
         "graphs;spectra", "", "Conf 2024", OTHER],
    ]  # fmt: skip
    path = tmp_path / "scrape.csv"
    path.write_text("\n".join("\t".join(r) for r in rows) + "\n")
    documents, rejects, report = read(path)
    assert report["format"] == "tsv"
    assert documents["title"].to_list() == ["Body Learning", "Spectral Things"]
    assert documents["authors"][0].to_list() == ["Ada Lovelace", "Alan Turing"]
    assert documents["openreview_id"].to_list() == ["Cc33333333", "Dd44444444"]
    assert documents["year"].to_list() == [2024, 2024]
    assert rejects.is_empty()


def test_parquet_rows_are_records(tmp_path):
    path = tmp_path / "table.parquet"
    pl.DataFrame({"Title": ["P"], "Abstract": [ABSTRACT], "DOI": ["10.2222/Q"]}).write_parquet(path)
    doc = read(path)[0].row(0, named=True)
    assert (doc["format"], doc["title"], doc["doi"], doc["locator"]) == ("parquet", "P", "10.2222/q", "row 1")


def test_bibtex_entries_take_the_proceedings_venue_and_broken_entries_are_rejects(tmp_path):
    path = tmp_path / "volume.bib"
    path.write_text(
        "@Proceedings{V2023,\n  booktitle = {Proceedings of Things},\n  shortname = {THINGS},\n"
        "  year = {2023}\n}\n\n"
        "@InProceedings{lovelace23a,\n  title = {Sparse {A}ttention for Caf\\'e Owners},\n"
        "  author = {Lovelace, Ada and Turing, Alan},\n"
        f"  abstract = {{{ABSTRACT} We use $\\mathcal{{O}}(n)$ memory.}},\n"
        "  openreview = {Ee55555555}\n}\n\n"
        "@InProceedings{broken23,\n  title = {Broken {entry},\n  abstract = {never closed\n\n"
        "@InProceedings{hopper23b,\n  title = {Spectral},\n  author = {Hopper, Grace},\n"
        f"  abstract = {{{OTHER}}}\n}}\n"
    )
    documents, rejects, report = read(path)
    assert documents["locator"].to_list() == ["entry lovelace23a", "entry hopper23b"]
    first = documents.row(0, named=True)
    assert first["title"] == "Sparse Attention for Café Owners"
    assert first["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert "$\\mathcal{O}(n)$" in first["raw_text"]
    assert (first["venue"], first["year"], first["venue_source"]) == ("THINGS", 2023, "@proceedings entry")
    assert first["openreview_id"] == "Ee55555555"
    assert (first["line_start"], first["line_end"]) == (7, 12)
    assert len(rejects) == 1 and "malformed" in rejects["reason"][0]
    assert rejects["line_start"][0] == 14
    assert (report["venue"], report["year"]) == ("THINGS", 2023)


def test_content_overrules_a_misleading_extension(tmp_path):
    record = json.dumps({"title": "T", "abstract": ABSTRACT})
    (tmp_path / "renamed.txt").write_text(record + "\n" + record + "\n")
    documents, _, report = read(tmp_path / "renamed.txt")
    assert (report["format"], documents.height) == ("jsonl", 2)
    assert "holds jsonl" in report["repairs"][0]
    (tmp_path / "fake.json").write_text("title,abstract\nT,text\n")
    _, rejects, report = read(tmp_path / "fake.json")
    assert report["status"] == "rejected" and "does not hold JSON" in rejects["reason"][0]


def test_unsupported_corrupt_and_truncated_files_are_rejects(tmp_path):
    (tmp_path / "notes.md").write_text("# notes\n")
    assert "unsupported file type (.md)" in read(tmp_path / "notes.md")[1]["reason"][0]
    (tmp_path / "bad.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00garbage that is not deflate")
    _, rejects, report = read(tmp_path / "bad.jsonl.gz")
    assert rejects.height == 1 and report["n_documents"] == 0
    lines = "".join(json.dumps({"title": f"T{i}", "abstract": ABSTRACT}) + "\n" for i in range(2000))
    whole = gzip.compress(lines.encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    documents, rejects, report = read(tmp_path / "cut.jsonl.gz")
    assert report["status"] == "read in part"
    assert 0 < documents.height < 2000
    assert "damaged after record" in rejects["reason"][-1]


def test_a_mapping_reads_an_unknown_shape_and_keeps_other_columns(tmp_path):
    (tmp_path / "mine.csv").write_text(f'Key;Heading;Summary;Notes\nk1;My Paper;"{ABSTRACT}";keep me\n')
    (tmp_path / "sources.toml").write_text(
        '[files."mine.csv"]\nformat = "csv"\ndelimiter = ";"\nvenue = "Home"\nyear = 2022\n'
        '[files."mine.csv".columns]\ntitle = "Heading"\nabstract = "Summary"\nid = "Key"\n'
    )
    parsed = read_seeds(tmp_path)
    doc = parsed.documents.row(0, named=True)
    assert (doc["title"], doc["venue"], doc["year"], doc["venue_source"]) == (
        "My Paper",
        "Home",
        2022,
        "sources.toml",
    )
    assert json.loads(doc["extra"]) == {"Notes": "keep me"}
    statuses = dict(parsed.files.select("source_file", "status").iter_rows())
    assert statuses == {"mine.csv": "read", "sources.toml": "mapping"}


def test_an_invalid_mapping_file_is_a_reject(tmp_path):
    (tmp_path / "sources.toml").write_text('[files."x.csv"]\ncolumns = { summary = "S" }\n')
    parsed = read_seeds(tmp_path)
    assert "maps unknown fields ['summary']" in parsed.rejects["reason"][0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_every_directory_entry_is_read_or_rejected_without_being_opened(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    text = f"ICLR 2024 Papers\n\n{ABSTRACT}\n"
    (seeds / "paper[1].txt").write_text(text)
    (seeds / "UPPER.TXT").write_text(text)
    (seeds / "x.txt").mkdir()
    os.mkfifo(seeds / "pipe.txt")
    (seeds / "zero.txt").symlink_to("/dev/zero")
    outside = tmp_path / "private.txt"
    outside.write_text(text)
    (seeds / "outside.txt").symlink_to(outside)
    (seeds / "inside.txt").symlink_to(seeds / "UPPER.TXT")
    (seeds / "dangling.txt").symlink_to(tmp_path / "missing")
    parsed = read_seeds(seeds)
    status = dict(parsed.files.select("source_file", "status").iter_rows())
    assert status["paper[1].txt"] == status["UPPER.TXT"] == status["inside.txt"] == "read"
    reasons = dict(parsed.rejects.select("source_file", "reason").iter_rows())
    assert "is a directory" in reasons["x.txt"]
    assert "named pipe" in reasons["pipe.txt"]
    assert "character device" in reasons["zero.txt"]
    assert "outside the seeds directory" in reasons["outside.txt"]
    assert "broken symbolic link" in reasons["dangling.txt"]
    assert len(status) == 8


def test_fields_are_normalised_one_way():
    assert fields.doi("doi:10.1000/ABC.") == "10.1000/abc"
    assert fields.arxiv_id("https://arxiv.org/abs/2101.00001v3") == "2101.00001"
    assert fields.arxiv_id("hep-th/9901001v2") == "hep-th/9901001"
    assert fields.openreview_id("https://openreview.net/pdf?id=Zz99999999") == "Zz99999999"
    assert fields.openalex_id("https://openalex.org/W42") == "W42"
    assert fields.published("2024-5-1") == "2024-05-01"
    assert fields.authors("Turing, Alan and Hopper, Grace") == ["Alan Turing", "Grace Hopper"]
    assert fields.venue_from_file_name("corl2024.json") == ("CoRL", 2024)
    assert fields.venue_from_file_name("robot-learning_org_CoRL_2024_Conference.csv") == ("CoRL", 2024)
    assert fields.venue_and_year("ICLR 2026 Poster") == ("ICLR", 2026)


def test_a_json_array_broken_midway_keeps_the_records_before_the_break(tmp_path):
    records = [{"title": f"T{i}", "abstract": ABSTRACT + f" Variant {i}."} for i in range(4)]
    text = json.dumps(records)
    (tmp_path / "cut.json").write_text(text[: text.rindex("{")] + '{"title": "T3", "abstract": "unfinis')
    documents, rejects, report = read(tmp_path / "cut.json")
    assert documents["title"].to_list() == ["T0", "T1", "T2"]
    assert report["status"] == "read in part"
    assert rejects["reason"][0].startswith("the json content is malformed after record 3")


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("seeds.txt.gz", f"ICLR 2024 Papers\n\n{ABSTRACT}\n"),
        ("table.csv.gz", f'title,abstract\nT,"{ABSTRACT}"\n'),
        ("table.tsv.gz", f"title\tabstract\nT\t{ABSTRACT}\n"),
        ("records.json.gz", json.dumps([{"title": "T", "abstract": ABSTRACT}])),
        ("records.jsonl.gz", json.dumps({"title": "T", "abstract": ABSTRACT}) + "\n"),
        ("refs.bib.gz", "@article{k, title = {T}, abstract = {" + ABSTRACT + "}}\n"),
    ],
)
def test_every_format_is_read_through_gzip(tmp_path, name, content):
    (tmp_path / name).write_bytes(gzip.compress(content.encode()))
    documents, rejects, report = read(tmp_path / name)
    assert (documents.height, rejects.height, report["compression"]) == (1, 0, "gzip")
    assert documents["raw_text"][0] == ABSTRACT


def test_gzipped_parquet_is_unpacked_within_the_bound(tmp_path):
    buffer = io.BytesIO()
    pl.DataFrame({"title": ["T"], "abstract": [ABSTRACT]}).write_parquet(buffer)
    (tmp_path / "table.parquet.gz").write_bytes(gzip.compress(buffer.getvalue()))
    documents, _, report = read(tmp_path / "table.parquet.gz")
    assert (documents["title"].to_list(), report["format"], report["compression"]) == (
        ["T"],
        "parquet",
        "gzip",
    )
