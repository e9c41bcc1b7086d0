"""Prose and config: sections at headings or top-level keys, then blank-line blocks, never
mid-line (except a single line longer than the budget, which is cut and flagged)."""

from __future__ import annotations

import re

from core.builder import ChunkMaker, Prepared, flag_over, room_for, split_long_line
from core.chunk import Chunk
from core.document import Document
from core.languages import LANGUAGES, TextSpec
from core.settings import ChunkSettings

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_KEY = re.compile(r"""^\s*["']?([^"':#\s][^"':]*?)["']?\s*:(\s|$)""")
_TOML_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*$")
_SQL_HEAD = re.compile(r"^\s*([A-Za-z]+(?:\s+[A-Za-z_]+){0,2})")
# What can open or close a stretch in which a statement cannot end: a dollar-quoted body
# (PostgreSQL's ``AS $$ ... $$``, ``$fn$ ... $fn$``), a string, a block comment; and ``--``.
_SQL_TOKEN = re.compile(r"\$(?:[A-Za-z_]\w*)?\$|'|\"|--|/\*|\*/")
_SQL_DELIMITER = re.compile(r"^\s*delimiter\s+(\S+)\s*$", re.IGNORECASE)  # MySQL clients' ``DELIMITER //``

Section = tuple[int, int, str]  # first line, last line, title


def chunk_text(prep: Prepared, settings: ChunkSettings, *, fallback: str | None = None) -> list[Chunk]:
    """Chunk prose or config by its structure; unknown formats by blank-line blocks."""
    doc = prep.doc
    if not doc.data.strip():
        return []
    maker = ChunkMaker(prep, settings, "text", fallback=fallback)
    spec = LANGUAGES.get(doc.language)
    style = spec.style if isinstance(spec, TextSpec) else "blocks"
    sections = _SECTIONERS[style](doc)
    spans: list[tuple[str, int, int, tuple[str, ...], int | None, int | None]] = []
    group: list[Section] = []

    def fits(first: int, last: int, title: str) -> bool:
        return maker.prefix_size(title, "") + maker.lines_size(first, last) <= settings.budget

    def title_of(items: list[Section]) -> str:
        return ", ".join(dict.fromkeys(t for _, _, t in items))

    def emit() -> None:
        if group:
            spans.append((title_of(group), group[0][0], group[-1][1], (), None, None))
            group.clear()

    for section in sections:
        first, last, title = section
        candidate = [*group, section]
        if group and settings.merge_siblings and fits(group[0][0], last, title_of(candidate)):
            group.append(section)
            continue
        emit()
        if fits(first, last, title):
            group.append(section)
            continue
        spans.extend(_split_section(maker, doc, first, last, title, fits))
    emit()
    chunks = []
    for title, first, last, flags, a, b in spans:
        if a is None or b is None:
            first, last = doc.trim_blank(first, last)
            a, b = doc.lines_span(first, last)
        chunks.append(maker.make("section", title, a, b, flags=flags))
    return chunks


def _split_section(maker: ChunkMaker, doc: Document, first: int, last: int, title: str, fits):  # type: ignore[no-untyped-def]
    """Blank-line blocks packed under the budget; then lines; then pieces of a line."""
    out: list[tuple[str, int, int, tuple[str, ...], int | None, int | None]] = []
    start: int | None = None
    end = first
    for block_first, block_last in _blocks(doc, first, last):
        if start is not None and fits(start, block_last, title):
            end = block_last
            continue
        if start is not None:
            out.append((title, start, end, (), None, None))
            start = None
        if fits(block_first, block_last, title):
            start, end = block_first, block_last
            continue
        for line in range(block_first, block_last + 1):
            if start is not None and fits(start, line, title):
                end = line
                continue
            if start is not None:
                out.append((title, start, end, (), None, None))
                start = None
            if fits(line, line, title):
                start, end = line, line
                continue
            avail, over = room_for(maker, title, "")
            for a, b, flags in split_long_line(maker, doc.text_start(line), doc.line_end(line), avail):
                out.append((title, line, line, flag_over(flags, over), a, b))
    if start is not None:
        out.append((title, start, end, (), None, None))
    return out


def _blocks(doc: Document, first: int, last: int) -> list[tuple[int, int]]:
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    for line in range(first, last + 1):
        if doc.is_blank(line):
            if start is not None:
                blocks.append((start, line - 1))
                start = None
        elif start is None:
            start = line
    if start is not None:
        blocks.append((start, last))
    return blocks or [(first, last)]


