"""Script blocks of Vue, Svelte, Astro and HTML files chunked as code (core/embedded.py)."""

from __future__ import annotations

import pytest

from core.chunking import chunk_document, prepare
from core.document import Document
from core.embedded import MAX_BLOCKS, Part, part_document, parts
from core.metrics import boundary_damage
from core.settings import ChunkSettings
from core.syntax import list_definitions
from tests.helpers import assert_lossless, assert_slices_true

COMPONENT = """<template>
  <div class="cart">
    <h2>{{ title }}</h2>

    <ul>
      <li v-for="line in lines" :key="line.sku">{{ line.name }} — {{ line.quantity }}×</li>
    </ul>
  </div>
</template>

<script setup lang="ts">
import { computed, ref } from 'vue'

const lines = ref<Line[]>([])

/** Total of the cart, in cents, before coupons. */
function subtotal(items: Line[]): number {
  let total = 0
  for (const item of items) {

    total += item.quantity * item.price
  }

  return total
}

function addLine(line: Line): void {
  const found = lines.value.find((l) => l.sku === line.sku)
  if (found) {
    found.quantity += line.quantity
  } else {
    lines.value.push(line)
  }
}
</script>

<style scoped>
.cart { padding: 1rem; }

h2 { font-weight: 600; }
</style>
"""


def doc(text: str, language: str = "vue", path: str = "Cart.vue") -> Document:
    return Document.from_text(path, language, text)


def test_a_components_script_block_is_a_part_of_its_own_language() -> None:
    # (Its ``<style scoped>`` block, without a ``lang``, is CSS.)
    assert parts(doc(COMPONENT)) == [
        Part(1, 11, "vue", False), Part(12, 34, "typescript", True), Part(35, 37, "vue", False),
        Part(38, 40, "css", True), Part(41, 41, "vue", False),
    ]


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("<script>", "javascript"),
        ('<script lang="ts">', "typescript"),
        ("<script lang='tsx'>", "tsx"),
        ('<script context="module" lang=ts>', "typescript"),
        ('<script type="module">', "javascript"),
        ('<script type="text/typescript">', "typescript"),
        ('<script type="application/ld+json">', None),  # data, not code
        ('<script type="text/x-template">', None),
        ('<script lang="coffee">', None),  # no grammar here: stays markup
        ('<script data-lang="coffee">', "javascript"),  # data-lang is no lang
    ],
)
def test_the_tag_names_the_blocks_language(tag: str, language: str | None) -> None:
    found = parts(doc(f"<p>hi</p>\n{tag}\nlet x = 1\n</script>\n", "svelte", "A.svelte"))
    assert (found[1].language if found else None) == language


