"""One entry point over every chunker: a registry of strategies with one signature."""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from core.builder import Prepared
from core.chunk import Chunk
from core.document import Document
from core.embedded import tags_only
from core.errors import InputError, SettingsError
from core.fixed import chunk_fixed
from core.languages import LANGUAGES, TABLE_LANGUAGES, CodeSpec, TextSpec
from core.settings import ChunkSettings
from core.sources import (
    Corpus,
    Limits,
    Note,
    Skipped,
    SourceFile,
    checked_encoding,
    load_file,
    load_folder,
    load_zip,
    name_problem,
    reason_of,
    shown_name,
)
from core.syntax import chunk_syntax
from core.text import chunk_text

Chunker = Callable[[Prepared, ChunkSettings], list[Chunk]]


def _structure_aware(prep: Prepared, settings: ChunkSettings) -> list[Chunk]:
    """Syntax chunking for code, structure chunking for prose, blocks for unknown text; a
    markup file's script blocks as code, the markup around them as text."""
    if prep.parts is not None:
        embedded = _embedded(prep, settings)
        if embedded is not None:
            return embedded
    spec = LANGUAGES.get(prep.doc.language)
    if isinstance(spec, CodeSpec):
        return chunk_syntax(prep, settings)
    if isinstance(spec, TextSpec):
        return chunk_text(prep, settings)
    return chunk_text(prep, settings, fallback="unknown_language")


def _embedded(prep: Prepared, settings: ChunkSettings) -> list[Chunk] | None:
    """The chunks of a markup file's parts (:mod:`core.embedded`): each script block's by the
    syntax chunker, the markup's by the text chunker, all in the file's own offsets and named
    with its language. None when a block's code fell back to fixed windows (errors dominate
    it): the whole file is then cut as markup, as it was before."""
    found: list[Chunk] = []
    for part, part_prep in prep.parts or ():
        if part.code:
            chunks = chunk_syntax(part_prep, settings)
            if any(c.fallback for c in chunks):
                return None
        else:
            chunks = chunk_text(part_prep, settings)
            if tags_only(prep.doc, part):  # a ``<script setup>`` line alone: kept, never indexed
                chunks = [replace(c, flags=tuple(sorted({*c.flags, "divider"}))) for c in chunks]
        found.extend(chunks)
    language = prep.doc.language
    # (The parts tile the file in order, and each chunker gives its chunks in order.)
    return [replace(c, language=language) for c in found]


CHUNKERS: dict[str, Chunker] = {"fixed": chunk_fixed, "syntax": _structure_aware}
STRATEGY_CHOICES = (*CHUNKERS, "both")


def strategies(choice: str) -> tuple[str, ...]:
    """The strategies a CLI/UI choice stands for (``both`` is fixed then syntax)."""
    if choice == "both":
        return tuple(CHUNKERS)
    if choice not in CHUNKERS:
        raise SettingsError(f"unknown strategy {choice!r}; expected one of: {', '.join(STRATEGY_CHOICES)}")
    return (choice,)


_SURROGATE = re.compile("[\ud800-\udfff]")


def prepare(path: str, language: str, text: str) -> Prepared:
    """A prepared document (keep it to re-chunk the same text under new settings cheaply).
    Raises :class:`InputError` for a text that is not Unicode (a lone surrogate, which no file
    read by :mod:`core.sources` holds, but a caller's string may)."""
    doc = Document.from_text(path, language, text)
    if not doc.is_ascii:
        found = _SURROGATE.search(text)
        if found is not None:
            line = text.count("\n", 0, found.start()) + 1
            raise InputError(f"{path}: line {line}: a lone surrogate (U+{ord(found.group()):04X}) is not text; decode the file strictly")
    return Prepared(doc)


def chunk_document(prep: Prepared, settings: ChunkSettings, strategy: str) -> list[Chunk]:
    """Chunk one prepared text document with one strategy. A CSV or TSV text goes to the table
    chunker (:func:`chunk_source`), whose chunks are row batches with the header repeated."""
    if strategy not in CHUNKERS:
        raise SettingsError(f"unknown strategy {strategy!r}; expected one of: {', '.join(CHUNKERS)}")
    doc = prep.doc
    if doc.language in TABLE_LANGUAGES:
        return chunk_source(SourceFile(doc.path, doc.language, text=doc.text), settings, strategy)
    return CHUNKERS[strategy](prep, settings)


def chunk_source(source: SourceFile, settings: ChunkSettings, strategy: str, *, has_header: bool | None = None) -> list[Chunk]:
    """Chunk one loaded source: tables go to :mod:`core.tables` (``has_header``: whether their
    first rows are headers, None: detected), the rest to the registry."""
    if source.language in TABLE_LANGUAGES:
        from core.tables import chunk_table_source

        return chunk_table_source(source, settings, strategy, has_header=has_header)
    if source.text is None:
        raise InputError(f"{source.path}: no text to chunk")
    return chunk_document(prepare(source.path, source.language, source.text), settings, strategy)


