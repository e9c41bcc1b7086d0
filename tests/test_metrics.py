"""Boundary-damage metrics on hand-made cases with known answers."""

from __future__ import annotations

from core.chunking import chunk_document, prepare
from core.metrics import boundary_damage
from core.settings import ChunkSettings
from tests.helpers import ANNOTATED_KOTLIN, SAMPLES

CODE = "\n".join(
    [f"def f{i}(x):\n" + "".join(f"    y{j} = x * {j} + {i}\n" for j in range(8)) + "    return x\n" for i in range(6)]
)


def test_fixed_windows_cut_definitions_and_syntax_does_not() -> None:
    prep = prepare("m.py", "python", CODE)
    settings = ChunkSettings(budget=15, unit="lines")
    fixed = chunk_document(prep, settings, "fixed")
    syntax = chunk_document(prep, settings, "syntax")
    damage_fixed = boundary_damage(prep, fixed, budget=15, model=settings.model)
    damage_syntax = boundary_damage(prep, syntax, budget=15, model=settings.model)
    # 10-line functions, 15-line windows: every window boundary but the last falls inside a function.
    assert len(damage_fixed.cut) >= 4
    assert set(damage_fixed.cut) <= {f"f{i}" for i in range(6)}
    assert damage_fixed.cut == damage_fixed.cut_avoidable
    assert damage_fixed.without_signature
    assert all(cut.symbol.startswith("f") for cut in damage_fixed.cuts)
    assert damage_syntax.cut == () and damage_syntax.without_signature == ()
    assert damage_syntax.over_budget == ()


def test_split_parts_are_cut_but_keep_their_signature() -> None:
    prep = prepare("m.py", "python", CODE)
    chunks = chunk_document(prep, ChunkSettings(budget=5, unit="lines"), "syntax")
    damage = boundary_damage(prep, chunks, budget=5, model="all-MiniLM-L6-v2")
    assert set(damage.cut) == {f"f{i}" for i in range(6)}
    assert damage.cut_avoidable == ()
    assert damage.without_signature == (), "every part repeats the signature in its header"


def test_over_model_limit_is_reported_in_any_unit() -> None:
    text = (SAMPLES / "py_inventory/inventory/reconcile.py").read_text("utf-8")
    prep = prepare("reconcile.py", "python", text)
    chunks = chunk_document(prep, ChunkSettings(budget=4000, unit="chars"), "fixed")
    damage = boundary_damage(prep, chunks, budget=4000, model="all-MiniLM-L6-v2")
    assert damage.over_model_limit, "4,000-char windows exceed MiniLM's 256 tokens"
    small = chunk_document(prep, ChunkSettings(), "syntax")
    assert boundary_damage(prep, small, budget=254, model="all-MiniLM-L6-v2").over_model_limit == ()


def test_a_cut_over_blank_lines_between_two_windows_is_one_cut() -> None:
    from core.metrics import cut_points
    from core.syntax import list_definitions

    source = "def long_one():\n    a = 1\n    b = 2\n\n    c = 3\n    return c\n"
    prep = prepare("m.py", "python", source)
    windows = chunk_document(prep, ChunkSettings(unit="lines", budget=3, breadcrumb=False), "fixed")
    assert [(c.start_line, c.end_line) for c in windows] == [(1, 3), (5, 6)]
    # The blank line 4 is in neither window: one cut, after line 3 (it was drawn after 3 and 4).
    assert [(cut.line, cut.symbol) for cut in cut_points(windows, list_definitions(prep))] == [(3, "long_one")]


def test_parts_of_an_annotated_function_under_its_signature_are_not_counted_as_without_it() -> None:
    # The figure looked for the signature's first line, an annotation the chunker leaves out of
    # the header it repeats: every later part of an annotated Kotlin or Java function counted.
    prep = prepare("dup.kt", "kotlin", ANNOTATED_KOTLIN)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=250), "syntax")
    parts = [c for c in chunks if c.symbol == "summarize"]
    assert len(parts) > 2 and all(c.header.startswith("fun summarize(") or "fun summarize(" in c.text for c in parts[1:])
    assert boundary_damage(prep, chunks, budget=250, model=ChunkSettings().model).without_signature == ()
    # Windows that hold body lines and no signature still count: all but the first of 4 lines.
    fixed = chunk_document(prep, ChunkSettings(unit="lines", budget=4), "fixed")
    lacking = boundary_damage(prep, fixed, budget=4, model=ChunkSettings().model).without_signature
    assert lacking == tuple(c.id for c in fixed[1:])


def test_with_overlap_a_window_starting_inside_a_function_held_whole_draws_no_cut() -> None:
    # The figure said "Definitions cut 0" while the view drew "✂ cuts f7" at every window
    # start: the window before held f7 whole, the overlap started the next one inside it.
    text = "".join(f"def f{i}(x):\n    y = x * {i}\n    return y + {i}\n\n\n" for i in range(20))
    prep = prepare("m.py", "python", text)
    settings = ChunkSettings(unit="lines", budget=40, overlap=2)
    chunks = chunk_document(prep, settings, "fixed")
    assert any(c.start_line > 1 and (c.start_line - 1) % 5 not in (0, 3, 4) for c in chunks)  # starts inside a function
    report = boundary_damage(prep, chunks, budget=40, model=settings.model)
    assert report.cut == () and report.cuts == ()
    # A class cut by the same boundary is still named, though its method is whole above it.
    source = "class Shelf:\n" + "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(30))
    prep = prepare("s.py", "python", source)
    chunks = chunk_document(prep, settings, "fixed")
    report = boundary_damage(prep, chunks, budget=40, model=settings.model)
    assert report.cut[0] == "Shelf" and report.cuts and {c.symbol for c in report.cuts} <= set(report.cut)
