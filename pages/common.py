"""What every page shares: the settings sidebar, source pickers, cached calls into core/.

Caching lives here, at the UI boundary: parse trees, chunk lists and reports are cached by
content and settings with ``st.cache_resource`` (they are immutable: frozen dataclasses in
tuples, so sharing one object between sessions is safe and avoids pickling on every rerun).
Nothing here holds one session's data in a global: uploads live in the session's widgets.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import streamlit as st

from core.builder import Prepared
from core.chunk import Chunk
from core.jsonl import chunks_jsonl
from core.chunking import chunk_document, prepare
from core.errors import ChunkExplorerError, InputError
from core.languages import CODE_LANGUAGES, TABLE_LANGUAGES, TEXT_LANGUAGES, detect_language
from core.metrics import DamageReport, boundary_damage
from core.settings import DEFAULT_BUDGETS, DEFAULT_HEAD_LINES, DEFAULT_HEAD_WEIGHT, DEFAULT_MODEL, UNITS, ChunkSettings
from core.sizing import MODELS_VARIABLE, allowed_models, check_allowed, load_tokenizer, model_token_limit
from core.sources import Corpus, Limits, SourceFile, is_binary, load_bytes, load_folder, load_zip, script_language
from core.syntax import Definition, list_definitions

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_repos"
STRATEGIES = ("fixed", "syntax")
CHART_COLOURS = {"fixed": "#f28e2b", "syntax": "#4e79a7"}  # a strategy's marks in the charts
UNIT_LABELS = {
    "tokens": "model tokens",
    "chars": "characters",
    "nws": "non-whitespace characters",
    "lines": "lines",
}
BUDGET_RANGES = {"tokens": (16, 1024, 2), "chars": (100, 8000, 50), "nws": (80, 6000, 40), "lines": (3, 400, 1)}
CODE_SOURCES = ("Sample", "Upload files", "Upload zip", "Paste code")


# What turns inline text into markup, escaped with a backslash.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>$~|])")
# Where GitHub-flavoured Markdown starts a link of its own: ``http://``, ``www.`` and the ``@`` of
# an e-mail address. Streamlit's frontend finds them in the text after escapes are resolved, so
# a backslash does not stop them; an invisible word joiner (U+2060) inside each one does.
_AUTOLINK_START = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?=@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def md(text: object) -> str:
    """``text`` as literal Markdown: symbols and messages go into ``st.markdown``, captions,
    alerts and labels, which render Markdown, so ``pkg/__init__.py`` would lose its underscores
    to bold, a ``]`` would end a badge early and ``http://x``, ``www.x.org`` or ``a@x.org`` would
    be links. (A name on its own is shown by :func:`name_md`, in code, where no link is made.)"""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
    return _AUTOLINK_START.sub(WORD_JOINER, escaped)


def name_md(text: str) -> str:
    """A file, table or project name in Markdown: in code, shown exactly as it is written (no
    link, no markup and no backslash, whatever characters an uploaded name holds)."""
    return code_span(text)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span, fenced by more backticks than any run of them inside."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{'`' * (longest + 1)}{pad}{text}{pad}{'`' * (longest + 1)}"


# Questions one uploaded query set may ask on a shared server (each costs embeddings and a
# search under every setting of a sweep): 88,000 held a session for 8 minutes. The CLI has no cap.
MAX_QUESTIONS = 1_000


def error(exc: BaseException | str) -> None:
    """An error message from the library, shown as it is written."""
    st.error(md(exc))


def optional_pages() -> list:
    """Pages whose core modules exist (retrieval lands after the chunking pages)."""
    pages = []
    if (ROOT / "pages" / "retrieve.py").exists():
        pages.append(st.Page("pages/retrieve.py", title="Retrieve", icon=":material/search:", url_path="retrieve"))
    if (ROOT / "pages" / "evaluate.py").exists():
        pages.append(st.Page("pages/evaluate.py", title="Evaluate", icon=":material/monitoring:", url_path="evaluate"))
    return pages


# ---- URL state ------------------------------------------------------------------------------
# The whole view state lives in the URL so that a shared link reproduces exactly what was
# shown. Widgets are created without a default value; their state is seeded here, from the
# URL when it holds a valid value, else from the default, and written back after each run.

SETTING_DEFAULTS: dict[str, object] = {
    "unit": "tokens",
    **{f"budget_{unit}": budget for unit, budget in DEFAULT_BUDGETS.items()},
    "overlap_pct": 0,
    "raw": False,
    "merge": False,
    "crumb": True,
    "summary": True,
    "model": DEFAULT_MODEL,
    "head_pct": round(DEFAULT_HEAD_WEIGHT * 100),
    "head_lines": DEFAULT_HEAD_LINES,
}


def _parse(raw: str, default: object) -> object:
    if isinstance(default, bool):
        if raw.lower() in {"1", "true", "yes", "on"}:
            return True
        if raw.lower() in {"0", "false", "no", "off"}:
            return False
        raise ValueError(raw)
    if isinstance(default, int):
        return int(raw)
    return raw


def seed_state(defaults: dict[str, object], choices: dict[str, object] | None = None) -> None:
    """Give each key its URL value (when valid) or its default, unless the session has one.

    ``choices`` maps a key to its allowed values (a sequence) or an (low, high) int range.
    """
    choices = choices or {}
    for key, default in defaults.items():
        allowed = choices.get(key)
        fresh = key not in st.session_state  # (a link's own run; later, a value the page outgrew)
        if not fresh and _allowed(st.session_state[key], allowed):
            # Re-assigning keeps the value when the widget reappears on another page (widget
            # state is otherwise dropped with the page that drew it).
            st.session_state[key] = st.session_state[key]
            continue
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            try:
                parsed = _parse(raw, default)
            except ValueError:
                parsed = None
            if parsed is not None and _allowed(parsed, allowed):
                value = parsed
            elif fresh:
                # A link's value this page cannot take (``budget_tokens=99999``, a file the
                # project does not hold): said once, on the link's own run, with what is shown.
                # (Not when a value of this session no longer fits: another project's file.)
                st.info(f"The link's {key} {code_span(raw)} is not one this page can show here"
                        f"{_choices_hint(allowed)}: {code_span(str(default))} is shown instead.")
        st.session_state[key] = value


def _int_range(allowed: object) -> tuple[int, int] | None:
    """``allowed`` when it is a (low, high) pair of integers, else None."""
    if isinstance(allowed, tuple) and len(allowed) == 2 and all(isinstance(v, int) for v in allowed):
        return allowed
    return None


def _choices_hint(allowed: object) -> str:
    """`` (16 to 1,024)`` for a range of integers, else nothing (a list of files is too long; a
    toggle's True and False are no range)."""
    bounds = _int_range(allowed)
    return f" ({bounds[0]:,} to {bounds[1]:,})" if bounds and not any(isinstance(v, bool) for v in bounds) else ""


def _allowed(value: object, allowed: object) -> bool:
    if allowed is None:
        return True
    bounds = _int_range(allowed)
    if bounds and isinstance(value, int) and not isinstance(value, bool):
        return bounds[0] <= value <= bounds[1]
    return value in allowed  # type: ignore[operator]


def write_url(defaults: dict[str, object]) -> None:
    """Put every non-default value of ``defaults``' keys into the URL (and drop the rest)."""
    wanted = {}
    for key, default in defaults.items():
        value = st.session_state.get(key, default)
        if value != default:
            wanted[key] = str(value).lower() if isinstance(value, bool) else str(value)
    current = {key: st.query_params.get(key) for key in st.query_params}
    if wanted != current:
        st.query_params.from_dict(wanted)


# True while app.py runs a page (it sets it around ``st.navigation``): a page run without it was
# started by Streamlit's legacy page mode (see below).
VIA_APP = "_ce_run_via_app"
_LEGACY_RERUN = "_ce_legacy_rerun"


def leave_legacy_page_mode() -> None:
    """Make Streamlit run app.py's ``st.navigation`` even when a page URL is the first visit.

    Streamlit treats a ``pages/`` folder beside the entry point as its legacy multipage layout
    until some run calls ``st.navigation``; a server whose first visitor opens ``/explore``
    would run the page file alone (no page config, a file-list menu). The design fixes the
    folder's name, so a page run that app.py did not start switches the process to
    ``st.navigation`` and reruns. Every such session reruns, not only the one that switched:
    when a room opens a link at once on a fresh server, the sessions whose first runs began
    before the switch found it made, and kept the file-list menu until their next rerun.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if st.session_state.get(VIA_APP):
        st.session_state.pop(_LEGACY_RERUN, None)
        return
    PagesManager.uses_pages_directory = False
    if not st.session_state.get(_LEGACY_RERUN):  # once: a page run on its own (``streamlit run pages/x.py``) goes on
        st.session_state[_LEGACY_RERUN] = True
        st.rerun()


# What a session picked on each page (the code source and its file, the table, the query set),
# kept across pages: Streamlit drops a widget's value at the end of a page that does not draw
# it, so a visit to Tables or Evaluate sent Explore back to the default sample, and one to
# Retrieve lost the file.
KEPT_CHOICES = ("source", "project", "file", "encoding", "tsource", "table", "rows", "fmt", "has_header", "tencoding", "qsource", "qset",
                "eval_k", "context", "index_on",
                # Retrieve's question and what it shows: a teacher who shows Evaluate and comes
                # back finds the question asked, not an empty box.
                "q", "k", "mode", "whole_defs", "filter_path", "filter_language", "filter_kind", "view_file", "answer",
                "sample_q")


def figures_row(count: int, widths: Sequence[int] | None = None) -> list[Any]:
    """``count`` places for a title and figures side by side, wrapping to a new line on a
    narrow screen: in equal columns an 800-pixel window showed a median size of 244.5 as "2…"
    and its label as "Medi…". Each place is as wide as it needs, or ``widths`` pixels: rows
    given the same widths (one per strategy) keep their figures under each other, and wrap
    at the same places (sized by their content, a wider value or note in one row pushed its
    last figure onto a line of its own)."""
    if widths is None:
        row = st.container(horizontal=True, wrap=True, gap="medium")
        return [row.container(width="content") for _ in range(count)]
    row = st.container(horizontal=True, wrap=True, gap="xsmall")  # (the widths hold room to spare)
    return [row.container(width=width) for width in widths]


def figure_width(label: str, least: int = 105) -> int:
    """Pixels for a figure under ``label`` (no help mark), at least ``least``."""
    return max(least, round(6.2 * len(label)) + 10)


def note_width(note: str) -> int:
    """Pixels for a figure's note (its delta, in a pill)."""
    return round(6.6 * len(note)) + 30


def value_width(value: str) -> int:
    """Pixels for a figure's value (its large digits)."""
    return round(19 * len(value)) + 12


def sidebar_settings() -> None:
    """The chunking settings, shared by every page (same widget keys everywhere)."""
    leave_legacy_page_mode()
    for key in KEPT_CHOICES:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]
    budget_ranges = {f"budget_{u}": (low, high) for u, (low, high, _) in BUDGET_RANGES.items()}
    seed_state(
        SETTING_DEFAULTS,
        {"unit": UNITS, "overlap_pct": (0, 50), "head_pct": (0, 90), "head_lines": (1, 20), **budget_ranges},
    )
    with st.sidebar:
        st.subheader("Chunking settings")
        unit = st.selectbox(
            "Size unit",
            UNITS,
            format_func=lambda u: UNIT_LABELS[u],
            key="unit",
            help="What the budget counts. Model tokens are what the embedder actually sees.",
        )
        low, high, step = BUDGET_RANGES[unit]
        st.slider(
            f"Budget ({UNIT_LABELS[unit]})",
            low,
            high,
            step=step,
            key=f"budget_{unit}",
            help="Largest chunk, breadcrumb and header included. In model tokens the default fits the model's "
                 "input; in the other units it is a rough equivalent, so watch 'Over model limit'.",
        )
        st.slider(
            "Overlap (% of budget, fixed windows)",
            0,
            50,
            step=5,
            key="overlap_pct",
            help="Fixed windows repeat this much of the previous window. Syntax chunks never overlap.",
        )
        st.toggle("Raw cuts (fixed windows cut anywhere)", key="raw")
        st.toggle("Merge small siblings", key="merge")
        st.toggle("Breadcrumb (path :: symbol) in embedded text", key="crumb")
        st.toggle("Member summary in class headers", key="summary")
        offered = allowed_models(os.environ.get(MODELS_VARIABLE))
        if offered is None:
            help_text = "The bundled all-MiniLM-L6-v2, a local folder, or a model in the Hugging Face cache."
        elif offered:
            help_text = f"This server offers {DEFAULT_MODEL} (bundled) and: {', '.join(offered)}."
        else:
            help_text = f"This server offers the bundled {DEFAULT_MODEL} only."
        st.text_input("Embedding model", key="model", help=help_text, disabled=offered == ())
        st.slider(
            "Head weight in chunk vectors (%)",
            0,
            90,
            step=5,
            key="head_pct",
            help="A syntax chunk's vector mixes the embedding of its whole text with that of its head (first "
            "non-blank lines: breadcrumb, signature, first statements). 0 embeds the whole text only. Fixed "
            "windows are always embedded whole. Search and evaluation only; chunks do not change.",
        )
        st.slider(
            "Head lines",
            1,
            20,
            key="head_lines",
            help="Non-blank lines that make a chunk's head.",
        )


