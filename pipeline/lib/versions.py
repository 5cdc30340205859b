"""The one way staged work is versioned: a digest of the bytes of the code and data files it depends
on. What a step stages is stamped with the digest of its code; a stamp that differs is stale."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType


def source_digest(sources: Iterable[Path | ModuleType]) -> str:
    """16 hex digits over each file's name and bytes (a module stands for its file), in name order."""
    paths = sorted(Path(s.__file__) if isinstance(s, ModuleType) else s for s in sources)
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
