"""tree-sitter parsing on the grammars bundled in tree-sitter-language-pack 0.13."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.document import Document
from core.languages import CodeSpec, LANGUAGES

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Tree

# Parsers are not thread-safe and Streamlit serves sessions from threads: one set per thread.
_local = threading.local()


def _parser(grammar: str) -> Parser:
    parsers: dict[str, Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(grammar)
    if parser is None:
        from tree_sitter_language_pack import get_parser

        parser = parsers[grammar] = get_parser(grammar)  # type: ignore[arg-type]
    return parser


ERROR_FALLBACK_RATIO = 0.5
"""Share of a file's bytes in parse errors past which the syntax chunker gives up on its tree
(and cuts fixed windows, flagged ``fallback: parse_error``)."""

MAX_MUTED = 3  # lines read as comments to get the rest of a file parsed
_SUSPECTS = 16  # lines tried for each
_REPAIR_BYTES = 500_000  # bytes re-parsed at most while trying (a parse of garbage takes ~3 us a byte)
_GOOD_ENOUGH = 0.05  # a try leaving less damage than this is taken at once
_OPENERS, _CLOSERS, _QUOTES = b"([{", b")]}", (b'"', b"'", b"`")


@dataclass(frozen=True)
class Parse:
    """A document's tree, and the lines read as comments to get it (see :func:`parse`)."""

    tree: Tree
    muted: tuple[int, ...] = ()


def parse(doc: Document) -> Parse | None:
    """Parse ``doc`` with its language's grammar; None when it is not a code language.

    One bad line (an unclosed bracket or quote) can turn everything after it into a parse error,
    and the file would lose its structure for one typo. When errors cover more than
    :data:`ERROR_FALLBACK_RATIO` of the file, the parser tries again with one line of the first
    damaged region read as a comment (byte for byte as long, so offsets do not move), among the
    lines there whose brackets or quotes do not balance, and keeps the try that leaves the least
    damage; up to :data:`MAX_MUTED` lines, and :data:`_REPAIR_BYTES` of parsing in all (a few
    dozen tries on a file of ordinary size, none past half a megabyte). The repair is kept only
    when it brings the damage, muted lines included, under the fallback ratio; the muted lines
    count as damaged (see :func:`find_damage`), and their text stays the file's own in the
    chunks.
    """
    spec = LANGUAGES.get(doc.language)
    if not isinstance(spec, CodeSpec):
        return None
    parser = _parser(spec.parser_name)
    tree = parser.parse(doc.data)
    damage = find_damage(tree)
    if damage.ratio <= ERROR_FALLBACK_RATIO:
        return Parse(tree)
    opener, closer = (part.encode("utf-8") for part in spec.comment)
    work = bytearray(doc.data)
    muted: list[int] = []
    best_tree = tree
    tries = _REPAIR_BYTES // max(len(doc.data), 1)  # a big file of garbage must not parse for minutes
    while len(muted) < MAX_MUTED and damage.ratio > ERROR_FALLBACK_RATIO and damage.ranges and tries > 0:
        best: tuple[float, int, Tree, Damage, bytearray] | None = None
        first, last = damage.ranges[0]
        for line in _suspects(doc, work, first, last):
            start, end = doc.line_start(line), doc.line_end(line)
            if end - start < len(opener) + len(closer):
                continue
            if tries <= 0:
                break
            tries -= 1
            trial = bytearray(work)
            trial[start:end] = opener + b" " * (end - start - len(opener) - len(closer)) + closer
            tried = parser.parse(bytes(trial))
            found = find_damage(tried)
            if best is None or found.ratio < best[0]:
                best = (found.ratio, line, tried, found, trial)
                if found.ratio < _GOOD_ENOUGH:
                    break
        if best is None or best[0] >= damage.ratio:
            break
        _, line, best_tree, damage, work = best
        muted.append(line)
    kept = tuple(sorted(muted))
    if not kept or find_damage(best_tree, kept, doc).ratio > ERROR_FALLBACK_RATIO:
        return Parse(tree)  # no better: the chunker falls back on the original tree's damage
    return Parse(best_tree, kept)


def _suspects(doc: Document, data: bytearray, first: int, last: int) -> list[int]:
    """Lines ``first..last`` whose brackets or quotes do not balance, in order, at most
    :data:`_SUSPECTS` of them."""
    found: list[int] = []
    for line in range(first, min(last, doc.line_count) + 1):
        text = bytes(data[doc.line_start(line) : doc.line_end(line)])
        balance = sum(text.count(c) for c in _OPENERS) - sum(text.count(c) for c in _CLOSERS)
        if balance or any(text.count(q) % 2 for q in _QUOTES):
            found.append(line)
            if len(found) >= _SUSPECTS:
                break
    return found


@dataclass(frozen=True)
class Damage:
    """Where a tree holds parse errors: 1-based inclusive line ranges and the share of bytes."""

    ranges: tuple[tuple[int, int], ...]
    error_bytes: int
    total_bytes: int

    @property
    def ratio(self) -> float:
        """Share of the file's bytes inside ERROR or MISSING nodes."""
        return self.error_bytes / self.total_bytes if self.total_bytes else 0.0

    def overlaps(self, first: int, last: int) -> bool:
        """True when lines ``first..last`` touch a damaged range."""
        return any(a <= last and first <= b for a, b in self.ranges)


def find_damage(tree: Tree, muted: tuple[int, ...] = (), doc: Document | None = None) -> Damage:
    """Collect the outermost ERROR/MISSING nodes (iteratively: deep trees must not recurse),
    and the ``muted`` lines of ``doc`` (read as comments to parse the rest: see :func:`parse`)."""
    root = tree.root_node
    ranges: list[tuple[int, int]] = [(line, line) for line in muted]
    error_bytes = sum(doc.line_end(line) - doc.line_start(line) for line in muted) if doc is not None else 0
    stack: list[Node] = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            ranges.append((node.start_point.row + 1, node.end_point.row + 1))
            error_bytes += max(node.end_byte - node.start_byte, 1)
            continue
        stack.extend(child for child in node.children if child.has_error)
    ranges.sort()
    return Damage(tuple(ranges), error_bytes, max(root.end_byte, 1))
