"""Score the extraction with a catalogue list changed, to decide whether a list earns its place.

    .venv/bin/python benchmarks/extraction/catalogue_trial.py VARIANT [--lexicons DIR]

VARIANT is one of:
- `pwc-datasets`: Papers with Code's dataset names added to lexicons/datasets.txt (filtered: plain
  names of 3 to 41 characters with a capital or digit after the first letter or a space, not all
  lower case, unknown to the lexicons);
- `pwc-metrics`: its metric names added to lexicons/metrics.txt (names of 3 to 31 characters,
  no split name such as 'test' or 'val', unknown to the lexicons);
- `no-task-names`: lexicons/tasks.txt emptied (the task words kept), to see what the task names add.

The package is copied to a temporary directory and changed there; `score.py` then runs on the
copy, and its summary is printed. The repository is not touched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.lib.extract.lexicons import load_lexicon

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
DEFAULT_LEXICONS = Path("/work/shared/lexicons/paperswithcode")
PWC_DATASET = re.compile(r"[A-Za-z0-9][\w .+'-]{1,40}")
PWC_METRIC = re.compile(r"[A-Za-z][\w .@+'-]{1,30}")
SPLIT_NAME = re.compile(r"\b(?:test|val|dev|train)\b", re.IGNORECASE)


def names(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t")[0].strip() for line in lines if line.strip()]


def dataset_names(lexicons: Path) -> list[str]:
    known = load_lexicon()
    return [
        name
        for name in names(lexicons / "datasets.tsv")
        if PWC_DATASET.fullmatch(name)
        and (re.search(r"[A-Z0-9]", name[1:]) or " " in name)
        and name.lower() != name
        and len(name) >= 3
        and known.lookup(name) is None
    ]


def metric_names(lexicons: Path) -> list[str]:
    known = load_lexicon()
    return [
        name
        for name in names(lexicons / "metrics.tsv")
        if PWC_METRIC.fullmatch(name)
        and len(name) >= 3
        and not SPLIT_NAME.search(name)
        and known.lookup(name) is None
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=["pwc-datasets", "pwc-metrics", "no-task-names"])
    parser.add_argument("--lexicons", type=Path, default=DEFAULT_LEXICONS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(ROOT / "pipeline", Path(scratch) / "pipeline")
        target = Path(scratch) / "pipeline" / "lib" / "extract" / "lexicons"
        if args.variant == "no-task-names":
            header = [
                line for line in (target / "tasks.txt").read_text().splitlines() if line.startswith("#")
            ]
            (target / "tasks.txt").write_text("\n".join(header) + "\n")
            print("task names removed")
        else:
            file_name, added = (
                ("datasets.txt", dataset_names(args.lexicons))
                if args.variant == "pwc-datasets"
                else ("metrics.txt", metric_names(args.lexicons))
            )
            with (target / file_name).open("a", encoding="utf-8") as lexicon:
                lexicon.write("\n".join(added) + "\n")
            print(f"{len(added)} names added to {file_name}")
        environment = {**os.environ, "PYTHONPATH": scratch}
        scored = subprocess.run(
            [sys.executable, str(HERE / "score.py")],
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
    print(scored.stdout[scored.stdout.index("summary:") :])
    return scored.returncode


if __name__ == "__main__":
    sys.exit(main())
