"""A real Streamlit server on 127.0.0.1 and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import page_at

from tests.helpers import ROOT, stop_process

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serve(data: Path) -> Iterator[str]:
    """``streamlit run app.py`` on a free loopback port, its data under ``data``; yields its
    base URL once it answers."""
    port = _free_port()
    env = {**os.environ, "CHUNK_EXPLORER_DATA": str(data), "PYTHONPATH": str(ROOT)}
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail(f"streamlit did not start: {(data / 'server.log').read_text()[-2000:]}")
    try:
        yield url
    finally:
        stop_process(process, timeout=20)
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app's server for the session's browser tests; yields its base URL."""
    with serve(tmp_path_factory.mktemp("appdata")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium (``playwright install`` cannot download browsers here)."""
    if not CHROMIUM.exists():
        message = "Chromium is missing: apt-get install chromium (CI installs it in .ci/run)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser, server):  # type: ignore[no-untyped-def]
    with page_at(browser, 1500, 1000) as opened:
        yield opened
