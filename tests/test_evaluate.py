"""Evaluation: query sets, target resolution, metrics on hand-built cases, runs and sweeps."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from core.chunk import Chunk
from core.chunking import prepare
from core.embed import Embedder
from core.errors import InputError
from core.evaluate import (
    Evaluation,
    QuerySpec,
    fill_context,
    load_queries,
    parse_grid,
    parse_queries,
    resolve_target,
    score_query,
    span_metrics,
    sweep,
)
from core.settings import DEFAULT_BUDGETS, DEFAULT_MODEL, ChunkSettings
from core.sizing import bundled_model_path
from core.sources import Corpus, Skipped, SourceFile
from tests.retrieval_fixtures import model, shared_embedder  # noqa: F401 - fixtures

SOURCE = "".join(f"line {n}\n" if n % 5 else "\n" for n in range(1, 41))  # every 5th line blank


def make_chunk(first: int, last: int, path: str = "a.py", size: int = 100) -> Chunk:
    prep = prepare(path, "python", SOURCE)
    start, end = prep.doc.lines_span(first, last)
    text = prep.doc.slice(start, end)
    return Chunk(
        id=f"{path}:{first}-{last}",
        path=path,
        language="python",
        strategy="fixed",
        kind="window",
        symbol="",
        parent_id=None,
        start_line=first,
        end_line=last,
        start_byte=start,
        end_byte=end,
        part=1,
        parts=1,
        header="",
        text=text,
        embed_text=text,
        size=size,
        unit="tokens",
    )


def target(first: int, last: int):  # type: ignore[no-untyped-def]
    return resolve_target(QuerySpec(1, "q", "a.py", start_line=first, end_line=last), prepare("a.py", "python", SOURCE))


# ---- query sets ------------------------------------------------------------------------------


def test_query_lines_parse_with_symbol_or_span() -> None:
    specs = parse_queries(
        '{"query": "q1", "path": "a.py", "symbol": "A.f"}\n\n{"query": "q2", "path": "b.py", "start_line": 3, "end_line": 9}\n'
    )
    assert specs == [
        QuerySpec(1, "q1", "a.py", symbol="A.f"),
        QuerySpec(3, "q2", "b.py", start_line=3, end_line=9),
    ]


def test_a_path_is_read_as_the_corpus_names_files_and_an_answer_is_one_kind() -> None:
    line = {"query": "q", "path": "./inventory//ledger.py", "symbol": "Ledger.post"}
    assert parse_queries(json.dumps(line))[0].path == "inventory/ledger.py"
    with pytest.raises(InputError, match="line 1: give 'symbol' or 'start_line' and 'end_line', not both"):
        parse_queries(json.dumps({**line, "start_line": 3, "end_line": 9}))


def test_a_prose_section_named_as_a_symbol_is_told_to_be_given_by_its_lines() -> None:
    prep = prepare("guide.md", "markdown", "# Guide\n\n## Returns\n\nReturn goods within 30 days.\n")
    with pytest.raises(InputError, match="a markdown file's sections are no definitions; give the section's start_line"):
        resolve_target(QuerySpec(1, "q", "guide.md", symbol="Guide > Returns"), prep)


def test_malformed_lines_are_named_by_number() -> None:
    text = "\n".join(
        [
            '{"query": "ok", "path": "a.py", "symbol": "f"}',
            "{not json",
            '{"query": "", "path": "a.py", "symbol": "f"}',
            '{"query": "q", "path": "a.py"}',
            '{"query": "q", "path": "a.py", "start_line": 9, "end_line": 3}',
            "[1, 2]",
            '{"query": "q", "path": 7, "symbol": "f"}',
            json.dumps({"query": "x" * 100_000, "path": "a.py", "symbol": "f"}),
        ]
    )
    with pytest.raises(InputError) as caught:
        parse_queries(text, "set.jsonl")
    message = str(caught.value)
    assert message.startswith("set.jsonl: 7 malformed query line(s)")
    for number in (2, 3, 4, 5, 6):
        assert f"line {number}:" in message
    assert "line 1:" not in message and "and 2 more" in message
    with pytest.raises(InputError, match="line 1: 'query' is 100,000 characters long; the limit is 10,000"):
        parse_queries(json.dumps({"query": "x" * 100_000, "path": "a.py", "symbol": "f"}))


def test_also_lists_answers_just_as_right_and_its_faults_are_named() -> None:
    line = {"query": "q", "path": "a.py", "symbol": "A.get", "also": [{"path": "a.py", "symbol": "B.get"},
                                                                       {"path": "b.py", "start_line": 2, "end_line": 4}]}
    (spec,) = parse_queries(json.dumps(line))
    assert spec.also == (QuerySpec(1, "q", "a.py", symbol="B.get"), QuerySpec(1, "q", "b.py", start_line=2, end_line=4))
    assert spec.answers() == (QuerySpec(1, "q", "a.py", symbol="A.get"), *spec.also)
    assert parse_queries(json.dumps({**line, "also": None}))[0].also == ()
    bad = [
        {**line, "also": {"path": "a.py"}},
        {**line, "also": [{"path": "a.py", "symbol": "B.get"}, {"path": "a.py"}]},
        {**line, "also": [{"path": "a.py", "start_line": 0, "end_line": 2}]},
    ]
    with pytest.raises(InputError) as caught:
        parse_queries("\n".join(json.dumps(b) for b in bad), "set.jsonl")
    message = str(caught.value)
    assert "line 1: 'also' must be a list of objects" in message
    assert "line 2: 'also' answer 2: needs 'symbol' or 'start_line' and 'end_line'" in message
    assert "line 3: 'also' answer 1: bad line span 0-2" in message


def test_a_bom_is_not_part_of_line_one_and_deep_nesting_is_a_named_line() -> None:
    assert parse_queries('\ufeff{"query": "q", "path": "a.py", "symbol": "f"}\n') == [QuerySpec(1, "q", "a.py", symbol="f")]
    with pytest.raises(InputError, match=r"line 2: not valid JSON for a query \(nested too deeply\)"):
        parse_queries('{"query": "q", "path": "a.py", "symbol": "f"}\n' + "[" * 100_000 + "]" * 100_000)


def test_a_query_set_in_utf16_is_read_and_other_bytes_are_named(tmp_path: Path) -> None:
    line = '{"query": "größe", "path": "a.py", "symbol": "f"}\n'
    (tmp_path / "utf16.jsonl").write_bytes(line.encode("utf-16"))  # PowerShell's default, with its BOM
    assert load_queries(tmp_path / "utf16.jsonl") == [QuerySpec(1, "größe", "a.py", symbol="f")]
    (tmp_path / "latin.jsonl").write_bytes(line.encode("latin-1"))
    with pytest.raises(InputError, match="latin.jsonl: not UTF-8 text .* save the query set as UTF-8"):
        load_queries(tmp_path / "latin.jsonl")


def test_an_empty_query_set_is_an_error() -> None:
    with pytest.raises(InputError, match="no queries"):
        parse_queries("\n\n")


def test_symbols_resolve_exactly_or_by_suffix() -> None:
    code = "class Ledger:\n    def post(self):\n        return 1\n\n\ndef post_all():\n    pass\n"
    prep = prepare("l.py", "python", code)
    exact = resolve_target(QuerySpec(1, "q", "l.py", symbol="Ledger.post"), prep)
    suffix = resolve_target(QuerySpec(1, "q", "l.py", symbol="post"), prep)
    assert (exact.first, exact.last) == (suffix.first, suffix.last) == (2, 3)
    qualified = resolve_target(QuerySpec(1, "q", "l.py", symbol="app\\shop.Ledger.post"), prep)
    assert (qualified.first, qualified.last) == (2, 3)  # more qualified than our breadcrumb
    # A Rust trait's method, written without its trait, is found while it is the only one.
    rust = prepare("lib.rs", "rust", "impl fmt::Display for Size {\n    fn fmt(&self) {}\n}\nimpl Size {\n    fn new() {}\n}\n")
    trait_method = resolve_target(QuerySpec(1, "q", "lib.rs", symbol="Size.fmt"), rust)
    assert (trait_method.first, trait_method.last) == (2, 2)
    # Written with a language's own separators, a symbol is still the breadcrumb it names.
    for written in ("Ledger::post", "app\\shop\\Ledger::post"):
        native = resolve_target(QuerySpec(1, "q", "l.py", symbol=written), prep)
        assert (native.first, native.last) == (2, 3), written
    # A callback's label is its own text, ``::`` and all: its end still names it.
    spec = prepare("s_spec.rb", "ruby", "RSpec.describe Reports::Summary do\n  it 'sums' do\n    x\n  end\nend\n")
    for written in ("describe(Reports::Summary).it('sums')", "it('sums')"):
        callback = resolve_target(QuerySpec(1, "q", "s_spec.rb", symbol=written), spec)
        assert (callback.first, callback.last) == (2, 4), written
    with pytest.raises(InputError, match="no definition 'missing'"):
        resolve_target(QuerySpec(1, "q", "l.py", symbol="missing"), prep)
    with pytest.raises(InputError, match="past the end"):
        resolve_target(QuerySpec(1, "q", "l.py", start_line=5, end_line=50), prep)


# ---- metrics on hand-built cases ----------------------------------------------------------------


def test_span_metrics_known_answers() -> None:
    goal = target(11, 14)  # bytes of "line 11\n" .. "line 14"
    assert span_metrics([make_chunk(11, 14)], goal) == (1.0, 1.0, 1.0)
    recall, precision, iou = span_metrics([make_chunk(11, 12)], goal)
    # "line 11\nline 12" is 15 bytes of the target's 31 ("line 11\n" .. "line 14", last newline excluded).
    assert recall == pytest.approx(15 / 31) and precision == 1.0 and iou == pytest.approx(15 / 31)
    recall, precision, iou = span_metrics([make_chunk(9, 14), make_chunk(11, 14)], goal)  # overlap counted once
    length = make_chunk(9, 14).end_byte - make_chunk(9, 14).start_byte
    assert recall == 1.0 and precision == pytest.approx(31 / length) and iou == pytest.approx(31 / length)
    assert span_metrics([make_chunk(11, 14, path="b.py")], goal) == (0.0, 0.0, 0.0)


def test_touched_whole_and_mrr() -> None:
    goal = target(11, 14)
    ranked = [make_chunk(1, 4), make_chunk(13, 19), make_chunk(6, 14)]
    for k, ranks in ((3, (2, 3)), (2, (2, None))):
        out = score_query(
            QuerySpec(1, "q", "a.py", start_line=11, end_line=14),
            goal,
            ranked,
            strategy="fixed",
            mode="vector",
            k=k,
            context_tokens=1000,
            tokens_of=lambda c: c.size,
        )
        assert (out.touched_rank, out.whole_rank) == ranks, k


def test_any_of_several_right_answers_scores_and_one_alone_does_not() -> None:
    first, second = target(11, 14), target(21, 24)
    ranked = [make_chunk(1, 4), make_chunk(21, 24), make_chunk(11, 12)]
    spec = QuerySpec(1, "q", "a.py", start_line=11, end_line=14)
    common = dict(strategy="fixed", mode="vector", k=3, tokens_of=lambda c: c.size)
    alone = score_query(spec, first, ranked, context_tokens=150, **common)
    assert (alone.touched_rank, alone.whole_rank, alone.in_context) == (3, None, False)
    assert alone.recall == pytest.approx(15 / 31)
    either = score_query(spec, (first, second), ranked, context_tokens=150, **common)
    # The second answer is held whole at rank 2: every figure is the better answer's. At 150
    # tokens only rank 1's chunk fits the context; at 200 rank 2's goes in too.
    assert (either.touched_rank, either.whole_rank, either.in_context) == (2, 2, False)
    assert score_query(spec, (first, second), ranked, context_tokens=200, **common).in_context
    assert either.recall == 1.0 and either.iou > alone.iou
    with pytest.raises(ValueError, match="at least one target"):
        score_query(spec, (), ranked, context_tokens=150, **common)


def test_blank_edge_lines_do_not_count_against_whole() -> None:
    goal = target(9, 16)  # lines 10 and 15 are blank; 9..16 non-blank edges
    assert 10 not in goal.lines and 15 not in goal.lines
    chunk = make_chunk(9, 16)
    assert span_metrics([chunk], goal)[0] == 1.0


def test_the_blank_lines_between_a_split_answers_parts_are_not_missed_text() -> None:
    # A function returned whole in two parts, a blank line between them in no chunk: recall
    # was 0.9992 beside whole@k 1.0.
    goal = target(11, 19)  # line 15 is blank
    parts = [make_chunk(11, 14), make_chunk(16, 19)]
    assert span_metrics(parts, goal) == (1.0, 1.0, 1.0)
    # A gap of text is still missed, and nothing retrieved is still nothing.
    recall, precision, _ = span_metrics([make_chunk(11, 12), make_chunk(16, 19)], goal)
    assert recall < 1.0 and precision == 1.0
    assert span_metrics([make_chunk(30, 34)], goal) == (0.0, 0.0, 0.0)


def test_context_is_filled_in_rank_order_and_counts_split_targets() -> None:
    goal = target(11, 19)
    parts = [make_chunk(11, 14, size=400), make_chunk(30, 34, size=500), make_chunk(16, 19, size=300)]
    assert [c.id for c in fill_context(parts, 1000, lambda c: c.size)] == ["a.py:11-14", "a.py:30-34"]
    spec = QuerySpec(1, "q", "a.py", start_line=11, end_line=19)
    common = dict(strategy="fixed", mode="vector", k=5, tokens_of=lambda c: c.size)
    # At 1000 tokens the third part no longer fits: the target is not whole in the context.
    assert not score_query(spec, goal, parts, context_tokens=1000, **common).in_context
    # At 1200 both halves go in: a split target counts when its parts are all there.
    assert score_query(spec, goal, parts, context_tokens=1200, **common).in_context
    # A big chunk passed over does not block a smaller later one.
    assert [c.id for c in fill_context(parts, 700, lambda c: c.size)] == ["a.py:11-14", "a.py:16-19"]


# ---- runs and sweeps ----------------------------------------------------------------------------

PAYMENTS = '''"""Payments."""


def refund_payment(payment, amount):
    if amount > payment.total:
        raise ValueError("refund larger than the payment")
    payment.refunded += amount
    return payment


def convert_currency(amount, rate):
    return round(amount * rate, 2)
'''

SHIPPING = '''class Parcel:
    def __init__(self, weight):
        self.weight = weight

    def postage(self):
        return 3 + self.weight * 0.5
'''


def tiny_corpus() -> Corpus:
    return Corpus(
        files=[
            SourceFile("shop/payments.py", "python", PAYMENTS),
            SourceFile("shop/shipping.py", "python", SHIPPING),
        ]
    )


QUERIES = [
    QuerySpec(1, "give money back to the customer for a payment", "shop/payments.py", symbol="refund_payment"),
    QuerySpec(2, "postage cost of a parcel by weight", "shop/shipping.py", symbol="postage"),
    QuerySpec(3, "not there", "shop/missing.py", symbol="x"),
]


def test_a_query_path_relative_to_another_folder_names_the_file_it_meant(shared_embedder: Embedder) -> None:
    # ``eval sample_repos/tables --queries queries/tables.jsonl`` (paths under sample_repos)
    # skipped every query as "not in the corpus", with no word of why.
    above = [QuerySpec(1, "postage by weight", "repo/shop/shipping.py", symbol="postage")]
    below = [QuerySpec(1, "postage by weight", "shipping.py", symbol="postage")]
    for queries, holds in ((above, "shop/shipping.py"), (below, "shop/shipping.py")):
        ((_, reason),) = Evaluation(tiny_corpus(), queries, shared_embedder).unresolved
        assert reason.startswith(f"{queries[0].path} is not in the corpus (it holds {holds}: ")
        assert "relative to the folder read" in reason
    # A name two files end with names both.
    corpus = tiny_corpus()
    corpus.files.append(SourceFile("tools/shipping.py", "python", SHIPPING))
    ((_, reason),) = Evaluation(corpus, below, shared_embedder).unresolved
    assert "(it holds shop/shipping.py and tools/shipping.py: " in reason


def test_a_question_given_twice_is_noted_as_counting_twice(shared_embedder: Embedder) -> None:
    # The same line twice weighed double in every average, without a word.
    twice = [QUERIES[0], replace(QUERIES[0], line=2), replace(QUERIES[0], line=3, query="refund a payment")]
    evaluation = Evaluation(tiny_corpus(), twice, shared_embedder)
    assert len(evaluation.resolved) == 3
    assert evaluation.notes == ((2, "the same question and answer as line 1: it counts twice"),)
    report = evaluation.run(ChunkSettings(budget=64, merge_siblings=False), k=1, strategies=("syntax",), modes=("keyword",))
    assert report.notes == evaluation.notes and report.to_dict()["notes"] == [{"line": 2, "note": evaluation.notes[0][1]}]


def test_evaluation_finds_obvious_targets(shared_embedder: Embedder) -> None:
    evaluation = Evaluation(tiny_corpus(), QUERIES, shared_embedder)
    assert evaluation.unresolved == ((3, "shop/missing.py is not in the corpus"),)
    report = evaluation.run(ChunkSettings(budget=64, merge_siblings=False), k=1)
    assert len(report.rows) == 6  # 2 strategies x 3 modes
    syntax = {r.mode: r for r in report.rows if r.strategy == "syntax"}
    for mode in ("vector", "hybrid"):
        assert syntax[mode].whole == 1.0 and syntax[mode].mrr == 1.0 and syntax[mode].in_context == 1.0
    as_json = report.to_dict()
    assert as_json["metrics"][0]["whole@1"] >= 0 and as_json["unresolved"][0]["line"] == 3
    # A file skipped when the corpus was read is said to be so, with why (not "not in the corpus").
    corpus = tiny_corpus()
    corpus.skipped.append(Skipped("shop/missing.py", "2,500,000 bytes, over the limit of 2,000,000"))
    skipped = Evaluation(corpus, QUERIES, shared_embedder)
    assert skipped.unresolved == (
        (3, "shop/missing.py was skipped when the corpus was read: 2,500,000 bytes, over the limit of 2,000,000"),
    )


def test_a_query_is_answered_by_any_of_its_answers_and_a_bad_one_leaves_it_out(shared_embedder: Embedder) -> None:
    strict = QuerySpec(1, "give money back to the customer for a payment", "shop/payments.py", symbol="convert_currency")
    lenient = replace(strict, line=2, also=(replace(strict, symbol="refund_payment"),))
    broken = replace(strict, line=3, also=(replace(strict, symbol="nowhere"),))
    evaluation = Evaluation(tiny_corpus(), [strict, lenient, broken], shared_embedder)
    assert [len(targets) for _, targets in evaluation.resolved] == [1, 2]
    # (Said of the 'also' answer: "shop/missing.py is not in the corpus" read as the question's own path.)
    assert evaluation.unresolved == ((3, "its 'also' answer 1: no definition 'nowhere' in shop/payments.py"),)
    report = evaluation.run(ChunkSettings(budget=64, merge_siblings=False), k=1, strategies=("syntax",), modes=("vector",))
    by_line = {o.line: o for o in report.outcomes}
    assert by_line[1].whole_rank is None and by_line[2].whole_rank == 1


def test_a_question_with_no_keyword_is_a_keyword_miss_not_an_error(shared_embedder: Embedder) -> None:
    wordless = QuerySpec(9, "Is it in?", "shop/payments.py", symbol="refund_payment")  # stopwords and short words
    report = Evaluation(tiny_corpus(), [QUERIES[0], wordless], shared_embedder).run(
        ChunkSettings(budget=64), k=1, strategies=("syntax",))
    by_mode = {(o.line, o.mode): o for o in report.outcomes}
    assert by_mode[(9, "keyword")].touched_rank is None and by_mode[(1, "keyword")].whole_rank == 1
    assert by_mode[(9, "vector")].top  # the other modes still search it


CITIES = "city,country,population\r\n" + "".join(
    f"{name},{country},{people}\r\n"
    for name, country, people in [("Lyon", "France", 522969), ("Porto", "Portugal", 231800), ("Graz", "Austria", 291072),
                                  ("Turku", "Finland", 195301), ("Cork", "Ireland", 224004)]
)  # fmt: skip


def test_a_table_row_is_a_target_by_its_lines(shared_embedder: Embedder) -> None:
    corpus = tiny_corpus()
    corpus.files.append(SourceFile("data/cities.csv", "csv", data=CITIES.encode("utf-8")))
    corpus.files.append(SourceFile("data/book.xlsx", "xlsx", data=b"PK\x03\x04"))
    queries = [
        QuerySpec(1, "how many people live in Graz", "data/cities.csv", start_line=4, end_line=4),
        QuerySpec(2, "cities", "data/cities.csv", symbol="Graz"),
        QuerySpec(3, "cities", "data/cities.csv", start_line=6, end_line=9),
        QuerySpec(4, "cities", "data/book.xlsx", start_line=1, end_line=1),
    ]
    evaluation = Evaluation(corpus, queries, shared_embedder)
    (spec, (found,)), = evaluation.resolved
    # Bytes of the file as it is: line 4 after three CRLF lines, its "\r\n" left out.
    start = CITIES.index("Graz")
    assert (found.first, found.last, found.start_byte, found.end_byte) == (4, 4, start, CITIES.index("\r", start))
    reasons = dict(evaluation.unresolved)
    assert "is a table: give its rows as start_line/end_line" in reasons[2]
    assert "lines 6-9 are past the end of data/cities.csv (6 lines)" == reasons[3]
    assert "is a workbook" in reasons[4]
    report = evaluation.run(ChunkSettings(table_rows=2), k=3, strategies=("syntax",), modes=("vector",))
    # The row chunk holding line 4 comes back (rows 3-4 of the table, under its header).
    assert report.rows[0].whole == 1.0 and report.rows[0].in_context == 1.0


def test_chunks_made_already_are_not_made_again_and_give_the_same_report(
    shared_embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Evaluate page chunked the corpus to count its chunks, then Evaluation chunked it again.
    import core.evaluate as evaluate_module
    from core.chunking import chunk_document

    corpus = tiny_corpus()
    corpus.files.append(SourceFile("data/cities.csv", "csv", data=CITIES.encode("utf-8")))
    settings = ChunkSettings(budget=64, merge_siblings=False)
    evaluation = Evaluation(corpus, QUERIES[:2], shared_embedder)
    plain = evaluation.run(settings, k=3)
    made = {s: {f.path: chunk_document(prepare(f.path, f.language, f.text or ""), settings, s)
                for f in corpus.files if f.text is not None} for s in ("fixed", "syntax")}
    calls: list[str] = []
    for name in ("chunk_document", "chunk_source"):
        real = getattr(evaluate_module, name)

        def counting(source, *args, real=real, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(getattr(source, "path", None) or source.doc.path)
            return real(source, *args, **kwargs)

        monkeypatch.setattr(evaluate_module, name, counting)
    given = evaluation.run(settings, k=3, chunks=made)
    assert calls == ["data/cities.csv", "data/cities.csv"]  # the table alone, once per strategy: not given
    assert (given.rows, given.outcomes) == (plain.rows, plain.outcomes)
    calls.clear()
    again = evaluation.run(settings, k=3)
    assert again.rows == plain.rows and len(calls) == 6  # without them: every file, per strategy


def test_progress_follows_the_embedding_and_the_scoring(shared_embedder: Embedder, tmp_path: Path) -> None:
    embedder = shared_embedder.with_cache(tmp_path / "cache.sqlite3")
    evaluation = Evaluation(tiny_corpus(), QUERIES[:2], embedder)
    embedding: list[tuple[str, int, int]] = []
    scoring: list[tuple[str, int, int]] = []
    evaluation.run(ChunkSettings(budget=64), progress=lambda *a: embedding.append(a),
                   scored=lambda *a: scoring.append(a))
    for strategy in ("fixed", "syntax"):
        embedded = [(done, total) for s, done, total in embedding if s == strategy]
        done = [d for d, _ in embedded]
        assert done == sorted(done) and embedded[-1][0] == embedded[-1][1] > 0
        scored = [(done, total) for s, done, total in scoring if s == strategy]
        assert scored == [(n, 6) for n in range(7)]  # 2 questions x 3 modes, one call each, then the end


def test_a_set_with_no_usable_question_is_an_error_not_zeros(shared_embedder: Embedder) -> None:
    queries = [QuerySpec(1, "q", "nope/missing.py", symbol="f"), QuerySpec(2, "q", "nope/other.py", symbol="g")]
    evaluation = Evaluation(tiny_corpus(), queries, shared_embedder)
    with pytest.raises(InputError, match=r"none of the 2 questions has a target in the corpus \(line 1: nope/missing.py is not"):
        evaluation.run(ChunkSettings(), strategies=("syntax",), modes=("vector",))


def test_sweep_reuses_embeddings_and_reports_bad_combinations(shared_embedder: Embedder, tmp_path: Path) -> None:
    embedder = shared_embedder.with_cache(tmp_path / "cache.sqlite3")
    evaluation = Evaluation(tiny_corpus(), QUERIES[:2], embedder)
    grid = {"budget": [48, 64], "overlap": [0, 64]}
    first = sweep(evaluation, ChunkSettings(), grid, strategies=("syntax",), modes=("vector",))
    errors = [row for row in first if "error" in row]
    assert [(r["budget"], r["overlap"]) for r in errors] == [(48, 64), (64, 64)]
    assert len(first) == 4
    again = sweep(evaluation, ChunkSettings(), {"budget": [48, 64]}, strategies=("syntax",), modes=("vector",))
    assert all(row["embedded"] == 0 and row["reused"] > 0 for row in again)


def test_a_sweep_over_models_embeds_each_row_with_its_own_model(shared_embedder: Embedder, tmp_path: Path) -> None:
    # A second model: the bundled one's files under another folder (a model of its own to the
    # cache, as two folders may hold different weights). It used to be scored with the first.
    other = tmp_path / "copy-of-minilm"
    shutil.copytree(bundled_model_path(), other, copy_function=os.symlink)
    evaluation = Evaluation(tiny_corpus(), QUERIES[:2], shared_embedder.with_cache(tmp_path / "cache.sqlite3"))
    rows = sweep(evaluation, ChunkSettings(), {"model": [DEFAULT_MODEL, str(other)]}, strategies=("syntax",),
                 modes=("vector",))
    first, second = rows
    assert first["embedded"] > 0 and second["embedded"] == first["embedded"], rows  # nothing shared across models
    assert second["whole@5"] == first["whole@5"] and second["mrr@5"] == first["mrr@5"]  # the same weights: the same answers


def test_a_unit_swept_without_a_budget_takes_that_units_default_budget(shared_embedder: Embedder) -> None:
    # 254 (the tokens default) would be 254 characters or 254 lines: not the same chunking at all.
    evaluation = Evaluation(tiny_corpus(), QUERIES[:1], shared_embedder)
    rows = sweep(evaluation, ChunkSettings(), {"unit": ["tokens", "chars", "lines"]}, strategies=("syntax",),
                 modes=("keyword",))
    # Every row states its budget (the tokens row's was left out: an empty cell, a missing key).
    assert [(r["unit"], r.get("budget")) for r in rows] == [
        ("tokens", ChunkSettings().budget), ("chars", DEFAULT_BUDGETS["chars"]), ("lines", DEFAULT_BUDGETS["lines"])]


def test_keyword_search_alone_embeds_nothing(shared_embedder: Embedder) -> None:
    # eval --mode keyword embedded every chunk (25 s for 76 chunks with no cache), then read no
    # vector: the model is not even asked for.
    class NoModel:
        name = key = DEFAULT_MODEL
        cache = None

        def embed(self, texts):  # type: ignore[no-untyped-def]
            raise AssertionError("keyword search needs no embedding")

    report = Evaluation(tiny_corpus(), QUERIES[:2], NoModel()).run(ChunkSettings(), modes=("keyword",))  # type: ignore[arg-type]
    assert report.embedded == report.reused == 0
    expected = Evaluation(tiny_corpus(), QUERIES[:2], shared_embedder).run(ChunkSettings(), modes=("keyword", "vector"))
    assert [r.to_dict() for r in report.rows] == [r.to_dict() for r in expected.rows if r.mode == "keyword"]


def test_grid_values_are_typed() -> None:
    assert parse_grid(["budget=128,254", "breadcrumb=true,false", "unit=tokens"]) == {
        "budget": [128, 254],
        "breadcrumb": [True, False],
        "unit": ["tokens"],
    }
    assert parse_grid(["head_weight=0,0.5", "head-lines=3"]) == {"head_weight": [0.0, 0.5], "head_lines": [3]}
    with pytest.raises(InputError, match="not a number"):
        parse_grid(["head_weight=half"])
    with pytest.raises(InputError, match="not an integer"):
        parse_grid(["budget=big"])
    with pytest.raises(InputError, match="bad sweep axis"):
        parse_grid(["colour=red"])
    # 0 rows a table chunk is "by the budget", as --rows 0 says; a value given twice runs once.
    assert parse_grid(["table_rows=0,2", "budget=64,64,128"]) == {"table_rows": [None, 2], "budget": [64, 128]}


def test_a_raw_window_that_ends_inside_the_targets_last_line_does_not_hold_it() -> None:
    from dataclasses import replace

    from core.chunking import chunk_document
    from core.evaluate import _holds

    source = "def greet(name):\n    message = 'hello ' + name\n    with open('log') as f:\n        f.write(message)\n"
    prep = prepare("a.py", "python", source)
    target = resolve_target(QuerySpec(1, "q", "a.py", symbol="greet"), prep)
    whole = chunk_document(prep, ChunkSettings(unit="chars", budget=4000), "syntax")[0]
    cut = source.index("write(") + 3  # a raw cut inside line 4, the last
    head = replace(whole, end_byte=cut, text=source[:cut], end_line=4)
    tail = replace(whole, start_byte=cut, text=source[cut:], start_line=4)
    assert _holds((whole,), target)
    assert not _holds((head,), target) and not _holds((tail,), target)
    assert _holds((head, tail), target)
    # Adjacent line-aligned chunks leave the newline between them out: still whole together.
    first = replace(whole, end_byte=source.index("\n    with"), end_line=2)
    second = replace(whole, start_byte=source.index("    with"), start_line=3)
    assert _holds((first, second), target)


def test_a_table_profile_holds_no_rows_and_groups_only_its_own_parts() -> None:
    from core.chunking import chunk_source
    from core.evaluate import _holds, _overlaps, table_target
    from core.groups import whole_definition
    from core.sources import load_bytes

    header = ",".join(f"column_number_{i}" for i in range(30))
    rows = "\n".join(",".join(str(r * 100 + i) for i in range(30)) for r in range(1, 7))
    source = load_bytes("t.csv", (header + "\n" + rows + "\n").encode())
    chunks = chunk_source(source, ChunkSettings(unit="chars", budget=900, table_rows=2), "table")
    profile = [c for c in chunks if c.kind == "table_profile"]
    assert len(profile) > 1 and all(c.parent_id == profile[0].id for c in profile[1:])
    target = table_target(QuerySpec(1, "q", "t.csv", start_line=4, end_line=4), source)
    assert not any(_holds((c,), target) or _overlaps((c,), target) for c in profile)
    assert whole_definition(profile[0], chunks) == tuple(profile)
    # An aggregate's target is the whole table: the profile is what answers it.
    everything = table_target(QuerySpec(2, "q", "t.csv", start_line=1, end_line=7), source)
    assert all(_holds((c,), everything) for c in profile)
    assert sum(_holds((c,), target) for c in chunks if c.kind == "table_rows") == 1


def test_a_json_document_is_named_as_not_jsonl_and_a_cap_is_checked_before_parsing() -> None:
    line = '{"query": "q", "path": "a.py", "symbol": "f"}'
    for text in (f"[{line}]", '{\n  "query": "q",\n  "path": "a.py",\n  "symbol": "f"\n}\n'):
        with pytest.raises(InputError, match=r"q\.json: one JSON document .* JSONL: one JSON object per line"):
            parse_queries(text, "q.json")
    assert len(parse_queries(f"{line}\n" * 3, "q.jsonl", max_queries=3)) == 3
    with pytest.raises(InputError, match=r"q\.jsonl: 4 query lines, over the 3 allowed here"):
        parse_queries(f"{line}\n" * 3 + "not even json\n", "q.jsonl", max_queries=3)


def test_the_apps_sweep_runs_each_strategy_once_per_distinct_setting() -> None:
    # Overlap shapes fixed windows only, the head weight syntax chunks only; and 10% and 25% of a
    # 3-line budget are both 0 lines: one run, not three rows labelled apart.
    from core.evaluate import sweep_steps

    base = ChunkSettings(unit="lines", budget=40)
    grid = {"budget": (3, 40), "overlap_pct": (0, 10, 25), "breadcrumb": (True,), "head_pct": (0, 30)}
    steps = sweep_steps(base, grid)
    assert len(steps) == 2 * 3 * 1 * 2
    runs = [(s.budget, s.overlap_pct, s.head_pct, strategy) for s in steps for strategy in s.strategies]
    assert [r for r in runs if r[0] == 3] == [(3, 0, 0, "fixed"), (3, 0, 0, "syntax"), (3, 0, 30, "syntax")]
    assert [r for r in runs if r[0] == 40] == [
        (40, 0, 0, "fixed"), (40, 0, 0, "syntax"), (40, 0, 30, "syntax"), (40, 10, 0, "fixed"), (40, 25, 0, "fixed")
    ]
    keys = [(s.settings.key(), strategy) for s in steps for strategy in s.strategies]
    assert len(keys) == len(set(keys))
    by_step = {(s.budget, s.overlap_pct, s.head_pct): s.settings for s in steps}
    assert by_step[(40, 25, 0)].overlap == 10 and by_step[(40, 0, 30)].head_weight == 0.3
    assert by_step[(3, 25, 0)].overlap == 0
