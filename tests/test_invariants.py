"""The Chunk contract's invariants over every strategy, every unit and every sample file."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.chunking import CHUNKERS, chunk_document, prepare
from core.languages import detect_language
from core.settings import DEFAULT_BUDGETS, ChunkSettings
from core.sizing import make_sizer
from core.sources import load_file
from core.syntax import MIN_ROOM, list_definitions
from tests.helpers import SAMPLES, assert_budget, assert_lossless, assert_slices_true, sample_code_files

FILES = sample_code_files()
UNITS = ("tokens", "chars", "nws", "lines")


@pytest.fixture(scope="module")
def prepared() -> dict[Path, object]:
    cache = {}
    for path in FILES:
        # As the app and the CLI read it (a notebook's text is the script of its cells).
        source = load_file(path, display=path.relative_to(SAMPLES).as_posix())
        cache[path] = prepare(source.path, source.language, source.text)
    return cache


def test_samples_cover_many_languages() -> None:
    languages = {detect_language(p.name) for p in FILES}
    for expected in ("python", "javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp",
                     "csharp", "ruby", "php", "kotlin", "swift", "scala", "bash", "lua", "markdown", "yaml", "toml",
                     "haskell", "julia",
                     "dart",
                     "solidity", "zig",
                     "r", "perl",
                     "elixir",
                     "objc", "powershell",
                     "ocaml", "ocaml_interface", "fsharp", "erlang",
                     "fortran", "glsl",
                     "clojure",
                     "scheme", "racket", "commonlisp", "elisp",
                     "css", "scss",
                     "cuda",
                     "cmake",
                     "matlab",
                     "verilog", "vhdl",
                     "starlark",
                     "groovy",
                     "nix",
                     "apex",
                     "ada",
                     "pascal",
                     "cobol",
                     "json", "sql", "text"):
        assert expected in languages, expected


@pytest.mark.parametrize("strategy", list(CHUNKERS))
@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_contract(prepared, path: Path, unit: str, strategy: str) -> None:
    prep = prepared[path]
    budget = DEFAULT_BUDGETS[unit] // 2  # small enough that big definitions must be split
    settings = ChunkSettings(budget=budget, unit=unit)
    chunks = chunk_document(prep, settings, strategy)
    assert chunks
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, budget)
    assert all(c.unit == unit for c in chunks)
    ids = [c.id for c in chunks]
    assert len(set(ids)) == len(ids), "ids are unique"
    again = chunk_document(prepare(prep.doc.path, prep.doc.language, prep.doc.text), settings, strategy)
    assert [c.id for c in again] == ids, "ids are stable"
    known = {c.id for c in chunks}
    assert all(c.parent_id is None or c.parent_id in known for c in chunks)


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix not in {".md", ".txt", ".json", ".toml", ".yaml", ".sql"}],
                         ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_split_parts_repeat_the_signature(prepared, path: Path) -> None:
    prep = prepared[path]
    settings = ChunkSettings(budget=60, unit="tokens")
    chunks = chunk_document(prep, settings, "syntax")
    by_id = {c.id: c for c in chunks}
    sizer = make_sizer("tokens")
    signatures = {d.symbol: d for d in list_definitions(prep)}
    for chunk in chunks:
        if chunk.kind == "module" and "split_line" in chunk.flags:
            continue  # the pieces of a top-level line cut inside: no definition, no signature to repeat
        if chunk.parts > 1 and chunk.part > 1 and chunk.strategy != "text":  # (a section's title is its breadcrumb)
            crumb = chunk.embed_text[: len(chunk.embed_text) - len(chunk.text)].removesuffix(chunk.header + "\n")
            if not chunk.header:
                # Only a breadcrumb that leaves no room for even a token of signature before the
                # part's own MIN_ROOM of the budget drops the signature; or, in a piece of the
                # definition's head (comments above it, its signature's own lines), the room
                # its whole lines need.
                # Nor does the part that holds the whole signature itself: a definition whole
                # after the comments above it, which alone were too big to share its chunk.
                crumb_fills = settings.budget - sizer.measure(crumb) - 1 < settings.budget * MIN_ROOM
                definition = signatures.get(chunk.symbol)
                in_head = definition is not None and chunk.end_line <= definition.signature_last
                holds_it = definition is not None and chunk.start_line <= definition.first and (
                    chunk.end_line >= definition.signature_last
                )
                # Nor the piece of its head that holds the line naming it, below annotations or
                # decorators that filled the pieces before: a header would say it twice.
                naming = next((s for s in (x.strip() for x in definition.signature.splitlines())
                               if s and not s.startswith(("@", "#[", "["))), "") if definition is not None else ""
                names_it = bool(naming) and naming in chunk.text
                assert crumb_fills or in_head or holds_it or names_it, chunk.symbol
                continue
            first_line = chunk.header.splitlines()[0].strip()
            assert first_line, chunk.symbol
            parent = by_id.get(chunk.parent_id or "")
            assert parent is not None and parent.part == 1
            # The repeated signature is the definition's own, found in the definition: above a
            # part of its body, below a piece of the comments above it when those alone are
            # too big for one chunk.
            siblings = [c for c in chunks if c.parent_id == parent.id and c.symbol == chunk.symbol]
            own = prep.doc.slice(parent.start_byte, max(c.end_byte for c in siblings))
            if chunk.kind == "callback":
                # A callback's head may be in brief: what stands between its ellipses is its own.
                flat = "".join(own.split())
                assert all("".join(p.split()).strip(",") in flat for p in first_line.split("\u2026")), first_line
            elif first_line not in own:
                # A signature of many lines is repeated folded onto one, its whitespace closed up.
                assert "".join(first_line.split()) in "".join(own.split()), (first_line, own[:200])
            # Parts are numbered 1..parts without gaps or repeats.
            assert sorted(c.part for c in [parent, *siblings] if c.parts == chunk.parts) == list(
                range(1, chunk.parts + 1)
            ), chunk.symbol


_COMMENT_STARTS = ("//", "#", "--", "/*", "*", ";", "%", "(*", "{-", "!", '"""')


