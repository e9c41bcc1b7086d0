"""Page "Explore code": fixed windows and syntax-aware chunks side by side over the source."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.embed import has_head
from core.render import PALETTES, Band, histogram_bars, inspect_html, legend, render_view
from core.sizing import make_sizer
from core.sources import first_code_file
from pages import common

DEFAULT_PROJECT = "py_inventory"
DEFAULT_FILE = "inventory/resilience.py"
# Why the syntax chunker fell back (Chunk.fallback), in words.
FALLBACK_REASONS = {
    "parse_error": "most of it does not parse (syntax errors), so it was cut into fixed windows",
    "parse_timeout": "its parse did not finish in time (a grammar stuck on odd input), so it was cut "
                     "into fixed windows",
    "unknown_language": "there is no grammar for this language, so it was split at blank-line blocks",
}

settings, picked = common.code_page_start(
    "Fixed-size windows (orange band, left) end wherever the budget runs out: a **red rule marks each "
    "place a window cuts a function or class in two**, and the piece after it has lost its signature. "
    "Syntax-aware chunks (blue band) follow the parse tree: whole definitions, big classes split into "
    "a header plus members, long functions split into parts that repeat their signature. Move the "
    "budget in the sidebar and watch both redraw.",
    DEFAULT_PROJECT,
    "Choose a sample, upload files or a zipped repository, or paste code to start.",
)

key = settings.chunk_key()  # the head settings shape vectors only: no re-chunking when they move


def file_figures(files: list) -> pd.DataFrame:
    """Per-file figures so the worst files of a repository can be found at once.

    Only the fixed chunking is computed for the list (what it cuts is the point); the syntax
    chunks of a file are computed when it is opened.
    """
    rows = []
    for source in files:
        fixed = common.damage_for(source.path, source.language, source.text, key, "fixed")
        rows.append(
            {
                "file": source.path,
                "language": source.language,
                "lines": source.text.count("\n") + (not source.text.endswith("\n")),  # as the view numbers them
                "fixed chunks": fixed.chunks,
                "definitions cut": len(fixed.cut),
                "chunks without signature": len(fixed.without_signature),
                "over the model's limit": len(fixed.over_model_limit),
            }
        )
    frame = pd.DataFrame(rows)
    return frame.sort_values(["definitions cut", "file"], ascending=[False, True], ignore_index=True)


paths = [f.path for f in picked.files]
# A project opens on a code file, not on the README or config file that sorts first.
default_file = DEFAULT_FILE if DEFAULT_FILE in paths else first_code_file(picked.files).path
if len(picked.files) > 1:
    # (Uploaded files are labelled "upload": "Files in upload (2)" read as a name.)
    where = "you uploaded" if picked.label == "upload" else f"in {common.name_md(picked.label or 'this source')}"
    listing = st.expander(
        f"Files {where} ({len(paths):,}), worst first",
        expanded=False,
        key="files_open",
        on_change="rerun",
    )
    if listing.open:  # every file's figures, for this budget: only when someone looks at them
        listing.dataframe(file_figures(picked.files), hide_index=True, width="stretch")
    common.seed_state({"file": default_file}, {"file": paths})
    chosen = st.selectbox("File", paths, key="file")
else:
    chosen = paths[0]
source = next(f for f in picked.files if f.path == chosen)
text, language, path = source.text, source.language, source.path

chunks = {s: common.chunks_for(path, language, text, key, s) for s in common.STRATEGIES}
reports = {s: common.damage_for(path, language, text, key, s) for s in common.STRATEGIES}
limit = common.token_limit(settings.model)

# ---- figures -----------------------------------------------------------------------------------
unit = common.UNIT_LABELS[settings.unit]
decoded = f" · not UTF-8: read as {source.encoding}" if source.encoding != "utf-8" else ""
# (A notebook's lines are those of its cells' script, drawn below, not of its JSON.)
decoded += " · a notebook: its cells as a script, outputs left out" if source.note else ""
st.caption(f"**{common.name_md(path)}** · {language} · budget {settings.budget} {unit} · model limit {limit} tokens{decoded}",
           help=common.md(source.note) if source.note else None)
# The same widths for both strategies, so that their figures stand under each other: each
# as wide as the wider of the two needs (a note of "1338 over the budget" at a tiny budget).
over_notes = [f"{len(r.over_budget)} over the budget" for r in reports.values() if r.over_budget]
cut_notes = [f"{len(r.cut_avoidable)} under the budget" for r in reports.values() if r.cut]
widths = [
    110,
    max([115, *(common.note_width(n) for n in over_notes)]),
    max([common.figure_width(f"Median size ({unit})"), *(common.value_width(f"{r.median_size:g}") for r in reports.values())]),
    max([128, *(common.note_width(n) for n in cut_notes)]),
    108,
    122,
]
for strategy, title in (("fixed", "Fixed windows"), ("syntax", "Syntax-aware")):
    report = reports[strategy]
    columns = common.figures_row(6, widths)
    columns[0].markdown(f"**{title}**")
    # (Over the budget only where no legal cut is left: a long line or token, a signature and
    # breadcrumb that fill a small budget. Said, so a tiny budget's figures are not misread.)
    columns[1].metric(
        "Chunks", report.chunks,
        delta=f"{len(report.over_budget)} over the budget" if report.over_budget else None, delta_color="off",
        delta_arrow="off",
        help="chunks over the budget (flagged oversized) hold a line, or a breadcrumb and header, that no cut "
             "can make smaller: raise the budget to see fewer",
    )
    columns[2].metric(f"Median size ({unit})", f"{report.median_size:g}")
    # A definition over the budget must be cut; one whose text is under it need not have been
    # (though its chunk also carries a breadcrumb, and a member its class's header).
    columns[3].metric(
        "Definitions cut", len(report.cut),
        delta=f"{len(report.cut_avoidable)} under the budget" if report.cut else None, delta_color="off",
        delta_arrow="off",
        help=common.md("cut: " + (", ".join(report.cut) or "none") + " · of them, text under the budget (a chunk "
                       "also carries its breadcrumb and header): " + (", ".join(report.cut_avoidable) or "none")),
    )
    columns[4].metric("No signature", len(report.without_signature),
                      help="chunks that hold code of a definition but not its signature line")
    columns[5].metric("Over model limit", len(report.over_model_limit),
                      help=f"embed_text longer than {limit} tokens is silently truncated by the model")
if chunks["syntax"] and chunks["syntax"][0].fallback:
    reason = chunks["syntax"][0].fallback
    st.warning(f"The syntax chunker fell back for this file ({reason}): {FALLBACK_REASONS.get(reason, 'see the docs')}.")
elif damaged := [c for c in chunks["syntax"] if "damaged" in c.flags]:
    spans = ", ".join(f"{c.start_line}-{c.end_line}" for c in damaged[:5]) + (" …" if len(damaged) > 5 else "")
    st.warning(f"Part of this file does not parse (lines {spans}): the syntax-aware chunks there follow a damaged "
               "tree, and are flagged `damaged`.")
if chunks["fixed"] and "overlap_reduced" in chunks["fixed"][0].flags:
    st.info(f"After this file's breadcrumb a fixed window has less room than the overlap ({settings.overlap} {unit}): "
            "each would start where the one before ends. Half its room is repeated instead (windows flagged "
            "`overlap_reduced`); raise the budget or lower the overlap.")


bars = histogram_bars({s: [c.size for c in chunks[s]] for s in common.STRATEGIES}, settings.budget)
if bars:
    # The Vega-Lite spec itself: building it through Altair (schema objects, validation) took
    # 23 ms of every rerun, a quarter of a budget change's, and this page reruns on every move.
    histogram = {
        "height": 160,
        "layer": [
            {
                "data": {"values": bars},
                "mark": {"type": "bar", "opacity": 0.85},
                "encoding": {
                    "x": {"field": "from", "type": "quantitative", "title": f"chunk size ({unit})"},
                    "x2": {"field": "to"},
                    "y": {"field": "chunks", "type": "quantitative", "title": "chunks",
                          "axis": {"tickMinStep": 1, "format": "d"}},
                    "y2": {"datum": 0},
                    "color": {
                        "field": "strategy",
                        "type": "nominal",
                        "scale": {"domain": list(common.CHART_COLOURS), "range": list(common.CHART_COLOURS.values())},
                    },
                    "tooltip": [{"field": "strategy"}, {"field": "sizes", "title": f"size ({unit})"},
                                {"field": "chunks"}],
                },
            },
            {
                "data": {"values": [{"budget": settings.budget}]},
                "mark": {"type": "rule", "color": "#d62728", "strokeDash": [4, 3]},
                "encoding": {"x": {"field": "budget", "type": "quantitative"}},
            },
        ],
    }
    st.vega_lite_chart(None, histogram, width="stretch")

# ---- the view ----------------------------------------------------------------------------------
bands = [
    Band("fixed windows", chunks["fixed"], PALETTES["fixed"]),
    Band("syntax-aware chunks", chunks["syntax"], PALETTES[chunks["syntax"][0].strategy if chunks["syntax"] else "syntax"]),
]
st.html(legend(bands))
window = common.view_window(text, "view_from")
if window is not None:
    view = render_view(text, language, bands, cuts=reports["fixed"].cuts, header_band=1,
                       first_line=window[0], last_line=window[1])
    # Up to 720 px: a short file's view is not a tall empty box.
    with st.container(height=min(720, 60 + 21 * (window[1] - window[0] + 1)), key="code_view"):
        st.html(view)

# ---- inspect one chunk ---------------------------------------------------------------------------
INSPECT_LIST_MAX = 2_000  # chunks listed for picking; past it, a strategy and a number
st.subheader("Inspect a chunk")
options = [(s, i) for s in common.STRATEGIES for i in range(len(chunks[s]))]


def describe(option: tuple[str, int]) -> str:
    strategy, index = option
    chunk = chunks[strategy][index]
    part = f" part {chunk.part}/{chunk.parts}" if chunk.parts > 1 else ""
    return (f"{strategy} #{index + 1} · {chunk.kind}{part} · {chunk.symbol or '-'} · "
            f"lines {chunk.start_line}-{chunk.end_line} · {chunk.size} {chunk.unit}")


inspect_default = ""  # the chunk shown first ("syntax:<its first line>"), left out of the link
if len(options) > INSPECT_LIST_MAX:
    # Tens of thousands of options (a 2 MB file at a small budget) made every rerun seconds long.
    strategy = st.radio("Strategy", common.STRATEGIES, index=1, horizontal=True, key="inspect_strategy")
    count = len(chunks[strategy])
    if st.session_state.get("inspect_number", 1) > max(count, 1):
        st.session_state["inspect_number"] = max(count, 1)  # (the other strategy has fewer chunks)
    number = st.number_input(f"Chunk number (1-{count:,})", 1, max(count, 1), key="inspect_number") if count else 0
    choice = (strategy, min(number, count) - 1) if count else None
    if choice is not None:
        st.caption(describe(choice))
elif options:
    # The chunk looked at is kept by where it starts (``inspect_at=syntax:230``, in the link
    # too): after a budget change, the chunk of that strategy over that line, not syntax #1.
    first = next((i for i, o in enumerate(options) if o[0] == "syntax"), 0)
    inspect_default = f"{options[first][0]}:{chunks[options[first][0]][options[first][1]].start_line}"
    if st.session_state.get("inspect_for") != (path, settings.chunk_key()) or st.session_state.get("inspect") not in options:
        # New chunks (another file, other settings): choose again, from the line kept.
        linked = "inspect_for" not in st.session_state  # a link's own run
        if not linked:
            at = st.session_state.get("inspect_at", "") if st.session_state["inspect_for"][0] == path else ""
        else:
            at = st.query_params.get("inspect_at", "")
        kept_strategy, _, kept_line = str(at).partition(":")
        line = int(kept_line) if kept_line.isdigit() else 0
        over = [o for o in options if o[0] == kept_strategy
                and chunks[o[0]][o[1]].start_line <= line <= chunks[o[0]][o[1]].end_line]
        # The chunk that starts on the line, else the first over it (overlapping windows share
        # lines: ``fixed:25`` is the window from line 25, not the one before that ends there).
        kept = next((o for o in over if chunks[o[0]][o[1]].start_line == line), over[0] if over else None)
        if linked and at and kept is None:
            st.info(f"The link's inspect_at {common.code_span(str(at))} names no chunk of this file here: "
                    f"{common.code_span(inspect_default)} is shown instead.")
        st.session_state["inspect"] = kept or options[first]
        st.session_state["inspect_for"] = (path, settings.chunk_key())
    choice = st.selectbox("Chunk", options, format_func=describe, key="inspect")
    st.session_state["inspect_at"] = f"{choice[0]}:{chunks[choice[0]][choice[1]].start_line}"
else:
    choice = None
if choice is not None:
    chunk = chunks[choice[0]][choice[1]]
    left, right = st.columns([1, 2])
    meta = {k: v for k, v in chunk.to_dict().items() if k not in {"text", "embed_text", "header"}}
    left.json(meta, expanded=True)
    embed_tokens = chunk.size if chunk.unit == "tokens" else make_sizer("tokens", settings.model).measure(chunk.embed_text)
    right.markdown(f"**What the embedder sees** · {embed_tokens} of {limit} tokens")
    right.progress(min(embed_tokens / limit, 1.0))
    if embed_tokens > limit:
        right.error(f"{embed_tokens - limit} tokens past the model's limit would be silently cut off.")
    # Highlighted as the file lexes it (a chunk that starts inside a docstring shows a string,
    # not code): st.code would lex the chunk's text on its own, in the browser.
    doc = common.prepared(path, language, text).doc
    span = (doc.char_of_byte(chunk.start_byte), doc.char_of_byte(chunk.end_byte))
    prefix = chunk.embed_text[: len(chunk.embed_text) - len(chunk.text)]
    right.html(inspect_html(text, language, prefix, *span))
    if settings.head_weight and has_head(chunk):
        right.markdown(f"**And its head**, embedded too: {settings.head_weight:.0%} of the chunk's vector "
                       f"(the text above makes the other {1 - settings.head_weight:.0%})")
        right.html(inspect_html(text, language, prefix, *span, head_lines=settings.head_lines))

target, extra = picked.cli_target(path)
common.export_panel(chunks, settings, target, path.rsplit("/", 1)[-1], extra)
if not picked.shareable:
    st.caption("Links to this page keep the settings; uploads and pasted code stay in your session only.")

# An upload's file and position mean nothing in a link (it opens on a sample): they stay out.
common.write_url({**common.SETTING_DEFAULTS, "source": common.CODE_SOURCES[0], "project": DEFAULT_PROJECT,
                  **({"file": default_file, "inspect_at": inspect_default} if picked.shareable else {})})
