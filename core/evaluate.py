"""Retrieval evaluation: annotated query sets, metrics per strategy and mode, parameter sweeps.

A query set is JSONL, one object per line::

    {"query": "retry a failed payment", "path": "py_inventory/inventory/ledger.py", "symbol": "Ledger.retry"}
    {"query": "...", "path": "...", "start_line": 10, "end_line": 24}
    {"query": "send a GET request", "path": "a/client.py", "symbol": "Client.get",
     "also": [{"path": "a/client.py", "symbol": "AsyncClient.get"}]}

``also`` lists answers that are just as right (the same docstring on a sync and an async twin,
say): a question whose text fits several places cannot be asked to find one of them. Each figure
of such a query is scored on the answer that does best (the best rank, the context holding any).

``symbol`` resolves through :func:`core.syntax.list_definitions`: the definition named exactly so,
else the one whose breadcrumb ends with ``"." + symbol``, else the longest breadcrumb the symbol
ends with; ``::`` and backslashes in it (PHP's ``App\\Cart\\Cart::addItem``) stand for ``.``. The target is
then a line span (and the byte span of those lines).

Metrics of one query over its ranked chunks (``k`` is the cut-off):

A result is one chunk, or, for a part of a split definition, the whole definition: all its chunks
(:mod:`core.groups`; ``whole_definitions=False`` ranks bare chunks).

- ``touched@k``: a top-k result overlaps the target; ``mrr@k``: 1/rank of the first such result;
- ``whole@k``: one top-k result holds every non-blank line of the target;
- ``recall``, ``precision``, ``iou``: of the target's bytes against the union of the top-k
  chunks' source spans (like Chroma's chunking evaluation, but on the chunks' true offsets);
- ``in_context``: the size-neutral figure. Results are put in a context of ``context_tokens``
  model tokens in rank order (a chunk that does not fit the room left is passed over, later
  smaller ones may still go in); the target counts when the chunks in the context together hold
  every non-blank line of it. Big chunks cannot win by being big: they fill the context sooner.

Evaluation searches an exact in-memory index (:class:`core.index.MemoryIndex`), which ranks like
the Chroma store without its approximate neighbours. Embeddings go through the embedder's cache,
so a sweep embeds each distinct chunk text once.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import mean, median
from typing import Any

import numpy as np

from core.builder import Prepared
from core.chunk import Chunk
from core.chunking import chunk_document, chunk_source, prepare
from core.embed import Embedder, embed_chunks, model_key
from core.errors import ChunkExplorerError, InputError
from core.index import MAX_QUERY_CHARS, MODES, MemoryIndex, check_mode, searchable
from core.keyword import Fusion
from core.languages import TABLE_LANGUAGES, TEXT_LANGUAGES
from core.settings import DEFAULT_BUDGETS, ChunkSettings
from core.sizing import make_sizer
from core.sources import Corpus, SourceFile, wide_encoding
from core.syntax import Definition, list_definitions

FileChunks = Mapping[str, Sequence[Chunk]]  # a corpus's chunks by file path, under one settings and strategy

DEFAULT_K = 5
DEFAULT_CONTEXT_TOKENS = 1024
_MAX_ERRORS_SHOWN = 5


@dataclass(frozen=True)
class QuerySpec:
    """One annotated query: the text and where its answer is (a symbol or a line span)."""

    line: int  # line number in the query file (1-based), for messages
    query: str
    path: str
    symbol: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    also: tuple[QuerySpec, ...] = ()  # answers just as right (same line and query, no ``also`` of their own)

    def answers(self) -> tuple[QuerySpec, ...]:
        """This answer and the ``also`` ones, each as a spec of its own."""
        return (replace(self, also=()), *self.also)


@dataclass(frozen=True)
class Target:
    """A resolved answer: lines ``first..last`` of ``path``, their bytes and non-blank lines."""

    path: str
    first: int
    last: int
    start_byte: int
    end_byte: int
    lines: frozenset[int]  # non-blank lines of the span
    data: bytes = b""  # the span's own bytes (whitespace between chunks is not missing text)


def parse_queries(text: str, source: str = "queries", *, max_queries: int | None = None) -> list[QuerySpec]:
    """Query specs from JSONL text; :class:`InputError` names every malformed line (up to five),
    a file that is one JSON document rather than JSONL, and more than ``max_queries`` lines
    (counted before any is parsed: the app caps what one upload may cost a shared server)."""
    lines = text.removeprefix("\ufeff").splitlines()  # a BOM is not line 1's content
    if max_queries is not None:
        count = sum(1 for raw in lines if raw.strip())
        if count > max_queries:
            raise InputError(
                f"{source}: {count:,} query lines, over the {max_queries:,} allowed here; "
                "run larger sets with `python -m core eval`"
            )
    specs: list[QuerySpec] = []
    errors: list[str] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            specs.append(_parse_line(raw, number))
        except ValueError as exc:
            errors.append(f"line {number}: {exc}")
    if errors and _one_json_document(text):
        raise InputError(
            f"{source}: one JSON document (an array, or an object over several lines); a query set is "
            "JSONL: one JSON object per line"
        )
    if errors:
        shown = "; ".join(errors[:_MAX_ERRORS_SHOWN])
        more = f" (and {len(errors) - _MAX_ERRORS_SHOWN} more)" if len(errors) > _MAX_ERRORS_SHOWN else ""
        raise InputError(f"{source}: {len(errors)} malformed query line(s): {shown}{more}", tuple(errors))
    if not specs:
        raise InputError(f"{source}: no queries (expected JSONL lines with query, path and symbol or start_line/end_line)")
    return specs


def _one_json_document(text: str) -> bool:
    """Whether ``text`` is a single JSON array, or one object over several lines (what JSONL is
    mistaken for; one object on one line is JSONL, whatever is wrong with its fields)."""
    stripped = text.removeprefix("\ufeff").strip()
    if not (stripped.startswith("[") or stripped.startswith("{") and "\n" in stripped):
        return False
    try:
        json.loads(stripped)
    except (ValueError, RecursionError):
        return False
    return True


def _parse_line(raw: str, number: int) -> QuerySpec:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("not valid JSON for a query (nested too deeply)") from None
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    query = data.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ValueError("'query' must be a non-empty string")
    if len(query) > MAX_QUERY_CHARS:  # one pasted file must not stop the whole run at search time
        raise ValueError(f"'query' is {len(query):,} characters long; the limit is {MAX_QUERY_CHARS:,}")
    spec = _answer(data, QuerySpec(number, query, ""))
    also = data.get("also")
    also = [] if also is None else also
    if not isinstance(also, list) or not all(isinstance(a, dict) for a in also):
        raise ValueError("'also' must be a list of objects, each with path and symbol or start_line/end_line")
    alternatives = []
    for position, item in enumerate(also, start=1):
        try:
            alternatives.append(_answer(item, QuerySpec(number, query, "")))
        except ValueError as exc:
            raise ValueError(f"'also' answer {position}: {exc}") from None
    return replace(spec, also=tuple(alternatives))


def _corpus_path(path: str) -> str:
    """A path as the corpus names its files: ``./inventory/ledger.py`` and
    ``inventory//ledger.py`` are ``inventory/ledger.py`` (a Windows ``\\`` is a ``/``)."""
    path = path.strip().replace("\\", "/")
    if path.startswith("/"):
        return path  # (no file of a corpus is named so: said as not in it)
    parts = [p for p in path.split("/") if p not in ("", ".")]
    return "/".join(parts) if parts else path


