"""Extraction stays bounded on hostile abstracts: time grows with the text, not with the acronyms,
capitals or numbers in it, and a paper keeps at most MAX_DEFINITIONS definitions, MAX_ENTITIES
entities, MAX_MENTIONS mentions and MAX_RESULTS results, flagged when cut short, and results
sentences of at most MAX_SENTENCE characters. The work is counted here (calls of the costly steps,
lines run), not timed; benchmarks/hostile_abstracts.py times it against a normal abstract."""

import io
import sys
import time
from collections import Counter

import polars as pl
import pytest

from pipeline.lib.extract import (
    LIMITS,
    MAX_DEFINITIONS,
    MAX_ENTITIES,
    MAX_MENTIONS,
    MAX_RESULTS,
    MAX_SENTENCE,
    TEXT_KEY,
    TextRows,
    abbreviations,
    assemble,
    candidates,
    extract_all,
    extract_texts,
    introduced,
    naming,
    roles,
    shapes,
    text_keys,
)
from pipeline.lib.extract import compared as compared_module
from pipeline.lib.extract import results as results_module
from pipeline.lib.extract import ties as ties_module
from pipeline.lib.extract.extract import extract_entities
from pipeline.lib.extract.lexicons import load_lexicon
from pipeline.lib.extract.results import MentionSpan, find_results


def acronyms(n: int) -> str:
    """One long form defined under n acronyms."""
    return "We propose networks: " + " ".join(f"Foo Bar Net (FBN{i})" for i in range(n))


# Every occurrence of the long form used to be a mention of every acronym (45,474 rows, minutes of
# build time), and each definition and each acronym cost every rule (14 times a normal abstract).
ACRONYMS = acronyms(250)
# Tokens that used to take time in the square of their length (60,000 characters: minutes).
LONG_TOKENS = ["A" * 60_000, "A1" * 30_000, "A-" * 30_000 + "A", "A" + "a" * 59_999]
# Generous: the point is seconds against minutes, on a busy machine.
SECONDS = 5


def _seconds(text: str) -> float:
    lexicon = load_lexicon()
    started = time.perf_counter()
    extract_entities(text, lexicon)
    return time.perf_counter() - started


def test_one_long_form_under_many_acronyms_is_fast_and_capped():
    assert _seconds(ACRONYMS) < SECONDS
    found = extract_entities(ACRONYMS)
    assert found.capped
    assert len(found.mentions) == MAX_MENTIONS
    assert all(ACRONYMS[m.start : m.end] == m.text for m in found.mentions)
    # The first mentions in the text are the ones kept: from the first long form, not to the end.
    assert found.mentions == sorted(found.mentions)
    assert found.mentions[0].start == ACRONYMS.index("Foo Bar Net")
    assert found.mentions[-1].end < ACRONYMS.rindex("Foo Bar Net")


@pytest.mark.parametrize("token", LONG_TOKENS, ids=["capitals", "digits", "hyphens", "capitalised"])
def test_a_long_token_is_fast(token):
    assert _seconds(token) < SECONDS
    assert _seconds(f"We propose {token}, a method for sorting.") < SECONDS


def _assembled_again(papers: pl.DataFrame):
    """The papers' extraction from their texts' rows written to Parquet and read back, as a build
    assembles them from what each file's map staged."""
    keyed = papers.select("paper_id", text_keys(papers["abstract_clean"]), "abstract_clean")
    rows = extract_texts(keyed.select(TEXT_KEY, "abstract_clean"))
    buffers = {name: io.BytesIO() for name in rows.frames()}
    for name, frame in rows.frames().items():
        frame.write_parquet(buffers[name])
        buffers[name].seek(0)
    staged = TextRows.from_frames({name: pl.read_parquet(buffer) for name, buffer in buffers.items()})
    return assemble(keyed.select("paper_id", TEXT_KEY), staged, papers.lazy())


def test_the_cap_is_recorded_per_paper_and_normal_papers_are_not_capped():
    papers = pl.DataFrame(
        {
            "paper_id": ["hostile", "normal"],
            "abstract_clean": [ACRONYMS, "We propose Scene Depth Fusion (SDF). SDF beats LoRA."],
        }
    )
    extraction = extract_all(papers)
    assert extraction.capped_papers == ["hostile"]
    counts = dict(extraction.mentions.group_by("paper_id").len().iter_rows())
    assert counts["hostile"] == MAX_MENTIONS
    assert 0 < counts["normal"] < MAX_MENTIONS
    # The rows staged per text carry the flag to the papers they are assembled for.
    assert _assembled_again(papers).capped_papers == ["hostile"]


