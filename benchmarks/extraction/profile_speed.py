"""Profile entity extraction on the first N corpus abstracts: cProfile's top functions by
internal and by cumulative time, and each rule's share of the rule loop.

    .venv/bin/python benchmarks/extraction/profile_speed.py [--limit 5000] [--top 40]
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

from pipeline.lib.extract import extract as extract_module
from pipeline.lib.extract import extract_all


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

    totals = rule_times(papers)
    whole = sum(totals.values())
    print(f"rules: {whole:.2f} CPU s in all (no profiler)")
    for name, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name:32} {seconds:7.2f} s  {100 * seconds / whole:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
