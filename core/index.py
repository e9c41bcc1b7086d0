"""Search indexes over chunks: a persistent Chroma store and an in-memory one for evaluation.

Both rank the same way: vectors by inner product with the chunk vectors (their cosine
similarity when a chunk's vector has no head part: :func:`core.embed.embed_chunks`), keywords by
BM25 (:mod:`core.keyword`), hybrid by reciprocal rank fusion of the two; both return
:class:`Hit` objects with full chunks.

:class:`Store` is a data folder (``--db``, default ``data/chroma``):

- Chroma's own files (``chroma.sqlite3`` and segment folders), or a Chroma server when the
  ``CHROMA_HOST``/``CHROMA_PORT`` environment variables are set (``chroma run --path DIR``);
- ``chunk_explorer/``: our manifest (what was indexed last, so ``query`` finds it), the BM25
  index of each collection and the embedding cache.

One collection per (corpus, strategy, chunking settings, model), named deterministically. The
corpus is identified by its root folder (its absolute path), not by its content: re-indexing a
corpus after an edit updates the same collection, deleting the chunks of changed or removed
files and adding the new ones; chunk ids are deterministic, so indexing the same thing twice adds
nothing. We always pass our own embeddings: Chroma's default embedder (which would download a
model) is never used.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.chunk import Chunk
from core.embed import embed_chunks
from core.errors import ChunkExplorerError, InputError, SettingsError
from core.groups import collapse, definition_groups, group_text, whole_definition
from core.keyword import Fusion, KeywordIndex, keyword_document, own_name, rrf, tokenize
from core.locking import FolderLock
from core.settings import DEFAULT_HEAD_LINES, ChunkSettings

if TYPE_CHECKING:
    from core.embed import Embedder, Progress

MODES = ("vector", "keyword", "hybrid")
DEFAULT_DB = Path("data") / "chroma"
MAX_QUERY_CHARS = 10_000
"""Longer queries are refused: the model reads ~256 word pieces, so a 100 KB "query" is a pasted
file, not a question. Search with a description or a short snippet instead."""
FILTER_FIELDS = ("path", "language", "kind")
KEYWORD_FORMAT = "k5"  # bump when keyword_document or the tokenizer changes what BM25 indexes
SPACE = "ip"  # Chroma's distance: 1 - inner product (see Store.sync)
OURS = "chunk_explorer"  # our sub-folder of the data folder
MANIFEST = "manifest.json"
LOCK_FILE = "write.lock"  # core.locking.FolderLock: one writer at a time, threads and processes
GENERATION_FILE = "generation"  # rewritten by every write: other processes then reopen Chroma
UPDATING = "updating"  # a collection's revision while a write is under way
ENV_HOST, ENV_PORT = "CHROMA_HOST", "CHROMA_PORT"
log = logging.getLogger(__name__)


class StoreError(ChunkExplorerError):
    """The data folder or the Chroma server cannot be used, and why."""


@dataclass(frozen=True)
class Hit:
    """One result: its 1-based rank, the mode's score, every score known, and the chunk.

    ``scores`` may hold ``vector`` (similarity: see the module docstring), ``keyword`` (BM25) and ``hybrid`` (RRF).
    """

    rank: int
    score: float
    scores: dict[str, float]
    chunk: Chunk
    over_model_limit: bool = False
    group: tuple[Chunk, ...] = ()
    """When ``chunk`` is a part of a split definition: every chunk of that definition, in source
    order (:mod:`core.groups`); empty otherwise."""

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        """What the hit returns: the whole definition's chunks, or the one chunk."""
        return self.group or (self.chunk,)

    @property
    def lines(self) -> tuple[int, int]:
        """First and last source line of what the hit returns."""
        chunks = self.chunks
        return min(c.start_line for c in chunks), max(c.end_line for c in chunks)

    def to_dict(self) -> dict[str, Any]:
        """The chunk's JSON form plus ``rank``, ``score``, ``scores``, ``over_model_limit`` and, for
        a part of a split definition, ``group`` (the ids of all its chunks), ``group_lines`` and
        ``group_text`` (the whole definition's text)."""
        data = self.chunk.to_dict()
        data.update(rank=self.rank, score=self.score, scores=self.scores, over_model_limit=self.over_model_limit)
        if self.group:
            data.update(group=[c.id for c in self.group], group_lines=list(self.lines), group_text=self.text)
        return data

    @property
    def text(self) -> str:
        """What the hit returns as text: the chunk's, or the whole definition's
        (:func:`core.groups.group_text`)."""
        return group_text(self.group) if self.group else self.chunk.text


