"""Prose and config: sections at headings or top-level keys, then blank-line blocks, never
mid-line (except a single line longer than the budget, which is cut and flagged)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from functools import partial

from core.builder import ChunkMaker, Prepared, flag_over, room_for, split_long_line
from core.chunk import Chunk
from core.document import Document
from core.languages import LANGUAGES, CodeSpec, TextSpec, fence_language
from core.settings import ChunkSettings
from core.syntax import Definition, chunk_syntax, list_definitions

# CommonMark's: an ATX heading indented at most 3 spaces (``# Using C#`` keeps its ``#``: a
# closing run needs a space before it), a setext heading's underline, a fence's opener (its
# closer is the same character, at least as many of it, and nothing else).
_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})(?=[ \t]|$)")  # the title: see _atx_title
_MD_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
_HTML_COMMENT = re.compile(r"^ {0,3}<!--")
# reST's section adornment: one punctuation character repeated (``=====``, ``-----``, ``~~~~``).
_RST_ADORNMENT = re.compile(r"""^([=\-`:'"~^_*+#<>.!$%&(),/;?@\[\]\\{|}])\1{2,}$""")
_FRONT_MATTER_END = re.compile(r"^(---|\.\.\.)[ \t]*$")
# A key: a quoted name and a colon (JSON writes ``"key":value``), or a bare name, a colon and a
# space or the line's end (YAML's ``url: x``; ``a:b`` is a plain value there).
_KEY = re.compile(
    r"""^\s*(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"\s*:|'(?P<sq>(?:[^'\n]|'')*)'\s*:|(?P<bare>[^"':#\s][^"':]*?)\s*:(?=\s|$))"""
)
# A Makefile rule's line: its targets, then ``:`` or ``::`` (not ``:=``, an assignment).
# (Spaces before it are allowed: a rule inside ``ifeq``; ``CC ::= gcc`` is an assignment.)
_MAKE_RULE = re.compile(r"^ *([^\s#=:][^=:]*?)\s*::?(?![:=])")
# Lines no rule starts on: directives, and a function called alone (``$(error ...: ...)``).
_MAKE_NOT_RULE = re.compile(
    r"^\s*(?:(?:-|s)?include|vpath|export|unexport|override|private|define|endef|ifn?eq|ifn?def|else|endif)\b"
    r"|^\s*\$[({][a-z-]+\s"
)
_MAKE_DEFINE = re.compile(r"^\s*(?:(?:export|override)\s+)*define\b")
_MAKE_ENDEF = re.compile(r"^\s*endef\b")
# GNU make's special targets that only mark the rules below them (``.DEFAULT:`` is a rule).
_MAKE_MARKS = frozenset({
    ".PHONY", ".SUFFIXES", ".PRECIOUS", ".INTERMEDIATE", ".NOTINTERMEDIATE", ".SECONDARY", ".SECONDEXPANSION",
    ".DELETE_ON_ERROR", ".IGNORE", ".LOW_RESOLUTION_TIME", ".SILENT", ".EXPORT_ALL_VARIABLES", ".NOTPARALLEL",
    ".ONESHELL", ".POSIX",
})
_DOCKER_FROM = re.compile(r"^\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?", re.IGNORECASE)
_DOCKER_HEREDOC = re.compile(r"<<-?\s*[\"']?(\w+)[\"']?")
_KEY_SPAN = 256  # characters of a line looked at for a key (a long run of spaces made the match quadratic)
_YAML_DOCUMENT = re.compile(r"^(---|\.\.\.)(\s|$)")
# A TOML table's header: dotted keys, bare or quoted (``[1, 2]`` on a line of its own is an
# array's element); an INI file's section may be named anything (``[tool:pytest]``).
_TOML_KEY = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_TOML_TABLE = re.compile(rf"^\s*\[\[?\s*({_TOML_KEY}(?:\s*\.\s*{_TOML_KEY})*)\s*\]\]?\s*(#.*)?$")
_INI_SECTION = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*([#;].*)?$")
# A statement's title: its first three words, a name quoted or qualified as SQL writes it
# (``"users"``, `` `notes` ``, ``[dbo].[t]``, ``public.users``) counting as one, qualifiers that
# name no object left out (``CREATE OR REPLACE FUNCTION f`` is ``CREATE FUNCTION f``); the
# ``E`` of ``E'...'`` is no word.
_SQL_NAME = r'(?:[A-Za-z_][\w$]*(?![\w$\'])|"[^"\n]+"|`[^`\n]+`|\[[^\]\n]+\])'
_SQL_HEAD = re.compile(rf"^\s*([A-Za-z]+(?:\s+{_SQL_NAME}(?:\.{_SQL_NAME})*){{0,2}})")
_SQL_FILLER = re.compile(r"\s+(?:OR\s+REPLACE|IF\s+(?:NOT\s+)?EXISTS)(?=\s|$)", re.IGNORECASE)
# What can open or close a stretch in which a statement cannot end: a dollar-quoted body
# (PostgreSQL's ``AS $$ ... $$``, ``$fn$ ... $fn$``), a string (PostgreSQL's ``E'...'`` reads
# backslash escapes), a block comment; ``--`` and MySQL's ``#``; and a backslash with the
# character it may escape.
_SQL_TOKEN = re.compile(r"\$(?:[A-Za-z_]\w*)?\$|(?<![\w$])[Ee]'|'|\"|--|#|/\*|\*/|\\['\"\\]")
# What marks a MySQL script (its strings read backslash escapes, ``#`` starts a comment):
# mysqldump's versioned comments and table options, or names in backquotes.
_MYSQL_MARK = re.compile(rb"/\*!\d|\b(?i:ENGINE)\s*=|`[^`\n]+`")
_MYSQL_NAMES = 3  # backquoted names that make a script MySQL's (one in a comment does not)
_COPY_FROM_STDIN = re.compile(r"^\s*COPY\b.*\bFROM\s+stdin\b", re.IGNORECASE)  # pg_dump's data follows, to ``\.``
_SQL_DELIMITER = re.compile(r"^\s*delimiter\s+(\S+)\s*$", re.IGNORECASE)  # MySQL clients' ``DELIMITER //``

Section = tuple[int, int, str]  # first line, last line, title
# What a section is cut into: (title, first line, last line, flags, start byte, end byte; the
# bytes None for whole lines), or a chunk made already (a Markdown fence's code).
Span = tuple[str, int, int, tuple[str, ...], int | None, int | None]
_MAX_TITLE = 80  # characters of a line that names its section (a YAML list's item)
_MERGED_TITLES = 3  # titles a chunk of merged sections names before "... n more"


def _reader(doc: Document):  # type: ignore[no-untyped-def]
    """``doc.line_text``, or :func:`_line` for a document that opens with a byte order mark
    (a sectioner reads every line: the plain method is the cheaper)."""
    return partial(_line, doc) if doc.text.startswith("\ufeff") else doc.line_text


def _line(doc: Document, line: int) -> str:
    """Line ``line``'s text, a byte order mark before the first left out (``\ufeff# Title`` is
    a heading)."""
    text = doc.line_text(line)
    return text.lstrip("\ufeff") if line == 1 else text


def chunk_text(prep: Prepared, settings: ChunkSettings, *, fallback: str | None = None) -> list[Chunk]:
    """Chunk prose or config by its structure; unknown formats by blank-line blocks."""
    doc = prep.doc
    if not doc.data.strip():
        return []
    maker = ChunkMaker(prep, settings, "text", fallback=fallback)
    spec = LANGUAGES.get(doc.language)
    style = spec.style if isinstance(spec, TextSpec) else "blocks"

    def fits(first: int, last: int, title: str) -> bool:
        return maker.prefix_size(title, "") + maker.lines_size(first, last) <= settings.budget

    fenced: _Fenced | None = None  # a Markdown document's fences, a reStructuredText one's code blocks
    if style in _CODE_BLOCKS:
        fenced, sections = _code_blocks(doc, style)
    elif doc.language == "yaml" and (documents := _yaml_documents(doc)):
        sections = _stream_sections(doc, documents, fits)
    else:
        sections = _SECTIONERS[style](doc)
    spans: list[Span | Chunk] = []
    split: list[tuple[int, int]] = []  # where the pieces of each section too big for a chunk are in ``spans``
    group: list[Section] = []
    titles = _Titles()  # the group's, kept as it grows (a group of thousands must not be re-read)

    def emit() -> None:
        nonlocal titles
        if group:
            spans.append((titles.title(), group[0][0], group[-1][1], (), None, None))
            group.clear()
            titles = _Titles()

    if style == "keys":  # a key too big for a chunk: its own keys, as sections under its title
        sections = [nested for section in sections for nested in _nested_keys(doc, section, _key_line(doc, section), fits)]
    for section in sections:
        first, last, title = section
        if group and settings.merge_siblings and fits(group[0][0], last, titles.title(title)):
            group.append(section)
            titles.add(title)
            continue
        emit()
        if fits(first, last, title):
            group.append(section)
            titles.add(title)
            continue
        pieces = _split_section(maker, doc, first, last, title, fits, fenced)
        split.append((len(spans), len(spans) + len(pieces)))
        spans.extend(pieces)
    emit()
    # A section cut in pieces is one split definition's parts, as a function's are: numbered,
    # each after the first pointing at it (a query returns the section whole). A fence's code
    # chunked by its own language among them keeps its own names and parts.
    numbered: dict[int, tuple[int, int, int]] = {}  # span index: (part, parts, index of part 1)
    for begin, end in split:
        own = [i for i in range(begin, end) if not isinstance(spans[i], Chunk)]
        if len(own) > 1:
            numbered.update({i: (k, len(own), own[0]) for k, i in enumerate(own, 1)})
    chunks = []
    made: dict[int, Chunk] = {}
    for index, span in enumerate(spans):
        if isinstance(span, Chunk):
            chunks.append(span)
            continue
        title, first, last, flags, a, b = span
        if a is None or b is None:
            first, last = doc.trim_blank(first, last)
            a, b = doc.lines_span(first, last)
        part, parts, head = numbered.get(index, (1, 1, index))
        parent = made[head].id if head != index else None
        made[index] = chunk = maker.make("section", title, a, b, flags=flags, part=part, parts=parts, parent_id=parent)
        chunks.append(chunk)
    return chunks


class _Titles:
    """The titles of a group of merged sections, as :func:`_merged_title` names them, kept as
    the group grows: the heading trail they share and their first few distinct titles."""

    def __init__(self) -> None:
        self.first: list[str] = []  # the first distinct titles, up to one more than are shown
        self.seen: set[str] = set()
        self.shared: list[str] | None = None  # the trail every title so far starts with

    def title(self, extra: str | None = None) -> str:
        """The group's title, with ``extra`` added if given (the group is left as it is)."""
        seen, shared, first = len(self.seen), self.shared, self.first
        if extra is not None and extra not in self.seen:
            seen += 1
            shared = _common_trail(shared, extra)
            first = [*first, extra]
        if seen == 1:
            return first[0]
        if shared:
            return " > ".join(shared)
        more = seen - _MERGED_TITLES
        return ", ".join(first[:_MERGED_TITLES]) + (f", ... {more} more" if more > 0 else "")

    def add(self, title: str) -> None:
        if title in self.seen:
            return
        self.seen.add(title)
        self.shared = _common_trail(self.shared, title)
        if len(self.first) <= _MERGED_TITLES:
            self.first.append(title)


def _common_trail(shared: list[str] | None, title: str) -> list[str]:
    parts = title.split(" > ")
    if shared is None:
        return parts
    common: list[str] = []
    for a, b in zip(shared, parts):
        if a != b:
            break
        common.append(a)
    return common


def _merged_title(titles: list[str]) -> str:
    """The title of sections merged into one chunk (see :class:`_Titles`); "" for none."""
    group = _Titles()
    for title in titles:
        group.add(title)
    return group.title() if titles else ""


def _split_section(  # type: ignore[no-untyped-def]
    maker: ChunkMaker, doc: Document, first: int, last: int, title: str, fits, fenced: _Fenced | None
) -> list[Span | Chunk]:
    """Blank-line blocks packed under the budget (a fence's blank lines cut no block); a block
    too big for any chunk by lines, its first lines with the blocks before it (a heading stays
    with the text under it); then pieces of a line. A Markdown fence (a reStructuredText code
    block) is packed whole when it fits a chunk; one too big for that, in a language chunked
    by syntax, is cut by :func:`_fence_chunks` (its opening lines go with the lines before it,
    its closing line with those after it), else by lines as any block."""
    kept = fenced.lines if fenced is not None else set()
    codes = fenced.blocks if fenced is not None else {}
    out: list[Span | Chunk] = []
    start: int | None = None
    end = first

    def close_run() -> None:
        nonlocal start
        if start is not None:
            # (A run of fence lines alone, the ```` ``` ```` after a fence's code: kept, unindexed.)
            alone = fenced is not None and all(at in fenced.markers or doc.is_blank(at) for at in range(start, end + 1))
            out.append((title, start, end, ("divider",) if alone else (), None, None))
            start = None

    for block_first, block_last in _blocks(doc, first, last, kept):
        if start is not None and fits(start, block_last, title):
            end = block_last
            continue
        if fits(block_first, block_last, title):
            close_run()
            start, end = block_first, block_last
            continue
        line = block_first
        while line <= block_last:
            block = codes.get(line)
            if block is not None and block[2] <= block_last and fenced is not None:
                code_first, code_last, block_end = block
                if start is not None and fits(start, block_end, title):
                    end, line = block_end, block_end + 1
                    continue
                if fits(line, block_end, title):
                    close_run()
                    start, end, line = line, block_end, block_end + 1
                    continue
                code = _fence_chunks(maker, code_first, code_last, fenced.languages.get(line), title)
                if code is not None:
                    if start is not None and fits(start, code_first - 1, title):
                        end = code_first - 1
                    else:
                        close_run()
                        start, end = line, code_first - 1
                    close_run()
                    out.extend(code)
                    line = code_last + 1  # a fence's closing line starts the lines after the code
                    continue
            if start is not None and fits(start, line, title):
                end = line
                line += 1
                continue
            close_run()
            if doc.is_blank(line):
                line += 1
                continue  # a blank line (a fence's) starts no chunk
            if fits(line, line, title):
                start = end = line
                line += 1
                continue
            avail, over = room_for(maker, title, "")
            for a, b, flags in split_long_line(maker, doc.text_start(line), doc.line_end(line), avail):
                out.append((title, line, line, flag_over(flags, over), a, b))
            line += 1
    close_run()
    return out


def _fence_chunks(maker: ChunkMaker, first: int, last: int, language: str | None, title: str) -> list[Chunk] | None:
    """The code on lines ``first..last`` of a Markdown fence (a reStructuredText code block), cut
    by the syntax chunker of ``language`` (functions whole, a long one in parts that repeat its
    signature), or a config by this module's sectioner of it (YAML's keys, a TOML table),
    its chunks named under the section's ``title``; None when the fence names no such language,
    or when its code does not parse whole (a REPL session with its output, ``...`` in place of
    code, a shell prompt): it is then cut by lines, as prose is, rather than into chunks
    flagged ``damaged``."""
    if isinstance(LANGUAGES.get(language or ""), TextSpec):  # a config: its keys, tables, statements
        config = _fence_part(maker.prep, first, last, language, title)
        if config is None:
            return None
        return [replace(c, language=maker.doc.language) for c in chunk_text(config, maker.settings)] or None
    part = _fence_code(maker.prep, first, last, language, title)
    if part is None:
        return None
    chunks = chunk_syntax(part, maker.settings)
    if not chunks or any(c.fallback or "damaged" in c.flags for c in chunks):
        return None
    return [replace(c, language=maker.doc.language) for c in chunks]


def _fence_part(prep: Prepared, first: int, last: int, language: str | None, title: str) -> Prepared | None:
    """A fence's lines ``first..last`` as their own prepared document in ``language``, named
    under the section's ``title`` (:meth:`Prepared.fence`); None when the fence names no
    language or holds nothing."""
    if language is None or not any(not prep.doc.is_blank(at) for at in range(first, last + 1)):
        return None
    return prep.fence(first, last, language, "" if title == _NO_TITLE else title)


def _fence_code(prep: Prepared, first: int, last: int, language: str | None, title: str) -> Prepared | None:
    """A fence's code as :func:`_fence_part` gives it; None also when it does not parse whole."""
    part = _fence_part(prep, first, last, language, title)
    damage = part.damage if part is not None else None
    return part if damage is not None and not damage.ranges else None


def fence_definitions(prep: Prepared, style: str) -> list[Definition]:
    """The definitions of a Markdown document's fenced code (a reStructuredText one's code
    blocks: ``style``), in order, named under their section's heading trail as the chunks of
    that code are (``Guide > Install > install``): those of the fences the text chunker may
    cut by syntax (:func:`_fence_chunks`: a language chunked by syntax, code that parses whole,
    within the copies allowed), so that the damage metrics and the app's cut markers see
    where fixed windows cut a README's functions."""
    fenced, sections = _code_blocks(prep.doc, style)
    firsts = [first for first, _, _ in sections]
    found: list[Definition] = []
    for opener, language in fenced.languages.items():
        if not isinstance(LANGUAGES.get(language), CodeSpec):
            continue  # a config's fence: no definitions (and no copy of the document to make)
        index = bisect_right(firsts, opener) - 1
        title = sections[index][2] if index >= 0 else _NO_TITLE
        code_first, code_last, _ = fenced.blocks[opener]
        part = _fence_code(prep, code_first, code_last, language, title)
        if part is None:
            continue
        context = part.context
        for definition in list_definitions(part):
            found.append(replace(definition, symbol=f"{context} > {definition.symbol}") if context else definition)
    return found


def _blocks(doc: Document, first: int, last: int, kept: set[int]) -> list[tuple[int, int]]:
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    for line in range(first, last + 1):
        if doc.is_blank(line) and line not in kept:
            if start is not None:
                blocks.append((start, line - 1))
                start = None
        elif start is None:
            start = line
    if start is not None:
        blocks.append((start, last))
    return blocks or [(first, last)]


def _cut(
    doc: Document, starts: list[tuple[int, str]], default: str, begin: int = 1, end: int | None = None
) -> list[Section]:
    """Sections of lines ``begin..end`` (the whole document by default) from (first line,
    title) starts; text before the first start is a preamble, unless it holds no letter or digit
    (a thematic break, a rule of asterisks): that goes with the first section."""
    text_of = _reader(doc)
    n = doc.line_count if end is None else end
    preamble = range(begin, starts[0][0]) if starts else range(0)
    if preamble and not any(c.isalnum() for line in preamble for c in text_of(line)):
        starts = [(begin, starts[0][1]), *starts[1:]]
    if not starts or starts[0][0] != begin:
        starts = [(begin, default), *starts]
    sections = []
    for index, (first, title) in enumerate(starts):
        last = starts[index + 1][0] - 1 if index + 1 < len(starts) else n
        if any(not doc.is_blank(line) for line in range(first, last + 1)):
            sections.append((first, last, title))
    return sections


# A heading: its first line, its last line (a setext or reST title's underline), level, title.
Heading = tuple[int, int, int, str]


def _markdown_starts(doc: Document, fence: _Fenced) -> list[tuple[int, str]]:
    """Where Markdown's sections start: at each heading (ATX or setext; not in a fence, an HTML
    comment or the front matter), titled by its trail of headings (:func:`_heading_starts`)."""
    text_of = _reader(doc)
    headings: list[Heading] = []
    front = fence.front_matter
    n = doc.line_count
    line = front + 1
    while line <= n:
        if line in fence.lines:
            line += 1
            continue
        text = text_of(line)
        html = _html_block_end(text_of, line, n, fence.lines)
        if html:  # raw HTML, as CommonMark reads it: a ``# x`` line in a ``<div>`` is no heading
            line = html + 1
            continue
        match = _MD_HEADING.match(text)
        title = _atx_title(text[match.end() :]) if match else ""
        if title:
            headings.append((line, line, len(match.group(1)), title))
        elif (
            text.strip()
            and line < n
            and line + 1 not in fence.lines
            and (under := _MD_UNDERLINE.match(text_of(line + 1)))
            and not text.lstrip().startswith(("-", "*", "+", ">", "|"))
            and (line == front + 1 or doc.is_blank(line - 1) or (headings and headings[-1][1] == line - 1))
        ):
            headings.append((line, line + 1, 1 if under.group(1)[0] == "=" else 2, text.strip()))
            line += 1
        line += 1
    starts = _heading_starts(doc, headings)
    return [(1, "<front matter>"), *starts] if front else starts


# CommonMark's HTML blocks that can hold a line read as a heading elsewhere: those of raw text
# (``<pre>``, ``<script>``, ``<style>``, ``<textarea>``) end at their closing tag, those of a
# block-level tag at a blank line.
_HTML_RAW_OPEN = re.compile(r"^ {0,3}<(pre|script|style|textarea)(\s|>|$)", re.IGNORECASE)
_HTML_BLOCK_OPEN = re.compile(
    r"^ {0,3}</?(address|article|aside|blockquote|body|center|details|dialog|dir|div|dl|dt|dd|fieldset|figcaption|"
    r"figure|footer|form|header|html|iframe|legend|li|main|menu|nav|ol|p|section|summary|table|tbody|td|tfoot|th|"
    r"thead|tr|ul)(\s|/?>|$)",
    re.IGNORECASE,
)


def _html_block_end(text_of, line: int, n: int, skipped: set[int]) -> int:  # type: ignore[no-untyped-def]
    """The last line of the HTML block ``line`` opens (0: it opens none)."""
    text = text_of(line)
    raw = _HTML_RAW_OPEN.match(text)
    if raw is not None:
        closing = f"</{raw.group(1).lower()}>"
        end = line
        while end <= n and closing not in text_of(end).lower():
            end += 1
        return min(end, n)
    if _HTML_BLOCK_OPEN.match(text) is None:
        return 0
    end = line
    while end < n and text_of(end + 1).strip() and end + 1 not in skipped:
        end += 1
    return end


def _rst(doc: Document) -> list[Section]:
    """reStructuredText: a title is a line underlined (and maybe overlined) with one punctuation
    character at least as long as it; levels come in the order the document first uses each
    style, as docutils reads them."""
    text_of = _reader(doc)
    headings: list[Heading] = []
    styles: list[tuple[str, bool]] = []
    n = doc.line_count
    line = 1
    while line < n:
        text = text_of(line).rstrip()
        over = _RST_ADORNMENT.match(text)
        first, title_line = line, line
        if over and line + 2 <= n:  # an overline: the title, then the same line under it
            title_line = line + 1
        title = text_of(title_line).rstrip()
        under_line = title_line + 1
        under = text_of(under_line).rstrip() if under_line <= n else ""
        is_title = (
            title.strip()
            and (not title[:1].isspace() or title_line != line)  # (an overlined title may be inset)
            and not _RST_ADORNMENT.match(title)
            and _RST_ADORNMENT.match(under) is not None
            and len(under) >= len(title.strip())
            and (title_line == line or text == under)
        )
        if not is_title:
            line += 1
            continue
        style = (under[0], title_line != line)
        if style not in styles:
            styles.append(style)
        headings.append((first, under_line, styles.index(style) + 1, title.strip()))
        line = under_line + 1
    return _cut(doc, _heading_starts(doc, headings), "<document>")


# LaTeX's sectioning commands and their depth, at a line's start (``\\section*[Short]{Title}``);
# an abstract and a bibliography are sections of their own, as a reader finds them.
_TEX_HEADING = re.compile(
    r"^[ \t]*\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?[ \t]*(?:\[[^\]\n]*\][ \t]*)?\{"
)
_TEX_LEVELS = {"part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5, "subparagraph": 6}
_TEX_ENVIRONMENT = re.compile(r"^[ \t]*\\(begin|end)[ \t]*\{([A-Za-z*]+)\}")
_TEX_NAMED = {"abstract": "Abstract", "thebibliography": "References"}
# Environments whose lines are not LaTeX to read: a ``\section`` in a listing is code.
_TEX_VERBATIM = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "comment", "alltt"})
_TEX_TITLE = re.compile(r"^[ \t]*\\title[ \t]*(?:\[[^\]\n]*\][ \t]*)?\{")
_TEX_COMMAND = re.compile(r"\\(?:label|ref|cite[a-z]*|footnote|index)\*?(?:\[[^\]]*\])?\{[^{}]*\}|\\[A-Za-z]+\*?|\\.|[{}~]")


