"""What every table reader hands to the chunker: an open table and its rows in batches.

A :class:`RowBatch` holds consecutive data rows as one Arrow string array per column, with each
row's source span (bytes and lines) in NumPy arrays, so the chunker never touches a row in
Python. The header helpers (detection, naming) are shared by the CSV and Excel readers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from core.errors import InputError
from core.table_values import NA_MARKERS


@dataclass
class RowBatch:
    """Consecutive data rows of one table.

    ``start_byte``/``end_byte`` index the source file (the end excludes the line break) and
    ``raw`` holds the file's bytes from ``raw_base`` up to where the next batch starts, so
    batches tile the file and the source text of any run of rows is a slice. Excel rows have no
    source bytes: ``raw`` is empty and the spans are 0.
    """

    columns: list[pa.Array]
    first_row: int  # 1-based data row number of the batch's first row
    start_byte: np.ndarray
    end_byte: np.ndarray
    start_line: np.ndarray
    end_line: np.ndarray
    ragged: np.ndarray  # True where a short row was padded with empty cells
    raw: bytes = b""
    raw_base: int = 0
    # True when every row's source text is exactly its cells written as CSV (comma-separated,
    # nothing quoted, no blank lines between): the CSV serialisation is then the source slice.
    canonical_csv: bool = False
    # Columns some of whose cells the file stores as text though they read as numbers (an Excel
    # cell of text ``0007``, a zip code): the profile keeps them text. A CSV says no such thing.
    text_columns: frozenset[int] = frozenset()

    def __len__(self) -> int:
        return len(self.start_byte)

    def tail(self, start: int) -> RowBatch:
        """Rows ``start..`` as a batch of their own (their source bytes trimmed to match)."""
        cut = int(self.start_byte[start]) - self.raw_base if self.raw else 0
        return RowBatch(
            columns=[col.slice(start) for col in self.columns],
            first_row=self.first_row + start,
            start_byte=self.start_byte[start:],
            end_byte=self.end_byte[start:],
            start_line=self.start_line[start:],
            end_line=self.end_line[start:],
            ragged=self.ragged[start:],
            raw=self.raw[cut:] if self.raw else b"",
            raw_base=self.raw_base + cut,
            canonical_csv=self.canonical_csv,
            text_columns=self.text_columns,
        )

    def head(self, stop: int) -> RowBatch:
        """Rows ``..stop-1`` as a batch of their own (their source bytes up to where row
        ``stop`` starts, so that ``head(k)`` then ``tail(k)`` still tile the file)."""
        if stop >= len(self):
            return self
        cut = int(self.start_byte[stop]) - self.raw_base if self.raw else 0
        return RowBatch(
            columns=[col.slice(0, stop) for col in self.columns],
            first_row=self.first_row,
            start_byte=self.start_byte[:stop],
            end_byte=self.end_byte[:stop],
            start_line=self.start_line[:stop],
            end_line=self.end_line[:stop],
            ragged=self.ragged[:stop],
            raw=self.raw[:cut] if self.raw else b"",
            raw_base=self.raw_base,
            canonical_csv=self.canonical_csv,
            text_columns=self.text_columns,
        )

    def kept(self, keep: np.ndarray) -> RowBatch:
        """The rows where ``keep`` is True. The source bytes stay whole: rows left out stand
        between the others as blank lines do (and their CSV is then not the source text)."""
        mask = pa.array(keep)
        return RowBatch(
            columns=[col.filter(mask) for col in self.columns],
            first_row=self.first_row,
            start_byte=self.start_byte[keep],
            end_byte=self.end_byte[keep],
            start_line=self.start_line[keep],
            end_line=self.end_line[keep],
            ragged=self.ragged[keep],
            raw=self.raw,
            raw_base=self.raw_base,
            canonical_csv=False,
            text_columns=self.text_columns,
        )

    def then(self, other: RowBatch) -> RowBatch:
        """This batch followed by ``other`` (the next rows of the same table)."""
        return RowBatch(
            columns=[pa.concat_arrays([a, b]) for a, b in zip(self.columns, other.columns)],
            first_row=self.first_row,
            start_byte=np.concatenate([self.start_byte, other.start_byte]),
            end_byte=np.concatenate([self.end_byte, other.end_byte]),
            start_line=np.concatenate([self.start_line, other.start_line]),
            end_line=np.concatenate([self.end_line, other.end_line]),
            ragged=np.concatenate([self.ragged, other.ragged]),
            raw=self.raw + other.raw,
            raw_base=self.raw_base if self.raw else other.raw_base,
            # The rows are adjacent, so the joint source has blank lines only if a part has.
            canonical_csv=self.canonical_csv and other.canonical_csv,
            text_columns=self.text_columns | other.text_columns,
        )

    def source_texts(self, first: np.ndarray, stop: np.ndarray, encoding: str) -> list[str]:
        """:meth:`source_text` of many runs of rows at once: rows ``first[k]..stop[k]-1``."""
        if not len(first):
            return []
        starts = (self.start_byte[first] - self.raw_base).tolist()
        ends = (self.end_byte[stop - 1] - self.raw_base).tolist()
        raw = self.raw
        if encoding == "utf-8" and len(starts) > 1:
            # The runs are in order: one decode of their stretch, then slices of it (for ASCII,
            # where a byte offset is a character offset).
            base = starts[0]
            stretch = raw[base : max(ends)]
            if stretch.isascii():
                text = stretch.decode("ascii")
                return [text[a - base : b - base] for a, b in zip(starts, ends)]
        return [raw[a:b].decode(encoding) for a, b in zip(starts, ends)]

    def source_text(self, i: int, j: int, encoding: str) -> str:
        """The file's own text of rows ``i..j-1`` (first row's start to last row's end)."""
        a = int(self.start_byte[i]) - self.raw_base
        b = int(self.end_byte[j - 1]) - self.raw_base
        return self.raw[a:b].decode(encoding)


