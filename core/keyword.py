"""Keyword search over chunks: a code-aware tokenizer, BM25 (``bm25s``) and rank fusion.

Code names things in ``snake_case`` and ``camelCase``; a query says "parse the url". The
tokenizer splits identifiers into their words (and keeps the whole identifier too, so an exact
name still scores highest), lowercases, drops a few English function words and folds plural
``s``, so both sides meet on the same terms.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import regex

RRF_K = 10
"""Reciprocal rank fusion constant: a result at rank r contributes ``weight / (RRF_K + r)``.

10, not the customary 60: with two rankings of 50 candidates, a smaller constant lets the top
of each ranking count more. On the retrieval-quality bench (docstring queries over requests,
click and httpx; measured before chunk heads and the name weight) it raised syntax hybrid from 72.3% to 72.7% whole@5 and from 73.0% to 75.7% in a
1,024-token context on the 300 tuning queries, and from 68.7% to 71.1% / 71.6% to 72.6% on the
201 documented functions held out of that sample."""

NAME_WEIGHT = 2
"""A syntax chunk's own name (``get`` for ``Session.get``) is added to its keyword document this
many more times: a field weight, as BM25F gives a title. Code calls names far more often than it
defines them, so without it "send a GET request" meets every ``.get(`` call as well as ``def get``.
See :func:`keyword_document`, and the README's retrieval-quality table for its figures."""

KEYWORD_WEIGHT = 0.7
"""The keyword ranking's weight in the fusion (the vector ranking's is 1). Once chunk vectors
lean toward their heads (ChunkSettings.head_weight) the vector ranking is the better one; on the
retrieval-quality bench 0.5-0.8 were level and 1.0 lost about 2 points of whole@5 (the README's
table has the figures)."""

_WORD = re.compile(r"\w+")  # ASCII text
# Any script: letters with their combining marks (Devanagari vowel signs, Hebrew points), which
# ``re``'s \w leaves out, cutting such words into single letters.
_WORD_ANY = regex.compile(r"[\p{L}\p{M}\p{N}_]+")
# A name as languages write them: an identifier, kebab-case (Clojure's ``plan-restock``,
# PowerShell's ``Get-Total``, an SCSS mixin), a predicate's ``?`` or a mutator's ``!`` at its end
# (Elixir, Ruby, Julia), an Objective-C selector's colons (``renderLabel:width:``).
_NAME = regex.compile(r"[\p{L}_$][\p{L}\p{M}\p{N}_$:-]*[?!]?\Z")
_NAMELESS_KINDS = frozenset({"module", "statements"})
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
# Words that carry no meaning in a query about code; kept short on purpose: BM25's idf already
# discounts frequent words, this only removes ones that match everywhere in comments.
STOPWORDS = frozenset(
    "a an and are as at be by for from has have if in into is it its of on or that the this to was "
    "were will with".split()
)
_META_FILE = "keyword_meta.json"


def _fold(word: str) -> str:
    # Plural and third-person "s": "parses" meets "parse", "headers" meets "header".
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Terms of ``text``: identifiers split at ``_`` and case changes, lowercased, plus the whole
    identifier when it had several parts; single letters and stopwords dropped. Letters of any
    script count (``größe_berechnen``, ``étiquette``); Chinese, Japanese and Korean, written
    without spaces, give overlapping pairs of characters, as search engines index them."""
    if text.isascii():
        words = _WORD.findall(text)
    else:  # "é" typed as e + accent is the same word as "é"
        words = _WORD_ANY.findall(unicodedata.normalize("NFKC", text))
    terms: list[str] = []
    for word in words:
        terms.extend(_word_terms(word))
    return terms


def own_name(strategy: str, kind: str, symbol: str) -> str:
    """The name a syntax chunk defines (the last part of its dotted ``symbol``, after the heading
    trail a Markdown fence's code is named under: ``Guide > Install > Installer.run``), or ""
    for module code, statements of a split body, merged siblings, fixed windows and tables."""
    if strategy != "syntax" or kind in _NAMELESS_KINDS:
        return ""
    name = symbol.rpartition(" > ")[2].rpartition(".")[2]
    return name if _NAME.match(name) else ""


def keyword_document(text: str, name: str) -> str:
    """What BM25 indexes for a chunk: its ``embed_text``, then its own ``name`` (see
    :func:`own_name`) :data:`NAME_WEIGHT` more times."""
    return text + f"\n{name}" * NAME_WEIGHT if name else text


@lru_cache(maxsize=200_000)
def _word_terms(word: str) -> tuple[str, ...]:
    # Code repeats its identifiers endlessly: splitting each distinct word once makes indexing
    # a 20,000-chunk collection several times faster.
    if not word.isascii():
        return _unicode_terms(word)
    parts = [p.lower() for piece in word.split("_") for p in _PART.findall(piece)]
    terms = [_fold(p) for p in parts if len(p) > 1 and p not in STOPWORDS]
    if len(parts) > 1:
        terms.append(word.lower().strip("_"))
    return tuple(terms)


# Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def _unicode_terms(word: str) -> tuple[str, ...]:
    """Terms of a word that is not ASCII: runs of an unspaced script as overlapping character
    pairs (one character alone stays a term), the rest split at ``_`` and at a lowercase letter
    followed by an uppercase one or before the last capital of an acronym followed by a word,
    as :func:`_word_terms` splits ASCII."""
    terms: list[str] = []
    spaced: list[str] = []
    at = 0
    for run in _UNSPACED.finditer(word):
        spaced.append(word[at : run.start()])
        chars = run.group()
        terms.extend([chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)])
        at = run.end()
    spaced.append(word[at:])
    parts: list[str] = []
    for piece in (p for chunk in spaced for p in chunk.split("_") if p):
        start = 0
        for i in range(1, len(piece)):
            if (
                piece[i - 1].islower()
                and piece[i].isupper()
                or piece[i - 1].isdigit() != piece[i].isdigit()
                or piece[i - 1].isupper() and piece[i].isupper() and i + 1 < len(piece) and piece[i + 1].islower()
            ):  # ``größeBerechnen``, ``v2``, an acronym before a word (``ÉTATParser``)
                parts.append(piece[start:i])
                start = i
        parts.append(piece[start:])
    parts = [p.lower() for p in parts]
    terms.extend(_fold(p) for p in parts if len(p) > 1 and p not in STOPWORDS)
    if len(parts) > 1 and not _UNSPACED.search(word):
        terms.append(word.lower().strip("_"))
    return tuple(terms)


@dataclass(frozen=True)
class Fusion:
    """How hybrid search fuses its two rankings, and how deep each ranking goes."""

    rrf_k: int = RRF_K
    vector_weight: float = 1.0
    keyword_weight: float = KEYWORD_WEIGHT
    depth: int = 50  # candidates taken from each ranking before fusing


def rrf(rankings: Sequence[Sequence[str]], weights: Sequence[float], k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists: ``sum(weight / (k + rank))``, best first.

    Ties keep the order in which ids were first seen (vector ranking first), so results are
    deterministic.
    """
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, ident in enumerate(ranking, start=1):
            scores[ident] = scores.get(ident, 0.0) + weight / (k + rank)
    order = {ident: i for i, ident in enumerate(scores)}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))