def _answer(data: dict, base: QuerySpec) -> QuerySpec:
    """``base`` with the answer ``data`` gives: a path and a symbol or a line span."""
    path = data.get("path")
    if not isinstance(path, str) or not path.strip():
        raise ValueError("'path' must be a non-empty string")
    path = _corpus_path(path)
    symbol = data.get("symbol")
    start, end = data.get("start_line"), data.get("end_line")
    if symbol is not None and (start is not None or end is not None):
        raise ValueError("give 'symbol' or 'start_line' and 'end_line', not both (which would be the answer?)")
    if symbol is not None:
        if not isinstance(symbol, str) or not symbol.strip():
            raise ValueError("'symbol' must be a non-empty string")
        return replace(base, path=path, symbol=symbol.strip())
    if start is None and end is None:
        raise ValueError("needs 'symbol' or 'start_line' and 'end_line'")
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
        raise ValueError("'start_line' and 'end_line' must both be integers")
    if not 1 <= start <= end:
        raise ValueError(f"bad line span {start}-{end} (1-based, start <= end)")
    return replace(base, path=path, start_line=start, end_line=end)


def load_queries(path: Path) -> list[QuerySpec]:
    """Query specs from a JSONL file (see :func:`parse_queries`)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the query set ({exc.strerror or exc})") from None
    return parse_queries(query_text(data, str(path)), str(path))


def query_text(data: bytes, source: str = "queries") -> str:
    """The text of a query set's bytes: UTF-8, or UTF-16/32 with its byte order mark (what
    PowerShell and Windows editors write); :class:`InputError` for anything else."""
    wide = wide_encoding(data)
    try:
        return data.decode(wide or "utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{source}: not UTF-8 text (byte {exc.start:,}); save the query set as UTF-8") from None


# ---- targets -----------------------------------------------------------------------------------


class _Prepared:
    """Prepared documents of a corpus, made once and shared by every settings and strategy."""

    def __init__(self, corpus: Corpus) -> None:
        self.sources = {s.path: s for s in corpus.files}
        self._prepared: dict[str, Prepared] = {}

    def get(self, path: str) -> Prepared | None:
        source = self.sources.get(path)
        if source is None or source.text is None or source.language in TABLE_LANGUAGES:
            return None
        found = self._prepared.get(path)
        if found is None:
            found = self._prepared[path] = prepare(source.path, source.language, source.text)
        return found


_TRAIT_IMPL = re.compile(r"<([^<>\s]+) as [^<>]+>")


def resolve_target(spec: QuerySpec, prep: Prepared, definitions: Sequence[Definition] | None = None) -> Target:
    """The target span of ``spec`` in its document; :class:`InputError` when it is not there.

    ``definitions`` (the document's, from :func:`list_definitions`) saves listing them again.
    """
    doc = prep.doc
    if spec.symbol is not None:
        if definitions is None:
            definitions = list_definitions(prep)
        # Written with the language's own separators (``App\Cart\Cart::addItem``), a symbol
        # is the breadcrumb ``App.Cart.Cart.addItem``.
        wanted = spec.symbol.replace("::", ".").replace("\\", ".")
        exact = [d for d in definitions if d.symbol in (spec.symbol, wanted)]
        # (A callback's label keeps its own text: ``.describe(Reports::Summary)`` as written.)
        found = exact or [d for d in definitions if d.symbol.endswith(("." + wanted, "." + spec.symbol))]
        if not found:
            # The query may be more qualified than our breadcrumbs (``Vendor.App.Cart.addItem``
            # for a file whose namespace is not written in it): the longest breadcrumb it ends with.
            longer = [d for d in definitions if wanted.endswith("." + d.symbol)]
            best = max((len(d.symbol) for d in longer), default=0)
            found = [d for d in longer if len(d.symbol) == best]
        if not found:
            # ``ByteSize.fmt`` for a trait's method, ``<ByteSize as Display>.fmt`` (Rust).
            found = [d for d in definitions if _TRAIT_IMPL.sub(r"\1", d.symbol) in (wanted, spec.symbol)]
        if not found:
            if not definitions and doc.language in TEXT_LANGUAGES:  # (Markdown, YAML, ...: sections, no definitions)
                raise InputError(
                    f"no definition {spec.symbol!r} in {spec.path}: a {doc.language} file's sections are no "
                    "definitions; give the section's start_line and end_line"
                )
            raise InputError(f"no definition {spec.symbol!r} in {spec.path}")
        if len(found) > 1:
            names = ", ".join(f"{d.symbol} (line {d.first})" for d in found[:4])
            raise InputError(f"{spec.symbol!r} is ambiguous in {spec.path}: {names}")
        first, last = found[0].first, found[0].last
    else:
        assert spec.start_line is not None and spec.end_line is not None  # checked when parsed
        first, last = spec.start_line, spec.end_line
        if last > doc.line_count:
            raise InputError(f"lines {first}-{last} are past the end of {spec.path} ({doc.line_count} lines)")
    lines = frozenset(n for n in range(first, last + 1) if not doc.is_blank(n))
    if not lines:
        raise InputError(f"lines {first}-{last} of {spec.path} are blank")
    start_byte, end_byte = doc.lines_span(first, last)
    return Target(spec.path, first, last, start_byte, end_byte, lines, doc.data[start_byte:end_byte])


def table_target(spec: QuerySpec, source: SourceFile) -> Target:
    """The target of ``spec`` in a CSV or TSV file: its lines ``start_line..end_line``, counted
    as table chunks count them (line 1 the header row, then a line per row; byte offsets into the
    file as it is, whatever its encoding). :class:`InputError` for a symbol (a table has no
    definitions), a workbook (no lines) or lines past the end."""
    from core.tables import open_stream

    if spec.symbol is not None:
        raise InputError(f"{spec.path} is a table: give its rows as start_line/end_line, not a symbol")
    if source.language == "xlsx":
        raise InputError(f"{spec.path} is a workbook: its rows have no lines to point at (use its CSV export)")
    assert spec.start_line is not None and spec.end_line is not None  # checked when parsed
    first, last = spec.start_line, spec.end_line
    with open_stream(source) as stream:
        data = stream.read()
    starts = [0]  # where each line starts, up to the one after ``last``
    while len(starts) <= last:
        newline = data.find(b"\n", starts[-1])
        if newline < 0:
            break
        starts.append(newline + 1)
    count = len(starts) - 1 if starts[-1] == len(data) else len(starts)
    if last > count:
        raise InputError(f"lines {first}-{last} are past the end of {spec.path} ({count} lines)")

    def end(line: int) -> int:
        if line < len(starts):
            stop = starts[line] - 1
            return stop - 1 if stop > 0 and data[stop - 1] == 13 else stop  # before "\r\n"
        return len(data)

    lines = frozenset(n for n in range(first, last + 1) if data[starts[n - 1] : end(n)].strip())
    if not lines:
        raise InputError(f"lines {first}-{last} of {spec.path} are blank")
    return Target(spec.path, first, last, starts[first - 1], end(last), lines, data[starts[first - 1] : end(last)])


# ---- metrics -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueryOutcome:
    """The metrics of one query under one strategy and mode."""

    line: int
    query: str
    strategy: str
    mode: str
    touched_rank: int | None  # rank of the first chunk overlapping the target
    whole_rank: int | None  # rank of the first chunk holding the whole target
    recall: float
    precision: float
    iou: float
    in_context: bool
    top: tuple[str, ...] = field(default=())  # "path:first-last" of the top-k chunks


Result = tuple[Chunk, ...]
"""One search result: a chunk, or every chunk of a split definition (:mod:`core.groups`)."""


def as_results(ranked: Sequence[Chunk | Sequence[Chunk]]) -> list[Result]:
    """Ranked results as tuples of chunks (a bare chunk is a result of one)."""
    return [(item,) if isinstance(item, Chunk) else tuple(item) for item in ranked]


def holds_source(chunk: Chunk, target: Target) -> bool:
    """Whether ``chunk`` answers for the source its span covers, as far as ``target`` goes. A
    table profile's text is a summary: it answers a question about the whole table (an
    aggregate, whose target is every line of it), and holds none of the single rows its span
    covers."""
    if chunk.kind != "table_profile":
        return True
    return chunk.path == target.path and target.first <= chunk.start_line and chunk.end_line <= target.last


def _overlaps(result: Result, target: Target) -> bool:
    return any(
        c.path == target.path and c.start_line <= target.last and c.end_line >= target.first and holds_source(c, target)
        for c in result
    )


def _covered(chunks: Sequence[Chunk], target: Target) -> set[int]:
    """The target's lines that ``chunks`` touch."""
    covered: set[int] = set()
    for c in chunks:
        if c.path == target.path and holds_source(c, target):
            covered.update(range(max(c.start_line, target.first), min(c.end_line, target.last) + 1))
    return covered


