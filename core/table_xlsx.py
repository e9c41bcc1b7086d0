"""Reading an Excel workbook (.xlsx): every non-empty sheet is a table, named ``book.xlsx#Sheet``,
and each further table below a blank row of it one more, named by its header's cell
(``book.xlsx#Sheet!B9``), as is each table beside it past empty columns (``book.xlsx#Sheet!G1``:
:func:`_sheet_tables`).

Sheets are streamed with openpyxl's read-only mode (rows are parsed from the XML as they are
needed), using the values Excel last calculated for formulas. Cells become text the way Excel
shows them: integers as digits, other numbers with up to 15 significant digits, dates as ISO
8601 (``2024-03-31``, or ``2024-03-31 14:05:00`` with a time), durations in hours (``25:05:00``),
booleans as ``TRUE``/``FALSE``. A whole number under a number format of zeros shows its leading
zeros as Excel does (``02134`` under ``00000``, a ZIP code; ``000-00-0000`` too; a fraction keeps
its digits: Excel would round it). A cell stored as text with leading zeros (an id ``0007``), or
shown with them so, makes its column text in the profile, though it reads as a number.

A workbook has no source text, so its chunks use sheet coordinates: ``start_line``/``end_line``
are sheet row numbers, the byte span is 0/0, and ``text`` is the rows written as CSV. Empty rows
are skipped (they are not data rows); the table starts at the first non-empty row and at the
leftmost column used there.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from collections.abc import Iterator, Sequence
from datetime import date, datetime, time, timedelta
from itertools import islice, zip_longest
from typing import Any, BinaryIO

import pyarrow as pa

from core.errors import InputError
from core.sources import Limits, is_binary
from core.table_batch import (
    OpenTable, RowBatch, check_width, column_names, detect_header, looks_like_value, make_batch, reads_as_note,
    repeatable_header, repeats_note,
)  # fmt: skip
from core.table_sections import SectionRows, column_blocks, filled, title_rows, until_next_table

BATCH_ROWS = 20_000
MAX_UNCOMPRESSED = 2_000_000_000  # bytes of XML a workbook may expand to
# A sheet's XML deflates 5-15 times (one of 100,000 identical rows: 14): a member over a
# megabyte that expands more than MAX_RATIO times is a bomb (a 290 KB file of 98 MB of rows
# kept openpyxl parsing for half a minute). The zip uploads' limit.
MAX_RATIO = Limits.max_ratio
_BOMB_MIN_BYTES = 1_000_000
_HEADER_SAMPLE_ROWS = 50
# What openpyxl raises for a damaged workbook: missing parts, bad zip members, malformed XML
# (ElementTree's and lxml's parse errors are both SyntaxErrors).
# A shared-string index past the end raises IndexError; other damage AttributeError, OverflowError.
_BROKEN = (
    KeyError, IndexError, AttributeError, OverflowError, ZeroDivisionError, OSError, ValueError, TypeError,
    EOFError, SyntaxError, zipfile.BadZipFile,
)  # fmt: skip
MAX_SHEET_ROWS = 1_048_576  # Excel's limit: a row numbered past it is damage (or a trap)


def read_xlsx_tables(stream: BinaryIO, *, path: str, name: str, has_header: bool | None = None) -> Iterator[OpenTable]:
    """One :class:`OpenTable` per table of each non-empty sheet, in workbook order (a sheet's
    tables top to bottom, :func:`_sheet_tables`); a sheet of a header row
    alone is a table of no rows (``header_only``: its profile names its columns), when another
    sheet holds rows.

    Consume each table's ``batches`` before advancing. Raises :class:`InputError` when the
    file is not an .xlsx workbook (another zip, an old .xls, an encrypted file, ...) or when no
    sheet holds data.
    """
    _check_archive(stream, path)
    import openpyxl

    # Rows are parsed lazily, long after load_workbook returns: a date cell holding an
    # impossible serial warns then, on stderr. The values are read as they are either way.
    warnings.filterwarnings("ignore", category=UserWarning, module=r"openpyxl\.")

    with warnings.catch_warnings():
        # openpyxl warns about styles and extensions it ignores; none of that matters here.
        warnings.simplefilter("ignore")
        try:
            book = _load_workbook(stream)
        except _BROKEN as exc:
            raise InputError(f"{path}: not a readable .xlsx workbook ({_brief(exc)})") from None
    try:
        found = False
        # Sheets of a header alone wait for a sheet with rows: with one, they come as tables of
        # no rows (their profile names their columns, and says so); without, the file has no data.
        held: list[OpenTable] = []
        for sheet in book.worksheets:
            xml = _sheet_xml(stream, getattr(sheet, "_worksheet_path", ""))  # (read once for both)
            merges, blank = _merged_ranges(xml), _uncalculated_formulas(xml)
            del xml
            for table in _sheet_tables(sheet, path=path, name=f"{name}#{sheet.title}", has_header=has_header, merges=merges):
                state = getattr(sheet, "sheet_state", "visible")
                if state != "visible":
                    # Hidden sheets often hold lookups or a program's workings, not the report.
                    shown = "only a macro or a program shows it" if state == "veryHidden" else "Excel does not show it"
                    table.notes = (*table.notes, f"note: a hidden sheet ({shown})")
                if blank:
                    table.notes = (
                        *table.notes,
                        f"note: {blank:,}{'+' if blank >= _FORMULA_SCAN_CELLS else ''} formula cells have no "
                        "calculated value (saved by a program that does not calculate formulas): they read as "
                        "empty; open and save the workbook in Excel or LibreOffice to fill them",
                    )
                if table.header_only:
                    held.append(table)
                    continue
                found = True
                yield from held
                held = []
                yield table
        if not found:
            alone = f" (only a header row in {', '.join(repr(t.name.split('#', 1)[1]) for t in held)})" if held else ""
            raise InputError(f"{path}: no sheet holds data rows{alone}")
        yield from held
    finally:
        book.close()


_FORMULA_SCAN_BYTES = 4 << 20  # of a sheet's XML, from its top
_FORMULA_SCAN_CELLS = 10_000
_CELL = re.compile(rb"<(?:\w+:)?c\b[^>]*?(?:/>|>(.*?)</(?:\w+:)?c>)", re.DOTALL)
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")  # the tag, not text: inline strings are escaped
_VALUE = re.compile(rb"<(?:\w+:)?v>")  # a value, empty included (a formula whose result is "")


def _sheet_xml(stream: BinaryIO, member: str) -> bytes:
    """A sheet's XML as stored in the workbook, whole up to :data:`_MERGES_MAX_XML` bytes, else
    its first :data:`_FORMULA_SCAN_BYTES`; empty when it cannot be read here (the reader reports
    damage itself)."""
    if not member:
        return b""
    try:
        with zipfile.ZipFile(stream) as archive:
            whole = archive.getinfo(member).file_size <= _MERGES_MAX_XML
            with archive.open(member) as xml:
                return xml.read() if whole else xml.read(_FORMULA_SCAN_BYTES)
    except (KeyError, OSError, ValueError, zipfile.BadZipFile):
        return b""


def _uncalculated_formulas(xml: bytes) -> int:
    """Formula cells without a calculated value near the top of a sheet's ``xml`` (its first
    :data:`_FORMULA_SCAN_BYTES`, counted up to :data:`_FORMULA_SCAN_CELLS`). openpyxl, pandas
    and other writers store formulas without results; read for their values (``data_only``)
    such cells are empty, as if nothing were there."""
    head = xml[:_FORMULA_SCAN_BYTES]
    if not _FORMULA.search(head):
        return 0
    blank = 0
    for match in _CELL.finditer(head):
        body = match.group(1) or b""
        if _FORMULA.search(body) and not _VALUE.search(body):
            blank += 1
            if blank >= _FORMULA_SCAN_CELLS:
                break
    return blank


def _check_archive(stream: BinaryIO, path: str) -> None:
    try:
        with zipfile.ZipFile(stream) as archive:
            names = set(archive.namelist())
            total = sum(info.file_size for info in archive.infolist())
            bomb = next((info for info in archive.infolist() if _is_bomb(info)), None)
    except (zipfile.BadZipFile, OSError, ValueError):
        stream.seek(0)
        raise InputError(f"{path}: not an .xlsx workbook ({_not_zip(stream.read(4096))})") from None
    finally:
        stream.seek(0)
    if "xl/workbook.xml" not in names and "[Content_Types].xml" not in names:
        raise InputError(f"{path}: a zip archive but not an .xlsx workbook (no xl/workbook.xml)")
    if total > MAX_UNCOMPRESSED:
        raise InputError(f"{path}: the workbook expands to {total:,} bytes, over {MAX_UNCOMPRESSED:,}")
    if bomb is not None:
        raise InputError(
            f"{path}: {bomb.filename} expands {bomb.file_size // max(bomb.compress_size, 1):,} times "
            f"(to {bomb.file_size:,} bytes), past the {MAX_RATIO}x a sheet's XML reaches: a zip bomb, refused"
        )


def _not_zip(head: bytes) -> str:
    """What a workbook that is no zip archive is, from its first bytes."""
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return "an old Excel .xls or an encrypted workbook: save it as .xlsx or CSV"
    if head.startswith(b"PK"):
        return "a damaged zip archive: cut short or corrupted"
    if head and not is_binary(head):
        return "text: a CSV or TSV under this name? rename it .csv or .tsv"
    return "not a zip archive; an old .xls or an encrypted file?"


def _is_bomb(info: zipfile.ZipInfo) -> bool:
    """A big member that expands more than any workbook's XML does (a bomb)."""
    return info.file_size > _BOMB_MIN_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1)


