"""Head words and cue words of the extraction rules, read from lexicons/heads.txt.

The last word of a phrase says what kind of thing it names ('Sparse Neural Compression network'
is a method, 'continual learning' a topic); cue words mark where a paper announces its own names.
"""

from __future__ import annotations

from pathlib import Path


def _read_groups(path: Path) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1], [])
        else:
            current.append(line)
    return {name: tuple(words) for name, words in groups.items()}


_GROUPS = _read_groups(Path(__file__).with_name("lexicons") / "heads.txt")

METHOD_HEADS = frozenset(_GROUPS["method_heads"])
WEAK_METHOD_HEADS = frozenset(_GROUPS["weak_method_heads"])
METRIC_HEADS = frozenset(_GROUPS["metric_heads"])
WEAK_METRIC_HEADS = frozenset(_GROUPS["weak_metric_heads"])
DATASET_HEADS = frozenset(_GROUPS["dataset_heads"])
LANGUAGE_DATA_HEADS = frozenset(_GROUPS["language_data_heads"])
NAMED_HEADS = frozenset(_GROUPS["named_heads"])
TOPIC_HEADS = frozenset(_GROUPS["topic_heads"])
INTRO_FILLERS = frozenset(_GROUPS["intro_fillers"])
FUNCTION_WORDS = frozenset(_GROUPS["function_words"])
# Words the one Aho–Corasick pass reports besides lexicon names, by the cue they belong to.
CUE_WORDS = {
    "verb": _GROUPS["cue_verb"],
    "slot": _GROUPS["cue_slot"],
    "head": _GROUPS["cue_head"],
    "example": _GROUPS["cue_example"],
}
