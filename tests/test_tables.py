"""Table chunking: the header in every chunk, whole rows, true spans, a profile that agrees with
pandas, formats that read back, budgets, the naive baseline, bad input, the CLI."""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings as hsettings, strategies as st

import core.table_csv
import core.table_fixed
import core.table_xlsx
from core.chunk import Chunk
from core.errors import InputError
from core.settings import DEFAULT_MODEL, ChunkSettings
from core.sizing import make_sizer, model_token_limit
from core.sources import SourceFile, load_bytes, load_file
from core.table_batch import MAX_COLUMNS, column_names
from core.table_format import parse_rows, serialise_header, serialise_rows, serialise_rows_py
from core.tables import (
    chunk_table_source,
    open_tables,
    profile_tables,
    read_table_preview,
    table_encoding,
    table_metrics,
    written_decimals,
)
from tests.helpers import ROOT, SAMPLES, plan_workbook

TABLES = SAMPLES / "tables"
SAMPLE_FILES = ["sales.csv", "inventory.csv", "weather_stations.csv", "support_tickets.csv", "employees.tsv", "budget.xlsx"]
FORMATS = ["csv", "markdown", "records"]


def sample(name: str) -> SourceFile:
    return load_file(TABLES / name, display=f"tables/{name}")


def on_disk(tmp_path: Path, name: str, data: bytes | str) -> SourceFile:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return load_file(path)


def row_chunks(chunks: list[Chunk]) -> list[Chunk]:
    return [c for c in chunks if c.kind == "table_rows"]


def reference_rows(name: str) -> dict[str, list[list[str]]]:
    """Every data row of a sample, read independently of core: csv module / openpyxl."""
    path = TABLES / name
    if name.endswith(".xlsx"):
        from core.table_xlsx import cell_text

        book = openpyxl.load_workbook(path, data_only=True)
        return {
            f"{name}#{sheet.title}": [[cell_text(v) for v in row] for row in sheet.iter_rows(min_row=2, values_only=True)]
            for sheet in book.worksheets
        }
    delimiter = "\t" if name.endswith(".tsv") else ","
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.reader(handle, delimiter=delimiter) if r]
    return {name: rows[1:]}


# --- the header, whole rows, every row once ---------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_row_chunk_repeats_the_header(name: str, fmt: str) -> None:
    chunks = chunk_table_source(sample(name), ChunkSettings(table_format=fmt), "syntax")
    rows = row_chunks(chunks)
    assert len(rows) > 1
    for chunk in rows:
        assert chunk.strategy == "table" and chunk.columns
        assert chunk.header == serialise_header(chunk.columns, fmt)
        crumb = f"# tables/{name} :: {chunk.symbol}\n"
        assert chunk.embed_text.startswith(crumb + chunk.header + "\n")


@pytest.mark.parametrize(
    "settings",
    [
        ChunkSettings(),
        ChunkSettings(budget=120, unit="tokens", table_format="markdown"),
        ChunkSettings(budget=300, unit="chars", table_format="records"),
        ChunkSettings(budget=150, unit="nws"),
        ChunkSettings(budget=6, unit="lines", table_format="markdown"),
        ChunkSettings(table_rows=3, table_format="records"),
    ],
    ids=["default", "tokens-md", "chars-records", "nws", "lines-md", "rows3"],
)
@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_rows_are_whole_and_each_appears_once(name: str, settings: ChunkSettings) -> None:
    chunks = chunk_table_source(sample(name), settings, "syntax")
    expected = reference_rows(name)
    for table, rows in expected.items():
        mine = [c for c in row_chunks(chunks) if c.symbol == table]
        # Consecutive, non-overlapping row ranges from 1 to the last row.
        assert mine[0].row_start == 1
        for a, b in zip(mine, mine[1:]):
            assert b.row_start == a.row_end + 1
        assert mine[-1].row_end == len(rows)
        # The serialised rows read back to exactly the source's cells, in order.
        cells = []
        for chunk in mine:
            body = chunk.embed_text[chunk.embed_text.index(chunk.header) + len(chunk.header) + 1 :]
            parsed = parse_rows(body, chunk.columns, settings.table_format)
            assert len(parsed) == chunk.row_end - chunk.row_start + 1
            cells.extend(parsed)
        width = len(mine[0].columns)
        assert cells == [row + [""] * (width - len(row)) for row in rows]
        if settings.table_rows:
            assert all(c.row_end - c.row_start + 1 <= settings.table_rows for c in mine)


@pytest.mark.parametrize("name", [n for n in SAMPLE_FILES if not n.endswith(".xlsx")])
def test_text_is_the_files_own_bytes_and_lines(name: str) -> None:
    data = (TABLES / name).read_bytes()
    for chunk in row_chunks(chunk_table_source(sample(name), ChunkSettings(budget=100), "syntax")):
        assert chunk.text == data[chunk.start_byte : chunk.end_byte].decode("utf-8")
        assert chunk.start_line == data.count(b"\n", 0, chunk.start_byte) + 1
        assert chunk.end_line == data.count(b"\n", 0, chunk.end_byte) + 1


def test_multiline_cells_stay_in_one_chunk_with_their_physical_lines() -> None:
    chunks = row_chunks(chunk_table_source(sample("support_tickets.csv"), ChunkSettings(table_rows=1), "syntax"))
    t4102 = next(c for c in chunks if c.text.startswith("T-4102"))
    assert (t4102.start_line, t4102.end_line) == (4, 8)
    assert t4102.text.count("\n") == 4 and t4102.text.endswith(",open,high,Jonas")
    t4113 = next(c for c in chunks if c.text.startswith("T-4113"))
    assert "\n\nSuggested fix" in t4113.text  # a blank line inside a quoted cell is no row break


def test_xlsx_chunks_use_sheet_rows_and_csv_text() -> None:
    chunks = chunk_table_source(sample("budget.xlsx"), ChunkSettings(table_rows=4), "syntax")
    assert {c.symbol for c in chunks} == {"budget.xlsx#Q1", "budget.xlsx#Q2"}
    first = row_chunks(chunks)[0]
    assert (first.start_line, first.end_line, first.start_byte, first.end_byte) == (2, 5, 0, 0)
    assert first.text.splitlines()[0] == "Engineering,CC-100,Johan Nyström,820000,846300,41,2024-04-12,Cloud costs above plan after the load-test week"
    q2 = [c for c in row_chunks(chunks) if c.symbol.endswith("#Q2")]
    assert "Facilities,CC-500,Peter Lund,230000,,3,2024-07-12,Actuals not booked yet" in q2[-1].text


def test_ids_are_stable_and_unique() -> None:
    settings = ChunkSettings(budget=100)
    for name in SAMPLE_FILES:
        first = chunk_table_source(sample(name), settings, "syntax")
        again = chunk_table_source(sample(name), settings, "syntax")
        ids = [c.id for c in first]
        assert ids == [c.id for c in again] and len(set(ids)) == len(ids)
        other = chunk_table_source(sample(name), settings.with_(table_format="markdown"), "syntax")
        assert not {c.id for c in row_chunks(first)} & {c.id for c in row_chunks(other)}


# --- budgets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("unit,budget", [("tokens", 90), ("chars", 260), ("nws", 200), ("lines", 4)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_sizes_are_true_and_budgets_respected_or_flagged(unit: str, budget: int, fmt: str) -> None:
    sizer = make_sizer(unit, DEFAULT_MODEL)
    settings = ChunkSettings(budget=budget, unit=unit, table_format=fmt)
    for name in ("sales.csv", "inventory.csv", "support_tickets.csv", "weather_stations.csv"):
        for chunk in chunk_table_source(sample(name), settings, "syntax"):
            assert chunk.size == sizer.measure(chunk.embed_text) and chunk.unit == unit
            if chunk.size > budget:
                assert "oversized" in chunk.flags
                if chunk.kind == "table_rows":
                    assert chunk.row_start == chunk.row_end, "only a single row may be over the budget"
            else:
                assert "oversized" not in chunk.flags


def test_budget_packing_is_greedy() -> None:
    settings = ChunkSettings(budget=400, unit="chars")
    sizer = make_sizer("chars")
    chunks = row_chunks(chunk_table_source(sample("sales.csv"), settings, "syntax"))
    rows = reference_rows("sales.csv")["sales.csv"]
    columns = chunks[0].columns
    for chunk in chunks[:-1]:
        # One more row would not have fitted.
        bigger = chunk.embed_text + "\n" + serialise_rows_py([rows[chunk.row_end]], columns, "csv")[0]
        assert sizer.measure(bigger) > 400


def test_row_count_batches_flag_chunks_over_the_budget() -> None:
    chunks = row_chunks(chunk_table_source(sample("weather_stations.csv"), ChunkSettings(table_rows=5), "syntax"))
    assert [c.row_end - c.row_start + 1 for c in chunks] == [5, 5, 5, 5]
    assert all("oversized" in c.flags for c in chunks)


# --- the profile ------------------------------------------------------------------------------


def pandas_frames(name: str) -> dict[str, pd.DataFrame]:
    path = TABLES / name
    if name.endswith(".xlsx"):
        return {f"{name}#{k}": v for k, v in pd.read_excel(path, sheet_name=None).items()}
    return {name: pd.read_csv(path, sep="\t" if name.endswith(".tsv") else ",")}


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_profile_agrees_with_pandas(name: str) -> None:
    frames = pandas_frames(name)
    profiles = {p.name: p for p in profile_tables(sample(name))}
    assert set(profiles) == set(frames)
    for table, frame in frames.items():
        profile = profiles[table]
        assert profile.rows == len(frame)
        assert [c.name for c in profile.columns] == list(frame.columns)
        for col in profile.columns:
            series = frame[col.name]
            assert col.count == int(series.notna().sum()), col.name
            assert col.missing == int(series.isna().sum()), col.name
            if col.kind in ("integer", "decimal"):
                assert pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series), col.name
                assert col.min == pytest.approx(series.min()) and col.max == pytest.approx(series.max())
                assert col.sum == pytest.approx(series.sum(), rel=1e-12)
                assert col.mean == pytest.approx(series.mean(), rel=1e-12)
            elif col.kind == "date":
                stamps = pd.to_datetime(series)
                assert col.first_date == str(stamps.min().date()) and col.last_date == str(stamps.max().date())
            else:
                assert not pd.api.types.is_numeric_dtype(series), col.name
                counts = series.value_counts()
                assert col.distinct == series.nunique(), col.name
                top_value, top_count = col.most_common(1)[0]
                assert top_count == counts.iloc[0] and counts[top_value] == top_count


def test_profile_chunk_answers_aggregates_and_spans_the_table() -> None:
    chunks = chunk_table_source(sample("sales.csv"), ChunkSettings(), "syntax")
    profile = [c for c in chunks if c.kind == "table_profile"]
    assert profile and all(p.size <= 254 for p in profile)
    assert [p.part for p in profile] == list(range(1, len(profile) + 1))
    assert all((p.start_line, p.end_line, p.row_start, p.row_end) == (1, 49, 1, 48) for p in profile)
    total_q2 = round(pd.read_csv(TABLES / "sales.csv")["q2_revenue"].sum(), 2)
    text = "\n".join(p.text for p in profile)
    assert "q2_revenue (decimal): 48 values, 0 missing" in text
    assert f"total (sum) {total_q2:.0f}," in text and total_q2 == int(total_q2)  # the sample's sums are whole
    assert "region (text): 48 values, 0 missing; 4 distinct; most common: East (12)" in text
    assert all(p.header.startswith("table sales.csv: 48 rows x 10 columns") for p in profile)


def test_profile_keeps_small_decimals_and_takes_hexadecimal_for_text(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "c.csv", "name,colour,tiny\nred,0xFF0000,0.0000012\ngreen,0x00FF00,0.0000034\n")
    (profile,) = [c for c in chunk_table_source(source, ChunkSettings(), "syntax") if c.kind == "table_profile"]
    assert "colour (text): 2 values" in profile.text  # not the integers 16711680 and 65280
    assert "tiny (decimal): 2 values, 0 missing; min 1.2e-06, max 3.4e-06, total (sum) 4.6e-06" in profile.text
    preview = read_table_preview(source)["c.csv"]
    assert list(preview["colour"]) == ["0xFF0000", "0x00FF00"] and preview["tiny"].max() == 3.4e-06


@pytest.mark.parametrize(("text", "expected"), [
    ("item,qty\na,1\nb,2\nc,NAN\n", "qty (text): 3 values"),  # not one of pandas' missing markers
    ("item,qty\na,1\nb,2\nc,+nan\n", "qty (text): 3 values"),
    ("item,qty\na, 1\nb,+3\nc,4\n", "qty (integer): 3 values, 0 missing; min 1, max 4, total (sum) 8"),
    ("item,qty\na,1\nb,nan\nc,4\n", "qty (integer): 2 values, 1 missing"),
], ids=["NAN", "plus-nan", "signed-and-padded-integers", "a-missing-marker"])
def test_profile_reads_numbers_as_pandas_does(tmp_path: Path, text: str, expected: str) -> None:
    source = on_disk(tmp_path, "n.csv", text)
    (profile,) = [c for c in chunk_table_source(source, ChunkSettings(), "syntax") if c.kind == "table_profile"]
    assert expected in profile.text, profile.text
    kind = pd.read_csv(io.StringIO(text))["qty"].dtype
    if "(text)" in expected:
        assert not pd.api.types.is_numeric_dtype(kind)
    elif "0 missing" in expected:
        assert pd.api.types.is_integer_dtype(kind)
    else:  # pandas has no missing integers: float64 (ours says integer, the values are)
        assert pd.api.types.is_float_dtype(kind)


@pytest.mark.parametrize(("text", "expected"), [
    # Ids past int64: exact, not a float's 1.2345678901234569e+23.
    ("id,qty\n123456789012345678901234,2\n-123456789012345678901235,3\n9,4\n",
     "id (integer): 3 values, 0 missing; min -123456789012345678901235, max 123456789012345678901234, total (sum) 8, "),
    ("id,qty\n 18446744073709551616,2\n+1,3\n",  # padded and signed as pandas reads them
     "id (integer): 2 values, 0 missing; min 1, max 18446744073709551616, total (sum) 18446744073709551617, "),
    ("id,qty\n123456789012345678901234.0,2\n1,3\n", "id (decimal): 2 values"),  # written as a decimal
    ("id,qty\n1" + "0" * 400 + ",2\n1,3\n", "id (decimal): 2 values, 0 missing; min 1, max inf"),  # past a float
], ids=["past-int64", "past-uint64-padded", "a-decimal-point", "past-float-range"])
def test_profile_keeps_integers_past_int64_exact(tmp_path: Path, text: str, expected: str) -> None:
    source = on_disk(tmp_path, "ids.csv", text)
    (profile,) = [c for c in chunk_table_source(source, ChunkSettings(), "syntax") if c.kind == "table_profile"]
    assert expected in profile.text, profile.text


def test_profile_streams_large_columns_in_bounded_state(tmp_path: Path) -> None:
    lines = ["id,city,amount"] + [f"{i},City {i % 7},{i * 0.5}" for i in range(200_000)]
    source = on_disk(tmp_path, "big.csv", "\n".join(lines) + "\n")
    (profile,) = profile_tables(source)
    ids, city, amount = profile.columns
    assert profile.rows == 200_000 and ids.kind == "integer" and ids.sum == sum(range(200_000))
    assert city.distinct == 7 and city.most_common(1)[0][1] == 200_000 // 7 + 1
    assert amount.sum == pytest.approx(sum(i * 0.5 for i in range(200_000)))


def test_profile_across_many_batches_agrees_with_pandas_and_with_one_batch(tmp_path: Path, monkeypatch) -> None:
    """Text columns are tallied by a faster route once known to be text (after the first
    batch): missing markers turning up only in later batches, in a column with a most-common
    list and in one of mostly different values, must count as pandas counts them."""
    markers = ["", "NA", "null", "None", "N/A", "nan"]
    lines = ["id,city,code,amount"]
    for i in range(6000):
        city = markers[i % 6] if i > 2500 and i % 5 == 0 else f"City {i % 9}"
        code = markers[i % 6] if i > 3000 and i % 7 == 0 else f"K{i * 7919 % 100003}"
        lines.append(f"{i},{city},{code},{i % 13 * 0.25}")
    source = on_disk(tmp_path, "many.csv", "\n".join(lines) + "\n")
    (whole,) = profile_tables(source)
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 32768)
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 32768)  # ~1,300 rows a batch
    (batched,) = profile_tables(source)
    frame = pd.read_csv(tmp_path / "many.csv")
    for col in batched.columns:
        series = frame[col.name]
        assert col.count == int(series.notna().sum()) and col.missing == int(series.isna().sum()), col.name
        if col.kind == "text":
            assert col.distinct == series.nunique(), col.name
    city = batched.columns[1]
    assert city.most_common(9) == sorted(frame["city"].value_counts().items(), key=lambda kv: (-kv[1], kv[0]))
    assert not batched.columns[2].top_tracked  # mostly different values: distinct counts only
    one = whole.columns
    assert [(c.count, c.missing, c.distinct, c.most_common()) for c in batched.columns[1:3]] == [
        (c.count, c.missing, c.distinct, c.most_common()) for c in one[1:3]
    ]


def test_a_column_that_turns_to_text_late_says_which_rows_its_most_common_values_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dates for 4,000 rows, then a word: the most-common list counted only the rows from the
    # batch of the word on, and ranked as if it were the whole column.
    lines = ["id,d"] + [f"{i},2024-01-{1 + i % 3:02d}" for i in range(4000)] + ["4000,not a date"]
    lines += [f"{i},2024-02-{1 + i % 2:02d}" for i in range(4001, 4600)]
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 32768)
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 32768)
    profile = _profile_text(chunk_table_source(on_disk(tmp_path, "late.csv", "\n".join(lines) + "\n"),
                                               ChunkSettings(table_rows=500), "syntax"))
    (line,) = [text for text in profile.splitlines() if text.startswith("- d (text)")]
    first = int(re.search(r"most common from row ([\d,]+) on: ", line)[1].replace(",", ""))
    assert 1 < first <= 4001 and "~" in line


