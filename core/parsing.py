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

MAX_MUTED = 3  # lines mended to get the rest of a file parsed
_SUSPECTS = 16  # lines tried for each
_REPAIR_BYTES = 150_000  # bytes re-parsed at most while trying (a parse of garbage takes 3-9 us a byte)
_TYPO_RANGES = 8  # more separate damaged regions than this is no single typo: no repair tried
_ROUND_TRIES = 24  # tries for one line
_LOOK_BACK = 8  # lines above the first damaged region searched for the typo too
_TYPO_GAIN = 0.8  # a mend that leaves more than this share of the damage is no typo's: stop
_QUOTES = (b'"', b"'", b"`")
_OPEN_OF = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}
_OPEN_BRACE, _CLOSE_BRACE = ord("{"), ord("}")


@dataclass(frozen=True)
class Parse:
    """A document's tree, and the lines mended to get it (see :func:`parse`)."""

    tree: Tree
    muted: tuple[int, ...] = ()


def parse(doc: Document) -> Parse | None:
    """Parse ``doc`` with its language's grammar; None when it is not a code language.

    One bad line (an unclosed bracket or quote) can turn everything after it into a parse error,
    and the file would lose its structure for one typo. When errors cover more than
    :data:`ERROR_FALLBACK_RATIO` of the file, the parser tries again with one line of the first
    damaged region mended, among the lines there whose brackets or quotes do not balance
    (:func:`_suspects`), each mended in a few ways: a stray quote, brackets or braces blanked
    out, or the whole line read as a comment (:func:`_mends`; each keeps every byte offset). It
    keeps the try that leaves the least damage (the lighter mend on a tie), and goes on while a
    mend shrinks the damage by a fifth or more: up to :data:`MAX_MUTED` lines and
    :data:`_REPAIR_BYTES` of parsing in all (a few dozen tries on a file of ordinary size, none
    past 150 KB). Damage in many separate places is no typo and gets no tries. The repair is
    kept only when it brings the damage, mended lines included, under the fallback ratio; the
    mended lines count as damaged (see :func:`find_damage`), and their text stays the file's own
    in the chunks.
    """
    spec = LANGUAGES.get(doc.language)
    if not isinstance(spec, CodeSpec):
        return None
    parser = _parser(spec.parser_name)
    tree = parser.parse(doc.data)
    damage = find_damage(tree)
    if damage.ratio <= ERROR_FALLBACK_RATIO or len(damage.ranges) > _TYPO_RANGES:
        return Parse(tree)
    comment = tuple(part.encode("utf-8") for part in spec.comment)
    work = bytearray(doc.data)
    muted: list[int] = []
    best_tree = tree
    tries = _REPAIR_BYTES // max(len(doc.data), 1)  # a big file of garbage must not parse for minutes
    while len(muted) < MAX_MUTED and damage.ratio > ERROR_FALLBACK_RATIO and damage.ranges and tries > 0:
        best: tuple[float, int, Tree, Damage, bytearray] | None = None
        first, last = damage.ranges[0]
        first = max(1, first - _LOOK_BACK)  # the parser may notice a typo a few lines late
        round_tries = _ROUND_TRIES
        for line in _suspects(doc, work, first, last):
            start, end = doc.line_start(line), doc.line_end(line)
            for mended in _mends(bytes(work[start:end]), comment):
                if tries <= 0 or round_tries <= 0:
                    break
                tries -= 1
                round_tries -= 1
                trial = bytearray(work)
                trial[start:end] = mended
                tried = parser.parse(bytes(trial))
                found = find_damage(tried)
                if best is None or found.ratio < best[0]:
                    best = (found.ratio, line, tried, found, trial)
            if best is not None and not best[3].ranges:
                break  # nothing left to mend
        if best is None or best[0] > damage.ratio * _TYPO_GAIN:
            break  # nothing mends much: garbage, or a mistake no one line explains
        _, line, best_tree, damage, work = best
        muted.append(line)
    kept = tuple(sorted(muted))
    if not kept or find_damage(best_tree, kept, doc).ratio > ERROR_FALLBACK_RATIO:
        return Parse(tree)  # no better: the chunker falls back on the original tree's damage
    return Parse(best_tree, kept)


def _suspects(doc: Document, data: bytearray, first: int, last: int) -> list[int]:
    """At most :data:`_SUSPECTS` lines of ``first..last`` whose brackets or quotes do not
    balance, the likeliest typos first: an odd quote, then an unbalanced ``(`` or ``[``, then an
    unbalanced brace (a block opening or closing on its own line is the usual reason), each kind
    in line order."""
    ranked: list[tuple[int, int]] = []
    for line in range(first, min(last, doc.line_count) + 1):
        text = bytes(data[doc.line_start(line) : doc.line_end(line)])
        if any(text.count(q) % 2 for q in _QUOTES):
            ranked.append((0, line))
        elif text.count(b"(") != text.count(b")") or text.count(b"[") != text.count(b"]"):
            ranked.append((1, line))
        elif text.count(b"{") != text.count(b"}"):
            ranked.append((2, line))
    ranked.sort()
    return [line for _, line in ranked[:_SUSPECTS]]


def _mends(line: bytes, comment: tuple[bytes, bytes]) -> list[bytes]:
    """Ways to mend a suspect ``line``, each as long as it, lightest first: the last of a quote
    character it holds an odd number of, blanked; its round and square brackets that no partner
    closes or opens, blanked; its unpaired braces, blanked; then the whole line as a comment
    (when it is long enough to hold the comment's marks). Blanking one kind of character keeps
    the rest of the line's structure (a method's signature and its ``{``)."""
    quotes = [line.rindex(q) for q in _QUOTES if line.count(q) % 2]
    brackets: list[int] = []
    braces: list[int] = []
    stack: list[int] = []
    for i, byte in enumerate(line):
        if byte in _OPEN_OF.values():
            stack.append(i)
        elif byte in _OPEN_OF:
            if stack and line[stack[-1]] == _OPEN_OF[byte]:
                stack.pop()
            else:
                (braces if byte == _CLOSE_BRACE else brackets).append(i)
    for i in stack:
        (braces if line[i] == _OPEN_BRACE else brackets).append(i)
    mends: list[bytes] = []
    for stray in (quotes, brackets, braces):
        if stray:
            blanked = bytearray(line)
            for i in stray:
                blanked[i] = 0x20
            mends.append(bytes(blanked))
    opener, closer = comment
    if len(line) >= len(opener) + len(closer):
        mends.append(opener + b" " * (len(line) - len(opener) - len(closer)) + closer)
    return mends


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
    and the ``muted`` lines of ``doc`` (mended to parse the rest: see :func:`parse`)."""
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
