"""The entries of the input directory: which may be read, and why the others are not.

An input is read only when it is a regular file inside the seeds directory. A symbolic link may
point at a regular file inside the directory, or outside it only when the user allows it
(`PAPERS_ALLOW_OUTSIDE_LINKS=1`): a seeds folder unpacked from someone else's archive must not
publish the user's private files. Devices, FIFOs, sockets and directories are recorded with their
reason, found from the file's status alone: nothing is opened to find out.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

ALLOW_OUTSIDE_ENV = "PAPERS_ALLOW_OUTSIDE_LINKS"


def allow_outside_links() -> bool:
    return os.environ.get(ALLOW_OUTSIDE_ENV, "").strip().lower() in {"1", "true", "yes"}


def entry_paths(seeds_dir: Path) -> list[Path]:
    """Every entry of the directory, whatever its name or kind, in name order (never a glob)."""
    try:
        names = os.listdir(seeds_dir)
    except OSError:
        return []
    return [seeds_dir / name for name in sorted(names)]


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


@dataclass(frozen=True)
class Entry:
    path: Path
    size: int | None
    problem: str | None


def _kind(mode: int) -> str | None:
    return next((label for test, label in _KINDS if test(mode)), None)


def inspect(path: Path, seeds_dir: Path | None = None, allow_outside: bool | None = None) -> Entry:
    """Whether `path` may be read, with its size, from its status alone."""
    seeds_dir = seeds_dir or path.parent
    allow_outside = allow_outside_links() if allow_outside is None else allow_outside
    try:
        own = os.lstat(path)
    except OSError as error:
        return Entry(path, None, f"cannot be read: {error.strerror or error}")
    if stat.S_ISLNK(own.st_mode):
        target = Path(os.path.realpath(path))
        try:
            status = os.stat(path)
        except OSError:
            return Entry(path, None, f"is a broken symbolic link (to {os.readlink(path)})")
        inside = target.is_relative_to(Path(os.path.realpath(seeds_dir)))
        kind = _kind(status.st_mode)
        if kind:
            return Entry(path, None, f"is a symbolic link to {kind} ({target}); only regular files are read")
        if not inside and not allow_outside:
            return Entry(
                path,
                None,
                f"is a symbolic link to a file outside the seeds directory ({target}); it is read only "
                f"when {ALLOW_OUTSIDE_ENV}=1 is set",
            )
        return Entry(path, status.st_size, None)
    kind = _kind(own.st_mode)
    if kind:
        return Entry(path, None, f"is {kind}; only regular files are read")
    return Entry(path, own.st_size, None)


# What Dagster refuses in a partition key; such a file name is escaped to be one.
_KEY_ESCAPES = {"%": "%25", "...": "%2E%2E%2E", **{c: f"%{ord(c):02X}" for c in "\a\b\f\n\r\t\v\0"}}


def partition_key(name: str) -> str:
    """The Dagster partition key of an input file: its name, escaped when it holds '%' or what
    Dagster refuses (see `file_name`)."""
    if not any(raw in name for raw in _KEY_ESCAPES):
        return name
    key = name.replace("%", "%25")
    for raw, escaped in _KEY_ESCAPES.items():
        if raw != "%":
            key = key.replace(raw, escaped)
    return key


def file_name(key: str) -> str:
    """The input file's name for its partition key: a key with '%' is an escaped name."""
    if "%" not in key:
        return key
    for raw, escaped in _KEY_ESCAPES.items():
        if raw != "%":
            key = key.replace(escaped, raw)
    return key.replace("%25", "%")


def stamp(path: Path) -> str:
    """Size, inode, modification and change times of an entry, from its status alone (never
    opened): the seeds sensor hashes a file again only when these change. A link's target counts
    when it may be read."""
    entry = inspect(path)
    try:
        status = os.stat(path) if entry.problem is None else os.lstat(path)
    except OSError:
        return "missing"
    return f"{status.st_size}:{status.st_ino}:{status.st_mtime_ns}:{status.st_ctime_ns}:{entry.problem or ''}"


def file_digest(path: Path, seeds_dir: Path | None = None) -> str | None:
    """SHA-256 of a readable entry's bytes, streamed; None for an entry that is not read."""
    if inspect(path, seeds_dir).problem:
        return None
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