def test_a_stray_quote_that_joins_rows_into_one_cell_is_noted(tmp_path: Path) -> None:
    # ``2,"b`` opened a cell that took rows 3 and 4 into it: 3 rows, silently (pandas too).
    chunks = chunk_table_source(on_disk(tmp_path, "m.csv", 'id,name\n1,"a"\n2,"b\n3,c\n4,"d"\n5,e\n'), ChunkSettings(), "syntax")
    header = next(c for c in chunks if c.kind == "table_profile").header
    assert "table m.csv: 3 rows x 2 columns" in header
    assert "a quoted cell holds lines shaped as rows of this table (line 3): a stray quote may have joined" in header
    # An address over two lines in a wider table is no such thing.
    text = 'id,name,addr\n1,"a","12 Main St\nSpringfield, IL"\n2,b,c\n'
    header = next(c for c in chunk_table_source(on_disk(tmp_path, "a.csv", text), ChunkSettings(), "syntax") if c.kind == "table_profile").header
    assert "stray quote" not in header


def test_a_column_of_distinct_values_past_the_tracked_ones_says_every_value_differs(tmp_path: Path) -> None:
    # Past the values whose counts are kept, every id different read "mostly different values".
    ids = "".join(f"K{i}\n" for i in range(3000))
    text = _profile_text(chunk_table_source(on_disk(tmp_path, "ids.csv", "code\n" + ids), ChunkSettings(), "syntax"))
    assert "- code (text): 3000 values, 0 missing; 3000 distinct (every value different)" in text
    assert "table ids.csv: 3000 rows x 1 column\n" in text + "\n"
    some = "".join(f"K{i % 2000}\n" for i in range(3000))
    text = _profile_text(chunk_table_source(on_disk(tmp_path, "some.csv", "code\n" + some), ChunkSettings(), "syntax"))
    assert "2000 distinct (mostly different values)" in text


# --- serialisations ---------------------------------------------------------------------------

CELL = st.text(alphabet=st.sampled_from(list('ab ,;:|\\"\'\n\r\tüé<br>x')), max_size=12)


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.lists(CELL, min_size=3, max_size=3), min_size=1, max_size=6), fmt=st.sampled_from(FORMATS))
def test_every_format_reads_back_to_the_same_cells(rows: list[list[str]], fmt: str) -> None:
    import pyarrow as pa

    columns = ("name", "a:b;c", "x|y")
    arrow = serialise_rows([pa.array(col, type=pa.string()) for col in zip(*rows)], columns, fmt).to_pylist()
    assert arrow == serialise_rows_py(rows, columns, fmt)
    assert parse_rows("\n".join(arrow), columns, fmt) == rows
    assert "\n" not in "".join(arrow) or fmt == "csv"  # markdown and records: one line per row


def test_single_empty_cell_rows_survive_csv() -> None:
    import pyarrow as pa

    serial = serialise_rows([pa.array(["", "a", ""])], ("only",), "csv").to_pylist()
    assert serial == ['""', "a", '""'] and parse_rows("\n".join(serial), ("only",), "csv") == [[""], ["a"], [""]]


# --- the CSV reader: fast path and exact path agree ------------------------------------------

FIELD = st.text(alphabet=st.sampled_from(list('ab1 ,"\n\ré')), max_size=6)


@hsettings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(st.lists(FIELD, min_size=3, max_size=3), min_size=1, max_size=30),
    crlf=st.booleans(),
    blank_every=st.integers(min_value=0, max_value=5),
)
def test_reader_matches_python_csv_across_blocks(monkeypatch, tmp_path_factory, rows, crlf, blank_every) -> None:
    out = io.StringIO()
    # (csv.writer leaves a lone CR unquoted with "\n" line ends: quote everything then.)
    quoting = csv.QUOTE_ALL if any("\r" in c for r in rows for c in r) else csv.QUOTE_MINIMAL
    csv.writer(out, lineterminator="\r\n" if crlf else "\n", quoting=quoting).writerows([["h1", "h2", "h3"], *rows])
    lines = out.getvalue().splitlines(keepends=True)
    if blank_every:  # blank lines between records (outside quotes: after a complete record)
        text = "".join(line + ("\n" if k % blank_every == 0 and not line.endswith(('"\n', '"\r\n')) else "")
                       for k, line in enumerate(lines))  # fmt: skip
    else:
        text = "".join(lines)
    data = text.encode("utf-8")
    expected = [r for r in csv.reader(io.StringIO(text, newline="")) if r][1:]
    # Tiny blocks: every few records start a new block, so records cross block boundaries.
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 48)
    # One table: a record under a blank line or a ",," one may head a report's next table (the
    # sections' own tests say when); here every record is a row.
    monkeypatch.setattr(core.table_csv, "_sections", lambda text: ([], False))
    path = tmp_path_factory.mktemp("t") / "t.csv"
    path.write_bytes(data)
    got: list[list[str]] = []
    with open_tables(load_file(path), has_header=True) as tables:
        table = next(tables)
        try:
            batches = list(table.batches)
        except InputError:
            assert not expected or all(not any(c.strip() for c in r) for r in expected)
            return
    for batch in batches:
        cells = [col.to_pylist() for col in batch.columns]
        for k in range(len(batch)):
            row = [cells[j][k] for j in range(3)]
            got.append(row)
            span = data[int(batch.start_byte[k]) : int(batch.end_byte[k])].decode("utf-8")
            assert next(csv.reader(io.StringIO(span, newline=""))) == row
            assert int(batch.start_line[k]) == data.count(b"\n", 0, int(batch.start_byte[k])) + 1
    blank = [r for r in expected if len(r) == 1 and not r[0].strip()]  # whitespace-only lines: no rows
    empty = [r for r in expected if len(r) > 1 and not any(r)]  # rows of empty cells alone (",,"): none either
    assert got == [r for r in expected if r not in blank and r not in empty]


RAW = st.text(alphabet=st.sampled_from(list('a1,,"" \n\n\ré')), min_size=1, max_size=80)


@hsettings(max_examples=300, deadline=None)
@given(text=RAW, final=st.booleans())
# A bare CR that Arrow read as a record's end, which the csv module refuses (found by this test).
@example(text='\r1",,"\n', final=False)
def test_fast_path_agrees_with_the_exact_path_or_steps_aside(text: str, final: bool) -> None:
    """Any bytes at all, stray quotes included: whenever the vectorised path answers, it gives
    the csv module's rows and spans."""
    from core.table_csv import Dialect, _parse_exact, _to_columns
    from core.table_csv_fast import parse_fast

    buf = text.encode("utf-8")
    fast = parse_fast(buf, base=10, base_line=3, final=final, delimiter=",", quotechar='"', width=3, first_row=1)
    if fast is None:
        return
    batch, consumed, breaks = fast
    assert breaks == buf.count(b"\n", 0, consumed)
    # The fast path claims buf[:consumed] is whole records: the csv module must read the same.
    try:
        exact = _parse_exact(buf[:consumed], base=10, base_line=3, final=True, encoding="utf-8", dialect=Dialect(), path="t")
        cells, _ = _to_columns(exact, 3, ("a", "b", "c"), "t")
    except InputError:
        pytest.fail("the fast path accepted what the exact path refuses")
    assert [list(r) for r in zip(*(c.to_pylist() for c in batch.columns))] == [
        list(r) for r in zip(*(c.to_pylist() for c in cells))
    ]
    assert batch.start_byte.tolist() == exact.start_byte and batch.end_byte.tolist() == exact.end_byte
    assert batch.start_line.tolist() == exact.start_line and batch.end_line.tolist() == exact.end_line
    if final:
        assert consumed == len(buf)


@pytest.mark.parametrize("table_rows,block", [(None, 1000), (7, 1000), (7, 64), (60, 300)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_big_file_streams_in_blocks_identically(
    tmp_path: Path, monkeypatch, table_rows: int | None, block: int, fmt: str
) -> None:
    lines = ["n,word,note"] + [f'{i},w{i % 13},"multi\nline {i}"' if i % 50 == 0 else f"{i},w{i % 13},plain"
                                for i in range(3000)]  # fmt: skip
    source = on_disk(tmp_path, "s.csv", "\n".join(lines) + "\n")
    settings = ChunkSettings(budget=300, unit="chars", table_rows=table_rows, table_format=fmt)
    whole = chunk_table_source(source, settings, "syntax")
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 4096)  # (the top is read whole first)
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", block)
    blocks = chunk_table_source(source, settings, "syntax")
    assert [c.id for c in blocks] == [c.id for c in whole]
    assert [c.to_dict() for c in blocks] == [c.to_dict() for c in whole]
    if table_rows:
        sizes = [table_rows] * (3000 // table_rows) + ([3000 % table_rows] if 3000 % table_rows else [])
        assert [c.row_end - c.row_start + 1 for c in row_chunks(blocks)] == sizes


def test_row_chunk_ids_are_chunk_id_of_their_parts() -> None:
    """Row chunk ids are hashed from a precomputed state: they must stay chunk_id's."""
    from core.chunk import chunk_id

    for name in ("sales.csv", "support_tickets.csv", "budget.xlsx"):
        for fmt in FORMATS:
            for chunk in row_chunks(chunk_table_source(sample(name), ChunkSettings(table_format=fmt), "syntax")):
                span = f"{chunk.row_start}-{chunk.row_end}@{chunk.start_byte}-{chunk.end_byte}:{chunk.start_line}-{chunk.end_line}"
                assert chunk.id == chunk_id(chunk.path, "table_rows", chunk.symbol, span, chunk.embed_text)


def test_chunking_can_stop_early_and_errors_in_the_reader_reach_the_caller(tmp_path: Path, monkeypatch) -> None:
    """Batches are read in a worker thread: leaving the loop early must stop it cleanly, and a
    reading error must surface in the caller (as before, with its line)."""
    from core.tables import iter_table_chunks

    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 1024)
    rows = "".join(f"{i},name {i}\n" for i in range(5000))
    source = on_disk(tmp_path, "ok.csv", "id,name\n" + rows)
    chunks = iter_table_chunks(source, ChunkSettings(table_rows=10), "syntax")
    first = [next(chunks) for _ in range(3)]
    chunks.close()
    assert [c.row_start for c in first] == [1, 11, 21]
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 4096)
    monkeypatch.setattr(core.table_csv, "_SNIFF_CHARS", 1024)
    bad = on_disk(tmp_path, "bad.csv", ("id,name\n" + rows).encode("utf-8") + b"5000,caf\xe9\n")
    with pytest.raises(InputError, match=r"bad\.csv: line 5002: bytes that are not valid utf-8"):
        for _ in iter_table_chunks(bad, ChunkSettings(table_rows=10), "syntax"):
            pass


# --- headers ----------------------------------------------------------------------------------


def test_headerless_table_gets_generated_names(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "h.csv", "1,Oslo,12.5\n2,Bergen,9.1\n3,Tromsø,3.3\n")
    chunks = chunk_table_source(source, ChunkSettings(), "syntax")
    assert chunks[0].columns == ("column_1", "column_2", "column_3")
    assert all("generated_header" in c.flags for c in chunks)
    assert row_chunks(chunks)[0].row_start == 1 and row_chunks(chunks)[0].start_line == 1
    profile = next(c for c in chunks if c.kind == "table_profile")
    assert "no header row in the source" in profile.embed_text and "3 rows" in profile.header


@pytest.mark.parametrize("text,header", [
    ("country,2022,2023,2024\nNorway,5.4,5.5,5.6\nChile,3.1,3.0,2.9\n", True),  # years over figures
    ("name,born,died\nAda,1815,1852\nAlan,1912,1954\n", True),  # a text header over years
    ("Ada,1815,1852\nAlan,1912,1954\nGrace,1906,1992\n", False),  # years over years: data
    ("Norway,2022,2023\nChile,2019,2020\n", False),
    ("id,2023,2023\na,15,7\n", False),  # the same year twice heads nothing
    ("country,2022,2023\nFrance,1500,1987\nSpain,12,14\nItaly,9,8\n", True),  # one year-like figure below
    (",2022,2023\nNorway,5.4,5.5\nChile,3.1,3.0\n", True),  # a pivot table's blank corner
    ("product,price,2023\nA,3,10\nB,4,12\n", True),  # one year, beside a text header over numbers
    ("Widget,Blue,2023\nGadget,Red,2021\nThing,Green,2019\n", False),  # one year over years: data
    ("Widget,Blue,2023\nGadget,Red,17\nThing,Green,4\n", False),  # no text cell heads numbers: data
])
def test_a_row_of_years_over_figures_is_a_header(tmp_path: Path, text: str, header: bool) -> None:
    (chunk, *_) = chunk_table_source(on_disk(tmp_path, "wide.csv", text), ChunkSettings(), "syntax")
    names = tuple(name or f"column_{j + 1}" for j, name in enumerate(text.split("\n")[0].split(",")))
    assert (chunk.columns == names) is header
    assert ("generated_header" in chunk.flags) is not header


def test_has_header_can_be_forced(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "names.csv", "Alice,Paris\nBob,London\nCarla,Rome\n")
    detected = chunk_table_source(source, ChunkSettings(), "syntax")
    assert detected[0].columns == ("Alice", "Paris")  # an all-text table looks like it has a header
    forced = chunk_table_source(source, ChunkSettings(), "syntax", has_header=False)
    assert forced[0].columns == ("column_1", "column_2") and forced[0].row_end == 3


def test_blank_and_duplicate_header_names_are_made_usable(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "d.csv", "name,,name,value\na,b,c,1\nd,e,f,2\n")
    (chunk, *_) = chunk_table_source(source, ChunkSettings(), "syntax")
    assert chunk.columns == ("name", "column_2", "name_2", "value")


@pytest.mark.parametrize("header,names", [
    (["a", "a", "a_2"], ("a", "a_3", "a_2")),  # the file's own "a_2" keeps its name
    (["", "column_1", ""], ("column_1_2", "column_1", "column_3")),
    (["a", "a", "a_2", "a_2"], ("a", "a_3", "a_2", "a_2_2")),
])
def test_renamed_columns_never_take_a_name_the_header_holds(header: list[str], names: tuple[str, ...]) -> None:
    assert column_names(header, len(header)) == names


def test_an_excel_sep_line_names_the_delimiter_and_is_no_row(tmp_path: Path) -> None:
    data = "\ufeffsep=;\r\nname;note;amount\r\nAda;a, b;1,5\r\nAlan;c;2\r\n".encode("utf-8")
    source = on_disk(tmp_path, "excel.csv", data)
    chunks = chunk_table_source(source, ChunkSettings(), "syntax")
    (rows,) = row_chunks(chunks)
    assert rows.columns == ("name", "note", "amount") and (rows.row_start, rows.row_end) == (1, 2)
    assert (rows.start_line, rows.end_line) == (3, 4) and rows.text == data[rows.start_byte : rows.end_byte].decode()
    assert rows.text == "Ada;a, b;1,5\r\nAlan;c;2"
    profile = next(c for c in chunks if c.kind == "table_profile")
    assert (profile.start_line, profile.end_line) == (2, 4)
    for bare in ("sep=,\n", "sep=,"):
        with pytest.raises(InputError, match="empty table"):
            chunk_table_source(on_disk(tmp_path, "bare.csv", bare), ChunkSettings(), "syntax")


def test_semicolon_file_and_bom_and_crlf(tmp_path: Path) -> None:
    data = "\ufeffprodukt;pris;antal\r\nÄpple;1,5;10\r\nPäron;2,25;4\r\n".encode("utf-8")
    source = on_disk(tmp_path, "se.csv", data)
    chunks = chunk_table_source(source, ChunkSettings(), "syntax")
    rows = row_chunks(chunks)[0]
    assert rows.columns == ("produkt", "pris", "antal")
    assert rows.text == data[rows.start_byte : rows.end_byte].decode("utf-8") == "Äpple;1,5;10\r\nPäron;2,25;4"
    assert rows.start_byte == len("\ufeffprodukt;pris;antal\r\n".encode("utf-8"))


# --- the naive baseline and the metrics -------------------------------------------------------


def test_fixed_windows_lose_the_header_and_cut_rows() -> None:
    settings = ChunkSettings(budget=60)
    fixed = chunk_table_source(sample("support_tickets.csv"), settings, "fixed")
    table = chunk_table_source(sample("support_tickets.csv"), settings, "syntax")
    assert {c.strategy for c in fixed} == {"fixed"} and all(not c.header for c in fixed)
    data = (TABLES / "support_tickets.csv").read_bytes()
    for chunk in fixed:
        assert chunk.text == data[chunk.start_byte : chunk.end_byte].decode("utf-8")
        assert chunk.start_line == data.count(b"\n", 0, chunk.start_byte) + 1
    naive, ours = table_metrics(fixed), table_metrics(table)
    assert naive.rows == ours.rows == 14
    assert naive.rows_split > 0 and len(naive.without_header) == naive.chunks - 1
    assert ours.rows_split == 0 and ours.without_header == ()
    assert ours.model_limit == model_token_limit(DEFAULT_MODEL)


def test_fixed_windows_stream_in_blocks_like_one_pass(tmp_path: Path, monkeypatch) -> None:
    lines = ["id,text"] + [f"{i},{'word ' * (i % 9)}" for i in range(2000)]
    source = on_disk(tmp_path, "f.csv", "\n".join(lines) + "\n")
    settings = ChunkSettings(budget=120, overlap=20)
    whole = chunk_table_source(source, settings, "fixed")
    monkeypatch.setattr(core.table_fixed, "BLOCK_BYTES", 2048)
    assert [(c.id, c.start_line, c.row_start, c.row_end) for c in chunk_table_source(source, settings, "fixed")] == [
        (c.id, c.start_line, c.row_start, c.row_end) for c in whole
    ]


def test_fixed_windows_over_a_sheet_index_its_csv_rendering() -> None:
    fixed = chunk_table_source(sample("budget.xlsx"), ChunkSettings(budget=80), "fixed")
    assert {c.symbol for c in fixed} == {"budget.xlsx#Q1", "budget.xlsx#Q2"}
    first = fixed[0]
    assert first.start_line == 1 and first.text.startswith("department,cost_center,owner")
    metrics = table_metrics(fixed)
    assert metrics.tables == 2 and metrics.rows == 20