def current_settings() -> ChunkSettings:
    """ChunkSettings from the sidebar; an unusable model falls back to the default, with a note."""
    state = st.session_state
    unit = state.get("unit", "tokens")
    budget = int(state.get(f"budget_{unit}", DEFAULT_BUDGETS[unit]))
    model = (state.get("model") or DEFAULT_MODEL).strip() or DEFAULT_MODEL
    if model != DEFAULT_MODEL:
        try:
            # (On a shared server, nothing is looked for that the server does not offer.)
            check_allowed(model, allowed_models(os.environ.get(MODELS_VARIABLE)))
            load_tokenizer(model)
        except ChunkExplorerError as exc:
            st.sidebar.error(f"{md(exc)}\n\nUsing the bundled {DEFAULT_MODEL} instead.")
            # (Said on the page too: the sidebar's foot is below the fold on a projector.)
            st.warning(f"The embedding model {md(model)!r} cannot be used here (see the sidebar): the bundled "
                       f"{DEFAULT_MODEL} is used instead.")
            model = DEFAULT_MODEL
    overlap = budget * int(state.get("overlap_pct", 0)) // 100
    return ChunkSettings(
        budget=budget,
        unit=unit,
        overlap=min(overlap, budget - 1),
        raw_cuts=bool(state.get("raw", False)),
        merge_siblings=bool(state.get("merge", False)),
        breadcrumb=bool(state.get("crumb", True)),
        class_summary=bool(state.get("summary", True)),
        model=model,
        head_weight=int(state.get("head_pct", round(DEFAULT_HEAD_WEIGHT * 100))) / 100,
        head_lines=int(state.get("head_lines", DEFAULT_HEAD_LINES)),
    )