def _cut(doc: Document, starts: list[tuple[int, str]], default: str) -> list[Section]:
    """Sections from (first line, title) starts; text before the first start is a preamble."""
    n = doc.line_count
    if not starts or starts[0][0] != 1:
        starts = [(1, default), *starts]
    sections = []
    for index, (first, title) in enumerate(starts):
        last = starts[index + 1][0] - 1 if index + 1 < len(starts) else n
        if any(not doc.is_blank(line) for line in range(first, last + 1)):
            sections.append((first, last, title))
    return sections


def _markdown(doc: Document) -> list[Section]:
    starts: list[tuple[int, str]] = []
    trail: list[tuple[int, str]] = []
    fenced = False
    for line in range(1, doc.line_count + 1):
        text = doc.line_text(line)
        if _FENCE.match(text):
            fenced = not fenced
            continue
        match = None if fenced else _MD_HEADING.match(text)
        if match:
            level = len(match.group(1))
            trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, match.group(2))]
            starts.append((line, " > ".join(t for _, t in trail)))
    return _cut(doc, starts, "<document>")


def _keys(doc: Document) -> list[Section]:
    lines = [(line, doc.line_text(line)) for line in range(1, doc.line_count + 1)]
    indents = [len(t) - len(t.lstrip()) for _, t in lines if _KEY.match(t)]
    if not indents:
        return _cut(doc, [], "<document>")
    top = min(indents)
    starts = []
    for line, text in lines:
        match = _KEY.match(text)
        if match and len(text) - len(text.lstrip()) == top:
            starts.append((line, match.group(1).strip()))
    if starts and not any(ch.isalnum() for _, text in lines[: starts[0][0] - 1] for ch in text):
        starts[0] = (1, starts[0][1])  # JSON's opening ``{``, YAML's ``---``: no chunk of their own
    return _cut(doc, starts, "<document>")


def _toml(doc: Document) -> list[Section]:
    starts = []
    for line in range(1, doc.line_count + 1):
        match = _TOML_TABLE.match(doc.line_text(line))
        if match:
            starts.append((line, match.group(1)))
    return _cut(doc, starts, "<top>")


def _sql(doc: Document) -> list[Section]:
    starts = []
    expecting = True
    comments: int | None = None  # the first of the comment lines right above the next statement
    state = _SqlState()
    for line in range(1, doc.line_count + 1):
        text = doc.line_text(line)
        stripped = text.strip()
        if not stripped:
            comments = None
            continue
        if expecting and stripped.startswith("--"):
            comments = comments or line
            continue
        was_comment = state.comment
        ends = state.ends_statement(text)
        if expecting and (was_comment or stripped.startswith("/*")) and (state.comment or stripped.endswith("*/")):
            comments = comments or line  # a block comment above the next statement
            continue
        if expecting:
            head = _SQL_HEAD.match(stripped)
            starts.append((comments or line, " ".join(head.group(1).split()) if head else "<statement>"))
            expecting, comments = False, None
        if ends:
            expecting = True
    return _cut(doc, starts, "<preamble>")


class _SqlState:
    """Where a SQL script's reading stands at a line's end: inside a dollar-quoted body, a
    string or a block comment (no statement ends there: a function's body holds ``;`` on
    every line), and the statement delimiter in force."""

    def __init__(self) -> None:
        self.dollar: str | None = None
        self.quote: str | None = None
        self.comment = False
        self.delimiter = ";"

    def ends_statement(self, text: str) -> bool:
        """Read one line; whether a statement ends on it (its code ends with the delimiter,
        outside any string, body or comment)."""
        if not (self.dollar or self.quote or self.comment):
            match = _SQL_DELIMITER.match(text)
            if match:
                self.delimiter = match.group(1)
                return True
        code_end = len(text)
        for token in _SQL_TOKEN.finditer(text):
            mark = token.group()
            if self.comment:
                self.comment = mark != "*/"
            elif self.dollar is not None:
                if mark == self.dollar:
                    self.dollar = None
            elif self.quote is not None:
                if mark == self.quote:  # a doubled quote closes and opens again
                    self.quote = None
            elif mark == "--":
                code_end = token.start()
                break
            elif mark == "/*":
                self.comment = True
            elif mark in ("'", '"'):
                self.quote = mark
            elif mark != "*/":
                self.dollar = mark
        if self.dollar or self.quote or self.comment:
            return False
        return text[:code_end].rstrip().endswith(self.delimiter)


def _whole(doc: Document) -> list[Section]:
    return _cut(doc, [], "<document>")


_SECTIONERS = {"markdown": _markdown, "keys": _keys, "toml": _toml, "sql": _sql, "blocks": _whole}