def check_query(text: str, mode: str = "hybrid") -> str:
    """The query stripped; :class:`InputError` when empty, over :data:`MAX_QUERY_CHARS`, or,
    for keyword ``mode``, without a word to search for."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("the query is empty; give a few words or a code snippet to search for")
    if len(text) > MAX_QUERY_CHARS:
        raise InputError(
            f"the query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,} (the model "
            "reads only its first ~256 word pieces): search with a description or a short snippet"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate: what Python makes of bytes that are not UTF-8 on a command line.
        raise InputError("the query is not valid UTF-8 text; type it again or pass it from a UTF-8 file") from None
    if mode == "keyword" and not tokenize(text):
        raise InputError(
            "the query has no word to search by keyword (words of two or more letters, stopwords "
            "aside); add words, or search in vector or hybrid mode"
        )
    return text.strip()


def check_mode(mode: str) -> str:
    """``mode`` when it is a known search mode, else :class:`SettingsError` naming the modes."""
    if mode not in MODES:
        raise SettingsError(f"unknown search mode {mode!r}; expected one of: {', '.join(MODES)}")
    return mode


def rank(
    mode: str,
    vector: Sequence[tuple[str, float]],
    keyword: Sequence[tuple[str, float]],
    k: int | None,
    fusion: Fusion,
) -> list[tuple[str, float, dict[str, float]]]:
    """The top ``k`` (all when ``None``) ``(id, score, scores)`` of a mode from the two candidate
    rankings."""
    vec = dict(vector)
    kw = dict(keyword)

    def scores(ident: str) -> dict[str, float]:
        found = {}
        if ident in vec:
            found["vector"] = vec[ident]
        if ident in kw:
            found["keyword"] = kw[ident]
        return found

    if mode == "vector":
        return [(i, s, scores(i)) for i, s in list(vector)[:k]]
    if mode == "keyword":
        return [(i, s, scores(i)) for i, s in list(keyword)[:k]]
    fused = rrf(
        [[i for i, _ in vector], [i for i, _ in keyword]],
        [fusion.vector_weight, fusion.keyword_weight],
        fusion.rrf_k,
    )
    return [(i, s, {**scores(i), "hybrid": s}) for i, s in fused[:k]]


def _hits(
    ranked: Sequence[tuple[str, float, dict[str, float]]],
    results: Sequence[tuple[str, tuple[str, ...]]],
    chunk_of: Mapping[str, Chunk],
    limited: AbstractSet[str],
) -> list[Hit]:
    """Hits for ``results`` (:func:`core.groups.collapse`), ranked anew over the ids found in
    ``chunk_of``; a result of several chunks is a whole definition."""
    scored = {i: (s, sc) for i, s, sc in ranked}
    hits: list[Hit] = []
    for ident, members in results:
        if ident not in chunk_of:
            continue  # gone from the collection since it was ranked
        group = tuple(chunk_of[m] for m in members if m in chunk_of)
        over = any(c.id in limited for c in group)
        hits.append(Hit(len(hits) + 1, *scored[ident], chunk_of[ident], over, group if len(group) > 1 else ()))
    return hits


def searchable(chunks: Sequence[Chunk]) -> list[Chunk]:
    """The chunks an index holds: all but the ``divider`` ones, comments that only title a
    section (``# ---- reporting ----``) and stand alone, which answer no question and whose
    breadcrumb and few words ranked them above real answers. They stay in every chunk list
    (coverage is lossless); only search leaves them out."""
    return [c for c in chunks if is_searchable(c)]


def is_searchable(chunk: Chunk) -> bool:
    """Whether an index holds ``chunk`` (:func:`searchable`)."""
    return "divider" not in chunk.flags


# ---- in memory ---------------------------------------------------------------------------------


class MemoryIndex:
    """Exact search over chunks and their vectors held in memory (evaluation and sweeps).

    Ranks like :class:`Store` does, without HNSW's approximation.
    """

    def __init__(self, chunks: Sequence[Chunk], vectors: np.ndarray, *, too_long: frozenset[str] = frozenset()) -> None:
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        keep = [i for i, c in enumerate(chunks) if is_searchable(c)]  # as a Store holds them
        self.chunks = [chunks[i] for i in keep]
        self.vectors = np.asarray(vectors, dtype=np.float32)
        if len(keep) < len(chunks):
            self.vectors = self.vectors[keep]
        self.too_long = too_long
        self._by_id = {c.id: c for c in self.chunks}
        self._by_path: dict[str, list[Chunk]] = {}
        for chunk in self.chunks:
            self._by_path.setdefault(chunk.path, []).append(chunk)
        self._keyword: KeywordIndex | None = None

    @property
    def keyword(self) -> KeywordIndex:
        """The BM25 index, built on first use."""
        if self._keyword is None:
            fields = {f: [str(getattr(c, f)) for c in self.chunks] for f in FILTER_FIELDS}
            documents = [keyword_document(c.embed_text, own_name(c.strategy, c.kind, c.symbol)) for c in self.chunks]
            self._keyword = KeywordIndex.build([c.id for c in self.chunks], documents, fields)
        return self._keyword

    def search(
        self,
        query: str,
        query_vector: np.ndarray | None,
        *,
        k: int = 10,
        mode: str = "hybrid",
        fusion: Fusion = Fusion(),
        where: Mapping[str, str] | None = None,
        whole_definitions: bool = True,
    ) -> list[Hit]:
        """Top ``k`` hits; ``query_vector`` is needed by the vector and hybrid modes.

        With ``whole_definitions`` a part of a split definition is returned as the whole
        definition (:mod:`core.groups`), once, at the rank of its best part."""
        check_mode(mode)
        query = check_query(query)  # (a wordless keyword query finds nothing: a miss in evaluation, not an error)
        if mode != "keyword" and query_vector is None:
            raise ValueError(f"mode {mode!r} needs the query's vector")
        members = self._members if whole_definitions else _alone

        def search_at(depth: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
            vector = self._vector(query_vector, depth, where) if mode != "keyword" else []
            keyword = self.keyword.search(query, depth, where) if mode != "vector" else []
            return vector, keyword

        ranked, results = ranked_results(search_at, mode, k, fusion, whole_definitions, members)
        return _hits(ranked, results, self._by_id, self.too_long)

    def _members(self, ident: str) -> tuple[str, ...]:
        chunk = self._by_id[ident]
        return tuple(c.id for c in whole_definition(chunk, self._by_path.get(chunk.path, ())))

    def _vector(self, query_vector: np.ndarray, n: int, where: Mapping[str, str] | None) -> list[tuple[str, float]]:
        if not self.chunks:
            return []
        sims = self.vectors @ np.asarray(query_vector, dtype=np.float32)
        if where:
            keep = np.asarray([all(str(getattr(c, f)) == v for f, v in where.items()) for c in self.chunks])
            sims = np.where(keep, sims, -np.inf)
        n = min(n, len(sims))
        top = np.argpartition(-sims, n - 1)[:n]
        top = top[np.lexsort((top, -sims[top]))]
        return [(self.chunks[i].id, float(sims[i])) for i in top if np.isfinite(sims[i])]


# ---- Chroma ------------------------------------------------------------------------------------


def corpus_key(root: Path | str) -> str:
    """A corpus's identity: a digest of its root's absolute path (content may change)."""
    return hashlib.blake2b(str(Path(root).resolve()).encode(), digest_size=8).hexdigest()


def collection_name(label: str, key: str, strategy: str, settings: ChunkSettings) -> str:
    """Deterministic Chroma collection name for (corpus, strategy, settings incl. model)."""
    from core.embed import model_key

    model = model_key(settings.model)  # aliases of one model share its collections, as they share its cache
    digest = hashlib.blake2b(
        "\x1f".join((key, strategy, settings.with_(model=model).key(), model)).encode(), digest_size=8
    ).hexdigest()
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", label)[:40].strip("-_") or "corpus"
    return f"ce_{slug}_{strategy}_{digest}"


def serves_remotely() -> bool:
    """Whether :func:`connect` talks to a Chroma server (``CHROMA_HOST``/``CHROMA_PORT`` set)."""
    return bool(os.environ.get(ENV_HOST) or os.environ.get(ENV_PORT))


def server_address() -> str | None:
    """``host:port`` of the Chroma server :func:`connect` talks to, None for the data folder."""
    if not serves_remotely():
        return None
    return f"{os.environ.get(ENV_HOST) or 'localhost'}:{os.environ.get(ENV_PORT) or 8000}"


def check_where_indexed(db: Path) -> None:
    """:class:`StoreError` when the last index into ``db`` went to a Chroma server and none is
    set now, or was made in the folder itself and a server is set now: a search would look in
    the wrong place, say "index the corpus first" and, in the folder, open an empty Chroma
    database there. Silent when the manifest does not say (it predates the record, or cannot
    be read: :meth:`Store.manifest` says so)."""
    try:
        last = json.loads((db / OURS / MANIFEST).read_text(encoding="utf-8")).get("last")
    except (OSError, ValueError, AttributeError):
        return
    if not isinstance(last, dict) or "server" not in last:
        return
    made, now = last["server"], server_address()
    if made and not now:
        host, _, port = str(made).rpartition(":")
        raise StoreError(
            f"the last index into {db} went to the Chroma server at {made}; set {ENV_HOST}={host} "
            f"{ENV_PORT}={port} to search it"
        )
    if now and not made:
        raise StoreError(
            f"the last index into {db} was made in that folder, not on a Chroma server; unset {ENV_HOST} and "
            f"{ENV_PORT} to search it, or index again with them set"
        )


def connect(db: Path, *, fresh: bool = False) -> Any:
    """A Chroma client: an HTTP client when ``CHROMA_HOST``/``CHROMA_PORT`` are set, else an
    embedded persistent client on ``db``. Telemetry off. Raises :class:`StoreError`.

    ``fresh`` drops Chroma's per-process cache of embedded systems first, so the client reads
    what another process wrote since (Chroma keeps an embedded folder's vector index in memory
    and never notices other processes' writes; see :meth:`Store.search`)."""
    try:
        import chromadb
        from chromadb.config import Settings
    except ImportError as exc:
        raise StoreError(f"chromadb is not installed ({exc}); run: pip install -r requirements.txt") from None
    settings = Settings(anonymized_telemetry=False)
    host, port = os.environ.get(ENV_HOST), os.environ.get(ENV_PORT)
    if host or port:
        try:
            port_number = int(port or 8000)
        except ValueError:
            raise StoreError(f"{ENV_PORT}={port!r} is not a port number") from None
        where = f"{host or 'localhost'}:{port_number}"
        try:
            client = chromadb.HttpClient(host=host or "localhost", port=port_number, settings=settings)
            client.heartbeat()
        except Exception as exc:  # noqa: BLE001 - connection failures come as many types
            raise StoreError(
                f"cannot reach the Chroma server at {where} (from {ENV_HOST}/{ENV_PORT}; {str(exc).strip()}). Start it "
                f"with `chroma run --path DIR --host {host or 'localhost'} --port {port_number}`, or unset "
                f"{ENV_HOST} and {ENV_PORT} to use the data folder directly"
            ) from None
        return client
    try:
        if fresh:  # (the folder's tables exist: no lock needed, and none taken, see Store._catch_up)
            from chromadb.api.shared_system_client import SharedSystemClient

            SharedSystemClient.clear_system_cache()
            return chromadb.PersistentClient(path=str(db), settings=settings)
        # Under the folder's lock: two processes creating a new folder's tables at once fail.
        with FolderLock(db / OURS / LOCK_FILE).hold():
            return chromadb.PersistentClient(path=str(db), settings=settings)
    except ChunkExplorerError:
        raise
    except Exception as exc:  # noqa: BLE001 - Chroma wraps SQLite and Rust errors in many types
        raise StoreError(_describe_open_failure(db, exc)) from None


def _describe_open_failure(db: Path, exc: Exception) -> str:
    text = str(exc)
    if "not a database" in text or "malformed" in text or "corrupt" in text.lower():
        return (
            f"the Chroma database in {db} cannot be read ({text}); it looks corrupted. Nothing was "
            "changed or deleted: move that folder away (or restore it from a backup) and index again, "
            "or pass another --db"
        )
    if "readonly" in text or "read-only" in text or "Permission denied" in text:
        return f"the data folder {db} is read-only ({text}); pass a writable --db"
    return f"cannot open the Chroma database in {db}: {type(exc).__name__}: {text}"


def check_intact(db: Path) -> None:
    """:class:`StoreError` when SQLite finds ``db``'s Chroma database damaged (``PRAGMA
    quick_check``, read-only: nothing is changed)."""
    path = db / "chroma.sqlite3"
    if not path.is_file() or path.stat().st_size == 0:
        return
    if any(path.with_name(path.name + tail).exists() for tail in ("-journal", "-wal")):
        return  # a write was cut short: Chroma's own open rolls it back, which a read-only look cannot
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)) as conn:
            found = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        if any(word in str(exc) for word in ("malformed", "not a database", "corrupt")):
            raise StoreError(_describe_open_failure(db, exc)) from None
        return  # locked, busy, unreadable: not damage; opening the store reports what it finds
    if not found or found[0] != "ok":
        where = str(found[0]).strip().splitlines()[-1] if found else "no answer"
        raise StoreError(_describe_open_failure(db, sqlite3.DatabaseError(f"database disk image is malformed: {where}")))


