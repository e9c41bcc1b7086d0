"""The key flow in a real browser: open, change the budget, see the redraw, upload, share a link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import cut_short, page_at
from tests.helpers import ROOT

pytestmark = pytest.mark.browser
DOCS = ROOT / "docs"


def wait_for_view(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_selector("table.ce-view tr[data-line]")
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")


def open_figures(page, address: str) -> None:  # type: ignore[no-untyped-def]
    """Go to ``address`` and wait for its figures, the page's run finished."""
    page.goto(address)
    page.wait_for_selector('[data-testid="stMetricValue"]')
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")


def chunk_counts(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator('[data-testid="stMetric"]:has-text("Chunks") [data-testid="stMetricValue"]').all_inner_texts()


def test_open_change_budget_and_see_redraw(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/")
    wait_for_view(page)
    assert page.locator("text=✂ cuts").count() > 0
    before = chunk_counts(page)
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "explore.png"), full_page=False)
    slider = page.locator('[data-testid="stSidebar"] input[type="range"]').first
    slider.focus()
    for _ in range(20):
        slider.press("ArrowLeft")  # steps of 2 tokens down from 254
        page.wait_for_timeout(50)
    page.wait_for_function(
        "(before) => { const v = [...document.querySelectorAll('[data-testid=\"stMetric\"]')]"
        ".filter(m => m.innerText.startsWith('Chunks')).map(m => m.querySelector('[data-testid=\"stMetricValue\"]').innerText);"
        " return v.length && v.join() !== before.join(); }",
        arg=before,
    )
    wait_for_view(page)
    value = int(slider.input_value())
    assert value < 254
    page.wait_for_url(re.compile(rf"budget_tokens={value}\b"))  # the link reproduces this view


