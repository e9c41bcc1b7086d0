"""The Chunk type, its JSON form and the settings object."""

from __future__ import annotations

import json

import pytest

from core.chunk import Chunk, dumps_jsonl
from core.chunking import chunk_document, prepare
from core.errors import SettingsError
from core.settings import ChunkSettings


def test_json_round_trip() -> None:
    prep = prepare("a.py", "python", "def f():\n    return 1\n\n\nclass C:\n    x = 1\n")
    chunks = chunk_document(prep, ChunkSettings(merge_siblings=False), "syntax")
    lines = dumps_jsonl(chunks).splitlines()
    assert [Chunk.from_dict(json.loads(line)) for line in lines] == chunks
    assert "row_start" not in json.loads(lines[0])


def test_invalid_spans_are_rejected() -> None:
    with pytest.raises(ValueError):
        Chunk(id="x", path="a", language="python", strategy="syntax", kind="function", symbol="f", parent_id=None,
              start_line=3, end_line=2, start_byte=0, end_byte=1, part=1, parts=1, header="", text="",
              embed_text="", size=0, unit="chars")


@pytest.mark.parametrize("kwargs,message", [
    ({"budget": 0}, "budget"),
    ({"unit": "words"}, "unknown unit"),
    ({"overlap": 300, "budget": 100}, "overlap"),
    ({"table_format": "xml"}, "table format"),
    ({"table_rows": 0}, "rows"),
    ({"head_weight": 1.0}, "head weight"),
    ({"head_weight": -0.1}, "head weight"),
    ({"head_weight": "0.5"}, "head weight"),
    ({"head_lines": 0}, "head lines"),
    ({"breadcrumb": "false"}, "breadcrumb must be true or false"),  # a hand-edited export must not read as on
    ({"merge_siblings": 1}, "merge_siblings must be true or false"),
    ({"budget": True}, "budget must be a number"),
    ({"table_rows": False}, "table_rows must be a number"),
])
def test_settings_validate_on_construction(kwargs: dict, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        ChunkSettings(**kwargs)


def test_settings_round_trip_and_cli_command() -> None:
    settings = ChunkSettings(budget=300, unit="chars", overlap=20, merge_siblings=True, breadcrumb=False)
    assert ChunkSettings.from_dict(json.loads(settings.to_json())) == settings
    command = settings.cli_command("repo/", "syntax")
    assert command.startswith("python -m core chunk repo/ --strategy syntax --budget 300 --unit chars")
    assert "--overlap 20" in command and "--merge" in command and "--no-breadcrumb" in command
    assert "--head" not in command  # defaults are not spelled out
    assert ChunkSettings(head_weight=0).key() == ChunkSettings(head_weight=0.0).key()  # one index for both
    # The head shapes vectors, not chunks: chunkings are cached under a key without it.
    assert ChunkSettings(head_weight=0.4, head_lines=2).chunk_key() == ChunkSettings().chunk_key()
    assert ChunkSettings(head_weight=0.4).key() != ChunkSettings().key()
    assert ChunkSettings(budget=100).chunk_key() != ChunkSettings().chunk_key()
    assert ChunkSettings.from_dict(json.loads(ChunkSettings(budget=100).chunk_key())) == ChunkSettings(budget=100)
    # An upload named like an option (``-draft.py``): the command read it as one and failed.
    assert ChunkSettings().cli_command("-draft.py").startswith("python -m core chunk ./-draft.py --strategy both")
    assert ChunkSettings.file_command("-d.py", "s.json").startswith("python -m core chunk ./-d.py --strategy")
    # A settings file saved with a BOM (Notepad, PowerShell) was "not valid JSON (line 1,
    # column 1)"; rows 0 in it meant nothing, where --rows 0 and a sweep's 0 mean "by the budget".
    assert ChunkSettings.from_json('\ufeff{"budget": 100}') == ChunkSettings(budget=100)
    assert ChunkSettings.from_json('{"table_rows": 0}').table_rows is None
    tuned = ChunkSettings(head_weight=0.25, head_lines=3)
    assert ChunkSettings.from_dict(json.loads(tuned.to_json())) == tuned
    assert tuned.cli_args()[-4:] == ["--head-weight", "0.25", "--head-lines", "3"]
    with pytest.raises(SettingsError, match="unknown setting"):
        ChunkSettings.from_dict({"budgte": 3})
    # A file from a newer release is told apart from a typo; 200.0 (some tools write every
    # number so) was "budget must be a positive integer, got 200.0".
    with pytest.raises(SettingsError, match=r"unknown setting\(s\): version; .*\(a settings file of a newer Chunk Explorer"):
        ChunkSettings.from_dict({"budget": 200, "version": 3})
    assert ChunkSettings.from_json('{"budget": 200.0, "overlap": 20.0}') == ChunkSettings(budget=200, overlap=20)
    with pytest.raises(SettingsError, match="budget must be a positive integer, got 200.5"):
        ChunkSettings.from_json('{"budget": 200.5}')


def test_the_library_entry_points_take_what_a_caller_may_pass(tmp_path) -> None:
    from core.chunking import chunk_source, load_any
    from core.errors import InputError
    from core.sources import SourceFile

    # A CSV text given to chunk_document is a table: row batches with the header, and a profile.
    table = "region,revenue\nnorth,10\nsouth,20\n"
    chunks = chunk_document(prepare("sales.csv", "csv", table), ChunkSettings(table_rows=1), "syntax")
    assert chunks == chunk_source(SourceFile("sales.csv", "csv", text=table), ChunkSettings(table_rows=1), "syntax")
    rows = [c for c in chunks if c.kind == "table_rows"]
    assert len(rows) == 2 and all("region,revenue" in c.embed_text for c in rows)
    # A string that is not Unicode text (a lone surrogate) is bad input, named by its line.
    with pytest.raises(InputError, match=r"a\.py: line 2: a lone surrogate \(U\+D800\)"):
        prepare("a.py", "python", 'x = 1\ny = "\ud800"\n')
    # A path given as a str.
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    assert [f.path for f in load_any(str(tmp_path / "m.py")).files] == ["m.py"]
