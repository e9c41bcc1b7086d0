"""Reading a CSV or TSV file as a stream of row batches with exact byte and line spans.

Steps:

1. Look at the first megabyte: refuse binary data, and HTML or JSON under a table's name;
   UTF-16/32 (:func:`core.tables.open_stream` hands such files over in their UTF-8 form); take
   UTF-8 (a BOM is skipped), else the Windows code page of Latin-script text
   (:func:`core.sources.latin_code_page`), else the encoding charset-normalizer finds (it must
   be ASCII-compatible, so that line breaks, quotes and delimiters are single bytes).
2. Pick the delimiter (``,`` ``;`` tab ``|``: the one that gives the most consistent row width;
   ``;`` over ``,`` when every comma is a decimal one; runs of spaces when none splits a table of
   numbers) and the double quote as quote character, set aside title lines above the table
   (named in the profile), then decide whether the first record is a header. A file read
   whole in that first megabyte may be a report of several tables, one below the other after
   blank lines (or lines of delimiters alone, ``,,,``): each is read as a table of its own
   (:func:`read_csv_tables`).
3. Stream the rest in blocks of about :data:`BLOCK_BYTES`, each cut at a record boundary, so
   memory stays bounded whatever the file's size. A UTF-8 block is first offered to the
   vectorised paths of :mod:`core.table_csv_fast` (Arrow's parser, spans from lengths or from a
   newline/quote scan, every row's length checked); when they decline (ragged rows, stray
   quotes, whitespace-only lines, bare CRs) or the file is in another encoding, the *exact path*
   reads it: Python's ``csv`` module fed line by line, which knows how many physical lines each
   record took. Both give the same rows.

Documented handling of odd input: blank and whitespace-only lines are not rows, nor are rows of
empty cells alone in a table of two columns or more (``,,``: Excel's rows formatted and left
empty), nor is the header written again, cell for cell (exports joined one under the other:
named in the profile's notes); a row shorter than the header is padded with empty cells (flagged
``ragged``); a row longer than the header is refused unless the extra cells are empty (trailing
delimiters), or unless every row is one cell longer (R's ``write.table``: the header has no cell
for the rows' names); a file using bare CR line ends (old Macs) is read with each CR as LF, byte
for byte, as source files are; an unclosed quote runs to the end of the file (as in Python's csv
module); a cell may hold up to :data:`MAX_CELL_CHARS` characters (the csv module's process-wide
field size limit is raised to that) and a record up to :data:`MAX_RECORD_BYTES` bytes.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, islice
from typing import BinaryIO, cast

import numpy as np
import pyarrow as pa

from core.errors import InputError
from core.sources import binary_table_message, damaged_utf8_line, is_binary, latin_code_page, nul_line
from core.table_batch import (
    OpenTable, RowBatch, check_width, column_names, detect_header, header_repeats, looks_like_value, make_batch,
    names_only, reads_as_note, repeats_note,
)  # fmt: skip
from core.table_csv_fast import parse_fast, quote_left_open
from core.table_profile import EUROPEAN_NUMBER
from core.table_sections import SectionRows, filled, until_next_table
from core.table_values import cell_lengths

BLOCK_BYTES = 2 << 20
SAMPLE_BYTES = 1 << 20
MAX_RECORD_BYTES = 64 << 20
MAX_CELL_CHARS = 16 << 20
_SNIFF_CHARS = 64 << 10
_HEADER_SAMPLE_ROWS = 50
_SEP_HINT = re.compile(rb"sep=([,;\t|:])[ \t]*(?:\r?\n|\Z)", re.IGNORECASE)
_BOMS = {
    b"\xef\xbb\xbf": None,
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


@dataclass(frozen=True)
class Dialect:
    """How the file is written: delimiter and quote character (quotes inside are doubled)."""

    delimiter: str = ","
    quotechar: str = '"'
    whitespace: bool = False  # cells apart by runs of spaces (R's and Fortran's number tables)

    def reader_options(self) -> dict[str, object]:
        """Keyword arguments for :func:`csv.reader`."""
        options: dict[str, object] = {"delimiter": self.delimiter, "quotechar": self.quotechar, "doublequote": True, "strict": False}
        if self.whitespace:
            options["skipinitialspace"] = True  # a run of spaces is one delimiter
        return options


@dataclass
class _Records:
    """Records parsed by the exact path, with absolute spans; ``consumed`` bytes of the buffer
    are done (the rest starts with a record that may continue in the next block)."""

    rows: list[list[str]]
    start_byte: list[int]
    end_byte: list[int]
    start_line: list[int]
    end_line: list[int]
    consumed: int


def read_csv_tables(
    stream: BinaryIO, *, path: str, name: str, language: str, has_header: bool | None = None, encoding: str | None = None
) -> Iterator[OpenTable]:
    """The tables of a CSV/TSV stream (their rows stream from ``stream`` as they are read);
    ``encoding`` (a codec name) overrides detection.

    One table, or, in a file of up to :data:`SAMPLE_BYTES`, one per section of a report where
    another table starts below blank lines or lines of delimiters alone (an analytics export's
    daily figures, then its totals, then users by device), by the rules a sheet's tables are told apart by
    (:func:`core.table_sections.until_next_table`), a section of one row allowed. Each table
    after the first is named by the line of its header: ``report.csv#L14``. Never with
    ``has_header=False`` (no row is a header, so none starts a table).

    Raises :class:`InputError` for binary data, undecodable text, an empty file or a file with
    a header and no data rows.
    """
    text = _open_text(stream, path=path, language=language, encoding=encoding)
    sections, capped = _sections(text) if text.eof and has_header is not False else ([], False)
    if len(sections) < 2:
        table = _open_table(text, name=name, has_header=has_header)
        del text  # (its first megabyte: not to be held while the rows stream)
        yield table
        return
    for k, (start, stop, line) in enumerate(sections):
        table = _open_table(text.section(start, stop, line), name=name, has_header=has_header)
        table.end_byte = stop
        if k:
            table.name = f"{name}#L{table.header_line or table.start_line}"
        if capped and k == len(sections) - 1:
            table.notes = (*table.notes, f"note: the file's tables after its first {MAX_SECTIONS:,} are read as rows of this one")
        yield table


def csv_encoding(stream: BinaryIO, *, path: str, language: str, encoding: str | None = None) -> str:
    """The encoding :func:`read_csv_tables` reads ``stream`` in, from its first megabyte alone."""
    return _open_text(stream, path=path, language=language, encoding=encoding).encoding


@dataclass(frozen=True)
class _Text:
    """A CSV file's text as far as it is read: its first bytes (``head``; all of it when
    ``eof``), where its records begin (``skip``, past a BOM and a ``sep=`` line, on line
    ``first_line``), its encoding and dialect, and the stream its rest comes from."""

    head: bytes
    eof: bool
    stream: BinaryIO
    bom: int
    skip: int
    first_line: int
    encoding: str
    dialect: Dialect
    path: str

    def section(self, start: int, stop: int, line: int) -> _Text:
        """The part of a whole file's text from byte ``start`` (on ``line``) to ``stop``."""
        return replace(self, head=self.head[:stop], eof=True, stream=io.BytesIO(), skip=start, first_line=line)


