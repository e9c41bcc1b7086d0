"""tree-sitter parsing on the grammars bundled in tree-sitter-language-pack 0.13."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from core.document import Document
from core.languages import LANGUAGES, CodeSpec

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


def parses_cleanly(language: str, text: str) -> bool:
    """Whether ``text`` parses without an error node in ``language``'s grammar (True for a
    language without one). Used to tell a C++ header named ``.h`` from a C one."""
    spec = LANGUAGES.get(language)
    if not isinstance(spec, CodeSpec):
        return True
    return not _parser(spec.parser_name).parse(text.encode("utf-8", "surrogatepass")).root_node.has_error


ERROR_FALLBACK_RATIO = 0.5
"""Share of a file's bytes in parse errors past which the syntax chunker gives up on its tree
(and cuts fixed windows, flagged ``fallback: parse_error``)."""

PARSE_SECONDS = 10.0
"""Wall time a parse may take before it is given up (``fallback: parse_timeout``): a few grammars
loop on some garbage (tree-sitter's TypeScript grammar never returned on a 17-byte line of
punctuation), and a server must not hang on an upload. Real files parse far faster (the whole
standard library, 12 MB, in 1.3 s)."""

MAX_MUTED = 3  # lines mended to get the rest of a file parsed
_SUSPECTS = 48  # lines tried for each
_REPAIR_BYTES = 1_000_000  # bytes re-parsed at most while trying (~0.5 s of ordinary code)
_GARBAGE_SHARE = 0.2  # more suspect lines than this share of a damaged region: garbage, no typo
_ROUND_TRIES = 64  # tries for one line
_TYPO_GAIN = 0.8  # a mend that leaves more than this share of the damage is no typo's: stop
_LOOK_BACK = 8  # lines above the first damaged region searched for the typo too
_STRAYS_TRIED = 4  # single characters blanked, one at a time, per kind and line
_QUOTES = (b'"', b"'", b"`")
_TRIPLE = re.compile(rb'"""|\'\'\'')
_OPEN_OF = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}
_OPEN_BRACE, _CLOSE_BRACE = ord("{"), ord("}")


@dataclass(frozen=True)
class Parse:
    """A document's tree (None when the parse took longer than :data:`PARSE_SECONDS`), and the
    lines mended to get it (see :func:`parse`)."""

    tree: Tree | None
    muted: tuple[int, ...] = ()


def parse(doc: Document, *, seconds: float | None = None) -> Parse | None:
    """Parse ``doc`` with its language's grammar; None when it is not a code language.

    One bad line (an unclosed bracket or quote) can turn everything after it into a parse error,
    and the file would lose its structure for one typo. When errors cover more than
    :data:`ERROR_FALLBACK_RATIO` of the file, the parser tries again with one line of the first
    damaged region mended, among the lines there whose brackets or quotes do not balance
    (:func:`_suspects`), each mended in a few ways: one stray quote, bracket or brace blanked
    out at a time, or the whole line read as a comment (:func:`_mends`; each keeps every byte
    offset and leaves the line non-blank). It keeps the try that leaves the least damage (the
    lighter mend on a tie), and goes on while a mend shrinks the damage by a fifth or more: up
    to :data:`MAX_MUTED` lines and :data:`_REPAIR_BYTES` of parsing in all, within
    :data:`PARSE_SECONDS`. A damaged region that looks like garbage (:func:`_garbage`) gets no
    tries. The repair is kept only when it brings the damage, mended lines included, under the
    fallback ratio; the mended lines count as damaged (see :func:`find_damage`), and their text
    stays the file's own in the chunks. A mend can still cost the structure around it (a class
    whose own line held the typo); only the mended line's chunk is flagged.

    First, however little of the file is in error: a closer missing at the very end (left out
    somewhere above, so the rest of the file was read into its block) gets one mend where it
    likely went (:func:`_close_early`).
    """
    spec = LANGUAGES.get(doc.language)
    if not isinstance(spec, CodeSpec):
        return None
    parser = _parser(spec.parser_name)
    plain: bytes | None = None  # the text before macro lines were read as comments
    if (
        spec.comment_macros or spec.macro_lines or spec.class_macros or spec.argument_macros or spec.trailing_macros
        or spec.head_macros or spec.annotations or spec.label_words or spec.enum_macros
    ):
        read = _commented(doc.data, spec.comment_macros) if spec.comment_macros else doc.data
        if spec.enum_macros:
            read = _enum_macros_rewritten(read, spec.enum_macros)
        if spec.annotations:
            read = _annotations_blanked(read, spec.annotations)
        if spec.label_words:
            read = _labels_rewritten(read, spec.label_words)
        if spec.argument_macros:
            read = _argument_macros_blanked(read, spec.argument_macros)
        if spec.trailing_macros:
            read = _trailing_macros_blanked(read)
        if spec.head_macros:
            read = _head_macros_blanked(read, spec.never_types, spec.head_keywords)
        if spec.class_macros:
            read = _class_macros_blanked(read)
        if spec.macro_lines:
            lines_read = _macro_lines_commented(read)
            if lines_read is not read:
                plain, read = read, lines_read
        if read is not doc.data:  # the same lines and offsets: only the parser reads it
            doc = replace(doc, data=read)
    deadline = time.monotonic() + (PARSE_SECONDS if seconds is None else seconds)
    tree = _parse_until(parser, doc.data, deadline)
    if tree is None:
        return Parse(None)
    damage: Damage | None = None  # (measured once: here when macro lines were read, else below)
    if plain is not None:
        # Macro lines read as comments can cost the parse its footing (libstdc++'s ``namespace
        # std _GLIBCXX_VISIBILITY(default)`` then ``{`` held only because the macro line after
        # it was read as code): the file as written is parsed too, and kept when it needs no
        # repair (when both do, the repair below does better on the macros read as comments),
        # or when the chunker, which reads a root ERROR through its children, finds it sound
        # and the other not (an OpenSSL header whose ``#ifndef`` guard one ERROR swallowed).
        damage = find_damage(tree)
        opened = _opened_ratio(tree, damage, spec)
        if damage.ratio > ERROR_FALLBACK_RATIO or opened > ERROR_FALLBACK_RATIO:
            other = _parse_until(parser, plain, deadline)
            if other is not None:
                other_damage = find_damage(other)
                if other_damage.ratio <= ERROR_FALLBACK_RATIO or (
                    opened > ERROR_FALLBACK_RATIO and _opened_ratio(other, other_damage, spec) <= ERROR_FALLBACK_RATIO
                ):
                    tree, doc, damage = other, replace(doc, data=plain), other_damage
    comment = tuple(part.encode("utf-8") for part in spec.comment)
    unclosed = _missing_at_end(tree, doc)
    if unclosed is not None and unclosed.type in _CLOSERS and unclosed.parent is not None:
        reopened = _close_early(parser, doc, tree, unclosed.parent, comment, deadline)
        if reopened is not None:
            return reopened
    elif unclosed is None and spec.unclosed_closer and tree.root_node.is_error:
        # Some grammars (Ruby's) supply no closer at the end: the whole file is one ERROR.
        block = _unclosed_block(parser, doc, spec.unclosed_closer.encode(), deadline)
        if block is not None:
            reopened = _close_early(parser, doc, tree, block, comment, deadline)
            if reopened is not None:
                return reopened
    if damage is None:
        damage = find_damage(tree)
    if spec.argument_lists and damage.ranges:
        blanked = _strays_blanked(parser, doc, tree, damage, deadline)
        if blanked is not None:
            return blanked
    if damage.ratio <= ERROR_FALLBACK_RATIO:
        if tree.root_node.has_error:
            unquoted = _stray_quote(parser, doc, tree, comment[0], deadline)
            if unquoted is not None:
                return unquoted
        return Parse(tree)
    if _garbage(doc, damage, comment[0]):
        return Parse(tree)
    work = bytearray(doc.data)
    muted: list[int] = []
    best_tree = tree
    tries = _REPAIR_BYTES // max(len(doc.data), 1)  # a big file of garbage must not parse for minutes
    while len(muted) < MAX_MUTED and damage.ratio > ERROR_FALLBACK_RATIO and damage.ranges and tries > 0:
        best: tuple[float, int, Tree, Damage, bytearray] | None = None
        first, last = damage.ranges[0]
        first = max(1, first - _LOOK_BACK)  # the parser may notice a typo a few lines late
        round_tries = _ROUND_TRIES
        for line in _suspects(doc, work, first, last, comment[0])[:_SUSPECTS]:
            start, end = doc.line_start(line), doc.line_end(line)
            for mended in _mends(bytes(work[start:end]), comment):
                if tries <= 0 or round_tries <= 0:
                    break
                tries -= 1
                round_tries -= 1
                trial = bytearray(work)
                trial[start:end] = mended
                tried = _parse_until(parser, bytes(trial), deadline)
                if tried is None:
                    return Parse(tree)  # out of time: keep what the plain parse gave
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


