"""The Retrieve page in real Streamlit with the real bundled model and a real Chroma on disk."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import ROOT, open_app, turn_held_by_another

APP = str(ROOT / "app.py")
QUESTION = "How are stale reservations that nobody confirmed given back to available stock?"


@pytest.fixture
def retrieve() -> AppTest:
    return open_app("pages/retrieve.py", timeout=600)


def results(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("**#")]


def ask_anew(at: AppTest, question: str) -> None:
    """Ask ``question`` after one on inventory/ledger.py: no answer is marked for it, and the
    file shown is its top result's."""
    at.text_input(key="q").set_value(question).run()
    assert not at.exception
    assert at.selectbox(key="answer").value == "(none)"
    top = re.search(r"`([^`]+)`", results(at)[0]).group(1)
    assert at.selectbox(key="view_file").value == top != "inventory/ledger.py"


def test_index_query_and_mark_the_answer(retrieve: AppTest) -> None:
    assert any("Indexed." in s.value for s in retrieve.success)
    # ledger.py's four rule-and-title comments are chunks the index leaves out, and says so.
    assert any("syntax: " in s.value and "4 section dividers left out" in s.value for s in retrieve.success)
    # The dividers are not among the chunks indexed, and the line says so.
    assert any(re.search(r"syntax: \d+ chunks indexed \([^)]*\), and 4 section dividers left out", s.value)
               for s in retrieve.success), [s.value for s in retrieve.success]
    retrieve.pills(key="sample_q").set_value(QUESTION).run()
    assert not retrieve.exception
    assert retrieve.text_input(key="q").value == QUESTION
    found = results(retrieve)
    assert len(found) == 10, found  # k=5 per strategy
    # (Markdown source: the symbol's underscores are escaped so that they show as written.)
    assert any("whole InventoryLedger.release\\_expired" in r for r in found[5:]), "syntax returns it whole"
    # The sample question knows its answer: the figures are there at once.
    assert retrieve.selectbox(key="answer").value == "InventoryLedger.release_expired"
    figures = {m.label: [] for m in retrieve.metric}
    for m in retrieve.metric:
        figures[m.label].append(m.value)
    assert figures["whole@5"][1] == "yes"
    html = "".join(str(h.proto) for h in retrieve.get("html"))
    assert "ce-rank" in html and "ce-ans" in html, "results and the answer are painted on the source"
    # The link holds the question and the answer: opening it shows the same figures.
    assert retrieve.query_params["q"] == QUESTION
    assert retrieve.query_params["answer"] == "InventoryLedger.release_expired"
    again = AppTest.from_file(APP, default_timeout=600)
    for key in retrieve.query_params:
        again.query_params[key] = retrieve.query_params[key]
    again.switch_page("pages/retrieve.py").run()  # the link opens the page itself
    assert not again.exception and results(again) == found
    assert [m.value for m in again.metric] == [m.value for m in retrieve.metric]
    # A question of one's own next is not scored against the sample's answer, on its file: the
    # answer is to be picked, and the file shown is the new top result's.
    ask_anew(retrieve, "retry with exponential backoff")


def test_re_indexing_after_a_settings_change_re_uses_embeddings(retrieve: AppTest) -> None:
    retrieve.toggle(key="merge").set_value(True).run()
    assert not retrieve.exception
    message = " ".join(s.value for s in retrieve.success)
    reused = [int(n) for n in re.findall(r"(\d+) re-used from the cache", message)]
    assert sum(reused) > 0, message
    # Indexing what is there already says so, rather than "0 texts embedded, 0 re-used".
    retrieve.toggle(key="merge").set_value(False).run()
    retrieve.toggle(key="merge").set_value(True).run()
    message = " ".join(s.value for s in retrieve.success)
    assert "already indexed" in message and "embedded" not in message, message


