"""Workshop load test (issue 6): 30 concurrent sessions against a real Streamlit server.

    python bench/bench_load.py                          # 30 sessions as configured, ~1.5-2 min on 2 cores
    python bench/bench_load.py --file-watcher none      # same, server with --server.fileWatcherType none
    python bench/bench_load.py --browsers 3             # 3 of the 30 sessions in real Chromium tabs
    python bench/bench_load.py --retrieve-budget last   # Retrieve at each session's own budget
    python bench/bench_load.py --post-script-gc true    # override runner.postScriptGC
    python bench/bench_load.py --py-spy                 # plus where the server's time goes
    python bench/bench_load.py --think 0 --ramp 0       # stress: no pauses, all start at once

Exit status 0 when every aim is met, 1 otherwise. See bench/README.md ("Workshop load test").

Everything happens in one run, bounded (``--timeout``, default 600 s, for the whole run):

1. The bench starts its own server on 127.0.0.1 at a free port:
   ``python -m streamlit run app.py --server.headless true --server.address 127.0.0.1
   --server.port N`` with ``CHUNK_EXPLORER_DATA`` set to a fresh temporary folder (removed at
   the end), so the app's ``.streamlit/config.toml`` applies (``runner.postScriptGC = false``).
   By default the server runs from a copy of app.py, pages/, core/, .streamlit/ and
   sample_repos/ taken at start (``--in-place``: from the working tree): Streamlit's file watcher
   unloads edited modules under running sessions, so someone editing the tree during a run would
   otherwise show up as errors.
2. Pre-warm (not timed in the figures): one session opens ``/retrieve``, which loads the
   embedding model and indexes the bundled ``py_inventory`` sample at the default settings.
3. ``--sessions`` sessions (default 30) start over ``--ramp`` seconds. Each one opens Explore
   (``/``), changes the sidebar budget (``budget_tokens``) ``--changes`` times (default 5,
   values drawn per session from the slider's range), opens Retrieve through the navigation and
   runs three sample questions (the first three of ``sample_repos/queries/code.jsonl`` about
   ``py_inventory/``), pausing ``--think`` seconds (uniform random, default 1-3) between actions
   like a person reading the page.
4. The server process tree's RSS is polled (psutil, every 0.1 s) from start to end.
5. The server is stopped (SIGTERM, then SIGKILL) whatever happens.

How the sessions are driven: by default each session is a websocket client speaking Streamlit's
own protocol (``/_stcore/stream``, ``BackMsg``/``ForwardMsg`` protobufs), like the browser's
frontend: it sends ``rerun_script`` with the page, the query string the server last set and the
widget values the user changed, keeps a message cache like the frontend (``cached_message_hashes``,
so unchanged big elements come back as references), and reads ``ForwardMsg`` until
``script_finished``. What is timed:

- rerun latency: the rerun carrying the new budget is sent -> ``script_finished`` received;
- query latency: the rerun carrying the question is sent -> ``script_finished`` received, and
  result rows (``**#rank**`` markdown) are checked to be among the elements (none: an error);
- for information: opening Explore (connect included) and opening Retrieve.

Browser rendering is not included in the websocket figures: ``--browsers K`` replaces K of the
sessions by Chromium tabs (Playwright, Debian chromium) doing the same thing, timed from the
input event to the page's ``data-test-script-state`` returning to ``notRunning``, as a check of
what a user sees. A tab changes the budget with one arrow key on the slider (one step, one
rerun), so its last budget is 256, not 254, and its Retrieve page indexes at 256 (once, shared by
the tabs). 30 tabs do not fit 2 cores (see bench/README.md).

Errors counted: connection failures and timeouts, uncaught exceptions shown by the app
(``exception`` elements), ``st.error`` alerts (except the one Explore shows on purpose for chunks
past the model's limit, counted apart), script runs that did not finish successfully,
pages without their main element (the code view on Explore, results for a question), and
``Traceback``/``ERROR`` lines in the server's log. The first messages are printed.

Aims checked: no errors, rerun p95 < 1 s, query p95 < 1.5 s, server peak RSS < 3 GB.
Results: printed, and JSON in ``bench/out/load.json``; server log in ``bench/out/load_server.log``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
HOST = "127.0.0.1"

BUDGET_KEY = "budget_tokens"
BUDGET_RANGE = (16, 1024, 2)  # pages/common.py BUDGET_RANGES["tokens"]
DEFAULT_BUDGET = 254  # core/settings.py DEFAULT_BUDGETS["tokens"]
QUERY_KEY = "q"
SAMPLE_PROJECT = "py_inventory"

AIMS = {"rerun_p95_s": 1.0, "query_p95_s": 1.5, "server_rss_bytes": 3 * 1024**3}

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]

# st.error texts the app shows on purpose (page content, not failures): reported, not counted.
EXPECTED_ALERTS = ("tokens past the model's limit would be silently cut off",)

OK_STATUSES = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


# ---- results -------------------------------------------------------------------------------------


@dataclass
class Results:
    """Every measurement of the run, in seconds; errors as (session, message)."""

    rerun: list[float] = field(default_factory=list)
    query: list[float] = field(default_factory=list)
    query_first_result: list[float] = field(default_factory=list)
    open_explore: list[float] = field(default_factory=list)
    open_retrieve: list[float] = field(default_factory=list)
    browser_rerun: list[float] = field(default_factory=list)
    browser_query: list[float] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    expected_alerts: Counter = field(default_factory=Counter)
    sessions_done: int = 0
    bytes_received: int = 0
    cache_refs: int = 0
    cacheable: int = 0

    def error(self, who: str, message: str) -> None:
        self.errors.append((who, message[:300]))


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil(n * q / 100)
    return ordered[int(rank) - 1]


# ---- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


APP_PARTS = ("app.py", ".streamlit", "pages", "core", "sample_repos")


def snapshot_app(dest: Path) -> Path:
    """Copy what the server runs (app, pages, core, config, samples; ~1 MB) into ``dest``: edits
    made to the working tree while the bench runs cannot reach the server through its file watcher."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in APP_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.exists():
            shutil.copy2(source, dest / part)
    return dest


