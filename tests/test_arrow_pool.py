"""Arrow's allocator for the CLI's and the app's own processes (core.arrow_pool)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

_SHOW = "import pyarrow as pa; print(pa.default_memory_pool().backend_name)"


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_arrows_default_pool_is_not_the_system_one_here() -> None:
    # Else the tests below could not fail: this wheel's default is mimalloc (or jemalloc).
    assert _run(_SHOW) != "system"


@pytest.mark.parametrize("arrow_first", [False, True], ids=["before-arrow", "after-arrow"])
def test_the_entry_points_allocate_with_the_system_allocator(arrow_first: bool) -> None:
    # Whether Arrow is loaded before (the app: Streamlit loads it) or after (the CLI).
    prefix = "import pyarrow; " if arrow_first else ""
    code = f"{prefix}from core.arrow_pool import prefer_returning_pool; prefer_returning_pool(); {_SHOW}"
    assert _run(code) == "system"


def test_a_pool_chosen_in_the_environment_is_kept() -> None:
    code = f"from core.arrow_pool import prefer_returning_pool; prefer_returning_pool(); {_SHOW}"
    assert _run(code, ARROW_DEFAULT_MEMORY_POOL="mimalloc") == "mimalloc"


def test_the_cli_and_the_app_call_it() -> None:
    # (Entry points only: the library never changes a process's allocator.)
    assert "prefer_returning_pool()" in (ROOT / "core" / "__main__.py").read_text(encoding="utf-8")
    assert "prefer_returning_pool()" in (ROOT / "app.py").read_text(encoding="utf-8")
    library = [p for p in (ROOT / "core").glob("*.py") if p.name not in ("__main__.py", "arrow_pool.py")]
    assert not any("prefer_returning_pool" in p.read_text(encoding="utf-8") for p in library)
