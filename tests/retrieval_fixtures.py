"""Fixtures of the retrieval tests: the bundled model (loaded once per process), an embedder
over a fresh cache, a Chroma data folder, and a real Chroma server.

Import the fixtures you use into a test module (``from tests.retrieval_fixtures import ...``);
the model itself is memoised, so every module shares one load.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from core.settings import DEFAULT_MODEL
from tests.helpers import stop_process

ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def _bundled_model() -> Any:
    from core.embed import load_model

    return load_model(DEFAULT_MODEL, device="cpu")


@pytest.fixture(scope="session")
def model() -> Any:
    """The bundled sentence-transformers model, loaded once per test process."""
    return _bundled_model()


@pytest.fixture
def embedder(model: Any, tmp_path: Path) -> Any:
    """An embedder on the shared model with its own on-disk cache in ``tmp_path``."""
    from core.embed import Embedder

    return Embedder(DEFAULT_MODEL, cache=tmp_path / "cache" / "embeddings.sqlite3", loaded=model)


@pytest.fixture(scope="session")
def shared_embedder(model: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An embedder whose cache lives for the whole session: tests that index the same sample
    texts embed them once (use ``embedder`` when the cache itself is under test)."""
    from core.embed import Embedder

    return Embedder(DEFAULT_MODEL, cache=tmp_path_factory.mktemp("shared-cache") / "embeddings.sqlite3", loaded=model)


@pytest.fixture
def tmp_chroma(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data folder for an embedded Chroma (server variables cleared)."""
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.delenv("CHROMA_PORT", raising=False)
    folder = tmp_path / "db"
    folder.mkdir()
    return folder


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A real ``chroma run`` server on 127.0.0.1, killed at the end of the module."""
    with running_chroma_server(tmp_path_factory.mktemp("chroma-server")) as (host, port, _):
        yield host, port


@contextmanager
def running_chroma_server(data: Path) -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    """A real ``chroma run`` server on 127.0.0.1 storing under ``data``, with its process (a
    test may stop it early), stopped on leaving."""
    exe = shutil.which("chroma")
    if exe is None:
        pytest.skip("the `chroma` executable (from the chromadb package) is not on PATH")
    port = free_port()
    log = (data / "server.log").open("wb")
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    proc = subprocess.Popen(
        [exe, "run", "--path", str(data / "store"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass  # not listening yet: poll again until the deadline
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError(
                    f"chroma server did not start (exit {proc.poll()}): {(data / 'server.log').read_text()[-2000:]}"
                )
            time.sleep(0.3)
        yield "127.0.0.1", port, proc
    finally:
        stop_process(proc, timeout=15)
        log.close()


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python -m core ARGS`` in a fresh process, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "core", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