def repeatable_header(header: Sequence[str]) -> bool:
    """Whether ``header`` written again below is read as the header, not as a row: when it has
    two filled cells or more (one word may well be a value)."""
    return sum(1 for c in header if c.strip()) >= 2


def header_repeats(batch: RowBatch, header: Sequence[str]) -> np.ndarray | None:
    """Which rows of ``batch`` are its table's header written again, cell for cell (CSV exports
    joined one under the other, a header repeated after a page's break), or None when none is
    (or the header is not :func:`repeatable_header`). From the first column's matches on: most
    batches are done after one comparison."""
    if len(batch) == 0 or not repeatable_header(header) or len(header) != len(batch.columns):
        return None
    same: np.ndarray | None = None
    for col, name in zip(batch.columns, header):
        match = pc.fill_null(pc.equal(col, name), False).to_numpy(zero_copy_only=False)
        same = match if same is None else same & match
        if not same.any():
            return None
    return same


def repeats_note(where: Sequence[int], what: str) -> str:
    """The profile's note on rows left out as the header written again, ``where`` (``what``:
    "line" or "row")."""
    if len(where) == 1:
        return f"note: {what} {where[0]:,} repeats the header: read as a header, not as data"
    shown = ", ".join(f"{n:,}" for n in where[:10]) + (", ..." if len(where) > 10 else "")
    return f"note: {len(where):,} {what}s repeat the header ({shown}): read as headers, not as data"


def make_batch(
    columns: list[pa.Array],
    first_row: int,
    spans: tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]],
    ragged: Sequence[int],
    raw: bytes = b"",
    raw_base: int = 0,
    text_columns: frozenset[int] = frozenset(),
) -> RowBatch:
    """A batch from Python lists of spans (start_byte, end_byte, start_line, end_line) and the
    indexes of padded rows."""
    start_byte, end_byte, start_line, end_line = (np.asarray(s, dtype=np.int64) for s in spans)
    flags = np.zeros(len(start_byte), dtype=bool)
    if len(ragged):
        flags[np.asarray(ragged, dtype=np.int64)] = True
    return RowBatch(
        columns, first_row, start_byte, end_byte, start_line, end_line, flags, raw, raw_base, text_columns=text_columns
    )


