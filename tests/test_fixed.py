"""The fixed-size baseline: line-aligned windows, raw cuts, overlap."""

from __future__ import annotations

import pytest

from core.chunking import chunk_document, prepare
from core.settings import ChunkSettings
from tests.helpers import SAMPLES, assert_budget, assert_lossless, assert_slices_true

TEXT = (SAMPLES / "py_inventory/inventory/models.py").read_text("utf-8")


@pytest.mark.parametrize("unit,budget", [("chars", 300), ("nws", 200), ("tokens", 80), ("lines", 12)])
def test_line_aligned_windows_end_at_line_ends(unit: str, budget: int) -> None:
    prep = prepare("models.py", "python", TEXT)
    chunks = chunk_document(prep, ChunkSettings(budget=budget, unit=unit), "fixed")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, budget)
    for chunk in chunks:
        assert chunk.strategy == "fixed" and chunk.kind == "window"
        assert chunk.start_byte == prep.doc.line_start(chunk.start_line)
        assert chunk.end_byte == prep.doc.line_end(chunk.end_line)


@pytest.mark.parametrize("unit,budget", [("chars", 300), ("nws", 200), ("tokens", 80)])
def test_raw_cuts_fall_anywhere_and_lose_nothing(unit: str, budget: int) -> None:
    prep = prepare("models.py", "python", TEXT)
    chunks = chunk_document(prep, ChunkSettings(budget=budget, unit=unit, raw_cuts=True), "fixed")
    assert_slices_true(prep, chunks)
    assert_budget(chunks, budget)
    assert any(c.end_byte != prep.doc.line_end(c.end_line) for c in chunks), "some cut is mid-line"
    # Without overlap the windows tile the file: joined, they give back every non-space byte.
    assert "".join(c.text for c in chunks).split() == TEXT.split() or "".join(
        c.text for c in chunks).replace(" ", "").replace("\n", "") == TEXT.replace(" ", "").replace("\n", "")


def test_raw_cuts_with_overlap_repeat_a_bounded_tail() -> None:
    prep = prepare("models.py", "python", TEXT)
    settings = ChunkSettings(budget=300, unit="chars", overlap=50, raw_cuts=True)
    chunks = chunk_document(prep, settings, "fixed")
    for a, b in zip(chunks, chunks[1:]):
        assert a.start_byte < b.start_byte <= a.end_byte
        assert a.end_byte - b.start_byte <= 50


def test_non_ascii_raw_cuts_never_split_a_character() -> None:
    text = "名前 = 'ÄÖÜ日本語' * 3\n" * 40
    prep = prepare("n.py", "python", text)
    chunks = chunk_document(prep, ChunkSettings(budget=37, unit="chars", raw_cuts=True), "fixed")
    assert_slices_true(prep, chunks)
    assert all(c.size <= 37 for c in chunks)


def test_breadcrumb_names_the_file_only() -> None:
    prep = prepare("pkg/models.py", "python", TEXT)
    chunks = chunk_document(prep, ChunkSettings(), "fixed")
    assert all(c.embed_text.startswith("# pkg/models.py\n") for c in chunks)
    bare = chunk_document(prep, ChunkSettings(breadcrumb=False), "fixed")
    assert all(c.embed_text == c.text for c in bare)


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize("unit,budget,overlap", [("tokens", 20, 5), ("tokens", 20, 14), ("chars", 60, 40), ("nws", 30, 15), ("lines", 4, 2)])
def test_overlapping_windows_always_move_on(raw: bool, unit: str, budget: int, overlap: int) -> None:
    # A small budget with a large overlap gave windows nested in the one before (a token more
    # cost more than the room left), up to 3,499 of 5,708 for one file: each window must now
    # start and end past the one before.
    prep = prepare("models.py", "python", TEXT)
    chunks = chunk_document(prep, ChunkSettings(budget=budget, unit=unit, overlap=overlap, raw_cuts=raw), "fixed")
    assert_slices_true(prep, chunks)
    for a, b in zip(chunks, chunks[1:]):
        assert a.start_byte < b.start_byte and a.end_byte < b.end_byte, (a.start_byte, a.end_byte, b.start_byte, b.end_byte)


def test_an_overlap_the_breadcrumb_leaves_no_room_for_is_halved_and_said() -> None:
    prep = prepare("models.py", "python", TEXT)
    # budget 20 tokens, "# models.py" takes 5: windows hold 15, and an overlap of 15 cannot move on.
    chunks = chunk_document(prep, ChunkSettings(budget=20, overlap=15), "fixed")
    assert chunks and all("overlap_reduced" in c.flags for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        assert a.start_byte < b.start_byte and a.end_byte < b.end_byte
    assert len(chunks) < 2.5 * len(chunk_document(prep, ChunkSettings(budget=20), "fixed"))
    plain = chunk_document(prep, ChunkSettings(budget=20, overlap=14), "fixed")
    assert not any("overlap_reduced" in c.flags for c in plain)
