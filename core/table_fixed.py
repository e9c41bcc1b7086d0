"""The naive baseline for tables: the raw text cut into fixed windows, no header repetition.

This is :func:`core.fixed.chunk_fixed` run over the table's text, so the app can show side by
side what plain windows do to a table: rows cut in two, and every window after the first
without the column names. Windows are annotated so :mod:`core.table_metrics` can count that
damage: ``row_start``/``row_end`` are the data rows a window touches, ``columns`` the table's
columns, flags ``split_row_start``/``split_row_end`` mark a first/last row cut by the window's
edge, and ``symbol`` is the table's name.

CSV/TSV: the file is windowed in blocks of about :data:`BLOCK_BYTES` (each block restarts at
the last window of the one before, which gives the same windows as one pass over the whole
text), so memory stays bounded; spans index the file's bytes and lines as for table chunks. A
file of several tables (a report's sections) is windowed table by table, as a workbook's
tables are: each from its first line (the first from the file's start) to the next's.
XLSX: each sheet is written as CSV (header, then each row on the line of its sheet row number
while no cell holds a line break) and that text is windowed; spans index that text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import BinaryIO

import numpy as np

from core.builder import Prepared
from core.chunk import Chunk, chunk_id
from core.document import Document
from core.errors import InputError
from core.fixed import chunk_fixed
from core.settings import ChunkSettings
from core.sources import SourceFile
from core.table_batch import OpenTable
from core.table_format import serialise_header, serialise_rows_py

BLOCK_BYTES = 4 << 20
MAX_BLOCK_BYTES = 256 << 20


def iter_fixed_table_chunks(source: SourceFile, settings: ChunkSettings, *, has_header: bool | None = None) -> Iterator[Chunk]:
    """Fixed windows over every table of ``source`` (see the module docstring)."""
    from core.tables import open_stream, open_tables

    with open_tables(source, has_header=has_header) as tables:
        for k, table in enumerate(tables):
            if table.has_source_text:
                starts, ends = _row_spans(table)
                begin, line = (table.text_start, 1) if k == 0 else (table.start_byte, table.start_line)
                with open_stream(source) as stream:
                    yield from _file_windows(stream, table, source, settings, starts, ends, begin=begin, line=line)
            else:
                yield from _sheet_windows(table, source, settings)


def _row_spans(table: OpenTable) -> tuple[np.ndarray, np.ndarray]:
    """Byte spans of every data row (16 bytes a row; the cells themselves are dropped)."""
    starts, ends = [], []
    for batch in table.batches:
        starts.append(batch.start_byte)
        ends.append(batch.end_byte)
    if not starts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(starts), np.concatenate(ends)


def _file_windows(
    stream: BinaryIO, table: OpenTable, source: SourceFile, settings: ChunkSettings, starts: np.ndarray, ends: np.ndarray,
    *, begin: int, line: int,
) -> Iterator[Chunk]:  # fmt: skip
    """Windows over the file's text from byte ``begin`` (the start of line ``line``; past a
    byte order mark, which is no text) to the table's ``end_byte`` or the file's end."""
    read = stream.read
    read(begin)
    base, base_line = begin, line
    stop = table.end_byte
    buf = b""
    want = BLOCK_BYTES
    eof = False
    while True:
        while not eof and len(buf) < want:
            size = want - len(buf) if stop is None else min(want - len(buf), stop - base - len(buf))
            more = read(size) if size > 0 else b""
            eof = not more
            buf += more
        cut = len(buf) if eof else buf.rfind(b"\n") + 1
        if cut == 0 and not eof:
            want = _grow(want, source.path)
            continue
        work = buf[:cut]
        try:
            text = work.decode(table.encoding)
        except UnicodeDecodeError:
            raise InputError(f"{source.path}: bytes that are not valid {table.encoding}") from None
        doc = Document.from_text(source.path, source.language, text)
        windows = chunk_fixed(Prepared(doc), settings)
        if not eof and len(windows) < 2:
            want = _grow(want, source.path)
            continue
        keep = windows if eof else windows[:-1]
        offsets = _RawOffsets(doc, table.encoding)
        for window in keep:
            a = base + offsets.raw(window.start_byte)
            b = base + offsets.raw(window.end_byte)
            lines = (base_line + window.start_line - 1, base_line + window.end_line - 1)
            yield _annotated(window, table, a, b, lines, starts, ends)
        if eof:
            break
        # Restart at the last window: from its start the next block windows exactly as one
        # pass over the whole text would.
        restart = offsets.raw(windows[-1].start_byte)
        base_line += buf.count(b"\n", 0, restart)
        base += restart
        buf = buf[restart:]
        want = BLOCK_BYTES


def _grow(want: int, path: str) -> int:
    if want >= MAX_BLOCK_BYTES:
        raise InputError(f"{path}: one fixed window is over {MAX_BLOCK_BYTES:,} bytes; use a smaller budget")
    return want * 2


class _RawOffsets:
    """Maps UTF-8 offsets of the decoded text back to the file's bytes (identity for UTF-8;
    for other encodings, re-encodes only the stretch between consecutive lookups)."""

    def __init__(self, doc: Document, encoding: str) -> None:
        self.doc = doc
        self.text = doc.text
        self.encoding = encoding
        self.identity = doc.is_ascii or encoding.replace("-", "").replace("_", "").lower() == "utf8"
        self.last = (0, 0)  # (char, raw byte)

    def raw(self, utf8_offset: int) -> int:
        """File byte offset of ``utf8_offset`` in the decoded text."""
        if self.identity:
            return utf8_offset
        char = self.doc.char_of_byte(utf8_offset)
        last_char, last_raw = self.last
        if char >= last_char:
            raw = last_raw + len(self.text[last_char:char].encode(self.encoding))
        else:
            raw = last_raw - len(self.text[char:last_char].encode(self.encoding))
        self.last = (char, raw)
        return raw


def _annotated(
    window: Chunk, table: OpenTable, a: int, b: int, lines: tuple[int, int], starts: np.ndarray, ends: np.ndarray
) -> Chunk:
    """``window`` moved to file offsets, with the rows it touches and the rows it cuts."""
    first = int(np.searchsorted(ends, a, side="right"))  # first row ending after a
    last = int(np.searchsorted(starts, b, side="left")) - 1  # last row starting before b
    flags = set(window.flags)
    row_start = row_end = None
    if first <= last:
        row_start, row_end = first + 1, last + 1
        if starts[first] < a:
            flags.add("split_row_start")
        if ends[last] > b:
            flags.add("split_row_end")
    final_flags = tuple(sorted(flags))
    # Rows, lines and flags are in the id as well as the span: an index keeps a chunk whose id
    # it has, so a window whose rows moved (an edit of the same length before it) needs a new id.
    ident = chunk_id(
        window.path, "fixed", window.kind, table.name, window.part, window.parts, a, b,
        f"rows {row_start}-{row_end} lines {lines[0]}-{lines[1]} {','.join(final_flags)}", window.embed_text,
    )  # fmt: skip
    return replace(
        window,
        id=ident,
        symbol=table.name,
        start_byte=a,
        end_byte=b,
        start_line=lines[0],
        end_line=lines[1],
        row_start=row_start,
        row_end=row_end,
        columns=table.columns,
        flags=final_flags,
    )


def _sheet_windows(table: OpenTable, source: SourceFile, settings: ChunkSettings) -> Iterator[Chunk]:
    lines: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    offset = 0

    def put(line: str, at_line: int) -> int:
        """Append ``line`` (on line ``at_line`` when it is still ahead); returns its offset."""
        nonlocal offset
        while len(lines) + 1 < at_line:  # blank lines keep sheet rows on their own line numbers
            lines.append("")
            offset += 1
        begin = offset
        lines.append(line)
        offset += len(line.encode("utf-8")) + 1
        return begin

    if table.header_line is not None:
        put(serialise_header(table.columns, "csv"), table.header_line)
    for batch in table.batches:
        cells = [col.to_pylist() for col in batch.columns]
        for k, row in enumerate(serialise_rows_py(list(zip(*cells)), table.columns, "csv")):
            starts.append(put(row, int(batch.start_line[k])))
            ends.append(offset - 1)
    text = "\n".join(lines)
    doc = Document.from_text(source.path, source.language, text)
    row_starts, row_ends = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    for window in chunk_fixed(Prepared(doc), settings):
        yield _annotated(window, table, window.start_byte, window.end_byte, (window.start_line, window.end_line), row_starts, row_ends)
