"""Page "Retrieve": index the source with both strategies, query it, see what each returns."""

from __future__ import annotations

import json
import re
from collections import Counter

import streamlit as st

from core.errors import ChunkExplorerError
from core.evaluate import QuerySpec, context_costs, resolve_target, score_query
from core.index import MODES, filters_per_strategy
from core.render import PALETTES, Band, legend, render_view
from pages import common

DEFAULT_PROJECT = "py_inventory"
CONTEXT_TOKENS = 1024
AUTO_INDEX_MAX_CHUNKS = common.CONFIRM_CHUNKS

settings, picked = common.code_page_start(
    "Both chunkings of the same source are embedded into a local Chroma index. Ask a question and "
    "compare what each strategy returns: **a fixed window often holds only part of the function you "
    "need**, a syntax chunk holds it whole. Mark where the answer really is to see touched@k, whole@k "
    "and token-level recall, precision and IoU for this query.",
    DEFAULT_PROJECT,
    "Choose a sample, upload files or a zipped repository, or paste code to index.",
)

files = picked.files
wanted = f"{common.corpus_fingerprint(files)}|{settings.key()}"
indexed = st.session_state.get("indexed")
auto = picked.shareable  # bundled samples index by themselves; uploads wait for a click
if indexed is None or indexed.get("wanted") != wanted:
    label = picked.label or "corpus"
    count = sum(len(common.chunks_for(f.path, f.language, f.text or "", settings.chunk_key(), s))
                for f in files for s in common.STRATEGIES)
    if count > AUTO_INDEX_MAX_CHUNKS:
        # A tiny budget (or a shared link with one) would embed for minutes while every other
        # session waits for the indexing slot: ask first.
        auto = False
        st.warning(f"These settings cut the source into {count:,} chunks: embedding them can take minutes, "
                   "and other users of this server wait meanwhile. Raise the budget, or index anyway.")
    # Uploads are indexed once the user asks (a toggle: it stays on while they change settings,
    # common.KEPT_CHOICES; settings that make thousands of chunks ask again, for those settings).
    key = f"index_big:{wanted}" if count > AUTO_INDEX_MAX_CHUNKS else "index_on"
    if auto or st.toggle(f"Index {common.plural(len(files), 'this file', 'these {n} files')} with both strategies", key=key):
        bar = st.progress(0.0, text="Chunking and embedding…")

        def on_progress(strategy: str, done: int, total: int) -> None:
            # Texts, not chunks: a syntax chunk's head is embedded too (ChunkSettings.head_weight);
            # each distinct text once, as the summary's embedded and re-used counts are.
            bar.progress(done / total if total else 1.0, text=f"Embedding {strategy} chunks: {done}/{total} texts")

        try:
            result = common.index_corpus(files, settings, label, on_progress,
                                         waiting=lambda mine: bar.progress(0.0, text=common.waiting_words(mine)))
        except ChunkExplorerError as exc:
            bar.empty()
            common.error(exc)
            st.stop()
        bar.empty()
        result["wanted"] = wanted
        st.session_state["indexed"] = indexed = result
    else:
        st.info("Nothing is indexed for this source and these settings yet: index it to search.")
        st.stop()
if not any(r["chunks"] for r in indexed["reports"]):
    st.warning("The index is empty: this source gave no chunks to search.")
    st.stop()

reports = indexed["reports"]


def _report_line(r: dict) -> str:
    """One strategy's indexing: what was embedded, re-used or already there."""
    done = ([f"{r['embedded']} texts embedded"] if r["embedded"] else []) + (
        [f"{r['reused']} re-used from the cache"] if r["reused"] else []
    )
    if r.get("unchanged"):
        done.append(f"{r['unchanged']} already indexed")
    if r.get("too_long"):
        done.append(f"{len(r['too_long'])} over the model's limit")
    line = f"{r['strategy']}: {r['chunks']} chunks indexed" + (f" ({', '.join(done)})" if done else "")
    if r.get("left_out"):  # comments that only title a section: in the chunk list, not searched
        # (Not among the chunks indexed: "133 chunks (133 already indexed, 4 dividers left out)"
        # read as if they were.)
        line += common.plural(r["left_out"], ", and a section divider left out", ", and {n} section dividers left out")
    return line


summary = " · ".join(map(_report_line, reports))
st.success(f"Indexed. {summary}")

# ---- the query ----------------------------------------------------------------------------------
samples = common.sample_queries(picked.label) if picked.shareable else []
common.seed_state({"q": "", "k": 5, "mode": "hybrid", "whole_defs": True},
                  {"k": (1, 20), "mode": MODES, "whole_defs": (True, False)})
