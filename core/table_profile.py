"""A table's profile, aggregated while its rows stream past: shape, column types and per-column
figures, so that aggregate questions ("total Q2 revenue") have a chunk that can answer them.

Each column keeps a few running numbers, never its values, so a profile of a 200 MB file needs a
few megabytes:

- missing: a cell that is empty or one of pandas' own missing markers (``NA``, ``N/A``, ``null``,
  ``NaN``, ``None``, ...), so counts agree with ``pandas.read_csv``, or one of Excel's error
  values (``#DIV/0!``, ``#VALUE!``, ...), as ``pandas.read_excel`` reads them;
- numbers (every present value parses as an integer or a decimal): count, min, max, sum, mean;
- dates (every present value is an ISO 8601 date or date-time): earliest and latest;
- text: distinct values, counted exactly up to :data:`DISTINCT_CAP` (beyond it the profile says
  "more than"), and the most common values, exact while a column has at most :data:`TOP_KEEP`
  different values and approximate (counts are lower bounds, marked ``~``) beyond. Columns
  whose first batch is mostly distinct values (ids, free text) get no most-common list.

Text figures are tallied for text columns only: a column that looks like numbers (or dates) in
its first batches and turns to text later has distinct and most-common counts that cover the
rows from there on (shown with ``~``, the most common values "from row N on").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from core.table_values import NA_MARKERS, cell_lengths, int_values

_NA_SET = pa.array(NA_MARKERS, type=pa.string())
# Every non-empty marker holds an "N", an "n" or (Excel's errors) a "#": a column without any
# (numbers, dates) can only miss values by empty cells, which a fast byte search tells before
# any hashing.
_NA_LETTERS = (b"N", b"n", b"#")
DISTINCT_CAP = 100_000
TOP_KEEP = 1_000
TOP_SHOWN = 5
_ISO_DATE = r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$"


@dataclass
class ColumnProfile:
    """Running figures of one column; read them after the last :meth:`TableProfiler.add`."""

    name: str
    count: int = 0
    missing: int = 0
    numeric: bool = True
    integer: bool = True
    min: float | int | None = None
    max: float | int | None = None
    _int_sum: int = 0
    _float_sums: list[float] = field(default_factory=list)
    dated: bool = True
    first_date: str | None = None
    last_date: str | None = None
    top: Counter[str] = field(default_factory=Counter)
    top_exact: bool = True
    _distinct: pa.Array | None = None  # the distinct values merged so far
    _unmerged: list[pa.Array] = field(default_factory=list)  # each later batch's distinct values
    _unmerged_size: int = 0
    distinct_capped: bool = False
    distinct_partial: bool = False  # the column turned to text late: counts cover later rows
    tallied_from: int = 1  # the first data row its text figures count (past 1 when partial)
    top_tracked: bool = True  # False once the values proved mostly distinct
    _text_seen: bool = False
    decimal_comma: bool = False  # a European file (``;`` between cells): ``1.234,5`` is a number
    grouping_dots: bool = False  # and its rows showed decimal commas: ``1.250`` is 1250

    @property
    def kind(self) -> str:
        """``integer``, ``decimal``, ``date``, ``text``, or ``empty`` (no value present)."""
        if self.count == 0:
            return "empty"
        if self.numeric:
            return "integer" if self.integer else "decimal"
        return "date" if self.dated else "text"

    @property
    def sum(self) -> float | int | None:
        """Sum of a numeric column (an exact int for integers), else None."""
        if not self.numeric or self.count == 0:
            return None
        if self.integer:
            return self._int_sum
        return math.fsum([*self._float_sums, float(self._int_sum)])

    @property
    def mean(self) -> float | None:
        """Mean of a numeric column, else None."""
        total = self.sum
        return None if total is None else total / self.count

    @property
    def distinct(self) -> int:
        """Different present values (a lower bound when ``distinct_capped``)."""
        self._merge_distinct()
        if self.distinct_capped:
            return DISTINCT_CAP
        return 0 if self._distinct is None else len(self._distinct)

    def most_common(self, n: int = TOP_SHOWN) -> list[tuple[str, int]]:
        """The ``n`` most frequent present values with their counts, ties by value."""
        return sorted(self.top.items(), key=lambda item: (-item[1], item[0]))[:n]

    def add(self, col: pa.Array) -> None:
        """Fold one batch of this column's cells (a string array) into the figures."""
        if self._text_seen and not (self.distinct_capped and not self.top_tracked):
            self._add_text_column(col)
            return
        values, n_missing = _present(col)
        self.missing += n_missing
        seen_before = self.count
        self.count += len(values)
        if not len(values):
            return
        if self.numeric:
            self._add_numbers(values)
        if self.dated and not self.numeric:
            self._add_dates(values)
        if self.numeric or self.dated:
            return  # text figures are not needed for numbers and dates
        if seen_before and not self._text_seen:
            # Earlier batches looked like numbers or dates; their values were not tallied.
            self.top_exact = False
            self.distinct_partial = True
            self.tallied_from = seen_before + (self.missing - n_missing) + 1
        self._text_seen = True
        self._add_text(len(values), values=values)

    def stored_as_text(self) -> None:
        """The file stores cells of this column as text (an Excel cell of text ``0007``, a zip
        code ``02134``): they are no numbers, as the sheet says and ``pandas.read_excel`` keeps
        them, though they read as one (the integer 7). Dates written so stay dates."""
        if self.numeric:
            self.numeric = False
            if self.min is not None:
                self.dated = False  # earlier values were numbers, so this is no date column

    def _add_numbers(self, values: pa.Array) -> None:
        numbers = _as_numbers(values, try_int=self.integer, decimal_comma=self.decimal_comma,
                              grouping_dots=self.grouping_dots)
        if numbers is None:
            self.numeric = False
            if self.min is not None:
                self.dated = False  # earlier values were numbers, so this is no date column
            return
        if isinstance(numbers, list):  # integers past int64: exact, in Python
            low, high = min(numbers), max(numbers)
        else:
            low, high = (bound.as_py() for bound in pc.min_max(numbers).values())
        self.min = low if self.min is None else min(self.min, low)
        self.max = high if self.max is None else max(self.max, high)
        if isinstance(numbers, list):
            self._int_sum += sum(numbers)
        elif pa.types.is_integer(numbers.type):
            if max(abs(low), abs(high)) * len(numbers) < 2**62:
                self._int_sum += pc.sum(numbers).as_py()
            else:  # int64 could overflow: add exactly in Python (rare: huge values)
                self._int_sum += sum(numbers.to_pylist())
        else:
            self.integer = False
            self._float_sums.append(pc.sum(numbers).as_py())

    def _add_dates(self, values: pa.Array) -> None:
        stamps = _try_cast(values, pa.timestamp("us"))
        if stamps is None or not pc.all(pc.match_substring_regex(values.slice(0, 32), _ISO_DATE)).as_py():
            stamps = _day_month_year(values)  # Europe's 31.12.2024 (unambiguous, unlike 12/31 and 31/12)
        if stamps is None:
            self.dated = False  # not ISO 8601 dates (or shaped like one but impossible: 2024-02-30)
            return
        low, high = (s.as_py() for s in pc.min_max(stamps).values())
        first, last = _iso(low), _iso(high)
        if self.first_date is None or low < _parse_iso(self.first_date):
            self.first_date = first
        if self.last_date is None or high > _parse_iso(self.last_date):
            self.last_date = last

    def _add_text_column(self, col: pa.Array) -> None:
        """:meth:`add` for a column known to be text: one hashing pass over the cells (value
        counts, or the distinct values when no most-common list is kept), missing markers then
        taken out of that short result, where :func:`_present` would hash every cell against
        the markers and filter the column first. Same figures, same value order."""
        if self.top_tracked:
            counts = pc.value_counts(col)
            values = counts.field("values")
            marker = pc.is_in(values, value_set=_NA_SET)
            n_missing = 0
            if pc.any(marker).as_py():
                n_missing = pc.sum(counts.field("counts").filter(marker)).as_py()
                counts = counts.filter(pc.invert(marker))
            present = len(col) - n_missing
            self.missing += n_missing
            self.count += present
            if present:
                self._add_text(present, counts)
            return
        unique = pc.unique(col)
        marker = pc.is_in(unique, value_set=_NA_SET)
        n_missing = 0
        if pc.any(marker).as_py():
            n_missing = pc.sum(pc.is_in(col, value_set=unique.filter(marker))).as_py()
            unique = unique.filter(pc.invert(marker))
        self.missing += n_missing
        self.count += len(col) - n_missing
        if len(unique):
            self._add_distinct(unique)

    def _add_text(self, n_values: int, counts: pa.StructArray | None = None, values: pa.Array | None = None) -> None:
        """Tally ``n_values`` present cells: their ``counts`` (``pc.value_counts``) or, when not
        given, their ``values``."""
        if self.top_tracked:
            if counts is None:
                counts = pc.value_counts(values)
            if not self.top and len(counts) > n_values // 2 and n_values >= 1000:
                # Mostly distinct values (ids, free text): a most-common list would say nothing.
                self.top_tracked = False
            else:
                self._tally(counts)
        if self.distinct_capped:
            return
        # The distinct values are the counted ones (in the same, first-seen, order).
        self._add_distinct(counts.field("values") if counts is not None else pc.unique(values))

    def _add_distinct(self, unique: pa.Array) -> None:
        if self.distinct_capped:
            return
        self._unmerged.append(unique)
        self._unmerged_size += len(unique)
        # Merging re-hashes everything kept, so merge only once the new values outnumber the
        # kept ones: each value is re-hashed a bounded number of times.
        if self._unmerged_size > max(len(self._distinct or ()), 1 << 16):
            self._merge_distinct()

    def _merge_distinct(self) -> None:
        if not self._unmerged or self.distinct_capped:
            return
        parts = ([self._distinct] if self._distinct is not None else []) + self._unmerged
        merged = pc.unique(pa.concat_arrays(parts)) if len(parts) > 1 else parts[0]
        self._unmerged, self._unmerged_size = [], 0
        if len(merged) > DISTINCT_CAP:
            self.distinct_capped, self._distinct = True, None
        else:
            self._distinct = merged

    def _tally(self, counts: pa.StructArray) -> None:
        if len(counts) > TOP_KEEP:
            # Keep the batch's most frequent values only; totals become lower bounds.
            tally = int_values(counts.field("counts"))
            counts = counts.take(pa.array(np.argpartition(-tally, TOP_KEEP)[:TOP_KEEP]))
            self.top_exact = False
        self.top.update(dict(zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist())))
        if len(self.top) > 2 * TOP_KEEP:
            self.top = Counter(dict(self.top.most_common(TOP_KEEP)))
            self.top_exact = False


