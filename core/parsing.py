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


def parse(doc: Document) -> Tree | None:
    """Parse ``doc`` with its language's grammar; None when it is not a code language."""
    spec = LANGUAGES.get(doc.language)
    if not isinstance(spec, CodeSpec):
        return None
    return _parser(spec.parser_name).parse(doc.data)


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


def find_damage(tree: Tree) -> Damage:
    """Collect the outermost ERROR/MISSING nodes (iteratively: deep trees must not recurse)."""
    root = tree.root_node
    ranges: list[tuple[int, int]] = []
    error_bytes = 0
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
