"""The data folder's write lock: exclusive across processes and threads, re-entrant in a thread."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.locking import FolderLock, LockTimeout

ROOT = Path(__file__).resolve().parents[1]

HOLDER = """
import sys, time
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from core.locking import FolderLock
with FolderLock(Path(sys.argv[1])).hold():
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_another_process_holding_it_blocks_us_until_it_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "write.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(ROOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        lock = FolderLock(path, timeout=0.3)
        assert lock.held_elsewhere()
        with pytest.raises(LockTimeout, match="stayed locked by another writer"):
            with lock.hold():
                pass
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0
        assert not lock.held_elsewhere()
        with lock.hold():
            pass
    finally:
        holder.kill()


def test_threads_take_turns_and_a_thread_may_re_enter(tmp_path: Path) -> None:
    lock = FolderLock(tmp_path / "write.lock")
    inside = 0
    most = 0
    guard = threading.Lock()

    def work() -> None:
        nonlocal inside, most
        for _ in range(20):
            with lock.hold():
                with lock.hold():  # re-entry by the holder must not deadlock
                    with guard:
                        inside += 1
                        most = max(most, inside)
                    time.sleep(0.001)
                    with guard:
                        inside -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 1


def test_the_holder_does_not_see_itself_as_another_writer(tmp_path: Path) -> None:
    lock = FolderLock(tmp_path / "sub" / "write.lock")
    with lock.hold():
        assert not lock.held_elsewhere()
        seen: list[bool] = []
        probe = threading.Thread(target=lambda: seen.append(lock.held_elsewhere()))
        probe.start()
        probe.join()
        assert seen == [True]  # another thread does see it held


def test_a_long_wait_is_said_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A CLI command behind another writer's lock waited up to ten minutes without a word.
    path = tmp_path / "write.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(ROOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"

        def let_go() -> None:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.flush()

        threading.Timer(2.0, let_go).start()
        with caplog.at_level("WARNING", logger="core.locking"), FolderLock(path, timeout=30).hold():
            pass
        said = [r.getMessage() for r in caplog.records if r.name == "core.locking"]
        assert len(said) == 1 and said[0].startswith(f"waiting for {tmp_path}: another writer"), said
        caplog.clear()
        with caplog.at_level("WARNING", logger="core.locking"), FolderLock(path, timeout=30).hold():
            pass
        assert not caplog.records, "a lock taken at once says nothing"
    finally:
        holder.kill()