def _holds(result: Sequence[Chunk], target: Target) -> bool:
    """Whether the chunks hold the whole target: every byte of it that is not whitespace (the
    newlines and blank lines between adjacent chunks are in none). Byte-exact, so a raw window
    that ends inside the target's last line does not count as holding that line."""
    if not target.data:  # a target built without its bytes: by lines
        return target.lines <= _covered(result, target)
    base = target.start_byte
    spans = sorted(
        (max(c.start_byte, base), min(c.end_byte, target.end_byte))
        for c in result
        if c.path == target.path and holds_source(c, target)
    )
    at = base
    for a, b in spans:
        if b <= at:
            continue
        if a > at and target.data[at - base : a - base].strip():
            return False
        at = max(at, b)
    return not target.data[at - base :].strip()


def _union_length(spans: list[tuple[int, int]]) -> int:
    total, end = 0, -1
    for a, b in sorted(spans):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def _blank_gaps(spans: list[tuple[int, int]], target: Target) -> int:
    """How many bytes of ``target`` no span covers and that are whitespace only, run by run
    (0 when the target's bytes are not known)."""
    if len(target.data) != target.end_byte - target.start_byte:
        return 0
    total, at = 0, target.start_byte
    for a, b in [*sorted(spans), (target.end_byte, target.end_byte)]:
        if a > at and not target.data[at - target.start_byte : a - target.start_byte].strip():
            total += a - at
        at = max(at, b)
    return total


