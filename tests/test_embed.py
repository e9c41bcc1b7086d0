"""Embeddings: normalised vectors, the on-disk cache, long-text reports, model errors."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from core.chunk import Chunk
from core.embed import Embedder, EmbeddingCache, embed_chunks, head_text, load_model, model_key, text_digest
from core.errors import InputError, ModelError
from core.settings import DEFAULT_MODEL
from core.sizing import resolve_model_path
from tests.retrieval_fixtures import ROOT, embedder, model  # noqa: F401 - fixtures

TEXTS = ["def parse_url(text):\n    return urlsplit(text)\n", "class Ledger:\n    pass\n", "select 1"]


def test_vectors_are_unit_length_and_in_order(embedder: Embedder) -> None:
    result = embedder.embed([TEXTS[0], TEXTS[1], TEXTS[0]])
    assert result.vectors.shape == (3, 384)
    assert result.vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(result.vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(result.vectors[0], result.vectors[2])
    assert not np.allclose(result.vectors[0], result.vectors[1])
    assert (result.reused, result.computed, result.too_long) == (0, 2, ())


def test_query_vector_matches_the_text_vector(embedder: Embedder) -> None:
    vector = embedder.embed_query(TEXTS[0])
    assert np.allclose(vector, embedder.embed([TEXTS[0]]).vectors[0], atol=1e-5)


def test_progress_reports_every_text(embedder: Embedder) -> None:
    calls: list[tuple[int, int]] = []
    texts = [f"text number {i}" for i in range(300)]
    embedder.embed(texts[:100])
    embedder.embed(texts, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (100, 300)  # cached texts count as done at once
    assert calls[-1] == (300, 300)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_progress_counts_the_distinct_texts_the_report_counts(embedder: Embedder) -> None:
    # Retrieve's bar ended "281/281 texts" over a summary of "80 texts embedded, 176 re-used"
    # (256): a text given twice (two chunks' identical heads) counted twice in the bar only.
    calls: list[tuple[int, int]] = []
    texts = [f"twice told {i}" for i in range(5)]
    embedder.embed(texts[:2])
    result = embedder.embed([*texts, *texts[1:4], "once more"], progress=lambda done, total: calls.append((done, total)))
    assert (result.reused, result.computed) == (2, 4)
    assert calls[0] == (2, 6) and calls[-1] == (6, 6) == (result.reused + result.computed,) * 2


def test_cache_survives_a_restart_and_is_keyed_by_model(model: object, tmp_path: Path) -> None:
    cache_file = tmp_path / "cache.sqlite3"
    first = Embedder(DEFAULT_MODEL, cache=cache_file, loaded=model).embed(TEXTS)
    assert first.computed == 3
    reopened = Embedder(DEFAULT_MODEL, cache=EmbeddingCache(cache_file), loaded=model)
    second = reopened.embed([*TEXTS, "a new text"])
    assert (second.reused, second.computed) == (3, 1)
    assert np.array_equal(second.vectors[:3], first.vectors)
    cache = EmbeddingCache(cache_file)
    assert cache.count(model_key(DEFAULT_MODEL)) == 4
    assert cache.get_many("another-model", [text_digest(TEXTS[0])]) == {}
    # Aliases of the default model share its cache entries.
    assert model_key("sentence-transformers/all-MiniLM-L6-v2") == model_key(DEFAULT_MODEL)
    # Distinct texts on both sides: a text asked for twice is one re-used, as it is one computed.
    repeated = reopened.embed([TEXTS[0], TEXTS[0], "a newer text", "a newer text"])
    assert (repeated.reused, repeated.computed) == (1, 1)


def test_a_cached_run_does_not_load_the_model(tmp_path: Path, model: object) -> None:
    cache_file = tmp_path / "cache.sqlite3"
    Embedder(DEFAULT_MODEL, cache=cache_file, loaded=model).embed(TEXTS)
    lazy = Embedder(DEFAULT_MODEL, cache=cache_file)
    assert lazy.embed(TEXTS).reused == 3
    assert lazy._model is None


def test_texts_over_the_model_limit_are_reported_not_hidden(embedder: Embedder) -> None:
    long_text = "def f():\n" + "    total = total + compute_value(item)\n" * 60
    result = embedder.embed(["short", long_text])
    assert [t.index for t in result.too_long] == [1]
    assert result.too_long[0].tokens > result.too_long[0].limit == 256
    again = embedder.embed([long_text])  # the token count is cached with the vector
    assert again.reused == 1 and again.too_long[0].tokens == result.too_long[0].tokens


def test_unknown_model_fails_offline_with_a_way_out() -> None:
    with pytest.raises(ModelError, match="not in the local Hugging Face cache.*pass its path"):
        Embedder("no-such-org/no-such-model-xyz")


def test_a_folder_without_a_model_is_a_model_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    # Said when it is named (an index run has not set up its data folder yet), not at loading.
    with pytest.raises(ModelError, match=r"holds no model \(no modules.json or config.json\)"):
        resolve_model_path(str(tmp_path))
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelError, match="cannot load embedding model") as caught:
        load_model(str(tmp_path))
    assert ".." not in str(caught.value)


def test_a_corrupted_cache_is_reported_and_left_alone(tmp_path: Path) -> None:
    cache_file = tmp_path / "cache.sqlite3"
    garbage = b"this is not sqlite" * 500
    cache_file.write_bytes(garbage)
    with pytest.raises(InputError, match="not a SQLite database"):
        EmbeddingCache(cache_file).get_many(DEFAULT_MODEL, [b"x"])
    assert cache_file.read_bytes() == garbage


def test_a_crash_mid_write_keeps_what_was_committed(tmp_path: Path) -> None:
    cache_file = tmp_path / "cache.sqlite3"
    script = textwrap.dedent(
        f"""
        import os, numpy as np
        from core.embed import EmbeddingCache
        cache = EmbeddingCache({str(cache_file)!r})
        cache.put_many("m", [(b"a" * 32, np.ones(4, dtype=np.float32), 3)])
        cache._db.execute("BEGIN")
        cache._db.execute("INSERT INTO vectors VALUES ('m', ?, 1, ?)", (b"b" * 32, b"\\0" * 16))
        os._exit(9)  # die inside the transaction, like a killed process
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    cache = EmbeddingCache(cache_file)
    found = cache.get_many("m", [b"a" * 32, b"b" * 32])
    assert list(found) == [b"a" * 32]
    assert found[b"a" * 32][1] == 3


