"""Embeddings: a sentence-transformers model, batched and normalised, behind an on-disk cache.

- :func:`load_model` loads the bundled all-MiniLM-L6-v2 by default, or any local folder or model
  already in the Hugging Face cache; nothing is downloaded (:class:`~core.errors.ModelError`
  otherwise). GPU when torch sees one, else CPU.
- :class:`EmbeddingCache` keeps vectors keyed by (model, sha256 of the text) in SQLite (WAL mode:
  a crash mid-write loses at most the batch being written, never the file), so re-indexing after
  a parameter change embeds only texts it has not seen.
- :class:`Embedder` ties both together and reports texts longer than the model reads: they are
  embedded (the model reads their beginning) but listed in :attr:`Embedded.too_long`, never
  truncated silently.
- :func:`embed_chunks` makes chunk vectors: a syntax chunk's embedding leans toward its head's
  (``ChunkSettings.head_weight``).

torch and sentence-transformers are imported lazily: importing this module is cheap.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from core.errors import InputError, ModelError
from core.settings import DEFAULT_MODEL
from core.sizing import is_default_model, load_tokenizer, model_max_seq_length, resolve_model_path

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

    from core.chunk import Chunk

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while texts are embedded: distinct texts, those found in the
cache done at once (as :class:`Embedded` counts them: ``reused + computed == total``)."""

DEFAULT_BATCH_SIZE = 16
# Texts handed to the model per call: large enough to sort by length and batch well, small
# enough that progress and the cache advance often (a crash loses at most this many).
_CALL_SIZE = 128
_SQL_VARS = 500  # SQLite's host-parameter limit is 999 on old builds
_QUERY_LOCK = threading.Lock()  # guards the process-wide torch thread count while a query is embedded


def model_key(model: str) -> str:
    """The name under which ``model``'s vectors are cached: aliases of the default collapse to
    one name, a local folder to its absolute path (two folders may hold different weights)."""
    if is_default_model(model):
        return DEFAULT_MODEL
    candidate = Path(model).expanduser()
    if candidate.is_dir():
        return str(candidate.resolve())
    return model


