"""Page "Tables": naive windows that lose the header beside row batches that repeat it."""

from __future__ import annotations

import streamlit as st

from core.errors import ChunkExplorerError
from core.languages import TABLE_LANGUAGES, detect_language
from core.settings import TABLE_FORMATS
from core.sources import SourceFile, load_bytes
from pages import common

DEFAULT_TABLE = "sales.csv"
SHOWN = 24  # chunks drawn per side; the exports hold them all
PREVIEWS_SHOWN = 12  # tables previewed (a workbook of many sheets, a sheet of many tables)
TABLE_SOURCES = ("Sample", "Upload")
HEADER_CHOICES = ("detect", "yes", "no")

common.sidebar_settings()
common.intro(
    "A table's column names sit once, in its first row. Cut as plain text (left), every window "
    "after the first is a run of bare values: **`22, 1900` means nothing without `revenue, units`**. "
    "Cut as a table (right), each chunk is a batch of whole rows with the header repeated, and a "
    "profile chunk answers questions about the whole table (totals, ranges, most common values)."
)

samples = common.sample_tables()
defaults = {"tsource": TABLE_SOURCES[0], "table": DEFAULT_TABLE if DEFAULT_TABLE in samples else (samples or [""])[0],
            "rows": 0, "fmt": "csv", "has_header": "detect"}
common.seed_state(defaults, {"tsource": TABLE_SOURCES, "table": samples or None, "rows": (0, 500),
                             "fmt": TABLE_FORMATS, "has_header": HEADER_CHOICES})

left, middle, right = st.columns([2, 1, 1])
with left:
    kind = st.radio("Source", TABLE_SOURCES, key="tsource", horizontal=True)
    source: SourceFile | None = None
    if kind == "Sample":
        name = st.selectbox("Sample table", samples, key="table")
        if name:
            source = common.sample_table(name)
    else:
        # (No ``type=`` filter: the browser then refused another file with Streamlit's bare
        # "files are not allowed"; the page says what it reads, and where the file opens.)
        upload = st.file_uploader(
            "Upload a CSV, TSV or XLSX file", key="upload_table", on_change=common.forget_when_emptied("upload_table", "kept_table")
        )
        refused = False
        # (Kept in the session: the uploader is empty again after a visit to another page.)
        for upload_name, data in common.kept_uploads("kept_table", [(upload.name, upload.getvalue())] if upload else []):
            if detect_language(upload_name) not in TABLE_LANGUAGES:
                old_excel = upload_name.lower().endswith((".xls", ".xlsm", ".xlsb", ".ods"))
                common.error(f"{upload_name}: not a CSV, TSV or XLSX file; "
                             + ("save it as .xlsx or CSV" if old_excel else "code and text files open on the Explore code page"))
                refused = True
                continue
            xlsx = upload_name.lower().endswith(".xlsx")  # (a workbook has no text encoding)
            declared = None if xlsx else common.encoding_choice("tencoding", "the cells or column names read")
            try:
                source = load_bytes(upload_name, data, encoding=declared)
            except ChunkExplorerError as exc:
                common.error(exc)
                refused = True
with middle:
    rows = st.number_input("Rows per chunk (0: fill the budget)", 0, 500, step=5, key="rows")
    fmt = st.selectbox("Serialisation", TABLE_FORMATS, key="fmt")
with right:
    has_header = st.selectbox("Header row", HEADER_CHOICES, key="has_header",
                              help="Whether the first row holds column names; 'detect' decides from the data.")

if source is None:
    if not (kind != "Sample" and refused):  # (the error above says why; no hint beside it)
        st.info("Pick a sample table or upload one to start.")
    st.stop()
if source.language not in {"csv", "tsv", "xlsx"}:
    common.error(f"{source.path} is not a table; open it on the Explore code page.")
    st.stop()

settings = common.current_settings().with_(table_rows=int(rows) or None, table_format=fmt)
header_flag = {"detect": None, "yes": True, "no": False}[has_header]
try:
    previews = common.table_preview(source.path, source.language, common.table_bytes(source), header_flag,
                                    source.declared_encoding)
    chunks = {
        strategy: common.table_chunks_for(source.path, source.language, common.table_bytes(source),
                                          settings.chunk_key(), strategy, header_flag, source.declared_encoding)
        for strategy in ("fixed", "syntax")
    }
except ChunkExplorerError as exc:
    common.error(exc)
    st.stop()

for name, frame in list(previews.items())[:PREVIEWS_SHOWN]:
    encoding = frame.attrs.get("encoding")
    decoded = f" · not UTF-8: read as {encoding}" if encoding not in (None, "utf-8") else ""
    # (A preview that holds the whole table says so: "first 2 rows" of two said there were more.)
    some = "first {n} rows" if frame.attrs.get("more") else "its {n} rows"
    shown = common.plural(len(frame), "its one row", some) if len(frame) else "a header row, no data rows"
    st.markdown(f"**{common.name_md(name)}** · {shown}{decoded}")
    # Numbers as their cells write them, as the chunks do (119.00 was shown as 119).
    written = {column: st.column_config.NumberColumn(format=f"%.{places}f")
               for column, places in frame.attrs.get("decimals", {}).items()}
    st.dataframe(frame, height=220, width="stretch", column_config=written or None)