def _latex(doc: Document) -> list[Section]:
    """LaTeX: a section per sectioning command (``\\part`` to ``\\subparagraph``, starred or with
    a short title), titled by its trail of titles as Markdown's are; the preamble (up to
    ``\\begin{document}``) is a section of its own, and so are an abstract and a
    bibliography. Comment lines right above a heading go with it; nothing in a verbatim
    environment (``lstlisting``, ``minted``) or a comment line is a heading."""
    text_of = _reader(doc)
    headings: list[Heading] = []
    starts: list[tuple[int, str]] = []
    title = ""
    verbatim: str | None = None
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        if "\\" not in text:
            continue
        environment = _TEX_ENVIRONMENT.match(text)
        if verbatim is not None:
            if environment and environment.group(1) == "end" and environment.group(2) == verbatim:
                verbatim = None
            continue
        if environment and environment.group(1) == "begin":
            name = environment.group(2)
            if name in _TEX_VERBATIM:
                verbatim = name
            elif name in _TEX_NAMED:
                headings.append((_tex_lead(doc, line), line, _TEX_LEVELS["section"], _TEX_NAMED[name]))
            elif name == "document" and not starts and not headings:
                starts += [(1, "preamble"), (line, title or _NO_TITLE)]
            continue
        found = _TEX_TITLE.match(text) if not starts else None
        if found:
            title = _tex_title(text, found.end())
            continue
        found = _TEX_HEADING.match(text)
        if found:
            named = _tex_title(text, found.end())
            headings.append((_tex_lead(doc, line), line, _TEX_LEVELS[found.group(1)], named or found.group(1)))
    cut = _heading_starts(doc, headings)
    if starts:  # the preamble, and the document's text before its first heading
        cut = [start for start in starts if not cut or start[0] < cut[0][0]] + cut
    return _cut(doc, cut, _NO_TITLE)