def start_server(port: int, data_dir: Path, log_path: Path, extra: list[str], cwd: Path = ROOT) -> subprocess.Popen:
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.address", HOST, "--server.port", str(port), *extra]
    env = {**os.environ, "CHUNK_EXPLORER_DATA": str(data_dir), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    process.log = log  # type: ignore[attr-defined]
    process.command = command  # type: ignore[attr-defined]
    return process


def wait_healthy(process: subprocess.Popen, port: int, deadline: float) -> None:
    url = f"http://{HOST}:{port}/_stcore/health"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode} (see bench/out/load_server.log)")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - 127.0.0.1 only
                if response.status == 200:
                    return
        time.sleep(0.2)
    raise TimeoutError("the server did not answer /_stcore/health in time")


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM to the server's process group (it was started in its own), SIGKILL after 10 s."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    process.log.close()  # type: ignore[attr-defined]


class MemoryPoller(threading.Thread):
    """Peak RSS of a process and its descendants, and CPU times of the tree, polled."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.root = psutil.Process(pid)
        self.interval = interval
        self.peak = 0
        self.peak_phase = ""
        self.peak_processes = 0
        self.phase = "start"
        self.phase_peaks: dict[str, int] = {}
        self.cpu: dict[int, float] = {}
        self.client_cpu: dict[int, float] = {}  # the bench and its other children (Playwright, Chromium)
        self.me = psutil.Process()
        self.samples = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            self.sample()
            self._halt.wait(self.interval)

    def sample(self) -> None:
        try:
            processes = [self.root, *self.root.children(recursive=True)]
        except psutil.Error:
            return
        total = 0
        for process in processes:
            with contextlib.suppress(psutil.Error):
                total += process.memory_info().rss
                times = process.cpu_times()
                self.cpu[process.pid] = times.user + times.system + times.children_user + times.children_system
        server_pids = {p.pid for p in processes}
        with contextlib.suppress(psutil.Error):
            for process in [self.me, *self.me.children(recursive=True)]:
                if process.pid in server_pids:
                    continue
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    self.client_cpu[process.pid] = times.user + times.system
        self.samples += 1
        self.phase_peaks[self.phase] = max(self.phase_peaks.get(self.phase, 0), total)
        if total > self.peak:
            self.peak, self.peak_phase, self.peak_processes = total, self.phase, len(processes)

    def cpu_seconds(self) -> float:
        return sum(self.cpu.values())

    def client_cpu_seconds(self) -> float:
        """CPU of the bench's side, as last polled (processes that ended keep their last value)."""
        return sum(self.client_cpu.values())

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)
        self.sample()


# ---- a session over Streamlit's websocket protocol ------------------------------------------------


def _shape(text: str) -> str:
    """An alert's text with its numbers replaced, to count alerts of one kind together."""
    import re

    return re.sub(r"\d+", "N", text)[:120]


class ProtocolError(Exception):
    """The server answered something a browser would show as broken."""


