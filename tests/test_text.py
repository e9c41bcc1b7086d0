"""Prose and config: sections at headings or keys, never mid-line."""

from __future__ import annotations

import pytest

from core.chunking import chunk_document, prepare
from core.languages import detect_language, fence_language
from core.metrics import boundary_damage
from core.settings import ChunkSettings
from core.syntax import list_definitions
from tests.helpers import SAMPLES, assert_lossless, assert_slices_true

FILES = ["py_inventory/README.md", "py_inventory/config.yaml", "polyglot_scripts/settings.toml",
         "polyglot_scripts/data.json", "polyglot_scripts/schema.sql", "polyglot_scripts/notes.txt"]


@pytest.mark.parametrize("rel", FILES)
@pytest.mark.parametrize("budget", [40, 120, 400])
def test_sections_are_whole_lines(rel: str, budget: int) -> None:
    path = SAMPLES / rel
    prep = prepare(rel, detect_language(path.name), path.read_text("utf-8"))
    chunks = chunk_document(prep, ChunkSettings(budget=budget, merge_siblings=False), "syntax")
    assert chunks and all(c.kind == "section" for c in chunks if c.strategy == "text")
    # (A README's fences too big for a chunk are cut by the syntax chunker of their language.)
    assert all(c.strategy == "text" for c in chunks if prep.doc.language != "markdown")
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
    # (A long trail is shortened to its last characters: at 60 those still fill most of it.)
    source = "# " + "T" * 250 + "\n\n" + "word " * 30 + "\n"
    chunks = chunk_document(prepare("d.md", "markdown", source), ChunkSettings(unit="chars", budget=60), "syntax")
    assert any(c.size <= 60 for c in chunks) and any(c.size > 60 for c in chunks)
    assert all(("oversized" in c.flags) == (c.size > 60) for c in chunks), [(c.size, c.flags) for c in chunks]


def test_a_json_files_opening_brace_is_no_chunk_of_its_own() -> None:
    chunks = chunk_document(prepare("x.json", "json", '{\n "a": 1,\n "b": 2\n}\n'), ChunkSettings(budget=1500), "syntax")
    assert [(c.symbol, c.text) for c in chunks] == [("a", '{\n "a": 1,'), ("b", ' "b": 2\n}')]
    commented = chunk_document(prepare("c.yaml", "yaml", "# settings\nserver:\n  port: 1\n"), ChunkSettings(budget=1500), "syntax")
    assert [c.symbol for c in commented] == ["<document>", "server"]  # words above the first key stay a chunk


