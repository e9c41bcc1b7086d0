"""What a chunking does to tables: rows cut apart, chunks without the column names, chunks the
model would truncate. Works on the chunks alone, for either strategy.

Table chunks (``table_rows``) hold whole rows ``row_start..row_end`` and repeat the header. Fixed
windows over a table (:mod:`core.table_fixed`) carry the rows they touch in
``row_start..row_end`` and the flags ``split_row_start``/``split_row_end`` when their first/last
row is cut; only the window that starts where the table starts shows the header.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from core.chunk import Chunk
from core.settings import DEFAULT_MODEL
from core.sizing import load_tokenizer, model_token_limit

ROW_KINDS = ("table_rows", "window")


@dataclass(frozen=True)
class TableMetrics:
    """Figures for one strategy's chunks over one or more tables.

    - ``rows``: data rows of the tables (the highest ``row_end`` per table);
    - ``rows_split``: rows that no single chunk holds whole;
    - ``without_header``: ids of row-holding chunks that do not show the column names;
    - ``over_model_limit``: ids of chunks (profiles included) whose ``embed_text`` is longer than
      the model reads (``model_limit`` tokens, special tokens excluded).
    """

    tables: int
    chunks: int
    rows: int
    rows_split: int
    without_header: tuple[str, ...]
    over_model_limit: tuple[str, ...]
    model_limit: int


def table_metrics(chunks: Sequence[Chunk], model: str = DEFAULT_MODEL) -> TableMetrics:
    """Measure ``chunks`` (pass one strategy's chunks) of table files.

    Token counts come from ``model``'s tokenizer; a chunk already sized in tokens is taken at
    its ``size`` (it was counted with the settings' model, normally this one).
    """
    groups: dict[tuple[str, str, str], list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        if chunk.kind in ROW_KINDS and chunk.columns is not None:
            groups[(chunk.path, chunk.symbol, chunk.strategy)].append(chunk)
    rows = split = 0
    without: list[str] = []
    for members in groups.values():
        total, whole = _rows_held_whole(members)
        rows += total
        split += total - whole
        table_start = min(c.start_byte for c in members) if members[0].kind == "window" else None
        for chunk in members:
            if chunk.kind == "table_rows":
                shows = bool(chunk.header) and chunk.header in chunk.embed_text
            else:
                shows = chunk.start_byte == table_start
            if not shows:
                without.append(chunk.id)
    limit = model_token_limit(model)
    return TableMetrics(
        tables=len(groups),
        chunks=sum(len(m) for m in groups.values()),
        rows=rows,
        rows_split=split,
        without_header=tuple(without),
        over_model_limit=tuple(c.id for c, n in zip(chunks, _token_counts(chunks, model)) if n > limit),
        model_limit=limit,
    )


def _rows_held_whole(members: list[Chunk]) -> tuple[int, int]:
    """(rows in the table, rows some chunk holds whole)."""
    total = 0
    ranges = []
    for chunk in members:
        if chunk.row_start is None or chunk.row_end is None:
            continue
        total = max(total, chunk.row_end)
        first = chunk.row_start + ("split_row_start" in chunk.flags)
        last = chunk.row_end - ("split_row_end" in chunk.flags)
        if first <= last:
            ranges.append((first, last))
    covered = 0
    reach = 0
    for first, last in sorted(ranges):
        first = max(first, reach + 1)
        if last >= first:
            covered += last - first + 1
            reach = last
    return total, covered


def _token_counts(chunks: Sequence[Chunk], model: str) -> list[int]:
    todo = [k for k, c in enumerate(chunks) if c.unit != "tokens"]
    counts = [c.size for c in chunks]
    if todo:
        tokenizer = load_tokenizer(model)
        encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
        found = encode([chunks[k].embed_text for k in todo], add_special_tokens=False)
        for k, encoding in zip(todo, found):
            counts[k] = len(encoding.ids)
    return counts