if samples:
    # Open until a question is asked: 17 of them pushed the question box a screen and a half
    # down on a projector, and the results three.
    with st.expander(f"Sample questions for this project ({len(samples)}, one click each)",
                     expanded=not (st.session_state.get("q") or st.session_state.get("sample_q"))):
        chosen = st.pills("Sample questions", [s["query"] for s in samples], key="sample_q",
                          label_visibility="collapsed")
    if chosen and chosen != st.session_state.get("last_sample_q"):
        # A sample question knows its answer: show it on its file, marked.
        spec = next(s for s in samples if s["query"] == chosen)
        st.session_state["q"] = chosen
        st.session_state["last_sample_q"] = chosen
        st.session_state["view_file"] = spec["path"]
        st.session_state["answer"] = spec.get("symbol") or "a line range"
        st.session_state["answer_for"] = chosen
        if spec.get("start_line"):
            st.session_state["answer_lines"] = (spec["start_line"], spec["end_line"])
query = st.text_input("Question or code to search for", key="q", placeholder="how are expired reservations released?")
asked = st.session_state.get("asked")
st.session_state["asked"] = query
if asked is not None and query != asked and st.session_state.get("answer_for") != query:
    # A new question of one's own: the answer marked for the last one is not its answer (it
    # scored 0 against the wrong definition), and the file shown follows the new top result.
    # (A link's question, the first of a session, keeps the link's file and answer.)
    st.session_state["answer"] = "(none)"
    st.session_state["answer_for"] = None
    st.session_state["view_top"] = True  # (set below, once the results are known)
    st.session_state.pop("answer_lines", None)
left, middle, right = st.columns(3)
k = left.slider("Results per strategy (k)", 1, 20, key="k")
mode = middle.radio("Mode", MODES, key="mode", horizontal=True)
whole_defs = middle.toggle(
    "Whole definitions", key="whole_defs",
    help="A function too big for one chunk is cut into parts, each embedded on its own. On: a part that "
         "is found brings its whole function, once, at the rank of its best part. Off: parts are ranked "
         "as results of their own.")
paths = sorted({f.path for f in files})
languages = sorted({f.language for f in files})
# The kinds these chunks have (enum, trait, interface, ... as the languages give them), per
# strategy: fixed windows are all "window", so a kind filter applies where the kind exists.
kinds_of = {s: {c.kind for f in files for c in common.chunks_for(f.path, f.language, f.text or "", settings.chunk_key(), s)}
            for s in common.STRATEGIES}
kinds = sorted(set().union(*kinds_of.values()))
common.seed_state({"filter_path": "any", "filter_language": "any", "filter_kind": "any"},
                  {"filter_path": ["any", *paths], "filter_language": ["any", *languages], "filter_kind": ["any", *kinds]})
with right:
    path_filter = st.selectbox("Only file", ["any", *paths], key="filter_path")
    language_filter = st.selectbox("Only language", ["any", *languages], key="filter_language")
    kind_filter = st.selectbox("Only kind", ["any", *kinds], key="filter_kind")
where = {key: value for key, value in (("path", path_filter), ("language", language_filter), ("kind", kind_filter))
         if value != "any"}
wheres, kind_unfiltered = filters_per_strategy(where, kinds_of)

if not query.strip():
    st.info("Type a question (or pick a sample one) to search both indexes.")
    common.write_url({**common.SETTING_DEFAULTS, "source": common.CODE_SOURCES[0], "project": DEFAULT_PROJECT})
    st.stop()

try:
    model = common.embedder(settings.model)
    vector = model.embed_query(query)
    hits = {
        strategy: common.store().search(indexed["names"][strategy], query, model, k=k, mode=mode, where=wheres[strategy] or None,
                                        query_vector=vector, whole_definitions=whole_defs)
        for strategy in common.STRATEGIES
    }
except ChunkExplorerError as exc:
    common.error(exc)
    st.stop()

definitions = {f.path: common.definitions_for(f.path, f.language, f.text) for f in files}


def badge(path: str, first: int, last: int) -> str:
    """Whether a result holds whole definitions, or only part of one."""
    defs = definitions.get(path, ())
    whole = [d for d in defs if first <= d.first and d.last <= last]
    if whole:
        outer = [d for d in whole if not any(o is not d and o.first <= d.first and d.last <= o.last for o in whole)]
        names = ", ".join(d.symbol for d in outer[:2]) + (" …" if len(outer) > 2 else "")
        # A definition that runs out of the result at either end is cut by it (a fixed window
        # holding one function whole and the start of the next looked as good as a syntax chunk).
        cut = [d for d in defs if (d.first < first <= d.last < last) or (first < d.first <= last < d.last)]
        cuts = f" :orange-badge[cuts {common.md(cut[0].symbol)}{' …' if len(cut) > 1 else ''}]" if cut else ""
        return f":green-badge[whole {common.md(names)}]{cuts}"
    touched = [d for d in defs if d.first <= last and first <= d.last]
    if touched:
        return f":orange-badge[part of {common.md(min(touched, key=lambda d: d.last - d.first).symbol)}]"
    return ":gray-badge[no definition]"


