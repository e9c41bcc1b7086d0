"""The other pages in a real browser: tables side by side, and index -> query -> painted results."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import expect

from tests.browser import cut_short, page_at
from tests.helpers import ROOT

pytestmark = pytest.mark.browser
DOCS = ROOT / "docs"


def settle(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=300_000)


def test_tables_page_shows_header_loss_and_repeated_headers(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/tables")
    page.wait_for_selector("text=Naive windows", timeout=120_000)
    settle(page)
    assert page.locator("text=header lost").count() > 0
    assert page.locator("text=Table chunks").count() > 0
    page.wait_for_selector('[data-testid="stSidebar"] input[type="range"]')  # widgets drawn, not skeletons
    page.wait_for_selector('[data-testid="stCode"]')
    page.wait_for_timeout(1500)
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "tables.png"))


def test_index_query_and_see_painted_results(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/retrieve")
    page.wait_for_selector("text=Indexed.", timeout=600_000)
    page.get_by_text("How are stale reservations").first.click()
    page.wait_for_selector("table.ce-view .ce-rank", timeout=300_000)
    settle(page)
    assert page.locator("text=whole InventoryLedger.release_expired").count() > 0
    # Symbols and paths are shown as written: a dunder such as ``__str__`` is not turned into bold.
    bold = page.locator('[data-testid="stMarkdownContainer"] p:has-text(" lines ") strong').all_inner_texts()
    assert len(bold) >= 10 and all(re.fullmatch(r"#\d+", b) for b in bold), bold
    assert page.locator("table.ce-view tr.ce-ans").count() > 0, "the known answer is marked"
    page.get_by_text("Syntax-aware", exact=True).first.scroll_into_view_if_needed()
    page.screenshot(path=str(DOCS / "retrieve.png"))
    # The answer's figures read whole at 1280 px (in two columns of five: "touc…", "whol…").
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.wait_for_timeout(1000)
    labels = page.locator('[data-testid="stMetric"]').all_inner_texts()
    assert sum(text.startswith(("touched@5", "whole@5")) for text in labels) == 4, labels
    cut = cut_short(page, '[data-testid="stMetric"]')
    assert cut == [], cut


def chart_boxes(page) -> list[dict]:  # type: ignore[no-untyped-def]
    page.wait_for_selector('[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg',
                           timeout=900_000)
    settle(page)
    page.wait_for_timeout(1000)
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]')].map(c => {"
        " const r = c.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top}; })"
    )


@pytest.mark.parametrize("width", [420, 1500])
def test_evaluate_draws_a_chart_per_metric_within_the_pages_width(browser, server, width) -> None:  # type: ignore[no-untyped-def]
    # The metrics were facets of one chart 1,000 px wide: on a phone two of five showed, the rest
    # beyond the edge. Each metric now has its own chart, and they wrap to the page.
    with page_at(browser, width, 1000) as page:
        page.goto(f"{server}/evaluate")
        boxes = chart_boxes(page)
        assert len(boxes) == 5, boxes
        assert all(box["left"] >= 0 and box["right"] <= width + 1 for box in boxes), boxes
        rows = len({round(box["top"]) for box in boxes})
        assert rows > 1 if width == 420 else rows == 1, boxes  # wrapped on a phone, one row on a desktop


def test_a_room_opening_page_links_on_a_fresh_server_all_get_the_apps_menu(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A workshop starts with everyone opening a shared link at once. On a fresh server the first
    # runs are Streamlit's legacy page mode (the page file alone: a menu of pages/'s files, no
    # wide layout); only the session that switched the mode reran, the others kept that menu.
    from tests.browser.conftest import serve

    with serve(tmp_path) as url, contextlib.ExitStack() as stack:
        pages = [stack.enter_context(page_at(browser, 1280)) for _ in range(3)]
        for page, path in zip(pages, ("/tables", "/evaluate", "/retrieve?project=py_inventory")):
            page.goto(f"{url}{path}", wait_until="commit")  # (all three first runs at once)
        for page in pages:
            menu = page.locator('[data-testid="stSidebarNav"]')
            expect(menu).to_contain_text("Explore code", timeout=120_000)
            page.wait_for_timeout(1500)  # (a legacy run's menu would come with the run's first messages)
            assert "common" not in menu.inner_text() and "Explore code" in menu.inner_text()