@dataclass
class OpenTable:
    """One table being read: its name, columns and where it starts, and its rows (read lazily,
    once; consume ``batches`` before asking the reader for the next table)."""

    name: str
    columns: tuple[str, ...]
    generated_header: bool
    start_byte: int  # the header row's (or first row's) start
    start_line: int
    header_line: int | None  # line (sheet row) of the header, None when generated
    encoding: str
    has_source_text: bool  # False for Excel: chunk text is then the rows written as CSV
    batches: Iterator[RowBatch]
    text_start: int = 0  # bytes before the text proper (a UTF-8 byte order mark)
    file_encoding: str | None = None  # the file's own encoding when it is read transcoded (UTF-16)
    notes: tuple[str, ...] = ()  # what a reader of the profile should know (formulas never calculated)
    decimal_comma: bool = False  # cells written with a decimal comma (a ``;``-separated file) are numbers
    grouping_dots: bool = False  # and its dots group thousands (``1.250`` is 1250): decimal commas seen
    header_only: bool = False  # a sheet of a header row alone: no batches, its profile names the columns
    end_byte: int | None = None  # where its text ends when another table follows it (a CSV's sections)

    @property
    def read_as(self) -> str | None:
        """The encoding the file's text is in (``utf-8``, ``cp1252``, ``utf-16``...), None for
        a workbook."""
        return None if not self.has_source_text else self.file_encoding or self.encoding


# --- header detection and naming -------------------------------------------------------------

# (A decimal comma too, ``1,5``: no header cell reads so, in a European file or a quoted one.)
_NUMBER = re.compile(r"^\s*[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?%?\s*$")
_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}([T ][\d:.]+)?\s*$|^\s*\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\s*$")
_MISSING = frozenset(NA_MARKERS)


def looks_like_value(cell: str) -> bool:
    """True for a number or a date: something a header cell is not."""
    return bool(_NUMBER.match(cell) or _DATE.match(cell))


def names_only(row: Sequence[str]) -> bool:
    """Whether ``row`` reads as column names: two or more filled cells, none a number or a date."""
    present = [c for c in row if c.strip()]
    return len(present) >= 2 and not any(looks_like_value(c) for c in present)


def reads_as_note(text: str) -> bool:
    """Whether a lone cell (stripped, not empty) reads as a note or a title ("Source: internal
    data", "* preliminary", "Quarterly sales report") rather than a row's one value filled
    ("Eve" in a table of names and phones): words, a colon, or a mark before the text."""
    return any(ch.isspace() for ch in text) or ":" in text or not text[0].isalnum()


def detect_header(rows: Sequence[Sequence[str]]) -> bool:
    """Guess whether the first of ``rows`` (a sample from the top of a table) is a header.

    It is not when one of its cells is a number or a date, unless those are years or dates heading
    the columns of a wide table (``country, 2022, 2023, 2024`` over figures that are not years;
    a time series' ``Lat, Long, 1/22/20, 1/23/20``), or a cross-table's rising numbers after a
    blank corner (``"", 0, 1, 2`` over rows that start with their own labels). It
    is when some column below it holds numbers or dates only. For all-text tables it is when
    none of its cells recurs in its column below; a table of names with no header is
    indistinguishable from one with a header, which is why callers can force the answer
    (``has_header``). The first row written again below, whole (exports joined one under the
    other, a header repeated after a page's break), is no value in the columns it heads.
    """
    first = list(rows[0])
    rest = rows[1:]
    present = [c for c in first if c.strip()]
    if not present:
        return False
    if any(looks_like_value(c) for c in present):
        return _years_heading(first, rest)
    values = [r for r in rest if list(r) != first] if repeatable_header(first) else rest
    if any(values_below(values, j) for j in range(len(first))):
        return True
    return not any(j < len(r) and r[j] == name for r in rest for j, name in enumerate(first) if name.strip())


def values_below(rest: Sequence[Sequence[str]], j: int) -> bool:
    """Whether column ``j`` of ``rest`` holds numbers or dates only (and some)."""
    below = [r[j] for r in rest if j < len(r) and r[j].strip() and r[j] not in _MISSING]
    return bool(below) and all(looks_like_value(v) for v in below)


