"""Whole definitions from their parts (core.groups), in both indexes and in the metrics."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.chunk import Chunk
from core.chunking import chunk_document, prepare
from core.embed import Embedder
from core.evaluate import QuerySpec, fill_context, resolve_target, score_query
from core.groups import collapse, definition_groups, group_key, whole_definition
from core.index import MemoryIndex, Store, chunk_from_record
from core.keyword import Fusion
from core.settings import ChunkSettings
from tests.retrieval_fixtures import model, shared_embedder, tmp_chroma  # noqa: F401 - fixtures

STEPS = "\n".join(f"    total_{i} = compute_step_{i}(orders, {i})" for i in range(30))
SOURCE = f'''import math


class Ledger:
    def opening(self):
        return 0

    def close_books(self, orders):
{STEPS.replace("    ", "        ")}
        def settle(entry):
            return entry.amount * 2

        zebra_checksum = sum(settle(o) for o in orders)
        return zebra_checksum


def small(x):
    return x + 1
'''
SETTINGS = ChunkSettings(unit="lines", budget=8)


def syntax_chunks(path: str = "ledger.py") -> list[Chunk]:
    return chunk_document(prepare(path, "python", SOURCE), SETTINGS, "syntax")


def parts_of(chunks: list[Chunk], symbol: str) -> list[Chunk]:
    return [c for c in chunks if c.symbol == symbol and c.parts > 1]


def test_a_part_brings_its_whole_definition_in_source_order() -> None:
    chunks = syntax_chunks()
    parts = parts_of(chunks, "Ledger.close_books")
    assert len(parts) >= 3 and [p.part for p in parts] == list(range(1, len(parts) + 1))
    lines = SOURCE.splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "def close_books" in line)
    last = next(i for i, line in enumerate(lines, 1) if "return zebra_checksum" in line)
    for part in parts:
        assert group_key(part) == parts[0].id
        group = whole_definition(part, chunks)
        assert [c.start_byte for c in group] == sorted(c.start_byte for c in group)
        covered = {line for c in group for line in range(c.start_line, c.end_line + 1)}
        assert {i for i in range(first, last + 1) if lines[i - 1].strip()} <= covered
        assert min(c.start_line for c in group) == first and max(c.end_line for c in group) == last
        # Nothing outside the definition comes along.
        assert all(first <= c.start_line and c.end_line <= last for c in group)


def test_whole_chunks_and_class_headers_stay_alone() -> None:
    chunks = syntax_chunks()
    small = next(c for c in chunks if c.symbol == "small")
    assert group_key(small) is None and whole_definition(small, chunks) == (small,)
    header = next(c for c in chunks if c.kind == "class_header")
    assert whole_definition(header, chunks) == (header,)  # never the whole class
    # A part whose siblings are not at hand is returned alone, not invented.
    last_part = parts_of(chunks, "Ledger.close_books")[-1]
    assert whole_definition(last_part, [last_part]) == (last_part,)


def test_collapse_keeps_the_best_rank_and_drops_repeats() -> None:
    chunks = syntax_chunks()
    parts = parts_of(chunks, "Ledger.close_books")
    small = next(c for c in chunks if c.symbol == "small")
    by_id = {c.id: c for c in chunks}
    ranked = [parts[-1].id, parts[0].id, small.id, parts[1].id]

    def members_of(ident: str) -> tuple[str, ...]:
        return tuple(c.id for c in whole_definition(by_id[ident], chunks))

    results = collapse(ranked, members_of, k=5)
    assert [ident for ident, _ in results] == [parts[-1].id, small.id]
    assert len(results[0][1]) > len(parts) - 1 and results[1][1] == (small.id,)
    assert len(collapse(ranked, members_of, k=1)) == 1
    # Each id alone: the first k, as ranked.
    assert [i for i, _ in collapse(ranked, lambda i: (i,), k=3)] == ranked[:3]


def test_memory_index_returns_whole_definitions_or_bare_parts() -> None:
    chunks = syntax_chunks()
    vectors = np.eye(len(chunks), dtype=np.float32)
    index = MemoryIndex(chunks, vectors)
    hits = index.search("zebra checksum settle", None, k=3, mode="keyword")
    top = hits[0]
    assert top.chunk.symbol in ("Ledger.close_books", "Ledger.close_books.settle")
    whole = next(h for h in hits if h.group)
    assert whole.chunk.symbol == "Ledger.close_books" and len(whole.group) >= 3
    assert whole.to_dict()["group"] == [c.id for c in whole.group]
    assert whole.to_dict()["group_lines"] == list(whole.lines)
    first, last = whole.lines
    source = "\n".join(SOURCE.splitlines()[first - 1 : last])
    assert whole.text == whole.to_dict()["group_text"] == source  # the whole function, as written
    bare = index.search("zebra checksum settle", None, k=3, mode="keyword", whole_definitions=False)
    assert all(not h.group for h in bare) and all(len(h.chunks) == 1 for h in bare)


def test_store_groups_like_the_memory_index(tmp_path: Path, tmp_chroma: Path, shared_embedder: Embedder) -> None:
    chunks = syntax_chunks()
    store = Store(tmp_chroma)
    store.sync("ce_groups_test", chunks, shared_embedder, {"strategy": "syntax"})
    memory = MemoryIndex(chunks, shared_embedder.embed([c.embed_text for c in chunks]).vectors)
    query = "zebra checksum of the settled orders"
    vector = shared_embedder.embed_query(query)
    for mode in ("keyword", "vector", "hybrid"):
        got = store.search("ce_groups_test", query, shared_embedder, k=4, mode=mode, query_vector=vector)
        want = memory.search(query, vector, k=4, mode=mode)
        assert [[c.id for c in h.chunks] for h in got] == [[c.id for c in h.chunks] for h in want], mode
        assert any(h.group for h in got), mode
        assert len({c.id for h in got for c in h.chunks}) == sum(len(h.chunks) for h in got)  # no chunk twice
    # After a restart the groups come from disk; an index saved without them (older version) is rebuilt.
    want = [[c.id for c in h.chunks] for h in store.search("ce_groups_test", query, None, k=4, mode="keyword")]
    again = Store(tmp_chroma)
    assert [[c.id for c in h.chunks] for h in again.search("ce_groups_test", query, None, k=4, mode="keyword")] == want
    for saved in (tmp_chroma / "chunk_explorer" / "bm25" / "ce_groups_test").glob("*/groups.json"):
        saved.unlink()
    fresh = Store(tmp_chroma)
    assert [[c.id for c in h.chunks] for h in fresh.search("ce_groups_test", query, None, k=4, mode="keyword")] == want
    assert list((tmp_chroma / "chunk_explorer" / "bm25" / "ce_groups_test").glob("*/groups.json"))  # saved again


def test_a_whole_definition_counts_as_whole_and_costs_its_text_once() -> None:
    chunks = syntax_chunks()
    prep = prepare("ledger.py", "python", SOURCE)
    spec = QuerySpec(1, "close the books", "ledger.py", symbol="Ledger.close_books")
    target = resolve_target(spec, prep)
    group = whole_definition(parts_of(chunks, "Ledger.close_books")[1], chunks)
    common = dict(strategy="syntax", mode="hybrid", context_tokens=10_000, tokens_of=lambda c: c.size)
    assert score_query(spec, target, [group], k=1, **common).whole_rank == 1
    # Ranked as bare parts, no single result holds it (though the context gets it all).
    bare = score_query(spec, target, list(group), k=len(group), **common)
    assert bare.whole_rank is None and bare.touched_rank == 1 and bare.in_context
    full = sum(c.size for c in group)
    repeated = sum(1 for c in group[1:] if c.header)  # one line of header per later part, in lines
    assert fill_context([group], full - 1, lambda c: c.size) == []
    assert fill_context([group], full - repeated, lambda c: c.size, lambda c: 1 if c.header else 0) == list(group)


def test_definition_groups_lists_each_part_s_whole_definition() -> None:
    chunks = syntax_chunks()
    groups = definition_groups(chunks)
    parts = parts_of(chunks, "Ledger.close_books")
    assert set(groups) == {c.id for c in chunks if group_key(c)}
    for part in parts:
        assert groups[part.id] == tuple(c.id for c in whole_definition(part, chunks))


def test_two_sessions_rebuilding_the_groups_at_once(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    from concurrent.futures import ThreadPoolExecutor

    chunks = syntax_chunks()
    Store(tmp_chroma).sync("ce_groups_race", chunks, shared_embedder, {"strategy": "syntax"})
    for saved in (tmp_chroma / "chunk_explorer" / "bm25" / "ce_groups_race").glob("*/groups.json"):
        saved.unlink()
    store = Store(tmp_chroma)  # one server process, several sessions: one Store, many threads

    def search(_: int) -> list[list[str]]:
        return [[c.id for c in h.chunks] for h in store.search("ce_groups_race", "zebra checksum", None, k=3, mode="keyword")]

    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(search, range(8)))
    assert all(f == found[0] for f in found) and any(len(ids) > 1 for ids in found[0])


def test_a_nested_definition_found_first_stays_a_result_and_its_function_comes_whole() -> None:
    chunks = syntax_chunks()
    parts = parts_of(chunks, "Ledger.close_books")
    settle = next(c for c in chunks if c.symbol == "Ledger.close_books.settle")
    small = next(c for c in chunks if c.symbol == "small")
    groups = definition_groups(chunks)
    assert settle.id in groups[parts[0].id] and settle.id not in groups  # inside the group, not a part
    ranked = [settle.id, small.id, parts[1].id, parts[0].id]
    results = collapse(ranked, lambda i: groups.get(i) or (i,), k=5)
    # The helper asked about is a result of its own; its function, found later, is whole.
    assert results == [(settle.id, (settle.id,)), (small.id, (small.id,)), (parts[1].id, groups[parts[0].id])]
    for k in (1, 2):  # the first k results never depend on k
        assert collapse(ranked, lambda i: groups.get(i) or (i,), k=k) == results[:k]
    # In a context the helper's chunk goes in, and costs, once.
    by_id = {c.id: c for c in chunks}
    as_chunks = [[by_id[m] for m in members] for _, members in results]
    context = fill_context(as_chunks, 10_000, lambda c: c.size)
    assert len(context) == len({c.id for c in context}) and settle in context
    assert sum(c.size for c in context) == sum(by_id[i].size for i in {c.id for c in context})


def test_every_mode_works_when_a_nested_definition_ranks_first_and_k_does_not_change_the_top(
    tmp_chroma: Path, shared_embedder: Embedder
) -> None:
    chunks = syntax_chunks()
    store = Store(tmp_chroma)
    store.sync("ce_nested_test", chunks, shared_embedder, {"strategy": "syntax"})
    memory = MemoryIndex(chunks, shared_embedder.embed([c.embed_text for c in chunks]).vectors)
    query = "settle entry amount"  # the nested helper ranks above every part of its function
    vector = shared_embedder.embed_query(query)
    for mode in ("keyword", "vector", "hybrid"):
        # (Keyword mode failed: Chroma refused the helper's id, asked for twice.)
        got = store.search("ce_nested_test", query, shared_embedder, k=3, mode=mode, query_vector=vector)
        assert all(len(h.chunks) == len({c.id for c in h.chunks}) for h in got), mode
        assert [[c.id for c in h.chunks] for h in got] == [
            [c.id for c in h.chunks] for h in memory.search(query, vector, k=3, mode=mode)], mode
        top = [[c.id for c in h.chunks] for h in memory.search(query, vector, k=50, mode=mode)]
        for k in (1, 2, 3):
            assert [[c.id for c in h.chunks] for h in memory.search(query, vector, k=k, mode=mode)] == top[:k], (mode, k)
    settle = next(c for c in chunks if c.symbol == "Ledger.close_books.settle")
    assert store.search("ce_nested_test", query, None, k=3, mode="keyword")[0].chunk.id == settle.id
    # Whole definitions use up candidates: a shallow candidate list is deepened until k are found.
    shallow, query = Fusion(depth=2), "return the total of the orders"
    vector = shared_embedder.embed_query(query)
    for mode in ("keyword", "vector", "hybrid"):
        full = [[c.id for c in h.chunks] for h in memory.search(query, vector, k=100, mode=mode)]
        assert len(full) > 2, mode
        got = memory.search(query, vector, k=len(full), mode=mode, fusion=shallow)
        assert [[c.id for c in h.chunks] for h in got] == full, mode
        got = store.search("ce_nested_test", query, None, k=len(full), mode=mode, fusion=shallow, query_vector=vector)
        assert len(got) == len(full), mode


def test_a_reindex_after_an_edit_in_the_first_part_keeps_the_group_whole(tmp_chroma: Path, shared_embedder: Embedder) -> None:
    # An edit of the same length in part 1 leaves the spans and texts of the later parts as they
    # were, but their parent is now another chunk: the index must hold the new records, not the
    # old ones pointing at a part that is gone.
    edited = SOURCE.replace("compute_step_0(orders, 0)", "compute_step_0(orders, 7)")
    assert len(edited) == len(SOURCE) and edited != SOURCE
    before = syntax_chunks()
    after = chunk_document(prepare("ledger.py", "python", edited), SETTINGS, "syntax")
    parts = parts_of(after, "Ledger.close_books")
    assert parts[0].id != parts_of(before, "Ledger.close_books")[0].id
    store = Store(tmp_chroma)
    store.sync("ce_groups_edit", before, shared_embedder, {"strategy": "syntax"})
    report = store.sync("ce_groups_edit", after, shared_embedder, {"strategy": "syntax"})
    assert report.chunks == len(after)
    got = store.collection("ce_groups_edit").get(include=["documents", "metadatas"])
    stored = {i: chunk_from_record(i, d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"])}
    assert stored == {c.id: c for c in after}
    hits = store.search("ce_groups_edit", "zebra checksum", None, k=1, mode="keyword")
    assert [c.id for c in hits[0].chunks] == [c.id for c in whole_definition(parts[0], after)]
