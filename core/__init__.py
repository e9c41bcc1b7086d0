"""Chunk Explorer's library: chunk code, prose and tables for retrieval.

The package never imports Streamlit; the app in ``app.py``/``pages/`` is only a client.
Public entry points:

- :func:`core.chunking.load_any` reads a file, a folder or a zipped repository;
  :func:`core.chunking.chunk_corpus`, :func:`core.chunking.chunk_source` and
  :func:`core.chunking.chunk_document` (over :func:`core.chunking.prepare`) cut it into
  :class:`core.chunk.Chunk` objects by a :class:`core.settings.ChunkSettings`.
- :mod:`core.tables` chunks CSV, TSV and XLSX tables; :mod:`core.index` and
  :mod:`core.evaluate` index chunks and measure retrieval.
- :mod:`core.metrics` measures boundary damage of any chunk list.
- ``python -m core`` is the CLI over all of it.
"""

from core.chunk import Chunk
from core.settings import ChunkSettings

__all__ = ["Chunk", "ChunkSettings"]