columns = st.columns(2)
for column, strategy in zip(columns, common.STRATEGIES):
    with column:
        st.subheader("Fixed windows" if strategy == "fixed" else "Syntax-aware")
        if strategy in kind_unfiltered:
            other = "syntax-aware" if strategy == "fixed" else "fixed-window"
            st.caption(f"Not filtered by kind: no {'fixed window' if strategy == 'fixed' else 'syntax-aware chunk'} "
                       f"is a {common.code_span(kind_filter)} (the kind filter applies to the {other} column).")
        if not hits[strategy]:
            st.info("No results (check the filters).")
        for hit in hits[strategy]:
            chunk = hit.chunk
            first, last = hit.lines
            scores = ", ".join(f"{name} {value:.3f}" for name, value in hit.scores.items())
            symbol = f"· {common.md(chunk.symbol)} " if chunk.symbol else ""
            st.markdown(f"**#{hit.rank}** {common.name_md(chunk.path)} lines {first}-{last} "
                        f"{symbol}{badge(chunk.path, first, last)}")
            size = sum(c.size for c in hit.chunks)
            inside = " with the definitions inside it" if len(hit.chunks) > chunk.parts else ""
            found = (f" · found by part {chunk.part} of {chunk.parts} (lines {chunk.start_line}-{chunk.end_line}); "
                     f"the whole definition is returned: {len(hit.chunks)} chunks, its parts{inside}") if hit.group else ""
            st.caption(f"score {hit.score:.4f} ({scores}) · {size} {chunk.unit}{found}"
                       + (" · over the model's limit" if hit.over_model_limit else ""))
            with st.expander("definition text" if hit.group else "chunk text"):
                common.show_text(hit.text, wrap=False)  # code keeps its indentation's shape

# ---- painted on the source ----------------------------------------------------------------------
hit_paths = [h.chunk.path for s in common.STRATEGIES for h in hits[s]]
# Every chunk a result returns carries its rank (all parts of a whole definition).
default_view = hit_paths[0] if hit_paths else paths[0]
filters = (path_filter, language_filter, kind_filter)
filtered_before = st.session_state.get("filters_for")
st.session_state["filters_for"] = filters
if filtered_before is not None and filters != filtered_before and hit_paths and st.session_state.get("view_file") not in hit_paths:
    # A new filter ("Only file") moved the results off the file shown: follow them, as a new
    # question does (a file that still holds a result stays, with its marks).
    st.session_state["view_top"] = True
if st.session_state.pop("view_top", False):
    st.session_state["view_file"] = default_view
common.seed_state({"view_file": default_view}, {"view_file": paths})
view_path = st.selectbox("Show results on file", paths, key="view_file")
source = next(f for f in files if f.path == view_path)
bands = [
    Band(strategy, common.chunks_for(source.path, source.language, source.text, settings.chunk_key(), strategy),
         PALETTES[strategy], {c.id: f"#{h.rank}" for h in hits[strategy] for c in h.chunks if c.path == view_path})
    for strategy in common.STRATEGIES
]

# ---- where the answer really is -----------------------------------------------------------------
st.subheader("Where is the answer?")
defs = definitions.get(view_path, ())
# A name given twice (an enum and its impl blocks, C++ overloads) is told apart by its lines.
named = Counter(d.symbol for d in defs)
by_label = {(d.symbol if named[d.symbol] == 1 else f"{d.symbol} (lines {d.first}-{d.last})"): d for d in defs}
if named[st.session_state.get("answer", "")] > 1:  # a sample's symbol
    st.session_state["answer"] = next(label for label, d in by_label.items() if d.symbol == st.session_state["answer"])
choices = ["(none)", *by_label, "a line range"]
common.seed_state({"answer": "(none)"}, {"answer": choices})
answer = st.selectbox("The answer is", choices, key="answer",
                      help="Pick the definition that answers the question, or a line range.")