def intro(text: str) -> None:
    """The guided path: one or two sentences of explanation, open on first visit, collapsible."""
    with st.expander("What am I looking at?", expanded=True):
        st.markdown(text)


# ---- cached calls into core -----------------------------------------------------------------


def digest(text: str | bytes) -> str:
    """Content hash used in cache keys and labels."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def _by_name(cached: Callable[..., T]) -> Callable[..., T]:
    """``cached`` (a function under ``st.cache_*``) called with every argument by name: for each
    positional argument Streamlit's cache looks its name up with ``inspect.signature``, on every
    call, and these are called a few times per file (six for each of a repository's files when
    its list opens: 0.2 s of 1.4 s for 300 files). The same cache keys either way."""
    names = tuple(inspect.signature(cached).parameters)

    @functools.wraps(cached)
    def call(*args: Any, **kwargs: Any) -> T:
        return cached(**dict(zip(names, args)), **kwargs)

    call.clear = cached.clear  # type: ignore[attr-defined]
    return call


@_by_name
@st.cache_resource(max_entries=512, show_spinner=False)
def prepared(path: str, language: str, text: str) -> Prepared:
    """Parse tree and span sizers of one file, shared by every rerun and settings change."""
    return prepare(path, language, text)


@_by_name
@st.cache_resource(max_entries=2048, show_spinner=False)
def chunks_for(path: str, language: str, text: str, settings_key: str, strategy: str) -> tuple[Chunk, ...]:
    """The chunks of one text file for one strategy (cached by content and settings)."""
    settings = ChunkSettings.from_dict(_settings_dict(settings_key))
    return tuple(chunk_document(prepared(path, language, text), settings, strategy))


@_by_name
@st.cache_resource(max_entries=512, show_spinner=False)
def definitions_for(path: str, language: str, text: str) -> tuple[Definition, ...]:
    """Every definition of one file (for cut markers and the damage figures)."""
    return tuple(list_definitions(prepared(path, language, text)))


@_by_name
@st.cache_resource(max_entries=2048, show_spinner=False)
def damage_for(path: str, language: str, text: str, settings_key: str, strategy: str) -> DamageReport:
    """Boundary damage of one strategy's chunks over one file."""
    settings = ChunkSettings.from_dict(_settings_dict(settings_key))
    return boundary_damage(
        prepared(path, language, text),
        list(chunks_for(path, language, text, settings_key, strategy)),
        budget=settings.budget,
        model=settings.model,
        definitions=list(definitions_for(path, language, text)),
    )


