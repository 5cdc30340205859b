"""Time extraction on hostile abstracts against a normal abstract of the same length.

    python benchmarks/hostile_abstracts.py
    python benchmarks/hostile_abstracts.py --runs 9 --megabyte

Each abstract goes through what extraction does for one paper (links, entities, results) with the
lexicon loaded beforehand; the time printed is the median of --runs runs, the hostile and the normal
abstract run in turn so that both meet the same load. The normal abstract of the same length
repeats ordinary sentences, written here, up to the hostile one's length. The ratio hostile /
normal should stay under 3: extraction time grows with the length of the text, not with how many
acronyms, capitals or numbers it holds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.lib.extract.extract import extract_entities
from pipeline.lib.extract.lexicons import load_lexicon
from pipeline.lib.extract.links import find_links
from pipeline.lib.extract.results import MAX_RESULTS, MentionSpan, find_results

NORMAL_SENTENCES = (
    "We propose Sparse Routing Attention (SRA), a method that routes each token to a few experts.",
    "SRA is trained on the Harbor dataset and evaluated with BLEU and accuracy.",
    "Compared with LoRA and standard fine-tuning, it reaches 71.5% accuracy with 3x fewer parameters.",
    "Our analysis shows that the routing weights converge quickly under mild assumptions.",
    "Experiments on two benchmarks confirm the gains, and the code is available online.",
)


def normal_abstract(length: int) -> str:
    """Ordinary sentences repeated to `length` characters, cut at a space."""
    text = ""
    while len(text) < length:
        text += " ".join(NORMAL_SENTENCES) + " "
    return text[:length].rsplit(" ", 1)[0]


HOSTILE: dict[str, Callable[[], str]] = {
    "one long form, 250 acronyms (1,003 words)": lambda: (
        "We propose networks: " + " ".join(f"Foo Bar Net (FBN{i})" for i in range(250))
    ),
    "capital letters, 16,000 characters": lambda: "A" * 16_000,
    "capital letters, 60,000 characters": lambda: "A" * 60_000,
    "capitalised token, 60,000 characters": lambda: "A" + "a" * 59_999,
    "capitals and digits, 60,000 characters": lambda: "A1" * 30_000,
    "capitals and hyphens, 60,000 characters": lambda: "A-" * 30_000 + "A",
    "percentages, no full stop, 5,160 characters": lambda: ("1% " * 1720).strip(),
    "percentages, no full stop, 60,000 characters": lambda: ("1% " * 20_000).strip(),
    "percentages, F1, 5,160 characters": lambda: ("1% F1 " * 860).strip(),
    "percentages, F1, 60,000 characters": lambda: ("1% F1 " * 10_000).strip(),
    "F1 clauses, 5,160 characters": lambda: ("F1 of 1%; " * 516).strip(),
    "F1 clauses, 60,000 characters": lambda: ("F1 of 1%; " * 6_000).strip(),
    "F1 sentences, 60,000 characters": lambda: ("F1 of 1%. " * 6_000).strip(),
    "F1 scores, 60,000 characters": lambda: ("F1 of 78.3, " * 5_000).strip(),
    "clauses over LoRA, 60,003 characters": lambda: ("1% over LoRA; " * 4_286).strip(),
    "task heads, 2,000 words": lambda: ("classification, " * 2_000).strip(),
    "measure cues, no full stop, 2,004 words": lambda: ("higher accuracy and lower latency, " * 334).strip(),
}
MEGABYTE = {"capital letters, 1,000,000 characters": lambda: "A" * 1_000_000}


def extract_one(text: str, lexicon) -> int:
    """What extraction does for one paper; returns the number of mentions."""
    links = find_links(text)
    found = extract_entities(text, lexicon, links)
    spans = [MentionSpan(m.start, m.end, m.entity_type, m.name) for m in found.mentions]
    find_results(text, spans, limit=MAX_RESULTS + 1)
    return len(found.mentions)


def seconds(text: str, lexicon) -> float:
    started = time.perf_counter()
    extract_one(text, lexicon)
    return time.perf_counter() - started


def median_seconds(hostile: str, normal: str, lexicon, runs: int) -> tuple[float, float]:
    """Median seconds of each text, their runs taken in turn."""
    times = [(seconds(hostile, lexicon), seconds(normal, lexicon)) for _ in range(runs)]
    return statistics.median(t for t, _ in times), statistics.median(t for _, t in times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per abstract; the median is printed")
    parser.add_argument(
        "--megabyte", action="store_true", help="also a 1 MB token (slow to run 2 x runs times)"
    )
    args = parser.parse_args()
    lexicon = load_lexicon()
    cases = {**HOSTILE, **(MEGABYTE if args.megabyte else {})}
    print(f"{'abstract':42} {'chars':>9} {'mentions':>8} {'hostile':>10} {'normal':>10} {'ratio':>6}")
    worst = 0.0
    for name, make in cases.items():
        hostile = make()
        normal = normal_abstract(len(hostile))
        hostile_seconds, normal_seconds = median_seconds(hostile, normal, lexicon, args.runs)
        ratio = hostile_seconds / normal_seconds
        worst = max(worst, ratio)
        print(
            f"{name:42} {len(hostile):>9,} {extract_one(hostile, lexicon):>8,} "
            f"{hostile_seconds * 1000:>8.1f}ms {normal_seconds * 1000:>8.1f}ms {ratio:>6.2f}"
        )
    print(f"worst ratio {worst:.2f} (target: under 3)")


if __name__ == "__main__":
    main()