_YEAR = re.compile(r"^\s*(1[89]\d\d|20\d\d)\s*$")


def _years_heading(first: list[str], rest: Sequence[Sequence[str]]) -> bool:
    """Whether a first row with value-like cells heads columns: they are all years (at least
    two, different, in order, beside a text cell or a blank top-left corner, as pivot tables
    have; or one, beside two text cells of which one heads numbers or dates: ``product, price,
    2023``) over values mostly no years (a year-like figure among them may happen); or two or
    more different dates over values mostly no dates; or a cross-table's numbered labels
    (:func:`_numbered_labels`)."""
    years = [j for j, c in enumerate(first) if looks_like_value(c)]
    corner = bool(first) and not first[0].strip()
    if len(years) == 1:
        texts = [j for j, c in enumerate(first) if c.strip() and j not in years]
        if len(texts) < 2 or not any(values_below(rest, j) for j in texts):
            return False
    elif len(years) < 2 or (len(years) == len([c for c in first if c.strip()]) and not corner):
        return False
    below = [r[j] for r in rest for j in years if j < len(r) and r[j].strip() and r[j] not in _MISSING]
    if len(years) > 1 and all(_DATE.match(first[j]) for j in years):
        # Dates heading the columns of a time series (``Lat, Long, 1/22/20, 1/23/20, ...``, a
        # pivot by month), all different, over values that are mostly no dates.
        labels = [first[j].strip() for j in years]
        return len(set(labels)) == len(labels) and bool(below) and sum(1 for v in below if _DATE.match(v)) * 2 < len(below)
    if corner and len(years) > 1 and _numbered_labels(first, rest):
        return True
    if not all(_YEAR.match(first[j]) for j in years):
        return False
    labels = [int(first[j]) for j in years]
    if labels != sorted(set(labels)) and labels != sorted(set(labels), reverse=True):
        return False
    return bool(below) and sum(1 for v in below if _YEAR.match(v)) * 2 < len(below)


def _numbered_labels(first: list[str], rest: Sequence[Sequence[str]]) -> bool:
    """Whether a first row with a blank top-left corner is a cross-table's column labels: all
    numbers after the corner, rising (``"", 0, 1, 2`` goals; heights in cm), over rows that each
    start with a label of their own (R's ``write.csv`` of a ``table``)."""
    try:
        labels = [float(c) for c in first[1:]]
    except ValueError:
        return False
    return (
        all(a < b for a, b in zip(labels, labels[1:]))
        and bool(rest)
        and all(r and r[0].strip() for r in rest)
    )


# Columns a table may have. A row of more is over any embedding budget by itself (each chunk
# would be one oversized row), and every column costs its own profile figures and preview
# work: a 170 KB one-row CSV of 20,000 columns held the Tables page for half a minute.
MAX_COLUMNS = 1_024


def check_width(where: str, width: int) -> None:
    """Refuse a table of more than :data:`MAX_COLUMNS` columns (``where`` names it)."""
    if width > MAX_COLUMNS:
        raise InputError(
            f"{where}: {width:,} columns, over the {MAX_COLUMNS:,} a table may have here (one row alone "
            "would be over any embedding budget); keep the columns you need and chunk that"
        )


def column_names(header: Sequence[str] | None, width: int) -> tuple[str, ...]:
    """Usable, unique column names: a header's cells (blank ones and repeats renamed), or
    ``column_1..column_N`` when there is no header.

    A repeat of ``name`` becomes ``name_2``, ``name_3``... and a blank cell ``column_<j>``,
    skipping every name the header itself holds, so a column the file names ``a_2`` keeps that
    name beside ``a, a``."""
    if header is None:
        return tuple(f"column_{j + 1}" for j in range(width))
    given = [" ".join(header[j].split()) if j < len(header) else "" for j in range(width)]
    taken = set(given)
    names: list[str] = []
    seen: set[str] = set()
    for j, name in enumerate(given):
        stem = name or f"column_{j + 1}"
        unique, k = stem, 1
        while unique in seen or (unique != name and unique in taken):
            k += 1
            unique = f"{stem}_{k}"
        seen.add(unique)
        names.append(unique)
    return tuple(names)
