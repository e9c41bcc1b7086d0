"""Arrow's allocator in the processes Chunk Explorer owns (the CLI, the app)."""

from __future__ import annotations

import os
import sys

ARROW_POOL = "system"
_ENV = "ARROW_DEFAULT_MEMORY_POOL"


def prefer_returning_pool() -> None:
    """Have Arrow allocate with the system allocator, which gives freed memory back, rather than
    its default mimalloc, which keeps it mapped. Streaming a table makes many short-lived
    buffers: chunking a 72.5 MB CSV peaked at 2.9-3.0x the file's size with mimalloc and about
    2.5x with the system allocator, at the same speed (``bench/bench_tables.py``).

    Process-wide, so only entry points call it (the CLI, the app), never the library. A choice
    already made in the environment (``ARROW_DEFAULT_MEMORY_POOL``) is kept; the variable is
    set otherwise, so worker processes started later allocate the same way."""
    if _ENV in os.environ:
        return
    os.environ[_ENV] = ARROW_POOL
    pa = sys.modules.get("pyarrow")
    if pa is not None:  # already loaded (Streamlit loads it), its default pool maybe made
        pa.set_memory_pool(pa.system_memory_pool())
