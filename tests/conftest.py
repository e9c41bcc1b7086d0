"""Test-suite configuration shared by every test module."""

from __future__ import annotations

import os
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long-running test (large generated inputs)")
    config.addinivalue_line("markers", "browser: drives the app in a real Chromium through Playwright")
    # Streamlit and Chroma must never phone home from a test run.
    os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # The app's Chroma store and embedding cache go to a fresh folder per test run.
    os.environ.setdefault("CHUNK_EXPLORER_DATA", tempfile.mkdtemp(prefix="chunk-explorer-test-"))