def _present(col: pa.Array) -> tuple[pa.Array, int]:
    """The cells of ``col`` that are not missing, and how many were."""
    data = col.buffers()[-1]
    raw = data.to_pybytes() if data is not None else b""
    if any(letter in raw for letter in _NA_LETTERS):
        missing = pc.is_in(col, value_set=_NA_SET)
    else:
        # No marker text anywhere in the column: only empty cells can be missing, and their
        # lengths say so without hashing every value.
        empty = cell_lengths(col) == 0
        if not empty.any():
            return col, 0
        missing = pa.array(empty)
    n_missing = pc.sum(missing).as_py() or 0
    return (col.filter(pc.invert(missing)) if n_missing else col), n_missing


_DOTTED_DATE = r"^\s*\d{1,2}\.\d{1,2}\.\d{4}\s*$"


def _day_month_year(values: pa.Array) -> pa.Array | None:
    """Dates written ``31.12.2024`` (day, month, year, with dots) as timestamps, else None."""
    if not pc.all(pc.match_substring_regex(values, _DOTTED_DATE)).as_py():
        return None
    trimmed = pc.utf8_trim_whitespace(values)
    try:
        stamps = pc.strptime(trimmed, format="%d.%m.%Y", unit="us")
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    # (strptime reads 31.02.2024 as 2 March: a day and month that did not survive are no date.)
    parts = pc.extract_regex(trimmed, r"^(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.")
    same = pc.and_(
        pc.equal(pc.cast(parts.field("d"), pa.int64()), pc.day(stamps)),
        pc.equal(pc.cast(parts.field("m"), pa.int64()), pc.month(stamps)),
    )
    return stamps if pc.all(same).as_py() else None