@pytest.mark.parametrize(
    "text",
    [
        '<script src="app.js"></script>\n<p>x</p>\n',  # on one line with its tag: no block
        "<script>\nlet x = 1\n",  # never closed
        "<script>\n\n</script>\n",  # empty
        "<p>no script here</p>\n",
    ],
)
def test_no_block_to_parse_leaves_the_file_markup(text: str) -> None:
    assert parts(doc(text, "html", "a.html")) is None
    prep = prepare("a.html", "html", text)
    assert all(c.strategy == "text" for c in chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax"))


def test_two_script_blocks_and_a_file_of_another_language() -> None:
    text = "<script>\nexport default { name: 'A' }\n</script>\n\n<script setup lang=\"ts\">\nconst a = 1\n</script>\n"
    assert [(p.first, p.last, p.code) for p in parts(doc(text)) or []] == [
        (1, 1, False), (2, 2, True), (3, 5, False), (6, 6, True), (7, 7, False),
    ]
    assert parts(doc(COMPONENT, "markdown", "a.md")) is None  # markup hosts only
    many = "".join(f"<p>{i}</p>\n<script>\nshow({i})\n</script>\n" for i in range(MAX_BLOCKS + 1))
    assert parts(doc(many, "html", "report.html")) is None  # a page of snippets, not a program
    assert len(parts(doc(many.split("<p>16</p>")[0], "html", "report.html")) or []) == 2 * MAX_BLOCKS + 1


def test_a_part_is_the_whole_file_with_the_rest_blanked() -> None:
    whole = doc(COMPONENT)
    script = part_document(whole, Part(12, 34, "typescript", True))
    assert len(script.data) == len(whole.data) and script.line_starts == whole.line_starts
    assert script.language == "typescript" and script.path == "Cart.vue"
    start, end = whole.line_start(12), whole.line_end(34)
    assert script.data[start:end] == whole.data[start:end]
    assert not script.data[:start].strip() and not script.data[end:].strip()  # "—" and "×" too


def test_the_script_is_chunked_as_code_and_the_markup_as_text() -> None:
    prep = prepare("Cart.vue", "vue", COMPONENT)
    for unit, budget in (("chars", 400), ("chars", 120), ("tokens", 40), ("lines", 5), ("nws", 80)):
        for merge in (False, True):
            chunks = chunk_document(prep, ChunkSettings(unit=unit, budget=budget, merge_siblings=merge), "syntax")
            assert_slices_true(prep, chunks)
            assert_lossless(prep, chunks)
            assert {c.language for c in chunks} == {"vue"}
            assert len({c.id for c in chunks}) == len(chunks)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert [(c.strategy, c.symbol, c.start_line, c.end_line) for c in chunks] == [
        ("text", "<document>", 1, 11),
        ("syntax", "<module>", 12, 14),
        ("syntax", "subtotal", 16, 25),  # whole, its blank lines and doc comment with it
        ("syntax", "addLine", 27, 34),
        ("text", "<document>", 35, 37),  # ``</script>`` and ``<style scoped>``: tags only, a divider
        ("syntax", ".cart", 38, 38),  # the style block's rule sets, named by their selectors
        ("syntax", "h2", 40, 40),
        ("text", "<document>", 41, 41),  # ``</style>`` alone: a divider
    ]
    assert chunks[5].embed_text == "/* Cart.vue :: .cart */\n.cart { padding: 1rem; }"
    assert [c.start_line for c in chunks if "divider" in c.flags] == [35, 41]
    assert chunks[2].embed_text.startswith("// Cart.vue :: subtotal\n/** Total of the cart")
    assert chunks[0].embed_text.startswith("<!-- Cart.vue :: <document> -->\n<template>")
    # A function too long for the budget is split with its signature repeated, as in a .ts file.
    small = chunk_document(prep, ChunkSettings(unit="chars", budget=120), "syntax")
    parts_of = [c for c in small if c.symbol == "subtotal"]
    assert len(parts_of) > 1 and all(c.header.startswith("function subtotal(") for c in parts_of[1:])


def test_definitions_and_damage_count_in_the_files_own_lines() -> None:
    prep = prepare("Cart.vue", "vue", COMPONENT)
    found = list_definitions(prep)
    assert [(d.symbol, d.first, d.last) for d in found] == [
        ("subtotal", 17, 25), ("addLine", 27, 34), (".cart", 38, 38), ("h2", 40, 40),
    ]
    settings = ChunkSettings(unit="lines", budget=12)
    fixed = chunk_document(prep, settings, "fixed")
    assert boundary_damage(prep, fixed, budget=12, model=settings.model, definitions=found).cut == ("subtotal",)
    syntax = chunk_document(prep, settings, "syntax")
    assert not boundary_damage(prep, syntax, budget=12, model=settings.model, definitions=found).cut


@pytest.mark.parametrize("tag", ["script", "style"])
def test_a_block_that_does_not_parse_leaves_the_file_markup(tag: str) -> None:
    broken = f"<template>\n  <p>x</p>\n</template>\n\n<{tag}>\n" + "))) ((( }}} {{{ ;;; ]]]\n" * 40 + f"</{tag}>\n"
    prep = prepare("Broken.vue", "vue", broken)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert chunks and all(c.strategy == "text" and not c.fallback for c in chunks)
    assert_lossless(prep, chunks)


def test_a_component_that_opens_with_its_script_keeps_the_tag_line_out_of_the_index() -> None:
    # ``<script setup>`` first, as many components are written: its tag line alone is a part of
    # markup, whose chunk is kept (every line covered) but flagged a divider, never indexed.
    template = COMPONENT.split("<script")[0]
    script = COMPONENT.split('<script setup lang="ts">\n')[1].split("</script>\n")[0]
    style = COMPONENT.split("</script>\n")[1]
    text = f'<script setup lang="ts">\n{script}</script>\n\n{template}{style}'
    prep = prepare("First.vue", "vue", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert chunks[0].text == '<script setup lang="ts">' and chunks[0].flags == ("divider",)
    assert chunks[1].strategy == "syntax" and "divider" not in chunks[1].flags
    # The script's closing tag goes with the template; the style's, last, is alone.
    assert [c for c in chunks if "divider" in c.flags] == [chunks[0], chunks[-1]]
    assert chunks[-1].text == "</style>"


ASTRO_PAGE = """---
import Layout from '../layouts/Layout.astro'

const { title } = Astro.props

function shout(text: string): string {
  return text.toUpperCase()
}
---

<Layout title={title}>
  <h1>{shout(title)}</h1>
</Layout>

<script>
  document.querySelector('h1')?.addEventListener('click', () => console.log('clicked'))
</script>
"""


def test_an_astro_pages_frontmatter_and_script_are_code() -> None:
    assert parts(doc(ASTRO_PAGE, "astro", "index.astro")) == [
        Part(1, 1, "astro", False), Part(2, 8, "typescript", True), Part(9, 15, "astro", False),
        Part(16, 16, "javascript", True), Part(17, 17, "astro", False),
    ]
    prep = prepare("index.astro", "astro", ASTRO_PAGE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert "shout" in [c.symbol for c in chunks if c.strategy == "syntax"]
    assert [(c.start_line, c.text) for c in chunks if "divider" in c.flags] == [(1, "---"), (17, "</script>")]
    assert [d.symbol for d in list_definitions(prep)] == ["shout"]
    # Fences with nothing between, or in a file of another language, are no frontmatter.
    assert parts(doc("---\n\n---\n<p>x</p>\n", "astro", "empty.astro")) is None
    assert parts(doc(ASTRO_PAGE.split("<script>")[0], "vue")) is None


# ---- <style> blocks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("<style>", "css"),
        ("<style scoped>", "css"),
        ('<style type="text/css">', "css"),
        ('<style lang="scss">', "scss"),
        ("<style lang='scss' scoped>", "scss"),
        ("<style module lang=scss>", "scss"),
        ('<style lang="less">', None),  # no grammar here: stays markup
        ('<style lang="sass">', None),
        ('<style lang="stylus">', None),
    ],
)
def test_the_style_tag_names_the_blocks_language(tag: str, language: str | None) -> None:
    found = parts(doc(f"<template>\n  <p>hi</p>\n</template>\n\n{tag}\n.a {{ color: red; }}\n</style>\n"))
    assert (found[1].language if found else None) == language
    if found:
        assert [(p.first, p.last, p.code) for p in found] == [(1, 5, False), (6, 6, True), (7, 7, False)]


def test_a_blocks_own_closing_tag_ends_it() -> None:
    # ``</style>`` in a script (a template string) does not close it, nor ``</script>`` a style;
    # a style on its tag's line is no block.
    text = (
        "<script>\nconst css = `\n</style>\n`\n</script>\n<style>\n.a::after { content: '</script>'; }\n"
        "</script>\n.b { color: red; }\n</style>\n<style>.c { color: blue; }</style>\n"
    )
    assert [(p.first, p.last, p.language) for p in parts(doc(text, "html", "page.html")) or []] == [
        (1, 1, "html"), (2, 4, "javascript"), (5, 6, "html"), (7, 9, "css"), (10, 11, "html"),
    ]


SCSS_COMPONENT = """<template>
  <ul class="cart">
    <li v-for="line in lines" :key="line.sku" class="cart__line">{{ line.name }}</li>
  </ul>
</template>

<script setup lang="ts">
defineProps<{ lines: Line[] }>()
</script>

<style lang="scss" scoped>
$gap: 0.5rem;

/// One line of the cart: name, quantity, price (prix TTC).
@mixin line-grid($columns) {
  display: grid;
  grid-template-columns: repeat($columns, auto);
}

.cart {
  padding: $gap;

  &__line {
    @include line-grid(3);
    border-bottom: 1px solid #ddd;
  }

  @media (max-width: 40em) {
    padding: 0;
  }
}
</style>
"""


def test_a_vue_components_style_rules_are_chunks_named_by_their_selectors() -> None:
    prep = prepare("Cart.vue", "vue", SCSS_COMPONENT)
    assert [(p.first, p.last, p.language) for p, _ in prep.parts or []] == [
        (1, 7, "vue"), (8, 8, "typescript"), (9, 11, "vue"), (12, 31, "scss"), (32, 32, "vue"),
    ]
    found = [(d.symbol, d.kind) for d in list_definitions(prep)]
    assert found == [
        ("line-grid", "mixin"), (".cart", "rule"), (".cart \u00bb &__line", "rule"),
        (".cart \u00bb @media (max-width: 40em)", "media"),
    ]
    for unit, budget in (("chars", 400), ("chars", 120), ("tokens", 40), ("lines", 5)):
        chunks = chunk_document(prep, ChunkSettings(unit=unit, budget=budget), "syntax")
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        assert {c.language for c in chunks} == {"vue"} and not any(c.fallback for c in chunks)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    styles = [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks if c.strategy == "syntax" and c.start_line >= 12]
    assert styles == [("module", "<module>", 12, 12), ("mixin", "line-grid", 14, 18), ("rule", ".cart", 20, 31)]
    assert not any(c.flags for c in chunks if c.strategy == "syntax")
    mixin = next(c for c in chunks if c.symbol == "line-grid")
    assert mixin.embed_text.startswith("/* Cart.vue :: line-grid */\n/// One line of the cart")
    # Under a small budget the rule set is split: its nested rules are chunks of their own,
    # under its selectors.
    small = chunk_document(prep, ChunkSettings(unit="chars", budget=120), "syntax")
    line = next(c for c in small if c.symbol == ".cart \u00bb &__line")
    assert line.kind == "rule" and line.header == ".cart" and line.text.lstrip().startswith("&__line {")
    assert line.embed_text.startswith("/* Cart.vue :: .cart \u00bb &__line */\n.cart\n")
