"""Pure functions from (source, chunks) to HTML for the UI: no Streamlit here.

The code view is one HTML table, a row per source line: a band column per strategy (chunk
colours alternate; overlapping windows are striped; a retrieved chunk is painted with its rank),
the line number, and the highlighted code. Boundaries that cut through a definition get a red
rule with the definition's name; a split syntax part gets a row showing its repeated header.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.chunk import Chunk
from core.metrics import Cut

_PYGMENTS_NAMES = {
    "python": "python",
    "starlark": "starlark",
    "javascript": "javascript",
    "typescript": "typescript",
    "tsx": "tsx",
    "java": "java",
    "apex": "java",  # (pygments has no Apex lexer; Java's reads it)
    "go": "go",
    "rust": "rust",
    "c": "c",
    "cpp": "cpp",
    "cuda": "cuda",
    "csharp": "csharp",
    "ruby": "ruby",
    "php": "php",
    "kotlin": "kotlin",
    "swift": "swift",
    "scala": "scala",
    "bash": "bash",
    "lua": "lua",
    "proto": "protobuf",
    "hcl": "terraform",
    "graphql": "graphql",
    "matlab": "matlab",
    "html": "html",
    "xml": "xml",
    "vue": "vue",
    "latex": "latex",
    "nix": "nix",
    "groovy": "groovy",
    "cmake": "cmake",
    "properties": "properties",
    "cobol_copybook": "cobol",
    **{name: name for name in (
        "nim", "pascal", "ada", "cobol", "elm", "purescript", "gleam", "odin", "tcl", "crystal", "haxe", "vala", "luau",
        "smali", "puppet", "jsonnet", "thrift", "capnp", "meson", "fish", "awk", "batch", "org", "bibtex",
    )},
    "asm": "nasm",
    "haskell": "haskell",
    "julia": "julia",
    "dart": "dart",
    "solidity": "solidity",
    "zig": "zig",
    "r": "r",
    "perl": "perl",
    "elixir": "elixir",
    "objc": "objective-c",
    "powershell": "powershell",
    "ocaml": "ocaml",
    "ocaml_interface": "ocaml",
    "fsharp": "fsharp",
    "erlang": "erlang",
    "fortran": "fortran",
    "fortran_fixed": "fortranfixed",
    "cython": "cython",
    "glsl": "glsl",
    "clojure": "clojure",
    "scheme": "scheme",
    "racket": "racket",
    "commonlisp": "common-lisp",
    "elisp": "emacs-lisp",
    "css": "css",
    "scss": "scss",
    "verilog": "systemverilog",  # (a superset: plain Verilog reads the same)
    "vhdl": "vhdl",
    "sass": "sass",
    "less": "less",
    "markdown": "markdown",
    "rst": "rst",
    "makefile": "make",
    "dockerfile": "docker",
    "yaml": "yaml",
    "toml": "toml",
    "json": "json",
    "sql": "sql",
    "csv": "text",
    "tsv": "text",
}

PALETTES = {
    "fixed": ("#fde4cc", "#f9c894"),
    "syntax": ("#d6e6fb", "#a8c9f5"),
    "table": ("#dcf2dc", "#b5e2b5"),
    "text": ("#d6e6fb", "#a8c9f5"),
}
_HIT = "#46b96a"

CSS = """
<style>
.ce-view{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;
  border-collapse:collapse;width:100%;table-layout:fixed}
.ce-view td{padding:0 6px;vertical-align:top;white-space:pre;line-height:1.45;overflow:hidden;
  text-overflow:ellipsis}
