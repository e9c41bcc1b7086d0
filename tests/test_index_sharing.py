"""One data folder shared by several writers (app sessions, a second process, the CLI), and a
folder whose derived files were damaged: nothing mixes, nothing is lost, every state mends.

These tests are about storage, not ranking, so they embed with :class:`HashEmbedder`
(deterministic vectors from each text's digest) instead of loading the model in every process.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from core.chunk import Chunk
from core.chunking import chunk_corpus, load_any
from core.embed import Embedded, Progress, embed_chunks
from core.index import MANIFEST, OURS, UPDATING, Store, StoreError, corpus_key
from core.settings import ChunkSettings
from tests.retrieval_fixtures import ROOT, tmp_chroma  # noqa: F401 - fixtures

SETTINGS = ChunkSettings()
SAMPLE = ROOT / "sample_repos" / "py_inventory"
LEDGER = "inventory/ledger.py"
NEW_CODE = "def brand_new_function_xyz(a, b):\n    '''Totally new.'''\n    return a * b + 42\n"


class HashEmbedder:
    """Unit vectors drawn from each text's digest: the same text always gets the same vector."""

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> Embedded:
        vectors = np.zeros((len(texts), 128), dtype=np.float32)
        for row, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            vector = np.random.default_rng(seed).standard_normal(128)
            vectors[row] = vector / np.linalg.norm(vector)
        return Embedded(vectors, 0, len(texts), ())


def syntax_chunks(root: Path) -> list[Chunk]:
    return [c for c in chunk_corpus(load_any(root), SETTINGS, "syntax") if isinstance(c, Chunk)]


def index(store: Store, root: Path, label: str | None = None) -> str:
    (report,) = store.index(
        {"syntax": syntax_chunks(root)}, HashEmbedder(), label=label or root.name, key=corpus_key(root), settings=SETTINGS
    )
    return report.collection


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(SAMPLE, copy)
    return copy


# The other process: index ``repo`` into ``db`` with the same stand-in embedder.
OTHER_PROCESS = """
import sys
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from core.index import Store
from tests.test_index_sharing import index
index(Store(Path(sys.argv[1])), Path(sys.argv[2]))
"""


def index_in_another_process(db: Path, repo: Path) -> None:
    done = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(db), str(repo), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def vector_of(chunk: Chunk) -> np.ndarray:
    """The chunk's own vector in the index (its text and head, as :meth:`Store.sync` makes it)."""
    return embed_chunks(HashEmbedder(), [chunk], head_weight=SETTINGS.head_weight, head_lines=SETTINGS.head_lines).vectors[0]


def test_a_long_lived_store_sees_what_another_process_wrote(tmp_chroma: Path, repo: Path) -> None:
    """An app server keeps its Store open while the CLI re-indexes the same folder: Chroma's
    embedded vector index would go on answering from memory (or fail on deleted records)."""
    store = Store(tmp_chroma)
    name = index(store, repo)
    old = {c.id: c for c in syntax_chunks(repo) if c.path == LEDGER}
    probe = next(iter(old.values()))
    hits = store.search(name, "x", None, k=3, mode="vector", query_vector=vector_of(probe), whole_definitions=False)
    assert hits[0].chunk.id == probe.id

    (repo / LEDGER).write_text(NEW_CODE)
    index_in_another_process(tmp_chroma, repo)

    (new,) = [c for c in syntax_chunks(repo) if c.path == LEDGER]
    hits = store.search(name, "x", None, k=10, mode="vector", query_vector=vector_of(new), whole_definitions=False)
    assert hits[0].chunk.id == new.id
    assert not {h.chunk.id for h in hits} & set(old)  # deleted chunks are not served
    hits = store.search(name, "brand_new_function_xyz", None, k=3, mode="keyword")
    assert hits[0].chunk.id == new.id
    hits = store.search(name, "x", None, k=10, mode="hybrid", query_vector=vector_of(probe))
    assert not {h.chunk.id for h in hits} & set(old)


def test_writers_in_threads_keep_each_others_manifest_entries(tmp_chroma: Path, tmp_path: Path) -> None:
    store = Store(tmp_chroma)
    roots = []
    for n in range(6):
        root = tmp_path / f"corpus{n}"
        root.mkdir()
        (root / "mod.py").write_text(f"def f{n}(x):\n    return x + {n}\n")
        roots.append(root)
    failures: list[BaseException] = []

    def run(root: Path) -> None:
        try:
            index(store, root)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(root,)) for root in roots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    collections = store.manifest()["collections"]
    assert {entry["corpus"] for entry in collections.values()} == {root.name for root in roots}
    assert not list((tmp_chroma / OURS).glob("*.tmp"))