def test_modes_filters_and_a_line_range_answer(retrieve: AppTest) -> None:
    retrieve.text_input(key="q").input("convert a count sheet line into quantities").run()
    for mode in ("vector", "keyword", "hybrid"):
        retrieve.radio(key="mode").set_value(mode).run()
        assert not retrieve.exception and results(retrieve)
    retrieve.selectbox(key="filter_path").set_value("inventory/reconcile.py").run()
    assert all("inventory/reconcile.py" in r for r in results(retrieve))
    # The kinds offered are the kinds these chunks have (no fixed list that misses enum or trait).
    kinds = retrieve.selectbox(key="filter_kind").options
    assert kinds[0] == "any" and {"window", "method", "function", "section"} <= set(kinds) and "trait" not in kinds
    retrieve.selectbox(key="filter_kind").set_value("window").run()
    assert not retrieve.exception and results(retrieve)
    retrieve.selectbox(key="filter_kind").set_value("any").run()
    # Punctuation has no word for keyword search: a message, not "no results".
    retrieve.text_input(key="q").input("?!?").run()
    retrieve.radio(key="mode").set_value("keyword").run()
    assert any("no word to search by keyword" in e.value for e in retrieve.error)
    retrieve.text_input(key="q").input("convert a count sheet line into quantities").run()
    retrieve.selectbox(key="answer").set_value("a line range").run()
    retrieve.slider(key="answer_lines").set_value((45, 68)).run()
    assert not retrieve.exception
    assert [m.label for m in retrieve.metric][:2] == ["touched@5", "whole@5"]


def test_a_kind_filter_applies_to_the_strategy_whose_chunks_have_that_kind(retrieve: AppTest) -> None:
    # Fixed windows are all "window": filtering both columns on "class" left the fixed one empty.
    retrieve.text_input(key="q").input("stock levels of an item").run()
    retrieve.selectbox(key="filter_kind").set_value("class").run()
    assert not retrieve.exception
    found = results(retrieve)
    assert len(found) == 10 and not any("No results" in i.value for i in retrieve.info), found
    hits = json.loads(next(c.value for c in retrieve.code if c.value.startswith('{\n "fixed"')))
    assert {h["kind"] for h in hits["fixed"]} == {"window"}
    assert {h["kind"] for h in hits["syntax"]} == {"class"}
    notes = [c.value for c in retrieve.caption if c.value.startswith("Not filtered by kind")]
    assert len(notes) == 1 and "no fixed window is a `class`" in notes[0], notes
    retrieve.selectbox(key="filter_kind").set_value("window").run()  # fixed windows have it, syntax chunks not
    assert not any(c.value.startswith("Not filtered by kind: no fixed") for c in retrieve.caption)


def test_empty_and_huge_queries_get_clear_messages(retrieve: AppTest) -> None:
    retrieve.text_input(key="q").input("   ").run()
    assert any("Type a question" in i.value for i in retrieve.info)
    retrieve.text_input(key="q").input("x" * 100_000).run()
    assert not retrieve.exception
    assert any("characters long" in e.value for e in retrieve.error)


def test_a_model_that_cannot_be_loaded_is_named(retrieve: AppTest) -> None:
    retrieve.text_input(key="model").input("no-such-org/missing-model").run()
    assert not retrieve.exception
    assert any("missing-model" in e.value for e in retrieve.sidebar.error)
    # Said on the page as well: the sidebar's foot is out of sight on a projector.
    assert any("missing-model" in w.value and "bundled all-MiniLM-L6-v2 is used instead" in w.value for w in retrieve.warning)
    assert any("Indexed." in s.value for s in retrieve.success), "the page keeps working on the default model"


def test_a_chroma_server_that_is_down_gives_a_clear_error(monkeypatch) -> None:
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", "9")  # discard port: nothing listens
    at = AppTest.from_file(APP, default_timeout=600)
    at.run()
    from pages import common

    common.store.clear()
    at.switch_page("pages/retrieve.py").run()
    common.store.clear()
    assert not at.exception
    assert at.error and any("127.0.0.1" in e.value or "server" in e.value.lower() for e in at.error)


