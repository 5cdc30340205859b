"""Score extraction against the annotated sets in sets/: P/R/F1 per type for each set.

    .venv/bin/python benchmarks/extraction/score.py [SET ...] [--corpus PATH] [--errors SET]

Each set's abstracts are cleaned and extracted here, in process, by the same code a build runs:
`seeds` from the repository's seeds/ (matched by prefix, as `score_entities.py` matches the
papers of a built warehouse), the others from the shared corpus by `corpus_id` (their `prefix`
is checked, so a changed corpus cannot score the wrong abstract). Names are compared as the
shared scorer compares them (`../shared/tools/score_entities.py`): NFKC, lower case, letters,
digits and `+` only, a plural `s` ignored, aliases split on `|`. `lenient` pools method, model,
dataset and metric, as the shared scorer does; `task` is scored on its own.

Results: a gold result is found when a result row's text holds its number (the shared scorer's
rule), and paired with that row. Each attribute (metric, dataset, compared_to) is then scored:
precision over the paired rows that fill it (a row that fills one the annotator left null is a
false positive), recall over every gold result whose attribute is not null, found or not. A row
paired with no gold result is a false positive of `result` only.

With `--with-corpus`, the sets are extracted together with every corpus abstract, as they would
be in a warehouse built over the corpus (what corpus-level knowledge needs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipeline.lib.clean import clean_many
from pipeline.lib.extract import extract_all
from pipeline.lib.parse import parse_file, seed_paths

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
DEFAULT_CORPUS = Path("/work/shared/corpus/abstracts.jsonl.gz")
TYPES = ("method", "model", "dataset", "metric")
ALL_TYPES = (*TYPES, "task")
ATTRIBUTES = ("metric", "dataset", "compared_to")
# The sets only ever scored, never read for errors (sets/README.md). Every other set but the seeds
# is development: dev-a, dev-b, dev-i, dev-j, dev-k, results-e, results-f, results-l.
HELD_OUT = frozenset({"held-c", "held-d", "results-g", "results-h"})


def norm(name: str | None) -> str:
    name = unicodedata.normalize("NFKC", name or "").lower()
    name = name.replace("’", "'").replace("'s ", " ")
    return re.sub(r"[^a-z0-9+]", "", name)


def variants(name: str | None) -> frozenset[str]:
    normalised = norm(name)
    if len(normalised) > 3 and normalised.endswith("s"):
        return frozenset({normalised, normalised[:-1]})
    return frozenset({normalised})


def group(aliases: str) -> frozenset[str]:
    """The names of one annotated entity: each alias of `a|b|c` and its singular."""
    return frozenset().union(*(variants(alias) for alias in aliases.split("|")))


def letters(text: str, limit: int = 400) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())[:limit]


def number_form(text: str) -> str:
    """A number as compared: LaTeX as the cleaner renders it (`52$\\times$` is `52×`), no spaces."""
    text = (text or "").replace("\\times", "×").replace("\\%", "%")
    return re.sub(r"[\s$\\{}]", "", text).replace("–", "-")


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, tp: int = 0, fp: int = 0, fn: int = 0) -> None:
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn

    def prf(self) -> tuple[float, float, float]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1


@dataclass
class Predicted:
    """What extraction gave one paper."""

    mentions: list[tuple[str, str, str, str | None]] = field(default_factory=list)  # type, name, text, role
    proposed_methods: list[str] = field(default_factory=list)
    abbreviations: set[tuple[str, str]] = field(default_factory=set)
    urls: set[str] = field(default_factory=set)
    results: list[dict] = field(default_factory=list)


@dataclass
class SetScore:
    name: str
    papers: int = 0
    counts: dict[str, Counts] = field(default_factory=lambda: {})
    errors: list[str] = field(default_factory=list)

    def count(self, kind: str) -> Counts:
        return self.counts.setdefault(kind, Counts())


def read_set(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def set_abstracts(sets: dict[str, list[dict]], corpus: Path) -> dict[str, str]:
    """paper key -> raw abstract, for every annotated record: `corpus_id` from the corpus, a
    seeds record (prefix only) from the repository's seeds."""
    wanted = {record["corpus_id"] for records in sets.values() for record in records if "corpus_id" in record}
    abstracts: dict[str, str] = {}
    if wanted:
        with gzip.open(corpus, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                if record["id"] in wanted:
                    abstracts[record["id"]] = record.get("abstract") or ""
    if any("corpus_id" not in record for records in sets.values() for record in records):
        for path in seed_paths(ROOT / "seeds"):
            for document in parse_file(path).documents:
                abstracts.setdefault(f"seed:{document['document_id']}", document["raw_text"])
    return abstracts


def corpus_abstracts(corpus: Path, skip: set[str]) -> dict[str, str]:
    with gzip.open(corpus, "rt", encoding="utf-8") as lines:
        records = (json.loads(line) for line in lines)
        return {r["id"]: r.get("abstract") or "" for r in records if r["id"] not in skip}


def paper_of(record: dict, clean_texts: dict[str, str]) -> str | None:
    if "corpus_id" in record:
        key = record["corpus_id"]
        text = clean_texts.get(key)
        if text is None or not letters(text).startswith(letters(record["prefix"])):
            return None
        return key
    prefix = letters(record["prefix"])
    return next((key for key, text in clean_texts.items() if letters(text).startswith(prefix)), None)


def predictions(extraction) -> dict[str, Predicted]:
    by_paper: dict[str, Predicted] = {}

    def of(paper_id: str) -> Predicted:
        return by_paper.setdefault(paper_id, Predicted())

    for paper_id, entity_type, name, text, role in extraction.mentions.select(
        "paper_id", "entity_type", "name", "text", "role"
    ).iter_rows():
        of(paper_id).mentions.append((entity_type, name or "", text or "", role))
    for paper_id, proposed in extraction.paper_annotations.select("paper_id", "proposed_methods").iter_rows():
        of(paper_id).proposed_methods = list(proposed or [])
    for paper_id, short, long in extraction.abbreviations.select("paper_id", "short", "long").iter_rows():
        of(paper_id).abbreviations.add((norm(short), norm(long)))
    for paper_id, url in extraction.links.select("paper_id", "url").iter_rows():
        of(paper_id).urls.add((url or "").rstrip("/."))
    for row in extraction.results.select("paper_id", "text", *ATTRIBUTES).iter_rows(named=True):
        of(row["paper_id"]).results.append(row)
    return by_paper


def score_entities(gold: dict, predicted: Predicted, score: SetScore) -> None:
    """The shared scorer's rules, with `task` as a fifth type outside `lenient`."""
    label = gold["prefix"][:40]
    optional = frozenset().union(*(group(x) for x in gold.get("optional", [])))
    gold_groups = {t: [group(x) for x in gold.get(t, [])] for t in ALL_TYPES}
    any_gold = frozenset().union(*(g for t in ALL_TYPES for g in gold_groups[t]))
    predicted_by_type: dict[str, dict[str, frozenset[str]]] = {t: {} for t in ALL_TYPES}
    for entity_type, name, text, _role in predicted.mentions:
        if entity_type in predicted_by_type:
            predicted_by_type[entity_type][norm(name) or norm(text)] = variants(name) | variants(text)
    for t in ALL_TYPES if "task" in gold else TYPES:  # a set annotated before tasks has none
        found = [any(g & names for names in predicted_by_type[t].values()) for g in gold_groups[t]]
        score.count(t).add(tp=sum(found), fn=len(found) - sum(found))
        score.errors += [
            f"[{label}] missed {t}: {sorted(g)[0]}"
            for g, hit in zip(gold_groups[t], found, strict=True)
            if not hit
        ]
        for key, names in predicted_by_type[t].items():
            if not names & any_gold and not names & optional:
                score.count(t).add(fp=1)
                score.errors.append(f"[{label}] extra {t}: {key}")
    pooled = {k: v for t in TYPES for k, v in predicted_by_type[t].items()}
    unique_groups = list(dict.fromkeys(g for t in TYPES for g in gold_groups[t]))
    lenient_gold = frozenset().union(*(g for t in TYPES for g in gold_groups[t]))
    found = [any(g & names for names in pooled.values()) for g in unique_groups]
    score.count("lenient").add(
        tp=sum(found),
        fn=len(found) - sum(found),
        fp=sum(1 for names in pooled.values() if not names & lenient_gold and not names & optional),
    )
    proposed = {
        norm(name) or norm(text): variants(name) | variants(text)
        for _t, name, text, role in predicted.mentions
        if role == "proposed"
    }
    for name in predicted.proposed_methods:
        proposed.setdefault(norm(name), variants(name))
    gold_proposed = [group(x) for x in gold.get("proposed", [])]
    found = [any(g & names for names in proposed.values()) for g in gold_proposed]
    score.count("proposed").add(tp=sum(found), fn=len(found) - sum(found))
    score.errors += [
        f"[{label}] missed proposed: {sorted(g)[0]}"
        for g, hit in zip(gold_proposed, found, strict=True)
        if not hit
    ]
    for key, names in proposed.items():
        if not any(names & g for g in gold_proposed) and not names & optional:
            score.count("proposed").add(fp=1)
            score.errors.append(f"[{label}] extra proposed: {key}")
    gold_abbreviations = {(norm(s), norm(long)) for s, long in gold.get("abbreviations", {}).items()}
    gold_shorts = {s for s, _ in gold_abbreviations}
    score.count("abbreviation").add(
        tp=len(gold_abbreviations & predicted.abbreviations),
        fn=len(gold_abbreviations - predicted.abbreviations),
        fp=len({a for a in predicted.abbreviations - gold_abbreviations if a[0] not in gold_shorts}),
    )
    gold_urls = {u.rstrip("/.") for u in gold.get("urls", [])}
    score.count("url").add(
        tp=len(gold_urls & predicted.urls),
        fn=len(gold_urls - predicted.urls),
        fp=len(predicted.urls - gold_urls),
    )


def attribute_matches(want: str, got: str, relaxed: bool = False) -> bool:
    """Whether a result's attribute names what the annotator wrote. `compared_to` may list several
    systems (`A, B`): each must be one the annotator named (`A|B`). Relaxed, one name may also
    contain the other (`ImageNet` for `ImageNet-1K`, `accuracy` for `top-1 accuracy`)."""
    wanted = group(want)
    for name in got.split(", "):
        names = variants(name)
        if not names & wanted and not (
            relaxed and any(min(len(a), len(b)) >= 3 and (a in b or b in a) for a in names for b in wanted)
        ):
            return False
    return True


def score_results(gold: dict, predicted: Predicted, score: SetScore) -> None:
    label = gold["prefix"][:40]
    unpaired = list(predicted.results)
    for result in gold.get("results", []):
        attributes = result if isinstance(result, dict) else {"text": result}
        row = take_row(unpaired, attributes["text"])
        if row is None:
            score.count("result").add(fn=1)
            score.errors.append(f"[{label}] missed result: {attributes['text']}")
        else:
            score.count("result").add(tp=1)
        if not isinstance(result, dict):
            continue  # the seed gold lists numbers only
        for attribute in ATTRIBUTES:
            want, got = result.get(attribute), row and row[attribute]
            for relaxed, kind in ((False, f"result.{attribute}"), (True, f"result.{attribute} (relaxed)")):
                if got and want and attribute_matches(want, got, relaxed):
                    score.count(kind).add(tp=1)
                    continue
                score.count(kind).add(fn=1 if want else 0, fp=1 if got else 0)
                if (want or got) and not relaxed:
                    score.errors.append(
                        f"[{label}] {attributes['text']} {attribute}: want {want!r}, got {got!r}"
                    )
    if "results" in gold:
        for number in gold.get("optional", []):  # borderline numbers: fine to find, not required
            take_row(unpaired, number)
        score.count("result").add(fp=len(unpaired))
        score.errors += [f"[{label}] extra result: {row['text']}" for row in unpaired]


def take_row(rows: list[dict], number: str) -> dict | None:
    """The first of `rows` whose text holds `number`, removed from `rows`."""
    pattern = re.compile(rf"(?<![\d.]){re.escape(number_form(number))}(?!\d)")
    row = next((r for r in rows if pattern.search(number_form(r["text"]))), None)
    if row is not None:
        rows.remove(row)
    return row


def pooled(scores: list[SetScore], kind: str) -> Counts:
    total = Counts()
    for score in scores:
        counts = score.counts.get(kind, Counts())
        total.add(counts.tp, counts.fp, counts.fn)
    return total


def print_summary(rows: list[SetScore]) -> None:
    """One line per set, then the sets pooled by role (sets/README.md): the figures to quote."""
    entity_sets = [s for s in rows if "lenient" in s.counts]
    groups = [
        ("development", [s for s in rows if s.name not in HELD_OUT and s.name != "seeds"]),
        ("held out", [s for s in rows if s.name in HELD_OUT]),
    ]
    print(
        "\nsummary: F1 lenient, proposed, task; precision (four types); recall metric, model, dataset, task"
    )
    for name, scores in [(s.name, [s]) for s in entity_sets] + groups:
        if not any("lenient" in s.counts for s in scores):
            continue
        figures = [pooled(scores, kind).prf()[2] for kind in ("lenient", "proposed", "task")]
        figures.append(pooled(scores, "lenient").prf()[0])
        figures += [pooled(scores, t).prf()[1] for t in ("metric", "model", "dataset", "task")]
        print(f"  {name:<12}" + "".join(f"{f:>8.3f}" for f in figures))
    print("\nresults: found (P, R); then precision and recall of metric, dataset, compared_to")
    for name, scores in groups:
        figures = list(pooled(scores, "result").prf()[:2])
        for attribute in ATTRIBUTES:
            figures += pooled(scores, f"result.{attribute}").prf()[:2]
        count = sum(c.tp + c.fn for s in scores for k, c in s.counts.items() if k == "result")
        print(f"  {name:<12}" + "".join(f"{f:>8.3f}" for f in figures) + f"   ({count} annotated results)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="set names (default: every file in sets/)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument(
        "--with-corpus", action="store_true", help="extract the sets among all corpus abstracts"
    )
    parser.add_argument("--errors", action="append", default=[], help="print the errors of this set")
    args = parser.parse_args()
    names = args.sets or sorted(path.stem for path in (HERE / "sets").glob("*.jsonl"))
    sets = {name: read_set(HERE / "sets" / f"{name}.jsonl") for name in names}
    raw = set_abstracts(sets, args.corpus)
    if args.with_corpus:
        raw |= corpus_abstracts(args.corpus, skip=set(raw))
    keys = list(raw)
    clean_texts = dict(zip(keys, clean_many([raw[k] for k in keys]), strict=True))
    papers = pl.DataFrame({"paper_id": keys, "abstract_clean": [clean_texts[k] for k in keys]})
    predicted = predictions(extract_all(papers, workers=1))
    rows = []
    for name, records in sets.items():
        score = SetScore(name)
        for record in records:
            paper_id = paper_of(record, clean_texts)
            if paper_id is None:
                score.errors.append(f"no abstract found for {record.get('corpus_id')}: {record['prefix']}")
                continue
            score.papers += 1
            if record.get("scope") != "results":
                score_entities(record, predicted.get(paper_id, Predicted()), score)
            score_results(record, predicted.get(paper_id, Predicted()), score)
        rows.append(score)
        print(f"\n{name}: {score.papers} of {len(records)} abstracts")
        print(f"  {'':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'P':>8}{'R':>8}{'F1':>8}")
        for kind, counts in score.counts.items():
            figures = "".join(f"{f:>8.3f}" for f in counts.prf())
            print(f"  {kind:<22}{counts.tp:>5}{counts.fp:>5}{counts.fn:>5}{figures}")
        if name in args.errors:
            print("\n".join(f"    {error}" for error in score.errors))
    print_summary(rows)
    # An annotated abstract the corpus no longer holds as annotated fails the run.
    return 1 if any(error.startswith("no abstract") for score in rows for error in score.errors) else 0


if __name__ == "__main__":
    sys.exit(main())
