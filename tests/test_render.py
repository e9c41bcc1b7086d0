"""The source view's HTML: the legend names what the page draws; the inspector highlights a chunk
as its file reads."""

from __future__ import annotations

import html
import re

from core.chunk import Chunk
from core.chunking import chunk_document, prepare
from core.embed import head_text
from core.metrics import boundary_damage
from core.render import PALETTES, Band, highlight_lines, inspect_html, legend, render_view
from core.settings import ChunkSettings
from tests.helpers import ROOT

SAMPLES = ROOT / "sample_repos"


def test_the_legend_names_search_marks_only_where_a_page_searches() -> None:
    # Explore's legend listed "retrieved (rank)" and "the answer", which it never draws.
    bands = [Band("fixed", (), PALETTES["fixed"]), Band("syntax", (), PALETTES["syntax"])]
    plain, searched = legend(bands), legend(bands, retrieval=True)
    for text in ("fixed", "syntax", "overlap", "boundary inside a definition"):
        assert text in plain and text in searched
    assert "retrieved (rank)" not in plain and "the answer" not in plain
    assert "retrieved (rank)" in searched and "the answer" in searched


def _inspected(text: str, path: str, settings: ChunkSettings, strategy: str, **options) -> list[tuple[Chunk, str]]:  # type: ignore[no-untyped-def]
    prep = prepare(path, "python", text)
    shown = []
    for chunk in chunk_document(prep, settings, strategy):
        prefix = chunk.embed_text[: len(chunk.embed_text) - len(chunk.text)]
        span = (prep.doc.char_of_byte(chunk.start_byte), prep.doc.char_of_byte(chunk.end_byte))
        shown.append((chunk, inspect_html(text, "python", prefix, *span, **options)))
    return shown


def _text_of(box: str) -> str:
    body = re.search(r'<pre class="ce-inspect"><code[^>]*>(.*)</code></pre>', box, re.S)
    assert body is not None
    return html.unescape(re.sub(r"<[^>]+>", "", body.group(1)))


def test_a_chunk_inside_a_docstring_is_highlighted_as_the_file_lexes_it() -> None:
    # Fixed window #2 of resilience.py starts inside retry's docstring and ends in code: lexed on
    # its own, its closing quotes opened a string that ran over the code below.
    text = (SAMPLES / "py_inventory/inventory/resilience.py").read_text("utf-8")
    chunk, box = next(s for s in _inspected(text, "inventory/resilience.py", ChunkSettings(), "fixed") if s[0].start_line == 31)
    assert '<span class="sd">    with up to 25 % random jitter' in box
    assert '<span class="k">if</span> <span class="n">times</span>' in box
    assert '<span class="s2">times must be at least 1</span>' in box
    assert '<span class="c1"># inventory/resilience.py</span>' in box  # the breadcrumb, lexed on its own
    assert _text_of(box) == chunk.embed_text
    rows = highlight_lines(text, "python")  # as the view draws the same lines
    assert all(rows[line - 1] in box for line in range(chunk.start_line, chunk.end_line + 1) if rows[line - 1])


def test_every_inspected_chunk_shows_its_embed_text_exactly() -> None:
    # Non-ASCII identifiers and CRLF line ends: character offsets, not bytes; "\r\n" read as "\n".
    for name in ("i18n_labels.py", "ledger.py"):
        text = (SAMPLES / "py_inventory/inventory" / name).read_text("utf-8")
        for source in (text, text.replace("\n", "\r\n")):
            for strategy in ("fixed", "syntax"):
                for chunk, box in _inspected(source, name, ChunkSettings(budget=100), strategy):
                    assert _text_of(box) == chunk.embed_text.replace("\r\n", "\n"), (name, chunk.start_line)


def test_the_head_is_highlighted_as_head_text_takes_it() -> None:
    text = (SAMPLES / "py_inventory/inventory/ledger.py").read_text("utf-8")
    for chunk, box in _inspected(text, "ledger.py", ChunkSettings(budget=100), "syntax", head_lines=6):
        assert _text_of(box) == head_text(chunk.embed_text, 6), chunk.start_line


