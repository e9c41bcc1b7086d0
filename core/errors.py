"""Errors the library raises for bad input: one base class, so callers catch one thing."""

from __future__ import annotations


class ChunkExplorerError(Exception):
    """Base of every error the library raises on purpose; its message is meant for a user."""


class InputError(ChunkExplorerError):
    """The input (a file, an upload, an archive, a table) cannot be used, and why; ``problems``
    lists every one found when the message names only the first few (malformed query lines)."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class SettingsError(ChunkExplorerError):
    """A parameter is out of range or names something unknown."""


class ModelError(ChunkExplorerError):
    """An embedding model or its tokenizer cannot be loaded."""