def test_metrics_count_chunks_over_the_model_limit() -> None:
    chunks = chunk_table_source(sample("weather_stations.csv"), ChunkSettings(table_rows=4), "syntax")
    metrics = table_metrics(chunks)
    over = {c.id for c in chunks if c.size > model_token_limit(DEFAULT_MODEL)}
    assert set(metrics.over_model_limit) == over and over
    by_chars = chunk_table_source(sample("weather_stations.csv"), ChunkSettings(table_rows=4, unit="chars", budget=800), "syntax")
    over_by_chars = set(table_metrics(by_chars).over_model_limit)
    # Sized in characters, the same row chunks are still measured with the model's tokenizer.
    assert len([c for c in row_chunks(by_chars) if c.id in over_by_chars]) == len([c for c in row_chunks(chunks) if c.id in over]) == 5


# --- preview ----------------------------------------------------------------------------------


def test_preview_frames_carry_chunk_columns_and_types() -> None:
    frames = read_table_preview(sample("budget.xlsx"), max_rows=5)
    assert list(frames) == ["budget.xlsx#Q1", "budget.xlsx#Q2"]
    q1 = frames["budget.xlsx#Q1"]
    assert len(q1) == 5 and list(q1.index) == [1, 2, 3, 4, 5]
    assert pd.api.types.is_integer_dtype(q1["budget_eur"]) and pd.api.types.is_datetime64_any_dtype(q1["review_date"])
    inventory = read_table_preview(sample("inventory.csv"))["inventory.csv"]
    assert inventory["qty_on_hand"].isna().sum() == 3 and inventory.loc[1, "sku"] == "HW-1001"