def _open_text(stream: BinaryIO, *, path: str, language: str, encoding: str | None) -> _Text:
    """Read the first megabyte: refuse binary data and markup, detect the encoding (unless
    given) and the dialect."""
    csv.field_size_limit(max(csv.field_size_limit(), MAX_CELL_CHARS))
    head = _read_at_least(stream, b"", SAMPLE_BYTES)
    eof = len(head) < SAMPLE_BYTES
    if not head.strip():
        raise InputError(f"{path}: empty file")
    # (An encoding given is used as given; only a UTF-8 byte order mark is then skipped.)
    bom = _check_bom(head, path) if encoding is None else 3 * head.startswith(b"\xef\xbb\xbf")
    if is_binary(head[bom : bom + 8192]):
        raise InputError(binary_table_message(path, language, head))
    _refuse_nul(head, 1, path)  # the header too (data blocks are checked as they stream)
    if b"\r" in head and b"\n" not in head:
        # Old Mac line ends: each CR is read as LF, byte for byte, so spans still index the file.
        head, stream = head.replace(b"\r", b"\n"), cast(BinaryIO, _CrAsLf(stream))
    encoding = _detect_encoding(head[bom:], eof, path) if encoding is None else _ascii_safe(encoding, path)
    hint = _SEP_HINT.match(head, bom)
    # Excel's "sep=;" first line names the delimiter; it is no row of the table.
    skip, first_line = (hint.end(), 2) if hint else (bom, 1)
    sample_end = len(head) if eof else head.rfind(b"\n") + 1
    sample_text = head[skip : max(sample_end, skip)].decode(encoding, errors="replace")
    _refuse_markup(sample_text, eof, path, language)
    dialect = Dialect(hint.group(1).decode("ascii"), '"') if hint else _sniff_dialect(sample_text[:_SNIFF_CHARS], language)
    return _Text(head, eof, stream, bom, skip, first_line, encoding, dialect, path)


MAX_SECTIONS = 50  # tables read apart in one file (as on a sheet)