def test_a_form_shared_by_many_acronyms_names_only_a_few_of_them_at_each_occurrence():
    found = extract_entities(ACRONYMS)
    by_span: dict[tuple[int, int], int] = {}
    for m in found.mentions:
        by_span[(m.start, m.end)] = by_span.get((m.start, m.end), 0) + 1
    assert max(by_span.values()) <= 5  # four holders of the form, and the acronym defined there


def _calls(monkeypatch, modules, *names: str) -> Counter:
    """Counts the calls of the functions `names` from now on, wherever one of modules (a module or
    a list of them) defines or imports them."""
    counts: Counter = Counter()
    for module in modules if isinstance(modules, list) else [modules]:
        for name in names:
            function = getattr(module, name, None)
            if function is None:
                continue

            def counted(*args, _function=function, _name=name, **kwargs):
                counts[_name] += 1
                return _function(*args, **kwargs)

            monkeypatch.setattr(module, name, counted)
    return counts


def test_definitions_past_the_cap_are_not_looked_for(monkeypatch):
    calls = _calls(monkeypatch, abbreviations, "_long_then_short")
    for n in (250, 500):
        calls.clear()
        found = extract_entities(acronyms(n))
        # One definition past the cap tells that it applies; the rest of the text is not searched.
        assert calls["_long_then_short"] == MAX_DEFINITIONS + 1
        assert [a.short for a in found.abbreviations] == [f"FBN{i}" for i in range(MAX_DEFINITIONS)]
        assert "definitions" in found.capped


def test_a_paper_at_the_definition_cap_is_not_cut():
    def defining(n: int) -> str:
        return " ".join(f"Alpha Beta Method {i} (ABM{i}) works." for i in range(n))

    assert "definitions" not in extract_entities(defining(MAX_DEFINITIONS)).capped
    assert len(extract_entities(defining(MAX_DEFINITIONS)).abbreviations) == MAX_DEFINITIONS
    assert "definitions" in extract_entities(defining(MAX_DEFINITIONS + 1)).capped


def test_entities_past_the_cap_cost_no_typing_or_role(monkeypatch):
    rule_modules = [shapes, candidates, introduced, naming, roles]
    calls = _calls(monkeypatch, rule_modules, "shape_type", "_cited_as_others", "introduced_type")
    counts = []
    for n in (250, 500):
        calls.clear()
        found = extract_entities(acronyms(n))
        assert len({m.name for m in found.mentions}) <= MAX_ENTITIES
        assert "entities" in found.capped
        counts.append(dict(calls))
    # Twice the acronyms, the same work: what comes past the caps is not typed or given a role.
    assert counts[0] == counts[1]
    assert all(count <= 2 * MAX_ENTITIES for count in counts[0].values())


def test_every_limit_is_recorded_per_paper():
    papers = pl.DataFrame(
        {
            "paper_id": ["hostile", "normal"],
            "abstract_clean": [ACRONYMS, "We propose Scene Depth Fusion (SDF). SDF beats LoRA."],
        }
    )
    extraction = extract_all(papers)
    for limit in ("definitions", "entities", "mentions"):
        assert extraction.papers_capped(limit) == ["hostile"]
    assert extraction.abbreviations.filter(pl.col("paper_id") == "hostile").height == MAX_DEFINITIONS
    assert _assembled_again(papers).capped.equals(extraction.capped)


def _mention_spans(text: str) -> list[MentionSpan]:
    return [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in extract_entities(text).mentions]


def _lines_run(function, *args, **kwargs) -> tuple[int, object]:
    """How many lines of results.py, compared.py and ties.py the call runs (each turn of a loop one
    more), and its value."""
    lines = 0

    def local(frame, event, arg):
        nonlocal lines
        lines += event == "line"
        return local

    def on_call(frame, event, arg):
        files = (results_module.__file__, compared_module.__file__, ties_module.__file__)
        return local if frame.f_code.co_filename in files else None

    sys.settrace(on_call)
    try:
        value = function(*args, **kwargs)
    finally:
        sys.settrace(None)
    return lines, value


# A long sentence of results with metrics, datasets, bare scores, many sentences, many clauses
# comparing with a system: each used to cost (numbers x cues, or clauses x systems) somewhere.
HOSTILE_RESULTS = [
    "1% ",
    "1% F1 ",
    "F1 of 1%; ",
    "1% on ImageNet ",
    "F1 of 78.3, ",
    "F1 of 1%. ",
    "1% over LoRA; ",
]