def _load_workbook(stream: BinaryIO) -> Any:
    """The workbook, read-only, with cached values for formulas, and without its chart sheets:
    they hold no table, and openpyxl fails on one that holds no chart (an ``AttributeError``
    from its reader)."""
    from openpyxl.reader.excel import ExcelReader

    class _Reader(ExcelReader):  # type: ignore[misc]
        def read_chartsheet(self, sheet: Any, rel: Any) -> None:
            del sheet, rel  # not read

    reader = _Reader(stream, read_only=True, data_only=True)
    reader.read()
    return reader.wb


def _brief(exc: BaseException) -> str:
    """An exception's text, short (a KeyError's key without the quotes its text puts round it)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return (text or type(exc).__name__)[:120]


class StoredText(str):
    """A cell's text that the sheet stores as text (a string cell, not a number) and that a
    number would lose: the leading zeros of an id ``0007`` or a zip code ``02134``. It passes for
    the plain text it is; the reader tells the profile its column holds text
    (:func:`_text_columns`). Other numbers stored as text (``1234.5``: the export tools'
    "number stored as text") keep their figures, as ``pandas.read_excel`` reads them."""

    __slots__ = ()


# Text whose leading zeros a number would drop: ``0007``, ``-007``, `` 02134``.
_LEADING_ZEROS = re.compile(r"\s*[-+]?0\d")


def cell_text(value: Any) -> str:
    """A cell value as Excel displays it (see the module docstring); text that could read as a
    number comes as a :class:`StoredText`."""
    if value is None:
        return ""
    if isinstance(value, str):
        return StoredText(value) if _LEADING_ZEROS.match(value) else value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".15g")
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat(sep=" ")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return _duration(value)
    return str(value)


# A number format of zeros (``00000``: a ZIP code), or of groups of zeros (``000-00-0000``,
# ``000\-00\-0000`` as some writers escape the dash): a whole number is padded to its width.
_ZERO_FORMAT = re.compile(r"0+(?:\\?[- ]0+)*")


def zero_padded(value: int, code: str) -> str:
    """``value`` as Excel shows it under the zero format ``code`` (:data:`_ZERO_FORMAT`): its
    digits in the zeros from the right, the zeros left over shown; digits past them go before
    the first group (``1234567`` under ``00000`` stays ``1234567``)."""
    code = code.replace("\\", "")
    digits = str(abs(value)).zfill(code.count("0"))
    at = len(digits)
    shown = []
    for ch in reversed(code):
        if ch == "0":
            at -= 1
            shown.append(digits[at])
        else:
            shown.append(ch)
    return ("-" if value < 0 else "") + digits[:at] + "".join(reversed(shown))


def _padding_styles(book: Any) -> dict[int, str]:
    """The book's cell styles (by index) whose number format is a zero format of two zeros or
    more, and that format; {} when openpyxl keeps them under other names."""
    try:
        from openpyxl.styles.numbers import BUILTIN_FORMATS_MAX_SIZE

        styles, formats = book._cell_styles, list(book._number_formats)
    except (ImportError, AttributeError):  # pragma: no cover - openpyxl 3.1 has them
        return {}
    found = {}
    for index, style in enumerate(styles):
        custom = style.numFmtId - BUILTIN_FORMATS_MAX_SIZE
        if 0 <= custom < len(formats):
            code = formats[custom]
            if _ZERO_FORMAT.fullmatch(code) and code.count("0") > 1:
                found[index] = code
    return found


def _duration(value: timedelta) -> str:
    """A duration as Excel's ``[h]:mm:ss`` shows it, hours past 24 included (``25:05:00``, not
    Python's ``1 day, 1:05:00``), with the fraction of a second it holds."""
    micros = abs(value) // timedelta(microseconds=1)
    hours, rest = divmod(micros, 3_600_000_000)
    minutes, rest = divmod(rest, 60_000_000)
    seconds, rest = divmod(rest, 1_000_000)
    fraction = f".{rest:06d}".rstrip("0") if rest else ""
    return f"{'-' if value < timedelta(0) else ''}{hours}:{minutes:02d}:{seconds:02d}{fraction}"


