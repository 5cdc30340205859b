import polars as pl
import pytest

import pipeline.lib.extract as extract
from pipeline.lib.extract import TEXT_KEY, TextRows, assemble, extract_all, extract_texts, text_keys
from pipeline.lib.extract.catalog import entity_id, normalise_name
from pipeline.lib.schema import TABLES

ABSTRACTS = {
    "p1": "We propose Scene Depth Fusion (SDF), a method for mapping. SDF is fast. "
    "Code is at https://github.com/example/sdf.",
    "p2": "Prior work used the Spectral Denoising Filter (SDF) for audio, and we compare against LoRA.",
    "p3": "Both SDF variants and LoRA adapters are studied with GPT-4o, reaching 71.5% accuracy.",
    "p4": "Training uses the Kolmo Transformer (KT) on the Tarn dataset. Later, KT improves by 3.2%.",
    "p5": "We adopt KT for speed and report perplexity.",
    "p6": "This paper studies lower bounds for sorting.",
}


@pytest.fixture(scope="module")
def papers():
    return pl.DataFrame({"paper_id": list(ABSTRACTS), "abstract_clean": list(ABSTRACTS.values())})


@pytest.fixture(scope="module")
def extraction(papers):
    return extract_all(papers)


def test_tables_follow_the_schema(extraction):
    for name in ("mentions", "entities", "abbreviations", "links", "results"):
        frame = getattr(extraction, name)
        assert frame.columns == TABLES[name].column_names
        assert frame.schema == TABLES[name].conform(frame).schema
    assert extraction.paper_annotations.columns == ["paper_id", "proposed_methods", "code_url"]


def test_every_span_is_exact(extraction):
    for name in ("mentions", "links", "results"):
        for row in getattr(extraction, name).iter_rows(named=True):
            assert (
                ABSTRACTS[row["paper_id"]][row["start"] : row["end"]]
                == row["text" if name != "links" else "url"]
            )
    for row in extraction.abbreviations.iter_rows(named=True):
        definition = ABSTRACTS[row["paper_id"]][row["start"] : row["end"]]
        assert row["short"] in definition and row["long"] in definition


def test_every_mention_has_a_catalog_entry(extraction):
    assert set(extraction.mentions["entity_id"]) == set(extraction.entities["entity_id"])
    assert extraction.entities["entity_id"].is_unique().all()


def test_same_acronym_with_two_expansions_is_two_entities(extraction):
    sdf = extraction.entities.filter(pl.col("name") == "SDF")
    expansions = set(sdf["expansion"].drop_nulls())
    assert expansions == {"Scene Depth Fusion", "Spectral Denoising Filter"}


def test_undefined_acronym_joins_its_only_expansion(extraction):
    kt = extraction.mentions.filter(pl.col("name") == "KT")
    assert set(kt["paper_id"]) == {"p4", "p5"}
    assert kt["entity_id"].n_unique() == 1
    assert kt["entity_id"][0] == entity_id("method", "KT", "Kolmo Transformer")
    row = extraction.entities.filter(pl.col("entity_id") == kt["entity_id"][0]).row(0, named=True)
    assert row["n_papers"] == 2
    assert row["expansion"] == "Kolmo Transformer"
    assert row["aliases"] == ["KT", "Kolmo Transformer"]


def test_papers_count_per_entity(extraction):
    lora = extraction.entities.filter(pl.col("name") == "LoRA").row(0, named=True)
    assert lora["n_papers"] == 2


def test_proposed_methods_and_code_url(extraction):
    annotations = {r["paper_id"]: r for r in extraction.paper_annotations.iter_rows(named=True)}
    assert annotations["p1"]["proposed_methods"] == ["SDF"]
    assert annotations["p1"]["code_url"] == "https://github.com/example/sdf"
    assert annotations["p6"]["proposed_methods"] == []
    assert annotations["p6"]["code_url"] is None
    assert annotations["p2"]["proposed_methods"] == []


def test_a_link_broken_by_a_line_break_is_exact_and_its_code_url_joined():
    text = "Code is at https://github.com/ owner/repo-name."
    extraction = extract_all(pl.DataFrame({"paper_id": ["p"], "abstract_clean": [text]}))
    (link,) = extraction.links.iter_rows(named=True)
    assert link["url"] == text[link["start"] : link["end"]] == "https://github.com/ owner/repo-name"
    assert extraction.paper_annotations["code_url"].to_list() == ["https://github.com/owner/repo-name"]