def _tex_lead(doc: Document, line: int) -> int:
    """The first of the comment lines right above ``line`` (``% --- Methods ---``), or ``line``."""
    while line > 1 and doc.line_text(line - 1).lstrip().startswith("%"):
        line -= 1
    return line


def _tex_title(text: str, at: int) -> str:
    """The title in braces from ``text[at:]`` (after its ``{``), as words: nested braces kept
    (``The \\emph{fast} path``), commands and labels left out, at most :data:`_MAX_TITLE`
    characters; to the line's end when it closes on a later line."""
    depth, end = 1, len(text)
    for index in range(at, len(text)):
        char = text[index]
        if char == "\\":
            continue
        if char == "{" and text[index - 1] != "\\":
            depth += 1
        elif char == "}" and text[index - 1] != "\\":
            depth -= 1
            if depth == 0:
                end = index
                break
    words = " ".join(_TEX_COMMAND.sub(" ", text[at:end]).split())
    return words[:_MAX_TITLE]


def _heading_starts(doc: Document, headings: list[Heading]) -> list[tuple[int, str]]:
    """Section starts at ``headings``, each titled by its trail of headings (``Guide >
    Install``). A heading with nothing under it before a deeper one (``# Tool`` then ``##
    Install``) starts no section of its own: the deeper one's starts at it, and its trail
    names both."""
    starts: list[tuple[int, str]] = []
    trail: list[tuple[int, str]] = []
    previous: Heading | None = None
    for heading in headings:
        first, _, level, title = heading
        trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, title)]
        name = " > ".join(t for _, t in trail)
        if (
            previous is not None
            and level > previous[2]
            and starts
            and all(doc.is_blank(line) for line in range(previous[1] + 1, first))
        ):
            starts[-1] = (starts[-1][0], name)  # the empty parent's section is this one's
        else:
            starts.append((first, name))
        previous = heading
    return starts


