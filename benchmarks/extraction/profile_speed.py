"""Profile entity extraction on the first N corpus abstracts: cProfile's top functions by
internal and by cumulative time, the CPU time of each stage of one abstract's extraction, and
each rule's share of the rule loop.

    .venv/bin/python benchmarks/extraction/profile_speed.py [--limit 5000] [--top 40] [--rules-only]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_snapshot import DEFAULT_CORPUS, corpus_papers

from pipeline.lib.extract import MAX_RESULTS, extract_all
from pipeline.lib.extract import extract as extract_module
from pipeline.lib.extract.abbreviations import find_abbreviations
from pipeline.lib.extract.emit import emit
from pipeline.lib.extract.lexicons import load_lexicon
from pipeline.lib.extract.links import find_links
from pipeline.lib.extract.proposed import find_cues
from pipeline.lib.extract.results import MentionSpan, find_results
from pipeline.lib.extract.state import MAX_DEFINITIONS, PaperState


def stage_times(texts: list[str]) -> dict[str, float]:
    """CPU seconds of each stage of extract_entities and of find_results over the texts, run as
    _extract_chunk runs them (the lexicon pass and the cues once more, on their own)."""
    lexicon = load_lexicon()
    totals = dict.fromkeys(("links", "abbreviations", "state", "rules", "emit", "results"), 0.0)
    alone = {"(lexicon pass)": 0.0, "(cues)": 0.0}
    clock = time.process_time
    for text in texts:
        started = clock()
        links = find_links(text)
        found_links = clock()
        abbreviations = find_abbreviations(text, limit=MAX_DEFINITIONS + 1)[:MAX_DEFINITIONS]
        found_abbreviations = clock()
        paper = PaperState(text, lexicon, links, abbreviations)
        made_state = clock()
        for rule in extract_module._RUN_ORDER:
            paper.rule = rule.name
            rule.apply(paper)
        ran_rules = clock()
        mentions, _ = emit(paper)
        emitted = clock()
        spans = [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in mentions]
        find_results(text, spans, limit=MAX_RESULTS + 1)
        found_results = clock()
        for name, seconds in zip(
            totals,
            (
                found_links - started,
                found_abbreviations - found_links,
                made_state - found_abbreviations,
                ran_rules - made_state,
                emitted - ran_rules,
                found_results - emitted,
            ),
            strict=True,
        ):
            totals[name] += seconds
        _, cue_hits = lexicon.find(text)
        passed = clock()
        find_cues(text, cue_hits)
        alone["(lexicon pass)"] += passed - found_results
        alone["(cues)"] += clock() - passed
    return totals | alone


def rule_times(papers) -> dict[str, float]:
    """CPU seconds each rule takes over the papers (a loaded machine inflates wall time), by
    wrapping every rule's apply in a timer."""
    totals: dict[str, float] = {}
    timed = []
    for rule in extract_module._RUN_ORDER:

        def apply(paper, _apply=rule.apply, _name=rule.name):
            started = time.process_time()
            _apply(paper)
            totals[_name] = totals.get(_name, 0.0) + time.process_time() - started

        timed.append(type(rule)(rule.name, rule.stage, rule.cues, rule.examples, apply))
    original = extract_module._RUN_ORDER
    extract_module._RUN_ORDER = tuple(timed)
    try:
        extract_all(papers, workers=1)
    finally:
        extract_module._RUN_ORDER = original
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=5000)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--rules-only", action="store_true", help="only each rule's time, no cProfile")
    args = parser.parse_args()
    papers = corpus_papers(args.corpus, args.limit)
    extract_all(papers.head(50), workers=1)  # lexicons and patterns loaded outside the profile

    if not args.rules_only:
        profiler = cProfile.Profile()
        started = time.perf_counter()
        profiler.enable()
        extract_all(papers, workers=1)
        profiler.disable()
        print(f"{papers.height} abstracts, {time.perf_counter() - started:.1f} s under cProfile")
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)

    texts = papers["abstract_clean"].to_list()
    stages = stage_times(texts)
    whole = sum(seconds for name, seconds in stages.items() if not name.startswith("("))
    print(f"stages: {1000 * whole / len(texts):.3f} CPU ms per abstract (no profiler)")
    for name, seconds in stages.items():
        print(f"  {name:32} {1000 * seconds / len(texts):6.3f} ms  {100 * seconds / whole:5.1f} %")

    totals = rule_times(papers)
    whole = sum(totals.values())
    print(f"rules: {whole:.2f} CPU s in all (no profiler)")
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name:32} {seconds:7.2f} s  {100 * seconds / whole:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