def span_metrics(chunks: Sequence[Chunk], target: Target) -> tuple[float, float, float]:
    """(recall, precision, iou) of the target's bytes against the union of the chunks' spans."""
    target_len = target.end_byte - target.start_byte
    spans_by_path: dict[str, list[tuple[int, int]]] = {}
    summaries = 0  # text retrieved that is no span of the source (table profiles)
    for c in chunks:
        if holds_source(c, target):
            spans_by_path.setdefault(c.path, []).append((c.start_byte, c.end_byte))
        else:
            summaries += len(c.text.encode("utf-8", "surrogatepass"))
    retrieved = sum(_union_length(s) for s in spans_by_path.values()) + summaries
    same = spans_by_path.get(target.path, [])
    clipped = [(a, b) for a, b in ((max(a, target.start_byte), min(b, target.end_byte)) for a, b in same) if b > a]
    hit = _union_length(clipped)
    if hit:
        # The blank lines between a split definition's parts are in no chunk: they are not text
        # the answer misses (as whole@k reads it), and they join the pieces retrieved.
        gaps = _blank_gaps(clipped, target)
        hit, retrieved = hit + gaps, retrieved + gaps
    recall = hit / target_len if target_len else 0.0
    precision = hit / retrieved if retrieved else 0.0
    union = retrieved + target_len - hit
    return recall, precision, (hit / union if union else 0.0)


def fill_context(
    ranked: Sequence[Chunk | Sequence[Chunk]],
    budget: int,
    tokens_of: Callable[[Chunk], int],
    repeated: Callable[[Chunk], int] | None = None,
) -> list[Chunk]:
    """The chunks, in rank order, that go into a context of ``budget`` tokens. A result that does
    not fit the room left is passed over whole; a chunk already in the context (a nested
    definition found on its own, then inside its whole function) goes in and costs once.

    A split definition costs all its chunks, less what ``repeated`` says each chunk after the
    first repeats (its breadcrumb and signature header): given whole, the definition is given
    once, under one breadcrumb."""
    taken: list[Chunk] = []
    ids: set[str] = set()
    room = budget
    for result in as_results(ranked):
        new = [c for c in result if c.id not in ids]
        if not new:
            continue
        size = sum(tokens_of(c) for c in new)
        if repeated is not None and len(result) > 1:
            size -= sum(repeated(c) for c in new if c is not result[0])
        if size <= room:
            taken.extend(new)
            ids.update(c.id for c in new)
            room -= size
        if room <= 0:
            break
    return taken


