"""Where the pipeline reads and writes, resolved when asked (never at import time)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SEEDS_ENV = "PAPERS_SEEDS_DIR"
WAREHOUSE_ENV = "PAPERS_WAREHOUSE_DIR"


def seeds_dir(override: str | os.PathLike | None = None) -> Path:
    return Path(override or os.environ.get(SEEDS_ENV) or REPO_ROOT / "seeds").resolve()


def warehouse_dir(override: str | os.PathLike | None = None) -> Path:
    return Path(override or os.environ.get(WAREHOUSE_ENV) or REPO_ROOT / "warehouse").resolve()
