"""Where one table ends and the next begins among a grid's rows: a report's second table below
a blank row, read apart from the first (:func:`until_next_table`; shared by the workbook reader,
a sheet's rows, and the CSV reader, a file's records, blank lines between them), and tables side
by side, empty columns between them (:func:`column_blocks`; the workbook reader's).

Rows are ``(number, cells)`` pairs: consecutive numbers are adjacent rows, a gap in the numbers
is a blank row (or blank lines) between them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from core.table_batch import detect_header, looks_like_value, names_only, values_below
from core.table_values import NA_MARKERS

class SectionRows:
    """A grid's rows with rows put back for the next table (:func:`until_next_table`), and
    whether one was found."""

    def __init__(self, rows: Iterator[tuple[int, list[str]]]) -> None:
        self._rows = rows
        self._back: list[tuple[int, list[str]]] = []
        self.next_table = False

    def __iter__(self) -> SectionRows:
        return self

    def __next__(self) -> tuple[int, list[str]]:
        if self._back:
            return self._back.pop()
        return next(self._rows)

    def put_back(self, rows: list[tuple[int, list[str]]]) -> None:
        self._back.extend(reversed(rows))


MAX_TITLE_ROWS = 5  # one-cell rows (a title) above a table's header, after the blank row
LOOK_ROWS = 20  # rows under a candidate header that tell its columns' kinds


def until_next_table(rows: SectionRows, *, min_rows: int = 2) -> Iterator[tuple[int, list[str]]]:
    """``rows`` up to where another table starts below this one (a report's second table, after
    a blank row), then put back for it; ``rows.next_table`` says one was found.

    A table starts at a row after a blank row (below a title of one-cell rows, if any) that
    names every column the ``min_rows`` or more rows right under it use, with no number or date among
    its cells (but years or dates heading columns), where some column under one of its names
    holds numbers or dates only (a header over data), and where a title stands above it or the
    rows under it are not shaped as this table's last rows are (another width, or a column of
    numbers in one and of text in the other). So a section's label row
    (``Revenue | EUR thousands`` over five columns), a row of text in a log (``restart | S0 |
    | OFFLINE``) and a header repeated after a page's break go on with this table; tables of
    text only are never split (a group's first row would read as a header).

    ``min_rows``: 2 for a sheet, where a blank row inside a table is common layout; a CSV's
    sections (an analytics export's summary line under its own header) may hold one row."""
    first: list[str] | None = None  # this table's first row of two cells or more (its header, as a rule)
    top: list[tuple[int, list[str]]] = []  # its first rows, while they could be a title of what follows
    recent: deque[list[str]] = deque(maxlen=LOOK_ROWS)  # its last rows, their shape
    previous: int | None = None
    for number, cells in rows:
        if previous is None or number == previous + 1 or first is None:
            previous = number
            if first is None and filled(cells) >= 2:
                first = [c.strip() for c in cells]
            elif first is not None and _holds_value(cells):
                recent.append(cells)
            if len(top) <= MAX_TITLE_ROWS:
                top.append((number, cells))
            yield number, cells
            continue
        look = _look_ahead(rows, (number, cells))
        # (Rows above that read as the title of the table below, ``Report | Sales 2024``: one table.)
        title = len(top) <= MAX_TITLE_ROWS and len(title_rows(top + look)) == len(top)
        start = None if title else _next_table_at(look, list(recent), min_rows)
        if start is not None:
            yield from look[:start]  # notes under this table, before a blank row
            rows.put_back(look[start:])
            rows.next_table = True
            return
        yield from look
        recent.extend(cells for _, cells in look if filled(cells) >= 2 and _holds_value(cells))
        previous = look[-1][0]


def _look_ahead(rows: SectionRows, row: tuple[int, list[str]]) -> list[tuple[int, list[str]]]:
    """``row`` and the rows after it that could tell whether a table starts there: up to
    :data:`MAX_TITLE_ROWS` one-cell rows, the next row, and up to :data:`LOOK_ROWS` rows
    right under it (no blank row between)."""
    look = [row]
    while filled(look[-1][1]) < 2 and len(look) <= MAX_TITLE_ROWS:
        following = next(rows, None)
        if following is None:
            return look
        look.append(following)
    while len(look) < MAX_TITLE_ROWS + 1 + LOOK_ROWS:
        following = next(rows, None)
        if following is None:
            break
        if following[0] != look[-1][0] + 1:
            rows.put_back([following])
            break
        look.append(following)
    return look


def _next_table_at(look: list[tuple[int, list[str]]], recent: list[list[str]], min_rows: int = 2) -> int | None:
    """Where in ``look`` (rows after a blank row, :func:`_look_ahead`) another table starts,
    its title rows included, or None (see :func:`until_next_table`); ``recent``: the last
    rows of the table above."""
    at = next((i for i, (_, cells) in enumerate(look) if filled(cells) >= 2), None)
    if at is None or at + min_rows >= len(look) or look[at + min_rows][0] != look[at][0] + min_rows:
        return None  # no row of two cells, or not ``min_rows`` rows right under it
    header = look[at][1]
    below = [cells for _, cells in look[at + 1 :]]
    named = {j for j, cell in enumerate(header) if cell.strip()}
    if not _used(below) <= named or any(header[j].strip() in NA_MARKERS for j in named):
        return None  # a column without a name, or a missing value among the names: no header
    if any(looks_like_value(header[j]) for j in named) and not detect_header([header, *below]):
        return None  # a value among the names, and no years heading columns (``Region | 2019 | 2020``)
    if not any(values_below(below, j) for j in named):
        return None
    start = at
    while start and look[start - 1][0] == look[start][0] - 1:
        start -= 1  # its title: the one-cell rows right above it
    # Rows shaped as those above go on with the table (a header repeated after a page break),
    # unless a title of their own stands above their header (``Units sold by region``).
    if start == at and recent and _used(recent) == _used(below) and all(
        _kind(recent, j) in (None, _kind(below, j)) for j in named
    ):
        return None
    return start


def _holds_value(cells: list[str]) -> bool:
    """Whether a row holds a number or a date: a data row, no header and no label."""
    return any(looks_like_value(c) for c in cells)


def _kind(rows: list[list[str]], j: int) -> str | None:
    """Column ``j`` of ``rows`` as mostly numbers or dates (``value``) or ``text``; None when
    empty. (Mostly: a price list's ``on request`` among its prices is still a price column.)"""
    present = [r[j] for r in rows if j < len(r) and r[j].strip() and r[j].strip() not in NA_MARKERS]
    if not present:
        return None
    return "value" if 2 * sum(looks_like_value(v) for v in present) >= len(present) else "text"


def _used(rows: list[list[str]]) -> set[int]:
    """The columns some of ``rows`` fill."""
    return {j for cells in rows for j, cell in enumerate(cells) if cell.strip()}


def filled(cells: list[str]) -> int:
    """How many of ``cells`` hold something."""
    return sum(1 for c in cells if c.strip())


def title_rows(sample: list[tuple[int, list[str]]], *, whole: bool = False) -> list[tuple[int, list[str]]]:
    """The rows (up to five) above a sheet's table that hold one cell each (a report's title,
    a date line), when a row of two or more cells follows them and one more row after it, or,
    when ``sample`` is the ``whole`` table, a last row of column names (an empty report's
    template: a header alone): they are no header and no data."""
    count = 0
    while count < len(sample) and count < 5 and filled(sample[count][1]) == 1:
        count += 1
    rest = sample[count:]
    alone = whole and len(rest) == 1 and names_only(rest[0][1])
    if count and (len(rest) >= 2 or alone) and filled(rest[0][1]) >= 2:
        return sample[:count]
    # Labels beside their values (``Report | Sales 2024``, ``Currency | EUR``) above a table at
    # least twice as wide: a report's facts, not its header.
    count = 0
    while count < len(sample) and count < 5 and 1 <= filled(sample[count][1]) <= 2:
        count += 1
    rest = sample[count:]
    if count and len(rest) >= 2 and filled(rest[0][1]) >= 4:
        return sample[:count]
    return []


MAX_COLUMN_BLOCKS = 10  # tables side by side read apart on one sheet; the rest are columns of the last


def column_blocks(sample: list[tuple[int, list[str]]], *, has_header: bool | None = None) -> list[int]:
    """The first columns (0-based) of the tables standing side by side in ``sample`` (a grid's
    first rows), left to right: ``[0]`` when there is one table, or no telling.

    The rule. The table area is ``sample`` less the title rows above it (:func:`title_rows`).
    Its filled columns make runs, apart by columns empty in every row of it, header included (a
    column named in the header, or holding data under an empty header cell, is no gap). A run
    is a table of its own when its rows (less title rows of their own) start with a header of
    two names or more over at least one row: none of the names a label ending with a colon
    (``Total: | 1,234`` is a fact beside a table), and none a number or a date unless
    :func:`core.table_batch.detect_header` takes them for years heading columns (or
    ``has_header`` says the row is a header). (Names are not checked against the rows under
    them: a header merged down over two rows repeats its name in the second.) With two such
    runs or more, a block starts at each of them but the first, so that a table stands on each
    side of every split: runs that are no table (notes, a ``label | value`` pair, a lone
    column) stay columns of the block on their left (or of the first), as all columns were
    before. The first block starts at column 0 (a note left of the first table stays its
    note), and each block ends where the next starts (a gap column is the left block's; the
    workbook reader keeps a split only where the gap stays empty to the sheet's end and the two
    sides fill different rows). ``has_header`` False: no table has a header, so none is told apart. At most
    :data:`MAX_COLUMN_BLOCKS` blocks. Only ``sample`` is judged: a table beside another that
    starts below the rows sampled is not found (its rows are the other's columns, as before).
    """
    if has_header is False:
        return [0]
    area = sample[len(title_rows(sample)) :]
    runs: list[list[int]] = []  # [first, last] column of each run of filled columns
    for j in sorted(_used([cells for _, cells in area])):
        if runs and j == runs[-1][1] + 1:
            runs[-1][1] = j
        else:
            runs.append([j, j])
    starts = [first for first, last in runs if _block_is_table(area, first, last, has_header)]
    if len(starts) < 2:
        return [0]
    return [0, *starts[1:MAX_COLUMN_BLOCKS]]


def _block_is_table(area: list[tuple[int, list[str]]], first: int, last: int, has_header: bool | None) -> bool:
    """Whether columns ``first``..``last`` of ``area`` hold a table of their own: a header of
    two names or more, no ``label:`` and no value among them, over a row at least (see
    :func:`column_blocks`)."""
    rows = [(number, cells[first : last + 1]) for number, cells in area if filled(cells[first : last + 1])]
    rows = rows[len(title_rows(rows)) :]
    if len(rows) < 2:
        return False
    names = [cell.strip() for cell in rows[0][1] if cell.strip()]
    if len(names) < 2 or any(name.endswith(":") for name in names):
        return False
    if has_header is True or not any(looks_like_value(name) for name in names):
        return True
    return detect_header([cells for _, cells in rows])