def test_every_code_language_is_highlighted() -> None:
    # A syntax spec with no lexer drew its source as plain text in the app's views.
    from pygments.lexers import get_lexer_by_name

    from core.languages import CODE_LANGUAGES
    from core.render import _PYGMENTS_NAMES

    missing = [language for language in CODE_LANGUAGES if language not in _PYGMENTS_NAMES]
    assert not missing
    for language in CODE_LANGUAGES:
        assert get_lexer_by_name(_PYGMENTS_NAMES[language]).name != "Text only", language


def test_a_chunk_of_exactly_the_budget_is_drawn_left_of_the_budget_line() -> None:
    from core.render import histogram_bars

    for budget in (254, 800, 40, 7):
        bars = histogram_bars({"fixed": [budget, budget + 1, 1], "syntax": [budget - 1, 2 * budget]}, budget)
        assert sum(b["chunks"] for b in bars) == 5
        for bar in bars:
            assert 0 <= bar["from"] < bar["to"]
            assert bar["to"] <= budget or bar["from"] >= budget, bar  # no bar straddles the line
        at = [b for b in bars if b["strategy"] == "fixed" and b["from"] < budget]
        over = [b for b in bars if b["strategy"] == "fixed" and b["from"] >= budget]
        assert sum(b["chunks"] for b in at) == 2 and sum(b["chunks"] for b in over) == 1
        assert any(b["sizes"].endswith(f"-{budget}") for b in at)  # the tooltip says so too


def test_a_bands_cell_spans_each_run_of_lines_its_chunks_hold() -> None:
    # One cell per line and band (4,000 cells, 890 KB for a 2,000-line view, laid out by every
    # browser on every change) is now one per run of lines held by the same chunks.
    path = SAMPLES / "py_inventory" / "inventory" / "resilience.py"
    text = path.read_text(encoding="utf-8")
    prep = prepare("resilience.py", "python", text)
    settings = ChunkSettings(unit="tokens", budget=120, overlap=20)
    chunks = {s: chunk_document(prep, settings, s) for s in ("fixed", "syntax")}
    bands = [Band("fixed", chunks["fixed"], PALETTES["fixed"]), Band("syntax", chunks["syntax"], PALETTES["syntax"])]
    view = render_view(text, "python", bands, header_band=1)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", view)
    line_rows = view.count("data-line=")
    assert line_rows >= len(text.splitlines())
    header_rows = sum(1 for c in chunks["syntax"] if c.part > 1 and c.header)
    assert len(rows) == line_rows + header_rows and header_rows
    cells = re.findall(r'<td class="ce-band[^"]*"(?: rowspan="(\d+)")?', view)
    # Every row is covered once per band; a header row's cells are its own (empty) ones.
    assert sum(int(n or 1) for n in cells) == 2 * len(rows)
    assert len(cells) < len(rows)  # (it was 2 per row)
    # A run starts at each chunk's first line (its number there) and at no other line.
    for index, chunk in enumerate(chunks["fixed"]):
        row = next(r for r in re.findall(r'<tr[^>]*data-line="(\d+)"[^>]*>(.*?)</tr>', view) if int(r[0]) == chunk.start_line)
        assert f"#{index + 1}" in row[1]
    # Overlapping windows still show as overlap (both chunks' lines striped).
    assert 'class="ce-band ce-ov"' in view
    # A cut's row has cells of its own in every band: the red rule under it crosses them.
    prep_cut = prepare("r.py", "python", text)
    plain = ChunkSettings(unit="lines", budget=7)
    fixed = chunk_document(prep_cut, plain, "fixed")
    cuts = boundary_damage(prep_cut, fixed, budget=7, model=plain.model).cuts
    view = render_view(text, "python", [Band("fixed", fixed, PALETTES["fixed"])], cuts=cuts)
    assert cuts
    for cut in cuts:
        row = re.search(rf'<tr class="ce-cut[^"]*" data-line="{cut.line}">(.*?)</tr>', view).group(1)
        assert row.startswith('<td class="ce-band') and 'rowspan' not in row.split("</td>")[0]
