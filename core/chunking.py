"""One entry point over every chunker: a registry of strategies with one signature."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from core.builder import Prepared
from core.chunk import Chunk
from core.document import Document
from core.errors import InputError, SettingsError
from core.fixed import chunk_fixed
from core.languages import LANGUAGES, TABLE_LANGUAGES, CodeSpec, TextSpec
from core.settings import ChunkSettings
from core.sources import Corpus, Limits, Skipped, SourceFile, load_file, load_folder, reason_of
from core.syntax import chunk_syntax
from core.text import chunk_text

Chunker = Callable[[Prepared, ChunkSettings], list[Chunk]]


def _structure_aware(prep: Prepared, settings: ChunkSettings) -> list[Chunk]:
    """Syntax chunking for code, structure chunking for prose, blocks for unknown text."""
    spec = LANGUAGES.get(prep.doc.language)
    if isinstance(spec, CodeSpec):
        return chunk_syntax(prep, settings)
    if isinstance(spec, TextSpec):
        return chunk_text(prep, settings)
    return chunk_text(prep, settings, fallback="unknown_language")


CHUNKERS: dict[str, Chunker] = {"fixed": chunk_fixed, "syntax": _structure_aware}
STRATEGY_CHOICES = (*CHUNKERS, "both")


def strategies(choice: str) -> tuple[str, ...]:
    """The strategies a CLI/UI choice stands for (``both`` is fixed then syntax)."""
    if choice == "both":
        return tuple(CHUNKERS)
    if choice not in CHUNKERS:
        raise SettingsError(f"unknown strategy {choice!r}; expected one of: {', '.join(STRATEGY_CHOICES)}")
    return (choice,)


def prepare(path: str, language: str, text: str) -> Prepared:
    """A prepared document (keep it to re-chunk the same text under new settings cheaply)."""
    return Prepared(Document.from_text(path, language, text))


def chunk_document(prep: Prepared, settings: ChunkSettings, strategy: str) -> list[Chunk]:
    """Chunk one prepared text document with one strategy."""
    if strategy not in CHUNKERS:
        raise SettingsError(f"unknown strategy {strategy!r}; expected one of: {', '.join(CHUNKERS)}")
    return CHUNKERS[strategy](prep, settings)


def chunk_source(source: SourceFile, settings: ChunkSettings, strategy: str) -> list[Chunk]:
    """Chunk one loaded source: tables go to :mod:`core.tables`, the rest to the registry."""
    if source.language in TABLE_LANGUAGES:
        from core.tables import chunk_table_source

        return chunk_table_source(source, settings, strategy)
    if source.text is None:
        raise InputError(f"{source.path}: no text to chunk")
    return chunk_document(prepare(source.path, source.language, source.text), settings, strategy)


def load_any(path: Path, *, language: str | None = None, limits: Limits = Limits()) -> Corpus:
    """A file or a folder as a corpus (a single bad file is an error, not a skip)."""
    if path.is_dir():
        if language is not None:
            raise SettingsError("--language applies to a single file, not to a folder")
        return load_folder(path, limits=limits)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    return Corpus(files=[load_file(path, display=path.name, language=language, limits=limits)])


def chunk_corpus(
    corpus: Corpus, settings: ChunkSettings, strategy_choice: str = "both"
) -> Iterator[Chunk | Skipped]:
    """Chunks of every file in ``corpus`` for each strategy; files that fail become Skipped."""
    chosen = strategies(strategy_choice)
    for source in corpus.files:
        try:
            for strategy in chosen:
                if source.language in TABLE_LANGUAGES:
                    from core.tables import iter_table_chunks

                    # Streamed: a large table is never held in memory as a list of chunks.
                    yield from iter_table_chunks(source, settings, strategy)
                else:
                    yield from chunk_source(source, settings, strategy)
        except InputError as exc:
            yield Skipped(source.path, reason_of(exc, source.path))