@st.cache_resource(max_entries=64, show_spinner="Chunking the table…")
def table_chunks_for(
    path: str, language: str, data: bytes, settings_key: str, strategy: str, has_header: bool | None,
    encoding: str | None = None,
) -> tuple[Chunk, ...]:
    """Chunks of one table file (the table chunker or the naive windows); ``encoding`` as the
    user gave it (None: detected)."""
    from core.tables import chunk_table_source

    settings = ChunkSettings.from_dict(_settings_dict(settings_key))
    source = SourceFile(path, language, data=data, declared_encoding=encoding)
    return tuple(chunk_table_source(source, settings, strategy, has_header=has_header))


PREVIEW_ROWS = 200  # rows of each table previewed


@st.cache_resource(max_entries=64, show_spinner=False)
def table_preview(path: str, language: str, data: bytes, has_header: bool | None, encoding: str | None = None) -> dict:
    """The first rows of every table in a file, as DataFrames by table name."""
    from core.tables import read_table_preview

    source = SourceFile(path, language, data=data, declared_encoding=encoding)
    return read_table_preview(source, max_rows=PREVIEW_ROWS, has_header=has_header)


# Encodings offered for an upload whose detected one reads wrong (Python's codec names).
ENCODINGS = ("detect", "utf-8", "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257", "iso-8859-1",
             "iso-8859-2", "koi8_r", "mac_roman", "shift_jis", "euc_jp", "gb18030", "big5", "euc_kr", "utf-16")


def table_figures(chunks: tuple[Chunk, ...], model: str):  # type: ignore[no-untyped-def]
    """Rows split, chunks without the header, chunks over the model's limit."""
    from core.tables import table_metrics

    return table_metrics(list(chunks), model)


def sample_tables() -> list[str]:
    """Bundled tables (CSV, TSV, XLSX) under sample_repos/tables/."""
    folder = SAMPLES / "tables"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_file() and detect_language(p.name) in TABLE_LANGUAGES)


def sample_table(name: str) -> SourceFile:
    """One bundled table, read into memory (the samples are small)."""
    path = SAMPLES / "tables" / name
    return SourceFile(name, detect_language(name) or "csv", data=path.read_bytes())


def table_bytes(source: SourceFile) -> bytes:
    """The raw bytes of a table source (uploads carry them; files on disk are read)."""
    if source.data is not None:
        return source.data
    if source.origin is not None:
        return source.origin.read_bytes()
    raise InputError(f"{source.path}: no table data")


@st.cache_resource(max_entries=32, show_spinner="Reading the repository…")
def sample_corpus(name: str) -> Corpus:
    """A bundled sample project."""
    return load_folder(SAMPLES / name)


@st.cache_resource(max_entries=32, show_spinner="Reading the archive…")
def zip_corpus(content_hash: str, data: bytes, name: str, encoding: str | None = None) -> Corpus:
    """A zipped repository upload (keyed by its hash; the bytes are only read on a miss), its
    files that are not UTF-8 read in ``encoding`` when given."""
    del content_hash
    return load_zip(data, name=name, legacy_encoding=encoding)


@st.cache_resource(max_entries=8, show_spinner=False)
def token_limit(model: str) -> int:
    """Content tokens the model reads before it truncates."""
    return model_token_limit(model)


def _settings_dict(key: str) -> dict:
    import json

    return json.loads(key)


# ---- sources --------------------------------------------------------------------------------


