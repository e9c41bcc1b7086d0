"""Page "Evaluate": an annotated query set against both strategies and every mode; sweeps."""

from __future__ import annotations

import threading

import altair as alt
import pandas as pd
import streamlit as st

from core.chunk import Chunk
from core.errors import ChunkExplorerError
from core.evaluate import EvalReport, parse_queries, query_text, sweep_steps
from core.index import MODES
from core.render import PALETTES, Band, legend, render_view
from core.settings import ChunkSettings
from pages import common

QUERY_SOURCES = ("Bundled", "Upload")
METRICS = ("touched", "whole", "mrr", "iou", "in_context")


def three_decimals(frame: pd.DataFrame) -> dict:
    """Column formats that show every metric with three decimals (0.910 beside 0.859 and 0.308,
    not 0.91 beside 0.3077): the float columns but the chunks' median size."""
    return {c: st.column_config.NumberColumn(format="%.3f") for c in frame.columns
            if "@" in c and pd.api.types.is_float_dtype(frame[c])}


def questions(count: int) -> str:
    return common.plural(count, "1 question", "{n} questions")


common.sidebar_settings()
common.intro(
    "Run a whole set of annotated questions against both strategies and all three search modes. "
    "**whole@k** is the share of questions whose answer comes back whole in one result among the top "
    "k (a function too big for one chunk comes back as all its parts, found by any of them); "
    "**in context** fills a prompt of the Context's tokens (1,024 by default) with results in rank "
    "order, so big chunks cannot win by being big. **touched@k** counts an answer found when any of the top k "
    "overlaps it, and **MRR** is the mean of 1/rank of that first overlapping result: a window holding a piece "
    "of the answer counts there, which is how fixed windows can lead on MRR while whole@k shows the piece is not "
    "enough. The sweep tries several settings and highlights the best."
)

settings = common.current_settings()
sets = common.query_set_names()
URL_DEFAULTS = {"qsource": QUERY_SOURCES[0], "qset": "code.jsonl" if "code.jsonl" in sets else (sets or [""])[0],
                "eval_k": 5, "context": 1024}
common.seed_state(URL_DEFAULTS,
                  {"qsource": QUERY_SOURCES, "qset": sets or None, "eval_k": (1, 20), "context": (128, 8192)})
left, right = st.columns([2, 1])
with left:
    kind = st.radio("Query set", QUERY_SOURCES, key="qsource", horizontal=True)
    if kind == "Bundled":
        name = st.selectbox("Bundled query set (over all sample projects)", sets, key="qset")
        text = common.query_set_text(name) if name else ""
        label = name
    else:
        upload = st.file_uploader("Upload a query set (JSONL: query, path, symbol or start_line/end_line; also: more right answers)",
                                  type=["jsonl", "json", "txt"], key="upload_queries")
        label = upload.name if upload is not None else ""
        try:
            text = query_text(upload.getvalue(), label) if upload is not None else ""
        except ChunkExplorerError as exc:
            common.error(exc)
            st.stop()
with right:
    k = st.slider("k", 1, 20, key="eval_k")
    context = st.number_input("Context (model tokens)", 128, 8192, step=128, key="context")
common.write_url({**common.SETTING_DEFAULTS, **URL_DEFAULTS})  # a link reproduces the settings and the set

if not text.strip():
    if kind != "Bundled" and label:
        common.error(f"{label}: empty file; a query set is JSONL: one JSON object per line")
    else:
        st.info("Pick a bundled query set or upload one (paths are relative to sample_repos/).")
    st.stop()
try:
    queries = parse_queries(text, label or "queries", max_queries=common.MAX_QUESTIONS)
except ChunkExplorerError as exc:
    common.error(exc)
    problems = getattr(exc, "problems", ())
    if len(problems) > 5:  # the message names the first five
        with st.expander(f"All {len(problems):,} malformed lines"):
            st.code("\n".join(problems), language=None)
    st.stop()
st.caption(f"{questions(len(queries))} · corpus: every bundled sample project")
query_hash = common.digest(text)


def corpus_chunks(settings: ChunkSettings, strategy: str) -> dict[str, tuple[Chunk, ...]]:
    """The chunks of the corpus's code and text files by path (each file's cached by the app, as
    Explore and Retrieve cache them): counted here, and evaluated without chunking them again."""
    return {f.path: common.chunks_for(f.path, f.language, f.text or "", settings.chunk_key(), strategy)
            for f in common.evaluation_files()}


@st.cache_resource(show_spinner=False)
def _reports() -> tuple[dict[tuple, EvalReport], threading.Lock]:
    """The reports made, shared by every session (leave the page and come back), oldest first."""
    return {}, threading.Lock()


def _report_key(settings: ChunkSettings, strategies: tuple[str, ...] = common.STRATEGIES,
                modes: tuple[str, ...] = MODES) -> tuple:
    return (query_hash, settings.key(), k, int(context), strategies, modes)


