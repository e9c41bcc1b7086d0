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
