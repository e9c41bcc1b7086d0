"""Code embedded in markup: the ``<script>`` and ``<style>`` blocks of a Vue or Svelte component,
an Astro page or an HTML file, chunked by the syntax chunker of their own language.

A component's script is JavaScript or TypeScript; cut at blank lines, as the markup around it
is, its functions were split wherever a blank line fell and named after nothing. Each script
block is now a *part* of the file chunked as code, the markup between the blocks a part chunked
as text, and every part is a copy of the whole file with everything outside it blanked (bytes
turned to spaces, line breaks kept): the parser and the chunkers read the part alone, while
every offset and line number stays the file's own, so the chunks of the parts are the file's
chunks and need no shifting.

A block's lines are those strictly between its opening and closing tag lines; a script that
shares a line with its tag, one whose ``type`` is no JavaScript (JSON-LD, a template), or one
with nothing in it stays markup; so does a file of more than :data:`MAX_BLOCKS` blocks. An
Astro page's frontmatter, between ``---`` lines at its top, is a TypeScript block too.

A ``<style>`` block is CSS, or SCSS with ``lang="scss"``: its rule sets are chunks named by
their selectors, as in a ``.css`` file. One in a language without a grammar here (``lang="less"``,
``"sass"``, ``"stylus"``) stays markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.document import Document

# Markup languages whose files may hold ``<script>`` and ``<style>`` blocks.
HOSTS = frozenset({"vue", "svelte", "astro", "html"})
# Blocks read as code in one file at most: each is a copy of the whole file to parse, and a page
# of many inline scripts (a generated report) is markup with snippets, not a program.
MAX_BLOCKS = 16

_OPEN = re.compile(r"^[ \t]*<(?P<tag>script|style)\b(?P<attrs>[^>]*)>[ \t]*\r?$", re.IGNORECASE)
_CLOSE = re.compile(r"^[ \t]*</(?P<tag>script|style)\s*>", re.IGNORECASE)
_FENCE = re.compile(r"^---[ \t]*\r?$")
_ATTR = re.compile(
    r"""(?<![\w-])(?P<name>lang|type)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"'>]+))""", re.IGNORECASE
)

# ``lang`` and ``type`` values, lower case, and the language they name; a ``type`` not here (and
# not empty) is no script to parse (``application/ld+json``, ``text/x-template``).
_LANGUAGES = {
    "": "javascript", "js": "javascript", "javascript": "javascript", "jsx": "javascript", "module": "javascript",
    "text/javascript": "javascript", "application/javascript": "javascript", "text/babel": "javascript",
    "ts": "typescript", "typescript": "typescript", "text/typescript": "typescript", "tsx": "tsx",
}  # fmt: skip
# A ``<style>`` block's ``lang`` (or ``type``) and its language: CSS without one; Less, Sass's
# indented syntax and Stylus have no grammar here, and stay markup.
_STYLE_LANGUAGES = {"": "css", "css": "css", "text/css": "css", "postcss": "css", "scss": "scss"}


@dataclass(frozen=True)
class Part:
    """Lines ``first..last`` of a file, in ``language``, chunked as code when ``code``."""

    first: int
    last: int
    language: str
    code: bool


def parts(doc: Document) -> list[Part] | None:
    """The parts of a markup file holding script or style blocks, in order, tiling its lines;
    None when ``doc`` is no such file (no markup host, or no block to parse)."""
    frontmatter = _frontmatter(doc)
    if doc.language not in HOSTS:
        return None
    lowered = doc.data.lower()
    if frontmatter is None and b"<script" not in lowered and b"<style" not in lowered:
        return None
    found: list[Part] = []
    line, count = 1, doc.line_count
    text_from = 1
    if frontmatter is not None:
        # An Astro page's component script, between ``---`` fences at its top: TypeScript.
        found += [Part(1, 1, doc.language, False), Part(2, frontmatter - 1, "typescript", True)]
        line = text_from = frontmatter
    while line <= count:
        opened = _OPEN.match(doc.line_text(line))
        if opened is None:
            line += 1
            continue
        tag = opened.group("tag").lower()
        language = (_style_language if tag == "style" else _script_language)(opened.group("attrs"))
        close = next((at for at in range(line + 1, count + 1) if _closes(doc.line_text(at), tag)), None)
        if close is None:
            break  # never closed: the rest is markup
        if language is not None and close > line + 1 and any(not doc.is_blank(at) for at in range(line + 1, close)):
            if len(found) >= 2 * MAX_BLOCKS:
                return None
            found.append(Part(text_from, line, doc.language, False))
            found.append(Part(line + 1, close - 1, language, True))
            text_from = close
        line = close + 1
    if not found:
        return None
    found.append(Part(text_from, count, doc.language, False))
    return found


def tags_only(doc: Document, part: Part) -> bool:
    """Whether a markup part holds nothing but a block's tags (a component that opens with its
    ``<script setup>``, or ends with ``</style>``; an Astro page's opening ``---``): a chunk of
    it answers no question."""
    return all(
        doc.is_blank(at) or _FENCE.match(doc.line_text(at)) or _OPEN.match(doc.line_text(at)) or _CLOSE.match(doc.line_text(at))
        for at in range(part.first, part.last + 1)
    )


def _closes(line: str, tag: str) -> bool:
    """Whether ``line`` closes a block opened by ``tag`` (``</script>``, ``</style>``)."""
    closed = _CLOSE.match(line)
    return closed is not None and closed.group("tag").lower() == tag


def _frontmatter(doc: Document) -> int | None:
    """The line of the ``---`` that closes an Astro page's frontmatter (its first line being the
    other), when code stands between them; else None."""
    if doc.language != "astro" or doc.line_count < 3 or not _FENCE.match(doc.line_text(1)):
        return None
    close = next((at for at in range(2, doc.line_count + 1) if _FENCE.match(doc.line_text(at))), None)
    if close is None or not any(not doc.is_blank(at) for at in range(2, close)):
        return None
    return close


def _script_language(attrs: str) -> str | None:
    """The language of a ``<script>`` tag's block from its ``lang`` or ``type``, None when it is
    no script to parse."""
    return _tagged_language(attrs, _LANGUAGES)


def _style_language(attrs: str) -> str | None:
    """The language of a ``<style>`` tag's block (``lang="scss"``; CSS without one), None when
    it has no grammar here (``lang="less"``)."""
    return _tagged_language(attrs, _STYLE_LANGUAGES)


def _tagged_language(attrs: str, languages: dict[str, str]) -> str | None:
    values = {m.group("name").lower(): (m.group("dq") or m.group("sq") or m.group("bare") or "").strip().lower()
              for m in _ATTR.finditer(attrs)}  # fmt: skip
    if "lang" in values:
        return languages.get(values["lang"])
    return languages.get(values.get("type", ""))


def part_document(doc: Document, part: Part, *, whole: bool = True) -> Document:
    """``doc`` with every byte outside ``part``'s lines blanked (line breaks kept), in the part's
    language: the same length, lines and offsets. ``whole=False``: the copy ends with the
    part's last line (the same offsets and lines up to there; nothing after it to blank)."""
    data = doc.data
    start = doc.line_start(part.first)
    end = doc.line_end(part.last)
    blank = _BLANK
    kept = data[:start].translate(blank) + data[start:end] + (data[end:].translate(blank) if whole else b"\n")
    return Document.from_text(doc.path, part.language, kept.decode("utf-8", "surrogatepass"))


# Every byte to a space but the line breaks (a multi-byte character becomes as many spaces).
_BLANK = bytes(b if b in (10, 13) else 32 for b in range(256))