def report_for(settings: ChunkSettings, strategies: tuple[str, ...] = common.STRATEGIES,
               modes: tuple[str, ...] = MODES, *, bar=None, label: str = "",  # type: ignore[no-untyped-def]
               span: tuple[float, float] = (0.0, 1.0)) -> EvalReport:
    """Metrics of ``settings`` over the query set, made once and kept (at most 256 reports).
    Made now, its progress moves ``bar`` (a new one when None) through ``span``: the embedding
    of each strategy's texts, then the scoring of the questions, each said in the bar's text
    after ``label``."""
    key = _report_key(settings, strategies, modes)
    reports, lock = _reports()
    with lock:
        found = reports.get(key)
    if found is not None:
        return found
    own = bar is None
    bar = st.progress(span[0], text=f"{label}preparing the corpus and the questions…") if own else bar
    shown = [-1]  # the last hundredth drawn: a bar is redrawn at most a hundred times

    def move(strategy: str, share: float, what: str) -> None:
        done = (strategies.index(strategy) + share) / len(strategies)
        value = span[0] + (span[1] - span[0]) * min(1.0, done)
        if int(value * 100) != shown[0] or share in (0.0, 0.9):
            shown[0] = int(value * 100)
            bar.progress(value, text=f"{label}{strategy}: {what}")

    def embedded(strategy: str, done: int, total: int) -> None:
        move(strategy, 0.9 * done / total if total else 0.9, f"embedding {done:,}/{total:,} texts")

    def scored(strategy: str, done: int, total: int) -> None:
        move(strategy, 0.9 + 0.1 * done / total if total else 1.0, f"scoring {done:,}/{total:,} questions")

    # Its embedding takes the server's one turn, as Retrieve's indexing does (a room evaluating
    # at once embedded side by side, and the page's own warning said the others wait).
    with common.embedding_turn(lambda mine: bar.progress(span[0], text=label + common.waiting_words(mine, "evaluation"))):
        found = common.evaluation(query_hash, text, settings.model).run(
            settings, strategies=strategies, modes=modes, k=k, context_tokens=int(context),
            chunks={s: corpus_chunks(settings, s) for s in strategies}, progress=embedded, scored=scored)
    if own:
        bar.empty()
    with lock:
        reports[key] = found
        while len(reports) > 256:
            reports.pop(next(iter(reports)))
    return found


def sweep_rows(grid: dict[str, tuple], mode: str) -> list[dict]:
    """One row per (budget, overlap %, breadcrumb, head weight %, strategy); each setting's report
    kept on its own, so changing the values runs only the new ones."""
    steps = sweep_steps(settings, grid)
    bar = st.progress(0.0, text="Sweeping…")
    rows = []
    for done, step in enumerate(steps):
        if step.strategies:
            label = (f"Setting {done + 1}/{len(steps)} (budget {step.budget}, overlap {step.overlap_pct}%, "
                     f"breadcrumb {step.breadcrumb}, head {step.head_pct}%) · ")
            report = report_for(step.settings, step.strategies, (mode,), bar=bar, label=label,
                                span=(done / len(steps), (done + 1) / len(steps)))
            for row in report.rows:
                syntax = row.strategy == "syntax"
                rows.append({"budget": step.budget, "overlap_pct": 0 if syntax else step.overlap_pct,
                             "breadcrumb": step.breadcrumb, "head_pct": step.head_pct if syntax else 0, **row.to_dict()})
        bar.progress((done + 1) / len(steps), text=f"Sweeping: {done + 1}/{len(steps)} settings")
    bar.empty()
    return rows


count = sum(len(chunks) for s in common.STRATEGIES for chunks in corpus_chunks(settings, s).values())
if count > common.CONFIRM_CHUNKS:
    # A small budget embeds the whole corpus anew for minutes, on a server a room shares.
    st.warning(f"These settings cut the sample projects into {count:,} chunks: evaluating them embeds for minutes, "
               "and other users of this server wait meanwhile. Raise the budget, or evaluate anyway.")
    if not st.toggle("Evaluate anyway", key=f"eval_big:{settings.key()}"):
        st.stop()
kept = _report_key(settings) in _reports()[0]  # made before (by anyone): shown again, no work done
try:
    report = report_for(settings)
except ChunkExplorerError as exc:
    common.error(exc)
    st.stop()

if report.unresolved:
    with st.expander(f"⚠️ {len(report.unresolved)} of the {questions(len(queries))} could not be used; "
                     f"the figures cover the other {len(queries) - len(report.unresolved)}"):
        for line, reason in report.unresolved:
            st.markdown(f"- line {line}: {common.md(reason)}")
