"""The retrieval CLI: index, query and eval, run through ``core.__main__.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.__main__ import main
from core.settings import ChunkSettings
from tests.retrieval_fixtures import model, run_cli  # noqa: F401 - fixtures

PAYMENTS = '''def refund_payment(payment, amount):
    """Give money back."""
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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: object) -> Path:
    """A two-file project; the model fixture is requested so that it loads once per session."""
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.delenv("CHROMA_PORT", raising=False)
    root = tmp_path / "shop"
    root.mkdir()
    (root / "payments.py").write_text(PAYMENTS)
    (root / "shipping.py").write_text(SHIPPING)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_then_query(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "db"
    code, out, err = run(capsys, "index", str(project), "--db", str(db), "--budget", "64")
    assert code == 0, err
    reports = [json.loads(line) for line in out.splitlines()]
    assert {r["strategy"] for r in reports} == {"fixed", "syntax"}
    assert all(r["added"] == r["chunks"] > 0 for r in reports)
    assert "added" in err
    for mode in ("vector", "keyword", "hybrid"):
        code, out, err = run(capsys, "query", "refund a payment", "--db", str(db), "-k", "2", "--mode", mode)
        assert code == 0, err
        hits = [json.loads(line) for line in out.splitlines()]
        assert [h["rank"] for h in hits] == [1, 2, 1, 2]
        assert {h["strategy"] for h in hits} == {"fixed", "syntax"}
        top_syntax = next(h for h in hits if h["strategy"] == "syntax" and h["rank"] == 1)
        assert top_syntax["symbol"] == "refund_payment" and top_syntax["mode"] == mode
        assert "def refund_payment" in top_syntax["text"]
    code, out, _ = run(capsys, "query", "postage", "--db", str(db), "--strategy", "syntax", "--kind", "class")
    assert code == 0 and {json.loads(line)["kind"] for line in out.splitlines()} == {"class"}
    # No match is said, not left as an empty output.
    code, out, err = run(capsys, "query", "warranty claims", "--db", str(db), "--mode", "keyword")
    assert (code, out) == (0, "")
    assert "fixed: no results (no chunk holds a word of the query)" in err and "syntax: no results" in err
    # A filter value no chunk has is a typo, not an empty answer; an empty one is refused too.
    for flag, value, says in (("--kind", "funtion", "kinds in the index: class, function"),
                              ("--path", "./shipping.py", "paths in the index: payments.py, shipping.py"),
                              ("--language", "Python", "languages in the index: python"),
                              ("--path", "", "--path is empty")):
        code, out, err = run(capsys, "query", "postage", "--db", str(db), "--mode", "keyword", flag, value)
        assert code == 2 and not out and says in err, (flag, value, err)
    code, out, err = run(capsys, "index", str(project), "--db", str(db), "--budget", "64")
    assert code == 0 and all(json.loads(line)["added"] == 0 for line in out.splitlines())
    # Punctuation has no word for BM25: said, not an empty answer; hybrid still searches by meaning.
    code, out, err = run(capsys, "query", "?!?", "--db", str(db), "--mode", "keyword")
    assert code == 2 and not out and "no word to search by keyword" in err
    code, out, err = run(capsys, "query", "?!?", "--db", str(db), "--mode", "hybrid", "-k", "1")
    assert code == 0 and len(out.splitlines()) == 2
    # A query embeds afresh: a damaged embedding cache does not stop it (indexing says so).
    cache = db / "chunk_explorer" / "embeddings.sqlite3"
    cache.write_bytes(b"not a database" * 100)
    code, out, err = run(capsys, "query", "refund a payment", "--db", str(db), "-k", "1")
    assert code == 0 and out, err
    # A mistyped --db is an error, and leaves no folder behind.
    code, out, err = run(capsys, "query", "refund", "--db", str(tmp_path / "typo"))
    assert code == 2 and "nothing is indexed" in err and not (tmp_path / "typo").exists()


def test_the_head_weight_is_an_index_setting(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "db"), "--budget", "64", "--strategy", "syntax"]
    code, out, err = run(capsys, "index", str(project), *db)
    assert code == 0, err
    default = json.loads(out.splitlines()[0])
    code, out, err = run(capsys, "index", str(project), *db, "--head-weight", "0")
    assert code == 0, err
    plain = json.loads(out.splitlines()[0])
    assert plain["collection"] != default["collection"]  # other vectors: another collection
    assert plain["embedded"] + plain["reused"] == plain["chunks"]  # one text per chunk
    assert default["embedded"] + default["reused"] > default["chunks"]  # and the heads of definitions
    # The settings file the app exports (its Export panel says so) indexes as the options do.
    exported = tmp_path / "chunk-settings.json"
    exported.write_text(ChunkSettings(budget=64, head_weight=0.0).to_json())
    code, out, err = run(capsys, "index", str(project), "--db", str(tmp_path / "db"), "--strategy", "syntax", "--settings", str(exported))
    assert code == 0, err
    assert json.loads(out.splitlines()[0])["collection"] == plain["collection"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["query", "", "--db", "{db}"], "the query is empty"),
        (["query", "x" * 100_000, "--db", "{db}"], "100,000 characters long"),
        (["query", "refund", "--db", "{db}"], "nothing is indexed"),
        (["query", "refund", "--db", "{project}/payments.py"], "the data folder {project}/payments.py is a file"),
        (["index", "{project}", "--db", "{db}", "--model", "no-such-org/no-model"], "not in the local Hugging Face cache"),
        (["index", "{project}", "--db", "{db}", "--model", "./no/such/folder"], "model folder './no/such/folder' does not exist"),
        (["index", "{project}", "--db", "{db}", "--model", "{project}"], "holds no model (no modules.json or config.json)"),
        (["index", "{project}/nope", "--db", "{db}"], "no such file or folder"),
        (["index", "{project}", "--db", "{db}", "--head-weight", "1.5"], "head weight must be at least 0 and below 1"),
    ],
    ids=["empty-query", "100KB-query", "empty-db", "db-is-a-file", "unknown-model", "no-model-folder", "not-a-model-folder",
         "missing-path", "head-weight"],
)
def test_bad_input_exits_2_with_a_message(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    filled = [a.format(db=tmp_path / "db", project=project) for a in argv]
    code, out, err = run(capsys, *filled)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message.format(project=project) in err
    assert not (tmp_path / "db").exists()  # a run that fails on its input sets up no data folder


def test_eval_json_and_table(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    queries = project / "queries.jsonl"  # inside the corpus: eval must leave it out
    queries.write_text(
        json.dumps({"query": "give money back for a payment", "path": "payments.py", "symbol": "refund_payment"})
        + "\n"
        + json.dumps({"query": "postage of a parcel", "path": "shipping.py", "start_line": 5, "end_line": 6})
        + "\n"
        + json.dumps({"query": "gone", "path": "payments.py", "symbol": "no_such_function"})
        + "\n"
    )
    cache = tmp_path / "cache.sqlite3"
    code, out, err = run(
        capsys, "eval", str(project), "--queries", str(queries), "-k", "3", "--budget", "64", "--json", "--cache", str(cache)
    )
    assert code == 0, err
    data = json.loads(out)
    rows = {(m["strategy"], m["mode"]): m for m in data["metrics"]}
    assert set(rows) == {(s, m) for s in ("fixed", "syntax") for m in ("vector", "keyword", "hybrid")}
    assert rows[("syntax", "hybrid")]["whole@3"] == 1.0
    assert rows[("syntax", "hybrid")]["queries"] == 2
    assert {"touched@3", "mrr@3", "recall@3", "precision@3", "iou@3", "in_context@1024"} <= set(rows[("fixed", "vector")])
    assert "queries.jsonl:3: skipped: no definition 'no_such_function'" in err
    code, out, err = run(
        capsys, "eval", str(project), "--queries", str(queries), "--sweep", "budget=48,64", "--strategy", "syntax",
        "--mode", "vector", "--cache", str(cache),
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["budget", "strategy", "mode"] and len(lines) == 3
    # In JSON, a sweep has the single run's shape: its rows under "metrics", and what went unresolved.
    code, out, err = run(
        capsys, "eval", str(project), "--queries", str(queries), "--sweep", "budget=48,64", "--strategy", "syntax",
        "--mode", "vector", "--cache", str(cache), "--json",
    )
    data = json.loads(out)
    assert set(data) == {"settings", "sweep", "metrics", "unresolved", "notes"} and data["sweep"] == {"budget": [48, 64]}
    assert [row["budget"] for row in data["metrics"]] == [48, 64] and data["unresolved"][0]["line"] == 3
    # A grid of nothing but invalid settings evaluated nothing: an error, not a table of errors.
    code, out, err = run(capsys, "eval", str(project), "--queries", str(queries), "--sweep", "budget=0",
                         "--mode", "vector", "--cache", str(cache))
    assert code == 2 and out == "" and "error: --sweep: no combination is valid settings (first: budget must be" in err


def test_eval_names_malformed_query_lines(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"query": "a", "path": "payments.py", "symbol": "f"}\n{"query": "b"}\n')
    code, out, err = run(capsys, "eval", str(project), "--queries", str(queries))
    assert code == 2 and "line 2:" in err and "'path' must be a non-empty string" in err


def test_query_says_where_the_index_was_made(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "db"
    code, _, err = run(capsys, "index", str(project), "--db", str(db), "--strategy", "syntax")
    assert code == 0, err
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", "9")  # (never reached: the manifest says first)
    code, out, err = run(capsys, "query", "refund", "--db", str(db), "--mode", "keyword")
    assert code == 2 and not out
    assert "was made in that folder, not on a Chroma server; unset CHROMA_HOST and CHROMA_PORT" in err


def test_index_says_which_files_were_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "legacy"
    root.mkdir()
    (root / "latin.py").write_bytes('caf\xe9 = "cr\xe8me br\xfbl\xe9e"\n\n\ndef f():\n    return caf\xe9\n'.encode("cp1252"))
    code, _, err = run(capsys, "index", str(root), "--db", str(tmp_path / "db"), "--strategy", "syntax")
    assert code == 0, err
    assert "note: latin.py: not UTF-8, read as cp1252" in err.splitlines()
    code, _, err = run(capsys, "index", str(root), "--db", str(tmp_path / "db"), "--strategy", "syntax", "--quiet")
    assert code == 0 and "latin.py" not in err


def test_index_and_eval_say_how_far_the_embedding_is(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A cold-cache eval of the samples printed nothing for many minutes.
    code, _, err = run(capsys, "index", str(project), "--db", str(tmp_path / "db"), "--budget", "61")
    lines = [line for line in err.splitlines() if line.startswith("index: syntax: embedding ")]
    assert code == 0 and lines and lines[0].startswith("index: syntax: embedding 0/") and len(lines) <= 11
    code, _, err = run(capsys, "index", str(project), "--db", str(tmp_path / "db"), "--budget", "62", "--quiet")
    assert code == 0 and err == ""


def test_an_index_cut_short_by_ctrl_c_says_what_is_searched_meanwhile(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "interrupted" said nothing of the index: query went on answering from the last one, silently.
    from core.index import Store

    def cut_short(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "index", cut_short)
    code, out, err = run(capsys, "index", str(project), "--db", str(tmp_path / "db"))
    assert code == 130 and out == ""
    assert err.strip().splitlines()[-1].startswith("interrupted: this index is not finished; query and eval still search")


def test_query_writes_nothing_when_one_strategys_index_is_incomplete(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.index import UPDATING, Store

    db = tmp_path / "db"
    code, out, err = run(capsys, "index", str(project), "--db", str(db))
    assert code == 0, err
    syntax = next(json.loads(line)["collection"] for line in out.splitlines() if json.loads(line)["strategy"] == "syntax")
    collection = Store(db).collection(syntax)
    collection.modify(metadata={**collection.metadata, "revision": UPDATING})  # an index run that died
    code, out, err = run(capsys, "query", "refund", "--db", str(db), "--mode", "keyword")
    assert code == 2 and out == "", "no strategy's results, then a failure"
    assert "interrupted, so it is incomplete" in err


def test_query_with_vectors_after_a_restart(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "db"
    assert run(capsys, "index", str(project), "--db", str(db), "--strategy", "syntax", "--budget", "64")[0] == 0
    done = run_cli("query", "currency conversion rate", "--db", str(db), "-k", "1", "--mode", "vector")
    assert done.returncode == 0, done.stderr
    hit = json.loads(done.stdout)
    assert hit["symbol"] == "convert_currency" and hit["scores"]["vector"] > 0.2


def test_the_cli_default_data_folder_is_the_library_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from core import cli_retrieval, index

    assert cli_retrieval.DEFAULT_DB == index.DEFAULT_DB
    # eval's cache is the data folder's, which index and the app read: an eval run warms both.
    # (Store.cache_path is its own folder's embeddings.sqlite3; the folder is DB/OURS.)
    assert cli_retrieval.DEFAULT_CACHE == index.DEFAULT_DB / index.OURS / "embeddings.sqlite3"
    monkeypatch.delenv("CHUNK_EXPLORER_DATA", raising=False)
    assert cli_retrieval.default_db() == index.DEFAULT_DB and cli_retrieval.default_cache() == cli_retrieval.DEFAULT_CACHE
    # A folder walk knows a data folder by the files the store writes (core.sources cannot import
    # core.index, which the chunk command does without).
    from core import sources

    assert f"{index.OURS}/{index.MANIFEST}" in sources._INDEX_MARKS and cli_retrieval.DEFAULT_CACHE.name in sources._INDEX_MARKS
    # Where the app's data folder is moved to, the CLI's follows (the workshop's pre-warm went to
    # ./data/chroma and warmed a cache the app never read).
    monkeypatch.setenv("CHUNK_EXPLORER_DATA", str(tmp_path / "moved"))
    assert cli_retrieval.default_db() == tmp_path / "moved" / "chroma"
    assert cli_retrieval.default_cache() == tmp_path / "moved" / "chroma" / index.OURS / "embeddings.sqlite3"


def test_index_of_nothing_chunkable_fails_and_keeps_the_last_index(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db"
    assert run(capsys, "index", str(project), "--db", str(db), "--strategy", "syntax", "--budget", "64")[0] == 0
    page = tmp_path / "report.csv"
    page.write_text("<!DOCTYPE html>\n<html><body><table><tr><td>1</td></tr></table></body></html>\n")
    code, out, err = run(capsys, "index", str(page), "--db", str(db), "--strategy", "syntax")
    assert code == 2 and out == "" and "report.csv: nothing to index (skipped: report.csv: HTML" in err, err
    # Before, that run exited 0 and recorded empty collections as the last index: every later
    # query found nothing.
    code, out, err = run(capsys, "query", "refund a payment", "--db", str(db), "--mode", "keyword", "-k", "1")
    assert code == 0 and json.loads(out)["symbol"] == "refund_payment", err
    blobs = tmp_path / "blobs"
    blobs.mkdir()
    (blobs / "a.dat").write_bytes(b"\x00\x01" * 10)
    code, out, err = run(capsys, "index", str(blobs), "--db", str(db))
    assert code == 2 and "no files to index (skipped: a.dat: unknown file type)" in err, err


def test_index_and_eval_read_tables_with_the_header_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: object
) -> None:
    root = tmp_path / "t"
    root.mkdir()
    (root / "plain.csv").write_text("Oslo,3\nRome,18\nLima,21\n")
    db = tmp_path / "db"
    code, out, err = run(capsys, "index", str(root), "--db", str(db), "--strategy", "syntax", "--header", "yes")
    assert code == 0, err
    code, out, err = run(capsys, "query", "Rome", "--db", str(db), "--mode", "keyword", "-k", "1")
    assert code == 0 and json.loads(out)["columns"] == ["Oslo", "3"], out
    code, out, err = run(capsys, "index", str(root), "--db", str(db), "--strategy", "syntax", "--header", "no")
    code, out, err = run(capsys, "query", "Rome", "--db", str(db), "--mode", "keyword", "-k", "1")
    assert code == 0 and json.loads(out)["columns"] == ["column_1", "column_2"], out
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"query": "Rome", "path": "plain.csv", "start_line": 2, "end_line": 2}) + "\n")
    code, out, err = run(capsys, "eval", str(root), "--queries", str(queries), "--header", "no", "--mode", "keyword",
                         "--strategy", "syntax", "--no-cache", "--json")
    assert code == 0, err


def test_query_whose_models_folder_is_gone_says_what_to_do(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    from core.sizing import bundled_model_path

    copy = tmp_path / "my-model"
    shutil.copytree(bundled_model_path(), copy)
    db = tmp_path / "db"
    code, out, err = run(capsys, "index", str(project), "--db", str(db), "--strategy", "syntax", "--model", str(copy))
    assert code == 0, err
    shutil.rmtree(copy)
    code, out, err = run(capsys, "query", "refund", "--db", str(db))
    assert code == 2 and f"the index in {db} was made with the model '{copy}'" in err and "--mode keyword" in err, err
    code, out, err = run(capsys, "query", "refund", "--db", str(db), "--mode", "keyword", "-k", "1")
    assert code == 0 and json.loads(out)["symbol"] == "refund_payment"


def test_query_returns_a_split_function_whole_unless_bare_parts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: object
) -> None:
    root = tmp_path / "books"
    root.mkdir()
    steps = "\n".join(f"    total_{i} = step_{i}(orders)" for i in range(40))
    (root / "close.py").write_text(f"def close_books(orders):\n{steps}\n    return zebra_checksum(orders)\n")
    db = tmp_path / "db"
    code, _, err = run(capsys, "index", str(root), "--db", str(db), "--unit", "lines", "--budget", "10")
    assert code == 0, err
    argv = ["query", "zebra checksum", "--db", str(db), "--strategy", "syntax", "--mode", "keyword", "-k", "3"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    hits = [json.loads(line) for line in out.splitlines()]
    assert len(hits) == 1 and hits[0]["part"] == hits[0]["parts"] > 1  # found by its last part ...
    assert hits[0]["group_lines"] == [1, 42] and len(hits[0]["group"]) == hits[0]["parts"]  # ... returned whole
    assert hits[0]["group_text"] == (root / "close.py").read_text().rstrip("\n")
    code, out, err = run(capsys, *argv, "--bare-parts")
    assert code == 0, err
    bare = [json.loads(line) for line in out.splitlines()]
    assert bare and all("group" not in h for h in bare)


def test_index_dot_leaves_its_own_data_folder_out(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``index .`` from a project's root (the default --db is data/chroma below it) read its own
    # manifest and keyword files as sources, more with every run.
    monkeypatch.chdir(project)
    monkeypatch.delenv("CHUNK_EXPLORER_DATA", raising=False)
    for _ in range(2):
        code, out, err = run(capsys, "index", ".", "--strategy", "syntax")
        assert code == 0, err
    report = json.loads(out)
    assert (report["added"], report["deleted"], report["unchanged"]) == (0, 0, report["chunks"])
    assert [path for path, _ in report["skipped"]] == ["data/chroma/"]
    code, out, err = run(capsys, "query", "refund a payment", "--strategy", "syntax", "-k", "9")
    assert code == 0 and out and not [h for h in map(json.loads, out.splitlines()) if h["path"].startswith("data/")]
    # An empty --db (a script's unset "$DATA") is refused, not read as the current folder.
    with pytest.raises(SystemExit) as ended:
        main(["index", ".", "--db", ""])
    assert ended.value.code == 2 and "an empty path" in capsys.readouterr().err


def test_eval_refuses_a_bad_k_or_context_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # It read the corpus and loaded the model (7-13 s) before saying k=0 was no cut-off.
    for option in (["-k", "0"], ["--context", "-5"]):
        code, _, err = run(capsys, "eval", str(tmp_path / "none"), "--queries", str(tmp_path / "none.jsonl"), *option)
        assert code == 2 and "-k and --context must be at least 1" in err, err