def _blank_line(delimiter: str) -> re.Pattern[bytes]:
    """A blank line with more text after it, or a line of delimiters alone (``,,,``: the empty
    row Excel saves between a report's tables), which is no row either; such lines at the end
    (rows Excel once formatted) have no text after them."""
    d = re.escape(delimiter.encode("ascii"))
    return re.compile(rb"\n[ \t\r" + d + rb"]*\n[\s" + d + rb"]*[^\s" + d + rb"]")


def _no_row(cells: list[str]) -> bool:
    """A record of empty cells alone (``,,``), which reads as no row (:func:`_without_empty_rows`)."""
    return len(cells) >= 2 and not any(cells)


def _sections(text: _Text) -> tuple[list[tuple[int, int, int]], bool]:
    """A whole file's sections that are tables of their own, as (start byte, stop byte, first
    line), fewer than two when it is one table; and whether more than :data:`MAX_SECTIONS`
    were found (the rest are the last one's rows). A section is kept apart only when the one
    above it holds two records of two cells or more (a header and a row): a header alone over
    blank lines is no table."""
    body = text.head[text.skip :]
    if not _blank_line(text.dialect.delimiter).search(body):
        return [], False  # no blank line between records: one table (and no parse spent on it)
    try:
        recs = _parse_exact(body, base=text.skip, base_line=text.first_line, final=True, encoding=text.encoding,
                            dialect=text.dialect, path=text.path)  # fmt: skip
    except InputError:
        return [], False  # the table's own reading says what is wrong
    # Records as a grid's rows: consecutive numbers, but a gap where blank lines are between,
    # or lines of delimiters alone (no rows either).
    index: dict[int, int] = {}  # row number: record
    at, last_line = 0, None
    for i, (line, cells) in enumerate(zip(recs.start_line, recs.rows)):
        if _no_row(cells):
            continue
        at += 1 if last_line is None or line <= last_line + 1 else 2
        index[at], last_line = i, recs.end_line[i]
    rows = SectionRows(iter([(number, recs.rows[i]) for number, i in index.items()]))
    firsts, capped = [0], False
    while True:
        rows.next_table = False
        taken = [index[number] for number, _ in until_next_table(rows, min_rows=1)]
        if not rows.next_table:
            break
        if sum(1 for i in taken if filled(recs.rows[i]) >= 2) < 2:
            continue  # a header alone is no table: its rows go on with the next table's
        if len(firsts) == MAX_SECTIONS:
            capped = True
            break
        following = next(rows)  # (the next table's first row: past the empty records, if any)
        rows.put_back([following])
        firsts.append(index[following[0]])
    stops = [recs.start_byte[i] for i in firsts[1:]] + [len(text.head)]
    return [(recs.start_byte[i], stop, recs.start_line[i]) for i, stop in zip(firsts, stops)], capped


def _open_table(text: _Text, *, name: str, has_header: bool | None) -> OpenTable:
    """The table whose records begin at ``text.skip``: its title lines, header, width, and its
    rows streaming."""
    head, eof, stream, path = text.head, text.eof, text.stream, text.path
    skip, first_line, encoding, dialect, bom = text.skip, text.first_line, text.encoding, text.dialect, text.bom
    # Parse the top of the table to find the header and the first data row; grow the sample
    # while not even one record is complete (huge first cells).
    look = skip + _SNIFF_CHARS
    while True:
        final = eof and look >= len(head)
        top = head[skip:look]
        recs = _parse_exact(top, base=skip, base_line=first_line, final=final, encoding=encoding, dialect=dialect, path=path)
        if recs.rows or final:
            break
        if look > MAX_RECORD_BYTES:
            raise InputError(f"{path}: the first record is over {MAX_RECORD_BYTES:,} bytes (an unclosed quote?)")
        look = skip + 2 * (look - skip)
        if look > len(head) and not eof:
            more = stream.read(look - len(head))
            eof = not more
            head += more
    if not recs.rows:
        raise InputError(f"{path}: empty table (only blank lines)")
    table_start, table_line = recs.start_byte[0], recs.start_line[0]
    titles = _title_records(recs.rows, whole=final)
    notes: tuple[str, ...] = ()
    if titles:
        title = " / ".join(" ".join(" ".join(row).split()) for row in recs.rows[:titles] if any(c.strip() for c in row))
        lines = ", ".join(str(line) for line in recs.start_line[:titles])
        notes = (f"note: line{'s' if titles > 1 else ''} {lines} above the table read as its title: {title[:200]}",)
        for kept in (recs.rows, recs.start_byte, recs.end_byte, recs.start_line, recs.end_line):
            del kept[:titles]
    sample = recs.rows[:_HEADER_SAMPLE_ROWS]
    header = detect_header(sample) if has_header is None else has_header
    if header and len(recs.rows) == 1 and final:
        raise InputError(f"{path}: only a header row, no data rows")
    # With a header, it sets the width (wider rows are an error below, unless the extra cells
    # are empty); without one, the widest of the top rows does.
    width = len(sample[0]) if header else max(len(r) for r in sample)
    names = sample[0]
    if header and len(sample) > 1 and all(len(r) == width + 1 for r in sample[1:]):
        # R's write.table: every row starts with its name, which the header has no cell for.
        width, names = width + 1, ["", *names]
    check_width(path, width)
    columns = column_names(names if header else None, width)
    data_start = recs.end_byte[0] if header else recs.start_byte[0]
    data_line = recs.end_line[0] + 1 if header else recs.start_line[0]
    if header:
        # Past the header's line break (CRLF or LF), where the data rows begin.
        data_start = head.index(b"\n", data_start) + 1 if b"\n" in head[data_start:] else len(head)
    table = OpenTable(
        name=name,
        columns=columns,
        generated_header=not header,
        start_byte=table_start,  # (its title lines too: the profile's span holds what it names)
        start_line=table_line,
        header_line=recs.start_line[0] if header else None,
        encoding=encoding,
        has_source_text=True,
        batches=iter(()),
        text_start=bom,
        notes=notes,
        decimal_comma=dialect.delimiter == ";",
        # Only where the table's first rows show a decimal comma: pandas' ``to_csv(sep=";")``
        # writes 52.517 for a latitude, a decimal point.
        grouping_dots=dialect.delimiter == ";" and _decimal_comma_cells(recs.rows[1:] if header else recs.rows),
    )
    table.batches = _stream_batches(
        stream,
        head[data_start:],
        eof=eof,
        base=data_start,
        base_line=data_line,
        encoding=encoding,
        dialect=dialect,
        width=width,
        columns=columns,
        path=path,
        has_header=header,
        header_line=recs.start_line[0] if header else None,
        table=table,
        header=names if header else None,
    )
    return table


