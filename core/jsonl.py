"""Chunks of a corpus as JSONL text, on one process or several (the CLI's ``chunk`` command).

Files are independent, so a folder is cut into runs of files that worker processes chunk and
serialise; their texts come back in the order of the files, so the output is the same, byte for
byte, whatever the number of processes. Small inputs stay on one process: starting workers
costs more than it saves.

A chunk longer than the embedding model reads (it would be truncated silently) gets the flag
``over_model_limit``: free in the tokens unit, whose sizes are the model's own counts; in the
other units only when asked (``model_check``), since it costs a tokenization of every chunk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence

from core.chunk import Chunk, dumps_compact
from core.chunking import chunk_corpus
from core.errors import SettingsError
from core.settings import ChunkSettings
from core.sizing import make_sizer, model_token_limit
from core.sources import Corpus, Skipped, SourceFile

MAX_AUTO_JOBS = 8
MIN_PARALLEL_FILES = 16
MIN_PARALLEL_BYTES = 1_000_000
RUNS_PER_JOB = 8  # runs of files per process: enough to even out big and small files
OVER_MODEL_LIMIT = "over_model_limit"


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def choose_jobs(requested: int, files: Sequence[SourceFile]) -> int:
    """Processes to use: ``requested`` when positive; ``0`` means one per usable CPU (at most
    :data:`MAX_AUTO_JOBS`) for inputs big enough to gain from it, else one."""
    if requested < 0:
        raise SettingsError(f"--jobs must be 0 (automatic) or a positive number, got {requested}")
    if requested:
        return min(requested, max(len(files), 1))
    size = sum(_size(f) for f in files)
    if len(files) < MIN_PARALLEL_FILES or size < MIN_PARALLEL_BYTES:
        return 1
    return max(1, min(usable_cpus(), MAX_AUTO_JOBS, len(files)))


def iter_jsonl(
    corpus: Corpus,
    settings: ChunkSettings,
    strategy_choice: str,
    jobs: int = 1,
    *,
    has_header: bool | None = None,
    model_check: bool = False,
) -> Iterator[str | Skipped]:
    """JSONL text (a chunk per line) and :class:`Skipped` files, in the order of the files
    (``has_header``: see :func:`core.chunking.chunk_corpus`). Chunks over the model's limit are
    flagged in the tokens unit, and with ``model_check`` in every unit (see the module's docstring)."""
    check = _checks_limit(settings, model_check)
    if jobs <= 1:
        yield from _serialise(corpus.files, settings, strategy_choice, has_header, check)
        return
    # Imported here: the single-process path (every small input) does without them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    runs = _runs(corpus.files, jobs * RUNS_PER_JOB)
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    # Ctrl-C reaches the workers too (a terminal signals the whole process group): they ignore it,
    # or each printed a traceback; the main process stops, and drops the runs not yet started.
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_interrupts)
    count = len(runs)
    try:
        for items in pool.map(
            _chunk_run, runs, [settings] * count, [strategy_choice] * count, [has_header] * count, [check] * count
        ):
            yield from items
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _ignore_interrupts() -> None:
    """A worker's start: SIGINT is the main process's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serialise(
    files: list[SourceFile], settings: ChunkSettings, strategy_choice: str, has_header: bool | None, check: bool
) -> Iterator[str | Skipped]:
    over = _over_limit(settings) if check else None
    for item in chunk_corpus(Corpus(files=files), settings, strategy_choice, has_header=has_header):
        yield _line(item, over) if isinstance(item, Chunk) else item


def chunks_jsonl(chunks: Iterable[Chunk], settings: ChunkSettings, *, model_check: bool = False) -> str:
    """``chunks`` as the ``chunk`` command writes them with ``settings`` (``model_check``: its
    ``--model-check``): ``over_model_limit`` flagged in tokens, as there (the app's export
    left it out, so the command it shows wrote other lines)."""
    over = _over_limit(settings) if _checks_limit(settings, model_check) else None
    return "".join(_line(chunk, over) for chunk in chunks)


def _checks_limit(settings: ChunkSettings, model_check: bool) -> bool:
    """Whether chunks are checked against the model's limit: always in tokens, where it is
    free, else when asked (``--model-check``)."""
    return model_check or settings.unit == "tokens"


def _line(chunk: Chunk, over: Callable[[Chunk], bool] | None) -> str:
    """One JSONL line of ``chunk``, flagged ``over_model_limit`` when ``over`` says so."""
    if over is None or not over(chunk):
        return chunk.to_json() + "\n"
    data = chunk.to_dict()
    data["flags"] = sorted({*chunk.flags, OVER_MODEL_LIMIT})
    return dumps_compact(data) + "\n"


def _over_limit(settings: ChunkSettings) -> Callable[[Chunk], bool]:
    """Whether a chunk is longer than ``settings.model`` reads: its size in the tokens unit,
    else its ``embed_text`` tokenized (only when it has more characters than the limit has
    tokens: a word piece holds at least one character)."""
    limit = model_token_limit(settings.model)
    if settings.unit == "tokens":
        return lambda chunk: chunk.size > limit
    sizer = make_sizer("tokens", settings.model)
    return lambda chunk: len(chunk.embed_text) > limit and sizer.measure(chunk.embed_text) > limit


def _chunk_run(
    files: list[SourceFile],
    settings: ChunkSettings,
    strategy_choice: str,
    has_header: bool | None = None,
    check: bool = False,
) -> list[str | Skipped]:
    """A worker's task: one run of files, its JSONL joined into as few strings as possible."""
    out: list[str | Skipped] = []
    lines: list[str] = []
    for item in _serialise(files, settings, strategy_choice, has_header, check):
        if isinstance(item, str):
            lines.append(item)
            continue
        if lines:
            out.append("".join(lines))
            lines = []
        out.append(item)
    if lines:
        out.append("".join(lines))
    return out


def _runs(files: list[SourceFile], count: int) -> list[list[SourceFile]]:
    """``files`` cut, in order, into about ``count`` runs of similar size in bytes."""
    total = sum(_size(f) for f in files) or 1
    target = total / max(count, 1)
    runs: list[list[SourceFile]] = [[]]
    filled = 0.0
    for source in files:
        if runs[-1] and filled >= target:
            runs.append([])
            filled = 0.0
        runs[-1].append(source)
        filled += _size(source)
    return runs


def _size(source: SourceFile) -> int:
    if source.text is not None:
        return len(source.text)
    if source.data is not None:
        return len(source.data)
    if source.origin is not None:
        try:
            return source.origin.stat().st_size
        except OSError:
            return 0
    return 0
