"""The Chroma store and the in-memory index: sync, search modes, persistence, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from core.chunk import Chunk
from core.chunking import chunk_corpus, load_any
from core.embed import Embedder, embed_chunks, has_head, head_text
from core.errors import InputError, SettingsError
from core.index import (
    MODES,
    MemoryIndex,
    Store,
    StoreError,
    check_where_indexed,
    chunk_from_record,
    chunk_metadata,
    collection_name,
    corpus_key,
    filters_per_strategy,
    searchable,
)
from core.keyword import NAME_WEIGHT, Fusion, KeywordIndex, keyword_document, own_name, rrf, tokenize
from core.settings import ChunkSettings
from tests.retrieval_fixtures import (  # noqa: F401 - fixtures
    ROOT,
    chroma_server,
    free_port,
    model,
    run_cli,
    running_chroma_server,
    shared_embedder,
    tmp_chroma,
)
from tests.helpers import stop_process

SETTINGS = ChunkSettings()
CORPUS_ROOT = ROOT / "sample_repos" / "py_inventory"


def corpus_chunks(root: Path = CORPUS_ROOT, strategy: str = "syntax") -> list[Chunk]:
    return [c for c in chunk_corpus(load_any(root), SETTINGS, strategy) if isinstance(c, Chunk)]


def index_corpus(store: Store, embedder: Embedder, root: Path = CORPUS_ROOT) -> list:
    chunks = {s: corpus_chunks(root, s) for s in ("fixed", "syntax")}
    return store.index(chunks, embedder, label=root.name, key=corpus_key(root), settings=SETTINGS)


# ---- keyword and fusion ----------------------------------------------------------------------


def test_tokenizer_splits_identifiers() -> None:
    terms = tokenize("def parseHTTPResponse(raw_bytes): return MAX_RETRIES")
    for term in ("parse", "http", "response", "parsehttpresponse", "raw", "byte", "raw_bytes", "max", "retrie"):
        assert term in terms
    assert "the" not in tokenize("the value") and "a" not in tokenize("a b")


def test_the_tokenizer_reads_every_script() -> None:
    assert tokenize("def größe_berechnen(étiquette):") == ["def", "größe", "berechnen", "größe_berechnen", "étiquette"]
    assert tokenize("ÄrgerHandler") == ["ärger", "handler", "ärgerhandler"]
    assert tokenize("ÉTATParser") == ["état", "parser", "étatparser"]  # an acronym splits as HTTPServer does
    assert tokenize("e\u0301tiquette") == tokenize("\u00e9tiquette")  # the same word, however its accent is typed
    # Unspaced scripts: overlapping character pairs, so a word inside a longer run is found.
    assert set(tokenize("在庫ラベル")) <= set(tokenize("# 在庫ラベルを印刷する"))
    assert tokenize("grün") != tokenize("größe")  # no stray fragments ("gr") in common
    # Combining marks (Devanagari vowel signs and viramas, Hebrew points) stay in their words.
    assert tokenize("def खोज_करें(): # हिन्दी") == ["def", "खोज", "करें", "खोज_करें", "हिन्दी"]
    assert tokenize("שָׁלוֹם") == ["שָׁלוֹם"]


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([["a", "b", "c"], ["c", "a"]], [1.0, 1.0], k=60)
    scores = dict(fused)
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert [i for i, _ in fused] == ["a", "c", "b"]


def test_keyword_index_filters_and_round_trips(tmp_path: Path) -> None:
    index = KeywordIndex.build(
        ["1", "2", "3"],
        ["def reserve_stock(): pass", "def release_stock(): pass", "class Money: pass"],
        {"path": ["a.py", "b.py", "a.py"]},
        revision="r1",
    )
    assert [i for i, _ in index.search("release stock", 3)][0] == "2"
    assert [i for i, _ in index.search("stock", 3, {"path": "a.py"})] == ["1"]
    assert index.search("nothing matches zzz", 3) == []
    index.save(tmp_path / "kw")
    loaded = KeywordIndex.load(tmp_path / "kw")
    assert loaded.revision == "r1"
    assert loaded.search("release stock", 3) == index.search("release stock", 3)


def test_a_syntax_chunk_names_itself_in_its_keyword_document() -> None:
    assert own_name("syntax", "method", "Session.get") == "get"
    assert own_name("syntax", "class_header", "HTTPAdapter") == "HTTPAdapter"
    # Module code, a split body's statements, merged siblings, windows and tables name nothing.
    assert own_name("syntax", "module", "<module>") == ""
    assert own_name("syntax", "statements", "Group") == ""
    assert own_name("syntax", "function", "a, b") == ""
    # Names other languages write: kebab-case, a predicate, an Objective-C selector.
    assert own_name("syntax", "function", "shop.planner.plan-restock") == "plan-restock"
    assert own_name("syntax", "function", "Sync-Stock.Save-DeadLetter") == "Save-DeadLetter"
    assert own_name("syntax", "function", "Reservations.Hold.expired?") == "expired?"
    assert own_name("syntax", "method", "ShelfLabelBatch.renderLabel:width:") == "renderLabel:width:"
    # A Markdown fence's code, named under its section's heading trail.
    assert own_name("syntax", "method", "Guide > Install > Installer.run") == "run"
    assert own_name("syntax", "function", "Guide > Install > install") == "install"
    assert own_name("fixed", "window", "get") == "" and own_name("table", "rows", "orders") == ""
    assert keyword_document("def get(url): ...", "get") == "def get(url): ..." + "\nget" * NAME_WEIGHT
    assert keyword_document("x = 1", "") == "x = 1"


def test_the_definition_outranks_its_callers_on_its_name() -> None:
    def make(ident: str, symbol: str, text: str) -> Chunk:
        return Chunk(ident, "client.py", "python", "syntax", "method", symbol, None, 1, 3, 0, len(text), 1, 1, "",
                      text, text, len(text), "chars")  # fmt: skip

    chunks = [
        make("caller", "Client.fetch_all", "def fetch_all(self, urls):\n    first = self.get(urls[0])\n"
             "    rest = [self.get(u) for u in urls[1:]]\n    return self.get(first) + self.get(rest)\n"),  # fmt: skip
        make("definer", "Client.get", "def get(self, url):\n    return self.send(self.build(url))\n"),
    ]
    index = MemoryIndex(chunks, np.eye(2, 384, dtype=np.float32))
    assert [h.chunk.id for h in index.search("get", None, k=2, mode="keyword")] == ["definer", "caller"]


# ---- records and names ------------------------------------------------------------------------


def test_metadata_round_trips_every_chunk_field() -> None:
    for chunk in corpus_chunks():
        meta = chunk_metadata(chunk, over_model_limit=False)
        assert all(isinstance(v, (str, int, float, bool)) for v in meta.values())
        assert chunk_from_record(chunk.id, chunk.embed_text, meta) == chunk


def test_collection_names_are_deterministic_and_valid() -> None:
    key = corpus_key(CORPUS_ROOT)
    name = collection_name("py inventory!", key, "syntax", SETTINGS)
    assert name == collection_name("py inventory!", key, "syntax", SETTINGS)
    assert name != collection_name("py inventory!", key, "syntax", SETTINGS.with_(budget=200))
    assert name != collection_name("py inventory!", key, "fixed", SETTINGS)
    assert 3 <= len(name) <= 512 and all(c.isalnum() or c in "._-" for c in name)
    for alias in ("sentence-transformers/all-MiniLM-L6-v2", "All-MiniLM-L6-v2"):  # one model, one collection
        assert collection_name("py inventory!", key, "syntax", SETTINGS.with_(model=alias)) == name
    assert collection_name("py inventory!", key, "syntax", SETTINGS.with_(model="other/model")) != name


# ---- the store ---------------------------------------------------------------------------------


def test_index_search_and_idempotent_reindex(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    store = Store(tmp_chroma)
    first = index_corpus(store, shared_embedder)
    by_strategy = {r.strategy: r for r in first}
    assert by_strategy["syntax"].added == by_strategy["syntax"].chunks > 0
    chunks = {c.id: c for c in corpus_chunks()}
    name = by_strategy["syntax"].collection
    for mode in MODES:
        hits = store.search(name, "release reservations that expired", shared_embedder, k=4, mode=mode)
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1)) and hits
        for hit in hits:
            assert hit.chunk == chunks[hit.chunk.id]  # the full chunk comes back
            assert mode in hit.scores or mode == "hybrid"
        assert any("release_expired" in h.chunk.symbol for h in hits), mode
    second = index_corpus(store, shared_embedder)
    for report in second:
        assert (report.added, report.deleted) == (0, 0)
        assert report.unchanged == report.chunks
    manifest = store.manifest()
    assert manifest["last"]["collections"] == {r.strategy: r.collection for r in first}


def test_a_changed_file_replaces_its_chunks(tmp_chroma: Path, shared_embedder: Embedder, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(CORPUS_ROOT, root)
    store = Store(tmp_chroma)
    before = {r.strategy: r for r in index_corpus(store, shared_embedder, root)}
    target = root / "inventory" / "reconcile.py"
    target.write_text(target.read_text() + "\n\ndef zebra_checksum(rows):\n    return sum(len(r) for r in rows)\n")
    (root / "inventory" / "i18n_labels.py").unlink()
    after = {r.strategy: r for r in index_corpus(store, shared_embedder, root)}
    report = after["syntax"]
    assert report.added >= 1 and report.deleted >= 1
    assert report.reused >= 0 and report.unchanged > 0
    collection = store.collection(report.collection)
    got = collection.get(include=["metadatas"])
    paths = {m["path"] for m in got["metadatas"]}
    assert "inventory/i18n_labels.py" not in paths
    assert collection.count() == report.chunks == len(searchable(corpus_chunks(root)))
    hits = store.search(report.collection, "zebra checksum", shared_embedder, k=1, mode="keyword")
    assert hits[0].chunk.path == "inventory/reconcile.py" and "zebra_checksum" in hits[0].chunk.text
    assert before["syntax"].collection == report.collection


def test_chunks_longer_than_the_model_reads_are_flagged(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    big = ChunkSettings(budget=2000)  # far over the model's 256 word pieces
    chunks = [c for c in chunk_corpus(load_any(CORPUS_ROOT / "inventory" / "ledger.py"), big, "fixed") if isinstance(c, Chunk)]
    store = Store(tmp_chroma)
    report = store.sync("ce_long_chunks", chunks, shared_embedder, {"strategy": "fixed"})
    assert report.too_long and set(report.too_long) <= {c.id for c in chunks}
    hits = store.search("ce_long_chunks", "ledger", shared_embedder, k=len(chunks), mode="keyword")
    flagged = {h.chunk.id for h in hits if h.over_model_limit}
    assert flagged == set(report.too_long)
    # A second run embeds nothing new, and still says which chunks are over the limit.
    again = store.sync("ce_long_chunks", chunks, shared_embedder, {"strategy": "fixed"})
    assert again.added == 0 and again.too_long == report.too_long


def test_filters_on_path_language_kind(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    store = Store(tmp_chroma)
    name = {r.strategy: r for r in index_corpus(store, shared_embedder)}["syntax"].collection
    for mode in MODES:
        hits = store.search(name, "stock", shared_embedder, k=5, mode=mode, where={"path": "inventory/models.py"})
        assert hits and {h.chunk.path for h in hits} == {"inventory/models.py"}
    with pytest.raises(SettingsError, match="cannot filter on symbol"):
        store.search(name, "stock", shared_embedder, where={"symbol": "x"})


def test_a_kind_filter_applies_to_the_strategies_that_have_the_kind() -> None:
    kinds = {"fixed": {"window"}, "syntax": {"class", "method", "window"}}
    where = {"path": "a.py", "kind": "class"}
    filters, unfiltered = filters_per_strategy(where, kinds)
    assert filters == {"fixed": {"path": "a.py"}, "syntax": {"path": "a.py", "kind": "class"}}
    assert unfiltered == ["fixed"]
    # A kind both have (a syntax chunker that fell back to windows) filters both.
    assert filters_per_strategy({"kind": "window"}, kinds) == ({"fixed": {"kind": "window"},
                                                                "syntax": {"kind": "window"}}, [])
    assert filters_per_strategy({}, kinds) == ({"fixed": {}, "syntax": {}}, [])


@pytest.mark.parametrize("query", ["", "   \n", "x" * 100_000, "\udcff\udcfe greet"],
                         ids=["empty", "blank", "100KB", "not-utf8"])
def test_bad_queries_are_refused(tmp_chroma: Path, shared_embedder: Embedder, query: str) -> None:
    store = Store(tmp_chroma)
    name = index_corpus(store, shared_embedder)[0].collection
    with pytest.raises(InputError, match="empty|characters long|not valid UTF-8"):
        store.search(name, query, shared_embedder)
    index = MemoryIndex([], np.zeros((0, 384), dtype=np.float32))
    with pytest.raises(InputError):
        index.search(query, None, mode="keyword")


def test_index_survives_a_process_restart(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    index_corpus(Store(tmp_chroma), shared_embedder)
    done = run_cli("query", "expired reservations", "--db", str(tmp_chroma), "--mode", "keyword", "-k", "2")
    assert done.returncode == 0, done.stderr
    hits = [json.loads(line) for line in done.stdout.splitlines()]
    # The syntax collection holds prose too (strategy "text" for the README's sections).
    strategies = [h["strategy"] for h in hits]
    assert len(hits) == 4 and strategies[:2] == ["fixed", "fixed"] and set(strategies[2:]) <= {"syntax", "text"}
    assert all(h["rank"] in (1, 2) and h["text"] for h in hits)


@pytest.fixture
def immutable(tmp_chroma: Path) -> Iterator[Path]:
    """The data folder made read-only (chattr +i as root, who ignores permission bits)."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a folder read-only")
        made = subprocess.run(["chattr", "+i", str(tmp_chroma)], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"chattr +i refused ({made.stderr.strip()}): cannot make a folder read-only as root")
        try:
            yield tmp_chroma
        finally:
            subprocess.run(["chattr", "-i", str(tmp_chroma)], check=True)
    else:
        tmp_chroma.chmod(0o555)
        try:
            yield tmp_chroma
        finally:
            tmp_chroma.chmod(0o755)