def _atx_title(rest: str) -> str:
    """An ATX heading's title from the text after its ``#`` run: without a closing run of ``#``
    that a space or tab stands before (``# Using C#`` keeps its own). Linear: a regex doing
    this backtracked over long runs of spaces."""
    rest = rest.strip(" \t")
    closing = rest.rstrip("#")
    if not closing:
        return ""  # ``# #``: the closing run alone
    if len(closing) < len(rest) and closing[-1] in " \t":
        rest = closing.rstrip(" \t")
    return rest


_NO_TITLE = "<document>"  # the title of a Markdown document's text before its first heading
# Bytes of copies a Markdown document's fences may take: each fence cut by syntax is parsed in
# a copy of the document up to its end, the rest blanked (:meth:`Prepared.fence`), so only its
# first ``max(1, this // its size)`` fences in a language may be (16 in a file of 2 MB); the
# others are cut by lines.
FENCE_COPY_BYTES = 32 << 20


class _Fenced:
    """The lines of a Markdown document inside fences and HTML comments (their first and last
    lines included), and the last line of its YAML front matter (0 without one); the closed
    fences: by its opening line, each one's code lines (first, last) and its last line, the
    language of those whose info string names one chunked by syntax, and the lines that open
    or close one. A reStructuredText document's code blocks likewise."""

    def __init__(self, lines: set[int], front_matter: int) -> None:
        self.lines = lines
        self.front_matter = front_matter
        self.blocks: dict[int, tuple[int, int, int]] = {}
        self.languages: dict[int, str] = {}
        self.markers: set[int] = set()
        self.copies = 1  # fences in a language that may be parsed in a copy (FENCE_COPY_BYTES)

    def add(self, opener: int, first: int, last: int, end: int, info: str) -> None:
        """A fence opened on line ``opener``, its code on ``first..last``, closed on ``end``
        (``last`` when nothing closes it), its info string ``info``."""
        self.blocks[opener] = (first, last, end)
        self.markers.update(range(opener, first))
        self.markers.update(range(last + 1, end + 1))
        language = fence_language(info)
        if language is not None and len(self.languages) < self.copies:
            self.languages[opener] = language