.ce-view td.ce-band{width:11em;font-family:system-ui,sans-serif;font-size:11px;color:#223}
.ce-view td.ce-no{width:3.5em;text-align:right;color:#99a;user-select:none}
.ce-view td.ce-code{white-space:pre-wrap;overflow-wrap:anywhere}
.ce-view tr.ce-cut td{border-bottom:2px solid #d62728}
.ce-view tr.ce-ans td.ce-no{background:#ffe066;color:#332;font-weight:600}
.ce-view tr.ce-ans td.ce-code{box-shadow:inset 3px 0 #f0b400}
.ce-view tr.ce-hdr td.ce-code{color:#667;font-style:italic;background:#f3f6fb}
.ce-view .ce-cutlabel{color:#d62728;font-family:system-ui,sans-serif;font-size:11px;float:right}
.ce-view .ce-rank{display:inline-block;background:#176d38;color:#fff;border-radius:3px;padding:0 4px;
  margin-right:3px;font-weight:600}
.ce-view .ce-ov{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.13) 0 3px,transparent 3px 7px)}
.ce-legend span{display:inline-block;padding:1px 8px;margin-right:8px;border-radius:3px;font-size:12px}
@media (max-width:900px){
  /* A phone, or 800 px beside the sidebar: two 11em bands left the code a word a line (150 px at
     800); the bands keep their colour and number, their labels in the tooltip. */
  .ce-view td.ce-band{width:3.6em;padding:0 3px}
  .ce-view td.ce-no{width:3em;padding:0 3px}
  .ce-view td.ce-code{padding:0 4px}
}
</style>
"""


# The chunk inspector's box (token colours: :func:`pygments_css`, scoped to ``.ce-code``).
INSPECT_CSS = """
<style>
.ce-inspect{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;line-height:1.45;
  background:#f8f9fb;border-radius:6px;padding:10px 12px;margin:0;max-height:520px;overflow:auto;
  white-space:pre-wrap;overflow-wrap:anywhere}
</style>
"""


@dataclass(frozen=True)
class Band:
    """One strategy's column in the view: its chunks and, optionally, retrieval marks."""

    title: str
    chunks: Sequence[Chunk]
    palette: tuple[str, str]
    marks: Mapping[str, str] | None = None  # chunk id -> label such as "#1"


Piece = tuple[str, str]  # (pygments token class, text)


def _lexer(language: str):  # type: ignore[no-untyped-def]
    """The pygments lexer for ``language`` (plain text when pygments has none), input kept as
    given: no newline added or stripped, so the tokens put the text back together."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    name = _PYGMENTS_NAMES.get(language, "text")
    try:
        lexer = get_lexer_by_name(name, startinline=True) if name == "php" else get_lexer_by_name(name)
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    lexer.stripnl = False
    lexer.ensurenl = False
    return lexer


def _pieces(text: str, language: str) -> list[Piece]:
    """``text`` lexed on its own (newlines as pygments reads them: CRLF and CR are LF)."""
    from pygments.token import STANDARD_TYPES

    pieces: list[Piece] = []
    for token_type, value in _lexer(language).get_tokens(text):
        css = ""
        ttype = token_type
        while ttype is not None and not css:
            css = STANDARD_TYPES.get(ttype, "")
            ttype = ttype.parent
        pieces.append((css, value))
    return pieces


@lru_cache(maxsize=8)
def _file_pieces(text: str, language: str) -> tuple[tuple[int, ...], tuple[Piece, ...]]:
    """A whole file's tokens and where each starts (in its text with newlines made LF):
    lexed once for the view and every chunk inspected in it."""
    pieces = tuple(_pieces(text, language))
    starts, at = [], 0
    for _, value in pieces:
        starts.append(at)
        at += len(value)
    return tuple(starts), pieces


def _split_lines(pieces: Iterable[Piece]) -> list[list[Piece]]:
    """Pieces cut at newlines: a list per line (no piece holds a newline)."""
    lines: list[list[Piece]] = [[]]
    for css, value in pieces:
        for index, part in enumerate(value.split("\n")):
            if index:
                lines.append([])
            if part:
                lines[-1].append((css, part))
    return lines


def _html(pieces: Iterable[Piece]) -> str:
    return "".join(f'<span class="{css}">{html.escape(v)}</span>' if css else html.escape(v) for css, v in pieces)


@lru_cache(maxsize=64)
def highlight_lines(text: str, language: str) -> tuple[str, ...]:
    """The source as one HTML string per line, with pygments token classes (no cross-line tags)."""
    return tuple(_html(line) for line in _split_lines(_file_pieces(text, language)[1]))


def span_pieces(text: str, language: str, start: int, end: int) -> list[Piece]:
    """The tokens of ``text[start:end]`` as the whole file lexes them: a chunk that starts inside
    a docstring or a multi-line string is highlighted as the string it is, not as code (its text
    lexed alone would read the string's last line as code, and its code as a string)."""
    if "\r\n" in text:  # (offsets into the text pygments read, where each CRLF is one LF)
        start, end = start - text.count("\r\n", 0, start), end - text.count("\r\n", 0, end)
        text = text.replace("\r\n", "\n")
    starts, pieces = _file_pieces(text, language)
    if starts and starts[-1] + len(pieces[-1][1]) != len(text):
        # A lexer that does not give the text back whole (a byte order mark dropped): its
        # offsets cannot be trusted, so the span is lexed on its own, as before.
        return _pieces(text[start:end], language)
    found: list[Piece] = []
    for index in range(max(0, bisect_right(starts, start) - 1), len(pieces)):
        at = starts[index]
        if at >= end:
            break
        css, value = pieces[index]
        value = value[max(0, start - at) : end - at]
        if value:
            found.append((css, value))
    return found


def inspect_html(text: str, language: str, prefix: str, start: int, end: int, *, head_lines: int | None = None) -> str:
    """A chunk's embedded text as highlighted HTML: ``prefix`` (its breadcrumb and repeated
    header, lexed on their own) over ``text[start:end]``, highlighted as the file lexes it. With
    ``head_lines``, only its head: the first that many non-blank lines, stripped (as
    :func:`core.embed.head_text` takes them)."""
    lines = _split_lines([*_pieces(prefix, language), *span_pieces(text, language, start, end)])
    if head_lines is not None:
        lines = [_strip(line) for line in lines if "".join(v for _, v in line).strip()][:head_lines]
    body = "\n".join(_html(line) for line in lines)
    return f'{INSPECT_CSS}{pygments_css()}<pre class="ce-inspect"><code class="ce-code">{body}</code></pre>'


def _strip(line: list[Piece]) -> list[Piece]:
    """A line's pieces without its leading and trailing whitespace."""
    kept = [list(piece) for piece in line]
    while kept and not kept[0][1].strip():
        kept.pop(0)
    while kept and not kept[-1][1].strip():
        kept.pop()
    if kept:
        kept[0][1] = kept[0][1].lstrip()
        kept[-1][1] = kept[-1][1].rstrip()
    return [(css, value) for css, value in kept]


def pygments_css() -> str:
    """Token colours for :func:`highlight_lines`, scoped to the view."""
    # The submodule, not pygments.formatters' lazy attribute: that lookup races when several
    # sessions' threads import it at once (an ImportError seen under the load test).
    from pygments.formatters.html import HtmlFormatter

    return "<style>" + HtmlFormatter(style="default").get_style_defs(".ce-code") + "</style>"


def render_view(
    text: str,
    language: str,
    bands: Sequence[Band],
    *,
    cuts: Sequence[Cut] = (),
    first_line: int = 1,
    last_line: int | None = None,
    header_band: int | None = None,
    answer: tuple[int, int] | None = None,
) -> str:
    """The side-by-side view of ``text`` (lines ``first_line..last_line``) as HTML.

    ``cuts`` mark boundaries inside definitions; ``header_band`` is the index of the band whose
    split parts get a row showing their repeated header; ``answer`` marks the lines of a known
    answer (first, last).
    """
    lines = highlight_lines(text, language)
    last = min(last_line or len(lines), len(lines))
    covers = [_line_map(band.chunks) for band in bands]
    starts = [_start_map(band.chunks) for band in bands]
    cut_after = {}
    for cut in cuts:
        cut_after.setdefault(cut.line, []).append(cut.symbol)
    header_rows = _header_rows(bands[header_band].chunks) if header_band is not None else {}
    # A band's cell spans the lines of a run held by the same chunks (one cell per chunk, not
    # per line: the browser built and laid out 4,000 cells for a 2,000-line view); a row that
    # shows a repeated header breaks every band's run with an empty cell, as a gap.
    spans = [
        _band_runs(band, covers[i], starts[i], first_line, last, header_rows, cut_after.keys()) for i, band in enumerate(bands)
    ]
    out = [CSS, pygments_css(), '<table class="ce-view"><tbody>']
    for line in range(first_line, last + 1):
        if line in header_rows:
            for chunk in header_rows[line]:
                cells = "".join('<td class="ce-band"></td>' for _ in bands)
                label = html.escape(f"↳ part {chunk.part}/{chunk.parts} repeats: {chunk.header.splitlines()[0]}")
                out.append(f'<tr class="ce-hdr">{cells}<td class="ce-no"></td><td class="ce-code">{label}</td></tr>')
        classes = [name for name, on in (("ce-cut", line in cut_after),
                                          ("ce-ans", answer is not None and answer[0] <= line <= answer[1])) if on]
        cls = f' class="{" ".join(classes)}"' if classes else ""
        cells = "".join(runs.get(line, "") for runs in spans)
        code = lines[line - 1] if line - 1 < len(lines) else ""
        if line in cut_after:
            names = ", ".join(dict.fromkeys(cut_after[line]))
            code += f'<span class="ce-cutlabel">✂ cuts {html.escape(names)}</span>'
        out.append(f'<tr{cls} data-line="{line}">{cells}<td class="ce-no">{line}</td><td class="ce-code">{code}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def legend(bands: Sequence[Band], *, retrieval: bool = False) -> str:
    """A one-line legend naming each band's colours; with ``retrieval``, the marks of a search
    too (ranks and the answer, which only a page that searches draws)."""
    spans = []
    for band in bands:
        spans.append(
            f'<span style="background:{band.palette[0]}">{html.escape(band.title)}</span>'
            f'<span style="background:{band.palette[1]}">next chunk</span>'
        )
    spans.append('<span class="ce-ov" style="background-color:#eee">overlap</span>')
    spans.append('<span style="border-bottom:2px solid #d62728">✂ boundary inside a definition</span>')
    if retrieval:
        spans.append(f'<span style="background:{_HIT};color:#fff">retrieved (rank)</span>')
        spans.append('<span style="background:#ffe066">the answer</span>')
    return CSS + '<div class="ce-legend">' + "".join(spans) + "</div>"


def _line_map(chunks: Sequence[Chunk]) -> dict[int, tuple[int, ...]]:
    covered: dict[int, list[int]] = {}
    for index, chunk in enumerate(chunks):
        for line in range(chunk.start_line, chunk.end_line + 1):
            covered.setdefault(line, []).append(index)
    return {line: tuple(found) for line, found in covered.items()}


def _start_map(chunks: Sequence[Chunk]) -> dict[int, tuple[int, ...]]:
    started: dict[int, list[int]] = {}
    for index, chunk in enumerate(chunks):
        started.setdefault(chunk.start_line, []).append(index)
    return {line: tuple(found) for line, found in started.items()}


def _header_rows(chunks: Sequence[Chunk]) -> dict[int, list[Chunk]]:
    rows: dict[int, list[Chunk]] = {}
    for chunk in chunks:
        if chunk.part > 1 and chunk.header:
            rows.setdefault(chunk.start_line, []).append(chunk)
    return rows


def _band_runs(
    band: Band,
    covers: dict[int, tuple[int, ...]],
    starts: dict[int, tuple[int, ...]],
    first: int,
    last: int,
    header_rows: Mapping[int, Sequence[Chunk]],
    cuts: Container[int] = (),
) -> dict[int, str]:
    """The band's cells by the line whose row holds them: each run of lines held by the same
    chunks (none, for blank lines between them) is one cell spanning its rows; a run ends
    where a chunk starts or ends, and above a row that shows a repeated header. A line of
    ``cuts`` has a cell of its own: the red rule under its row crosses the band then (a cell
    spanning rows is drawn by its first row's style)."""
    cells: dict[int, str] = {}
    line = first
    while line <= last:
        covering, starting = covers.get(line, ()), starts.get(line, ())
        end = line
        while (
            end < last and line not in cuts and end + 1 not in cuts and end + 1 not in header_rows
            and covers.get(end + 1, ()) == covering and end + 1 not in starts
        ):
            end += 1
        cells[line] = _band_cell(band, covering, starting, end - line + 1)
        line = end + 1
    return cells


def _band_cell(band: Band, covering: tuple[int, ...], starting: tuple[int, ...], rows: int = 1) -> str:
    span = f' rowspan="{rows}"' if rows > 1 else ""
    if not covering:
        return f'<td class="ce-band"{span}></td>'
    chunks = band.chunks
    marks = band.marks or {}
    hits = [marks[chunks[i].id] for i in covering if chunks[i].id in marks]
    colour = _HIT if hits else band.palette[covering[-1] % 2]
    classes = "ce-band ce-ov" if len(covering) > 1 else "ce-band"
    label = ""
    for index in starting:
        chunk = chunks[index]
        rank = marks.get(chunk.id)
        badge = f'<span class="ce-rank">{html.escape(rank)}</span>' if rank else ""
        part = f" {chunk.part}/{chunk.parts}" if chunk.parts > 1 else ""
        name = f" {chunk.symbol}" if chunk.symbol else ""
        label += f"{badge}#{index + 1}{part}{html.escape(name)} "
    if not label and hits:
        label = "".join(f'<span class="ce-rank">{html.escape(h)}</span>' for h in dict.fromkeys(hits))
    title = html.escape(
        "; ".join(f"#{i + 1} {chunks[i].kind} {chunks[i].symbol} ({chunks[i].size} {chunks[i].unit})" for i in covering)
    )
    text_colour = "#fff" if hits else "#223"
    return f'<td class="{classes}"{span} style="background-color:{colour};color:{text_colour}" title="{title}">{label}</td>'


def histogram_bars(sizes: Mapping[str, Sequence[int]], budget: int) -> list[dict[str, object]]:
    """Bars of a chunk-size histogram, the strategies side by side in each bin (Vega-Lite offsets
    no bars on a binned axis: it stacked them, so 3 fixed and 2 syntax chunks read as 5).

    The budget is a bin edge and a bin holds its upper end, ``(lo, hi]``: a chunk of exactly the
    budget is drawn left of the budget line, one unit over it right of the line (with bins from
    0 up, a chunk at the budget sat right of the line, as if over it)."""
    top = max([budget, *(max(v) for v in sizes.values() if v)])
    raw = top / 30
    scale = 10 ** max(0, len(str(int(raw))) - 1)
    step = next(m * scale for m in (1, 2, 5, 10) if m * scale >= raw)
    bars: list[dict[str, object]] = []
    count = max(len(sizes), 1)
    for k, (strategy, values) in enumerate(sizes.items()):
        counts: dict[int, int] = {}
        for size in values:
            slot = -((budget - size) // step)  # ceil((size - budget) / step): the bin whose top holds size
            counts[slot] = counts.get(slot, 0) + 1
        for slot, n in sorted(counts.items()):
            hi = budget + slot * step
            lo = max(hi - step, -1)  # (no size is below 0: the first bin starts at 0)
            left = max(lo, 0)
            width = (hi - left) / count
            bars.append({"strategy": strategy, "from": left + k * width, "to": left + (k + 1) * width,
                         "chunks": n, "sizes": f"{lo + 1}-{hi}"})
    return bars
