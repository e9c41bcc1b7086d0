"""core/ is a library: no Streamlit anywhere in it, and the chunk path never loads torch."""

from __future__ import annotations

import ast
import subprocess
import sys

from tests.helpers import ROOT


def test_core_never_imports_streamlit() -> None:
    offenders = []
    for path in (ROOT / "core").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name.split(".")[0] == "streamlit" for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def test_chunk_command_does_not_import_torch(tmp_path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    code = (
        "import sys, runpy; sys.argv = ['core', 'chunk', sys.argv[1], '--unit', 'tokens'];"
        "import core.__main__ as m; rc = m.main(sys.argv[1:]);"
        "sys.stderr.write('TORCH=' + str('torch' in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert "TORCH=False" in done.stderr, done.stderr