def _session_with_upload(name: str, content: bytes) -> AppTest:
    """A fresh session on Retrieve with one uploaded file, indexed."""
    at = open_app("pages/retrieve.py", timeout=600)
    at.radio(key="source").set_value("Upload files").run()
    at.file_uploader(key="upload_files").upload(name, content).run()
    assert any("Nothing is indexed" in i.value for i in at.info), "an upload is not indexed until asked"
    at.toggle(key="index_on").set_value(True).run()
    assert any("Indexed." in s.value for s in at.success)
    return at


def test_uploads_wait_to_be_indexed_and_sessions_never_share_uploads() -> None:
    first = _session_with_upload("alpha_secret.py", b"def alpha_secret_rotation(key):\n    return key[::-1]\n")
    second = _session_with_upload("beta_notes.py", b"def beta_weekly_digest(items):\n    return sorted(items)\n")
    for at, mine, theirs in ((first, "alpha_secret", "beta_weekly"), (second, "beta_weekly", "alpha_secret")):
        at.text_input(key="q").input("rotation digest secret weekly").run()
        shown = " ".join(m.value for m in at.markdown) + " ".join(str(h.proto) for h in at.get("html"))
        assert mine in shown and theirs not in shown


def test_a_link_with_a_tiny_budget_asks_before_embedding_thousands_of_chunks() -> None:
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params["budget_tokens"] = "16"
    at.run()
    at.switch_page("pages/retrieve.py").run()
    assert not at.exception
    assert any("chunks: embedding them can take minutes" in w.value for w in at.warning)
    assert not any("Indexed." in s.value for s in at.success)  # not started by itself
    asks = [t for t in at.toggle if (t.key or "").startswith("index_big:")]
    assert len(asks) == 1 and asks[0].value is False  # asked for these settings, whatever was asked before


def test_a_line_range_answer_in_a_one_line_file() -> None:
    # A one-line file once crashed the page: a slider cannot run from 1 to 1.
    at = _session_with_upload("one.py", b"x = 1\n")
    at.text_input(key="q").input("what is x").run()
    at.selectbox(key="answer").set_value("a line range").run()
    assert not at.exception and not at.error
    assert any("has a single line" in c.value for c in at.caption)
    assert [m.label for m in at.metric][:2] == ["touched@5", "whole@5"]


def test_a_split_function_is_returned_whole_or_as_bare_parts(retrieve: AppTest) -> None:
    # InventoryLedger.receive is cut into parts at the default budget; a question about it finds a part.
    retrieve.text_input(key="q").input("receive goods into stock and update the unit cost").run()
    retrieve.radio(key="mode").set_value("keyword").run()
    assert not retrieve.exception
    syntax = results(retrieve)[5:]
    captions = " ".join(c.value for c in retrieve.caption)
    assert any("whole InventoryLedger.receive" in r for r in syntax), syntax
    assert "the whole definition is returned" in captions
    retrieve.toggle(key="whole_defs").set_value(False).run()
    assert not retrieve.exception
    assert "the whole definition is returned" not in " ".join(c.value for c in retrieve.caption)
    assert any("part of InventoryLedger.receive" in r for r in results(retrieve)[5:])


def test_a_name_given_twice_is_told_apart_by_its_lines() -> None:
    # An enum and its inherent impl block share a name (a trait's impl is <SizeError as
    # Display>); each must mark its own lines as the answer.
    rust = (b"pub enum SizeError {\n    Empty,\n    Bad,\n}\n\n"
            b"impl SizeError {\n    fn describe(&self) -> &str {\n"
            b"        \"bad size\"\n    }\n}\n")
    at = _session_with_upload("size.rs", rust)
    at.text_input(key="q").input("how is a bad size shown").run()
    options = at.selectbox(key="answer").options
    twice = [o for o in options if o.startswith("SizeError (")]
    assert twice == ["SizeError (lines 1-4)", "SizeError (lines 6-10)"], options
    at.selectbox(key="answer").set_value(twice[1]).run()
    assert not at.exception
    view = "".join(str(getattr(h, "proto", h)) for h in at.get("html"))
    marked = sorted({int(n) for n in re.findall(r'ce-ans[^"]*\\?" data-line=\\?"(\d+)', view)})
    assert marked == list(range(6, 11)), marked  # the impl's lines, not the enum's


