"""Shared machinery of the chunkers: a prepared document and the one place chunks are made."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from core.chunk import Chunk, span_chunk_id
from core.document import Document, is_blank_bytes
from core.embedded import Part, part_document
from core.embedded import parts as find_parts
from core.languages import CodeSpec, comment_line, get_spec
from core.settings import ChunkSettings
from core.sizing import Sizer, SpanSizer, make_sizer

if TYPE_CHECKING:
    from tree_sitter import Tree

    from core.parsing import Damage, Parse


class Prepared:
    """A document plus what is expensive to compute and independent of the chunk parameters:
    its parse tree and its span sizers. Keep one per file to re-chunk it cheaply after a
    parameter change (the UI caches these)."""

    def __init__(self, doc: Document, context: str = "") -> None:
        self.doc = doc
        # What the document's chunks stand under in their file, named before their own symbols
        # (a Markdown fence's code: the heading trail of its section); "" for a file of its own.
        self.context = context
        self._spans: dict[tuple[str, str], SpanSizer] = {}
        self._fences: dict[tuple[int, int, str, str], Prepared] = {}

    def spans(self, sizer: Sizer) -> SpanSizer:
        """The span sizer of this document for ``sizer``'s unit (computed once)."""
        key = (sizer.unit, sizer.model)
        found = self._spans.get(key)
        if found is None:
            found = self._spans[key] = sizer.spans(self.doc)
        return found

    @cached_property
    def parsed(self) -> Parse | None:
        """The tree-sitter parse, or None when the language has no grammar here."""
        from core.parsing import parse

        return parse(self.doc)

    @property
    def tree(self) -> Tree | None:
        """The tree-sitter tree, or None when the language has no grammar here (or the parse
        ran out of time: :data:`core.parsing.PARSE_SECONDS`)."""
        return self.parsed.tree if self.parsed is not None else None

    @cached_property
    def parts(self) -> list[tuple[Part, Prepared]] | None:
        """A markup file's parts when it holds script blocks (:mod:`core.embedded`), each with
        its own prepared document (the file with the rest blanked); None for any other file."""
        found = find_parts(self.doc)
        if found is None:
            return None
        return [(part, Prepared(part_document(self.doc, part))) for part in found]

    def fence(self, first: int, last: int, language: str, context: str) -> Prepared:
        """Lines ``first..last`` of this document as a document of their own in ``language``
        (the lines before them blanked, offsets kept, and nothing after them:
        :func:`core.embedded.part_document`), its chunks named under ``context``: a Markdown
        fence's code, a reStructuredText code block's. Kept, with its parse, for the next call.
        (Nothing after them: the copy costs less, and a brace the code left out is missed at
        the code's own end, where its chunk shows the damage, not past the document's later
        lines, where no chunk would.)"""
        key = (first, last, language, context)
        found = self._fences.get(key)
        if found is None:
            part = Part(first, last, language, True)
            found = self._fences[key] = Prepared(part_document(self.doc, part, whole=False), context)
        return found

    @cached_property
    def damage(self) -> Damage | None:
        """Where the tree holds parse errors (lines mended to parse the rest included), or None
        without a tree."""
        from core.parsing import find_damage

        parsed = self.parsed
        if parsed is None or parsed.tree is None:
            return None
        spec = get_spec(self.doc.language)
        open_root = isinstance(spec, CodeSpec) and spec.opens_error_root
        return find_damage(parsed.tree, parsed.muted, self.doc, open_root=open_root)


