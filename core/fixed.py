"""The fixed-size baseline: windows of ``budget`` units with ``overlap``, blind to syntax.

Line-aligned by default (a window ends at a line end); ``raw_cuts`` cuts anywhere, which is what
naive text splitters do and what the app shows failing. A line longer than a window is cut inside
the line either way (flagged ``split_line``).
"""

from __future__ import annotations

from core.builder import ChunkMaker, Prepared, fit_piece, flag_over, largest_fitting, room_for, split_long_line
from core.chunk import Chunk
from core.document import is_blank_bytes
from core.settings import ChunkSettings


def chunk_fixed(prep: Prepared, settings: ChunkSettings, *, fallback: str | None = None) -> list[Chunk]:
    """Cut ``prep``'s document into fixed windows by ``settings``."""
    maker = ChunkMaker(prep, settings, "fixed", fallback=fallback)
    doc = prep.doc
    if not doc.data.strip():
        return []
    avail, over = room_for(maker, "", "")  # (over: the path's breadcrumb alone nearly fills the budget)
    overlap = settings.overlap
    extra: tuple[str, ...] = ()
    if overlap >= avail:
        # This file's breadcrumb leaves less room than the overlap: each window would start
        # where the one before ends, or before it (windows nested in one another, a character
        # apart, thousands of them). Half the room is repeated instead, and the windows say so.
        overlap, extra = avail // 2, ("overlap_reduced",)
    raw = settings.raw_cuts and settings.unit != "lines"
    spans = _raw_windows(maker, avail, overlap) if raw else _line_windows(maker, avail, overlap)
    return [
        maker.make("window", "", a, b, flags=flag_over((*flags, *extra), over), inside_words=raw)
        for a, b, flags in spans
    ]


def _line_windows(maker: ChunkMaker, avail: int, overlap: int) -> list[tuple[int, int, tuple[str, ...]]]:
    doc = maker.doc
    last_line = doc.line_count
    out: list[tuple[int, int, tuple[str, ...]]] = []
    start = 1
    reached = 0  # the last line of the window before
    while start <= last_line:
        while start <= last_line and doc.is_blank(start):
            start += 1
        if start > last_line:
            break
        first = start
        end = largest_fitting(first, last_line, lambda line: maker.lines_size(first, line) <= avail)
        if end < first:
            # One line alone is over the window: cut inside it.
            out.extend(split_long_line(maker, doc.line_start(first), doc.line_end(first), avail))
            start = first + 1
            continue
        while end > first and doc.is_blank(end):
            end -= 1
        if first <= reached and end <= reached:
            # The overlap left no room for a line more: this window would lie inside the one
            # before. It starts after it instead (no overlap this once).
            start = reached + 1
            continue
        out.append((doc.line_start(first), doc.line_end(end), ()))
        reached = end
        if end >= last_line:
            break
        next_start = end + 1
        if overlap:
            # Earliest line such that the repeated tail fits in the overlap, always moving forward.
            back = largest_fitting(1, end - first, lambda k: maker.lines_size(end - k + 1, end) <= overlap)
            next_start = max(end - back + 1, first + 1) if back >= 1 else end + 1
        start = next_start
    return out


def _raw_windows(maker: ChunkMaker, avail: int, overlap: int) -> list[tuple[int, int, tuple[str, ...]]]:
    doc = maker.doc
    total = len(doc.text)
    out: list[tuple[int, int, tuple[str, ...]]] = []
    pos = 0
    reached = 0  # where the window before ends (a char position)
    while pos < total:
        a = doc.byte_of_char(pos)
        cut = largest_fitting(pos + 1, total, lambda c: maker.span_size(a, doc.byte_of_char(c)) <= avail)
        cut = fit_piece(maker, pos, cut, avail)  # a window that cuts words holds more tokens
        if pos < reached and cut <= reached:
            # From where the overlap went back to, the window reaches no further than the one
            # before (a word's next piece costs more tokens than it had room for): it would lie
            # inside it. It starts where that one ends instead (no overlap this once).
            pos = reached
            continue
        flags: tuple[str, ...] = ()
        if cut < pos + 1:
            cut, flags = pos + 1, ("oversized",)
        reached = cut
        b = doc.byte_of_char(cut)
        if not is_blank_bytes(doc.data[a:b]):
            out.append((a, b, flags))
        if cut >= total:
            break
        if overlap:
            # Step back to the earliest position whose tail still fits the overlap.
            pos = _earliest_fitting(maker, pos + 1, cut, b, overlap)
        else:
            pos = cut
    return out


def _earliest_fitting(maker: ChunkMaker, lo: int, hi: int, end_byte: int, overlap: int) -> int:
    """Smallest char position ``s`` in ``[lo, hi]`` whose span up to ``end_byte`` fits ``overlap``."""
    doc = maker.doc
    best = hi
    while lo <= hi:
        mid = (lo + hi) // 2
        if maker.span_size(doc.byte_of_char(mid), end_byte) <= overlap:
            best, hi = mid, mid - 1
        else:
            lo = mid + 1
    return best