MAX_SHEET_TABLES = 50  # tables read apart on one sheet (a sheet of thousands of little ones stays bounded)


def _sheet_tables(
    sheet: Any, *, path: str, name: str, has_header: bool | None, merges: Sequence[tuple[int, int, int, int]]
) -> Iterator[OpenTable]:
    """The tables of one sheet: those side by side left to right (column blocks, empty columns
    between them: :func:`core.table_sections.column_blocks`, judged on the sheet's first
    :data:`_HEADER_SAMPLE_ROWS` rows), each block's top to bottom (:func:`_block_tables`).

    The blocks are checked against the whole sheet first (:func:`_confirmed_blocks`, a pass of
    its own). The first block is read from the rows sampled and on; each further one from a
    pass of its own over the sheet (openpyxl parses it again, streamed: memory stays bounded,
    time grows by a pass a block), its rows cut to its columns, from its first to the next
    block's first. A block's first table is named by its header's
    cell, as a table below another is: ``book.xlsx#Sheet!G1``; a sheet of one block reads and
    names its tables exactly as before."""
    rows = _filled_rows(sheet, path, merges)
    sample = list(islice(rows, _HEADER_SAMPLE_ROWS))
    starts = column_blocks(sample, has_header=has_header)
    if len(starts) > 1:
        starts = _confirmed_blocks(_filled_rows(sheet, path, merges), sample, starts)
    found = 0
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else None
        block = _chain(sample, rows) if index == 0 else _filled_rows(sheet, path, merges)
        block_merges = merges
        if len(starts) > 1:
            block = _block_columns(block, start, end)
            block_merges = [m for m in merges if m[3] > start and (end is None or m[1] <= end)]
        # Each block after this one keeps room for a table (the sheet's MAX_SHEET_TABLES in all).
        limit = MAX_SHEET_TABLES - found - (len(starts) - index - 1)
        for table in _block_tables(sheet, block, path=path, name=name, has_header=has_header,
                                   merges=block_merges, anchored=index > 0, limit=limit):  # fmt: skip
            found += 1
            yield table