def _try_cast(values: pa.Array, target: pa.DataType) -> pa.Array | None:
    # A cast that fails on its first values costs as much as a full pass: try a few first.
    try:
        pc.cast(values.slice(0, 32), target)
        return pc.cast(values, target)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


# ``12,90``, ``1.234,50``, and ``7`` or ``1.234`` beside them (the dot groups thousands there).
EUROPEAN_NUMBER = r"^\s*[-+]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?\s*$"
# The same with every dot grouping thousands as only a grouping dot can: after 1-999, never 0
# (``0.125`` is a decimal point's).
GROUPED_NUMBER = r"^\s*[-+]?([1-9]\d{0,2}(\.\d{3})+|\d+)(,\d+)?\s*$"


def _as_numbers(
    values: pa.Array, *, try_int: bool = True, decimal_comma: bool = False, grouping_dots: bool = False
) -> pa.Array | list[int] | None:
    """Integers (a list of Python ints when int64 cannot hold them), else decimals, else None
    when some value is not a number. With ``decimal_comma``, ``1.234,5`` and ``12,90`` are
    decimals too (Excel's CSV where the comma is the decimal mark: ``;`` between cells), and
    with ``grouping_dots`` (such a file whose rows showed decimal commas) ``1.250`` is 1250."""
    if try_int:
        numbers = _try_cast(values, pa.int64())
        if numbers is not None and not _hexadecimal(values):
            return numbers
    if grouping_dots and _holds(values, b".") and pc.all(pc.match_substring_regex(values, GROUPED_NUMBER)).as_py():
        # German Excel's ``1.250`` is 1250, not 1.25 as the float cast below would read it
        # (pandas' ``decimal=",", thousands="."``).
        return _european(values, try_int=try_int)
    numbers = _try_cast(values, pa.float64())
    if numbers is None:
        # pandas reads " 12.5" and "+3.5" as numbers too.
        numbers = _try_cast(pc.utf8_trim_whitespace(values), pa.float64())
    if numbers is None and decimal_comma and pc.all(pc.match_substring_regex(values, EUROPEAN_NUMBER)).as_py():
        return _european(values, try_int=False)
    if numbers is None:
        return None
    if pc.any(pc.is_nan(numbers)).as_py():
        # Arrow reads "NAN", "Nan" and "+nan" as not-a-number; pandas takes only its missing
        # markers ("NaN", "nan", ...) for that, and reads a column holding these as text.
        return None
    if try_int and pc.all(pc.equal(numbers, pc.floor(numbers))).as_py():
        # Whole numbers Arrow's integer cast refused: " 12" and "+3" are integers to pandas.
        # (Asked only here: copying every text column's cells to trim them cost 18 MB of peak.)
        whole = _try_cast(pc.replace_substring_regex(pc.utf8_trim_whitespace(values), r"^\+", ""), pa.int64())
        if whole is not None and not _hexadecimal(values):
            return whole
        exact = _big_integers(values, numbers)
        if exact is not None:
            return exact
    return numbers


