"""The one settings object shared by the UI, the CLI and the index key."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from core.errors import SettingsError

UNITS = ("tokens", "chars", "nws", "lines")
TABLE_FORMATS = ("csv", "markdown", "records")
DEFAULT_MODEL = "all-MiniLM-L6-v2"

# The bundled model reads 256 word pieces, two of which are [CLS] and [SEP]: 254 content tokens.
DEFAULT_BUDGET = 254

# How a chunk's vector leans toward its head (breadcrumb, signature, first lines): see ChunkSettings.
DEFAULT_HEAD_WEIGHT = 0.3
DEFAULT_HEAD_LINES = 6

# Settings that shape a chunk's vector but not the chunks (ChunkSettings.chunk_key leaves them out).
VECTOR_FIELDS = ("head_weight", "head_lines")

# Rough conversions so that a unit switch keeps a comparable chunk size (UI and CLI defaults).
DEFAULT_BUDGETS = {"tokens": DEFAULT_BUDGET, "chars": 800, "nws": 600, "lines": 40}


@dataclass(frozen=True)
class ChunkSettings:
    """Every parameter of every chunker. Validated on construction; frozen and hashable.

    ``budget`` and ``overlap`` are in ``unit``. ``overlap`` applies to fixed windows only: the
    syntax chunker never duplicates code. ``raw_cuts`` makes fixed windows cut anywhere instead of
    at line ends. ``merge_siblings`` packs small adjacent definitions into one chunk up to the
    budget (off by default: on bench/bench_retrieval_quality.py it cost 3.7 points of whole@5
    and 8.3 of in-context recall, and it re-uses fewer embeddings after a budget change). ``breadcrumb`` prefixes ``embed_text`` with ``path :: symbol`` as a comment.
    ``class_summary`` lists member signatures in a split class's header chunk.
    ``table_rows`` (when set) batches tables by row count instead of by budget.

    ``head_weight`` and ``head_lines`` shape the vector of a syntax chunk, not its text: the
    vector is ``(1 - head_weight)`` times the embedding of ``embed_text`` plus ``head_weight``
    times the embedding of its head, its first ``head_lines`` non-blank lines (breadcrumb,
    signature, first statements), so a query scores ``(1 - w) cos(query, chunk) + w cos(query,
    head)``. A long chunk's embedding averages everything in it; its head says what it is. Fixed
    windows, tables and prose are embedded whole (:func:`core.embed.has_head`). 0 turns it off (one
    text per chunk is embedded instead of two). The figures behind 0.3 and 6 lines are in the
    README (Retrieval quality: bench/bench_retrieval_quality.py --tune): 0.3 is the best of 0,
    0.3, 0.5 and 0.7 on the tuning queries, and better than 0.5 on the held-out ones too.
    """

    budget: int = DEFAULT_BUDGET
    unit: str = "tokens"
    overlap: int = 0
    raw_cuts: bool = False
    merge_siblings: bool = False
    breadcrumb: bool = True
    class_summary: bool = True
    model: str = DEFAULT_MODEL
    table_rows: int | None = None
    table_format: str = "csv"
    head_weight: float = DEFAULT_HEAD_WEIGHT
    head_lines: int = DEFAULT_HEAD_LINES

    def __post_init__(self) -> None:
        for name in ("raw_cuts", "merge_siblings", "breadcrumb", "class_summary"):
            value = getattr(self, name)
            if not isinstance(value, bool):  # "false" from a hand-edited file must not read as on
                raise SettingsError(f"{name} must be true or false, got {value!r}")
        for name in ("budget", "overlap", "table_rows", "head_lines"):
            if isinstance(getattr(self, name), bool):  # True is an int to Python, not a size
                raise SettingsError(f"{name} must be a number, got {getattr(self, name)!r}")
        if self.unit not in UNITS:
            raise SettingsError(f"unknown unit {self.unit!r}; expected one of: {', '.join(UNITS)}")
        if not isinstance(self.budget, int) or self.budget < 1:
            raise SettingsError(f"budget must be a positive integer, got {self.budget!r}")
        if not isinstance(self.overlap, int) or not 0 <= self.overlap < self.budget:
            raise SettingsError(
                f"overlap must be at least 0 and smaller than the budget ({self.budget}), got {self.overlap!r}"
            )
        if self.table_rows is not None and (not isinstance(self.table_rows, int) or self.table_rows < 1):
            raise SettingsError(f"rows per table chunk must be a positive integer, got {self.table_rows!r}")
        if self.table_format not in TABLE_FORMATS:
            raise SettingsError(
                f"unknown table format {self.table_format!r}; expected one of: {', '.join(TABLE_FORMATS)}"
            )
        if isinstance(self.head_weight, bool) or not isinstance(self.head_weight, (int, float)) or not 0 <= self.head_weight < 1:
            raise SettingsError(f"head weight must be at least 0 and below 1, got {self.head_weight!r}")
        # One spelling per value (0 and 0.0 would name two collections for the same vectors).
        object.__setattr__(self, "head_weight", float(self.head_weight))
        if isinstance(self.head_lines, bool) or not isinstance(self.head_lines, int) or self.head_lines < 1:
            raise SettingsError(f"head lines must be a positive integer, got {self.head_lines!r}")
        if not self.model or not isinstance(self.model, str):
            raise SettingsError("model must be a non-empty name or path")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the app's settings export)."""
        return asdict(self)

    def to_json(self) -> str:
        """Settings as pretty JSON."""
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkSettings:
        """Settings from a dict; unknown keys are an error that names them."""
        if not isinstance(data, dict):
            raise SettingsError(f"settings must be a JSON object of named values, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(
                f"unknown setting(s): {', '.join(unknown)}; known: {', '.join(sorted(known))} "
                "(a settings file of a newer Chunk Explorer, or a name misspelt?)"
            )
        # A whole number written as one (200.0: some tools write every number so) is that integer.
        whole = {name: int(value) for name in ("budget", "overlap", "table_rows", "head_lines")
                 if isinstance(value := data.get(name), float) and value.is_integer()}
        data = {**data, **whole}
        if data.get("table_rows") == 0 and not isinstance(data.get("table_rows"), bool):
            data = {**data, "table_rows": None}  # by the budget, as ``--rows 0`` and a sweep's 0 say
        return cls(**data)

    @classmethod
    def from_json(cls, text: str, source: str = "settings") -> ChunkSettings:
        """Settings from JSON text (the app's export); :class:`SettingsError` says what is wrong."""
        try:
            data = json.loads(text.removeprefix("\ufeff"))  # (Notepad and PowerShell write a BOM)
        except (json.JSONDecodeError, RecursionError) as exc:
            where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise SettingsError(f"{source}: not valid JSON{where}") from None
        try:
            return cls.from_dict(data)
        except SettingsError as exc:
            raise SettingsError(f"{source}: {exc}") from None

    def with_(self, **changes: Any) -> ChunkSettings:
        """A copy with ``changes`` applied (validated again)."""
        return replace(self, **changes)

    def key(self) -> str:
        """A short deterministic string that names these settings (index keys, cache keys)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def chunk_key(self) -> str:
        """Like :meth:`key`, without the fields that shape only vectors (:data:`VECTOR_FIELDS`):
        the cache key of a chunking, which they do not change."""
        data = {k: v for k, v in self.to_dict().items() if k not in VECTOR_FIELDS}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def cli_args(self) -> list[str]:
        """The ``python -m core chunk`` options that reproduce these settings."""
        default = ChunkSettings()
        args = ["--budget", str(self.budget), "--unit", self.unit]
        if self.overlap:
            args += ["--overlap", str(self.overlap)]
        if self.raw_cuts:
            args.append("--raw-cuts")
        if self.merge_siblings:
            args.append("--merge")
        if not self.breadcrumb:
            args.append("--no-breadcrumb")
        if not self.class_summary:
            args.append("--no-class-summary")
        if self.model != default.model:
            args += ["--model", self.model]
        if self.table_rows is not None:
            args += ["--rows", str(self.table_rows)]
        if self.table_format != default.table_format:
            args += ["--format", self.table_format]
        if self.head_weight != default.head_weight:
            args += ["--head-weight", str(self.head_weight)]
        if self.head_lines != default.head_lines:
            args += ["--head-lines", str(self.head_lines)]
        return args

    def cli_command(self, path: str, strategy: str = "both", extra: Sequence[str] = ()) -> str:
        """The full shell command that reproduces a chunking of ``path`` with these settings
        (``extra``: options that are not settings, such as ``--root`` or ``--header``)."""
        argv = ["python", "-m", "core", "chunk", _path_argument(path), "--strategy", strategy, *self.cli_args(), *extra]
        return shlex.join(argv)

    @staticmethod
    def file_command(path: str, settings_file: str, strategy: str = "both", extra: Sequence[str] = ()) -> str:
        """:meth:`cli_command` with the settings read from ``settings_file`` (their JSON export)
        instead of written out: the same chunks and ids (``extra`` as there)."""
        return shlex.join(
            ["python", "-m", "core", "chunk", _path_argument(path), "--strategy", strategy, "--settings", settings_file, *extra]
        )


def _path_argument(path: str) -> str:
    """``path`` as a command's argument: ``./-draft.py`` for an upload named ``-draft.py``,
    which the command line would take for an option (the chunks and ids are the same)."""
    return f"./{path}" if path.startswith("-") else path
