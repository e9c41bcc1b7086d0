"""The Explore page driven through real Streamlit (AppTest): widgets in, figures and view out."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import ROOT, open_app

APP = str(ROOT / "app.py")


def metrics(at: AppTest) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for metric in at.metric:
        found.setdefault(metric.label, []).append(str(metric.value))
    return found


def view_html(at: AppTest) -> str:
    """The legend and the code view (not the chunk inspector's boxes)."""
    return "".join(h.proto.body for h in at.get("html") if 'class="ce-inspect"' not in h.proto.body)


@pytest.fixture
def app() -> AppTest:
    return open_app()


def test_opens_on_a_sample_that_shows_the_failure(app: AppTest) -> None:
    figures = metrics(app)
    fixed_cut, syntax_cut = (int(v) for v in figures["Definitions cut"])
    assert fixed_cut > syntax_cut
    # Each count says how many of its cuts were of definitions under the budget: fixed windows
    # cut them at random, syntax-aware only where a breadcrumb and header tipped one over.
    under = [int(m.delta.split()[0]) for m in app.metric if m.label == "Definitions cut"]
    assert under[0] > under[1] and all(m.delta.endswith(" under the budget") for m in app.metric if m.label == "Definitions cut")
    html = view_html(app)
    assert "✂ cuts" in html and "retry" in html
    assert app.expander[0].label == "What am I looking at?"
    # The exported command names the file as the app does (tests/test_cli.py runs such a command).
    command = next(c for c in app.code if c.value.startswith("python -m core chunk"))
    assert "sample_repos/py_inventory/inventory/" in command.value and "--root sample_repos/py_inventory" in command.value
    assert command.proto.wrap_lines  # the whole command in view, not past the box's edge
    # ... and says that the same settings index and evaluate (a pipeline is more than chunks).
    assert any("python -m core index PATH --db DIR --settings chunk-settings.json" in c.value for c in app.caption)
    # Explore draws no search: its legend names no ranks and no answer.
    assert "retrieved (rank)" not in html and "the answer" not in html


def test_budget_change_redraws_figures_and_view(app: AppTest) -> None:
    before = metrics(app)["Chunks"]
    app.slider(key="budget_tokens").set_value(100).run()
    assert not app.exception
    after = metrics(app)["Chunks"]
    assert int(after[0]) > int(before[0]) and int(after[1]) > int(before[1])
    assert "part 2/" in view_html(app) or "repeats:" in view_html(app)


def test_unit_switch_and_options(app: AppTest) -> None:
    app.selectbox(key="unit").set_value("lines").run()
    assert not app.exception
    assert "Median size (lines)" in metrics(app)
    app.slider(key="overlap_pct").set_value(20).run()
    app.toggle(key="raw").set_value(True).run()
    app.toggle(key="crumb").set_value(False).run()
    assert not app.exception
    assert any("--no-breadcrumb" in c.value for c in app.code)
    view = view_html(app)
    app.slider(key="head_pct").set_value(40).run()
    app.slider(key="head_lines").set_value(4).run()
    assert not app.exception
    assert view_html(app) == view  # vectors change, chunks do not
    assert any("--head-weight 0.4 --head-lines 4" in c.value for c in app.code)
    assert app.query_params["head_pct"] == "40"  # in the shared link too


def test_choose_another_file_of_a_project(app: AppTest) -> None:
    app.selectbox(key="project").set_value("systems_kit").run()
    app.selectbox(key="file").set_value("rust/src/lib.rs").run()
    assert not app.exception
    assert "WeightedLru" in view_html(app)


def test_pasted_code_with_a_language(app: AppTest) -> None:
    app.radio(key="source").set_value("Paste code").run()
    app.selectbox(key="paste_lang").set_value("go").run()
    app.text_area(key="paste_text").input("package m\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n").run()
    assert not app.exception
    assert "Add" in view_html(app)
    app.radio(key="source").set_value("Sample").run()
    app.radio(key="source").set_value("Paste code").run()
    assert app.selectbox(key="paste_lang").value == "go" and "Add" in view_html(app)  # kept across the switch
    app.selectbox(key="paste_lang").set_value("python").run()
    app.text_area(key="paste_text").input("".join(f"def f{i}(:\n  ))) ((( [[[ \n" for i in range(40))).run()
    assert any("fell back for this file (parse_error): most of it does not parse" in w.value for w in app.warning)
    # A file mostly sound is chunked around its damage, and the page says where.
    app.text_area(key="paste_text").input("def ok():\n    return 1\n\n\ndef broken(:\n    return (\n").run()
    assert any("does not parse (lines 5-6)" in w.value for w in app.warning), [w.value for w in app.warning]
    app.text_area(key="paste_text").input("x = 1\n" * 400_000).run()  # 2.4 MB: over a file's limit
    assert not app.exception
    assert any("pasted code: 2,400,000 bytes, over the 2,000,000-byte limit" in m.value for m in app.markdown)


def test_switching_to_pasted_code_and_back_logs_no_widget_state_warning(app: AppTest, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Streamlit logged 'The widget with key "paste_lang" was created with a default value but
    # also had its value set via the Session State API' (with a stack trace) on the way back.
    from streamlit.elements.lib import policies

    logged: list[str] = []
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)  # (once per process otherwise)
    monkeypatch.setattr(policies._LOGGER, "warning", lambda message, *args, **kwargs: logged.append(message % args))
    for source in ("Paste code", "Sample", "Paste code", "Sample", "Paste code"):
        app.radio(key="source").set_value(source).run()
        assert not app.exception
    assert app.selectbox(key="paste_lang").value == "python"
    assert not logged, logged


def inspector_boxes(at: AppTest) -> list[str]:
    """The chunk inspector's boxes as HTML (the embed_text, then the head)."""
    return [h.proto.body for h in at.get("html") if 'class="ce-inspect"' in h.proto.body]


def inspected(at: AppTest) -> list[str]:
    """The chunk inspector's boxes as their text."""
    bodies = [re.search(r'<pre class="ce-inspect"><code[^>]*>(.*)</code></pre>', box, re.S) for box in inspector_boxes(at)]
    return [html.unescape(re.sub(r"<[^>]+>", "", body.group(1))) for body in bodies if body]


def test_inspect_shows_embed_text_against_the_model_limit(app: AppTest) -> None:
    assert any("of 254 tokens" in m.value for m in app.markdown)
    # A syntax chunk (the default choice) also shows its head, the other part of its vector.
    assert any(m.value.startswith("**And its head**") and "30%" in m.value for m in app.markdown)
    embedded, head = inspected(app)
    assert embedded.startswith("# inventory/")
    assert head.splitlines()[0] == embedded.splitlines()[0] and 1 < len(head.splitlines()) <= 6
    inspector(app).set_value(("fixed", 0)).run()
    assert not any(m.value.startswith("**And its head**") for m in app.markdown)  # windows are embedded whole
    assert len(inspected(app)) == 1


def test_a_chunk_that_starts_inside_a_docstring_is_highlighted_as_a_string(app: AppTest) -> None:
    # Fixed window #2 of resilience.py starts inside retry's docstring: highlighted on its own, its
    # prose read as code and the code after the closing quotes as a string.
    inspector(app).set_value(("fixed", 1)).run()
    box = inspector_boxes(app)[0]
    assert '<span class="sd">    with up to 25 % random jitter' in box
    assert '<span class="k">if</span> <span class="n">times</span>' in box
    assert inspected(app)[0].startswith("# inventory/resilience.py\n    with up to 25 % random jitter")


def inspector(at: AppTest):  # type: ignore[no-untyped-def]
    return next(s for s in at.selectbox if s.label == "Chunk")


def test_the_inspected_chunk_is_kept_across_a_budget_change_and_in_the_link(app: AppTest) -> None:
    # It went back to syntax #1 at every budget change, and a link did not hold it.
    options = inspector(app).options
    wanted = next(i for i, o in enumerate(options) if o.startswith("syntax") and "· retry ·" in o)
    inspector(app).select_index(wanted).run()
    assert inspector(app).value[0] == "syntax"
    app.slider(key="budget_tokens").set_value(100).run()  # more chunks before it: its number changes
    assert not app.exception
    kept = inspector(app)
    assert kept.options[kept.index].startswith("syntax") and "retry" in kept.options[kept.index], kept.options[kept.index]
    link = {key: app.query_params[key] for key in app.query_params}
    assert link["inspect_at"].startswith("syntax:")
    again = AppTest.from_file(APP, default_timeout=120)
    for key, value in link.items():
        again.query_params[key] = value
    again.run()
    assert not again.exception
    assert inspector(again).value == kept.value
    assert "inspect_at" not in open_app().query_params  # the first chunk, shown by default, is not written

def _linked(params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def test_a_link_to_a_window_opens_that_window_not_the_one_before_it_that_shares_its_line() -> None:
    # With overlap, window #2 (lines 10-25) and #3 (lines 25-38) share line 25: a link to
    # ``fixed:25`` opened #2, the first window over the line.
    params = {"unit": "nws", "budget_nws": "400", "overlap_pct": "10", "project": "ts_storefront",
              "file": "src/components/ProductCard.tsx"}  # fmt: skip
    at = _linked(params)
    options = inspector(at).options
    fixed = [(i, o) for i, o in enumerate(options) if o.startswith("fixed")]
    lines = [tuple(int(n) for n in re.search(r"lines (\d+)-(\d+)", o).groups()) for _, o in fixed]
    shared = next(k for k in range(1, len(lines)) if lines[k][0] == lines[k - 1][1])
    again = _linked({**params, "inspect_at": f"fixed:{lines[shared][0]}"})
    assert inspector(again).index == fixed[shared][0], (inspector(again).index, fixed[shared])
    assert again.query_params["inspect_at"] == f"fixed:{lines[shared][0]}"
    # A link's chunk that is none of this file's is said, not dropped without a word.
    odd = _linked({**params, "inspect_at": "syntax:9999"})
    assert any("The link's inspect_at `syntax:9999` names no chunk of this file here" in i.value for i in odd.info)


def test_shared_link_reproduces_the_view() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["unit"] = "chars"
    at.query_params["budget_chars"] = "400"
    at.query_params["project"] = "ts_storefront"
    at.query_params["file"] = "src/cart.ts"
    at.run()
    assert not at.exception
    assert at.selectbox(key="unit").value == "chars"
    assert at.slider(key="budget_chars").value == 400
    assert "ShoppingCart" in view_html(at)


def test_a_project_opens_on_a_code_file_and_a_links_missing_file_is_said(app: AppTest) -> None:
    # Projects opened on the README (or __init__.py) that sorts first, not on code.
    app.selectbox(key="project").set_value("jvm_billing").run()
    assert not app.exception
    assert app.selectbox(key="file").value == "src/main/java/billing/InvoiceService.java"
    data = _zip({"repo/README.md": b"# Repo\n", "repo/pkg/__init__.py": b"", "repo/pkg/main.py": b"def main():\n    return 0\n"})
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("repo.zip", data, "application/zip").run()
    assert app.selectbox(key="file").value == "pkg/main.py"
    # An upload's file means nothing in a link (it opens on a sample project): it stays out.
    app.selectbox(key="file").set_value("README.md").run()
    assert app.query_params["source"] == "Upload zip" and "file" not in app.query_params
    # A link naming a file the project does not hold says so, and which file is shown.
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["project"] = "ts_storefront"
    at.query_params["file"] = "src/no_such_file.ts"
    at.run()
    assert not at.exception
    shown = at.selectbox(key="file").value
    assert shown.endswith((".js", ".ts")), shown
    notes = [i.value for i in at.info if "src/no_such_file.ts" in i.value]
    assert len(notes) == 1 and f"`{shown}`" in notes[0], notes
    at.slider(key="budget_tokens").set_value(200).run()
    assert not any("no_such_file" in i.value for i in at.info)  # said once, on the link's own run


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_upload_files_good_and_bad(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload files").run()
    uploader = app.file_uploader(key="upload_files")
    assert "2,000,000 bytes" in uploader.help  # the box says 50MB; code files have a limit of their own
    uploader.upload("calc.rb", b"class Calc\n  def add(a, b)\n    a + b\n  end\nend\n")
    uploader.upload("logo.py", b"\x89PNG\x00\x00\x01binary")
    uploader.upload("empty.js", b"")
    app.run()
    assert not app.exception
    text = " ".join(m.value for m in app.markdown)
    assert "logo.py: binary" in text and "empty.js: empty file" in text
    assert "Calc" in view_html(app)
    app.file_uploader(key="upload_files").upload("legacy.py", "x = 'café'\n".encode("cp1252")).run()
    assert any("legacy.py" in c.value and "not UTF-8: read as cp1252" in c.value for c in app.caption)
    assert "café" in view_html(app)


def test_an_upload_of_unknown_type_gets_a_language_picker(app: AppTest) -> None:
    # "pick its language (--language in the CLI)": the Upload files source had no picker.
    app.radio(key="source").set_value("Upload files").run()
    app.file_uploader(key="upload_files").upload("notes.xyz", b"def tally(items):\n    return sum(items)\n").run()
    assert not app.exception
    text = " ".join(m.value for m in app.markdown)
    assert "notes.xyz: unknown file type; pick its language above, or rename the file" in text
    assert "--language" not in text
    picker = app.selectbox(key="upload_lang")
    assert picker.label == "Language of the file of unknown type" and picker.value == "(none: rename the file)"
    picker.set_value("python").run()
    assert not app.exception
    assert "unknown file type" not in " ".join(m.value for m in app.markdown)
    assert "tally" in view_html(app)
    command = next(c.value for c in app.code if "python -m core chunk" in c.value)
    assert "notes.xyz" in command and "--language python" in command


def test_an_uploaded_script_without_an_extension_is_read_by_its_shebang(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload files").run()
    app.file_uploader(key="upload_files").upload("deploy", b"#!/bin/sh\ndeploy() {\n  echo go\n}\ndeploy\n").run()
    assert not app.exception
    assert "unknown file type" not in " ".join(m.value for m in app.markdown)
    assert "upload_lang" not in [box.key for box in app.selectbox], "no language to pick: its #! line says"
    assert any("deploy" in c.value and "bash" in c.value for c in app.caption)
    command = next(c.value for c in app.code if "python -m core chunk" in c.value)
    assert "--language" not in command


def test_counts_of_uploaded_and_refused_files_read_as_words(app: AppTest) -> None:
    # "Files in upload (2)" named the upload as if it were a project; "1 file(s) could not be used".
    app.radio(key="source").set_value("Upload files").run()
    uploader = app.file_uploader(key="upload_files")
    uploader.upload("a.py", b"def a():\n    return 1\n")
    uploader.upload("b.py", b"def b():\n    return 2\n")
    uploader.upload("empty.js", b"")
    app.run()
    assert not app.exception
    labels = [e.label for e in app.expander]
    assert "Files you uploaded (2), worst first" in labels and "⚠️ A file could not be used" in labels, labels
    app.radio(key="source").set_value("Upload zip").run()
    bad = _zip({"r/a.py": b"def a():\n    return 1\n", "r/b.py": b"x = 1\n", "r/x.bin.py": b"\x00\x01" * 40,
                "r/y.bin.py": b"\x00\x02" * 40})
    app.file_uploader(key="upload_zip").upload("r.zip", bad, "application/zip").run()
    labels = [e.label for e in app.expander]
    assert "Files in `r.zip` (2), worst first" in labels and "⚠️ 2 files could not be used" in labels, labels


def test_the_file_list_counts_lines_as_the_view_numbers_them(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload files").run()
    uploader = app.file_uploader(key="upload_files")
    uploader.upload("ended.py", b"a = 1\nb = 2\n")
    uploader.upload("open.py", b"a = 1\nb = 2")
    app.run()
    assert not app.dataframe, "the list's figures are computed when it is opened, not on every rerun"
    app.session_state["files_open"] = True  # what opening the list does
    app.run()
    figures = app.dataframe[0].value.set_index("file")
    assert figures.loc["ended.py", "lines"] == figures.loc["open.py", "lines"] == 2


def test_upload_a_zipped_repository_with_hostile_entries(app: AppTest) -> None:
    data = _zip({
        "repo-main/src/util.go": b"package util\n\nfunc Twice(x int) int {\n\treturn 2 * x\n}\n",
        "repo-main/src/app.py": b"def main():\n    return 0\n",
        "../../etc/evil.py": b"x = 1\n",
        "repo-main/bin/blob.c": b"\x00\x01\x02" * 50,
    })
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("repo.zip", data, "application/zip").run()
    assert not app.exception
    text = " ".join(m.value for m in app.markdown)
    assert "unsafe path" in text and "binary" in text
    assert app.selectbox(key="file").options == ["src/app.py", "src/util.go"]
    assert any(e.label.startswith("Files in `repo.zip` (2)") for e in app.expander)


def test_an_odd_file_name_is_shown_as_written_not_as_markup_or_a_link(app: AppTest) -> None:
    # Escaped as markup, "http://evil)..." was still a link in GitHub-flavoured Markdown, its
    # escaping backslashes shown in it.
    odd = "[link](http://evil)_*x*.py"
    data = _zip({f"repo/{odd}": b"def x():\n    return 1\n", "repo/www.evil.com.py": b"y = 2\n"})
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("[z](https://evil).zip", data, "application/zip").run()
    app.selectbox(key="file").set_value(odd).run()
    assert not app.exception
    caption = next(c.value for c in app.caption if "· budget" in c.value)
    assert caption.startswith(f"**`{odd}`** · python"), caption
    listing = next(e.label for e in app.expander if e.label.startswith("Files in"))
    assert listing.startswith("Files in `[z](https://evil).zip` (2)"), listing
    for shown in (caption, listing):  # outside its code span nothing is a link, nothing escaped
        outside = re.sub(r"`[^`]*`", "", shown)
        assert "](" not in outside and "//" not in outside and "\\" not in outside, shown


def test_a_bad_zip_shows_an_error_and_the_page_keeps_working(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("broken.zip", b"PK\x03\x04 not really", "application/zip").run()
    assert not app.exception
    assert any("broken.zip: not a valid zip" in m.value for m in app.markdown)  # named as uploaded
    damaged = bytearray(_zip({"repo/a.py": b"def a():\n    return 1\n" * 200, "repo/b.py": b"def b():\n    return 2\n" * 200}))
    for i in range(60, 120):  # zlib fails inside the member
        damaged[i] ^= 0xFF
    app.file_uploader(key="upload_zip").upload("damaged.zip", bytes(damaged), "application/zip").run()
    assert not app.exception
    assert any("corrupt archive member" in m.value for m in app.markdown)
    tables = _zip({"t/a.csv": b"x,y\n1,2\n", "t/b.py": b"def b():\n    return 2\n"})
    app.file_uploader(key="upload_zip").upload("mixed.zip", tables, "application/zip").run()
    assert any("skipped a.csv: a table (open it on the Tables page)" in m.value for m in app.markdown)
    app.radio(key="source").set_value("Sample").run()
    assert not app.exception and app.metric


def test_a_long_file_is_drawn_a_window_at_a_time_and_a_minified_one_not_at_all(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload files").run()
    many = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(1_000))  # 3,000 lines
    app.file_uploader(key="upload_files").upload("many.py", many.encode()).run()
    assert not app.exception
    assert app.selectbox(key="view_from").options == ["1-2,000", "2,001-3,000"]
    html = view_html(app)
    assert "f600" in html and "f700" not in html  # lines 1,801-1,803 hold f600; f700 starts at 2,101
    app.selectbox(key="view_from").set_value(2001).run()
    assert "f700" in view_html(app) and not app.exception
    # Over 2,000 chunks are picked by strategy and number, not listed (a list of 35,000 made
    # every rerun of a 2 MB file seconds long).
    app.slider(key="budget_tokens").set_value(16).run()
    assert not app.exception and not [s for s in app.selectbox if s.key == "inspect"]
    app.number_input(key="inspect_number").set_value(1001).run()
    assert any(c.value.startswith("syntax #1001 ") for c in app.caption), [c.value for c in app.caption][-3:]
    last = int(app.number_input(key="inspect_number").max)
    app.number_input(key="inspect_number").set_value(last).run()
    app.radio(key="inspect_strategy").set_value("fixed").run()  # fewer chunks: the number follows
    assert not app.exception and app.number_input(key="inspect_number").value <= app.number_input(key="inspect_number").max
    minified = ("var a=1;" * 50_000).encode()  # 400 KB on one line
    app.file_uploader(key="upload_files").upload("min.js", minified).run()
    assert not app.exception
    assert any("too many to draw here" in i.value for i in app.info)
    assert app.metric  # the figures are there all the same


def test_the_source_file_and_uploads_are_kept_across_pages(app: AppTest) -> None:
    # Streamlit drops a widget's value with a page that does not draw it: a visit to Tables sent
    # Explore back to the default sample, Retrieve lost the file, and uploads were gone.
    app.selectbox(key="project").set_value("systems_kit").run()
    app.selectbox(key="file").set_value("go/ratelimit/limiter.go").run()
    for page in ("pages/tables.py", "pages/retrieve.py"):
        app.switch_page(page).run()
        app.switch_page("pages/explore.py").run()
        assert not app.exception
        assert (app.selectbox(key="project").value, app.selectbox(key="file").value) == ("systems_kit", "go/ratelimit/limiter.go"), page
    app.radio(key="source").set_value("Upload files").run()
    app.file_uploader(key="upload_files").upload("kept.py", b"def kept_across_pages():\n    return 1\n").run()
    app.switch_page("pages/tables.py").run()
    app.switch_page("pages/explore.py").run()
    assert app.radio(key="source").value == "Upload files" and "kept_across_pages" in view_html(app)
    assert any("uploaded earlier in this session: `kept.py`" in c.value for c in app.caption)
    app.button(key="forget_kept_uploads").click().run()
    assert not app.exception and "kept_across_pages" not in view_html(app)


def test_a_zip_among_uploaded_files_points_to_upload_zip(app: AppTest) -> None:
    # It said "repo.zip: binary file (not text)", as if the archive were broken.
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("a.py", "def a():\n    return 1\n")
    app.radio(key="source").set_value("Upload files").run()
    app.file_uploader(key="upload_files").upload("repo.zip", archive.getvalue()).run()
    shown = " ".join(str(e.value) for e in [*app.warning, *app.error, *app.markdown, *app.caption])
    assert not app.exception and "repo.zip: a zipped repository; pick Upload zip above to open it" in shown, shown


def test_an_uploads_text_encoding_can_be_given(app: AppTest) -> None:
    source = "".join(f'CITY_{i} = "Москва, Екатеринбург, Новосибирск"\n' for i in range(30))
    app.radio(key="source").set_value("Upload files").run()
    app.file_uploader(key="upload_files").upload("cities.py", source.encode("koi8_r")).run()
    app.selectbox(key="encoding").set_value("koi8_r").run()
    assert not app.exception and "Екатеринбург" in view_html(app)
    assert any("read as koi8-r" in c.value for c in app.caption)
    command = next(c.value for c in app.code if c.value.startswith("python -m core chunk"))
    assert "--encoding koi8_r" in command


def test_a_zipped_projects_encoding_is_given_for_its_files_that_are_not_utf8(app: AppTest) -> None:
    source = "".join(f'CITY_{i} = "Москва, Екатеринбург, Новосибирск"\n' for i in range(30))
    data = _zip({"proj/cities.py": source.encode("koi8_r"), "proj/kyiv.py": 'CITY = "Київ"\n'.encode()})
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("proj.zip", data, "application/zip").run()
    app.selectbox(key="file").set_value("cities.py").run()
    app.selectbox(key="zip_encoding").set_value("koi8_r").run()
    assert not app.exception and "Екатеринбург" in view_html(app)
    command = next(c.value for c in app.code if c.value.startswith("python -m core chunk"))
    assert "proj.zip" in command and "--encoding koi8_r" in command
    app.selectbox(key="file").set_value("kyiv.py").run()
    assert "Київ" in view_html(app)  # UTF-8 stays UTF-8


def test_an_overlap_a_files_breadcrumb_leaves_no_room_for_is_said_not_a_crash(app: AppTest) -> None:
    # The smallest budget with the largest overlap: after a deep path's breadcrumb a window had
    # less room than the overlap, and the fixed windows nested in one another by the thousand.
    app.selectbox(key="file").set_value("inventory/resilience.py").run()
    app.slider(key="budget_tokens").set_value(16).run()
    app.slider(key="overlap_pct").set_value(50).run()
    assert not app.exception and not app.error
    assert any("Half its room is repeated instead" in i.value for i in app.info)


def test_a_server_that_offers_the_bundled_model_alone_looks_for_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    # A workshop server: a link's (or a box's) model must not make it open a folder of its disk.
    from pages import common

    monkeypatch.setenv("CHUNK_EXPLORER_MODELS", "")
    looked_for: list[str] = []
    real = common.load_tokenizer
    monkeypatch.setattr(common, "load_tokenizer", lambda model: looked_for.append(model) or real(model))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["model"] = "/etc"
    at.run()
    assert not at.exception, at.exception
    assert "/etc" not in looked_for
    assert any("cannot be used here" in w.value for w in at.warning)
    assert any("not one this server offers" in e.value for e in at.sidebar.error)
    box = at.sidebar.text_input(key="model")
    assert box.disabled and "bundled all-MiniLM-L6-v2 only" in box.help


def test_chunks_over_the_budget_are_counted_on_the_figures() -> None:
    # At a tiny budget most syntax chunks are a signature and breadcrumb alone, over it: the
    # figures said nothing of it, and "No signature" read as the only trouble.
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["budget_tokens"] = "16"
    at.run()
    assert not at.exception, at.exception
    chunks = [m for m in at.metric if m.label == "Chunks"]
    assert len(chunks) == 2 and chunks[1].delta and chunks[1].delta.endswith(" over the budget")
    over = int(chunks[1].delta.split()[0])
    assert 0 < over <= int(chunks[1].value)
    default = open_app()
    assert not any(m.delta for m in default.metric if m.label == "Chunks")  # none at the default budget


def test_a_name_stored_twice_in_a_zip_is_noted_not_listed_as_unusable(app: AppTest) -> None:
    buffer = io.BytesIO()
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("r/a.py", "def old():\n    return 0\n")
        archive.writestr("r/a.py", "def new():\n    return 1\n")
        archive.writestr("r/b.py", "x = 1\n")
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("r.zip", buffer.getvalue(), "application/zip").run()
    assert not app.exception
    assert not any("could not be used" in e.label for e in app.expander)
    assert any("a.py" in c.value and "stored more than once" in c.value for c in app.caption)
    assert ">new<" in view_html(app) and ">old<" not in view_html(app)  # its last copy is read


def test_a_links_values_the_page_cannot_take_are_said() -> None:
    # They fell back to the defaults without a word (a budget past the slider, an unknown project).
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["budget_tokens"] = "99999"
    at.query_params["project"] = "nope"
    at.run()
    assert not at.exception, at.exception
    said = [i.value for i in at.info] + [i.value for i in at.sidebar.info]
    assert any("budget_tokens `99999`" in s and "(16 to 1,024)" in s and "`254`" in s for s in said), said
    assert any("project `nope`" in s and "`py_inventory`" in s for s in said), said
    assert at.slider(key="budget_tokens").value == 254
    at.slider(key="budget_tokens").set_value(200).run()
    assert not [i for i in [*at.info, *at.sidebar.info] if "The link's" in i.value]  # said once, on the link's run


def test_switching_project_says_nothing_of_the_last_projects_file(app: AppTest) -> None:
    # The URL still names the last project's file when the next project is drawn: no link of
    # anyone's, so nothing to say.
    app.selectbox(key="file").set_value("inventory/ledger.py").run()
    app.selectbox(key="project").set_value("jvm_billing").run()
    assert not app.exception
    assert not [i.value for i in [*app.info, *app.sidebar.info] if "The link's" in i.value]


def test_a_notebook_is_drawn_as_the_script_of_its_cells(app: AppTest) -> None:
    app.selectbox(key="file").set_value("notebooks/low_stock_review.ipynb").run()
    assert not app.exception
    view = view_html(app)
    assert "cell 1 [markdown]" in view and "days_of_cover" in view and "iVBOR" not in view
    caption = next(c for c in app.caption if "low_stock_review.ipynb" in c.value)
    assert "a notebook: its cells as a script" in caption.value
    assert "a Jupyter notebook (python kernel) read as a python script" in caption.proto.help
    command = next(c for c in app.code if c.value.startswith("python -m core chunk"))
    assert "notebooks/low_stock_review.ipynb" in command.value
    # Said beside the file only: the project's other files open without a word on it.
    app.selectbox(key="file").set_value("inventory/ledger.py").run()
    assert not any("notebook" in c.value or "notebook" in c.proto.help for c in app.caption)


def test_an_uploaded_notebook_is_read_and_a_broken_one_refused(app: AppTest) -> None:
    app.radio(key="source").set_value("Upload files").run()
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["def area(r):\n", "    return 3.14 * r * r\n"]}
    notebook = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    uploader = app.file_uploader(key="upload_files")
    uploader.upload("shapes.ipynb", notebook)
    uploader.upload("broken.ipynb", b'{"cells": [')
    app.run()
    assert not app.exception
    assert "area" in view_html(app)
    assert "broken.ipynb: not a valid notebook" in " ".join(m.value for m in app.markdown)


def test_a_zipped_notebook_is_said_beside_the_file_not_above_the_project(app: AppTest) -> None:
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "source": "def area(r):\n    return 3.14 * r * r\n"}
    notebook = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("nb.zip", _zip({"r/a.py": b"x = 1\n", "r/shapes.ipynb": notebook}),
                                               "application/zip").run()
    assert not app.exception
    assert app.selectbox(key="file").options == ["a.py", "shapes.ipynb"]
    assert not any("Jupyter" in c.value for c in app.caption)  # no note above the project for one file of it
    app.selectbox(key="file").set_value("shapes.ipynb").run()
    assert "area" in view_html(app)
    assert any("Jupyter notebook" in c.proto.help for c in app.caption if "shapes.ipynb" in c.value)


def test_a_vue_components_script_is_chunked_and_measured_as_code(app: AppTest) -> None:
    from tests.test_embedded import COMPONENT

    app.radio(key="source").set_value("Paste code").run()
    app.selectbox(key="paste_lang").set_value("vue").run()
    app.text_area(key="paste_text").input(COMPONENT).run()
    app.selectbox(key="unit").set_value("lines").run()
    app.slider(key="budget_lines").set_value(12).run()
    assert not app.exception
    fixed_cut, syntax_cut = (int(v) for v in metrics(app)["Definitions cut"])
    assert (fixed_cut, syntax_cut) == (1, 0)  # fixed windows cut subtotal; the script's chunks keep it whole
    view = view_html(app)
    assert "subtotal" in view and "addLine" in view


def test_a_zip_with_nothing_usable_lists_why_openly(app: AppTest) -> None:
    # Four problems folded the list away, and the empty page's hint read as if the upload were ignored.
    data = _zip({f"repo/blob{i}.py": b"\x00\x01binary\x00" * 10 for i in range(4)})
    app.radio(key="source").set_value("Upload zip").run()
    app.file_uploader(key="upload_zip").upload("blobs.zip", data, "application/zip").run()
    assert not app.exception
    problems = next(e for e in app.expander if "4 files could not be used" in e.label)
    assert problems.proto.expanded
    assert [e.value for e in app.error] == ["Nothing here could be used: the list above says why, file by file."]