def _sections(path: str, language: str, text: str, budget: int = 800) -> list[tuple[str, int, int]]:
    prep = prepare(path, language, text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    return [(c.symbol, c.start_line, c.end_line) for c in chunks]


def test_sql_psql_commands_and_hash_comments_end_where_they_end() -> None:
    # PostgreSQL's extension scripts open with a psql command that has no ``;``: the first
    # function was read into it, as ``<statement>``.
    psql = ('\\echo Use "CREATE EXTENSION demo" to load this file. \\quit\n\n'
            "CREATE FUNCTION demo_add(a int) RETURNS int\nAS 'MODULE_PATHNAME'\nLANGUAGE C STRICT;\n")
    assert _sections("d.sql", "sql", psql) == [("\\echo", 1, 1), ("CREATE FUNCTION demo_add", 3, 5)]
    # A ``#`` comment's apostrophe opened a string: the whole file was one statement.
    hashed = "# Don't run this on production\nSELECT 1;\n\nSELECT 2;\n"
    assert _sections("h.sql", "sql", hashed) == [("SELECT", 1, 2), ("SELECT", 4, 4)]


def test_sql_backslash_escapes_in_mysql_and_e_strings_but_not_in_standard_strings() -> None:
    # mysqldump's ``'It\'s'``: the escaped quote closed the string, and every later statement
    # was read into the INSERT.
    dump = ("CREATE TABLE `notes` (\n  `body` text\n);\n\nINSERT INTO `notes` VALUES (1,'It\\'s done');\n\n"
            "CREATE TABLE `tags` (\n  `id` int\n);\n")
    assert _sections("dump.sql", "sql", dump) == [
        ("CREATE TABLE notes", 1, 3), ("INSERT INTO notes", 5, 5), ("CREATE TABLE tags", 7, 9)]
    postgres = "SELECT E'it\\'s';\n\nSELECT 'C:\\';\n\nSELECT 3;\n"  # a standard string's backslash is itself
    assert _sections("p.sql", "sql", postgres) == [("SELECT", 1, 1), ("SELECT", 3, 3), ("SELECT", 5, 5)]


def test_sql_titles_keep_quoted_and_qualified_names_and_drop_or_replace() -> None:
    text = ('CREATE OR REPLACE FUNCTION add_one(x int) RETURNS int AS $$ SELECT x + 1 $$ LANGUAGE sql;\n\n'
            'CREATE TABLE IF NOT EXISTS public.users (id int);\n\nCREATE VIEW "Active Users" AS SELECT 1;\n')
    assert [s for s, _, _ in _sections("t.sql", "sql", text)] == [
        "CREATE FUNCTION add_one", "CREATE TABLE public.users", "CREATE VIEW Active Users"]


def test_markdown_fences_close_only_on_their_own_run_and_html_comments_hide_headings() -> None:
    text = ("# Guide\n\n```text\n~~~\n# shell comment\n```\n\n````md\n```py\n# also code\n````\n\n"
            "<!--\n# commented out\n-->\n\n## Real\n\nBody.\n")
    assert [s for s, _, _ in _sections("g.md", "markdown", text)] == ["Guide", "Guide > Real"]


def test_markdown_setext_headings_front_matter_and_atx_edge_cases() -> None:
    text = ("---\ntitle: Page\n# a YAML comment\n---\n\nIntro.\n\nSetext Title\n============\n\nBody.\n\n"
            "Sub Part\n--------\n\nMore.\n\n# Using C#\n\ntext\n\n  ## Indented\n\nx\n")
    assert list(dict.fromkeys(s for s, _, _ in _sections("s.md", "markdown", text))) == [
        "<front matter>", "Setext Title", "Setext Title > Sub Part", "Using C#", "Using C# > Indented"]


def test_markdown_a_document_opening_on_a_thematic_break_has_no_front_matter() -> None:
    text = "---\n\n# Title\n\nText.\n\n---\n\n## More\n\nx\n"
    assert [s for s, _, _ in _sections("b.md", "markdown", text)] == ["Title", "Title > More"]


def test_markdown_an_empty_parent_heading_goes_with_its_first_child() -> None:
    text = "# Tool\n\n## Install\n\n### From PyPI\n\nRun pip.\n\n### From source\n\nClone it.\n"
    assert _sections("t.md", "markdown", text, budget=200) == [
        ("Tool > Install > From PyPI", 1, 7), ("Tool > Install > From source", 9, 11)]


def test_markdown_a_fence_with_blank_lines_stays_whole_and_a_heading_keeps_its_text() -> None:
    fence = "# Setup\n\nRun this:\n\n```python\nimport os\n\nprint(os.getcwd())\n\nprint('done')\n```\n"
    assert _sections("f.md", "markdown", fence, budget=100) == [("Setup", 1, 3), ("Setup", 5, 11)]
    listing = "# Options\n\n" + "".join(f"- `--flag{i}`: what the flag number {i} does, in a line\n" for i in range(6))
    first = _sections("o.md", "markdown", listing, budget=200)[0]
    assert first[1:] == (1, 5)  # the heading with the first lines of the list, not alone


def test_yaml_comments_and_document_markers_go_with_the_key_below() -> None:
    text = ("# Server settings\nserver:\n  port: 8080\n\n# DEPRECATED: use storage\ndatabase:\n  url: x\n"
            "---\nstorage:\n  url: y\n")
    assert _sections("c.yaml", "yaml", text, budget=200) == [("server, database", 1, 7), ("storage", 8, 10)]
    assert _sections("c.yaml", "yaml", text, budget=100) == [  # a document too big for a chunk: its keys,
        ("server, database", 1, 3), ("server, database > database", 5, 7), ("storage", 8, 10)]  # the first heading it
    play = "- name: Install packages\n  apt: nginx\n\n- name: Start nginx\n  service: nginx\n"
    assert [s for s, _, _ in _sections("p.yaml", "yaml", play, budget=200)] == ["name: Install packages", "name: Start nginx"]
    # A list as a document of a stream: its first piece was named by all its items, and its
    # breadcrumb, cut short, by the one it does not hold.
    stream = "kind: A\n---\n- name: Start nginx\n  service: name=nginx state=started\n- name: Install pkg\n  apt: name=foo\n"
    assert _sections("s.yaml", "yaml", stream, budget=120) == [("A", 1, 1), ("name: Start nginx", 2, 4), ("name: Install pkg", 5, 6)]


def test_toml_tables_with_comments_and_multiline_strings() -> None:
    text = ('[project]\nname = "demo"\n\n[tool.black]  # formatter\nline-length = 100\n\n'
            '[tool.tox]\nlegacy = """\n[tox]\nenvlist = py311\n"""\n\n# type checking\n[tool.mypy]\nstrict = true\n')
    assert _sections("p.toml", "toml", text, budget=200) == [
        ("project", 1, 2), ("tool.black", 4, 5), ("tool.tox", 7, 11), ("tool.mypy", 13, 15)]


def test_json_keys_without_a_space_and_top_level_arrays() -> None:
    compact = '{\n"name":"demo",\n"version":"1.0",\n"urn:x":true\n}\n'
    assert [s for s, _, _ in _sections("c.json", "json", compact, budget=200)] == ["name", "version", "urn:x"]
    records = "[\n" + ",\n".join(f'  {{\n    "id": {i},\n    "name": "user{i}"\n  }}' for i in range(3)) + "\n]\n"
    assert _sections("r.json", "json", records, budget=200) == [("[0]", 1, 5), ("[1]", 6, 9), ("[2]", 10, 14)]


def test_rst_titles_are_sections_with_levels_in_the_order_the_document_uses_them() -> None:
    text = ("=======\nProject\n=======\n\nIntro.\n\nInstall\n-------\n\nRun pip.\n\nFrom source\n~~~~~~~~~~~\n\n"
            "Clone it.\n\nUsage\n-----\n\n.. code-block:: python\n\n   x = 1\n   ----\n\nDone.\n")
    prep = prepare("guide.rst", detect_language("guide.rst"), text)
    assert prep.doc.language == "rst"
    assert _sections("guide.rst", "rst", text, budget=200) == [
        ("Project", 1, 5), ("Project > Install", 7, 10), ("Project > Install > From source", 12, 15),
        ("Project > Usage", 17, 25)]
    chunk = chunk_document(prep, ChunkSettings(budget=200), "syntax")[0]
    assert chunk.embed_text.startswith(".. guide.rst :: Project\n")


def test_merged_sections_are_titled_by_the_trail_they_share_or_a_few_of_their_names() -> None:
    text = "# Tool\n\n## Install\n\nRun pip.\n\n## Use\n\nCall it.\n"
    chunks = chunk_document(prepare("t.md", "markdown", text), ChunkSettings(budget=400, merge_siblings=True), "syntax")
    assert [c.symbol for c in chunks] == ["Tool"]  # was "Tool, Tool > Install, Tool > Use"
    flat = "{\n" + ",\n".join(f'"k{i}": {i}' for i in range(10)) + "\n}\n"
    chunks = chunk_document(prepare("f.json", "json", flat), ChunkSettings(budget=400, merge_siblings=True), "syntax")
    assert [c.symbol for c in chunks] == ["k0, k1, k2, ... 7 more"]


def test_sql_a_string_of_the_letter_e_closes_and_a_yaml_block_scalars_comment_stays_in_it() -> None:
    text = "SELECT * FROM t WHERE kind = 'e';\n\nSELECT 2;\n"
    assert _sections("e.sql", "sql", text) == [("SELECT", 1, 1), ("SELECT", 3, 3)]
    yaml = "script: |\n  pip install .\n  # then the tests\nbuild:\n  run: make\n"
    assert _sections("ci.yaml", "yaml", yaml) == [("script", 1, 3), ("build", 4, 5)]


def test_ini_sections_take_the_semicolon_comments_above_them() -> None:
    text = "[server]\nport = 80\n\n; where the logs go\n[logging]\nlevel = info\n"
    assert _sections("app.ini", "toml", text) == [("server", 1, 2), ("logging", 4, 6)]


def test_toml_and_ini_read_quotes_inside_values_and_comments_as_text() -> None:
    # flake8-quotes' documented settings held a lone ''' that opened a "multi-line string" to
    # the end of the file: [isort] and [mypy] were lost.
    cfg = ("[metadata]\nname = x\n\n[flake8]\ninline-quotes = \"\nmultiline-quotes = '''\n"
           "docstring-quotes = \"\"\"\n\n[isort]\nprofile = black\n\n[mypy]\nstrict = true\n")
    assert [s for s, _, _ in _sections("setup.cfg", "toml", cfg)] == ["metadata", "flake8", "isort", "mypy"]
    toml = "[a]\nx = \"'''\"\ny = 1  # not \"\"\"\n\n[b]\nvalues = [\n  [1, 2],\n]\n\n[c]\nz = 2\n"
    assert [s for s, _, _ in _sections("p.toml", "toml", toml)] == ["a", "b", "c"]


def test_markdown_a_fence_blank_line_is_never_a_chunk_of_its_own() -> None:
    texts = ["# Setup\n\n```sh\n./configure --prefix=/usr/local --enable-shared\n\n"
             "docker run --rm -v $PWD:/src -w /src builder:latest make test-all\n```\n",
             "# A\n\n```\ncode line here\n" + " " * 100 + "\nmore code\n```\n"]
    for text in texts:
        prep = prepare("s.md", "markdown", text)
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=60), "syntax")
        assert all(c.text.strip() for c in chunks), [c.text for c in chunks]


