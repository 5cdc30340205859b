"""Give memory that a finished part of a step freed back to the system, so that the next part does
not stack its own peak on top of it."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

import pyarrow as pa


@cache
def _malloc_trim() -> ctypes._CFuncPtr | None:
    """glibc's malloc_trim, or None where the C library has none (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    return getattr(ctypes.CDLL(name), "malloc_trim", None)


def release_unused_memory() -> None:
    """Return the pages that pyarrow's memory pool and the C library's malloc hold free.

    Both keep freed memory for later allocations: at a million abstracts pyarrow's pool (mimalloc)
    kept 0.8 GB after the dedup signatures were read, and glibc's heap 0.2 GB after matching. The
    memory polars frees is its own allocator's, which returns it after a delay by itself."""
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
