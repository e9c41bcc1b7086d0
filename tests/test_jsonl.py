"""JSONL of a corpus on one process or several (core.jsonl): the same bytes, in file order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.chunk import Chunk, chunk_id, dumps_compact, span_chunk_id
from core.chunking import chunk_corpus, load_any
from core.errors import SettingsError
from core.jsonl import MAX_AUTO_JOBS, MIN_PARALLEL_FILES, choose_jobs, iter_jsonl, usable_cpus
from core.settings import ChunkSettings
from core.sources import Corpus, Skipped, SourceFile
from tests.helpers import SAMPLES

SETTINGS = ChunkSettings(unit="chars", budget=600)


def flatten(items: list[str | Skipped]) -> tuple[str, list[Skipped]]:
    return "".join(i for i in items if isinstance(i, str)), [i for i in items if isinstance(i, Skipped)]


def test_several_processes_write_the_same_bytes_as_one() -> None:
    corpus = load_any(SAMPLES)
    # A file that fails in the middle: its skip comes back too, at its place.
    corpus.files.insert(5, SourceFile("broken.csv", "csv", data=b"\x00\x01\x02binary"))
    one = flatten(list(iter_jsonl(corpus, SETTINGS, "both", jobs=1)))
    for jobs in (2, 3):
        assert flatten(list(iter_jsonl(corpus, SETTINGS, "both", jobs=jobs))) == one
    text, skipped = one
    assert [s.path for s in skipped] == ["broken.csv"]
    lines = text.splitlines()
    expected = [c for c in chunk_corpus(corpus, SETTINGS, "both") if isinstance(c, Chunk)]
    assert len(lines) == len(expected)
    assert [Chunk.from_dict(json.loads(line)) for line in lines] == expected  # file order, lossless


def test_jobs_chosen_by_input_size() -> None:
    small = [SourceFile(f"f{i}.py", "python", "x = 1\n") for i in range(MIN_PARALLEL_FILES + 5)]
    assert choose_jobs(0, small) == 1  # too little text to pay for worker processes
    big = [SourceFile(f"f{i}.py", "python", "x = 1\n" * 20_000) for i in range(MIN_PARALLEL_FILES)]
    assert choose_jobs(0, big) == min(usable_cpus(), MAX_AUTO_JOBS, len(big))
    assert choose_jobs(3, small) == 3 and choose_jobs(8, small[:2]) == 2
    with pytest.raises(SettingsError, match="--jobs"):
        choose_jobs(-1, small)


def test_an_empty_corpus_gives_nothing() -> None:
    assert list(iter_jsonl(Corpus(files=[]), SETTINGS, "syntax", jobs=2)) == []


def test_compact_json_and_ids_from_the_source_bytes() -> None:
    data = {"text": "é\n\x01", "n": [1, None]}
    assert dumps_compact(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lone = {"text": "a\ud800b"}  # orjson refuses lone surrogates: json writes them
    assert json.loads(dumps_compact(lone)) == lone
    raw = "déf f():\n    return '\ud800'\n".encode("utf-8", "surrogatepass")
    fields = ("a.py", "syntax", "function", "f", 1, 1, 0, len(raw))
    text = raw.decode("utf-8", "surrogatepass")
    assert span_chunk_id(fields, "# a.py :: f\n", raw, 0, len(raw)) == chunk_id(*fields, "# a.py :: f\n" + text)


def test_cli_jobs_option(tmp_path: Path) -> None:
    from tests.test_cli import run

    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    one = run("chunk", str(tmp_path), "--jobs", "1")
    two = run("chunk", str(tmp_path), "--jobs", "2")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout and one.stdout
    bad = run("chunk", str(tmp_path), "--jobs", "-1")
    assert bad.returncode == 2 and "--jobs" in bad.stderr and not bad.stdout


def test_a_line_separator_in_a_chunks_text_is_escaped_so_the_record_stays_one_line() -> None:
    # U+2028 and U+0085 were written as they are: a reader that splits lines as Python's
    # str.splitlines does got two broken records.
    from core.chunk import dumps_compact

    line = dumps_compact({"text": "A\u2028B\x85C\u2029D\u00e9"})
    assert line.splitlines() == [line] and json.loads(line) == {"text": "A\u2028B\x85C\u2029D\u00e9"}
    assert r"\u00e9" not in line and "é" in line  # (other characters stay as they are)


def test_the_apps_export_writes_the_lines_the_chunk_command_writes() -> None:
    # The app's download left out over_model_limit, which the command it shows writes in tokens.
    from core.chunking import chunk_document, prepare
    from core.jsonl import chunks_jsonl
    from tests.helpers import SAMPLES

    path = SAMPLES / "jvm_billing/src/main/java/billing/InvoiceService.java"
    settings = ChunkSettings(unit="tokens", budget=512)
    source = SourceFile("src/main/java/billing/InvoiceService.java", "java", text=path.read_text(encoding="utf-8"))
    written = "".join(x for x in iter_jsonl(Corpus(files=[source]), settings, "syntax") if isinstance(x, str))
    chunks = chunk_document(prepare(source.path, "java", source.text), settings, "syntax")
    exported = chunks_jsonl(chunks, settings)
    assert exported == written and '"over_model_limit"' in exported