def load_any(
    path: Path | str, *, language: str | None = None, limits: Limits = Limits(), root: Path | None = None,
    encoding: str | None = None,
) -> Corpus:
    """A file, a folder or a zipped repository as a corpus (a single bad file is an error, not
    a skip). Files are named by their path below ``root`` when it is given (so that a file of a
    project is named as the app names it: ``inventory/models.py``), else below the folder, or by
    the file's own name; a zip's files are named as in the archive, as the app names them.
    ``encoding``: a file's text encoding (overriding detection); for a folder or a zip, that of
    its files that are not UTF-8 (:func:`core.sources.load_folder`)."""
    path = Path(path)  # a caller's str too
    if encoding is not None:
        checked_encoding(encoding, "--encoding")  # before any file is read with it
    if path.is_dir():
        if language is not None:
            raise SettingsError("--language applies to a single file, not to a folder")
        corpus = load_folder(path, limits=limits, legacy_encoding=encoding)
        prefix = _below(path, root)
        if prefix:
            corpus.files = [replace(f, path=f"{prefix}/{f.path}") for f in corpus.files]
            corpus.skipped = [replace(s, path=f"{prefix}/{s.path}") for s in corpus.skipped]
            corpus.notes = [replace(n, path=f"{prefix}/{n.path}") for n in corpus.notes]
        return corpus
    if not path.exists():
        if path.is_symlink():  # (``ls`` shows it: "no such file" read as a typo)
            try:
                path.resolve(strict=True)
            except (RuntimeError, OSError) as exc:  # (Python 3.13 raises ELOOP as an OSError)
                if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
                    raise InputError(f"{path}: a symbolic link that loops (it leads back to itself)") from None
            raise InputError(f"{path}: a symbolic link to {os.readlink(path)}, which does not exist")
        raise InputError(f"{path}: no such file or folder")
    problem = name_problem(path.name)
    if problem:
        raise InputError(f"{shown_name(path.name)}: {problem}")
    if path.suffix.lower() == ".zip" and language is None and path.is_file():
        if root is not None:
            raise SettingsError("--root does not apply to a zip: its files are named as in the archive")
        size = path.stat().st_size
        if size > limits.max_total_bytes:
            raise InputError(f"{path.name}: {size:,} bytes is over the archive limit of {limits.max_total_bytes:,}")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path.name}: cannot read ({exc.strerror})") from None
        return load_zip(data, name=path.name, limits=limits, legacy_encoding=encoding)
    display = _below(path, root) or path.name
    source = load_file(path, display=display, language=language, limits=limits, encoding=encoding)
    return Corpus(files=[source], notes=[Note(source.path, source.note)] if source.note else [])


def _below(path: Path, root: Path | None) -> str:
    """``path``'s POSIX path below ``root`` ("" for none, or when it is ``root`` itself)."""
    if root is None:
        return ""
    if not root.is_dir():
        raise SettingsError(f"--root {root}: not a folder")
    # As written first (a symlink inside the root names a file there), then as resolved.
    for inside, top in ((Path(os.path.abspath(path)), Path(os.path.abspath(root))), (path.resolve(), root.resolve())):
        if inside.is_relative_to(top):
            below = inside.relative_to(top).as_posix()
            break
    else:
        raise SettingsError(f"{path} is not inside --root {root}")
    if below == ".":
        return ""
    problem = name_problem(below)
    if problem:
        raise InputError(f"{shown_name(below)}: {problem}")
    return below


def chunk_corpus(
    corpus: Corpus, settings: ChunkSettings, strategy_choice: str = "both", *, has_header: bool | None = None
) -> Iterator[Chunk | Skipped]:
    """Chunks of every file in ``corpus`` for each strategy; files that fail become Skipped.
    ``has_header``: whether tables' first rows are headers (None: detected per table)."""
    chosen = strategies(strategy_choice)
    for source in corpus.files:
        given = 0
        try:
            for strategy in chosen:
                if source.language in TABLE_LANGUAGES:
                    from core.tables import iter_table_chunks

                    # Streamed: a large table is never held in memory as a list of chunks.
                    for chunk in iter_table_chunks(source, settings, strategy, has_header=has_header):
                        given += 1
                        yield chunk
                else:
                    found = chunk_source(source, settings, strategy)
                    given += len(found)
                    yield from found
        except InputError as exc:
            yield Skipped(source.path, reason_of(exc, source.path), partial=given)
