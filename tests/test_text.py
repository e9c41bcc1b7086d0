"""Prose and config: sections at headings or keys, never mid-line."""

from __future__ import annotations

import pytest

from core.chunking import chunk_document, prepare
from core.languages import detect_language
from core.settings import ChunkSettings
from tests.helpers import SAMPLES, assert_lossless, assert_slices_true

FILES = ["py_inventory/README.md", "py_inventory/config.yaml", "polyglot_scripts/settings.toml",
         "polyglot_scripts/data.json", "polyglot_scripts/schema.sql", "polyglot_scripts/notes.txt"]


@pytest.mark.parametrize("rel", FILES)
@pytest.mark.parametrize("budget", [40, 120, 400])
def test_sections_are_whole_lines(rel: str, budget: int) -> None:
    path = SAMPLES / rel
    prep = prepare(rel, detect_language(path.name), path.read_text("utf-8"))
    chunks = chunk_document(prep, ChunkSettings(budget=budget, merge_siblings=False), "syntax")
    assert chunks and all(c.strategy == "text" and c.kind == "section" for c in chunks)
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    for c in chunks:
        if "split_line" not in c.flags:
            assert c.start_byte == prep.doc.line_start(c.start_line)


def test_markdown_sections_carry_their_heading_path() -> None:
    text = "# Guide\nintro\n\n## Install\nrun it\n\n```\n# not a heading\n```\n\n## Use\nmore\n"
    prep = prepare("README.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(budget=12, merge_siblings=False), "syntax")
    symbols = [c.symbol for c in chunks]
    assert "Guide > Install" in symbols and "Guide > Use" in symbols
    assert not any("not a heading" in s for s in symbols)
    assert chunks[0].embed_text.startswith("<!-- README.md :: Guide -->")


def test_yaml_top_level_keys_and_sql_statements() -> None:
    yaml = "server:\n  port: 8080\n  host: x\n\ndatabase:\n  url: y\n"
    chunks = chunk_document(prepare("c.yaml", "yaml", yaml), ChunkSettings(budget=30, merge_siblings=False), "syntax")
    assert [c.symbol for c in chunks] == ["server", "database"]
    sql = "CREATE TABLE a (\n  id int\n);\n\nSELECT *\nFROM a;\n"
    chunks = chunk_document(prepare("s.sql", "sql", sql), ChunkSettings(budget=30, merge_siblings=False), "syntax")
    assert [c.symbol for c in chunks] == ["CREATE TABLE a", "SELECT"]


SQL_BODIES = """-- Keep stock levels honest.
CREATE FUNCTION bump_stock() RETURNS trigger AS $body$
BEGIN
  UPDATE stock SET qty = qty + NEW.qty WHERE sku = NEW.sku;
  INSERT INTO audit VALUES (NEW.sku, 'bump;
  done');
  RETURN NEW; -- the row as inserted
END;
$body$ LANGUAGE plpgsql;

/* Restock one SKU;
   called nightly. */
DELIMITER //
CREATE PROCEDURE restock(IN s VARCHAR(20))
BEGIN
  UPDATE stock SET qty = 100 WHERE sku = s;
  SELECT 'it''s; fine';
END //
DELIMITER ;
SELECT 1;
"""


def test_sql_statements_end_at_their_delimiter_not_inside_bodies_strings_or_comments() -> None:
    # A function's body holds a ``;`` on every line: cutting there split it like a fixed window.
    prep = prepare("s.sql", "sql", SQL_BODIES)
    chunks = chunk_document(prep, ChunkSettings(budget=4000, merge_siblings=False), "syntax")
    spans = [(c.symbol, c.start_line, c.end_line) for c in chunks]
    assert ("CREATE FUNCTION bump_stock", 1, 9) in spans, spans  # with the comment right above it
    assert ("DELIMITER", 11, 13) in spans, spans  # the block comment above it
    assert ("CREATE PROCEDURE restock", 14, 18) in spans, spans
    assert spans[-2:] == [("DELIMITER", 19, 19), ("SELECT", 20, 20)]
    assert_lossless(prep, chunks)


def test_oversized_means_over_the_budget() -> None:
    # A heading trail that fills most of the budget flagged every piece under it, fitting or not.
    source = "# " + "T" * 250 + "\n\n" + "word " * 30 + "\n"
    chunks = chunk_document(prepare("d.md", "markdown", source), ChunkSettings(unit="chars", budget=300), "syntax")
    assert any(c.size <= 300 for c in chunks) and any(c.size > 300 for c in chunks)
    assert all(("oversized" in c.flags) == (c.size > 300) for c in chunks), [(c.size, c.flags) for c in chunks]


def test_a_json_files_opening_brace_is_no_chunk_of_its_own() -> None:
    chunks = chunk_document(prepare("x.json", "json", '{\n "a": 1,\n "b": 2\n}\n'), ChunkSettings(budget=1500), "syntax")
    assert [(c.symbol, c.text) for c in chunks] == [("a", '{\n "a": 1,'), ("b", ' "b": 2\n}')]
    commented = chunk_document(prepare("c.yaml", "yaml", "# settings\nserver:\n  port: 1\n"), ChunkSettings(budget=1500), "syntax")
    assert [c.symbol for c in commented] == ["<document>", "server"]  # words above the first key stay a chunk