def test_the_preview_shows_numbers_as_their_cells_write_them(tmp_path: Path) -> None:
    # The preview showed 119 and 63189 where the cells, and so the chunks, say 119.00 and 63189.00.
    source = on_disk(tmp_path, "o.csv", "id,qty,price,rate\n1,119.00,2.5,2.50\n2,63189.00,3.25,3.1\n")
    preview = read_table_preview(source)["o.csv"]
    assert preview.attrs["decimals"] == {"qty": 2}  # shown with the places it is written with
    assert pd.api.types.is_float_dtype(preview["qty"]) and pd.api.types.is_float_dtype(preview["price"])
    assert list(preview["rate"]) == ["2.50", "3.1"]  # no one number format shows both as written
    rows = next(c for c in chunk_table_source(source, ChunkSettings(), "syntax") if c.kind == "table_rows")
    assert rows.text.splitlines() == ["1,119.00,2.5,2.50", "2,63189.00,3.25,3.1"]
    assert (written_decimals(["1e5", "2"]), written_decimals(["10", "20.5"]), written_decimals([])) == (-1, 0, 0)


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("empty.csv", b"", "empty file"),
        ("blank.csv", b"\n\n   \n", "empty"),
        ("header.csv", b"region,product,revenue\n", "only a header row"),
        ("header_blank.csv", b"region,product,revenue\n\n\n", "only a header row"),
        # An empty report: its title (padded with commas, as Excel saves it) took the header's
        # place and the column names were chunked as its one row.
        ("titled_header.csv", b"Monthly report,,\nregion,amount,date\n", "only a header row"),
        ("long.csv", b"a,b\n1,2\n3,4,5\n", "line 3: 3 cells in a table of 2 columns"),
        ("binary.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "binary data"),
        ("wide.csv", b"\xff\xfe" + "a,b\n1,2\n".encode("utf-16-le") + b"\x00\xd8", "not valid UTF-16 text"),
        ("late.csv", b"a,b\n" + b"1,2\n" * 5000 + b"3,\x00\x00\x89PNG\n4,5\n", "line 5002: a NUL byte, so binary data"),
        ("wide_header.csv", ",".join(f"c{i}" for i in range(3000)).replace("c2999", "c\x00").encode() + b"\n1,2\n",
         "line 1: a NUL byte"),
        ("unclosed.csv", b"a,b,c\n1,\"hello,2\n3,4,5\n6,7,8\n", r"line 2: a quoted cell is never closed .*3 lines"),
        ("fake.xlsx", b"this is not a workbook", "not an .xlsx workbook"),
        # (A CSV named .xlsx was "an old .xls or an encrypted file?"; the reverse was told to rename.)
        ("csv.xlsx", b"a,b\n1,2\n", r"not an \.xlsx workbook \(text: a CSV or TSV under this name\? rename it"),
        ("cut.xlsx", b"PK\x03\x04" + bytes(range(1, 200)), r"\(a damaged zip archive: cut short or corrupted\)"),
        ("old.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(300), r"\(an old Excel \.xls or an encrypted workbook"),
    ],
)
def test_bad_tables_get_a_clear_input_error(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError, match=message) as caught:
        for strategy in ("syntax", "fixed"):
            source = load_file(path) if data else SourceFile(name, path.suffix[1:], data=data)
            chunk_table_source(source, ChunkSettings(), strategy)
    assert name in str(caught.value)


def test_a_quoted_cell_over_the_limit_is_refused_as_an_unquoted_one_is(tmp_path: Path) -> None:
    # Arrow read a quoted 18 MB cell of two lines (665 MB at peak), which the csv module refuses.
    half = "x" * (core.table_csv.MAX_CELL_CHARS // 2 + 1)
    (tmp_path / "big.csv").write_text(f'id,note\n1,"{half}\n{half}"\n2,b\n')
    with pytest.raises(InputError, match=r"big\.csv: line 2: a cell over 16,777,216 characters"):
        chunk_table_source(load_file(tmp_path / "big.csv"), ChunkSettings(), "syntax")


def test_xlsx_that_is_a_zip_of_something_else(tmp_path: Path) -> None:
    data = _zip({"notes/readme.txt": "hello", "data.csv": "a,b\n1,2\n"})
    with pytest.raises(InputError, match=r"book\.xlsx: a zip archive but not an \.xlsx workbook"):
        chunk_table_source(load_bytes("book.xlsx", data), ChunkSettings(), "syntax")


def _zip(members: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_damaged_workbooks_are_refused_by_name() -> None:
    with zipfile.ZipFile(TABLES / "budget.xlsx") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    cut_sheet = {**members, "xl/worksheets/sheet1.xml": members["xl/worksheets/sheet1.xml"][:900]}
    bad_xml = {"[Content_Types].xml": "<<<not xml", "xl/workbook.xml": "garbage"}
    truncated = (TABLES / "budget.xlsx").read_bytes()[:3000]
    for data, message in [
        (_zip(cut_sheet), r"b\.xlsx: sheet 'Q1' is damaged"),
        (_zip(bad_xml), r"b\.xlsx: not a readable \.xlsx workbook"),
        (truncated, r"b\.xlsx: not an \.xlsx workbook"),
    ]:
        with pytest.raises(InputError, match=message):
            chunk_table_source(load_bytes("b.xlsx", data), ChunkSettings(), "syntax")


def _patched_book(patch) -> bytes:  # type: ignore[no-untyped-def]
    book = openpyxl.Workbook()
    for row in (["a", "b"], ["x", 1], ["y", 2]):
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    return _zip({**members, sheet: patch(members[sheet])})


@pytest.mark.parametrize(("patch", "message"), [
    # A shared-string index past the end of the table (openpyxl: IndexError).
    (lambda xml: re.sub(rb'<c r="A3".*?</c>', b'<c r="A3" t="s"><v>5</v></c>', xml), "is damaged"),
    # A 5 KB file whose last row claims number 99,999,999,999: openpyxl pads every row before it.
    (lambda xml: xml.replace(b'<row r="3"', b'<row r="99999999999"'),
     r"is damaged \(a row numbered past Excel's 1,048,576 rows\)"),
    # A row number repeated, or going backwards: openpyxl's row iterator drops such rows silently.
    (lambda xml: xml.replace(b'<row r="3"', b'<row r="2"').replace(b'r="A3"', b'r="A2"').replace(b'r="B3"', b'r="B2"'),
     r"is damaged \(row 2 is stored after row 2; open and save the workbook"),
    (lambda xml: xml.replace(b'<row r="2"', b'<row r="5"').replace(b'r="A2"', b'r="A5"').replace(b'r="B2"', b'r="B5"'),
     r"is damaged \(row 3 is stored after row 5;"),
], ids=["string-index", "row-number", "row-repeated", "row-backwards"])
def test_damaged_sheets_are_refused_not_crashed_on_or_counted_for_hours(patch, message) -> None:
    data = _patched_book(patch)
    with pytest.raises(InputError, match=rf"b\.xlsx: sheet 'Sheet' {message}"):
        chunk_table_source(load_bytes("b.xlsx", data), ChunkSettings(), "syntax")


def test_title_rows_above_a_sheets_table_are_its_title_not_its_header() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["A2"] = "Quarterly report", "Generated 2024-04-01"
    for row, values in enumerate([("name", "v"), ("a", 1), ("b", 2)], start=5):
        sheet.cell(row, 3, values[0]), sheet.cell(row, 4, values[1])
    one_column = openpyxl.Workbook()
    for value in ("city", "Oslo", "Rome"):
        one_column.active.append([value])
    buffers = []
    for workbook in (book, one_column):
        buffers.append(io.BytesIO())
        workbook.save(buffers[-1])
    chunks = chunk_table_source(load_bytes("r.xlsx", buffers[0].getvalue()), ChunkSettings(), "syntax")
    rows, profile = row_chunks(chunks), chunks[-1]
    assert rows[0].columns == ("name", "v") and rows[0].text == "a,1\nb,2" and (rows[0].start_line, rows[0].end_line) == (6, 7)
    assert "v (integer): 2 values" in profile.text
    assert "rows 1, 2 above the table read as its title: Quarterly report / Generated 2024-04-01" in profile.embed_text
    # A one-column table's rows hold one cell each too: they stay its header and data.
    (single,) = row_chunks(chunk_table_source(load_bytes("c.xlsx", buffers[1].getvalue()), ChunkSettings(), "syntax"))
    assert single.columns == ("city",) and single.text == "Oslo\nRome"


def _xlsx_bytes(*sheets: list[tuple[int, int, object]]) -> bytes:
    book = openpyxl.Workbook()
    for index, cells in enumerate(sheets):
        sheet = book.active if index == 0 else book.create_sheet(f"S{index}")
        for row, column, value in cells:
            sheet.cell(row, column, value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_notes_under_a_sheets_table_are_named_in_the_profile_not_read_as_rows() -> None:
    table = [(1, 1, "name"), (1, 2, "v"), (2, 1, "a"), (2, 2, 1), (3, 1, "b"), (3, 2, 2)]
    below = table + [(5, 1, "Source: internal data"), (6, 1, "* preliminary")]
    beside = [(r, c + 1, v) for r, c, v in table] + [(70, 1, "Footnote in column A")]
    lonely = table[:4] + [(4, 1, "lonely")] + [(6, 1, "b"), (6, 2, 2)]  # a gap, then more of the table
    # More one-cell rows after a gap than notes run to: names without phones, data.
    sparse = table + [(5 + i, 1, f"n{i}") for i in range(4)]
    workbook = _xlsx_bytes(below, beside, lonely, sparse)
    chunks = chunk_table_source(load_bytes("r.xlsx", workbook), ChunkSettings(), "syntax")
    texts = [c.text for c in row_chunks(chunks)]
    assert texts == ["a,1\nb,2", "a,1\nb,2", "a,1\nlonely,\nb,2", "a,1\nb,2\nn0,\nn1,\nn2,\nn3,"], texts
    profiles = [c for c in chunks if c.kind == "table_profile"]
    assert "rows 5, 6 below the table read as notes, not data: Source: internal data / * preliminary" in profiles[0].embed_text
    assert "v (integer): 2 values, 0 missing" in profiles[0].text  # not text because of a note
    assert "row 70 below the table read as notes, not data: Footnote in column A" in profiles[1].embed_text
    assert row_chunks(chunks)[1].columns == ("name", "v")
    assert "notes" not in profiles[2].embed_text


def _rows_at(top: int, left: int, rows: list[list[object]]) -> list[tuple[int, int, object]]:
    """``rows`` as cells of a sheet, the first at row ``top``, column ``left``."""
    return [(top + i, left + j, v) for i, row in enumerate(rows) for j, v in enumerate(row) if v is not None]


def test_a_second_table_below_a_blank_row_is_a_table_of_its_own() -> None:
    # A report sheet: regions, then (after blank rows, under a title) a wider price list. It was
    # one table: the products under "region, revenue" (revenue turned text), or refused outright
    # ("4 cells in a table of 3 columns") when the second table was the wider.
    regions = _rows_at(1, 1, [["region", "revenue", "units"], ["North", 120, 3], ["South", 95, 2]])
    regions += [(5, 1, "Source: sales ledger")]  # a note under the first table
    prices = _rows_at(8, 2, [["Price list"], ["product", "price", "stock", "supplier"],
                             ["Widget", 9.5, 10, "Acme"], ["Gadget", 12, 0, "Bolt"]])  # fmt: skip
    workbook = load_bytes("report.xlsx", _xlsx_bytes(regions + prices))
    chunks = chunk_table_source(workbook, ChunkSettings(), "syntax")
    rows = row_chunks(chunks)
    assert [(c.symbol, c.columns, c.text, c.start_line, c.end_line) for c in rows] == [
        ("report.xlsx#Sheet", ("region", "revenue", "units"), "North,120,3\nSouth,95,2", 2, 3),
        ("report.xlsx#Sheet!B9", ("product", "price", "stock", "supplier"), "Widget,9.5,10,Acme\nGadget,12,0,Bolt", 10, 11),
    ]  # fmt: skip
    first, second = (c for c in chunks if c.kind == "table_profile")
    assert "revenue (integer)" in first.text and "row 5 below the table read as notes, not data: Source" in first.header
    assert "price (decimal)" in second.text and "row 8 above the table read as its title: Price list" in second.header
    previews = read_table_preview(workbook)
    assert {name: len(frame) for name, frame in previews.items()} == {"report.xlsx#Sheet": 2, "report.xlsx#Sheet!B9": 2}
    fixed = chunk_table_source(workbook, ChunkSettings(), "fixed")
    assert [c.symbol for c in fixed] == ["report.xlsx#Sheet", "report.xlsx#Sheet!B9"]


def test_a_titled_table_of_the_same_columns_and_a_year_headed_one_are_read_apart() -> None:
    # Two pivots of one layout under titles of their own (revenue, then units), and a table whose
    # header is years: each was read as rows of the table above.
    revenue = [["Region", 2019, 2020, 2021], ["North", 1200, 1300, 1400], ["South", 900, 950, 990]]
    units = [["Units sold by region"], ["Region", 2019, 2020, 2021], ["North", 12, 13, 14], ["South", 9, 9, 10]]
    cells = _rows_at(1, 1, revenue) + _rows_at(5, 1, units)
    chunks = chunk_table_source(load_bytes("pivots.xlsx", _xlsx_bytes(cells)), ChunkSettings(), "syntax")
    profiles = [c for c in chunks if c.kind == "table_profile"]
    assert [(c.symbol, c.columns, c.row_end) for c in profiles] == [
        ("pivots.xlsx#Sheet", ("Region", "2019", "2020", "2021"), 2),
        ("pivots.xlsx#Sheet!A6", ("Region", "2019", "2020", "2021"), 2),
    ]  # fmt: skip
    assert "row 5 above the table read as its title: Units sold by region" in profiles[1].header
    staff = [["name", "team"], ["Ada", "core"], ["Alan", "web"]]
    cells = _rows_at(1, 1, staff) + _rows_at(5, 1, [["Region", 2022, 2023], ["North", 5, 6], ["South", 7, 8]])
    chunks = chunk_table_source(load_bytes("mixed.xlsx", _xlsx_bytes(cells)), ChunkSettings(), "syntax")
    assert [c.symbol for c in chunks if c.kind == "table_profile"] == ["mixed.xlsx#Sheet", "mixed.xlsx#Sheet!A5"]


# Layouts of one table with blank rows (lines) in it: read as one table from a sheet and from a CSV.
ONE_TABLE_LAYOUTS = [
    # Groups of a text-only table after blank rows: their first rows read like headers.
    [["name", "city"], ["Ada", "London"], None, ["Grace", "Arlington"], ["Alan", "Wilmslow"]],
    # A gap in the data: the row after it holds numbers.
    [["region", "revenue"], ["North", 120], None, ["South", 95], ["East", 80]],
    # The header again after a gap (a printed report's next page): the same table.
    [["region", "revenue"], ["North", 120], None, ["region", "revenue"], ["South", 95]],
    # A row of text after a gap with no numbers under it in any of its cells' columns.
    [["item", "qty", "note"], ["a", 1, "x"], None, ["b", None, "late"], ["c", None, "lost"]],
    # Sections under labels of two cells (a regression audit's finding: each section was a
    # table of its own, named column_1..5, and the header a table of no rows).
    [["Line item", "Q1", "Q2", "Q3"], None, ["Revenue", "EUR thousands"], ["Sales", 1, 2, 3], ["Fees", 4, 5, 6],
     None, ["Expenses", "EUR thousands"], ["Rent", 1, 2, 3], ["Travel", 4, 5, 6]],
    # A log's row of text after a blank row (an empty reading), the log going on below it.
    [["Time", "Sensor", "Reading", "Status"], ["09:00", "S1", 3.5, "OK"], ["09:05", "S1", 3.6, "OK"], None,
     ["restart", "S0", None, "OFFLINE"], ["09:10", "S1", 3.7, "OK"], ["09:15", "S1", 3.8, "OK"]],
    # A price list's section whose first row asks for a quote: text in the price column.
    [["Product", "Material", "Price"], ["Chair", "oak", 120], ["Stool", "pine", 40], None,
     ["Chair Deluxe", "oak", "on request"], ["Table", "oak", 300], ["Bench", "pine", 90]],
    # The header again after a page break, under a title of two cells.
    [["ACME Corp", "Orders 2024"], ["Name", "Qty", "Price"], ["a", 1, 2.5], ["b", 2, 3.5], None,
     ["Name", "Qty", "Price"], ["c", 3, 4.5], ["d", 4, 5.5]],
]  # fmt: skip


@pytest.mark.parametrize("rows", ONE_TABLE_LAYOUTS)
def test_a_blank_row_inside_a_table_does_not_start_another(rows: list[list[object] | None]) -> None:
    cells = [(i + 1, j + 1, v) for i, row in enumerate(rows) if row for j, v in enumerate(row) if v is not None]
    chunks = chunk_table_source(load_bytes("one.xlsx", _xlsx_bytes(cells)), ChunkSettings(), "syntax")
    assert {c.symbol for c in chunks} == {"one.xlsx#Sheet"}


def test_a_sheet_of_one_sentence_is_no_table() -> None:
    # A readme sheet: before, a table of no rows named after its sentence.
    cells = [(1, 1, "This workbook holds the sales data")]
    data = _rows_at(1, 1, [["region", "sales"], ["North", 1], ["South", 2]])
    book = openpyxl.Workbook()
    book.active.title = "Readme"
    book.active.cell(1, 1, cells[0][2])
    sheet = book.create_sheet("Data")
    for row, column, value in data:
        sheet.cell(row, column, value)
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("r.xlsx", buffer.getvalue()), ChunkSettings(), "syntax")
    assert {c.symbol for c in chunks} == {"r.xlsx#Data"}


def test_a_sheet_of_many_little_tables_is_read_apart_up_to_a_bound() -> None:
    # 3,000 little tables on a sheet took 9 s and 3,000 previews; past MAX_SHEET_TABLES the
    # rest of the sheet is the last table's rows, and its profile says so.
    # (Each of two or three columns, unlike the one above it: a table of its own.)
    def little(i: int) -> list[list[object]]:
        return [[f"name{i}", f"value{i}", "unit"][: 2 + i % 2], ["x", i, "kg"][: 2 + i % 2], ["y", i + 1, "kg"][: 2 + i % 2]]

    cells = [c for i in range(120) for c in _rows_at(4 * i + 1, 1, little(i))]
    chunks = chunk_table_source(load_bytes("many.xlsx", _xlsx_bytes(cells)), ChunkSettings(), "syntax")
    profiles = [c for c in chunks if c.kind == "table_profile"]
    assert len(profiles) == core.table_xlsx.MAX_SHEET_TABLES
    assert "tables past its 50th are read as rows of this one" in profiles[-1].header
    assert "tables past" not in profiles[-2].header and profiles[-1].row_end >= 3 * (120 - 50)  # the rest, headers too


# Tables side by side on a sheet: sales in A-D, a lookup table right of them past empty columns.
SALES = [["region", "product", "units", "revenue"], ["North", "Widget", 3, 120.5], ["South", "Gadget", 2, 95],
         ["East", "Widget", 5, 210], ["West", "Bolt", 1, 12.25], ["North", "Bolt", 4, 48]]  # fmt: skip
LOOKUP = [["code", "name", "manager"], ["N", "North", "Ada"], ["S", "South", "Alan"], ["E", "East", "Grace"]]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("gap", [1, 2])
def test_tables_side_by_side_on_a_sheet_are_tables_of_their_own(gap: int, fmt: str) -> None:
    # They were one table: the lookup's code, name and manager as columns of the sales rows,
    # empty columns named column_5 (and column_6) between, and its rows padded with nothing.
    from core.table_xlsx import cell_text

    right = 5 + gap  # the lookup's first column (1-based): F or G
    workbook = load_bytes("book.xlsx", _xlsx_bytes(_rows_at(1, 1, SALES) + _rows_at(1, right, LOOKUP)))
    chunks = chunk_table_source(workbook, ChunkSettings(table_rows=2, table_format=fmt), "syntax")
    expected = {"book.xlsx#Sheet": SALES, f"book.xlsx#Sheet!{'FG'[gap - 1]}1": LOOKUP}
    assert [c.symbol for c in chunks if c.kind == "table_profile"] == list(expected)
    for name, table in expected.items():
        mine = [c for c in row_chunks(chunks) if c.symbol == name]
        assert len(mine) > 1
        for a, b in zip(mine, mine[1:]):
            assert b.row_start == a.row_end + 1
        assert (mine[0].row_start, mine[-1].row_end) == (1, len(table) - 1)
        assert (mine[0].start_line, mine[-1].end_line) == (2, len(table))  # sheet rows
        cells = []
        for chunk in mine:  # the block's own header in every chunk
            assert chunk.strategy == "table" and chunk.columns == tuple(table[0])
            assert chunk.header == serialise_header(chunk.columns, fmt)
            assert chunk.embed_text.startswith(f"# book.xlsx :: {name}\n{chunk.header}\n")
            body = chunk.embed_text[len(f"# book.xlsx :: {name}\n{chunk.header}\n") :]
            cells.extend(parse_rows(body, chunk.columns, fmt))
        assert cells == [[cell_text(v) for v in row] for row in table[1:]]  # every data row, once, in order
    previews = read_table_preview(workbook)
    assert {name: list(frame.columns) for name, frame in previews.items()} == {n: t[0] for n, t in expected.items()}
    assert [len(frame) for frame in previews.values()] == [len(SALES) - 1, len(LOOKUP) - 1]


def _assert_profile_is_pandas(profile, frame: pd.DataFrame) -> None:  # type: ignore[no-untyped-def]
    assert profile.rows == len(frame)
    assert [c.name for c in profile.columns] == list(frame.columns)
    for col in profile.columns:
        series = frame[col.name]
        assert (col.count, col.missing) == (int(series.notna().sum()), int(series.isna().sum())), col.name
        if col.kind in ("integer", "decimal"):
            assert pd.api.types.is_numeric_dtype(series), col.name
            assert col.min == pytest.approx(series.min()) and col.max == pytest.approx(series.max())
            assert col.sum == pytest.approx(series.sum(), rel=1e-12) and col.mean == pytest.approx(series.mean(), rel=1e-12)
        else:
            assert not pd.api.types.is_numeric_dtype(series), col.name
            assert col.distinct == series.nunique(), col.name
            top_value, top_count = col.most_common(1)[0]
            assert top_count == series.value_counts().iloc[0] and series.value_counts()[top_value] == top_count


def test_each_side_by_side_tables_profile_agrees_with_pandas_over_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(_xlsx_bytes(_rows_at(1, 1, SALES) + _rows_at(1, 7, LOOKUP)))
    frames = {
        "book.xlsx#Sheet": pd.read_excel(path, usecols="A:D"),
        "book.xlsx#Sheet!G1": pd.read_excel(path, usecols="G:I", nrows=len(LOOKUP) - 1),
    }
    profiles = {p.name: p for p in profile_tables(load_file(path))}
    assert list(profiles) == list(frames)
    for name, frame in frames.items():
        _assert_profile_is_pandas(profiles[name], frame)


def test_only_a_table_on_each_side_of_empty_columns_parts_a_sheet() -> None:
    # A column named in the header but empty under it, and one unnamed but holding data, are
    # no gap: the table keeps them, while the lookup past a truly empty column is read apart.
    # A label: value pair, notes or a lone column beside a table are no table: no split (their
    # cells stay columns of the table, as before).
    staff = [["name", "city", "comment", None, "qty"], ["Ada", "London", None, "x", 1], ["Alan", "Wilmslow", None, None, 2]]
    beside = {
        "pair": [["Total:", 1234]],
        "notes": [["Source: sales ledger"], ["* preliminary figures"]],
        "lone": [["city"], ["Oslo"], ["Rome"]],
    }
    book = openpyxl.Workbook()
    sheets = {"Staff": _rows_at(1, 1, staff) + _rows_at(1, 7, LOOKUP)}
    sheets.update({title: _rows_at(1, 1, SALES) + _rows_at(1, 7, cells) for title, cells in beside.items()})
    for index, (title, cells) in enumerate(sheets.items()):
        sheet = book.active if index == 0 else book.create_sheet()
        sheet.title = title
        for row, column, value in cells:
            sheet.cell(row, column, value)
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("b.xlsx", buffer.getvalue()), ChunkSettings(), "syntax")
    profiles = {c.symbol: c for c in chunks if c.kind == "table_profile"}
    assert list(profiles) == ["b.xlsx#Staff", "b.xlsx#Staff!G1", "b.xlsx#pair", "b.xlsx#notes", "b.xlsx#lone"]
    assert profiles["b.xlsx#Staff"].columns == ("name", "city", "comment", "column_4", "qty")
    assert profiles["b.xlsx#Staff!G1"].columns == ("code", "name", "manager")
    assert [c.text for c in row_chunks(chunks)][:2] == ["Ada,London,,x,1\nAlan,Wilmslow,,,2", "N,North,Ada\nS,South,Alan\nE,East,Grace"]
    # One table a sheet, its rows all there (the pair's figure in the header row makes that a
    # table of no header, as it was), the lookup's columns only where a table stood beside.
    assert [profiles[f"b.xlsx#{title}"].row_end for title in beside] == [len(SALES), len(SALES) - 1, len(SALES) - 1]
    assert [profiles[f"b.xlsx#{title}"].columns[-1] for title in beside] == ["column_8", "Source: sales ledger", "city"]


def test_side_by_side_tables_keep_their_tables_below_and_their_own_merged_header() -> None:
    # Left: a header of two rows (Region merged down, Revenue across Q1 Q2), then below a blank
    # row a titled price list; right: the lookup, a one-row header. The left's merges must not
    # reach the lookup (its header joined with its first row), nor the price list be lost.
    book = openpyxl.Workbook()
    sheet = book.active
    left = [["Region", "Revenue", None], [None, "Q1", "Q2"], ["North", 1, 2], ["South", 3, 4], None, None,
            ["Price list"], ["product", "price"], ["Widget", 9.5], ["Gadget", 12]]  # fmt: skip
    for row, column, value in _rows_at(1, 1, [r or [] for r in left]) + _rows_at(1, 6, LOOKUP):
        sheet.cell(row, column, value)
    sheet.merge_cells("A1:A2")
    sheet.merge_cells("B1:C1")
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("m.xlsx", buffer.getvalue()), ChunkSettings(), "syntax")
    assert [(c.symbol, c.columns, c.text, c.start_line) for c in row_chunks(chunks)] == [
        ("m.xlsx#Sheet", ("Region", "Revenue Q1", "Revenue Q2"), "North,1,2\nSouth,3,4", 3),
        ("m.xlsx#Sheet!A8", ("product", "price"), "Widget,9.5\nGadget,12", 9),
        ("m.xlsx#Sheet!F1", ("code", "name", "manager"), "N,North,Ada\nS,South,Alan\nE,East,Grace", 2),
    ]  # fmt: skip
    profiles = [c for c in chunks if c.kind == "table_profile"]
    assert "row 7 above the table read as its title: Price list" in profiles[1].header
    assert "merged" not in profiles[2].header


def _tables_of(cells: list[tuple[int, int, object]]) -> dict[str, tuple[str, ...]]:
    chunks = chunk_table_source(load_bytes("g.xlsx", _xlsx_bytes(cells)), ChunkSettings(), "syntax")
    return {c.symbol: c.columns for c in chunks if c.kind == "table_rows"}


def test_a_gap_filled_below_the_rows_judged_keeps_the_sheet_one_table() -> None:
    # The gap is judged on the sheet's first rows; a cell in it further down (a wider table
    # below, a comment) means no split after all: the sheet reads as one grid, as before,
    # rather than be refused or have the cell cut from its row.
    long_sales = SALES + [["North", "Widget", i, i * 1.5] for i in range(60)]
    cells = _rows_at(1, 1, long_sales) + _rows_at(1, 7, LOOKUP)
    assert set(_tables_of(cells)) == {"g.xlsx#Sheet", "g.xlsx#Sheet!G1"}
    late = _tables_of(cells + [(len(long_sales), 5, "late comment")])
    assert list(late) == ["g.xlsx#Sheet"] and {"revenue", "code", "manager"} <= set(late["g.xlsx#Sheet"])


def test_column_groups_of_one_table_apart_by_a_spacer_column_stay_one_table() -> None:
    # Two groups of columns filling the very same rows (a spacer column between this year and
    # last): one table, as before. Tables side by side fill different rows (a lookup of three).
    this_year = [["region", "units"], *[[f"R{i}", i] for i in range(8)]]
    last_year = [["units 2023", "revenue 2023"], *[[i * 2, i * 3.5] for i in range(8)]]
    one = _tables_of(_rows_at(1, 1, this_year) + _rows_at(1, 4, last_year))
    assert list(one) == ["g.xlsx#Sheet"] and one["g.xlsx#Sheet"][-1] == "revenue 2023"
    # A title across the top fills one side only: still the same rows below it.
    titled = _tables_of([(1, 1, "Units by region, this year and last")]
                        + _rows_at(3, 1, this_year) + _rows_at(3, 4, last_year))
    assert list(titled) == ["g.xlsx#Sheet"]


ANALYTICS_EXPORT = """\
# ----------------------------------------
# All Web Site Data
# Audience Overview
# 20240101-20240131
# ----------------------------------------

Day Index,Users
1/1/24,120
1/2/24,135
1/3/24,98

Users,New Users,Sessions,Bounce Rate
"1,234",987,"2,001",45.2%

Device Category,Users,Sessions
desktop,700,1100
mobile,500,850
tablet,34,51
"""


def test_a_csv_reports_sections_are_tables_of_their_own(tmp_path: Path) -> None:
    # An analytics export: daily users, then totals (one row), then users by device, each
    # under its own header after a blank line. It was one table of generated columns
    # (column_1..4), its headers read as data rows and every column text.
    source = on_disk(tmp_path, "audience.csv", ANALYTICS_EXPORT)
    chunks = chunk_table_source(source, ChunkSettings(), "syntax")
    assert [(c.symbol, c.columns, c.text, c.start_line, c.end_line) for c in row_chunks(chunks)] == [
        ("audience.csv", ("Day Index", "Users"), "1/1/24,120\n1/2/24,135\n1/3/24,98", 8, 10),
        ("audience.csv#L12", ("Users", "New Users", "Sessions", "Bounce Rate"), '"1,234",987,"2,001",45.2%', 13, 13),
        ("audience.csv#L15", ("Device Category", "Users", "Sessions"), "desktop,700,1100\nmobile,500,850\ntablet,34,51", 16, 18),
    ]  # fmt: skip
    profiles = [c for c in chunks if c.kind == "table_profile"]
    assert [(c.symbol, c.start_line, c.end_line) for c in profiles] == [
        ("audience.csv", 1, 10), ("audience.csv#L12", 12, 13), ("audience.csv#L15", 15, 18)
    ]  # fmt: skip
    assert "lines 1, 2, 3, 4, 5 above the table read as its title" in profiles[0].header
    assert "Users (integer): 3 values, 0 missing; min 34, max 700, total (sum) 1234" in profiles[2].text
    data = ANALYTICS_EXPORT.encode()
    for chunk in row_chunks(chunks):
        assert chunk.text == data[chunk.start_byte : chunk.end_byte].decode()
    assert list(read_table_preview(source)) == ["audience.csv", "audience.csv#L12", "audience.csv#L15"]
    # The naive windows go table by table too, each from its first line to the next's.
    fixed = chunk_table_source(source, ChunkSettings(budget=1000), "fixed")
    assert [(c.symbol, c.start_line, c.end_line, c.row_start, c.row_end) for c in fixed] == [
        ("audience.csv", 1, 10, 1, 3), ("audience.csv#L12", 12, 13, 1, 1), ("audience.csv#L15", 15, 18, 1, 3)
    ]  # fmt: skip
    assert all(c.text == data[c.start_byte : c.end_byte].decode() for c in fixed)
    assert table_metrics(fixed).tables == table_metrics(chunks).tables == 3


def test_a_bank_statements_account_lines_and_its_transactions_are_two_tables(tmp_path: Path) -> None:
    text = (
        "Account,Number,Currency\nChecking,12345678,EUR\n\n"
        "Date,Description,Amount,Balance\n2024-03-01,Rent,-950.00,1050.00\n2024-03-02,Coffee,-3.20,1046.80\n"
    )
    profiles = profile_tables(on_disk(tmp_path, "statement.csv", text))
    assert [(p.name, [c.name for c in p.columns], p.rows) for p in profiles] == [
        ("statement.csv", ["Account", "Number", "Currency"], 1),
        ("statement.csv#L4", ["Date", "Description", "Amount", "Balance"], 2),
    ]
    assert [c.kind for c in profiles[1].columns] == ["date", "text", "decimal", "decimal"]


@pytest.mark.parametrize(
    "rows",
    [
        *ONE_TABLE_LAYOUTS,
        # A CSV section may hold one row, but one shaped as the rows above goes on with them:
        # the header again over one row, a group of one row, and a total under a blank line.
        [["region", "revenue"], ["North", 120], ["South", 95], None, ["region", "revenue"], ["East", 80]],
        [["name", "age"], ["Ada", 36], None, ["Alan", 41]],
        [["item", "qty", "note"], ["a", 1, "x"], ["b", 2, "y"], None, ["total", 3]],
    ],
)
def test_a_blank_line_inside_a_csv_table_does_not_start_another(tmp_path: Path, rows: list[list[object] | None]) -> None:
    text = "".join("\n" if row is None else ",".join("" if v is None else str(v) for v in row) + "\n" for row in rows)
    chunks = chunk_table_source(on_disk(tmp_path, "one.csv", text), ChunkSettings(), "syntax")
    assert {c.symbol for c in chunks} == {"one.csv"}


def test_csv_sections_are_read_apart_only_when_the_whole_file_is_seen(tmp_path: Path, monkeypatch) -> None:
    text = "date,amount\n2024-01-01,5\n2024-01-02,6\n\nregion,units\nNorth,12\nSouth,9\n"
    source = on_disk(tmp_path, "two.csv", text)
    assert [p.name for p in profile_tables(source)] == ["two.csv", "two.csv#L5"]
    assert [p.name for p in profile_tables(source, has_header=False)] == ["two.csv"]  # no row is a header
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 32)  # past the first block, a file streams as one table
    assert [(p.name, p.rows) for p in profile_tables(source)] == [("two.csv", 5)]


