"""The source view's HTML: the legend names what the page draws."""

from __future__ import annotations

from core.render import PALETTES, Band, legend


def test_the_legend_names_search_marks_only_where_a_page_searches() -> None:
    # Explore's legend listed "retrieved (rank)" and "the answer", which it never draws.
    bands = [Band("fixed", (), PALETTES["fixed"]), Band("syntax", (), PALETTES["syntax"])]
    plain, searched = legend(bands), legend(bands, retrieval=True)
    for text in ("fixed", "syntax", "overlap", "boundary inside a definition"):
        assert text in plain and text in searched
    assert "retrieved (rank)" not in plain and "the answer" not in plain
    assert "retrieved (rank)" in searched and "the answer" in searched