@contextmanager
def _chroma(what: str) -> Iterator[None]:
    """Turn Chroma's and the network's errors during ``what`` into a :class:`StoreError`."""
    try:
        yield
    except ChunkExplorerError:
        raise
    except Exception as exc:  # noqa: BLE001 - Chroma, httpx and SQLite errors all end here
        raise StoreError(_chroma_failure(what, exc)) from None


def _chroma_failure(what: str, exc: Exception) -> str:
    """What to say when Chroma fails while doing ``what``: that the server went away, when it
    did (a connection refused, reset or timed out), with how to bring it back; else Chroma's
    own error."""
    address = server_address()
    if address and _lost_connection(exc):
        host, _, port = address.rpartition(":")
        return (
            f"lost the Chroma server at {address} (from {ENV_HOST}/{ENV_PORT}) while {what} ({str(exc).strip()}). "
            f"What was indexed before is kept; start the server again (`chroma run --path DIR --host {host} "
            f"--port {port}`) and re-run"
        )
    return f"Chroma failed while {what}: {type(exc).__name__}: {exc}"


def _lost_connection(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it was raised from) is a network failure: httpx's transport
    errors (refused, reset, timed out) or the OS's."""
    seen: BaseException | None = exc
    for _ in range(5):  # (the chain is short; a loop in it is not followed)
        if seen is None:
            return False
        names = {cls.__name__ for cls in type(seen).__mro__}
        if names & {"TransportError", "ConnectionError", "TimeoutException"}:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@dataclass(frozen=True)