def test_an_unreadable_manifest_is_set_aside_by_the_next_index(tmp_chroma: Path, repo: Path) -> None:
    store = Store(tmp_chroma)
    index(store, repo)
    manifest = tmp_chroma / OURS / MANIFEST
    torn = manifest.read_text()[:100]
    manifest.write_text(torn)
    with pytest.raises(StoreError, match="cannot be read"):
        store.last_collections()
    name = index(store, repo)  # not blocked by the file it is told to replace
    assert store.last_collections() == {"syntax": name}
    (aside,) = (tmp_chroma / OURS).glob(f"{MANIFEST}.unreadable-*")
    assert aside.read_text() == torn  # kept, not deleted


@pytest.mark.parametrize("damage", ["garbage meta", "truncated arrays", "garbage groups", "missing meta"])
def test_an_unreadable_keyword_index_is_rebuilt(tmp_chroma: Path, repo: Path, damage: str) -> None:
    store = Store(tmp_chroma)
    name = index(store, repo)
    expected = [h.chunk.id for h in Store(tmp_chroma).search(name, "release expired reservations", None, mode="keyword")]
    (folder,) = (tmp_chroma / OURS / "bm25" / name).iterdir()
    if damage == "garbage meta":
        (folder / "keyword_meta.json").write_text("{not json")
    elif damage == "truncated arrays":
        for array in folder.glob("*.npy"):
            array.write_bytes(array.read_bytes()[:20])
    elif damage == "garbage groups":
        (folder / "groups.json").write_text("[1, 2")
    else:
        (folder / "keyword_meta.json").unlink()
    # A fresh process reads the damaged files: it rebuilds them instead of failing for good.
    assert expected and [h.chunk.id for h in Store(tmp_chroma).search(name, "release expired reservations", None, mode="keyword")] == expected
    json.loads((folder / "keyword_meta.json").read_text())
    (folder / "keyword_meta.json").write_text("{not json")
    index(Store(tmp_chroma), repo)  # and an index run with nothing new mends them too
    json.loads((folder / "keyword_meta.json").read_text())


def test_an_interrupted_update_is_refused_until_indexed_again(
    tmp_chroma: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chromadb.api.models.Collection import Collection

    store = Store(tmp_chroma)
    name = index(store, repo)
    (repo / LEDGER).write_text(NEW_CODE)

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed")

    with monkeypatch.context() as patch:
        patch.setattr(Collection, "add", crash)  # dies after the old chunks were deleted
        with pytest.raises(StoreError, match="killed"):
            index(store, repo)
    assert store.collection(name).metadata["revision"] == UPDATING
    with pytest.raises(StoreError, match="interrupted, so it is incomplete; index the corpus again"):
        store.search(name, "release expired", None, mode="keyword")
    index(store, repo)
    assert [h.chunk.symbol for h in store.search(name, "brand_new_function_xyz", None, k=1, mode="keyword")] == [
        "brand_new_function_xyz"
    ]


def test_the_keyword_index_is_filed_under_the_ids_it_was_built_from(tmp_chroma: Path, repo: Path) -> None:
    """A search holds a collection handle from before another writer's update, then builds the
    keyword index: it must not file the new documents under the old revision."""
    writer, reader = Store(tmp_chroma), Store(tmp_chroma)
    full = {"syntax": syntax_chunks(repo)}
    small = {"syntax": [c for c in full["syntax"] if c.path != LEDGER]}

    def write(chunks: dict[str, list[Chunk]]) -> str:
        (report,) = writer.index(chunks, HashEmbedder(), label="inv", key="K", settings=SETTINGS)
        return report.collection

    name = write(full)
    write(small)
    handle = reader.collection(name)  # sees the small revision
    write(full)
    reader.keyword_index(name, handle)  # builds from the full documents
    write(small)
    fresh = Store(tmp_chroma)
    assert len(fresh.keyword_index(name, fresh.collection(name))) == len(small["syntax"])
    assert len(fresh.search(name, "release expired reservations", None, k=5, mode="keyword")) == 5
