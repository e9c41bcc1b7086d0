"""A decoded source file with the line and offset arithmetic every chunker shares.

tree-sitter works in UTF-8 bytes, Python strings in characters: this module is the one place
where the two meet. Lines are 1-based; byte offsets index ``data``; char offsets index ``text``.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any



@dataclass(frozen=True)
class Document:
    """One decoded text source. Build with :meth:`from_text` (it computes the line index)."""

    path: str
    language: str
    text: str
    data: bytes
    line_starts: tuple[int, ...]  # byte offset where each line starts; index 0 is line 1
    _char_line_starts: tuple[int, ...] = field(repr=False)  # char offset of each line start
    is_ascii: bool = field(repr=False, default=True)
    # Number of lines; a trailing newline does not open a new (empty) line. Stored: the chunkers
    # ask for it on every line lookup.
    line_count: int = field(repr=False, default=1)
    # Byte offset just past each line's content (its newline, and a "\r" before it, excluded);
    # index 0 is line 1. Stored: sizing whole lines asks for it again and again.
    line_ends: tuple[int, ...] = field(repr=False, default=())
    # Byte -> column maps of long non-ASCII lines, built on first use (see column_of_byte).
    _columns: dict[int, Any] = field(repr=False, compare=False, default_factory=dict)
    _char_bytes: dict[int, Any] = field(repr=False, compare=False, default_factory=dict)  # see byte_of_char

    @classmethod
    def from_text(cls, path: str, language: str, text: str) -> Document:
        """Index ``text`` (already decoded) under ``path`` and ``language``."""
        data = text.encode("utf-8", "surrogatepass")
        is_ascii = len(data) == len(text)
        byte_starts = _line_starts(data.split(b"\n"))
        char_starts = byte_starts if is_ascii else _line_starts(text.split("\n"))
        count = len(byte_starts)
        if count > 1 and byte_starts[-1] == len(data):
            count -= 1
        return cls(path, language, text, data, byte_starts, char_starts, is_ascii, count, _line_ends(data, byte_starts))

    def line_of_byte(self, offset: int) -> int:
        """1-based line holding byte ``offset`` (offsets at len(data) belong to the last line)."""
        line = bisect_right(self.line_starts, offset)
        if line > self.line_count:
            return self.line_count
        return line if line >= 1 else 1

    def line_start(self, line: int) -> int:
        """Byte offset where 1-based ``line`` starts."""
        return self.line_starts[line - 1]

    def line_end(self, line: int) -> int:
        """Byte offset just past ``line``'s content (its newline excluded)."""
        if line <= len(self.line_ends):
            return self.line_ends[line - 1]
        return len(self.data)

    def text_start(self, line: int) -> int:
        """Byte offset of the first character of ``line`` past its indentation (its start when
        the line is blank): where the first piece of a line cut inside begins, so that no
        piece is indentation alone."""
        start, end = self.line_start(line), self.line_end(line)
        raw = self.data[start:end]
        stripped = raw.lstrip(b" \t")
        return start + len(raw) - len(stripped) if stripped else start

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` without its newline."""
        return self.slice(self.line_start(line), self.line_end(line))

    def char_of_byte(self, offset: int) -> int:
        """Char offset in ``text`` of byte ``offset`` (which must sit on a character boundary)."""
        if self.is_ascii:
            return offset
        line = bisect_right(self.line_starts, offset)
        return self._char_line_starts[line - 1] + self.column_of_byte(line, offset)

    def column_of_byte(self, line: int, offset: int) -> int:
        """Chars between the start of 1-based ``line`` and byte ``offset`` on it.

        Constant time on ASCII text; a long non-ASCII line gets a byte -> column map the first
        time it is asked (chunkers ask again and again along one line: decoding from the line's
        start each time made a minified 2 MB line quadratic)."""
        start = self.line_starts[line - 1]
        if self.is_ascii:
            return offset - start
        if offset - start < LONG_LINE:
            return len(self.data[start:offset].decode("utf-8", "surrogatepass"))
        columns = self._columns.get(line)
        if columns is None:
            import numpy as np

            columns = self._columns[line] = np.concatenate(([0], np.cumsum(self._char_starts(line), dtype=np.int64)))
        return int(columns[offset - start])

    def _char_starts(self, line: int) -> Any:
        """For each byte of 1-based ``line`` (its newline included), whether a character starts
        there: every byte that is not a UTF-8 continuation byte (a NumPy bool array)."""
        import numpy as np

        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.data)
        raw = np.frombuffer(self.data, dtype=np.uint8, count=end - start, offset=start)
        return (raw & 0xC0) != 0x80

    def byte_of_char(self, offset: int) -> int:
        """Byte offset of char ``offset``."""
        if self.is_ascii:
            return offset
        line = bisect_right(self._char_line_starts, offset)
        line_char = self._char_line_starts[line - 1]
        if offset - line_char < LONG_LINE:
            return self.line_starts[line - 1] + len(self.text[line_char:offset].encode("utf-8", "surrogatepass"))
        # Far into a long line: encoding from its start on every question made cutting a
        # minified line that holds one "é" quadratic (40 s for 0.7 MB). A map, built once.
        starts = self._char_bytes.get(line)
        if starts is None:
            import numpy as np

            # Byte offset (in the line) where each character starts, then the line's end.
            flags = self._char_starts(line)
            starts = self._char_bytes[line] = np.append(np.flatnonzero(flags), len(flags))
        return self.line_starts[line - 1] + int(starts[offset - line_char])

    def slice(self, start_byte: int, end_byte: int) -> str:
        """The text of byte span ``[start_byte, end_byte)``."""
        if self.is_ascii:
            return self.text[start_byte:end_byte]
        return self.data[start_byte:end_byte].decode("utf-8", "surrogatepass")

    def lines_span(self, first: int, last: int) -> tuple[int, int]:
        """Byte span of whole lines ``first..last`` (inclusive), newline of ``last`` excluded."""
        return self.line_start(first), self.line_end(last)

    def is_blank(self, line: int) -> bool:
        """True when 1-based ``line`` holds only whitespace (see :func:`is_blank_bytes`)."""
        return is_blank_bytes(self.data[self.line_starts[line - 1] : self.line_end(line)])

    def trim_blank(self, first: int, last: int) -> tuple[int, int]:
        """Lines ``first..last`` without blank lines at either end (one line is kept)."""
        while first < last and self.is_blank(first):
            first += 1
        while last > first and self.is_blank(last):
            last -= 1
        return first, last


_PLUS_ONE = (1).__add__
_MINUS_ONE = (-1).__add__
LONG_LINE = 4096  # bytes into a line past which counting from its start on every question gets costly


def _line_ends(data: bytes, starts: tuple[int, ...]) -> tuple[int, ...]:
    """Where each line's content ends: before its newline, and before a carriage return ahead
    of that newline; the last line ends with the data."""
    ends = list(map(_MINUS_ONE, starts[1:]))
    if b"\r" in data:
        ends = [end - 1 if end > 0 and data[end - 1] == 13 else end for end in ends]
    ends.append(len(data))
    return tuple(ends)


def _line_starts(lines: list[bytes] | list[str]) -> tuple[int, ...]:
    """Where each line starts, from the pieces between newlines: 0, then each piece's end + 1
    (a running sum in C: this runs for every file the CLI reads)."""
    starts = tuple(accumulate(map(_PLUS_ONE, map(len, lines)), initial=0))
    return starts[:-1]


def is_blank_bytes(data: bytes) -> bool:
    """True when UTF-8 ``data`` holds only whitespace, Unicode's included (a no-break space,
    which bytes.strip keeps, made a chunk of nothing but one). A line continuation's backslash
    alone is no blank: a chunk holds it, or the chunks would not give the file back."""
    stripped = data.strip()
    # (Only a non-ASCII start may be Unicode's space: the common line costs one byte test.)
    return not stripped or (stripped[0] >= 0x80 and not stripped.decode("utf-8", "replace").strip())
