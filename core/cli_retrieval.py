"""Retrieval sub-commands of the CLI (index, query, eval); filled in with core.index."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def add_commands(sub: argparse._SubParsersAction, add_chunk_options: Callable[[argparse.ArgumentParser], None]) -> None:  # type: ignore[type-arg]
    """Register the retrieval sub-commands (none yet)."""
    del sub, add_chunk_options