_LIST_CLOSERS = frozenset({")", "]", "}"})
_QUOTE_LINES = 6  # lines whose stray quote is tried (see _stray_quote)


def _stray_quote(parser: Parser, doc: Document, tree: Tree, comment: bytes, deadline: float) -> Parse | None:
    """A quote left open (``echo "oops``, ``const X: &str = "oops;``): the string it opens runs
    on to the next quote, lines below, and the code in between is read as its text. The
    definitions there are lost, while the damage the parser reports stays small (a byte where
    the quotes' pairing finally fails, or none: Elixir's grammar marks the string and no node
    in it), so the repair of :func:`parse` never starts. A line of an odd number of some
    quote whose quote opens a node that ends on a later line is tried with that quote
    blanked, the first :data:`_QUOTE_LINES` such lines in the file, and the first try that
    parses without any error is kept, its line muted (see :func:`parse`). None when no try
    does: a string over several lines that was meant so does not parse cleanly without its
    quote."""
    tries = max(_REPAIR_BYTES // max(len(doc.data), 1), 1)
    data = doc.data
    root = tree.root_node
    lines = 0
    for rank, line in _ranked(doc, data, 1, doc.line_count, comment):  # (in the lines' order)
        if lines >= _QUOTE_LINES or tries <= 0:
            break
        if rank:
            continue
        start, end = doc.line_start(line), doc.line_end(line)
        opening = [at for at in _quote_positions(data[start:end]) if _opens_lines(root, start + at)]
        if opening:
            lines += 1
        for at in opening[:_STRAYS_TRIED]:
            if tries <= 0:
                break
            tries -= 1
            trial = bytearray(data)
            trial[start + at] = ord(" ")
            tried = _parse_until(parser, bytes(trial), deadline)
            if tried is None:
                return None
            if not tried.root_node.has_error:
                return Parse(tried, (line,))
    return None


def _opens_lines(root: Node, at: int) -> bool:
    """Whether the token at byte ``at`` starts a node that ends on a later line (a string)."""
    node: Node | None = root.descendant_for_byte_range(at, at + 1)
    while node is not None and node.start_byte == at:
        if node.end_point.row > node.start_point.row:
            return True
        node = node.parent
    return False


def _strays_blanked(parser: Parser, doc: Document, tree: Tree, damage: Damage, deadline: float) -> Parse | None:
    """A Lisp's ``)`` too many (``CodeSpec.argument_lists``): where a grammar reads the text
    after a closing bracket no list opened as one ERROR to the end of the file (Racket's and
    Common Lisp's do; Clojure's and Scheme's keep the ERROR to the bracket), the bracket is
    read as a space, up to :data:`MAX_MUTED` of them, its line muted as a mended line is (see
    :func:`parse`): the definitions after it keep their structure, and the chunk that holds
    it is flagged. None when there is no such bracket, or blanking does not leave less damage
    (``damage``: the tree's, as measured already)."""
    work = bytearray(doc.data)
    muted: list[int] = []
    for _ in range(MAX_MUTED):
        token = _swallowing_stray(tree)
        if token is None:
            break
        work[token.start_byte : token.end_byte] = b" " * (token.end_byte - token.start_byte)
        tried = _parse_until(parser, bytes(work), deadline)
        if tried is None:
            return None
        line = doc.line_of_byte(token.start_byte)
        found = find_damage(tried, (*muted, line), doc)
        if found.error_bytes >= damage.error_bytes:
            break
        tree, damage = tried, found
        muted.append(line)
    return Parse(tree, tuple(sorted(muted))) if muted else None


def _swallowing_stray(tree: Tree) -> Node | None:
    """The first ERROR's closing bracket when the ERROR begins with it and runs on past its
    line (see :func:`_strays_blanked`), else None."""
    stack = [tree.root_node] if tree.root_node.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error:
            first = node.child(0) if node.child_count else None
            if first is None or first.is_named or first.type not in _LIST_CLOSERS:
                return None
            return first if node.end_point.row > first.end_point.row else None
        stack.extend(reversed([c for c in node.children if c.has_error]))
    return None


def _opened_ratio(tree: Tree, damage: Damage, spec: CodeSpec) -> float:
    """``damage``'s share as the chunker measures it: through a root ERROR's children where the
    language opens one (``CodeSpec.opens_error_root``)."""
    if spec.opens_error_root and top_level_errors(tree.root_node):
        return find_damage(tree, open_root=True).ratio
    return damage.ratio


# Tokens that close a block: one left out makes the parser close the block at the end of the file.
_CLOSERS = frozenset({"}", ")", "]", "end", "fi", "done", "esac"})
# Those of blocks that hold definitions (a missing ``)`` or ``]`` closes an expression).
_BLOCK_CLOSERS = _CLOSERS - {")", "]"}


def _text_end(data: bytes) -> int:
    """Where ``data``'s text ends: past its last byte that is not ASCII whitespace (as
    ``bytes.rstrip`` would cut, without copying the file: a window from its end, doubled until
    it holds text; a Markdown fence's copy of its document is mostly blanks)."""
    end, window = len(data), 4096
    while end:
        start = max(end - window, 0)
        kept = data[start:end].rstrip(b" \t\n\r\x0b\x0c")
        if kept:
            return start + len(kept)
        end, window = start, window * 2
    return 0


def _at_end(node: Node, text_end: int) -> bool:
    """Whether ``node`` is a MISSING token the parser supplied after the text's end: a closer
    left out somewhere above, which closed its block at the end of the file."""
    return node.is_missing and node.start_byte >= text_end


def _missing_at_end(tree: Tree, doc: Document) -> Node | None:
    """The MISSING node at the very end of ``doc``'s text (:func:`_at_end`), or None."""
    root = tree.root_node
    if not root.has_error:
        return None
    text_end = _text_end(doc.data)
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if _at_end(node, text_end):
            return node
        if not node.is_error:
            stack.extend(child for child in node.children if child.has_error)
    return None


def _unclosed_block(parser: Parser, doc: Document, closer: bytes, deadline: float) -> Node | None:
    """The block a closer left out above would have closed, in a file the parser read whole as
    one ERROR rather than closing that block at the end (``CodeSpec.unclosed_closer``): the
    block that ``closer`` written after the text closes, when that reads the file with no more
    damage than the fallback allows (the tree is of the text and the closer: its nodes in the
    text keep their offsets)."""
    text_end = _text_end(doc.data)
    tried = _parse_until(parser, doc.data[:text_end] + b"\n" + closer + b"\n", deadline)
    if tried is None or tried.root_node.is_error or find_damage(tried).ratio > ERROR_FALLBACK_RATIO:
        return None
    token = tried.root_node.descendant_for_byte_range(text_end + 1, text_end + 1 + len(closer))
    block = token.parent if token is not None and token.type == closer.decode() else None
    return block if block is not None and block.start_byte < text_end else None


def _close_early(
    parser: Parser, doc: Document, tree: Tree, block: Node, comment: tuple[bytes, ...], deadline: float
) -> Parse | None:
    """The tree with one line of ``block`` mended (see :func:`_mends`), when that leaves no
    closer missing at the end and less damage than before; None otherwise.

    The parser closes a block whose closer was left out at the end of the file, so every later
    definition is read into it (``f.g``, ``f.h``). Lines tried, in order (:func:`_slip_lines`):
    those with an odd quote or an unbalanced round or square bracket (a typo), then the opening
    lines of blocks closed by a closer indented less than they are (where a closer went missing,
    the next one out closed the block). Without the mended line the rest nests as written; that
    line's chunk is flagged. Brace-only suspects and the block's own first line are not tried:
    on copies of the samples with one closer deleted or one stray character added, they mended
    more files but left some with fewer definitions than no mend at all; these candidates never
    did. Without a mend, :func:`find_damage` flags the block to the end."""
    before = find_damage(tree).error_bytes
    tries = min(_ROUND_TRIES, _REPAIR_BYTES // max(len(doc.data), 1))
    for line in _slip_lines(doc, block, comment[0]):
        start, end = doc.line_start(line), doc.line_end(line)
        for mended in _mends(doc.data[start:end], comment):  # type: ignore[arg-type]
            if tries <= 0:
                return None
            tries -= 1
            trial = bytearray(doc.data)
            trial[start:end] = mended
            tried = _parse_until(parser, bytes(trial), deadline)
            if tried is None:
                return None  # out of time
            found = find_damage(tried)
            # Kept only when the rest parses: heavier damage is the repair's below (on the tree as read).
            parses = found.ratio <= ERROR_FALLBACK_RATIO and _missing_at_end(tried, doc) is None
            if parses and found.error_bytes < before:
                return Parse(tried, (line,))
    return None


def _slip_lines(doc: Document, block: Node, comment: bytes) -> list[int]:
    """Where the closer missing at the end of ``block`` likely went: see :func:`_close_early`."""
    first, last = block.start_point.row + 1, doc.line_count
    typos = [line for rank, line in sorted(_ranked(doc, doc.data, first, last, comment)) if rank < 2]
    early: list[int] = []
    stack: list[Node] = [block]
    while stack and len(early) < _SUSPECTS:
        node = stack.pop()
        closer = node.children[-1] if node.child_count > 1 else None
        # (A closer past the text is the one :func:`_unclosed_block` wrote after it.)
        if closer is not None and not closer.is_missing and closer.type in _CLOSERS and closer.start_byte < len(doc.data):
            opens, closes = node.start_point.row + 1, closer.start_point.row + 1
            if closes > opens and _indent(doc, closes) < _indent(doc, opens):
                early.append(opens)
        stack.extend(reversed(node.named_children))
    return list(dict.fromkeys([*typos[:_SUSPECTS], *sorted(early)]))


def _indent(doc: Document, line: int) -> int:
    """Width of non-blank ``line``'s leading spaces and tabs (a tab counts one)."""
    return doc.text_start(line) - doc.line_start(line)


def _commented(data: bytes, macros: tuple[str, ...]) -> bytes:
    """``data`` with each of ``macros`` that stands alone on its line written as a block comment
    of its length (see ``CodeSpec.comment_macros``); ``data`` itself when it holds none. (The
    macro's own ``#ifndef``/``#define`` lines and comments that name it are left as they are.)"""
    if not any(macro.encode("ascii") in data for macro in macros):
        return data
    return _macro_pattern(macros).sub(lambda m: m[1] + b"/*" + b" " * (len(m[2]) - 4) + b"*/" + m[3], data)


@lru_cache(maxsize=8)
def _macro_pattern(macros: tuple[str, ...]) -> re.Pattern[bytes]:
    if any(len(macro) < 4 for macro in macros):  # ``/*  */`` must fit in its place
        raise ValueError(f"comment_macros must be 4 characters or more: {macros}")
    names = b"|".join(re.escape(m.encode("ascii")) for m in macros)
    # (A comment may follow it: ``G_BEGIN_DECLS /* for C++ */``.)
    return re.compile(rb"^([ \t]*)(" + names + rb")([ \t]*;?[ \t]*(?:/\*.*?\*/[ \t]*|//.*?)?\r?)$", re.MULTILINE)


# ``class EXPORT_MACRO Name`` (or ``struct``, ``union``; the macro may take arguments) where a
# class head follows the name: its base list or its body (``final`` is no name).
_CLASS_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+((?=[A-Z0-9_]*[A-Z])[A-Z_][A-Z0-9_]{2,}(?:\([^()\n]*\))?)(?=[ \t\r\n]+"
    rb"(?!final\b)[A-Za-z_]\w*(?:<[^;{}]*>)?[ \t\r\n]*(?:final\b[ \t\r\n]*)?(?::(?!:)|\{))"
)


def _class_macros_blanked(data: bytes) -> bytes:
    """``data`` with each export macro of a class head (``CodeSpec.class_macros``) written as
    spaces of its length; ``data`` itself when it holds none."""
    if b"class" not in data and b"struct" not in data and b"union" not in data:
        return data
    return _CLASS_MACRO.sub(lambda m: m[0][: m.start(1) - m.start(0)] + b" " * len(m[1]), data)


def _labels_rewritten(data: bytes, words: dict[str, str]) -> bytes:
    """``data`` with each of ``words`` in a class's access label (Qt's ``public slots:``,
    ``signals:``; see ``CodeSpec.label_words``) written as what it stands for, padded with
    spaces to its length; ``data`` itself when no label holds one."""
    out: bytearray | None = None
    for found in _label_pattern(tuple(words)).finditer(data):
        word = found[1]
        meant = words[word.decode("ascii")].encode("ascii")
        if len(meant) > len(word):
            continue
        if out is None:
            out = bytearray(data)
        out[found.start(1) : found.end(1)] = meant.ljust(len(word))
    return bytes(out) if out is not None else data


@lru_cache(maxsize=8)
def _label_pattern(words: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(w.encode("ascii")) for w in words)
    return re.compile(rb"^[ \t]*(?:(?:public|protected|private)[ \t]+)?(" + names + rb")[ \t]*:(?!:)", re.MULTILINE)


def _annotations_blanked(data: bytes, pattern: str) -> bytes:
    """``data`` with every name that ``pattern`` matches (``CodeSpec.annotations``: SAL's
    ``_In_``, ``_Out_writes_(n)``) written as spaces, with its parenthesised argument if any,
    every offset kept (not on preprocessor lines); ``data`` itself when it holds none. A line
    of annotations alone (``_Success_(return != 0)`` above a function) is written as a line
    comment instead: the definition below takes it in, as written, as it takes a comment."""
    spans = []
    for found in _annotation_pattern(pattern).finditer(data):
        line = data.rfind(b"\n", 0, found.start()) + 1
        if data[line : found.start()].lstrip().startswith(b"#"):
            continue  # a preprocessor line (an include guard's name, a macro's own definition)
        end = found.end()
        if found[1] is not None:  # ``(`` follows: the argument goes too, if it closes
            close = _closing(data, found.start(1))
            if close < 0:
                continue
            end = close + 1
        spans.append((found.start(), end))
    if not spans:
        return data
    out = _spaced(data, None, spans)
    for start, end in spans:
        begin = out.rfind(b"\n", 0, start) + 1
        stop = out.find(b"\n", start)
        if end - start >= 2 and not out[begin : stop if stop >= 0 else len(out)].strip():
            out[start : start + 2] = b"//"
    return bytes(out)


@lru_cache(maxsize=8)
def _annotation_pattern(pattern: str) -> re.Pattern[bytes]:
    """``pattern`` then its ``(`` if one follows, as group 1. (Not in a group: that, or a
    look-behind first, costs the search its scan for the pattern's first character, 14 ms
    against 1 ms over an 850 KB header.)"""
    return re.compile(pattern.encode("ascii") + rb"(?:[ \t]*(\())?")


def _argument_macros_blanked(data: bytes, macros: tuple[str, ...]) -> bytes:
    """``data`` with each of ``macros`` written around a parameter list in double parentheses
    (``OF((z_streamp strm, int flush))``, see ``CodeSpec.argument_macros``) read as the list
    alone: the name and the outer parentheses as spaces (``   (z_streamp strm, int flush) ``),
    every offset kept; ``data`` itself when it holds none."""
    if not any(macro.encode("ascii") in data for macro in macros):
        return data
    out: bytearray | None = None
    for found in _argument_macro_pattern(macros).finditer(data):
        outer = found.end() - 2  # the first of the two ``(``
        close = _closing(data, outer + 1)  # the inner list's ``)``
        if close < 0:
            continue
        after = close + 1
        while after < len(data) and data[after] in b" \t\r\n":
            after += 1
        if after >= len(data) or data[after] != ord(")"):
            continue  # ``OF((a), b)``: no list in double parentheses
        if out is None:
            out = bytearray(data)
        out[found.start() : outer + 1] = b" " * (outer + 1 - found.start())
        out[after] = ord(" ")
    return bytes(out) if out is not None else data


def _enum_macros_rewritten(data: bytes, macros: tuple[str, ...]) -> bytes:
    """``data`` with each of ``macros`` around an enum's type and name (Foundation's
    ``typedef NS_ENUM(NSInteger, Tier)``, see ``CodeSpec.enum_macros``) read as the enum it
    declares: ``enum`` then spaces up to the name, which keeps its offset, and spaces for the
    ``)`` (``enum                       Tier ``: the ``typedef`` goes too, as it would name no
    type); ``data`` itself when it holds none."""
    if not any(macro.encode("ascii") in data for macro in macros):
        return data
    out: bytearray | None = None
    for found in _enum_macro_pattern(macros).finditer(data):
        start = found.start()
        out = _spaced(data, out, [(start + 4, found.start("name")), (found.end("name"), found.end())])
        out[start : start + 4] = b"enum"
    return bytes(out) if out is not None else data


@lru_cache(maxsize=8)
def _enum_macro_pattern(macros: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(m.encode("ascii")) for m in macros)
    return re.compile(
        rb"\b(?:typedef\s+)?(?:" + names + rb")\s*\(\s*[A-Za-z_][\w \t*]*?\s*,\s*(?P<name>[A-Za-z_]\w*)\s*\)"
    )


@lru_cache(maxsize=8)
def _argument_macro_pattern(macros: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(m.encode("ascii")) for m in macros)
    return re.compile(rb"\b(?:" + names + rb")[ \t]*\(\(")


_MAX_LIST_BYTES = 4096  # a parameter list longer than this is no list (an unclosed bracket)
# A parameter list's ``)`` then a name of the implementation's or in capitals, after a short
# prefix too (``Py_GCC_ATTRIBUTE``; see ``CodeSpec.trailing_macros``).
_TRAILING_START = re.compile(rb"\)[ \t\r\n]*(?:__\w|[A-Z][A-Z0-9_]{2}|[A-Z][a-z]{1,3}_[A-Z])")
_TRAILING_NAME = re.compile(rb"(?:__\w+|(?:[A-Z][a-z]{1,3}_)?[A-Z][A-Z0-9_]{2,})\b")
_GRAMMAR_KNOWS = frozenset({b"__attribute__", b"__attribute", b"__asm__", b"__asm", b"__declspec"})
# Words before ``(`` that make it no parameter list (``return (int) EOF;``, ``if (x) FAIL;``).
_NOT_DECLARATORS = frozenset({b"return", b"sizeof", b"if", b"while", b"for", b"switch", b"case", b"do", b"else"})
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _trailing_macros_blanked(data: bytes) -> bytes:
    """``data`` with the macros between a prototype's parameter list and its ``;`` (glibc's
    ``extern int remove (const char *__filename) __THROW;``, see ``CodeSpec.trailing_macros``)
    written as spaces, line breaks kept; ``data`` itself when it holds none. Only after a list
    whose ``(`` follows a name (a cast's does not), and only when nothing but such macros (and
    the ``__attribute__``/``__asm`` the grammar reads) stands before the ``;``."""
    out: bytearray | None = None
    size = len(data)
    for found in _TRAILING_START.finditer(data):
        opening = _opening(data, found.start())
        if opening < 0:
            continue
        word = _word_before(data, opening)
        if not word or word in _NOT_DECLARATORS:
            continue
        at, spans = found.start() + 1, []
        while True:
            while at < size and data[at] in b" \t\r\n":
                at += 1
            if at >= size or data[at] == 59:  # the ``;``
                break
            name = _TRAILING_NAME.match(data, at)
            if name is None:
                spans = []
                break
            end = after = name.end()
            while after < size and data[after] in b" \t\r\n":
                after += 1
            if after < size and data[after] == 40:  # its arguments (``__nonnull ((1, 2))``)
                close = _closing(data, after)
                if close < 0:
                    spans = []
                    break
                end = close + 1
            if name[0] not in _GRAMMAR_KNOWS:
                spans.append((at, end))
            at = end
        if at >= size or not spans:
            continue
        out = _spaced(data, out, spans)
    return bytes(out) if out is not None else data


def _spaced(data: bytes, out: bytearray | None, spans: list[tuple[int, int]]) -> bytearray:
    """``out`` (a copy of ``data`` made on first use) with ``spans`` written as spaces, their
    line breaks kept: the same lines and byte offsets, read by the parser alone."""
    if out is None:
        out = bytearray(data)
    for start, end in spans:
        out[start:end] = re.sub(rb"[^\r\n]", b" ", data[start:end])
    return out


# A word of a declaration's head: a name (``ns::Type`` too) with its parenthesised argument if
# any (``Py_DEPRECATED(3.9)``, ``PyAPI_FUNC(int)``), or pointer marks.
_HEAD_TOKEN = re.compile(
    rb"[ \t\r\n]*(?:([A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)([ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?|([*&]+))"
)
# A macro's name: in capitals (``SQLITE_API``, ``XMLCALL``), or capitals after a short prefix
# (``Py_DEPRECATED``); 3 characters or more, a letter among them.
_MACRO_NAME = re.compile(rb"(?:[A-Z][a-z]{1,3}_)?(?=[A-Z0-9_]*[A-Z])[A-Z_][A-Z0-9_]{2,}")
# More of a head after a word's argument: a word or a pointer's mark.
_HEAD_GOES_ON = re.compile(rb"[ \t\r\n]*[A-Za-z_*&]")
# Words after a member's parameters (``f() override;``), where a name would be.
_NOT_NAMES = frozenset({b"override", b"final", b"noexcept"})
# What may follow a declarator's name: its parameters, the end, an array, a value, the next.
_DECLARATOR_ENDS = frozenset(b"(;[=,")
_SPECIFIERS = frozenset(
    b"const volatile restrict __restrict static extern inline __inline __inline__ register typedef _Noreturn"
    b" __extension__ constexpr virtual explicit".split()
)
_BUILT_IN_TYPES = frozenset(b"void char short int long float double signed unsigned _Bool bool".split())
_TAGS = frozenset({b"struct", b"union", b"enum"})
_MAX_HEAD_BYTES = 400  # a declaration's head longer than this is none (or is left as it is)
# The code line before a declaration ends one (``;``, a block's brace, a comment's end) or is a
# preprocessor line; its trailing comment left out.
_HEAD_LINE = re.compile(rb"^[ \t]*(?=[A-Za-z_])", re.MULTILINE)
# Words that make a line a statement, not a declaration (``else LOG_ERROR(x);``).
_STATEMENT_WORDS = _NOT_DECLARATORS | frozenset(
    b"goto break continue default new delete throw using namespace template typename class operator".split()
)


def _head_macros_blanked(
    data: bytes, never_types: frozenset[str] = frozenset(), keywords: frozenset[str] = frozenset()
) -> bytes:
    """``data`` with the macros in a declaration's head (SQLite's ``SQLITE_API int
    sqlite3_open(...);``, zlib's ``ZEXTERN int ZEXPORT deflate``, libxml2's ``XMLPUBFUN xmlChar *
    XMLCALL xmlStrdup``, see ``CodeSpec.head_macros``) written as spaces, line breaks kept;
    ``data`` itself when it holds none. Only where the head's type is known (:func:`_head_spans`):
    ``DWORD API f(void);`` is left as it is unless ``API`` is one of ``never_types``
    (``WINAPI``), ``FILE *f;`` has no macro. Words of ``keywords`` (``CodeSpec.head_keywords``)
    are the grammar's own, read as ``static`` is, never a macro."""
    out: bytearray | None = None
    known = frozenset(name.encode("ascii") for name in never_types)
    own = frozenset(name.encode("ascii") for name in keywords)
    for line in _HEAD_LINE.finditer(data):
        if not _declaration_starts(data, line.start()):
            continue
        spans = _head_spans(data, line.end(), known, own)
        if spans:
            out = _spaced(data, out, spans)
    if known:
        # A function pointer's declarator, ``(WINAPI *PTHREAD_START_ROUTINE)``: the grammar
        # read the macro as a type, and the declaration around it as errors.
        spans = [found.span(1) for found in _pointer_macros(known).finditer(data)]
        if spans:
            out = _spaced(data, out, spans)
    return bytes(out) if out is not None else data


@lru_cache(maxsize=8)
def _pointer_macros(known: frozenset[bytes]) -> re.Pattern[bytes]:
    """One of ``known`` opening a function pointer's declarator: ``(WINAPI *``."""
    return re.compile(rb"\([ \t]*(" + b"|".join(sorted(known)) + rb")[ \t]*\*")


# Head macros alone before a declaration on its line (``SQLITE_API ``, ``Py_DEPRECATED(3.9) ``).
_MACROS_BEFORE = re.compile(
    rb"[ \t]*((?:(?:[A-Z][a-z]{1,3}_)?(?=[A-Z0-9_]*[A-Z])[A-Z_][A-Z0-9_]{2,}"
    rb"(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]+)+)"
)


def written_start(data: bytes, start: int) -> int:
    """Where the declaration the parser read from ``start`` begins as written: at the macros
    before it on its line, which :func:`_head_macros_blanked` read as spaces (``SQLITE_API``
    before ``int sqlite3_open(...)``: a signature shows them), else ``start``."""
    line = data.rfind(b"\n", 0, start) + 1
    if line == start:
        return start
    found = _MACROS_BEFORE.fullmatch(data, line, start)
    return found.start(1) if found is not None else start


# A C++ class's access label: members follow. (Qt's ``public slots:`` and ``signals:`` are read
# as ``public:`` before this is asked: ``CodeSpec.label_words``.)
_ACCESS_LABEL = re.compile(rb"(?:public|protected|private)[ \t]*:")


def _declaration_starts(data: bytes, start: int) -> bool:
    """Whether a declaration may start on the line at ``start``: the code line before it ends
    one (``;``, ``{``, ``}``) or a comment (``*/``), is an access label (``protected:``), a
    comment or a preprocessor line (not continued), or there is none."""
    at = start - 1
    while at > 0:
        begin = data.rfind(b"\n", 0, at) + 1
        line = data[begin:at].strip()
        if line:
            if line.startswith((b"//", b"#")):
                return not line.endswith(b"\\")
            if line.endswith(b"*/") and b"/*" not in line:
                return True  # a block comment's last line
            code = _TRAILING_COMMENT.sub(b"", line)
            return not code or code.endswith((b";", b"{", b"}")) or _ACCESS_LABEL.fullmatch(code) is not None
        at = begin - 1
    return True


def _head_spans(
    data: bytes, start: int, never_types: frozenset[bytes] = frozenset(), keywords: frozenset[bytes] = frozenset()
) -> list[tuple[int, int]]:
    """The macros of the declaration head at ``start`` (its words up to the declarator's name and
    what follows it, :data:`_DECLARATOR_ENDS`), as (start, end) offsets; [] when there is none
    or the head's type is not known. The type is a built-in one or a tag's (``struct s``), else
    the one word not written as a macro (``sqlite3_int64``, ``xmlChar``), else the one word in
    capitals left when those of ``never_types`` are set aside (``DWORD WINAPI f``), else the word
    right before a ``*`` (``CURL *``). A word in capitals before a declarator (``BOOL ok;``,
    ``DWORD API f``) may be the type: then nothing is blanked. A word's argument is read with it
    when more of the head follows (``PyAPI_FUNC(int) f``), else it is the name's parameters.

    A name reserved to the implementation (``__owur``, ``__m128i``) is a macro where the type
    is known otherwise (``__owur int f``, ``__owur X509 *f``), else it may be the type; one of
    ``keywords`` (CUDA's ``__global__``, ``__launch_bounds__(256)``) is the grammar's own, passed
    over as ``static`` is.

    Left as they are, as no such head: a name in capitals (X11's ``CARD32 mask B32;``, a
    macro after the name), a name after parameters (``lzma_end(...) lzma_nothrow;``, ``f()
    override;``), and a line break anywhere but before the name (a field macro above a field:
    ``PyObject_HEAD`` then ``WINDOW *win;``; a line of macros alone is read by ``macro_lines``,
    whose parse falls back on the file as written where that does better)."""
    words: list[tuple[int, int, bytes, bool]] = []  # start, end, name, whether a ``*`` follows it
    known_type = tag = False
    last = b""  # the last token: a word, a pointer's mark, or a keyword
    tokens, broken = 0, -1  # tokens read; the first one after a line break
    name_at = -1  # the token that was last a word
    at, limit = start, min(len(data), start + _MAX_HEAD_BYTES)
    while at < limit:
        token = _HEAD_TOKEN.match(data, at, limit)
        if token is None:
            break
        name = token[1]
        if broken < 0 and b"\n" in data[at : token.start(1 if name else 3)]:
            broken = tokens
        tokens += 1
        if name is None:  # pointer marks
            if last == b"word":
                words[-1] = (*words[-1][:3], True)
            at, last = token.end(), b"*"
            continue
        if token[2] is not None and not _HEAD_GOES_ON.match(data, token.end(), limit):
            if name in _GRAMMAR_KNOWS:
                return []  # ``__attribute__((deprecated));``: the name came before it
            at = token.end(1)  # ``f(void);``: the name and its parameters
            words.append((token.start(1), at, name, False))
            last, name_at = b"word", tokens - 1
            break
        at, last = token.end(), b"keyword"
        if name in _STATEMENT_WORDS:
            return []
        if tag:
            tag, known_type = False, True  # the tag's name is the type
        elif name in _TAGS:
            tag = True
        elif name in _BUILT_IN_TYPES:
            known_type = True
        elif name not in _SPECIFIERS and name not in _GRAMMAR_KNOWS and name not in keywords:
            words.append((token.start(1), token.end(), name, False))
            last, name_at = b"word", tokens - 1
    while at < len(data) and data[at] in b" \t\r\n":
        at += 1
    if at >= len(data) or data[at] not in _DECLARATOR_ENDS or last != b"word" or tag:
        return []
    declarator = words.pop()
    if data[declarator[1] - 1] == 41 or declarator[2] in _NOT_NAMES or _MACRO_NAME.fullmatch(declarator[2]):
        return []  # a macro's call (``PNG_EXPORT(...);``), a name after parameters, a macro
    if broken >= 0 and broken != name_at:
        return []  # a line break but before the name (a line of macros alone is ``macro_lines``')
    sure = [w[:2] for w in words if w[2] in never_types]  # macros whatever else the head holds
    words = [w for w in words if w[2] not in never_types]
    macros = [w for w in words if _MACRO_NAME.fullmatch(w[2])]
    # A name reserved to the implementation (``__owur``, ``__m128i``) is a macro or a type.
    reserved = [w for w in words if w not in macros and w[2].startswith(b"__")]
    others = [w for w in words if w not in macros and w not in reserved]
    if not (macros or sure or reserved) or any(data[w[1] - 1] == 41 and not w[2][:1].isupper() for w in others + reserved):
        return []
    either = macros + reserved  # each a macro, unless it is the type
    if known_type:
        return sure + [w[:2] for w in either] if not others else []
    if len(others) == 1:
        # ``SQLITE_API sqlite3_int64 f``: the one word not in capitals is the type. Not when a
        # reserved name is there too: the word may be a keyword (``friend const __Base* f``).
        return sure + [w[:2] for w in macros] if not reserved else []
    if others:
        return []
    if len(either) == 1:
        return sure  # ``DWORD WINAPI f``: ``WINAPI`` is never the type, so ``DWORD`` is
    pointed = [w for w in either if w[3]]
    if not pointed:
        return []  # ``DWORD API f``: which is the type is not known
    return sure + [w[:2] for w in either if w is not pointed[0]]  # ``__owur X509 *f``


def _word_before(data: bytes, at: int) -> bytes:
    """The word that ends before ``at``, spaces between allowed (b"" when none): read back a
    byte at a time, as a regex search would try every start in the window before it (25 µs a
    call, a third of chunking GCC's ``avx512fintrin.h``, whose casts all look like lists)."""
    end = at
    while end > 0 and data[end - 1] in b" \t\r\n":
        end -= 1
    begin = end
    while begin > 0 and data[begin - 1] in _WORD_BYTES:
        begin -= 1
    return data[begin:end]


def _opening(data: bytes, close: int) -> int:
    """Offset of the ``(`` the ``)`` at ``close`` closes, or -1 (not within
    :data:`_MAX_LIST_BYTES`, or a ``;``, ``{`` or ``}`` first: no parameter list)."""
    depth = 0
    for at in range(close, max(-1, close - _MAX_LIST_BYTES), -1):
        char = data[at]
        if char == 41:  # )
            depth += 1
        elif char == 40:  # (
            depth -= 1
            if depth == 0:
                return at
        elif char in (59, 123, 125):  # ; { }
            return -1
    return -1


def _closing(data: bytes, start: int) -> int:
    """Offset of the ``)`` that closes the ``(`` at ``start``, or -1 (not within
    :data:`_MAX_LIST_BYTES`, or a ``;`` or ``{`` first: no parameter list)."""
    depth = 0
    for at in range(start, min(len(data), start + _MAX_LIST_BYTES)):
        char = data[at]
        if char == 40:  # (
            depth += 1
        elif char == 41:  # )
            depth -= 1
            if depth == 0:
                return at
        elif char in (59, 123):  # ; {
            return -1
    return -1


# An upper-case identifier alone on its line (4+ characters, a letter among them), maybe with
# a comment after it: ``_GLIBCXX_BEGIN_NAMESPACE_VERSION``, ``Q_OBJECT``, ``_GLIBCXX20_CONSTEXPR``.
# So is a call of one (``_GLIBCXX11_DEPRECATED_SUGGEST("std::mem_fn")`` above a template's
# function, OpenSSL's ``DECLARE_ASN1_FUNCTIONS(X509)``; arguments on the line, no ``;``).
_MACRO_LINE = re.compile(
    rb"^([ \t]*)((?=[A-Z0-9_]*[A-Z])[A-Z_][A-Z0-9_]{3,}(\((?:[^()\n]|\([^()\n]*\))*\))?)"
    rb"([ \t]*(?:/\*(?:(?!\*/).)*\*/[ \t]*|//[^\n]*)?\r?)$",
    re.MULTILINE,
)
# A declarator's start (``parse_args(``, ``*make_buffer (``, ``Matrix::operator*(``): the
# line above it is then a return type (``BOOL`` over ``init_window (...)``), kept.
_DECLARATOR_START = re.compile(rb"[ \t]*[*&]*[ \t]*[A-Za-z_][\w:~]*[ \t]*\(")


def _macro_lines_commented(data: bytes) -> bytes:
    """``data`` with each upper-case identifier that stands alone on its line written as a line
    comment of its length (see ``CodeSpec.macro_lines``), unless the next line opens a function
    declarator (then it is the function's return type); ``data`` itself when none is.

    A line comment, not a block comment: such a line inside a block comment (a ``NOTE`` heading)
    must not close it."""
    if not _MACRO_LINE.search(data):
        return data
    rewritten = False

    def comment(m: re.Match[bytes]) -> bytes:
        nonlocal rewritten
        declarator = _DECLARATOR_START.match(data, m.end() + 1) and not _MACRO_LINE.match(data, m.end() + 1)
        if declarator or _continues(data, m.start(), m.end()):
            return m[0]
        if m[3] and _opens_body(data, m.end()):
            return m[0]  # a function a macro names (``PHP_FUNCTION(strlen)``, gtest's ``TEST(A, b)``) over its body
        rewritten = True
        return m[1] + b"//" + b" " * (len(m[2]) - 2) + m[4]

    read = _MACRO_LINE.sub(comment, data)
    return read if rewritten else data


# A line of code that ends open (a parameter list, an operator, a macro's ``\``), and one that
# starts by going on with what came before (``);``, ``| FLAG``).
_OPEN_ENDS = frozenset(b",(|&+-*/%^=!~?\\")
_OPEN_STARTS = frozenset(b"),;|&+-?")
_TRAILING_COMMENT = re.compile(rb"[ \t]*(?://[^\n]*|/\*(?:(?!\*/).)*\*/)[ \t]*$")


def _opens_body(data: bytes, end: int) -> bool:
    """Whether the first line of code after ``end`` starts with ``{``."""
    after = data[end : end + 512].lstrip()
    return after.startswith(b"{")


def _continues(data: bytes, start: int, end: int) -> bool:
    """Whether the line ``data[start:end]`` is part of code around it rather than a macro of
    its own: the code line before it ends open (``DeviceIntPtr /* keybd */,`` above a lone
    ``CARD32`` parameter type, ``a |`` above an operand), or the line after it goes on with it
    (``);``). A comment line above it (a doc comment's ``*/``) says nothing."""
    at = start - 1  # the newline that ends the line before
    while at > 0:
        begin = data.rfind(b"\n", 0, at) + 1
        code = _TRAILING_COMMENT.sub(b"", data[begin:at].rstrip(b"\r")).strip()
        if code:
            if not code.endswith(b"*/") and not code.startswith((b"*", b"/*", b"//")) and code[-1] in _OPEN_ENDS:
                return True
            break
        at = begin - 1
    stop = data.find(b"\n", end + 1)
    after = data[end + 1 : stop if stop >= 0 else len(data)].lstrip()
    return bool(after) and after[0] in _OPEN_STARTS


def _parse_until(parser: Parser, data: bytes, deadline: float) -> Tree | None:
    """``parser``'s tree of ``data``, or None when the clock passes ``deadline`` first (the
    progress callback is only called when the source is read through a callback)."""
    view = memoryview(data)
    parsed = False

    def read(offset: int, _point: object) -> memoryview | bytes:
        # Views, not copies, while parsing: py-tree-sitter 0.26 never frees what ``read``
        # returns, and while recovering from an error the parser reads at almost every token
        # (34,652 reads of a damaged 217 KB Perl module: 2 GB of 64 KB copies, kept for the
        # life of the process, a few MB of views). Once parsed, ``node.text`` reads through
        # here too and takes bytes only (a view crashes it).
        return bytes(view[offset : offset + 65536]) if parsed else view[offset : offset + 65536]

    try:
        tree = parser.parse(read, progress_callback=lambda *_: time.monotonic() > deadline)
    except ValueError:  # "Parsing failed": the callback cancelled it
        parser.reset()
        return None
    parsed = True
    # Such a tree keeps no source: ``node.text`` would call ``read`` again (slowly), so the
    # chunker takes node text from its document (``_Run._text``).
    return tree


def _garbage(doc: Document, damage: Damage, comment: bytes) -> bool:
    """Whether the first damaged region looks like garbage rather than code with a typo: more
    than :data:`_GARBAGE_SHARE` of its non-blank lines are suspects of the likelier kinds (a
    block's usual opening or closing brace is not counted). Mending one line cannot help then,
    and each try of a parse of garbage is slow."""
    first, last = damage.ranges[0]
    last = min(last, doc.line_count)
    lines = sum(1 for line in range(first, last + 1) if not doc.is_blank(line))
    unusual = sum(1 for rank, _ in _ranked(doc, doc.data, first, last, comment) if rank < 3)
    return unusual > max(8, lines * _GARBAGE_SHARE)


def _suspects(doc: Document, data: bytes | bytearray, first: int, last: int, comment: bytes) -> list[int]:
    """The lines of ``first..last`` whose brackets or quotes do not balance, the likeliest typos
    first (see :func:`_ranked`)."""
    return [line for _, line in sorted(_ranked(doc, data, first, last, comment))]


def _ranked(doc: Document, data: bytes | bytearray, first: int, last: int, comment: bytes) -> list[tuple[int, int]]:
    """(rank, line) of each suspect line of ``first..last``, its code only (a comment after it
    left out when the quotes before it pair up): 0, an odd quote (Python's triple quotes left
    out: they open and close docstrings on lines of their own); 1, an unbalanced ``(`` or
    ``[``; 2, a brace that does not open a block at the line's end or close one at its start;
    3, any other unbalanced brace (a block opening or closing is the usual reason)."""
    ranked: list[tuple[int, int]] = []
    for line in range(first, min(last, doc.line_count) + 1):
        text = bytes(data[doc.line_start(line) : doc.line_end(line)])
        if comment:
            cut = text.find(comment)
            if cut >= 0 and not any(text[:cut].count(q) % 2 for q in _QUOTES):
                text = text[:cut]  # "# don't" holds no typo
        bare = _TRIPLE.sub(b"", text)
        if any(bare.count(q) % 2 for q in _QUOTES):
            ranked.append((0, line))
        elif text.count(b"(") != text.count(b")") or text.count(b"[") != text.count(b"]"):
            ranked.append((1, line))
        elif text.count(b"{") != text.count(b"}"):
            code = text.strip()
            usual = code.endswith(b"{") and code.count(b"{") == 1 or code.startswith(b"}") and code.count(b"}") == 1
            ranked.append((3 if usual else 2, line))
    return ranked


def _mends(line: bytes, comment: tuple[bytes, bytes]) -> list[bytes]:
    """Ways to mend a suspect ``line``, each as long as it and never blank (a blank line would
    belong to no node, so to no chunk), lightest first: one quote of a kind the line holds an
    odd number of (outside triple quotes), blanked; one round or square bracket that no partner
    closes or opens, blanked; one unpaired brace, blanked (each kind a character at a time, up
    to :data:`_STRAYS_TRIED`); then the whole line as a comment, when it can hold the comment's
    marks. Blanking one character keeps the rest of the line's structure (a method's signature
    and its ``{``)."""
    quotes = _quote_positions(line)
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
    for strays in (quotes, sorted(brackets), sorted(braces)):
        for i in strays[:_STRAYS_TRIED]:
            blanked = line[:i] + b" " + line[i + 1 :]
            if blanked.strip():
                mends.append(blanked)
    opener, closer = comment
    if len(line) >= len(opener) + len(closer):
        mends.append(opener + b" " * (len(line) - len(opener) - len(closer)) + closer)
    return mends


def _quote_positions(line: bytes) -> list[int]:
    """Where ``line`` holds a quote of a kind it holds an odd number of (outside triple quotes)."""
    bare = _TRIPLE.sub(b"   ", line)  # same length: positions hold
    return [i for q in _QUOTES if bare.count(q) % 2 for i in range(len(bare)) if bare[i] == q[0]]


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


def find_damage(
    tree: Tree, muted: tuple[int, ...] = (), doc: Document | None = None, *, open_root: bool = False
) -> Damage:
    """Collect the outermost ERROR/MISSING nodes (iteratively: deep trees must not recurse),
    and the ``muted`` lines of ``doc`` (mended to parse the rest: see :func:`parse`).

    With ``open_root``, a root that is itself an ERROR, or an ERROR child of the root (below a
    licence comment: :func:`top_level_errors`), is read as the chunker reads it, through its
    children: C headers whose ``#ifdef __cplusplus`` / ``extern "C" {`` blocks leave braces
    the grammar cannot pair make the whole file one ERROR, though the structs and functions
    under it are whole, sound subtrees. Only its stray children (tokens such as ``{``,
    ``#ifdef`` or ``extern``, bare leaves, MISSING nodes) and the errors inside its other
    children are damage then. (:func:`parse` decides its repairs on the plain measure.)

    With ``doc``, lines are those of the document (a node past its last line break is on its
    last line), and a closer missing at the very end of the text (a ``}``, ``end`` or ``fi``
    left out anywhere above: the parser closes the block at the end of the file) damages the
    whole block it should close, from its first line to the end: every definition after the
    slip was read into that block, so none of their chunks can be trusted. Its share of the
    bytes stays one byte: the text is sound, only its nesting is not, and falling back to
    fixed windows would lose more than it saves."""
    root = tree.root_node
    ranges: list[tuple[int, int]] = [(line, line) for line in muted]
    error_bytes = sum(doc.line_end(line) - doc.line_start(line) for line in muted) if doc is not None else 0
    last_line = doc.line_count if doc is not None else None
    text_end = _text_end(doc.data) if doc is not None else None
    early: list[Node] = []  # block closers supplied inside the text (see _misread)
    errors: list[Node] = []
    stack: list[Node] = [root] if root.has_error else []
    opened = top_level_errors(root) if open_root else []
    if opened:
        stack = [] if root.is_error else [c for c in root.children if c.has_error and not c.is_error]
    for error in opened:
        for child in error.children:
            if _stray(child):
                error_bytes += max(child.end_byte - child.start_byte, 1)
                if child.type not in _SOUND_STRAYS:
                    first, last = child.start_point.row + 1, child.end_point.row + 1
                    if last_line is not None:
                        first, last = min(first, last_line), min(last, last_line)
                    ranges.append((first, last))
            elif child.has_error:
                stack.append(child)
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            first, last = node.start_point.row + 1, node.end_point.row + 1
            if last_line is not None and text_end is not None:
                if _at_end(node, text_end) and node.parent is not None:
                    first, last = node.parent.start_point.row + 1, last_line
                elif node.is_missing and node.type in _BLOCK_CLOSERS:
                    early.append(node)
                elif node.is_error:
                    errors.append(node)
                first, last = min(first, last_line), min(last, last_line)
            ranges.append((first, last))
            error_bytes += max(node.end_byte - node.start_byte, 1)
            continue
        below = [child for child in node.children if child.has_error]
        if not below and ("string" in node.type or "quoted" in node.type):
            # A string whose error is its own, no ERROR or MISSING node under it (Elixir's
            # scanner marks a string left open so): its lines are damaged, by one byte (as a
            # closer missing at the end: the text may be sound, its reading is not). (C's
            # macros and Perl's barewords are marked so too, their text sound: not counted.)
            first, last = node.start_point.row + 1, node.end_point.row + 1
            if last_line is not None:
                first, last = min(first, last_line), min(last, last_line)
            ranges.append((first, last))
            error_bytes += 1
        stack.extend(below)
    if doc is not None and early and errors:
        ranges += _misread(doc, early, errors)
    ranges.sort()
    return Damage(tuple(ranges), error_bytes, max(root.end_byte, 1))


# A stray token whose text is sound: the ``};`` of a struct the parser's recovery left unreduced.
_SOUND_STRAYS = frozenset({";"})


def top_level_errors(root: Node) -> list[Node]:
    """The ERROR nodes a language that opens them (``CodeSpec.opens_error_root``) reads through:
    the root itself when it is one, else the root's ERROR children (a header's licence comment
    stands before the ERROR its include guard and ``extern "C" {`` make of the rest: jpeglib.h,
    libxml2's ``tree.h``)."""
    if root.is_error:
        return [root]
    if not root.has_error:
        return []
    return [child for child in root.children if child.is_error]


def top_level_nodes(root: Node, opens: bool) -> list[Node]:
    """The root's children, and in place of each ERROR among them its children where the
    language reads through them (``opens``; see :func:`top_level_errors`)."""
    if not opens or root.is_error or not root.has_error:
        return list(root.children)
    nodes: list[Node] = []
    for child in root.children:
        nodes.extend(child.children if child.is_error else (child,))
    return nodes


def _stray(node: Node) -> bool:
    """Whether a child of an ERROR root is no complete construct: a token (``{``, ``#ifdef``,
    ``extern``), a bare leaf (an identifier, a string) or a MISSING node. A comment is sound."""
    if node.is_missing:
        return True
    if "comment" in node.type:
        return False
    return not node.is_named or node.child_count == 0


def _starts_with_token(text: bytes, token: bytes) -> bool:
    """Whether ``text`` begins with ``token`` as a whole token (``end``, not ``endpoint``)."""
    if not text.startswith(token):
        return False
    after = text[len(token) : len(token) + 1]
    return not (token.isalpha() and (after.isalnum() or after == b"_"))


def _misread(doc: Document, early: list[Node], errors: list[Node]) -> list[tuple[int, int]]:
    """The lines read at the wrong nesting between a block closer the parser supplied inside
    the text and the last stray closer it then found unmatched (an ERROR that begins with the
    same token; each block closed early leaves one): the blocks were closed early, so
    everything after them up to their own closers (the methods of a class, say) was read
    outside them. Their text is sound, their breadcrumbs are not: such chunks are marked,
    though the bytes in error stay those of the tokens."""
    found: list[tuple[int, int]] = []
    for missing in early:
        token = missing.type.encode()
        strays = [
            e.end_point.row + 1
            for e in errors
            if e.start_byte >= missing.end_byte and _starts_with_token(doc.data[e.start_byte : e.end_byte].lstrip(), token)
        ]
        if strays:
            found.append((missing.start_point.row + 1, min(max(strays), doc.line_count)))
    return found