def score_query(
    spec: QuerySpec,
    target: Target | Sequence[Target],
    ranked: Sequence[Chunk | Sequence[Chunk]],
    *,
    strategy: str,
    mode: str,
    k: int,
    context_tokens: int,
    tokens_of: Callable[[Chunk], int],
    repeated: Callable[[Chunk], int] | None = None,
) -> QueryOutcome:
    """Every metric of one query from its ranked results (deeper than ``k`` for the context); a
    result is a chunk or the chunks of one split definition (``repeated``: see
    :func:`fill_context`). Given several targets (equally right answers), each figure is the best
    any of them gets: the first rank at which one is touched or held whole, the context holding
    any one whole, and the byte figures of the answer with the best IoU."""
    targets = (target,) if isinstance(target, Target) else tuple(target)
    if not targets:
        raise ValueError("score_query needs at least one target")
    results = as_results(ranked)
    top = results[:k]
    touched = next((r for r, res in enumerate(top, start=1) if any(_overlaps(res, t) for t in targets)), None)
    whole = next((r for r, res in enumerate(top, start=1) if any(_holds(res, t) for t in targets)), None)
    top_chunks = [c for res in top for c in res]
    recall, precision, iou = max((span_metrics(top_chunks, t) for t in targets), key=lambda m: (m[2], m[0]))
    context = fill_context(results, context_tokens, tokens_of, repeated)
    return QueryOutcome(
        line=spec.line,
        query=spec.query,
        strategy=strategy,
        mode=mode,
        touched_rank=touched,
        whole_rank=whole,
        recall=recall,
        precision=precision,
        iou=iou,
        in_context=any(_holds(context, t) for t in targets),
        top=tuple(_label(res) for res in top),
    )


def prefix_of(chunk: Chunk) -> str:
    """What ``embed_text`` holds above the chunk's own text (breadcrumb and header)."""
    return chunk.embed_text[: len(chunk.embed_text) - len(chunk.text)] if chunk.embed_text.endswith(chunk.text) else ""


def context_costs(model: str) -> tuple[Callable[[Chunk], int], Callable[[Chunk], int]]:
    """``tokens_of`` and ``repeated`` for :func:`fill_context` in ``model``'s tokens: what a
    chunk costs in a context (all it embeds), and what a later part of a whole definition
    repeats (its breadcrumb and header)."""
    token_sizer = make_sizer("tokens", model)

    def tokens_of(chunk: Chunk) -> int:
        return chunk.size if chunk.unit == "tokens" else token_sizer.measure(chunk.embed_text)

    def repeated(chunk: Chunk) -> int:
        return token_sizer.measure(prefix_of(chunk))

    return tokens_of, repeated


def _label(result: Result) -> str:
    first = min(c.start_line for c in result)
    last = max(c.end_line for c in result)
    return f"{result[0].path}:{first}-{last}"


@dataclass(frozen=True)
class MetricRow:
    """Aggregate metrics of one strategy and mode over a query set."""

    strategy: str
    mode: str
    queries: int
    k: int
    touched: float
    whole: float
    mrr: float
    recall: float
    precision: float
    iou: float
    in_context: float
    context_tokens: int
    chunks: int
    median_size: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with metric names that carry k."""
        k = self.k
        return {
            "strategy": self.strategy,
            "mode": self.mode,
            "queries": self.queries,
            f"touched@{k}": round(self.touched, 4),
            f"whole@{k}": round(self.whole, 4),
            f"mrr@{k}": round(self.mrr, 4),
            f"recall@{k}": round(self.recall, 4),
            f"precision@{k}": round(self.precision, 4),
            f"iou@{k}": round(self.iou, 4),
            f"in_context@{self.context_tokens}": round(self.in_context, 4),
            "chunks": self.chunks,
            "median_size": self.median_size,
        }


def aggregate(outcomes: Sequence[QueryOutcome], *, k: int, context_tokens: int, chunks: Sequence[Chunk]) -> MetricRow:
    """One row from the outcomes of one strategy and mode."""
    n = len(outcomes)

    def share(values: list[bool]) -> float:
        return sum(values) / n if n else 0.0

    first = outcomes[0] if outcomes else None
    return MetricRow(
        strategy=first.strategy if first else "",
        mode=first.mode if first else "",
        queries=n,
        k=k,
        touched=share([o.touched_rank is not None for o in outcomes]),
        whole=share([o.whole_rank is not None for o in outcomes]),
        mrr=sum(1 / o.touched_rank for o in outcomes if o.touched_rank) / n if n else 0.0,
        recall=mean(o.recall for o in outcomes) if n else 0.0,
        precision=mean(o.precision for o in outcomes) if n else 0.0,
        iou=mean(o.iou for o in outcomes) if n else 0.0,
        in_context=share([o.in_context for o in outcomes]),
        context_tokens=context_tokens,
        chunks=len(chunks),
        median_size=float(median(c.size for c in chunks)) if chunks else 0.0,
    )


@dataclass(frozen=True)
class EvalReport:
    """Metrics per (strategy, mode), per-query outcomes, and the queries that could not be used."""

    settings: ChunkSettings
    rows: tuple[MetricRow, ...]
    outcomes: tuple[QueryOutcome, ...]
    unresolved: tuple[tuple[int, str], ...]  # (query line, reason)
    reused: int = 0  # chunk embeddings found in the cache
    embedded: int = 0  # chunk texts embedded now
    too_long: int = 0  # chunks longer than the model reads
    notes: tuple[tuple[int, str], ...] = ()  # (query line, what to know) of questions scored

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (without per-query outcomes)."""
        return {
            "settings": self.settings.to_dict(),
            "metrics": [r.to_dict() for r in self.rows],
            "unresolved": [{"line": line, "reason": reason} for line, reason in self.unresolved],
            "notes": [{"line": line, "note": note} for line, note in self.notes],
            "embeddings": {"reused": self.reused, "embedded": self.embedded, "too_long": self.too_long},
        }


