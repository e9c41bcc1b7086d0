"""Size units: the span sizers agree with measuring the text itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from core.chunking import prepare
from core.errors import ModelError, SettingsError
from core.sizing import load_tokenizer, make_sizer, model_max_seq_length, model_token_limit, resolve_model_path
from tests.helpers import SAMPLES

TEXT = "def größe(x):\n    return x * 2  # naïve 日本語\n\n\tclass Foo:\n  pass\n"


@pytest.mark.parametrize("unit", ["chars", "nws", "lines", "tokens"])
def test_spans_agree_with_measure_on_line_spans(unit: str) -> None:
    prep = prepare("a.py", "python", TEXT)
    sizer = make_sizer(unit)
    spans = prep.spans(sizer)
    doc = prep.doc
    for first in range(1, doc.line_count + 1):
        for last in range(first, doc.line_count + 1):
            a, b = doc.lines_span(first, last)
            assert spans.span(a, b) == sizer.measure(doc.slice(a, b)), (unit, first, last)


def test_units_count_what_they_say() -> None:
    assert make_sizer("chars").measure("héllo") == 5
    assert make_sizer("nws").measure(" a b\tc\n") == 3
    assert make_sizer("lines").measure("a\nb\n") == 2
    assert make_sizer("lines").measure("a\nb") == 2
    assert make_sizer("tokens").measure("hello world") == 2


def test_tokenizer_has_no_truncation_or_padding() -> None:
    tokenizer = load_tokenizer()
    long_text = "word " * 1000
    assert len(tokenizer.encode(long_text, add_special_tokens=False).ids) == 1000
    assert tokenizer.padding is None and tokenizer.truncation is None


def test_model_limits_come_from_the_bundled_model() -> None:
    assert model_max_seq_length() == 256
    assert model_token_limit() == 254


def test_tokens_unit_never_imports_torch() -> None:
    make_sizer("tokens").measure("x")
    assert "torch" not in sys.modules or "sentence_transformers" in sys.modules


def test_unknown_model_offline_says_how_to_fix() -> None:
    with pytest.raises(ModelError, match="local copy|copy the folder|not bundled"):
        resolve_model_path("no-such-org/no-such-model-xyz")


@pytest.mark.parametrize("name", ["~nosuchuser-xyz/model", "m" * 5000, "bad\0name"], ids=["unknown-home", "too-long", "nul"])
def test_a_model_name_that_is_no_usable_path_is_a_model_error(name: str) -> None:
    # (each once raised from pathlib: RuntimeError for an unknown home, OSError for the length)
    with pytest.raises(ModelError, match="not a usable name or path|not bundled"):
        resolve_model_path(name)


def test_unknown_unit_is_rejected() -> None:
    with pytest.raises(SettingsError, match="unknown unit"):
        make_sizer("words")


def test_token_spans_are_linear_not_quadratic() -> None:
    # The span sizer tokenizes once: asking for many spans costs no extra tokenization.
    text = (SAMPLES / "py_inventory/inventory/ledger.py").read_text("utf-8")
    prep = prepare("ledger.py", "python", text)
    sizer = make_sizer("tokens")
    spans = prep.spans(sizer)
    assert prep.spans(sizer) is spans
    doc = prep.doc
    total = spans.span(0, len(doc.data))
    assert total == sizer.measure(text)


TRICKY = [
    "snake_case_name = camelCaseName + 3.14e-5",
    "naïve café Ünïcödé ß 日本語の文字列 📦 emoji ©",
    "tab\tseparated\x0bvertical\x1ffield\x7fdel",
    "x" * 150 + " word",  # a word over WordPiece's 100-character limit is one [UNK]
    "   leading and trailing   ",
    "",
    "$var->call(); // C++: std::vector<int>& v = {1,2};",
]


def test_word_counter_matches_the_tokenizer_exactly() -> None:
    from core.sizing import WordPieceCounter

    tokenizer = load_tokenizer()
    assert WordPieceCounter.applies_to(tokenizer)
    counter = WordPieceCounter(tokenizer)
    texts = TRICKY + [p.read_text("utf-8") for p in SAMPLES.rglob("*") if p.is_file() and p.suffix in
                      {".py", ".ts", ".tsx", ".js", ".java", ".kt", ".go", ".rs", ".c", ".h", ".cpp", ".cs", ".rb",
                       ".php", ".md", ".sql", ".csv", ".tsv", ".json", ".toml", ".yaml", ".txt"}]
    for text in texts:
        assert counter.text(text) == len(tokenizer.encode(text, add_special_tokens=False).ids), text[:60]


def test_word_counter_token_starts_match_the_tokenizers_offsets() -> None:
    # Cuts inside a long line bisect these starts; they replace an ``encode`` of the whole line.
    from core.sizing import WordPieceCounter

    tokenizer = load_tokenizer()
    counter = WordPieceCounter(tokenizer)
    lines = [line for text in [*TRICKY, *(p.read_text("utf-8") for p in SAMPLES.rglob("*.py"))]
             for line in text.split("\n")]
    lines.append("".join(f"function f{i}(a,b){{return a*{i}+b.x{i}||c(\"s{i}\")}};" for i in range(3000)))
    checked = 0
    for line in lines:
        starts = counter.token_starts(line)
        if starts is None:
            assert not line.isascii() or any(ord(ch) < 32 and ch != "\t" for ch in line), line
            continue
        assert list(starts) == [a for a, _ in tokenizer.encode(line, add_special_tokens=False).offsets], line[:60]
        checked += 1
    assert checked > 1000


def test_a_huge_table_cell_is_counted_without_encoding_it_whole(monkeypatch) -> None:
    from core.settings import ChunkSettings
    from core.sources import load_bytes
    from core.tables import chunk_table_source

    cell = "lorem ipsum dolor sit amet " * 4_000  # past the length where words are counted
    source = load_bytes("big.csv", f"id,body\n1,short\n2,{cell}\n3,x\n".encode())
    tokenizer = load_tokenizer()
    long_texts: list[int] = []
    real = type(tokenizer).encode_batch_fast

    def spy(self, texts, *args, **kwargs):  # type: ignore[no-untyped-def]
        long_texts.extend(len(t) for t in texts if len(t) > 20_000)
        return real(self, texts, *args, **kwargs)

    monkeypatch.setattr(type(tokenizer), "encode_batch_fast", spy, raising=False)
    chunks = chunk_table_source(source, ChunkSettings(unit="tokens"), "syntax")
    big = next(c for c in chunks if c.row_start == 2)
    assert big.size == len(tokenizer.encode(big.embed_text, add_special_tokens=False).ids) and "oversized" in big.flags
    assert not long_texts


def test_token_spans_inside_lines() -> None:
    text = "alpha beta_gamma(delta)\nnaïve 日本 café\n"
    prep = prepare("t.py", "python", text)
    sizer = make_sizer("tokens")
    spans = prep.spans(sizer)
    doc = prep.doc
    tokenizer = load_tokenizer()
    whole = tokenizer.encode(text, add_special_tokens=False)
    starts = [doc.byte_of_char(a) for a, _ in whole.offsets]
    for a in range(0, len(doc.data) + 1):
        for b in range(a, len(doc.data) + 1):
            try:
                doc.slice(a, b)
            except UnicodeDecodeError:
                continue
            expected = sum(1 for s in starts if a <= s < b)
            assert spans.span(a, b) == expected, (a, b)


def test_char_and_byte_offsets_agree_far_into_long_non_ascii_lines() -> None:
    # Offsets past LONG_LINE into a line come from a per-line map (cutting a minified line that
    # holds one "é" re-encoded the line from its start for every cut: quadratic).
    from core.document import LONG_LINE, Document

    text = "héllo wörld " * 900 + "\n" + "ab😀c\ud800" * 3000 + "\nend é\n"
    doc = Document.from_text("t.txt", "text", text)
    assert len(text.split("\n")[0]) > LONG_LINE
    for offset in [*range(0, len(text) + 1, 37), len(text)]:
        byte = doc.byte_of_char(offset)
        assert byte == len(text[:offset].encode("utf-8", "surrogatepass")), offset
        assert doc.char_of_byte(byte) == offset


@pytest.mark.parametrize("unit", ["chars", "nws", "tokens"])
def test_spans_along_a_long_non_ascii_line_match_direct_counts(unit: str) -> None:
    # Past 4 KB into a line, offsets go through a byte -> column map built once per line
    # (decoding from the line's start on every question made a minified 2 MB file quadratic).
    line = "".join(f"naïve_{i} = 'café 日本 📦'\u3000; " for i in range(800))  # ~25 KB, one line
    text = "first = 1\n" + line + "\nlast = 2\n"
    prep = prepare("long.py", "python", text)
    doc = prep.doc
    sizer = make_sizer(unit)
    spans = prep.spans(sizer)
    cuts = sorted({doc.byte_of_char(c) for c in range(0, len(text) + 1, 997)} | {len(doc.data)})
    for offset in cuts:
        row = doc.line_of_byte(offset)
        assert doc.column_of_byte(row, offset) == len(doc.data[doc.line_start(row):offset].decode()), offset
    if unit == "tokens":  # a token span counts the tokens that start inside it
        tokenizer = load_tokenizer()
        starts = [doc.byte_of_char(a) for a, _ in tokenizer.encode(text, add_special_tokens=False).offsets]
        expected = [sum(1 for x in starts if a <= x < b) for a, b in zip(cuts, cuts[3:])]
    else:
        expected = [sizer.measure(doc.slice(a, b)) for a, b in zip(cuts, cuts[3:])]
    assert [spans.span(a, b) for a, b in zip(cuts, cuts[3:])] == expected


def test_a_server_may_limit_the_models_it_offers(tmp_path: Path) -> None:
    from core.sizing import allowed_models, check_allowed

    assert allowed_models(None) is None  # not set: any model, as on one's own machine
    assert allowed_models("") == allowed_models(" , ") == ()  # the bundled one alone
    assert allowed_models(" all-MiniLM-L6-v2, /srv/models/bge , org/e5,/srv/models/bge") == ("/srv/models/bge", "org/e5")
    check_allowed("all-MiniLM-L6-v2", ())
    check_allowed("sentence-transformers/all-MiniLM-L6-v2", ())
    check_allowed("/srv/models/bge", ("/srv/models/bge",))
    check_allowed(str(tmp_path), None)
    for model in ("/etc", "org/e5", "/srv/models/bge/.."):
        with pytest.raises(ModelError, match="not one this server offers .*all-MiniLM-L6-v2"):
            check_allowed(model, ("/srv/models/bge",) if model != "org/e5" else ())