@pytest.mark.parametrize("unit", HOSTILE_RESULTS)
def test_each_result_costs_its_neighbourhood_not_the_text(unit):
    """Twice the results, twice the work: each result looks at the cues and systems near it."""
    lines = []
    for repeats in (1000, 2000):  # sentences without a full stop are over MAX_SENTENCE in both
        text = unit * repeats
        count, found = _lines_run(find_results, text, _mention_spans(text))
        assert len(found) == repeats
        lines.append(count)
    # Linear is 2; the products this guards against gave 3.5 to 4.
    assert lines[1] <= 2.2 * lines[0]


@pytest.mark.parametrize("unit", HOSTILE_RESULTS)
def test_results_past_the_cap_are_not_worked_out(monkeypatch, unit):
    calls = _calls(monkeypatch, results_module, "_joined_cue", "compared_systems", "_is_score", "_excerpt")
    counts = []
    for repeats in (1000, 2000):
        text = unit * repeats
        spans = _mention_spans(text)
        calls.clear()
        found = find_results(text, spans, limit=MAX_RESULTS + 1)
        counts.append(dict(calls))
        # The first results of the text, the same rows as without a limit.
        assert found == find_results(text, spans)[: MAX_RESULTS + 1]
    assert counts[0] == counts[1]
    assert all(count <= 2 * (MAX_RESULTS + 1) for count in counts[0].values())


def test_the_results_cap_is_recorded_per_paper():
    at_cap = "F1 of 1%. " * MAX_RESULTS
    papers = pl.DataFrame(
        {"paper_id": ["hostile", "at_cap"], "abstract_clean": [at_cap + "F1 of 2%. " * 5, at_cap]}
    )
    extraction = extract_all(papers)
    assert extraction.papers_capped("results") == ["hostile"]
    counts = dict(extraction.results.group_by("paper_id").len().iter_rows())
    assert counts == {"hostile": MAX_RESULTS, "at_cap": MAX_RESULTS}
    # The first ones in the text are kept.
    assert extraction.results.filter(pl.col("paper_id") == "hostile")["value"].unique().to_list() == [1.0]
    assert _assembled_again(papers).papers_capped("results") == ["hostile"]
    assert "results" in LIMITS


def test_results_of_a_long_sentence_store_its_characters_around_the_number():
    text = ("1% " * 20_000).strip()  # 60,000 characters, once stored in full in each of 20,000 rows
    extraction = extract_all(pl.DataFrame({"paper_id": ["hostile"], "abstract_clean": [text]}))
    sentences = extraction.results["sentence"].to_list()
    assert len(sentences) == MAX_RESULTS
    assert {len(sentence) for sentence in sentences} == {MAX_SENTENCE}
    # Every sentence in the table together: at most MAX_RESULTS x MAX_SENTENCE characters.
    assert sum(map(len, sentences)) == MAX_RESULTS * MAX_SENTENCE


def test_a_cut_sentence_is_marked_where_it_goes_on():
    sentence = "We gain 5% on ImageNet " + "and more " * 400 + "and 7% on COCO."
    found = find_results(sentence + " Short: 9% on MNIST.")
    first, last, short = found
    assert len(sentence) > MAX_SENTENCE
    assert first.sentence == sentence[: MAX_SENTENCE - 1] + "…"
    assert last.sentence == "…" + sentence[len(sentence) - MAX_SENTENCE + 1 :]
    assert short.sentence == "Short: 9% on MNIST."
    middle = "x " * 1000 + "5% on ImageNet" + " x" * 1000 + "."
    (result,) = find_results(middle)
    assert len(result.sentence) == MAX_SENTENCE
    assert result.sentence[0] == result.sentence[-1] == "…"
    # The number sits in the middle of what is kept.
    assert abs(result.sentence.index("5%") - MAX_SENTENCE // 2) < 10
    assert result.sentence[1:-1] in middle


def test_a_sentence_of_max_sentence_characters_is_kept_whole():
    for length in (MAX_SENTENCE - 1, MAX_SENTENCE):
        sentence = "It gains 5%" + " on ImageNet" * 200
        sentence = sentence[: length - 1] + "."
        (result,) = find_results(sentence + " Done.")
        assert result.sentence == sentence
    (result,) = find_results(("It gains 5%" + " on ImageNet" * 200)[:MAX_SENTENCE] + ".")
    assert result.sentence.endswith("…")
