"""Boundary damage of any chunk list over one file: what a chunking does to definitions."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate
from statistics import median

from core.builder import Prepared
from core.chunk import Chunk
from core.document import Document
from core.sizing import make_sizer, model_token_limit
from core.syntax import Definition, list_definitions, naming_line


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
    - ``over_model_limit``: chunks whose ``embed_text`` the model would silently truncate;
    - ``cuts``: where a chunk boundary falls inside a definition of ``cut``, naming the
      innermost such (with overlap, a window starting inside a function that the window before
      holds whole cuts nothing, and draws no rule).
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
    cut = _cut(defs, chunks)
    unit = chunks[0].unit if chunks else "tokens"
    sizer = make_sizer(unit, model)
    line_sizes = prep.spans(sizer)
    doc = prep.doc
    avoidable = [
        d.symbol for d in cut if line_sizes.span(*doc.lines_span(d.first, d.last)) <= budget
    ]
    owner = _innermost([d for d in defs if d.is_function], doc.line_count)
    without_signature = [c.id for c in chunks if _lacks_signature(doc, c, owner)]
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
        cuts=tuple(cut_points(chunks, cut)),
    )


def _cut(definitions: list[Definition], chunks: list[Chunk]) -> list[Definition]:
    """The definitions no chunk holds whole, in order (a sort and a running maximum: a file of
    thousands of functions compared every one with every chunk)."""
    spans = sorted((c.start_line, c.end_line) for c in chunks)
    starts = [a for a, _ in spans]
    reach = list(accumulate((b for _, b in spans), max))  # furthest end among chunks starting by here
    cut = []
    for d in definitions:
        i = bisect_right(starts, d.first) - 1
        if i < 0 or reach[i] < d.last:
            cut.append(d)
    return cut


def cut_points(chunks: list[Chunk], definitions: list[Definition]) -> list[Cut]:
    """Every chunk boundary that falls strictly inside a definition, with the innermost one cut
    (the shortest definition around the boundary; the first listed among equals). A boundary is
    the line after which a chunk ends or the next begins; where blank lines no chunk holds lie
    between two chunks, that is one boundary, after the first (it was drawn twice)."""
    ends = {c.end_line for c in chunks}
    covered = bytearray(max((c.end_line for c in chunks), default=0) + 2)  # lines some chunk holds
    for c in chunks:
        covered[c.start_line : c.end_line + 1] = b"\x01" * (c.end_line - c.start_line + 1)
    starts = set()
    for c in chunks:
        before = c.start_line - 1
        if before < 1:
            continue
        gap = before
        while gap >= 1 and not covered[gap]:
            gap -= 1  # back over blank lines no chunk holds
        if gap == before or gap not in ends:
            starts.add(before)
    boundaries = sorted(ends | starts)
    if not boundaries or not definitions:
        return []
    innermost: dict[int, Definition] = {}
    for d in definitions:  # only the boundaries inside each definition, found by bisection
        length = d.last - d.first
        for i in range(bisect_left(boundaries, d.first), bisect_left(boundaries, d.last)):
            line = boundaries[i]
            held = innermost.get(line)
            if held is None or length < held.last - held.first:
                innermost[line] = d
    return [Cut(line, innermost[line].symbol) for line in boundaries if line in innermost]



def _innermost(definitions: list[Definition], line_count: int) -> list[Definition | None]:
    """For each line (index = line number), the innermost function whose span holds it."""
    owner: list[Definition | None] = [None] * (line_count + 2)
    # Outer spans first, inner ones overwrite: definitions are sorted by (first, -last).
    for d in sorted(definitions, key=lambda d: (d.first, -d.last)):
        for line in range(d.first, min(d.last, line_count) + 1):
            owner[line] = d
    return owner


def _lacks_signature(doc: Document, chunk: Chunk, owner: list[Definition | None]) -> bool:
    """True when ``chunk`` holds a body line of a function without that function's signature.

    Each line is judged by the innermost function holding it, so a nested function held whole
    does not count against the function around it. A signature counts as held when the span
    starts at or before it or the chunk's header repeats it.
    """
    for line in range(chunk.start_line, min(chunk.end_line, len(owner) - 2) + 1):
        d = owner[line]
        if d is None or line <= d.signature_last or doc.is_blank(line):
            continue
        if chunk.start_line <= d.name_line:
            continue
        first_line = d.signature.splitlines()[0].strip() if d.signature else doc.line_text(d.name_line).strip()
        if first_line and first_line in chunk.header:
            continue
        # Annotations lead a Kotlin or Java signature (``@Throws(...)`` above ``fun
        # summarize(...)``): the line that names the function is what the chunker repeats, and
        # a chunk that holds it holds the signature.
        naming = naming_line(d.signature)
        if len(naming) > 3 and (naming in chunk.header or naming in chunk.text):
            continue
        return True
    return False