def _title_records(rows: list[list[str]], *, whole: bool = False) -> int:
    """How many records at the top are a title above the table, not its header nor its data (a
    report's name, an export's ``# units: EUR`` line, Excel's ``Sales 2023,,,`` and ``,,,``):
    up to :data:`MAX_TITLE_RECORDS` of one cell of words (or none: a blank record) or a label and
    its value (``Source:,ONS``), when a record of two or more cells follows them and one more
    after it, or, when ``rows`` are the ``whole`` table, a last record of column names (an empty
    report: a header alone, refused as such). A lone word or a value is a row's first cell, not
    a title (a table of names whose first rows have no phone numbers yet)."""
    count = 0
    while count < len(rows) and _title_like(rows[count]):
        count += 1
        if count > MAX_TITLE_RECORDS:
            return 0  # more than a title: a sheet of notes, not to be guessed at
    rest = rows[count:]
    titled = any(c.strip() for row in rows[:count] for c in row)
    if not count or not titled or not rest or sum(1 for c in rest[0] if c.strip()) < 2:
        return 0
    if len(rest) == 1 and not (whole and names_only(rest[0])):
        return 0
    return count


def _title_like(row: list[str]) -> bool:
    filled = [c.strip() for c in row if c.strip()]
    if len(filled) == 2 and filled[0].endswith(":"):
        return True  # a label and its value
    return len(filled) <= 1 and not any(looks_like_value(c) or not reads_as_note(c) for c in filled)


MAX_TITLE_RECORDS = 10  # a BLS export has eight lines of series facts above its header


_MARKUP = re.compile(r"\s*<(!doctype\s+html|html|\?xml|table|head|body|div)\b", re.IGNORECASE)


def _refuse_markup(text: str, eof: bool, path: str, language: str) -> None:
    """:class:`InputError` for an HTML or XML page, or JSON, saved under a table's name (a
    download that came back as a web page): it read as a table of one column of markup."""
    what = None
    if _MARKUP.match(text):
        what = "HTML or XML"
    elif eof and text.lstrip()[:1] in ("{", "[") and text.rstrip()[-1:] in ("}", "]"):
        try:
            json.loads(text)
            what = "JSON"
        except ValueError:
            pass
    if what is not None:
        raise InputError(f"{path}: {what}, not a .{language} table (a web page or an API's answer saved under this name?)")