def test_an_indexed_upload_stays_indexed_across_settings_changes() -> None:
    # The toggle was not drawn while the index was current, so Streamlit dropped its value: the
    # next settings change found it off, and the question and results were gone.
    at = _session_with_upload("ledger_notes.py", b"def settle_ledger(entries):\n    return sum(entries)\n")
    at.text_input(key="q").input("add up the ledger entries").run()
    at.slider(key="budget_tokens").set_value(200).run()
    assert not at.exception
    assert not any("Nothing is indexed" in i.value for i in at.info)
    assert any("Indexed." in s.value for s in at.success) and results(at)


def test_a_new_question_of_ones_own_resets_the_answer_and_follows_its_top_result(retrieve: AppTest) -> None:
    retrieve.text_input(key="q").input("how is the moving average unit cost computed when goods are received?").run()
    retrieve.selectbox(key="answer").set_value("InventoryLedger.receive").run()
    assert retrieve.selectbox(key="view_file").value == "inventory/ledger.py"
    # The answer marked for the last question is not this one's, nor is its file.
    ask_anew(retrieve, "where do we retry calls to the label printer?")


def test_a_fixed_window_holding_one_definition_whole_says_what_it_cuts(retrieve: AppTest) -> None:
    # resilience.py's first window holds TransientError whole and the start of retry: it was
    # badged "whole TransientError" alone, as good as a syntax chunk.
    retrieve.text_input(key="q").input("retry a call on transient errors with backoff").run()
    fixed = results(retrieve)[:5]
    assert any("whole TransientError] :orange-badge[cuts retry]" in r for r in fixed), fixed
    assert not any("cuts" in r for r in results(retrieve)[5:]), "syntax chunks cut nothing"


def test_a_link_keeps_the_filters_and_a_line_range_answer(retrieve: AppTest) -> None:
    # A shared link showed unfiltered results, and a line-range answer reopened at lines 1-20.
    retrieve.text_input(key="q").input("convert a count sheet line into quantities").run()
    retrieve.selectbox(key="filter_path").set_value("inventory/reconcile.py").run()
    retrieve.selectbox(key="filter_kind").set_value("function").run()
    retrieve.selectbox(key="view_file").set_value("inventory/reconcile.py").run()
    retrieve.selectbox(key="answer").set_value("a line range").run()
    retrieve.slider(key="answer_lines").set_value((45, 68)).run()
    assert not retrieve.exception
    link = {key: retrieve.query_params[key] for key in retrieve.query_params}
    assert link["filter_path"] == "inventory/reconcile.py" and link["filter_kind"] == "function"
    assert link["answer"] == "a line range" and link["answer_range"] == "45-68"
    again = AppTest.from_file(APP, default_timeout=600)
    for key, value in link.items():
        again.query_params[key] = value
    again.switch_page("pages/retrieve.py").run()
    assert not again.exception
    assert again.selectbox(key="filter_kind").value == "function"
    assert again.slider(key="answer_lines").value == (45, 68)
    assert results(again) == results(retrieve)
    assert [m.value for m in again.metric] == [m.value for m in retrieve.metric]


def test_the_painted_view_starts_a_little_above_the_answer(retrieve: AppTest) -> None:
    # It opened at line 1: the answer at line ~230 of ledger.py was out of sight in its box.
    retrieve.pills(key="sample_q").set_value(QUESTION).run()
    assert not retrieve.exception
    first_drawn = int(re.search(r'data-line=\\\\?"(\d+)\\\\?"', view_html(retrieve)).group(1))
    assert first_drawn > 150
    retrieve.toggle(key="view_whole").set_value(True).run()
    assert int(re.search(r'data-line=\\\\?"(\d+)\\\\?"', view_html(retrieve)).group(1)) == 1


