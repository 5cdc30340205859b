"""Where the pipeline reads and writes, resolved when asked (never at import time)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SEEDS_ENV = "PAPERS_SEEDS_DIR"
WAREHOUSE_ENV = "PAPERS_WAREHOUSE_DIR"


def seeds_dir(override: str | os.PathLike | None = None) -> Path:
    return Path(override or os.environ.get(SEEDS_ENV) or REPO_ROOT / "seeds").resolve()


class UnusableWarehouse(ValueError):
    """A warehouse directory the warehouse's database cannot be kept in."""


def usable_warehouse(path: Path) -> Path:
    """`path`, unless DuckDB cannot keep a database under it: it takes what follows a `?` in a
    database's path for options, and a build would fail only when it publishes."""
    if "?" in str(path):
        raise UnusableWarehouse(
            f"the warehouse directory {path} holds '?', which DuckDB cannot keep a database under; "
            "choose a directory without it"
        )
    return path


def warehouse_dir(override: str | os.PathLike | None = None) -> Path:
    return usable_warehouse(
        Path(override or os.environ.get(WAREHOUSE_ENV) or REPO_ROOT / "warehouse").resolve()
    )