_CODE_BLOCKS = ("markdown", "rst")


def _code_blocks(doc: Document, style: str) -> tuple[_Fenced, list[Section]]:
    """A Markdown or reStructuredText document's fences (code blocks) and sections."""
    if style == "markdown":
        fenced = _fences(doc)
        return fenced, _cut(doc, _markdown_starts(doc, fenced), _NO_TITLE)
    return _rst_code(doc), _rst(doc)


# A reStructuredText code block's directive (Sphinx's ``code-block`` and ``sourcecode``,
# docutils' ``code``) and its language; the options right under it (``:linenos:``).
_RST_CODE = re.compile(r"^([ \t]*)\.\.[ \t]+(?:code-block|sourcecode|code)[ \t]*::[ \t]*(.*)$")
_RST_OPTION = re.compile(r"^[ \t]+:[\w-]+:")


def _rst_code(doc: Document) -> _Fenced:
    """A reStructuredText document's code blocks: each directive's lines indented under it
    (blank lines among them), its options and the blank line after them before its code."""
    text_of = _reader(doc)
    found = _Fenced(set(), 0)
    found.copies = _copies(doc)
    n = doc.line_count
    line = 1
    while line <= n:
        directive = _RST_CODE.match(text_of(line))
        if directive is None:
            line += 1
            continue
        indent, last = len(directive.group(1).expandtabs()), line
        for at in range(line + 1, n + 1):
            text = text_of(at)
            if text.strip():
                if len(text) - len(text.lstrip()) <= indent:
                    break
                last = at
        first = line + 1
        while first <= last and _RST_OPTION.match(text_of(first)):
            first += 1
        while first <= last and doc.is_blank(first):
            first += 1
        found.lines.update(range(line, last + 1))
        if first <= last:
            found.add(line, first, last, last, directive.group(2))
        line = last + 1
    return found