def view_html(at: AppTest) -> str:
    return "".join(str(h.proto) for h in at.get("html") if "ce-view" in str(h.proto))


def test_sample_questions_fold_away_once_a_question_is_asked(retrieve: AppTest) -> None:
    def samples_box():  # type: ignore[no-untyped-def]
        return next(e for e in retrieve.expander if e.label.startswith("Sample questions"))

    assert samples_box().proto.expanded  # a first visit (a demo) sees them
    retrieve.pills(key="sample_q").set_value(QUESTION).run()
    assert not retrieve.exception and retrieve.text_input(key="q").value == QUESTION
    assert not samples_box().proto.expanded  # then the question and its results come first


def test_a_results_very_long_line_is_drawn_cut_short() -> None:
    # A minified line or a data blob of megabytes was drawn whole in the result's box; it is cut
    # at SHOWN_LINE_CHARS with a note, while the index and the exports hold all of it.
    blob = "x" * 6_000
    source = f'TABLE = "{blob}"\n\n\ndef lookup_code(key):\n    return TABLE.find(key)\n'.encode()
    at = _session_with_upload("blob_table.py", source)
    at.text_input(key="q").input("find a key in the lookup table").run()
    assert not at.exception
    codes = [c.value for c in at.code if "TABLE" in c.value and c.language != "json"]  # not the export
    assert codes and all(blob not in c for c in codes), [len(c) for c in codes]
    assert any("more characters]" in c for c in codes)
    assert any("over 2,000 characters cut short here" in c.value for c in at.caption)


def test_a_file_filter_moves_the_view_to_the_file_its_results_are_on(retrieve: AppTest) -> None:
    # "Only file" left the view on the last question's file, with no rank marks on it.
    retrieve.text_input(key="q").input("where do we retry calls to the label printer?").run()
    shown = retrieve.selectbox(key="view_file").value
    other = next(p for p in retrieve.selectbox(key="filter_path").options if p not in ("any", shown))
    retrieve.selectbox(key="filter_path").set_value(other).run()
    assert not retrieve.exception
    assert all(f"`{other}`" in r for r in results(retrieve))
    assert retrieve.selectbox(key="view_file").value == other
    # A file that still holds a result stays shown when another filter changes.
    retrieve.selectbox(key="filter_kind").set_value("function").run()
    assert retrieve.selectbox(key="view_file").value == other


def test_a_session_queued_behind_another_ones_indexing_is_told_it_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_app("pages/retrieve.py", timeout=600)
    at.radio(key="source").set_value("Upload files").run()
    at.file_uploader(key="upload_files").upload("queued.py", b"def queued_job(x):\n    return x + 1\n").run()
    told = turn_held_by_another(monkeypatch)
    at.toggle(key="index_on").set_value(True).run()
    assert not at.exception
    assert told == ["waiting, mine=False"]
    assert any("Indexed." in s.value for s in at.success), "it indexes once the other session is done"


def test_the_question_and_its_view_are_kept_across_pages(retrieve: AppTest) -> None:
    retrieve.text_input(key="q").set_value("where is the pick plan ordered by zone").run()
    retrieve.radio(key="mode").set_value("keyword").run()
    retrieve.slider(key="k").set_value(8).run()
    shown = results(retrieve)
    for page in ("pages/tables.py", "pages/explore.py"):  # (Evaluate's first visit embeds for minutes)
        retrieve.switch_page(page).run()
        retrieve.switch_page("pages/retrieve.py").run()
        assert not retrieve.exception
        assert retrieve.text_input(key="q").value == "where is the pick plan ordered by zone", page
        assert retrieve.radio(key="mode").value == "keyword" and retrieve.slider(key="k").value == 8, page
        assert results(retrieve) == shown, page