@dataclass
class Picked:
    """What the source picker yielded: usable text files, problems to show, and a link note."""

    files: list[SourceFile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # on files read all the same (a name stored twice in a zip)
    shareable: bool = True
    label: str = ""
    archive: str = ""  # the uploaded zip's name: the CLI reads the archive itself
    encoding: str | None = None  # the uploads' text encoding as the user gave it (None: detected)
    language: str | None = None  # the language picked for uploads of unknown type

    def cli_target(self, path: str) -> tuple[str, list[str]]:
        """What the exported command chunks so that its ids match the app's: a sample file
        named below its project (``--root``), an uploaded archive whole, else the file (in the
        encoding given for them, and the language picked when its name says none)."""
        if self.shareable:
            project = f"sample_repos/{self.label}"
            return f"{project}/{path}", ["--root", project]
        extra = ["--encoding", self.encoding] if self.encoding else []
        if not self.archive and self.language and detect_language(path) is None:
            # (A script read by its ``#!`` line is in its own language, not the one picked.)
            if next((f.language for f in self.files if f.path == path), self.language) == self.language:
                extra += ["--language", self.language]
        return self.archive or path, extra


def encoding_choice(key: str, what_reads: str) -> str | None:
    """An upload's text encoding as the user picks it under ``key`` (None: detected)."""
    seed_state({key: "detect"}, {key: ENCODINGS})
    chosen = st.selectbox("Text encoding", ENCODINGS, key=key,
                          help="'detect' reads UTF-8, UTF-16 and the Windows code pages by themselves; "
                               f"pick one when {what_reads} wrong.")
    return None if chosen == "detect" else chosen


def kept_uploads(key: str, uploaded: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """What an uploader holds, kept in the session for the other pages: an uploader's files are
    gone once a page without it has run, and Streamlit cannot put them back. When it is empty,
    the files uploaded earlier in this session, with a way to forget them."""
    if uploaded:
        st.session_state[key] = uploaded
        return uploaded
    kept = st.session_state.get(key) or []
    if kept:
        names = ", ".join(name_md(upload) for upload, _ in kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
        left, right = st.columns([4, 1])
        left.caption(f"Using what you uploaded earlier in this session: {names}. Upload again to replace it.")
        right.button("Forget it", key=f"forget_{key}", on_click=st.session_state.pop, args=(key, None))
    return kept


def forget_when_emptied(widget: str, kept: str) -> Callable[[], None]:
    """An uploader's ``on_change``: when the user empties it (its files removed with ✕), the
    copy :func:`kept_uploads` keeps under ``kept`` goes too. (An uploader emptied by a visit to
    another page calls no ``on_change``: that copy is what brings its files back.)"""

    def dropped() -> None:
        if not st.session_state.get(widget):
            st.session_state.pop(kept, None)

    return dropped


def sample_projects() -> list[str]:
    """Bundled sample projects with code (tables and query sets have their own pages)."""
    return sorted(p.name for p in SAMPLES.iterdir() if p.is_dir() and p.name not in {"tables", "queries"})


NO_LANGUAGE = "(none: rename the file)"


def pick_code_source(default_project: str) -> Picked:
    """Sample project, uploaded files, a zipped repository or pasted code."""
    projects = sample_projects()
    seed_state({"source": CODE_SOURCES[0], "project": default_project}, {"source": CODE_SOURCES, "project": projects})
    kind = st.radio("Source", CODE_SOURCES, key="source", horizontal=True)
    picked = Picked()
    if kind == "Sample":
        project = st.selectbox("Sample project", projects, key="project")
        corpus = sample_corpus(project)
        picked.files = [f for f in corpus.files if f.text is not None]
        picked.label = project
    elif kind == "Upload files":
        limits = Limits()
        uploads = st.file_uploader(
            f"Upload one or more code or text files (up to {limits.max_file_bytes / 1e6:g} MB each; "
            f"a notebook up to {limits.max_notebook_bytes / 1e6:g} MB)",
            accept_multiple_files=True, key="upload_files",
            on_change=forget_when_emptied("upload_files", "kept_uploads"),
            help=f"Each file up to {limits.max_file_bytes:,} bytes (the box's own limit is for zips and tables); "
                 "a Jupyter notebook is read as the script of its cells, outputs left out.",
        )
        kept = kept_uploads("kept_uploads", [(u.name, u.getvalue()) for u in uploads or []])
        if kept:
            picked.encoding = encoding_choice("encoding", "the text reads")
        # Files of no known type (``notes.xyz``): the language they are read in, picked here
        # (the CLI's --language); none picked, each is a problem that says how to pick one.
        unknown = [name for name, data in kept if detect_language(name) is None and data and not is_binary(data)
                   and script_language(name, data) is None]
        chosen = None
        if unknown:
            choices = [NO_LANGUAGE, *sorted(CODE_LANGUAGES + TEXT_LANGUAGES)]
            if st.session_state.get("upload_lang") not in choices:
                st.session_state["upload_lang"] = NO_LANGUAGE
            chosen = st.selectbox(f"Language of {plural(len(unknown), 'the file', 'the {n} files')} of unknown type",
                                  choices, key="upload_lang", help=", ".join(unknown[:10]))  # fmt: skip
        if chosen is not None and chosen != NO_LANGUAGE:
            picked.language = chosen
        for name, data in kept:
            if data.startswith(b"PK\x03\x04") and name.lower().endswith(".zip"):
                picked.problems.append(f"{name}: a zipped repository; pick Upload zip above to open it")
                continue
            given = picked.language if name in unknown else None
            try:
                source = load_bytes(name, data, encoding=picked.encoding, language=given)
            except InputError as exc:
                problem = str(exc)
                if name in unknown:
                    problem = f"{name}: unknown file type; pick its language above, or rename the file"
                picked.problems.append(problem)
                continue
            if source.language in TABLE_LANGUAGES:
                picked.problems.append(f"{source.path}: a table; open it on the Tables page")
                continue
            picked.files.append(source)
        picked.shareable = False
        picked.label = "upload"
    elif kind == "Upload zip":
        limits = Limits()
        upload = st.file_uploader(
            "Upload a zipped repository", type=["zip"], key="upload_zip", on_change=forget_when_emptied("upload_zip", "kept_zip"),
            help=f"Up to {limits.max_files:,} files of {limits.max_file_bytes:,} bytes each, "
                 f"{limits.max_total_bytes // 1_000_000:,} MB unpacked; larger files are listed as skipped.",
        )
        for name, data in kept_uploads("kept_zip", [(upload.name, upload.getvalue())] if upload is not None else []):
            picked.encoding = encoding_choice("zip_encoding", "its files that are not UTF-8 read")
            try:
                corpus = zip_corpus(digest(data), data, name, picked.encoding)
            except InputError as exc:
                picked.problems.append(str(exc))
            else:
                picked.files = [f for f in corpus.files if f.text is not None]
                picked.problems += [f"skipped {s.path}: {s.reason}" for s in corpus.skipped]
                picked.problems += [f"skipped {f.path}: a table (open it on the Tables page)"
                                    for f in corpus.files if f.text is None]
                # (A file's own note, a notebook's, is said beside the file when it is shown.)
                own = {(f.path, f.note) for f in corpus.files if f.note}
                picked.notes += [f"{n.path}: {n.text}" for n in corpus.notes if (n.path, n.text) not in own]
                picked.label = picked.archive = name
        picked.shareable = False
    else:
        languages = sorted(CODE_LANGUAGES + TEXT_LANGUAGES)
        # Streamlit forgets a widget's value while it is not drawn: keep the paste across a
        # look at another source. The state is the widgets' only default (a default given to
        # the widget as well made Streamlit log a warning with a stack trace on the way back).
        for key, default in (("paste_lang", "python"), ("paste_text", "")):
            if key not in st.session_state:
                st.session_state[key] = st.session_state.get(f"kept_{key}", default)
        language = st.selectbox("Language", languages, key="paste_lang")
        text = st.text_area("Paste code", height=220, key="paste_text", placeholder="def hello():\n    ...")
        st.session_state["kept_paste_lang"], st.session_state["kept_paste_text"] = language, text
        size, limit = len(text.encode("utf-8", "surrogatepass")), Limits().max_file_bytes  # an upload's limit
        if size > limit:
            picked.problems.append(f"pasted code: {size:,} bytes, over the {limit:,}-byte limit "
                                   "for one file; paste less, or zip the project and upload it")
        elif text.strip():
            picked.files = [SourceFile(f"pasted.{_extension(language)}", language, text=text)]
        picked.shareable = False
        picked.label = "pasted"
    return picked


def code_page_start(explanation: str, default_project: str, empty_hint: str) -> tuple[ChunkSettings, Picked]:
    """What the code pages open with: the sidebar, the explanation, the settings and a source.

    Stops the page with ``empty_hint`` while no usable source is chosen.
    """
    sidebar_settings()
    intro(explanation)
    settings = current_settings()
    picked = pick_code_source(default_project)
    show_problems(picked.problems, open_=not picked.files)
    for note in picked.notes[:20]:
        st.caption(f"ℹ️ {md(note)}")
    if not picked.files:
        if picked.problems:  # (the hint alone read as if the upload had been ignored)
            st.error("Nothing here could be used: the list above says why, file by file.")
        else:
            st.info(empty_hint)
        st.stop()
    return settings, picked


VIEW_MAX_LINES = 2_000  # lines drawn at once: the view of a 240,000-line file was 82 MB of HTML
VIEW_MAX_CHARS = 300_000  # characters drawn at once (a minified file packs megabytes into a line)


def view_window(text: str, key: str) -> tuple[int, int] | None:
    """The lines of ``text`` to draw: all of an ordinary file, a window of a long one (picked
    with a selectbox under ``key``), or None when even that is too big to draw."""
    lines = text.splitlines()
    count = max(1, len(lines))
    first, last = 1, count
    if count > VIEW_MAX_LINES:
        starts = list(range(1, count + 1, VIEW_MAX_LINES))
        first = st.selectbox("Lines shown", starts, key=key,
                             format_func=lambda a: f"{a:,}-{min(a + VIEW_MAX_LINES - 1, count):,}")
        last = min(first + VIEW_MAX_LINES - 1, count)
        st.caption(f"This file has {count:,} lines; the view draws {VIEW_MAX_LINES:,} at a time. "
                   "The figures cover the whole file.")
    size = sum(len(line) for line in lines[first - 1 : last])
    if size > VIEW_MAX_CHARS:
        st.info(f"Lines {first:,}-{last:,} hold {size:,} characters, too many to draw here (a minified or "
                "generated file?). The figures and the chunk inspector still cover them.")
        return None
    return first, last


SHOWN_LINE_CHARS = 2_000  # characters of one line drawn in a chunk's box (a 1 MB cell made it 22,000 lines tall)


def clip_lines(text: str, limit: int = SHOWN_LINE_CHARS) -> tuple[str, int]:
    """``text`` to draw, each line past ``limit`` characters cut short with a note of how much
    was left out; and how many lines were cut. (What is embedded is the whole text.)"""
    if len(text) <= limit:
        return text, 0
    lines, cut = text.split("\n"), 0
    for index, line in enumerate(lines):
        if len(line) > limit:
            lines[index] = f"{line[:limit]} … [{len(line) - limit:,} more characters]"
            cut += 1
    return "\n".join(lines), cut


def show_text(text: str, *, wrap: bool = True) -> None:
    """A chunk's or a result's text in a code box, its very long lines (a cell of a megabyte, a
    minified bundle) cut short for the page, with a note saying so."""
    shown, cut = clip_lines(text)
    st.code(shown, language=None, wrap_lines=wrap)
    if cut:
        st.caption(f"{plural(cut, 'A line', '{n} lines')} over {SHOWN_LINE_CHARS:,} characters "
                   "cut short here; the chunk and the exports hold all of it.")


def plural(n: int, one: str, many: str) -> str:
    """``one`` for a single thing, else ``many`` with ``{n}`` filled in: "this file", "these 3 files"."""
    return one if n == 1 else many.format(n=f"{n:,}")


def show_problems(problems: list[str], *, open_: bool = False) -> None:
    """Bad uploads and skipped files, named, without stopping the page (the list open when it
    is short, or when ``open_``: nothing else is on the page)."""
    if not problems:
        return
    title = plural(len(problems), "A file could not be used", "{n} files could not be used")
    with st.expander(f"⚠️ {title}", expanded=open_ or len(problems) <= 3):
        for problem in problems[:200]:
            st.markdown(f"- {md(problem)}")
        if len(problems) > 200:
            st.markdown(f"- … and {len(problems) - 200} more")


def _extension(language: str) -> str:
    from core.languages import LANGUAGES

    spec = LANGUAGES.get(language)
    return spec.extensions[0].lstrip(".") if spec is not None and spec.extensions and spec.extensions[0] else "txt"


# ---- exports --------------------------------------------------------------------------------


def export_panel(
    chunks: dict[str, tuple[Chunk, ...]], settings: ChunkSettings, path: str, stem: str, extra: list[str] | None = None
) -> None:
    """Download the chunks and the settings; show the equivalent CLI command (``extra``: its
    options that are not settings)."""
    # The page counts the chunks over the model's limit in every unit: the downloads and the
    # commands flag them too (``--model-check``; in tokens the command always does). Made when
    # clicked: checking costs a tokenization of every chunk.
    extra = [*(extra or ()), *(["--model-check"] if settings.unit != "tokens" else [])]
    with st.expander("Export: chunks, settings and the CLI command for a pipeline"):
        columns = st.columns(len(chunks) + 1)
        for column, (strategy, items) in zip(columns, chunks.items()):
            column.download_button(
                f"{strategy} chunks (JSONL)",
                functools.partial(chunks_jsonl, items, settings, model_check=True),  # (as the command writes them)
                file_name=f"{stem}.{strategy}.jsonl",
                mime="application/jsonl",
                key=f"dl_{strategy}",
            )
        columns[-1].download_button(
            "Settings (JSON)", settings.to_json(), file_name="chunk-settings.json", mime="application/json", key="dl_settings"
        )
        st.code(settings.cli_command(path, extra=extra), language="bash", wrap_lines=True)  # (no scrolling sideways)
        if path.endswith(".zip"):
            st.caption("The command chunks the whole archive; this file's chunks are those with its path.")
        st.caption(f"Or, with the settings file: `{settings.file_command(path, 'chunk-settings.json', extra=extra)}`.")
        st.caption(
            "The same options, or `--settings chunk-settings.json`, index and evaluate with these settings "
            "(the head weight and lines shape the vectors there): `python -m core index PATH --db DIR "
            "--settings chunk-settings.json`, `python -m core eval PATH --queries SET.jsonl --settings chunk-settings.json`."
        )


# ---- retrieval --------------------------------------------------------------------------------


def data_dir() -> Path:
    """Where the app keeps its Chroma store and embedding cache (``CHUNK_EXPLORER_DATA``)."""
    return Path(os.environ.get("CHUNK_EXPLORER_DATA", ROOT / "data")).expanduser()


@st.cache_resource(show_spinner="Opening the index…")
def store():  # type: ignore[no-untyped-def]
    """One Chroma store per server (embedded on disk, or the server named by CHROMA_HOST/PORT)."""
    from core.index import Store

    return Store(data_dir() / "chroma")


@st.cache_resource(show_spinner="Loading the embedding model (once per server)…")
def embedder(model: str):  # type: ignore[no-untyped-def]
    """One loaded model per server, shared by every session (never mutated here)."""
    from core.embed import Embedder

    loaded = Embedder(model, cache=store().cache_path)
    loaded.model  # load now, under this spinner, not in the middle of a search  # noqa: B018
    return loaded


class TurnSlot:
    """One holder at a time, and which session that is (so that a session waiting for its own
    earlier run, still stopping after a change of settings, is not told another user holds it)."""

    def __init__(self) -> None:
        self.lock = threading.Semaphore(1)
        self.holder: str | None = None


@st.cache_resource
def _indexing_slot() -> TurnSlot:
    return TurnSlot()


def this_session() -> str | None:
    """The id of the session whose script runs now (None outside a session)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def corpus_fingerprint(files: list[SourceFile]) -> str:
    """Identity of a corpus by content: identical corpora share collections and embeddings."""
    digest_ = hashlib.blake2b(digest_size=10)
    for source in sorted(files, key=lambda f: f.path):
        digest_.update(source.path.encode())
        digest_.update(b"\0")
        digest_.update(digest(source.text or "").encode())
    return digest_.hexdigest()


@contextlib.contextmanager
def in_turn(slot: TurnSlot, waiting: Callable[[bool], None] | None = None, who: str | None = None) -> Iterator[None]:
    """Hold ``slot`` for the block as ``who``; when it is held, call ``waiting`` first (the page
    says why nothing moves), with whether ``who`` holds it (its own earlier run, stopping after
    a change: Streamlit stops it at its next step), then wait for it."""
    if not slot.lock.acquire(blocking=False):
        if waiting is not None:
            waiting(who is not None and slot.holder == who)
        slot.lock.acquire()
    slot.holder = who
    try:
        yield
    finally:
        slot.holder = None
        slot.lock.release()


def waiting_words(mine: bool, what: str = "index") -> str:
    """A progress bar's words while a page waits for the embedding turn: for its own earlier run,
    stopping after a change of settings, or for another run (another user's, or this browser's
    from before a reload: a reload is a new session, and it cannot be told from another user)."""
    if mine:
        return f"Waiting: this page's {what} for the settings before your change is stopping…"
    return (f"Waiting: another index or evaluation is running on this server (another user's, or yours from before "
            f"a reload). This {what} starts when it is done…")


@contextlib.contextmanager
def embedding_turn(waiting: Callable[[bool], None] | None = None) -> Iterator[None]:
    """This session's turn to embed (index or evaluate), one at a time per server: thirty
    sessions embedding at once exhausted memory under the load test. ``waiting`` is called
    first when another run holds the turn (see :func:`in_turn`)."""
    with in_turn(_indexing_slot(), waiting, this_session()):
        yield


def index_corpus(  # type: ignore[no-untyped-def]
    files: list[SourceFile], settings: ChunkSettings, label: str, progress, waiting: Callable[[bool], None] | None = None
) -> dict:
    """Index ``files`` with both strategies; returns collection names and what was re-used.
    ``waiting`` is called when this one has to wait its turn, with whether the index running
    is this session's own (an earlier run, stopping) rather than another session's."""
    key = corpus_fingerprint(files)
    chunks = {
        strategy: [c for f in files for c in chunks_for(f.path, f.language, f.text or "", settings.chunk_key(), strategy)]
        for strategy in STRATEGIES
    }
    from core.index import collection_name

    names = {s: collection_name(label, key, s, settings) for s in STRATEGIES}
    # The others wait, and then find the embeddings cached.
    with embedding_turn(waiting):
        reports = store().index(chunks, embedder(settings.model), label=label, key=key, settings=settings,
                                progress=progress)
    return {"names": names, "reports": [r.to_dict() for r in reports], "key": key, "settings": settings.key()}


@st.cache_resource
def _query_sets() -> dict[str, list[dict]]:
    import json

    found = {}
    for path in sorted((SAMPLES / "queries").glob("*.jsonl")):
        found[path.name] = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return found


def sample_queries(project: str) -> list[dict]:
    """The bundled annotated questions about one sample project (paths relative to it)."""
    prefix = f"{project}/"
    return [
        {**q, "path": q["path"][len(prefix):]}
        for queries in _query_sets().values()
        for q in queries
        if str(q.get("path", "")).startswith(prefix)
    ]


# ---- evaluation -----------------------------------------------------------------------------


def query_set_names() -> list[str]:
    """Bundled query sets (sample_repos/queries/*.jsonl)."""
    return sorted(_query_sets())


def query_set_text(name: str) -> str:
    """The JSONL text of a bundled query set."""
    return (SAMPLES / "queries" / name).read_text("utf-8")


@st.cache_resource(max_entries=8, show_spinner="Preparing the corpus and the questions…")
def evaluation(query_hash: str, text: str, model: str):  # type: ignore[no-untyped-def]
    """The bundled corpus and one query set, parsed and embedded once (shared, read-only)."""
    del query_hash  # the cache key; ``text`` is only read on a miss
    from core.evaluate import Evaluation, parse_queries

    corpus = load_folder(SAMPLES)
    corpus.files = [f for f in corpus.files if not f.path.startswith("queries/")]
    return Evaluation(corpus, parse_queries(text), embedder(model))


@st.cache_resource(show_spinner=False)
def evaluation_files() -> tuple[SourceFile, ...]:
    """The code and text files of the corpus Evaluate searches (every sample project)."""
    corpus = load_folder(SAMPLES)
    return tuple(f for f in corpus.files if not f.path.startswith("queries/") and f.text is not None)


# Chunks (of both strategies) past which a page asks before embedding them: a sample project at
# the default settings makes 100-210, the whole sample corpus about 1,000.
CONFIRM_CHUNKS = 3_000


def sample_file(path: str) -> SourceFile | None:
    """A bundled file by its path under sample_repos/ (None for tables and unknown paths)."""
    full = (SAMPLES / path).resolve()
    if SAMPLES.resolve() not in full.parents or not full.is_file():
        return None
    language = detect_language(path)
    if language is None or language in TABLE_LANGUAGES:
        return None
    try:
        return load_bytes(path, full.read_bytes())  # as the corpus reads it (a C++ header named .h)
    except InputError:
        return None


def target_lines(spec, source: SourceFile) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The (first, last) lines of a query's answer in ``source``."""
    from core.evaluate import resolve_target

    target = resolve_target(spec, prepared(source.path, source.language, source.text or ""),
                            list(definitions_for(source.path, source.language, source.text or "")))
    return target.first, target.last
