"""Browser tests (Playwright in Debian's Chromium) and what they share."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def page_at(browser: Any, width: int, height: int = 900) -> Iterator[Any]:
    """A page in a new browser context of ``width`` x ``height`` pixels, closed on leaving."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        context.close()


def cut_short(page: Any, selector: str) -> list[str]:
    """The texts of the elements ``selector`` finds, and of those inside them, that their box
    cuts short (wider than it, or ellipsised)."""
    return page.evaluate(
        "(selector) => [...document.querySelectorAll(selector)].flatMap(e => [e, ...e.querySelectorAll('*')])"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)",
        selector,
    )
