"""Build the task lexicons from Papers with Code's task names, filtered, and print what was kept.

    .venv/bin/python benchmarks/extraction/build_task_lexicon.py [--tasks PATH]

The source (`../shared/lexicons/paperswithcode/tasks.tsv`, 3,721 names) is noisy: truncated
names, junk rows, paradigms (`reinforcement learning`), fields (`deep learning`), families
(`topic models`). Two lists are written, both CC BY-SA 4.0 like their source:

- `lexicons/tasks.txt`: names of two to five plain words that end in a task head of the
  vocabulary or a head tasks.py takes only inside a name (`image classification`, `causal
  discovery`, `crowd counting`) and name nothing another lexicon names
  (`Bayesian optimization` is a method there), a topic's name included (`question answering`).
  They fix where a task phrase starts.
- `lexicons/task_words.txt`: every plain word of a task name (`image`, `semantic`, `molecule`,
  `3d`) but function and quality words: the words a task phrase may be built of. A word before a
  task head that is not one of them (`improves`, `excellent`, `current`) ends the phrase.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pipeline.lib.extract.lexicons import LEXICON_DIR, load_lexicon
from pipeline.lib.extract.tasks import NAMED_TASK_HEADS
from pipeline.lib.extract.vocabulary import FUNCTION_WORDS, TASK_HEADS, TASK_WORD_STOPS, WEAK_TASK_HEADS

DEFAULT_TASKS = Path("/work/shared/lexicons/paperswithcode/tasks.tsv")
PLAIN_NAME = re.compile(r"[a-z0-9][a-z0-9 '/-]*[a-z]")
PLAIN_WORD = re.compile(r"[a-z0-9][a-z0-9'/-]*")
# '10-shot image generation', '2-task classification': one setting of a task, not a task.
NUMBERED_SETTING = re.compile(r"\d+-(?!d\b)")
SOURCE = """\
# Derived from Papers with Code's task list, as preserved after the site closed in July 2025
# (repository World-Snapshot/papers-with-code, commit c50b88eb13b179903ecf715bb941fef91bdb5414,
# data/all_tasks.txt). Papers with Code released its data under CC BY-SA 4.0; this derived list
# is under the same licence (https://creativecommons.org/licenses/by-sa/4.0/).
# Built by benchmarks/extraction/build_task_lexicon.py: do not edit by hand.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    args = parser.parse_args()
    lines = args.tasks.read_text(encoding="utf-8").splitlines()[1:]
    raw = sorted({line.split("\t")[0].strip().lower() for line in lines if line.strip()})
    (LEXICON_DIR / "tasks.txt").unlink(missing_ok=True)  # its own names must not exclude themselves
    load_lexicon.cache_clear()
    lexicon = load_lexicon()
    stops = FUNCTION_WORDS | TASK_WORD_STOPS
    names, words = [], set()
    for name in raw:
        parts = name.split()
        words.update(
            w for w in (p.strip('(),.:;"') for p in parts) if PLAIN_WORD.fullmatch(w) and w not in stops
        )
        if not PLAIN_NAME.fullmatch(name) or not 2 <= len(parts) <= 5:
            continue
        heads = TASK_HEADS | WEAK_TASK_HEADS | NAMED_TASK_HEADS
        if parts[-1] not in heads or any(part in stops for part in parts):
            continue
        if NUMBERED_SETTING.match(name):
            continue
        entry = lexicon.lookup(name)
        if entry is None or entry.kind == "topic":  # a topic that is a task is a task here
            names.append(name)
    (LEXICON_DIR / "tasks.txt").write_text(
        "# Task names: the research problems papers address ('semantic segmentation').\n"
        + SOURCE
        + "# Names of two to five plain words ending in a task head, naming nothing another lexicon names.\n"
        + "\n".join(names)
        + "\n",
        encoding="utf-8",
    )
    (LEXICON_DIR / "task_words.txt").write_text(
        "# The words task names are made of ('image', 'semantic', 'molecule', '3d').\n"
        + SOURCE
        + "# Every plain word of a task name, function and quality words left out.\n"
        + "\n".join(sorted(words))
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(raw)} task names read: {len(names)} names and {len(words)} words kept in {LEXICON_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