class WsSession:
    """One user: a websocket to /_stcore/stream and what the frontend would remember."""

    def __init__(self, name: str, port: int, results: Results, op_timeout: float, deadline: float) -> None:
        self.name = name
        self.url = f"ws://{HOST}:{port}/_stcore/stream"
        self.results = results
        self.op_timeout = op_timeout
        self.deadline = deadline
        self.ws = None
        self.query_string = ""
        self.pages: dict[str, str] = {}  # url path -> page script hash, from the navigation message
        self.widget_ids: dict[str, str] = {}  # user key -> element id, from the last runs
        self.page_hash = ""
        self.widgets: dict[str, WidgetState] = {}  # values this user set, re-sent like the frontend
        self.cache: dict[str, int] = {}  # message hash -> run index it was last used (frontend cache)
        self.runs = 0

    async def connect(self) -> None:
        self.ws = await asyncio.wait_for(
            websockets.connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=self.op_timeout,
                               ping_interval=None, origin=f"http://{HOST}:{self.url.split(':')[2].split('/')[0]}"),
            timeout=self.op_timeout)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), timeout=5)

    async def rerun(self, *, page_name: str = "") -> dict:
        """Send one rerun_script and read until the run finishes; returns what was seen."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash
        state.page_name = page_name
        for widget in self.widgets.values():
            state.widget_states.widgets.append(widget)
        # The frontend keeps big elements for maxCachedMessageAge (2) runs and reports their hashes.
        state.cached_message_hashes.extend(h for h, used in self.cache.items() if self.runs - used <= 2)
        self.runs += 1
        seen: dict = {"elements": Counter(), "hits": 0, "first_hit": None, "alerts": [], "exceptions": []}
        start = time.perf_counter()
        await self.ws.send(message.SerializeToString())
        while True:
            remaining = min(self.op_timeout - (time.perf_counter() - start), self.deadline - time.monotonic())
            if remaining <= 0:
                raise TimeoutError(f"no script_finished within {self.op_timeout:.0f} s (or the run's deadline)")
            raw = await asyncio.wait_for(self.ws.recv(), timeout=remaining)
            self.results.bytes_received += len(raw)
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if msg.metadata.cacheable and msg.hash:
                self.cache[msg.hash] = self.runs
                self.results.cacheable += 1
            if kind == "ref_hash":
                if msg.ref_hash not in self.cache:
                    raise ProtocolError(f"server referenced a message this client never had ({msg.ref_hash})")
                self.cache[msg.ref_hash] = self.runs
                self.results.cache_refs += 1
                continue
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._element(msg.delta.new_element, seen, start)
            elif kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            elif kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "page_not_found":
                raise ProtocolError(f"page not found: {msg.page_not_found.page_name!r}")
            elif kind == "script_finished":
                status = msg.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # st.rerun(): the next run follows on its own
                seen["elapsed"] = time.perf_counter() - start
                if status not in OK_STATUSES:
                    raise ProtocolError(f"script finished with status {ForwardMsg.ScriptFinishedStatus.Name(status)}")
                for text in seen["exceptions"]:
                    self.results.error(self.name, f"exception shown: {text}")
                for text in seen["alerts"]:
                    if any(part in text for part in EXPECTED_ALERTS):
                        self.results.expected_alerts[_shape(text)] += 1
                    else:
                        self.results.error(self.name, f"st.error shown: {text}")
                return seen

    def _element(self, element, seen: dict, start: float) -> None:  # type: ignore[no-untyped-def]
        kind = element.WhichOneof("type")
        seen["elements"][kind] += 1
        proto = getattr(element, kind)
        widget_id = getattr(proto, "id", "") if kind not in {"markdown", "html", "code"} else ""
        if widget_id.startswith("$$ID-"):
            self.widget_ids[widget_id.rsplit("-", 1)[-1]] = widget_id
        if kind == "exception":
            seen["exceptions"].append(f"{proto.type}: {proto.message}")
        elif kind == "alert":
            if proto.format == proto.ERROR:
                seen["alerts"].append(proto.body)
            elif proto.body.startswith("Indexed."):
                seen["indexed"] = proto.body
        elif kind == "markdown" and proto.body.startswith("**#"):
            seen["hits"] += 1
            if seen["first_hit"] is None:
                seen["first_hit"] = time.perf_counter() - start

    def set_widget(self, key: str, **value: object) -> None:
        widget_id = self.widget_ids.get(key)
        if widget_id is None:
            raise ProtocolError(f"no widget with key {key!r} on this page")
        state = WidgetState(id=widget_id)
        for name, data in value.items():
            if name == "double_array_value":
                state.double_array_value.data[:] = data  # type: ignore[index]
            else:
                setattr(state, name, data)
        self.widgets[key] = state

    # ---- what a user does ---------------------------------------------------------------------

    async def open(self, path: str = "") -> float:
        """Open the app at a URL path ("" for /, "retrieve" for /retrieve): connect + first run."""
        start = time.perf_counter()
        await self.connect()
        seen = await self.rerun(page_name=path)
        if path == "" and not seen["elements"]["html"]:
            raise ProtocolError("Explore rendered without its code view")
        if path == "retrieve" and "indexed" not in seen:
            raise ProtocolError("Retrieve rendered without an index")
        return time.perf_counter() - start

    async def change_budget(self, budget: int) -> float:
        self.set_widget(BUDGET_KEY, double_array_value=[float(budget)])
        seen = await self.rerun()
        if not seen["elements"]["html"]:
            raise ProtocolError(f"budget {budget}: Explore rendered without its code view")
        return seen["elapsed"]

    async def open_retrieve(self) -> float:
        """Click "Retrieve" in the navigation: a rerun with that page's hash, query string dropped."""
        if "retrieve" not in self.pages:
            raise ProtocolError("no Retrieve page in the navigation")
        self.page_hash = self.pages["retrieve"]
        self.query_string = ""
        self.widgets = {k: v for k, v in self.widgets.items() if k == BUDGET_KEY}  # the sidebar stays mounted
        seen = await self.rerun()
        if "indexed" not in seen:
            raise ProtocolError("Retrieve rendered without an index")
        return seen["elapsed"]

    async def ask(self, question: str) -> tuple[float, float | None]:
        self.set_widget(QUERY_KEY, string_value=question)
        seen = await self.rerun()
        if seen["hits"] == 0:
            raise ProtocolError(f"no results rendered for {question[:60]!r}")
        return seen["elapsed"], seen["first_hit"]