class _CrAsLf:
    """A stream of a file with bare CR line ends, read with LF in their place."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        return self._stream.read(size).replace(b"\r", b"\n")


def _read_at_least(stream: BinaryIO, buf: bytes, size: int) -> bytes:
    while len(buf) < size:
        more = stream.read(size - len(buf))
        if not more:
            break
        buf += more
    return buf


def _check_bom(head: bytes, path: str) -> int:
    for mark, wide in _BOMS.items():
        if head.startswith(mark):
            if wide is not None:
                raise InputError(f"{path}: {wide} text; save the table as UTF-8 CSV")
            return len(mark)
    return 0


def _detect_encoding(head: bytes, eof: bool, path: str) -> str:
    text_part = head if eof else head[: head.rfind(b"\n") + 1] or head
    try:
        text_part.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if not eof and exc.start >= len(text_part) - 4 and exc.reason == "unexpected end of data":
            return "utf-8"  # a character cut by the sample's end
    damaged = damaged_utf8_line(text_part)
    if damaged is not None:
        raise InputError(
            f"{path}: line {damaged}: bytes that are not valid UTF-8 in a file otherwise written in UTF-8; "
            "fix that line or save the file as UTF-8 again"
        )
    latin = latin_code_page(head)  # Excel's "CSV" on Windows, as source files are read
    if latin is not None:
        return latin
    from charset_normalizer import from_bytes

    best = from_bytes(head).best()
    if best is None or best.encoding is None:
        raise InputError(f"{path}: not valid UTF-8 and no text encoding fits; save it as UTF-8")
    return _ascii_safe(best.encoding, path)


def _ascii_safe(encoding: str, path: str) -> str:
    """``encoding`` when it writes line breaks, quotes and delimiters as ASCII's single bytes, as
    the reader needs, else :class:`InputError`."""
    probe = 'a,;\t|"\n\r'
    try:
        ascii_safe = probe.encode(encoding) == probe.encode("ascii")
    except (LookupError, UnicodeEncodeError):
        ascii_safe = False
    if not ascii_safe:
        raise InputError(f"{path}: {encoding} text is not supported; save the table as UTF-8")
    return encoding


def _sniff_dialect(sample: str, language: str) -> Dialect:
    """The delimiter giving the most consistent row width (ties: tab first for TSV, comma
    first otherwise); the double quote as quote character."""
    candidates = ("\t", ",", ";", "|") if language == "tsv" else (",", "\t", ";", "|")
    best: tuple[tuple[float, int], str] | None = None
    scores: dict[str, tuple[float, int]] = {}
    for delimiter in candidates:
        try:
            rows = [r for r in islice(csv.reader(io.StringIO(sample, newline="\n"), delimiter=delimiter), 100) if r]
        except csv.Error:
            continue
        complete = rows[:-1] if len(rows) > 1 else rows  # the sample may cut the last row
        if not complete:
            continue
        width, agree = Counter(len(r) for r in complete).most_common(1)[0]
        if width < 2:
            continue
        score = scores[delimiter] = (agree / len(complete), width)
        if best is None or score > best[0]:
            best = (score, delimiter)
    if best is not None and best[1] == "," and scores.get(";", (0.0, 0))[0] == best[0][0] and _decimal_commas(sample):
        # Every comma between digits, and semicolons as consistent: European numbers (``1,5;2,25``),
        # which split at the commas made more columns.
        best = (scores[";"], ";")
    if best is None and language != "tsv" and _space_delimited(sample):
        return Dialect(" ", '"', whitespace=True)
    if language == "tsv" and (best is None or "\t" not in sample):
        delimiter = "\t"  # one column: a TSV's cells may hold commas (they do not make columns)
    else:
        delimiter = best[1] if best else candidates[0]
    # The quote character is the double quote, as in RFC 4180, Excel and pandas: the sniffer's
    # guess of "'" in a file without double quotes read "Guns N' Roses" as a quoted cell and
    # merged rows.
    # Spaces after a delimiter are kept as cell text (as pandas and the csv module do by
    # default): the sniffer's guess at "skip initial space" misreads cells that are a space.
    return Dialect(delimiter, '"')


def _space_delimited(sample: str) -> bool:
    """Whether a sample that no delimiter splits is a table of cells apart by runs of spaces
    (``5 162 60``; sklearn's linnerud, statsmodels' results; a report's columns lined up,
    ``OSLO     12.5  94``): its lines split into as many words nearly always, and either half of
    the words are numbers or quoted (R's ``write.table`` quotes its strings), or the lines are
    lined up, two spaces or more between their words (a list of two-word names, one space
    apart, is one column)."""
    lines = list(islice((x.strip() for x in sample.splitlines() if x.strip()), 101))
    try:  # (a quoted cell may hold spaces: ``1 2.5 "a b"``)
        rows = [[c for c in row if c] for row in csv.reader(lines, delimiter=" ", skipinitialspace=True)]
    except csv.Error:
        return False
    complete = rows[:-1] if len(rows) > 1 else rows
    if not complete:
        return False
    # (The width is the rows' under the first line: R's ``write.table`` writes a header one
    # cell short of rows that start with their names, which in a file of three rows was a third
    # of the lines "disagreeing".)
    body = complete[1:] or complete
    width, agree = Counter(len(r) for r in body).most_common(1)[0]
    if body is not complete and len(complete[0]) in (width, width - 1):
        agree += 1
    if width < 2 or agree * 10 < len(complete) * 9:
        return False
    cells = sum(map(len, complete))
    values = sum(looks_like_value(c) for r in complete for c in r)
    quoted = sum(len(_QUOTED_WORD.findall(line)) for line in lines[: len(complete)])
    if (values + quoted) * 2 >= cells:
        return True
    # Lined up, any cell may be text, so it must hold no space: its line splits into as many
    # cells at runs of two spaces as at every space, the header's too (else "Ada Lovelace  London"
    # read as four cells under three names, the names shifted one place as R's header is).
    kept = lines[: len(complete)]
    lined_up = sum(1 for line in kept if _LINED_UP.search(line))
    whole = all(len(_WIDE_GAP.split(line)) == len(row) for line, row in zip(kept, complete))
    return whole and len(complete[0]) == width and lined_up * 10 >= len(complete) * 9


_LINED_UP = re.compile(r"\S {2,}\S")
_WIDE_GAP = re.compile(r"\s{2,}|\t")
_QUOTED_WORD = re.compile(r'(?:^|(?<= ))"[^"]*"(?= |$)')


_COMMA = re.compile(r",")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")


def _decimal_commas(sample: str) -> bool:
    """Whether every comma of ``sample`` stands between two digits."""
    commas = len(_COMMA.findall(sample))
    return bool(commas) and len(_DECIMAL_COMMA.findall(sample)) == commas


_EUROPEAN = re.compile(EUROPEAN_NUMBER)


def _decimal_comma_cells(rows: Sequence[Sequence[str]]) -> bool:
    """Whether some cell of ``rows`` is a number written with a decimal comma (``12,90``,
    ``1.234,50``, as the profile reads one): then the file's dots group thousands (``1.250``
    is 1250)."""
    return any("," in cell and _EUROPEAN.match(cell) for row in rows for cell in row)


# --- the stream of batches ------------------------------------------------------------------


def _stream_batches(
    stream: BinaryIO,
    buf: bytes,
    *,
    eof: bool,
    base: int,
    base_line: int,
    encoding: str,
    dialect: Dialect,
    width: int,
    columns: tuple[str, ...],
    path: str,
    has_header: bool,
    header_line: int | None = None,
    table: OpenTable | None = None,
    header: Sequence[str] | None = None,
) -> Iterator[RowBatch]:
    """The rows of a table, a block at a time. Rows that are no rows are left out: empty cells
    alone (``,,``), and ``header`` written again (exports joined one under the other), which
    ``table``'s notes then name."""
    row = 1
    repeated: list[int] = []  # lines of the header written again
    swallowed: list[int] = []  # lines of rows whose quoted cells hold what reads as rows
    looked = 0  # rows of several lines looked into for them
    want = BLOCK_BYTES
    while True:
        if not eof and len(buf) < want:
            grown = _read_at_least(stream, buf, want)
            eof = len(grown) < want
            buf = grown
        if not buf:
            break
        batch, consumed, breaks = _parse_block(
            buf, base=base, base_line=base_line, final=eof, encoding=encoding,
            dialect=dialect, width=width, columns=columns, first_row=row, path=path, header_line=header_line,
        )  # fmt: skip
        if consumed == 0 and not eof:
            # One record is longer than the buffer: read more before parsing again.
            if len(buf) > MAX_RECORD_BYTES:
                raise InputError(
                    f"{path}: line {base_line}: a record over {MAX_RECORD_BYTES:,} bytes (an unclosed quote?)"
                )
            want = len(buf) * 2
            continue
        want = BLOCK_BYTES
        if len(batch) and int((batch.end_byte - batch.start_byte).max()) > MAX_CELL_CHARS:
            _check_cells(batch, path)  # (as the exact path's csv module does: Arrow reads any size)
        if len(batch) and width > 1:
            batch = _without_empty_rows(batch)
        if len(batch) and header is not None:
            again = header_repeats(batch, header)
            if again is not None:
                repeated.extend(int(n) for n in batch.start_line[again])
                batch = batch.kept(~again)
        if len(batch):
            if width > 1 and len(swallowed) <= _SWALLOWED_SHOWN and looked < _SWALLOWED_CHECKED:
                found, seen = _rows_in_cells(batch, width, dialect.delimiter, _SWALLOWED_CHECKED - looked)
                swallowed += found
                looked += seen
            row += len(batch)
            yield batch
        base_line += buf.count(b"\n", 0, consumed) if breaks is None else breaks
        base += consumed
        buf = buf[consumed:]
        if eof and not buf:
            break
    if repeated and table is not None:
        table.notes = (*table.notes, repeats_note(repeated, "line"))
    if swallowed and table is not None:
        shown = ", ".join(f"{n:,}" for n in swallowed[:_SWALLOWED_SHOWN])
        table.notes = (
            *table.notes,
            f"note: a quoted cell holds lines shaped as rows of this table (line{'s' if len(swallowed) > 1 else ''} "
            f"{shown}{', ...' if len(swallowed) > _SWALLOWED_SHOWN else ''}): a stray quote may have joined rows "
            "into one cell",
        )
    if row == 1:
        what = "only a header row, no data rows" if has_header else "no data rows"
        raise InputError(f"{path}: {what}")


