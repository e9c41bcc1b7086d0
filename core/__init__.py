"""Chunk Explorer's library: chunk code, prose and tables for retrieval.

The package never imports Streamlit; the app in ``app.py``/``pages/`` is only a client.
Public entry points:

- :func:`core.chunking.chunk_document` / :func:`core.chunking.chunk_path` cut sources into
  :class:`core.chunk.Chunk` objects by a :class:`core.settings.ChunkSettings`.
- :mod:`core.metrics` measures boundary damage of any chunk list.
- ``python -m core`` is the CLI over all of it.
"""

from core.chunk import Chunk
from core.settings import ChunkSettings

__all__ = ["Chunk", "ChunkSettings"]