class IndexReport:
    """What indexing one strategy did to its collection."""

    collection: str
    strategy: str
    chunks: int  # chunks of the corpus now in the collection
    added: int
    deleted: int
    unchanged: int
    reused: int  # distinct texts of the added chunks (and their heads) found in the embedding cache
    embedded: int  # distinct texts the model embedded now
    too_long: tuple[str, ...]  # ids of the collection's chunks longer than the model reads (flagged in metadata)
    skipped: tuple[tuple[str, str], ...] = field(default=())  # (path, reason)
    left_out: int = 0  # chunks of the corpus not indexed: section dividers (:func:`searchable`)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "collection": self.collection,
            "strategy": self.strategy,
            "chunks": self.chunks,
            "added": self.added,
            "deleted": self.deleted,
            "unchanged": self.unchanged,
            "reused": self.reused,
            "embedded": self.embedded,
            "too_long": list(self.too_long),
            "skipped": [list(s) for s in self.skipped],
            "left_out": self.left_out,
        }


@dataclass(frozen=True)
class Derived:
    """What a Store keeps beside a collection, rebuilt when it changes: the BM25 index, and for
    every part of a split definition the ids of its whole definition (:mod:`core.groups`)."""

    keyword: KeywordIndex
    groups: dict[str, tuple[str, ...]]


_GROUPS_FILE = "groups.json"