def _check_cells(batch: RowBatch, path: str) -> None:
    """:class:`InputError` for a cell of ``batch`` over :data:`MAX_CELL_CHARS` characters."""
    for col in batch.columns:
        over = np.flatnonzero(cell_lengths(col) > MAX_CELL_CHARS)  # (bytes: at least its characters)
        for i in over:
            if len(col[int(i)].as_py()) > MAX_CELL_CHARS:
                line = int(batch.start_line[i])
                raise InputError(f"{path}: line {line}: a cell over {MAX_CELL_CHARS:,} characters")


_SWALLOWED_SHOWN = 5
_SWALLOWED_CHECKED = 1_000  # rows of several lines a table's are looked into (an address book has many)


def _rows_in_cells(batch: RowBatch, width: int, delimiter: str, most: int) -> tuple[list[int], int]:
    """The first lines of ``batch``'s rows with a quoted cell over several lines each of which
    splits as a row of the table does (``2,"b`` then ``3,c`` and ``4,d"``: a quote never meant
    to open a cell took the rows below into it), and how many rows were looked into: its rows
    of several lines, ``most`` of them at most."""
    several = np.flatnonzero(batch.end_line > batch.start_line)[:most]
    found: list[int] = []
    for i in several:
        for col in batch.columns:
            cell = col[int(i)].as_py()
            if cell and "\n" in cell:
                inner = [line for line in cell.split("\n")[1:] if line.strip()]
                if inner and all(line.count(delimiter) == width - 1 for line in inner):
                    found.append(int(batch.start_line[i]))
                    break
    return found, len(several)