@dataclass
class ChunkMaker:
    """Builds contract-true chunks over one document: ``text`` is always the span's own text,
    ``embed_text`` is breadcrumb + header + text, ``size`` is measured in the settings' unit."""

    prep: Prepared
    settings: ChunkSettings
    strategy: str
    fallback: str | None = None
    sizer: Sizer = field(init=False)
    spans: SpanSizer = field(init=False)
    doc: Document = field(init=False)
    _measured: dict[str, int] = field(init=False, default_factory=dict)
    _prefixes: dict[tuple[str, str], tuple[str, int]] = field(init=False, default_factory=dict)  # and their sizes
    _crumbs: dict[str, str] = field(init=False, default_factory=dict)
    context: str = field(init=False, default="")  # the prepared document's (:attr:`Prepared.context`)
    bytes_are_chars: bool = field(init=False, default=False)  # the unit is chars and the text ASCII

    def __post_init__(self) -> None:
        self.sizer = make_sizer(self.settings.unit, self.settings.model)
        self.spans = self.prep.spans(self.sizer)
        self.doc = self.prep.doc
        self.context = self.prep.context
        self.bytes_are_chars = self.settings.unit == "chars" and self.doc.is_ascii

    def breadcrumb(self, symbol: str) -> str:
        """The breadcrumb line for ``symbol`` (empty when breadcrumbs are off). One longer than
        :data:`BREADCRUMB_SHARE` of the budget is shortened by :func:`shorten_symbol` (nested
        test suites, ``describe(...).describe(...).it("...")``, otherwise left a small budget's
        chunks room for a few characters of their own). The path is kept whole."""
        if not self.settings.breadcrumb:
            return ""
        found = self._crumbs.get(symbol)
        if found is not None:
            return found
        key, symbol = symbol, self.named(symbol)
        language, path = self.doc.language, self.doc.path
        found = comment_line(language, f"{path} :: {symbol}" if symbol else path) + "\n"
        limit = self.settings.budget * BREADCRUMB_SHARE
        if len(symbol) > SYMBOL_KEPT and self.measure(found) > limit:

            def line(shown: str) -> str:
                return comment_line(language, f"{path} :: {shown}") + "\n"

            shorter = line(shorten_symbol(symbol, lambda shown: self.measure(line(shown)) <= limit))
            if self.measure(shorter) < self.measure(found):
                found = shorter
        self._crumbs[key] = found
        return found

    def named(self, symbol: str) -> str:
        """``symbol`` as its chunk is named: under the document's context when it has one
        (``Guide > Install > Installer.run``; the context alone for a chunk of no symbol, or
        of loose statements)."""
        context = self.context
        if not context:
            return symbol
        return f"{context} > {symbol}" if symbol and symbol not in _UNNAMED else context

    def prefixed(self, symbol: str, header: str) -> tuple[str, int]:
        """What stands above the span in ``embed_text``, and its size (memoised: packing asks
        again and again)."""
        key = (symbol, header)
        found = self._prefixes.get(key)
        if found is None:
            text = self.breadcrumb(symbol) + (header + "\n" if header else "")
            found = self._prefixes[key] = (text, self.measure(text))
        return found

    def prefix_size(self, symbol: str, header: str) -> int:
        """The size of what stands above a span under this breadcrumb and header."""
        return self.prefixed(symbol, header)[1]

    def measure(self, text: str) -> int:
        """Size of free text, memoised (breadcrumbs and headers repeat)."""
        size = self._measured.get(text)
        if size is None:
            size = self._measured[text] = self.sizer.measure(text)
        return size

    def span_size(self, start_byte: int, end_byte: int) -> int:
        """Size of a source span."""
        return self.spans.span(start_byte, end_byte)

    def piece_size(self, start_byte: int, end_byte: int) -> int:
        """Size of a span that may begin or end inside a word. Exact in every unit: in tokens,
        a cut word tokenizes differently on its own ("roduces" is not one token), so the piece
        is tokenized itself; the running totals count the tokens of the whole line."""
        if self.settings.unit == "tokens" and end_byte > start_byte:
            return self.sizer.measure(self.doc.slice(start_byte, end_byte))
        return self.spans.span(start_byte, end_byte)

    def lines_size(self, first: int, last: int) -> int:
        """Size of whole lines ``first..last``."""
        doc = self.doc
        if self.bytes_are_chars:  # characters of ASCII text: the byte span's length
            return doc.line_ends[last - 1] - doc.line_starts[first - 1]
        return self.spans.span(doc.line_start(first), doc.line_end(last))

    def make(
        self,
        kind: str,
        symbol: str,
        start_byte: int,
        end_byte: int,
        *,
        header: str = "",
        parent_id: str | None = None,
        part: int = 1,
        parts: int = 1,
        flags: tuple[str, ...] = (),
        inside_words: bool = False,
        lines: tuple[int, int] | None = None,
    ) -> Chunk:
        """One chunk over ``[start_byte, end_byte)`` (``inside_words``: its ends may cut words,
        as raw windows and pieces of a split line do; see :meth:`piece_size`). ``lines``: its
        first and last line when the caller knows them (whole lines: the span of
        :meth:`Document.lines_span`), else they are looked up."""
        doc = self.doc
        text = doc.slice(start_byte, end_byte)
        prefix, size = self.prefixed(symbol, header)
        embed_text = prefix + text
        if self.context:
            symbol = self.named(symbol)
        if self.bytes_are_chars:  # characters of ASCII text: the byte span's length
            size += end_byte - start_byte
        elif inside_words or "split_line" in flags:
            size += self.piece_size(start_byte, end_byte)
        else:
            size += self.span_size(start_byte, end_byte)
        if size > self.settings.budget and "split_line" not in flags and "oversized" not in flags:
            flags = (*flags, "oversized")
        elif size <= self.settings.budget and "oversized" in flags:
            # Flagged beforehand because its prefix left little room (:func:`room_for`), yet it
            # fits: over the budget is what the flag says, so it goes.
            flags = tuple(f for f in flags if f != "oversized")
        if lines is None:
            start_line = doc.line_of_byte(start_byte)
            end_line = doc.line_of_byte(max(start_byte, end_byte - 1))
        else:
            start_line, end_line = lines
        final_flags = tuple(flags) if len(flags) < 2 else tuple(sorted(set(flags)))
        # Everything the record holds beside its texts is in the id: an index keeps a chunk whose
        # id it already has, so a chunk whose parent, flags or lines changed (an edit of the same
        # length elsewhere in its definition) must come under a new id.
        fields: tuple[object, ...] = (
            doc.path, self.strategy, kind, symbol, part, parts, start_byte, end_byte,
            parent_id or "", start_line, end_line, ",".join(final_flags),
        )  # fmt: skip
        if self.fallback:  # the syntax run's windows must not share ids with the fixed run's
            fields = (*fields, f"fallback={self.fallback}")
        ident = span_chunk_id(fields, prefix, doc.data, start_byte, end_byte)
        return Chunk(
            ident, doc.path, doc.language, self.strategy, kind, symbol, parent_id, start_line, end_line,
            start_byte, end_byte, part, parts, header, text, embed_text, size, self.settings.unit, self.fallback,
            None, None, None, final_flags,
        )  # fmt: skip  (positional, in the order of Chunk's fields: measurably faster)


