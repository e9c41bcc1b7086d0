"""The chunking benchmark's own plumbing (bench/bench_chunking.py): fast checks, no timing.

The benchmark reads the CLI's stderr to learn which files it skipped and measures everything else
on exactly the files chunked; if the CLI's wording changes, these tests say so instead of the
benchmark silently comparing different file sets.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.helpers import ROOT


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


bench = _load("bench_chunking")
drivers = _load("chunk_drivers")


def _tree(root: Path) -> list[str]:
    files = {
        "a.py": "def f():\n    return 1\n",
        "pkg/b.py": "class B:\n    x = 1\n",
        "pkg/empty.py": "",
        "venv/c.py": "y = 2\n",
        "venv/pyvenv.cfg": "home = /usr/bin\n",  # what makes a folder a virtual environment
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return sorted(files)


def test_skipped_files_are_read_from_the_cli_and_left_out(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    done = subprocess.run(bench.cli_argv(tmp_path, "syntax", "chars"), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    skipped, count = bench.parse_skipped(done.stderr)
    assert count == len(skipped) == 2
    assert {path for path, _ in skipped} == {"pkg/empty.py", "venv/"}
    assert bench.chunked_files([f for f in files if f.endswith(".py")], skipped) == ["a.py", "pkg/b.py"]


def test_parse_skipped_without_skips() -> None:
    assert bench.parse_skipped("") == ([], 0)


def test_stdlib_selection_leaves_out_tests() -> None:
    root, files = bench.select_stdlib()
    assert len(files) > 300
    assert all(f.endswith(".py") and not f.rsplit("/", 1)[-1].startswith("test_") for f in files)
    assert not any(part in bench.EXCLUDED_DIR_NAMES for f in files for part in f.split("/")[:-1])
    assert "argparse.py" in files and (root / "argparse.py").is_file()


def test_drivers_report_the_same_files(tmp_path: Path) -> None:
    files = [f for f in _tree(tmp_path) if "empty" not in f]
    job = {"root": str(tmp_path), "files": files, "chars_budget": 1500, "tokens_budget": 254}
    parsed = drivers.run("parse", job)
    ours = drivers.run("ours_chars", job)
    assert parsed["files"] == ours["files"] == len(files)
    assert parsed["bytes"] == ours["bytes"] == sum((tmp_path / f).stat().st_size for f in files)
    assert ours["pieces"] >= len(files) and not ours["partial"]
    assert ours["piece_max_chars"] <= 1500