target_lines: tuple[int, int] | None = None
if answer == "a line range":
    line_count = max(1, len(source.text.splitlines()))
    if line_count == 1:  # a slider needs two ends
        st.caption(f"{common.name_md(view_path)} has a single line: the answer is line 1.")
        target_lines = (1, 1)
    else:
        # Seeded in the state, not given as the slider's default too: a sample question sets
        # its lines in the state, and both at once make Streamlit log a warning.
        lines = st.session_state.get("answer_lines")
        if lines is None:  # a link's range, on its first run (``answer_range=45-68``)
            lines = tuple(int(n) for n in re.findall(r"\d+", st.query_params.get("answer_range", ""))[:2]) or None
            if lines is not None:
                st.session_state["answer_lines"] = lines
        if not (isinstance(lines, (tuple, list)) and len(lines) == 2 and 1 <= lines[0] <= lines[1] <= line_count):
            st.session_state["answer_lines"] = (1, min(line_count, 20))
        target_lines = st.slider("Lines", 1, line_count, key="answer_lines")
elif answer != "(none)":
    found = by_label[answer]
    target_lines = (found.first, found.last)
# (Written to the link below: a line range is the answer only with its lines.)
st.session_state["answer_range"] = f"{target_lines[0]}-{target_lines[1]}" if answer == "a line range" and target_lines else ""

if target_lines is not None:
    prep = common.prepared(source.path, source.language, source.text)
    try:
        target = resolve_target(QuerySpec(0, query, view_path, start_line=target_lines[0], end_line=target_lines[1]), prep)
    except ChunkExplorerError as exc:
        common.error(exc)
    else:
        tokens_of, repeated = context_costs(settings.model)
        # One row per strategy, the same widths in both (in two columns of five, 1280 pixels
        # showed "touc…" and "whol…", the page's headline figures).
        widths = [110, common.figure_width(f"touched@{k}", 0) + 30, common.figure_width(f"whole@{k}", 0) + 30, 85, 95, 80]
        for strategy in common.STRATEGIES:
            outcome = score_query(
                QuerySpec(0, query, view_path, start_line=target.first, end_line=target.last), target,
                [h.chunks for h in hits[strategy]], strategy=strategy, mode=mode, k=k, context_tokens=CONTEXT_TOKENS,
                tokens_of=tokens_of, repeated=repeated,
            )
            row = common.figures_row(6, widths)
            row[0].markdown(f"**{strategy}**")
            row[1].metric(f"touched@{k}", "yes" if outcome.touched_rank else "no",
                          help=f"rank {outcome.touched_rank}" if outcome.touched_rank else None)
            row[2].metric(f"whole@{k}", "yes" if outcome.whole_rank else "no",
                          help=f"rank {outcome.whole_rank}" if outcome.whole_rank else None)
            row[3].metric("recall", f"{outcome.recall:.2f}")
            row[4].metric("precision", f"{outcome.precision:.2f}")
            row[5].metric("IoU", f"{outcome.iou:.2f}")

st.html(legend(bands, retrieval=True))
window = common.view_window(source.text, "retrieve_view_from")
if window is not None:
    # Drawn from a little above the answer (or the best-ranked result on this file): a view from
    # line 1 left the answer at line 230 of a 640-pixel box out of sight, on a projector too.
    ranked = sorted((int(label.lstrip("#")), chunk.start_line) for band in bands for chunk in band.chunks
                    if (label := (band.marks or {}).get(chunk.id)) is not None)
    focus = target_lines[0] if target_lines else (ranked[0][1] if ranked else window[0])
    start = max(window[0], min(focus, window[1]) - 8)
    if start > window[0]:
        what = "the answer" if target_lines else "the best-ranked result on this file"
        if st.toggle(f"Lines above {start:,} too (the view starts a little above {what})", key="view_whole"):
            start = window[0]
    view = render_view(source.text, source.language, bands,
                       cuts=common.damage_for(source.path, source.language, source.text, settings.chunk_key(), "fixed").cuts,
                       answer=target_lines, first_line=start, last_line=window[1])
    with st.container(height=640, key="retrieve_view"):
        st.html(view)

with st.expander("Results as JSON (per strategy)"):
    st.code(json.dumps({s: [h.to_dict() for h in hits[s]] for s in common.STRATEGIES}, indent=1)[:200_000], language="json")
# The query and what it is shown on, so a link reproduces the results (the answer, too, on a sample).
view_state: dict[str, object] = {"q": "", "k": 5, "mode": "hybrid", "whole_defs": True,
                                 "filter_language": "any", "filter_kind": "any"}
if picked.shareable:
    view_state.update({"view_file": default_view, "answer": "(none)", "answer_range": "", "filter_path": "any"})
common.write_url({**common.SETTING_DEFAULTS, "source": common.CODE_SOURCES[0], "project": DEFAULT_PROJECT,
                  **view_state})