# ---- running ----------------------------------------------------------------------------------


class Evaluation:
    """A corpus and a query set, prepared once, evaluated under any settings (sweeps re-use it)."""

    def __init__(
        self, corpus: Corpus, queries: Sequence[QuerySpec], embedder: Embedder, *, has_header: bool | None = None
    ) -> None:
        self.corpus = corpus
        self.embedder = embedder
        self.has_header = has_header  # tables: whether their first rows are headers (None: detected)
        self.prepared = _Prepared(corpus)
        resolved: list[tuple[QuerySpec, tuple[Target, ...]]] = []
        unresolved: list[tuple[int, str]] = []
        notes: list[tuple[int, str]] = []
        self._definitions: dict[str, list[Definition]] = {}
        first_line: dict[tuple[str, tuple[Target, ...]], int] = {}
        for spec in queries:
            answer, *also = spec.answers()
            try:
                targets = [self._target(answer)]
            except InputError as exc:
                unresolved.append((spec.line, str(exc)))
                continue
            try:
                for position, other in enumerate(also, start=1):
                    targets.append(self._target(other))
            except InputError as exc:
                # (The question is left out, as one whose answer is not there: its figures would
                # be scored against fewer answers than its author gave.)
                unresolved.append((spec.line, f"its 'also' answer {position}: {exc}"))
                continue
            key = (spec.query, tuple(targets))
            if key in first_line:
                notes.append((spec.line, f"the same question and answer as line {first_line[key]}: it counts twice"))
            first_line.setdefault(key, spec.line)
            resolved.append((spec, tuple(targets)))
        self.resolved = resolved  # each query with its targets: its answer first, then its ``also`` ones
        self.unresolved = tuple(unresolved)
        self.notes = tuple(notes)  # (query line, what to know) of questions that are scored
        # Per model (its cache key): the embedder and the queries' vectors. A settings' model
        # other than ``embedder``'s (a sweep over models) gets its own, over the same cache.
        self._models: dict[str, tuple[Embedder, Any]] = {}

    def _for_model(self, model: str) -> tuple[Embedder, Any]:
        """The embedder of ``model`` and the queries' vectors under it (made once per model)."""
        key = model_key(model)
        found = self._models.get(key)
        if found is None:
            embedder = self.embedder
            if key != embedder.key:
                embedder = Embedder(model, cache=embedder.cache, batch_size=embedder.batch_size, device=embedder.device)
            vectors = embedder.embed([spec.query for spec, _ in self.resolved]).vectors if self.resolved else None
            found = self._models[key] = (embedder, vectors)
        return found

    def _target(self, spec: QuerySpec) -> Target:
        """The target of one answer; :class:`InputError` says why there is none."""
        source = self.prepared.sources.get(spec.path)
        if source is not None and source.language in TABLE_LANGUAGES:
            return table_target(spec, source)
        prep = self.prepared.get(spec.path)
        if prep is None:
            skipped = next((s.reason for s in self.corpus.skipped if s.path == spec.path), None)
            if skipped is not None:
                raise InputError(f"{spec.path} was skipped when the corpus was read: {skipped}")
            if source is not None:
                raise InputError(f"{spec.path} is not a code or text file of the corpus")
            raise InputError(f"{spec.path} is not in the corpus{self._elsewhere(spec.path)}")
        if spec.symbol is not None and spec.path not in self._definitions:
            self._definitions[spec.path] = list_definitions(prep)
        return resolve_target(spec, prep, self._definitions.get(spec.path))

    def _elsewhere(self, path: str) -> str:
        """A hint when ``path`` names a corpus file from another folder: the query set's paths
        are relative to a folder above the corpus (``tables/sales.csv`` for ``sales.csv``) or
        below it; else nothing."""
        found = [s.path for s in self.corpus.files if path.endswith("/" + s.path) or s.path.endswith("/" + path)]
        if not found:
            return ""
        held = " and ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
        return f" (it holds {held}: a query set's paths are relative to the folder read, so read the folder they are relative to)"

    def chunks(self, settings: ChunkSettings, strategy: str, known: FileChunks | None = None) -> list[Chunk]:
        """Chunks of the whole corpus, in its files' order (files that cannot be chunked are left
        out). ``known``: chunks already made under ``settings`` by ``strategy``, by file path (an
        app's cache of them); those files are not chunked again."""
        out: list[Chunk] = []
        for source in self.corpus.files:
            made = known.get(source.path) if known is not None else None
            out.extend(made if made is not None else self._chunk_one(source, settings, strategy))
        return out

    def _chunk_one(self, source: SourceFile, settings: ChunkSettings, strategy: str) -> list[Chunk]:
        prep = self.prepared.get(source.path)
        try:
            if prep is not None:
                return chunk_document(prep, settings, strategy)
            return chunk_source(source, settings, strategy, has_header=self.has_header)
        except InputError:
            return []  # unreadable tables and the like: not part of what is searched

    def run(
        self,
        settings: ChunkSettings,
        *,
        strategies: Sequence[str] = ("fixed", "syntax"),
        modes: Sequence[str] = MODES,
        k: int = DEFAULT_K,
        context_tokens: int = DEFAULT_CONTEXT_TOKENS,
        fusion: Fusion = Fusion(),
        progress: Callable[[str, int, int], None] | None = None,
        whole_definitions: bool = True,
        chunks: Mapping[str, FileChunks] | None = None,
        scored: Callable[[str, int, int], None] | None = None,
    ) -> EvalReport:
        """Metrics per strategy and mode under ``settings`` (``whole_definitions``: see
        :meth:`core.index.MemoryIndex.search`).

        ``chunks``: per strategy, chunks already made under ``settings`` by file path (see
        :meth:`chunks`): a caller that chunked the corpus to count its chunks passes them, and
        the corpus is chunked once. ``progress(strategy, done, total)`` follows the embedding of
        each strategy's texts (chunks and heads, cached ones counted done at once);
        ``scored(strategy, done, total)`` the questions searched and scored, ``total`` being the
        questions times the modes."""
        for mode in modes:
            check_mode(mode)
        if not self.resolved:  # every figure would be a meaningless 0 over no question
            reasons = "; ".join(f"line {line}: {reason}" for line, reason in self.unresolved[:3])
            raise InputError(f"none of the {len(self.unresolved)} questions has a target in the corpus ({reasons})")
        if k < 1 or context_tokens < 1:
            raise InputError(f"k and the context size must be positive (got k={k}, context={context_tokens})")
        tokens_of, repeated = context_costs(settings.model)
        # Keyword search alone reads no vector: nothing is embedded, and no model is loaded.
        vectors_needed = any(mode != "keyword" for mode in modes)
        embedder, query_vectors = self._for_model(settings.model) if vectors_needed else (None, None)

        rows: list[MetricRow] = []
        outcomes: list[QueryOutcome] = []
        reused = embedded = too_long = 0
        depth = max(k, fusion.depth)
        given = chunks if chunks is not None else {}
        for strategy in strategies:
            chunks_now = searchable(self.chunks(settings, strategy, given.get(strategy)))

            def on_progress(done: int, total: int, strategy: str = strategy) -> None:
                if progress is not None:
                    progress(strategy, done, total)

            if embedder is None:
                on_progress(len(chunks_now), len(chunks_now))
                index = MemoryIndex(chunks_now, np.zeros((len(chunks_now), 0), dtype=np.float32))
            else:
                result = embed_chunks(
                    embedder,
                    chunks_now,
                    head_weight=settings.head_weight,
                    head_lines=settings.head_lines,
                    progress=on_progress,
                )
                reused += result.reused
                embedded += result.computed
                too_long += len(result.too_long)
                index = MemoryIndex(
                    chunks_now, result.vectors, too_long=frozenset(chunks_now[t.index].id for t in result.too_long)
                )
            questions = len(self.resolved) * len(modes)
            for step, mode in enumerate(modes):
                mode_outcomes = []
                for row, (spec, targets) in enumerate(self.resolved):
                    if scored is not None:
                        scored(strategy, step * len(self.resolved) + row, questions)
                    vector = query_vectors[row] if query_vectors is not None else None
                    hits = index.search(
                        spec.query, vector, k=depth, mode=mode, fusion=fusion, whole_definitions=whole_definitions
                    )
                    mode_outcomes.append(
                        score_query(
                            spec,
                            targets,
                            [h.chunks for h in hits],
                            strategy=strategy,
                            mode=mode,
                            k=k,
                            context_tokens=context_tokens,
                            tokens_of=tokens_of,
                            repeated=repeated,
                        )
                    )
                rows.append(aggregate(mode_outcomes, k=k, context_tokens=context_tokens, chunks=chunks_now))
                outcomes.extend(mode_outcomes)
            if scored is not None:
                scored(strategy, questions, questions)
        return EvalReport(settings, tuple(rows), tuple(outcomes), self.unresolved, reused, embedded, too_long, self.notes)


