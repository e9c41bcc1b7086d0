"""Whole definitions from their parts: what a search returns for a split function.

A definition too big for the budget is cut into parts (``part`` 1..``parts``; parts 2.. carry
the first part's id as ``parent_id``); definitions nested in it may be chunks of their own. A
search that finds one part of such a definition returns the whole of it, as a *group*: every
chunk of the file inside the definition's lines, in source order. This is "small to big"
retrieval: each part is embedded on its own (so none is longer than the model reads), the answer
is the function. Results stay size-neutral where it matters: a group costs the tokens of all its
chunks when a context is filled, the signature each later part repeats counted once
(:func:`core.evaluate.fill_context`).

Chunks that are not parts of a split definition (whole functions, class headers, fixed windows,
table batches) are results on their own: a class header never pulls in its whole class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from core.chunk import Chunk


def group_key(chunk: Chunk) -> str | None:
    """The id of the first part of the split definition ``chunk`` is a part of, else ``None``."""
    if chunk.parts <= 1:
        return None
    if chunk.part == 1:
        return chunk.id
    return chunk.parent_id


def whole_definition(chunk: Chunk, same_file: Iterable[Chunk]) -> tuple[Chunk, ...]:
    """Every chunk of the definition ``chunk`` is a part of, in source order (``(chunk,)`` when it
    is not a part, or when its other parts are not among ``same_file``)."""
    key = group_key(chunk)
    if key is None:
        return (chunk,)
    pool = [c for c in same_file if c.path == chunk.path]
    head = next((c for c in pool if c.id == key), None)
    if head is None:
        return (chunk,)
    parts = [c for c in pool if c.id == key or (c.parent_id == key and c.symbol == head.symbol and c.parts == head.parts)]
    if head.strategy == "table":
        # A table profile's parts span the whole table but hold none of its rows.
        return tuple(sorted(parts, key=lambda c: c.part))
    first = min(c.start_byte for c in parts)
    last = max(c.end_byte for c in parts)
    inside = {c.id: c for c in pool if first <= c.start_byte and c.end_byte <= last and c.strategy == chunk.strategy}
    inside[chunk.id] = chunk
    return tuple(sorted(inside.values(), key=lambda c: (c.start_byte, c.end_byte)))


def group_text(chunks: Sequence[Chunk]) -> str:
    """The text of chunks of one file in source order, as one piece: their texts, with the lines
    between them (blank lines trimmed off their edges) restored as empty lines. For a whole
    definition this is its source, whitespace-only blank lines aside."""
    ordered = sorted(chunks, key=lambda c: (c.start_byte, c.end_byte))
    pieces: list[str] = []
    last_line = None
    last_end = -1
    for chunk in ordered:
        if chunk.end_byte <= last_end:
            continue  # inside the previous one (cannot happen for a group; kept safe)
        if last_line is not None:
            pieces.append("\n" * max(chunk.start_line - last_line, 1))
        pieces.append(chunk.text)
        last_line, last_end = chunk.end_line, chunk.end_byte
    return "".join(pieces)


def definition_groups(chunks: Iterable[Chunk]) -> dict[str, tuple[str, ...]]:
    """For every part of a split definition among ``chunks``: the ids of its whole definition,
    in source order (what :func:`whole_definition` gives, worked out once for a whole index)."""
    by_path: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_path.setdefault(chunk.path, []).append(chunk)
    found: dict[str, tuple[str, ...]] = {}
    for pool in by_path.values():
        for head in pool:
            if head.parts > 1 and head.part == 1:
                group = whole_definition(head, pool)
                ids = tuple(c.id for c in group)
                for chunk in group:
                    if group_key(chunk) == head.id:
                        found[chunk.id] = ids
    return found


def collapse(
    ranked: Sequence[str],
    members_of: Callable[[str], Sequence[str]],
    k: int,
) -> list[tuple[str, tuple[str, ...]]]:
    """The first ``k`` results of ``ranked`` ids, each as ``(id, member ids)``. ``members_of``
    gives the ids an id returns: a part's whole definition (:func:`whole_definition`), or the id
    alone. A result stands at the rank of its best id; later ids already inside an earlier
    result are left out. A definition nested in a split function is a result of its own; found
    before any part of its function, it is also inside that function's result, which is whole.
    Decisions look only at earlier ids, so the first ``k`` results are the same for every
    larger ``k``. Works on ids alone, so a store knows what to fetch before it fetches.
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    shown: set[str] = set()
    for ident in ranked:
        if len(out) >= k:
            break
        if ident in shown:
            continue
        members = tuple(members_of(ident)) or (ident,)
        shown.update(members)
        out.append((ident, members))
    return out
