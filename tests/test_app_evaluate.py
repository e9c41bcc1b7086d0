"""The Evaluate page in real Streamlit: a bundled query set, misses, a bad upload and a sweep."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from pages.common import MAX_QUESTIONS
from tests.helpers import ROOT, open_app, turn_held_by_another


@pytest.fixture
def evaluate() -> AppTest:
    return open_app("pages/evaluate.py", timeout=900)


def test_bundled_set_metrics_and_misses(evaluate: AppTest) -> None:
    frame = evaluate.dataframe[0].value
    assert set(frame["strategy"]) == {"fixed", "syntax"}
    assert set(frame["mode"]) == {"vector", "keyword", "hybrid"}
    syntax = frame[(frame["strategy"] == "syntax") & (frame["mode"] == "hybrid")]["whole@5"].iloc[0]
    fixed = frame[(frame["strategy"] == "fixed") & (frame["mode"] == "hybrid")]["whole@5"].iloc[0]
    assert syntax > fixed
    assert any("without the whole answer" in c.value for c in evaluate.caption)
    evaluate.radio(key="miss_strategy").set_value("fixed").run()
    assert not evaluate.exception
    assert any(c.value.startswith("target:") for c in evaluate.caption)


def test_figures_shown_again_say_their_counts_are_from_when_they_were_made(evaluate: AppTest) -> None:
    # A second visit, served from the kept report in seconds, said "3459 computed, 0 re-used".
    again = open_app("pages/evaluate.py", timeout=900)
    embeddings = [c.value for c in again.caption if "Embeddings:" in c.value]
    assert embeddings and embeddings[0].startswith("When these figures were made (kept since"), embeddings


def test_the_table_query_set_is_evaluated_too(evaluate: AppTest) -> None:
    evaluate.selectbox(key="qset").set_value("tables.jsonl").run()
    assert evaluate.query_params["qset"] == "tables.jsonl"  # a link reproduces the page
    assert not evaluate.exception
    frame = evaluate.dataframe[0].value
    assert set(frame["queries"]) == {18}  # every row lookup and aggregate has its target
    evaluate.radio(key="miss_strategy").set_value("fixed").run()
    assert not evaluate.exception
    assert any(c.value.startswith("target: tables/") for c in evaluate.caption)


def test_malformed_query_lines_are_named(evaluate: AppTest) -> None:
    evaluate.radio(key="qsource").set_value("Upload").run()
    bad = b'{"query": "ok", "path": "py_inventory/inventory/models.py", "symbol": "Sku"}\nnot json\n{"query": ""}\n'
    evaluate.file_uploader(key="upload_queries").upload("bad.jsonl", bad, "application/json").run()
    assert not evaluate.exception
    message = " ".join(e.value for e in evaluate.error)
    assert "line 2" in message and "line 3" in message
    # Past five, the message names the first five, and every one is listed below it.
    many = b"".join(b"not json %d\n" % i for i in range(8))
    evaluate.file_uploader(key="upload_queries").upload("many.jsonl", many, "application/json").run()
    assert "(and 3 more)" in " ".join(e.value for e in evaluate.error)
    assert evaluate.expander[-1].label == "All 8 malformed lines" and "line 8:" in evaluate.code[-1].value
    line = b'{"query": "ok", "path": "py_inventory/inventory/models.py", "symbol": "Sku"}\n'
    for name, data, expected in [
        ("empty.jsonl", b"  \n", "empty.jsonl: empty file; a query set is JSONL"),
        ("array.json", b"[" + line.strip() + b"]", "array.json: one JSON document (an array, or an object over"),
        ("huge.jsonl", line * (MAX_QUESTIONS + 1), f"huge.jsonl: {MAX_QUESTIONS + 1:,} query lines, over the"),
    ]:
        evaluate.file_uploader(key="upload_queries").upload(name, data, "application/json").run()
        assert not evaluate.exception
        assert expected in " ".join(e.value for e in evaluate.error), name
    # A question given twice is scored, and the page says it counts twice.
    evaluate.file_uploader(key="upload_queries").upload("twice.jsonl", line * 2, "application/json").run()
    assert not evaluate.exception and not evaluate.error
    assert any(e.label.startswith("ℹ️ A note on the questions scored") for e in evaluate.expander)
    assert any("the same question and answer as line 1: it counts twice" in m.value for m in evaluate.markdown)


def test_a_small_sweep_highlights_the_best(evaluate: AppTest) -> None:
    evaluate.radio(key="qsource").set_value("Upload").run()
    small = (b'{"query": "parse a location label into its parts", "path": "py_inventory/inventory/models.py", '
             b'"symbol": "StockLocation.parse"}\n'
             b'{"query": "total weight of a shipment", "path": "py_inventory/inventory/models.py", '
             b'"symbol": "Shipment.total_weight"}\n')
    evaluate.file_uploader(key="upload_queries").upload("small.jsonl", small, "application/json").run()
    assert not evaluate.exception
    # Budgets the sidebar's slider can set (steps of 2 tokens), so the best can be carried over.
    assert all(int(b) % 2 == 0 for b in evaluate.multiselect(key="sweep_budgets").options)
    evaluate.multiselect(key="sweep_budgets").set_value([128, 254])
    evaluate.multiselect(key="sweep_overlaps").set_value([0])
    evaluate.multiselect(key="sweep_crumbs").set_value([True])
    evaluate.multiselect(key="sweep_heads").set_value([0, 50])
    evaluate.toggle(key="sweep_on").set_value(True).run()
    assert not evaluate.exception, evaluate.exception
    swept = evaluate.dataframe[-1].value
    assert sorted(set(zip(swept["budget"], swept["head_pct"]))) == [(128, 0), (128, 50), (254, 0), (254, 50)]
    assert any(s.value.startswith("Best:") and "head weight" in s.value for s in evaluate.success)
    assert any("python -m core chunk sample_repos" in c.value for c in evaluate.code)
    # One row per setting that matters: overlap is fixed windows', the head weight syntax chunks'.
    assert set(swept[swept["strategy"] == "fixed"]["head_pct"]) == {0}
    assert len(swept[swept["strategy"] == "syntax"]) == 4 and len(swept[swept["strategy"] == "fixed"]) == 2
    # A step of the sidebar's budget keeps the picks that are still offered.
    evaluate.toggle(key="sweep_on").set_value(False).run()
    evaluate.slider(key="budget_tokens").set_value(256).run()
    assert evaluate.multiselect(key="sweep_budgets").value, "the budgets were emptied"
    assert evaluate.multiselect(key="sweep_heads").value == [0, 50]


def test_settings_that_make_thousands_of_chunks_ask_before_evaluating() -> None:
    # A small budget re-embedded the whole sample corpus for minutes, unasked, on a server a
    # workshop shares (a browser audit's finding: 275 s for the sweep's 64-token setting alone).
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params["budget_tokens"] = "16"
    at.run()
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception
    assert any("evaluating them embeds for minutes" in w.value for w in at.warning)
    assert not at.dataframe  # nothing evaluated until asked
    asks = [t for t in at.toggle if (t.key or "").startswith("eval_big:")]
    assert len(asks) == 1 and asks[0].value is False


def test_a_cold_visit_chunks_each_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The page chunked the corpus to count its chunks, then Evaluation chunked it all again.
    import core.evaluate
    from pages import common

    calls: dict[tuple[str, str], int] = {}
    for module in (common, core.evaluate):
        real = module.chunk_document

        def counting(prep, settings, strategy, *args, real=real, **kwargs):  # type: ignore[no-untyped-def]
            calls[(prep.doc.path, strategy)] = calls.get((prep.doc.path, strategy), 0) + 1
            return real(prep, settings, strategy, *args, **kwargs)

        monkeypatch.setattr(module, "chunk_document", counting)
    common.chunks_for.clear()  # cold: no file chunked yet
    at = open_app("pages/evaluate.py", timeout=900)
    at.slider(key="eval_k").set_value(7).run()  # a report not made before, over the same chunks
    assert not at.exception, at.exception
    assert "whole@7" in at.dataframe[0].value.columns
    assert calls and set(calls.values()) == {1}, {key: n for key, n in calls.items() if n != 1}


def test_the_sweeps_bar_moves_within_a_setting(evaluate: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bar sat at "Sweeping…" 0 for minutes (275 s for a 64-token setting), then jumped.
    from streamlit.delta_generator import DeltaGenerator

    drawn: list[tuple[float, str]] = []
    real = DeltaGenerator.progress

    def recording(self, value, text=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append((float(value), text or ""))
        return real(self, value, text, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "progress", recording)
    evaluate.radio(key="qsource").set_value("Upload").run()
    small = (b'{"query": "parse a location label into its parts", "path": "py_inventory/inventory/models.py", '
             b'"symbol": "StockLocation.parse"}\n')
    evaluate.file_uploader(key="upload_queries").upload("one.jsonl", small, "application/json").run()
    evaluate.multiselect(key="sweep_budgets").set_value([128, 254])
    evaluate.multiselect(key="sweep_overlaps").set_value([0])
    evaluate.multiselect(key="sweep_heads").set_value([30])
    drawn.clear()
    evaluate.toggle(key="sweep_on").set_value(True).run()
    assert not evaluate.exception, evaluate.exception
    texts = [t for _, t in drawn]
    assert any(t.startswith("Setting 1/2 (budget 128, overlap 0%, breadcrumb True, head 30%) · fixed: embedding ")
               and t.endswith(" texts") for t in texts), texts
    assert any(t.startswith("Setting 2/2 (budget 254") and "· syntax: scoring 1/1 questions" in t for t in texts), texts
    inside = [v for v, t in drawn if t.startswith("Setting 1/2")]
    assert len(inside) > 2 and 0 < inside[-1] <= 0.5 + 1e-9  # it moves within the first setting's half
    values = [v for v, _ in drawn]
    assert all(later >= earlier - 1e-9 for earlier, later in zip(values, values[1:])), values


def test_the_chart_and_table_name_order_and_round_the_metrics_alike(evaluate: AppTest) -> None:
    # The chart cut its modes to "id", "rd", "or", ordered them hybrid/keyword/vector against the
    # table's vector/keyword/hybrid, named metrics in_context and iou against the table's
    # in_context@1024, and the table showed 0.91 beside 0.3077.
    import json

    charts = [json.loads(chart.proto.spec) for chart in evaluate.get("vega_lite_chart")]
    titles = [spec["title"] if isinstance(spec["title"], str) else spec["title"]["text"] for spec in charts]
    assert titles == ["touched@5", "whole@5", "mrr@5", "iou@5", "in_context@1024"]
    for spec in charts:
        assert spec["encoding"]["x"]["sort"] == ["vector", "keyword", "hybrid"]
        assert spec["encoding"]["x"]["axis"]["labelAngle"] == 0 and spec["encoding"]["x"]["axis"]["labelLimit"] == 0
    frame = evaluate.dataframe[0].value
    assert list(frame["mode"][:3]) == ["vector", "keyword", "hybrid"]
    formats = {name: config.get("type_config", {}).get("format")
               for name, config in json.loads(evaluate.dataframe[0].proto.columns).items()}
    assert formats["whole@5"] == formats["in_context@1024"] == formats["mrr@5"] == "%.3f", formats


def test_the_page_and_the_cli_give_the_same_figures(evaluate: AppTest, capsys: pytest.CaptureFixture[str]) -> None:
    # Settings tuned on the page carry into a pipeline: `python -m core eval` on the same corpus
    # and questions gives the page's table, figure for figure (the embeddings re-used).
    import json

    from core.__main__ import main

    frame = evaluate.dataframe[0].value
    code = main(["eval", str(ROOT / "sample_repos"), "--queries", str(ROOT / "sample_repos/queries/code.jsonl"),
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)["metrics"]
    assert [(r["strategy"], r["mode"]) for r in rows] == list(zip(frame["strategy"], frame["mode"]))
    for row, (_, shown) in zip(rows, frame.iterrows()):
        for name, value in row.items():
            if name in frame.columns and isinstance(value, float):
                assert shown[name] == pytest.approx(value, abs=1e-9), (row["strategy"], row["mode"], name)
    assert json.loads(out)["embeddings"]["embedded"] == 0, "the page's embeddings are the CLI's"


def test_an_evaluation_waits_for_the_servers_embedding_turn(evaluate: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    # Evaluate embedded beside Retrieve's indexing and other evaluations, while its warning said
    # the others wait: it takes the same one-at-a-time turn now, and its bar says why it waits.
    told = turn_held_by_another(monkeypatch)
    evaluate.slider(key="eval_k").set_value(11).run()  # (a report no other test makes: k=11)
    assert not evaluate.exception
    assert told == ["waiting, mine=False"]
    assert set(evaluate.dataframe[0].value["strategy"]) == {"fixed", "syntax"}