def _filled_rows(sheet: Any, path: str, merges: Sequence[tuple[int, int, int, int]]) -> Iterator[tuple[int, list[str]]]:
    """A sheet's non-empty rows (:func:`_sheet_rows`), merged cells filled (:func:`_fill_merges`)."""
    rows = _sheet_rows(sheet, path)
    return _fill_merges(rows, merges) if merges else rows


def _block_columns(rows: Iterator[tuple[int, list[str]]], start: int, end: int | None) -> Iterator[tuple[int, list[str]]]:
    """``rows`` cut to columns ``start`` up to ``end`` (0-based, ``end`` not included; None: on
    to the last), at their places (the columns left of ``start`` empty, so that cells keep
    their sheet columns); rows left empty are dropped, as empty sheet rows are."""
    pad = [""] * start
    for number, cells in rows:
        part = _trimmed(cells[start:end])
        if any(c.strip() for c in part):
            yield number, pad + part


def _confirmed_blocks(
    rows: Iterator[tuple[int, list[str]]], sample: list[tuple[int, list[str]]], starts: list[int]
) -> list[int]:
    """``starts`` (column blocks judged on the ``sample`` rows) checked against every row of the
    sheet, in one more streamed pass: a split stands where the columns between two blocks stay
    empty to the sheet's end, and where the two sides do not fill the very same rows (a table
    with an empty spacer column between column groups fills both sides of it in every row: one
    table, as before). A gap filled below the sampled rows (a wider table further down) undoes
    every split: the sheet reads as one grid, as before, rather than be refused."""
    ends = [*starts[1:], None]
    gaps = []  # per block but the last: the columns right of what its sampled rows fill
    for first, end in zip(starts[:-1], starts[1:]):
        used = [j for _, cells in sample for j, cell in enumerate(cells[first:end], first) if cell.strip()]
        gaps.append((max(used) + 1 if used else first, end))
    titled = title_rows(sample)
    above = titled[-1][0] if titled else 0  # a title over the sheet is no row of either side
    differ = [False] * len(gaps)
    for number, cells in rows:
        if any(c.strip() for a, b in gaps for c in cells[a:b]):
            return [0]
        if number <= above:
            continue
        sides = [any(c.strip() for c in cells[first:end]) for first, end in zip(starts, ends)]
        for i in range(len(gaps)):
            differ[i] = differ[i] or sides[i] != sides[i + 1]
    return [0, *(start for start, apart in zip(starts[1:], differ) if apart)]