def test_a_csv_of_many_little_tables_is_read_apart_up_to_a_bound(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(core.table_csv, "MAX_SECTIONS", 3)
    little = ["name,value\nx,1\ny,2\n", "name,value,unit\nx,1,kg\ny,2,kg\n"]
    source = on_disk(tmp_path, "many.csv", "\n".join(little[i % 2] for i in range(6)))
    profiles = profile_tables(source)
    assert [p.name for p in profiles] == ["many.csv", "many.csv#L5", "many.csv#L9"]
    assert "tables after" not in profiles[1].render()
    assert profiles[2].rows == 4 * 3  # the rest of the file, the headers in it too
    assert "note: the file's tables after its first 3 are read as rows of this one" in profiles[2].render()


def test_formulas_a_program_never_calculated_are_named_in_the_profile(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Q1#2024"  # a "#" in a sheet's title, as in book.xlsx#Sheet names
    book.active.append(["item", "qty", "price", "total"])
    for i in range(2, 5):
        book.active.append([f"x{i}", i, 2.5, f"=B{i}*C{i}"])
    book.save(tmp_path / "written.xlsx")
    chunks = chunk_table_source(load_file(tmp_path / "written.xlsx"), ChunkSettings(), "syntax")
    profile = next(c for c in chunks if c.kind == "table_profile")
    assert "note: 3 formula cells have no calculated value" in profile.header
    assert "- total (empty): 0 values, 3 missing" in profile.text
    # The same workbook once Excel has calculated it: values, no note.
    with zipfile.ZipFile(tmp_path / "written.xlsx") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    sheet = members["xl/worksheets/sheet1.xml"]
    for i in range(2, 5):
        sheet = sheet.replace(f"<f>B{i}*C{i}</f><v />".encode(), f"<f>B{i}*C{i}</f><v>{i * 2.5}</v>".encode())
    sheet = sheet.replace(b"<v>10.0</v>", b"<v></v>")  # a formula whose result is the empty string
    calculated = _zip({**members, "xl/worksheets/sheet1.xml": sheet})
    chunks = chunk_table_source(load_bytes("calculated.xlsx", calculated), ChunkSettings(), "syntax")
    profile = next(c for c in chunks if c.kind == "table_profile")
    assert "formula" not in profile.header and "total (sum) 12.5" in profile.text
    # Text that looks like XML is escaped in the sheet: no formula there.
    book = io.BytesIO()
    pd.DataFrame({"id": [1, 2], "url": ["http:foo", "tag:fun <f>x</f>"]}).to_excel(book, index=False)
    chunks = chunk_table_source(load_bytes("text.xlsx", book.getvalue()), ChunkSettings(), "syntax")
    assert "formula" not in next(c for c in chunks if c.kind == "table_profile").header


def test_sheet_errors_name_a_sheet_whose_title_holds_a_hash(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Q1#2024"
    for row in (["a", "b"], *([i, i] for i in range(60)), [3, 4, 5, 6]):  # past the rows that set the width
        book.active.append(row)
    book.save(tmp_path / "wide.xlsx")
    with pytest.raises(InputError, match=r"sheet 'Q1#2024' row 62: 4 cells in a table of 2 columns"):
        chunk_table_source(load_file(tmp_path / "wide.xlsx"), ChunkSettings(), "syntax")


def test_an_empty_chart_sheet_is_passed_over_like_any_chart_sheet(tmp_path: Path) -> None:
    # openpyxl's reader fails on a chart sheet that holds no chart: the workbook was refused
    # with "not a readable .xlsx workbook ('list' object has no attribute 'find')".
    book = openpyxl.Workbook()
    for row in (["region", "revenue"], ["North", 10], ["South", 12]):
        book.active.append(row)
    book.create_chartsheet("Chart")
    book.save(tmp_path / "charted.xlsx")
    chunks = chunk_table_source(load_file(tmp_path / "charted.xlsx"), ChunkSettings(), "syntax")
    assert {c.symbol for c in chunks} == {"charted.xlsx#Sheet"} and _cells([c for c in chunks if c.kind == "table_rows"])


def test_xlsx_without_data_is_refused(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.append(["only", "a", "header"])
    book.create_sheet("Empty")
    book.save(tmp_path / "thin.xlsx")
    with pytest.raises(InputError, match=r"no sheet holds data rows \(only a header row in 'Sheet'\)"):
        chunk_table_source(load_file(tmp_path / "thin.xlsx"), ChunkSettings(), "syntax")
    # A report's template: a title, a blank row and the column names, no rows yet.
    book = openpyxl.Workbook()
    book.active["A1"] = "Sales report March 2024"
    book.active.append([])
    book.active.append(["Region", "Amount", "Date"])
    book.save(tmp_path / "template.xlsx")
    with pytest.raises(InputError, match=r"no sheet holds data rows \(only a header row in 'Sheet'\)"):
        chunk_table_source(load_file(tmp_path / "template.xlsx"), ChunkSettings(), "syntax")


def test_a_sheet_of_a_header_alone_is_a_table_of_no_rows_beside_the_data(tmp_path: Path) -> None:
    # A plan sheet with its columns laid out and nothing filled in yet: it was skipped without a
    # word, and a question about its columns found nothing.
    (tmp_path / "plan.xlsx").write_bytes(plan_workbook(empty_sheet=True))
    chunks = chunk_table_source(load_file(tmp_path / "plan.xlsx"), ChunkSettings(), "syntax")
    # Workbook order, the header-only sheet first (it waited for a sheet with rows).
    assert [(c.kind, c.symbol) for c in chunks] == [
        ("table_profile", "plan.xlsx#Plan"), ("table_rows", "plan.xlsx#Actuals"), ("table_profile", "plan.xlsx#Actuals"),
    ]  # fmt: skip
    plan = chunks[0]
    assert plan.columns == ("month", "target", "owner")
    assert "0 rows x 3 columns" in plan.header and "a header row (row 1) and no data rows under it" in plan.embed_text
    assert (plan.row_start, plan.row_end) == (1, 0)  # the empty range: no row
    assert list(read_table_preview(load_file(tmp_path / "plan.xlsx"))["plan.xlsx#Plan"].columns) == ["month", "target", "owner"]


def test_short_rows_are_padded_and_flagged(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "r.csv", "a,b,c\n1,2,3\n4,5\n6,7,8,\n")
    chunks = row_chunks(chunk_table_source(source, ChunkSettings(table_rows=1), "syntax"))
    assert ["ragged" in c.flags for c in chunks] == [False, True, True]
    assert parse_rows(chunks[1].embed_text.split("\n", 2)[2], chunks[1].columns, "csv") == [["4", "5", ""]]


def test_legacy_encoding_is_detected_and_spans_stay_in_file_bytes(tmp_path: Path) -> None:
    text = "stad,invånare\nGöteborg,600000\nMalmö,350000\nUmeå,130000\nLuleå,80000\n" * 3
    data = text.encode("cp1252")
    source = on_disk(tmp_path, "latin.csv", data)
    with open_tables(source) as tables:
        encoding = next(tables).encoding
    assert encoding != "utf-8"
    for strategy in ("syntax", "fixed"):
        for chunk in chunk_table_source(source, ChunkSettings(budget=40), strategy):
            if chunk.kind != "table_profile":
                assert chunk.text == data[chunk.start_byte : chunk.end_byte].decode(encoding)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_table_is_read_as_its_utf8_form(tmp_path: Path, encoding: str) -> None:
    # Excel's "Unicode Text": UTF-16 with a byte order mark, tab-separated, CRLF line ends.
    text = "stad\tinvånare\r\n" + "".join(f"Göteborg {i}\t{600000 + i}\r\n" for i in range(40))
    data = text.encode(encoding) if encoding != "utf-16-be" else "\ufeff".encode(encoding) + text.encode(encoding)
    form = text.encode("utf-8")
    for source in (on_disk(tmp_path, "unicode.tsv", data), load_bytes("unicode.tsv", data)):
        with open_tables(source) as tables:
            assert next(tables).read_as == encoding[:6]
        rows = row_chunks(chunk_table_source(source, ChunkSettings(table_rows=10), "syntax"))
        assert [(c.row_start, c.row_end) for c in rows] == [(1, 10), (11, 20), (21, 30), (31, 40)]
        assert rows[0].columns == ("stad", "invånare")
        for chunk in [*rows, *chunk_table_source(source, ChunkSettings(budget=60), "fixed")]:
            assert chunk.text == form[chunk.start_byte : chunk.end_byte].decode("utf-8")
        preview = read_table_preview(source)["unicode.tsv"]
        assert preview.attrs["encoding"] == encoding[:6] and preview.loc[40, "invånare"] == 600039


def test_the_encoding_a_table_is_read_in_is_named(tmp_path: Path) -> None:
    legacy = on_disk(tmp_path, "latin.csv", "stad,invånare\nMalmö,350000\n".encode("cp1252"))
    assert table_encoding(legacy) == "cp1252"
    assert read_table_preview(legacy)["latin.csv"].attrs["encoding"] == "cp1252"
    assert table_encoding(sample("sales.csv")) == "utf-8" and table_encoding(sample("budget.xlsx")) is None


def test_invalid_utf8_after_the_sample_is_reported_with_its_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(core.table_csv, "SAMPLE_BYTES", 4096)
    monkeypatch.setattr(core.table_csv, "_SNIFF_CHARS", 1024)
    rows = "".join(f"{i},name {i}\n" for i in range(1000))
    data = ("id,name\n" + rows).encode("utf-8") + b"1000,caf\xe9\n"
    with pytest.raises(InputError, match=r"bad\.csv: line 1002: bytes that are not valid utf-8"):
        chunk_table_source(on_disk(tmp_path, "bad.csv", data), ChunkSettings(), "syntax")


def test_a_one_megabyte_cell_is_one_oversized_row(tmp_path: Path) -> None:
    big = "lorem ipsum dolor sit amet " * 40_000  # about 1 MB
    text = f'id,body,tag\n1,short,a\n2,"{big}",b\n3,short,c\n'
    source = on_disk(tmp_path, "cell.csv", text)
    chunks = row_chunks(chunk_table_source(source, ChunkSettings(budget=800, unit="chars"), "syntax"))
    huge = next(c for c in chunks if c.row_start == 2)
    assert huge.row_end == 2 and "oversized" in huge.flags and big in huge.text
    assert [c.row_start for c in chunks] == [1, 2, 3]


def test_an_unclosed_quote_is_refused_like_pandas_does_not_swallowing_the_rows_after_it(tmp_path: Path) -> None:
    # (Python's csv module reads it as one cell holding every later line, silently; pandas says
    # "EOF inside string". A quote closed on a later line is a legal multi-line cell.)
    source = on_disk(tmp_path, "q.csv", 'a,b\n1,"open\n2,3\n')
    with pytest.raises(InputError, match="q.csv: line 2: a quoted cell is never closed"):
        chunk_table_source(source, ChunkSettings(), "syntax")
    # On the last line alone too (the csv module put the newline into the cell, unflagged).
    for text in ('a,b\n1,2\n3,"4\n', 'a,b\n1,2\n"3,4\n', 'a,b\n1,2\n3,"4', 'a,b\n1,2\n3,"4""\n'):
        with pytest.raises(InputError, match=r"q\.csv: line 3: a quoted cell is never closed \(it runs to the end of the file\)"):
            chunk_table_source(on_disk(tmp_path, "q.csv", text), ChunkSettings(), "syntax")
    stray = row_chunks(chunk_table_source(on_disk(tmp_path, "s.csv", 'a,b\n1,2\n3,x"y\n'), ChunkSettings(), "syntax"))
    assert stray[0].text.endswith('3,x"y'), "a quote inside an unquoted cell is text"
    closed = on_disk(tmp_path, "ok.csv", 'a,b\n1,"two\nlines"\n2,"5"" screen"\n')
    chunks = row_chunks(chunk_table_source(closed, ChunkSettings(), "syntax"))
    assert [(c.row_start, c.row_end) for c in chunks] == [(1, 2)] and chunks[0].text.endswith('"5"" screen"')


def _wants_slow(request: pytest.FixtureRequest) -> bool:
    expression = request.config.getoption("markexpr") or ""
    return os.environ.get("CHUNK_EXPLORER_SLOW") == "1" or ("slow" in expression and "not slow" not in expression)


@pytest.mark.slow
def test_a_200_mb_csv_streams_in_bounded_memory(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if not _wants_slow(request):
        pytest.skip("generates 200 MB: run with -m slow")
    path = tmp_path / "huge.csv"
    line = "2024-05-01,North,Trail Runner 2,Footwear,89.00,28213.00,35155.00,1496,Ingrid Solberg,\"ok, shipped\"\n"
    rows = 200_000_000 // len(line) // 10_000 * 10_000 + 10_000
    with path.open("w", encoding="utf-8") as handle:
        handle.write("day,region,product,category,price,q1,q2,units,manager,note\n")
        block = line * 10_000
        for _ in range(rows // 10_000):
            handle.write(block)
    code = (
        "import sys, resource, psutil; from pathlib import Path\n"
        "from core.sources import load_file; from core.settings import ChunkSettings\n"
        "from core.tables import iter_table_chunks\n"
        "src = load_file(Path(sys.argv[1])); base = psutil.Process().memory_info().rss\n"
        "last = 0\n"
        "for c in iter_table_chunks(src, ChunkSettings(unit='chars', budget=2000), sys.argv[2]):\n"
        "    last = max(last, c.row_end or 0)\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024\n"
        "print(last, base, peak)\n"
    )
    for strategy in ("syntax", "fixed"):
        done = subprocess.run([sys.executable, "-c", code, str(path), strategy], cwd=ROOT, capture_output=True,
                              text=True, timeout=1800, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        assert done.returncode == 0, done.stderr
        last, base, peak = (int(x) for x in done.stdout.split())
        assert last == rows
        grown = (peak - base) / 1e6
        print(f"200 MB, {strategy}: {rows:,} rows, peak RSS {peak / 1e6:.0f} MB, {grown:.0f} MB above the start")
        assert grown < 250, f"peak grew by {grown:.0f} MB over a {path.stat().st_size / 1e6:.0f} MB file"


# --- the CLI ----------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env=env)  # fmt: skip


def test_cli_chunks_a_table_with_the_header_in_every_chunk() -> None:
    done = run_cli("chunk", "sample_repos/tables/sales.csv", "--rows", "5", "--format", "markdown")
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.splitlines()]
    rows = [c for c in chunks if c["kind"] == "table_rows"]
    assert len(rows) == 10 and {c["strategy"] for c in chunks} == {"fixed", "table"}
    header = "| region | product | category |"
    assert all(c["embed_text"].split("\n")[1].startswith(header) and c["header"].startswith(header) for c in rows)
    assert all(c["row_end"] - c["row_start"] < 5 for c in rows) and rows[-1]["row_end"] == 48
    assert [c for c in chunks if c["kind"] == "table_profile"][0]["columns"][0] == "region"


def test_cli_refuses_a_bad_table_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_bytes(b"")
    done = run_cli("chunk", str(tmp_path / "empty.csv"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == ["error: empty.csv: empty file"]


@pytest.mark.parametrize("content,message", [
    (b"a,b\n1,2\n3,4,5\n", "line 3: 3 cells in a table of 2 columns"),
    (b"\x00\x01binary\x00" * 40, "binary data in a .csv file"),
    (b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(300), "bad.csv: a zip archive (an Excel workbook under this name? rename it .xlsx)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(300), "bad.csv: an old Excel .xls or other Office file (save it as .xlsx or CSV)"),
    (b"region,revenue\n", "only a header row"),
])  # fmt: skip
def test_cli_reports_a_table_it_cannot_read(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "bad.csv").write_bytes(content)
    done = run_cli("chunk", str(tmp_path / "bad.csv"))
    assert done.returncode == 2 and "Traceback" not in done.stderr and not done.stdout
    assert message in done.stderr.splitlines()[0]


def test_cli_reports_a_table_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.csv").write_bytes(b"a,b\n1,2\n3,4,5\n")
    done = run_cli("chunk", str(tmp_path / "bad.csv"))
    assert done.stderr.strip().splitlines() == ["error: bad.csv: line 3: 3 cells in a table of 2 columns (a, b)"]


# --- the query set --------------------------------------------------------------------------


def test_table_queries_point_at_chunks_that_hold_their_answer() -> None:
    queries = [json.loads(line) for line in (SAMPLES / "queries" / "tables.jsonl").read_text("utf-8").splitlines()]
    assert len(queries) >= 12
    chunked: dict[str, list[Chunk]] = {}
    for query in queries:
        path = query["path"]
        assert path.startswith("tables/") and (SAMPLES / path).is_file()
        if path not in chunked:
            chunked[path] = chunk_table_source(load_file(SAMPLES / path, display=path), ChunkSettings(), "syntax")
        lines = (SAMPLES / path).read_text("utf-8").splitlines()
        assert 1 <= query["start_line"] <= query["end_line"] <= len(lines)
        # Each target is held whole by one table chunk: a row chunk, or the profile for a table.
        whole = [c for c in chunked[path] if c.start_line <= query["start_line"] and query["end_line"] <= c.end_line]
        assert whole, query["query"]
        if query["start_line"] == 1:
            assert query["end_line"] == len(lines) and any(c.kind == "table_profile" for c in whole)


# --- dialects, encodings and sheets users actually send (from an audit) ---------------------


def _cells(chunks: list[Chunk], column: int = 0) -> list[str]:
    return [row[column] for c in row_chunks(chunks) for row in parse_rows(c.embed_text.split("\n", 2)[2], c.columns, "csv")]


def test_an_apostrophe_is_no_quote_character(tmp_path: Path) -> None:
    # No double quote anywhere: the sniffer guessed "'" and merged "'Til Tuesday ... Guns N'".
    source = on_disk(tmp_path, "bands.csv", "band,formed,albums\n'Til Tuesday,1982,3\nGuns N' Roses,1985,6\n"
                     "The Who,1964,12\nB'z,1988,21\n'ok',1990,1\n")
    chunks = chunk_table_source(source, ChunkSettings(table_rows=2), "syntax")
    assert _cells(chunks) == ["'Til Tuesday", "Guns N' Roses", "The Who", "B'z", "'ok'"]


@pytest.mark.parametrize(("text", "expected"), [
    ("nom,ville,montant\nJosé,Zürich,12\nAnaïs,Köln,3\n", ["José", "Anaïs"]),
    ("producto,precio\nJalapeño,3 €\n", ["Jalapeño"]),
    ("cidade,população\nSão Paulo,12\n", ["São Paulo"]),
    # A handful of accented letters: too little for a detector (it said cp1006, cp1125, big5).
    ("x,y\ncafé,1\n", ["café"]),
    ("a,b\n€5,2\n", ["€5"]),
    ("name,n\nMüller,1\n", ["Müller"]),
])
def test_a_windows_1252_csv_is_read_as_such(tmp_path: Path, text: str, expected: list[str]) -> None:
    # Excel's "CSV (Comma delimited)" on Western Windows; a detector alone said cp775 or cp1250.
    source = on_disk(tmp_path, "w.csv", text.encode("cp1252"))
    assert _cells(chunk_table_source(source, ChunkSettings(table_rows=5), "syntax")) == expected


def test_a_utf8_csv_with_a_stray_byte_is_refused_by_line_not_read_as_windows_1252(tmp_path: Path) -> None:
    # Read as Windows-1252, every "é" of the file became "Ã©", silently.
    source = on_disk(tmp_path, "u.csv", "name,city\nJosé,Zürich\nAna,Köln\n".encode() + b"bad\xff,x\n")
    with pytest.raises(InputError, match=r"u\.csv: line 4: bytes that are not valid UTF-8 in a file otherwise"):
        chunk_table_source(source, ChunkSettings(table_rows=5), "syntax")


def test_a_cyrillic_legacy_csv_keeps_its_detected_encoding(tmp_path: Path) -> None:
    people = ["Иван Петров,Москва", "Мария Смирнова,Санкт-Петербург", "Пётр Кузнецов,Новосибирск",
              "Ольга Попова,Екатеринбург", "Алексей Соколов,Казань", "Наталья Лебедева,Нижний Новгород"]
    source = on_disk(tmp_path, "ru.csv", ("имя,город\n" + "\n".join(people * 3) + "\n").encode("cp1251"))
    assert _cells(chunk_table_source(source, ChunkSettings(table_rows=50), "syntax"))[:2] == ["Иван Петров", "Мария Смирнова"]


def test_a_one_column_tsv_keeps_commas_in_its_cells(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "reviews.tsv", "review\nGreat product, would buy again\nToo slow, returned it\nFine, works\n")
    assert _cells(chunk_table_source(source, ChunkSettings(table_rows=5), "syntax")) == [
        "Great product, would buy again", "Too slow, returned it", "Fine, works"]


def test_csv_errors_name_the_line_they_are_on(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "cr.csv", "a,b\n1,2\n3,\"4\r5\"x\r6\n7,8\n")
    with pytest.raises(InputError, match="line 3: "):
        chunk_table_source(source, ChunkSettings(), "syntax")


def test_an_xlsx_that_declares_a_huge_sheet_is_read_as_stored(tmp_path: Path) -> None:
    # Two formatted empty cells at the sheet's far corners made it 17 billion padded cells.
    from openpyxl.styles import Font

    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["a", "b"], [1, 2], [3, 4]):
        sheet.append(row)
    sheet["XFD1"].font = Font(bold=True)
    sheet["A1048576"].font = Font(bold=True)
    book.save(tmp_path / "far.xlsx")
    chunks = chunk_table_source(load_file(tmp_path / "far.xlsx"), ChunkSettings(table_rows=5), "syntax")
    assert [c.text for c in row_chunks(chunks)] == ["1,2\n3,4"]


def test_a_table_wider_than_the_column_limit_is_refused_at_once() -> None:
    # A 170 KB one-row CSV of 20,000 columns held the Tables page for half a minute.
    def csv(width: int) -> bytes:
        return (",".join(f"c{i}" for i in range(width)) + "\n" + ",".join(str(i) for i in range(width)) + "\n").encode()

    limit = MAX_COLUMNS
    assert len(row_chunks(chunk_table_source(load_bytes("ok.csv", csv(limit)), ChunkSettings(), "syntax"))) == 1
    with pytest.raises(InputError, match=rf"wide\.csv: {limit + 1:,} columns, over the {limit:,} a table may have"):
        chunk_table_source(load_bytes("wide.csv", csv(limit + 1)), ChunkSettings(), "syntax")
    workbook = _xlsx_bytes([(1, j + 1, f"c{j}") for j in range(limit + 1)] + [(2, 1, 1), (2, 2, 2)])
    with pytest.raises(InputError, match=rf"w\.xlsx: sheet 'Sheet': {limit + 1:,} columns"):
        chunk_table_source(load_bytes("w.xlsx", workbook), ChunkSettings(), "syntax")


def test_a_workbook_that_is_a_zip_bomb_is_refused_before_parsing() -> None:
    # A sheet's XML deflates 5-15 times; 5 MB of padding in it deflates about a thousand times.
    data = _patched_book(lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b" " * 5_000_000))
    with pytest.raises(InputError, match=r"b\.xlsx: xl/worksheets/sheet1\.xml expands [\d,]+ times .* a zip bomb, refused"):
        chunk_table_source(load_bytes("b.xlsx", data), ChunkSettings(), "syntax")
    # A real sheet of identical rows (about the most a table's XML deflates: 14 times) is read.
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(["item", "qty"])
    for _ in range(20_000):
        sheet.append(["same text", 1])
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("same.xlsx", buffer.getvalue()), ChunkSettings(unit="lines", budget=5000), "syntax")
    assert sum(c.row_end - c.row_start + 1 for c in row_chunks(chunks)) == 20_000


def test_one_cell_rows_are_data_when_there_is_no_header_or_they_read_as_values() -> None:
    # "No header": every row is data, the title rows too. And one-cell rows after a gap at a
    # table's end are notes only when they read as notes: a name without a phone is a row.
    people = [(1, 1, "Alice"), (2, 1, "Bob"), (3, 1, "Carol"), (3, 2, "555-1"), (4, 1, "Dave"), (4, 2, "555-2"),
              (5, 1, "Eve"), (5, 2, "555-3")]
    workbook = _xlsx_bytes(people)
    chunks = chunk_table_source(load_bytes("p.xlsx", workbook), ChunkSettings(), "syntax", has_header=False)
    assert [c.text for c in row_chunks(chunks)] == ["Alice,\nBob,\nCarol,555-1\nDave,555-2\nEve,555-3"]
    phones = [(1, 1, "name"), (1, 2, "phone"), (2, 1, "Carol"), (2, 2, "555-1"), (3, 1, "Dave"), (3, 2, "555-2"),
              (5, 1, "Eve"), (6, 1, "Frank")]
    chunks = chunk_table_source(load_bytes("q.xlsx", _xlsx_bytes(phones)), ChunkSettings(), "syntax")
    assert [c.text for c in row_chunks(chunks)] == ["Carol,555-1\nDave,555-2\nEve,\nFrank,"]
    assert "notes" not in chunks[-1].embed_text


def test_excel_error_values_are_missing_so_a_number_column_keeps_its_figures() -> None:
    # pandas.read_excel reads #DIV/0! and friends as missing: one such cell made the column text.
    from core.table_values import NA_MARKERS

    assert all(set(marker) & set("Nn#") for marker in NA_MARKERS if marker)  # the profile's byte pre-check
    rows = [["item", "ratio"], ["a", 0.5], ["b", 0.25], ["c", "#DIV/0!"], ["d", 1.5], ["e", "#VALUE!"]]
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    text = "".join(",".join(str(v) for v in row) + "\n" for row in rows).encode()
    for name, data in [("r.csv", text), ("r.xlsx", buffer.getvalue())]:
        chunks = chunk_table_source(load_bytes(name, data), ChunkSettings(), "syntax")
        assert "- ratio (decimal): 3 values, 2 missing; min 0.25, max 1.5, total (sum) 2.25" in chunks[-1].text, name
        assert "#DIV/0!" in row_chunks(chunks)[0].text  # the cells still read as Excel shows them


# --- a second audit: real tables from R, statsmodels, sklearn and exports ---------------------


@pytest.mark.parametrize(("text", "columns"), [
    # A time series' dates head its columns (the JHU layout), as a pivot by month's do.
    ("Province/State,Country/Region,Lat,Long,1/22/20,1/23/20,1/24/20\n,Afghanistan,33.9,67.7,2,3,6\n"
     ",Albania,41.1,20.1,0,0,1\n", ("Province/State", "Country/Region", "Lat", "Long", "1/22/20", "1/23/20", "1/24/20")),
    ("store,2024-01-01,2024-02-01\nBerlin,120.5,130.25\nParis,88.5,91.25\n", ("store", "2024-01-01", "2024-02-01")),
    # R's write.csv of a table: rising numeric labels after a blank corner, rows that name themselves.
    ('"","0","1","2"\n"0",27,29,10\n"1",59,53,14\n"2",28,32,14\n', ("column_1", "0", "1", "2")),
])
def test_dates_and_numbered_labels_heading_columns_are_a_header(tmp_path: Path, text: str, columns: tuple[str, ...]) -> None:
    chunks = chunk_table_source(on_disk(tmp_path, "t.csv", text), ChunkSettings(table_rows=5), "syntax")
    assert chunks[0].columns == columns and "generated_header" not in chunks[0].flags
    # Rising numbers after a blank corner over rows without labels of their own are data.
    data = chunk_table_source(on_disk(tmp_path, "d.csv", ",1,2,3\n4,5,6,7\n,8,9,10\n"), ChunkSettings(), "syntax")
    assert "generated_header" in data[0].flags


@pytest.mark.parametrize(("text", "title"), [
    ("Quarterly sales report 2023\n\nregion,q1,q2\nNorth,100,120\nSouth,90,80\n", "line 1 above the table read as its title: Quarterly sales report 2023"),
    ("Quarterly sales report 2023,,\n,,\nregion,q1,q2\nNorth,100,120\nSouth,90,80\n", "lines 1, 2 above the table read as its title: Quarterly sales report 2023"),
    ("# exported by tool\n# units: EUR\nregion,q1,q2\nNorth,100,120\nSouth,90,80\n", "lines 1, 2 above the table read as its title: # exported by tool / # units: EUR"),
    ("Source:,ONS\nregion,q1,q2\nNorth,100,120\nSouth,90,80\n", "line 1 above the table read as its title: Source: ONS"),
])
def test_title_lines_above_a_csv_header_are_its_title(tmp_path: Path, text: str, title: str) -> None:
    # They were refused ("4 cells in a table of 1 columns" on the header's line) or, written by
    # Excel with empty cells after them, read as the header, the real one then a row of data.
    chunks = chunk_table_source(on_disk(tmp_path, "t.csv", text), ChunkSettings(table_rows=5), "syntax")
    rows, profile = row_chunks(chunks), next(c for c in chunks if c.kind == "table_profile")
    assert rows[0].columns == ("region", "q1", "q2") and [r.row_end for r in rows] == [2]
    assert f"note: {title}" in profile.header and "q1 (integer)" in profile.text
    assert profile.start_line == 1 and rows[0].text.startswith("North,100,120")


def test_a_lone_word_above_wider_rows_is_data_not_a_title(tmp_path: Path) -> None:
    # A table of names whose first person has no phone number yet.
    chunks = chunk_table_source(on_disk(tmp_path, "p.csv", "Eve\nBob,555-0101\nAnn,555-0102\n"), ChunkSettings(), "syntax")
    assert "title" not in next(c for c in chunks if c.kind == "table_profile").header


def test_a_header_narrower_than_the_rows_by_a_row_name_is_rs_write_table(tmp_path: Path) -> None:
    # R's write.table: each row starts with its name, which the header has no cell for. pandas
    # reads it; it was refused ("3 cells in a table of 2 columns").
    chunks = chunk_table_source(on_disk(tmp_path, "r.csv", 'a,b\n"1",2,3\n"2",4,5\n'), ChunkSettings(), "syntax")
    assert chunks[0].columns == ("column_1", "a", "b") and _cells(chunks, 2) == ["3", "5"]


def test_a_row_far_wider_than_the_header_asks_whether_something_stands_above_it(tmp_path: Path) -> None:
    # Eleven lines of facts about a dataset: more than a title, so not taken for one.
    facts = "".join(f"Fact {k}:,value {k}\n" for k in range(11))
    source = on_disk(tmp_path, "n.csv", facts + "name,a,b,c,d,e\nx,1,2,3,4,5\n")
    with pytest.raises(InputError, match=r"line 12: 6 cells in a table of 2 columns .*its header is line 1: is there more"):
        chunk_table_source(source, ChunkSettings(), "syntax")


@pytest.mark.parametrize(("text", "encoding", "expected"), [
    ("miasto,ludność\nWrocław,672929\nŁódź,658444\nGdańsk,486022\n", "cp1250", ["Wrocław", "Łódź", "Gdańsk"]),
    ("město,obyvatel\nPlzeň,175000\nČeské Budějovice,94000\nÚstí nad Labem,92000\nŘíčany,16000\n", "cp1250",
     ["Plzeň", "České Budějovice", "Ústí nad Labem", "Říčany"]),
    ("şehir,nüfus\nİstanbul,15000000\nŞanlıurfa,2100000\nMuğla,1000000\n", "cp1254", ["İstanbul", "Şanlıurfa", "Muğla"]),
    # A header of Cyrillic or Chinese over numbers: a few foreign bytes, but in words of them.
    ("Дата,Количество,Выручка\n2024-01-01,244,59.26\n2024-01-02,134,37.05\n2024-01-03,120,30.10\n", "cp1251",
     ["2024-01-01", "2024-01-02", "2024-01-03"]),
])
def test_a_central_european_or_turkish_csv_is_read_in_its_code_page(tmp_path: Path, text: str, encoding: str, expected: list[str]) -> None:
    # Every legacy Latin-script table was read as Windows-1252 ("Wroc³aw", "Ýstanbul"), and
    # a file with a few foreign bytes too, whatever its script ("Äàòà" for "Дата").
    chunks = chunk_table_source(on_disk(tmp_path, "c.csv", text.encode(encoding)), ChunkSettings(table_rows=5), "syntax")
    assert _cells(chunks) == expected and chunks[0].columns[0] == text.split(",")[0]


def test_a_table_with_old_mac_line_ends_is_read_with_each_cr_as_lf(tmp_path: Path) -> None:
    # Two of statsmodels' result files use bare CRs; they were refused, though the README said
    # a lone CR is read as LF, byte for byte (so spans still index the file's bytes).
    data = b"a,b\r1,2\r3,4\r"
    chunks = chunk_table_source(on_disk(tmp_path, "mac.csv", data), ChunkSettings(table_rows=1), "syntax")
    rows = row_chunks(chunks)
    assert [r.text for r in rows] == ["1,2", "3,4"] and [r.start_line for r in rows] == [2, 3]
    assert all(data[r.start_byte : r.end_byte].replace(b"\r", b"\n").decode() == r.text for r in rows)


def test_profile_figures_are_the_cells_own_and_a_long_listing_fits_the_budget(tmp_path: Path) -> None:
    source = on_disk(tmp_path, "p.csv", "x,y\n0.1512782,1\n0.5,2\n1234.5678912,3\n0.1,4\n0.2,5\n")
    profile = next(c for c in chunk_table_source(source, ChunkSettings(), "syntax") if c.kind == "table_profile")
    # Rounded to six places, min and max were figures no cell holds (0.151278).
    assert "max 1234.5678912, total (sum) 1235.5191694" in profile.text
    # Ten long names a line made a listing no part could hold: parts went over the budget.
    names = [f"quarterly_forecast_revenue_for_region_{r}_product_line_{k}_adjusted" for r in "ABCDE" for k in range(6)]
    wide = on_disk(tmp_path, "w.csv", ",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
    parts = [c for c in chunk_table_source(wide, ChunkSettings(), "syntax") if c.kind == "table_profile"]
    assert len(parts) > 1 and not any("oversized" in p.flags for p in parts)
    listed = " ".join(p.text for p in parts if p.text.startswith(("columns: ", "more columns: ")))
    assert all(f"{name} (integer)" in listed for name in names)


def test_utf16_without_its_mark_is_read_and_markup_under_a_tables_name_is_named(tmp_path: Path) -> None:
    # PowerShell's UTF-16 without a byte order mark was "binary data"; an HTML page or JSON saved
    # as .csv had "only a header row, no data rows".
    text = "name,city,amount\nJosé,Zürich,12.50\nAnaïs,Köln,3 €\n"
    chunks = chunk_table_source(on_disk(tmp_path, "u.csv", text.encode("utf-16-le")), ChunkSettings(), "syntax")
    assert _cells(chunks) == ["José", "Anaïs"] and table_encoding(on_disk(tmp_path, "u.csv", text.encode("utf-16-le"))) == "utf-16-le"
    for name, data, what in (("page.csv", "<!DOCTYPE html>\n<html><body><table><tr><td>1</td></tr></table></body></html>\n", "HTML"),
                             ("api.csv", '[{"a": 1, "b": 2}, {"a": 3, "b": 4}]\n', "JSON")):
        with pytest.raises(InputError, match=rf"{name}: {what}.*, not a \.csv table"):
            chunk_table_source(on_disk(tmp_path, name, data), ChunkSettings(), "syntax")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_its_mark_is_read_in_any_script(tmp_path: Path, encoding: str) -> None:
    # Only nearly pure ASCII was known as UTF-16 without a mark: German names past one in ten
    # characters, Cyrillic or Chinese rows were "binary data in a .tsv file, not a table".
    german = "Name\tStadt\n" + "".join(f"{n}\t{c}\n" for n, c in [("Müller", "Köln"), ("Zoë", "Genève"), ("Søren", "Århus")] * 8)
    russian = "Имя\tГород\n" + "Иван\tМосква\n" * 20
    chinese = "名字\t城市\n" + "张伟\t北京市朝阳区建国路八十八号\n" * 20
    for name, text in (("de.tsv", german), ("ru.tsv", russian), ("zh.tsv", chinese)):
        source = on_disk(tmp_path, name, text.encode(encoding))
        chunks = chunk_table_source(source, ChunkSettings(), "syntax")
        rows = [c for c in chunks if c.kind == "table_rows"]
        assert table_encoding(source) == encoding and rows[0].columns == tuple(text.split("\n")[0].split("\t"))
        assert rows[-1].row_end == text.count("\n") - 1
    # A header longer than the 512 bytes looked at (20 columns), and an emoji cut by that end.
    wide = "\t".join(f"column_name_{i:02d}" for i in range(20)) + "\n" + "\t".join(map(str, range(20))) + "\n"
    cut = ("name\tnote\n" + "".join(f"r{i}\tok\n" for i in range(200)))[:255] + "😀\tx\n" + "a\tb\n" * 5
    for name, text in (("wide.tsv", wide), ("cut.tsv", cut)):
        source = on_disk(tmp_path, name, text.encode(encoding))
        assert table_encoding(source) == encoding and chunk_table_source(source, ChunkSettings(), "syntax")


def test_a_european_csv_reads_its_decimal_commas_as_numbers(tmp_path: Path) -> None:
    # Excel's CSV where the comma is the decimal mark puts ";" between cells. Headerless, every
    # cell's comma made "," the delimiter (more columns, as consistent); with a header the prices
    # were text, with no sum for "total" questions.
    bare = chunk_table_source(on_disk(tmp_path, "m.csv", "1,5;2,25;3,75\n4,5;5,25;6,75\n7,5;8,25;9,75\n"), ChunkSettings(), "syntax")
    assert bare[0].columns == ("column_1", "column_2", "column_3") and _cells(bare) == ["1,5", "4,5", "7,5"]
    shop = on_disk(tmp_path, "p.csv", "Artikel;Preis;Menge\nMilch;0,99;3\nKäse;12,90;1\nBrot;1.234,50;2\n")
    profile = next(c for c in chunk_table_source(shop, ChunkSettings(), "syntax") if c.kind == "table_profile")
    assert "- Preis (decimal): 3 values, 0 missing; min 0.99, max 1234.5, total (sum) 1248.39" in profile.text
    # Its dates, 31.12.2024, have a range; 31.02.2024 is no date (Arrow's strptime read 2 March).
    dated = on_disk(tmp_path, "d.csv", "Datum;Menge\n03.01.2024;3\n7.1.2024;1\n31.12.2023;2\n")
    assert "Datum (date): 3 values, 0 missing; from 2023-12-31 to 2024-01-07" in next(
        c for c in chunk_table_source(dated, ChunkSettings(), "syntax") if c.kind == "table_profile").text
    wrong = on_disk(tmp_path, "w.csv", "Datum;Menge\n31.02.2024;3\n01.01.2024;1\n")
    assert "Datum (text)" in next(c for c in chunk_table_source(wrong, ChunkSettings(), "syntax") if c.kind == "table_profile").text
    # In a comma-separated file a quoted "1,234" is a thousands separator's: no decimal, text.
    us = on_disk(tmp_path, "us.csv", 'item,price\nA,"1,234"\nB,"2,5"\n')
    assert "price (text)" in next(c for c in chunk_table_source(us, ChunkSettings(), "syntax") if c.kind == "table_profile").text


def test_a_sheets_labelled_facts_above_it_are_its_title_and_a_hidden_sheet_says_so() -> None:
    # "Report | Sales 2024" took the header's place: the real header became a row of data and
    # every column text. A hidden sheet (lookups, a program's workings) was chunked without a word.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Report", "Sales 2024"])
    sheet.append(["Currency", "EUR"])
    sheet.append([])
    for row in (["region", "q1", "q2", "q3"], ["North", 100, 120, 130], ["South", 90, 80, 70]):
        sheet.append(row)
    # Two-column tables keep their first row as the header (no wider table below).
    pair = book.create_sheet("Pairs")
    for row in (["name", "phone"], ["Eve", "555-0101"], ["Bob", "555-0102"]):
        pair.append(row)
    hidden = book.create_sheet("Lookups")
    hidden.sheet_state = "hidden"
    for row in (["code", "label"], ["A", "alpha"]):
        hidden.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("r.xlsx", buffer.getvalue()), ChunkSettings(), "syntax")
    profiles = {c.symbol.split("#")[1]: c for c in chunks if c.kind == "table_profile"}
    assert row_chunks(chunks)[0].columns == ("region", "q1", "q2", "q3")
    assert "rows 1, 2 above the table read as its title: Report: Sales 2024 / Currency: EUR" in profiles["Sheet"].header
    assert "q1 (integer)" in profiles["Sheet"].text and "title" not in profiles["Pairs"].header
    assert "note: a hidden sheet (Excel does not show it)" in profiles["Lookups"].header


def test_a_table_of_numbers_apart_by_spaces_has_its_columns(tmp_path: Path) -> None:
    # sklearn's linnerud and a dozen statsmodels results files: read as one column, the first
    # line of numbers then taken for its name, with no figures.
    text = "Chins Situps Jumps\n5 162 60\n  2  110  60\n12 101 101 \n\n13 155 58\n"
    chunks = chunk_table_source(on_disk(tmp_path, "s.csv", text), ChunkSettings(table_rows=2), "syntax")
    rows, profile = row_chunks(chunks), next(c for c in chunks if c.kind == "table_profile")
    assert rows[0].columns == ("Chins", "Situps", "Jumps") and _cells(chunks, 1) == ["162", "110", "101", "155"]
    assert rows[0].text == "5 162 60\n  2  110  60" and "Situps (integer): 4 values, 0 missing; min 101, max 162" in profile.text
    # Names of two words are one column of text, not two columns.
    names = chunk_table_source(on_disk(tmp_path, "n.csv", "name\nAda Lovelace\nAlan Turing\nGrace Hopper\n"), ChunkSettings(), "syntax")
    assert names[0].columns == ("name",) and _cells(names) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


def test_a_table_lined_up_by_spaces_or_with_quoted_text_has_its_columns(tmp_path: Path) -> None:
    # A column of text made the numbers under half the words: one column named 'station temp
    # elev', and R's quoted strings read as cells like '1 2.5 "a"'.
    lined = "station  temp  elev\nOSLO     12.5  94\nBERGEN   10.1  12\nTROMSO    4.2  100\n"
    chunks = chunk_table_source(on_disk(tmp_path, "t.csv", lined), ChunkSettings(), "syntax")
    assert row_chunks(chunks)[0].columns == ("station", "temp", "elev") and _cells(chunks) == ["OSLO", "BERGEN", "TROMSO"]
    assert "elev (integer): 3 values, 0 missing; min 12, max 100" in _profile_text(chunks)
    quoted = 'id value name\n1 2.5 "a b"\n2 3.5 "c"\n3 4.5 "d"\n'
    chunks = chunk_table_source(on_disk(tmp_path, "q.csv", quoted), ChunkSettings(), "syntax")
    assert row_chunks(chunks)[0].columns == ("id", "value", "name") and _cells(chunks, 2) == ["a b", "c", "d"]
    # A lined-up column whose cells hold a space cannot be split at spaces: one column, not
    # "Ada" under "column_1" and "Lovelace" under "name"; nor a glossary lined up after its terms.
    for text in ("name          city      temp\nAda Lovelace  London    12\nAlan Turing   Wilmslow  9\nGrace Hopper  Arlington 20\n",
                 "API  application programming interface\nCSV  comma separated values\nJSON  javascript object notation\n"):
        assert len(row_chunks(chunk_table_source(on_disk(tmp_path, "g.csv", text), ChunkSettings(), "syntax"))[0].columns) == 1
    # Names one space apart stay one column, even when one pair is two spaces apart.
    names = chunk_table_source(on_disk(tmp_path, "n.csv", "name\nAda  Lovelace\nAlan Turing\nGrace Hopper\n"), ChunkSettings(), "syntax")
    assert names[0].columns == ("name",)


@pytest.mark.parametrize("text", ['"x" "y"\n"1" 1.5 2\n"2" 3.5 4\n"3" 5.5 6\n', "x y\n1 1.5 2\n2 3.5 4\n3 5.5 6\n"])
def test_a_short_r_write_table_apart_by_spaces_has_its_columns(tmp_path: Path, text: str) -> None:
    # In a file of three rows the header one cell short was a third of the lines disagreeing
    # on the width: one column named 'x "y"', typed text.
    chunks = chunk_table_source(on_disk(tmp_path, "r.csv", text), ChunkSettings(), "syntax")
    assert row_chunks(chunks)[0].columns == ("column_1", "x", "y")
    assert "x (decimal): 3 values, 0 missing; min 1.5, max 5.5" in _profile_text(chunks)


def test_merged_cells_are_read_as_their_value_where_they_stand_and_a_two_row_header_joins() -> None:
    # A region merged down over its rows left every row but its first without one (a chunk of
    # ",807,857,767" said nothing of North), and "Revenue" merged over Q1..Q3 above them made
    # the sub-header a row of data and the figures text.
    book = openpyxl.Workbook()
    sheet = book.active
    rows = [["Region", "Revenue", None, None, "Units"], [None, "Q1", "Q2", "Q3", None],
            ["North", 737, 361, 859, 23], [None, 807, 857, 767, 34], ["South", 764, 153, 260, 8], [None, 480, 580, 352, 25]]
    for row in rows:
        sheet.append(row)
    for merged in ("A1:A2", "B1:D1", "E1:E2", "A3:A4", "A5:A6"):
        sheet.merge_cells(merged)
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("m.xlsx", buffer.getvalue()), ChunkSettings(table_rows=2), "syntax")
    rows_out, profile = row_chunks(chunks), next(c for c in chunks if c.kind == "table_profile")
    assert rows_out[0].columns == ("Region", "Revenue Q1", "Revenue Q2", "Revenue Q3", "Units")
    assert [r.text for r in rows_out] == ["North,737,361,859,23\nNorth,807,857,767,34", "South,764,153,260,8\nSouth,480,580,352,25"]
    assert (rows_out[0].start_line, rows_out[1].end_line) == (3, 6)
    assert "Revenue Q2 (integer)" in profile.text and "the header is rows 1-2 joined" in profile.header


def _book(rows: list[list[object]], merges: tuple[str, ...], cells: dict[str, object] | None = None) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Rep"
    for address, value in (cells or {}).items():
        sheet[address] = value
    for row in rows:
        sheet.append(row)
    for merged in merges:
        sheet.merge_cells(merged)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("dated", [False, True])
def test_a_title_merged_over_the_table_is_its_title_not_a_header_of_its_own(dated: bool) -> None:
    # "Sales report 2024" merged over A1:C1 was spread into every column: a table of its own,
    # "0 rows x 3 columns" named "Sales report 2024, Sales report 2024_2, ...", above the real one.
    cells = {"A1": "Sales report 2024", **({"A2": "Generated 2024-12-31"} if dated else {})}
    rows = [["Region", "Q1", "Q2"], ["North", 10, 20], ["South", 11, 21]]
    data = _book([[], *rows] if not dated else rows, ("A1:C1",), cells)
    chunks = chunk_table_source(load_bytes("t.xlsx", data), ChunkSettings(), "syntax")
    assert len([c for c in chunks if c.kind == "table_profile"]) == 1, [c.text for c in chunks]
    rows_out, profile = row_chunks(chunks), next(c for c in chunks if c.kind == "table_profile")
    assert rows_out[0].columns == ("Region", "Q1", "Q2") and rows_out[0].text == "North,10,20\nSouth,11,21"
    title = "rows 1, 2 above the table read as its title" if dated else "row 1 above the table read as its title"
    assert title in profile.header and "below" not in profile.header


def test_a_label_merged_across_a_table_is_one_cell_of_its_row() -> None:
    rows = [["Region", "Q1", "Q2"], ["North", 10, 20], ["West (closed in May)"], ["West", 1, 2]]
    chunks = chunk_table_source(load_bytes("l.xlsx", _book(rows, ("A3:C3",))), ChunkSettings(), "syntax")
    assert row_chunks(chunks)[0].text == "North,10,20\nWest (closed in May),,\nWest,1,2"
    assert "Q1 (integer)" in next(c for c in chunks if c.kind == "table_profile").text


@pytest.mark.parametrize(("sub", "names"), [(["Q1", "Q2"], ("Revenue Q1", "Revenue Q2")), ([2023, 2024], ("Revenue 2023", "Revenue 2024"))])
def test_a_name_merged_over_sub_names_joins_them_when_the_other_names_are_not_merged_down(sub: list, names: tuple) -> None:
    # Only the cells merged down made a two-row header: "Revenue" over "Q1 Q2" beside an
    # unmerged "Region" read the sub-names as a row of data and the figures as text.
    rows = [["Region", "Revenue", None, "Units"], [None, *sub, None], ["North", 10, 20, 5], ["South", 11, 21, 6]]
    chunks = chunk_table_source(load_bytes("r.xlsx", _book(rows, ("B1:C1",))), ChunkSettings(), "syntax")
    rows_out = row_chunks(chunks)
    assert rows_out[0].columns == ("Region", *names, "Units") and rows_out[0].text == "North,10,20,5\nSouth,11,21,6"
    # A first data row under a merged name stays data: figures are no names.
    figures = [["Region", "Revenue", None], [None, 10, 20], [None, 11, 21]]
    kept = row_chunks(chunk_table_source(load_bytes("f.xlsx", _book(figures, ("B1:C1",))), ChunkSettings(), "syntax"))
    assert kept[0].text.splitlines()[0] == ",10,20"


# --- a third audit: messy exports (German Excel, accounting sheets) ---------------------------


def _profile_text(chunks: list[Chunk]) -> str:
    return "\n".join(c.header + "\n" + c.text for c in chunks if c.kind == "table_profile")


def test_a_european_csv_reads_a_dot_between_thousands_as_grouping_not_as_a_decimal_point(tmp_path: Path) -> None:
    # German Excel writes 1.250 (one thousand two hundred fifty) in a ";" file: Arrow's float
    # cast read it as 1.25, so a quantity column summed to 365.25 instead of 3612.
    text = "Artikel;Menge;Preis\nSchrauben;1.250;0,05\nMuttern;2.000;0,04\nDübel;350;0,10\nWinkel;12;1,99\n"
    profile = _profile_text(chunk_table_source(on_disk(tmp_path, "de.csv", text), ChunkSettings(), "syntax"))
    frame = pd.read_csv(io.StringIO(text), sep=";", decimal=",", thousands=".")
    assert frame["Menge"].sum() == 3612
    assert "- Menge (integer): 4 values, 0 missing; min 12, max 2000, total (sum) 3612, mean 903" in profile
    assert "- Preis (decimal): 4 values, 0 missing; min 0.04, max 1.99, total (sum) 2.18" in profile
    # Dots that cannot group thousands (0.125, 1.5, 2.25) keep reading as decimal points.
    points = "a;b\nx;0.125\ny;1.5\nz;2.25\n"
    assert "- b (decimal): 3 values, 0 missing; min 0.125, max 2.25" in _profile_text(
        chunk_table_source(on_disk(tmp_path, "p.csv", points), ChunkSettings(), "syntax"))
    # In a comma-separated file a dot is a decimal point, whatever follows it.
    assert "- b (decimal): 2 values, 0 missing; min 1.25, max 2" in _profile_text(
        chunk_table_source(on_disk(tmp_path, "c.csv", "a,b\nx,1.250\ny,2.000\n"), ChunkSettings(), "syntax"))


def test_a_semicolon_file_with_decimal_points_keeps_them_as_decimal_points(tmp_path: Path) -> None:
    # pandas' to_csv(sep=";") writes 52.517 for a latitude. Every ";" file read its dots as
    # grouping thousands: the profile said min 48137, total 154205 (1,000 times too large).
    frame = pd.DataFrame({"city": ["Berlin", "Munich", "Hamburg"], "lat": [52.517, 48.137, 53.551],
                          "lon": [13.389, 11.575, 9.993]})
    text = frame.to_csv(sep=";", index=False)
    profile = _profile_text(chunk_table_source(on_disk(tmp_path, "geo.csv", text), ChunkSettings(), "syntax"))
    assert f"- lat (decimal): 3 values, 0 missing; min 48.137, max 53.551, total (sum) {frame['lat'].sum():g}" in profile
    assert "- lon (decimal): 3 values, 0 missing; min 9.993, max 13.389" in profile
    # A decimal comma in the first rows makes it a European file: 1.250 is 1250 there.
    mixed = "Artikel;Menge;Preis\nSchrauben;1.250;0,05\nMuttern;2.000;0,04\n"
    assert "- Menge (integer): 2 values, 0 missing; min 1250, max 2000, total (sum) 3250" in _profile_text(
        chunk_table_source(on_disk(tmp_path, "de.csv", mixed), ChunkSettings(), "syntax"))


def test_a_european_files_preview_shows_its_dates_and_numbers_as_written(tmp_path: Path) -> None:
    # The preview blanked every 31.12.2024 (NaT: an ISO 8601 conversion), and showed German
    # Excel's 1.250 (1250, as the profile reads it) as the number 1.25.
    text = "Name;Datum;Betrag;Menge\nA;31.12.2024;1,5;1.250\nB;01.02.2024;2,5;2.000\n"
    preview = read_table_preview(on_disk(tmp_path, "de.csv", text))["de.csv"]
    assert preview["Datum"].tolist() == ["31.12.2024", "01.02.2024"]
    assert preview["Betrag"].tolist() == ["1,5", "2,5"] and preview["Menge"].tolist() == ["1.250", "2.000"]
    profile = _profile_text(chunk_table_source(on_disk(tmp_path, "de.csv", text), ChunkSettings(), "syntax"))
    assert "Datum (date)" in profile and "Menge (integer)" in profile
    # ISO dates and a ";" file's decimal points still convert.
    iso = read_table_preview(on_disk(tmp_path, "iso.csv", "d;x\n2024-12-31;52.517\n2024-02-01;48.137\n"))["iso.csv"]
    assert str(iso["d"].dtype).startswith("datetime64") and iso["x"].tolist() == [52.517, 48.137]


def test_a_last_row_labelled_total_is_kept_as_a_row_but_left_out_of_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An Excel sheet's "Total" row under its rows (a SUM's cached value) was profiled as data:
    # every sum doubled, the max was the total itself and a date column turned to text.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Date", "Region", "Units", "Revenue"])
    sheet.append([datetime.date(2024, 1, 5), "North", 10, 199.9])
    sheet.append([datetime.date(2024, 1, 6), "South", 3, 16.5])
    sheet.append([datetime.date(2024, 1, 7), "East", 0, 0.5])
    sheet.append(["Total", None, 13, 216.9])  # (the cached values of =SUM(...))
    buffer = io.BytesIO()
    book.save(buffer)
    monkeypatch.setattr(core.table_xlsx, "BATCH_ROWS", 2)  # the total at a batch's end
    chunks = chunk_table_source(load_bytes("s.xlsx", buffer.getvalue()), ChunkSettings(table_rows=20), "syntax")
    assert [(c.row_start, c.row_end) for c in row_chunks(chunks)] == [(1, 4)]
    assert row_chunks(chunks)[0].text.endswith("\nTotal,,13,216.9")  # the row itself stays a row
    profile = _profile_text(chunks)
    # The heading counts the rows the figures cover, as the columns' counts do, and the total apart.
    assert "table s.xlsx#Sheet: 3 rows x 4 columns and a total row\n" in profile
    assert 'note: the last row (data row 4: "Total") reads as the total of the rows above it: the figures leave it out' \
        in profile
    assert "- Units (integer): 3 values, 0 missing; min 0, max 10, total (sum) 13, mean 4.3333" in profile
    assert "- Revenue (decimal): 3 values, 0 missing; min 0.5, max 199.9, total (sum) 216.9" in profile
    assert "- Date (date): 3 values, 0 missing; from 2024-01-05 to 2024-01-07" in profile
    assert "- Region (text): 3 values, 0 missing" in profile
    # The preview shows the row as it stands (its date column is not made dates, "Total" lost).
    assert read_table_preview(load_bytes("s.xlsx", buffer.getvalue()))["s.xlsx#Sheet"]["Date"].iloc[-1] == "Total"
    # A CSV's too (German: "Summe"), streamed in batches of a row or two: only the table's last
    # row is its total (the first batch's last row, labelled so too, is data).
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 16)
    text = "Artikel;Menge\nSumme;4\nSchrauben;5\nMuttern;7\nSumme;16\n"
    german = _profile_text(chunk_table_source(on_disk(tmp_path, "s.csv", text), ChunkSettings(), "syntax"))
    assert "- Menge (integer): 3 values, 0 missing; min 4, max 7, total (sum) 16" in german and '"Summe"' in german
    # A last row that only names something so (a product "Total Gym") is data.
    gym = "product,units\nRowing machine,3\nTotal Gym,4\n"
    text = _profile_text(chunk_table_source(on_disk(tmp_path, "g.csv", gym), ChunkSettings(), "syntax"))
    assert "total (sum) 7" in text and "table g.csv: 2 rows x 2 columns\n" in text


@pytest.mark.parametrize("label", ["Total général", "Total general", "Suma", "Total geral", "Summa", "Somme :"])
def test_a_total_row_is_known_by_its_label_in_other_languages_too(tmp_path: Path, label: str) -> None:
    # A French, Spanish, Portuguese or Swedish sheet's total row doubled the figures as a row of data.
    text = f"Article;Quantité\nVis;5\nÉcrous;7\n{label};12\n"
    profile = _profile_text(chunk_table_source(on_disk(tmp_path, "f.csv", text), ChunkSettings(), "syntax"))
    assert "table f.csv: 2 rows x 2 columns and a total row" in profile, profile
    assert "total (sum) 12," in profile


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])  # the vectorised paths, and the csv module's
def test_a_csv_row_of_delimiters_alone_is_no_row_as_an_empty_sheet_row_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    # Excel saves rows it once formatted under a table as ",,": they were data rows of empty
    # cells, so the profile counted 5 rows and 2 missing in every column, and the "Total" above
    # them was no last row.
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 24)  # (batches of a few rows: some of them empty)
    text = "name,qty,price\r\nwürze,1,2.5\r\n,,\r\ny,2,3.5\r\n,,\r\nTotal,3,6\r\n,,\r\n,,\r\n"
    chunks = chunk_table_source(on_disk(tmp_path, "e.csv", text.encode(encoding)), ChunkSettings(table_rows=2), "syntax")
    rows = row_chunks(chunks)
    assert [(c.row_start, c.row_end, c.start_line, c.end_line) for c in rows] == [(1, 2, 2, 4), (3, 3, 6, 6)]
    assert rows[0].text == "würze,1,2.5\r\n,,\r\ny,2,3.5" and rows[1].text == "Total,3,6"  # (the file's own text)
    profile = _profile_text(chunks)
    assert "table e.csv: 2 rows x 3 columns and a total row" in profile and '(data row 3: "Total")' in profile
    assert "- qty (integer): 2 values, 0 missing; min 1, max 2, total (sum) 3" in profile
    # A one-column table's quoted empty cell stays a row (its only cell, empty).
    single = chunk_table_source(on_disk(tmp_path, "s.csv", 'name\nAda\n""\nBob\n'), ChunkSettings(), "syntax")
    assert row_chunks(single)[0].row_end == 3
    with pytest.raises(InputError, match="only a header row, no data rows"):
        chunk_table_source(on_disk(tmp_path, "h.csv", "a,b\n,\n,\n"), ChunkSettings(), "syntax")


