"""The vectorised paths of the CSV reader: a block of whole records parsed by Arrow, with every
row's byte and line span derived without a Python loop over rows.

Two ways, tried in order by :func:`parse_fast`; each gives up (returns None) rather than guess,
and the caller then uses the csv module (:mod:`core.table_csv`):

- *simple*: no quote and no CR in the block. If the rows' lengths (cells plus delimiters plus a
  newline each) add up to the block exactly, every line is one row (no blank lines) and the spans
  follow from the lengths alone.
- *scanned*: a newline ends a record unless an odd number of quote characters precede it (doubled
  quotes inside a cell keep the parity, so RFC 4180 files scan exactly). Every row's byte length
  must then equal its cells plus delimiters plus the quote characters that are not content, so a
  stray quote that fooled the scan is caught.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from core.table_batch import RowBatch, make_batch
from core.table_values import cell_lengths, int_values


def parse_fast(
    buf: bytes, *, base: int, base_line: int, final: bool, delimiter: str, quotechar: str, width: int, first_row: int
) -> tuple[RowBatch, int, int] | None:
    """Rows of ``buf`` by Arrow's parser with spans from a vectorised scan, how many bytes and
    line breaks they took, or None when the two disagree anywhere (the caller then takes the
    exact path)."""
    quote = quotechar.encode("ascii")
    if not final:
        cut = buf.rfind(b"\n") + 1
        if cut < len(buf) // 2:
            return None  # a long record: not a case for guessing
    else:
        cut = len(buf)
    where = {"base": base, "base_line": base_line, "width": width, "first_row": first_row}
    has_cr = buf.find(b"\r", 0, cut) >= 0
    if has_cr and buf.count(b"\r", 0, cut) != buf.count(b"\r\n", 0, cut):
        # A CR with no LF after it: Arrow ends a record there, the csv module may not (inside
        # quotes) or refuses the file (old Mac line ends): the exact path says which.
        return None
    if buf.find(quote, 0, cut) < 0 and not has_cr:
        simple = _parse_simple(buf, cut, delimiter=delimiter, quotechar=quotechar, **where)
        if simple is not None:
            return simple
    return _parse_scanned(buf, final=final, delimiter=delimiter, quotechar=quotechar, **where)


def _arrow_rows(data: memoryview, delimiter: str, quotechar: str, width: int, multiline: bool) -> list[pa.Array] | None:
    """Cells of ``data`` (whole records) as one string array per column, or None if Arrow
    refuses them (ragged rows, invalid UTF-8, ...)."""
    names = [f"c{j}" for j in range(width)]
    try:
        table = pacsv.read_csv(
            pa.py_buffer(data),
            # One block: a single array per column, and a record may be as long as the buffer.
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False, block_size=len(data) + 1),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter,
                quote_char=quotechar,
                double_quote=True,
                escape_char=False,
                newlines_in_values=multiline,
                ignore_empty_lines=True,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.string() for n in names},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    # (One block, so one chunk per column: take it as is; combine_chunks would copy it.)
    cols = [c.chunk(0) if c.num_chunks == 1 else c.combine_chunks() for c in table.columns]
    if width == 1 and pc.any(pc.utf8_is_space(cols[0])).as_py():
        return None  # whitespace-only lines: the exact path drops them as blank
    return cols


def _parse_simple(
    buf: bytes, cut: int, *, base: int, base_line: int, delimiter: str, quotechar: str, width: int, first_row: int
) -> tuple[RowBatch, int, int] | None:
    """No quote and no CR in the block: if the rows' lengths add up to the block exactly, every
    line is one row (no blank lines), and the spans follow from the lengths alone."""
    cols = _arrow_rows(memoryview(buf)[:cut], delimiter, quotechar, width, multiline=False)
    if cols is None or not len(cols[0]):
        return None
    lengths = width - 1 + sum(cell_lengths(col) for col in cols)
    ends = np.cumsum(lengths + 1) - 1  # where each row's newline is (or would be)
    # (The last row of a file may lack its newline.)
    if int(ends[-1]) != (cut - 1 if buf[cut - 1 : cut] == b"\n" else cut):
        return None
    stops = ends.astype(np.int64)
    starts = stops - lengths
    lines = base_line + np.arange(len(starts), dtype=np.int64)
    batch = RowBatch(
        columns=cols,
        first_row=first_row,
        start_byte=starts + base,
        end_byte=stops + base,
        start_line=lines,
        end_line=lines,
        ragged=np.zeros(len(starts), dtype=bool),
        raw=buf[:cut],
        raw_base=base,
        canonical_csv=delimiter == ",",
    )
    # One line per row, each ended by a line break but maybe the file's last.
    return batch, cut, len(starts) - (buf[cut - 1 : cut] != b"\n")


def _parse_scanned(
    buf: bytes, *, base: int, base_line: int, final: bool, delimiter: str, quotechar: str, width: int, first_row: int
) -> tuple[RowBatch, int, int] | None:
    """Record boundaries from newlines and quote parity, cells from Arrow, and every row's byte
    length checked against its cells."""
    data = np.frombuffer(buf, dtype=np.uint8)
    newlines = np.flatnonzero(data == 10)
    quotes = np.flatnonzero(data == ord(quotechar))
    # A newline ends a record unless an odd number of quotes precede it (it sits in a quoted
    # cell); doubled quotes inside a cell keep the parity, so RFC 4180 files scan exactly.
    if len(quotes):
        inside = (np.searchsorted(quotes, newlines) & 1).astype(bool)
        bounds = newlines[~inside]
        multiline = bool(inside.any())
    else:
        bounds, multiline = newlines, False
    if final:
        if len(quotes) & 1:
            return None  # an unclosed quote: let the exact path read it as Python's csv does
        cut = len(buf)
        ends = bounds if buf.endswith(b"\n") else np.append(bounds, len(buf))
    else:
        if not len(bounds) or bounds[-1] + 1 < len(buf) // 2:
            return None  # a long quoted stretch, or a stray quote: not a case for guessing
        cut = int(bounds[-1]) + 1
        ends = bounds
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
    stops = ends.astype(np.int64)
    if final and len(quotes) and len(starts):
        last = buf[int(starts[-1]) : cut]
        if quote_left_open(last.decode("utf-8", "replace"), delimiter, quotechar):
            return None  # a quote in an unquoted cell kept the parity even: ``1",``, then ``"`` opens
    has_cr = stops > starts
    has_cr[has_cr] = data[stops[has_cr] - 1] == 13
    stops = stops - has_cr
    keep = stops > starts
    starts, stops = starts[keep], stops[keep]
    if not len(starts):
        empty = [pa.array([], type=pa.string()) for _ in range(width)]
        return make_batch(empty, first_row, ([], [], [], []), [], buf[:cut], base), cut, int(np.searchsorted(newlines, cut))
    cols = _arrow_rows(memoryview(buf)[:cut], delimiter, quotechar, width, multiline)
    if cols is None or len(cols[0]) != len(starts):
        return None
    # Each row's bytes = its cells + delimiters + the quote characters that are not content.
    expected = width - 1 + sum(cell_lengths(col) for col in cols)
    if len(quotes):
        raw_quotes = np.searchsorted(quotes, stops) - np.searchsorted(quotes, starts)
        inner = sum(int_values(pc.count_substring(col, quotechar)) for col in cols)
        expected = expected + raw_quotes - inner
    if not np.array_equal(expected, stops - starts):
        return None
    start_line = base_line + np.searchsorted(newlines, starts)
    end_line = base_line + np.searchsorted(newlines, stops)
    batch = RowBatch(
        columns=cols,
        first_row=first_row,
        start_byte=starts + base,
        end_byte=stops + base,
        start_line=start_line.astype(np.int64),
        end_line=end_line.astype(np.int64),
        ragged=np.zeros(len(starts), dtype=bool),
        raw=buf[:cut],
        raw_base=base,
    )
    return batch, cut, int(np.searchsorted(newlines, cut))


def quote_left_open(record: str, delimiter: str, quote: str) -> bool:
    """Whether ``record`` (the file's last) ends inside a quoted cell: a quote that opens a
    cell and is never closed (a quote inside an unquoted cell is text, as the csv module reads it)."""
    if quote not in record:
        return False
    inside, at_start, i, n = False, True, 0, len(record)
    while i < n:
        ch = record[i]
        if inside:
            if ch == quote:
                if i + 1 < n and record[i + 1] == quote:
                    i += 1  # a doubled quote is one quote character of the cell
                else:
                    inside, at_start = False, False
        elif ch == quote and at_start:
            inside = True
        else:
            at_start = ch in (delimiter, "\n", "\r")
        i += 1
    return inside
