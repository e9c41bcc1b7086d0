"""The one Chunk type shared by every chunker, the index and the UI (DESIGN.md contract)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - installed with the requirements; json does the same, slower
    orjson = None  # type: ignore[assignment]

STRATEGIES = ("fixed", "syntax", "table", "text")

# Flags a chunk may carry, beside the contract's fields:
#   oversized  - over the budget because no legal cut exists inside it (e.g. one huge token)
#   split_line - one source line was longer than the budget and was cut inside the line
#   damaged    - the span overlaps a region tree-sitter could not parse
#   ragged     - (tables) a row not as wide as the header: short (padded with empty cells) or
#                with empty cells past it (a delimiter at the line's end, dropped)
#   generated_header - (tables) no header row: columns are named column_1, column_2, ...
#   split_row_start, split_row_end - (naive table windows) the window starts or ends inside a row
#   overlap_reduced - (fixed windows) the breadcrumb left less room than the overlap: half the
#                room is repeated instead
#   divider    - (syntax) comments alone that only title a section (``# ---- reporting ----``,
#                four words at most); kept in the chunk list, left out of search indexes
FLAGS = (
    "oversized", "split_line", "damaged", "ragged", "generated_header", "split_row_start", "split_row_end",
    "overlap_reduced", "divider",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk of one source: a contiguous span plus what is embedded for it.

    ``text`` is always the source's own text for ``[start_byte, end_byte)``; ``embed_text`` is what
    the embedder and keyword index see (breadcrumb, ``header``, then ``text``).
    """

    id: str
    path: str
    language: str
    strategy: str
    kind: str
    symbol: str
    parent_id: str | None
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    part: int
    parts: int
    header: str
    text: str
    embed_text: str
    size: int
    unit: str
    fallback: str | None = None
    row_start: int | None = None
    row_end: int | None = None
    columns: tuple[str, ...] | None = None
    flags: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}; expected one of {STRATEGIES}")
        if not (1 <= self.start_line <= self.end_line):
            raise ValueError(f"bad line span {self.start_line}-{self.end_line} in {self.path}")
        if not (0 <= self.start_byte <= self.end_byte):
            raise ValueError(f"bad byte span {self.start_byte}-{self.end_byte} in {self.path}")
        if not (1 <= self.part <= self.parts):
            raise ValueError(f"bad part {self.part}/{self.parts} in {self.path}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the contract's fields; table fields only for tables."""
        # Field by field, in C (dataclasses.asdict deep-copies every string: measurably slow
        # in the CLI).
        if self.columns is None:
            data = dict(zip(_CODE_FIELDS, _get_code_fields(self)))
        else:
            data = dict(zip(_FIELD_NAMES, _get_fields(self)))
            data["columns"] = list(self.columns)
        data["flags"] = list(self.flags)
        return data

    def to_json(self) -> str:
        """One line of JSONL (compact: no spaces after separators)."""
        return dumps_compact(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chunk:
        """Inverse of :meth:`to_dict`."""
        values = dict(data)
        values["flags"] = tuple(values.get("flags") or ())
        if values.get("columns") is not None:
            values["columns"] = tuple(values["columns"])
        return cls(**values)


_FIELD_NAMES = tuple(f.name for f in fields(Chunk))
_CODE_FIELDS = tuple(name for name in _FIELD_NAMES if name not in ("row_start", "row_end", "columns"))
_get_fields = attrgetter(*_FIELD_NAMES)
_get_code_fields = attrgetter(*_CODE_FIELDS)


def dumps_compact(data: Any) -> str:
    """Compact JSON with non-ASCII kept as is: orjson's (a third of the CLI's time went into
    json.dumps), or json's when orjson is missing or refuses a value (a lone surrogate)."""
    if orjson is not None:
        try:
            return _line_safe(orjson.dumps(data).decode("utf-8"))
        except TypeError:
            pass
    return _line_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


# Characters JSON leaves as they are that Python's ``str.splitlines`` (and some editors) end a
# line at: a record of text holding one was two lines to a reader of the JSONL that split so.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LINE_BREAK = re.compile("[\x85\u2028\u2029]")


def _line_safe(text: str) -> str:
    """``text`` (JSON) with :data:`_LINE_BREAKS` written as escapes: one line, whoever splits it."""
    if "\x85" not in text and "\u2028" not in text and "\u2029" not in text:
        return text
    return _LINE_BREAK.sub(lambda m: _LINE_BREAKS[m.group()], text)


def chunk_id(*parts: object) -> str:
    """A stable id: the same input and parameters always give the same id."""
    return chunk_id_state(*parts).hexdigest()


def chunk_id_state(*parts: object) -> Any:
    """The hash behind :func:`chunk_id` after ``parts``: each ``str(part)`` in UTF-8 then
    ``b"\x1f"``. Feed it more parts the same way (or :meth:`copy` it first, to share a prefix
    between many ids) and take ``hexdigest()``: that is ``chunk_id(*parts, *more)``."""
    joined = "\x1f".join(map(str, parts)) + "\x1f" if parts else ""
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=10)


def dumps_jsonl(chunks: list[Chunk]) -> str:
    """Chunks as JSONL text (one object per line, trailing newline)."""
    return "".join(chunk.to_json() + "\n" for chunk in chunks)


def span_chunk_id(fields: tuple[object, ...], prefix: str, data: bytes, start: int, end: int) -> str:
    """``chunk_id(*fields, prefix + text)`` where ``text`` is ``data[start:end]`` decoded (UTF-8,
    surrogates passed): the same id, hashing the source's own bytes instead of encoding the
    text again (every chunk of every file goes through here)."""
    head = "\x1f".join(map(str, fields)) + "\x1f" + prefix if fields else prefix
    digest = hashlib.blake2b(head.encode("utf-8", "surrogatepass"), digest_size=10)
    digest.update(memoryview(data)[start:end])
    digest.update(b"\x1f")
    return digest.hexdigest()