# The symbol of a chunk of statements outside any definition.
LOOSE_SYMBOL = "<module>"
# Symbols that name no part of a file (its loose statements, a text file's lines before its
# first section): under a context, the context alone names such a chunk.
_UNNAMED = frozenset({LOOSE_SYMBOL, "<document>", "<top>"})

# Share of the budget a breadcrumb may take (see :meth:`ChunkMaker.breadcrumb`), and the
# characters of its symbol it keeps at least.
BREADCRUMB_SHARE = 1 / 3
SYMBOL_KEPT = 32

# Where a symbol may be cut: a breadcrumb's dot, a heading trail's " > ", a merged group's ", ".
_SEPARATORS = (".", " > ", ", ")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def _segments(symbol: str) -> list[str]:
    """``symbol`` cut after each separator outside brackets (a callback's label ``it('parses
    1.5')`` is one segment; a bracket in a string there does not count); the pieces join back
    to ``symbol``. (Outside brackets a quote is prose's apostrophe: ``Don't panic > Install``.)"""
    pieces: list[str] = []
    start, depth, quote, i = 0, 0, "", 0
    while i < len(symbol):
        char = symbol[i]
        if quote:
            quote = "" if char == quote else quote
        elif depth and char in "'\"`":
            quote = char
        elif char in _BRACKETS:
            depth += 1
        elif char in _BRACKETS.values():
            depth = max(depth - 1, 0)
        elif depth == 0:
            separator = next((sep for sep in _SEPARATORS if symbol.startswith(sep, i)), None)
            if separator is not None and i > start:
                i += len(separator)
                pieces.append(symbol[start:i])
                start = i
                continue
        i += 1
    pieces.append(symbol[start:])
    return [piece for piece in pieces if piece]


def shorten_symbol(symbol: str, fits: Any) -> str:
    """``symbol`` shortened until ``fits(shown)``: its first segment, ``\u2026``, and as many of
    its last segments as fit (``Guide > \u2026 > Installing the tools``,
    ``describe('Cart').\u2026.it('adds')``); else its last segments alone; else the end of
    its last segment, at least :data:`SYMBOL_KEPT` characters, never starting inside a
    character's combining marks. The best effort when nothing fits."""
    parts = _segments(symbol)
    for count in range(len(parts) - 2, 0, -1):
        shown = parts[0] + "\u2026" + _joiner(parts[0]) + "".join(parts[-count:])
        if fits(shown):
            return shown
    for count in range(len(parts) - 1, 0, -1):
        shown = "\u2026" + "".join(parts[-count:])
        if fits(shown):
            return shown
    last = parts[-1]
    if last.startswith("{") and last.endswith("}"):  # merged siblings, ``Cart.{add, remove, total}``
        items, before = last[1:-1].split(", "), "".join(parts[:-1])
        for head in (before, "\u2026" + parts[-2] if len(parts) > 1 else ""):
            for count in range(len(items) - 1, 0, -1):
                shown = head + "{\u2026, " + ", ".join(items[-count:]) + "}"
                if fits(shown):
                    return shown
    keep = largest_fitting(SYMBOL_KEPT, len(symbol) - 1, lambda n: fits("\u2026" + symbol[len(symbol) - n :]))
    start = len(symbol) - max(keep, SYMBOL_KEPT)
    while 0 < start < len(symbol) and (unicodedata.combining(symbol[start]) or symbol[start] in "\u200d\ufe0f"):
        start += 1  # an accent, a joiner or an emoji's variation selector belongs to the one before
    return "\u2026" + symbol[start:]