def _block_tables(
    sheet: Any, rows: Iterator[tuple[int, list[str]]], *, path: str, name: str, has_header: bool | None,
    merges: Sequence[tuple[int, int, int, int]], anchored: bool, limit: int = MAX_SHEET_TABLES,
) -> Iterator[OpenTable]:  # fmt: skip
    """The tables of one column block of a sheet (its only one, as a rule), top to bottom: one,
    or more where a blank row is followed by a table of its own
    (:func:`core.table_sections.until_next_table`). Each after the first is named by the cell
    its header starts at: ``book.xlsx#Report!A8``, and so is the first when ``anchored`` (a
    block right of the sheet's first). A table whose rows were not all read when the next is
    asked for (a preview's first rows) ends the block: its rows are not read to find more.
    Past ``limit`` tables, the block's rows are the last's."""
    shared = SectionRows(rows)
    count = 0
    while True:
        shared.next_table = False
        last = count + 1 >= limit  # past it, the block's rows are this table's
        table = _open_sheet(sheet, shared if last else until_next_table(shared), path=path, name=name,
                            has_header=has_header, merges=merges, anchored=anchored or count > 0)  # fmt: skip
        if table is None:
            return
        if last and count and limit == MAX_SHEET_TABLES:
            table.notes = (*table.notes, f"note: the sheet's tables past its {MAX_SHEET_TABLES:,}th are read as rows of this one")
        elif last and limit < MAX_SHEET_TABLES:
            table.notes = (*table.notes, f"note: tables below this one are read as its rows (at most {MAX_SHEET_TABLES:,} tables a sheet)")
        yield table
        if not shared.next_table:
            return
        count += 1


def _open_sheet(
    sheet: Any, rows: Iterator[tuple[int, list[str]]], *, path: str, name: str, has_header: bool | None,
    merges: Sequence[tuple[int, int, int, int]] = (), anchored: bool = False,
) -> OpenTable | None:  # fmt: skip
    sample: list[tuple[int, list[str]]] = []
    for item in rows:
        sample.append(item)
        if len(sample) >= _HEADER_SAMPLE_ROWS:
            break
    if not sample:
        return None
    # (A sample shorter than asked for is the whole table; "no header": every row is data.)
    title = title_rows(sample, whole=len(sample) < _HEADER_SAMPLE_ROWS) if has_header is not False else []
    sample = sample[len(title) :]
    # The table's left edge: the leftmost column any of the top rows uses (rows of two cells or
    # more, when there are such: a note in column A beside a table from B is no column of it).
    wide = [cells for _, cells in sample if filled(cells) > 1]
    left = min(next(j for j, c in enumerate(cells) if c.strip()) for cells in wide or [cells for _, cells in sample])
    stacked = _header_rows(sample, merges) if has_header is not False else 1
    if stacked > 1:
        # A header over two or three rows, its upper cells merged across the lower (``Revenue``
        # over ``Q1 Q2 Q3``): one header row, ``Revenue Q1``.
        joined = [" ".join(dict.fromkeys(t for t in texts if t.strip())) for texts in zip_longest(*(c for _, c in sample[:stacked]), fillvalue="")]
        sample = [(sample[0][0], joined), *sample[stacked:]]
    cells_only = [cells[left:] for _, cells in sample]
    header = detect_header(cells_only) if has_header is None else has_header
    # A header with no data rows under it (of two names at least: a lone sentence is no header).
    header_only = bool(header) and len(sample) == 1 and filled(cells_only[0]) >= 2
    if header and len(sample) == 1 and not header_only:
        return None  # a sheet of a sentence: no table
    width = max(len(_trimmed(c)) for c in cells_only)
    check_width(f"{path}: sheet {sheet.title!r}", width)
    columns = column_names(cells_only[0] if header else None, width)
    first_row = sample[0][0]
    if anchored:
        name = f"{name}!{_column_letters(left + 1)}{first_row}"
    data = sample[1:] if header else sample
    notes = (_rows_note(title, "above the table read as its title", 200),) if title else ()
    if header_only:
        notes = (*notes, f"note: a header row (row {first_row}) and no data rows under it")
    if merges:
        notes = (*notes, f"note: merged cells ({len(merges):,}) read as their value in every row and column they cover"
                 + (f"; the header is rows {sample[0][0]}-{sample[0][0] + stacked - 1} joined" if stacked > 1 else ""))
    table = OpenTable(
        name=name,
        columns=columns,
        notes=notes,
        generated_header=not header,
        start_byte=0,
        start_line=first_row,
        header_line=first_row if header else None,
        encoding="utf-8",
        has_source_text=False,
        batches=iter(()),
        header_only=header_only,
    )
    if header_only:
        return table
    rows_of = _chain(data, rows)
    if header and stacked == 1:
        rows_of = _without_header_repeats(rows_of, cells_only[0], table, left=left)
    table.batches = _batches(
        _footnotes(rows_of, table, left=left, width=width),
        left=left, width=width, columns=columns, path=path, sheet=sheet.title, start=1,
    )  # fmt: skip
    return table