def upload_shapes(page, server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Open Explore, pick Upload files and upload a small Kotlin file; wait for its view."""
    source = tmp_path / "shapes.kt"
    source.write_text("class Circle(val r: Double) {\n    fun area(): Double = 3.14159 * r * r\n}\n")
    page.goto(f"{server}/")
    wait_for_view(page)
    page.get_by_text("Upload files", exact=True).click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(source))
    page.wait_for_selector("table.ce-view >> text=Circle")


def test_upload_a_file(page, server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    upload_shapes(page, server, tmp_path)
    assert page.locator("table.ce-view >> text=area").count() > 0


def test_removing_an_upload_with_its_cross_removes_it(page, server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The session's copy (kept for a visit to another page) put a file removed with ✕ straight
    # back: "Using what you uploaded earlier in this session: ...".
    upload_shapes(page, server, tmp_path)
    page.locator('[data-testid="stFileChipDeleteBtn"] button').first.click()
    main = page.locator('[data-testid="stMain"]')
    expect(main.locator("table.ce-view")).to_have_count(0, timeout=30_000)
    page.wait_for_timeout(1000)  # (a late rerun would bring the copy back)
    assert "uploaded earlier in this session" not in main.inner_text()
    assert main.locator("table.ce-view").count() == 0
    # A visit to another page empties the uploader without a click: the copy brings it back.
    other = tmp_path / "squares.kt"
    other.write_text("class Square(val side: Double) {\n    fun area(): Double = side * side\n}\n")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(other))
    page.wait_for_selector("table.ce-view >> text=Square")
    page.locator('[data-testid="stSidebarNav"] a', has_text="Tables").click()
    expect(main).to_contain_text("Sample table", timeout=30_000)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Explore").click()
    page.wait_for_selector("table.ce-view >> text=Square")
    expect(main).to_contain_text("uploaded earlier in this session", timeout=30_000)


def test_shared_link_reproduces_the_view(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/?unit=lines&budget_lines=15&project=systems_kit&file=go/ratelimit/limiter.go")
    wait_for_view(page)
    assert page.locator("table.ce-view >> text=TokenBucket").count() > 0
    sidebar = page.locator('[data-testid="stSidebar"]')
    # (Waiting, not one read: under load the sidebar was once read mid-rerun, without its slider.)
    expect(sidebar).to_contain_text(re.compile(r"Budget \(lines\)"), timeout=30_000)
    expect(page.locator('[data-testid="stSidebar"] input[type="range"]').first).to_have_value("15", timeout=30_000)


def test_the_explore_address_opens_the_explore_page_with_the_links_settings(page, server) -> None:  # type: ignore[no-untyped-def]
    # Beside /tables and /retrieve, /explore answered "Page not found" and dropped to the root:
    # Streamlit serves the default page at "/" only. (Not on a fresh server's first visit,
    # which runs the page file itself: the root is visited first.)
    page.goto(f"{server}/")
    wait_for_view(page)
    page.goto(f"{server}/explore?unit=lines&budget_lines=15&project=systems_kit&file=go/ratelimit/limiter.go")
    wait_for_view(page)
    assert page.locator("table.ce-view >> text=TokenBucket").count() > 0
    expect(page.locator('[data-testid="stSidebar"] input[type="range"]').first).to_have_value("15", timeout=30_000)
    page.wait_for_timeout(1000)  # (the dialog comes with the run's first messages)
    assert page.get_by_text("Page not found").count() == 0
    assert page.url.startswith(f"{server}/?") and "budget_lines=15" in page.url


def test_opening_the_file_list_shows_every_files_figures(page, server) -> None:  # type: ignore[no-untyped-def]
    # The figures are computed when the list is opened (every budget change used to pay for them).
    page.goto(f"{server}/")
    wait_for_view(page)
    assert page.locator('[data-testid="stDataFrame"]').count() == 0
    page.get_by_text("Files in py_inventory (10), worst first").click()
    expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(1, timeout=30_000)


def test_addresses_in_uploaded_names_show_as_text_not_links(page, server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A zip's names reach a caption (a name stored twice) and the problems list (a file skipped):
    # Markdown would link "www.x.org", "a@x.org" and "http://" there, escaped or not.
    import warnings
    import zipfile

    archive = tmp_path / "addresses.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(archive, "w") as bundle:
        warnings.simplefilter("ignore", UserWarning)  # zipfile's "Duplicate name", the point here
        bundle.writestr("www.example.org/a.py", "x = 1\n")
        bundle.writestr("www.example.org/a.py", "x = 2\n")
        bundle.writestr("ops@corp.example/b.bin", b"\0" * 50)
        bundle.writestr("https://evil.example/c.bin", b"\0" * 50)
    page.goto(f"{server}/")
    wait_for_view(page)
    page.get_by_text("Upload zip", exact=True).click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(archive))
    main = page.locator('[data-testid="stMain"]')
    expect(main).to_contain_text("stored more than once", timeout=60_000)
    wait_for_view(page)
    shown = main.inner_text().replace("\u2060", "")
    assert "www.example.org/a.py: stored more than once in the archive" in shown
    assert "skipped ops@corp.example/b.bin: unknown file type" in shown
    assert "https://evil.example/c.bin" in shown
    links = main.locator('a[href*="example"], a[href^="mailto:"]')  # (headings have anchor links)
    assert links.all_inner_texts() == []


@pytest.mark.parametrize("width", [420, 800])
def test_on_a_narrow_screen_the_code_keeps_most_of_the_views_width(browser, server, width) -> None:  # type: ignore[no-untyped-def]
    # At 420 px the two bands (11em each) and the line numbers left the code ~40 px: a word a
    # line; at 800 px beside the sidebar, ~150 px.
    with page_at(browser, width) as page:
        page.goto(f"{server}/")
        wait_for_view(page)
        widths = page.evaluate(
            "() => { const row = document.querySelector('table.ce-view tr[data-line]');"
            " return [row.closest('table').getBoundingClientRect().width,"
            " row.querySelector('td.ce-code').getBoundingClientRect().width]; }"
        )
        table, code = widths
        assert code >= 0.55 * table, widths
        # A line number of four digits is still read whole, not cut to "2…".
        number = page.locator("table.ce-view td.ce-no").first
        assert page.evaluate("(cell) => { cell.textContent = '2345'; return cell.scrollWidth <= cell.clientWidth; }",
                             number.element_handle())


@pytest.mark.parametrize("width", [1280, 800])
def test_the_two_strategies_figures_stand_under_each_other(browser, server, width) -> None:  # type: ignore[no-untyped-def]
    # Sized by their content, the fixed row's wider median and "5 under the budget" pushed its
    # last figure onto a line of its own at 1280 px, and no figure stood over its twin.
    with page_at(browser, width) as page:
        open_figures(page, f"{server}/")
        # (All ten drawn: under load a figure was read while its row was still being drawn.)
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stMetric\"]').length === 10")
        page.wait_for_timeout(500)
        places = page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"stMetric\"]')].map(e => {"
            " const r = e.getBoundingClientRect(); return [e.innerText.split('\\n')[0].trim(), Math.round(r.left), Math.round(r.top)]; })"
        )
        assert len(places) == 10, places
        fixed, syntax = places[:5], places[5:]
        assert [(label, left) for label, left, _ in fixed] == [(label, left) for label, left, _ in syntax]
        if width == 1280:  # one line each
            assert len({top for *_, top in fixed}) == 1 and len({top for *_, top in syntax}) == 1


@pytest.mark.parametrize("path", ["/", "/tables"])
def test_figures_are_never_cut_short_on_a_narrow_screen(browser, server, path) -> None:  # type: ignore[no-untyped-def]
    # In six equal columns an 800-pixel window showed Explore's median size 244.5 as "2…".
    with page_at(browser, 800) as page:
        open_figures(page, f"{server}{path}")
        cut = cut_short(page, '[data-testid="stMetricValue"], [data-testid="stMetricLabel"]')
        assert cut == [], cut
        values = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
        assert values and not any("…" in v for v in values), values