def _joiner(first: str) -> str:
    """What stands between an elided middle and the segments after it: the separator that
    ended the first segment (``.``, `` > ``, ``, ``)."""
    return next((sep for sep in _SEPARATORS if first.endswith(sep)), "")


# Share of the budget a chunk's own text always gets, however long its breadcrumb and header:
# a prefix that fills the budget otherwise leaves one-character pieces (thousands of them).
MIN_ROOM = 0.2


def room_for(maker: ChunkMaker, symbol: str, header: str) -> tuple[int, bool]:
    """Units a chunk's span may take under this breadcrumb and header, and whether that is more
    than the budget allows (the prefix leaves less than ``MIN_ROOM`` of it: such chunks are
    over the budget and must say ``oversized``)."""
    budget = maker.settings.budget
    room = budget - maker.prefix_size(symbol, header)
    floor = max(int(budget * MIN_ROOM), 1)
    return (room, False) if room >= floor else (floor, True)


def flag_over(flags: tuple[str, ...], over: bool) -> tuple[str, ...]:
    """``flags`` with ``oversized`` added when ``over`` (the second value of :func:`room_for`)."""
    return (*flags, "oversized") if over and "oversized" not in flags else flags


def largest_fitting(lo: int, hi: int, fits: Any) -> int:
    """The largest ``x`` in ``[lo, hi]`` with ``fits(x)`` for a monotone ``fits``; ``lo - 1`` if none."""
    best = lo - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if fits(mid):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


def split_long_line(maker: ChunkMaker, first_byte: int, end_byte: int, avail: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """Cut one over-long line into raw windows of at most ``avail`` units.

    Returns ``(start, end, flags)`` spans; every piece is flagged ``split_line``, and a piece
    that holds a single character still over the budget is also flagged ``oversized``. Pieces
    of whitespace alone are left out (the gaps between chunks are whitespace).
    """
    doc = maker.doc
    start_char = doc.char_of_byte(first_byte)
    end_char = doc.char_of_byte(end_byte)
    pieces: list[tuple[int, int, tuple[str, ...]]] = []
    pos = start_char
    while pos < end_char:
        a = doc.byte_of_char(pos)
        cut = largest_fitting(pos + 1, end_char, lambda c: maker.span_size(a, doc.byte_of_char(c)) <= avail)
        cut = fit_piece(maker, pos, cut, avail)
        flags: tuple[str, ...] = ("split_line",)
        if cut < pos + 1:
            cut, flags = pos + 1, ("split_line", "oversized")
        b = doc.byte_of_char(cut)
        if not is_blank_bytes(doc.data[a:b]):  # (a run of spaces or a stray ``\r`` is no chunk's text)
            pieces.append((a, b, flags))
        pos = cut
    if maker.settings.unit == "lines" and len(pieces) == 1 and pieces[0][2] == ("split_line",):
        # In lines no piece of a line is smaller than it: one is cut here only where the
        # breadcrumb alone fills the budget, and it is the line whole. Nothing was cut; what
        # is over the budget says so by ``oversized`` where it is.
        a, b, _ = pieces[0]
        line = doc.line_of_byte(a)  # (the whole line's bounds: a call may be given its rest alone)
        if is_blank_bytes(doc.data[doc.line_start(line) : a]) and is_blank_bytes(doc.data[b : doc.line_end(line)]):
            pieces[0] = (a, b, ())
    return pieces


def fit_piece(maker: ChunkMaker, pos: int, cut: int, avail: int) -> int:
    """``cut`` (a char position found with the running totals), moved back until the piece
    ``[pos, cut)`` fits ``avail`` by :meth:`ChunkMaker.piece_size`: a piece that starts or ends
    inside a word can hold more tokens than the totals say. ``pos`` when nothing fits."""
    doc = maker.doc
    a = doc.byte_of_char(pos)
    if cut <= pos or maker.settings.unit != "tokens" or maker.piece_size(a, doc.byte_of_char(cut)) <= avail:
        return cut
    # Usually a few characters back; by bisection over the rest if not.
    for step in range(1, 17):
        if cut - step <= pos:
            return pos
        if maker.piece_size(a, doc.byte_of_char(cut - step)) <= avail:
            return cut - step
    return largest_fitting(pos + 1, cut - 17, lambda c: maker.piece_size(a, doc.byte_of_char(c)) <= avail)
