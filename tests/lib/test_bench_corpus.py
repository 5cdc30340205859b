"""The benchmark's generated corpora are read by the pipeline's own readers as what they claim to be:
arXiv-snapshot records in the `arxiv` shape, none rejected, and every ground-truth document id
(`<file>:<ordinal>`) names the document it means, in both formats."""

import csv
import importlib.util
import json
from pathlib import Path

import polars as pl
import pytest

from pipeline.lib.assemble import PrepareJob, prepare_file
from pipeline.lib.clean import clean_abstract
from pipeline.lib.dedup import normalise_for_hash

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SNAPSHOT_FIELDS = {
    "id", "submitter", "authors", "title", "comments", "journal-ref", "doi", "report-no", "categories",
    "license", "abstract", "versions", "update_date", "authors_parsed",
}  # fmt: skip


def _generator():
    spec = importlib.util.spec_from_file_location("generate_corpus", BENCHMARKS / "generate_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def source(tmp_path) -> Path:
    """Forty made-up abstracts of five sentences, with titles and authors, as the shared corpus has."""
    path = tmp_path / "source.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for number in range(40):
            sentences = [
                f"We study problem {number} part {part} with a method that uses {number + part} layers of "
                f"attention and reports results on benchmark {part}." for part in range(5)
            ]  # fmt: skip
            row = {"abstract": " ".join(sentences), "title": f"A study of problem {number} with layers"}
            out.write(json.dumps(row | {"authors": f"Ada Lovelace{number}; Alan Turing{number}"}) + "\n")
    return path


def _documents(corpus: Path, tmp_path: Path) -> pl.DataFrame:
    inputs = corpus / "inputs"
    frames = []
    for number, path in enumerate(sorted(inputs.iterdir())):
        parsed = prepare_file(PrepareJob(path, inputs, tmp_path / f"parsed-{number}.parquet"))
        assert parsed.rejects.height == 0
        frames.append(pl.read_parquet(tmp_path / f"parsed-{number}.parquet"))
    return pl.concat(frames, how="diagonal_relaxed")


@pytest.mark.parametrize("corpus_format", ["text", "arxiv"])
def test_generated_corpus_is_read_as_generated(corpus_format, source, tmp_path):
    corpus = tmp_path / corpus_format
    arguments = ["--n", "300", "--source", str(source), "--out", str(corpus), "--format", corpus_format]
    assert _generator().main(arguments) == 0
    documents = _documents(corpus, tmp_path)
    assert documents.height == 300
    if corpus_format == "arxiv":
        records = [
            json.loads(line) for line in (corpus / "inputs" / "arxiv-metadata-oai-snapshot.json").open()
        ]
        assert all(set(record) == SNAPSHOT_FIELDS for record in records)
        assert set(documents["format"]) == {"arxiv"}
        assert documents["arxiv_id"].n_unique() == 300  # every copy a submission of its own
    text_of = {
        row[0]: normalise_for_hash(clean_abstract(row[1]))
        for row in documents.select("document_id", "raw_text").iter_rows()
    }
    with (corpus / "ground_truth.csv").open(encoding="utf-8") as handle:
        truth = list(csv.DictReader(handle))
    assert len(truth) == 30
    for row in truth:
        copy, original = text_of[row["document_id"]], text_of[row["original_id"]]
        if row["kind"] in ("exact", "format"):
            assert copy == original
        else:
            assert (
                copy != original
                and len(set(copy.split()) & set(original.split())) > len(set(original.split())) // 2
            )


def test_both_formats_hold_the_same_texts(source, tmp_path):
    generator = _generator()
    for corpus_format in ("text", "arxiv"):
        arguments = ["--n", "120", "--source", str(source), "--out", str(tmp_path / corpus_format)]
        assert generator.main([*arguments, "--format", corpus_format]) == 0
    texts = {
        corpus_format: [clean_abstract(t) for t in _documents(tmp_path / corpus_format, tmp_path)["raw_text"]]
        for corpus_format in ("text", "arxiv")
    }
    assert texts["text"] == texts["arxiv"]