def test_sql_one_backquote_in_a_comment_does_not_make_a_postgres_file_mysql() -> None:
    text = ("-- lookup on `users`\nSELECT data #> '{a,b}' FROM t;\nSELECT 2;\n"
            "SELECT * FROM t WHERE name LIKE 'a\\_%' ESCAPE '\\';\nCREATE TABLE y (id int);\n")
    assert [s for s, _, _ in _sections("pg.sql", "sql", text)] == ["SELECT data", "SELECT", "SELECT", "CREATE TABLE y"]
    comment = "/* path C:\\*/\nSELECT 1;\nSELECT 2;\n"  # a backslash before */ escapes nothing there
    assert _sections("c.sql", "sql", comment) == [("SELECT", 1, 2), ("SELECT", 3, 3)]


def test_sql_mysql_delimiter_dollars_pg_dump_copy_rows_and_drop_if_exists() -> None:
    mysql = "DELIMITER $$\nCREATE PROCEDURE p()\nBEGIN\n  SELECT 1;\nEND$$\nDELIMITER ;\nSELECT 2;\n"
    assert [s for s, _, _ in _sections("m.sql", "sql", mysql)] == ["DELIMITER", "CREATE PROCEDURE p", "DELIMITER", "SELECT"]
    dump = "COPY public.notes (id, body) FROM stdin;\n1\tit's fine; really\n2\tC:\\dir\n\\.\n\nDROP TABLE IF EXISTS\n  users;\n"
    assert _sections("d.sql", "sql", dump) == [("COPY public.notes", 1, 4), ("DROP TABLE", 6, 7)]


def test_json_keys_holding_quotes_and_unindented_arrays() -> None:
    text = '{\n  "Cancel": "Abbrechen",\n  "Don\'t save": "Nicht speichern",\n  "Say \\"hi\\"": "Sag hallo"\n}\n'
    assert [s for s, _, _ in _sections("de.json", "json", text)] == ["Cancel", "Don't save", 'Say \\"hi\\"']
    flat = '[\n{\n"id": 1,\n"name": "a"\n},\n{\n"id": 2\n}\n]\n'  # json.dumps(indent=0)
    assert _sections("r.json", "json", flat) == [("[0]", 1, 5), ("[1]", 6, 9)]


def test_rst_inset_title_and_markdown_headings_after_a_byte_order_mark() -> None:
    rst = "==========\n Foo Bar\n==========\n\nintro\n\nSection\n-------\n\ntext\n"
    assert [s for s, _, _ in _sections("f.rst", "rst", rst)] == ["Foo Bar", "Foo Bar > Section"]
    md = "\ufeff# Title\n\nText.\n\n## Part ##\n\nMore.\n\n# Using C#\n\nx\n"
    assert [s for s, _, _ in _sections("b.md", "markdown", md)] == ["Title", "Title > Part", "Using C#"]


def test_yaml_a_stream_of_kubernetes_objects_is_a_section_per_object() -> None:
    # Each key its own section cut a Deployment into "apiVersion", "kind", "metadata" and
    # "spec": its replicas in one chunk, its name in another.
    manifest = ("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n---\n"
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n"
                "spec:\n  replicas: 3\n")
    assert _sections("k8s.yaml", "yaml", manifest, budget=400) == [("Service web", 1, 7), ("Deployment web", 8, 16)]
    assert _sections("k8s.yaml", "yaml", manifest, budget=100) == [  # too big: its leading keys head it
        ("Service web", 1, 4), ("Service web > spec", 5, 7),
        ("Deployment web", 8, 10), ("Deployment web > metadata", 11, 14), ("Deployment web > spec", 15, 16)]


def test_makefile_rules_and_dockerfile_stages_are_sections() -> None:
    assert detect_language("Makefile") == "makefile" and detect_language("rules.mk") == "makefile"
    assert detect_language("Dockerfile") == "dockerfile" and detect_language("Containerfile") == "dockerfile"
    assert detect_language("deploy/Dockerfile.prod") == "dockerfile" and detect_language("Makefile.am") == "makefile"
    assert detect_language("Pipfile") == "toml" and detect_language("notes.prod") is None
    make = ("CC := gcc\n\n# The binary\n.PHONY: app\napp: main.o util.o\n\t$(CC) -o $@ $^\n\n"
            "%.o: %.c\n\t$(CC) -c $<\n\nclean:\n\trm -f *.o app\n")
    assert _sections("Makefile", "makefile", make) == [("<top>", 1, 1), ("app", 3, 6), ("%.o", 8, 9), ("clean", 11, 12)]
    docker = ("ARG PY=3.12\n\n# Build the wheels\nFROM python:${PY}-slim AS build\nRUN pip wheel -w /w .\n\n"
              "FROM --platform=linux/amd64 python:${PY}-slim\nCOPY --from=build /w /w\n")
    assert _sections("Dockerfile", "dockerfile", docker) == [
        ("<top>", 1, 1), ("build (python:${PY}-slim)", 3, 5), ("python:${PY}-slim", 7, 8)]