def _european(values: pa.Array, *, try_int: bool) -> pa.Array | None:
    """Numbers written the European way (``1.234,5``: dots group thousands, a comma marks the
    decimals), as integers when none has a decimal comma and ``try_int``, else decimals."""
    plain = pc.replace_substring(pc.utf8_trim_whitespace(values), ".", "")
    if try_int and not _holds(plain, b","):
        whole = _try_cast(pc.replace_substring_regex(plain, r"^\+", ""), pa.int64())
        if whole is not None:
            return whole
    return _try_cast(pc.replace_substring(plain, ",", "."), pa.float64())


def _holds(values: pa.Array, needle: bytes) -> bool:
    """Whether ``needle`` occurs in the data of ``values`` (one memchr; may see bytes of the
    array's parent when it is a slice: a hint, for a check that follows)."""
    data = values.buffers()[2]
    return data is not None and data.to_pybytes().find(needle) >= 0


def _big_integers(values: pa.Array, floats: pa.Array) -> list[int] | None:
    """Whole numbers past int64 (ids of 20+ digits), read exactly as Python ints; None if some
    value is not written as an integer ("12.0", "1e30": decimals) or is past a float's range
    (its mean could not be taken). Only reached once Arrow's casts have taken every value for a
    whole number and int64 could not hold one of them: a float64 would print such an id with
    its last digits wrong."""
    if not pc.all(pc.is_finite(floats)).as_py():
        return None
    try:
        return [int(text) for text in values.to_pylist()]  # int() takes " 12" and "+3" as pandas does
    except ValueError:
        return None