# ---- a session in a real browser tab --------------------------------------------------------------

# Records every change of the app's script state with the page's clock (Date.now, wall clock).
_OBSERVER = """() => {
  if (window.__loadObs) return;
  window.__loadLog = [];
  const attach = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) { setTimeout(attach, 20); return; }
    window.__loadLog.push([Date.now(), app.getAttribute('data-test-script-state')]);
    new MutationObserver(() => window.__loadLog.push([Date.now(), app.getAttribute('data-test-script-state')]))
      .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  };
  window.__loadObs = true; attach();
}"""
_RUN_DONE = """(since) => (window.__loadLog || []).some(([t, s]) => t >= since && s === 'running')
  && document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state') === 'notRunning'"""
_FINISHED_AT = """(since) => { const log = window.__loadLog || []; let ran = false;
  for (const [t, s] of log) { if (t >= since && s === 'running') ran = true; if (ran && s === 'notRunning') return t; }
  return null; }"""


class BrowserSession:
    """One user in a Chromium tab. Times are from the input event to the run's end in the page."""

    def __init__(self, name: str, page, base: str, results: Results, op_timeout: float) -> None:  # type: ignore[no-untyped-def]
        self.name, self.page, self.base, self.results = name, page, base, results
        self.timeout_ms = op_timeout * 1000

    async def _settled(self, since_ms: int) -> float:
        await self.page.wait_for_function(_RUN_DONE, arg=since_ms, timeout=self.timeout_ms, polling=50)
        finished = await self.page.evaluate(_FINISHED_AT, since_ms)
        await self._check_errors()
        return (finished - since_ms) / 1000

    async def _check_errors(self) -> None:
        for selector, label in (('[data-testid="stException"]', "exception shown"),
                                ('[data-testid="stAlertContentError"]', "st.error shown")):
            for text in await self.page.locator(selector).all_inner_texts():
                if any(part in text for part in EXPECTED_ALERTS):
                    self.results.expected_alerts[_shape(text.strip())] += 1
                else:
                    self.results.error(self.name, f"{label}: {text.strip()[:200]}")

    async def open(self, path: str = "") -> float:
        start = time.perf_counter()
        await self.page.goto(f"{self.base}/{path}", timeout=self.timeout_ms)
        await self.page.evaluate(_OBSERVER)
        await self.page.wait_for_selector('[data-testid="stHtml"]', state="attached", timeout=self.timeout_ms)
        await self.page.wait_for_function(
            "document.querySelector('[data-testid=\"stApp\"]').getAttribute('data-test-script-state') === 'notRunning'",
            timeout=self.timeout_ms, polling=50)
        await self._check_errors()
        return time.perf_counter() - start

    async def change_budget(self, budget: int) -> float:
        # The slider's thumb takes keys; one arrow press = one step = one rerun. Home jumps to the
        # minimum, so "set to budget" would be many reruns: move by whole keys from the current value.
        thumb = self.page.locator('[data-testid="stSidebar"] input[type="range"][aria-label^="Budget"]')
        current = int(float(await thumb.input_value(timeout=self.timeout_ms)))
        key = "ArrowRight" if budget >= current else "ArrowLeft"
        await thumb.focus()
        since = await self.page.evaluate("Date.now()")
        await thumb.press(key)
        return await self._settled(since)

    async def open_retrieve(self) -> float:
        since = await self.page.evaluate("Date.now()")
        await self.page.locator('[data-testid="stSidebarNav"] a[href$="/retrieve"]').click(timeout=self.timeout_ms)
        await self.page.wait_for_selector('[data-testid="stAlertContentSuccess"]', timeout=self.timeout_ms)
        return await self._settled(since)

    async def ask(self, question: str) -> tuple[float, float | None]:
        box = self.page.get_by_label("Question or code to search for")
        await box.fill(question)
        since = await self.page.evaluate("Date.now()")
        await box.press("Enter")
        elapsed = await self._settled(since)
        hits = await self.page.get_by_text("#1", exact=False).count()
        if hits == 0:
            raise ProtocolError(f"no results rendered for {question[:60]!r}")
        return elapsed, None

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.page.close()