def test_makefile_directives_defines_assignments_and_special_targets() -> None:
    # Each was a section of its own, or swallowed a rule, in real Makefiles (git's, Sphinx's, pgxs.mk).
    make = ("ifndef CC\n$(error CC is not set: set it)\nendif\nX ::= 1\n\ndefine HELP\nUsage: make [target]\nendef\n\n"
            "../VERSION: FORCE\n\t./gen-version > $@\n\n.DEFAULT:\n\t@echo no rule for $@\n\n-include $(OBJS:.o=.d)\n"
            "vpath %.h a:b\n\n$(BUILD)/%.o: %.c\n\tcc -c $<\n\nifeq ($(OS),Windows_NT)\n  clean:\n\tdel *.o\nendif\n")
    assert [s for s, _, _ in _sections("Makefile", "makefile", make)] == [
        "<top>", "../VERSION", ".DEFAULT", "$(BUILD)/%.o", "clean"]
    specific = "app: CFLAGS += -g\napp: LDLIBS = -lm\napp: main.o\n\tcc -o $@ $^\n\ntest: app\n\t./app\n"
    assert _sections("Makefile", "makefile", specific) == [("app", 1, 4), ("test", 6, 7)]  # target-specific variables


def test_dockerfile_from_in_a_continued_line_or_heredoc_starts_no_stage() -> None:
    docker = ("FROM python:3.12 AS base\nRUN pip install flask \\\n    && python -c 'x' \\\nFROM flask import Flask\n"
              "RUN <<EOF\nfrom flask import Flask\nEOF\n\nFROM registry.example.com/team/base@sha256:" + "0" * 64 + "\n")
    found = _sections("Dockerfile", "dockerfile", docker, budget=2000)
    assert [(a, b) for _, a, b in found] == [(1, 7), (9, 9)] and found[0][0] == "base (python:3.12)"
    assert len(found[1][0]) == 80  # a digest-pinned image's title is cut: it is paid in every chunk


def test_yaml_object_title_is_metadatas_own_name_not_a_labels() -> None:
    manifest = ("apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    name: frontend\n  name: frontend-svc\n"
                "spec: {}\n---\nkind: ConfigMap\nmetadata:\n  name: settings\n")
    assert [s for s, _, _ in _sections("k.yaml", "yaml", manifest)] == ["Service frontend-svc", "ConfigMap settings"]


def test_toml_an_escaped_quote_run_does_not_close_a_multiline_string() -> None:
    text = 'a = """x \\""" y"""\n\n[t]\nb = 1\n\n[u]\nc = 2\n'
    assert [s for s, _, _ in _sections("c.toml", "toml", text)] == ["<top>", "t", "u"]


def test_sql_a_copy_delimiter_option_and_names_quoted_in_comments() -> None:
    copy = "COPY t FROM '/x.csv'\n    DELIMITER ','\n    CSV HEADER;\n\nCREATE TABLE a (id int);\n"
    assert _sections("s.sql", "sql", copy) == [("COPY t FROM", 1, 3), ("CREATE TABLE a", 5, 5)]
    quoted = "-- reads `users`, `orders` and `items`\nSELECT 'C:\\';\n\nCREATE TABLE a (i int);\n"
    assert [s for s, _, _ in _sections("q.sql", "sql", quoted)] == ["SELECT", "CREATE TABLE a"]


def test_a_cut_line_gives_no_piece_of_whitespace_alone() -> None:
    for path, language, text in [("a.txt", "text", "a" * 36 + " \t \n"), ("Makefile", "makefile", "all:\r\r\n"),
                                 ("b.md", "markdown", "x" * 30 + " " * 60 + "y" * 30 + "\n")]:
        chunks = chunk_document(prepare(path, language, text), ChunkSettings(unit="chars", budget=20), "syntax")
        assert chunks and all(c.text.strip() for c in chunks), [c.text for c in chunks]


WEB_PROJECT = {
    "src/App.vue": (
        "<template>\n  <div class=\"app\">{{ message }}</div>\n</template>\n\n<script setup lang=\"ts\">\n"
        "import { ref } from 'vue'\n\nconst message = ref('Hello')\n</script>\n\n<style scoped>\n.app { color: red; }\n</style>\n"
    ),
    "public/index.html": "<!doctype html>\n<html>\n<body>\n  <div id=\"app\"></div>\n</body>\n</html>\n",
    "src/site.scss": ".a { color: red; }\n\n.b {\n  margin: 0;\n}\n",
    "api/user.proto": "syntax = \"proto3\";\n\nmessage User {\n  string name = 1;\n}\n",
    "infra/main.tf": "resource \"aws_s3_bucket\" \"site\" {\n  bucket = \"site\"\n}\n",
    "kernels/add.cu": "__global__ void add(int n, float *x, float *y)\n{\n  y[threadIdx.x] += x[threadIdx.x];\n}\n",
}


def test_a_web_projects_files_are_chunked_not_skipped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A Vue project's .vue, .html and .scss files (and .proto, .tf, CUDA's .cu) were skipped as
    # "unknown file type": nothing of a front end reached the index. With no syntax spec they
    # are cut at blank-line blocks, never inside a line; CUDA, Protocol Buffers, Terraform and
    # SCSS have specs of their own.
    from core.sources import load_folder

    for rel, text in WEB_PROJECT.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, "utf-8")
    corpus = load_folder(tmp_path)
    assert not corpus.skipped and sorted(f.path for f in corpus.files) == sorted(WEB_PROJECT)
    comments = {"vue": "<!--", "html": "<!--"}
    for source in corpus.files:
        prep = prepare(source.path, source.language, source.text)
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
        assert chunks, source.path
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        if source.language == "cuda":
            assert [(c.kind, c.symbol) for c in chunks] == [("kernel", "add")] and not chunks[0].flags
        elif source.language == "proto":
            assert [(c.kind, c.symbol) for c in chunks] == [("module", "<module>"), ("message", "User")]
        elif source.language == "hcl":
            assert [(c.kind, c.symbol) for c in chunks] == [("resource", "aws_s3_bucket.site")]
        elif source.language == "scss":
            assert [(c.kind, c.symbol) for c in chunks] == [("rule", ".a"), ("rule", ".b")]
            assert chunks[0].embed_text.startswith(f"/* {source.path} :: .a */")
        else:
            # (The component's script block is TypeScript to the syntax chunker, its style block
            # CSS: core/embedded.py.)
            code = [c for c in chunks if c.strategy == "syntax"]
            assert all(c.strategy == "text" for c in chunks if c not in code)
            assert [(c.symbol, c.start_line, c.end_line) for c in code] == (
                [("<module>", 6, 8), (".app", 12, 12)] if source.language == "vue" else []
            )
            assert chunks[0].embed_text.startswith(f"{comments[source.language]} {source.path} :: ")