def test_a_duration_cell_reads_as_excel_shows_it_in_hours() -> None:
    # A "[h]:mm:ss" cell (time worked, a call's length) read "1 day, 1:05:00": Python's text of a
    # timedelta, which Excel never shows, with a comma to quote in every CSV chunk.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["task", "worked"])
    for task, hours, minutes in (("build", 25, 5), ("test", 0, 45)):
        sheet.append([task, datetime.timedelta(hours=hours, minutes=minutes)])
        sheet.cell(sheet.max_row, 2).number_format = "[h]:mm:ss"
    buffer = io.BytesIO()
    book.save(buffer)
    chunks = chunk_table_source(load_bytes("t.xlsx", buffer.getvalue()), ChunkSettings(), "syntax")
    assert row_chunks(chunks)[0].text == "build,25:05:00\ntest,0:45:00"
    assert core.table_xlsx.cell_text(datetime.timedelta(seconds=-90.5)) == "-0:01:30.5"


def test_a_sheets_cells_stored_as_text_stay_text_though_they_read_as_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ids and zip codes Excel stores as text ("0007", "02134": the cell says text) were read as
    # the integers 7 and 2134, summed and averaged, where Excel's own SUM and MIN leave text out.
    # (pandas.read_excel reads them as numbers too, unless told dtype=str: it parses the text.)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["id", "zip", "units", "when"])
    for row in (["0007", "02134", 3, "2024-03-01"], ["0012", "10001", 4, "2024-03-02"], ["0101", "94110", 5, None]):
        sheet.append(row)
    sheet.append(["0102", "60601", 6, "2024-03-04"])
    sheet.cell(sheet.max_row, 2).number_format = "@"  # (Excel's Text format: a string cell all the same)
    buffer = io.BytesIO()
    book.save(buffer)
    assert sheet["A2"].data_type == "s"
    frame = pd.read_excel(io.BytesIO(buffer.getvalue()), dtype={"id": str, "zip": str})
    assert frame["id"].tolist() == ["0007", "0012", "0101", "0102"] and frame["units"].dtype.kind == "i"
    monkeypatch.setattr(core.table_xlsx, "BATCH_ROWS", 2)  # (a column turns text in any batch)
    source = load_bytes("ids.xlsx", buffer.getvalue())
    profile = _profile_text(chunk_table_source(source, ChunkSettings(), "syntax"))
    assert "- id (text): 4 values, 0 missing; 4 distinct (every value different)" in profile
    assert "- zip (text): 4 values" in profile
    assert "- units (integer): 4 values, 0 missing; min 3, max 6, total (sum) 18" in profile  # numbers stay numbers
    assert "- when (date): 3 values, 1 missing; from 2024-03-01 to 2024-03-04" in profile  # dates written as text too
    assert [c.kind for c in profile_tables(source)[0].columns] == ["text", "text", "integer", "date"]
    preview = read_table_preview(source)["ids.xlsx#Sheet"]
    assert preview["id"].tolist() == ["0007", "0012", "0101", "0102"] and preview["units"].dtype.kind == "i"
    # A column of numbers stored as numbers beside a text cell of its own ("0007" among 8, 9) is text.
    mixed = openpyxl.Workbook()
    mixed.active.append(["code", "n"])
    for row in ([8, 1], ["0007", 2], [9, 3]):
        mixed.active.append(row)
    buffer = io.BytesIO()
    mixed.save(buffer)
    assert [c.kind for c in profile_tables(load_bytes("m.xlsx", buffer.getvalue()))[0].columns] == ["text", "integer"]
    # Numbers an export tool stored as text, with no leading zero to keep, keep their figures (as
    # pandas.read_excel reads them): a sum is what an aggregate question needs.
    exported = openpyxl.Workbook()
    exported.active.append(["account", "amount"])
    for row in (["1200", "1234.5"], ["4711", "99"], ["8000", "-12.25"]):
        exported.active.append(row)
    buffer = io.BytesIO()
    exported.save(buffer)
    assert exported.active["B2"].data_type == "s"
    profile = _profile_text(chunk_table_source(load_bytes("e.xlsx", buffer.getvalue()), ChunkSettings(), "syntax"))
    assert "- amount (decimal): 3 values, 0 missing; min -12.25, max 1234.5, total (sum) 1321.25" in profile, profile


