"""Shared checks for the test-suite: the Chunk contract's invariants, stated once."""

from __future__ import annotations

import subprocess
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.builder import MIN_ROOM, Prepared
from core.chunk import Chunk
from core.sizing import make_sizer

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_repos"


def open_app(page: str | None = None, *, timeout: float = 120) -> AppTest:
    """The app run once in AppTest, then switched to ``page`` (e.g. ``"pages/tables.py"``)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def turn_held_by_another(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    """Make the server's embedding turn held by another session until a page waits for it: the
    page's waiting notice is called (with whether the holder is itself), then the other session
    finishes. Returns what the page was told, as ``"waiting, mine=..."`` lines."""
    from pages import common

    slot = common.TurnSlot()
    slot.lock.acquire()  # another session is indexing
    slot.holder = "another session"
    told: list[str] = []
    real = common.in_turn

    def spying(held, waiting=None, who=None):  # type: ignore[no-untyped-def]
        def other_finishes(mine: bool) -> None:
            told.append(f"waiting, mine={mine}")
            waiting(mine)  # the page's own notice (a TypeError here if it gave none)
            slot.lock.release()

        return real(held, other_finishes, who)

    monkeypatch.setattr(common, "_indexing_slot", lambda: slot)
    monkeypatch.setattr(common, "in_turn", spying)
    return told


def assert_slices_true(prep: Prepared, chunks: list[Chunk]) -> None:
    """Every chunk's text is the source's own bytes for its span, and its lines match; no
    chunk's text is whitespace alone."""
    doc = prep.doc
    for chunk in chunks:
        assert chunk.text == doc.data[chunk.start_byte : chunk.end_byte].decode("utf-8"), chunk.id
        assert chunk.text.strip(), (chunk.kind, chunk.start_line, chunk.flags)
        assert chunk.start_line == doc.line_of_byte(chunk.start_byte)
        assert chunk.end_line == doc.line_of_byte(max(chunk.start_byte, chunk.end_byte - 1))
        assert chunk.embed_text.endswith(chunk.text)
        if chunk.header:
            assert chunk.header + "\n" + chunk.text in chunk.embed_text


def assert_lossless(prep: Prepared, chunks: list[Chunk]) -> None:
    """With overlap 0 every non-blank line is covered exactly once; lines cut inside (flagged
    ``split_line``) are covered by pieces that concatenate back to the line."""
    doc = prep.doc
    whole: dict[int, int] = {}
    pieces: dict[int, list[Chunk]] = {}
    for chunk in chunks:
        if "split_line" in chunk.flags:
            pieces.setdefault(chunk.start_line, []).append(chunk)
            continue
        for line in range(chunk.start_line, chunk.end_line + 1):
            whole[line] = whole.get(line, 0) + 1
    for line in range(1, doc.line_count + 1):
        if doc.is_blank(line):
            continue
        if line in pieces:
            assert line not in whole, f"line {line} both whole and cut"
            # The pieces run through the line in order, and what lies outside them is
            # whitespace (a piece of whitespace alone is no chunk: split_long_line drops it).
            at = doc.line_start(line)
            for part in sorted(pieces[line], key=lambda c: c.start_byte):
                assert part.start_byte >= at, f"line {line}: pieces overlap"
                assert not doc.data[at : part.start_byte].strip(), f"line {line}: text lost before byte {part.start_byte}"
                at = part.end_byte
            assert not doc.data[at : doc.line_end(line)].strip(), f"line {line}: text lost at its end"
            continue
        assert whole.get(line) == 1, f"{doc.path}: line {line} covered {whole.get(line, 0)} times"


def assert_budget(chunks: list[Chunk], budget: int) -> None:
    """No chunk is over the budget unless it is flagged as unsplittable, and it is: one line (or
    a piece of one, or one table row) that cannot be cut smaller, or text that fits the room its
    breadcrumb and header leave (they alone fill the budget: see ``core.builder.room_for``).
    (The builder flags whatever it makes over the budget, so the flag alone proves nothing.)"""
    for chunk in chunks:
        if chunk.size <= budget:
            continue
        where = (chunk.path, chunk.kind, chunk.symbol, chunk.size, chunk.start_line, chunk.end_line)
        assert "oversized" in chunk.flags, where
        one_line = chunk.start_line == chunk.end_line or (chunk.row_start is not None and chunk.row_start == chunk.row_end)
        text_alone = make_sizer(chunk.unit).measure(chunk.text)
        assert one_line or text_alone <= max(int(budget * MIN_ROOM), 1), (*where, text_alone)


def sample_code_files() -> list[Path]:
    """Every non-table file of sample_repos/ with a known language."""
    from core.languages import TABLE_LANGUAGES, detect_language

    found = []
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file() or "queries" in path.parts:
            continue
        language = detect_language(path.name)
        if language is not None and language not in TABLE_LANGUAGES:
            found.append(path)
    return found


def stop_process(process: subprocess.Popen, timeout: float) -> None:  # type: ignore[type-arg]
    """Stop a server a fixture started: terminate, then kill if it has not exited in ``timeout``."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def plan_workbook(empty_sheet: bool = False) -> bytes:
    """A workbook whose first sheet, ``Plan``, is a header alone (``month, target, owner``) beside
    an ``Actuals`` sheet of rows (and an empty sheet, when asked)."""
    import io

    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Plan"
    book.active.append(["month", "target", "owner"])
    data = book.create_sheet("Actuals")
    for row in (["month", "revenue"], ["Jan", 120], ["Feb", 135]):
        data.append(row)
    if empty_sheet:
        book.create_sheet("Empty")
    raw = io.BytesIO()
    book.save(raw)
    return raw.getvalue()


# A function whose annotations fill a chunk's worth before its signature (tests of the parts
# that hold the signature, and of the metric that looks for it).
ANNOTATED_KOTLIN = (
    '@Suppress("UNCHECKED_CAST", "DEPRECATION", "UNUSED_PARAMETER", "NAME_SHADOWING")\n'
    "@Throws(IllegalStateException::class, IllegalArgumentException::class)\n"
    "fun summarize(levels: Map<String, Int>, skus: List<String>, withReservations: Boolean): Int {\n"
    "    var total = 0\n" + "".join(f"    total += compute(item{i}, factor{i})\n" for i in range(4))
    + "    return total\n}\n"
)