# ---- the scenario ----------------------------------------------------------------------------------


def budgets_for(index: int, changes: int, seed: int, back_to_default: bool) -> list[int]:
    """Budgets one user picks: distinct random slider values; the last is the default if asked."""
    low, high, step = BUDGET_RANGE
    rng = random.Random(seed * 1000 + index)
    values = [v for v in range(low, high + 1, step) if v != DEFAULT_BUDGET]
    picked = rng.sample(values, changes)
    if back_to_default and changes:
        picked[-1] = DEFAULT_BUDGET
    return picked


async def scenario(session, index: int, args, questions: list[str], results: Results, browser: bool) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(args.seed * 7919 + index)
    think_low, think_high = args.think

    async def think() -> None:
        if think_high > 0:
            await asyncio.sleep(rng.uniform(think_low, think_high))

    step = "opening Explore"
    try:
        results.open_explore.append(await session.open(""))
        for budget in budgets_for(index, args.changes, args.seed, args.retrieve_budget == "default"):
            await think()
            step = f"budget -> {budget}"
            elapsed = await session.change_budget(budget)
            (results.browser_rerun if browser else results.rerun).append(elapsed)
        await think()
        step = "opening Retrieve"
        results.open_retrieve.append(await session.open_retrieve())
        for question in questions:
            await think()
            step = f"question {question[:40]!r}"
            elapsed, first = await session.ask(question)
            (results.browser_query if browser else results.query).append(elapsed)
            if first is not None:
                results.query_first_result.append(first)
        results.sessions_done += 1
    except asyncio.CancelledError:
        results.error(session.name, f"stopped by the run's deadline while {step}")
        raise
    except (TimeoutError, asyncio.TimeoutError):
        results.error(session.name, f"timeout while {step}")
    except Exception as exc:  # noqa: BLE001 - every failure is a finding, reported with its step
        results.error(session.name, f"{step}: {type(exc).__name__}: {exc}")
    finally:
        await session.close()


async def run_sessions(args, port: int, questions: list[str], results: Results, deadline: float) -> None:  # type: ignore[no-untyped-def]
    browsers = min(args.browsers, args.sessions)
    sockets = args.sessions - browsers
    tasks: list[asyncio.Task] = []
    playwright = browser = None
    try:
        contexts = []
        if browsers:
            from playwright.async_api import async_playwright

            playwright = await async_playwright().start()
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            contexts = [await browser.new_context(viewport={"width": 1400, "height": 900})
                        for _ in range(min(3, browsers))]

        async def start(index: int, delay: float) -> None:
            await asyncio.sleep(delay)
            if index < browsers:
                page = await contexts[index % len(contexts)].new_page()
                session = BrowserSession(f"browser-{index}", page, f"http://{HOST}:{port}", results, args.op_timeout)
                await scenario(session, index, args, questions, results, browser=True)
            else:
                session = WsSession(f"session-{index}", port, results, args.op_timeout, deadline)
                await scenario(session, index, args, questions, results, browser=False)

        total = browsers + sockets
        for index in range(total):
            tasks.append(asyncio.create_task(start(index, args.ramp * index / max(1, total))))
        done, pending = await asyncio.wait(tasks, timeout=max(1.0, deadline - time.monotonic()))
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    finally:
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), timeout=20)
        if playwright is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(playwright.stop(), timeout=20)


async def prewarm(port: int, results: Results, op_timeout: float, deadline: float) -> float:
    """One session opens /retrieve: the model loads and py_inventory is indexed (default settings)."""
    warm = WsSession("pre-warm", port, results, op_timeout, deadline)
    try:
        return await warm.open("retrieve")
    finally:
        await warm.close()


# ---- main --------------------------------------------------------------------------------------------