def test_a_read_only_data_folder_is_a_clear_error(immutable: Path) -> None:
    with pytest.raises(StoreError, match="not writable"):
        Store(immutable)


def test_a_corrupted_database_is_reported_and_kept(tmp_chroma: Path) -> None:
    garbage = os.urandom(64 * 1024)
    (tmp_chroma / "chroma.sqlite3").write_bytes(garbage)
    (tmp_chroma / "my-notes.txt").write_text("keep me")
    with pytest.raises(StoreError, match="corrupted.*Nothing was changed or deleted"):
        Store(tmp_chroma)
    assert (tmp_chroma / "chroma.sqlite3").read_bytes() == garbage
    assert (tmp_chroma / "my-notes.txt").read_text() == "keep me"


def test_a_damaged_page_is_found_before_chroma_writes_or_searches(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    index_corpus(Store(tmp_chroma), shared_embedder)
    database = tmp_chroma / "chroma.sqlite3"
    data = bytearray(database.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 40 * 4096] = os.urandom(40 * 4096)  # pages a short search may never read
    database.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="malformed.*corrupted.*Nothing was changed or deleted"):
        Store(tmp_chroma)
    assert database.read_bytes() == bytes(data)  # (opening Chroma would have written to it)


def test_a_write_cut_short_is_rolled_back_not_taken_for_damage(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    reports = index_corpus(Store(tmp_chroma), shared_embedder)
    database = tmp_chroma / "chroma.sqlite3"
    killed = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size=1'); c.execute('BEGIN'); c.execute('CREATE TABLE junk(x)')\n"
        "[c.execute('INSERT INTO junk VALUES (?)', ('x' * 1000,)) for _ in range(2000)]\n"
        "os.kill(os.getpid(), 9)\n"
    )
    subprocess.run([sys.executable, "-c", killed, str(database)], check=False)
    assert database.with_name("chroma.sqlite3-journal").exists()  # a hot journal, as a crash leaves it
    store = Store(tmp_chroma)  # (a read-only check cannot roll it back: it must not call this damage)
    hits = store.search(reports[0].collection, "reserve stock", shared_embedder, k=2, mode="keyword")
    assert hits


