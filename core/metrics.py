"""Boundary damage of any chunk list over one file: what a chunking does to definitions."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from core.builder import Prepared
from core.chunk import Chunk
from core.document import Document
from core.sizing import make_sizer, model_token_limit
from core.syntax import Definition, list_definitions


@dataclass(frozen=True)
class Cut:
    """A chunk boundary inside a definition: after ``line``, through ``symbol``."""

    line: int
    symbol: str


@dataclass(frozen=True)
class DamageReport:
    """Figures for one strategy's chunks over one file (ids and symbols, so the UI can mark them).

    - ``cut``: definitions that no single chunk holds whole;
    - ``cut_avoidable``: of those, the ones small enough to fit the budget;
    - ``without_signature``: chunks holding body lines of a function without its signature
      (in the span or repeated in the header);
    - ``over_budget``: chunks larger than the budget;
    - ``over_model_limit``: chunks whose ``embed_text`` the model would silently truncate.
    """

    chunks: int
    median_size: float
    cut: tuple[str, ...]
    cut_avoidable: tuple[str, ...]
    without_signature: tuple[str, ...]
    over_budget: tuple[str, ...]
    over_model_limit: tuple[str, ...]
    cuts: tuple[Cut, ...]


def boundary_damage(
    prep: Prepared,
    chunks: list[Chunk],
    *,
    budget: int,
    model: str,
    definitions: list[Definition] | None = None,
) -> DamageReport:
    """Measure ``chunks`` (of any strategy) over ``prep``'s document."""
    defs = definitions if definitions is not None else list_definitions(prep)
    spans = [(c.start_line, c.end_line) for c in chunks]
    cut = [d for d in defs if not any(a <= d.first and d.last <= b for a, b in spans)]
    unit = chunks[0].unit if chunks else "tokens"
    sizer = make_sizer(unit, model)
    line_sizes = prep.spans(sizer)
    doc = prep.doc
    avoidable = [
        d.symbol for d in cut if line_sizes.span(*doc.lines_span(d.first, d.last)) <= budget
    ]
    functions = [d for d in defs if d.is_function and d.last > d.signature_last]
    without_signature = [c.id for c in chunks if _lacks_signature(doc, c, functions)]
    token_sizer = make_sizer("tokens", model)
    limit = model_token_limit(model)
    over_limit = [
        c.id
        for c in chunks
        if (c.size if c.unit == "tokens" else token_sizer.measure(c.embed_text)) > limit
    ]
    return DamageReport(
        chunks=len(chunks),
        median_size=float(median(c.size for c in chunks)) if chunks else 0.0,
        cut=tuple(d.symbol for d in cut),
        cut_avoidable=tuple(avoidable),
        without_signature=tuple(without_signature),
        over_budget=tuple(c.id for c in chunks if c.size > budget),
        over_model_limit=tuple(over_limit),
        cuts=tuple(cut_points(chunks, defs)),
    )


def cut_points(chunks: list[Chunk], definitions: list[Definition]) -> list[Cut]:
    """Every chunk boundary that falls strictly inside a definition, with the innermost one cut."""
    boundaries = sorted({c.end_line for c in chunks} | {c.start_line - 1 for c in chunks if c.start_line > 1})
    found = []
    for line in boundaries:
        inner = [d for d in definitions if d.first <= line < d.last]
        if inner:
            innermost = min(inner, key=lambda d: d.last - d.first)
            found.append(Cut(line, innermost.symbol))
    return found



def _lacks_signature(doc: Document, chunk: Chunk, functions: list[Definition]) -> bool:
    """True when ``chunk`` holds body lines of a function whose signature it does not hold.

    Only the innermost function of each line counts: a nested function held whole (its own
    signature included) does not make its chunk "without signature" for the outer one.
    """
    for d in functions:
        if chunk.start_line > d.last or chunk.end_line <= d.signature_last:
            continue
        if chunk.start_line <= d.name_line:
            continue  # the span itself starts at or before the signature
        if doc.line_text(d.name_line).strip() in chunk.header:
            continue  # a split part repeats the signature in its header
        nested = [n for n in functions if d.first < n.first and n.last <= d.last]
        for line in range(max(chunk.start_line, d.signature_last + 1), min(chunk.end_line, d.last) + 1):
            if doc.is_blank(line):
                continue
            # A line inside a nested function the chunk holds with its signature belongs to that one.
            if any(n.first <= line <= n.last and chunk.start_line <= n.name_line for n in nested):
                continue
            return True
    return False