def sample_questions(count: int) -> list[str]:
    questions = []
    for line in (ROOT / "sample_repos/queries/code.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            if str(item.get("path", "")).startswith(f"{SAMPLE_PROJECT}/"):
                questions.append(item["query"])
    if len(questions) < count:
        raise SystemExit(f"only {len(questions)} sample questions about {SAMPLE_PROJECT}/")
    return questions[:count]


def server_log_errors(path: Path) -> list[str]:
    lines = path.read_text("utf-8", "replace").splitlines() if path.exists() else []
    return [line.strip() for line in lines if "Traceback" in line or " ERROR " in line or line.startswith("ERROR")]


def source_snapshot() -> dict[str, int]:
    """mtimes of the app's sources: an edit during the run makes Streamlit's file watcher unload
    modules under the running sessions (errors that a deployed, unedited app would not have)."""
    files = [ROOT / "app.py", *ROOT.glob(".streamlit/*"), *ROOT.glob("pages/**/*.py"), *ROOT.glob("core/**/*.py")]
    snapshot = {}
    for path in files:
        with contextlib.suppress(OSError):
            snapshot[str(path.relative_to(ROOT))] = path.stat().st_mtime_ns
    return snapshot


def changed_sources(before: dict[str, int]) -> list[str]:
    after = source_snapshot()
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def start_py_spy(pid: int, out: Path) -> subprocess.Popen | None:
    exe = shutil.which("py-spy")
    if exe is None:
        print("py-spy not found (pip install py-spy); running without the profile", file=sys.stderr)
        return None
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--rate", "50", "--gil", "--nonblocking",
                             "--format", "raw", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_py_spy(process: subprocess.Popen, out: Path) -> dict:
    """Stop the recorder (SIGINT writes the file); the functions seen most (inclusive, by file)."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if not out.exists():
        return {}
    inclusive: Counter = Counter()
    own: Counter = Counter()
    total = 0
    for line in out.read_text("utf-8", "replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.split(" (")[-1].split("/")[-1] for f in stack.split(";")[1:]]
        for frame in set(frames):
            inclusive[frame] += n
        if frames:
            own[frames[-1]] += n
    return {"samples": total,
            "inclusive": [(f, round(n / total, 3)) for f, n in inclusive.most_common(40)] if total else [],
            "self": [(f, round(n / total, 3)) for f, n in own.most_common(25)] if total else []}


def system_cpu_seconds() -> float:
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--changes", type=int, default=5, help="budget changes per session (default 5)")
    parser.add_argument("--queries", type=int, default=3, help="sample questions per session (default 3)")
    parser.add_argument("--think", default="1,3", help="pause between actions, 'LOW,HIGH' seconds or one number (default 1,3)")
    parser.add_argument("--ramp", type=float, default=10.0, help="sessions start spread over this many seconds (default 10)")
    parser.add_argument("--retrieve-budget", choices=("default", "last"), default="default",
                        help="default: the last budget change puts the budget back to 254, so Retrieve uses the "
                             "pre-warmed index; last: Retrieve indexes at each session's own last budget")
    parser.add_argument("--post-script-gc", choices=("config", "true", "false"), default="config",
                        help="pass --runner.postScriptGC to the server (default: the app's config.toml)")
    parser.add_argument("--in-place", action="store_true",
                        help="run the server from the working tree (default: from a copy of app.py, pages/, core/, "
                             ".streamlit/ and sample_repos/ taken at start, so concurrent edits cannot disturb it)")
    parser.add_argument("--file-watcher", choices=("config", "none"), default="config",
                        help="none: pass --server.fileWatcherType none (default: Streamlit's default, auto)")
    parser.add_argument("--py-spy", action="store_true",
                        help="sample the server with py-spy (GIL holder, 50 Hz) while the sessions run; "
                             "top functions printed, raw stacks in bench/out/load_pyspy.txt")
    parser.add_argument("--browsers", type=int, default=0, help="sessions driven in Chromium tabs instead (default 0)")
    parser.add_argument("--timeout", type=float, default=600.0, help="hard limit for the whole run, seconds (default 600)")
    parser.add_argument("--op-timeout", type=float, default=120.0, help="limit for one action, seconds (default 120)")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--out", type=Path, default=OUT / "load.json")
    args = parser.parse_args(argv)
    parts = [float(p) for p in str(args.think).split(",")]
    args.think = (parts[0], parts[-1])
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.monotonic()
    deadline = began + args.timeout
    questions = sample_questions(args.queries)
    OUT.mkdir(parents=True, exist_ok=True)
    log_path = OUT / "load_server.log"
    work = Path(tempfile.mkdtemp(prefix="chunk-explorer-load-"))
    data_dir = work / "data"
    data_dir.mkdir()
    app_dir = ROOT if args.in_place else snapshot_app(work / "app")
    port = free_port()
    extra = [] if args.post_script_gc == "config" else ["--runner.postScriptGC", args.post_script_gc]
    if args.file_watcher != "config":
        extra += ["--server.fileWatcherType", args.file_watcher]
    report_busy = psutil.cpu_percent(interval=2.0) * psutil.cpu_count() / 100
    sources = source_snapshot()
    results = Results()
    report: dict = {"args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
                    "questions": questions, "machine_busy_before_cores": report_busy}
    server = start_server(port, data_dir, log_path, extra, cwd=app_dir)
    poller = None
    try:
        wait_healthy(server, port, min(deadline, time.monotonic() + 90))
        poller = MemoryPoller(server.pid)
        poller.phase = "idle"
        poller.start()
        report["server_start_s"] = time.monotonic() - began

        poller.phase = "pre-warm"
        report["prewarm_s"] = asyncio.run(prewarm(port, results, args.op_timeout * 3, deadline))
        poller.sample()
        report["rss_after_prewarm"] = poller.phase_peaks.get("pre-warm", 0)

        poller.phase = "sessions"
        spy = start_py_spy(server.pid, OUT / "load_pyspy.txt") if args.py_spy else None
        poller.sample()
        cpu0 = (poller.cpu_seconds(), poller.client_cpu_seconds(), system_cpu_seconds(), time.monotonic())
        asyncio.run(run_sessions(args, port, questions, results, deadline))
        poller.sample()
        cpu1 = (poller.cpu_seconds(), poller.client_cpu_seconds(), system_cpu_seconds(), time.monotonic())
        wall = cpu1[3] - cpu0[3]
        report["sessions_wall_s"] = wall
        if spy is not None:
            report["py_spy"] = stop_py_spy(spy, OUT / "load_pyspy.txt")
        report["cpu_cores_busy"] = {
            "server": (cpu1[0] - cpu0[0]) / wall,
            "bench_client": (cpu1[1] - cpu0[1]) / wall,
            "whole_machine": (cpu1[2] - cpu0[2]) / wall,
            "cores": psutil.cpu_count(),
        }
    except Exception as exc:  # noqa: BLE001 - report what happened, still print the rest
        results.error("bench", f"{type(exc).__name__}: {exc}")
    finally:
        try:
            if poller is not None:
                poller.stop()
        finally:
            stop_server(server)
            shutil.rmtree(work, ignore_errors=True)

    for line in server_log_errors(log_path)[:50]:
        results.error("server log", line)
    report["sources_changed_during_run"] = changed_sources(sources)
    report["server_cwd"] = "working tree" if args.in_place else "copy of the working tree taken at start"
    report.update(summarise(args, results, poller))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, default=str), "utf-8")
    print_report(args, report, server.command)  # type: ignore[attr-defined]
    print(f"\nJSON: {args.out}   server log: {log_path}   total {time.monotonic() - began:.0f} s")
    return 0 if report["aims"]["all_met"] else 1


def summarise(args, results: Results, poller: MemoryPoller | None) -> dict:  # type: ignore[no-untyped-def]
    def stats(values: list[float]) -> dict:
        return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
                "max": max(values) if values else None}

    expected_reruns = (args.sessions - args.browsers) * args.changes
    expected_queries = (args.sessions - args.browsers) * args.queries
    peak = poller.peak if poller else 0
    rerun, query = stats(results.rerun), stats(results.query)
    aims = {
        "no_errors": not results.errors,
        "rerun_p95_under_1s": rerun["p95"] is not None and rerun["p95"] < AIMS["rerun_p95_s"] and rerun["n"] == expected_reruns,
        "query_p95_under_1_5s": query["p95"] is not None and query["p95"] < AIMS["query_p95_s"] and query["n"] == expected_queries,
        "server_rss_under_3GB": bool(peak) and peak < AIMS["server_rss_bytes"],
    }
    aims["all_met"] = all(aims.values())
    return {
        "sessions_completed": results.sessions_done,
        "errors": {"count": len(results.errors), "first": results.errors[:10]},
        "rerun_s": rerun, "expected_reruns": expected_reruns,
        "query_s": query, "expected_queries": expected_queries,
        "query_first_result_s": stats(results.query_first_result),
        "open_explore_s": stats(results.open_explore),
        "open_retrieve_s": stats(results.open_retrieve),
        "browser_rerun_s": stats(results.browser_rerun),
        "browser_query_s": stats(results.browser_query),
        "server_peak_rss": peak,
        "server_peak_phase": poller.peak_phase if poller else None,
        "server_peak_processes": poller.peak_processes if poller else None,
        "server_rss_by_phase": poller.phase_peaks if poller else {},
        "rss_samples": poller.samples if poller else 0,
        "bytes_received": results.bytes_received,
        "cache_references": results.cache_refs,
        "cacheable_messages": results.cacheable,
        "expected_alerts": dict(results.expected_alerts),
        "aims": aims,
    }


def print_report(args, report: dict, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    def s(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f} s"

    def gb(value: int) -> str:
        return f"{value / 1024**3:.2f} GB"

    def ok(flag: bool) -> str:
        return "MET" if flag else "MISSED"

    gc_note = "app config (runner.postScriptGC = false)" if args.post_script_gc == "config" else f"--runner.postScriptGC {args.post_script_gc}"
    print("Chunk Explorer workshop load test (issue 6)")
    print(f"server : {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(command))}")
    print(f"         (run by the bench from a {report['server_cwd']}); CHUNK_EXPLORER_DATA = fresh temp folder; postScriptGC: {gc_note}")
    print(f"driver : {args.sessions - args.browsers} websocket sessions (Streamlit protocol)"
          + (f" + {args.browsers} Chromium tabs" if args.browsers else "")
          + f"; start spread over {args.ramp:g} s; think {args.think[0]:g}-{args.think[1]:g} s between actions")
    print(f"per session: open Explore, {args.changes} budget changes"
          + (" (the last back to 254)" if args.retrieve_budget == "default" else " (Retrieve then indexes at the last one)")
          + f", open Retrieve, {args.queries} sample questions on {SAMPLE_PROJECT}")
    if "prewarm_s" in report:
        print(f"pre-warm: one session opened /retrieve first (model loaded, {SAMPLE_PROJECT} indexed) "
              f"in {report['prewarm_s']:.1f} s, before timing started; server RSS then {gb(report.get('rss_after_prewarm', 0))}")
    print()
    errors = report["errors"]
    print(f"sessions completed      : {report['sessions_completed']} / {args.sessions}")
    print(f"errors                  : {errors['count']}")
    for who, message in errors["first"][:5]:
        print(f"    {who}: {message}")
    r, q = report["rerun_s"], report["query_s"]
    print(f"rerun latency  (n={r['n']:>3}/{report['expected_reruns']}) : p50 {s(r['p50'])}  p95 {s(r['p95'])}  max {s(r['max'])}"
          "   budget change sent -> script_finished")
    print(f"query latency  (n={q['n']:>3}/{report['expected_queries']}) : p50 {s(q['p50'])}  p95 {s(q['p95'])}  max {s(q['max'])}"
          "   question sent -> script_finished, results checked")
    f = report["query_first_result_s"]
    print(f"  first result row      : p50 {s(f['p50'])}  p95 {s(f['p95'])}")
    for label, key in (("open Explore (connect+run)", "open_explore_s"), ("open Retrieve (nav click)", "open_retrieve_s"),
                       ("browser rerun", "browser_rerun_s"), ("browser query", "browser_query_s")):
        v = report[key]
        if v["n"]:
            print(f"  {label:<26}: n={v['n']:>3} p50 {s(v['p50'])}  p95 {s(v['p95'])}  max {s(v['max'])}")
    print(f"server peak RSS         : {gb(report['server_peak_rss'])} ({report['server_peak_processes']} process(es), "
          f"during {report['server_peak_phase']}; {report['rss_samples']} samples, every 0.1 s)")
    cpu = report.get("cpu_cores_busy")
    if cpu:
        other = max(0.0, cpu["whole_machine"] - cpu["server"] - cpu["bench_client"])
        print(f"CPU while sessions ran  : server {cpu['server']:.2f} cores, bench side {cpu['bench_client']:.2f} (client, py-spy, browsers), "
              f"other processes {other:.2f}, whole machine {cpu['whole_machine']:.2f} of {cpu['cores']} "
              f"over {report['sessions_wall_s']:.0f} s")
    print(f"machine busy before the server started: {report['machine_busy_before_cores']:.2f} cores"
          + ("   WARNING: not idle, latencies include other work's contention" if report["machine_busy_before_cores"] > 0.3 else ""))
    if report["sources_changed_during_run"] and not args.in_place:
        print(f"note: {', '.join(report['sources_changed_during_run'][:6])} changed in the working tree during the run; "
              "the server ran the copy taken at start")
    if report["sources_changed_during_run"] and args.in_place:
        print(f"WARNING: app sources changed during the run ({', '.join(report['sources_changed_during_run'][:6])}): "
              "Streamlit's file watcher unloads edited modules under running sessions; errors such as "
              "KeyError: 'pages' or partially initialized modules come from that edit, not from load")
    print(f"received                : {report['bytes_received'] / 1e6:.1f} MB; {report['cacheable_messages']} cacheable "
          f"elements, {report['cache_references']} sent as references to the client's cache")
    for text, count in report["expected_alerts"].items():
        print(f"st.error shown on purpose (not an error), {count}x: {text}")
    spy = report.get("py_spy")
    if spy:
        print(f"\npy-spy (thread holding the GIL, {spy['samples']} samples): share of samples, inclusive")
        for frame, share in spy["inclusive"][:25]:
            print(f"  {share:6.1%}  {frame}")
    print()
    aims = report["aims"]
    print("aims:")
    print(f"  no errors             : {ok(aims['no_errors'])}")
    print(f"  rerun p95 < 1 s       : {ok(aims['rerun_p95_under_1s'])}")
    print(f"  query p95 < 1.5 s     : {ok(aims['query_p95_under_1_5s'])}")
    print(f"  server memory < 3 GB  : {ok(aims['server_rss_under_3GB'])}")


if __name__ == "__main__":
    sys.exit(main())
