"""The CLI's chunk command, run as a user would: a subprocess, JSONL out, errors on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