class KeywordIndex:
    """BM25 over a fixed list of documents, with small per-document fields for filtering."""

    def __init__(self, ids: list[str], fields: dict[str, list[str]], retriever: Any, revision: str = "") -> None:
        self.ids = ids
        self.fields = fields
        self.revision = revision
        self._retriever = retriever
        self._vocab: Mapping[str, int] = getattr(retriever, "vocab_dict", {}) if retriever is not None else {}

    @classmethod
    def build(
        cls, ids: Sequence[str], texts: Sequence[str], fields: dict[str, list[str]] | None = None, revision: str = ""
    ) -> KeywordIndex:
        """Index ``texts`` (one per id). ``fields`` (e.g. path, language, kind) allow filtering."""
        retriever = None
        if ids:
            import bm25s

            retriever = bm25s.BM25()
            retriever.index([tokenize(t) for t in texts], show_progress=False)
        return cls(list(ids), {k: list(v) for k, v in (fields or {}).items()}, retriever, revision)

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query: str, n: int, where: Mapping[str, str] | None = None) -> list[tuple[str, float]]:
        """Up to ``n`` ``(id, bm25 score)`` pairs with a positive score, best first."""
        if self._retriever is None or n <= 0:
            return []
        terms = [t for t in tokenize(query) if t in self._vocab]
        if not terms:
            return []
        scores = np.asarray(self._retriever.get_scores(terms), dtype=np.float32)
        if where:
            mask = np.ones(len(self.ids), dtype=bool)
            for key, value in where.items():
                column = self.fields.get(key)
                if column is None:
                    raise KeyError(key)
                mask &= np.asarray([v == value for v in column])
            scores = np.where(mask, scores, 0.0)
        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.lexsort((top, -scores[top]))]  # by score, ties by position: deterministic
        return [(self.ids[i], float(scores[i])) for i in top if scores[i] > 0]

    def save(self, folder: Path, extra: Mapping[str, Any] | None = None) -> None:
        """Write the index into ``folder`` (which must not exist) via a temporary sibling, so a
        crash never leaves a half-written index under the final name. ``extra`` maps file names
        to more JSON data to keep with it (written in the same step)."""
        tmp = folder.with_name(folder.name + ".tmp")
        if tmp.exists():
            shutil.rmtree(tmp)  # our own leftover from an interrupted save
        tmp.mkdir(parents=True)
        if self._retriever is not None:
            self._retriever.save(str(tmp), show_progress=False)
        meta = {"revision": self.revision, "ids": self.ids, "fields": self.fields}
        (tmp / _META_FILE).write_text(json.dumps(meta), encoding="utf-8")
        for name, data in (extra or {}).items():
            (tmp / name).write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, folder)

    @classmethod
    def load(cls, folder: Path) -> KeywordIndex:
        """Read an index written by :meth:`save`."""
        meta = json.loads((folder / _META_FILE).read_text(encoding="utf-8"))
        retriever = None
        if meta["ids"]:
            import bm25s

            retriever = bm25s.BM25.load(str(folder), show_progress=False, verbosity=0)
        return cls(meta["ids"], meta["fields"], retriever, meta["revision"])
