"""The Tables page in real Streamlit: samples, uploads, options, figures and bad files."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import open_app, plan_workbook


def figures(at: AppTest) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for metric in at.metric:
        found.setdefault(metric.label, []).append(int(metric.value))
    return found


@pytest.fixture
def tables() -> AppTest:
    return open_app("pages/tables.py", timeout=120)


def test_opens_on_a_sample_where_naive_windows_lose_the_header(tables: AppTest) -> None:
    found = figures(tables)
    naive_lost, table_lost = found["Without header"]
    assert naive_lost > 0 and table_lost == 0
    assert found["Rows split"][1] == 0
    assert any("header lost" in c.value for c in tables.caption)
    assert any(c.value.startswith("`sales.csv`") for c in tables.caption), "the profile chunk is shown"
    # Every column of a chunk in view, on a projector too: its lines wrap.
    assert tables.code and all(c.proto.wrap_lines for c in tables.code)


def test_rows_per_chunk_and_format(tables: AppTest) -> None:
    tables.number_input(key="rows").set_value(5).run()
    tables.selectbox(key="fmt").set_value("records").run()
    assert not tables.exception
    row_captions = [c.value for c in tables.caption if "rows " in c.value and "·" in c.value]
    assert any("rows 1-5" in c for c in row_captions)
    assert any(": " in code.value and "\n" in code.value for code in tables.code)
    tables.selectbox(key="has_header").set_value("no").run()
    command = next(c.value for c in tables.code if c.value.startswith("python -m core chunk"))
    assert "--rows 5 --format records" in command and command.endswith("--header no")


def test_xlsx_sample_with_two_sheets(tables: AppTest) -> None:
    tables.selectbox(key="table").set_value("budget.xlsx").run()
    assert not tables.exception
    assert sum("#" in m.value and ".xlsx#" in m.value for m in tables.markdown) >= 2


def test_upload_good_and_bad_tables(tables: AppTest) -> None:
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("mini.csv", b"city,temp\nOslo,3\nRome,18\n", "text/csv").run()
    assert not tables.exception
    assert figures(tables)["Without header"][1] == 0
    chunks = next(m for m in tables.metric if m.label == "Chunks" and "profile" in (m.help or ""))
    assert int(chunks.value) == 2 and chunks.help == "one chunk of rows and a profile chunk"  # the profile counts
    # A link keeps the settings of an upload too (not its name: the table is in the session only).
    tables.selectbox(key="fmt").set_value("records").run()
    assert tables.query_params["fmt"] == "records" and tables.query_params["tsource"] == "Upload"
    assert "table" not in tables.query_params
    tables.file_uploader(key="upload_table").set_value(("fake.xlsx", b"PK\x03\x04 not a workbook", "application/zip")).run()
    assert not tables.exception
    assert tables.error, "a broken workbook gets a clear message"
    unicode_text = "city\ttemp\r\nZürich\t3\r\nRome\t18\r\n".encode("utf-16")  # Excel's "Unicode Text"
    tables.file_uploader(key="upload_table").set_value(("unicode.tsv", unicode_text, "text/tab-separated-values")).run()
    assert not tables.exception and not tables.error
    assert any("unicode.tsv" in m.value and "not UTF-8: read as utf-16" in m.value for m in tables.markdown)
    tables.file_uploader(key="upload_table").set_value(("blob.csv", b"\x00\x01\x02\x03" * 40, "text/csv")).run()
    assert not tables.exception and tables.error
    unclosed = b'a,b,c\n1,"hello,2\n3,4,5\n6,7,8\n'
    tables.file_uploader(key="upload_table").set_value(("unclosed.csv", unclosed, "text/csv")).run()
    assert not tables.exception
    assert any("line 2: a quoted cell is never closed" in e.value for e in tables.error)
    # Another type of file: the browser said only "files are not allowed", the page "upload one".
    for name, says in (("thing.py", "code and text files open on the Explore code page"), ("old.xls", "save it as .xlsx or CSV")):
        tables.file_uploader(key="upload_table").set_value((name, b"x = 1\n", "text/plain")).run()
        assert not tables.exception
        assert [e.value for e in tables.error] == [f"{name}: not a CSV, TSV or XLSX file; {says}"]
        assert not any("Pick a sample table" in i.value for i in tables.info)


def test_the_previews_row_count_reads_as_words(tables: AppTest) -> None:
    # "first 1 rows", and "first 2 rows" of a table of two.
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("one.csv", b"city,temp\nOslo,3\n", "text/csv").run()
    assert any(m.value.startswith("**`one.csv`") and m.value.endswith("its one row") for m in tables.markdown)
    tables.file_uploader(key="upload_table").upload("two.csv", b"city,temp\nOslo,3\nRome,18\n", "text/csv").run()
    assert any(m.value.startswith("**`two.csv`") and m.value.endswith("its 2 rows") for m in tables.markdown)
    many = b"n,sq\n" + b"".join(b"%d,%d\n" % (i, i * i) for i in range(300))
    tables.file_uploader(key="upload_table").upload("many.csv", many, "text/csv").run()
    assert any(m.value.startswith("**`many.csv`") and m.value.endswith("first 200 rows") for m in tables.markdown)
    # A table of exactly as many rows as a preview shows is shown whole: "its 200 rows".
    exact = b"n,sq\n" + b"".join(b"%d,%d\n" % (i, i * i) for i in range(200))
    tables.file_uploader(key="upload_table").upload("exact.csv", exact, "text/csv").run()
    assert any(m.value.startswith("**`exact.csv`") and m.value.endswith("its 200 rows") for m in tables.markdown)


def test_the_preview_shows_numbers_as_the_chunks_do(tables: AppTest) -> None:
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("o.csv", b"id,qty\n1,119.00\n2,63189.00\n", "text/csv").run()
    assert not tables.exception
    assert any("119.00" in c.value for c in tables.code), "the chunks keep the cell's text"
    columns = json.loads(tables.dataframe[0].proto.columns)
    assert columns["qty"]["type_config"]["format"] == "%.2f", columns


def test_a_workbook_sheet_of_a_header_alone_is_shown_as_such(tables: AppTest) -> None:
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("plan.xlsx", plan_workbook(), "application/zip").run()
    assert not tables.exception and not tables.error
    assert any("plan.xlsx#Plan" in m.value and "a header row, no data rows" in m.value for m in tables.markdown)
    assert any("plan.xlsx#Plan" in c.value and "no data rows under it" in c.value for c in tables.code)


def test_an_uploaded_table_and_its_choices_are_kept_across_pages(tables: AppTest) -> None:
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("mini.csv", b"city,temp\nOslo,3\nRome,18\n", "text/csv").run()
    tables.selectbox(key="fmt").set_value("markdown").run()
    tables.switch_page("pages/explore.py").run()
    tables.switch_page("pages/tables.py").run()
    assert not tables.exception
    assert tables.radio(key="tsource").value == "Upload" and tables.selectbox(key="fmt").value == "markdown"
    assert any("uploaded earlier in this session: `mini.csv`" in c.value for c in tables.caption)
    assert figures(tables)["Without header"][1] == 0


def test_an_uploaded_tables_encoding_can_be_given(tables: AppTest) -> None:
    # A repetitive KOI8-R table, which the detector read as a Japanese encoding.
    rows = "город,население\n" + "Екатеринбург,9729816\nМосква,12600000\n" * 40
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("ru.csv", rows.encode("koi8_r"), "text/csv").run()
    tables.selectbox(key="tencoding").set_value("koi8_r").run()
    assert not tables.exception and not tables.error
    assert any("ru.csv" in m.value and "read as koi8-r" in m.value for m in tables.markdown)
    assert any("Москва" in c.value and "население" in c.value for c in tables.code)
    assert any("--encoding koi8-r" in c.value for c in tables.code), "the exported command says it too"


def test_a_workbook_of_many_tables_previews_a_few_and_says_so(tables: AppTest) -> None:
    import io

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for i in range(200):  # 200 little tables under each other, each unlike the one above: read apart up to a bound
        width = 2 + i % 2
        for row in ([f"name{i}", f"value{i}", "unit"], ["x", i, "kg"], ["y", i + 1, "kg"]):
            sheet.append(row[:width])
        sheet.append([])
    raw = io.BytesIO()
    book.save(raw)
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("many.xlsx", raw.getvalue(), "application/zip").run()
    assert not tables.exception and not tables.error
    assert len(tables.dataframe) == 12
    assert any("38 more tables are not previewed" in c.value for c in tables.caption)


def test_an_uploaded_csv_of_sections_is_shown_table_by_table(tables: AppTest) -> None:
    from tests.test_tables import ANALYTICS_EXPORT

    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("audience.csv", ANALYTICS_EXPORT.encode(), "text/csv").run()
    assert not tables.exception and not tables.error
    assert len(tables.dataframe) == 3
    headings = [m.value for m in tables.markdown if "audience.csv" in m.value]
    assert any("audience.csv#L12" in h for h in headings) and any("audience.csv#L15" in h for h in headings)
    assert figures(tables)["Without header"][1] == 0


def test_table_chunks_over_the_models_limit_are_explained(tables: AppTest) -> None:
    # A 32-column table: one row with its header is over the model's 256 tokens. Every table
    # chunk was "oversized" and "over model limit" while the naive windows showed 0, unexplained.
    tables.selectbox(key="table").set_value("weather_stations.csv").run()
    assert not tables.exception
    wide = [w.value for w in tables.warning if "with the column names are each already longer than the model" in w.value]
    assert wide and "The naive windows fit only because they drop the column names" in wide[0]
    tables.selectbox(key="table").set_value("sales.csv").run()
    assert not tables.warning
    tables.number_input(key="rows").set_value(10).run()
    tables.selectbox(key="fmt").set_value("records").run()
    assert any("rows per chunk (10) is kept whatever the size" in w.value for w in tables.warning)


def test_the_export_flags_what_the_figures_count_over_the_models_limit(tables: AppTest) -> None:
    # The figures said "Over model limit: 4" in chars, and the exported command (and downloads)
    # flagged none: --model-check is on them in every unit but tokens, where it is always done.
    tables.selectbox(key="table").set_value("weather_stations.csv").run()
    tables.selectbox(key="unit").set_value("chars").run()
    assert not tables.exception
    command = next(c.value for c in tables.code if c.value.startswith("python -m core chunk"))
    assert command.endswith("--model-check") and any("--model-check" in c.value for c in tables.caption)
    tables.selectbox(key="unit").set_value("tokens").run()
    assert "--model-check" not in next(c.value for c in tables.code if c.value.startswith("python -m core chunk"))


def test_one_long_cell_over_the_models_limit_is_explained_without_blaming_the_columns(tables: AppTest) -> None:
    # Three columns, one long cell: the warning said "these 1 chunks", "a table this wide", and
    # that the naive windows fit, while they cut the row in two.
    text = "id,text,n\n1," + " ".join(["stock order"] * 400) + ",5\n2,short,6\n"
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("notes.csv", text.encode(), "text/csv").run()
    assert not tables.exception
    (warning,) = [w.value for w in tables.warning if "already longer than the model reads" in w.value]
    assert warning.startswith("A row with the column names is already longer") and "its chunk holds it alone" in warning
    assert "naive windows fit" not in warning and "these 1" not in warning and "wide" not in warning


def test_a_cell_of_a_megabyte_is_drawn_cut_short(tables: AppTest) -> None:
    # Drawn whole, its line wrapped into some 22,000 lines in each chunk's box.
    cell = "x" * 1_000_000
    tables.radio(key="tsource").set_value("Upload").run()
    tables.file_uploader(key="upload_table").upload("big.csv", f"id,note,val\n1,{cell},3\n2,short,4\n".encode(), "text/csv").run()
    assert not tables.exception
    boxes = [c.value for c in tables.code if "short,4" in c.value or "x" * 100 in c.value]
    assert len(boxes) == 2 and all(len(box) < 5_000 for box in boxes), [len(b) for b in boxes]
    assert all("… [998," in box and "more characters]" in box and "2,short,4" in box for box in boxes)
    assert sum("cut short here; the chunk and the exports hold all of it" in c.value for c in tables.caption) == 2
