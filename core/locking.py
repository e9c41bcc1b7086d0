"""A data folder's write lock, shared by threads and processes.

Several writers may share one data folder: the sessions of one app server (threads), a second
app server, the CLI. Each write (Chroma's adds and deletes, the BM25 files, the manifest) runs
under :class:`FolderLock`: an ``flock`` on a file in the folder, taken through a fresh file
descriptor per acquisition, so threads of one process exclude each other exactly as processes
do. Re-entry by the thread that holds it is allowed. Where ``fcntl`` is missing (Windows) only
the threads of one process are excluded.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from core.errors import ChunkExplorerError

# Writes under the lock take seconds (embedding runs before it is taken); a writer that waits
# this long is stuck behind something that is not us.
DEFAULT_TIMEOUT_S = 600.0
_POLL_S = 0.05
WAIT_SAID_S = 1.0  # a wait this long is said (a log warning: the CLI's stderr, the app's log)

log = logging.getLogger(__name__)


class LockTimeout(ChunkExplorerError):
    """The folder stayed locked by another writer for longer than the timeout."""


class FolderLock:
    """An exclusive lock on ``path`` (created if missing) for threads and processes alike."""

    def __init__(self, path: Path, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.path = path
        self.timeout = timeout
        self._local = threading.local()
        self._threads = threading.Lock()  # only used where fcntl is missing

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Hold the lock for the ``with`` block (re-entrant within one thread)."""
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        handle = self._acquire()
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            self._release(handle)

    def held_elsewhere(self) -> bool:
        """Whether another thread or process holds the lock right now (a probe, not a wait)."""
        if getattr(self._local, "depth", 0):
            return False
        if fcntl is None:  # pragma: no cover - Windows
            if self._threads.acquire(blocking=False):
                self._threads.release()
                return False
            return True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # closing releases a lock taken here
        return False

    def _acquire(self) -> int:
        if fcntl is None:  # pragma: no cover - Windows
            if not self._threads.acquire(timeout=self.timeout):
                raise LockTimeout(f"{self.path.parent} stayed locked by another writer for {self.timeout:.0f} s")
            return -1
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        start = time.monotonic()
        deadline = start + self.timeout
        said = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except OSError:
                if not said and time.monotonic() - start >= WAIT_SAID_S:
                    said = True  # (a command that seemed to hang said nothing for up to ten minutes)
                    log.warning(
                        "waiting for %s: another writer (an index run, the app or the CLI) holds its lock; "
                        "this goes on when it is done (at most %.0f s)", self.path.parent, self.timeout,
                    )
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(
                        f"{self.path.parent} stayed locked by another writer (another index run, app or "
                        f"CLI on the same data folder) for {self.timeout:.0f} s; try again when it is done"
                    ) from None
                time.sleep(_POLL_S)

    def _release(self, fd: int) -> None:
        if fcntl is None:  # pragma: no cover - Windows
            self._threads.release()
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
