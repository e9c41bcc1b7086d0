"""The CLI's chunk command, run as a user would: a subprocess, JSONL out, errors on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from core.__main__ import build_parser, settings_from_args
from tests.helpers import ROOT, SAMPLES


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


def test_chunk_a_file_with_both_strategies() -> None:
    done = run("chunk", str(SAMPLES / "py_inventory/inventory/ledger.py"), "--budget", "200")
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.splitlines()]
    assert {c["strategy"] for c in chunks} == {"fixed", "syntax"}
    required = {"id", "path", "language", "strategy", "kind", "symbol", "parent_id", "start_line", "end_line",
                "start_byte", "end_byte", "part", "parts", "header", "text", "embed_text", "size", "unit", "fallback"}
    assert all(required <= set(c) for c in chunks)
    assert all(c["size"] <= 200 or "oversized" in c["flags"] for c in chunks)


def test_chunk_a_folder_reports_skips_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "a.go").write_text("package a\n\nfunc A() int { return 1 }\n")
    (tmp_path / "b.bin.py").write_bytes(b"\x00\x00binary")
    (tmp_path / "c.unknownext").write_text("zzz")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.py").write_text("x = 1\n")
    done = run("chunk", str(tmp_path), "--strategy", "syntax", "--unit", "lines", "--budget", "20")
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.splitlines()]
    assert {c["path"] for c in chunks} == {"a.go"}
    assert "skipped b.bin.py: binary" in done.stderr
    assert "skipped c.unknownext: unknown file type" in done.stderr
    assert "d.py" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_name_stored_twice_in_a_zip_is_a_note_not_a_skip(tmp_path: Path) -> None:
    # a.py is chunked (its last copy): "skipped a.py" and "1 file(s) skipped" said otherwise.
    archive = tmp_path / "dup.zip"
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.py", "def a():\n    return 1\n")
        zf.writestr("a.py", "def a():\n    return 2\n")
    done = run("chunk", str(archive), "--strategy", "syntax")
    assert done.returncode == 0, done.stderr
    assert {json.loads(line)["text"] for line in done.stdout.splitlines()} == {"def a():\n    return 2"}
    assert done.stderr.splitlines() == ["note: a.py: stored more than once in the archive; its last copy is the one read"]


def test_a_file_not_in_utf8_is_named_with_the_encoding_it_was_read_as(tmp_path: Path) -> None:
    (tmp_path / "legacy.py").write_bytes("name = 'café'\n".encode("cp1252"))
    (tmp_path / "plain.py").write_text("x = 1\n")
    done = run("chunk", str(tmp_path), "--strategy", "syntax")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["note: legacy.py: not UTF-8, read as cp1252"]
    assert "café" in done.stdout


def test_a_table_not_in_utf8_is_named_with_the_encoding_it_was_read_as(tmp_path: Path) -> None:
    (tmp_path / "latin.csv").write_bytes("stad,invånare\nMalmö,350000\n".encode("cp1252"))
    (tmp_path / "unicode.tsv").write_bytes("stad\tinvånare\r\nUmeå\t130000\r\n".encode("utf-16"))
    (tmp_path / "plain.csv").write_text("a,b\n1,2\n")
    done = run("chunk", str(tmp_path), "--strategy", "syntax")
    assert done.returncode == 0, done.stderr
    assert sorted(done.stderr.splitlines()) == ["note: latin.csv: not UTF-8, read as cp1252",
                                                "note: unicode.tsv: not UTF-8, read as utf-16"]
    assert "Malmö" in done.stdout and "Umeå" in done.stdout


def test_a_workbook_read_with_a_language_that_does_not_fit_says_so() -> None:
    # It said "rename it .xlsx" of a file already named .xlsx: the language given is what is wrong.
    done = run("chunk", str(SAMPLES / "tables/budget.xlsx"), "--language", "csv")
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: budget.xlsx: an Excel workbook, which --language csv does not fit; "
                                   "leave --language out to read it as a workbook (or give --language xlsx)")


@pytest.mark.parametrize("args,message", [
    (["chunk", "README.md", "--unit", "words"], "argument --unit: invalid choice: 'words'"),
    (["chunk", "README.md", "--budget", "abc"], "argument --budget: invalid int value"),
    (["chunk"], "the following arguments are required: path"),
    (["chunk", "does/not/exist.py"], "no such file"),
    (["chunk", "README.md", "--budget", "0"], "budget must be a positive"),
    (["chunk", "README.md", "--overlap", "500", "--budget", "100"], "overlap must be"),
])
def test_bad_arguments_give_one_clear_line(args: list[str], message: str, tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# Title\n\ntext\n")
    done = run(*args, cwd=tmp_path) if "README.md" in args else run(*args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr  # no usage block above it


def test_bad_single_files_exit_2_without_traceback(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "bin.py").write_bytes(b"\x00\x01\x02\x03")
    (tmp_path / "latin.py").write_bytes("s = 'Grüße aus Köln'\n".encode("latin-1") * 4)
    (tmp_path / "odd.zzz").write_text("hello\n")
    for name, code in (("empty.py", 2), ("bin.py", 2), ("odd.zzz", 2), ("latin.py", 0)):
        done = run("chunk", str(tmp_path / name))
        assert done.returncode == code, (name, done.stderr)
        assert "Traceback" not in done.stderr
    done = run("chunk", str(tmp_path / "odd.zzz"), "--language", "text")
    assert done.returncode == 0 and done.stdout


def test_five_megabyte_file_is_skipped_with_the_limit_named(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"value = compute(1, 2, 3)\n" * 210_000)
    done = run("chunk", str(big))
    assert done.returncode == 2 and "over the limit" in done.stderr
    done = run("chunk", str(big), "--max-bytes", "10000000", "--strategy", "syntax", "--unit", "lines", "--budget", "400")
    assert done.returncode == 0 and len(done.stdout.splitlines()) > 100


def test_output_is_deterministic() -> None:
    first = run("chunk", str(SAMPLES / "systems_kit"), "--strategy", "syntax")
    second = run("chunk", str(SAMPLES / "systems_kit"), "--strategy", "syntax")
    assert first.returncode == 0 and first.stdout == second.stdout


# ---- settings carried from the app into a pipeline ----------------------------------------------


def _ids(stdout: str) -> list[tuple[str, str, int, int]]:
    return [(c["id"], c["path"], c["start_byte"], c["end_byte"]) for c in map(json.loads, stdout.splitlines())]


def test_the_command_the_app_exports_gives_the_apps_chunks(tmp_path: Path) -> None:
    import shlex

    from core.chunking import chunk_source
    from core.settings import ChunkSettings
    from core.sources import load_folder
    from pages.common import Picked

    settings = ChunkSettings(unit="chars", budget=600, overlap=60, breadcrumb=False, head_lines=4)
    project = load_folder(SAMPLES / "py_inventory")  # as the app's sample picker loads it
    source = next(f for f in project.files if f.path == "inventory/models.py")
    app = [(c.id, c.path, c.start_byte, c.end_byte) for s in ("fixed", "syntax") for c in chunk_source(source, settings, s)]
    target, extra = Picked(label="py_inventory").cli_target(source.path)
    argv = shlex.split(settings.cli_command(target, extra=extra))[3:]  # after "python -m core"
    done = run(*argv)
    assert done.returncode == 0, done.stderr
    assert _ids(done.stdout) == app  # the breadcrumb path, so ids and sizes, are the app's
    # The settings file the app exports says the same, by the command the export shows beside
    # it (it named no --root once: every id differed); options beside it win.
    exported = tmp_path / "chunk-settings.json"
    exported.write_text(settings.to_json())
    done = run(*shlex.split(ChunkSettings.file_command(target, str(exported), extra=extra))[3:])
    assert done.returncode == 0 and _ids(done.stdout) == app
    done = run("chunk", target, "--root", extra[1], "--settings", str(exported), "--budget", "300", "--strategy", "fixed")
    assert {json.loads(line)["size"] <= 300 for line in done.stdout.splitlines()} == {True}
    # A zip upload: the command reads the archive, and names its files as the app does.
    archive = tmp_path / "repo.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("repo-main/inventory/models.py", (SAMPLES / "py_inventory/inventory/models.py").read_bytes())
        zf.writestr("repo-main/README.md", "# Repo\n\nWords.\n")
    target, extra = Picked(shareable=False, label="repo.zip", archive=str(archive)).cli_target("inventory/models.py")
    done = run(*shlex.split(settings.cli_command(target, extra=extra))[3:])
    assert done.returncode == 0, done.stderr
    assert [c for c in _ids(done.stdout) if c[1] == "inventory/models.py"] == app


@pytest.mark.parametrize("content,message", [
    ('{"breadcrumb": "false"}', "breadcrumb must be true or false, got 'false'"),
    ('{"budget": true}', "budget must be a number, got True"),
    ("[]", "settings must be a JSON object of named values, got list"),
    ('{"budget": 200,}', "not valid JSON (line 1, column"),
    ('{"colour": "red"}', "unknown setting(s): colour"),
])
def test_a_bad_settings_file_is_one_clear_line(content: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(content)
    (tmp_path / "a.py").write_text("x = 1\n")
    done = run("chunk", str(tmp_path / "a.py"), "--settings", str(tmp_path / "s.json"))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_root_names_files_below_it_and_must_hold_them(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("def f():\n    return 1\n")
    done = run("chunk", str(tmp_path / "pkg"), "--root", str(tmp_path), "--strategy", "syntax")
    assert {c[1] for c in _ids(done.stdout)} == {"pkg/mod.py"}
    done = run("chunk", str(tmp_path / "pkg" / "mod.py"), "--root", str(SAMPLES))
    assert done.returncode == 2 and "is not inside --root" in done.stderr


def test_the_header_choice_of_the_tables_page_is_an_option(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("region,amount\nNorth,10\nSouth,20\n")
    found = {}
    for choice in ("detect", "no"):
        done = run("chunk", str(table), "--strategy", "syntax", "--header", choice)
        assert done.returncode == 0, done.stderr
        found[choice] = json.loads(done.stdout.splitlines()[0])  # the first row batch
    assert found["detect"]["text"].startswith("North,10") and "\nregion,amount\n" in found["detect"]["embed_text"]
    assert found["no"]["text"].startswith("region,amount") and "\ncolumn_1,column_2\n" in found["no"]["embed_text"]


def test_file_names_that_are_not_utf8_or_hold_a_backslash_are_skipped_and_named(tmp_path: Path) -> None:
    os.mkdir(tmp_path / "src")
    with open(os.path.join(os.fsencode(tmp_path / "src"), b"caf\xe9.py"), "w") as handle:
        handle.write("def latin():\n    return 1\n")
    (tmp_path / "src" / "back\\slash.py").write_text("def b():\n    return 2\n")
    (tmp_path / "src" / "ok.py").write_text("def ok():\n    return 3\n")
    (tmp_path / "src" / "new\nline.py").write_text("def n():\n    return 4\n")
    (tmp_path / "src" / "evil\nskipped fake.py: forged.py").write_bytes(b"\x00binary")
    done = subprocess.run([sys.executable, "-m", "core", "chunk", str(tmp_path / "src")], cwd=ROOT, capture_output=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")  # both valid UTF-8
    assert {json.loads(line)["path"] for line in out.splitlines()} == {"ok.py", "new\nline.py"}
    lines = err.splitlines()
    assert "skipped caf\ufffd.py: the name is not valid UTF-8 (rename it)" in lines
    assert any(line.startswith("skipped back\\slash.py: a backslash in the name") for line in lines)
    # A file name cannot forge a line of its own on stderr: its newline is shown escaped.
    assert any(line.startswith("skipped evil\\nskipped fake.py: forged.py: binary") for line in lines), lines
    assert not any(line.startswith("skipped fake.py") for line in lines) and len(lines) == 4


def test_nothing_to_chunk_and_a_partial_table_exit_2(tmp_path: Path) -> None:
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "a.py").write_bytes(b"\x00\x01binary")
    (tmp_path / "junk" / "b.py").write_text("")
    done = run("chunk", str(tmp_path / "junk"))
    assert done.returncode == 2 and "nothing to chunk (every file was skipped)" in done.stderr
    # A NUL byte far into a table is found only after thousands of its chunks are out (the
    # first 200,000 rows or so are read before the first chunk is given out).
    (tmp_path / "tables").mkdir()
    rows = "".join(f"{i},x\n" for i in range(1_000_000))
    (tmp_path / "tables" / "t.csv").write_bytes(("id,n\n" + rows).encode() + b"5,\x00\n")
    (tmp_path / "tables" / "ok.csv").write_text("a,b\n1,2\n")
    for target in (tmp_path / "tables", tmp_path / "tables" / "t.csv"):
        done = run("chunk", str(target), "--rows", "50", "--strategy", "syntax")
        assert done.returncode == 2, done.stderr
        assert "chunks were written: they are partial" in done.stderr and done.stdout


def test_root_and_settings_edges(tmp_path: Path) -> None:
    # A symlink inside the root is named there, as written.
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "m.py").symlink_to(SAMPLES / "py_inventory/inventory/models.py")
    done = run("chunk", str(tmp_path / "links" / "m.py"), "--root", str(tmp_path / "links"), "--strategy", "syntax")
    assert done.returncode == 0 and {c[1] for c in _ids(done.stdout)} == {"m.py"}, done.stderr
    # A folder name that is not UTF-8, below the root: refused by name, no traceback.
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"f.py"), "w") as handle:
        handle.write("def f():\n    return 1\n")
    done = subprocess.run([sys.executable, "-m", "core", "chunk", os.path.join(folder, b"f.py"), "--root", str(tmp_path)],
                          cwd=ROOT, capture_output=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and b"the name is not valid UTF-8" in done.stderr and b"Traceback" not in done.stderr
    # A unit given beside a settings file takes that unit's budget, and the overlap keeps its share.
    (tmp_path / "s.json").write_text('{"unit": "tokens", "budget": 100, "overlap": 50}')
    done = run("chunk", str(SAMPLES / "py_inventory/inventory/models.py"), "--settings", str(tmp_path / "s.json"),
               "--unit", "lines", "--strategy", "fixed")
    assert done.returncode == 0, done.stderr
    first, second = [json.loads(line) for line in done.stdout.splitlines()[:2]]
    assert first["unit"] == "lines" and second["start_line"] == first["end_line"] - 19  # 20 of 40 lines overlap
    # An error naming a file with a newline stays one line.
    done = run("chunk", str(tmp_path / "no\nsuch.py"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_workbook_cell_openpyxl_warns_about_leaves_stderr_to_our_messages(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["day", "v"])
    book.active.append([1e20, 1])  # a date-formatted cell whose serial no date can have
    book.active["A2"].number_format = "yyyy-mm-dd"
    book.save(tmp_path / "w.xlsx")
    done = run("chunk", str(tmp_path / "w.xlsx"))
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr


def test_a_model_folder_given_relative_to_here_is_kept_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The settings go into an index's manifest: a ``query`` run from another folder must load
    # the same model, not whatever ``./my-model`` is there.
    (tmp_path / "my-model").mkdir()
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    for given, kept in [
        ("./my-model", str(tmp_path.resolve() / "my-model")),
        ("my-model", str(tmp_path.resolve() / "my-model")),
        ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2"),  # the bundled model's name, even beside a folder of that name
        ("org/not-here", "org/not-here"),  # a hub name: resolved (or refused) when the model loads
    ]:
        if given == "all-MiniLM-L6-v2":
            (tmp_path / given).mkdir()
        args = parser.parse_args(["index", ".", "--model", given])
        assert settings_from_args(args).model == kept, given


def test_output_is_written_as_it_comes_never_held_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lines are written in batches; a batch is flushed at a line count or at a size, whichever
    # comes first (a worker's item is the JSONL of many files: 256 of them held 200 MB once).
    import core.__main__ as cli

    class Recorder:
        def __init__(self) -> None:
            self.sizes: list[int] = []

        def write(self, text: str) -> int:
            self.sizes.append(len(text))
            return len(text)

        def flush(self) -> None:
            pass

    out = Recorder()
    monkeypatch.setattr(cli, "_CHARS_PER_WRITE", 10_000)
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["chunk", str(SAMPLES / "py_inventory"), "--strategy", "both", "--jobs", "1"]) == 0
    whole = sum(out.sizes)
    assert whole > 100_000 and len(out.sizes) > 5
    assert max(out.sizes) < 10_000 + 20_000  # the limit, and at most one line past it


def test_a_projects_encoding_is_given_once_for_its_files_that_are_not_utf8(tmp_path: Path) -> None:
    # A Russian project in KOI8-R, zipped or in a folder: --encoding was "one file only", and
    # the detector's misreading could not be put right for a repository.
    project = tmp_path / "proj"
    project.mkdir()
    (project / "k.py").write_bytes('CITY = "Москва"\n'.encode("koi8_r"))
    (project / "u.py").write_text('CITY = "Київ"\n', encoding="utf-8")  # UTF-8 stays UTF-8
    (project / "ru.csv").write_bytes(("город,население\n" + "Москва,12600000\n" * 40).encode("koi8_r"))
    (project / "blob.py").write_bytes(bytes(range(1, 32)) * 40)  # binary stays skipped
    with zipfile.ZipFile(tmp_path / "proj.zip", "w") as archive:
        for file in sorted(project.iterdir()):
            archive.write(file, f"proj/{file.name}")
    for target in (project, tmp_path / "proj.zip"):
        done = run("chunk", str(target), "--strategy", "syntax", "--encoding", "koi8_r")
        assert done.returncode == 0, done.stderr
        chunks = {c["path"]: c for c in map(json.loads, done.stdout.splitlines()) if c["kind"] != "table_profile"}
        assert "Москва" in chunks["k.py"]["text"] and "Київ" in chunks["u.py"]["text"]
        assert chunks["ru.csv"]["columns"] == ["город", "население"]
        assert "skipped blob.py: binary" in done.stderr
        assert "k.py: not UTF-8, read as koi8-r" in done.stderr and "u.py: not UTF-8" not in done.stderr
    # UTF-8 with a stray bad byte is refused by its line, as without the option (read as KOI8-R
    # its every accent was garbled); a table the encoding cannot read is skipped, not a traceback.
    (project / "bad.py").write_bytes("x = 'é'\ny = '".encode() + b"\xe9'\n")
    (project / "l1.csv").write_bytes("city,temp\nZürich,3\n".encode("latin-1"))
    done = run("chunk", str(project), "--strategy", "syntax", "--encoding", "koi8_r")
    assert done.returncode == 0 and "skipped bad.py: line 2: bytes that are not valid UTF-8" in done.stderr
    wide = run("chunk", str(project), "--strategy", "syntax", "--encoding", "utf_16")
    assert wide.returncode == 0 and "Traceback" not in wide.stderr, wide.stderr
    assert "skipped l1.csv: not valid UTF-16 text" in wide.stderr


def test_an_encoding_detection_got_wrong_can_be_given(tmp_path: Path) -> None:
    # A detector read a repetitive KOI8-R table as Shift-JIS, and nothing could say otherwise.
    rows = "город,население\n" + "Екатеринбург,9729816\nМосква,12600000\n" * 40
    (tmp_path / "ru.csv").write_bytes(rows.encode("koi8_r"))
    done = run("chunk", str(tmp_path / "ru.csv"), "--strategy", "syntax", "--rows", "5", "--encoding", "koi8_r")
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout.splitlines()[0])
    assert first["columns"] == ["город", "население"] and first["text"].startswith("Екатеринбург,9729816")
    assert "read as koi8-r" in done.stderr
    (tmp_path / "k.py").write_bytes('CITY = "Москва"\n'.encode("koi8_r"))
    code = run("chunk", str(tmp_path / "k.py"), "--strategy", "syntax", "--encoding", "koi8_r")
    assert code.returncode == 0 and "Москва" in json.loads(code.stdout.splitlines()[0])["text"]
    for args, message in (
        ((str(tmp_path), "--encoding", "klingon"), "error: --encoding: unknown encoding 'klingon'"),
        ((str(tmp_path / "k.py"), "--encoding", "klingon"), "error: --encoding: unknown encoding 'klingon'"),
        # A codec of no text (rot13, base64) was a traceback.
        ((str(tmp_path / "k.py"), "--encoding", "rot13"), "error: --encoding: 'rot13' is no text encoding"),
        ((str(tmp_path / "k.py"), "--encoding", "ascii"), "error: k.py: line 1: bytes that are not valid ascii"),
    ):
        bad = run("chunk", *args)
        assert bad.returncode == 2 and bad.stderr.startswith(message), bad.stderr


def test_settings_file_values_can_be_turned_back_by_options(tmp_path: Path) -> None:
    # A file's "breadcrumb": false, "raw_cuts": true or "table_rows" could not be undone beside it.
    settings = tmp_path / "s.json"
    settings.write_text('{"breadcrumb": false, "class_summary": false, "raw_cuts": true, "table_rows": 2, "overlap": 40, '
                        '"unit": "chars", "budget": 1000}')
    source = str(SAMPLES / "py_inventory/inventory/models.py")
    plain = run("chunk", source, "--settings", str(settings), "--strategy", "syntax")
    crumbs = run("chunk", source, "--settings", str(settings), "--strategy", "syntax", "--breadcrumb")
    assert plain.returncode == crumbs.returncode == 0
    first, again = json.loads(plain.stdout.splitlines()[0]), json.loads(crumbs.stdout.splitlines()[0])
    assert first["embed_text"] == first["text"] and again["embed_text"].startswith("# models.py")
    table = str(SAMPLES / "tables/sales.csv")
    rows = [json.loads(line) for line in run("chunk", table, "--settings", str(settings), "--strategy", "syntax").stdout.splitlines()]
    budget = [json.loads(line) for line in run("chunk", table, "--settings", str(settings), "--strategy", "syntax",
                                               "--rows", "0").stdout.splitlines()]  # fmt: skip
    assert {c["row_end"] - c["row_start"] for c in rows if c["kind"] == "table_rows"} == {1}
    assert max(c["row_end"] - c["row_start"] for c in budget if c["kind"] == "table_rows") > 1
    # A value from the file that the options make invalid is said to come from there.
    done = run("chunk", source, "--settings", str(settings), "--budget", "30")
    assert done.returncode == 2 and f"(the settings of {settings}, with the options given over them)" in done.stderr


def test_input_limits_are_options_and_refuse_nonsense(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    done = run("chunk", str(tmp_path), "--max-files", "2", "--strategy", "syntax")
    assert done.returncode == 0 and len({json.loads(line)["path"] for line in done.stdout.splitlines()}) == 2
    assert "over the limit of 2 files" in done.stderr
    for flag in ("--max-bytes", "--max-files"):
        done = run("chunk", str(tmp_path), flag, "-1")
        assert done.returncode == 2 and f"argument {flag}: must be at least 1, got -1" in done.stderr
    # (--rows named no option, and called 0, which it takes, no positive integer.)
    done = run("chunk", str(tmp_path), "--rows", "-1")
    assert done.returncode == 2 and "argument --rows: must be 0 (by the budget) or a number of rows, got -1" in done.stderr


def test_a_forced_encoding_is_noted_as_forced_not_as_detected(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text("name = 'abc'\n", encoding="utf-8")
    done = run("chunk", str(tmp_path / "u.py"), "--encoding", "cp1252")
    assert done.returncode == 0 and done.stderr.splitlines() == ["note: u.py: read as cp1252, as --encoding says"]
    (tmp_path / "b.py").write_bytes(bytes(range(1, 32)) * 40)
    done = run("chunk", str(tmp_path / "b.py"))
    assert done.returncode == 2 and done.stderr.strip() == "error: b.py: binary file (not text)"


def test_help_says_what_the_embedding_options_do_for_each_command() -> None:
    # chunk's help called --head-weight and --head-lines "index, eval: ..." without saying why
    # chunk takes them, and --model was "whose tokenizer counts tokens" for the commands that embed.
    def help_of(command: str) -> str:
        done = run(command, "--help")
        assert done.returncode == 0, done.stderr
        return " ".join(done.stdout.split())  # argparse wraps to the terminal's width

    chunk = help_of("chunk")
    assert chunk.count("accepted here so that the app's settings file and the same option line fit every command: "
                       "chunk's output does not change") == 2
    assert "index, eval:" not in chunk
    for command in ("index", "eval"):
        text = help_of(command)
        assert "path a file, a folder or a zipped repository" in text
        assert "the embedding model: its tokenizer counts tokens and it embeds the chunks" in text
        assert "accepted here" not in text
    assert "$CHUNK_EXPLORER_DATA/chroma when set" in help_of("index")
    assert "--sweep NAME=V1,V2 grid axis, repeatable: budget, unit, overlap" in help_of("eval")


def test_chunk_a_notebook_as_the_script_of_its_cells() -> None:
    notebook = SAMPLES / "py_inventory/notebooks/low_stock_review.ipynb"
    done = run("chunk", str(notebook), "--strategy", "syntax")
    assert done.returncode == 0, done.stderr
    assert "note: low_stock_review.ipynb: a Jupyter notebook (python kernel) read as a python script" in done.stderr
    chunks = [json.loads(line) for line in done.stdout.splitlines()]
    assert {c["language"] for c in chunks} == {"python"}
    # Cut at cells, each prose cell with the code below it, and no output (a PNG) in any chunk.
    assert all(c["text"].startswith(("# %% cell", "def ")) for c in chunks), [c["text"][:30] for c in chunks]
    assert "days_of_cover" in {c["symbol"] for c in chunks}
    assert not any("iVBOR" in c["text"] or '"outputs"' in c["text"] for c in chunks)


@pytest.mark.parametrize("command", ["chunk", "index", "eval"])
def test_an_empty_path_is_refused_not_read_as_the_current_folder(command: str) -> None:
    # ``Path("")`` is ``.``: a script's unset "$VAR" chunked (or embedded) the whole folder.
    extra = ["--queries", "q.jsonl"] if command == "eval" else []
    done = run(command, "", *extra)
    assert done.returncode == 2
    assert "an empty path" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_the_command_with_one_line(jobs: str) -> None:
    import signal
    import sysconfig
    import time

    folder = Path(sysconfig.get_paths()["stdlib"])  # many seconds of work in tokens
    # In a process group of its own, signalled whole, as a terminal's Ctrl-C reaches the workers too.
    proc = subprocess.Popen([sys.executable, "-m", "core", "chunk", str(folder), "--jobs", jobs, "--unit", "tokens"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip
    time.sleep(2.5)  # past the imports, into the chunking
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run ended before the signal")
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err


def test_chunks_longer_than_the_model_reads_are_flagged_in_the_output(tmp_path: Path) -> None:
    from core.settings import DEFAULT_MODEL
    from core.sizing import make_sizer, model_token_limit

    body = "".join(f"    value_{i} = compute_something_long_{i}(alpha, beta, gamma)\n" for i in range(200))
    (tmp_path / "big.py").write_text(f"def big():\n{body}    return value_0\n")
    limit = model_token_limit(DEFAULT_MODEL)
    tokens = make_sizer("tokens", DEFAULT_MODEL)

    def flagged(*options: str) -> tuple[list[dict], list[dict]]:
        done = run("chunk", str(tmp_path / "big.py"), "--strategy", "syntax", *options)
        assert done.returncode == 0, done.stderr
        chunks = [json.loads(line) for line in done.stdout.splitlines()]
        over = [c for c in chunks if tokens.measure(c["embed_text"]) > limit]
        return chunks, over

    # In tokens the sizes are the model's counts: the flag costs nothing and is always there.
    chunks, over = flagged("--budget", "400")
    assert over and [c["id"] for c in chunks if "over_model_limit" in c["flags"]] == [c["id"] for c in over]
    # In another unit only when asked (it costs a tokenization of every chunk).
    chunks, over = flagged("--unit", "chars", "--budget", "3000")
    assert over and not [c for c in chunks if "over_model_limit" in c["flags"]]
    chunks, over = flagged("--unit", "chars", "--budget", "3000", "--model-check")
    assert [c["id"] for c in chunks if "over_model_limit" in c["flags"]] == [c["id"] for c in over]


def test_the_output_is_utf8_whatever_the_locale_and_a_full_disk_is_one_line(tmp_path: Path) -> None:
    # A cp1252 console could not write "日本" (a UnicodeEncodeError traceback), nor could a full
    # disk be written (an OSError traceback).
    (tmp_path / "cjk.py").write_text('def f():\n    return "日本"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "core", "chunk", str(tmp_path / "cjk.py")], capture_output=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "cp1252"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert all('"日本"' in json.loads(line)["text"] for line in done.stdout.decode("utf-8").splitlines())
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "core", "chunk", str(tmp_path / "cjk.py")], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        assert done.returncode == 1 and done.stderr.strip().splitlines()[-1] == "error: cannot write the output: No space left on device"
        assert "Traceback" not in done.stderr


def test_an_option_a_command_does_not_take_is_named_by_that_command() -> None:
    # "python -m core: unrecognized arguments: --bogus (see python -m core --help)": the
    # top-level help lists no command's options.
    done = run("chunk", str(SAMPLES / "py_inventory"), "--bogus")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: python -m core chunk: unrecognized arguments: --bogus (see python -m core chunk --help)"
    done = run("query", "stock", "--jobs", "2")
    assert done.returncode == 2 and "python -m core query: unrecognized arguments: --jobs 2" in done.stderr


def test_a_dangling_or_looping_link_named_on_the_line_is_said_to_be_one(tmp_path: Path) -> None:
    # Both were "no such file or folder", though ``ls`` shows them.
    (tmp_path / "loop1.py").symlink_to("loop2.py")
    (tmp_path / "loop2.py").symlink_to("loop1.py")
    (tmp_path / "dangling.py").symlink_to("missing.py")
    done = run("chunk", "loop1.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "error: loop1.py: a symbolic link that loops (it leads back to itself)"
    done = run("chunk", "dangling.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "error: dangling.py: a symbolic link to missing.py, which does not exist"