def test_roles_and_types(extraction):
    rows = {(r["paper_id"], r["name"]): r for r in extraction.mentions.iter_rows(named=True)}
    assert rows[("p1", "SDF")]["role"] == "proposed"
    assert rows[("p2", "SDF")]["role"] == "referenced"
    assert rows[("p3", "GPT-4o")]["entity_type"] == "model"
    assert rows[("p4", "Tarn")]["entity_type"] == "dataset"
    assert rows[("p5", "perplexity")]["entity_type"] == "metric"


def test_results_are_found(extraction):
    assert set(extraction.results["text"]) >= {"71.5%", "3.2%"}


def test_entity_ids_are_stable_and_normalised():
    assert entity_id("method", "Foo-Net", None) == entity_id("method", "foo–net", "")
    assert entity_id("method", "SDF", "Scene Depth Fusion") != entity_id(
        "method", "SDF", "Spectral Denoising Filter"
    )
    assert normalise_name("Shapley values") == "shapley value"
    assert normalise_name("Polyak’s  Momentum") == "polyak momentum"
    assert normalise_name("corpus") == "corpus"


def test_work_split_across_processes_gives_the_same_result(papers, extraction, monkeypatch):
    monkeypatch.setattr(extract, "CHUNK_SIZE", 2)
    parallel = extract_all(papers, workers=2)
    for name in ("mentions", "entities", "abbreviations", "links", "results", "paper_annotations"):
        assert getattr(parallel, name).equals(getattr(extraction, name))


def test_papers_given_lazily_give_the_same_result(papers, extraction, tmp_path):
    papers.write_parquet(tmp_path / "papers.parquet")
    lazy = extract_all(pl.scan_parquet(tmp_path / "papers.parquet"))
    for name in ("mentions", "entities", "abbreviations", "links", "results", "paper_annotations"):
        assert getattr(lazy, name).equals(getattr(extraction, name)), name


def _keyed(papers: pl.DataFrame) -> pl.DataFrame:
    return papers.select("paper_id", text_keys(papers["abstract_clean"]), "abstract_clean")


def test_rows_found_per_text_in_parts_assemble_to_what_a_whole_extraction_gives(papers, extraction):
    keyed = _keyed(papers)
    # Two files' maps, each extracting its own texts, in another order than the papers.
    parts = [extract_texts(keyed.slice(3).select(TEXT_KEY, "abstract_clean")), extract_texts(keyed.head(3))]
    rows = TextRows.concat(parts)
    assembled = assemble(keyed.select("paper_id", TEXT_KEY), rows, papers.lazy())
    for name in ("mentions", "entities", "abbreviations", "links", "results", "paper_annotations", "capped"):
        assert getattr(assembled, name).equals(getattr(extraction, name)), name


def test_a_text_is_extracted_once_and_each_paper_with_it_gets_its_rows(papers):
    shared = "We adopt Tarn-Net, a variant of KT, and report 12.5% lower perplexity."
    twins = pl.DataFrame({"paper_id": ["a", "b"], "abstract_clean": [shared, shared]})
    keyed = _keyed(twins)
    rows = extract_texts(keyed.select(TEXT_KEY, "abstract_clean"))
    assert rows.results[TEXT_KEY].unique().to_list() == [keyed[TEXT_KEY][0]]
    assert rows.results.height == 1
    assembled = assemble(keyed.select("paper_id", TEXT_KEY), rows, twins.lazy())
    assert assembled.results["paper_id"].to_list() == ["a", "b"]
    assert assembled.results["value"].to_list() == [12.5, 12.5]


def test_text_keys_depend_on_the_text_alone():
    keys = text_keys(pl.Series(["One text.", "Another text.", "One text.", None, ""]))
    assert keys[0] == keys[2] and keys[0] != keys[1]
    assert keys[3] == keys[4]  # a null text is the empty one
    assert all(len(key) == 32 for key in keys)


def test_rows_staged_as_frames_read_back_the_same(papers, tmp_path):
    rows = extract_texts(_keyed(papers).select(TEXT_KEY, "abstract_clean"))
    for name, frame in rows.frames().items():
        frame.write_parquet(tmp_path / f"{name}.parquet")
    read = TextRows.from_frames(
        {name: pl.read_parquet(tmp_path / f"{name}.parquet") for name in rows.frames()}
    )
    assert all(read.frames()[name].equals(frame) for name, frame in rows.frames().items())
    assert TextRows.empty().frames().keys() == rows.frames().keys()


def test_empty_input():
    empty = extract_all(
        pl.DataFrame(
            {"paper_id": [], "abstract_clean": []},
            schema={"paper_id": pl.String, "abstract_clean": pl.String},
        )
    )
    assert empty.mentions.is_empty() and empty.entities.is_empty()
    assert empty.paper_annotations.is_empty()