if len(previews) > PREVIEWS_SHOWN:
    st.caption(f"{len(previews) - PREVIEWS_SHOWN:,} more tables are not previewed here; their chunks are below "
               "and in the exports.")

metrics = {s: common.table_figures(chunks[s], settings.model) for s in chunks}
for strategy, title in (("fixed", "Naive windows"), ("syntax", "Table chunks")):
    figures = metrics[strategy]
    columns = common.figures_row(5)
    columns[0].markdown(f"**{title}**")
    profiles = sum(c.kind == "table_profile" for c in chunks[strategy])
    columns[1].metric("Chunks", len(chunks[strategy]),
                      help=common.plural(figures.chunks, "one chunk of rows", "{n} chunks of rows")
                      + (common.plural(profiles, " and a profile chunk", " and {n} profile chunks") if profiles else ""))
    columns[2].metric("Rows split", figures.rows_split, help="rows cut across two chunks")
    columns[3].metric("Without header", len(figures.without_header), help="chunks whose rows come without the column names")
    columns[4].metric("Over model limit", len(figures.over_model_limit),
                      help=f"longer than {figures.model_limit} tokens: silently truncated by the model")

over = set(metrics["syntax"].over_model_limit)
rows_over = [c for c in chunks["syntax"] if c.kind == "table_rows" and c.id in over]
if rows_over:
    limit = metrics["syntax"].model_limit
    largest = max(c.size for c in rows_over)
    unit = f" {rows_over[0].unit}"
    if settings.table_rows:
        st.warning(f"{len(rows_over):,} table chunks are longer than the model reads ({limit} tokens; up to "
                   f"{largest:,}{unit}): rows per chunk ({settings.table_rows}) is kept whatever the size. Lower it, "
                   "or set it to 0 to cut by the budget.")
    elif all(c.row_start == c.row_end for c in rows_over):
        # (A row can be long for its many columns or for one long cell: the advice covers both.
        # Naive windows fit only where they cut no row, having dropped the column names.)
        naive_fit = not metrics["fixed"].over_model_limit and not metrics["fixed"].rows_split
        st.warning(common.plural(len(rows_over), "A row", "{n} rows") + " with the column names "
                   + ("is" if len(rows_over) == 1 else "are each") + f" already longer than the model reads ({limit} "
                   f"tokens; up to {largest:,}{unit}): "
                   + common.plural(len(rows_over), "its chunk holds it alone", "each chunk holds one alone")
                   + ", flagged oversized, and the model cuts off the end. "
                   + ("The naive windows fit only because they drop the column names. " if naive_fit else "")
                   + "Shorten the longest cells or keep fewer columns, or use a model that reads more.")
    else:
        st.warning(f"{len(rows_over):,} table chunks are longer than the model reads ({limit} tokens; up to "
                   f"{largest:,}{unit}): lower the budget to {limit} tokens or less.")


naive, table = st.columns(2)
with naive:
    st.subheader("Naive windows")
    lost = set(metrics["fixed"].without_header)
    for index, chunk in enumerate(chunks["fixed"][:SHOWN], start=1):
        badge = " · ⚠️ header lost" if chunk.id in lost else ""
        st.caption(f"#{index} · lines {chunk.start_line}-{chunk.end_line} · {chunk.size} {chunk.unit}{badge}")
        common.show_text(chunk.embed_text)
with table:
    st.subheader("Table chunks")
    rows_chunks = [c for c in chunks["syntax"] if c.kind == "table_rows"]
    for index, chunk in enumerate(rows_chunks[:SHOWN], start=1):
        st.caption(f"#{index} · {common.name_md(chunk.symbol)} · rows {chunk.row_start}-{chunk.row_end} · {chunk.size} {chunk.unit}"
                   + (" · oversized" if "oversized" in chunk.flags else ""))
        common.show_text(chunk.embed_text)
shown = max(len(chunks["fixed"]), len(chunks["syntax"]))
if shown > SHOWN:
    st.caption(f"The first {SHOWN} chunks of each side are drawn; the exports below hold all of them.")

st.subheader("Profile chunk")
for chunk in (c for c in chunks["syntax"] if c.kind == "table_profile"):
    st.caption(f"{common.name_md(chunk.symbol)} · {chunk.size} {chunk.unit}")
    common.show_text(chunk.embed_text)

common.export_panel(chunks, settings, f"sample_repos/tables/{source.path}" if kind == "Sample" else source.path,
                    source.path.rsplit("/", 1)[-1], ([] if has_header == "detect" else ["--header", has_header])
                    + (["--encoding", source.declared_encoding] if source.declared_encoding else []))
# A link keeps the settings whatever the source; an upload's name stays out (the table is in this
# session only: the link opens on the upload box).
common.write_url({**common.SETTING_DEFAULTS, **{k: v for k, v in defaults.items() if kind == "Sample" or k != "table"}})
if kind != "Sample":
    st.caption("Links to this page keep the settings; uploads stay in your session only.")