def _each_file_chunked(root, files: dict[str, tuple[str, str]]) -> dict[str, list]:  # type: ignore[no-untyped-def]
    """Write ``files`` (path: (language, text)) under ``root``, load the folder as the app and the
    CLI do, check that none is skipped and each is read in its language, and chunk each with
    the syntax strategy at 60 chars: slices true, lossless. Each file's chunks, by path."""
    from core.sources import load_folder

    for rel, (_, text) in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    corpus = load_folder(root)
    assert not corpus.skipped and {f.path: f.language for f in corpus.files} == {
        rel: language for rel, (language, _) in files.items()
    }
    chunked = {}
    for source in corpus.files:
        prep = prepare(source.path, source.language, source.text)
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=60), "syntax")
        assert chunks, source.path
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        chunked[source.path] = chunks
    return chunked


MORE_FILE_TYPES = {
    "docs/intro.mdx": ("markdown", "import Tabs from '@theme/Tabs'\n\n# Intro\n\nSome text.\n\n## Install\n\n<Tabs />\n"),
    "analysis/report.qmd": ("markdown", "---\ntitle: Report\n---\n\n# Data\n\n```{python}\nx = 1\n```\n"),
    "analysis/fit.Rmd": ("markdown", "# Fit\n\n```{r}\nfit <- lm(y ~ x)\n```\n"),
    "config/settings.jsonc": ("json", "{\n  // the editor's font\n  \"font\": \"mono\",\n  \"size\": 12\n}\n"),
    "conf/app.properties": ("properties", "# database\ndb.url=jdbc:pg://x\n\n# cache\ncache.ttl=60\n"),
    "paper/main.tex": ("latex", "\\section{Intro}\nText.\n\n\\section{Method}\nMore.\n"),
    "Jenkinsfile": ("groovy", "pipeline {\n  agent any\n}\n"),
    "native/CMakeLists.txt": ("cmake", "cmake_minimum_required(VERSION 3.20)\n\nproject(demo)\n"),
    "build.sbt": ("scala", "lazy val root = (project in file(\".\"))\n  .settings(name := \"demo\")\n"),
    "scripts/setup.zsh": ("bash", "setup() {\n  echo ready\n}\n"),
    "tools/gui.pyw": ("python", "def main():\n    return 0\n"),
    "api/schema.graphqls": ("graphql", "type User {\n  id: ID!\n}\n"),
    "src/Unit1.pas": ("pascal", "unit Unit1;\n\ninterface\n\nimplementation\n\nend.\n"),
    "src/Station.dpr": ("pascal", "program Station;\n\nuses\n  Unit1 in 'Unit1.pas';\n\nbegin\nend.\n"),
}


def test_more_common_file_types_are_read_in_their_language(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Docs in MDX, Quarto and R Markdown, JSON with comments, Java properties, LaTeX, a
    # Jenkinsfile, CMake's CMakeLists.txt (a .txt), sbt builds, zsh, .pyw and .graphqls files
    # were skipped as "unknown file type", or read as plain text; Pascal's units and Delphi's
    # projects were cut as text.
    for chunks in _each_file_chunked(tmp_path, MORE_FILE_TYPES).values():
        assert not any(c.fallback for c in chunks)


LANGUAGES_WITHOUT_A_SPEC = {
    "src/Main.elm": ("elm", "module Main exposing (main)\n\n-- the entry\nmain =\n    text \"hi\"\n"),
    "src/stock.nim": ("nim", "proc pick(n: int): int =\n  n + 1\n\necho pick(1)\n"),
    "schema.prisma": ("prisma", "model Bin {\n  id Int @id\n}\n\nmodel Aisle {\n  id Int @id\n}\n"),
    "manifests/init.pp": ("puppet", "class stock {\n  package { 'nginx': ensure => installed }\n}\n"),
    "meson.build": ("meson", "project('stock', 'c')\n\nexecutable('pick', 'pick.c')\n"),
    "go.mod": ("gomod", "module example.com/stock\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n"),
    "scripts/build.bat": ("batch", "@echo off\nREM build the station\n\ncall make.bat\n"),
    "CHANGELOG": ("text", "1.2.0\n  - faster picks\n\n1.1.0\n  - first release\n"),
    "docs/guide.adoc": ("asciidoc", "= Guide\n\n== Install\n\nRun the installer.\n"),
}


def test_languages_without_a_spec_are_chunked_as_text_not_skipped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # An Elm or Nim project, a Prisma schema, Puppet manifests, a Meson
    # build, Go's go.mod, Windows batch files, a CHANGELOG and AsciiDoc were skipped as "unknown
    # file type": such a project chunked nothing at all. They are cut at blank-line blocks,
    # with their own comment syntax in the breadcrumb.
    chunked = _each_file_chunked(tmp_path, LANGUAGES_WITHOUT_A_SPEC)
    for path, chunks in chunked.items():
        assert all(c.strategy == "text" and not c.fallback for c in chunks), path
    assert chunked["src/Main.elm"][0].embed_text.startswith("-- src/Main.elm")
    assert chunked["scripts/build.bat"][0].embed_text.startswith("REM scripts/build.bat")
    # Extensions another file type claims stay unknown: make's dependency files (``.d``, D's
    # too). (``.cls``, Apex's classes and LaTeX's, is Apex's unless its text is LaTeX's: see
    # test_syntax's Apex tests.)
    assert detect_language("build/pick.d") is None


# A section of a guide whose Python example is too big for one chunk: two functions and a class.
GUIDE = '''# Guide

Some words about the tool.

## Install

Run this, with the path you want:
```python
def install(path):
    """Install into path."""
    if not path:
        raise ValueError("no path")
    return True


def plan(path):
    """The steps, in order."""
    steps = [path + "/bin", path + "/lib"]
    return steps


class Installer:
    def run(self):
        return install(".")
```

## Use

Call it.
'''


def test_markdown_a_fence_too_big_for_a_chunk_is_cut_by_its_languages_syntax() -> None:
    # It was packed line by line like prose: ``plan``'s signature in one chunk, its body in the next.
    prep = prepare("docs/guide.md", "markdown", GUIDE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=180, merge_siblings=False), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    code = [c for c in chunks if c.strategy == "syntax"]
    assert [(c.symbol, c.kind, c.start_line, c.end_line) for c in code] == [
        ("Guide > Install > install", "function", 9, 13),
        ("Guide > Install > plan", "function", 16, 19),
        ("Guide > Install > Installer", "class", 22, 24),
    ]
    assert all(c.language == "markdown" for c in chunks)
    assert code[1].embed_text.startswith("# docs/guide.md :: Guide > Install > plan\ndef plan(path):")
    # The opening line goes with the words before it; the closing one, alone, is kept unindexed.
    opening = next(c for c in chunks if c.end_line == 8)
    assert opening.text.endswith("Run this, with the path you want:\n```python") and not opening.flags
    closing = next(c for c in chunks if c.start_line == 25)
    assert closing.text == "```" and closing.flags == ("divider",) and closing.symbol == "Guide > Install"
    assert [c.symbol for c in chunks if c.start_line > 25] == ["Guide > Use"]


def test_markdown_a_long_function_in_a_fence_is_cut_in_parts_that_repeat_its_signature() -> None:
    body = "".join(f"    total += item.price * {i}  # line {i} of the sum\n" for i in range(12))
    text = f"# Pricing\n\n```py\ndef total(items):\n    total = 0\n{body}    return total\n```\n"
    prep = prepare("p.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.strategy == "syntax"]
    assert len(parts) > 1 and {c.symbol for c in parts} == {"Pricing > total"}
    assert all("def total(items):" in c.embed_text for c in parts)
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))