def _first_filled(cells: list[str]) -> str:
    """The text of the first of ``cells`` that holds something (stripped)."""
    return next(c.strip() for c in cells if c.strip())


def _rows_note(rows: list[tuple[int, list[str]]], where: str, limit: int) -> str:
    """A table note naming ``rows`` of a cell or two (a few: their sheet numbers) and their text."""
    lines = ", ".join(str(number) for number, _ in rows)
    text = " / ".join(_label_and_value([c.strip() for c in cells if c.strip()]) for _, cells in rows)
    return f"note: row{'s' if len(rows) > 1 else ''} {lines} {where}: {text[:limit]}"


def _label_and_value(filled: list[str]) -> str:
    """A title row's text: its cell, or ``label: value``."""
    if len(filled) == 2 and not filled[0].endswith(":"):
        return f"{filled[0]}: {filled[1]}"
    return " ".join(filled)


MAX_NOTE_ROWS = 3  # one-cell rows past this many after a blank row are data (names without phones), not notes


def _footnotes(rows: Iterator[tuple[int, list[str]]], table: OpenTable, *, left: int, width: int) -> Iterator[tuple[int, list[str]]]:
    """``rows`` less the notes under a sheet's table: up to :data:`MAX_NOTE_ROWS` rows at its end,
    after a blank row, that hold one cell reading as a note ("Source: ...", not a lone name:
    :func:`core.table_batch.reads_as_note`), and rows holding cells only left of its first
    column. They are no data (a note in a number column made it text); the table's notes name
    them, so the profile still says them."""
    held: list[tuple[int, list[str]]] = []
    previous = 0
    for number, cells in rows:
        inside = filled(cells[left:])
        outside = any(c.strip() for c in cells[:left])
        noted = width > 1 and (
            (outside and not inside) or (inside == 1 and (held or number > previous + 1) and reads_as_note(_first_filled(cells)))
        )
        previous = number
        if noted and len(held) < MAX_NOTE_ROWS:
            held.append((number, cells))
            continue
        yield from held  # more of the table follows: they were rows of it after all
        held.clear()
        yield number, cells
    if held:
        table.notes = (*table.notes, _rows_note(held, "below the table read as notes, not data", 300))


def _without_header_repeats(
    rows: Iterator[tuple[int, list[str]]], header: list[str], table: OpenTable, *, left: int
) -> Iterator[tuple[int, list[str]]]:
    """``rows`` less those that write the table's header again, cell for cell (sheets pasted one
    under the other, a header repeated for each printed page), which the table's notes name; only
    for a :func:`core.table_batch.repeatable_header`."""
    names = _trimmed(header)
    if not repeatable_header(names):
        yield from rows
        return
    repeated: list[int] = []
    for number, cells in rows:
        if _trimmed(cells[left:]) == names:
            repeated.append(number)
            continue
        yield number, cells
    if repeated:
        table.notes = (*table.notes, repeats_note(repeated, "row"))