def _without_empty_rows(batch: RowBatch) -> RowBatch:
    """``batch`` less its rows of empty cells alone (``,,``: Excel saves rows it once formatted
    under a table so), which are no rows, as a blank line or an empty sheet row is none. From
    the cells' lengths, a column at a time: most batches are done after their first column."""
    empty = cell_lengths(batch.columns[0]) == 0
    for col in batch.columns[1:]:
        if not empty.any():
            return batch
        empty &= cell_lengths(col) == 0
    return batch.kept(~empty) if empty.any() else batch


def _parse_block(
    buf: bytes, *, base: int, base_line: int, final: bool, encoding: str, dialect: Dialect,
    width: int, columns: tuple[str, ...], first_row: int, path: str, header_line: int | None = None,
) -> tuple[RowBatch, int, int | None]:  # fmt: skip
    """Rows of ``buf`` up to its last complete record, how many bytes that took and how many
    line breaks they held (None when not counted). A NUL byte anywhere is refused: text has
    none, so the file is binary or damaged from there on (the first 8 KB were checked whole)."""
    _refuse_nul(buf, base_line, path)
    if encoding == "utf-8" and not dialect.whitespace:
        fast = parse_fast(
            buf, base=base, base_line=base_line, final=final, delimiter=dialect.delimiter,
            quotechar=dialect.quotechar, width=width, first_row=first_row,
        )  # fmt: skip
        if fast is not None:
            return fast
    recs = _parse_exact(buf, base=base, base_line=base_line, final=final, encoding=encoding, dialect=dialect, path=path)
    cols, ragged = _to_columns(recs, width, columns, path, header_line)
    spans = (recs.start_byte, recs.end_byte, recs.start_line, recs.end_line)
    return make_batch(cols, first_row, spans, ragged, buf[: recs.consumed], base), recs.consumed, None


def _refuse_nul(buf: bytes, base_line: int, path: str) -> None:
    """:class:`InputError` for a NUL in ``buf`` (whose first line is ``base_line``), by line."""
    line = nul_line(buf)
    if line is not None:
        line += base_line - 1
        raise InputError(f"{path}: line {line}: a NUL byte, so binary data, not a table (a damaged or truncated file?)")