def test_searching_a_missing_collection(tmp_chroma: Path) -> None:
    with pytest.raises(StoreError, match="no collection 'ce_nothing_here'.*index the corpus first"):
        Store(tmp_chroma).search("ce_nothing_here", "query", None, mode="keyword")


def test_a_data_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "db").write_text("")
    with pytest.raises(StoreError, match="is a file"):
        Store(tmp_path / "db")


def test_a_server_that_is_down_is_a_clear_error(tmp_chroma: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", str(free_port()))
    with pytest.raises(StoreError, match="cannot reach the Chroma server.*chroma run") as caught:
        Store(tmp_chroma)
    assert "?." not in str(caught.value)  # Chroma's own "Are you sure it is running?" stays whole


def test_against_a_real_chroma_server(
    chroma_server: tuple[str, int], tmp_chroma: Path, shared_embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, port = chroma_server
    monkeypatch.setenv("CHROMA_HOST", host)
    monkeypatch.setenv("CHROMA_PORT", str(port))
    store = Store(tmp_chroma)
    reports = {r.strategy: r for r in index_corpus(store, shared_embedder)}
    assert not (tmp_chroma / "chroma.sqlite3").exists()  # the vectors live on the server
    name = reports["syntax"].collection
    for mode in MODES:
        hits = store.search(name, "release reservations that expired", shared_embedder, k=5, mode=mode)
        assert any("release_expired" in h.chunk.symbol for h in hits), mode
    again = index_corpus(Store(tmp_chroma), shared_embedder)
    assert all(r.added == 0 and r.deleted == 0 for r in again)
    with pytest.raises(StoreError, match=rf"no collection 'ce_missing' in the Chroma server at {host}:{port};"):
        store.search("ce_missing", "anything", None, k=1, mode="keyword")
    # Searched without the server, the folder says where its index went, and opens nothing.
    check_where_indexed(tmp_chroma)
    monkeypatch.delenv("CHROMA_HOST")
    monkeypatch.delenv("CHROMA_PORT")
    with pytest.raises(StoreError, match=rf"went to the Chroma server at {host}:{port}; set CHROMA_HOST={host} CHROMA_PORT={port}"):
        check_where_indexed(tmp_chroma)
    assert not (tmp_chroma / "chroma.sqlite3").exists()


def test_a_server_lost_midway_is_said_so_with_how_to_bring_it_back(
    tmp_path: Path, tmp_chroma: Path, shared_embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chroma's own "ConnectError: [Errno 111] Connection refused" was all one read when the
    # server stopped during an index run.
    with running_chroma_server(tmp_path) as (host, port, proc):
        monkeypatch.setenv("CHROMA_HOST", host)
        monkeypatch.setenv("CHROMA_PORT", str(port))
        store = Store(tmp_chroma)
        name = next(r.collection for r in index_corpus(store, shared_embedder) if r.strategy == "syntax")
        stop_process(proc, timeout=15)
        with pytest.raises(StoreError, match=rf"lost the Chroma server at {host}:{port} .* while opening collection {name} \(.*\)\. .*start the server again"):
            store.search(name, "release reservations that expired", shared_embedder, k=5, mode="vector")


def test_an_index_in_the_folder_is_not_searched_on_a_server(tmp_chroma: Path, shared_embedder: Embedder, monkeypatch) -> None:
    index_corpus(Store(tmp_chroma), shared_embedder)
    check_where_indexed(tmp_chroma)
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    with pytest.raises(StoreError, match="made in that folder, not on a Chroma server; unset CHROMA_HOST and CHROMA_PORT"):
        check_where_indexed(tmp_chroma)


# ---- in memory ---------------------------------------------------------------------------------


def test_memory_index_ranks_like_the_store(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    chunks = corpus_chunks()
    vectors = embed_chunks(shared_embedder, chunks, head_weight=SETTINGS.head_weight, head_lines=SETTINGS.head_lines).vectors
    memory = MemoryIndex(chunks, vectors)
    store = Store(tmp_chroma)
    name = {r.strategy: r for r in index_corpus(store, shared_embedder)}["syntax"].collection
    query = "how is the unit cost updated when goods arrive"
    qv = shared_embedder.embed_query(query)
    for mode in MODES:
        mem = [h.chunk.id for h in memory.search(query, qv, k=5, mode=mode, fusion=Fusion())]
        chroma = [h.chunk.id for h in store.search(name, query, shared_embedder, k=5, mode=mode, query_vector=qv)]
        assert mem[:3] == chroma[:3], mode


def test_vector_scores_weigh_the_chunk_and_its_head(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    # Chunk vectors with a head are not unit length: the store must rank by inner product, as
    # MemoryIndex does, so a score is (1 - w) cos(query, text) + w cos(query, head).
    store = Store(tmp_chroma)
    name = {r.strategy: r for r in index_corpus(store, shared_embedder)}["syntax"].collection
    chunks = {c.id: c for c in corpus_chunks()}
    query = "release reservations that expired"
    qv = shared_embedder.embed_query(query)
    hits = store.search(name, query, shared_embedder, k=8, mode="vector", query_vector=qv, whole_definitions=False)
    assert hits and any(has_head(h.chunk) for h in hits)
    for hit in hits:
        chunk = chunks[hit.chunk.id]
        text, head = shared_embedder.embed([chunk.embed_text, head_text(chunk.embed_text, SETTINGS.head_lines)]).vectors
        w = SETTINGS.head_weight if has_head(chunk) else 0.0
        assert hit.score == pytest.approx((1 - w) * float(text @ qv) + w * float(head @ qv), abs=1e-4)


def test_a_keyword_index_of_an_older_format_is_rebuilt(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    store = Store(tmp_chroma)
    name = {r.strategy: r for r in index_corpus(store, shared_embedder)}["syntax"].collection
    folder = next((store.own / "bm25" / name).iterdir())
    # What an older version left: the same files under the bare revision, BM25 without names.
    old = folder.with_name(folder.name.rsplit(".", 1)[0])
    shutil.copytree(folder, old)
    shutil.rmtree(folder)
    fresh = Store(tmp_chroma)
    hits = fresh.search(name, "release expired reservations", shared_embedder, k=3, mode="keyword")
    assert hits
    assert [p.name for p in (store.own / "bm25" / name).iterdir()] == [folder.name]  # rebuilt; the old one swept


def test_section_dividers_are_left_out_of_the_index(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    # ledger.py's ``# ---- catalogue ----`` rules are chunks of their own at the default budget.
    # They answer nothing, and their breadcrumb ("InventoryLedger") and few words ranked them
    # second to fifth for "InventoryLedger.transfer".
    chunks = corpus_chunks()
    dividers = {c.id for c in chunks if "divider" in c.flags}
    assert len(dividers) >= 4
    store = Store(tmp_chroma)
    report = {r.strategy: r for r in index_corpus(store, shared_embedder)}["syntax"]
    assert report.left_out == len(dividers)
    assert report.chunks == len({c.id for c in chunks}) - len(dividers)
    query = "InventoryLedger.transfer"
    vector = shared_embedder.embed_query(query)
    vectors = embed_chunks(shared_embedder, chunks, head_weight=SETTINGS.head_weight, head_lines=SETTINGS.head_lines).vectors
    memory = MemoryIndex(chunks, vectors)
    for mode in MODES:
        hits = store.search(report.collection, query, shared_embedder, k=5, mode=mode, query_vector=vector)
        assert hits and not {h.chunk.id for h in hits} & dividers, mode
        assert hits[0].chunk.symbol == "InventoryLedger.transfer", mode
        in_memory = memory.search(query, vector, k=5, mode=mode)
        assert not {h.chunk.id for h in in_memory} & dividers, mode
