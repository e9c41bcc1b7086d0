"""What every page shares: the settings sidebar, source pickers, cached calls into core/.

Caching lives here, at the UI boundary: parse trees, chunk lists and reports are cached by
content and settings with ``st.cache_resource`` (they are immutable: frozen dataclasses in
tuples, so sharing one object between sessions is safe and avoids pickling on every rerun).
Nothing here holds one session's data in a global: uploads live in the session's widgets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from core.builder import Prepared
from core.chunk import Chunk, dumps_jsonl
from core.chunking import chunk_document, chunk_source, prepare
from core.errors import ChunkExplorerError, InputError
from core.languages import CODE_LANGUAGES, TABLE_LANGUAGES, TEXT_LANGUAGES, detect_language
from core.metrics import DamageReport, boundary_damage
from core.settings import DEFAULT_BUDGETS, DEFAULT_MODEL, UNITS, ChunkSettings
from core.sizing import load_tokenizer, model_token_limit
from core.sources import Corpus, SourceFile, load_bytes, load_folder, load_zip
from core.syntax import Definition, list_definitions

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_repos"
STRATEGIES = ("fixed", "syntax")
UNIT_LABELS = {
    "tokens": "model tokens",
    "chars": "characters",
    "nws": "non-whitespace characters",
    "lines": "lines",
}
BUDGET_RANGES = {"tokens": (16, 1024, 2), "chars": (100, 8000, 50), "nws": (80, 6000, 40), "lines": (3, 400, 1)}
CODE_SOURCES = ("Sample", "Upload files", "Upload zip", "Paste code")


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
    "merge": True,
    "crumb": True,
    "summary": True,
    "model": DEFAULT_MODEL,
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
        if key in st.session_state and _allowed(st.session_state[key], allowed):
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
        st.session_state[key] = value


def _allowed(value: object, allowed: object) -> bool:
    if allowed is None:
        return True
    if isinstance(allowed, tuple) and len(allowed) == 2 and all(isinstance(v, int) for v in allowed) and isinstance(value, int) and not isinstance(value, bool):
        return allowed[0] <= value <= allowed[1]
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


def leave_legacy_page_mode() -> None:
    """Make Streamlit run app.py's ``st.navigation`` even when a page URL is the first visit.

    Streamlit treats a ``pages/`` folder beside the entry point as its legacy multipage layout
    until some run calls ``st.navigation``; a server whose first visitor opens ``/explore``
    would run the page file alone (no page config, a file-list menu). The design fixes the
    folder's name, so each page switches the process to ``st.navigation`` and reruns.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def sidebar_settings() -> None:
    """The chunking settings, shared by every page (same widget keys everywhere)."""
    leave_legacy_page_mode()
    budget_ranges = {f"budget_{u}": (low, high) for u, (low, high, _) in BUDGET_RANGES.items()}
    seed_state(SETTING_DEFAULTS, {"unit": UNITS, "overlap_pct": (0, 50), **budget_ranges})
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
            help="Largest chunk, breadcrumb and header included. The default fits the model's input.",
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
        st.text_input(
            "Embedding model",
            key="model",
            help="The bundled all-MiniLM-L6-v2, a local folder, or a model in the Hugging Face cache.",
        )