def evaluate(
    corpus: Corpus,
    queries: Sequence[QuerySpec],
    settings: ChunkSettings,
    embedder: Embedder,
    **options: Any,
) -> EvalReport:
    """Evaluate one settings over a corpus and query set (options as :meth:`Evaluation.run`)."""
    return Evaluation(corpus, queries, embedder).run(settings, **options)


def sweep(
    evaluation: Evaluation,
    base: ChunkSettings,
    grid: Mapping[str, Sequence[Any]],
    **options: Any,
) -> list[dict[str, Any]]:
    """Evaluate every combination of ``grid`` (ChunkSettings fields to values) over ``base``.

    Returns one flat row per (combination, strategy, mode): the combination's values, then the
    metrics. A combination the settings refuse (e.g. overlap not below the budget) gets one row
    with its ``error``. Embeddings are re-used through the embedder's cache.
    """
    keys = list(grid)
    table: list[dict[str, Any]] = []
    for values in itertools.product(*(grid[key] for key in keys)):
        combo = dict(zip(keys, values))
        if "unit" in combo and "budget" not in combo:
            # A budget is a number of units: 254 tokens is not 254 characters. A unit swept
            # without a budget takes that unit's default budget, as ``--unit`` alone does (the
            # base's own budget in the base's unit); every row says which.
            combo["budget"] = base.budget if combo["unit"] == base.unit else DEFAULT_BUDGETS.get(combo["unit"], base.budget)
        try:
            settings = base.with_(**combo)
        except (ChunkExplorerError, TypeError) as exc:
            table.append({**combo, "error": str(exc)})
            continue
        report = evaluation.run(settings, **options)
        for row in report.rows:
            table.append({**combo, **row.to_dict(), "reused": report.reused, "embedded": report.embedded})
    return table


