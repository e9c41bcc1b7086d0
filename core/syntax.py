"""The syntax-aware chunker (cAST-style, on tree-sitter).

The steps, applied level by level from the file's root:

1. Read the level's children into *units*: a definition with its wrappers (decorators,
   ``export``, ``template<>``) and attached comments, or a loose statement. Units that share a
   line are fused, so every cut falls between lines.
2. A definition that fits the budget becomes one chunk.
3. A container that does not fit becomes a ``class_header`` chunk (signature, docstring, fields,
   a summary of member signatures) and its members are chunked as a level of their own, with the
   container's signature as their ``header`` and the header chunk as their parent.
4. A function that does not fit is packed statement by statement into parts under the budget,
   its signature repeated in the ``header`` of every part after the first (which holds it).
5. Loose statements are packed into ``module``/``statements`` chunks; with ``merge_siblings``,
   small definitions are packed together with their neighbours up to the budget.
6. A unit too big for any chunk is split by its child nodes, then by lines, then inside a line.

Sizes come from the document's span sizer (prefix sums over one tokenization), never from
re-measuring a growing span. Nothing here recurses per tree level without a depth bound.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from operator import sub
from typing import TYPE_CHECKING

from core.builder import LOOSE_SYMBOL, MIN_ROOM, ChunkMaker, Prepared, flag_over, largest_fitting, room_for, split_long_line
from core.chunk import Chunk
from core.document import Document
from core.fixed import chunk_fixed
from core.languages import LANGUAGES, CodeSpec, TextSpec, comment_line, get_spec
from core.parsing import ERROR_FALLBACK_RATIO, Damage, top_level_nodes, written_start
from core.settings import ChunkSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Language, Node, Query

# Nesting depth past which definitions are packed as plain statements (500-deep code is legal).
MAX_DEPTH = 48
# Objects nested deeper than this inside an object are data, whatever they hold (a 2,000-deep
# literal must not recurse out).
_MAX_OBJECT_NEST = 6
_DECLARATOR_TYPES = frozenset(
    {
        "function_declarator",
        "pointer_declarator",
        "reference_declarator",
        "parenthesized_declarator",
        "array_declarator",
        "init_declarator",
    }
)
_MAX_SIGNATURE_LINES = 6
_MAX_FOLDED_CHARS = 240  # a longer signature is shown as its first lines and "…"
_AFTER_OPENING = re.compile(r"([(\[{])\s+")  # ``(`` then a parameter on the next line
_BEFORE_CLOSING = re.compile(r"\s+([)\]}])")  # ``)`` on a line of its own
_MAX_DECLARATOR_DEPTH = 12  # declarators followed down to a declared name (``int **(*(*f)(void))[3]``)
# Node types that end so name what a declarator declares (``identifier``, ``qualified_identifier``,
# ``field_identifier``, ``operator_name``, ``destructor_name``, ``template_function``).
_NAME_ENDS = ("identifier", "_name", "template_function")
# The first word of a kind read from the text (``named_kinds``): HCL's block types keep their
# dashes; Zig's ``enum(u8)`` is an ``enum``.
_KIND_WORD = re.compile(r"[\w-]+")
# Containers whose members are plain functions, not methods.
NON_CLASS_KINDS = frozenset({"namespace", "module", "package", "extern"})
# Tags of a doc comment about its file or a group of definitions, not the one below it
# (``/** @file ...``, Doxygen's ``/// @{`` and ``/** @name Vector ops */``).
_NOT_ITEM_DOC_TAGS = (
    b"@file",
    b"@fileoverview",
    b"@license",
    b"@copyright",
    b"@module",
    b"@package",
    b"@{",
    b"@}",
    b"@name",
    b"@defgroup",
    b"@addtogroup",
    b"\\file",
    b"\\name",
    b"\\defgroup",
)
# Children past which a node found by looking inside a block whose head shares its first line
# is cut by lines, as before: a data table (a 256-entry codec map) gives the same cuts by lines,
# found far faster than piece by piece; a block of code rarely holds more statements.
_MAX_LOOK_INSIDE = 64
# Type arguments: ``<`` right after a name, holding no ``=`` or ``<``/``>`` (so ``operator<=>``
# and ``operator<`` keep theirs).
_GENERIC_ARGS = re.compile(r"(?<=[\w\]])<[^<>=]*>")
_MAX_NAME = 100
_MAX_LABEL = 100  # characters of a registered callback's label (tests told apart by their ends)
_MAX_CALLEE = 60  # and of its callee
_MAX_CHAIN = 4  # calls chained after a registered callback's (``->name('home')``)
_MAX_CALL_NAME_DEPTH = 4  # nodes followed down from a defining call's argument to its name
_CLOSING_KEYWORDS = frozenset({"end"})  # Ruby's and Scala 3's: closes the unit before it, never opens one
# Words of a comment: a letter then letters or digits; each Han, kana or Hangul character is
# one (those scripts put no spaces between words).
_WORDS = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\W\d_][^\W_]+")
_DIVIDER_WORDS = 4  # words a section's title between rules may have (``outbound / internal moves``)
# A cell's first line in a script of cells: a comment whose text starts with ``%%`` (jupytext's
# and VS Code's ``# %%``, a notebook read by :mod:`core.notebook`) or is nbconvert's ``# In[3]:``.
_CELL_MARKER = re.compile(rb"(#|//|--|;;|%)\s?(%%(\s|$)|In\[\s*\d*\s*\]:)")  # (matched at the comment's start)
_MAX_TRAIL_DEPTH = 16  # last children followed down to find where a node's text ends
_MAX_NAME_PATH = 8  # nodes gone down through to a name (``CodeSpec.name_paths``)
_MAX_HOST_DEPTH = 8  # body hosts gone down through to a body (``CodeSpec.body_hosts``)
# What parts a namespace's name: ``shop::detail``, ``Shop.Detail``, ``App\\Models``.
_NAME_PARTS = re.compile(rb"\s*(?:::|\.|\\)\s*")
_NAMESPACE_QUERIES: dict[tuple[str, tuple[str, ...]], Query | None] = {}  # (grammar, types): compiled once


def _namespace_query(grammar: str, types: tuple[str, ...], language: Language) -> Query | None:
    """A query capturing the ``name`` of each node of ``types`` (those ``grammar`` has), or None."""
    from tree_sitter import Query, QueryError

    key = (grammar, types)
    if key not in _NAMESPACE_QUERIES:
        patterns = []
        for typed in types:
            pattern = f"({typed} name: (_) @name)"
            try:
                Query(language, pattern)
            except (QueryError, ValueError):
                continue  # (a type, or its name field, this grammar does not have)
            patterns.append(pattern)
        _NAMESPACE_QUERIES[key] = Query(language, " ".join(patterns)) if patterns else None
    return _NAMESPACE_QUERIES[key]



@dataclass
class Unit:
    """Lines ``first..last`` of one level, owned by one or more sibling nodes."""

    first: int
    last: int
    nodes: list[Node]
    definition: Node | None = None
    wrappers: list[Node] = field(default_factory=list)
    head: bool = False  # an opened guard's own tokens (``try:``): never glued to the chunk before
    closed: int = 0  # the first line of an ``end name`` that closes the definition (0: none)
    closer: bool = False  # a statement that closes its definition (``CodeSpec.closers``)

    @property
    def named(self) -> bool:
        """False for pure punctuation (a closing brace, a stray semicolon) and closers."""
        return not self.closer and (self.head or any(node.is_named for node in self.nodes))


@dataclass
class _Listing:
    """The members a class header lists, and their lines once built (see :meth:`_Run.summary`)."""

    defs: list[Unit]
    full: str | None = None  # the title and one line per member's signature
    names: list[str] | None = None


@dataclass
class Pending:
    """A chunk decided but not yet built (its parent's id is known only once that is built)."""

    kind: str
    symbol: str
    first: int
    last: int
    header: str = ""
    parent: Pending | None = None
    flags: tuple[str, ...] = ()
    start_byte: int | None = None  # set for pieces of a split line
    end_byte: int | None = None
    part: int = 1
    parts: int = 1
    loose: bool = False  # only comments: may join the next definition's head
    divider: bool = False  # only comments, of a few words: a section's title (flag ``divider``)
    chunk: Chunk | None = None


def chunk_syntax(prep: Prepared, settings: ChunkSettings) -> list[Chunk]:
    """Chunk a code document along its syntax tree (see the module docstring)."""
    doc = prep.doc
    spec = get_spec(doc.language)
    if not isinstance(spec, CodeSpec):
        raise ValueError(f"{doc.language!r} is not a code language")
    if not doc.data.strip():
        return []
    tree, damage = prep.tree, prep.damage
    if tree is None or damage is None:  # a CodeSpec always has a grammar: the parse ran out of time
        return chunk_fixed(prep, settings, fallback="parse_timeout")
    if damage.ratio > ERROR_FALLBACK_RATIO:
        return chunk_fixed(prep, settings, fallback="parse_error")
    run = _Run(ChunkMaker(prep, settings, "syntax"), spec, settings, damage)
    run.level(top_level_nodes(tree.root_node, spec.opens_error_root), (), "", None, depth=0, in_container=False)
    return run.finish()


class _Run:
    """One chunking pass over one document."""

    def __init__(self, maker: ChunkMaker, spec: CodeSpec, settings: ChunkSettings, damage: Damage) -> None:
        self.maker = maker
        self.doc = maker.doc
        self.spec = spec
        self.settings = settings
        self.damage = damage
        self.misread: list[tuple[int, int]] = []  # lines of definitions named from a misread head
        self.out: list[Pending] = []
        self.budget = settings.budget
        self._signatures: dict[tuple[int, int, str], str] = {}
        self._unfolded: dict[str, str] = {}  # a signature folded onto one line: its lines as written
        self._bytes_are_chars = maker.bytes_are_chars
        self._doc_prefixes = tuple(prefix.encode("ascii") for prefix in spec.doc_comments)
        self._line_starts, self._line_ends = maker.doc.line_starts, maker.doc.line_ends
        self._cells = b"%%" in maker.doc.data or b"In[" in maker.doc.data  # a script of cells may be
        self._continued: set[tuple[int, int, str]] = set()  # later equations of one definition (``equations``)
        self._namespaces: frozenset[bytes] | None = None  # the names of the namespaces the file declares
        # A definition whose body is its head's next sibling (``CodeSpec.sibling_bodies``): its
        # key, and the sibling and the head that stands for it (found by :meth:`units`).
        self._sibling_bodies: dict[tuple[int, int, str], tuple[Node, Node]] = {}
        # ``CodeSpec.head_patterns``, compiled; and what each node's head matched (:meth:`head_match`).
        self._head_patterns = {
            node_type: tuple((re.compile(pattern), word) for pattern, word in patterns)
            for node_type, patterns in spec.head_patterns.items()
        }
        self._heads: dict[tuple[int, int, str], tuple[str | None, str | None]] = {}
        self._definition_words = spec.definitions if spec.definition_calls else frozenset()
        # Calls named by a keyword argument (``CodeSpec.name_keywords``): their types, and each
        # call's type found (None: no such definition).
        self._named_types = frozenset(typed for _, typed in spec.named_calls)
        self._named_calls: dict[tuple[int, int, str], str | None] = {}
        self._tails: dict[tuple[int, int, str], list[Node]] = {}  # (see :meth:`tail`)
        self._hung = spec.hung_comments  # (comments hung on the definition above: see _peeled)
        # ``CodeSpec.text_names``, compiled.
        self._text_names = {typed: re.compile(pattern) for typed, pattern in spec.text_names.items()}

    def type_of(self, node: Node) -> str:
        """``node``'s type, or for a call that defines (``CodeSpec.definition_calls``: Elixir's
        ``def add(cart, item) do``) its callee's word, ``def``; for a node typed by a keyword of
        its own (``CodeSpec.keyword_paths``: Common Lisp's ``defun`` node) that keyword; for a
        node read by its head's text (``CodeSpec.head_patterns``: Groovy's ``command``) the type
        its first matching pattern gives."""
        spec = self.spec
        if spec.head_patterns and node.type in spec.head_patterns:
            return self.head_match(node)[0] or node.type
        path = spec.keyword_paths.get(node.type)
        if path is not None:
            found: Node | None = node
            for step in path:
                found = next((c for c in found.children if c.type == step), None) if found is not None else None
            # (A word that defines nothing, ``lambda``, is its type all the same: no definition's.)
            return self._text(found).decode("utf-8", "replace") if found is not None else node.type
        if node.type not in spec.definition_calls:
            return node.type
        if spec.name_keywords:  # Starlark's ``cc_library(name = "stock", ...)``
            return self._named_call_type(node) or node.type
        word = self._callee_word(node)
        if word is None:
            return node.type
        if word in self._definition_words:
            return word
        if spec.member_calls and node.parent is not None and node.parent.type in spec.definition_calls:
            # A list in a protocol or a record (Clojure's ``(price [this] ...)``): its method.
            member = spec.member_calls.get(self._callee_word(node.parent) or "")
            if member is not None:
                return member
        return node.type

    def _named_call_type(self, call: Node) -> str | None:
        """The type of a call named by a keyword argument (``CodeSpec.name_keywords``): that of
        the first of ``named_calls`` its callee's last word matches (``cc_library`` of
        ``native.cc_library``), when its name is a plain string and it is not assigned; else None."""
        key = _key(call)
        if key in self._named_calls:
            return self._named_calls[key]
        spec = self.spec
        found = None
        callee = call.child_by_field_name("function")
        word = self._text(callee).decode("utf-8", "replace").rsplit(".", 1)[-1] if callee is not None else ""
        if (
            word.isidentifier()
            and not (call.parent is not None and call.parent.type in spec.assignments)  # ``pip = use_extension(...)``
            and self._keyword_name(call) is not None
        ):
            found = next((typed for pattern, typed in spec.named_calls if fnmatchcase(word, pattern)), None)
        self._named_calls[key] = found
        return found

    def _name_argument(self, call: Node) -> Node | None:
        """The keyword argument that names ``call`` (``CodeSpec.name_keywords``: ``name =
        "stock"``), or None."""
        arguments = call.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            key = argument.child_by_field_name("name")
            if key is not None and self._text(key).decode("utf-8", "replace") in self.spec.name_keywords:
                return argument
        return None

    def _keyword_name(self, call: Node) -> str | None:
        """The name ``call``'s naming keyword argument gives (``CodeSpec.name_keywords``): its
        value's text inside its quotes, as written, when that is a plain string literal on one
        line (not ``name + "_gen"``, nor an f-string's interpolation), else None."""
        argument = self._name_argument(call)
        value = argument.child_by_field_name("value") if argument is not None else None
        if value is None or value.type != "string" or value.named_child_count != 3:
            return None
        start, content, end = value.named_children
        if content.type != "string_content":
            return None
        name = self.doc.data[start.end_byte : end.start_byte].decode("utf-8", "replace")
        return name if name.strip() and "\n" not in name else None

    def _keyword_head_end(self, call: Node, *, first: bool = True) -> int | None:
        """Where the head of a call named by a keyword argument ends: after that argument and
        the comma right after it (``cc_library(`` then ``name = "stock",``). ``first``: only
        when no argument comes before it (else its head is its first line: the arguments above
        its name are its body's, as the others are)."""
        argument = self._name_argument(call)
        if argument is None:
            return None
        if first and any(not self.is_comment(c) for c in argument.parent.named_children if c.end_byte <= argument.start_byte):
            return None
        after = argument.next_sibling
        return after.end_byte if after is not None and after.type == "," else argument.end_byte

    def _keyword_signature(self, call: Node) -> str | None:
        """What the parts of a call named by a keyword argument repeat: its text to that argument
        (``cc_library(`` then ``name = "stock",``); when arguments come before it, its first
        line and that argument's (``cc_library(`` then ``    name = "late",``), or None."""
        end = self._keyword_head_end(call, first=False)
        argument = self._name_argument(call)
        if end is None or argument is None:
            return None
        doc = self.doc
        row = argument.start_point.row + 1
        if row == call.start_point.row + 1 or self._keyword_head_end(call) is not None:
            return doc.slice(call.start_byte, end).rstrip()
        first = doc.slice(call.start_byte, doc.line_end(call.start_point.row + 1)).rstrip()
        return f"{first}\n{doc.slice(doc.line_start(row), end).rstrip()}"

    def _call_head(self, call: Node) -> Node | None:
        """A defining call's callee: its first child, past ``CodeSpec.callee_skips`` (a Lisp
        list's ``(`` and the metadata on it)."""
        skips = self.spec.callee_skips
        return next((c for c in call.children if c.type not in skips), None)

    def _callee_word(self, call: Node) -> str | None:
        """The word a call's callee is (``def``, ``defn``), or None when it is no word. In a
        Lisp (``argument_lists``) a qualified one is whole: Clojure's ``s/def`` is spec's, no
        ``def``."""
        callee = self._call_head(call)
        word = self._word(callee)
        if word is None or callee is None or not self.spec.argument_lists:
            return word
        start = next((c.start_byte for c in callee.children if c.type not in self.spec.callee_skips), callee.start_byte)
        return self.doc.data[start : callee.end_byte].decode("utf-8", "replace")

    def _word(self, node: Node | None) -> str | None:
        """``node``'s text when it is of ``name_types``; in a Lisp (``argument_lists``), that
        of its name child (Clojure's symbol, past its namespace and ``^:private`` on it), or of
        its only named child when that is a word (Common Lisp's keyword ``:shop``, its colon
        off; Elisp's quoted ``'shop-total``)."""
        spec = self.spec
        if node is not None and node.type not in spec.name_types and spec.argument_lists:
            named = next((c for f in spec.name_fields if (c := node.child_by_field_name(f)) is not None), None)
            if named is None and node.named_child_count == 1 and node.named_children[0].type in spec.name_types:
                named = node.named_children[0]
            node = named
        if node is None or node.type not in spec.name_types:
            return None
        return self._text(node).decode("utf-8", "replace")

    def head_brace(self, node: Node) -> Node | None:
        """The ``{`` that opens the body of a ``CodeSpec.head_patterns`` node: the first token
        of its last ``body_types`` child (Groovy's ``block``, which holds the last words of the
        head before it), or None when it has no such body."""
        body = next((c for c in reversed(node.named_children) if c.type in self.spec.body_types), None)
        return next((c for c in body.children if c.type == "{"), None) if body is not None else None

    def head_match(self, node: Node) -> tuple[str | None, str | None]:
        """The type word and the name a ``CodeSpec.head_patterns`` node's head gives (its text
        up to the ``{`` of its body, its whitespace closed up): the first pattern that matches
        it from its start, the name its ``name`` group (else its whole match; its quotes off);
        (None, None) when none matches or it has no body."""
        key = _key(node)
        found = self._heads.get(key)
        if found is None:
            found = (None, None)
            brace = self.head_brace(node)
            if brace is not None:
                head = " ".join(self.doc.data[node.start_byte : brace.start_byte].decode("utf-8", "replace").split())
                for pattern, word in self._head_patterns.get(node.type, ()):
                    matched = pattern.match(head)
                    if matched is not None:
                        name = matched.groupdict().get("name") or matched.group()
                        if len(name) > 1 and name[0] == name[-1] and name[0] in "'\"":
                            name = name[1:-1]  # (Spock's ``def "reserves a bin"()``)
                        found = (word, _cut(" ".join(name.split()), _MAX_NAME) or None)
                        break
            self._heads[key] = found
        return found

    # ---- sizes -------------------------------------------------------------------------------

    def fits(self, first: int, last: int, symbol: str, header: str, reserve: int = 0) -> bool:
        """Whether lines ``first..last`` under this breadcrumb and header fit the budget
        (less ``reserve`` units kept free for a header decided later)."""
        # The hottest call of the chunker (every packing step asks).
        prefix = self.maker.prefix_size(symbol, header)
        if self._bytes_are_chars:  # :meth:`ChunkMaker.lines_size`, inlined for its commonest case
            return prefix + self._line_ends[last - 1] - self._line_starts[first - 1] + reserve <= self.budget
        return prefix + self.maker.lines_size(first, last) + reserve <= self.budget

    def avail(self, symbol: str, header: str) -> tuple[int, bool]:
        """Units left for a piece of a line once the prefix is paid for, and whether that is
        more than the budget allows (:func:`core.builder.room_for`)."""
        return room_for(self.maker, symbol, header)

    def repeatable(self, symbol: str, signature: str, need: int = 0) -> str:
        """The signature to repeat above the parts of a split definition: whole if that leaves
        the parts ``MIN_ROOM`` of the budget (or ``need`` units, if more), else its line that
        names the definition, cut short to fit (a long signature under a small budget otherwise
        left the parts room for a character or two, and thousands of parts)."""
        budget, maker = self.settings.budget, self.maker
        floor = max(budget * MIN_ROOM, need)

        def leaves_room(header: str) -> bool:
            return budget - maker.prefix_size(symbol, header) >= floor

        if leaves_room(signature):
            return signature
        name = symbol.rsplit(self.spec.path_separator, 1)[-1]
        lines = [line.strip() for line in signature.splitlines() if line.strip()]
        line = next((x for x in lines if name and name in x), lines[0] if lines else "")
        if leaves_room(line):
            return line
        # The longest start of that line that fits (cut after a character, found by bisection).
        cut = largest_fitting(1, len(line), lambda n: leaves_room(line[:n].rstrip()))
        return line[:cut].rstrip() if cut >= 1 else ""

    # ---- step 1: units -----------------------------------------------------------------------

    def units(
        self, nodes: list[Node], *, in_function: bool = False, callbacks: bool = False, in_class: bool = False,
        own_closers: frozenset[tuple[int, int, str]] = frozenset(),
    ) -> list[Unit]:
        """Read sibling nodes into units (see step 1); ``in_function``: the statements of a
        function's body, where an assigned value is a statement (see :meth:`find_definition`);
        ``callbacks``: that function is itself a registered callback, whose body registers
        more (``describe`` > ``it``: ``CodeSpec.registrations``); ``in_class``: the members of
        a class's body, where a function's prototype declares a member (``CodeSpec.prototypes``)."""
        spec = self.spec
        data = self.doc.data
        hung = self._hung
        flat: list[Node] = []
        stack = list(reversed(nodes))
        opens = bool(spec.iife_wraps) and not in_function
        guards = spec.guards if not in_function else frozenset()
        opened = spec.open_calls if not in_function else frozenset()
        heads: set[tuple[int, int, str]] = set()  # the opened guards' own tokens (``if x:``)
        while stack:
            node = stack.pop()
            if (
                node.type in spec.transparent
                and not (
                    # ``extern "C" int f(void) {...}``: a wrapper of the one definition it holds
                    # (``extern "C" {...}`` is opened: its block holds no definition itself).
                    node.type in spec.wrappers
                    and self.find_definition(node, in_function=in_function, callbacks=callbacks, in_class=in_class)[0]
                    is not None
                )
            ) or (node.type in spec.comment_hosts and _ends_with_comment(node, spec.comment_types)):
                stack.extend(reversed(node.children))
            elif opens and node.type in spec.iife_wraps and (pieces := self.iife_pieces(node)) is not None:
                stack.extend(reversed(pieces))
            elif node.type in guards and self._guards_definition(node, guards):
                children = node.children
                opener = next((i for i, child in enumerate(children) if child.type in spec.guard_bodies), 0)
                heads.update(_key(child) for child in children[:opener])  # what stands before its block
                stack.extend(reversed(children))
            elif opened and (inner := self._opened_call(node, opened)) is not None:
                # Scheme's ``(begin (define ...) ...)``, Common Lisp's ``(eval-when (...) (defun ...))``:
                # its definitions are the level's own, what stands before the first goes with it.
                children = node.children
                heads.update(_key(child) for child in children[:inner])
                stack.extend(reversed(children))
            elif spec.binding_groups and (bindings := self.bindings(node)):
                # F#'s ``let rec even n = ... and odd n = ...``: each binding a definition, read
                # as they stand (a body is never opened here: it is its binding's).
                for child in bindings:
                    flat.append(child)
                    if hung or data[child.end_byte - 1] in (32, 9):
                        flat.extend(_peeled(child, data, hung))
            elif (
                node.end_byte > node.start_byte or (spec.empty_comments and node.type in spec.attached)
            ) and node.type not in spec.blank_tokens:
                flat.append(node)
                if node.type in spec.tail_comments and self.tail(node):
                    flat.extend(self.tail(node))  # (read first: no comment twice)
                elif hung or data[node.end_byte - 1] in (32, 9):  # ends on indentation (see _peeled)
                    flat.extend(_peeled(node, data, hung))
        units: list[Unit] = []
        attached: list[Node] = []
        binding: Unit | None = None  # a group's binding whose body is still to come (``binding_groups``)
        body_start = 0

        def alone(node: Node) -> Unit:
            """A unit of ``node`` alone: a comment, or a guard's head (see below), that waited
            for a definition and found none."""
            lead = (bool(heads) and _key(node) in heads) or (
                bool(spec.opening_keywords) and not node.is_named and node.type in spec.opening_keywords
            )  # (Ada's ``begin``: ``CodeSpec.opening_keywords``)
            return Unit(*_lines(node, data, hung), [node], head=lead)

        # (A keyword among ``CodeSpec.closers``, Verilog's ``endmodule``, is a closer's unit of
        # its own, glued to the chunk before it when that fits: never a line of the definition.)
        closers = (_CLOSING_KEYWORDS | spec.closing_keywords) - spec.closers
        closer: Unit | None = None  # the definition an ``end`` keyword closed, with its line
        closed_line = 0
        tails = spec.tail_comments
        for node in flat:
            first, last = self.node_lines(node) if tails else _lines(node, data, hung)
            if closer is not None and first == closed_line:
                closer.nodes.append(node)  # the name after ``end`` (Scala's ``end linePrice``)
                closer.last = max(closer.last, last)
                continue
            closer = None
            if binding is not None:
                if node.start_byte <= body_start:
                    # Its ``=`` (a return type, a comment), then its body: the binding's own.
                    binding.nodes.append(node)
                    binding.last = max(binding.last, last)
                    continue
                binding = None
            if spec.sibling_bodies and not attached and (host := self._sibling_host(units, node)) is not None:
                # Dart's ``Widget build(BuildContext context)`` then its ``{ ... }`` or ``=>
                # expr;``, a sibling: the two are one definition, named and headed by the head.
                self._sibling_bodies[_key(host.definition)] = (node, host.nodes[-1])
                if host is not units[-1]:  # (a comment on the head's line, between the two)
                    host.nodes.extend(units.pop().nodes)
                host.nodes.append(node)
                host.last = max(host.last, last)
                continue
            if (
                node.type in closers and not attached and units and units[-1].definition is not None
                and (not own_closers or _key(node) not in own_closers)
            ):
                # Scala 3's ``end name`` on the lines after a definition closes it, as a brace
                # would: it is the definition's last line, not a chunk of end markers of its own.
                closer, closed_line = units[-1], first
                # (On the definition's own last line, OCaml's ``let f x = ... in``, it is no line
                # of its own to leave out of a definition that does not fit.)
                closer.closed = closer.closed or (first if first > closer.last else 0)
                closer.nodes.append(node)
                closer.last = max(closer.last, last)
                continue
            if (
                spec.docs_after and not attached and units and units[-1].definition is not None
                and first <= units[-1].last + 1 and self._text(node).startswith(spec.docs_after)
            ):
                # Haddock's ``-- ^`` under a definition documents it, not the one below.
                units[-1].nodes.append(node)
                units[-1].last = max(units[-1].last, last)
                continue
            if (
                node.type in spec.attached
                or (heads and _key(node) in heads)
                or (
                    node.type in spec.annotation_holders
                    and node.child_count
                    and (
                        node.child(0).type == "annotation"
                        # (Groovy's ``@Service class Depot {``, one statement: the class.)
                        or (
                            node.child(0).type in spec.annotation_starts
                            and self.find_definition(node, in_function=in_function, in_class=in_class)[0] is None
                        )
                    )
                )
            ) and not _is_trailing(node, units):
                attached.append(node)
                continue
            if attached and spec.docs_below:
                self._doc_below(units, attached, first)
            if (
                not node.is_named
                and node.type.isalpha()
                and node.type not in closers
                and node.type not in spec.closers
                and not ((spec.definition_calls or spec.body_openers) and _opens_body(node, spec))
            ):
                # A keyword token that opens what follows (Go's ``type`` of ``type X struct``
                # and ``type (``) goes with the next definition, as a comment above it does;
                # not the one that opens a body (Elixir's ``do``, OCaml's ``struct``: ``body_openers``):
                # it stays on its head's line.
                attached.append(node)
                continue
            if attached and not node.is_named:
                # Punctuation between (``type (``): the comments above wait for the definition.
                units.append(Unit(first, last, [node]))
                continue
            if node.type in spec.accessors and not attached and units and units[-1].nodes[0].type in spec.properties:
                # ``set(value) { ... }`` on the lines after its ``var``: the property's own.
                host = units[-1]
                host.nodes.append(node)
                host.last = max(host.last, last)
                if host.definition is None:
                    host.definition, host.wrappers = host.nodes[0], []
                continue
            if spec.binding_groups and _key(node) in self._sibling_bodies:
                definition, wrappers = node, []  # a group's binding (see :meth:`bindings`)
            else:
                definition, wrappers = self.find_definition(
                    node, in_function=in_function, callbacks=callbacks, in_class=in_class
                )
            if definition is not None and _key(definition) in self._continued:
                definition, wrappers = None, []  # a later equation: a statement of the first's (``equations``)
            if definition is None and spec.name_followers and (host := self._follows(units, node)) is not None:
                # CMake's ``target_link_libraries(inventory ...)`` after ``add_library(inventory
                # ...)``: the target's own, with the comments above it.
                host.nodes.extend([*attached, node])
                host.last = max(host.last, last)
                attached = []
                continue
            unit = Unit(first, last, [node], definition, wrappers, closer=node.type in spec.closers)
            leads = definition is not None or (bool(spec.prototypes) and self.cut_short(node))  # (its prototype follows)
            if leads and attached and (self._leads(attached[-1], first) or _key(attached[-1]) in heads):
                # Comments and attributes right above a definition belong to it (a doc comment
                # across blank lines too), and so does the head of the guard it is the first
                # statement of (``if sys.version_info >= ...:``).
                while attached and (self._leads(attached[-1], unit.first) or _key(attached[-1]) in heads):
                    comment = attached.pop()
                    unit.nodes.insert(0, comment)
                    unit.first = _lines(comment, data)[0]
            if attached:
                units.extend(map(alone, attached))
                attached = []
            units.append(unit)
            if spec.binding_groups and definition is not None and definition is node:
                paired = self._sibling_bodies.get(_key(definition))
                if paired is not None and paired[0].start_byte > node.start_byte:
                    binding, body_start = unit, paired[0].start_byte
        if attached and spec.docs_below:
            self._doc_below(units, attached, None)
        units.extend(map(alone, attached))
        units.sort(key=lambda u: (u.first, u.nodes[0].start_byte))
        fused = _fuse(units, self.cut_short if spec.prototypes else None)
        if spec.sibling_runs:
            fused = self._join_runs(fused)
        return self._join_equations(fused) if spec.equations else fused

    def _join_runs(self, units: list[Unit]) -> list[Unit]:
        """A header's unit and the units after it up to the next header of its rank, as one
        unit (``CodeSpec.sibling_runs``: COBOL's paragraph and the statements under it). The
        comments right above a header are its own unit's already; those right above a statement
        that ends a run (a ``COPY`` after a record) stay out of the run, with it."""
        spec = self.spec
        joined: list[Unit] = []
        host: Unit | None = None  # the run being read
        stops: frozenset[str] = frozenset()  # what ends it
        waiting: list[Unit] = []  # comments after it: the run's, unless right above what ends it
        for unit in units:
            code = next((n for n in unit.nodes if not self.is_comment(n)), None)
            if host is not None and code is None:
                waiting.append(unit)
                continue
            typed = self.type_of(unit.definition or code or unit.nodes[0])
            if host is not None and typed not in stops:
                for taken in (*waiting, unit):
                    host.nodes.extend(taken.nodes)
                    host.last = max(host.last, taken.last)
                waiting = []
                continue
            if host is not None:
                # The comments right above what ends the run are its own; those before a
                # blank line the run's last.
                keep, edge = len(waiting), unit.first
                while keep and waiting[keep - 1].last + 1 >= edge:
                    keep -= 1
                    edge = waiting[keep].first
                for taken in waiting[:keep]:
                    host.nodes.extend(taken.nodes)
                    host.last = max(host.last, taken.last)
                joined.extend(waiting[keep:])
                waiting = []
            joined.append(unit)
            found = spec.sibling_runs.get(typed) if unit.definition is not None else None
            host, stops = (unit, found) if found is not None else (None, frozenset())
        for taken in waiting:  # (the file's or the level's last comments: the last run's)
            assert host is not None
            host.nodes.extend(taken.nodes)
            host.last = max(host.last, taken.last)
        return joined

    def is_run(self, definition: Node) -> bool:
        """Whether ``definition`` is a header whose body is the run of siblings after it
        (``CodeSpec.sibling_runs``: COBOL's paragraph)."""
        return bool(self.spec.sibling_runs) and self.type_of(definition) in self.spec.sibling_runs

    def run_members(self, unit: Unit) -> list[Node]:
        """The nodes a ``CodeSpec.sibling_runs`` definition's unit holds after its header: its
        statements or members."""
        definition = unit.definition
        assert definition is not None
        return [n for n in unit.nodes if n.start_byte >= definition.end_byte]

    def _follows(self, units: list[Unit], node: Node) -> Unit | None:
        """The unit of the defining call right before ``node`` when ``node`` is a call whose
        first argument is that definition's name (``CodeSpec.name_followers``), else None."""
        spec = self.spec
        host = _past_line_comment(units, self.is_comment)  # ``add_library(core a.c)  # the core``
        if (
            host is None
            or host.definition is None
            or host.definition.type not in spec.definition_calls
            or node.type not in spec.definition_calls
        ):
            return None
        name = self._call_name(node)
        return host if name is not None and name == self.name(host) else None

    def tail(self, node: Node) -> list[Node]:
        """The comments a ``CodeSpec.tail_comments`` definition ends with that are about what
        follows it (MATLAB's function without ``end`` holds the help of the one below, a ``%%``
        section's title): from the first that starts its line under a blank line, to its end."""
        key = _key(node)
        found = self._tails.get(key)
        if found is not None:
            return found
        found = self._tails[key] = []
        data = self.doc.data
        current = node
        for _ in range(_MAX_TRAIL_DEPTH):  # down its last children to the block that ends with them
            children = [c for c in current.children if c.is_named or data[c.start_byte : c.end_byte].strip()]
            if not children:
                return found
            if self.is_comment(children[-1]):
                break
            current = children[-1]
        else:
            return found
        run: list[Node] = []
        for child in reversed(children):
            if not self.is_comment(child):
                break
            run.insert(0, child)
        doc = self.doc
        for at, comment in enumerate(run):
            line = comment.start_point.row + 1
            if (
                line > 1
                and doc.is_blank(line - 1)
                and not data[doc.line_start(line) : comment.start_byte].strip()
            ):
                found.extend(run[at:])
                break
        return found

    def node_lines(self, node: Node) -> tuple[int, int]:
        """:func:`_lines` of ``node``, less the comments after its code that are about what
        follows it (``CodeSpec.tail_comments``)."""
        first, last = _lines(node, self.doc.data, self._hung)
        tail = self.tail(node) if node.type in self.spec.tail_comments else []
        if tail:
            last = tail[0].start_point.row  # (the blank line above the first of them)
            while last > first and self.doc.is_blank(last):
                last -= 1
        return first, last

    def bindings(self, node: Node) -> list[Node]:
        """The children of a group of bindings joined by its keyword (``CodeSpec.binding_groups``:
        F#'s ``let rec even n = ... and odd n = ...``); each binding's head (its first named
        child) that defines a function, by its own type or its body's (the group's
        ``function_children``), is paired with the node's next ``body``: a definition. Empty
        when ``node`` is no such group."""
        spec = self.spec
        joiner = spec.binding_groups.get(node.type)
        if joiner is None or not any(c.type == joiner and not c.is_named for c in node.children):
            return []
        marks = spec.function_children.get(node.type)
        head: Node | None = None
        expecting = True  # the next named child is a binding's head
        for at, child in enumerate(node.children):
            if node.field_name_for_child(at) == "body":
                if head is not None and (marks is None or head.type in marks or child.type in marks):
                    self._sibling_bodies[_key(head)] = (child, head)
                head, expecting = None, True
            elif expecting and child.is_named and child.type not in spec.attached:
                head, expecting = child, False
        return [c for c in node.children if c.end_byte > c.start_byte]

    def _join_equations(self, units: list[Unit]) -> list[Unit]:
        """Units of one definition's type signature and equations, one after the other with
        one name, as one unit (``CodeSpec.equations``): its definition is the first equation
        (the signature where there is none), and the later ones are marked as its statements."""
        spec = self.spec
        joined: list[Unit] = []
        clauses = spec.equations | spec.type_signatures
        run_name: str | None = None  # the name of the signature or equations ``joined[-1]`` holds
        for unit in units:
            definition = unit.definition
            host = joined[-1] if run_name is not None else None  # (a signature or an equation: a definition)
            if host is not None and definition is not None and host.definition is not None:
                signed = host.definition.type in spec.type_signatures  # no equation joined it yet
                # An equation, or an overload: a signature under signatures (TypeScript's
                # ``function parse(x: string): number;`` twice above its implementation).
                joins = definition.type in spec.equations or (signed and definition.type in spec.type_signatures)
                if joins and self._equation_name(unit) == run_name:
                    if definition.type in spec.equations:
                        if signed:
                            host.definition, host.wrappers = definition, unit.wrappers  # the first equation
                        else:
                            self._continued.add(_key(definition))
                    host.nodes.extend(unit.nodes)
                    host.last = max(host.last, unit.last)
                    continue
            joined.append(unit)
            run_name = self._equation_name(unit) if definition is not None and definition.type in clauses else None
        return joined

    def _equation_name(self, unit: Unit) -> str:
        """A signature's or an equation's name, an operator's parentheses off (``(<+>) :: ...``
        names the ``<+>`` of ``a <+> b = ...``)."""
        name = self.name(unit)
        return name[1:-1] if name.startswith("(") and name.endswith(")") else name

    def _type_signatures(self, unit: Unit) -> list[Node]:
        """The type signatures above the equations ``unit`` holds (``CodeSpec.equations``): one,
        or a run of overloads."""
        definition = unit.definition
        if definition is None or definition.type not in self.spec.equations:
            return []
        return [n for n in unit.nodes if n.type in self.spec.type_signatures and n.end_byte <= definition.start_byte]

    def _type_signature(self, unit: Unit) -> Node | None:
        """The (first) type signature above the equations ``unit`` holds, if any."""
        return next(iter(self._type_signatures(unit)), None)

    def unit_signature(self, unit: Unit) -> str:
        """The signature repeated above the parts of ``unit``'s definition: its own, under the
        type signature of the equations ``unit`` holds (``CodeSpec.equations``); the type
        signature alone above several equations."""
        definition = unit.definition
        assert definition is not None
        signature = self.signature(definition, unit.wrappers, _keywords(unit))
        signatures = self._type_signatures(unit)
        if not signatures:
            return signature
        # (Every overload, when several signatures stand above it: from the first to the last,
        # the later ones' indentation taken as the first's.)
        typed = signatures[0]
        text = self.doc.slice(typed.start_byte, signatures[-1].end_byte)
        indent = typed.start_point[1]
        lines = [
            (line if k == 0 else line[min(indent, len(line) - len(line.lstrip())) :]).rstrip()
            for k, line in enumerate(text.splitlines())
            if line.strip()
        ]
        if len(lines) > _MAX_SIGNATURE_LINES:
            lines = self._folded(lines)
        if any(_key(node) in self._continued for node in unit.nodes):
            return "\n".join(lines)  # (``fact 0 =`` is the head of one of its equations alone)
        return "\n".join([*lines, signature])

    def _sibling_host(self, units: list[Unit], node: Node) -> Unit | None:
        """The unit of the definition whose body ``node`` is, its head's next sibling
        (``CodeSpec.sibling_bodies``), past a comment on the head's line; or None."""
        spec = self.spec
        host = _past_line_comment(units, lambda n: n.type in spec.attached)  # ``int total() // in cents``
        if host is None or host.definition is None or spec.sibling_bodies.get(host.nodes[-1].type) != node.type:
            return None
        return host

    def _doc_below(self, units: list[Unit], attached: list[Node], next_first: int | None) -> None:
        """Give the first of the comments ``attached`` (waiting for what starts on line
        ``next_first``) to the prototype just read when it is that prototype's documentation
        written below it (``CodeSpec.docs_below``): it starts on the line right after the
        prototype, which has no comment above it, and a blank line follows it."""
        above = units[-1] if units else None
        comment = attached[0]
        if (
            above is None
            or above.definition is None
            or above.definition.type not in self.spec.prototypes
            or "comment" in above.nodes[0].type
            or "comment" not in comment.type
        ):
            return
        first, last = _lines(comment, self.doc.data)
        after = _lines(attached[1], self.doc.data)[0] if len(attached) > 1 else next_first
        if first != above.last + 1 or (after is not None and after <= last + 1):
            return
        if last < self.doc.line_count and not self.doc.is_blank(last + 1):
            return
        above.nodes.append(attached.pop(0))
        above.last = last

    def cut_short(self, node: Node) -> bool:
        """Whether ``node`` is the start of a function's prototype that the grammar read as a
        statement of its own, ended by a ``;`` it supplied (an export macro around a built-in
        type: ICU's ``U_CAPI void U_EXPORT2`` over ``uregex_reset(...);`` is ``U_CAPI void``
        then ``U_EXPORT2 uregex_reset(...);``): it leads the prototype on its line."""
        if node.type not in self.spec.prototypes or not node.child_count:
            return False
        last = node.children[-1]
        return last.is_missing and not self.prototype(node)

    def _leads(self, node: Node, first: int) -> bool:
        """Whether comment or attribute ``node`` belongs to what starts on line ``first``: it
        ends on the line above, or it is a doc comment (``CodeSpec.doc_comments``) with only
        blank lines between."""
        last = _lines(node, self.doc.data, self._hung)[1]
        if last + 1 >= first:
            return True
        data = self.doc.data
        return (
            bool(self._doc_prefixes)
            and ("comment" in node.type or node.type in self.spec.attached)  # (Perl's ``pod``)
            and data.startswith(self._doc_prefixes, node.start_byte)
            # (Not a banner: ``/*****``, a ``/////`` rule, ``///!``.)
            and data[node.start_byte + 3 : node.start_byte + 4] not in (b"/", b"*", b"!")
            and all(self.doc.is_blank(line) for line in range(last + 1, first))
            and not any(tag in data[node.start_byte : node.end_byte] for tag in _NOT_ITEM_DOC_TAGS)
        )

    def _opened_call(self, node: Node, words: frozenset[str]) -> int | None:
        """For a Lisp list whose callee is one of ``words`` (``CodeSpec.open_calls``) and that
        holds a definition, the index of its first child that is one; else None."""
        if node.type not in self.spec.definition_calls or self._callee_word(node) not in words:
            return None
        return next((i for i, c in enumerate(node.children) if c.is_named and self.find_definition(c)[0] is not None), None)

    def _guards_definition(self, node: Node, guards: frozenset[str], depth: int = 0) -> bool:
        """Whether guard ``node`` (see ``CodeSpec.guards``) holds a definition in its blocks."""
        for child in node.named_children:
            if child.type in guards:
                if depth < _MAX_OBJECT_NEST and self._guards_definition(child, guards, depth + 1):
                    return True
            elif self.find_definition(child)[0] is not None:
                return True
        return False

    def iife_pieces(self, statement: Node) -> list[Node] | None:
        """The pieces of a statement that calls a function where it writes it, read in its
        place (``(function (root) {``, each statement of the body, ``})(this);``), or None.
        The bodies opened are the called function's and those of functions passed to it (UMD's
        factory)."""
        spec = self.spec
        opened: set[tuple[int, int, str]] = set()

        def peel(node: Node | None) -> Node | None:
            for _ in range(4):
                if node is None or node.type not in spec.iife_wraps or not node.named_children:
                    return node
                opened.add(_key(node))
                node = node.named_children[-1]  # ``!function`` and ``(...)``: the last is the operand
            return node

        call = peel(statement)
        if call is None or call.type not in spec.calls:
            return None
        callee = peel(call.child_by_field_name("function"))
        if callee is None or callee.type not in spec.functions:
            return None
        arguments = call.child_by_field_name("arguments")
        functions = [callee]
        for argument in arguments.named_children if arguments else []:
            # (Rollup's UMD passes its factory in parentheses: ``})(this, (function (exports) {``.)
            wraps = []
            while argument.type in spec.iife_wraps and argument.named_children and len(wraps) < 4:
                wraps.append(argument)
                argument = argument.named_children[-1]
            if argument.type in spec.functions:
                functions.append(argument)
                opened.update(_key(w) for w in wraps)
        opened.update(_key(n) for n in (call, arguments) if n is not None)
        bodies = [(f, b) for f in functions if (b := self.body(f)) is not None and b.type.endswith("block")]
        if not bodies:
            return None  # ``(() => main())()``: no statements to open (an arrow's expression body)
        for function, body in bodies:
            opened.update((_key(function), _key(body)))
        pieces: list[Node] = []
        stack = [statement]
        while stack:
            node = stack.pop()
            if _key(node) in opened:
                stack.extend(reversed(node.children))
            else:
                pieces.append(node)
        return pieces

    def find_definition(
        self, node: Node, *, in_function: bool = False, callbacks: bool = False, in_class: bool = False, _nest: int = 0
    ) -> tuple[Node | None, list[Node]]:
        """The definition ``node`` is or wraps, and the wrappers on the way (outermost first).

        In a function's body (``in_function``) a function assigned to something
        (``cached.invalidate = () => ...``) or an object of methods is a statement of that
        function, not a definition of its own; at module or class level it defines a name.
        So is a registered callback (``it('adds', () => {...})``), unless that function is a
        registered callback itself (``callbacks``). A function's prototype (``CodeSpec.prototypes``)
        is a definition but in a function's or a class's body (``in_class``)."""
        spec = self.spec
        suites = callbacks or spec.function_suites  # a function's statements may register
        wrappers: list[Node] = []
        current: Node | None = node
        for _ in range(8):  # export > declaration > declarator > as > ... > the definition
            if current is None:
                return None, []
            if current.type in spec.properties and any(c.type in spec.accessors for c in current.children):
                return current, wrappers  # ``val x: Int get() = 1``
            if current.type in spec.prototypes and not (in_function or in_class) and self.prototype(current):
                return current, wrappers  # ``SQLITE_API int sqlite3_open(...);`` (``template<...>`` around it)
            typed = self.type_of(current)
            if typed in spec.definitions and not (
                typed in spec.bodiless_wrappers and self.body(current) is None
            ):
                if typed in spec.nameless and not any(
                    w.type in spec.naming_wrappers and any(w.child_by_field_name(f) for f in spec.name_fields)
                    for w in wrappers
                ):
                    return None, []  # R's ``lapply(xs, function(x) ...)``: no name, no definition
                if (
                    in_function
                    and typed in spec.local_statements
                    and not (spec.argument_lists and self.kind(current, False) == "function")
                ):
                    return None, []  # (Scheme's ``(define total 0)``; its ``(define (helper x) ...)`` stays one)
                head = spec.call_heads.get(typed)
                if head is not None and head not in self._path_name(current)[1]:
                    return None, []  # ``rate = 0.2``, not ``total(xs) = sum(xs)``
                marks = spec.function_children.get(typed)
                if marks is not None and not any(c.type in marks for c in current.named_children):
                    return None, []  # OCaml's ``let rate = 0.2``, not ``let total items = ...``
                if typed in spec.needs_body and self.body(current) is None:
                    return None, []  # a type named for a variable (``struct sockaddr_in addr;``), no definition
                if typed in spec.self_bodies and (
                    in_function or _nest >= _MAX_OBJECT_NEST or not self._holds_definitions(current, _nest + 1)
                ):
                    return None, []  # an object of data, not of methods: plain code
                return current, wrappers
            if (
                current.type in spec.registrations
                and (suites or not in_function)
                and not any(w.type in spec.naming_wrappers or w.type in spec.assignments for w in wrappers)
            ):
                # Through calls chained after it (``Route::get('/u', fn)->name('user')``,
                # ``describe('slow', fn).timeout(5000)``): they wrap it.
                chain: list[Node] = []
                call: Node | None = current
                bare = not in_function or bool(spec.call_suffix)  # (see _group)
                body = self.registered(current, bare=bare)
                while body is None and len(chain) < _MAX_CHAIN:
                    chain.append(call)
                    call = self._chained(call)
                    if call is None:
                        break
                    body = self.registered(call, bare=bare)
                if (
                    body is not None
                    and call is not None
                    and (not in_function or (suites and self._suite_call(call)))
                ):
                    return call, wrappers + chain
            if spec.argument_lists and current.type in spec.definition_calls:
                # A list whose callee is itself a definition wraps it: Common Lisp's grammar reads
                # ``(defun ...)`` as a ``defun`` node, typed by its keyword, in a ``list_lit``.
                head = self._defined_head(current)
                if head is not None:
                    wrappers.append(current)
                    current = head
                    continue
            if current.type in spec.calls:
                # ``const Button = memo(function Button() {...})``: the function is what is named.
                if (in_function and not spec.call_argument) or not any(
                    w.type in spec.naming_wrappers or w.type in spec.anonymous_names for w in wrappers
                ):
                    return None, []
                if spec.call_argument:
                    # Nix's ``stdenv.mkDerivation { ... }``: one argument, the call's own child.
                    wrappers.append(current)
                    current = current.child_by_field_name(spec.call_argument)
                    continue
                arguments = current.child_by_field_name("arguments")
                if arguments is None:
                    return None, []
                wrappers += (current, arguments)  # their tokens after the function close it
                current = next(
                    (c for c in arguments.named_children if c.type in spec.definitions or c.type in spec.calls), None
                )
                continue
            if current.type not in spec.wrappers:
                return None, []
            wrappers.append(current)
            if current.type in spec.assignments:
                if in_function:
                    return None, []  # in a function's body an assignment is one of its statements
                current = current.child_by_field_name(spec.assigned_field)  # what is assigned, not to what
                continue
            current = next(
                (
                    c
                    for c in current.named_children
                    if c.type in spec.definitions
                    or c.type in spec.wrappers
                    or c.type in spec.calls
                    or c.type in spec.registrations
                    # (A Lisp's defining list: Common Lisp's ``#+sbcl (defun ...)``, past its feature.)
                    or (spec.argument_lists and c.type in spec.definition_calls and self._defining_list(c))
                ),
                None,
            )
        return None, []

    def _defining_list(self, node: Node) -> bool:
        """Whether Lisp list ``node`` is a definition, or wraps one (:meth:`_defined_head`)."""
        return self.type_of(node) in self.spec.definitions or self._defined_head(node) is not None

    def _defined_head(self, node: Node) -> Node | None:
        """The definition Lisp list ``node`` holds as its callee, no list itself (Common Lisp's
        ``defun`` node in its ``list_lit``), or None."""
        head = self._call_head(node)
        if head is None or head.type in self.spec.definition_calls or self.type_of(head) not in self.spec.definitions:
            return None
        return head

    def prototype(self, node: Node) -> bool:
        """Whether declaration ``node`` declares a function (``CodeSpec.prototypes``): the
        declarator that holds the declared name itself is of the type the spec names. ``int
        *f(void);`` is one (the pointer is its return type's); ``void (*f)(int);`` is a variable
        (the pointer holds the name), and so are ``int x;`` and ``int x = f(1);``."""
        need = self.spec.prototypes.get(node.type)
        if need is None:
            return False
        holder, name = _declared(node)
        return name is not None and holder is not None and holder.type == need

    def _holds_definitions(self, node: Node, nest: int) -> bool:
        return any(self.find_definition(child, _nest=nest)[0] is not None for child in node.named_children)

    def _suffix(self, call: Node) -> Node | None:
        """What follows the callee of a call in Kotlin and Swift (``CodeSpec.call_suffix``): its
        arguments and its trailing lambda (``test("adds") { ... }``)."""
        last = call.named_children[-1] if self.spec.call_suffix and call.named_child_count > 1 else None
        return last if last is not None and last.type == self.spec.call_suffix else None

    def _trailing(self, call: Node) -> Node | None:
        """A call's block written after its arguments: Ruby's ``do ... end``, a Kotlin or Swift
        trailing lambda (through its wrapper, Kotlin's ``annotated_lambda``)."""
        block = call.child_by_field_name("block")
        if block is not None:
            return block
        suffix = self._suffix(call)
        last = suffix.named_children[-1] if suffix is not None and suffix.named_child_count else None
        if last is not None and last.type in self.spec.argument_wraps and last.named_child_count:
            last = last.named_children[-1]
        return last if last is not None and last.type in self.spec.callbacks else None

    def _arguments(self, call: Node) -> list[Node]:
        """A call's arguments, comments left out, each through its wrapper (PHP's ``argument``)."""
        spec = self.spec
        arguments = call.child_by_field_name("arguments")
        if arguments is None and (suffix := self._suffix(call)) is not None:
            arguments = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
        if arguments is None:
            return []
        found = []
        for node in arguments.named_children:
            if node.type in spec.attached:
                continue
            if node.type in spec.argument_wraps and node.named_child_count == 1:
                node = node.named_children[0]
            found.append(node)
        return found

    def registered(self, call: Node, *, bare: bool = False) -> Node | None:
        """The body of the callback ``call`` registers under a label (``CodeSpec.registrations``:
        ``it('adds', () => {`` *this* ``})``), or None when it registers none. ``bare``: a
        group is one too, with no label of its own (see :meth:`_group`)."""
        spec = self.spec
        arguments = self._arguments(call)
        labelled = bool(arguments) and arguments[0].type in spec.registration_labels
        if not labelled and not (bare and self._group(call, arguments)):
            return None
        # Ruby's block, else the last function among the arguments (Jest's ``it(name, fn, timeout)``).
        rest = arguments[1:] if labelled else arguments
        callback = self._trailing(call) or next((a for a in reversed(rest) if a.type in spec.callbacks), None)
        if callback is None or callback.type not in spec.callbacks:
            return None
        body = callback.child_by_field_name("body")
        if body is None and spec.call_suffix:  # a Kotlin or Swift lambda's statements
            body = next((c for c in callback.named_children if c.type in spec.callback_bodies), None)
        return body if body is not None and body.type in spec.callback_bodies else None

    def _callee(self, call: Node) -> str:
        """What a registering call calls, in brief: ``app.post``, ``$(\u2026).on(\u2026).on`` (a
        chain), ``test.each(\u2026)`` (a table), ``server.get`` (type arguments dropped)."""
        after = (*map(call.child_by_field_name, ("arguments", "block")), self._suffix(call))
        end = next((n.start_byte for n in after if n), call.end_byte)
        return _brief(self.doc.data[call.start_byte : end].decode("utf-8", "replace"))

    def _group(self, call: Node, arguments: list[Node]) -> bool:
        """Whether ``call`` groups what its callback registers though it has no label: its only
        argument is the callback and it is chained on a labelled call (Laravel's
        ``Route::middleware('auth')->group(function () {...})``, ``app.route('/book').get(fn)``),
        or it is Ruby's block on a receiver (``Rails.application.routes.draw do``, ``RSpec.configure
        do |config|``). Only at a file's top level, but in Kotlin and Swift, where a group is a
        suite call with a trailing lambda alone (Ktor's ``routing { ... }``, a route's ``get {
        ... }``), in a body too."""
        if self._suffix(call) is not None:
            return not arguments and self._trailing(call) is not None and self._suite_call(call)
        if call.child_by_field_name("block") is not None:
            # On a constant (``Rails.application``, ``RSpec``, ``Gem::Specification``): not
            # ``self.class_eval do``, ``[:a, :b].each do``, ``5.times do``.
            receiver = call.child_by_field_name("receiver")
            return not arguments and receiver is not None and self._text(receiver)[:1].isupper()
        inner = self._chained(call)
        if len(arguments) != 1 or inner is None:
            return False
        labels = self._arguments(inner)
        return bool(labels) and labels[0].type in self.spec.registration_labels

    def _chained(self, call: Node) -> Node | None:
        """The call ``call`` is chained on (``a(...)`` of ``a(...).b(...)``), if it is one of
        the registering kind."""
        access = call.child_by_field_name("function") or call  # JS and C# reach it through a member access
        if self._suffix(call) is not None:  # Kotlin's and Swift's ``describe("x") { }.config(...)``
            access = call.named_children[0]
            inner = access.named_children[0] if access.type == "navigation_expression" else None
            return inner if inner is not None and inner.type in self.spec.registrations else None
        for field_name in ("object", "receiver", "expression"):
            inner = access.child_by_field_name(field_name)
            if inner is not None:
                return inner if inner.type in self.spec.registrations else None
        return None

    def _suite_call(self, call: Node) -> bool:
        """Whether ``call`` is one a registered callback's body registers more with
        (``CodeSpec.suite_calls``: ``it`` in a ``describe``, tape's ``t.test``)."""
        words = _CALLEE_WORDS.findall(self._callee(call))
        if not words:
            return False
        if self.spec.call_suffix:
            # The callee's own name only: Kotlin's ``it`` in ``it.let { }`` is a lambda's parameter.
            return words[-1] in self.spec.suite_calls
        return words[0] in self.spec.suite_calls or words[-1] in self.spec.suite_calls

    def _label(self, call: Node) -> str | None:
        """A registered callback's label, on one line and cut short; None for a group's."""
        arguments = self._arguments(call)
        if not arguments or arguments[0].type not in self.spec.registration_labels:
            return None
        return _cut(" ".join(self._text(arguments[0]).decode("utf-8", "replace").split()), _MAX_LABEL)

    def registration_name(self, call: Node) -> str:
        """``callee(label)`` of a registered callback: ``app.post('/users')``, ``it("adds")``; a
        group's callee alone (``Route::middleware('auth')->group``)."""
        label = self._label(call)
        callee = _cut(self._callee(call), _MAX_CALLEE)
        return callee if label is None else f"{callee}({label})"

    def registration_signature(self, call: Node, body: Node) -> str:
        """The head a registered callback's parts repeat, or "" when it is its text up to the
        body as written: one line, the callback right after the label, nothing in brackets
        before them (``it("adds", () =>``; Ruby's ``describe "#add" do |x|``). Else it is built
        in brief: ``app.get('/admin', \u2026, function (req, res)``, ``$(\u2026).on(\u2026).on(
        'keydown', function (e)``, not every argument or call before the callback written out
        (a middleware's whole body, a test's options, a ``test.each`` table, a chain)."""
        callback = body.parent
        arguments = self._arguments(call)
        if callback is None or callback not in arguments:
            return ""  # Ruby's block
        place = arguments.index(callback)
        label = self._label(call)
        expected = 0 if label is None else 1  # where the callback stands right after the label
        callee = self._callee(call)
        if place == expected and "\u2026" not in callee and b"\n" not in self.doc.data[call.start_byte : body.start_byte]:
            return ""
        head = " ".join(self.doc.slice(callback.start_byte, body.start_byte).split())
        items = [*([label] if label is not None else []), *(["\u2026"] if place > expected else []), head]
        return f"{_cut(callee, _MAX_CALLEE)}({', '.join(items)}".rstrip()

    # ---- naming ------------------------------------------------------------------------------

    def name(self, unit: Unit) -> str:
        """The definition's name, qualified by its receiver type where the language has one."""
        spec = self.spec
        definition = unit.definition
        assert definition is not None
        typed = self.type_of(definition)
        if typed in spec.registrations:
            return self.registration_name(definition)
        if typed in spec.head_names:
            label = self._block_label(definition) if typed in spec.labelled_heads else None
            head = label or self._head_name(definition)
            if head:
                return head
        if spec.text_names and typed in spec.text_names:
            # COBOL's ``2000-PROCESS SECTION.``: its name is in its text, no node's.
            matched = self._text_names[typed].match(self._text(definition).decode("utf-8", "replace"))
            if matched is not None:
                return matched.group("name")
        name = None
        formatted = spec.name_formats.get(typed)
        if formatted is not None:
            child = definition.child_by_field_name(formatted[0])
            text = _clean_name(self._text(child)) if child is not None else None
            name = formatted[1].format(text) if text else None
        after = spec.name_after.get(definition.type)
        if after is not None:
            children = definition.children
            at = next((i for i, c in enumerate(children) if c.type == after[0]), len(children))
            text = _clean_name(self._text(children[at + 1])) if at + 1 < len(children) else None
            name = after[1].format(text) if text else name
        # ``const f = x => x`` is ``f`` (the arrow's own children hold only the ``x``); an object
        # is named by what holds it; other wrappers (decorators, ``export``) name nothing first.
        own = [] if typed in spec.self_bodies or typed in spec.nameless else [definition]
        if name is not None:
            candidates = []
        elif unit.wrappers:
            naming = [w for w in reversed(unit.wrappers) if w.type in spec.naming_wrappers]
            # A call it is passed to names nothing (Vue's ``export default defineComponent({...})``
            # is ``default``, not the library's ``defineComponent``), nor do that call's arguments.
            rest = [
                w for w in reversed(unit.wrappers)
                if w.type not in spec.naming_wrappers and w.type not in spec.calls
                and (w.parent is None or w.parent.type not in spec.calls)
            ]  # fmt: skip
            candidates = [*naming, *own, *rest]
        else:
            candidates = own
        for node in candidates:
            name = self._name_of(node)
            if name:
                break
        if name and typed in spec.specializer_names:
            name = self._specialized(definition, name)
        if not name and definition.type in spec.keyword_names:
            keywords = spec.keyword_kinds.get(definition.type, {})
            name = next((keywords[c.type] for c in definition.children if not c.is_named and c.type in keywords), None)
        if not name:
            holders = [spec.anonymous_names[w.type] for w in unit.wrappers if w.type in spec.anonymous_names]
            name = spec.anonymous_names.get(typed) or (holders[0] if holders else f"<{typed}>")
        if spec.receiver_field:
            receiver = definition.child_by_field_name(spec.receiver_field)
            if receiver is not None:
                found = _first_of_type(receiver, frozenset({"type_identifier"}))
                type_name = _clean_name(self._text(found)) if found is not None else None
                if type_name and type_name not in self._type_parameters(definition):
                    name = f"{type_name}.{name}"  # not ``fun <T : View> T.withIf``: any T
        trait_field = spec.trait_fields.get(typed)
        if trait_field is not None and definition.type in spec.definition_calls:
            # Elixir's ``defimpl Priced, for: Item``: the trait is its first argument, the type
            # its keyword argument; named as Rust's ``impl Priced for Item`` is.
            implementer = self._keyword_argument(definition, trait_field)
            type_name = _clean_name(self._text(implementer)) if implementer is not None else None
            if type_name:
                name = f"<{type_name} as {name.rsplit('.', 1)[-1]}>"
        elif trait_field is not None:
            name = _bare_type(name)
            trait = definition.child_by_field_name(trait_field)
            trait_name = _clean_name(self._text(trait)) if trait is not None else None
            if trait_name:
                name = f"<{name} as {trait_name.rsplit('.', 1)[-1]}>"  # ``fmt::Display``: ``Display``
        if spec.name_prefixes:
            named = next((c for f in spec.name_fields if (c := definition.child_by_field_name(f)) is not None), None)
            before = named.prev_sibling if named is not None else None
            if before is not None and before.type in spec.name_prefixes:
                name = f"{before.type}{name}"  # MATLAB's ``function set.Price(obj, v)``: ``set.Price``
        if spec.qualifiers:
            # Its own field (Ruby's ``def self.settings``), then each wrapper's from the inside
            # out: Ada's ``separate (Conveyor.Control)`` subunit holds the body of
            # ``Conveyor.Control.Run_Shift``, as it is named in the package's own body.
            for holder, key in ((definition, typed), *((w, w.type) for w in reversed(unit.wrappers))):
                qualifier = spec.qualifiers.get(key)
                node = holder.child_by_field_name(qualifier) if qualifier is not None else None
                text = _clean_name(self._text(node)) if node is not None else None
                if text:
                    name = f"{text}.{name}"
        return name

    def _head_name(self, definition: Node) -> str | None:
        """A ``CodeSpec.head_names`` definition's name: its text before its body, on one line,
        cut short past ``_MAX_NAME`` characters (CSS's ``.card .title,\n.card > h2 {`` is
        ``.card .title, .card > h2``: selectors as written, their dots and ``::`` kept); to its
        ``head_ends`` token when it is its own body (VHDL's ``process (clk)``), its first line
        when it has none (Verilog's ``always @(posedge clk)`` over one statement)."""
        body = self.body(definition)
        if body is definition:  # its own body: headed to its own token (``CodeSpec.head_ends``)
            end = self.head_end(definition) or definition.end_byte
        elif body is None:
            end = min(definition.end_byte, self.doc.line_end(definition.start_point.row + 1))
        else:
            end = body.start_byte
        text = " ".join(self.doc.data[definition.start_byte : end].decode("utf-8", "replace").split())
        return _cut(text, _MAX_NAME) if text else None

    def _block_label(self, definition: Node) -> str | None:
        """The label of a ``CodeSpec.labelled_heads`` definition: its own name, else its body's
        (Verilog's ``begin : count``), or None."""
        name = self._name_of(definition)
        if name:
            return name
        body = self.body(definition)
        return self._name_of(body) if body is not None and body is not definition else None

    def _type_parameters(self, definition: Node) -> set[str]:
        """The names of ``definition``'s own type parameters (``T`` of ``fun <T : View>``)."""
        names: set[str] = set()
        for child in definition.named_children:
            if child.type.endswith("type_parameters"):
                for parameter in child.named_children:
                    found = _first_of_type(parameter, frozenset({"type_identifier", "identifier", "simple_identifier"}))
                    if found is not None:
                        names.add(self._text(found).decode("utf-8", "replace"))
        return names

    def _name_of(self, node: Node) -> str | None:
        name = self._own_name(node)
        if name:
            for separator in self.spec.name_separators:  # Lua's ``Account:deposit``
                name = name.replace(separator, ".")
        return name

    def _own_name(self, node: Node) -> str | None:
        spec = self.spec
        if spec.head_patterns and node.type in spec.head_patterns:
            return self.head_match(node)[1]
        if node.type in spec.definition_calls:
            return self._call_name(node)
        if node.type in spec.selectors:  # Objective-C's ``restock:(NSString *)sku count:(int)n``: ``restock:count:``
            parts: list[str] = []
            for child in node.named_children:
                if child.type in spec.name_types:
                    parts.append(_clean_name(self._text(child)) or "")
                elif "parameter" in child.type and parts and not parts[-1].endswith(":"):
                    parts[-1] += ":"
            if parts and all(parts):
                return "".join(parts)
        if spec.label_types:  # HCL's ``resource "aws_s3_bucket" "assets"``: ``aws_s3_bucket.assets``
            labels = [_clean_name(self._text(c)) for c in node.named_children if c.type in spec.label_types]
            if labels and all(labels):
                return ".".join(label.strip("\"") for label in labels if label)
        for field_name in spec.name_fields:
            child = node.child_by_field_name(field_name)
            text = self._identifier(self._name_part(child)) if child is not None else None
            if text:
                return text
        if spec.name_paths:
            found = self._path_name(node)[0]
            if found is not None:
                return _clean_name(self._text(found))
        for child in node.named_children:
            if child.type in spec.name_types:
                return _clean_name(self._text(child))
        for child in node.named_children:  # Go's type_spec, JS's variable_declarator
            if "parameter" in child.type:
                continue  # a parameter's name is no name of the function's (Lua's ``function(self)``)
            if child.type in spec.name_holders:
                held = next((c for c in child.named_children if c.type in spec.name_types), None)
                if held is not None:
                    return _clean_name(self._text(held))
            inner = child.child_by_field_name("name")
            if inner is not None:
                return _clean_name(self._text(self._name_part(inner)))
        return None

    def _name_part(self, node: Node) -> Node:
        """The part of name node ``node`` that is the name itself (``CodeSpec.name_parts``: F#'s
        ``Add`` of ``this.Add``), or ``node``."""
        parts = self.spec.name_parts
        for _ in range(_MAX_NAME_PATH):
            field_name = parts.get(node.type)
            inner = node.child_by_field_name(field_name) if field_name else None
            if inner is None:
                return node
            node = inner
        return node

    def _path_name(self, node: Node) -> tuple[Node | None, list[str]]:
        """The node naming ``node`` down its ``CodeSpec.name_paths`` (or None), and the types
        of the nodes gone through on the way."""
        spec = self.spec
        passed: list[str] = []
        current = node
        for _ in range(_MAX_NAME_PATH):
            first = next((c for c in current.named_children if c.type not in spec.path_skips), None)
            if first is None:
                break
            if first.type in spec.name_types:
                return first, passed
            if first.type not in spec.name_paths:
                break
            current = first
            passed.append(current.type)
            named = next((c for f in spec.name_fields if (c := current.child_by_field_name(f)) is not None), None)
            if named is not None:
                return named, passed
        return None, passed

    def _call_name(self, call: Node) -> str | None:
        """The name a defining call (``CodeSpec.definition_calls``) gives in its first argument:
        ``test("adds")`` for a label, ``Shop.Cart``, ``add`` of ``add(cart, item)`` and of
        ``add(x) when x > 0``; None without arguments (``setup do``)."""
        spec = self.spec
        if spec.argument_lists:
            return self._list_name(call)
        if spec.name_keywords:
            return self._keyword_name(call)  # Starlark's ``name = "stock"``
        callee = call.child(0)
        holder = call.named_child(1) if call.named_child_count > 1 else None
        if callee is None or holder is None or holder.type in spec.body_types or not holder.named_child_count:
            return None
        argument: Node | None = holder.named_child(0)
        if argument is not None and argument.type in spec.registration_labels:
            label = _cut(" ".join(self._text(argument).decode("utf-8", "replace").split()), _MAX_LABEL)
            return f"{self._text(callee).decode('utf-8', 'replace')}({label})"
        for _ in range(_MAX_CALL_NAME_DEPTH):
            if argument is None:
                return None
            if argument.type in spec.name_types:
                return _clean_name(self._text(argument))
            fields = (argument.child_by_field_name(field_name) for field_name in spec.name_fields)
            argument = next((found for found in fields if found is not None), None)
        return None

    def _list_name(self, call: Node) -> str | None:
        """The name a defining list (``CodeSpec.argument_lists``) gives: its first argument's
        (``(defn total [items] ...)``), with its second for a dispatching one
        (``dispatch_names``: ``(defmethod price :book [item] ...)`` is ``price :book``); a
        member's (``member_calls``) is its callee's, the method it defines or implements."""
        spec = self.spec
        typed = self.type_of(call)
        callee = self._call_head(call)
        if typed in spec.member_calls.values():
            name = self._word(callee)
            holder = call.parent
            if name and holder is not None and self._callee_word(holder) in spec.member_groups:
                # ``(extend-protocol Priced String (cost [s] ...) nil (cost [_] ...))``: the
                # type before it names its group, ``String.cost``.
                label = call.prev_named_sibling
                while label is not None and (label.type in spec.definition_calls or self.is_comment(label)):
                    label = label.prev_named_sibling
                text = _clean_name(self._text(label)) if label is not None else None
                if text:
                    name = f"{text}.{name}"
            return name
        arguments = self._list_arguments(call)
        first = arguments[0] if arguments else None
        if first is not None and typed in spec.name_lists:
            first = self._listed_name(first)
        name = self._word(first)
        if name is None and first is not None and (first.type in spec.definition_calls or self._text(first)[:1] == b'"'):
            # A list or a string names it as written: R7RS's ``(define-library (shop stock)
            # ...)``, ASDF's ``(defsystem "shop" ...)`` (its quotes off).
            name = _clean_name(self._text(first))
        if name and typed in spec.dispatch_names and len(arguments) > 1:
            value = _cut(" ".join(self._text(arguments[1]).decode("utf-8", "replace").split()), _MAX_LABEL)
            name = f"{name} {value}"
        return name

    def _list_arguments(self, call: Node) -> list[Node]:
        """A defining list's arguments: its named children after its callee, comments left out."""
        spec = self.spec
        callee = self._call_head(call)
        if callee is None:
            return []
        return [
            c for c in call.named_children
            if c.start_byte >= callee.end_byte and c.type not in spec.callee_skips and not self.is_comment(c)
        ]  # fmt: skip

    def _name_list(self, call: Node) -> Node | None:
        """The first argument of a defining list that names it inside a list of its own
        (``CodeSpec.name_lists``: Scheme's ``(define (total items) ...)``), or None."""
        if self.type_of(call) not in self.spec.name_lists:
            return None
        arguments = self._list_arguments(call)
        return arguments[0] if arguments and arguments[0].type in self.spec.definition_calls else None

    def _listed_name(self, node: Node) -> Node:
        """The node that names a definition in its first argument (``CodeSpec.name_lists``):
        that argument, or when it is a list the first word inside it, past the lists a curried
        ``(define ((adder n) x) ...)`` nests (``adder``)."""
        for _ in range(_MAX_CALL_NAME_DEPTH):
            if node.type not in self.spec.definition_calls:
                break
            inner = next((c for c in node.named_children if not self.is_comment(c)), None)
            if inner is None:
                break
            node = inner
        return node

    def _specialized(self, definition: Node, name: str) -> str:
        """A method's name with its qualifiers and the classes its required parameters
        specialize on (``CodeSpec.specializer_names``): Common Lisp's ``(defmethod price
        :around ((item book) qty) ...)`` is ``price :around (book t)``; ``name`` without a
        parameter list."""
        spec = self.spec
        if definition.type in spec.definition_calls:
            after = self._list_arguments(definition)[1:]
        else:  # the name's siblings in its head (Common Lisp's ``defun_header``)
            named = self._path_name(definition)[0]
            holder = named.parent if named is not None else None
            after = [c for c in holder.named_children if c.start_byte >= named.end_byte] if holder and named else []
        qualifiers: list[str] = []
        parameters: Node | None = None
        for node in after:
            if self.is_comment(node):
                continue
            if node.type in spec.definition_calls:
                parameters = node
                break
            qualifiers.append(" ".join(self._text(node).decode("utf-8", "replace").split()))
        if parameters is None:
            return name
        classes: list[str] = []
        for parameter in parameters.named_children:
            if self.is_comment(parameter):
                continue
            if parameter.type in spec.definition_calls:  # ``(item book)``: specialized on ``book``
                parts = [c for c in parameter.named_children if not self.is_comment(c)]
                classes.append(" ".join(self._text(parts[1]).decode("utf-8", "replace").split()) if len(parts) > 1 else "t")
            elif self._text(parameter).startswith(b"&"):
                break  # ``&optional``, ``&key``, ``&rest``: no more required parameters
            else:
                classes.append("t")
        return _cut(" ".join([name, *qualifiers, f"({' '.join(classes)})"]), _MAX_NAME)

    def _keyword_argument(self, call: Node, key: str) -> Node | None:
        """The value of a defining call's keyword argument ``key`` (``for:`` of Elixir's
        ``defimpl Priced, for: Item``), or None."""
        holder = call.named_child(1) if call.named_child_count > 1 else None
        for group in holder.named_children if holder is not None else []:
            for pair in group.named_children:
                found = pair.child_by_field_name("key")
                if found is not None and self._text(found).decode("utf-8", "replace").rstrip(": \t\n") == key:
                    return pair.child_by_field_name("value")
        return None

    def _text(self, node: Node) -> bytes:
        """``node``'s source bytes, from the document (a tree parsed through a read callback
        keeps no source: ``node.text`` would call the callback again, slowly)."""
        return self.doc.data[node.start_byte : node.end_byte]

    def _identifier(self, node: Node) -> str | None:
        for _ in range(8):
            cast = node if node.type == "operator_cast" else None
            if node.type == "qualified_identifier":  # ``Box<T>::operator T*() const``
                name = node.child_by_field_name("name")
                for _ in range(_MAX_NAME_PATH):  # (``a::Reader::operator bool``: a qualifier each)
                    if name is None or name.type != "qualified_identifier":
                        break
                    name = name.child_by_field_name("name")
                cast = name if name is not None and name.type == "operator_cast" else None
            if cast is not None:  # ``operator const char*() const``: named up to its parameters
                parameters = cast.child_by_field_name("declarator")
                for _ in range(8):  # through ``*`` and ``&`` to the parameter list
                    if parameters is None or parameters.type.endswith("function_declarator"):
                        break
                    parameters = parameters.child_by_field_name("declarator")
                end = parameters.start_byte if parameters is not None else cast.end_byte
                return _clean_name(self.doc.data[node.start_byte : end].rstrip())
            if node.type not in _DECLARATOR_TYPES:
                return _clean_name(self._text(node))
            inner = node.child_by_field_name("declarator") or next(
                (c for c in node.named_children if c.type in _DECLARATOR_TYPES or c.type.endswith(("identifier", "operator_name"))),
                None,
            )
            if inner is None:
                return None
            node = inner
        return None

    def signature(self, definition: Node, wrappers: list[Node] | None = None, keywords: list[Node] | None = None) -> str:
        """The definition's text up to its body, at most a few lines (the repeated header).
        A definition without a name of its own (``const fetchCart = async (id) => {``) starts
        at its outermost wrapper, so the signature names it; ``keywords`` are tokens before it
        on its line that belong to it (Go's ``type``)."""
        key = (definition.start_byte, definition.end_byte, definition.type)
        found = self._signatures.get(key)
        if found is None:
            found = self._signatures[key] = self._signature(definition, wrappers, keywords)
        return found

    def _signature(self, definition: Node, wrappers: list[Node] | None, keywords: list[Node] | None) -> str:
        body = self.body(definition)
        typed = self.type_of(definition)
        if body is not None and typed in self.spec.registrations:
            brief = self.registration_signature(definition, body)
            if brief:
                return brief
        end = self.body_lead(definition, body)[0].start_byte if body is not None else definition.end_byte
        start = definition.start_byte
        spec = self.spec
        paired = self._sibling_bodies.get(_key(definition))
        if paired is not None:
            start = paired[1].start_byte  # its head, round it (``static`` before Dart's method)
        if typed in spec.self_bodies and not wrappers:
            # Its own body, with nothing around it that names it (Scala 3's ``extension (s:
            # String)`` then its ``def``s): its head is its text before its first member.
            end = self.members_start(definition)
        opener = spec.head_ends.get(typed)
        if opener is not None or typed in self._named_types or definition.type in spec.head_patterns:
            # Its own body, headed to its opening token (Zig's ``struct {``); a call named by a
            # keyword argument, to that argument (``cc_library(`` then ``name = "stock",``); a
            # statement read by its head's text, to its body's ``{`` (Groovy's).
            end = self.head_end(definition) or end
        if wrappers and (
            typed in spec.self_bodies
            or any(w.type in spec.naming_wrappers for w in wrappers)
            or (definition.child_by_field_name("name") is None and not self._name_of(definition))
        ):
            start = wrappers[0].start_byte  # the signature shows what names the definition
            if opener is not None and keywords:
                start = min(start, keywords[0].start_byte)  # ``pub`` before Zig's ``const``
        elif keywords:
            start = min(start, keywords[0].start_byte)
        if spec.head_macros:
            start = written_start(self.doc.data, start)  # (read as spaces by the parser alone)
        if definition.type in spec.line_heads:
            end = min(definition.end_byte, self.doc.line_end(self.doc.line_of_byte(start)))  # its first line
        if typed in spec.help_heads:
            end = self.help_end(definition, help_text=False)  # its first line and those continuing it
        text = self.doc.slice(start, end).rstrip()
        if typed in self._named_types:  # (Starlark's targets: its name's line too)
            text = self._keyword_signature(definition) or text
        if spec.uncommented_heads:
            # PowerShell's help comment between ``function Get-Price {`` and its ``param(...)``:
            # the lines of the definition's own comments are left out, those on lines of their
            # own (``function Get-Price { # note`` keeps its line).
            data = self.doc.data
            inner = [
                c for c in definition.children
                if c.type in spec.attached and start < c.start_byte < end
                and not data[self.doc.line_start(c.start_point.row + 1) : c.start_byte].strip()
                and not data[c.end_byte : self.doc.line_end(c.end_point.row + 1)].strip()
            ]  # fmt: skip
            if inner:
                rows = {row for c in inner for row in range(c.start_point.row, c.end_point.row + 1)}
                first_row = self.doc.line_of_byte(start) - 1
                kept = [line for at, line in enumerate(text.splitlines()) if at + first_row not in rows]
                text = "\n".join(kept).rstrip()
        lines = text.splitlines() or [""]
        if body is None:
            # Without a body the whole text would be the head: its first line, or down to the
            # line that names it (Java's ``public final native`` and annotations above it; a C
            # prototype's name below its return type and export macros).
            name = definition.child_by_field_name("name")
            if name is None and typed in spec.prototypes:
                name = _declared(definition)[1]
            if name is None and spec.name_paths:
                name = self._path_name(definition)[0]  # (Ada's ``generic`` formals, then ``procedure Swap``)
            named = name.start_point.row + 2 - self.doc.line_of_byte(start) if name is not None else 1
            lines = lines[: named if 1 <= named <= _MAX_SIGNATURE_LINES else 1]
        elif len(lines) > _MAX_SIGNATURE_LINES:
            folded = self._folded(lines)
            if len(folded) == 1:
                self._unfolded[folded[0]] = text  # (its lines, for a split part's naming line)
            lines = folded
        # The first line starts at the definition, past its indentation: the lines after it
        # lose that much too, so a method's repeated signature reads as written, not shifted.
        indent = self.doc.data[self.doc.line_start(self.doc.line_of_byte(start)) : start]
        if len(lines) > 1 and indent and not indent.strip():
            width = len(indent)
            lines[1:] = [line[width:] if not line[:width].strip() else line for line in lines[1:]]
        return "\n".join(lines).rstrip()

    def _folded(self, lines: list[str]) -> list[str]:
        """A signature of more than :data:`_MAX_SIGNATURE_LINES` lines (a parameter a line) as
        one line, its runs of whitespace closed up (its text is otherwise as written), when that is at most
        :data:`_MAX_FOLDED_CHARS` long and no line comment would run over the rest of it; else
        its first lines and ``…``, so a reader sees that it goes on. (Cut at six lines, a
        repeated ``def receive(`` lost its last parameter and its return type.)"""
        opener, closer = self.spec.comment
        if closer or not any(opener in line for line in lines[:-1]):
            folded = " ".join(line.strip() for line in lines if line.strip())
            folded = _AFTER_OPENING.sub(r"\1", folded)
            folded = _BEFORE_CLOSING.sub(r"\1", folded)
            if len(folded) <= _MAX_FOLDED_CHARS:
                return [folded]
        return [*lines[: _MAX_SIGNATURE_LINES - 1], "…"]

    def head_end(self, definition: Node) -> int | None:
        """Where the head of a definition that is its own body ends (``CodeSpec.head_ends``):
        after its opening token or node (Zig's ``{``, Clojure's ``[items]``), or, in a Lisp
        (``body_starts``), before the first of its arguments that opens its body when that
        comes first (a multi-arity ``([x] ...)``); None without either. A ``help_heads``
        definition's head is its first line and the comment right under it; a ``head_patterns``
        one's runs to its body's ``{``."""
        spec = self.spec
        if spec.head_patterns and definition.type in spec.head_patterns:
            brace = self.head_brace(definition)  # (its body holds its head's last words: Groovy's)
            return brace.end_byte if brace is not None else None
        typed = self.type_of(definition)
        if typed in spec.help_heads:
            return self.help_end(definition)
        if typed in self._named_types:
            return self._keyword_head_end(definition)  # ``cc_library(`` then ``name = "stock",``
        opener = spec.head_ends.get(typed)
        if opener is None:
            return None
        if not spec.argument_lists:
            token = self.head_token(definition)
            return token.end_byte if token is not None else None
        listed = self._name_list(definition) if spec.name_lists else None
        if listed is not None:
            return listed.end_byte  # Scheme's ``(define (total items)``: the call it defines
        callee = self._call_head(definition)
        # What names it comes first: a multimethod's dispatch value may be a vector too.
        # (A member's name is its callee: its parameters come first.)
        naming = 2 if typed in spec.dispatch_names else 1
        if callee is None or typed in spec.member_calls.values():
            naming = 0
        previous: Node | None = None
        # (A container of groups, ``(extend-protocol Priced String (...) nil (...))``, is headed
        # by its name alone: the first group's label is no more its head than the others'.)
        for child in definition.children if typed not in spec.member_groups else ():
            argument = callee is not None and child.start_byte >= callee.end_byte and child.is_named
            if argument and not self.is_comment(child):
                naming -= 1
                if naming >= 0:
                    previous = child
                    continue
            if child.type == opener:
                return child.end_byte
            if child.type in spec.body_starts and previous is not None and previous.type not in spec.callee_skips:
                return previous.end_byte
            if not self.is_comment(child):
                previous = child
        if callee is not None:  # (``(def rate 0.2)``: its name ends it)
            named = [c for c in definition.named_children if c.start_byte >= callee.end_byte and not self.is_comment(c)]
            return named[0].end_byte if named else None
        return None

    def help_end(self, definition: Node, *, help_text: bool = True) -> int:
        """Where the head of a ``CodeSpec.help_heads`` definition ends: after the comment that
        starts on the line right under its first line (its help text; MATLAB's ``classdef``),
        else after its first line, continuation lines included (``classdef (Sealed) Ledger <
        ...`` then ``handle``). ``help_text=False``: after that line, the help left out."""
        data = self.doc.data
        children = [c for c in definition.children if c.is_named or data[c.start_byte : c.end_byte].strip()]
        if not children:
            return definition.end_byte
        at = 0  # the last child of the first line: each one starts where the one before ends
        while at + 1 < len(children) and children[at + 1].start_point.row == children[at].end_point.row:
            at += 1
        last = children[at]
        below = children[at + 1] if at + 1 < len(children) else None
        if help_text and below is not None and self.is_comment(below) and below.start_point.row == last.end_point.row + 1:
            return below.end_byte
        return last.end_byte

    def head_token(self, definition: Node) -> Node | None:
        """The child that ends the head of a definition that is its own body (``CodeSpec.head_ends``):
        of the types given, the first in their order that it has (VHDL's ``process (clk)`` ends
        at its ``)``, ``process is`` at its ``process``), or None."""
        openers = self.spec.head_ends.get(self.type_of(definition), ())
        for opener in (openers,) if isinstance(openers, str) else openers:
            found = next((c for c in definition.children if c.type == opener), None)
            if found is not None:
                return found
        return None

    def members_start(self, container: Node) -> int:
        """Where a container that is its own body (``self_bodies``) has its first member: what
        comes before is its head (``extension (s: String)``), no member of it."""
        opened = self.spec.open_calls
        return next(
            (
                c.start_byte
                for c in container.named_children
                if self.find_definition(c)[0] is not None or (opened and self._opened_call(c, opened) is not None)
            ),
            container.end_byte,
        )

    def body(self, definition: Node) -> Node | None:
        """The node holding the definition's statements or members."""
        spec = self.spec
        typed = self.type_of(definition)
        if typed in spec.self_bodies or typed in spec.own_bodies:
            return definition
        if typed in spec.registrations:
            return self.registered(definition, bare=True)  # found as a definition: a group if not labelled
        paired = self._sibling_bodies.get(_key(definition))
        if paired is not None:  # its statements' block, or the sibling itself (``=> expr;``)
            return next((c for c in paired[0].named_children if c.type in spec.body_types), paired[0])
        body = definition.child_by_field_name("body")
        if body is not None:
            return self._chained_body(body) if spec.body_chains else body
        token = spec.body_after.get(typed)
        if token is not None:
            # F#'s ``member this.Add(n) =`` then its expression (in its ``method_or_prop_defn``).
            for holder in (definition, *(c for c in definition.named_children if c.type in spec.body_hosts)):
                children = holder.children
                at = next((i for i, c in enumerate(children) if c.type == token), None)
                if at is not None:
                    return next((c for c in children[at + 1 :] if c.is_named and not self.is_comment(c)), None)
        for child in reversed(definition.named_children):
            if child.type in spec.body_types:
                return child
            if child.type in spec.body_hosts:
                return self._hosted_body(child)
        found: Node | None = None
        for step in spec.body_paths.get(typed, ()):
            found = next((c for c in (definition if found is None else found).named_children if c.type == step), None)
            if found is None:
                return None
        return found

    def _chained_body(self, body: Node) -> Node:
        """The body ``body`` stands for (``CodeSpec.body_chains``): Nix's curried ``name: {
        port }: pkgs.writeShellApplication { ... }`` has the builder's set for its body, not the
        inner function; ``body`` when it stands for none."""
        spec = self.spec
        for _ in range(_MAX_HOST_DEPTH):
            field_name = spec.body_chains.get(body.type)
            inner = body.child_by_field_name(field_name) if field_name else None
            if inner is None or not (
                inner.type in spec.body_chains or inner.type in spec.definitions or inner.type in spec.transparent
            ):
                break
            body = inner
        if body.type in spec.containers:  # a set: its bindings (its ``{`` ends the head, its ``}`` the tail)
            return next((c for c in reversed(body.named_children) if c.type in spec.body_types), body)
        return body

    def _hosted_body(self, host: Node) -> Node | None:
        """The body a ``CodeSpec.body_hosts`` node holds, through the hosts it holds in turn
        (Verilog's ``always @(posedge clk) begin``: ``statement`` > ``statement_item`` > the
        event control's statement > ... > the ``begin`` block), or None."""
        spec = self.spec
        current: Node | None = host
        for _ in range(_MAX_HOST_DEPTH):
            if current is None:
                return None
            found = next((c for c in current.named_children if c.type in spec.body_types), None)
            if found is not None:
                return found
            current = next((c for c in reversed(current.named_children) if c.type in spec.body_hosts), None)
        return None

    def body_lead(self, definition: Node, body: Node) -> list[Node]:
        """The body and the comments right before it: some grammars (Python's, Ruby's) hang a
        comment above the first member on the definition, not on its body. Such comments
        belong to that member, not to the signature. The first node is where the body begins."""
        lead: list[Node] = []
        holder = definition
        if self.spec.body_chains and body.parent is not None and body.parent.start_byte >= definition.start_byte:
            holder = body.parent  # a body down a chain (Nix's ``name: {``, then a comment, then its bindings)
        for child in holder.children:
            if child.start_byte >= body.start_byte:
                break
            if child.type in self.spec.attached:
                lead.append(child)
            else:
                lead.clear()
        # A comment on the signature's own line stays with the signature.
        while lead and self.doc.data[self.doc.line_start(lead[0].start_point.row + 1) : lead[0].start_byte].strip():
            lead.pop(0)
        return [*lead, body]

    def kind(self, definition: Node, in_container: bool) -> str:
        """The Chunk kind of a definition node."""
        spec = self.spec
        typed = self.type_of(definition)
        if typed in spec.registrations:
            return "callback"
        keywords = spec.keyword_kinds.get(typed)
        if keywords:
            if spec.keyword_hosts:
                found = self._hosted_keyword(definition, keywords)
            else:
                found = next(
                    (keywords[c.type] for c in definition.children if not c.is_named and c.type in keywords), None
                )
            if found:
                return found
        if spec.child_kinds and typed in spec.child_kinds:
            # Ada's ``subprogram_body``: a ``procedure_specification`` or a ``function_specification``.
            children = spec.child_kinds[typed]
            found = next((children[c.type] for c in definition.named_children if c.type in children), None)
            if found:
                return found
        if typed in spec.named_kinds:
            named = next((c for c in definition.named_children if c.type in spec.name_types), None)
            text = _clean_name(self._text(named)) if named is not None else None
            word = _KIND_WORD.match(text.lstrip("@")) if text else None
            if word:
                return word.group()  # HCL's block type: ``resource``, ``variable``
        if spec.name_lists and self._name_list(definition) is not None:
            return spec.name_lists[typed]  # Scheme's ``(define (total items) ...)``: a function
        values = spec.value_kinds.get(typed)
        if values:  # Clojure's ``(def total (fn [xs] ...))``: a function
            callee = self._call_head(definition)
            value = next(
                (c for c in reversed(definition.named_children)
                 if callee is not None and c.start_byte >= callee.end_byte and not self.is_comment(c)),
                None,
            )  # fmt: skip
            word = self._callee_word(value) if value is not None and value.type in spec.definition_calls else None
            if word in values:
                return values[word]
        if spec.callee_kinds:
            call = definition.parent
            for _ in range(_MAX_HOST_DEPTH):  # (through parentheses: ``mkDerivation (finalAttrs: {``)
                if call is None or call.type not in spec.wrappers or call.type in spec.naming_wrappers:
                    break
                call = call.parent
            found = None
            if call is not None and call.type in spec.calls:
                found = spec.callee_kinds.get(self._callee_name(call))
            if found:
                return found  # Nix's ``stdenv.mkDerivation { ... }``: a ``derivation``
        if typed in spec.kinds:
            return spec.kinds[typed]
        if typed in spec.containers:
            return "class"
        if spec.receiver_field and definition.child_by_field_name(spec.receiver_field) is not None:
            return "method"
        own = self._own_name(definition) or "" if typed in spec.functions else ""
        if any(mark in own for mark in spec.method_marks) and not self._in_namespaces(own):
            return "method"  # ``void Matrix::multiply()`` defined outside its class
        holder = definition.parent
        if holder is not None and holder.type in spec.free_wrappers:
            return "function"  # C++'s ``friend`` defined in its class: no member of it
        if typed in spec.functions and holder is not None and holder.type in spec.assignments:
            target = holder.child_by_field_name("left")
            if target is not None and b".prototype." in self._text(target):
                return "method"  # ``Router.prototype.route = function``: every Router's method
        if spec.plain_kinds and typed in spec.plain_kinds:  # Pascal's ``procedure Check;``: a ``procedure``
            found = self._hosted_keyword(definition, spec.plain_kinds[typed])
            if found:
                return found
        return "method" if in_container else "function"

    def _in_namespaces(self, own: str) -> bool:
        """Whether the qualifier of a qualified name (``shop.twice`` of ``int shop::twice(int)``)
        is namespaces this file declares (``namespace shop {``): a free function's, no class's."""
        qualifier = own.rpartition(".")[0]
        if not qualifier or b"namespace" not in self.doc.data:
            return False
        if self._namespaces is None:
            self._namespaces = self._namespace_names()
        return all(part.encode() in self._namespaces for part in qualifier.split("."))

    def _namespace_names(self) -> frozenset[bytes]:
        """The names of the namespaces the file declares, each part of a nested one (``shop``
        and ``util`` of ``namespace shop::util``), from the tree: the nodes of the spec's
        ``namespace`` kind, found by a query (natively, not a walk in Python). A macro beside
        the name (``namespace std _GLIBCXX_VISIBILITY(default) {``) leaves it a namespace."""
        tree = self.maker.prep.tree
        types = tuple(sorted(typed for typed, kind in self.spec.kinds.items() if kind == "namespace"))
        query = _namespace_query(self.spec.parser_name, types, tree.language) if tree is not None and types else None
        if query is None:
            return frozenset()
        from tree_sitter import QueryCursor

        data = self.doc.data
        names = QueryCursor(query).captures(tree.root_node).get("name", [])
        return frozenset(
            part for node in names for part in _NAME_PARTS.split(data[node.start_byte : node.end_byte]) if part
        )

    def _hosted_keyword(self, definition: Node, keywords: dict[str, str]) -> str | None:
        """The kind ``keywords`` give the first keyword of ``definition``'s own: a token, or a
        named child of a ``CodeSpec.keyword_hosts`` type when ``definition`` is one, or a keyword
        among the children of its child of such a type (Pascal's ``declProc`` header); or None."""
        hosts = self.spec.keyword_hosts
        named = definition.type in hosts
        for child in definition.children:
            if child.type in keywords and (named or not child.is_named):
                return keywords[child.type]
            if child.type in hosts:
                found = next((keywords[c.type] for c in child.children if c.type in keywords), None)
                if found is not None:
                    return found
        return None

    def _callee_name(self, call: Node) -> str:
        """The last name of what a one-argument call (``CodeSpec.call_argument``) applies, down
        through the calls it curries: ``mkIf`` of ``lib.mkIf cfg.enable { ... }``."""
        callee: Node | None = call
        for _ in range(_MAX_HOST_DEPTH):
            if callee is None or callee.type not in self.spec.calls:
                break
            callee = callee.child_by_field_name("function")
        if callee is None:
            return ""
        return self._text(callee).decode("utf-8", "replace").rsplit(".", 1)[-1].strip()

    # ---- steps 2-5: one level ----------------------------------------------------------------

    def level(
        self,
        nodes: list[Node],
        path: tuple[str, ...],
        header: str,
        parent: Pending | None,
        *,
        depth: int,
        in_container: bool,
        units: list[Unit] | None = None,
        function_body: bool = False,
        packed: bool = False,
    ) -> None:
        """Chunk one level of siblings; definitions that do not fit recurse (depth-bounded).
        ``packed``: the definitions that fit are packed together as with ``merge_siblings``
        (``CodeSpec.packed_members``)."""
        if units is None:
            units = self.units(nodes)
        loose_kind = "module" if not path else "statements"
        loose_symbol = self.spec.path_separator.join(path) if path else LOOSE_SYMBOL
        # In a split function's body every group is a part of that function, named after it.
        owner = loose_symbol if function_body else None
        run: list[tuple[Unit, str]] = []  # packable (unit, symbol) pairs awaiting packing

        def flush() -> None:
            if run:
                self.pack(run, loose_kind, loose_symbol, header, parent, in_container, owner)
                run.clear()

        scoped = path  # the path of the definitions: longer after a file-scoped namespace
        # (Merging packs every small definition already: no group of prototypes to keep apart.)
        merging = self.settings.merge_siblings or packed
        grouped = self.prototype_groups(units) if self.spec.prototypes and not function_body and not merging else {}
        units = list(units)  # (an end marker split off below is read next)
        skip = 0  # units already in a chunk made for the one before them
        for at, unit in enumerate(units):
            if skip:
                skip -= 1
                continue
            if unit.definition is None or depth >= MAX_DEPTH:
                run.append((unit, ""))
                continue
            # A namespace after a file-scoped one is not in it: Perl's ``package main;`` or
            # ``package Shop::Price {`` after ``package Shop::Cart;``, PHP's second ``namespace``.
            own = (*(path if self.type_of(unit.definition) in self.spec.scoping else scoped), self.name(unit))
            symbol = self.spec.path_separator.join(own)
            if self.scopes(unit):
                scoped = own
            if self.misnamed(unit.definition):
                self.misread.append((unit.first, unit.last))
            lead = grouped.get(id(unit))
            if lead is not None:
                if lead == id(unit):
                    flush()  # a documented group starts: nothing before it joins
                if self.fits(unit.first, unit.last, symbol, header):
                    run.append((unit, symbol))
                    if at + 1 == len(units) or grouped.get(id(units[at + 1])) != lead:
                        flush()  # the group ends: nothing after it joins either
                    continue
            if (
                unit.closed
                and not self.fits(unit.first, unit.last, symbol, header)
                and self.fits(unit.first, unit.closed - 1, symbol, header)
            ):
                # Whole but for its end marker (``end roundCents``): the definition stays whole,
                # and the marker goes on as code after it, not the cause of a split.
                data = self.doc.data
                marker = [n for n in unit.nodes if _lines(n, data, self._hung)[0] >= unit.closed]
                unit = Unit(unit.first, unit.closed - 1, [n for n in unit.nodes if n not in marker],
                            unit.definition, unit.wrappers, unit.head)
                marker_last = max(_lines(n, data, self._hung)[1] for n in marker)
                units.insert(at + 1, Unit(_lines(marker[0], data)[0], marker_last, marker))
            if header and not self.fits(unit.first, unit.last, symbol, header) and self.fits(
                unit.first, unit.last, symbol, ""
            ):
                # A whole member beats its class's signature above it (the breadcrumb still
                # names the class): this one goes out without the header.
                flush()
                kind = self.kind(unit.definition, in_container)
                self.out.append(Pending(kind, symbol, unit.first, unit.last, "", parent))
                continue
            if self.fits(unit.first, unit.last, symbol, header):
                if self.settings.merge_siblings or packed:
                    run.append((unit, symbol))
                    continue
                flush()
                kind = self.kind(unit.definition, in_container)
                self.out.append(Pending(kind, symbol, self.comments_above(unit, symbol, header, parent), unit.last, header, parent))
                continue
            flush()
            followers = self.followers(units, at, grouped, scoped) if lead == id(unit) else []
            taken = self.lead_apart(unit, symbol, header, parent, in_container, followers)
            if taken is not None:
                skip = taken  # the group's prototypes its comment's last part took
                continue
            self.split_definition(unit, own, header, parent, depth=depth, in_container=in_container)
        flush()

    def misnamed(self, definition: Node) -> bool:
        """Whether the grammar's recovery left an ERROR in ``definition``'s head before the node
        its name is read from: the name is then a guess. A class body misread (libstdc++'s
        ``tuple``, heavy templates and macros) closes the class early and reads its type and
        the next member as one definition, ``class tuple {...} tuple& operator=(...)``, named
        after the member; only its ERROR's own lines were flagged, its other chunks looked sound."""
        if not definition.has_error:
            return False
        name = next(
            (node for field in self.spec.name_fields if (node := definition.child_by_field_name(field)) is not None), None
        )
        if name is None:
            return False
        return any(child.is_error and child.start_byte < name.start_byte for child in definition.children)

    def followers(
        self, units: list[Unit], at: int, grouped: dict[int, int], scoped: tuple[str, ...]
    ) -> list[tuple[Unit, str]]:
        """The prototypes after ``units[at]`` in the group it leads (:meth:`prototype_groups`),
        with their symbols."""
        lead = id(units[at])
        found: list[tuple[Unit, str]] = []
        for unit in units[at + 1 :]:
            if grouped.get(id(unit)) != lead:
                break
            found.append((unit, self.spec.path_separator.join((*scoped, self.name(unit)))))
        return found

    def prototype_groups(self, units: list[Unit]) -> dict[int, int]:
        """Prototypes written one under the other below one comment (SQLite's ``sqlite3_errcode``
        ... ``sqlite3_error_offset`` under "Error Codes And Messages"): the comment is about all
        of them, so they are packed together, as many as fit, not left as one-line chunks
        without it. Maps every unit of such a group to the first (the one the comment leads),
        by ``id``; a prototype after a blank line or with a comment of its own starts no part of
        it."""
        groups: dict[int, int] = {}
        lead: Unit | None = None
        for at, unit in enumerate(units):
            definition = unit.definition
            is_prototype = definition is not None and definition.type in self.spec.prototypes and self.prototype(definition)
            documented = is_prototype and "comment" in unit.nodes[0].type
            if (
                is_prototype
                and not documented
                and lead is not None
                and unit.first == units[at - 1].last + 1
                and not any("comment" in node.type for node in unit.nodes)
            ):
                groups[id(lead)] = id(lead)
                groups[id(unit)] = id(lead)
                continue
            lead = unit if documented else None
        return groups

    def lead_apart(
        self,
        unit: Unit,
        symbol: str,
        header: str,
        parent: Pending | None,
        in_container: bool,
        followers: list[tuple[Unit, str]] | None = None,
    ) -> int | None:
        """A definition that fits the budget without the comments above it (a long javadoc) but
        not with them: the comments are its leading part(s), each under the signature it
        documents, and the definition is whole in its last part (with the comments' last piece
        when both fit), so its code is not cut for its documentation. ``None`` (nothing made)
        when it has no such comments or does not fit alone either.

        ``followers``: the prototypes written under it that its comment is about too (SQLite's
        one comment over ``sqlite3_errcode`` ... ``sqlite3_error_offset``): its last part takes
        as many as fit, with the comment's last piece if that leaves room for any, and all its
        parts are named after the prototypes it holds. Returns how many it took."""
        nodes = unit.nodes
        code = next((i for i, node in enumerate(nodes) if not self.is_comment(node)), 0)
        if code == 0:
            return None
        data = self.doc.data
        first = _lines(nodes[code], data)[0]
        comments_last = _lines(nodes[code - 1], data, self._hung)[1]
        if comments_last >= first or not self.fits(first, unit.last, symbol, ""):
            return None  # a comment on the definition's own first line, or too big alone
        definition = unit.definition
        assert definition is not None
        kind = self.kind(definition, in_container)
        signature = self.unit_signature(unit)
        repeat = self.repeatable(symbol, signature)
        followers = followers or []

        def named(take: int) -> tuple[str, int]:
            """The parts' symbol when the last takes ``take`` followers, and its last line."""
            if not take:
                return symbol, unit.last
            joined = _join_symbols([symbol, *(name for _, name in followers[:take])], self.spec.path_separator)
            return joined, followers[take - 1][0].last

        # With the comment's last piece: as many as fit (a longer name leaves the pieces less room,
        # so each count is tried on pieces cut under its own name).
        mark = len(self.out)
        for take in range(len(followers), -1, -1):
            joined, end = named(take)
            del self.out[mark:]
            pieces = self.line_pieces(unit.first, comments_last, kind, joined, repeat, parent, rest_header=repeat)
            if not pieces:  # (comments are never blank lines; kept safe all the same)
                return None
            last = pieces[-1]
            if last.start_byte is None and not last.flags and self.fits(last.first, end, joined, last.header):
                last.last = end
                last.header = ""  # it holds the signature now: a header would say it twice
                break
        else:
            # Under the comment's pieces, a part of its own: as many as fit there. (Under no
            # header: it holds its signature, and a class's above it would not be its own.)
            take = next(t for t in range(len(followers), -1, -1) if self.fits(first, named(t)[1], named(t)[0], ""))
            joined, end = named(take)
            if take:
                del self.out[mark:]
                pieces = self.line_pieces(unit.first, comments_last, kind, joined, repeat, parent, rest_header=repeat)
            pieces.append(Pending(kind, joined, first, end, "", parent))
            self.out.append(pieces[-1])
        for piece in pieces[1:]:
            piece.parent = pieces[0]
        _number(pieces, kind)
        return take

    def comments_above(self, unit: Unit, symbol: str, header: str, parent: Pending | None) -> int:
        """Where a definition that fits the budget starts its chunk: at its own first line, or
        at the first line of the chunk just made before it when that chunk is only comments
        (cut off from it by a blank line: a section's title, a note on what follows) and both
        fit in one chunk, which then replaces it. A chunk of comments alone is no answer to
        any question; the definition below is what they are about."""
        previous = self.loose_above(unit.first, parent)
        if previous is not None and previous.header == header and self.fits(previous.first, unit.last, symbol, header):
            self.out.pop()
            return previous.first
        return unit.first

    def loose_above(self, first: int, parent: Pending | None) -> Pending | None:
        """The chunk just made, when it is comments alone (``Pending.loose``: whole lines, nothing
        flagged) under ``parent`` above line ``first``: the definition starting there may take
        it in (:meth:`comments_above`, :meth:`head_chunk`)."""
        previous = self.out[-1] if self.out else None
        if (
            previous is not None
            and previous.loose
            and previous.parent is parent
            and previous.start_byte is None
            and not previous.flags
            and previous.last < first
        ):
            return previous
        return None

    def classy(self, container: Node) -> bool:
        """Whether ``container``'s member functions are methods: a class's are, a namespace's
        or module's are plain functions (``CodeSpec.methods_in`` names the exceptions)."""
        return self.type_of(container) in self.spec.methods_in or self.kind(container, False) not in NON_CLASS_KINDS

    def scopes(self, unit: Unit) -> bool:
        """Whether ``unit`` is a file-scoped namespace: the definitions after it are in it."""
        definition = unit.definition
        return definition is not None and self.type_of(definition) in self.spec.scoping and self.body(definition) is None

    def split_definition(
        self,
        unit: Unit,
        path: tuple[str, ...],
        outer_header: str,
        parent: Pending | None,
        *,
        depth: int,
        in_container: bool,
    ) -> None:
        """Steps 3 and 4: a definition over the budget."""
        definition = unit.definition
        assert definition is not None
        body = self.body(definition)
        symbol = self.spec.path_separator.join(path)
        outer = unit.wrappers[0] if unit.wrappers else definition
        # Code fused onto the definition's last line that runs on past it (``}; exports.y =\n
        # 5;``): its later lines would be in no chunk. (A comment after the ``}`` is on a line
        # the last chunk holds anyway.) For a property, its accessors on the lines below it.
        # (By lines as chunks count them: a definition that ends on the indentation of the next
        # line, as one before Scala 3's ``end name`` does, ends on the line above.)
        outer_last = self.node_lines(outer)[1]
        paired = self._sibling_bodies.get(_key(definition))  # (its body is after it, yet no code after it)
        after = [
            n for n in unit.nodes
            if n.start_byte >= outer.end_byte and _lines(n, self.doc.data, self._hung)[1] > outer_last
            and (paired is None or n != paired[0])
        ]  # fmt: skip
        signature = self.unit_signature(unit)
        runs = self.is_run(definition)
        if body is None and not ((definition.type in self.spec.properties or runs) and after):
            # No body to pack (an interface method under a long doc comment, a type alias, a
            # macro): cut by its children, then lines; the pieces are still its numbered parts.
            start = len(self.out)
            kind = self.kind(definition, in_container)
            repeat = self.repeatable(symbol, signature)
            self.explode(unit, kind, symbol, repeat, parent)  # each piece under the definition's signature
            pieces = [p for p in self.out[start:] if p.symbol == symbol]
            for piece in pieces[1:]:
                piece.parent = pieces[0]
            # Cut line by line, a long doc comment's last piece may be one line beside room.
            pieces = self.join_parts(pieces, symbol, start)
            _number(pieces, kind)
            return
        registers = self.type_of(definition) in self.spec.registrations
        is_container = self.type_of(definition) in self.spec.containers
        if body is not None:
            lead = self.body_lead(definition, body)
            head_last = _head_last(self.doc, unit, lead[0])
            head_end = self.head_end(definition)
            if head_end is not None:
                # Its head runs to its own token (``CodeSpec.head_ends``): a Fortran procedure's
                # whole first statement, a Lisp definition's parameters (``(defn total "doc"
                # [items]``: its docstring is its head's, no member's nor the first method's).
                head_last = max(head_last, self.doc.line_of_byte(head_end - 1))
            inside = lead[:-1] + list(body.children)
            if head_end is not None and (
                self.spec.argument_lists
                or self.type_of(definition) in self.spec.help_heads
                or definition.type in self.spec.head_patterns  # (Groovy's head words in its ``block``)
            ):
                inside = [c for c in inside if c.start_byte >= head_end]
            # Tokens after the body (Ruby's ``end``, a wrapper's ``;``) close the last chunk.
            tail = [c for c in definition.children if c.start_byte >= body.end_byte]
            # (A sibling body's parent is the level around: not the definition's; nor is the
            # parent of a definition that is its own body, though it starts where that does:
            # VHDL's first function in a package body's declarations.)
            holder = body.parent if (paired is None or body != paired[0]) and body is not definition else None
            while holder is not None and holder != definition and holder.start_byte >= definition.start_byte:
                # A callback's closers inside the call (``}, 10_000);``'s ``, 10_000)``, Ruby's ``end``).
                tail += [c for c in holder.children if c.start_byte >= body.end_byte]
                if paired is not None and holder == paired[0]:
                    break
                holder = holder.parent
            tail += [c for w in unit.wrappers for c in w.children if c.start_byte >= definition.end_byte]
        else:
            # A property whose accessors stand beside it (``CodeSpec.accessors``): their
            # statements are its body; a header's run its statements or members (``sibling_runs``).
            head_last, inside, tail = _lines(definition, self.doc.data, self._hung)[1], [], []
        repeat = self.repeatable(symbol, signature)
        if "\n" in signature or signature in self._unfolded:
            # A signature of several lines (or folded from them) that leaves no room for the
            # body's longest line (one that fits the budget alone), or is itself cut short to
            # leave the parts any room, would cut ordinary lines in two: its line naming the
            # definition stands for it when that leaves the room (never cut short for it).
            need = self.longest_line(head_last + 1, unit.last, symbol)
            if repeat != signature or self.repeatable(symbol, signature, need) != signature:
                raw = self._unfolded.get(signature, signature)
                line = self.repeatable(symbol, raw, need)
                if line and line in (x.strip() for x in raw.splitlines()):
                    repeat = line
        elif registers:
            # A callback's head holds its label (``it('keeps nested arrays of objects when ...',
            # function (t)``), which its breadcrumb names already: it is cut short rather than
            # cut the body's lines in two (those up to half the budget long).
            need = min(self.longest_line(head_last + 1, unit.last, symbol), self.budget // 2)
            repeat = self.repeatable(symbol, repeat, need)
        # (Comments the grammar hung at its end that are about what follows are not its own.)
        members = [
            m
            for m in self.units(
                inside + tail + after,
                in_function=not is_container,
                callbacks=registers,
                in_class=is_container and self.classy(definition),
                # (Ruby's class ``end``: the class's own, never its last method's last line,
                # which made the closers of the classes around it that method's last part.)
                own_closers=frozenset(map(_key, tail)),
            )
            if m.first <= unit.last
        ]
        # Members that share a line with the signature belong to the head.
        head = Unit(unit.first, head_last, list(unit.nodes))
        while members and members[0].first <= head.last:
            head.last = max(head.last, members[0].last)
            members.pop(0)
        if is_container and members and self._is_docstring(members[0]):
            # A class's docstring is its head's, however long: cut, it is the head's parts under
            # the signature, not loose statements of the class.
            head.last = members.pop(0).last
        # A registered callback that registers more (a ``describe`` of ``it``s) is a suite: its
        # head lists them as a class's head lists its members, and its tests are its members.
        # So is a Go test function of ``t.Run`` subtests (``CodeSpec.function_suites``).
        if registers:
            suite = any(m.definition is not None for m in members)
        else:
            suite = self.spec.function_suites and any(
                m.definition is not None and self.type_of(m.definition) in self.spec.registrations for m in members
            )
        if is_container or suite:
            head_kind = "class_header" if is_container else self.kind(definition, in_container)
            # Signature and docstring come first; the member summary gets the room left, but
            # at least a quarter of the budget when it needs that much.
            budget = self.settings.budget
            listed = self.listed(members) if self.settings.class_summary else None
            summary = self.summary(listed, symbol, budget) if listed is not None else ""
            reserve = min(self.maker.measure(summary + "\n"), budget // 4) if summary else 0
            heads = self.head_chunk(head, members, head_kind, symbol, "", parent, reserve, repeat)
            first = heads[0]
            if summary and first.start_byte is None:
                used = self.maker.prefix_size(symbol, "") + self.maker.lines_size(first.first, first.last)
                # The head took its leading members (never a definition, maybe a declaration):
                # the lines built are kept when it took none of those listed.
                left = self.listed(members)
                first.header = self.summary(listed if len(left.defs) == len(listed.defs) else left, symbol, budget - used)
            _number(heads, head_kind)
            classy = is_container and self.classy(definition)  # a test suite's functions are no methods
            packed = self.type_of(definition) in self.spec.packed_members
            self.level([], path, repeat, first, depth=depth + 1, in_container=classy, units=members, packed=packed)
            return
        kind = self.kind(definition, in_container)
        # (Its first line past annotations: they document what follows, as comments above do.)
        named_line, name = outer.start_point.row + 1, definition.child_by_field_name("name")
        while name is not None and named_line <= name.start_point.row and _annotation(self.doc.line_text(named_line)):
            named_line += 1
        heads = self.head_chunk(head, members, kind, symbol, outer_header, parent, 0, repeat, named_line)
        first = heads[0]
        start = len(self.out)
        self.level([], path, repeat, first, depth=depth + 1, in_container=False, units=members, function_body=True)
        # The function's own groups are its parts; nested definitions split on their own are not.
        parts = heads + [p for p in self.out[start:] if p.symbol == symbol and p.parent is first]
        # (The heads were made last before ``start``: where the parts begin.)
        begin = next(i for i in range(start - 1, -1, -1) if self.out[i] is first)
        _number(self.join_parts(parts, symbol, begin), kind)

    def is_comment(self, node: Node) -> bool:
        """Whether ``node`` is a comment (``CodeSpec.comment_types`` too: Haskell's haddock)."""
        return "comment" in node.type or node.type in self.spec.comment_types

    def _is_docstring(self, unit: Unit) -> bool:
        """Whether ``unit`` is a docstring: a statement of a string alone (``CodeSpec.docstrings``)."""
        if unit.definition is not None or not self.spec.docstrings:
            return False
        nodes = [n for n in unit.nodes if "comment" not in n.type]
        if len(nodes) != 1:
            return False
        node = nodes[0]
        if node.type in self.spec.docstrings and node.named_child_count == 1:
            node = node.named_children[0]
        return node.type in _STRINGS

    def longest_line(self, first: int, last: int, symbol: str) -> int:
        """The size of the longest of lines ``first..last`` that fits the budget alone under the
        breadcrumb (0 when none does)."""
        if last < first:
            return 0
        room = self.budget - self.maker.prefix_size(symbol, "")
        if self._bytes_are_chars:  # lengths in C, over the stored line bounds
            sizes = map(sub, self._line_ends[first - 1 : last], self._line_starts[first - 1 : last])
        else:
            sizes = (self.maker.lines_size(line, line) for line in range(first, last + 1))
        return max((size for size in sizes if size <= room), default=0)

    def join_parts(self, parts: list[Pending], symbol: str, begin: int) -> list[Pending]:
        """``parts`` (of one split definition, in order) with each part that fits the budget
        together with the one before it joined to it, when nothing else (a nested definition
        split on its own) stands between them. What cuts a definition (its head, its packed
        statements, a statement split by its children, line windows) starts a part of its
        own each time: a signature alone in part 1, two lines of a loop, or a closing brace
        alone at the end, each beside room for it. The parts are ``self.out[begin:]``'s: only
        that tail is read and rewritten (the whole list, once per split definition, made a
        2.6 MB file of thousands of them take 29 s)."""
        if len(parts) < 2:
            return parts
        where = {id(p): i for i, p in enumerate(self.out[begin:], begin)}
        joined: set[int] = set()
        kept = [parts[0]]
        for part in parts[1:]:
            before = kept[-1]
            between = self.out[where[id(before)] + 1 : where[id(part)]]
            if (
                before.start_byte is None
                and part.start_byte is None
                and not before.flags
                and not part.flags
                and all(id(p) in joined for p in between)
                and self.fits(before.first, part.last, symbol, before.header)
            ):
                before.last = part.last
                joined.add(id(part))
                continue
            kept.append(part)
        if joined:
            self.out[begin:] = [p for p in self.out[begin:] if id(p) not in joined]
        return kept

    def head_chunk(
        self,
        head: Unit,
        members: list[Unit],
        kind: str,
        symbol: str,
        header: str,
        parent: Pending | None,
        reserve: int = 0,
        repeat: str = "",
        signature_line: int | None = None,
    ) -> list[Pending]:
        """The first chunk of a split definition: its head plus leading loose members that fit.
        A head too big for one chunk (long comments above it, a huge signature) gives several:
        the first under ``header`` and ``parent``, the others parts of the definition under
        ``repeat`` (its signature), as the parts of its body are. When the comments above the
        definition's first line (``signature_line``) fill the first piece alone, it is under
        ``repeat`` too: its text does not say what it documents.

        Consumes the members taken from ``members``.
        """
        previous = self.loose_above(head.first, parent)
        if not self.fits(head.first, head.last, symbol, header, reserve):
            if previous is not None:
                # Comments right before it (a section's banner) lead its first piece, as they
                # join a head that fits (below).
                self.out.pop()
                head = Unit(previous.first, head.last, head.nodes)
            # The repeat above the later pieces must leave room for each whole line of the head
            # that fits the budget at all: it must not be what cuts a signature line in two.
            # (The first line always starts the first piece.)
            need = self.longest_line(head.first + 1, head.last, symbol)
            if need:
                repeat = self.repeatable(symbol, repeat, need)
            if (
                repeat
                and signature_line is not None
                and signature_line > head.first
                and not self.fits(head.first, signature_line, symbol, header, reserve)
            ):
                header = repeat
            pieces = self.line_pieces(
                head.first, head.last, kind, symbol, header, parent, rest_header=repeat, first_reserve=reserve
            )
            # (Its line past the annotations it repeats: ``@Transactional`` names nothing.)
            named = naming_line(repeat)
            for piece in pieces[1:]:
                # A later piece that holds the signature's own line (below annotations that
                # filled the first) needs no header repeating it: it said it twice.
                if named and piece.header == repeat and piece.start_byte is None and any(
                    self.doc.line_text(line).lstrip().startswith(named) for line in range(piece.first, piece.last + 1)
                ):
                    piece.header = ""
            last_piece = pieces[-1]
            if kind == "class_header" and last_piece.start_byte is None and not last_piece.flags:
                # The head's last piece takes the loose members after it that fit (a class's
                # fields below a long docstring), as a head that fits whole does below. (A
                # function's statements join its head's last piece in :meth:`join_parts`.)
                room = reserve if last_piece is pieces[0] else 0
                while (
                    members
                    and members[0].definition is None
                    and self.fits(last_piece.first, members[0].last, symbol, last_piece.header, room)
                ):
                    last_piece.last = members.pop(0).last
            return pieces
        if previous is not None and self.fits(previous.first, head.last, symbol, header, reserve):
            # Comments right before a split definition join its head instead of standing as a
            # chunk of their own.
            self.out.pop()
            head.first = previous.first
        absorbs_definitions = self.settings.merge_siblings and kind != "class_header"
        taken: list[Unit] = []
        while (
            members
            and (members[0].definition is None or absorbs_definitions)
            and self.fits(head.first, members[0].last, symbol, header, reserve)
        ):
            taken.append(members.pop(0))
        if (
            len(taken) > 1
            and members
            and not any(m.named for m in members)
            and self.fits(taken[-1].first, members[-1].last, symbol, repeat)
        ):
            # Only the closing ``})`` is left, and it would be a part alone: the last statement
            # taken goes with it (not the only one: Go's body is one ``statement_list``, and a
            # signature alone is no better a part than a brace alone).
            members.insert(0, taken.pop())
        last = taken[-1].last if taken else head.last
        pending = Pending(kind, symbol, head.first, last, header, parent)
        self.out.append(pending)
        return [pending]

    def listed(self, members: list[Unit]) -> _Listing:
        """The members a class header's summary lists: definitions and declared methods."""
        return _Listing([m for m in members if m.definition is not None or self.declared(m) is not None])

    def summary(self, listing: _Listing, symbol: str, room: int) -> str:
        """Comment lines listing the members (see :meth:`listed`), as much as fits in ``room``
        units: one-line signatures when all of them fit, else every member's name (then as
        many as fit). Asked twice per class (the room is known only once its head is cut): the
        lines are built once."""
        defs = listing.defs
        if not defs:
            return ""
        language = self.doc.language
        if listing.full is None:
            title = comment_line(language, f"members of {symbol}:")
            signatures = [" ".join(self.member_signature(m).split())[:160] for m in defs]
            listing.full = "\n".join([title, *(comment_line(language, f"  {sig}") for sig in signatures)])
        full = listing.full
        if self.maker.measure(full + "\n") <= room:
            return full
        if listing.names is None:
            listing.names = [self.member_name(m) for m in defs]
        names = listing.names

        def names_line(count: int) -> str:
            rest = f", ... {len(names) - count} more" if count < len(names) else ""
            return comment_line(language, f"members of {symbol}: {', '.join(names[:count])}{rest}")

        # Binary search: a class with hundreds of members must not be measured hundreds of times.
        count = largest_fitting(1, len(names), lambda n: self.maker.measure(names_line(n) + "\n") <= room)
        return names_line(count) if count >= 1 else ""

    def declared(self, unit: Unit) -> Node | None:
        """The method declaration ``unit`` is (:attr:`CodeSpec.member_declarations`), or None."""
        for node in unit.nodes:
            need = self.spec.member_declarations.get(node.type)
            if need is None:
                continue
            if not need:
                return node
            declarator = node.child_by_field_name("declarator")
            for _ in range(6):  # through pointers and references to the function's declarator
                if declarator is None:
                    break
                if declarator.type == need:
                    inner = declarator.child_by_field_name("declarator")
                    # ``void (*on_full)(int);`` is a field holding a function pointer.
                    return node if inner is None or inner.type != "parenthesized_declarator" else None
                declarator = declarator.child_by_field_name("declarator")
        return None

    def member_signature(self, unit: Unit) -> str:
        """A member's line in its class's summary: a definition's signature, a declaration's text."""
        if unit.definition is not None:
            typed = self._type_signature(unit)  # (a method's type says more than its equation's head)
            if typed is not None:
                return self.doc.slice(typed.start_byte, typed.end_byte).rstrip()
            return self.signature(unit.definition, unit.wrappers, _keywords(unit))
        node = self.declared(unit)
        assert node is not None
        return self.doc.slice(node.start_byte, node.end_byte).rstrip().rstrip(";")

    def member_name(self, unit: Unit) -> str:
        """A member's name in its class's summary."""
        if unit.definition is not None:
            return self.name(unit)
        node = self.declared(unit)
        assert node is not None
        words = self.member_signature(unit).split("(")[0].split()
        return self._name_of(node) or (words[-1] if words else f"<{node.type}>")

    # ---- step 5: packing ---------------------------------------------------------------------

    def pack(
        self,
        run: list[tuple[Unit, str]],
        kind: str,
        level_symbol: str,
        header: str,
        parent: Pending | None,
        in_container: bool,
        owner: str | None = None,
    ) -> None:
        """Greedily pack consecutive units into chunks under the budget.

        ``run`` pairs each unit with its definition's symbol ("" for loose statements). A group
        of one definition keeps its kind and symbol; a mixed group is named after its members.
        """
        group: list[tuple[Unit, str]] = []
        named: list[str] = []  # the symbols of the group's definitions, kept as the group grows

        def symbol_of(count: int, names: list[str]) -> str:
            """The symbol of a group of ``count`` units whose definitions are ``names``."""
            if owner is not None:
                return owner
            if len(names) == count == 1:
                return names[0]
            if not names:
                return level_symbol
            if len(names) < count:
                names = [level_symbol, *names]
            return _join_symbols(names, self.spec.path_separator)

        def emit() -> None:
            if not group:
                return
            # (A closing brace that joined the group is no member of it: it names nothing.)
            members = sum(1 for u, _ in group if u.named) if named and owner is None else len(group)
            symbol = symbol_of(members, named)
            unit_kind = kind
            defs = [u.definition for u, s in group if s and u.definition is not None] if named else []
            if defs and len(defs) == members and owner is None:
                kinds = {self.kind(d, in_container) for d in defs}
                unit_kind = kinds.pop() if len(kinds) == 1 else kind
            pending = Pending(unit_kind, symbol, group[0][0].first, group[-1][0].last, header, parent)
            # Only comments (cut off from the definition below by a blank line) may join a split
            # definition's head; statements (imports, constants) are not about it.
            pending.loose = owner is None and all(self.comments_only(unit) for unit, _ in group)
            pending.divider = pending.loose and self.divides(group)
            self.out.append(pending)
            group.clear()
            named.clear()

        def fits_with(kept: list[tuple[Unit, str]], unit: Unit, sym: str) -> bool:
            """Whether ``kept`` (the group's last units) and ``unit`` fit in one chunk."""
            names = [name for _, name in kept if name] + ([sym] if sym else [])
            members = sum(1 for u, _ in kept if u.named) + unit.named if names else 1
            return self.fits(kept[0][0].first, unit.last, symbol_of(members, names), header)

        for unit, sym in run:
            if not group and not unit.named and self.extend_last(unit):
                continue
            if group and not sym and not self.fits(unit.first, unit.last, symbol_of(1, []), header):
                # Comments right above a statement too big for any chunk (``// Type flags.``
                # over a long ``const (`` block) are about it: they lead its first piece, not
                # a chunk of their own.
                while group and self.comments_only(group[-1][0]) and group[-1][0].last + 1 >= unit.first:
                    above = group.pop()[0]
                    unit = Unit(above.first, unit.last, [*above.nodes, *unit.nodes])
            if group:
                first = group[0][0].first
                # (The count matters only for a group naming definitions: counted then alone.)
                members = sum(1 for u, _ in group if u.named) + unit.named if owner is None and (named or sym) else 1
                if self.fits(first, unit.last, symbol_of(members, [*named, sym] if sym else named), header):
                    group.append((unit, sym))
                    if sym:
                        named.append(sym)
                    continue
                # Loose code in cells (``# %%``): the cut goes where the last cell starts (or
                # the prose cell right above it), not inside it, when what follows fits with
                # this unit.
                starts = self.cell_starts(group) if owner is None else []
                cut = next((k for k in starts if fits_with(group[k:], unit, sym)), 0)
                if cut:
                    kept = group[cut:]
                    del group[cut:]
                    emit()
                    group.extend([*kept, (unit, sym)])
                    named.extend([name for _, name in kept if name] + ([sym] if sym else []))
                    continue
                moved = group[-1] if len(group) > 1 and not unit.named else None
                # Comments and attributes right above the unit (no blank line between) are about
                # it: the cut goes above them, not between them and it (Rust's ``#[stable(...)]``
                # ended a chunk whose ``pub use`` opened the next).
                above = 0 if self.comments_only(unit) else len(group) - self.comments_right_above(group, len(group), unit.first)
                if moved is not None and not moved[1] and self.fits(moved[0].first, unit.last, symbol_of(2, []), header):
                    # A closing ``})`` alone would be a chunk of its own: the statement before it
                    # (not a definition, which keeps its own chunk and name) goes with it.
                    group.pop()
                    emit()
                    group.append(moved)
                elif above and self.fits(group[-above][0].first, unit.last, symbol_of(1, [sym] if sym else []), header):
                    kept = group[-above:]  # (comments: no definitions, so ``named`` stays as it is)
                    del group[-above:]
                    emit()
                    group.extend(kept)
                    group.append((unit, sym))
                    if sym:
                        named.append(sym)
                    continue
                else:
                    emit()
            if self.fits(unit.first, unit.last, symbol_of(1, [sym] if sym else []), header):
                group.append((unit, sym))
                if sym:
                    named.append(sym)
            else:
                mark = len(self.out)
                symbol = symbol_of(1, [sym] if sym else [])
                # A top-level compound statement (a script's ``for`` loop) is split as a function
                # is, its head repeated above the later parts: a loop body alone does not say
                # what it loops over.
                head = self.statement_head(unit) if owner is None and not header and not sym else None
                # (Repeated only while it costs a quarter of the budget at most: a loop over a
                # list of 25 literals, repeated above every line of its body, made 15 chunks of 4.)
                repeat = head[2] if head is not None and self.head_cost(symbol, head[2]) * 4 <= self.budget else ""
                if repeat:
                    self.explode(unit, kind, symbol, repeat, parent, first_header="")
                    if self.head_parts(self.out[mark:], head[0], head[1], kind):  # type: ignore[index]
                        continue
                    del self.out[mark:]  # (its head's line cut, or not in the first piece)
                self.explode(unit, kind, symbol, header, parent)
                if owner is None and not header:
                    # (At the top level: in a class, a piece's header is the class's signature,
                    # the parent its header chunk, as for any statement of the class.)
                    _number_cut_lines(self.out[mark:])
        emit()

    def statement_head(self, unit: Unit) -> tuple[int, int, str] | None:
        """The first and last lines and the text of the head of the compound statement ``unit``
        is (a top-level ``for x in y:``, ``if (ready) {``): its text before its body, a trailing
        ``{`` left out; None for anything else, for a head of one word (``try:``, ``do``: it
        says nothing), and for an ``if`` with an ``else`` (the else's lines under the if's head
        would read as its own). (Comments above it may be in the unit.)"""
        code = [node for node in unit.nodes if not self.is_comment(node)]
        if len(code) != 1:
            return None
        node = code[0]
        body = node.child_by_field_name("body") or node.child_by_field_name("consequence")
        if body is None or body.end_point.row == node.start_point.row or node.child_by_field_name("alternative"):
            return None
        # (To the end of the line the body starts on, when it starts on one of the head's:
        # ``while [ $# -gt 0 ]; do``, ``for (...) {``; else to the body.)
        stop = body.start_byte
        body_line = body.start_point.row + 1
        if self.doc.data[self.doc.line_start(body_line) : stop].strip():
            stop = self.doc.line_end(body_line)
        text = self.doc.slice(node.start_byte, stop)
        text = "\n".join(line.rstrip() for line in text.splitlines() if line.strip()).removesuffix("{").rstrip()
        if len(_HEAD_WORDS.findall(text)) < 2:
            return None
        return node.start_point.row + 1, self.doc.line_of_byte(max(node.start_byte, stop - 1)), text

    def head_cost(self, symbol: str, header: str) -> int:
        """What ``header`` adds to a chunk's size under ``symbol``'s breadcrumb."""
        return self.maker.prefix_size(symbol, header) - self.maker.prefix_size(symbol, "")

    def head_parts(self, pieces: list[Pending], first: int, last: int, kind: str) -> bool:
        """Make the pieces of a compound statement split under its head (``pieces``: its
        chunks, the head on lines ``first..last``) parts 1..n of it, the later ones under the
        first, as a split function's are; the first keeps no header (it holds the head). False,
        changing nothing, when the first piece does not hold the whole head, or a line of it is
        cut."""
        if len(pieces) < 2 or not pieces[0].first <= first <= last <= pieces[0].last:
            return False
        if any("split_line" in piece.flags and piece.first <= last and first <= piece.last for piece in pieces):
            return False
        pieces[0].header = ""
        _number(pieces, kind)
        for later in pieces[1:]:
            later.parent = pieces[0]
        return True

    def cell_starts(self, group: list[tuple[Unit, str]]) -> list[int]:
        """Where to cut ``group``, a run of a script of cells, so that its last cell stays
        whole, best first: above the comments right over that cell's ``# %%`` line (a prose
        cell, which explains the code below it), then at that line. Empty when no cell starts
        after the group's first unit."""
        if not self._cells:
            return []
        for k in range(len(group) - 1, 0, -1):
            if self.starts_cell(group[k][0]):
                above = self.comments_right_above(group, k, group[k][0].first)
                # The prose cell starts at its own ``# %%`` line when that is among the comments
                # (cut below it, the line was left alone as a chunk, taken for a divider).
                above = next((m for m in range(k - 1, above - 1, -1) if self.starts_cell(group[m][0])), above)
                return [above, k] if 0 < above < k else [k]
        return []

    def starts_cell(self, unit: Unit) -> bool:
        """Whether ``unit`` opens a cell: a ``# %%`` (or ``# In[3]:``) comment, or the
        language's own cell mark (:meth:`opens_cell`)."""
        node = unit.nodes[0]
        return "comment" in node.type and (
            _CELL_MARKER.match(self.doc.data, node.start_byte, node.end_byte) is not None or self.opens_cell(node)
        )

    def opens_cell(self, comment: Node) -> bool:
        """Whether ``comment`` opens a cell in the language's own editor (``CodeSpec.cell_marks``:
        MATLAB's ``%% Load the export``, a section the editor runs alone)."""
        data = self.doc.data
        for mark in self.spec.cell_marks:
            end = comment.start_byte + len(mark)
            if data.startswith(mark.encode(), comment.start_byte) and (
                end >= comment.end_byte or data[end : end + 1] in (b" ", b"\t", b"\r", b"\n")
            ):
                return True
        return False

    def comments_right_above(self, group: list[tuple[Unit, str]], at: int, first: int, floor: int = 0) -> int:
        """Where, in ``group``, the run of comment units that ends just before ``group[at]`` and
        stands right above line ``first`` (no blank line between any two) starts: ``at`` when
        there is none, never below ``floor``."""
        while at > floor and self.comments_only(group[at - 1][0]) and group[at - 1][0].last + 1 >= first:
            at -= 1
            first = group[at][0].first
        return at

    def divides(self, group: list[tuple[Unit, str]]) -> bool:
        """Whether comments alone (``group``) only divide the code into sections: a title between
        rules (``# ---- reporting ----``), a few words at most. Left in a chunk of their own (the
        definition below did not fit with them), they answer no question, and their breadcrumb
        and few words would put them above real answers: the index leaves them out."""
        nodes = [node for unit, _ in group for node in unit.nodes]
        if not all(self.is_comment(node) for node in nodes):
            return False  # an attribute left alone is code
        data = self.doc.data
        words = 0
        for node in nodes:
            words += len(_WORDS.findall(data[node.start_byte : node.end_byte].decode("utf-8", "replace")))
            if words > _DIVIDER_WORDS:
                return False
        return True

    def comments_only(self, unit: Unit) -> bool:
        """Whether ``unit`` is comments (or attributes) alone."""
        return all(node.type in self.spec.attached for node in unit.nodes)

    def extend_last(self, unit: Unit) -> bool:
        """Glue pure punctuation (a closing brace) to the chunk before it when that still fits."""
        if not self.out:
            return False
        last = self.out[-1]
        if last.start_byte is not None or last.last >= unit.first:
            return False
        if not self.fits(last.first, unit.last, last.symbol, last.header):
            return False
        last.last = unit.last
        return True

    # ---- step 6: what does not fit -----------------------------------------------------------

    def explode(
        self, unit: Unit, kind: str, symbol: str, header: str, parent: Pending | None, first_header: str | None = None
    ) -> None:
        """Split an oversized unit by its child nodes, falling back to lines; ``first_header``:
        the first piece's header when not ``header`` (a statement's first piece holds its head)."""
        # Each with whether it was reached by looking inside children that share a line.
        stack: list[tuple[Unit, bool]] = [(unit, False)]
        group_first: int | None = None
        group_last = 0
        # Iterative: expand oversized units into child units; collect fitting ones in order.
        ordered: list[Unit] = []
        prose: set[int] = set()  # (ids of) the line-cut pieces that are comments only
        while stack:
            current, deep = stack.pop()
            if self.fits(current.first, current.last, symbol, header):
                ordered.append(current)
                continue
            if self.spec.line_nodes and any(node.type in self.spec.line_nodes for node in current.nodes):
                ordered.append(Unit(current.first, current.last, []))  # (``CodeSpec.line_nodes``)
                continue
            if len(current.nodes) == 1:
                children = current.nodes[0].children
            else:
                # A node with no children after one with some (a comment written below a
                # prototype, as zlib documents its functions) is a piece of its own: lumped into
                # the child before it, it dragged that child's lines apart (the prototype's last
                # line went with the comment, away from its name). One before them all stays
                # lumped into the first child, which it is about.
                children = []
                for node in current.nodes:
                    children.extend(node.children or ((node,) if children else ()))
            if deep and len(children) > _MAX_LOOK_INSIDE:
                ordered.append(Unit(current.first, current.last, []))  # a data table: lines cut it alike
                continue
            pieces = (Unit(*_lines(c, self.doc.data, self._hung), [c]) for c in children if c.end_byte > c.start_byte)
            sub = _fuse(sorted(pieces, key=lambda u: (u.first, u.nodes[0].start_byte)))
            sub = [u for u in sub if u.first <= current.last]  # not the comments :func:`_peeled` took
            if len(sub) <= 1:
                inner = sub[0].nodes if sub else []
                if inner and inner != current.nodes and any(n.child_count for n in inner):
                    # The children share a line (``for {`` and its block): look inside them,
                    # so a loop's statements are split as statements, not as lines.
                    stack.append((Unit(current.first, current.last, inner), True))
                    continue
                ordered.append(Unit(current.first, current.last, []))  # lines only
                if self.spec.docs_below and current.nodes and all(self.is_comment(n) for n in current.nodes):
                    prose.add(id(ordered[-1]))
                continue
            # Lines of ``current`` outside its children stay with the neighbouring child: rare,
            # but a parse error's children can leave whole lines of code between them.
            sub[0].first = current.first
            sub[-1].last = current.last
            for before, after in zip(sub, sub[1:]):
                if any(not self.doc.is_blank(line) for line in range(before.last + 1, after.first)):
                    before.last = after.first - 1
            stack.extend((u, deep) for u in reversed(sub))
        lead = header if first_header is None else first_header  # the next piece's header
        for piece in ordered:
            if not piece.nodes:
                start = piece.first
                if group_first is not None and id(piece) in prose:
                    # Where documentation stands below its code (``CodeSpec.docs_below``), a
                    # long comment goes on from the pieces before it (a prototype): the first
                    # window, from the pieces that fit, holds them whole and fills up with
                    # the comment's first lines.
                    start = group_first
                elif group_first is not None:
                    self.out.append(Pending(kind, symbol, group_first, group_last, lead, parent))
                    lead = header
                group_first = None
                if self.line_pieces(start, piece.last, kind, symbol, lead, parent, rest_header=header if lead != header else None):
                    lead = header
                continue
            if group_first is not None and self.fits(group_first, piece.last, symbol, lead):
                group_last = piece.last
                continue
            if group_first is not None:
                self.out.append(Pending(kind, symbol, group_first, group_last, lead, parent))
                lead = header
            group_first, group_last = piece.first, piece.last
        if group_first is not None:
            self.out.append(Pending(kind, symbol, group_first, group_last, lead, parent))

    def line_pieces(
        self,
        first: int,
        last: int,
        kind: str,
        symbol: str,
        header: str,
        parent: Pending | None,
        *,
        rest_header: str | None = None,
        first_reserve: int = 0,
    ) -> list[Pending]:
        """Last resort: pack whole lines (greedy, found by binary search); a single line over
        the budget is cut inside. With ``rest_header``, the pieces after the first are parts
        under that header, children of the first piece; ``first_reserve`` units are kept free
        in the first piece (for a class header's member summary)."""
        doc = self.doc
        made: list[Pending] = []
        reserve = first_reserve

        def add(pending: Pending) -> None:
            nonlocal header, parent, rest_header, reserve
            made.append(pending)
            reserve = 0
            if rest_header is not None:  # the first piece is made: the rest go under the repeat
                header, parent, rest_header = rest_header, pending, None

        line = first
        pos: int | None = None  # inside ``line``: where its next piece starts (a split line)
        while line <= last:
            if pos is None and doc.is_blank(line):
                line += 1  # a piece starts at text: a blank line after a cut line was a chunk of its own
                continue
            start = line
            if pos is None:
                end = largest_fitting(start, last, lambda c: self.fits(start, c, symbol, header, reserve))
                if end < start and reserve:
                    # Not even one line leaves the reserve free: the reserve yields.
                    reserve = 0
                    end = largest_fitting(start, last, lambda c: self.fits(start, c, symbol, header))
                if end >= start:
                    add(Pending(kind, symbol, start, end, header, parent))
                    line = end + 1
                    continue
            avail, over = self.avail(symbol, header)
            if over and pos is None:
                # The prefix alone (nearly) fills the budget: whole lines, ``avail`` of them at a
                # time, over the budget and saying so.
                end = largest_fitting(start, last, lambda candidate: self.maker.lines_size(start, candidate) <= avail)
                if end >= start:
                    add(Pending(kind, symbol, start, end, header, parent, ("oversized",)))
                    line = end + 1
                    continue
            switching = rest_header is not None
            begin = doc.text_start(line) if pos is None else pos
            for a, b, flags in split_long_line(self.maker, begin, doc.line_end(line), avail):
                add(Pending(kind, symbol, line, line, header, parent, flag_over(flags, over), a, b))
                if switching and b < doc.line_end(line):
                    pos = b  # the rest of this line is cut again under the new header
                    break
            else:
                pos, line = None, line + 1
        self._no_closer_alone(made)
        self.out.extend(made)
        return made

    def _no_closer_alone(self, made: list[Pending]) -> None:
        """A last piece of one short line of punctuation (a docstring's closing ``\"\"\"``, a ``}``)
        left alone by the greedy cut takes the line above it, when that still fits: a closer
        alone answers nothing."""
        if len(made) < 2:
            return
        before, last = made[-2], made[-1]
        if last.start_byte is not None or before.start_byte is not None or last.first != last.last:
            return
        if before.last - before.first < 1 or before.last + 1 != last.first:
            return
        text = self.doc.slice(*self.doc.lines_span(last.first, last.last)).strip()
        if len(text) > 4 or any(ch.isalnum() for ch in text):
            return
        if self.fits(before.last, last.last, last.symbol, last.header):
            before.last -= 1
            last.first -= 1

    def _no_closing_part(self, ordered: list[Pending]) -> None:
        """A split definition's last part of closing lines alone (Scala's ``  }`` then ``}`` of a
        ``match`` and its method, Elixir's ``end``s) takes the last line of the part before it,
        when that part keeps another line and the last still fits: closers alone answer
        nothing, and the statement that ends there reads better beside them."""
        doc = self.doc
        for before, last in zip(ordered, ordered[1:]):
            if last.parts < 2 or last.part != last.parts or before.part != last.part - 1 or before.part < 2:
                continue  # (part 1 is the signature: it keeps its lines)
            if before.symbol != last.symbol or before.parts != last.parts or last.parent is not before.parent:
                continue
            if last.start_byte is not None or before.start_byte is not None or before.last >= last.first:
                continue
            # (A line moved may close a block too, ``    }`` of a loop: then the next one up.)
            while _CLOSING_LINES.fullmatch(doc.slice(*doc.lines_span(last.first, last.last))):
                line = before.last
                kept = doc.trim_blank(before.first, line - 1)
                if kept[1] < kept[0] or doc.is_blank(line) or not self.fits(line, last.last, last.symbol, last.header):
                    break
                before.first, before.last = kept
                last.first = line

    # ---- building ----------------------------------------------------------------------------

    def finish(self) -> list[Chunk]:
        """Build the chunks in source order, parents first, and mark damaged regions."""
        doc = self.doc
        built: list[Chunk] = []
        ordered = sorted(self.out, key=lambda p: (p.first, p.start_byte or 0))
        for pending in ordered:
            pending.first, pending.last = doc.trim_blank(pending.first, pending.last)
        _hold_continuations(doc, ordered)
        ordered = _without_blank(doc, ordered)
        self._no_closing_part(ordered)
        for pending in ordered:
            flags = pending.flags
            damaged = bool(self.damage.ranges and self.damage.overlaps(pending.first, pending.last)) or any(
                first <= pending.last and pending.first <= last for first, last in self.misread
            )
            if pending.divider and not damaged:
                # (A damaged line the repair read as a comment, ``x = (``, is code: indexed.)
                flags = (*flags, "divider")
            if damaged:
                flags = (*flags, "damaged")
            lines: tuple[int, int] | None = None
            if pending.start_byte is not None and pending.end_byte is not None:
                start_byte, end_byte = pending.start_byte, pending.end_byte
            else:
                start_byte, end_byte = doc.lines_span(pending.first, pending.last)
                lines = (pending.first, pending.last)
            parent_chunk = pending.parent.chunk if pending.parent is not None else None
            pending.chunk = self.maker.make(
                pending.kind,
                pending.symbol,
                start_byte,
                end_byte,
                header=pending.header,
                parent_id=parent_chunk.id if parent_chunk is not None else None,
                part=pending.part,
                parts=pending.parts,
                flags=flags,
                lines=lines,
            )
            built.append(pending.chunk)
        return built


# ---- helpers --------------------------------------------------------------------------------


def _hold_continuations(doc: Document, ordered: list[Pending]) -> None:
    """Give the lines no node holds to the chunk of whole lines above them (below, before the
    first): every non-blank byte is in a chunk. A line continuation's lone ``\\`` is whitespace
    to a C macro's parser (and so in no node where a macro's text is read as code); R's grammar
    keeps no node for a ``;`` alone on its line."""
    if not ordered:
        return
    data = doc.data

    def held_nothing(first: int, last: int) -> list[int]:
        """The non-blank lines of ``first..last`` (one slice looked at when all are blank)."""
        start, end = doc.lines_span(first, last)
        if not data[start:end].strip():
            return []
        return [line for line in range(first, last + 1) if not doc.is_blank(line)]

    # (A piece of a split line is no chunk of whole lines: it takes no more lines.)
    reach, above = 0, None  # the last line the chunks so far cover, and the chunk that ends there
    for pending in ordered:
        if pending.first > reach + 1:
            gap = held_nothing(reach + 1, pending.first - 1)
            if gap and above is not None and above.start_byte is None:
                above.last = gap[-1]
            elif gap and pending.start_byte is None:  # (above, none or a piece of a split line)
                pending.first = gap[0]
        if pending.last >= reach:
            reach, above = pending.last, pending
    tail = held_nothing(reach + 1, doc.line_count) if reach < doc.line_count else []
    if tail and above is not None and above.start_byte is None:
        above.last = tail[-1]


def _without_blank(doc: Document, ordered: list[Pending]) -> list[Pending]:
    """``ordered`` without the chunks of whitespace alone (a grammar's node that ends a file on
    trailing spaces: PowerShell's after a backtick's line continuation), the parts of their
    definition numbered again. A chunk that is a parent stays."""
    blank = [
        p for p in ordered
        if p.start_byte is None and p.first == p.last and doc.is_blank(p.first)
    ]  # fmt: skip
    if not blank:
        return ordered
    parents = {id(p.parent) for p in ordered if p.parent is not None}
    dropped = {id(p) for p in blank if id(p) not in parents}
    kept = [p for p in ordered if id(p) not in dropped]
    for gone in (p for p in blank if id(p) in dropped and p.parts > 1):
        # Its definition's parts (numbered across its head and the parts under it), when no
        # other definition of that name has as many.
        group = [p for p in ordered if p.symbol == gone.symbol and p.parts == gone.parts]
        if sorted(p.part for p in group) != list(range(1, gone.parts + 1)):
            continue
        siblings = [p for p in group if p is not gone]
        for index, pending in enumerate(sorted(siblings, key=lambda p: p.part), start=1):
            pending.part, pending.parts = index, len(siblings)
    return kept


def _keywords(unit: Unit) -> list[Node]:
    """Keyword tokens of ``unit`` right before its definition on the definition's line (Go's
    ``type``); punctuation (a ``{`` the definition shares its line with) is none. So is a
    statement of the definition's own type there: the start of a prototype the grammar cut
    short (``ZEXTERN int`` of ``ZEXTERN int ZEXPORT deflate OF((...));``: see
    :meth:`_Run.cut_short`)."""
    definition = unit.definition
    if definition is None:
        return []
    row = definition.start_point.row
    return [
        n for n in unit.nodes
        if (not n.is_named and n.type.isalpha() or n.type == definition.type)
        and n.end_byte <= definition.start_byte and n.start_point.row == row
    ]  # fmt: skip


def _declared(node: Node) -> tuple[Node | None, Node | None]:
    """The declarator that holds the name a declaration declares, and that name (an
    identifier, ``ns::f``, ``operator==``); ``(None, None)`` when there is none."""
    holder: Node | None = None
    declarator = node.child_by_field_name("declarator")
    for _ in range(_MAX_DECLARATOR_DEPTH):
        if declarator is None:
            return None, None
        if declarator.type not in _DECLARATOR_TYPES:
            return holder, declarator
        if declarator.type != "parenthesized_declarator":  # ``int (isalpha)(int);`` declares a function
            holder = declarator
        # (``(*f)`` and C++'s ``&f`` hold theirs in no field.)
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type in _DECLARATOR_TYPES or c.type.endswith(_NAME_ENDS)), None
        )
    return None, None


# A part of closing lines alone: brackets, ``;`` and ``,``, and the keywords that end a block.
_CLOSING_LINES = re.compile(r"(?:[ \t]*(?:[})\];,]+|end|fi|done|esac|end;|end\))[ \t]*(?:\r?\n|$))+")


_HEAD_WORDS = re.compile(r"\w+")  # (a head of one word, ``try:``, says nothing)


def _number_cut_lines(pieces: list[Pending]) -> None:
    """Number the pieces of each top-level line cut inside (``split_line``: a long constant, a
    query string) as parts 1..n of it, the later ones under the first as a split definition's are:
    a piece of a line means little alone, and a search that finds one returns the line
    (:mod:`core.groups`). The pieces of whole lines and of a statement's children (an
    ``#ifdef`` block's declarations, a dict's entries) stand alone, as before."""
    cut = (piece for piece in pieces if "split_line" in piece.flags and piece.first == piece.last)
    for _, of_line in itertools.groupby(cut, key=lambda piece: piece.first):
        run = list(of_line)
        if len(run) > 1:
            _number(run, run[0].kind)
            for later in run[1:]:
                later.parent = run[0]


def _number(parts: list[Pending], kind: str) -> None:
    """Make ``parts`` (in source order) parts 1..n of one definition of ``kind``."""
    for index, pending in enumerate(parts, start=1):
        pending.kind, pending.part, pending.parts = kind, index, len(parts)


def _join_symbols(names: list[str], separator: str = ".") -> str:
    """``A.x, A.y`` as ``A.{x, y}``: one breadcrumb for several siblings, shared path once
    (parts joined by the language's ``CodeSpec.path_separator``)."""
    heads = {name.rpartition(separator)[0] for name in names}
    if len(heads) == 1 and (head := heads.pop()):
        return f"{head}{separator}{{{', '.join(name.rpartition(separator)[2] for name in names)}}}"
    return ", ".join(names)


def _lines(node: Node, data: bytes, hung: bool = False) -> tuple[int, int]:
    """1-based first and last line of a node in the source ``data`` (a node ending at column 0
    ends on the line before; one that ends on indentation ends with its last token, comments
    it ends with that are about what follows left out: see :func:`_peeled`; ``hung``: so does
    one that ends with such comments, ``CodeSpec.hung_comments``)."""
    first = node.start_point.row + 1
    end = node.end_point
    end_byte = node.end_byte
    # (:func:`_ends_open`, written out: this runs for every node.)
    if _ends_on_indentation(node, data) or (hung and _ends_with_comment(node)):
        # An indentation-based block (Scala 3's) runs on to the indentation of the line after
        # it: its text ends with its last token. (Hidden tokens hold text in some grammars, a
        # Kotlin string's closing quote: a node ends on its last visible child only across
        # whitespace.)
        current = node
        for _ in range(_MAX_TRAIL_DEPTH):
            count = current.child_count
            if not count:
                break
            index = _before_peeled(current, node, data, hung)
            current = current.child(index)
            if current.end_byte < end_byte:
                if index == count - 1 and data[current.end_byte : end_byte].strip():
                    break
                end, end_byte = current.end_point, current.end_byte
    if end.column > 0:
        last = end.row + 1
    elif end_byte >= 2 and data[end_byte - 2] in (10, 13):
        # It ends with blank lines (Groovy's statements hold the line breaks after them): its
        # last line is its last with text, not the blank one before where it ends.
        text_end = end_byte - 1
        while text_end > node.start_byte and data[text_end] in (10, 13, 32, 9):
            text_end -= 1
        last = end.row + 1 - data.count(b"\n", text_end, end_byte)
    else:
        last = end.row
    return first, max(first, last)


def _ends_on_indentation(node: Node, data: bytes) -> bool:
    """Whether ``node``'s text runs on into the indentation of the line after it (an
    indentation-based block, Scala 3's, is open until a line indented less than its body)."""
    return node.end_point.column > 0 and data[node.end_byte - 1 : node.end_byte] in (b" ", b"\t")


def _ends_open(node: Node, data: bytes, hung: bool = False) -> bool:
    """Whether ``node``'s text runs on past its code: into the indentation of the line after
    it, or (``hung``: ``CodeSpec.hung_comments``) over the comments it ends with."""
    return _ends_on_indentation(node, data) or (hung and _ends_with_comment(node))


def _before_peeled(parent: Node, node: Node, data: bytes, hung: bool = False) -> int:
    """Index of ``parent``'s last child that is not a comment :func:`_peeled` takes off ``node``
    (``hung``: no deeper than the indentation of ``node``'s first line, where the node may
    start after a keyword, as F#'s ``union_type_defn`` after ``type``)."""
    index = parent.child_count - 1
    column, row = node.start_point.column, node.start_point.row
    if hung:
        line = data[data.rfind(b"\n", 0, node.start_byte) + 1 : node.start_byte]
        column = len(line) - len(line.lstrip(b" \t"))
    while index > 0:
        child = parent.child(index)
        if "comment" not in child.type or child.start_point.column > column or child.start_point.row <= row:
            break
        index -= 1
    return index


def _peeled(node: Node, data: bytes, hung: bool = False) -> list[Node]:
    """Comments an indentation-based block ends with (a grammar keeps a block open until the
    next line less indented than its body) written no deeper than ``node`` itself: Scala 3's
    doc comment above the next ``def`` is about that one, not the last line of this one. In
    source order; they are read as the node's next siblings. ``hung``: those a node ends with
    however it ends (``CodeSpec.hung_comments``)."""
    if not _ends_open(node, data, hung):
        return []
    current = node
    for _ in range(_MAX_TRAIL_DEPTH):
        count = current.child_count
        if not count:
            return []
        index = _before_peeled(current, node, data, hung)
        if index < count - 1:
            return [current.child(i) for i in range(index + 1, count)]
        current = current.child(index)
    return []


def _ends_with_comment(node: Node, comment_types: frozenset[str] = frozenset()) -> bool:
    """Whether ``node``'s last descendant (a few levels down) is a comment (``comment_types``:
    see ``CodeSpec``)."""
    for _ in range(_MAX_TRAIL_DEPTH):
        if not node.child_count:
            return False
        node = node.child(node.child_count - 1)
        if "comment" in node.type or node.type in comment_types:
            return True
    return False


def _opens_body(node: Node, spec: CodeSpec) -> bool:
    """Whether keyword ``node`` is the first token of a body (Elixir's ``do`` of ``do_block``);
    with ``body_openers``, or the token that ends its definition's head (``head_ends``: F#'s
    ``with`` of ``interface IPriced with``) or the keyword right after it (``type V = struct``)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in spec.body_types and node.prev_sibling is None:
        return True
    opener = spec.head_ends.get(parent.type) if spec.body_openers else None
    if opener is None:
        return False
    previous = node.prev_sibling
    return node.type == opener or (previous is not None and previous.type == opener)


def _past_line_comment(units: list[Unit], comment: Callable[[Node], bool]) -> Unit | None:
    """The last of ``units``, or the one before it when the last holds nothing but what
    ``comment`` says is a comment, on that one's last line (a comment after a head, before
    what follows it); None for no units."""
    host = units[-1] if units else None
    if (
        host is not None
        and host.definition is None
        and len(units) > 1
        and all(comment(n) for n in host.nodes)
        and host.first <= units[-2].last
    ):
        return units[-2]
    return host


def _is_trailing(node: Node, units: list[Unit]) -> bool:
    """A comment on the same line as the code before it belongs to that code."""
    return bool(units) and units[-1].last >= node.start_point.row + 1


def _fuse(units: list[Unit], lead_in: Callable[[Node], bool] | None = None) -> list[Unit]:
    """Fuse units that share a line: cuts only ever fall between lines. ``lead_in``: nodes that
    are the start of the definition after them on their line, not code of their own (see
    :meth:`_Run.cut_short`)."""
    fused: list[Unit] = []
    for unit in units:
        if fused and unit.first <= fused[-1].last:
            prev = fused[-1]
            if unit.definition is not None:
                # Two definitions on one line, or code before a definition on its line: the
                # fused unit is plain statements; comments and punctuation before it are not code.
                only_trivia = prev.definition is None and not any(
                    n.is_named and "comment" not in n.type and not (lead_in is not None and lead_in(n)) for n in prev.nodes
                )
                prev.definition = unit.definition if only_trivia else None
                prev.wrappers = unit.wrappers if only_trivia else []
            prev.last = max(prev.last, unit.last)
            prev.nodes.extend(unit.nodes)
            continue
        fused.append(unit)
    return fused


_STRINGS = frozenset({"string", "concatenated_string"})


def _head_last(doc: Document, unit: Unit, body: Node) -> int:
    """Last line of a definition's head: the line before its body, or the body's first line
    when the body opens on it (``{`` at the end of a signature)."""
    body_line = body.start_point.row + 1
    line_start = doc.line_start(body_line)
    opens_line = not doc.data[line_start : body.start_byte].strip()
    last = body_line - 1 if opens_line else body_line
    return max(unit.first, last)


def _first_of_type(node: Node, types: frozenset[str]) -> Node | None:
    stack = [node]
    while stack:
        current = stack.pop(0)
        if current.type in types:
            return current
        stack.extend(current.named_children)
    return None


_REFERENCE = re.compile(r"&\s*(?:'\w+\s*)?(mut\s+)?(?:(?:dyn|impl)\s+)?")
_DYN = re.compile(r"^(?:dyn|impl)\s+")
_SCOPE_SPACE = re.compile(r"\s*::\s*")


def _bare_type(name: str) -> str:
    """An implementing type as Rust's qualified paths write it: its reference kept, its
    lifetime and ``dyn`` dropped (``&'a mut Vec`` is ``&mut Vec``). ``impl IntoIterator for
    Vec``, ``for &Vec`` and ``for &mut Vec`` are three impls, three names."""
    bare = _REFERENCE.sub(lambda m: "&mut " if m.group(1) else "&", _DYN.sub("", name.strip()))
    return bare.strip() or name


def _clean_name(raw: bytes | None) -> str | None:
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    if "\n" in text and "::" in text:
        text = _SCOPE_SPACE.sub("::", text)  # ``basic_string<_CharT>::\n    swap``
    if "\n" in text or len(text) > _MAX_NAME:
        return None
    # ``WeightedLru<K, V>`` names the same thing as ``WeightedLru``; drop type arguments.
    if "<" in text:
        previous = None
        while previous != text:
            previous, text = text, _GENERIC_ARGS.sub("", text)
    if text.isidentifier():  # most names: nothing to normalise
        return text
    if len(text) > 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]  # an object's ``"my-key": function``
    return " ".join(text.replace("::", ".").split()) or None


_CLOSERS = {"(": ")", "[": "]", "{": "}", "`": "`"}
_PLAIN_GROUP = 24  # characters of a bracketed group a brief callee keeps as written
_CALLEE_WORDS = re.compile(r"[\w$!?]+")
_AROUND_ACCESS = re.compile(r"\s*(\.|->|::|\?\.)\s*")


def _brief(callee: str) -> str:
    """A callee's text on one line, each bracketed group in it (a call's arguments, a table, a
    template) written ``(\u2026)`` unless short and plain, type arguments dropped: ``$(document)\n
    .on('click', '.menu a', function (e) {...})\n  .on`` is ``$(document).on(\u2026).on``."""
    text = _AROUND_ACCESS.sub(lambda found: found.group(1), " ".join(callee.split()))
    previous = None
    while "<" in text and previous != text:
        previous, text = text, _GENERIC_ARGS.sub("", text)
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char not in _CLOSERS:
            out.append(char)
            i += 1
            continue
        depth, j, quote = 0, i, ""
        while j < n:  # to the bracket that closes this one, past strings
            c = text[j]
            if quote:
                quote = "" if c == quote and text[j - 1] != "\\" else quote
            elif char != "`" and c in "'\"`":
                quote = c  # (a template's own text holds no strings)
            elif c == char and (char != "`" or j == i):
                depth += 1
            elif c == _CLOSERS[char]:
                depth -= 1
                if depth == 0 or char == "`":
                    break
            j += 1
        inner = text[i + 1 : j]
        if len(inner) <= _PLAIN_GROUP and not any(c in inner for c in "([{`") and "=>" not in inner and j < n:
            out.append(text[i : j + 1])  # ``$(document)``, ``Route::middleware('auth')``: as written
        else:
            out.append(f"{char}\u2026{_CLOSERS[char]}")
        i = j + 1
    return "".join(out).strip()


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


ANNOTATION_STARTS = ("@", "#[", "[")  # Java, Kotlin, Python; Rust and PHP 8; C#


def _annotation(line: str) -> bool:
    """Whether ``line`` is an annotation or attribute above a definition (Java's and Python's
    ``@``, Rust's ``#[``, C#'s ``[``): a line of its head that names nothing."""
    return line.lstrip().startswith(ANNOTATION_STARTS)


def naming_line(signature: str) -> str:
    """The first line of ``signature`` that is no annotation (stripped), or ""."""
    return next((s for line in signature.splitlines() if (s := line.strip()) and not _annotation(s)), "")


def _key(node: Node) -> tuple[int, int, str]:
    return node.start_byte, node.end_byte, node.type


@dataclass(frozen=True)
class Definition:
    """A definition found in a file: its breadcrumb, kind and lines (decorators included)."""

    symbol: str
    kind: str
    first: int
    last: int
    signature_last: int  # last line of the signature; body lines follow
    is_function: bool
    name_line: int  # line where the definition itself starts (after decorators and comments)
    signature: str = ""  # what split parts repeat in their header


def list_definitions(prep: Prepared, settings: ChunkSettings | None = None) -> list[Definition]:
    """Every definition in a code document, nested ones included, in source order.

    Empty for languages without a grammar; a Markdown or reStructuredText document's are those
    of its fenced code (:func:`core.text.fence_definitions`). Used by the damage metrics, the UI's cut markers
    and the evaluation's symbol targets.
    """
    if prep.parts is not None:  # a markup file's script blocks (core.embedded)
        return [d for part, part_prep in prep.parts if part.code for d in list_definitions(part_prep, settings)]
    spec = LANGUAGES.get(prep.doc.language)
    if isinstance(spec, TextSpec) and spec.style in ("markdown", "rst"):  # its fenced code's
        from core.text import fence_definitions  # (core.text imports this module)

        return fence_definitions(prep, spec.style)
    if not isinstance(spec, CodeSpec) or prep.tree is None:
        return []
    settings = settings or ChunkSettings(unit="lines", budget=10_000)
    if prep.damage is None:  # the parse ran out of time
        return []
    run = _Run(ChunkMaker(prep, settings, "syntax"), spec, settings, prep.damage)
    found: list[Definition] = []
    stack: list[tuple[list[Node], tuple[str, ...], bool, int, bool, bool]] = [
        (top_level_nodes(prep.tree.root_node, spec.opens_error_root), (), False, 0, False, False)
    ]
    while stack:
        nodes, path, in_container, depth, in_function, callbacks = stack.pop()
        if depth > MAX_DEPTH:
            continue
        level_path = path
        for unit in run.units(nodes, in_function=in_function, callbacks=callbacks, in_class=in_container):
            definition = unit.definition
            if definition is None:
                continue
            symbol_path = (*(level_path if run.type_of(definition) in spec.scoping else path), run.name(unit))
            if run.scopes(unit):
                path = symbol_path
            outer = unit.wrappers[0] if unit.wrappers else definition
            first, last = run.node_lines(outer)
            runs = run.is_run(definition)
            if (
                definition.type in spec.properties
                or runs
                or definition.type in spec.equations
                or definition.type in spec.type_signatures  # (overloads with no body below: one under the other)
                or _key(definition) in run._sibling_bodies
                or (spec.name_followers and definition.type in spec.definition_calls)
            ):
                # Its accessors below, its later equations, its sibling body, the calls after it
                # that name it (``CodeSpec.name_followers``).
                last = max(last, unit.last)
            # Decorators and attributes attached above it are part of it (comments are not).
            lead = [n for n in unit.nodes if n.start_byte < outer.start_byte and not run.is_comment(n)]
            if lead:
                first = min(first, _lines(lead[0], run.doc.data)[0])
            body = run.body(definition)
            typed = run.type_of(definition)
            signature_last = (
                _head_last(run.doc, Unit(first, last, [outer]), run.body_lead(definition, body)[0])
                if body is not None
                else first
            )
            head_end = run.head_end(definition) if body is not None else None
            if head_end is not None:  # its head runs to its own token (``CodeSpec.head_ends``)
                signature_last = max(signature_last, run.doc.line_of_byte(head_end - 1))
            found.append(
                Definition(
                    spec.path_separator.join(symbol_path),
                    run.kind(definition, in_container),
                    first,
                    last,
                    signature_last,
                    typed in spec.functions
                    or typed in spec.registrations
                    or run.prototype(definition)
                    or _key(definition) in run._sibling_bodies,  # (a group's binding: ``binding_groups``)
                    definition.start_point.row + 1,
                    run.unit_signature(unit),
                )
            )
            if runs:  # a header's run (``CodeSpec.sibling_runs``): what it holds after its header
                classy = typed in spec.containers and run.classy(definition)
                members = run.run_members(unit)
                stack.append((members, symbol_path, classy, depth + 1, typed not in spec.containers, False))
            elif body is not None:
                classy = typed in spec.containers and run.classy(definition)
                function_body = typed not in spec.containers
                members = list(body.children)
                if definition.type in spec.equations:
                    # What follows an equation's body, as its split parts read it: its later guards
                    # and its ``where`` clause, whose helpers are its nested definitions.
                    members += [c for c in definition.children if c.start_byte >= body.end_byte]
                if body is definition:  # its own body: its head shares no unit with a member on its line
                    # (Its members follow its head's own token where one ends it, ``CodeSpec.head_ends``:
                    # a Fortran procedure's ``contains`` section, opened, holds its procedures.)
                    head = run.head_token(definition) if definition.type in spec.head_ends else None
                    if typed in spec.help_heads:  # (its members may be in blocks that are no definitions)
                        start = run.help_end(definition)
                    else:
                        start = head.end_byte if head is not None else run.members_start(definition)
                    members = [c for c in members if c.start_byte >= start]
                stack.append((members, symbol_path, classy, depth + 1, function_body, typed in spec.registrations))
    found.sort(key=lambda d: (d.first, -d.last))
    return found