if report.notes:
    with st.expander(f"ℹ️ {common.plural(len(report.notes), 'A note', '{n} notes')} on the questions scored"):
        for line, note in report.notes:
            st.markdown(f"- line {line}: {common.md(note)}")
# (A report made before is shown again as it was: its counts are those of the run that made it.)
made = "When these figures were made (kept since, shown again without any work): " if kept else ""
st.caption(f"{made}Embeddings: {report.embedded} computed, {report.reused} re-used from the cache"
           + (f", {report.too_long} chunks over the model's limit" if report.too_long else ""))

rows = pd.DataFrame([row.to_dict() for row in report.rows])
st.dataframe(rows, hide_index=True, width="stretch", column_config=three_decimals(rows))
# A chart per metric, named as the table names it (touched@5, in_context@1024), its modes in the
# table's and the radios' order (vector, keyword, hybrid). The charts wrap to the page's width: a
# faceted chart was 1,000 px wide whatever the screen, and a phone showed two metrics of five.
names = {metric: next(c for c in rows.columns if c.startswith(f"{metric}@")) for metric in METRICS}
st.html('<div style="font-size:0.875rem">' + " &nbsp; ".join(
    f'<span style="color:{common.CHART_COLOURS[s]}">&#9632;</span> {s}' for s in common.STRATEGIES) + "</div>")
colours = alt.Scale(domain=list(common.CHART_COLOURS), range=list(common.CHART_COLOURS.values()))
with st.container(horizontal=True, wrap=True, gap="small"):
    for metric in METRICS:
        values = pd.DataFrame([{"strategy": r.strategy, "mode": r.mode, "value": getattr(r, metric)}
                               for r in report.rows])
        chart = (
            alt.Chart(values, title=names[metric])
            .mark_bar()
            .encode(
                # Mode names upright and whole: a chart 120 px wide cut them to "id", "rd", "or" on a slant.
                x=alt.X("mode:N", title=None, sort=list(MODES), axis=alt.Axis(labelAngle=0, labelLimit=0)),
                xOffset=alt.XOffset("strategy:N", sort=list(common.STRATEGIES)),
                y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title=None, axis=alt.Axis(format=".1f")),
                color=alt.Color("strategy:N", legend=None, scale=colours),
                tooltip=["strategy", "mode", alt.Tooltip("value:Q", title=names[metric], format=".3f")],
            )
            .properties(width=180, height=160)
        )
        st.altair_chart(chart, width="content")

# ---- the misses -----------------------------------------------------------------------------------
st.subheader("Questions a strategy missed")
common.seed_state({"miss_strategy": "syntax", "miss_mode": "hybrid"},
                  {"miss_strategy": common.STRATEGIES, "miss_mode": MODES})
one, two = st.columns(2)
strategy = one.radio("Strategy", common.STRATEGIES, key="miss_strategy", horizontal=True)
mode = two.radio("Mode", MODES, key="miss_mode", horizontal=True)
missed = [o for o in report.outcomes if o.strategy == strategy and o.mode == mode and o.whole_rank is None]
st.caption(f"{len(missed)} of {sum(1 for o in report.outcomes if o.strategy == strategy and o.mode == mode)} "
           f"questions without the whole answer in the top {k}")
if missed:
    by_line = {q.line: q for q in queries}
    labels = {o.line: f"line {o.line}: {o.query}" for o in missed}
    pick = st.selectbox("Open a missed question", list(labels), format_func=labels.get, key="missed_line")
    outcome = next(o for o in missed if o.line == pick)
    spec = by_line[pick]
    source = common.sample_file(spec.path)
    if source is not None:
        target = common.target_lines(spec, source)
        returned = [entry.rsplit(":", 1) for entry in outcome.top]
        marks: dict[str, dict[str, str]] = {}
        bands = []
        for name in common.STRATEGIES:
            chunks = common.chunks_for(source.path, source.language, source.text, settings.chunk_key(), name)
            ranks = {}
            if name == strategy:
                for rank, (path, span) in enumerate(returned, start=1):
                    if path == spec.path:
                        first, last = (int(x) for x in span.split("-"))
                        for chunk in chunks:
                            if chunk.start_line == first and chunk.end_line == last:
                                ranks[chunk.id] = f"#{rank}"
            bands.append(Band(name, chunks, PALETTES[name], ranks))
        elsewhere = [entry for entry in outcome.top if not entry.startswith(spec.path + ":")]
        st.caption(f"target: {common.md(spec.path)} {common.md(spec.symbol or '')} lines {target[0]}-{target[1]} · "
                   f"touched at rank {outcome.touched_rank or '-'} · returned elsewhere: "
                   f"{common.md(', '.join(elsewhere) or 'none')}")
        st.html(legend(bands, retrieval=True))
        # Drawn from a little above the answer, which a view from line 1 left out of sight.
        start = max(1, target[0] - 8)
        if start > 1:
            st.caption(f"From line {start}, a little above the answer.")
        with st.container(height=520, key="miss_view"):
            st.html(render_view(source.text, source.language, bands, answer=target, first_line=start))
    else:  # a table: its rows are drawn on the Tables page
        st.caption(f"target: {common.md(spec.path)} lines {spec.start_line}-{spec.end_line} · touched at rank "
                   f"{outcome.touched_rank or '-'} · returned: {common.md(', '.join(outcome.top) or 'none')} "
                   "(open the table on the Tables page to see its chunks)")