def text_digest(text: str) -> bytes:
    """sha256 of ``text``'s UTF-8 bytes (the cache key beside the model)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def pick_device() -> str:
    """``cuda`` when torch sees a GPU, else ``cpu``."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def load_model(model: str = DEFAULT_MODEL, *, device: str | None = None) -> SentenceTransformer:
    """Load a sentence-transformers model by name or local path, without any download.

    Raises :class:`ModelError` when the model is not on this machine or cannot be read, with a
    message that says how to use a local copy.
    """
    path = resolve_model_path(model)
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ModelError(
            f"sentence-transformers is not installed ({exc}); run: pip install -r requirements.txt"
        ) from None
    _quiet_transformers()
    try:
        return SentenceTransformer(str(path), device=device or pick_device(), local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - transformers raises many types; all mean "unusable"
        raise ModelError(
            f"cannot load embedding model {model!r} from {path}: {type(exc).__name__}: {str(exc).rstrip('. ')}. "
            "Give the folder of a sentence-transformers model (with modules.json or config.json "
            "and weights) copied to this machine."
        ) from None


@dataclass(frozen=True)
class TooLong:
    """A text longer than the model reads: ``tokens`` (special tokens included) over ``limit``."""

    index: int
    tokens: int
    limit: int


@dataclass(frozen=True)
class Embedded:
    """Vectors for a list of texts, in order, with what was re-used and what is too long."""

    vectors: np.ndarray  # (n, dim) float32, unit length (chunk vectors with a head: at most 1)
    reused: int  # distinct texts found in the cache
    computed: int  # distinct texts the model embedded now
    too_long: tuple[TooLong, ...]


class TextEmbedder(Protocol):
    """What :func:`embed_chunks` needs: :class:`Embedder`, or a stand-in (benchmarks, tests)."""

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> Embedded: ...


def head_text(text: str, lines: int) -> str:
    """The head of a chunk's ``embed_text``: its first ``lines`` non-blank lines, stripped (the
    breadcrumb, the signature header and the first lines of code, for a syntax chunk)."""
    head: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            head.append(line)
            if len(head) == lines:
                break
    return "\n".join(head)


def has_head(chunk: Chunk) -> bool:
    """Whether a chunk's first lines say what it is: a syntax chunk (a definition, its signature
    on top) does; a fixed window starts wherever the cut fell, a table chunk with its header row
    and a prose section are embedded whole (no evidence that a head helps them)."""
    return chunk.strategy == "syntax" and not chunk.fallback


def embed_chunks(
    embedder: TextEmbedder,
    chunks: Sequence[Chunk],
    *,
    head_weight: float,
    head_lines: int,
    progress: Progress | None = None,
) -> Embedded:
    """Vectors of ``chunks`` from their ``embed_text``. For a chunk that :func:`has_head`, the
    vector is ``(1 - head_weight)`` times its text's unit vector plus ``head_weight`` times its
    :func:`head_text`'s, so a query vector scores ``(1 - w) cos(query, text) + w cos(query, head)``
    (ChunkSettings explains why); other chunks get their text's unit vector.

    Heads go through the embedder (and its cache) in the same call as the texts: ``reused`` and
    ``computed`` count them too; ``too_long`` names chunks only (a head is never longer than its
    chunk)."""
    texts = [c.embed_text for c in chunks]
    rows = [i for i, c in enumerate(chunks) if has_head(c)] if head_weight else []
    if not rows:
        return embedder.embed(texts, progress=progress)
    n = len(texts)
    both = embedder.embed([*texts, *(head_text(texts[i], head_lines) for i in rows)], progress=progress)
    vectors = both.vectors[:n].copy()
    vectors[rows] = (1.0 - head_weight) * vectors[rows] + head_weight * both.vectors[n:]
    too_long = tuple(t for t in both.too_long if t.index < n)
    return Embedded(vectors, both.reused, both.computed, too_long)


class EmbeddingCache:
    """Vectors keyed by (model, sha256 of text) in one SQLite file; ``None`` keeps them in memory.

    Each batch is written in one transaction and the file runs in WAL mode, so a crash mid-write
    leaves the cache as it was before that batch. Safe to share between threads.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        try:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path) if self.path is not None else ":memory:", timeout=30, check_same_thread=False
            )
            if self.path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, digest BLOB NOT NULL, "
                "tokens INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, digest)) WITHOUT ROWID"
            )
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise self._error(exc) from None

    def _error(self, exc: Exception) -> InputError:
        where = self.path or "memory"
        if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
            return InputError(
                f"embedding cache {where} is not a SQLite database (corrupted?); it was left as it is: "
                "move it away or choose another cache file"
            )
        if "readonly" in str(exc) or "read-only" in str(exc) or isinstance(exc, PermissionError):
            return InputError(f"embedding cache {where} cannot be written (read-only folder?): {exc}")
        return InputError(f"embedding cache {where} cannot be used: {exc}")

    def get_many(self, model: str, digests: Sequence[bytes]) -> dict[bytes, tuple[np.ndarray, int]]:
        """Cached ``(vector, tokens)`` of each digest found, by digest."""
        found: dict[bytes, tuple[np.ndarray, int]] = {}
        with self._lock:
            try:
                for start in range(0, len(digests), _SQL_VARS):
                    part = list(digests[start : start + _SQL_VARS])
                    marks = ",".join("?" * len(part))
                    rows = self._db.execute(
                        f"SELECT digest, tokens, vector FROM vectors WHERE model = ? AND digest IN ({marks})",
                        [model, *part],
                    )
                    for digest, tokens, blob in rows:
                        found[digest] = (np.frombuffer(blob, dtype=np.float32), int(tokens))
            except sqlite3.Error as exc:
                raise self._error(exc) from None
        return found

    def put_many(self, model: str, rows: Iterable[tuple[bytes, np.ndarray, int]]) -> None:
        """Store ``(digest, vector, tokens)`` rows in one transaction."""
        data = [(model, d, int(t), np.asarray(v, dtype=np.float32).tobytes()) for d, v, t in rows]
        with self._lock:
            try:
                with self._db:
                    self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", data)
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def count(self, model: str | None = None) -> int:
        """How many vectors are stored (for ``model`` only, when given)."""
        with self._lock:
            if model is None:
                return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0])

    def close(self) -> None:
        """Close the database (further use raises)."""
        with self._lock:
            self._db.close()


class Embedder:
    """A loaded model plus its cache: ``embed`` for chunks, ``embed_query`` for one query.

    Build one per model and keep it (loading takes seconds); it is safe to share.
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        cache: EmbeddingCache | Path | str | None = None,
        device: str | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        loaded: SentenceTransformer | None = None,
    ) -> None:
        """``loaded`` re-uses a model already in memory (tests, the app); it must be ``model``.

        The model is resolved now (an unknown name fails here) but loaded on first use, so a
        run whose texts are all cached never pays for loading it.
        """
        self.name = model
        self.key = model_key(model)
        self.device = device
        if loaded is None:
            resolve_model_path(model)  # an absent model fails here, before any chunking or I/O
        self._model = loaded
        self._load_lock = threading.Lock()
        self.cache = cache if isinstance(cache, EmbeddingCache) else EmbeddingCache(cache)
        self.batch_size = batch_size
        self.max_tokens = int(loaded.max_seq_length) if loaded is not None else model_max_seq_length(model)
        self._fast_tokenizer = _fast_tokenizer(model)

    @property
    def model(self) -> SentenceTransformer:
        """The sentence-transformers model (loaded on first use)."""
        with self._load_lock:
            if self._model is None:
                self._model = load_model(self.name, device=self.device)
            return self._model

    @property
    def dimension(self) -> int:
        """Length of the vectors."""
        model = self.model
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter() or 0)

    def with_cache(self, cache: EmbeddingCache | Path | str | None) -> Embedder:
        """The same loaded model over another cache."""
        twin = Embedder(self.name, cache=cache, batch_size=self.batch_size, loaded=self._model, device=self.device)
        twin.max_tokens = self.max_tokens
        return twin

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens the model would read for each text, special tokens included, untruncated."""
        if not texts:
            return []
        if self._fast_tokenizer is not None:
            return [len(e.ids) for e in self._fast_tokenizer.encode_batch(list(texts), add_special_tokens=True)]
        encoded = self.model.tokenizer(list(texts), add_special_tokens=True, truncation=False)
        return [len(ids) for ids in encoded["input_ids"]]

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> Embedded:
        """Unit vectors for ``texts`` in order; only texts missing from the cache are computed."""
        digests = [text_digest(t) for t in texts]
        distinct = list(dict.fromkeys(digests))
        found = self.cache.get_many(self.key, distinct)
        todo: dict[bytes, str] = {}
        for digest, text in zip(digests, texts):
            if digest not in found and digest not in todo:
                todo[digest] = text
        reused = len(found)  # distinct texts, as computed counts them (a repeated head once)
        # Progress counts distinct texts too, so that it ends where reused + computed does (it
        # counted a text given twice twice: "281/281" over 80 embedded and 176 re-used).
        total, done = len(distinct), reused
        if progress is not None:
            progress(done, total)
        # Longest first within each call keeps padding small; order is restored through digests.
        pending = sorted(todo.items(), key=lambda item: len(item[1]), reverse=True)
        for start in range(0, len(pending), _CALL_SIZE):
            call = pending[start : start + _CALL_SIZE]
            call_texts = [t for _, t in call]
            vectors = self._encode(call_texts)
            tokens = self.count_tokens(call_texts)
            rows = [(d, v, n) for (d, _), v, n in zip(call, vectors, tokens)]
            self.cache.put_many(self.key, rows)
            for d, v, n in rows:
                found[d] = (v, n)
            done += len(call)
            if progress is not None:
                progress(done, total)
        dim = len(next(iter(found.values()))[0]) if found else 0
        matrix = np.zeros((len(texts), dim), dtype=np.float32)
        too_long = []
        for row, digest in enumerate(digests):
            vector, count = found[digest]
            matrix[row] = vector
            if count > self.max_tokens:
                too_long.append(TooLong(row, count, self.max_tokens))
        return Embedded(matrix, reused, len(todo), tuple(too_long))

    def embed_query(self, text: str) -> np.ndarray:
        """The unit vector of one query (not cached: queries rarely repeat and are cheap)."""
        model = self.model
        if str(model.device) != "cpu":
            return self._encode([text])[0]
        import torch

        # One short input gains nothing from torch's thread pool, and on a busy machine the pool's
        # threads wait on each other: measured on 2 cores, p50 14 ms with one thread against
        # 138 ms with two. The pool size is process-wide, so it is restored right after.
        with _QUERY_LOCK:
            threads = torch.get_num_threads()
            torch.set_num_threads(1)
            try:
                return self._encode([text])[0]
            finally:
                torch.set_num_threads(threads)

    def _encode(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def _quiet_transformers() -> None:
    # transformers draws a weight-loading bar on stderr; it would garble the CLI's JSONL-friendly
    # output and the app's logs, and our callers report progress themselves.
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    hf_logging.disable_progress_bar()


def _fast_tokenizer(model: str):  # type: ignore[no-untyped-def]
    """The model's ``tokenizers`` tokenizer when it ships a tokenizer.json, else None."""
    try:
        return load_tokenizer(model)
    except ModelError:
        return None
