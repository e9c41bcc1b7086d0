"""Table chunking: CSV, TSV and Excel files cut into batches of rows with the header in every chunk.

Prose chunking breaks tables: the column names sit once at the top and every later window loses
them. Here (strategy ``syntax``, chunks marked ``table``):

1. Rows stream from the file in batches (:mod:`core.table_csv`, :mod:`core.table_xlsx`); memory
   stays bounded by the batch size, whatever the file's size.
2. Data rows are cut into chunks of ``settings.table_rows`` rows, or packed greedily under
   ``settings.budget`` in ``settings.unit``; a row is never split. A row that alone is over the
   budget is a chunk of its own, flagged ``oversized`` (with ``table_rows``, any chunk over the
   budget is flagged too).
3. Each chunk (kind ``table_rows``) carries ``row_start``/``row_end`` (1-based data rows) and
   ``columns``. ``header`` is the header in ``settings.table_format``; ``embed_text`` is the
   breadcrumb line (``# path :: table``, or ``table: name`` without breadcrumbs), the header,
   then the rows in that format (:mod:`core.table_format`); ``size`` is ``embed_text``'s size.
4. After a table's rows, its ``table_profile`` (:mod:`core.table_profile`): shape, columns and
   types, per-column aggregates. One chunk, or, when that would be over the budget (wide tables),
   parts (``part``/``parts``) packed under it, each repeating the table's shape as ``header``, so
   the model never truncates a column's figures away.

Spans and text:

- CSV/TSV: ``start_byte``/``end_byte`` index the file's bytes and ``text`` is exactly
  ``file_bytes[start_byte:end_byte].decode(encoding)`` (multi-line cells included, CRLF kept);
  ``start_line``/``end_line`` are the physical lines. A UTF-16/32 file (with its byte order
  mark, as Excel's "Unicode Text" and Windows editors write it) is read as its UTF-8 form
  (:func:`open_stream`): its spans index that form, as a legacy-encoded code file's do.
- XLSX has no source text: ``text`` is the rows written as CSV, the byte span is 0/0 and the
  lines are sheet row numbers. Tables are named ``book.xlsx#Sheet``; CSV tables by file name.
- A profile chunk spans the whole table (header to last row), so aggregate questions about the
  table land on it; its ``text`` is the profile itself, not the source (which would repeat the
  entire table). It is the one kind of chunk whose ``text`` is not a source slice.

Flags: ``oversized``; ``ragged`` (a row not as wide as the header: a short one, padded with
empty cells, or one with empty cells past it, dropped); ``generated_header``
(no header row: columns are named ``column_1``...). Strategy ``fixed`` is the naive baseline in
:mod:`core.table_fixed`.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from core.chunk import Chunk, chunk_id, chunk_id_state
from core.errors import InputError, SettingsError
from core.languages import TABLE_LANGUAGES, comment_line
from core.settings import ChunkSettings
from core.sizing import load_tokenizer, make_sizer
from core.sources import SourceFile, wide_encoding
from core.table_batch import OpenTable, RowBatch
from core.table_format import JoinedRows, serialise_header, serialise_rows
from core.table_metrics import TableMetrics, table_metrics
from core.table_profile import GROUPED_NUMBER, TableProfile, TableProfiler
from core.table_values import NA_MARKERS, int_values

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "TableMetrics",
    "chunk_table_source",
    "iter_table_chunks",
    "open_tables",
    "profile_tables",
    "read_table_preview",
    "table_encoding",
    "table_metrics",
]

TABLE_STRATEGIES = ("syntax", "table", "fixed")
_GROUP = 64  # row chunks built at a time
_LONG_TEXT = 20_000  # characters past which a text's tokens are counted word by word


@contextmanager
def open_stream(source: SourceFile) -> Iterator[BinaryIO]:
    """The bytes of a table source, as a binary stream (its data, its file, or its text); a
    CSV/TSV file in UTF-16 or UTF-32 (by its byte order mark, or its NULs) as its UTF-8 form."""
    with _raw_stream(source) as raw:
        wide = None
        if source.language != "xlsx":
            wide = wide_encoding(raw.read(512)) if source.declared_encoding is None else _wide(source.declared_encoding)
            raw.seek(0)
        yield raw if wide is None else _Utf8Form(raw, wide, source.path)  # type: ignore[misc]


def _wide(codec: str) -> str | None:
    """``codec`` when it writes ASCII in more than one byte (UTF-16/32): such text is read in
    its UTF-8 form."""
    return codec if codec.startswith(("utf-16", "utf-32", "utf_16", "utf_32")) else None


class _Utf8Form:
    """A read-only binary stream of the UTF-8 form of a UTF-16/32 stream (its byte order mark
    dropped), decoded as it is read so memory stays bounded; bytes that do not decode raise
    :class:`InputError`."""

    def __init__(self, raw: BinaryIO, encoding: str, path: str) -> None:
        self._raw, self.encoding, self._path = raw, encoding, path
        self._decoder = codecs.getincrementaldecoder(encoding)()
        self._buf = bytearray()
        self._eof = False

    def read(self, size: int = -1) -> bytes:
        while not self._eof and (size < 0 or len(self._buf) < size):
            data = self._raw.read(max(size, 1 << 16) if size >= 0 else 1 << 20)
            self._eof = not data
            try:
                self._buf += self._decoder.decode(data, final=self._eof).encode("utf-8")
            except UnicodeError as exc:  # ("UTF-16 stream does not start with BOM" is no UnicodeDecodeError)
                reason = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
                raise InputError(f"{self._path}: not valid {self.encoding.upper()} text ({reason})") from None
        take = len(self._buf) if size < 0 else min(size, len(self._buf))
        out = bytes(self._buf[:take])
        del self._buf[:take]
        return out


@contextmanager
def _raw_stream(source: SourceFile) -> Iterator[BinaryIO]:
    if source.data is not None:
        yield io.BytesIO(source.data)
    elif source.origin is not None:
        try:
            handle = open(source.origin, "rb")  # noqa: SIM115 - closed by the with below
        except OSError as exc:
            raise InputError(f"{source.path}: cannot read ({exc.strerror})") from None
        with handle:
            yield handle
    elif source.text is not None:
        yield io.BytesIO(source.text.encode("utf-8"))
    else:
        raise InputError(f"{source.path}: nothing to read")


@contextmanager
def open_tables(source: SourceFile, *, has_header: bool | None = None) -> Iterator[Iterator[OpenTable]]:
    """The tables of ``source`` (one for CSV/TSV, or one per section of a report; one per
    non-empty sheet for XLSX, or more: :mod:`core.table_xlsx`), read lazily
    while the ``with`` block is open::

        with open_tables(source) as tables:
            for table in tables:
                for batch in table.batches: ...

    ``has_header`` forces (True/False) or leaves to detection (None) whether the first row
    names the columns. Consume each table's ``batches`` before taking the next table.
    """
    _check_table(source)
    name = PurePosixPath(source.path).name
    with open_stream(source) as stream:
        if source.language == "xlsx":
            from core.table_xlsx import read_xlsx_tables

            yield read_xlsx_tables(stream, path=source.path, name=name, has_header=has_header)
        else:
            from core.table_csv import read_csv_tables

            def each() -> Iterator[OpenTable]:
                for table in read_csv_tables(
                    stream, path=source.path, name=name, language=source.language, has_header=has_header,
                    encoding=_declared(source, stream),
                ):  # fmt: skip
                    if isinstance(stream, _Utf8Form):
                        table.file_encoding = stream.encoding
                    yield table

            yield each()


def _check_table(source: SourceFile) -> None:
    if source.language not in TABLE_LANGUAGES:
        raise InputError(f"{source.path}: {source.language} is not a table format")


def _declared(source: SourceFile, stream: BinaryIO) -> str | None:
    """The encoding the reader is to take ``stream`` in: the one given for ``source``, or none
    for the UTF-8 form of a UTF-16/32 file (its encoding is then the stream's own)."""
    return source.declared_encoding if not isinstance(stream, _Utf8Form) else None


def chunk_table_source(
    source: SourceFile, settings: ChunkSettings, strategy: str, *, has_header: bool | None = None
) -> list[Chunk]:
    """All chunks of one table file: ``syntax`` (or ``table``) gives row chunks plus a profile
    per table, ``fixed`` the naive windows over the raw text (see :mod:`core.table_fixed`)."""
    return list(iter_table_chunks(source, settings, strategy, has_header=has_header))


def iter_table_chunks(
    source: SourceFile, settings: ChunkSettings, strategy: str, *, has_header: bool | None = None
) -> Iterator[Chunk]:
    """Like :func:`chunk_table_source`, one chunk at a time (memory stays bounded for huge files)."""
    if strategy not in TABLE_STRATEGIES:
        raise SettingsError(f"unknown strategy {strategy!r} for tables; expected one of: {', '.join(TABLE_STRATEGIES)}")
    if strategy == "fixed":
        from core.table_fixed import iter_fixed_table_chunks

        yield from iter_fixed_table_chunks(source, settings, has_header=has_header)
        return
    with open_tables(source, has_header=has_header) as tables:
        for table in tables:
            yield from _TableChunker(table, source, settings).run()


def table_encoding(source: SourceFile) -> str | None:
    """The text encoding a CSV/TSV file is read in (``utf-8``, ``cp1252``, ``utf-16``...), from
    its first megabyte (nothing more is parsed); None for a workbook. :class:`InputError` when
    that cannot be read as text."""
    if source.language == "xlsx":
        return None
    _check_table(source)
    from core.table_csv import csv_encoding

    with open_stream(source) as stream:
        encoding = csv_encoding(stream, path=source.path, language=source.language, encoding=_declared(source, stream))
        return stream.encoding if isinstance(stream, _Utf8Form) else encoding


def profile_tables(source: SourceFile, *, has_header: bool | None = None) -> list[TableProfile]:
    """The profile of every table in ``source`` (one streaming pass)."""
    profiles = []
    with open_tables(source, has_header=has_header) as tables:
        for table in tables:
            profiler = TableProfiler(table.name, list(table.columns), generated_header=table.generated_header,
                                     decimal_comma=table.decimal_comma, grouping_dots=table.grouping_dots)
            for batch in table.batches:
                profiler.add(batch.columns, batch.text_columns)
            profiles.append(profiler.finish(table.notes))
    return profiles


def read_table_preview(
    source: SourceFile, *, max_rows: int = 1000, has_header: bool | None = None
) -> dict[str, pd.DataFrame]:
    """The first ``max_rows`` data rows of every table, by table name, as DataFrames.

    Columns carry the names the chunks use; number and date columns (judged on these rows) are
    converted, text stays text. ``frame.attrs["decimals"]`` gives the decimal places a number
    column is written with (``119.00``: 2), for showing it so; a number column whose cells a
    number would not show as written (``2.50`` beside ``3.1``) stays their text. The index is the 1-based data row number (``row_start`` of a
    chunk finds its rows). Only the rows shown are read. ``frame.attrs["encoding"]`` names the
    file's text encoding (None for a workbook), so a caller can say when it was not UTF-8;
    ``frame.attrs["more"]`` whether the table has rows past these.
    """
    import pandas as pd

    if max_rows < 1:
        raise SettingsError(f"max_rows must be at least 1, got {max_rows}")
    previews: dict[str, pd.DataFrame] = {}
    with open_tables(source, has_header=has_header) as tables:
        for table in tables:
            previews[table.name] = _preview_frame(table, max_rows)
    return previews


def _preview_frame(table: OpenTable, max_rows: int) -> pd.DataFrame:
    import pandas as pd

    parts: list[list[pa.Array]] = []
    texts: frozenset[int] = frozenset()  # columns stored as text (an Excel cell of text 0007)
    taken = 0
    more = False  # rows past the preview's
    batches = iter(table.batches)
    for batch in batches:
        take = min(len(batch), max_rows - taken)
        parts.append([col.slice(0, take) for col in batch.columns])
        texts |= batch.text_columns
        taken += take
        if taken >= max_rows:
            more = take < len(batch) or any(len(later) for later in batches)
            break
    columns = [
        pa.concat_arrays([p[j] for p in parts]) if parts else pa.array([], type=pa.string())  # (a header alone)
        for j in range(len(table.columns))
    ]
    profiler = TableProfiler(table.name, list(table.columns), decimal_comma=table.decimal_comma,
                             grouping_dots=table.grouping_dots, totals=False)
    profiler.add(columns, texts)
    frame = pa.table(columns, names=list(table.columns)).to_pandas()
    decimals: dict[str, int] = {}
    for stats in profiler.profile.columns:
        values = frame[stats.name]
        present = values.where(~values.isin(NA_MARKERS))
        if stats.kind in ("integer", "decimal"):
            if table.decimal_comma and _european(present, table.grouping_dots):
                continue  # ``1.234,50``, ``1.250`` (1250): shown as written, as the chunks hold them
            written = written_decimals(present.dropna())
            if written == -1:  # shown as a number, some cells would not read as they are written
                continue
            frame[stats.name] = pd.to_numeric(present, errors="coerce")
            if written:
                decimals[stats.name] = written
        elif stats.kind == "date":
            dates = _dates(present)
            if dates is not None:  # (else the cells stay as written: never a blank for a date)
                frame[stats.name] = dates
    frame.index = pd.RangeIndex(1, taken + 1, name="row")
    frame.attrs["encoding"] = table.read_as
    frame.attrs["decimals"] = decimals
    frame.attrs["more"] = more
    return frame


def _european(cells: pd.Series, grouping_dots: bool) -> bool:
    """Whether a ``;``-separated file's number cells are written as its profile reads them the
    European way: with a decimal comma (``1.234,50``), or with dots that group thousands
    (``1.250``, 1250) in a file whose rows show decimal commas."""
    text = cells.dropna().astype(str).str.strip()
    if text.str.contains(",", regex=False).any():
        return True
    return grouping_dots and text.str.contains(".", regex=False).any() and text.str.match(GROUPED_NUMBER).all()


def _dates(cells: pd.Series) -> pd.Series | None:
    """ISO 8601 date cells as timestamps, or None when some cell is not one (Europe's
    ``31.12.2024``, which the profile reads too: shown as written, as the chunks hold it)."""
    import pandas as pd

    dates = pd.to_datetime(cells, format="ISO8601", errors="coerce")
    return None if (dates.isna() & cells.notna()).any() else dates


def written_decimals(cells: Iterable[object]) -> int:
    """How a preview shows a number column as its cells are written (the chunks' text): the
    decimal places every cell is written with (``119.00``, ``63189.00``: 2), 0 when a number's
    usual form shows them (``2.5``, ``3.25``, ``7``), or -1 when only the text does (``2.50``
    beside ``3.1``, ``1e5``): a number shown as ``119`` whose cell and chunks say ``119.00``
    told two stories of one cell."""
    places: set[int] = set()
    trailing = False
    for cell in cells:
        text = str(cell).strip()
        if any(c in text for c in "eE"):
            return -1
        whole, dot, fraction = text.partition(".")
        places.add(len(fraction) if dot else 0)
        trailing = trailing or (dot and (not fraction or fraction.endswith("0")))
    if len(places) == 1:
        return places.pop()
    return -1 if trailing else 0


@dataclass
class _Serialised:
    """One batch's rows written out: ``serial(first, stop)`` is, for each pair, rows
    ``first..stop-1`` in the chunk format, ``source(first, stop)`` their ``text``; ``same``
    when the two are equal. ``rows`` holds each row's serialisation (None when taken from the
    source) and ``lengths`` their UTF-8 lengths when all are ASCII."""

    serial: Callable[[np.ndarray, np.ndarray], list[str]]
    source: Callable[[np.ndarray, np.ndarray], list[str]]
    same: bool
    rows: pa.Array | None
    lengths: np.ndarray | None


class _TableChunker:
    """Cuts one table's batches into ``table_rows`` chunks, then adds its profile chunk(s)."""

    def __init__(self, table: OpenTable, source: SourceFile, settings: ChunkSettings) -> None:
        self.table = table
        self.source = source
        self.settings = settings
        self.sizer = make_sizer(settings.unit, settings.model)
        self.header = serialise_header(table.columns, settings.table_format)
        if settings.breadcrumb:
            self.crumb = comment_line(source.language, f"{source.path} :: {table.name}") + "\n"
        else:
            self.crumb = f"table: {table.name}\n"  # the table's name is context the rows need
        self.prefix = self.crumb + self.header + "\n"
        self.prefix_size = self.sizer.measure(self.prefix)
        self.profiler = TableProfiler(table.name, list(table.columns), generated_header=table.generated_header,
                                     decimal_comma=table.decimal_comma, grouping_dots=table.grouping_dots)
        # A row chunk's flags, by (oversized, ragged).
        self._flag_sets = {
            (over, rag): tuple(sorted(
                (["oversized"] if over else []) + (["ragged"] if rag else [])
                + (["generated_header"] if table.generated_header else [])
            ))
            for over in (False, True)
            for rag in (False, True)
        }  # fmt: skip
        # The hash of a row chunk's id (see chunk_id) after its parts common to every chunk.
        self._id_head = chunk_id_state(source.path, "table_rows", table.name)
        self.last_end: tuple[int, int] | None = None  # (end_byte, end_line) of the last row

    def run(self) -> Iterator[Chunk]:
        """Row chunks in order, then the profile chunk(s).

        Two worker threads keep this one, which builds the chunks (Python objects, so it holds
        the GIL), fed: one reads and parses the next batch (Arrow's parser releases the GIL)
        while this batch is cut, the other folds this batch into the profile (Arrow kernels
        too). At most three batches are in hand: the one read ahead, the one being cut and
        profiled, and a tail of fewer rows than a chunk held for the next.
        """
        pending: RowBatch | None = None
        per = self.settings.table_rows
        # One thread each: the reader's and the profile's allocations then stay in their own
        # thread's heap of the memory pool (measured: a shared pair of threads took ~10 MB more).
        with (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-read") as reader,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-profile") as profiler,
        ):
            batches = iter(self.table.batches)
            # (One next() at a time: the generator is never run by two threads at once.)
            ahead: Future[RowBatch | None] = reader.submit(next, batches, None)
            folding: Future[None] | None = None
            while True:
                batch = ahead.result()
                if batch is None:
                    break
                ahead = reader.submit(next, batches, None)
                if folding is not None:
                    folding.result()  # at most one batch waits for the profile
                folding = profiler.submit(self.profiler.add, batch.columns, batch.text_columns)
                if not len(batch):
                    continue
                self.last_end = (int(batch.end_byte[-1]), int(batch.end_line[-1]))
                if pending is not None and per is not None:
                    # Complete the held rows' chunk from the batch's head, without copying
                    # the whole batch onto them.
                    take = min(per - len(pending), len(batch))
                    pending = pending.then(batch.head(take))
                    if len(pending) < per:
                        continue
                    yield from self._cut(pending, final=False)[0]
                    pending = None
                    if take == len(batch):
                        continue
                else:
                    take = 0
                work = batch if pending is None else pending.then(batch)
                chunks, rest = self._cut(work, final=False, start=take)
                yield from chunks
                pending = work.tail(rest) if rest < len(work) else None
            if folding is not None:
                folding.result()
        if pending is not None and len(pending):
            yield from self._cut(pending, final=True)[0]
        yield from self._profile_chunks()

    # --- cutting rows into chunks ---------------------------------------------------------

    def _serialise(self, work: RowBatch) -> _Serialised:
        """``work``'s rows in the chunk format (and as ``text``), by the cheapest valid route."""
        table, fmt = self.table, self.settings.table_format
        enc = table.encoding

        def source(first: np.ndarray, stop: np.ndarray) -> list[str]:
            return work.source_texts(first, stop, enc)

        sizes_needed = self.settings.table_rows is None
        if fmt == "csv" and work.canonical_csv and (
            not sizes_needed or (self.settings.unit in ("chars", "lines") and work.raw.isascii())
        ):
            # The rows' own text already is their CSV: nothing to write.
            return _Serialised(source, source, True, None, work.end_byte - work.start_byte)
        rows = serialise_rows(work.columns, table.columns, fmt)
        joined = JoinedRows(rows)
        if table.has_source_text:
            return _Serialised(joined.texts, source, False, rows, None if not joined.is_ascii else joined.byte_lengths())
        if fmt == "csv":
            return _Serialised(joined.texts, joined.texts, True, rows, joined.byte_lengths() if joined.is_ascii else None)
        plain = JoinedRows(serialise_rows(work.columns, table.columns, "csv"))
        return _Serialised(joined.texts, plain.texts, False, rows, joined.byte_lengths() if joined.is_ascii else None)

    def _cut(self, work: RowBatch, *, final: bool, start: int = 0) -> tuple[Iterable[Chunk], int]:
        """Chunks of ``work``'s rows from row ``start`` (with ``table_rows``: the rows before it
        are in chunks already), and the index of the first row held back for the next batch
        (the last, possibly incomplete, group)."""
        n = len(work)
        if n <= start:
            return [], n
        ser = self._serialise(work)
        per = self.settings.table_rows
        if per is not None:
            stop = n if final else start + (n - start) // per * per
            spans = [(i, min(i + per, stop)) for i in range(start, stop, per)]
            return self._groups(work, ser, spans), stop
        return self._pack(work, ser, final)

    def _groups(self, work: RowBatch, ser: _Serialised, spans: list[tuple[int, int]]) -> Iterator[Chunk]:
        """:meth:`_chunks` a group of spans at a time, so that a batch's chunks are not all in
        memory at once."""
        for k in range(0, len(spans), _GROUP):
            yield from self._chunks(work, ser, spans[k : k + _GROUP])

    def _chunks(self, work: RowBatch, ser: _Serialised, spans: list[tuple[int, int]]) -> list[Chunk]:
        """The ``table_rows`` chunks of ``spans`` (row ranges of ``work``).

        Everything per chunk that is not a string is computed for all spans at once in NumPy,
        and the loop below only builds strings and Chunks (20k of them for a 1M-row file)."""
        if not spans:
            return []
        # Every span's numbers in one vectorised step (NumPy scalars are slow one at a time).
        first = np.fromiter((i for i, _ in spans), dtype=np.int64, count=len(spans))
        stop = np.fromiter((j for _, j in spans), dtype=np.int64, count=len(spans))
        last = stop - 1
        serials = ser.serial(first, stop)
        prefix = self.prefix
        embeds = [prefix + text for text in serials]
        sizes = self._measure_many(embeds)
        texts = serials if ser.same else ser.source(first, stop)
        ragged = (
            np.logical_or.reduceat(work.ragged[: int(last[-1]) + 1], first).tolist() if work.ragged.any() else [False] * len(spans)
        )
        budget = self.settings.budget
        flag_sets = self._flag_sets
        id_head = self._id_head
        path, language, unit = self.source.path, self.source.language, self.settings.unit
        name, header, columns = self.table.name, self.header, self.table.columns
        out = []
        for text, embed, size, row_start, row_end, start_byte, end_byte, start_line, end_line, rag in zip(
            texts,
            embeds,
            sizes,
            (first + work.first_row).tolist(),
            (last + work.first_row).tolist(),
            work.start_byte[first].tolist(),
            work.end_byte[last].tolist(),
            work.start_line[first].tolist(),
            work.end_line[last].tolist(),
            ragged,
        ):
            # chunk_id(path, "table_rows", name, span, embed), its first three parts hashed once
            # (the span is one part: chunk_id hashes each part separately, 20k times a file).
            # The lines are in it too: an edit of the same length before a batch can move them.
            digest = id_head.copy()
            digest.update(f"{row_start}-{row_end}@{start_byte}-{end_byte}:{start_line}-{end_line}\x1f".encode())
            digest.update(embed.encode("utf-8", "surrogatepass"))
            digest.update(b"\x1f")
            out.append(
                Chunk(
                    digest.hexdigest(), path, language, "table", "table_rows", name, None,
                    start_line, end_line, start_byte, end_byte, 1, 1, header, text, embed, size, unit,
                    None, row_start, row_end, columns, flag_sets[size > budget, rag],
                )  # fmt: skip  (positional, in the order of Chunk's fields: measurably faster)
            )
        return out

    def _pack(self, work: RowBatch, ser: _Serialised, final: bool) -> tuple[list[Chunk], int]:
        """Greedy packing under the budget, from estimated row sizes; every chunk is then
        measured whole and, where the estimate was short, shrunk a row at a time."""
        budget = self.settings.budget
        sep = 1 if self.settings.unit == "chars" else 0  # the newline between two rows
        reach = np.concatenate([[0], np.cumsum(self._row_sizes(ser) + sep)])
        avail = budget - self.prefix_size + sep
        n = len(work)
        out: list[Chunk] = []
        start = 0
        while True:
            spans: list[tuple[int, int]] = []
            i = start
            while i < n:
                j = int(np.searchsorted(reach, reach[i] + avail, side="right")) - 1
                j = min(max(j, i + 1), n)
                if j == n and not final:
                    break  # the rows of the next batch may still fit in this chunk
                spans.append((i, j))
                i = j
            chunks = self._chunks(work, ser, spans)
            bad = next((k for k, c in enumerate(chunks) if c.size > budget and c.row_end != c.row_start), None)
            if bad is None:
                return out + chunks, i
            out.extend(chunks[:bad])
            a, b = spans[bad]
            while True:
                b -= 1
                chunk = self._chunks(work, ser, [(a, b)])[0]
                if chunk.size <= budget or b - a == 1:
                    break
            out.append(chunk)
            start = b

    def _row_sizes(self, ser: _Serialised) -> np.ndarray:
        """Each serialised row's size in the unit (an estimate only for tokens and nws)."""
        unit = self.settings.unit
        if unit == "chars" and ser.lengths is not None:
            return ser.lengths  # ASCII: bytes are characters
        if ser.rows is None:  # taken from the source: one line each, ASCII (see _serialise)
            return np.ones(len(ser.lengths), dtype=np.int64) if unit == "lines" else ser.lengths
        rows = ser.rows
        if unit == "chars":
            return int_values(pc.utf8_length(rows))
        if unit == "lines":
            return 1 + int_values(pc.count_substring(rows, "\n"))
        if unit == "nws":
            return int_values(pc.utf8_length(rows)) - int_values(pc.count_substring_regex(rows, r"\s"))
        return np.asarray(self._measure_many(rows.to_pylist()), dtype=np.int64)

    def _measure_many(self, texts: Sequence[str]) -> list[int]:
        unit = self.settings.unit
        if unit == "chars":
            return [len(t) for t in texts]
        if unit == "tokens":
            tokenizer = load_tokenizer(self.settings.model)
            # The batch call tokenizes in parallel; the "fast" variant skips offsets we do not use.
            encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
            texts = list(texts)
            long = [i for i, t in enumerate(texts) if len(t) > _LONG_TEXT] if self.sizer.counts_by_words else []
            if not long:
                return [len(e.ids) for e in encode(texts, add_special_tokens=False)]
            # A huge cell: counted word by word (exact), not encoded whole (a 10 MB cell took
            # ~10 s and 1.5 GB in ``encode``, for a count).
            sizes = [0] * len(texts)
            for i in long:
                sizes[i] = self.sizer.measure(texts[i])
            rest = [i for i in range(len(texts)) if len(texts[i]) <= _LONG_TEXT]
            for i, e in zip(rest, encode([texts[i] for i in rest], add_special_tokens=False)):
                sizes[i] = len(e.ids)
            return sizes
        return [self.sizer.measure(t) for t in texts]

    def _listing_to_fit(self, lines: list[str], room: int) -> list[str]:
        """The profile's lines, its column listing (ten names a line, first in ``lines``)
        packed again into lines that fit ``room`` when one did not: long names made parts over
        the budget and the model's limit, and a line is never cut."""
        listing = [line for line in lines if line.startswith(("columns: ", "more columns: "))]
        if not listing or max(self._measure_many(listing)) <= room:
            return lines
        names = [name for line in listing for name in line.partition(": ")[2].split(", ")]
        packed: list[str] = []
        current: list[str] = []
        for name in names:
            prefix = "more columns: " if packed else "columns: "
            if current and self._measure_many([prefix + ", ".join([*current, name])])[0] > room:
                packed.append(prefix + ", ".join(current))
                current = []
            current.append(name)
        packed.append(("more columns: " if packed else "columns: ") + ", ".join(current))
        return [*packed, *lines[len(listing) :]]

    def _profile_chunks(self) -> list[Chunk]:
        """The profile: one chunk, or parts under the budget when it is longer (each part
        repeats the table's shape as its header). Every part spans the whole table."""
        table = self.table
        profile = self.profiler.finish(table.notes)
        header = profile.heading()
        above = self.crumb + header + "\n"
        sep = 1 if self.settings.unit == "chars" else 0
        room = self.settings.budget - self._measure_many([above])[0]
        lines = self._listing_to_fit(profile.body_lines(), room)
        groups: list[list[str]] = [[]]
        used = 0
        for line, size in zip(lines, self._measure_many(lines)):
            if groups[-1] and used + sep + size > room:
                groups.append([])
                used = 0
            used += size + (sep if len(groups[-1]) else 0)
            groups[-1].append(line)
        texts = ["\n".join(group) for group in groups]
        embeds = [above + text for text in texts]
        sizes = self._measure_many(embeds)
        end_byte, end_line = self.last_end if self.last_end is not None else (table.start_byte, table.start_line)
        chunks: list[Chunk] = []
        for part, (text, embed, size) in enumerate(zip(texts, embeds, sizes), start=1):
            flags = ["oversized"] if size > self.settings.budget else []
            if table.generated_header:
                flags.append("generated_header")
            parent_id = chunks[0].id if chunks else None  # parts 2.. are the first's
            start_byte, stop_byte = (table.start_byte, end_byte) if table.has_source_text else (0, 0)
            last_line = max(end_line, table.start_line)
            # The span, lines and parent are in the id with the text: an index keeps the record of
            # an id it has, and an edit elsewhere in the table can change them alone.
            where = f"{parent_id or ''}@{start_byte}-{stop_byte}:{table.start_line}-{last_line} {','.join(flags)}"
            chunks.append(
                Chunk(
                    id=chunk_id(self.source.path, "table", "table_profile", table.name, part, len(texts), where, embed),
                    path=self.source.path,
                    language=self.source.language,
                    strategy="table",
                    kind="table_profile",
                    symbol=table.name,
                    parent_id=parent_id,
                    start_line=table.start_line,
                    end_line=last_line,
                    start_byte=start_byte,
                    end_byte=stop_byte,
                    part=part,
                    parts=len(texts),
                    header=header,
                    text=text,
                    embed_text=embed,
                    size=size,
                    unit=self.settings.unit,
                    row_start=1,
                    row_end=profile.rows,
                    columns=table.columns,
                    flags=tuple(sorted(flags)),
                )
            )
        return chunks