# ---- sweep ----------------------------------------------------------------------------------------
st.subheader("Parameter sweep")
unit = settings.unit
low, high, step = common.BUDGET_RANGES[unit]
# Budgets the sidebar can set (its slider moves in steps), so a best point can be carried over.
options = sorted({max(low, min(high, round(settings.budget * f / step) * step)) for f in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)})
grid_columns = st.columns(5)
# The choices follow the sidebar's budget and head weight: keep the picks that are still offered
# (a budget step must not empty the sweep), else start again from the defaults.
head_now = round(settings.head_weight * 100)
head_options = sorted({0, 30, 50, 70, head_now})
for key, offered, default in (("sweep_budgets", options, options[:4]), ("sweep_heads", head_options, [head_now])):
    picked = st.session_state.get(key)
    still = [v for v in picked or [] if v in offered]
    st.session_state[key] = default if picked is None or (picked and not still) else still
budgets = grid_columns[0].multiselect(f"Budgets ({common.UNIT_LABELS[unit]})", options, key="sweep_budgets")
overlaps = grid_columns[1].multiselect("Overlaps (% of budget, fixed)", [0, 10, 25], default=[0], key="sweep_overlaps")
crumbs = grid_columns[2].multiselect("Breadcrumb", [True, False], default=[True], key="sweep_crumbs")
heads = grid_columns[3].multiselect("Head weight (%, syntax)", head_options, key="sweep_heads")
sweep_mode = grid_columns[4].radio("Mode", MODES, index=2, key="sweep_mode")
run = st.toggle("Run the sweep over these values", key="sweep_on",
                help="Each setting is evaluated once and cached: change the values and only new ones run. A setting "
                     "not seen before chunks and embeds the whole corpus: small budgets take minutes each.")
if run:
    grid = {"budget": tuple(sorted(budgets)), "overlap_pct": tuple(sorted(overlaps)), "breadcrumb": tuple(crumbs),
            "head_pct": tuple(sorted(heads))}
    if not all(grid.values()):
        st.warning("Pick at least one value of each parameter.")
        st.stop()
    try:
        table = sweep_rows(grid, sweep_mode)
    except ChunkExplorerError as exc:
        common.error(exc)
        st.stop()
    frame = pd.DataFrame(table)
    whole = f"whole@{k}"
    if "error" in frame.columns:
        frame = frame[frame["error"].isna()] if frame["error"].notna().any() else frame.drop(columns=["error"])
    st.dataframe(frame, hide_index=True, width="stretch", column_config=three_decimals(frame))
    best = frame.sort_values([whole, f"in_context@{int(context)}"], ascending=False).iloc[0]
    frame["label"] = frame.apply(
        lambda r: f"syntax (crumb {r['breadcrumb']}, head {r['head_pct']}%)" if r["strategy"] == "syntax"
        else f"{r['strategy']} (overlap {r['overlap_pct']}%, crumb {r['breadcrumb']})", axis=1)
    line = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("budget:Q", title=f"budget ({common.UNIT_LABELS[unit]})"),
        y=alt.Y(f"{whole}:Q", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("label:N", legend=alt.Legend(orient="bottom", labelLimit=0, columns=2)),
        tooltip=list(frame.columns),
    )
    star = alt.Chart(pd.DataFrame([best])).mark_point(shape="diamond", size=300, color="#d62728", filled=True).encode(
        x="budget:Q", y=f"{whole}:Q")
    st.altair_chart((line + star).properties(height=280), width="stretch")
    best_settings = settings.with_(budget=int(best["budget"]), overlap=int(best["budget"]) * int(best["overlap_pct"]) // 100,
                                   breadcrumb=bool(best["breadcrumb"]), head_weight=int(best["head_pct"]) / 100)
    st.success(f"Best: {best['strategy']} at budget {int(best['budget'])}, overlap {best['overlap_pct']}%, "
               f"breadcrumb {best['breadcrumb']}, head weight {best['head_pct']}%: {whole} {best[whole]:.2f}")
    st.download_button("Best settings (JSON)", best_settings.to_json(), file_name="chunk-settings.json",
                       mime="application/json", key="dl_best")
    st.code(best_settings.cli_command("sample_repos", str(best["strategy"])), language="bash", wrap_lines=True)