def _parse_exact(
    buf: bytes, *, base: int, base_line: int, final: bool, encoding: str, dialect: Dialect, path: str
) -> _Records:
    """Records of ``buf`` by Python's csv module; unless ``final``, the last record is held back
    (it may continue past the buffer)."""
    work = buf if final else buf[: buf.rfind(b"\n") + 1]
    try:
        text = work.decode(encoding)
    except UnicodeDecodeError as exc:
        line = base_line + work.count(b"\n", 0, exc.start)
        raise InputError(
            f"{path}: line {line}: bytes that are not valid {encoding} ({exc.reason}); save the file as UTF-8"
        ) from None
    # Start of every physical line, relative to the buffer (csv.reader counts lines for us).
    offsets = [0, *accumulate(len(piece) + 1 for piece in work.split(b"\n"))]
    lines: Iterator[str] = io.StringIO(text, newline="\n")
    if dialect.whitespace:
        lines = map(_trim_spaces, lines)  # (one line for one: the csv module still counts them)
    reader = csv.reader(lines, **dialect.reader_options())  # type: ignore[arg-type]
    rows: list[list[str]] = []
    first: list[int] = []
    last: list[int] = []
    prev = 0
    try:
        for row in reader:
            num = reader.line_num
            if not row or _whitespace_line(row, work, offsets[prev], offsets[num] - 1, num - prev):
                prev = num  # a blank or whitespace-only line is no row
                continue
            rows.append(row)
            first.append(prev)
            last.append(num)
            prev = num
    except csv.Error as exc:
        line = base_line + max(reader.line_num - 1, 0)  # line_num counts the line it failed on
        if "new-line character" in str(exc):
            raise InputError(f"{path}: line {line}: bare CR line ends; save the file with LF or CRLF line ends") from None
        if "field larger" in str(exc):
            raise InputError(f"{path}: line {line}: a cell over {MAX_CELL_CHARS:,} characters") from None
        raise InputError(f"{path}: line {line}: {exc}") from None
    if final and rows:
        # The csv module reads a quote left open at the end of the file as one cell holding
        # every line after it (the last line's newline included): say so rather than hand
        # back that row.
        span = work[offsets[first[-1]] :]
        if quote_left_open(span.decode(encoding), dialect.delimiter, dialect.quotechar):
            lines = last[-1] - first[-1]
            runs = f", {lines} lines" if lines > 1 else ""
            raise InputError(
                f"{path}: line {base_line + first[-1]}: a quoted cell is never closed (it runs to the end of "
                f"the file{runs}); close its quote or remove it"
            )
    consumed = len(work)
    if not final and rows:
        consumed = offsets[first[-1]]
        rows.pop()
        first.pop()
        last.pop()
    starts = [base + offsets[k] for k in first]
    ends = []
    for s, k in zip(first, last):
        end = offsets[k] - 1
        if end > offsets[s] and work[end - 1 : end] == b"\r":
            end -= 1
        ends.append(base + min(end, len(work)))
    return _Records(
        rows, starts, ends, [base_line + k for k in first], [base_line + k - 1 for k in last], consumed
    )


def _trim_spaces(line: str) -> str:
    """A line of a space-delimited table without the spaces around its cells (they would read
    as empty cells), its line break kept."""
    body = line.rstrip("\r\n")
    return body.strip(" \t") + line[len(body) :]


def _whitespace_line(row: list[str], work: bytes, start: int, stop: int, lines: int) -> bool:
    """A one-cell record of one physical line holding only whitespace (no quotes either: a
    quoted empty cell is a row)."""
    return len(row) == 1 and lines == 1 and not row[0].strip() and not work[start:stop].strip()


def _to_columns(
    recs: _Records, width: int, columns: tuple[str, ...], path: str, header_line: int | None = None
) -> tuple[list[pa.Array], list[int]]:
    ragged = []
    rows = recs.rows
    for k, row in enumerate(rows):
        if len(row) == width:
            continue
        if len(row) > width:
            if any(cell.strip() for cell in row[width:]):
                # (A header narrower than the rows is often a title or notes above the table.)
                wide = header_line is not None and len(row) >= 2 * width
                origin = f"; its header is line {header_line}: is there more above the table?" if wide else ""
                raise InputError(
                    f"{path}: line {recs.start_line[k]}: {len(row)} cells in a table of {width} columns "
                    f"({', '.join(columns[:5])}{', ...' if width > 5 else ''}){origin}"
                )
            rows[k] = row[:width]  # trailing empty cells (a delimiter at the line end)
        else:
            rows[k] = row + [""] * (width - len(row))
        ragged.append(k)
    if not rows:
        return [pa.array([], type=pa.string()) for _ in range(width)], ragged
    return [pa.array(col, type=pa.string()) for col in zip(*rows)], ragged