def test_markdown_a_fence_that_fits_a_chunk_is_never_cut_by_lines() -> None:
    # The words right above a fence (no blank line between) made one block with it: too big for
    # a chunk, it was packed line by line, and the fence was cut where the first chunk filled.
    output = "".join(f"  step {i}: copied {i * 10} files\n" for i in range(8))
    text = f"# Run\n\nThen the tool prints what it did, step by step, as it goes:\n```console\n$ tool sync\n{output}```\n"
    prep = prepare("r.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    fence = [c for c in chunks if "$ tool sync" in c.text]
    assert len(fence) == 1 and fence[0].text.startswith("```console") and fence[0].text.endswith("```")
    assert all(c.strategy == "text" for c in chunks)  # console: a session, no script


def test_markdown_a_fence_of_code_that_does_not_parse_is_cut_by_lines() -> None:
    session = "".join(f">>> cart.add('sku-{i}', qty={i})\nAdded sku-{i} x{i}\n" for i in range(10))
    text = f"# Session\n\n```python\n{session}```\n"
    prep = prepare("s.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert len(chunks) > 1 and all(c.strategy == "text" and c.symbol == "Session" for c in chunks)


def test_markdown_fence_parses_are_kept_for_the_next_budget() -> None:
    prep = prepare("docs/guide.md", "markdown", GUIDE)
    chunk_document(prep, ChunkSettings(unit="chars", budget=160), "syntax")
    kept = prep.fence(9, 24, "python", "Guide > Install")
    assert kept.tree is not None
    again = chunk_document(prep, ChunkSettings(unit="chars", budget=170), "syntax")
    assert prep.fence(9, 24, "python", "Guide > Install") is kept
    assert any(c.symbol == "Guide > Install > plan" for c in again)


@pytest.mark.parametrize(
    ("info", "language"),
    [("python", "python"), ("PY", "python"), ("{r setup, include=FALSE}", "r"), ("{.python}", "python"),
     ("rust,ignore", "rust"), ('ts title="app.ts"', "typescript"), ("golang", "go"), ("c++", "cpp"),
     ("kt", "kotlin"), ("exs", "elixir"), ("console", None), ("json", "json"), ("yml", "yaml"), ("dockerfile", "dockerfile"), ("text", None), ("diff", None), ("", None),
     ("tex", None), ("m", "matlab"), ("octave", "matlab"),
     ("systemverilog", "verilog"), ("sv", "verilog"), ("vhdl", "vhdl")],
)  # fmt: skip
def test_fence_info_strings_name_their_language(info: str, language: str | None) -> None:
    assert fence_language(info) == language


def test_markdown_only_a_documents_first_fences_are_parsed_in_copies_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each fence cut by syntax is parsed in a copy of the whole document: a 2 MB page of a
    # thousand listings must not hold a thousand copies. Past the allowance, fences go by lines.
    import core.text

    listing = "```python\n" + "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(6)) + "```\n\n"
    text = "".join(f"## Listing {k}\n\n{listing}" for k in range(5))
    monkeypatch.setattr(core.text, "FENCE_COPY_BYTES", 2 * len(text.encode()))
    prep = prepare("many.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=60), "syntax")
    assert_lossless(prep, chunks)
    code = {c.symbol.split(" > ")[0] for c in chunks if c.strategy == "syntax"}
    assert code == {"Listing 0", "Listing 1"}


PAPER = r"""\documentclass{article}
\title{Restock Planning with \emph{Noisy} Demand}
\begin{document}
\maketitle

\begin{abstract}
We plan restocks when demand is noisy.
\end{abstract}

% ---------------------------------------------------------------
\section{Introduction}\label{sec:intro}
Warehouses run out of stock.

\subsection*{Contributions}
A rule.

\section[Model]{The Demand Model, in \textbf{Full}}
Demand is Poisson.
\begin{lstlisting}
\section{not a heading}
\end{lstlisting}
%\section{Commented out}

\subsection{Estimating the rate}
We estimate it.

\begin{thebibliography}{9}
\bibitem{a} A. Author. A book.
\end{thebibliography}
\end{document}
"""


def test_latex_sections_carry_their_trail_and_the_preamble_abstract_and_references_are_their_own() -> None:
    assert _sections("paper.tex", "latex", PAPER, budget=200) == [
        ("preamble", 1, 2), ("Restock Planning with Noisy Demand", 3, 4), ("Abstract", 6, 8),
        ("Introduction", 10, 12), ("Introduction > Contributions", 14, 15),
        ("The Demand Model, in Full", 17, 22),  # the listing's \section and the commented one are no headings
        ("The Demand Model, in Full > Estimating the rate", 24, 25), ("References", 27, 30)]
    chunk = chunk_document(prepare("paper.tex", "latex", PAPER), ChunkSettings(budget=200), "syntax")[3]
    assert chunk.embed_text.startswith("% paper.tex :: Introduction\n% ----")  # the rule above goes with it


def test_latex_a_chapter_file_without_a_document_is_its_headings() -> None:
    text = "\\chapter{Stock}\nIntro.\n\n\\section{Counting}\nCount it.\n\n\\section{Moving \\{braces\\}}\nMove it.\n"
    assert detect_language("chapters/stock.tex") == "latex"
    assert _sections("stock.tex", "latex", text, budget=100) == [
        ("Stock", 1, 2), ("Stock > Counting", 4, 5), ("Stock > Moving braces", 7, 8)]


def test_markdown_fence_definitions_are_listed_so_fixed_windows_cuts_show() -> None:
    text = GUIDE + "\n## REPL\n\n```python\n>>> install('.')\nTrue\n```\n\n```console\n$ tool install\n```\n"
    prep = prepare("docs/guide.md", "markdown", text)
    assert [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prep)] == [
        ("Guide > Install > install", "function", 9, 13), ("Guide > Install > plan", "function", 16, 19),
        ("Guide > Install > Installer", "class", 22, 24), ("Guide > Install > Installer.run", "method", 23, 24),
    ]  # (the REPL session does not parse; a console session is no code)
    settings = ChunkSettings(unit="chars", budget=180)
    fixed = boundary_damage(prep, chunk_document(prep, settings, "fixed"), budget=180, model=settings.model)
    syntax = boundary_damage(prep, chunk_document(prep, settings, "syntax"), budget=180, model=settings.model)
    assert fixed.cut and fixed.without_signature
    assert not syntax.cut and not syntax.without_signature


GUIDE_RST = """Guide
=====

Install
-------

Run this, with the path you want:

.. code-block:: python
   :caption: install.py

   def install(path):
       \"\"\"Install into path.\"\"\"
       if not path:
           raise ValueError("no path")
       return True


   def plan(path):
       \"\"\"The steps, in order.\"\"\"
       steps = [path + "/bin", path + "/lib"]
       return steps

Then call it.
"""


def test_rst_a_code_block_too_big_for_a_chunk_is_cut_by_its_languages_syntax() -> None:
    prep = prepare("docs/guide.rst", "rst", GUIDE_RST)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=190, merge_siblings=False), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert [(c.symbol, c.strategy, c.start_line, c.end_line) for c in chunks] == [
        ("Guide > Install", "text", 1, 10),  # the directive and its option go with the words above
        ("Guide > Install > install", "syntax", 12, 16),
        ("Guide > Install > plan", "syntax", 19, 22),
        ("Guide > Install", "text", 24, 24),
    ]
    assert [d.symbol for d in list_definitions(prep)] == ["Guide > Install > install", "Guide > Install > plan"]


def test_rst_a_code_block_that_fits_a_chunk_is_not_cut_at_its_blank_lines() -> None:
    text = GUIDE_RST.replace("Then call it.", "Then call it, and read what it printed: " + "words " * 30)
    prep = prepare("docs/guide.rst", "rst", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400, merge_siblings=False), "syntax")
    assert_lossless(prep, chunks)
    block = [c for c in chunks if "def install" in c.text or "def plan" in c.text]
    assert len(block) == 1 and block[0].text.startswith(".. code-block:: python") and "return steps" in block[0].text


def test_fixed_form_fortran_is_a_section_per_program_unit_with_its_comment_above() -> None:
    # ``.f`` files were skipped as of an unknown type (the Fortran grammar reads fixed form as errors).
    text = ("C     BLAS-like helpers for the restock model.\n"
            "      DOUBLE PRECISION FUNCTION DDOT2(N, X, Y)\n      INTEGER N\n      DOUBLE PRECISION X(N), Y(N)\n"
            "      DDOT2 = X(1)*Y(1)\n      RETURN\n      END\n\n"
            "*     Scale a vector in place.\n*     (A second line of the description.)\n"
            "      SUBROUTINE DSCAL2(N, A, X)\ncf2py intent(in,out) x\n      INTEGER N\n      X(1) = A*X(1)\n      END\n\n"
            "      PROGRAM MAIN\n      CALL DSCAL2(1, 2D0, V)\n      END\n")
    assert detect_language("blas/ddot2.f") == "fortran_fixed" and detect_language("old/MAIN.FOR") == "fortran_fixed"
    assert _sections("ddot2.f", "fortran_fixed", text, budget=400) == [
        ("DOUBLE PRECISION FUNCTION DDOT2", 1, 7), ("SUBROUTINE DSCAL2", 9, 15), ("PROGRAM MAIN", 17, 19)]


def test_cython_is_a_section_per_top_level_definition() -> None:
    # ``.pyx``/``.pxd`` files were skipped as of an unknown type (the Python grammar reads them as errors).
    text = ('"""Stock math in C.\n\ncdef class NotAHeading:\n"""\ncimport cython\nfrom libc.math cimport floor\n\n'
            "cdef int LIMIT = 100\n\n"
            "# Whole cartons only.\n@cython.boundscheck(False)\ncpdef double cartons(double units, double per):\n"
            "    return floor(units / per)\n\n"
            "cdef inline bint low(\n    double on_hand,\n    double floor_,\n):\n    return on_hand < floor_\n\n"
            "cdef class Ledger:\n    cdef dict levels\n\n    def add(self, sku, qty):\n        self.levels[sku] = qty\n\n"
            "MAX_BINS = 8\n")
    assert detect_language("stock/math.pyx") == "cython" and detect_language("stock/math.pxd") == "cython"
    assert _sections("math.pyx", "cython", text, budget=400) == [
        ("<module>", 1, 8), ("cpdef double cartons", 10, 13), ("cdef inline bint low", 15, 19),
        ("cdef class Ledger", 21, 25), ("<module>", 27, 27)]


def test_markdown_a_config_fence_too_big_for_a_chunk_is_cut_at_its_keys() -> None:
    # A README's compose file was cut by lines like prose; it is cut at its top-level keys, named
    # under the section it stands in.
    service = "  {0}:\n    image: shop/{0}:2.3\n    environment:\n      WAREHOUSE: LYS\n    ports:\n      - \"8080\"\n"
    compose = 'version: "3.9"\nservices:\n' + "".join(service.format(n) for n in ("api", "worker")) + "volumes:\n  data: {}\n"
    text = f"# Deploy\n\nThe stack, as compose runs it:\n\n```yaml\n{compose}```\n\nThen run it.\n"
    prep = prepare("d.md", "markdown", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=150), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks] == [
        ("Deploy", 1, 5), ("Deploy > version", 6, 6), ("Deploy > services > api", 7, 13),
        ("Deploy > services > worker", 14, 19), ("Deploy > volumes", 20, 21), ("Deploy", 22, 24)]
    assert all(c.language == "markdown" for c in chunks) and not list_definitions(prep)


WORKFLOW = """name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: pip install -r requirements-dev.txt
      - name: Test
        run: |
          python -m pytest -q
          echo "done: ok"
  build:
    runs-on: ubuntu-latest
    needs: test
    steps:
      - name: Build the image
        run: docker build -t shop/api .
"""


def test_yaml_a_key_too_big_for_a_chunk_is_cut_at_its_own_keys_packed_up_to_the_budget() -> None:
    # ``jobs:`` too big for a chunk was cut by lines wherever the chunk filled: a job's name in
    # one chunk, its steps in the next. Its jobs are its sections now, and a job too big for a
    # chunk is cut at its own keys; a block scalar's lines (``run: |``) are never keys.
    assert _sections("ci.yml", "yaml", WORKFLOW, budget=250) == [
        ("name", 1, 1), ("on", 2, 2), ("jobs > test > runs-on", 3, 5), ("jobs > test > steps", 6, 13),
        ("jobs > build", 14, 19)]
    assert _sections("ci.yml", "yaml", WORKFLOW, budget=150) == [
        ("name", 1, 1), ("on", 2, 2), ("jobs > test > runs-on", 3, 5), ("jobs > test > steps", 6, 9),
        ("jobs > test > steps > name: Test", 10, 13), ("jobs > build", 14, 16), ("jobs > build > steps", 17, 19)]
    # Small keys are packed together, titled by the trail they share, not a chunk a line.
    manifest = '{\n  "name": "shop",\n  "scripts": {\n' + ",\n".join(
        f'    "task{i}": "node scripts/task{i}.js --flag {i}"' for i in range(8)) + "\n  }\n}\n"
    assert _sections("package.json", "json", manifest, budget=200) == [
        ("name", 1, 2), ("scripts", 3, 6), ("scripts", 7, 9), ("scripts", 10, 13)]


def test_a_whole_line_over_a_budget_of_lines_is_oversized_not_split() -> None:
    # At one line, the breadcrumb alone fills the budget: each line was flagged split_line,
    # though its chunk held it whole.
    prep = prepare("t.txt", "text", "Line one of prose.\nLine two of prose.\n")
    chunks = chunk_document(prep, ChunkSettings(unit="lines", budget=1), "syntax")
    assert [(c.text, c.flags) for c in chunks] == [("Line one of prose.", ("oversized",)), ("Line two of prose.", ("oversized",))]
    assert_lossless(prep, chunks)


@pytest.mark.parametrize(
    ("path", "language", "source"),
    [
        ("d.sql", "sql", "CREATE TABLE products (\n    sku VARCHAR(20) PRIMARY KEY,\n    name TEXT NOT NULL,\n"
         "    price INTEGER NOT NULL,\n    weight INTEGER,\n    discontinued BOOLEAN NOT NULL DEFAULT FALSE\n);\n\n"
         "CREATE INDEX a ON products(sku);\n"),
        ("d.md", "markdown", "# Install\n\n" + "\n\n".join(f"Step {i}: run the installer and wait for it." for i in range(6))
         + "\n\n# Use\n\nRun it.\n"),
    ],
)
def test_a_section_too_big_for_a_chunk_is_numbered_parts_of_one(path: str, language: str, source: str) -> None:
    # Each piece said part 1 of 1, with no parent: a query could not give the section back whole.
    prep = prepare(path, language, source)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=120), "syntax")
    first_symbol = chunks[0].symbol
    parts = [c for c in chunks if c.symbol == first_symbol]
    assert len(parts) > 1 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.parts == len(parts) for c in parts) and parts[0].parent_id is None
    assert all(c.parent_id == parts[0].id for c in parts[1:])
    assert chunks[-1].symbol != first_symbol and (chunks[-1].part, chunks[-1].parts, chunks[-1].parent_id) == (1, 1, None)
    assert_lossless(prep, chunks)


def test_a_jsonc_comment_above_a_key_goes_with_that_key() -> None:
    # ``// about b`` went with "a", ``/* about c */`` with "b": only ``#`` read as a comment.
    source = '{\n  "a": 1,\n  // about b\n  "b": 2,\n  /* about c */\n  "c": 3\n}\n'
    chunks = chunk_document(prepare("t.jsonc", "json", source), ChunkSettings(unit="chars", budget=200), "syntax")
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks] == [("a", 1, 2), ("b", 3, 4), ("c", 5, 7)]


def test_a_json_array_of_objects_under_a_key_is_cut_between_its_elements() -> None:
    # Cut at the keys inside its objects: an object's "id" in one chunk, its "note" in the next,
    # every piece titled ``items``.
    import json

    source = json.dumps({"items": [{"id": i, "label": f"item {i}", "note": f"n{i}"} for i in (1, 2, 3)], "other": 1}, indent=2) + "\n"
    prep = prepare("t.json", "json", source)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=150), "syntax")
    assert [c.symbol for c in chunks] == ["items > [0]", "items > [1]", "items > [2]", "other"]
    assert all(c.text.rstrip().rstrip(",").rstrip().endswith(("}", "]", "1")) for c in chunks)
    assert_lossless(prep, chunks)


def test_a_heading_like_line_in_raw_html_is_no_heading() -> None:
    # ``# inside a div`` in a <div> and ``## inside pre`` in a <pre> were sections, the <div>
    # cut from its own content; CommonMark reads them as HTML.
    source = ("# Real\n\ntext\n\n<div>\n# inside a div\n</div>\n\n<pre>\n## inside pre\n\n## still pre\n</pre>\n\n"
              "## After\n\nmore\n")
    chunks = chunk_document(prepare("d.md", "markdown", source), ChunkSettings(unit="chars", budget=800), "syntax")
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks] == [("Real", 1, 13), ("Real > After", 15, 17)]