def test_numbers_under_a_format_of_zeros_keep_the_leading_zeros_excel_shows() -> None:
    # ZIP codes and ids typed as numbers and formatted ``00000`` (Excel's "Zip Code" format): the
    # sheet shows 02134, the chunks said 2134, and a question about "02134" found no row.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["store", "zip", "ssn", "units"])
    for row in (["Boston", 2134, 1234567, 3], ["Beverly Hills", 90210, 501, 4], ["Hoboken", 7030.0, 12, 5]):
        sheet.append(row)
    sheet.append(["Nowhere", 2.5, None, 6])  # a fraction keeps its digits (Excel would show 00003)
    for r in range(2, 6):
        sheet.cell(r, 2).number_format = "00000"
        sheet.cell(r, 3).number_format = "000-00-0000"
        sheet.cell(r, 4).number_format = "0"  # one zero: the number as it is
    buffer = io.BytesIO()
    book.save(buffer)
    source = load_bytes("stores.xlsx", buffer.getvalue())
    chunks = chunk_table_source(source, ChunkSettings(table_rows=10), "syntax")
    assert row_chunks(chunks)[0].text == (
        "Boston,02134,001-23-4567,3\nBeverly Hills,90210,000-00-0501,4\nHoboken,07030,000-00-0012,5\nNowhere,2.5,,6"
    )
    assert [c.kind for c in profile_tables(source)[0].columns] == ["text", "text", "text", "integer"]
    assert core.table_xlsx.zero_padded(1234567, "00000") == "1234567"  # digits past the zeros stay
    assert core.table_xlsx.zero_padded(-7, "0000") == "-0007"
    assert core.table_xlsx.zero_padded(1234567890, "000\\-00\\-0000") == "1234-56-7890"