class Store:
    """A data folder holding Chroma collections, their BM25 indexes and the embedding cache."""

    def __init__(self, db: Path | str = DEFAULT_DB) -> None:
        self.db = Path(db).expanduser()
        self.own = self.db / OURS
        _prepare_folder(self.db)
        self.writing = FolderLock(self.own / LOCK_FILE)
        self._remote = serves_remotely()
        self._generation = self._read_generation()
        if not self._remote:
            # Chroma reads only the pages a query touches, so a damaged page surfaced mid-search
            # after index runs that said all was well; and opening a database writes to it.
            # Look at every page first (read-only; milliseconds for a few MB).
            check_intact(self.db)
        self.client = connect(self.db)
        self._derived: dict[str, Derived] = {}
        self._lock = threading.Lock()

    # ---- other writers ---------------------------------------------------------------------------

    def _read_generation(self) -> str:
        try:
            return (self.own / GENERATION_FILE).read_text(encoding="utf-8")
        except OSError:
            return ""

    def _wrote(self) -> None:
        """Record a write of ours (under the lock), so other processes know to reopen Chroma."""
        token = os.urandom(8).hex()
        _atomic_write(self.own / GENERATION_FILE, token)
        with self._lock:
            self._generation = token

    def _catch_up(self) -> None:
        """Reopen the embedded Chroma when another process wrote to this folder since we last
        looked: Chroma keeps the vector index in memory and would go on answering from the old
        one (or fail on deleted records). A Chroma server needs none of this.

        Lock order, everywhere: the folder lock (:attr:`writing`), then ``self._lock``; this
        takes only the latter (reconnecting takes no folder lock), so it may run either way."""
        if self._remote:
            return
        now = self._read_generation()
        with self._lock:
            if now == self._generation:
                return
            self.client = connect(self.db, fresh=True)
            self._generation = now

    @property
    def cache_path(self) -> Path:
        """Where this data folder keeps its embedding cache."""
        return self.own / "embeddings.sqlite3"

    # ---- manifest ------------------------------------------------------------------------------

    def manifest(self) -> dict[str, Any]:
        """What was indexed here: ``last`` (the last ``index`` run) and every ``collections`` entry."""
        path = self.own / MANIFEST
        if not path.is_file():
            return {"version": 1, "last": None, "collections": {}}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"the manifest {path} cannot be read ({exc}); index the corpus again") from None
        if not isinstance(data, dict) or "collections" not in data:
            raise StoreError(f"the manifest {path} is not a Chunk Explorer manifest; index the corpus again")
        return data

    def _write_manifest(self, data: dict[str, Any]) -> None:
        self.own.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.own / MANIFEST, json.dumps(data, indent=2, sort_keys=True))

    def _manifest_for_update(self) -> dict[str, Any]:
        """The manifest to extend (under the lock). One that cannot be read is set aside, not
        deleted, and a new one is started: it only records what was indexed, and refusing to
        index would leave the user no way out but to delete it by hand."""
        try:
            return self.manifest()
        except StoreError as exc:
            path = self.own / MANIFEST
            aside = path.with_name(f"{MANIFEST}.unreadable-{datetime.now(timezone.utc):%Y%m%dT%H%M%S}")
            try:
                os.replace(path, aside)
            except OSError:
                raise exc from None
            log.warning("the manifest %s could not be read; it was kept as %s and a new one started", path, aside.name)
            return {"version": 1, "last": None, "collections": {}}

    def last_collections(self, strategy: str = "both") -> dict[str, str]:
        """``{strategy: collection}`` of the last ``index`` run, restricted to ``strategy``."""
        last = self.manifest().get("last")
        if not last:
            raise StoreError(f"nothing is indexed in {self.db} yet; run `python -m core index PATH --db {self.db}` first")
        found = dict(last["collections"])
        if strategy != "both":
            if strategy not in found:
                raise StoreError(
                    f"the last index in {self.db} has no {strategy!r} collection (it has: {', '.join(found)}); "
                    f"index with --strategy {strategy} or both"
                )
            found = {strategy: found[strategy]}
        return found

    # ---- indexing ------------------------------------------------------------------------------

    def index(
        self,
        chunks_by_strategy: Mapping[str, Sequence[Chunk]],
        embedder: Embedder,
        *,
        label: str,
        key: str,
        settings: ChunkSettings,
        skipped: Sequence[tuple[str, str]] = (),
        progress: Callable[[str, int, int], None] | None = None,
    ) -> list[IndexReport]:
        """Bring one collection per strategy in line with ``chunks_by_strategy`` (a whole corpus:
        chunks of files absent from it are deleted) and record the run in the manifest.

        ``progress(strategy, done, total)`` follows the embedding.
        """
        reports = []
        entries: dict[str, dict[str, Any]] = {}
        names: dict[str, str] = {}
        for strategy, chunks in chunks_by_strategy.items():
            name = collection_name(label, key, strategy, settings)
            names[strategy] = name
            meta = {"corpus": label, "corpus_key": key, "strategy": strategy, "settings": settings.key(), "model": settings.model}

            def on_progress(done: int, total: int, strategy: str = strategy) -> None:
                if progress is not None:
                    progress(strategy, done, total)

            kept = searchable(chunks)
            report = self.sync(
                name,
                kept,
                embedder,
                meta,
                progress=on_progress,
                head_weight=settings.head_weight,
                head_lines=settings.head_lines,
            )
            reports.append(replace(report, skipped=tuple(skipped), left_out=len(chunks) - len(kept)))
            entries[name] = {
                **meta, "settings": settings.to_dict(), "chunks": report.chunks, "indexed_at": _now(), "server": server_address()
            }
        # Read, change and write under the lock: other writers' entries are kept.
        with self.writing.hold():
            manifest = self._manifest_for_update()
            manifest["collections"].update(entries)
            manifest["last"] = {
                "corpus": label,
                "corpus_key": key,
                "settings": settings.to_dict(),
                "collections": names,
                "indexed_at": _now(),
                "server": server_address(),  # (None: in the folder itself; see check_where_indexed)
            }
            self._write_manifest(manifest)
        return reports

    def sync(
        self,
        name: str,
        chunks: Sequence[Chunk],
        embedder: Embedder,
        meta: Mapping[str, str],
        *,
        progress: Progress | None = None,
        head_weight: float = 0.0,
        head_lines: int = DEFAULT_HEAD_LINES,
    ) -> IndexReport:
        """Make collection ``name`` hold exactly ``chunks``: delete what is gone, embed and add
        what is new, keep the rest. Rebuilds the collection's BM25 index when anything changed.

        ``head_weight`` and ``head_lines`` make the chunk vectors (:func:`core.embed.embed_chunks`);
        the collection name must change with them (:func:`collection_name` does), since the
        vectors already in a collection are not made again."""
        chunks = list({c.id: c for c in chunks}.values())
        wanted = {c.id for c in chunks}
        self._catch_up()
        # (Creating a collection is a write: two processes creating one at once may clash.)
        with self.writing.hold(), _chroma(f"opening collection {name}"):
            existing = set(self._open_for_writing(name).get(include=[])["ids"])
        # Embed before taking the lock (it is the slow part, and other writers need not wait
        # for it) and before touching the collection: a model failure leaves it as it was.
        new = [c for c in chunks if c.id not in existing]
        embedded = embed_chunks(embedder, new, head_weight=head_weight, head_lines=head_lines, progress=progress)
        vectors = {c.id: embedded.vectors[i] for i, c in enumerate(new)}
        too_long = {new[t.index].id for t in embedded.too_long}
        reused, computed = embedded.reused, embedded.computed
        revision = _revision(wanted)
        with self.writing.hold():
            # Another writer may have changed the collection while we embedded: look again.
            self._catch_up()
            with _chroma(f"opening collection {name}"):
                collection = self._open_for_writing(name)
                existing = set(collection.get(include=[])["ids"])
                batch = max(1, min(int(self.client.get_max_batch_size()), 2000))
            stale = sorted(existing - wanted)
            new = [c for c in chunks if c.id not in existing]
            late = [c for c in new if c.id not in vectors]  # removed by another writer meanwhile
            if late:
                more = embed_chunks(embedder, late, head_weight=head_weight, head_lines=head_lines)
                vectors.update((c.id, more.vectors[i]) for i, c in enumerate(late))
                too_long.update(late[t.index].id for t in more.too_long)
                reused, computed = reused + more.reused, computed + more.computed
            changed = bool(stale or new)
            if changed:
                # Until the revision is set again, searches know the collection is half-written
                # (a crash in between leaves it so until the next index run mends it).
                with _chroma(f"updating {name}"):
                    collection.modify(metadata={**meta, "revision": UPDATING})
            with _chroma(f"deleting {len(stale)} old chunks from {name}"):
                for start in range(0, len(stale), batch):
                    collection.delete(ids=stale[start : start + batch])
            with _chroma(f"adding {len(new)} chunks to {name}"):
                for start in range(0, len(new), batch):
                    part = new[start : start + batch]
                    collection.add(
                        ids=[c.id for c in part],
                        embeddings=np.stack([vectors[c.id] for c in part]),
                        documents=[c.embed_text for c in part],
                        metadatas=[chunk_metadata(c, c.id in too_long) for c in part],
                    )
            if changed or collection.metadata is None or collection.metadata.get("revision") != revision:
                with _chroma(f"updating {name}"):
                    collection.modify(metadata={**meta, "revision": revision})
            if changed or self._derived_of(name, revision) is None:
                self._save_keyword(name, collection)
            if changed:
                self._wrote()
            # Every chunk of the collection that is over the limit, not only the new ones: a
            # second run over the same corpus must warn as the first did.
            with _chroma(f"reading {name}"):
                flagged = set(collection.get(where={"over_model_limit": True}, include=[])["ids"])
        too_long = (too_long | flagged) & wanted
        return IndexReport(
            collection=name,
            strategy=str(meta.get("strategy", "")),
            chunks=len(wanted),
            added=len(new),
            deleted=len(stale),
            unchanged=len(wanted) - len(new),
            reused=reused,
            embedded=computed,
            too_long=tuple(sorted(too_long)),
        )

    # ---- keyword index ---------------------------------------------------------------------------

    def _open_for_writing(self, name: str) -> Any:
        # Inner product: chunk vectors with a head are not unit length, and a query must score
        # (1 - w) cos(query, text) + w cos(query, head) as in MemoryIndex.
        return self.client.get_or_create_collection(name, configuration={"hnsw": {"space": SPACE}}, embedding_function=None)

    def _keyword_folder(self, name: str, revision: str) -> Path:
        # The format tag retires folders built by an older keyword_document (swept on save).
        return self.own / "bm25" / name / f"{revision}.{KEYWORD_FORMAT}"

    def _save_keyword(self, name: str, collection: Any) -> Derived:
        """Build the BM25 index and the definition groups from the collection's documents and
        keep them on disk, under the revision of the ids actually read (the collection's own
        revision may be newer or older by the time they are read)."""
        with _chroma(f"reading the documents of {name}"):
            got = collection.get(include=["documents", "metadatas"])
        revision = _revision(set(got["ids"]))
        metas = [_record_meta(name, m) for m in got["metadatas"]]
        fields = {f: [str(m.get(f, "")) for m in metas] for f in FILTER_FIELDS}
        documents = [
            keyword_document(d, own_name(str(m.get("strategy", "")), str(m.get("kind", "")), str(m.get("symbol", ""))))
            for d, m in zip(got["documents"], metas)
        ]
        keyword = KeywordIndex.build(got["ids"], documents, fields, revision)
        # Only parts need their groups worked out; the chunks of their files are read back whole.
        split_paths = {m["path"] for m in metas if int(m.get("parts", 1)) > 1}
        groups = definition_groups(
            chunk_from_record(i, d, m) for i, d, m in zip(got["ids"], got["documents"], metas) if m["path"] in split_paths
        )
        folder = self._keyword_folder(name, revision)
        with self.writing.hold():
            try:
                if self._load_derived(name, revision, quiet=True) is None:  # another writer may have saved it
                    if folder.is_dir():
                        shutil.rmtree(folder)  # unreadable, or saved by an older version: replace it
                    keyword.save(folder, {_GROUPS_FILE: groups})
                for old in folder.parent.iterdir():
                    if old.name != folder.name:
                        shutil.rmtree(old)  # our own derived files of older revisions
            except OSError as exc:
                raise StoreError(f"cannot write the keyword index under {folder.parent}: {exc}") from None
        derived = Derived(keyword, groups)
        with self._lock:
            self._derived[name] = derived
        return derived

    def _derived_of(self, name: str, revision: str) -> Derived | None:
        """The derived files of ``revision``: from memory, else from disk (then kept in memory);
        None when neither has them."""
        with self._lock:
            cached = self._derived.get(name)
        if cached is not None and cached.keyword.revision == revision:
            return cached
        found = self._load_derived(name, revision)
        if found is not None:
            with self._lock:
                self._derived[name] = found
        return found

    def _load_derived(self, name: str, revision: str, *, quiet: bool = False) -> Derived | None:
        """The derived files of ``revision`` from disk, or None when they are missing, unreadable
        or not of that revision (they are rebuilt from the collection then; logged unless
        ``quiet``)."""
        folder = self._keyword_folder(name, revision)
        if not (folder / _GROUPS_FILE).is_file():
            return None
        try:
            keyword = KeywordIndex.load(folder)
            groups = {k: tuple(v) for k, v in json.loads((folder / _GROUPS_FILE).read_text(encoding="utf-8")).items()}
            if keyword.revision != revision or _revision(set(keyword.ids)) != revision:
                raise ValueError("its chunk ids are not those of the collection")
        except Exception as exc:  # noqa: BLE001 - derived data: any failure to read it means rebuild
            if not quiet:
                log.warning("the keyword index in %s cannot be used (%s: %s); rebuilding it", folder, type(exc).__name__, exc)
            return None
        return Derived(keyword, groups)

    def derived(self, name: str, collection: Any) -> Derived:
        """The collection's BM25 index and definition groups: from memory, from disk, or rebuilt
        when stale or unreadable."""
        revision = str((collection.metadata or {}).get("revision", ""))
        found = self._derived_of(name, revision) if revision else None
        return found if found is not None else self._save_keyword(name, collection)

    def keyword_index(self, name: str, collection: Any) -> KeywordIndex:
        """The collection's BM25 index (see :meth:`derived`)."""
        return self.derived(name, collection).keyword

    # ---- search --------------------------------------------------------------------------------

    def holder(self) -> str:
        """Where the collections are, for messages: the data folder, or the Chroma server."""
        address = server_address()
        return f"the Chroma server at {address}" if address else str(self.db)

    def collection(self, name: str) -> Any:
        """An existing collection, or :class:`StoreError`."""
        try:
            return self.client.get_collection(name, embedding_function=None)
        except Exception as exc:  # noqa: BLE001 - "missing" is NotFoundError or ValueError by version
            if "does not exist" in str(exc) or type(exc).__name__ == "NotFoundError":
                raise StoreError(f"no collection {name!r} in {self.holder()}; index the corpus first") from None
            raise StoreError(_chroma_failure(f"opening collection {name}", exc)) from None

    def search(
        self,
        name: str,
        query: str,
        embedder: Embedder | None,
        *,
        k: int = 10,
        mode: str = "hybrid",
        fusion: Fusion = Fusion(),
        where: Mapping[str, str] | None = None,
        query_vector: np.ndarray | None = None,
        whole_definitions: bool = True,
    ) -> list[Hit]:
        """Top ``k`` hits of collection ``name``. ``embedder`` (or ``query_vector``) is needed by
        the vector and hybrid modes; ``where`` filters on path, language or kind. With
        ``whole_definitions`` a part of a split definition is returned as the whole definition
        (:mod:`core.groups`)."""
        check_mode(mode)
        query = check_query(query, mode)
        if k < 1:
            raise SettingsError(f"k must be at least 1, got {k}")
        _check_filter_fields(where or {})
        self._catch_up()
        collection = self.collection(name)
        if (collection.metadata or {}).get("revision") == UPDATING:
            if self.writing.held_elsewhere():
                raise StoreError(f"{name} is being updated by another index run; search again when it is done")
            raise StoreError(f"an index run of {name} was interrupted, so it is incomplete; index the corpus again")
        if mode != "keyword" and query_vector is None:
            if embedder is None:
                raise ValueError(f"mode {mode!r} needs an embedder or a query vector")
            query_vector = embedder.embed_query(query)
        groups = self.derived(name, collection).groups if whole_definitions else {}
        known: dict[str, Chunk] = {}
        limited: set[str] = set()

        def search_at(depth: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
            vector: list[tuple[str, float]] = []
            keyword: list[tuple[str, float]] = []
            if mode != "keyword":
                # Vector mode needs only k results (unless parts collapse into whole definitions);
                # fusion needs the deeper candidate list. (Chroma returns fewer when the
                # collection is smaller, so no count() round trip first.)
                with _chroma(f"searching {name}"):
                    got = collection.query(
                        query_embeddings=[np.asarray(query_vector, dtype=np.float32)],
                        n_results=k if mode == "vector" and not whole_definitions else depth,
                        where=_where(where),
                        include=["documents", "metadatas", "distances"],
                    )
                for ident, doc, meta, dist in zip(
                    got["ids"][0], got["documents"][0] or [], got["metadatas"][0] or [], got["distances"][0] or []
                ):
                    meta = _record_meta(name, meta)
                    vector.append((ident, 1.0 - float(dist)))
                    known[ident] = chunk_from_record(ident, doc, meta)
                    if meta.get("over_model_limit"):
                        limited.add(ident)
            if mode != "vector":
                keyword = self.keyword_index(name, collection).search(query, depth, where)
            return vector, keyword

        ranked, results = ranked_results(
            search_at, mode, k, fusion, whole_definitions, lambda i: groups.get(i) or (i,)
        )
        missing = list(dict.fromkeys(m for _, members in results for m in members if m not in known))
        if missing:
            with _chroma(f"reading results from {name}"):
                got = collection.get(ids=missing, include=["documents", "metadatas"])
            for ident, doc, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                meta = _record_meta(name, meta)
                known[ident] = chunk_from_record(ident, doc, meta)
                if meta.get("over_model_limit"):
                    limited.add(ident)
        return _hits(ranked, results, known, limited)

    def filter_values(self, name: str, field: str) -> set[str]:
        """The values filter ``field`` (path, language or kind) takes in collection ``name``."""
        _check_filter_fields([field])
        self._catch_up()
        return set(self.keyword_index(name, self.collection(name)).fields.get(field, ()))


def filters_per_strategy(
    where: Mapping[str, str], kinds: Mapping[str, AbstractSet[str]]
) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Each strategy's filters from one set of them, and the strategies left unfiltered by kind.

    Path and language mean the same for every strategy; a kind does not: fixed windows are all
    ``window`` and syntax chunks are never ``class`` windows, so one kind filter for both emptied
    one side of every comparison. ``kinds`` maps each strategy to the kinds its chunks have; a
    kind filter applies to the strategies that have that kind, and the others are searched
    without it (named in the second value, for the page to say so).
    """
    kind = where.get("kind")
    per_strategy: dict[str, dict[str, str]] = {}
    unfiltered: list[str] = []
    for strategy, have in kinds.items():
        if kind is not None and kind not in have:
            per_strategy[strategy] = {f: v for f, v in where.items() if f != "kind"}
            unfiltered.append(strategy)
        else:
            per_strategy[strategy] = dict(where)
    return per_strategy, unfiltered


def _check_filter_fields(fields: Iterable[str]) -> None:
    unknown = sorted(set(fields) - set(FILTER_FIELDS))
    if unknown:
        raise SettingsError(f"cannot filter on {', '.join(unknown)}; filters: {', '.join(FILTER_FIELDS)}")


Candidates = tuple[list[tuple[str, float]], list[tuple[str, float]]]


def ranked_results(
    search_at: Callable[[int], Candidates],
    mode: str,
    k: int,
    fusion: Fusion,
    whole_definitions: bool,
    members_of: Callable[[str], Sequence[str]],
) -> tuple[list[tuple[str, float, dict[str, float]]], list[tuple[str, tuple[str, ...]]]]:
    """The fused ranking and its first ``k`` results (:func:`core.groups.collapse`), from
    ``search_at(depth)`` (vector and keyword candidates, ``depth`` of each).

    Whole definitions use up candidates (all the parts of one function are one result): when
    fewer than ``k`` results come of ``fusion.depth`` candidates and more exist, deeper ones
    are fetched and their results added after those found, so the top of a ranking never
    depends on ``k`` (a deeper fusion would order it a little differently)."""
    depth = max(k, fusion.depth)
    vector, keyword = search_at(depth)
    ranked = rank(mode, vector, keyword, None if whole_definitions else k, fusion)
    results = collapse([i for i, _, _ in ranked], members_of, k)
    while len(results) < k and (len(vector) >= depth or len(keyword) >= depth):
        depth *= 4
        vector, keyword = search_at(depth)
        deeper = rank(mode, vector, keyword, None, fusion)
        seen = {i for i, _, _ in ranked}
        ranked = ranked + [r for r in deeper if r[0] not in seen]
        shown = {m for _, members in results for m in members}
        results = results + collapse([i for i, _, _ in deeper if i not in shown], members_of, k - len(results))
    return ranked, results


def _alone(ident: str) -> tuple[str, ...]:
    return (ident,)


# ---- records -----------------------------------------------------------------------------------


def chunk_metadata(chunk: Chunk, over_model_limit: bool = False) -> dict[str, str | int | float | bool]:
    """Chroma metadata of a chunk: every field but the texts, no None (Chroma refuses it).

    ``text`` is not stored when ``embed_text`` ends with it (the document is ``embed_text``):
    ``text_start`` says where it begins.
    """
    meta: dict[str, str | int | float | bool] = {
        "path": chunk.path,
        "language": chunk.language,
        "strategy": chunk.strategy,
        "kind": chunk.kind,
        "symbol": chunk.symbol,
        "parent_id": chunk.parent_id or "",
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "start_byte": chunk.start_byte,
        "end_byte": chunk.end_byte,
        "part": chunk.part,
        "parts": chunk.parts,
        "header": chunk.header,
        "size": chunk.size,
        "unit": chunk.unit,
        "fallback": chunk.fallback or "",
        "flags": ",".join(chunk.flags),
        "over_model_limit": over_model_limit,
    }
    if chunk.embed_text.endswith(chunk.text):
        meta["text_start"] = len(chunk.embed_text) - len(chunk.text)
    else:
        meta["text_start"] = -1
        meta["text"] = chunk.text
    if chunk.columns is not None:
        meta["row_start"] = chunk.row_start if chunk.row_start is not None else -1
        meta["row_end"] = chunk.row_end if chunk.row_end is not None else -1
        meta["columns"] = json.dumps(list(chunk.columns))
    return meta


def chunk_from_record(ident: str, document: str, meta: Mapping[str, Any]) -> Chunk:
    """Inverse of :func:`chunk_metadata` given the stored document (``embed_text``)."""
    start = int(meta.get("text_start", -1))
    text = document[start:] if start >= 0 else str(meta.get("text", ""))
    columns = meta.get("columns")
    return Chunk(
        id=ident,
        path=str(meta["path"]),
        language=str(meta["language"]),
        strategy=str(meta["strategy"]),
        kind=str(meta["kind"]),
        symbol=str(meta["symbol"]),
        parent_id=str(meta["parent_id"]) or None,
        start_line=int(meta["start_line"]),
        end_line=int(meta["end_line"]),
        start_byte=int(meta["start_byte"]),
        end_byte=int(meta["end_byte"]),
        part=int(meta["part"]),
        parts=int(meta["parts"]),
        header=str(meta["header"]),
        text=text,
        embed_text=document,
        size=int(meta["size"]),
        unit=str(meta["unit"]),
        fallback=str(meta["fallback"]) or None,
        row_start=_opt_int(meta.get("row_start")),
        row_end=_opt_int(meta.get("row_end")),
        columns=tuple(json.loads(columns)) if columns else None,
        flags=tuple(f for f in str(meta.get("flags", "")).split(",") if f),
    )


def _record_meta(name: str, meta: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A record's metadata; a record without any was deleted by another process under an
    embedded Chroma that had not noticed (see :meth:`Store._catch_up`)."""
    if meta is None:
        raise StoreError(
            f"{name} changed while it was being read (another process wrote to the same data folder); "
            "search again, or share an index between processes through a Chroma server (CHROMA_HOST)"
        )
    return meta


def _opt_int(value: Any) -> int | None:
    return None if value is None or int(value) < 0 else int(value)


def _where(where: Mapping[str, str] | None) -> dict[str, Any] | None:
    if not where:
        return None
    clauses = [{key: value} for key, value in where.items()]
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _revision(ids: set[str]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for ident in sorted(ids):
        digest.update(ident.encode())
    return digest.hexdigest()


def _prepare_folder(db: Path) -> None:
    """Create the data folder and check that it is writable (Chroma writes even to read)."""
    if db.exists() and not db.is_dir():
        raise StoreError(f"the data folder {db} is a file; pass a folder to --db")
    try:
        db.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=db, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise StoreError(
            f"the data folder {db} is not writable ({exc.strerror or exc}); Chroma and the folder's lock write to it, "
            "to search as well as to index: pass a writable --db (a copy of this one, to search it)"
        ) from None


def _atomic_write(path: Path, text: str) -> None:
    # A temporary name of its own: two writers never rename each other's file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