def _hexadecimal(values: pa.Array) -> bool:
    """Whether some value is written ``0x..``: Arrow's integer cast reads "0x1F" as 31, but
    pandas (and a reader) take it for text: a colour, an address, a hash."""
    data = values.buffers()[2]
    if data is None:
        return False
    raw = data.to_pybytes()  # one memchr each, before any per-cell work: ids and counts pass fast
    if raw.find(b"x") < 0 and raw.find(b"X") < 0:
        return False
    return bool(pc.any(pc.match_substring(values, "0x", ignore_case=True)).as_py())


def _iso(stamp: object) -> str:
    text = stamp.isoformat(sep=" ")  # type: ignore[attr-defined]
    return text[:10] if text.endswith(" 00:00:00") else text


def _parse_iso(text: str) -> object:
    from datetime import datetime

    return datetime.fromisoformat(text)


@dataclass
class TableProfile:
    """Shape, columns and per-column figures of one table."""

    name: str
    columns: list[ColumnProfile]
    generated_header: bool = False
    rows: int = 0  # every data row, a total row included (row numbers count it)
    notes: tuple[str, ...] = ()
    total_row: bool = False  # the last row is the table's total, left out of the figures

    def heading(self) -> str:
        """The table's shape, a note when the column names were generated, and the reader's
        notes (:attr:`core.table_batch.OpenTable.notes`). The rows the figures cover are
        counted apart from a total row, which the columns' counts leave out too."""
        width = len(self.columns)
        rows = self.rows - self.total_row
        line = f"table {self.name}: {rows} row{'' if rows == 1 else 's'} x {width} column{'' if width == 1 else 's'}"
        if self.total_row:
            line += " and a total row"
        if self.generated_header:
            line += f"\nno header row in the source; columns named column_1 to column_{width}"
        return "\n".join([line, *self.notes])

    def body_lines(self) -> list[str]:
        """The column list (ten names a line, so a wide table's list can be split), then one
        line of figures per column."""
        named = [f"{c.name} ({c.kind})" for c in self.columns]
        listing = [
            ("columns: " if k == 0 else "more columns: ") + ", ".join(named[k : k + 10])
            for k in range(0, len(named), 10)
        ]
        return [*listing, *(_render_column(c) for c in self.columns)]

    def render(self) -> str:
        """The whole profile as plain text."""
        return "\n".join([self.heading(), *self.body_lines()])


def _render_column(col: ColumnProfile) -> str:
    head = f"- {col.name} ({col.kind}): {col.count} values, {col.missing} missing"
    kind = col.kind
    if kind in ("integer", "decimal"):
        return (
            f"{head}; min {_exact(col.min)}, max {_exact(col.max)}, "
            f"total (sum) {_exact(col.sum, 12)}, mean {_number(col.mean, 4)}"
        )
    if kind == "date":
        return f"{head}; from {col.first_date} to {col.last_date}"
    if kind == "empty":
        return head
    distinct = f"more than {DISTINCT_CAP}" if col.distinct_capped else str(col.distinct)
    if col.distinct_partial:
        distinct = f"~{distinct}"
    common = col.most_common()
    if not col.top_tracked:
        exact = not col.distinct_capped and not col.distinct_partial
        if exact and col.distinct == col.count:
            return f"{head}; {distinct} distinct (every value different)"
        return f"{head}; {distinct} distinct (mostly different values)"
    if common and common[0][1] > 1:
        mark = "" if col.top_exact else "~"
        shown = ", ".join(f"{_short(value)} ({mark}{count})" for value, count in common)
        # (A column that turned to text late was tallied from there: its earlier rows' values
        # could rank otherwise, so the list says which rows it counts.)
        among = f" from row {col.tallied_from:,} on" if col.distinct_partial else ""
        return f"{head}; {distinct} distinct; most common{among}: {shown}"
    return f"{head}; {distinct} distinct (every value different)"