def _copies(doc: Document) -> int:
    """How many fences of ``doc`` may be parsed in a copy of it (:data:`FENCE_COPY_BYTES`)."""
    return max(1, FENCE_COPY_BYTES // max(len(doc.data), 1))


def _fences(doc: Document) -> _Fenced:
    text_of = _reader(doc)
    n = doc.line_count
    front = 0
    if n > 2 and text_of(1).rstrip() == "---" and _KEY.match(text_of(2)[:_KEY_SPAN]):
        # (YAML keys right under the first line: a document opening on a thematic break is no
        # front matter, and its headings are not hidden up to the next one.)
        front = next((line for line in range(2, n + 1) if _FRONT_MATTER_END.match(text_of(line))), 0)
    found = _Fenced(set(), front)
    found.copies = _copies(doc)
    lines = found.lines
    opener: str | None = None  # the open fence's run (```` ``` ````, ``~~~~``)
    opened_at = 0  # its line
    comment = False  # inside an HTML comment block (``<!--`` to ``-->``: a heading there is hidden)
    for line in range(front + 1, n + 1):
        text = text_of(line)
        if comment:
            lines.add(line)
            comment = "-->" not in text
            continue
        if opener is None:
            match = _FENCE.match(text)
            if match:
                opener, opened_at = match.group(1), line
                lines.add(line)
            elif _HTML_COMMENT.match(text) and "-->" not in text:
                comment = True
                lines.add(line)
            continue
        lines.add(line)
        stripped = text.strip()
        closes = stripped and set(stripped) == {opener[0]} and len(stripped) >= len(opener)
        if closes and len(text) - len(text.lstrip(" ")) <= 3:
            if line > opened_at + 1:
                found.add(opened_at, opened_at + 1, line - 1, line, text_of(opened_at).lstrip(" ")[len(opener) :])
            opener = None
    return found


def _keys(doc: Document) -> list[Section]:
    """YAML and JSON: a section per top-level key (the least indented keys), per element of a
    JSON file that is one array, per item of a YAML file that is one list. A key's section
    starts at the comment lines right above it and at a YAML document's ``---`` before it
    (the first key's comments stay a section of their own: a file's own header)."""
    text_of = _reader(doc)
    lines = [(line, text_of(line)) for line in range(1, doc.line_count + 1)]
    opening = next((text.strip() for _, text in lines if text.strip()), "")
    if doc.language == "json" and opening.startswith("[") and not opening.strip("[ \t"):
        return _cut(doc, _elements(lines), "<document>")
    return _cut(doc, _key_starts(lines, _key_comments(doc)), "<document>")


def _key_comments(doc: Document) -> tuple[str, ...]:
    """How a comment line of ``doc``'s keys starts: JSONC's and JSON5's ``//`` and ``/* */``
    too (a comment above ``"b"`` went with ``"a"``)."""
    return ("#", "//", "/*", "*") if doc.language == "json" else ("#",)


# A YAML key whose value is a block scalar (``script: |``, ``description: >-``): its lines are
# text, whatever colons they hold.
_BLOCK_SCALAR = re.compile(r":[ \t]*[|>][-+0-9]*[ \t]*(#.*)?$")
_MAX_KEY_DEPTH = 4  # levels of keys a section too big for a chunk is cut at


def _nested_keys(doc: Document, section: Section, key_line: int, fits, depth: int = 0) -> list[Section]:  # type: ignore[no-untyped-def]
    """``section`` (a YAML or JSON key on ``key_line`` and its value) when it ``fits`` a chunk,
    else its value's own keys as sections titled under it (``jobs > build``, ``services >
    api``), the lines down to the first of them going with that one, each cut so again, up to
    :data:`_MAX_KEY_DEPTH` levels: a workflow's ``jobs:`` or a compose file's ``services:`` too
    big for a chunk was cut by lines wherever the chunk filled, a job's name in one chunk and
    its steps in the next."""
    first, last, title = section
    if depth >= _MAX_KEY_DEPTH or fits(first, last, title) or _BLOCK_SCALAR.search(doc.line_text(key_line)):
        return [section]
    text_of = _reader(doc)
    if doc.language == "json" and text_of(key_line).rstrip().endswith("["):
        # An array of objects under a key (``"items": [``): cut between its elements, ``items >
        # [0]``, not at the keys inside them (that cut an object's ``"id"`` from its ``"note"``).
        starts = _elements([(line, text_of(line)) for line in range(key_line, last + 1)])
        if starts:  # (its first element's own line: ``_elements`` gives a whole file's first line)
            starts[0] = (next(line for line in range(key_line + 1, last + 1) if text_of(line).strip()), starts[0][1])
    else:
        starts = _key_starts([(line, text_of(line)) for line in range(key_line + 1, last + 1)], _key_comments(doc))
    if len(starts) < 2:
        return [section]
    found: list[Section] = []
    for at, (line, name) in enumerate(starts):
        end = starts[at + 1][0] - 1 if at + 1 < len(starts) else last
        sub = (first if at == 0 else line, end, f"{title} > {name}")
        found += _nested_keys(doc, sub, _key_line(doc, (line, end, name)), fits, depth + 1)
    # Pieces of one value are packed up to the budget, as a body's statements are (a key each
    # was a chunk of a line), titled by the trail they share (``scripts``, ``jobs > test``).
    packed: list[tuple[int, int, _Titles]] = []  # (first, last, titles): kept as they grow
    for sub_first, sub_last, sub_title in found:
        if packed and fits(packed[-1][0], sub_last, packed[-1][2].title(sub_title)):
            packed[-1] = (packed[-1][0], sub_last, packed[-1][2])
        else:
            packed.append((sub_first, sub_last, _Titles()))
        packed[-1][2].add(sub_title)
    return [(a, b, titles.title()) for a, b, titles in packed]


def _key_line(doc: Document, section: Section) -> int:
    """The line of a key's section that holds the key: its first past the comments and the
    document markers above it."""
    first, last, _ = section
    text_of = _reader(doc)
    for line in range(first, last + 1):
        text = text_of(line).strip()
        if text and not text.startswith(_key_comments(doc)) and not _YAML_DOCUMENT.match(text) and text not in ("{", "["):
            return line  # (past a JSON document's own opening brace, which its first key's section holds)
    return first


def _key_starts(lines: list[tuple[int, str]], comments: tuple[str, ...] = ("#",)) -> list[tuple[int, str]]:
    """Where the sections of ``lines`` (numbered) start: at each of their least indented keys
    (see :func:`_keys`), after the lines of ``comments`` right above each."""
    keys = []  # (line, text, indent, key match) of the lines that hold a key
    for line, text in lines:
        match = _KEY.match(text if len(text) <= _KEY_SPAN else text[:_KEY_SPAN])
        if match is not None:
            keys.append((line, text, len(text) - len(text.lstrip()), match))
    if not keys:
        return []
    top = min(indent for _, _, indent, _ in keys)
    at_top = {line: match for line, _, indent, match in keys if indent == top}
    starts: list[tuple[int, str]] = []
    above: int | None = None  # the first of the comment and document-marker lines right above
    for line, text in lines:
        match = at_top.get(line)
        if match is None:
            stripped = text.strip()
            if not stripped:
                above = None
            elif (stripped.startswith(comments) and len(text) - len(text.lstrip()) <= top) or _YAML_DOCUMENT.match(text):
                above = above or line  # (a comment indented deeper is in the value above, a block scalar's)
            else:
                above = None
            continue
        quoted = match.group("dq") if match.group("dq") is not None else match.group("sq")
        name = quoted if quoted is not None else match.group("bare").strip()
        if quoted is None and name.startswith("- "):  # a list's item: named by what it holds
            name = text.strip()[2:].strip()[:_MAX_TITLE]
        starts.append((above if above is not None and starts else line, name))
        above = None
    return starts  # (a preamble of JSON's ``{`` or YAML's ``---`` goes with the first: see _cut)


# A document of a YAML stream: its first and last line, its title, where its keys start.
StreamDocument = tuple[int, int, str, list[tuple[int, str]]]


def _stream_sections(  # type: ignore[no-untyped-def]
    doc: Document, documents: list[StreamDocument], fits
) -> list[Section]:
    """A stream of documents (a manifest's objects): each is one section when it ``fits``, as a
    definition is; else its leading keys that fit together head it, as a class's header does
    (``apiVersion``, ``kind`` and ``metadata`` said nothing alone, a line each), and its other
    keys follow under its title (``Deployment web > spec``)."""
    sections: list[Section] = []
    for begin, end, name, starts in documents:
        if fits(begin, end, name):
            sections.append((begin, end, name))
            continue
        parts = _cut(doc, starts, name, begin, end)
        taken = 1
        while taken < len(parts) and fits(begin, parts[taken][1], name):
            taken += 1
        if starts and all(doc.line_text(line).lstrip().startswith("- ") for line, _ in starts):
            # A document that is a list (a playbook's tasks), named by its items together
            # (``name: Start nginx, name: Install pkg``): each piece is named by its own items,
            # not by all (its breadcrumb, cut short, named an item it does not hold).
            own = [title for _, _, title in parts[:taken] if title != name] or [name]
            sections.append((begin, parts[taken - 1][1], _merged_title(own)))
            sections += parts[taken:]
            continue
        sections.append((begin, parts[taken - 1][1], name))
        sections += [(a, b, f"{name} > {title}") for a, b, title in parts[taken:]]
    return sections


def _yaml_documents(doc: Document) -> list[StreamDocument]:
    """The documents of a YAML stream (``---`` between them, a Kubernetes manifest's objects),
    each titled by its ``kind`` and ``metadata.name`` when it has them (``Deployment web``), else
    by its keys; empty when the file holds fewer than two."""
    if b"---" not in doc.data and b"..." not in doc.data:
        return []  # no marker: one document (the common case, told without reading every line)
    text_of = _reader(doc)
    bounds = []
    for line in range(1, doc.line_count + 1):
        if _YAML_DOCUMENT.match(text_of(line)):
            while line > 1 and text_of(line - 1).startswith("#"):
                line -= 1  # the comment lines right above the marker are about the document below
            bounds.append(line)
    if not bounds:
        return []
    edges = [1, *(b for b in bounds if b > 1), doc.line_count + 1]
    documents: list[StreamDocument] = []
    for first, after in zip(edges, edges[1:]):
        lines = [(line, text_of(line)) for line in range(first, after)]
        starts = _key_starts(lines)
        if not starts and not any(text.lstrip().startswith("- ") for _, text in lines):
            continue  # a marker or comments alone: no document
        keys = list(dict.fromkeys(title for _, title in starts))
        documents.append((first, after - 1, _yaml_title(lines) or _merged_title(keys) or "<document>", starts))
    if len(documents) < 2:
        return []
    # What precedes the first (a ``---``, a comment) is its, and a document without keys or
    # items joins the one before (no key of its starts there).
    bounds = [1, *(first for first, _, _, _ in documents[1:]), doc.line_count + 1]
    return [(bounds[i], bounds[i + 1] - 1, name, starts) for i, (_, _, name, starts) in enumerate(documents)]


def _yaml_title(lines: list[tuple[int, str]]) -> str:
    """``Kind name`` of a Kubernetes-style document: its top-level ``kind`` and the ``name``
    under its top-level ``metadata``."""
    kind = name = ""
    in_metadata = False
    child: int | None = None  # the indentation of metadata's own keys (a label's ``name`` is deeper)
    for _, text in lines:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = len(text) - len(text.lstrip())
        if not indent:
            in_metadata, child = text.startswith("metadata:"), None
            if text.startswith("kind:"):
                kind = text[5:].split("#", 1)[0].strip().strip("\"'")
        elif in_metadata:
            child = indent if child is None else child
            if indent == child and not name and text.lstrip().startswith("name:"):
                name = text.lstrip()[5:].split("#", 1)[0].strip().strip("\"'")
    return " ".join(part for part in (kind, name) if part)[:_MAX_TITLE]


def _elements(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A JSON array's elements (``[0]``, ``[1]``, ...): the lines as indented as the first one
    inside it that open an element (not ``}``, ``]``)."""
    inside = [(line, text) for line, text in lines if text.strip()][1:]
    if not inside:
        return []
    indent = len(inside[0][1]) - len(inside[0][1].lstrip())
    opener = inside[0][1].lstrip()[:1]  # elements that are objects or arrays open with their bracket
    opens = (opener,) if opener in ("{", "[") else None
    starts: list[tuple[int, str]] = []
    for line, text in inside:
        body = text.lstrip()
        opening = not body.startswith(("}", "]")) and (opens is None or body.startswith(opens))
        if opening and len(text) - len(body) == indent:
            starts.append((line, f"[{len(starts)}]"))
    if starts:
        starts[0] = (1, starts[0][1])  # the opening ``[`` goes with the first element
    return starts


def _toml(doc: Document) -> list[Section]:
    """TOML and INI: a section per table (``[tool.black]  # comment``, ``[[servers]]``, an INI
    file's ``[section]``), starting at the comment lines right above it (but the first's: a
    file's own header); in TOML a ``[x]`` line inside a multi-line string is no table."""
    text_of = _reader(doc)
    toml = doc.path.lower().endswith((".toml", "pipfile"))  # (``.ini`` and ``.cfg`` values hold quotes freely)
    header = _TOML_TABLE if toml else _INI_SECTION
    starts: list[tuple[int, str]] = []
    above: int | None = None
    string: str | None = None  # the open multi-line string's quotes
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        if string is None:
            stripped = text.strip()
            match = header.match(text)
            if match:
                starts.append((above if above is not None and starts else line, match.group(1)))
            comment = stripped.startswith(("#", ";"))  # (``;`` is an INI file's)
            above = (above or line) if comment else None
            if comment or not toml:
                continue
        string = _toml_string(text, string)
    return _cut(doc, starts, "<top>")


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    run = 0
    while at - run - 1 >= 0 and text[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _toml_string(text: str, string: str | None) -> str | None:
    """The multi-line string (its quotes) still open after TOML line ``text``, given the one
    open before it: single-line strings and a trailing comment are read past."""
    if string is None and '"""' not in text and "'''" not in text:
        return None  # (single-line strings close on their line)
    i, n = 0, len(text)
    while i < n:
        if string is not None:
            close = text.find(string, i)
            while close > 0 and string == '"""' and _escaped(text, close):
                close = text.find(string, close + 1)  # ``\"""`` in a basic string closes nothing
            if close < 0:
                return string
            i, string = close + 3, None
            continue
        char = text[i]
        if char == "#":
            return None
        if text.startswith(('"""', "\'\'\'"), i):
            string, i = text[i : i + 3], i + 3
        elif char == '"':  # a basic string: ``\"`` inside it closes nothing
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif char == "'":  # a literal string: no escapes
            close = text.find("'", i + 1)
            i = n if close < 0 else close + 1
        else:
            i += 1
    return string


def _sql(doc: Document) -> list[Section]:
    text_of = _reader(doc)
    starts = []
    expecting = True
    comments: int | None = None  # the first of the comment lines right above the next statement
    state = _SqlState(mysql=_is_mysql(doc.data))
    copying = False  # inside the data rows of pg_dump's ``COPY ... FROM stdin;``, up to ``\.``
    copy = False  # whether the statement being read is such a COPY
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        stripped = text.strip()
        if copying:
            copying = stripped != "\\."  # rows of data: tabs, quotes and backslashes as they are
            continue
        if not stripped:
            comments = None
            continue
        if expecting and stripped.startswith(("--", "#")):
            comments = comments or line  # (``#`` opens no SQL statement: a comment in any dialect)
            continue
        if expecting and stripped.startswith("\\") and not state.inside:
            # A psql command (``\echo Use "CREATE EXTENSION ..." to load this file. \quit``,
            # ``\connect``, ``\set``) is a line of its own: it ends with its line, not a ``;``.
            starts.append((comments or line, stripped.split()[0]))
            comments = None
            continue
        was_comment = state.comment
        ends = state.ends_statement(text, at_start=expecting)
        if expecting and (was_comment or stripped.startswith("/*")) and (state.comment or stripped.endswith("*/")):
            comments = comments or line  # a block comment above the next statement
            continue
        if expecting:
            starts.append((comments or line, _sql_title(stripped)))
            expecting, comments = False, None
            copy = bool(_COPY_FROM_STDIN.match(text))
        if ends:
            expecting = True
            copying = copy  # (its rows belong to the COPY's section: no statement starts there)
    return _cut(doc, starts, "<preamble>")


def _is_mysql(data: bytes) -> bool:
    """Whether a SQL script is MySQL's (see ``_MYSQL_MARK``)."""
    names = 0
    for mark in _MYSQL_MARK.finditer(data):
        if not mark.group().startswith(b"`"):
            return True
        line = data[data.rfind(b"\n", 0, mark.start()) + 1 : mark.start()].lstrip()
        if line.startswith((b"--", b"#", b"/*", b"*")):
            continue  # a name quoted in a comment (``-- reads `users` ``) says nothing of the dialect
        names += 1
        if names >= _MYSQL_NAMES:
            return True
    return False


def _sql_title(stripped: str) -> str:
    """The title of the statement starting on a line (see ``_SQL_HEAD``)."""
    head = _SQL_HEAD.match(_SQL_FILLER.sub("", stripped[:300]))
    if head is None:
        return "<statement>"
    return " ".join(head.group(1).split()).translate(_SQL_QUOTES)


_SQL_QUOTES = str.maketrans("", "", '"`[]')


class _SqlState:
    """Where a SQL script's reading stands at a line's end: inside a dollar-quoted body, a
    string or a block comment (no statement ends there: a function's body holds ``;`` on
    every line), and the statement delimiter in force."""

    def __init__(self, *, mysql: bool = False) -> None:
        self.mysql = mysql
        self.dollar: str | None = None
        self.quote: str | None = None
        self.escapes = False  # whether the open string reads backslash escapes
        self.comment = False
        self.delimiter = ";"
        self.dollars = not mysql  # PostgreSQL's dollar quotes (a MySQL ``END$$`` is a delimiter)

    @property
    def inside(self) -> bool:
        """Whether the reading stands inside a body, a string or a block comment."""
        return bool(self.dollar or self.quote or self.comment)

    def ends_statement(self, text: str, *, at_start: bool = True) -> bool:
        """Read one line; whether a statement ends on it (its code ends with the delimiter,
        outside any string, body or comment). ``at_start``: whether a statement may start on it
        (only there is ``DELIMITER //`` the client's command, not a ``COPY`` option)."""
        if at_start and not self.inside:
            match = _SQL_DELIMITER.match(text)
            if match:
                self.delimiter, self.dollars = match.group(1), False  # a MySQL client's script
                return True
        code_end = len(text)
        line_start = len(text) - len(text.lstrip())
        for token in _SQL_TOKEN.finditer(text):
            mark = token.group()
            if mark[0] == "\\":
                if self.quote is not None and self.escapes:
                    continue  # an escaped character: ``\'`` does not close the string
                mark = mark[1:]  # a plain backslash: the character after it is read as it is
                if mark not in ("'", '"'):
                    continue
            elif mark in ("E'", "e'") and self.inside:
                mark = "'"  # only a string's opening quote can be an E-string's (``'e'`` closes)
            if self.comment:
                self.comment = mark != "*/"
            elif self.dollar is not None:
                if mark == self.dollar:
                    self.dollar = None
            elif self.quote is not None:
                if mark == self.quote:  # a doubled quote closes and opens again
                    self.quote = None
            elif mark == "--" or (mark == "#" and (self.mysql or token.start() == line_start)):
                code_end = token.start()
                break
            elif mark == "/*":
                self.comment = True
            elif mark in ("'", '"'):
                self.quote, self.escapes = mark, self.mysql
            elif mark in ("E'", "e'"):
                self.quote, self.escapes = "'", True
            elif mark.startswith("$") and self.dollars:
                self.dollar = mark
        if self.inside:
            return False
        return text[:code_end].rstrip().endswith(self.delimiter)


def _make(doc: Document) -> list[Section]:
    """A Makefile: a section per rule (``build: deps``), with the comment lines and special
    targets (``.PHONY: build``) right above it; variables and includes before the first rule
    are its preamble. Recipe lines, directives and ``define`` blocks start nothing."""
    text_of = _reader(doc)
    starts: list[tuple[int, str]] = []
    above: int | None = None
    defining = False
    last_rule = 0  # the line of the last rule line read
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        if defining:
            defining = not _MAKE_ENDEF.match(text)
            continue
        if _MAKE_DEFINE.match(text):
            defining, above = True, None
            continue
        match = None if text.startswith("\t") or _MAKE_NOT_RULE.match(text) else _MAKE_RULE.match(text)
        if match is None:
            above = (above or line) if text.startswith("#") else None
            continue
        targets = match.group(1).split()
        if targets[0] in _MAKE_MARKS:
            above = above or line  # ``.PHONY: build`` goes with the rule below it
            continue
        title = _merged_title(targets)[:_MAX_TITLE]
        if starts and starts[-1][1] == title and last_rule == line - 1:
            last_rule = line  # ``app: CFLAGS += -g`` lines then ``app: deps``: one rule's
            continue
        starts.append((above or line, title))
        above, last_rule = None, line
    return _cut(doc, starts, "<top>")


def _docker(doc: Document) -> list[Section]:
    """A Dockerfile: a section per build stage (``FROM python:3.12 AS build`` is ``build``), with
    the comment lines right above it. A ``FROM`` in a continued line or a heredoc (a script's
    ``from flask import Flask``) starts nothing."""
    text_of = _reader(doc)
    starts: list[tuple[int, str]] = []
    above: int | None = None
    continued = False  # the line before ended with ``\``
    heredoc: str | None = None  # the open heredoc's end word
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        if heredoc is not None:
            heredoc = None if text.strip() == heredoc else heredoc
            continue
        inside, continued = continued, text.rstrip().endswith("\\")
        match = None if inside else _DOCKER_FROM.match(text)
        if (opened := _DOCKER_HEREDOC.search(text)) is not None:
            heredoc = opened.group(1)
        if match is None:
            above = (above or line) if not inside and text.lstrip().startswith("#") else None
            continue
        image, stage = match.group(1), match.group(2)
        starts.append((above or line, (f"{stage} ({image})" if stage else image)[:_MAX_TITLE]))
        above = None
    return _cut(doc, starts, "<top>")


# A fixed-form Fortran program unit's first statement: past the label columns (six of them, or
# a tab), with the prefixes and a function's type before its keyword (``DOUBLE PRECISION
# FUNCTION DDOT(N, X)``, ``RECURSIVE SUBROUTINE``, ``CHARACTER*8 FUNCTION``).
_F77_TYPE = r"(?:INTEGER|REAL|LOGICAL|COMPLEX|CHARACTER|DOUBLE\s*PRECISION|DOUBLE\s*COMPLEX|BYTE)(?:\s*\*\s*(?:\d+|\(\s*\*\s*\)))?"
_F77_UNIT = re.compile(
    rf"^(?: {{6}}|[ 0-9]{{0,5}}\t)\s*(?:(?:RECURSIVE|PURE|ELEMENTAL|IMPURE)\s+)*(?:{_F77_TYPE}\s+)?"
    r"(PROGRAM|SUBROUTINE|FUNCTION|BLOCK\s*DATA|MODULE(?!\s+PROCEDURE))\b\s*([A-Za-z]\w*)?",
    re.IGNORECASE,
)
# A comment line: ``C``, ``c``, ``*`` or ``!`` in the first column (``!`` anywhere before code).
_F77_COMMENT = re.compile(r"^(?:[Cc*!]|\s*!)")


def _fortran_fixed(doc: Document) -> list[Section]:
    """Fixed-form Fortran (``.f``, ``.for``), which the Fortran grammar cannot read: a section per
    program unit (``SUBROUTINE DAXPY``, ``DOUBLE PRECISION FUNCTION DDOT``, ``PROGRAM MAIN``,
    ``BLOCK DATA``), titled by its keyword and name as written, with the comment lines right
    above it (its description, in the classic libraries)."""
    text_of = _reader(doc)
    starts: list[tuple[int, str]] = []
    above: int | None = None
    for line in range(1, doc.line_count + 1):
        text = text_of(line)
        if _F77_COMMENT.match(text):
            above = above or line
            continue
        found = _F77_UNIT.match(text)
        if found is not None:
            starts.append((above or line, " ".join(found.group(0).split())[:_MAX_TITLE]))
        above = None
    return _cut(doc, starts, "<top>")


# A Cython statement that may start a definition at the top level, and what its title keeps:
# its words up to the parameters or the colon (``cdef class Ledger``, ``cpdef double price``).
_CY_DEFINITION = re.compile(r"^(?:async[ \t]+def|def|cpdef|cdef|class|ctypedef)\b")
_CY_TITLE = re.compile(r"^[^(:#]*")
_CY_STRING = re.compile(r"\"\"\"|'''|#")
_CY_LOOKAHEAD = 20  # lines a definition's head may take before its colon


def _cython(doc: Document) -> list[Section]:
    """Cython (``.pyx``, ``.pxd``, ``.pxi``), which the Python grammar reads as errors: a section
    per top-level definition (``def``, ``cpdef``, ``class``, and a ``cdef`` or ``ctypedef`` whose
    head ends with a colon: a function, a ``cdef class``, a struct, an ``extern`` block), with
    the decorators and comment lines right above it; the statements between definitions (a
    ``.pxd``'s one-line declarations, imports) make ``<module>`` sections. Lines in a
    triple-quoted string (a docstring at the margin) start nothing."""
    text_of = _reader(doc)
    n = doc.line_count
    starts: list[tuple[int, str]] = []
    above: int | None = None
    quote: str | None = None  # the triple quote a string is open with
    in_definition = False  # the last section started is a definition's
    depth = 0  # brackets open at the line's start (a head's ``):`` at the margin continues it)
    for line in range(1, n + 1):
        text = text_of(line)
        opened_here, inside = quote, depth > 0
        quote = _cy_quote(text, quote)
        if opened_here is None:
            code = text.split("#", 1)[0]
            depth = max(depth + code.count("(") + code.count("[") - code.count(")") - code.count("]"), 0)
        if opened_here is not None or inside or not text or text[0] in " \t\f":
            if text.strip() and opened_here is None:
                above = None
            continue
        if text[0] in "#@":
            above = above or line
            continue
        if _CY_DEFINITION.match(text) and _cy_defines(text_of, line, n):
            starts.append((above or line, " ".join(_CY_TITLE.match(text).group().split())[:_MAX_TITLE]))  # type: ignore[union-attr]
            in_definition = True
        elif in_definition or not starts:
            starts.append((above or line, "<module>"))
            in_definition = False
        above = None
    return _cut(doc, starts, "<module>")


def _cy_quote(text: str, quote: str | None) -> str | None:
    """The triple quote open after ``text`` given the one open before it (a ``#`` outside a
    string ends the line's code; quotes inside one-line strings are not told apart)."""
    for found in _CY_STRING.finditer(text):
        mark = found.group()
        if quote is None:
            if mark == "#":
                break
            quote = mark
        elif mark == quote:
            quote = None
    return quote


def _cy_defines(text_of, line: int, n: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the statement on ``line`` is a definition: ``def`` and ``class`` always; a
    ``cdef`` or ``ctypedef`` when its head, brackets closed, ends with a colon (``cdef int x =
    0`` and a ``.pxd``'s prototypes are statements)."""
    first = text_of(line)
    if not first.startswith(("cdef", "ctypedef", "cpdef")):
        return True
    depth = 0
    for at in range(line, min(n, line + _CY_LOOKAHEAD) + 1):
        code = text_of(at).split("#", 1)[0]
        depth += code.count("(") + code.count("[") - code.count(")") - code.count("]")
        if depth <= 0:
            return code.rstrip().endswith(":")
    return False


def _whole(doc: Document) -> list[Section]:
    return _cut(doc, [], "<document>")


_SECTIONERS = {
    "rst": _rst, "keys": _keys, "toml": _toml, "sql": _sql, "make": _make, "docker": _docker, "latex": _latex,
    "fortran_fixed": _fortran_fixed, "cython": _cython,
    "blocks": _whole,
}