def _chain(first: list[tuple[int, list[str]]], rest: Iterator[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    yield from first
    yield from rest


_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="\$?([A-Z]{1,3})\$?(\d+):\$?([A-Z]{1,3})\$?(\d+)"')
_MERGES_MAX_XML = 64 << 20  # bytes of a sheet's XML read for its merged cells (they end it)
_MERGES_MAX = 10_000


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _column_letters(number: int) -> str:
    """A 1-based column number as Excel names it (1: ``A``, 28: ``AB``)."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _merged_ranges(data: bytes) -> list[tuple[int, int, int, int]]:
    """A sheet's merged cells as (first row, first column, last row, last column), 1-based: a
    label merged down over the rows it heads (``North`` over three), a heading across its
    columns. openpyxl's read-only sheets do not report them; they close the sheet's XML
    (:func:`_sheet_xml`: none for a sheet too big to read whole)."""
    at = data.rfind(b"<mergeCells")
    if at < 0:
        at = data.rfind(b":mergeCells")
    if at < 0:
        return []
    found = []
    for match in _MERGE.finditer(data, at):
        first_col, first_row, last_col, last_row = match.groups()
        found.append((int(first_row), _column_number(first_col), int(last_row), _column_number(last_col)))
        if len(found) >= _MERGES_MAX:
            break
    return found


def _fill_merges(
    rows: Iterator[tuple[int, list[str]]], merges: Sequence[tuple[int, int, int, int]]
) -> Iterator[tuple[int, list[str]]]:
    """``rows`` with each merged range's cells holding its top-left value, as Excel shows it: a
    row chunk under a merged ``North`` says it is North's (it had an empty first cell). A range
    that is all its row holds (a report's title merged over the table's width, a section's
    label) is left one cell: a line of text, read as a title or a label is, not a row of the
    same value in every column (that made the title a table's header)."""
    starting: dict[int, list[tuple[int, int, int, int]]] = {}
    for merge in merges:
        starting.setdefault(merge[0], []).append(merge)
    open_ranges: list[tuple[int, int, int, int, str]] = []  # (last row, first col, last col, first row, value)
    for number, cells in rows:
        open_ranges = [r for r in open_ranges if r[0] >= number]
        here = starting.get(number, ())
        if len(here) == 1 and filled(cells) == 1 and here[0][1] - 1 < len(cells) and cells[here[0][1] - 1].strip():
            here = ()  # the row's one cell, merged: a title or a label
        for first_row, first_col, last_row, last_col in here:
            value = cells[first_col - 1] if first_col - 1 < len(cells) else ""
            if value:
                open_ranges.append((last_row, first_col, last_col, first_row, value))
        for last_row, first_col, last_col, first_row, value in open_ranges:
            if len(cells) < last_col:
                cells = cells + [""] * (last_col - len(cells))
            for j in range(first_col - 1, last_col):
                if not cells[j]:
                    cells[j] = value
        yield number, cells


_YEAR = re.compile(r"(19|20)\d\d")  # a year heading columns under a merged name (``Revenue`` over ``2023 2024``)


def _header_rows(sample: list[tuple[int, list[str]]], merges: Sequence[tuple[int, int, int, int]]) -> int:
    """How many sheet rows the header takes: more than one when a merged cell of its first row
    reaches down into the next (``Region`` over two rows beside ``Revenue`` over ``Q1 Q2 Q3``),
    or when its first row's cells merged across columns head the next row's names, and those are
    all that row holds (``Revenue`` over ``Q1 Q2``, ``Region`` and ``Units`` not merged down)."""
    if not sample or not merges:
        return 1
    top = sample[0][0]
    reach = max((last_row for first_row, _, last_row, _ in merges if first_row == top), default=top)
    stacked = 1
    while stacked < min(3, len(sample) - 1) and sample[stacked][0] <= reach:
        stacked += 1
    if stacked == 1 and len(sample) > 2 and sample[1][0] == top + 1:
        spans = [(first_col - 1, last_col) for first_row, first_col, _, last_col in merges if first_row == top and last_col > first_col]
        below = [j for j, cell in enumerate(sample[1][1]) if cell.strip()]
        names = [sample[1][1][j].strip() for j in below]
        if (
            spans
            and below
            and all(any(a <= j < b for a, b in spans) for j in below)
            and not any(looks_like_value(name) and not _YEAR.fullmatch(name) for name in names)
        ):
            stacked = 2
    return stacked


def _sheet_rows(sheet: Any, path: str) -> Iterator[tuple[int, list[str]]]:
    """(sheet row number, cells as text) of every non-empty row, trailing empty cells dropped.
    Rows must come in ascending order: a repeated or backward row number is damage, refused by
    name (openpyxl's own row iterator drops such rows without a word)."""
    rows = _stored_rows(sheet)
    previous = 0
    while True:
        try:
            number, values = next(rows)
        except StopIteration:
            return
        except _BROKEN as exc:  # the sheet's XML is parsed lazily, row by row
            raise InputError(f"{path}: sheet {sheet.title!r} is damaged ({_brief(exc)})") from None
        if number > MAX_SHEET_ROWS:
            raise InputError(
                f"{path}: sheet {sheet.title!r} is damaged (a row numbered past Excel's {MAX_SHEET_ROWS:,} rows)"
            )
        if number <= previous:
            raise InputError(
                f"{path}: sheet {sheet.title!r} is damaged (row {number:,} is stored after row {previous:,}; "
                "open and save the workbook in Excel or LibreOffice to put its rows in order)"
            )
        previous = number
        cells = _trimmed([cell_text(v) for v in values])
        if any(c.strip() for c in cells):
            yield number, cells


def _stored_rows(sheet: Any) -> Iterator[tuple[int, list[Any]]]:
    """(row number, cell values) of each row a sheet's XML stores, as stored: numbers skipped
    are not padded with empty rows (a stray ``<row r="99999999999">`` would have openpyxl count
    for hours), and a repeated or backward number is seen (its row iterator drops such rows).

    openpyxl's own sheet parser, the one its read-only rows come from; where its private names
    are missing (another openpyxl), its public rows, which see neither."""
    try:
        from openpyxl.worksheet._reader import WorkSheetParser

        book = sheet.parent
        options = {
            "data_only": book.data_only,
            "epoch": book.epoch,
            "date_formats": book._date_formats,
            "timedelta_formats": book._timedelta_formats,
        }
        source, shared = sheet._get_source, sheet._shared_strings
        padding = _padding_styles(book)
    except (ImportError, AttributeError):  # pragma: no cover - openpyxl 3.1 has them all
        if hasattr(sheet, "reset_dimensions"):
            sheet.reset_dimensions()  # rows as stored, not padded to the sheet's declared size
        yield from ((n, list(v)) for n, v in enumerate(sheet.iter_rows(min_row=1, values_only=True), start=1))
        return
    with source() as xml:
        for number, cells in WorkSheetParser(xml, shared, **options).parse():
            values: list[Any] = [None] * max((cell["column"] for cell in cells), default=0)
            for cell in cells:
                value = cell["value"]
                if padding and cell["style_id"] in padding and type(value) in (int, float) and value == value // 1:
                    value = zero_padded(int(value), padding[cell["style_id"]])  # (not inf, nan: inf // 1 is nan)
                values[cell["column"] - 1] = value
            yield number, values


def _text_columns(columns: list[tuple[str, ...]]) -> frozenset[int]:
    """The columns (0-based, of a batch's ``columns`` of cells) holding a cell the sheet stores
    as text though it reads as a number (:class:`StoredText`): ``0007`` is an id, not 7."""
    return frozenset(j for j, cells in enumerate(columns) if any(type(c) is StoredText for c in cells))


def _trimmed(cells: list[str]) -> list[str]:
    end = len(cells)
    while end and not cells[end - 1]:
        end -= 1
    return cells[:end]


def _batches(
    rows: Iterator[tuple[int, list[str]]], *, left: int, width: int, columns: tuple[str, ...],
    path: str, sheet: str, start: int,
) -> Iterator[RowBatch]:  # fmt: skip
    first_row = start
    block: list[list[str]] = []
    lines: list[int] = []

    def flush() -> RowBatch:
        cells = list(zip(*block))
        cols = [pa.array(col, type=pa.string()) for col in cells]
        zeros = [0] * len(block)
        return make_batch(cols, first_row, (zeros, zeros, lines, lines), [], text_columns=_text_columns(cells))

    for number, cells in rows:
        if any(c.strip() for c in cells[:left]):
            raise InputError(f"{path}: sheet {sheet!r} row {number}: cells left of the table's first column")
        cells = cells[left:]
        if len(cells) != width:
            if len(cells) > width:
                raise InputError(
                    f"{path}: sheet {sheet!r} row {number}: {len(cells)} cells in a table "
                    f"of {width} columns ({', '.join(columns[:5])}{', ...' if width > 5 else ''})"
                )
            # Trailing empty cells are not stored in a sheet: a short row is not ragged here.
            cells = cells + [""] * (width - len(cells))
        block.append(cells)
        lines.append(number)
        if len(block) >= BATCH_ROWS:
            yield flush()
            first_row += len(block)
            block, lines = [], []
    if block:
        yield flush()