def current_settings() -> ChunkSettings:
    """ChunkSettings from the sidebar; an unusable model falls back to the default, with a note."""
    state = st.session_state
    unit = state.get("unit", "tokens")
    budget = int(state.get(f"budget_{unit}", DEFAULT_BUDGETS[unit]))
    model = (state.get("model") or DEFAULT_MODEL).strip() or DEFAULT_MODEL
    if model != DEFAULT_MODEL:
        try:
            load_tokenizer(model)
        except ChunkExplorerError as exc:
            st.sidebar.error(f"{exc}\n\nUsing the bundled {DEFAULT_MODEL} instead.")
            model = DEFAULT_MODEL
    overlap = budget * int(state.get("overlap_pct", 0)) // 100
    return ChunkSettings(
        budget=budget,
        unit=unit,
        overlap=min(overlap, budget - 1),
        raw_cuts=bool(state.get("raw", False)),
        merge_siblings=bool(state.get("merge", True)),
        breadcrumb=bool(state.get("crumb", True)),
        class_summary=bool(state.get("summary", True)),
        model=model,
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


@st.cache_resource(max_entries=512, show_spinner=False)
def prepared(path: str, language: str, text: str) -> Prepared:
    """Parse tree and span sizers of one file, shared by every rerun and settings change."""
    return prepare(path, language, text)


@st.cache_resource(max_entries=2048, show_spinner=False)
def chunks_for(path: str, language: str, text: str, settings_key: str, strategy: str) -> tuple[Chunk, ...]:
    """The chunks of one text file for one strategy (cached by content and settings)."""
    settings = ChunkSettings.from_dict(_settings_dict(settings_key))
    return tuple(chunk_document(prepared(path, language, text), settings, strategy))


@st.cache_resource(max_entries=512, show_spinner=False)
def definitions_for(path: str, language: str, text: str) -> tuple[Definition, ...]:
    """Every definition of one file (for cut markers and the damage figures)."""
    return tuple(list_definitions(prepared(path, language, text)))


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


@st.cache_resource(max_entries=64, show_spinner=False)
def table_chunks_for(path: str, language: str, data: bytes, settings_key: str, strategy: str) -> tuple[Chunk, ...]:
    """Chunks of one table file (the table chunker or the naive windows)."""
    settings = ChunkSettings.from_dict(_settings_dict(settings_key))
    return tuple(chunk_source(SourceFile(path, language, data=data), settings, strategy))


@st.cache_resource(max_entries=32, show_spinner="Reading the repository…")
def sample_corpus(name: str) -> Corpus:
    """A bundled sample project."""
    return load_folder(SAMPLES / name)


@st.cache_resource(max_entries=32, show_spinner="Reading the archive…")
def zip_corpus(content_hash: str, data: bytes) -> Corpus:
    """A zipped repository upload (keyed by its hash; the bytes are only read on a miss)."""
    del content_hash
    return load_zip(data)


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
    shareable: bool = True
    label: str = ""


def sample_projects() -> list[str]:
    """Bundled sample projects with code (tables and query sets have their own pages)."""
    return sorted(p.name for p in SAMPLES.iterdir() if p.is_dir() and p.name not in {"tables", "queries"})


def pick_code_source(default_project: str) -> Picked:
    """Sample project, uploaded files, a zipped repository or pasted code."""
    projects = sample_projects()
    seed_state({"source": CODE_SOURCES[0], "project": default_project}, {"source": CODE_SOURCES, "project": projects})
    kind = st.segmented_control("Source", CODE_SOURCES, key="source", required=True)
    picked = Picked()
    if kind == "Sample":
        project = st.selectbox("Sample project", projects, key="project")
        corpus = sample_corpus(project)
        picked.files = [f for f in corpus.files if f.text is not None]
        picked.label = project
    elif kind == "Upload files":
        uploads = st.file_uploader(
            "Upload one or more code or text files", accept_multiple_files=True, key="upload_files"
        )
        for upload in uploads or []:
            try:
                source = load_bytes(upload.name, upload.getvalue())
            except InputError as exc:
                picked.problems.append(str(exc))
                continue
            if source.language in TABLE_LANGUAGES:
                picked.problems.append(f"{source.path}: a table; open it on the Tables page")
                continue
            picked.files.append(source)
        picked.shareable = False
        picked.label = "upload"
    elif kind == "Upload zip":
        upload = st.file_uploader("Upload a zipped repository", type=["zip"], key="upload_zip")
        if upload is not None:
            data = upload.getvalue()
            try:
                corpus = zip_corpus(digest(data), data)
            except InputError as exc:
                picked.problems.append(str(exc))
            else:
                picked.files = [f for f in corpus.files if f.text is not None]
                picked.problems += [f"skipped {s.path}: {s.reason}" for s in corpus.skipped]
                picked.label = upload.name
        picked.shareable = False
    else:
        languages = sorted(CODE_LANGUAGES + TEXT_LANGUAGES)
        language = st.selectbox("Language", languages, index=languages.index("python"), key="paste_lang")
        text = st.text_area("Paste code", height=220, key="paste_text", placeholder="def hello():\n    ...")
        if text.strip():
            picked.files = [SourceFile(f"pasted.{_extension(language)}", language, text=text)]
        picked.shareable = False
        picked.label = "pasted"
    return picked


def show_problems(problems: list[str]) -> None:
    """Bad uploads and skipped files, named, without stopping the page."""
    if not problems:
        return
    with st.expander(f"⚠️ {len(problems)} file(s) could not be used", expanded=len(problems) <= 3):
        for problem in problems[:200]:
            st.markdown(f"- {problem}")


def _extension(language: str) -> str:
    from core.languages import LANGUAGES

    spec = LANGUAGES.get(language)
    return spec.extensions[0].lstrip(".") if spec is not None and spec.extensions and spec.extensions[0] else "txt"


def detect(path: str) -> str | None:
    """Language of a path (UI wrapper, so pages import from one place)."""
    return detect_language(path)


# ---- exports --------------------------------------------------------------------------------


def export_panel(chunks: dict[str, tuple[Chunk, ...]], settings: ChunkSettings, path: str, stem: str) -> None:
    """Download the chunks and the settings; show the equivalent CLI command."""
    with st.expander("Export: chunks, settings and the CLI command for a pipeline"):
        columns = st.columns(len(chunks) + 1)
        for column, (strategy, items) in zip(columns, chunks.items()):
            column.download_button(
                f"{strategy} chunks (JSONL)",
                dumps_jsonl(list(items)),
                file_name=f"{stem}.{strategy}.jsonl",
                mime="application/jsonl",
                key=f"dl_{strategy}",
            )
        columns[-1].download_button(
            "Settings (JSON)", settings.to_json(), file_name="chunk-settings.json", mime="application/json", key="dl_settings"
        )
        st.code(settings.cli_command(path), language="bash")
