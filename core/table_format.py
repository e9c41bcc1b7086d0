"""Serialising table rows for embedding: CSV lines, a Markdown table, or ``column: value`` records.

Rows are serialised a whole column at a time with Arrow's string kernels (a million rows cost
well under a second), and every format has a parser that reads its own output back to the same
cells, so a chunk's ``embed_text`` never loses or alters a value.

Escaping, per format:

- ``csv``: RFC 4180 quoting with ``,`` and ``"``: a cell holding a comma, a double quote, a CR or
  a LF is quoted and its quotes doubled; a one-column row whose cell is empty is written ``""``
  (a bare empty line would read back as no row at all).
- ``markdown``: ``| a | b |`` rows under ``| h1 | h2 |`` and ``| --- | --- |``. Inside a cell a
  backslash is written ``\\\\``, a pipe ``\\|``, a CR ``\\r``, a line break ``<br>`` and a literal
  ``<br>`` ``\\<br>``.
- ``records``: one line per row, ``name: value; name: value``; empty cells are left out (the
  header line lists every column). A backslash is ``\\\\``, ``;`` is ``\\;``, a LF ``\\n`` and a
  CR ``\\r``; names also escape ``:`` as ``\\:``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from core.errors import SettingsError
from core.settings import TABLE_FORMATS
from core.table_values import cell_lengths

# Arrow's replace kernels take literal patterns; these are applied in order (backslash first, so
# the escapes added later are not escaped again).
_MD_STEPS = (("\\", "\\\\"), ("|", "\\|"), ("\r", "\\r"), ("<br>", "\\<br>"), ("\n", "<br>"))
_MD_SPECIAL = r"[\\|\r\n]|<br>"
_MD_CHARS = (b"\\", b"|", b"\r", b"\n", b"<br>")
_REC_VALUE_STEPS = (("\\", "\\\\"), (";", "\\;"), ("\n", "\\n"), ("\r", "\\r"))
_REC_NAME_STEPS = (*_REC_VALUE_STEPS, (":", "\\:"))
_REC_SPECIAL = r"[\\;\r\n]"
_REC_CHARS = (b"\\", b";", b"\r", b"\n")
_CSV_SPECIAL = r'[,"\r\n]'
_CSV_CHARS = (b",", b'"', b"\r", b"\n")


def check_format(fmt: str) -> None:
    """Raise :class:`SettingsError` for a format that is not one of ``TABLE_FORMATS``."""
    if fmt not in TABLE_FORMATS:
        raise SettingsError(f"unknown table format {fmt!r}; expected one of: {', '.join(TABLE_FORMATS)}")


# --- one header, in Python ---------------------------------------------------------------------


def serialise_header(columns: Sequence[str], fmt: str) -> str:
    """The header as it stands above the rows of every chunk, in ``fmt``."""
    check_format(fmt)
    if fmt == "csv":
        return _csv_line(columns)
    if fmt == "markdown":
        head = "| " + " | ".join(_apply(name, _MD_STEPS) for name in columns) + " |"
        return head + "\n|" + " --- |" * len(columns)
    return "columns: " + "; ".join(_apply(name, _REC_NAME_STEPS) for name in columns)


def serialise_rows_py(rows: Sequence[Sequence[str]], columns: Sequence[str], fmt: str) -> list[str]:
    """Rows serialised one by one in Python (small inputs; same output as :func:`serialise_rows`)."""
    check_format(fmt)
    if fmt == "csv":
        return [_csv_line(row) for row in rows]
    if fmt == "markdown":
        return ["| " + " | ".join(_apply(cell, _MD_STEPS) for cell in row) + " |" for row in rows]
    names = [_apply(name, _REC_NAME_STEPS) for name in columns]
    return ["; ".join(f"{n}: {_apply(c, _REC_VALUE_STEPS)}" for n, c in zip(names, row) if c) for row in rows]


def _csv_line(cells: Sequence[str]) -> str:
    # Not csv.writer: with "\n" line ends it leaves a lone CR unquoted, which reads back wrong.
    line = ",".join(_csv_cell(cell) for cell in cells)
    return '""' if line == "" and len(cells) == 1 else line


def _csv_cell(cell: str) -> str:
    if any(char in cell for char in ',"\r\n'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _apply(text: str, steps: Sequence[tuple[str, str]]) -> str:
    for old, new in steps:
        if old in text:
            text = text.replace(old, new)
    return text


# --- whole columns, in Arrow --------------------------------------------------------------------


def serialise_rows(columns: Sequence[pa.Array], names: Sequence[str], fmt: str) -> pa.Array:
    """One string per row: the cells of ``columns`` (equal-length string arrays) in ``fmt``."""
    check_format(fmt)
    if not columns:
        raise SettingsError("a table needs at least one column")
    if fmt == "csv":
        cells = [_csv_cells(col, single=len(columns) == 1) for col in columns]
        return _join(cells, ",")
    if fmt == "markdown":
        cells = [_escape(col, _MD_SPECIAL, _MD_STEPS, _MD_CHARS) for col in columns]
        return pc.binary_join_element_wise("| ", _join(cells, " | "), " |", "")
    # One join of labels and values: a column without empty cells is its label (a scalar) and
    # its values; one with empty cells becomes a piece that is empty where the cell is.
    pieces: list[pa.Array | str] = []
    for col, name in zip(columns, names):
        label = "; " + _apply(name, _REC_NAME_STEPS) + ": "
        values = _escape(col, _REC_SPECIAL, _REC_VALUE_STEPS, _REC_CHARS)
        if len(col) and cell_lengths(col).min() == 0:
            pieces.append(pc.if_else(pc.equal(col, ""), "", pc.binary_join_element_wise(label, values, "")))
        else:
            pieces.extend([label, values])
    # Every non-empty row starts with the separator "; "; drop it.
    return pc.utf8_slice_codeunits(pc.binary_join_element_wise(*pieces, ""), start=2)


def _join(arrays: Sequence[pa.Array], sep: str) -> pa.Array:
    if len(arrays) == 1:
        return arrays[0]
    return pc.binary_join_element_wise(*arrays, sep)


def _may_hold(col: pa.Array, needles: Sequence[bytes]) -> bool:
    """Cheap pre-check: could any cell hold one of ``needles``? (A byte search over the column's
    whole value buffer is far faster than a regex kernel; false positives only cost time.)"""
    data = col.buffers()[-1]
    if data is None:
        return False
    raw = data.to_pybytes()
    return any(needle in raw for needle in needles)


def _escape(col: pa.Array, special: str, steps: Sequence[tuple[str, str]], needles: Sequence[bytes]) -> pa.Array:
    if not _may_hold(col, needles) or not pc.any(pc.match_substring_regex(col, special)).as_py():
        return col
    for old, new in steps:
        col = pc.replace_substring(col, old, new)
    return col


def _csv_cells(col: pa.Array, *, single: bool) -> pa.Array:
    needs = pc.match_substring_regex(col, _CSV_SPECIAL) if _may_hold(col, _CSV_CHARS) else None
    if needs is not None and pc.any(needs).as_py():
        quoted = pc.binary_join_element_wise('"', pc.replace_substring(col, '"', '""'), '"', "")
        col = pc.if_else(needs, quoted, col)
    if single:
        col = pc.if_else(pc.equal(col, ""), '""', col)
    return col


class JoinedRows:
    """Serialised rows held as one UTF-8 buffer, so a run of rows is one slice, not a join.

    ``text(i, j)`` is rows ``i..j-1`` joined by newlines, exactly ``"\\n".join(rows[i:j])``.
    """

    def __init__(self, rows: pa.Array) -> None:
        with_newline = pc.binary_join_element_wise(rows, "\n", "")
        if not isinstance(with_newline, pa.LargeStringArray):
            with_newline = with_newline.cast(pa.large_string())
        _, offsets, data = with_newline.buffers()
        start = with_newline.offset
        self._offsets = np.frombuffer(offsets, dtype=np.int64)[start : start + len(with_newline) + 1]
        self._data = memoryview(data) if data is not None else memoryview(b"")
        self._ascii = bool(pc.all(pc.string_is_ascii(rows)).as_py()) if len(rows) else True

    def text(self, i: int, j: int) -> str:
        """Rows ``i`` to ``j - 1`` joined by newlines (no trailing newline)."""
        if j <= i:
            return ""
        a, b = int(self._offsets[i]), int(self._offsets[j]) - 1
        return str(self._data[a:b], "ascii" if self._ascii else "utf-8")

    def texts(self, first: np.ndarray, stop: np.ndarray) -> list[str]:
        """:meth:`text` of many runs of rows at once: rows ``first[k]..stop[k]-1``."""
        starts = self._offsets[first].tolist()
        ends = (self._offsets[stop] - 1).tolist()
        data = self._data
        if self._ascii and len(first) > 1:
            whole = str(data[starts[0] : max(ends)], "ascii")
            base = starts[0]
            return ["" if b <= a else whole[a - base : b - base] for a, b in zip(starts, ends)]
        codec = "ascii" if self._ascii else "utf-8"
        return ["" if b <= a else str(data[a:b], codec) for a, b in zip(starts, ends)]

    def byte_lengths(self) -> np.ndarray:
        """UTF-8 length of each row without its newline (chars too, when ``is_ascii``)."""
        return np.diff(self._offsets) - 1

    @property
    def is_ascii(self) -> bool:
        """True when every row is ASCII (then byte lengths are character counts)."""
        return self._ascii


# --- reading serialised rows back ----------------------------------------------------------------


def parse_rows(text: str, columns: Sequence[str], fmt: str) -> list[list[str]]:
    """Cells of serialised rows (``text`` without the header), the inverse of :func:`serialise_rows`."""
    check_format(fmt)
    if fmt == "csv":
        return [row for row in csv.reader(io.StringIO(text, newline=""))]
    lines = text.split("\n")
    if fmt == "markdown":
        return [_parse_markdown_line(line, len(columns)) for line in lines]
    return [_parse_record_line(line, columns) for line in lines]


def _parse_markdown_line(line: str, width: int) -> list[str]:
    if not (line.startswith("| ") and line.endswith(" |")):
        raise ValueError(f"not a markdown table row: {line[:80]!r}")
    pieces = _split_unescaped(line[2:-2], "|")
    cells = []
    for k, piece in enumerate(pieces):
        if k > 0:
            piece = piece[1:]  # the space after the separating pipe
        if k < len(pieces) - 1:
            piece = piece[:-1]  # the space before it
        cells.append(_unescape(piece, {"r": "\r"}, br=True))
    if len(cells) != width:
        raise ValueError(f"{len(cells)} cells in a {width}-column row: {line[:80]!r}")
    return cells


def _parse_record_line(line: str, columns: Sequence[str]) -> list[str]:
    values = dict.fromkeys(columns, "")
    if not line:
        return list(values.values())
    for k, field in enumerate(_split_unescaped(line, ";")):
        if k > 0:
            field = field[1:]  # the space after "; "
        name_part, value_part = _split_unescaped(field, ":", maxsplit=1)
        name = _unescape(name_part, {"n": "\n", "r": "\r"})
        if name not in values:
            raise ValueError(f"unknown column {name!r} in record {line[:80]!r}")
        values[name] = _unescape(value_part[1:], {"n": "\n", "r": "\r"})
    return list(values.values())


def _split_unescaped(text: str, sep: str, maxsplit: int = -1) -> list[str]:
    """Split at ``sep`` where it is not escaped by a backslash; escapes are kept for later."""
    pieces: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            current.append(text[i : i + 2])
            i += 2
            continue
        if char == sep and (maxsplit < 0 or len(pieces) < maxsplit):
            pieces.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    pieces.append("".join(current))
    return pieces


_ESCAPE = re.compile(r"\\(.)|<br>", re.DOTALL)


def _unescape(text: str, named: dict[str, str], *, br: bool = False) -> str:
    def replace(match: re.Match[str]) -> str:
        escaped = match.group(1)
        if escaped is None:
            return "\n" if br else match.group(0)
        return named.get(escaped, escaped)

    return _ESCAPE.sub(replace, text)