# ---- chunk vectors with a head -------------------------------------------------------------------


def _chunk(text: str, strategy: str = "syntax", fallback: str | None = None) -> Chunk:
    return Chunk(
        id=f"{strategy}-{len(text)}-{fallback}",
        path="pkg/mod.py",
        language="python",
        strategy=strategy,
        kind="function",
        symbol="fetch",
        parent_id=None,
        start_line=1,
        end_line=text.count("\n") + 1,
        start_byte=0,
        end_byte=len(text),
        part=1,
        parts=1,
        header="",
        text=text,
        embed_text=text,
        size=len(text),
        unit="chars",
        fallback=fallback,
    )


LONG = "# pkg/mod.py :: fetch\n\ndef fetch(url):\n" + "".join(f"    step_{i} = work({i})\n" for i in range(12))


def test_head_text_is_the_first_non_blank_lines_stripped() -> None:
    assert head_text(LONG, 3) == "# pkg/mod.py :: fetch\ndef fetch(url):\nstep_0 = work(0)"
    assert head_text("\n\n  a  \n", 6) == "a"
    assert head_text("", 6) == ""


def test_a_syntax_chunk_vector_leans_toward_its_head(embedder: Embedder) -> None:
    chunks = [_chunk(LONG), _chunk(LONG, strategy="fixed"), _chunk(LONG, fallback="parse_error")]
    result = embed_chunks(embedder, chunks, head_weight=0.25, head_lines=3)
    whole, head = embedder.embed([LONG, head_text(LONG, 3)]).vectors
    assert np.allclose(result.vectors[0], 0.75 * whole + 0.25 * head, atol=1e-6)
    # A fixed window, and a file that fell back to windows, have no meaningful head.
    assert np.allclose(result.vectors[1], whole, atol=1e-6) and np.allclose(result.vectors[2], whole, atol=1e-6)
    assert np.linalg.norm(result.vectors[0]) < 1.0  # a weighted sum of two unit vectors
    assert result.vectors.dtype == np.float32 and result.vectors.shape == (3, 384)


def test_without_a_head_weight_chunks_embed_their_text_alone(embedder: Embedder) -> None:
    chunks = [_chunk(LONG)]
    plain = embed_chunks(embedder, chunks, head_weight=0.0, head_lines=6)
    assert (plain.reused, plain.computed) == (0, 1)  # one text per chunk, no head embedded
    assert np.allclose(plain.vectors[0], embedder.embed([chunks[0].embed_text]).vectors[0])
    assert embed_chunks(embedder, [], head_weight=0.5, head_lines=6).vectors.shape[0] == 0


def test_heads_go_through_the_cache_and_long_chunks_are_still_named(embedder: Embedder) -> None:
    long_text = "# pkg/big.py :: big\ndef big():\n" + "    total = total + value_of_the_item\n" * 200
    chunks = [_chunk(long_text), _chunk("def small():\n    return 1\n")]
    first = embed_chunks(embedder, chunks, head_weight=0.5, head_lines=6)
    assert first.computed == 4  # two texts, two heads
    assert [t.index for t in first.too_long] == [0]  # the chunk, never its (short) head
    again = embed_chunks(embedder, chunks, head_weight=0.5, head_lines=6)
    assert (again.reused, again.computed) == (4, 0)
    assert np.array_equal(first.vectors, again.vectors)
