"""The other pages in a real browser: tables side by side, and index -> query -> painted results."""

from __future__ import annotations

import re

import pytest

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