def test_a_line_of_delimiters_alone_parts_a_csv_reports_tables_as_a_blank_line_does(tmp_path: Path) -> None:
    # Excel saves a report's empty rows between its tables as ",,,": no rows, but the tables
    # above and below them were read as one, the second's header a row of the first.
    text = ANALYTICS_EXPORT.replace("\n\n", "\n,,,\n").replace("\n# 20240101-20240131\n", "\n# 20240101-20240131,,,\n")
    source = on_disk(tmp_path, "audience.csv", text)
    chunks = chunk_table_source(source, ChunkSettings(), "syntax")
    assert [(c.symbol, c.columns, c.start_line, c.end_line) for c in row_chunks(chunks)] == [
        ("audience.csv", ("Day Index", "Users"), 8, 10),
        ("audience.csv#L12", ("Users", "New Users", "Sessions", "Bounce Rate"), 13, 13),
        ("audience.csv#L15", ("Device Category", "Users", "Sessions"), 16, 18),
    ]
    assert "- Users (integer): 3 values, 0 missing; min 34, max 700, total (sum) 1234" in _profile_text(chunks)
    statement = "Account;Number\nChecking;12345678\n;;;\n;;;\nDate;Amount;Balance\n2024-03-01;-950,00;1050,00\n;;;\n"
    assert [(p.name, p.rows) for p in profile_tables(on_disk(tmp_path, "s.csv", statement))] == [
        ("s.csv", 1), ("s.csv#L5", 1)
    ]
    # As a blank line, a line of commas inside a table does not start another (rows of its shape).
    for rows in ONE_TABLE_LAYOUTS:
        empty = "," * (max(len(row) for row in rows if row) - 1)  # (as wide as the table: as Excel writes it)
        one = "".join(f"{empty}\n" if row is None else ",".join("" if v is None else str(v) for v in row) + "\n" for row in rows)
        assert {c.symbol for c in chunk_table_source(on_disk(tmp_path, "one.csv", one), ChunkSettings(), "syntax")} == {
            "one.csv"
        }, one


def test_a_header_written_again_below_is_read_as_the_header_not_as_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two exports joined one under the other (``cat jan.csv feb.csv``): the second header made
    # "id" and "score" values of their columns, so no column held numbers only, the first row
    # was taken for data and the columns were named column_1..3, every column text.
    monkeypatch.setattr(core.table_csv, "BLOCK_BYTES", 24)  # (batches of a few rows: the repeat in one of them)
    joined = "id,name,score\n1,ann,3.5\n2,bob,4\nid,name,score\n3,cy,5\n"
    chunks = chunk_table_source(on_disk(tmp_path, "joined.csv", joined), ChunkSettings(table_rows=10), "syntax")
    rows = row_chunks(chunks)
    assert [(c.columns, c.row_start, c.row_end, c.start_line, c.end_line) for c in rows] == [
        (("id", "name", "score"), 1, 3, 2, 5)
    ]
    assert rows[0].text == "1,ann,3.5\n2,bob,4\nid,name,score\n3,cy,5"  # (the file's own text)
    assert rows[0].embed_text.count("id,name,score") == 1  # what is embedded: the header once, over 3 rows
    profile = _profile_text(chunks)
    assert "table joined.csv: 3 rows x 3 columns" in profile
    assert "note: line 4 repeats the header: read as a header, not as data" in profile
    assert "- score (decimal): 3 values, 0 missing; min 3.5, max 5, total (sum) 12.5" in profile
    # After a blank line too (one table: the same columns), and many times over.
    many = "a,b\n1,2\n\na,b\n3,4\n" + "".join(f"a,b\n{n},{n}\n" for n in range(5, 17))
    chunks = chunk_table_source(on_disk(tmp_path, "many.csv", many), ChunkSettings(table_rows=100), "syntax")
    assert [c.columns for c in row_chunks(chunks)] == [("a", "b")]
    assert "note: 13 lines repeat the header (4, 6, 8, 10, 12, 14, 16, 18, 20, 22, ...): read as headers" in _profile_text(chunks)
    assert "- a (integer): 14 values" in _profile_text(chunks)
    # A sheet's header repeated (sheets pasted one under the other, a header for each printed page).
    sheet = _rows_at(1, 1, [["id", "city"], [1, "Oslo"], [2, "Rome"], ["id", "city"], [3, "Lima"]])
    chunks = chunk_table_source(load_bytes("pages.xlsx", _xlsx_bytes(sheet)), ChunkSettings(), "syntax")
    assert [c.text for c in row_chunks(chunks)] == ["1,Oslo\n2,Rome\n3,Lima"]
    assert "note: row 4 repeats the header: read as a header, not as data" in _profile_text(chunks)


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("name\nAda\nname\nBob\n", 4),  # one column: the word may well be a value
        ("apple,red\npear,green\napple,red\n", 3),  # text only, no header: a row written twice is data
        ("id,score\n1,2\n3,4\n", 2),  # no repeat: nothing to say
    ],
)
def test_rows_are_not_left_out_as_header_repeats_where_they_may_be_data(tmp_path: Path, text: str, rows: int) -> None:
    chunks = chunk_table_source(on_disk(tmp_path, "t.csv", text), ChunkSettings(), "syntax")
    assert "repeat" not in _profile_text(chunks)
    assert sum(c.row_end - c.row_start + 1 for c in row_chunks(chunks)) == rows


def test_a_chunk_whose_lines_or_rows_moved_gets_a_new_id(tmp_path: Path) -> None:
    # A newline inside a quoted cell turned into a space: the same bytes, one line fewer. A
    # chunk after it keeps its span and text but not its lines (row batches) or rows (fixed
    # windows); an index keeps the record of an id it has, so the id must change with them.
    before = 'id,note\n1,"two\nlines"\n2,after\n'
    after = 'id,note\n1,"two lines"\n2,after\n'
    old = row_chunks(chunk_table_source(on_disk(tmp_path, "a.csv", before), ChunkSettings(table_rows=1), "syntax"))
    new = row_chunks(chunk_table_source(on_disk(tmp_path, "a.csv", after), ChunkSettings(table_rows=1), "syntax"))
    assert (old[1].text, old[1].start_byte) == (new[1].text, new[1].start_byte)
    assert old[1].start_line != new[1].start_line and old[1].id != new[1].id
    before = 'a,b\n1,x\n3,"y"\n5,6\n7,8\n'
    after = 'a,b\n1,"x\n3,y"\n5,6\n7,8\n'  # rows 1 and 2 become one row of a quoted two-line cell
    assert len(after) == len(before)
    settings = ChunkSettings(unit="chars", budget=8)
    old_w = chunk_table_source(on_disk(tmp_path, "b.csv", before), settings, "fixed")
    new_w = chunk_table_source(on_disk(tmp_path, "b.csv", after), settings, "fixed")
    moved = [(o, n) for o, n in zip(old_w, new_w) if o.text == n.text and o.start_byte == n.start_byte and o.row_start != n.row_start]
    assert moved and all(o.id != n.id for o, n in moved)