@dataclass(frozen=True)
class SweepStep:
    """One combination of a sweep in the app's terms (overlap and head weight in percent), the
    settings it makes, and the strategies to evaluate for it (none: all done already)."""

    budget: int
    overlap_pct: int
    breadcrumb: bool
    head_pct: int
    settings: ChunkSettings
    strategies: tuple[str, ...]


def sweep_steps(base: ChunkSettings, grid: Mapping[str, Sequence[Any]]) -> list[SweepStep]:
    """Every combination of ``grid`` (``budget``, ``overlap_pct``, ``breadcrumb``, optionally
    ``head_pct``) over ``base``, each with the strategies it changes. Overlap shapes fixed
    windows only and the head weight syntax chunks only: fixed runs at the least head weight,
    syntax at the least overlap; and a strategy runs once per distinct settings (10% and 25% of
    a 3-line budget are both 0 lines: one run, not three rows labelled apart)."""
    heads = tuple(grid.get("head_pct", (round(base.head_weight * 100),)))
    least_overlap, least_head = min(grid["overlap_pct"]), min(heads)
    steps: list[SweepStep] = []
    done: set[tuple[str, str]] = set()
    for budget, pct, crumb, head in itertools.product(grid["budget"], grid["overlap_pct"], grid["breadcrumb"], heads):
        settings = base.with_(budget=int(budget), overlap=min(int(budget) * int(pct) // 100, int(budget) - 1),
                              breadcrumb=bool(crumb), head_weight=int(head) / 100)
        key = settings.key()
        strategies = tuple(s for s, matters in (("fixed", head == least_head), ("syntax", pct == least_overlap))
                           if matters and (key, s) not in done)
        done.update((key, s) for s in strategies)
        steps.append(SweepStep(int(budget), int(pct), bool(crumb), int(head), settings, strategies))
    return steps


def parse_grid(items: Sequence[str]) -> dict[str, list[Any]]:
    """``["budget=128,254", "breadcrumb=true,false"]`` as a grid of typed ChunkSettings values."""
    from dataclasses import fields as dataclass_fields

    types = {f.name: f.type for f in dataclass_fields(ChunkSettings)}
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in types:
            raise InputError(f"bad sweep axis {item!r}: expected NAME=V1,V2 with NAME one of {', '.join(types)}")
        values: list[Any] = []
        for text in raw.split(","):
            text = text.strip()
            kind = str(types[key])
            if "bool" in kind:
                if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise InputError(f"sweep axis {key}: {text!r} is not true or false")
                values.append(text.lower() in ("true", "1", "yes"))
            elif kind == "float":
                try:
                    values.append(float(text))
                except ValueError:
                    raise InputError(f"sweep axis {key}: {text!r} is not a number") from None
            elif "int" in kind:
                try:
                    values.append(int(text))
                except ValueError:
                    raise InputError(f"sweep axis {key}: {text!r} is not an integer") from None
            else:
                values.append(text)
        if key == "table_rows":  # 0 rows a chunk: by the budget, as ``--rows 0`` says
            values = [None if v == 0 else v for v in values]
        grid[key] = list(dict.fromkeys(values))  # (a value given twice is run once)
    return grid