def _exact(value: float | int | None, significant: int = 17) -> str:
    """A figure as its cells write it: the shortest digits that read back as the same number
    (``0.1512782``, not ``0.151278``), a sum's float noise cut at ``significant`` digits
    (``12345.67``, not ``12345.670000000002``)."""
    if value is None or isinstance(value, int) or math.isnan(value) or math.isinf(value):
        return _number(value)
    text = repr(float(f"{value:.{significant}g}")) if significant < 17 else repr(value)
    return text[:-2] if text.endswith(".0") else text


def _number(value: float | int | None, digits: int = 6) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    # ``digits`` decimal places, but never fewer significant digits: 0.0000012 stays itself
    # instead of rounding to 0.
    text = repr(round(value, digits) if abs(value) >= 1 else float(f"{value:.{digits}g}"))
    return text[:-2] if text.endswith(".0") else text


def _short(value: str, limit: int = 40) -> str:
    flat = " ".join(value.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


# A row summing the rows above it, by its label: "Total", "Grand total", German "Summe", French
# "Total général", Spanish "Total general" or "Suma", Portuguese "Total geral", Swedish "Summa"...
_TOTAL_LABEL = re.compile(
    r"(grand[ -]?|sub)?totals?|total (général|general|geral)|totaal|totale|sum|summe|summa|suma|somme"
    r"|gesamt|gesamtsumme|insgesamt",
    re.IGNORECASE,
)


def total_label(cells: list[str]) -> str | None:
    """The label of a row of ``cells`` that reads as a total of the rows above it (its first
    filled cell is ``Total``, ``Grand total``, ``Summe``..., maybe with a colon, and another
    cell holds its figure), else None. "Total Gym" names a product, not a sum."""
    filled = [c.strip() for c in cells if c.strip()]
    if len(filled) < 2 or not _TOTAL_LABEL.fullmatch(filled[0].rstrip(":").rstrip()):
        return None
    return filled[0]


class TableProfiler:
    """Folds row batches (one string array per column) into a :class:`TableProfile`.

    A table's last row that is its total (:func:`total_label`: an Excel sheet's ``Total`` row
    of ``=SUM(...)``) stays a row (``rows`` counts it, as row numbers do; the heading names it
    apart) but is not in the columns' figures, which it would double (a sum, a max), unless
    ``totals`` is False (a preview's first rows end nowhere)."""

    def __init__(
        self, name: str, columns: list[str], *, generated_header: bool = False, decimal_comma: bool = False,
        grouping_dots: bool = False, totals: bool = True,
    ) -> None:
        self.profile = TableProfile(
            name, [ColumnProfile(c, decimal_comma=decimal_comma, grouping_dots=grouping_dots) for c in columns],
            generated_header,
        )
        self.totals = totals
        self._held: list[pa.Array] | None = None  # a batch's last row that may be the table's total
        self._held_label = ""

    def finish(self, notes: tuple[str, ...] = ()) -> TableProfile:
        """The profile once every batch is folded in, with the notes found around the table
        (known only once its last row is read: notes under a sheet's table)."""
        if self._held is not None:
            self.profile.total_row = True
            notes = (
                *notes,
                f'note: the last row (data row {self.profile.rows}: "{_short(self._held_label)}") reads as the total of '
                "the rows above it: the figures leave it out",
            )
        self.profile.notes = notes
        return self.profile

    def add(self, columns: list[pa.Array], text_columns: frozenset[int] = frozenset()) -> None:
        """Fold one batch; every array holds the same rows. ``text_columns`` are those the file
        stores as text (:attr:`core.table_batch.RowBatch.text_columns`): they read as text.

        A batch whose last row reads as a total keeps that row back until the next batch shows
        it was not the table's last (one row's cells looked at per batch, never a loop over rows)."""
        if not columns:
            return
        for j in text_columns:
            self.profile.columns[j].stored_as_text()
        n = len(columns[0])
        self.profile.rows += n
        if self._held is not None:
            held, self._held = self._held, None
            self._fold(held)
        if self.totals and n and self.profile.rows > 1:
            label = total_label([col[n - 1].as_py() or "" for col in columns])
            if label is not None:
                self._held, self._held_label = [col.slice(n - 1) for col in columns], label
                columns = [col.slice(0, n - 1) for col in columns]
        self._fold(columns)

    def _fold(self, columns: list[pa.Array]) -> None:
        if not len(columns[0]):
            return
        for stats, col in zip(self.profile.columns, columns):
            stats.add(col)
