"""Corpus-level knowledge: a name one paper proposes is recognised, with its type, in others."""

import polars as pl

from pipeline.lib.extract import extract_all
from pipeline.lib.extract.knowledge import EVIDENCE, MAX_PROPOSERS, _merged_order


def mentions_of(texts: dict[str, str]) -> pl.DataFrame:
    papers = pl.DataFrame({"paper_id": list(texts), "abstract_clean": list(texts.values())})
    return extract_all(papers).mentions


def test_a_proposed_dataset_is_recognised_where_another_paper_writes_it_bare():
    found = mentions_of(
        {
            "builds": "We introduce QuokkaDex, a benchmark of 500 planning puzzles.",
            "uses": "Our planner solves most of QuokkaDex.",
            "alone": "Our planner solves most of the puzzles.",
        }
    )
    rows = found.filter(pl.col("name") == "QuokkaDex").select("paper_id", "entity_type", "role", "evidence")
    assert rows.drop("evidence").rows() == [
        ("builds", "dataset", "proposed"),
        ("uses", "dataset", "referenced"),
    ]
    # The proposing paper keeps the rule that proposed it; the other paper is typed by the corpus.
    builds_evidence, uses_evidence = rows["evidence"].to_list()
    assert builds_evidence != EVIDENCE and uses_evidence == EVIDENCE


def test_a_name_many_papers_propose_is_no_knowledge():
    proposers = {
        f"p{k}": "We introduce the Wobble Gate Unit (WGU) for sequences." for k in range(MAX_PROPOSERS + 1)
    }
    found = mentions_of({**proposers, "uses": "We compare against WGU as a baseline unit."})
    assert found.filter((pl.col("paper_id") == "uses") & (pl.col("evidence") == EVIDENCE)).is_empty()


def test_words_joined_by_hyphens_are_no_name():
    found = mentions_of(
        {
            "builds": "We introduce Multi-Agent, a benchmark of games.",
            "uses": "Results on Multi-Agent settings vary.",
        }
    )
    assert found.filter(pl.col("evidence") == EVIDENCE).is_empty()


def test_added_mentions_join_their_papers_rows_in_text_order():
    mentions = pl.DataFrame(
        # A paper's rows come together, but the order holds them together even if they did not.
        {"paper_id": ["b", "b", "a", "c", "c", "b"], "start": [40, 5, 9, 1, 30, 60]},
        schema={"paper_id": pl.String, "start": pl.Int32},
    )
    added = pl.DataFrame(
        {"paper_id": ["c", "new", "b", "other", "new"], "start": [20, 3, 7, 0, 1]},
        schema={"paper_id": pl.String, "start": pl.Int32},
    )
    merged = pl.concat([mentions, added])
    # Papers in the order they first appear, each paper's rows by start.
    assert merged[_merged_order(mentions, added)].rows() == [
        ("b", 5),
        ("b", 7),
        ("b", 40),
        ("b", 60),
        ("a", 9),
        ("c", 1),
        ("c", 20),
        ("c", 30),
        ("new", 1),
        ("new", 3),
        ("other", 0),
    ]