@pytest.mark.parametrize("budget", [300, 800, 1500])
@pytest.mark.parametrize("path", [p for p in FILES if p.suffix not in {".md", ".txt", ".json", ".toml", ".yaml", ".sql"}],
                         ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_syntax_chunks_cut_no_definition_that_fits_the_budget(prepared, path: Path, budget: int) -> None:
    # A definition no chunk holds whole, though its own lines with the breadcrumb and header its
    # chunk carries fit the budget, is one the syntax chunker had no need to cut (in characters,
    # where the prefix's size adds up exactly). Two such: zlib's prototypes, cut from the long doc
    # below them; every Groovy definition, whose span ran on over the blank line after it.
    prep = prepared[path]
    chunks = chunk_document(prep, ChunkSettings(budget=budget, unit="chars"), "syntax")
    spans = [(c.start_line, c.end_line) for c in chunks]
    lines = prep.doc.text.split("\n")
    for definition in list_definitions(prep):
        if any(a <= definition.first and definition.last <= b for a, b in spans):
            continue
        # With the comments right above it, which the chunker keeps with it.
        first = definition.first
        while first > 1 and lines[first - 2].strip().startswith(_COMMENT_STARTS):
            first -= 1
        start, end = prep.doc.lines_span(first, definition.last)
        prefix = max((len(c.embed_text) - len(c.text) for c in chunks if c.start_line <= definition.first <= c.end_line),
                     default=0)  # fmt: skip
        assert len(prep.doc.slice(start, end)) + prefix > budget, (definition.symbol, definition.first, definition.last)


@pytest.mark.parametrize("overlap", [0, 10, 40])
def test_fixed_overlap_is_bounded(prepared, overlap: int) -> None:
    path = next(p for p in FILES if p.name == "ledger.py")
    prep = prepared[path]
    settings = ChunkSettings(budget=120, unit="tokens", overlap=overlap)
    chunks = chunk_document(prep, settings, "fixed")
    assert_slices_true(prep, chunks)
    assert_budget(chunks, 120)
    for a, b in zip(chunks, chunks[1:]):
        assert b.start_line > a.start_line, "windows always move forward"
        if overlap == 0:
            assert b.start_line > a.end_line
        else:
            shared = a.end_line - b.start_line + 1
            if shared > 0:
                doc = prep.doc
                tail = prep.spans(__import__("core.sizing", fromlist=["make_sizer"]).make_sizer("tokens")).span(
                    *doc.lines_span(b.start_line, a.end_line))
                assert tail <= overlap


@pytest.mark.parametrize("raw_cuts", [False, True])
def test_sizes_of_pieces_that_cut_words_are_the_sizes_of_their_text(prepared, raw_cuts: bool) -> None:
    # A window or line piece that starts inside a word holds more tokens than the file's running
    # totals give it ("roduces" is three word pieces, not one): such pieces are measured alone.
    sizer = make_sizer("tokens")
    budget = 100 if raw_cuts else 20
    settings = ChunkSettings(budget=budget, unit="tokens", overlap=20 if raw_cuts else 0, raw_cuts=raw_cuts)
    checked = 0
    for path in FILES:
        prep = prepared[path]
        for strategy in (("fixed",) if raw_cuts else ("fixed", "syntax")):
            for chunk in chunk_document(prep, settings, strategy):
                if raw_cuts or "split_line" in chunk.flags:
                    checked += 1
                    assert chunk.size == sizer.measure(chunk.embed_text), (chunk.path, chunk.text[:40])
                    assert chunk.size <= budget or "oversized" in chunk.flags, (chunk.path, chunk.size)
    assert checked > 100


def test_the_budget_check_refuses_a_flag_that_hides_a_cuttable_chunk(prepared) -> None:
    # The builder flags whatever it makes over the budget, so ``oversized`` alone proves
    # nothing: the check also asks that nothing smaller could have been cut.
    from dataclasses import replace

    path = next(p for p in FILES if p.name == "ledger.py")
    chunks = chunk_document(prepared[path], ChunkSettings(budget=60, unit="tokens"), "syntax")
    several = next(c for c in chunks if c.end_line > c.start_line + 2)
    with pytest.raises(AssertionError):
        assert_budget([replace(several, size=61, flags=("oversized",))], 60)
    # Truly over the budget: a path whose breadcrumb alone fills it. Each chunk's own text is
    # within the little room left, and the check takes them.
    deep = "/".join(f"package_level_{i}" for i in range(12)) + "/module.py"
    source = "def f(a, b):\n    x = a + b\n    y = a * b\n    return x - y\n"
    prep = prepare(deep, "python", source)
    over = chunk_document(prep, ChunkSettings(budget=60, unit="chars"), "syntax")
    assert any(c.size > 60 and "oversized" in c.flags for c in over)
    assert_budget(over, 60)
